/* Tokens of the header literal. The text is a NUL-terminated copy (the
 * terminator is re2c's sentinel; NUL bytes inside the header are rejected
 * before lexing), so the lexer never reads past its input. */
#include "literal/scan.h"

#include <stdio.h>
#include <string.h>

/* NPYDT_COMPOSITE=0 (make COMPOSITE=0) builds the lexer without composite
 * tokens: each bracket, string and comma is then a token of its own. The
 * parse is the same either way (tests/check_composite.sh); see the top of
 * grammar/parser.y for what they cost and gain. */
#ifndef NPYDT_COMPOSITE
#define NPYDT_COMPOSITE 1
#endif

/*!re2c
    re2c:api:style = free-form;
    re2c:define:YYCTYPE = "unsigned char";
    re2c:define:YYCURSOR = "p->cur";
    re2c:define:YYMARKER = "mar";
    re2c:define:YYLIMIT = "lim";
    re2c:yyfill:enable = 0;
    re2c:eof = 0;
*/

/* The lexer stops at its first error (the parser aborts on it), so this
 * is the parse's only error. */
__attribute__((format(printf, 4, 5)))
static int lex_error(struct lit_parser *p, npydt_status code, size_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    p->status = set_errorv(p->err, code, off, NULL, fmt, ap);
    va_end(ap);
    return -1;
}

/* The bracket tok at p->tok, alone: the text after it is read again. */
static int bracket_alone(struct lit_parser *p, int tok)
{
    p->cur = p->tok + 1;
    return open_bracket(p, tok);
}

static int hexval(unsigned char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Append code point cp as UTF-8; the header is latin-1 (1.0, 2.0) or UTF-8
 * (3.0), and strings are kept as UTF-8 either way. */
static bool put_cp(struct lit_parser *p, char *out, size_t *n, uint32_t cp, size_t off)
{
    if (cp >= 0xD800 && cp <= 0xDFFF) {
        lex_error(p, NPYDT_E_ENCODING, off, "lone surrogate in string");
        return false;
    }
    if (cp > 0x10FFFF) {
        lex_error(p, NPYDT_E_SYNTAX, off, "code point out of range");
        return false;
    }
    *n += text_utf8_encode(cp, out + *n);
    return true;
}

/* Decode the body of a string literal [b, e) with Python's rules. The
 * decoded text is never longer than 2x the source (a latin-1 byte becomes
 * at most two UTF-8 bytes; escapes shrink). */
static struct lit *decode_string(struct lit_parser *p, size_t start, size_t end,
                                 const unsigned char *b, const unsigned char *e,
                                 bool raw, bool bytes)
{
    size_t cap = 2 * (size_t)(e - b) + 1;
    char *out = arena_alloc(p->arena, cap);
    if (!out) {
        p->status = set_nomem(p->err);
        return NULL;
    }
    size_t n = 0;
    bool utf8 = p->utf8;
    for (const unsigned char *s = b; s < e;) {
        size_t off = (size_t)(s - p->text);
        if (*s >= 0x80) {
            if (bytes) {
                lex_error(p, NPYDT_E_SYNTAX, off, "bytes can only contain ASCII characters");
                return NULL;
            }
            /* UTF-8 text was validated before lexing: its bytes are
             * copied as they are; a latin-1 byte is its code point */
            if (utf8)
                out[n++] = (char)*s;
            else
                n += text_utf8_encode(*s, out + n);
            s++;
            continue;
        }
        if (*s == '\r') {
            /* Python reads CR and CRLF in source text as a newline, also
             * inside a triple-quoted string */
            out[n++] = '\n';
            s += s + 1 < e && s[1] == '\n' ? 2 : 1;
            continue;
        }
        if (*s != '\\' || raw) {
            /* raw strings keep backslashes; what follows one is read as
             * any other character (a non-ASCII one decoded above) */
            out[n++] = (char)*s++;
            continue;
        }
        s++;    /* the backslash; a closing quote never follows a lone one */
        unsigned char c = *s++;
        uint32_t cp;
        switch (c) {
        case '\n': continue;                      /* line continuation */
        case '\r': if (s < e && *s == '\n') s++; continue;
        case '\\': out[n++] = '\\'; continue;
        case '\'': out[n++] = '\''; continue;
        case '"': out[n++] = '"'; continue;
        case 'a': out[n++] = '\a'; continue;
        case 'b': out[n++] = '\b'; continue;
        case 'f': out[n++] = '\f'; continue;
        case 'n': out[n++] = '\n'; continue;
        case 'r': out[n++] = '\r'; continue;
        case 't': out[n++] = '\t'; continue;
        case 'v': out[n++] = '\v'; continue;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7':
            cp = (uint32_t)(c - '0');
            for (int i = 0; i < 2 && s < e && *s >= '0' && *s <= '7'; i++)
                cp = cp * 8 + (uint32_t)(*s++ - '0');
            break;
        case 'x': case 'u': case 'U': {
            int digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            if (bytes && c != 'x') {
                out[n++] = '\\';
                out[n++] = (char)c;
                continue;
            }
            cp = 0;
            for (int i = 0; i < digits; i++) {
                int h = s < e ? hexval(*s) : -1;
                if (h < 0) {
                    lex_error(p, NPYDT_E_SYNTAX, off, "truncated \\%cXX escape in string", c);
                    return NULL;
                }
                cp = cp * 16 + (uint32_t)h;
                s++;
            }
            break;
        }
        case 'N':
            if (!bytes) {
                lex_error(p, NPYDT_E_SYNTAX, off, "\\N{...} escapes are not supported");
                return NULL;
            }
            out[n++] = '\\';
            out[n++] = 'N';
            continue;
        default:
            /* Python keeps unknown escapes as written. */
            out[n++] = '\\';
            s--;
            continue;
        }
        if (bytes) {
            /* any byte, as Python keeps it (octal escapes above \377 wrap);
             * the content of a bytes literal is never read as text */
            out[n++] = (char)(cp & 0xFF);
        } else if (!put_cp(p, out, &n, cp, off)) {
            return NULL;
        }
    }
    /* an escape may put a NUL inside (NumPy writes a name 'a\x00' so):
     * the length is what counts, the terminator only serves as a view */
    out[n] = '\0';
    struct lit *v = new_lit(p, bytes ? LIT_BYTES : LIT_STR, start, end);
    if (v) {
        v->u.str.s = out;
        v->u.str.len = n;
    }
    return v;
}

/* A string literal starting at the opening quote q (prefix letters were
 * already consumed). Handles '...', "...", '''...''' and """...""". */
static int lex_string(struct lit_parser *p, const unsigned char *start, const unsigned char *q,
                      bool raw, bool bytes, struct lit **val)
{
    const unsigned char *lim = p->text + p->len;
    unsigned char quote = *q;
    bool triple = lim - q >= 3 && q[1] == quote && q[2] == quote;
    const unsigned char *b = q + (triple ? 3 : 1);
    const unsigned char *s = b;
    size_t off = (size_t)(start - p->text);
    if (!triple) {
        /* a body without escapes or non-ASCII bytes (every string np.save
         * writes) is its own value: it stays in the text, where its
         * closing quote, which nothing reads again, becomes its NUL */
        s = skip_plain(b, lim, quote);
        if (s < lim && *s == quote) {
            if (s > b)
                fc_name(p);
            p->cur = s + 1;
            *val = span_lit(p, bytes ? LIT_BYTES : LIT_STR, off, b, s);
            return !*val ? -1 : bytes ? BYTES : STRING;
        }
    }
    for (;;) {
        if (s >= lim)
            return lex_error(p, NPYDT_E_SYNTAX, off, "unterminated string");
        if (*s == '\\') {
            if (s + 1 >= lim)
                return lex_error(p, NPYDT_E_SYNTAX, off, "unterminated string");
            /* a backslash before CR LF continues the line, as before LF */
            s += s[1] == '\r' && lim - s > 2 && s[2] == '\n' ? 3 : 2;
            continue;
        }
        if (!triple && (*s == '\n' || *s == '\r'))
            return lex_error(p, NPYDT_E_SYNTAX, off, "unterminated string");
        if (*s == quote && (!triple || (lim - s >= 3 && s[1] == quote && s[2] == quote)))
            break;
        s++;
    }
    const unsigned char *e = s;
    p->cur = s + (triple ? 3 : 1);
    *val = decode_string(p, off, (size_t)(p->cur - p->text), b, e, raw, bytes);
    if (*val && (*val)->u.str.len > 0)
        fc_name(p);
    return *val ? (bytes ? BYTES : STRING) : -1;
}

/* Integer literal [b, e) in the given base, underscores allowed between
 * digits (the regular expression has already checked their placement). */
static int lex_int(struct lit_parser *p, const unsigned char *b, const unsigned char *e,
                   unsigned base, struct lit **val)
{
    uint64_t mag = 0;
    bool big = false;
    for (const unsigned char *s = b; s < e; s++) {
        if (*s == '_')
            continue;
        int d = hexval(*s);
        if (!ck_mul(mag, base, &mag) || !ck_add(mag, (uint64_t)d, &mag))
            big = true;
    }
    struct lit *v = new_lit(p, LIT_INT, (size_t)(p->tok - p->text), (size_t)(e - p->text));
    if (!v)
        return -1;
    v->u.num.mag = big ? UINT64_MAX : mag;
    v->u.num.big = big;
    *val = v;
    p->last_was_int = true;
    return INT;
}

int lit_lex(struct lit_parser *p, struct lit **val, size_t *start, size_t *end)
{
    const unsigned char *mar = p->cur;
    const unsigned char *lim = p->text + p->len;
    int tok;
    (void)mar;
    if (p->run) {   /* the pairs lit_lex_list read after a '[' */
        *val = p->run;
        p->tok = p->text + p->run->start;
        p->cur = p->run_end;
        p->run = NULL;
        tok = RUN;
        goto done;
    }
again:
    /* spaces are not tokens (nor do they end an integer for the 'L' rule) */
    if (*p->cur == ' ')   /* the text's NUL stops this at its end */
        p->cur = skip_spaces(p->cur + 1, lim);
    p->tok = p->cur;
    bool after_int = p->last_was_int;
    p->last_was_int = false;
    /*!re2c
        dig = [0-9];
        idstart = [A-Za-z_];
        idchar = [A-Za-z0-9_];
        dec = [1-9] ("_"? dig)* | "0" ("_"? "0")*;
        hex = "0" [xX] ("_"? [0-9a-fA-F])+;
        oct = "0" [oO] ("_"? [0-7])+;
        bin = "0" [bB] ("_"? [01])+;
        digs = dig ("_"? dig)*;
        exp = [eE] [+-]? digs;
        float = (digs "." digs? | "." digs) exp? | digs exp;
        imag = (float | digs) [jJ];

        $ { *start = *end = p->len; return END; }

        /* NumPy's 'L' filter looks at the previous token: spaces and line
         * continuations are not tokens, newlines and comments are */
        [ \t\f]+ { p->last_was_int = after_int; goto again; }
        /* a line ends at CR, LF or CRLF, as Python reads source text */
        "\\" ("\r\n" | "\r" | "\n") { p->last_was_int = after_int; goto again; }
        [\r\n]+ { goto again; }
        "#" [^\r\n\x00]* { goto again; }

        "(" [ \t\f]* "'" { tok = NPYDT_COMPOSITE ? lit_lex_pair(p, val) : bracket_alone(p, LPAREN); goto done; }
        "{" { tok = open_bracket(p, LBRACE); goto done; }
        "[" [ \t\f]* "(" { tok = NPYDT_COMPOSITE ? lit_lex_list(p, val) : bracket_alone(p, LBRACK); goto done; }
        "[" { tok = open_bracket(p, LBRACK); goto done; }
        "(" { tok = open_bracket(p, LPAREN); goto done; }
        "}" { tok = close_bracket(p, RBRACE); goto done; }
        "]" { tok = close_bracket(p, RBRACK); goto done; }
        ")" { tok = close_bracket(p, RPAREN); goto done; }
        ":" { tok = COLON; goto done; }
        "," { fc_comma(p); tok = COMMA; goto done; }
        "+" { tok = PLUS; goto done; }
        "-" { tok = MINUS; goto done; }

        dec { tok = lex_int(p, p->tok, p->cur, 10, val); goto done; }
        hex { tok = lex_int(p, p->tok + 2, p->cur, 16, val); goto done; }
        oct { tok = lex_int(p, p->tok + 2, p->cur, 8, val); goto done; }
        bin { tok = lex_int(p, p->tok + 2, p->cur, 2, val); goto done; }
        "0"+ [1-9] {
            return lex_error(p, NPYDT_E_SYNTAX, (size_t)(p->tok - p->text),
                             "leading zeros in decimal integer literals are not permitted");
        }
        float | imag {
            *val = new_lit(p, LIT_FLOAT, (size_t)(p->tok - p->text), (size_t)(p->cur - p->text));
            tok = *val ? FLOAT : -1;
            goto done;
        }

        "'" {
            /* a key of the top-level dict */
            if (NPYDT_COMPOSITE && p->depth == 1 && p->outer == LBRACE && (p->prev == LBRACE || p->prev == COMMA || p->prev == ENTRYC) &&
                (tok = lit_lex_entry(p, val)) != 0)
                goto done;
            tok = lex_string(p, p->tok, p->tok, false, false, val);
            goto done;
        }
        [uU]? ['"] { tok = lex_string(p, p->tok, p->cur - 1, false, false, val); goto done; }
        [rR] ['"] { tok = lex_string(p, p->tok, p->cur - 1, true, false, val); goto done; }
        [bB] ['"] { tok = lex_string(p, p->tok, p->cur - 1, false, true, val); goto done; }
        ([bB][rR] | [rR][bB]) ['"] { tok = lex_string(p, p->tok, p->cur - 1, true, true, val); goto done; }

        "True" { *val = new_lit(p, LIT_BOOL, (size_t)(p->tok - p->text), (size_t)(p->cur - p->text));
                 if (*val) (*val)->u.b = true;
                 tok = *val ? TRUE : -1; goto done; }
        "False" { *val = new_lit(p, LIT_BOOL, (size_t)(p->tok - p->text), (size_t)(p->cur - p->text));
                  tok = *val ? FALSE : -1; goto done; }
        "None" { *val = new_lit(p, LIT_NONE, (size_t)(p->tok - p->text), (size_t)(p->cur - p->text));
                 tok = *val ? NONE : -1; goto done; }
        "L" / [^A-Za-z0-9_\x80-\xff] {
            /* Python 2 long suffix: NumPy's reader drops it after a number
             * in 1.0 and 2.0 headers, and a schema reads it alike. */
            if (after_int && p->long_suffix)
                goto again;
            return lex_error(p, NPYDT_E_SYNTAX, (size_t)(p->tok - p->text),
                             "name 'L' is not a literal");
        }
        idstart idchar* {
            char name[40];
            size_t n = (size_t)(p->cur - p->tok);
            snprintf(name, sizeof name, "%.*s%s", (int)(n > 32 ? 32 : n), (const char *)p->tok,
                     n > 32 ? "..." : "");
            return lex_error(p, NPYDT_E_SYNTAX, (size_t)(p->tok - p->text),
                             "name '%s' is not a literal", name);
        }
        * {
            unsigned char c = p->tok[0];
            char what[8];
            if (c >= 0x20 && c < 0x7f)
                snprintf(what, sizeof what, "'%c'", c);
            else
                snprintf(what, sizeof what, "0x%02x", c);
            return lex_error(p, NPYDT_E_SYNTAX, (size_t)(p->tok - p->text),
                             "unexpected character %s", what);
        }
    */
done:
    p->prev = tok;
    *start = (size_t)(p->tok - p->text);
    *end = (size_t)(p->cur - p->text);
    if (tok == LBRACE || tok == LBRACK || tok == LPAREN || tok == RBRACE || tok == RBRACK ||
        tok == RPAREN || tok == COLON || tok == COMMA || tok == PLUS || tok == MINUS)
        *val = NULL;
    return tok;
}

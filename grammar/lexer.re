/* Tokens of the header literal. The text is a NUL-terminated copy (the
 * terminator is re2c's sentinel; NUL bytes inside the header are rejected
 * before lexing), so the lexer never reads past its input. */
#include "literal/grammar.h"
#include "parser.h"

#include <stdio.h>
#include <string.h>

/*!re2c
    re2c:api:style = free-form;
    re2c:define:YYCTYPE = "unsigned char";
    re2c:define:YYCURSOR = "p->cur";
    re2c:define:YYMARKER = "mar";
    re2c:define:YYLIMIT = "lim";
    re2c:yyfill:enable = 0;
    re2c:eof = 0;
*/

__attribute__((format(printf, 4, 5)))
static int lex_error(struct lit_parser *p, npydt_status code, size_t off, const char *fmt, ...)
{
    if (p->status == NPYDT_OK) {
        va_list ap;
        va_start(ap, fmt);
        p->status = set_errorv(p->err, code, off, NULL, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static struct lit *new_lit(struct lit_parser *p, enum lit_kind kind, size_t start, size_t end)
{
    struct lit *v = arena_alloc_raw(p->nodes, sizeof *v);
    if (!v) {
        if (p->status == NPYDT_OK)
            p->status = set_nomem(p->err);
        return NULL;
    }
    *v = (struct lit){.kind = kind, .start = start, .end = end};
    return v;
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
    *n += utf8_encode(cp, out + *n);
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
            if (utf8) {
                uint32_t cp;
                size_t k = utf8_decode(s, (size_t)(e - s), &cp);
                if (k == 0) {   /* validated before lexing: never, but never loop */
                    lex_error(p, NPYDT_E_ENCODING, off, "invalid UTF-8 in string");
                    return NULL;
                }
                memcpy(out + n, s, k);
                n += k;
                s += k;
            } else {
                if (!put_cp(p, out, &n, *s, off))
                    return NULL;
                s++;
            }
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

/* Whether byte c of a string body may be handed out as it is: printable
 * ASCII other than a backslash and the quote q. Anything else (escapes,
 * line breaks, latin-1 or UTF-8 bytes) goes through decode_string. */
static inline bool plain_byte(unsigned char c, unsigned char q)
{
    return c >= 0x20 && c <= 0x7e && c != '\\' && c != q;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* The first byte of [s, lim) that is not plain_byte(., q), 16 bytes at a
 * time: names are most of a large header's bytes. */
static const unsigned char *skip_plain(const unsigned char *s, const unsigned char *lim,
                                       unsigned char q)
{
    const __m128i quote = _mm_set1_epi8((char)q), bslash = _mm_set1_epi8('\\'),
                  del = _mm_set1_epi8(0x7f), space = _mm_set1_epi8(0x20);
    for (; lim - s >= 16; s += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
        /* signed: below ' ' holds for control bytes and every byte >= 0x80 */
        __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, del), _mm_cmplt_epi8(v, space)));
        unsigned mask = (unsigned)_mm_movemask_epi8(bad);
        if (mask)
            return s + __builtin_ctz(mask);
    }
    while (s < lim && plain_byte(*s, q))
        s++;
    return s;
}
#else
/* The first byte of [s, lim) that is not plain_byte(., q). */
static const unsigned char *skip_plain(const unsigned char *s, const unsigned char *lim,
                                       unsigned char q)
{
    while (s < lim && plain_byte(*s, q))
        s++;
    return s;
}
#endif

/* A string literal whose body [b, e) is its value, as it is: it stays in
 * the text, where its closing quote at e, which nothing reads again,
 * becomes its NUL. start is where the literal begins (prefix or quote). */
static struct lit *span_lit(struct lit_parser *p, enum lit_kind kind, size_t start,
                            const unsigned char *b, const unsigned char *e)
{
    struct lit *v = new_lit(p, kind, start, (size_t)(e + 1 - p->text));
    if (v) {
        p->text[e - p->text] = '\0';
        v->u.str.s = (char *)(p->text + (b - p->text));
        v->u.str.len = (size_t)(e - b);
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

static int open_bracket(struct lit_parser *p, int tok)
{
    if (++p->depth > p->limits->max_depth) {
        if (p->status == NPYDT_OK)
            p->status = set_error(p->err, NPYDT_E_LIMIT, (size_t)(p->tok - p->text), NULL,
                                  "nesting deeper than %u brackets", p->limits->max_depth);
        return -1;
    }
    if (p->depth == 1)
        p->outer = tok;
    return tok;
}

static int close_bracket(struct lit_parser *p, int tok)
{
    if (p->depth > 0)
        p->depth--;
    return tok;
}

/* The first byte of [s, lim) that is not a space: np.save pads its
 * headers with dozens, and the lexer's rules would take them one by one. */
static inline const unsigned char *skip_spaces(const unsigned char *s, const unsigned char *lim)
{
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' ');
    for (; lim - s >= 16; s += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, space)) ^ 0xffffu;
        if (mask)
            return s + __builtin_ctz(mask);
    }
#endif
    while (s < lim && *s == ' ')
        s++;
    return s;
}

/* The first byte of [s, lim] that is not a space, tab or form feed; the
 * NUL at lim (the text holds no other) stops it there. */
static inline const unsigned char *skip_hs(const unsigned char *s, const unsigned char *lim)
{
    (void)lim;
    while (*s == ' ' || *s == '\t' || *s == '\f')
        s++;
    return s;
}

/* A decimal integer as repr writes it (no sign, no leading zero, no '_'),
 * of at most 18 digits so that it cannot overflow, from s: its end, or
 * NULL. */
static const unsigned char *scan_small_int(const unsigned char *s, const unsigned char *lim,
                                           uint64_t *v)
{
    const unsigned char *b = s;
    uint64_t x = 0;
    while (s < lim && *s >= '0' && *s <= '9' && s - b < 19)
        x = x * 10 + (uint64_t)(*s++ - '0');
    if (s == b || s - b > 18 || (*b == '0' && s - b > 1))
        return NULL;
    if (s < lim && ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_' ||
                    *s == '.' || *s >= 0x80))
        return NULL;   /* a suffix, a float or a name: the general rules read it */
    *v = x;
    return s;
}

/* A tuple of such integers from its '(' at lp, as np.save writes a shape:
 * "()", "(5,)", "(2, 3)". With t, its items are appended to t. The end
 * just past the ')', or NULL when the text is anything else (or, with t,
 * when out of memory: p->status is set then). */
static const unsigned char *scan_shape(struct lit_parser *p, const unsigned char *lp,
                                       struct lit *t)
{
    const unsigned char *lim = p->text + p->len;
    const unsigned char *s = skip_hs(lp + 1, lim);
    bool comma = true;   /* an item may come next */
    size_t n = 0;
    while (s < lim && *s != ')') {
        uint64_t v;
        const unsigned char *e;
        if (!comma || !(e = scan_small_int(s, lim, &v)))
            return NULL;
        if (t) {
            struct lit *d = new_lit(p, LIT_INT, (size_t)(s - p->text), (size_t)(e - p->text));
            if (!d)
                return NULL;
            d->u.num.mag = v;
            if (t->u.seq.tail)
                t->u.seq.tail->next = d;
            else
                t->u.seq.head = d;
            t->u.seq.tail = d;
            t->u.seq.n++;
        }
        n++;
        s = skip_hs(e, lim);
        comma = s < lim && *s == ',';
        if (comma)
            s = skip_hs(s + 1, lim);
    }
    /* one item needs its comma to be a tuple: "(5)" is an int */
    if (s >= lim || (n == 1 && !comma))
        return NULL;
    return s + 1;
}

/* The lit of the shape scan_shape found from lp to end, or NULL when out
 * of memory (p->status set). */
static struct lit *shape_lit(struct lit_parser *p, const unsigned char *lp,
                             const unsigned char *end)
{
    struct lit *t = new_lit(p, LIT_TUPLE, (size_t)(lp - p->text), (size_t)(end - p->text));
    if (!t || !scan_shape(p, lp, t))
        return NULL;
    return t;
}

/* A field entry as np.save writes most: ('name', 'type') or ('name',
 * 'type', shape) with plain single-quoted strings and a shape that
 * scan_shape reads. */
struct pair_scan {
    const unsigned char *q1, *e1;   /* the name's quotes */
    const unsigned char *q2, *e2;   /* the type's */
    const unsigned char *shape, *shape_end;   /* NULL when there is none */
};

/* The pair from its '(' at lp: its end just past the ')', or NULL. */
static const unsigned char *scan_pair(struct lit_parser *p, const unsigned char *lp,
                                      struct pair_scan *ps)
{
    const unsigned char *lim = p->text + p->len;
    const unsigned char *a = skip_hs(lp + 1, lim);
    if (a >= lim || *a != '\'')
        return NULL;
    const unsigned char *ae = skip_plain(a + 1, lim, '\'');
    const unsigned char *b = ae < lim && *ae == '\'' ? skip_hs(ae + 1, lim) : lim;
    b = b < lim && *b == ',' ? skip_hs(b + 1, lim) : lim;
    const unsigned char *be = b < lim && *b == '\'' ? skip_plain(b + 1, lim, '\'') : lim;
    const unsigned char *r = be < lim && *be == '\'' ? skip_hs(be + 1, lim) : lim;
    ps->shape = NULL;
    if (r < lim && *r == ',') {
        const unsigned char *sh = skip_hs(r + 1, lim);
        if (sh >= lim || *sh != '(' || !(ps->shape_end = scan_shape(p, sh, NULL)))
            return NULL;
        ps->shape = sh;
        r = skip_hs(ps->shape_end, lim);
    }
    if (r >= lim || *r != ')')
        return NULL;
    ps->q1 = a;
    ps->e1 = ae;
    ps->q2 = b;
    ps->e2 = be;
    return r + 1;
}

/* The tuple the grammar's tuple rule would build for the pair at lp. */
static struct lit *pair_lit(struct lit_parser *p, const unsigned char *lp,
                            const struct pair_scan *ps, const unsigned char *end)
{
    /* the tuple and its two strings in one block */
    struct lit *t = arena_alloc_raw(p->nodes, 3 * sizeof *t);
    struct lit *c = ps->shape ? shape_lit(p, ps->shape, ps->shape_end) : NULL;
    if (!t || (ps->shape && !c)) {
        if (p->status == NPYDT_OK)
            p->status = set_nomem(p->err);
        return NULL;
    }
    struct lit *a = t + 1, *b = t + 2;
    *a = (struct lit){.kind = LIT_STR, .start = (size_t)(ps->q1 - p->text),
                      .end = (size_t)(ps->e1 + 1 - p->text), .next = b,
                      .u.str = {(char *)p->text + (ps->q1 + 1 - p->text), (size_t)(ps->e1 - ps->q1 - 1)}};
    *b = (struct lit){.kind = LIT_STR, .start = (size_t)(ps->q2 - p->text),
                      .end = (size_t)(ps->e2 + 1 - p->text), .next = c,
                      .u.str = {(char *)p->text + (ps->q2 + 1 - p->text), (size_t)(ps->e2 - ps->q2 - 1)}};
    /* the closing quotes, which nothing reads again, end the strings */
    p->text[ps->e1 - p->text] = '\0';
    p->text[ps->e2 - p->text] = '\0';
    *t = (struct lit){.kind = LIT_TUPLE, .start = (size_t)(lp - p->text),
                      .end = (size_t)(end - p->text),
                      .u.seq = {a, c ? c : b, c ? 3 : 2}};
    return t;
}

/* After "(" and spaces, at a quote: a pair (see scan_pair) as one token
 * instead of five or more, whose value is the tuple the grammar would
 * build. It is valid wherever '(' may begin a value, so the parser
 * accepts or refuses it where it would the '('. Right after a '[', where
 * a list's items begin, the pairs that follow it, each after a ',' (the
 * fields of np.save's descriptor), but the last, make one token too:
 * RUN, each pair with the ',' after it, whose value is the sequence the
 * grammar's items rule would build, the pairs being valid wherever the
 * first is. Else "( 'name' ," is one token HEAD,
 * valid wherever '(' is, whose value is the tuple begun; on anything
 * else, the '(' alone. */
static int lex_pair(struct lit_parser *p, struct lit **val)
{
    const unsigned char *lim = p->text + p->len;
    struct pair_scan ps;
    const unsigned char *end = scan_pair(p, p->tok, &ps);
    /* a shape one bracket too deep is refused at its own '(', as the
     * tokens one by one would be */
    if (end && ps.shape && p->depth + 2 > p->limits->max_depth)
        end = NULL;
    if (!end) {
        const unsigned char *a = skip_hs(p->tok + 1, lim);
        const unsigned char *ae = skip_plain(a + 1, lim, '\'');
        const unsigned char *c = ae < lim && *ae == '\'' ? skip_hs(ae + 1, lim) : lim;
        if (c >= lim || *c != ',') {
            p->cur = p->tok + 1;
            return open_bracket(p, LPAREN);
        }
        if (open_bracket(p, HEAD) < 0)
            return -1;
        struct lit *t = new_lit(p, LIT_TUPLE, (size_t)(p->tok - p->text), 0);
        struct lit *s = span_lit(p, LIT_STR, (size_t)(a - p->text), a + 1, ae);
        if (!t || !s)
            return -1;
        t->u.seq.head = t->u.seq.tail = s;
        t->u.seq.n = 1;
        *val = t;
        p->cur = c + 1;
        return HEAD;
    }
    if (open_bracket(p, PAIR) < 0)
        return -1;
    close_bracket(p, PAIR);
    p->cur = end;
    struct lit *t = pair_lit(p, p->tok, &ps, end);
    if (!t)
        return -1;
    *val = t;
    if (p->prev != LBRACK)
        return PAIR;
    /* the pairs after it, each after a ',': all but the last join the
     * run, the last one is read again as a PAIR of its own, so that what
     * follows the run meets the parser in the state it would have after
     * tokens one by one */
    struct lit *seq = NULL;
    const unsigned char *last = NULL, *last_end = NULL;
    struct pair_scan last_ps;
    for (const unsigned char *at = end;;) {
        const unsigned char *c = skip_hs(at, lim);
        if (c >= lim || *c != ',')
            break;
        const unsigned char *lp = skip_hs(c + 1, lim);
        if (lp >= lim || *lp != '(' || !(end = scan_pair(p, lp, &ps)) ||
            p->depth + 1 + (ps.shape != NULL) > p->limits->max_depth)
            break;
        if (!seq) {
            if (!(seq = new_lit(p, LIT_TUPLE, t->start, t->end)))
                return -1;
            seq->u.seq.head = seq->u.seq.tail = t;
            seq->u.seq.n = 1;
        } else {
            struct lit *u = pair_lit(p, last, &last_ps, last_end);
            if (!u)
                return -1;
            seq->u.seq.tail->next = u;
            seq->u.seq.tail = u;
            seq->u.seq.n++;
        }
        last = lp;
        last_end = end;
        last_ps = ps;
        at = end;
    }
    if (!seq)
        return PAIR;
    seq->end = (size_t)(last - p->text);
    p->cur = last;
    *val = seq;
    return RUN;
}

/* After "[" and spaces, at a '(': a list of pairs (see scan_pair) with
 * ',' between them, and maybe after the last, as np.save writes a
 * structured descriptor, as one token LIST, whose value is the list the
 * grammar would build. Being a whole value, it is valid wherever '['
 * may begin one. When the list holds anything else, the '[' alone; the
 * pairs read up to there are kept for the next token (RUN, as lex_pair
 * would make it). */
static int lex_list(struct lit_parser *p, struct lit **val)
{
    const unsigned char *lim = p->text + p->len;
    struct lit *seq = NULL;
    const unsigned char *at = skip_hs(p->tok + 1, lim), *last = NULL, *end = NULL;
    struct lit *before_last = NULL;
    bool whole = false;
    while (p->depth + 2 <= p->limits->max_depth) {
        struct pair_scan ps;
        const unsigned char *e = scan_pair(p, at, &ps);
        if (!e || p->depth + 2 + (ps.shape != NULL) > p->limits->max_depth)
            break;
        struct lit *u = pair_lit(p, at, &ps, e);
        if (!u || (!seq && !(seq = new_lit(p, LIT_LIST, (size_t)(p->tok - p->text), 0))))
            return -1;
        before_last = seq->u.seq.tail;
        if (before_last)
            before_last->next = u;
        else
            seq->u.seq.head = u;
        seq->u.seq.tail = u;
        seq->u.seq.n++;
        last = at;
        const unsigned char *c = skip_hs(e, lim);
        if (*c == ',')
            c = skip_hs(c + 1, lim);
        if (*c == ']') {
            whole = true;
            end = c + 1;
            break;
        }
        if (*c != '(' || c == skip_hs(e, lim))
            break;   /* a pair needs its ',' before it */
        at = c;
    }
    if (whole) {
        if (open_bracket(p, LIST) < 0)
            return -1;
        close_bracket(p, LIST);
        seq->end = (size_t)(end - p->text);
        p->cur = end;
        *val = seq;
        return LIST;
    }
    p->cur = p->tok + 1;
    int tok = open_bracket(p, LBRACK);
    if (seq) {
        /* the last pair is read again: its closing quotes come back */
        const struct lit *name = seq->u.seq.tail->u.seq.head, *type = name->next;
        name->u.str.s[name->u.str.len] = '\'';
        type->u.str.s[type->u.str.len] = '\'';
    }
    if (tok >= 0 && seq && seq->u.seq.n >= 2) {
        /* all but the last pair: the run lex_pair would read next */
        seq->kind = LIT_TUPLE;
        seq->start = seq->u.seq.head->start;
        seq->end = (size_t)(last - p->text);
        seq->u.seq.tail = before_last;
        before_last->next = NULL;
        seq->u.seq.n--;
        p->run = seq;
        p->run_end = last;
    }
    return tok;
}

/* After "(" and spaces, at a digit or ')': a shape (see scan_shape) as one
 * token, valid wherever '(' may begin a value; else the '(' alone. */
static int lex_shape(struct lit_parser *p, struct lit **val)
{
    /* the lits are made as it reads; on anything else they are dropped,
     * and the nodes arena keeps them until the parse ends */
    struct lit *t = new_lit(p, LIT_TUPLE, (size_t)(p->tok - p->text), 0);
    if (!t)
        return -1;
    const unsigned char *end = scan_shape(p, p->tok, t);
    if (!end) {
        if (p->status != NPYDT_OK)
            return -1;
        p->cur = p->tok + 1;
        return open_bracket(p, LPAREN);
    }
    if (open_bracket(p, SHAPE) < 0)
        return -1;
    close_bracket(p, SHAPE);
    p->cur = end;
    t->end = (size_t)(end - p->text);
    *val = t;
    return SHAPE;
}

/* At a key's quote in the top-level dict, right after its '{' or a ',':
 * 'key': value with a plain single-quoted key, and a value np.save writes
 * (a plain single-quoted string, True, False, or a tuple of integers)
 * followed by ',' or '}', as one token. Its value is the key's lit, the
 * value's after it, as the grammar's rules would build them; everything
 * in it is valid there. A ',' after it is part of the token (ENTRYC),
 * a '}' the next token. 0 when the text is anything else. */
static int lex_entry(struct lit_parser *p, struct lit **val)
{
    const unsigned char *lim = p->text + p->len, *q = p->tok;
    const unsigned char *e = skip_plain(q + 1, lim, '\'');
    if (e >= lim || *e != '\'')
        return 0;
    const unsigned char *colon = skip_hs(e + 1, lim);
    if (colon >= lim || *colon != ':')
        return 0;
    const unsigned char *v = skip_hs(colon + 1, lim), *ve;
    /* the new lits are dropped when the text turns out to be anything
     * else: the nodes arena keeps them until the parse ends */
    struct lit *value;
    if (v >= lim)
        return 0;
    if (*v == '\'') {
        ve = skip_plain(v + 1, lim, '\'');
        if (ve >= lim || *ve != '\'')
            return 0;
        ve++;
        value = NULL;   /* made below, once the end is known to match */
    } else if (*v == 'T' || *v == 'F') {
        size_t n = *v == 'T' ? 4 : 5;
        if ((size_t)(lim - v) < n || memcmp(v, *v == 'T' ? "True" : "False", n) != 0)
            return 0;
        ve = v + n;
        if (ve < lim && ((*ve >= 'A' && *ve <= 'Z') || (*ve >= 'a' && *ve <= 'z') ||
                         (*ve >= '0' && *ve <= '9') || *ve == '_' || *ve >= 0x80))
            return 0;
        if (!(value = new_lit(p, LIT_BOOL, (size_t)(v - p->text), (size_t)(ve - p->text))))
            return -1;
        value->u.b = *v == 'T';
    } else if (*v == '(') {
        if (p->depth + 1 > p->limits->max_depth)
            return 0;
        if (!(value = new_lit(p, LIT_TUPLE, (size_t)(v - p->text), 0)))
            return -1;
        if (!(ve = scan_shape(p, v, value)))
            return p->status == NPYDT_OK ? 0 : -1;
        value->end = (size_t)(ve - p->text);
    } else {
        return 0;
    }
    const unsigned char *after = skip_hs(ve, lim);
    if (after >= lim || (*after != ',' && *after != '}'))
        return 0;
    if (*v == '\'' && !(value = span_lit(p, LIT_STR, (size_t)(v - p->text), v + 1, ve - 1)))
        return -1;
    struct lit *key = span_lit(p, LIT_STR, (size_t)(q - p->text), q + 1, e);
    if (!key)
        return -1;
    key->next = value;
    *val = key;
    if (*after == ',') {
        p->cur = after + 1;
        return ENTRYC;
    }
    p->cur = ve;
    return ENTRY;
}

int lit_lex(struct lit_parser *p, struct lit **val, size_t *start, size_t *end)
{
    const unsigned char *mar = p->cur;
    const unsigned char *lim = p->text + p->len;
    int tok;
    (void)mar;
    if (p->run) {   /* the pairs lex_list read after a '[' */
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

        "(" [ \t\f]* "'" { tok = lex_pair(p, val); goto done; }
        "(" [ \t\f]* [0-9)] { tok = lex_shape(p, val); goto done; }
        "{" { tok = open_bracket(p, LBRACE); goto done; }
        "[" [ \t\f]* "(" { tok = lex_list(p, val); goto done; }
        "[" { tok = open_bracket(p, LBRACK); goto done; }
        "(" { tok = open_bracket(p, LPAREN); goto done; }
        "}" { tok = close_bracket(p, RBRACE); goto done; }
        "]" { tok = close_bracket(p, RBRACK); goto done; }
        ")" { tok = close_bracket(p, RPAREN); goto done; }
        ":" { tok = COLON; goto done; }
        "," { tok = COMMA; goto done; }
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
            if (p->depth == 1 && p->outer == LBRACE && (p->prev == LBRACE || p->prev == COMMA || p->prev == ENTRYC) &&
                (tok = lex_entry(p, val)) != 0)
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

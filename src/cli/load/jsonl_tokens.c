/* The tokens of one JSON line, in jsmn's layout and by jsmn's strict
 * rules (the same tokens, sizes, errors and error positions for every
 * line), in one pass: the containers still open are kept on a stack, so
 * a closing bracket or a comma after an object's value finds its
 * container at once instead of searching back through every token
 * before it. A line nested deeper than tk->max_depth or of more than
 * tk->max_tokens tokens is refused where the limit is passed. */
#include "cli/load/jsonl.h"
#include "cli/common/report.h"

#include <stdlib.h>
#include <string.h>

static size_t sat_add(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

static size_t sat_mul(size_t a, uint64_t b)
{
    return b && a > SIZE_MAX / b ? SIZE_MAX : a * (size_t)b;
}

/* The tokens of dt's value as dump --jsonl writes it (an object of its
 * fields, nested lists, [re, im]) and the nesting of its deepest part. */
static size_t dump_tokens(const npydt_dtype *dt, size_t *depth)
{
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR:
        *depth = npydt_dtype_kind(dt) == 'c';
        return *depth ? 3 : 1;
    case NPYDT_SUBARRAY: {
        size_t nd = npydt_dtype_ndim(dt), lists = 0, outer = 1;
        const uint64_t *shape = npydt_dtype_shape(dt);
        for (size_t k = 0; k < nd; k++) {
            lists = sat_add(lists, outer);   /* the lists of dimension k */
            outer = sat_mul(outer, shape[k]);
        }
        size_t t = dump_tokens(npydt_dtype_base(dt), depth);
        *depth = sat_add(*depth, nd);
        return sat_add(lists, sat_mul(t, outer));
    }
    default:   /* NPYDT_STRUCT */
        break;
    }
    size_t t = 1, deepest = 0;
    for (size_t k = 0, nf = npydt_dtype_nfields(dt); k < nf; k++) {
        size_t d;
        t = sat_add(t, sat_add(1, dump_tokens(npydt_dtype_field_dtype(dt, k), &d)));
        deepest = d > deepest ? d : deepest;
    }
    *depth = sat_add(deepest, 1);
    return t;
}

void jsonl_caps(const npydt_dtype *dt, size_t *max_tokens, size_t *max_depth)
{
    size_t depth, t = dump_tokens(dt, &depth);
    *max_tokens = sat_add(sat_mul(t, 2), JSONL_SPARE_TOKENS);
    *max_depth = depth > JSONL_MAX_DEPTH ? depth : JSONL_MAX_DEPTH;
}

void jsonl_tokens_init(struct jsonl_tokens *tk, size_t max_tokens, size_t max_depth)
{
    memset(tk, 0, sizeof *tk);
    tk->max_tokens = max_tokens < INT32_MAX ? max_tokens : INT32_MAX;   /* n is an int */
    tk->max_depth = max_depth;
}

void jsonl_tokens_free(struct jsonl_tokens *tk)
{
    free(tk->t);
    free(tk->open);
    memset(tk, 0, sizeof *tk);
}

static npydt_status syntax(npydt_error *err, int ends_early, size_t pos)
{
    return cli_error(err, NPYDT_E_SYNTAX, "%s at byte %zu",
                     ends_early ? "the JSON text ends early" : "not valid JSON", pos + 1);
}

/* Room for one more element of an array of `size`-byte elements holding
 * n of cap, within limit elements: 0, or -1 (no memory). */
static int room(void **a, size_t *cap, size_t n, size_t size, size_t limit)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : 64;
    if (c > limit)
        c = limit;
    void *b = realloc(*a, c * size);   /* limit * size fits: see jsonl_tokenize */
    if (!b)
        return -1;
    *a = b;
    *cap = c;
    return 0;
}

/* A new token (start and end -1, size 0), or NULL with err set. */
static jsmntok_t *new_token(struct jsonl_tokens *tk, size_t pos, npydt_error *err)
{
    if ((size_t)tk->n == tk->max_tokens) {
        cli_error(err, NPYDT_E_LIMIT,
                  "more than %zu JSON values and keys on one line at byte %zu", tk->max_tokens,
                  pos + 1);
        return NULL;
    }
    if (room((void **)&tk->t, &tk->cap, (size_t)tk->n, sizeof *tk->t, tk->max_tokens) != 0) {
        cli_error(err, NPYDT_E_NOMEM, "out of memory");
        return NULL;
    }
    jsmntok_t *t = &tk->t[tk->n++];
    *t = (jsmntok_t){.type = JSMN_UNDEFINED, .start = -1, .end = -1, .size = 0};
    return t;
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The string opening at s[*pos]: its token (the text between the quotes),
 * *pos then at the closing quote. jsmn checks only the escapes' form. */
static npydt_status string_token(struct jsonl_tokens *tk, const char *s, size_t n, size_t *pos,
                                 npydt_error *err)
{
    size_t start = *pos;
    for (size_t i = start + 1; i < n; i++) {
        if (s[i] == '"') {
            jsmntok_t *t = new_token(tk, start, err);
            if (!t)
                return err->code;
            *t = (jsmntok_t){.type = JSMN_STRING, .start = (int)start + 1, .end = (int)i};
            *pos = i;
            return NPYDT_OK;
        }
        if (s[i] != '\\' || i + 1 >= n)
            continue;
        i++;
        if (s[i] == 'u') {
            /* up to four hex digits before the end of the line */
            size_t k;
            for (k = 0, i++; k < 4 && i < n; k++, i++)
                if (!is_hex(s[i]))
                    return syntax(err, 0, start);
            i--;
        } else if (!strchr("\"/\\bfrnt", s[i])) {
            return syntax(err, 0, start);
        }
    }
    return syntax(err, 1, start);
}

/* The number, true, false or null starting at s[*pos] (strict: it must be
 * followed by a space, ',', ']' or '}'), *pos then at its last byte. */
static npydt_status primitive_token(struct jsonl_tokens *tk, const char *s, size_t n, size_t *pos,
                                    npydt_error *err)
{
    size_t start = *pos;
    for (size_t i = start; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\t' || c == '\r' || c == '\n' || c == ' ' || c == ',' || c == ']' ||
            c == '}') {
            jsmntok_t *t = new_token(tk, start, err);
            if (!t)
                return err->code;
            *t = (jsmntok_t){.type = JSMN_PRIMITIVE, .start = (int)start, .end = (int)i};
            *pos = i - 1;
            return NPYDT_OK;
        }
        if (c < 32 || c >= 127)
            return syntax(err, 0, start);
    }
    return syntax(err, 1, start);
}

/* jsmn_parse's loop over the whole line: super is the token a new value
 * belongs to (a container, or the key before a ':'). */
static npydt_status parse(struct jsonl_tokens *tk, const char *s, size_t n, npydt_error *err)
{
    long super = -1;
    size_t depth = 0;
    npydt_status st;
    for (size_t pos = 0; pos < n; pos++) {
        char c = s[pos];
        switch (c) {
        case '{':
        case '[': {
            if (depth == tk->max_depth)
                return cli_error(err, NPYDT_E_LIMIT,
                                 "nested more than %zu levels deep at byte %zu", tk->max_depth,
                                 pos + 1);
            if (!new_token(tk, pos, err))
                return err->code;
            if (room((void **)&tk->open, &tk->open_cap, depth, sizeof *tk->open,
                     tk->max_depth) != 0)
                return cli_error(err, NPYDT_E_NOMEM, "out of memory");
            if (super != -1) {
                if (tk->t[super].type == JSMN_OBJECT)
                    return syntax(err, 0, pos);   /* an object or list as a key */
                tk->t[super].size++;
            }
            jsmntok_t *t = &tk->t[tk->n - 1];
            t->type = c == '{' ? JSMN_OBJECT : JSMN_ARRAY;
            t->start = (int)pos;
            super = tk->n - 1;
            tk->open[depth++] = tk->n - 1;
            break;
        }
        case '}':
        case ']': {
            jsmntype_t type = c == '}' ? JSMN_OBJECT : JSMN_ARRAY;
            if (depth == 0 || tk->t[tk->open[depth - 1]].type != type)
                return syntax(err, 0, pos);
            tk->t[tk->open[--depth]].end = (int)pos + 1;
            super = depth ? tk->open[depth - 1] : -1;
            break;
        }
        case '"':
            if ((st = string_token(tk, s, n, &pos, err)) != NPYDT_OK)
                return st;
            if (super != -1)
                tk->t[super].size++;
            break;
        case '\t':
        case '\r':
        case '\n':
        case ' ':
            break;
        case ':':
            super = tk->n - 1;
            break;
        case ',':
            if (super != -1 && tk->t[super].type != JSMN_ARRAY &&
                tk->t[super].type != JSMN_OBJECT && depth)
                super = tk->open[depth - 1];
            break;
        case '-': case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
        case 't': case 'f': case 'n':
            /* not a key of an object, nor a second value of a key */
            if (super != -1 && (tk->t[super].type == JSMN_OBJECT ||
                                (tk->t[super].type == JSMN_STRING && tk->t[super].size != 0)))
                return syntax(err, 0, pos);
            if ((st = primitive_token(tk, s, n, &pos, err)) != NPYDT_OK)
                return st;
            if (super != -1)
                tk->t[super].size++;
            break;
        default:
            return syntax(err, 0, pos);
        }
    }
    return depth ? syntax(err, 1, n) : NPYDT_OK;
}

npydt_status jsonl_tokenize(struct jsonl_tokens *tk, const char *s, size_t n, npydt_error *err)
{
    tk->n = 0;
    if (memchr(s, '\0', n))
        return cli_error(err, NPYDT_E_SYNTAX, "a NUL byte in the line");
    /* token offsets are ints; the room() sizes below do not overflow */
    if (n > INT32_MAX - 2 || tk->max_tokens > SIZE_MAX / sizeof *tk->t ||
        tk->max_depth > SIZE_MAX / sizeof *tk->open)
        return cli_error(err, NPYDT_E_LIMIT, "a line of %zu bytes is too long", n);
    size_t a = 0, b = n;
    while (a < b && (s[a] == ' ' || s[a] == '\t'))
        a++;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
        b--;
    if (a < b && s[a] != '{' && s[a] != '[' && s[a] != '"') {
        /* a bare number, true, false or null: strict jsmn wants one inside
         * a container, and it is one token anyway */
        jsmntok_t *t = new_token(tk, a, err);
        if (!t)
            return err->code;
        *t = (jsmntok_t){.type = JSMN_PRIMITIVE, .start = (int)a, .end = (int)b};
        return NPYDT_OK;
    }
    npydt_status st = parse(tk, s, n, err);
    if (st != NPYDT_OK)
        return st;
    if (tk->n == 0)
        return cli_error(err, NPYDT_E_SYNTAX, "no JSON value on the line");
    size_t end = (size_t)tk->t[0].end + (tk->t[0].type == JSMN_STRING);
    for (size_t k = end; k < n; k++)
        if (s[k] != ' ' && s[k] != '\t')
            return cli_error(err, NPYDT_E_SYNTAX, "text after the JSON value at byte %zu", k + 1);
    return NPYDT_OK;
}

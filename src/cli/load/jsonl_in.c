/* JSON Lines input: one element per line, as dump --jsonl writes it
 * (cli-json contract), tokenized in one pass (jsonl_tokens.c, no
 * allocation per value) and walked along the dtype. A struct is an object keyed by field names in
 * any order, or by field paths ("pos.x", "samples[2]"), or a list of its
 * fields' values in field order; a subarray is nested lists following its
 * shape; a complex value is [re, im]. A line as dump writes it is read
 * by the dtype's plan (jsonl_plan.c); any other, and any the plan does
 * not take, by the general walk here. */
#include "cli/load/jsonl.h"
#include "cli/common/report.h"

#include <stdlib.h>
#include <string.h>

struct jwalk {
    const char *s;              /* the line */
    jsmntok_t *t;
    int nt, i;                  /* tokens, the next one */
    struct load_record *rec;
    char *sbuf;                 /* unescaped strings (a line's length is enough) */
    npydt_error *err;
};

static const char *token_text(const struct jwalk *w, const jsmntok_t *t, size_t *len)
{
    *len = (size_t)(t->end - t->start);
    return w->s + t->start;
}

/* The value of the four hex digits at s (the tokenizer checked them). */
static unsigned hex4(const char *s)
{
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        unsigned c = (unsigned char)s[k];
        v = v << 4 | (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* Unescape the string token's text into w->sbuf. bytes: \u00XX is the
 * byte XX (an S field) and larger code points are refused; otherwise
 * UTF-8, a lone surrogate as its 3-byte sequence (as the library reads U
 * data). */
static npydt_status unescape(struct jwalk *w, const char *s, size_t n, int bytes,
                             struct load_value *v)
{
    const char *bs = memchr(s, '\\', n);
    v->kind = LOAD_STRING;
    if (!bs) {
        v->text = s;
        v->len = n;
        return NPYDT_OK;
    }
    char *o = w->sbuf;
    size_t k = (size_t)(bs - s);
    memcpy(o, s, k);
    o += k;
    for (size_t i = k; i < n;) {
        if (s[i] != '\\') {
            *o++ = s[i++];
            continue;
        }
        char c = s[i + 1];
        i += 2;
        switch (c) {
        case 'b': *o++ = '\b'; continue;
        case 'f': *o++ = '\f'; continue;
        case 'n': *o++ = '\n'; continue;
        case 'r': *o++ = '\r'; continue;
        case 't': *o++ = '\t'; continue;
        case 'u': break;
        default: *o++ = c; continue;   /* " \ / */
        }
        unsigned cp = hex4(s + i);   /* jsonl_tokenize checked every escape's form */
        i += 4;
        if (bytes) {
            if (cp > 0xFF)
                return cli_error(w->err, NPYDT_E_VALUE,
                                 "\\u%04x in a bytes string: only \\u0000 to \\u00ff are bytes",
                                 cp);
            *o++ = (char)cp;
            continue;
        }
        if (cp >= 0xD800 && cp < 0xDC00 && i + 6 <= n && s[i] == '\\' && s[i + 1] == 'u') {
            unsigned lo = hex4(s + i + 2);
            if (lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                i += 6;
            }
        }
        o += text_utf8_encode(cp, o);
    }
    v->text = w->sbuf;
    v->len = (size_t)(o - w->sbuf);
    return NPYDT_OK;
}

/* The scalar value of token t for a field of kind. */
static npydt_status scalar_value(struct jwalk *w, const jsmntok_t *t, char kind,
                                 struct load_value *v)
{
    size_t n;
    const char *s = token_text(w, t, &n);
    /* jsmn gives the tokens after a ':' to the value before it */
    if (t->size != 0)
        return cli_error(w->err, NPYDT_E_SYNTAX, "not valid JSON at byte %d: ':' after a value",
                         t->start + (t->type != JSMN_STRING));
    if (t->type == JSMN_STRING)
        return unescape(w, s, n, kind == 'S', v);
    v->text = s;
    v->len = n;
    if (n == 4 && memcmp(s, "true", 4) == 0)
        v->kind = LOAD_TRUE;
    else if (n == 5 && memcmp(s, "false", 5) == 0)
        v->kind = LOAD_FALSE;
    else if (n == 4 && memcmp(s, "null", 4) == 0)
        v->kind = LOAD_NULL;
    else if (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))
        v->kind = LOAD_NUMBER;   /* its form is checked where it is read */
    else
        return cli_error(w->err, NPYDT_E_SYNTAX, "'%.*s' is not a JSON value",
                         (int)(n > 40 ? 40 : n), s);
    return NPYDT_OK;
}

static npydt_status fill(struct jwalk *w, const npydt_dtype *node, uint64_t off, unsigned depth);

/* An error about the value at the node (offset off), naming its path. */
static npydt_status node_error(struct jwalk *w, const npydt_dtype *node, uint64_t off,
                               npydt_status code, const char *what)
{
    cli_error(w->err, code, "%s", what);
    load_record_path(w->rec, off, node, w->err);
    return code;
}

static npydt_status fill_struct(struct jwalk *w, const npydt_dtype *node, uint64_t off,
                                unsigned depth)
{
    const jsmntok_t *t = &w->t[w->i++];
    size_t nf = npydt_dtype_nfields(node);
    if (t->type == JSMN_ARRAY) {
        /* the fields' values in field order */
        if ((size_t)t->size != nf) {
            char what[96];
            snprintf(what, sizeof what, "%s: %d values for %zu fields",
                     (size_t)t->size > nf ? "too many values" : "too few values", t->size, nf);
            return node_error(w, node, off, (size_t)t->size > nf ? NPYDT_E_VALUE : NPYDT_E_KEY,
                              what);
        }
        for (size_t k = 0; k < nf; k++) {
            npydt_status st = fill(w, npydt_dtype_field_dtype(node, k),
                                   off + npydt_dtype_field_offset(node, k), depth + 1);
            if (st != NPYDT_OK)
                return st;
        }
        return NPYDT_OK;
    }
    if (t->type != JSMN_OBJECT)
        return node_error(w, node, off, NPYDT_E_VALUE,
                          "expected an object or a list of the fields' values");
    for (int k = 0; k < t->size; k++) {
        const jsmntok_t *key = &w->t[w->i++];
        /* jsmn takes a key without a value ({"a"}, {"a":}) and a second
         * value after one; its tokens then are not a tree to walk */
        if (key->size != 1)
            return cli_error(w->err, NPYDT_E_SYNTAX, "not valid JSON at byte %d: %s", key->start,
                             key->size ? "a second value after a key" : "a key without a value");
        struct load_value name;
        size_t n;
        const char *s = token_text(w, key, &n);
        npydt_status st = unescape(w, s, n, 0, &name);
        if (st != NPYDT_OK)
            return st;
        const npydt_dtype *sub;
        uint64_t suboff;
        /* the usual case: the fields in order, by name */
        if ((size_t)k < nf && npydt_dtype_field_name_len(node, (size_t)k) == name.len &&
            memcmp(npydt_dtype_field_name(node, (size_t)k), name.text, name.len) == 0) {
            sub = npydt_dtype_field_dtype(node, (size_t)k);
            suboff = off + npydt_dtype_field_offset(node, (size_t)k);
        } else if ((st = load_record_lookup(w->rec, node, off, name.text, name.len, &suboff,
                                            &sub, w->err)) != NPYDT_OK) {
            if (off || node != w->rec->dtype) {
                /* name the struct the key was looked up in */
                npydt_error inner = *w->err;
                load_record_path(w->rec, off, node, w->err);
                memcpy(w->err->message, inner.message, sizeof inner.message);
            }
            return st;
        }
        if ((st = fill(w, sub, suboff, depth + 1)) != NPYDT_OK)
            return st;
    }
    return NPYDT_OK;
}

static npydt_status fill_subarray(struct jwalk *w, const npydt_dtype *node, uint64_t off,
                                  size_t level, uint64_t inner, unsigned depth)
{
    size_t nd = npydt_dtype_ndim(node);
    if (level == nd)
        return fill(w, npydt_dtype_base(node), off, depth + 1);
    uint64_t dim = npydt_dtype_shape(node)[level];
    const jsmntok_t *t = &w->t[w->i];
    if (t->type != JSMN_ARRAY || (uint64_t)t->size != dim) {
        char what[96];
        snprintf(what, sizeof what, "expected a list of %llu values", (unsigned long long)dim);
        return node_error(w, node, off, NPYDT_E_VALUE, what);
    }
    w->i++;
    uint64_t step = dim ? inner / dim : 0;
    for (uint64_t e = 0; e < dim; e++) {
        npydt_status st = fill_subarray(w, node, off + e * step, level + 1, step, depth);
        if (st != NPYDT_OK)
            return st;
    }
    return NPYDT_OK;
}

static npydt_status fill_scalar(struct jwalk *w, const npydt_dtype *node, uint64_t off)
{
    const jsmntok_t *t = &w->t[w->i];
    char kind = npydt_dtype_kind(node);
    struct load_value v[2];
    npydt_status st;
    if (kind == 'c' && t->type == JSMN_ARRAY && t->size == 2 &&
        w->t[w->i + 1].type != JSMN_ARRAY && w->t[w->i + 1].type != JSMN_OBJECT &&
        w->t[w->i + 2].type != JSMN_ARRAY && w->t[w->i + 2].type != JSMN_OBJECT) {
        if ((st = scalar_value(w, &w->t[w->i + 1], kind, &v[0])) != NPYDT_OK ||
            (st = scalar_value(w, &w->t[w->i + 2], kind, &v[1])) != NPYDT_OK) {
            load_record_path(w->rec, off, node, w->err);
            return st;
        }
        w->i += 3;
        return load_record_put_complex(w->rec, off, node, &v[0], &v[1], w->err);
    }
    if (t->type == JSMN_ARRAY || t->type == JSMN_OBJECT) {
        char tn[64], what[128];
        npydt_dtype_str(node, tn, sizeof tn);
        snprintf(what, sizeof what, "%s is not a value of %s",
                 t->type == JSMN_ARRAY ? "a list" : "an object", tn);
        return node_error(w, node, off, NPYDT_E_VALUE, what);
    }
    if ((st = scalar_value(w, t, kind, &v[0])) != NPYDT_OK) {
        load_record_path(w->rec, off, node, w->err);
        return st;
    }
    w->i++;
    return load_record_put(w->rec, off, node, &v[0], w->err);
}

static npydt_status fill(struct jwalk *w, const npydt_dtype *node, uint64_t off, unsigned depth)
{
    if (depth > 256)
        return node_error(w, node, off, NPYDT_E_LIMIT, "nested too deeply");
    switch (npydt_dtype_get_class(node)) {
    case NPYDT_STRUCT:
        return fill_struct(w, node, off, depth);
    case NPYDT_SUBARRAY:
        return fill_subarray(w, node, off, 0, npydt_dtype_itemsize(node), depth);
    default:   /* NPYDT_SCALAR */
        return fill_scalar(w, node, off);
    }
}

npydt_status jsonl_walk(const char *line, const jsmntok_t *t, int nt, struct load_record *rec,
                        char *sbuf, npydt_error *err)
{
    struct jwalk w = {line, (jsmntok_t *)t, nt, 0, rec, sbuf, err};
    load_record_clear(rec);
    npydt_status st = fill(&w, rec->dtype, 0, 0);
    return st != NPYDT_OK ? st : load_record_complete(rec, err);
}

struct jsonl_reader {
    struct load_record *rec;
    struct jsonl_tokens tk;
    char *sbuf;                     /* unescaped strings: a line's length */
    size_t sbuf_cap;
    const struct jsonl_plan *plan;  /* NULL: every line by the general walk */
    struct jsonl_plan *own;         /* the plan, when this reader made it */
};

struct jsonl_reader *jsonl_reader_new(struct load_record *rec, const struct jsonl_reader *from)
{
    struct jsonl_reader *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->rec = rec;
    size_t max_tokens, max_depth;
    jsonl_caps(rec->dtype, &max_tokens, &max_depth);
    jsonl_tokens_init(&j->tk, max_tokens, max_depth);
    /* no plan (no memory for one) only means every line takes the general walk */
    if (from)
        j->plan = from->plan;
    else if (!rec->general)
        j->plan = j->own = jsonl_plan_new(rec->dtype);
    return j;
}

void jsonl_reader_free(struct jsonl_reader *j)
{
    if (!j)
        return;
    jsonl_plan_free(j->own);
    jsonl_tokens_free(&j->tk);
    free(j->sbuf);
    free(j);
}

npydt_status jsonl_read(struct jsonl_reader *j, const char *s, size_t n,
                        const struct load_sink *sink, struct load_span *span, npydt_error *err)
{
    struct load_record *rec = j->rec;
    size_t at = 0;
    while (at < n) {
        const char *line = s + at;
        size_t len = load_line_cut(s, n, &at);
        span->where = ++span->line;
        size_t k = 0;
        while (k < len && (line[k] == ' ' || line[k] == '\t'))
            k++;
        if (k == len)
            continue;   /* blank lines are skipped */
        if (len > j->sbuf_cap) {
            char *b = realloc(j->sbuf, len);
            if (!b)
                return cli_error(err, NPYDT_E_NOMEM, "out of memory");
            j->sbuf = b;
            j->sbuf_cap = len;
        }
        npydt_status st;
        if ((!j->plan || !jsonl_plan_read(j->plan, line, len, rec->bytes)) &&
            ((st = jsonl_tokenize(&j->tk, line, len, err)) != NPYDT_OK ||
             (st = jsonl_walk(line, j->tk.t, j->tk.n, rec, j->sbuf, err)) != NPYDT_OK))
            return st;
        if ((st = sink->record(sink->ctx, rec->bytes, err)) != NPYDT_OK)
            return st;
        if (++span->records == span->max_records)
            break;
    }
    span->used = at;
    return NPYDT_OK;
}

/* The plan of a line as dump --jsonl writes it: the tokens jsmn gives for
 * it in order (an object's keys in field order, a subarray as nested
 * lists, complex as [re, im]) with, for each value, the conversion into
 * the record's bytes chosen once from the field's kind, size and byte
 * order. A line is then read by one pass over its tokens beside the plan's
 * steps: a key is one length check and one memcmp, a value goes straight
 * into its bytes. The plan takes only what the general walk reads to the
 * same bytes (integers in range, numbers text_read_double converts,
 * strings without escapes that fit); anything else sends the line to the
 * general walk, which stays the one reference for results and errors. */
#include "cli/load/jsonl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Tokens of the longest plan (a record of more goes the general way). */
#define MAX_PLAN_TOKENS ((size_t)1 << 18)
/* Deepest nesting a plan follows. */
#define MAX_PLAN_DEPTH 64

enum step_op {
    STEP_OBJECT,   /* an object of n keys */
    STEP_ARRAY,    /* a list of n values */
    STEP_KEY,      /* the key name (n bytes, no backslash) */
    STEP_BOOL,     /* true / false into b1 */
    STEP_INT,      /* an integer into i, M or m of `size` bytes */
    STEP_UINT,     /* an integer into u of `size` bytes */
    STEP_F4,       /* a number or null into f4 */
    STEP_F8,
    STEP_C8,       /* [re, im] (three tokens) into c8 */
    STEP_C16,
    STEP_BYTES     /* a string of at most n bytes into S */
};

struct step {
    unsigned char op;
    unsigned char size;   /* of an integer */
    unsigned char swap;   /* the field's byte order is not the host's */
    size_t n;
    size_t offset;        /* in the record */
    const char *name;     /* STEP_KEY */
};

struct jsonl_plan {
    struct step *steps;
    size_t nsteps, cap;
    size_t ntokens;       /* a line of the plan has exactly these */
    size_t itemsize;
    size_t end;           /* where the last value ends, to check the order */
    int ok;
};

static struct step *add(struct jsonl_plan *p, unsigned char op, size_t tokens)
{
    if (!p->ok || p->ntokens + tokens > MAX_PLAN_TOKENS) {
        p->ok = 0;
        return NULL;
    }
    if (p->nsteps == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        struct step *s = realloc(p->steps, cap * sizeof *s);
        if (!s) {
            p->ok = 0;
            return NULL;
        }
        p->steps = s;
        p->cap = cap;
    }
    struct step *s = &p->steps[p->nsteps++];
    memset(s, 0, sizeof *s);
    s->op = op;
    p->ntokens += tokens;
    return s;
}

/* The step of a scalar at offset; values must come in rising, separate
 * places (the general walk's slots then match the plan one to one). */
static void add_scalar(struct jsonl_plan *p, const npydt_dtype *dt, size_t offset)
{
    char kind = npydt_dtype_kind(dt), bo = npydt_dtype_byteorder(dt);
    size_t size = npydt_dtype_itemsize(dt);
    int op = -1;
    int integer_size = size == 1 || size == 2 || size == 4 || size == 8;
    switch (kind) {
    case 'b': op = size == 1 ? STEP_BOOL : -1; break;
    case 'i': case 'M': case 'm': op = integer_size ? STEP_INT : -1; break;
    case 'u': op = integer_size ? STEP_UINT : -1; break;
    case 'f': op = size == 4 ? STEP_F4 : size == 8 ? STEP_F8 : -1; break;
    case 'c': op = size == 8 ? STEP_C8 : size == 16 ? STEP_C16 : -1; break;
    case 'S': op = STEP_BYTES; break;
    }
    if (op < 0 || size == 0 || offset < p->end ||
        (op != STEP_BYTES && size > 1 && bo != '<' && bo != '>')) {
        p->ok = 0;
        return;
    }
    struct step *s = add(p, (unsigned char)op, op == STEP_C8 || op == STEP_C16 ? 3 : 1);
    if (!s)
        return;
    s->size = (unsigned char)(size <= 8 ? size : 0);
    s->swap = (bo == '>') != TEXT_HOST_BIG;
    s->n = size;
    s->offset = offset;
    p->end = offset + size;
}

static void add_node(struct jsonl_plan *p, const npydt_dtype *dt, size_t offset, unsigned depth);

/* The nested lists of a subarray from dimension `level` on, down to its
 * elements. */
static void add_lists(struct jsonl_plan *p, const npydt_dtype *dt, size_t offset, size_t level,
                      unsigned depth)
{
    size_t nd = npydt_dtype_ndim(dt);
    if (level == nd) {
        add_node(p, npydt_dtype_base(dt), offset, depth + 1);
        return;
    }
    uint64_t dim = npydt_dtype_shape(dt)[level];
    uint64_t step = npydt_dtype_itemsize(npydt_dtype_base(dt));
    for (size_t k = level + 1; k < nd; k++)
        step *= npydt_dtype_shape(dt)[k];   /* within the itemsize: no overflow */
    struct step *s = dim > MAX_PLAN_TOKENS ? NULL : add(p, STEP_ARRAY, 1);
    if (!s) {
        p->ok = 0;   /* no plan: a list of another length must not pass as this one */
        return;
    }
    s->n = (size_t)dim;
    for (uint64_t e = 0; e < dim && p->ok; e++)
        add_lists(p, dt, offset + (size_t)(e * step), level + 1, depth);
}

static void add_node(struct jsonl_plan *p, const npydt_dtype *dt, size_t offset, unsigned depth)
{
    if (!p->ok || depth > MAX_PLAN_DEPTH) {
        p->ok = 0;
        return;
    }
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR:
        add_scalar(p, dt, offset);
        return;
    case NPYDT_SUBARRAY:
        add_lists(p, dt, offset, 0, depth);
        return;
    case NPYDT_STRUCT:
        break;
    }
    size_t nf = npydt_dtype_nfields(dt);
    struct step *s = add(p, STEP_OBJECT, 1);
    if (!s)
        return;
    s->n = nf;
    for (size_t k = 0; k < nf && p->ok; k++) {
        const char *name = npydt_dtype_field_name(dt, k);
        size_t len = npydt_dtype_field_name_len(dt, k);
        if (memchr(name, '\\', len)) {
            p->ok = 0;   /* its key's text in the line differs from it */
            return;
        }
        if (!(s = add(p, STEP_KEY, 1)))
            return;
        s->name = name;
        s->n = len;
        add_node(p, npydt_dtype_field_dtype(dt, k),
                 offset + (size_t)npydt_dtype_field_offset(dt, k), depth + 1);
    }
}

struct jsonl_plan *jsonl_plan_new(const npydt_dtype *dt)
{
    struct jsonl_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->ok = 1;
    p->itemsize = npydt_dtype_itemsize(dt);
    add_node(p, dt, 0, 0);
    if (!p->ok || p->ntokens > INT32_MAX) {
        jsonl_plan_free(p);
        return NULL;
    }
    return p;
}

void jsonl_plan_free(struct jsonl_plan *plan)
{
    if (plan) {
        free(plan->steps);
        free(plan);
    }
}

/* ---- reading a line ------------------------------------------------------------ */

/* An integer as JSON writes one, at most 19 digits: its magnitude and
 * sign; 0 otherwise. */
static int read_integer(const char *s, size_t n, uint64_t *mag, int *neg)
{
    size_t i = *neg = n && s[0] == '-';
    if (i == n || n - i > 19 || (s[i] == '0' && n - i > 1))
        return 0;
    uint64_t m = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9)
            return 0;
        m = m * 10 + d;
    }
    *mag = m;
    return 1;
}

/* A number or null as the general walk reads it for a float or a complex
 * part; 0 for anything it would not read to the same double. */
static int read_double(const char *line, const jsmntok_t *t, double *out)
{
    const char *s = line + t->start;
    size_t n = (size_t)(t->end - t->start);
    if (t->type != JSMN_PRIMITIVE)
        return 0;
    if (n == 4 && memcmp(s, "null", 4) == 0) {
        *out = NAN;
        return 1;
    }
    return text_read_double(s, n, out);
}

/* d as a float32, when encode_float takes it (finite beyond float's range
 * overflows: the general walk refuses it). */
static int put_f4(unsigned char *p, int swap, double d)
{
    if (d == d && d - d == 0 && (d >= 0x1.ffffffp+127 || d <= -0x1.ffffffp+127))
        return 0;
    text_store32(p, swap, text_bits_of_f32((float)d));
    return 1;
}

static void put_f8(unsigned char *p, int swap, double d)
{
    text_store64(p, swap, text_bits_of_f64(d));
}

/* The value token(s) at t for step s into bytes: 1, or 0. */
static int put_value(const struct step *s, const char *line, const jsmntok_t *t,
                     unsigned char *bytes)
{
    const char *text = line + t->start;
    size_t n = (size_t)(t->end - t->start);
    unsigned char *p = bytes + s->offset;
    uint64_t mag;
    int neg;
    double d[2];
    switch (s->op) {
    case STEP_BOOL:
        if (t->type != JSMN_PRIMITIVE)
            return 0;
        if (n == 4 && memcmp(text, "true", 4) == 0)
            p[0] = 1;
        else if (n == 5 && memcmp(text, "false", 5) == 0)
            p[0] = 0;
        else
            return 0;
        return 1;
    case STEP_INT: {
        if (t->type != JSMN_PRIMITIVE || !read_integer(text, n, &mag, &neg))
            return 0;
        uint64_t limit = (uint64_t)1 << (8 * s->size - 1);
        if (neg ? mag > limit : mag >= limit)
            return 0;
        text_store_uint(p, s->size, s->swap, neg ? (uint64_t)0 - mag : mag);
        return 1;
    }
    case STEP_UINT:
        if (t->type != JSMN_PRIMITIVE || !read_integer(text, n, &mag, &neg) || neg ||
            (s->size < 8 && (mag >> (8 * s->size)) != 0))
            return 0;
        text_store_uint(p, s->size, s->swap, mag);
        return 1;
    case STEP_F4:
        return read_double(line, t, &d[0]) && put_f4(p, s->swap, d[0]);
    case STEP_F8:
        if (!read_double(line, t, &d[0]))
            return 0;
        put_f8(p, s->swap, d[0]);
        return 1;
    case STEP_C8:
    case STEP_C16:
        if (t[0].type != JSMN_ARRAY || t[0].size != 2 || !read_double(line, &t[1], &d[0]) ||
            !read_double(line, &t[2], &d[1]))
            return 0;
        if (s->op == STEP_C16) {
            put_f8(p, s->swap, d[0]);
            put_f8(p + 8, s->swap, d[1]);
            return 1;
        }
        return put_f4(p, s->swap, d[0]) && put_f4(p + 4, s->swap, d[1]);
    case STEP_BYTES:
        if (t->type != JSMN_STRING || t->size != 0 || n > s->n || memchr(text, '\\', n))
            return 0;
        memcpy(p, text, n);   /* the rest stays zero */
        return 1;
    }
    return 0;
}

int jsonl_plan_fill(const struct jsonl_plan *plan, const char *line, const jsmntok_t *t, int nt,
                    unsigned char *bytes)
{
    if ((size_t)nt != plan->ntokens)
        return 0;
    memset(bytes, 0, plan->itemsize);
    for (size_t k = 0; k < plan->nsteps; k++) {
        const struct step *s = &plan->steps[k];
        switch (s->op) {
        case STEP_OBJECT:
            if (t->type != JSMN_OBJECT || (size_t)t->size != s->n)
                return 0;
            t++;
            break;
        case STEP_ARRAY:
            if (t->type != JSMN_ARRAY || (size_t)t->size != s->n)
                return 0;
            t++;
            break;
        case STEP_KEY:
            if (t->type != JSMN_STRING || t->size != 1 || (size_t)(t->end - t->start) != s->n ||
                memcmp(line + t->start, s->name, s->n) != 0)
                return 0;
            t++;
            break;
        default:
            if (!put_value(s, line, t, bytes))
                return 0;
            t += s->op == STEP_C8 || s->op == STEP_C16 ? 3 : 1;
            break;
        }
    }
    return 1;
}

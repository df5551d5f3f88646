/* The plan of a line as dump --jsonl writes it, read in one pass over the
 * line's bytes: the plan lists what the line holds in order (an object's
 * opening brace, each key in field order, each value, the commas between,
 * a subarray as nested lists, complex as [re, im]) and the step that puts
 * each value into the record's bytes (load_step.c). Reading a line checks
 * its syntax as it goes and converts each value where it stands: a key is
 * one memcmp, a number is read once, a string is copied (its escapes
 * decoded) straight into its field. No token array is made. The plan
 * takes only strict JSON that the general walk reads to the same bytes;
 * at anything else (another key order, spacing other than JSON's, a value
 * of another form, out of range or too long) it answers 0 and the general
 * walk (jsonl_in.c), the one reference for results and errors, reads the
 * line. */
#include "cli/load/jsonl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Steps of the longest plan (a record of more goes the general way). */
#define MAX_PLAN_STEPS ((size_t)1 << 18)
/* Deepest nesting a plan follows. */
#define MAX_PLAN_DEPTH 64

enum plan_op {
    P_OPEN_OBJECT,   /* '{' */
    P_CLOSE_OBJECT,  /* '}' */
    P_OPEN_LIST,     /* '[' */
    P_CLOSE_LIST,    /* ']' */
    P_KEY,           /* "name" and ':' */
    P_VALUE          /* a value by its step */
};

struct pstep {
    unsigned char op;
    unsigned char comma;    /* a ',' comes first */
    size_t n;               /* P_KEY: the name's length */
    const char *name;
    struct load_step value;
};

struct jsonl_plan {
    struct pstep *steps;
    size_t nsteps, cap;
    size_t itemsize;
    size_t end;           /* where the last value ends, to check the order */
    int ok;
};

static struct pstep *add(struct jsonl_plan *p, unsigned char op, int comma)
{
    if (!p->ok || p->nsteps == MAX_PLAN_STEPS) {
        p->ok = 0;
        return NULL;
    }
    if (p->nsteps == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        struct pstep *s = realloc(p->steps, cap * sizeof *s);
        if (!s) {
            p->ok = 0;
            return NULL;
        }
        p->steps = s;
        p->cap = cap;
    }
    struct pstep *s = &p->steps[p->nsteps++];
    memset(s, 0, sizeof *s);
    s->op = op;
    s->comma = (unsigned char)comma;
    return s;
}

/* The step of a scalar at offset; values must come in rising, separate
 * places (the general walk's slots then match the plan one to one). */
static void add_scalar(struct jsonl_plan *p, const npydt_dtype *dt, size_t offset, int comma)
{
    struct load_step st;
    if (!load_step_of(dt, offset, &st) || offset < p->end) {
        p->ok = 0;
        return;
    }
    struct pstep *s = add(p, P_VALUE, comma);
    if (!s)
        return;
    s->value = st;
    p->end = offset + st.n;
}

static void add_node(struct jsonl_plan *p, const npydt_dtype *dt, size_t offset, int comma,
                     unsigned depth);

/* The nested lists of a subarray from dimension `level` on, down to its
 * elements. */
static void add_lists(struct jsonl_plan *p, const npydt_dtype *dt, size_t offset, size_t level,
                      int comma, unsigned depth)
{
    size_t nd = npydt_dtype_ndim(dt);
    if (level == nd) {
        add_node(p, npydt_dtype_base(dt), offset, comma, depth + 1);
        return;
    }
    uint64_t dim = npydt_dtype_shape(dt)[level];
    uint64_t step = npydt_dtype_itemsize(npydt_dtype_base(dt));
    for (size_t k = level + 1; k < nd; k++)
        step *= npydt_dtype_shape(dt)[k];   /* within the itemsize: no overflow */
    if (dim > MAX_PLAN_STEPS || !add(p, P_OPEN_LIST, comma)) {
        p->ok = 0;
        return;
    }
    for (uint64_t e = 0; e < dim && p->ok; e++)
        add_lists(p, dt, offset + (size_t)(e * step), level + 1, e > 0, depth);
    add(p, P_CLOSE_LIST, 0);
}

static void add_node(struct jsonl_plan *p, const npydt_dtype *dt, size_t offset, int comma,
                     unsigned depth)
{
    if (!p->ok || depth > MAX_PLAN_DEPTH) {
        p->ok = 0;
        return;
    }
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR:
        add_scalar(p, dt, offset, comma);
        return;
    case NPYDT_SUBARRAY:
        add_lists(p, dt, offset, 0, comma, depth);
        return;
    case NPYDT_STRUCT:
        break;
    }
    size_t nf = npydt_dtype_nfields(dt);
    if (!add(p, P_OPEN_OBJECT, comma))
        return;
    for (size_t k = 0; k < nf && p->ok; k++) {
        const char *name = npydt_dtype_field_name(dt, k);
        size_t len = npydt_dtype_field_name_len(dt, k);
        struct pstep *s;
        if (memchr(name, '\\', len) || memchr(name, '"', len) || memchr(name, '\0', len) ||
            !(s = add(p, P_KEY, k > 0))) {
            p->ok = 0;   /* its key's text in the line differs from it */
            return;
        }
        s->name = name;
        s->n = len;
        add_node(p, npydt_dtype_field_dtype(dt, k),
                 offset + (size_t)npydt_dtype_field_offset(dt, k), 0, depth + 1);
    }
    add(p, P_CLOSE_OBJECT, 0);
}

struct jsonl_plan *jsonl_plan_new(const npydt_dtype *dt)
{
    struct jsonl_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->ok = 1;
    p->itemsize = npydt_dtype_itemsize(dt);
    add_node(p, dt, 0, 0, 0);
    if (!p->ok) {
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

/* What a byte is to the reader: JSON's space, a byte that may end a
 * number, true, false or null (the tokenizer's rule), a byte of a
 * number's text. */
enum { SPACE = 1, ENDS = 2, NUMBER = 4 };
static const unsigned char byte_class[256] = {
    ['\t'] = SPACE | ENDS, ['\n'] = SPACE | ENDS, ['\r'] = SPACE | ENDS, [' '] = SPACE | ENDS,
    [','] = ENDS, [']'] = ENDS, ['}'] = ENDS,
    ['0'] = NUMBER, ['1'] = NUMBER, ['2'] = NUMBER, ['3'] = NUMBER, ['4'] = NUMBER,
    ['5'] = NUMBER, ['6'] = NUMBER, ['7'] = NUMBER, ['8'] = NUMBER, ['9'] = NUMBER,
    ['-'] = NUMBER, ['+'] = NUMBER, ['.'] = NUMBER, ['e'] = NUMBER, ['E'] = NUMBER,
};

typedef const unsigned char *cursor;

static cursor skip_space(cursor p, cursor e)
{
    while (p < e && (byte_class[*p] & SPACE))
        p++;
    return p;
}

/* The word w (true, false, null) at p, ended as a primitive ends. */
static cursor word(cursor p, cursor e, const char *w, size_t n)
{
    if ((size_t)(e - p) < n || memcmp(p, w, n) != 0)
        return NULL;
    p += n;
    return p == e || (byte_class[*p] & ENDS) ? p : NULL;
}

/* A number (or null, as NaN) into *d: the cursor after it, or NULL. */
static cursor number(cursor p, cursor e, double *d)
{
    if (p < e && *p == 'n') {
        *d = NAN;
        return word(p, e, "null", 4);
    }
    cursor s = p;
    while (p < e && (byte_class[*p] & NUMBER))
        p++;
    if (p < e && !(byte_class[*p] & ENDS))
        return NULL;
    return text_read_double((const char *)s, (size_t)(p - s), d) ? p : NULL;
}

static int hex(unsigned c)
{
    return c - '0' <= 9 ? (int)(c - '0') : (c | 0x20) - 'a' < 6 ? (int)((c | 0x20) - 'a' + 10) : -1;
}

/* A string into the n bytes at out (the rest stays zero): \u0000 to
 * \u00ff are bytes, as the general walk reads an S field. */
static cursor bytes_string(cursor p, cursor e, unsigned char *out, size_t n)
{
    if (p == e || *p != '"')
        return NULL;
    size_t k = 0;
    for (p++; p < e; p++) {
        unsigned c = *p;
        if (c == '"')
            return p + 1;
        if (c == '\0')
            return NULL;
        if (c == '\\') {
            if (++p == e)
                return NULL;
            switch (*p) {
            case '"': case '\\': case '/': c = *p; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'u': {
                if (e - p < 5)
                    return NULL;
                int h[4] = {hex(p[1]), hex(p[2]), hex(p[3]), hex(p[4])};
                if (h[0] != 0 || h[1] != 0 || h[2] < 0 || h[3] < 0)
                    return NULL;   /* beyond a byte, or not hex: the general walk says */
                c = (unsigned)(h[2] << 4 | h[3]);
                p += 4;
                break;
            }
            default:
                return NULL;
            }
        }
        if (k == n)
            return NULL;
        out[k++] = (unsigned char)c;
    }
    return NULL;
}

/* The value of step s at p into bytes: the cursor after it, or NULL. */
static cursor value(const struct load_step *s, cursor p, cursor e, unsigned char *bytes)
{
    uint64_t mag;
    bool neg;
    double d[2];
    size_t k;
    switch (s->op) {
    case LOAD_OP_INT:
    case LOAD_OP_UINT:
        k = text_read_integer((const char *)p, (size_t)(e - p), &mag, &neg);
        if (!k || (p + k < e && !(byte_class[p[k]] & ENDS)) || !load_step_integer(s, mag, neg, bytes))
            return NULL;
        return p + k;
    case LOAD_OP_F4:
    case LOAD_OP_F8:
        return (p = number(p, e, &d[0])) && load_step_float(s, 0, d[0], bytes) ? p : NULL;
    case LOAD_OP_C8:
    case LOAD_OP_C16:
        if (p == e || *p != '[' || !(p = number(skip_space(p + 1, e), e, &d[0])) ||
            (p = skip_space(p, e)) == e || *p != ',' ||
            !(p = number(skip_space(p + 1, e), e, &d[1])) || (p = skip_space(p, e)) == e ||
            *p != ']' || !load_step_float(s, 0, d[0], bytes) ||
            !load_step_float(s, s->size, d[1], bytes))
            return NULL;
        return p + 1;
    case LOAD_OP_BOOL:
        if (*p == 't') {
            bytes[s->offset] = 1;
            return word(p, e, "true", 4);
        }
        return *p == 'f' ? word(p, e, "false", 5) : NULL;
    case LOAD_OP_BYTES:
        return bytes_string(p, e, bytes + s->offset, s->n);
    }
    return NULL;
}

int jsonl_plan_read(const struct jsonl_plan *plan, const char *line, size_t len,
                    unsigned char *bytes)
{
    cursor p = (cursor)line, e = p + len;
    memset(bytes, 0, plan->itemsize);
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    for (size_t k = 0; k < plan->nsteps; k++) {
        const struct pstep *s = &plan->steps[k];
        if (s->comma) {
            if ((p = skip_space(p, e)) == e || *p != ',')
                return 0;
            p++;
        }
        /* JSON's spaces between the parts (before the first, spaces and
         * tabs only: the line's first byte decides how it is tokenized) */
        if (k && p < e && (byte_class[*p] & SPACE))
            p = skip_space(p, e);
        if (p == e)
            return 0;
        switch (s->op) {
        case P_OPEN_OBJECT: if (*p++ != '{') return 0; break;
        case P_CLOSE_OBJECT: if (*p++ != '}') return 0; break;
        case P_OPEN_LIST: if (*p++ != '[') return 0; break;
        case P_CLOSE_LIST: if (*p++ != ']') return 0; break;
        case P_KEY:
            if ((size_t)(e - p) < s->n + 2 || *p != '"' || memcmp(p + 1, s->name, s->n) != 0 ||
                p[s->n + 1] != '"')
                return 0;
            if ((p = skip_space(p + s->n + 2, e)) == e || *p != ':')
                return 0;
            p++;
            break;
        default:
            if (!(p = value(&s->value, p, e, bytes)))
                return 0;
            break;
        }
    }
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    return p == e;
}

/* The headers np.save writes, read directly.
 *
 * np.save always writes one shape of header: {'descr': D, 'fortran_order':
 * B, 'shape': S, } padded with spaces and a newline, where D is a quoted
 * type string or a list of ('name', D[, S]) entries with Python's repr
 * spacing. This reader accepts exactly that (plain ASCII, no escapes) and
 * builds the dtype without tokens or a syntax tree. On any other byte, and
 * on any semantic error, it declines and the general parser reads the
 * header: every error, and every header np.save did not write, gets the
 * general parser's answer. What it accepts is a subset of Python's syntax
 * with the same meaning, so both paths give the same dtype. */
#include "dtype_build.h"

#include <string.h>

/* Type strings met so far: files repeat a few of them many times, and
 * scalar nodes are immutable, so one node serves every field of a type. */
#define TYPE_CACHE 16

struct cached_type {
    const char *s;
    size_t n;
    const npydt_dtype *dt;
};

struct fast {
    const char *p, *end;
    struct dtype_ctx *c;
    uint32_t depth;
    bool nomem;
    size_t ncache;
    struct cached_type cache[TYPE_CACHE];
};

static bool lit(struct fast *f, const char *s, size_t n)
{
    if ((size_t)(f->end - f->p) < n || memcmp(f->p, s, n) != 0)
        return false;
    f->p += n;
    return true;
}

#define LIT(f, s) lit((f), (s), sizeof(s) - 1)

static bool open_bracket(struct fast *f, char ch)
{
    if (f->p >= f->end || *f->p != ch || ++f->depth > f->c->limits->max_depth)
        return false;
    f->p++;
    return true;
}

static bool close_bracket(struct fast *f, char ch)
{
    if (f->p >= f->end || *f->p != ch)
        return false;
    f->p++;
    f->depth--;
    return true;
}

/* '...' with printable ASCII inside and no quote or backslash. */
static bool quoted(struct fast *f, const char **s, size_t *n)
{
    if (f->p >= f->end || *f->p != '\'')
        return false;
    const char *b = ++f->p;
    while (f->p < f->end && *f->p != '\'') {
        unsigned char ch = (unsigned char)*f->p;
        if (ch < 0x20 || ch > 0x7e || ch == '\\')
            return false;
        f->p++;
    }
    if (f->p >= f->end)
        return false;
    *s = b;
    *n = (size_t)(f->p++ - b);
    return true;
}

/* A decimal integer as repr writes it: no sign, no leading zeros. */
static bool uint_dec(struct fast *f, uint64_t *v)
{
    const char *b = f->p;
    uint64_t x = 0;
    while (f->p < f->end && *f->p >= '0' && *f->p <= '9') {
        if (!ck_mul(x, 10, &x) || !ck_add(x, (uint64_t)(*f->p - '0'), &x) || x > INT64_MAX)
            return false;
        f->p++;
    }
    size_t n = (size_t)(f->p - b);
    return n > 0 && (n == 1 || *b != '0') && (*v = x, true);
}

/* repr of a shape tuple: (), (3,), (3, 4) */
static bool shape(struct fast *f, uint64_t *dims, size_t *ndim, size_t max)
{
    if (!open_bracket(f, '('))
        return false;
    size_t n = 0;
    if (!close_bracket(f, ')')) {
        for (;;) {
            if (n == max || !uint_dec(f, &dims[n++]))
                return false;
            if (n == 1 ? LIT(f, ",)") : LIT(f, ")"))
                break;
            if (!LIT(f, ", "))
                return false;
        }
        f->depth--;
    }
    *ndim = n;
    return true;
}

static bool typestr(struct fast *f, const npydt_dtype **out)
{
    const char *s;
    size_t n;
    if (!quoted(f, &s, &n))
        return false;
    for (size_t i = 0; i < f->ncache; i++)
        if (f->cache[i].n == n && memcmp(f->cache[i].s, s, n) == 0) {
            *out = f->cache[i].dt;
            return true;
        }
    npydt_status st = typestr_parse(f->c, s, n, 0, out);
    if (st == NPYDT_E_NOMEM)
        f->nomem = true;
    if (st != NPYDT_OK)
        return false;
    if (f->ncache < TYPE_CACHE && (*out)->cls == NPYDT_SCALAR)
        f->cache[f->ncache++] = (struct cached_type){s, n, *out};
    return true;
}

static bool descr(struct fast *f, const npydt_dtype **out);

static bool name(struct fast *f, const char **nm, const char **title)
{
    const char *s, *t;
    size_t n, tn;
    *title = NULL;
    if (open_bracket(f, '(')) {
        if (!quoted(f, &t, &tn) || !LIT(f, ", ") || !quoted(f, &s, &n) || !close_bracket(f, ')'))
            return false;
        if (!(*title = arena_strndup(f->c->arena, t, tn)))
            return f->nomem = true, false;
    } else if (!quoted(f, &s, &n)) {
        return false;
    }
    if (!(*nm = arena_strndup(f->c->arena, s, n)))
        return f->nomem = true, false;
    return true;
}

static bool field(struct fast *f, struct field_list *fl)
{
    const char *nm, *title;
    const npydt_dtype *dt;
    if (!open_bracket(f, '(') || !name(f, &nm, &title) || !LIT(f, ", ") || !descr(f, &dt))
        return false;
    if (LIT(f, ", ")) {
        uint64_t dims[32];
        size_t ndim;
        if (!shape(f, dims, &ndim, sizeof dims / sizeof dims[0]))
            return false;
        /* ('S0', (5,)) is an error, (type, ()) is type: the general
         * parser's dtype_apply_shape has the last word on those */
        if (ndim) {
            if (dt->cls == NPYDT_SCALAR && dt->itemsize == 0 &&
                (dt->kind == 'S' || dt->kind == 'U' || dt->kind == 'V'))
                return false;
            npydt_status st = dtype_make_subarray(f->c, dt, dims, ndim, 0, &dt);
            if (st != NPYDT_OK)
                return f->nomem = st == NPYDT_E_NOMEM, false;
        } else {
            return false;
        }
    }
    if (!close_bracket(f, ')'))
        return false;
    npydt_status st = field_list_add(f->c, fl, nm, title == NULL, title, dt, 0);
    if (st != NPYDT_OK)
        return f->nomem = st == NPYDT_E_NOMEM, false;
    return true;
}

static bool descr(struct fast *f, const npydt_dtype **out)
{
    if (f->p < f->end && *f->p == '\'')
        return typestr(f, out);
    if (!open_bracket(f, '['))
        return false;
    struct field_list fl = {0};
    if (!close_bracket(f, ']')) {
        for (;;) {
            if (!field(f, &fl))
                return false;
            if (close_bracket(f, ']'))
                break;
            if (!LIT(f, ", "))
                return false;
        }
    }
    npydt_status st = dtype_make_struct(f->c, fl.specs, fl.n, fl.offset, 0, out);
    if (st != NPYDT_OK)
        return f->nomem = st == NPYDT_E_NOMEM, false;
    return true;
}

npydt_status header_fast(struct dtype_ctx *c, const char *text, size_t len, bool *fortran,
                         uint64_t **shape_out, size_t *ndim, const npydt_dtype **dt)
{
    struct fast f;   /* not zeroed as a whole: the type cache is large */
    f.p = text;
    f.end = text + len;
    f.c = c;
    f.depth = 0;
    f.nomem = false;
    f.ncache = 0;
    uint64_t dims[32];
    size_t n;
    size_t max = c->limits->max_ndim < 32 ? c->limits->max_ndim : 32;
    bool ok = open_bracket(&f, '{') && LIT(&f, "'descr': ") && descr(&f, dt) &&
              LIT(&f, ", 'fortran_order': ") &&
              ((LIT(&f, "False") && (*fortran = false, true)) ||
               (LIT(&f, "True") && (*fortran = true, true))) &&
              LIT(&f, ", 'shape': ") && shape(&f, dims, &n, max) && LIT(&f, ", }");
    if (f.nomem)
        return set_nomem(c->err);
    if (!ok)
        return NPYDT_E_SYNTAX;
    while (f.p < f.end && (*f.p == ' ' || *f.p == '\n'))
        f.p++;
    if (f.p != f.end)
        return NPYDT_E_SYNTAX;
    *shape_out = arena_alloc_array(c->arena, n ? n : 1, sizeof **shape_out);
    if (!*shape_out)
        return set_nomem(c->err);
    memcpy(*shape_out, dims, n * sizeof dims[0]);
    *ndim = n;
    return NPYDT_OK;
}

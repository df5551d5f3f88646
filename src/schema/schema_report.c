/* The result of a schema check: each mismatch recorded with its field
 * path and the expected and found texts, built only for the mismatches
 * kept; the first one summed up in the error; the result's accessors. */
#include "schema/schema.h"

#include "dtype/dtype.h"

#include <stdio.h>
#include <string.h>

const char *npydt_mismatch_code_name(npydt_mismatch_code code)
{
    switch (code) {
    case NPYDT_MISMATCH_MISSING_FIELD: return "missing_field";
    case NPYDT_MISMATCH_EXTRA_FIELD: return "extra_field";
    case NPYDT_MISMATCH_KIND: return "kind";
    case NPYDT_MISMATCH_SIZE: return "size";
    case NPYDT_MISMATCH_BYTEORDER: return "byteorder";
    case NPYDT_MISMATCH_UNIT: return "unit";
    case NPYDT_MISMATCH_SHAPE: return "shape";
    case NPYDT_MISMATCH_OFFSET: return "offset";
    case NPYDT_MISMATCH_ORDER: return "order";
    case NPYDT_MISMATCH_TITLE: return "title";
    case NPYDT_MISMATCH_DIMENSION: return "dimension";
    case NPYDT_MISMATCH_FORTRAN_ORDER: return "fortran_order";
    }
    return "unknown";
}

/* Past NPYDT_CHECK_MISMATCH_MAX a mismatch is only counted: the texts of
 * its path and values are not built (each builder gives "" then). */
static bool keeping(const struct chk *c)
{
    return c->res->n < NPYDT_CHECK_MISMATCH_MAX;
}

const char *chk_printf(struct chk *c, const char *fmt, ...)
{
    if (!keeping(c))
        return "";
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *s = arena_alloc(c->ar, (size_t)n + 1);
    if (!s) {
        c->st = set_nomem(c->err);
        return NULL;
    }
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* "<f8" for a scalar, the descriptor literal for anything else. */
const char *chk_type_text(struct chk *c, const npydt_dtype *dt)
{
    if (!keeping(c))
        return "";
    size_t n = dt->cls == NPYDT_SCALAR ? npydt_dtype_str(dt, NULL, 0) : npydt_dtype_descr(dt, NULL, 0);
    char *s = arena_alloc(c->ar, n + 1);
    if (!s) {
        c->st = set_nomem(c->err);
        return NULL;
    }
    if (dt->cls == NPYDT_SCALAR)
        npydt_dtype_str(dt, s, n + 1);
    else
        npydt_dtype_descr(dt, s, n + 1);
    return s;
}

/* The text write produces, and its length in *len when len is not NULL
 * (names in it may hold NULs). */
const char *chk_text_n(struct chk *c, void (*write)(struct outbuf *, const void *),
                       const void *arg, size_t *len)
{
    if (len)
        *len = 0;
    if (!keeping(c))
        return "";
    struct outbuf m = {NULL, 0, 0};
    write(&m, arg);
    if (len)
        *len = m.len;
    char *s = arena_alloc(c->ar, m.len + 1);
    if (!s) {
        c->st = set_nomem(c->err);
        return NULL;
    }
    struct outbuf o = {s, m.len + 1, 0};
    write(&o, arg);
    s[m.len] = '\0';
    return s;
}

const char *chk_text(struct chk *c, void (*write)(struct outbuf *, const void *),
                     const void *arg)
{
    return chk_text_n(c, write, arg, NULL);
}

/* the subarray shape of a node: "(3, 2)", or "(3,) of (2,)" for a
 * subarray of subarrays, which NumPy keeps apart from the first */
void chk_shape_out(struct outbuf *o, const void *arg)
{
    const npydt_dtype *dt = arg;
    if (dt->cls != NPYDT_SUBARRAY) {
        out_puts(o, "()");
        return;
    }
    for (bool first = true; dt->cls == NPYDT_SUBARRAY; dt = dt->base, first = false) {
        if (!first)
            out_puts(o, " of ");
        out_shape(o, dt->shape, dt->ndim);
    }
}

void chk_dims_out(struct outbuf *o, const void *arg)
{
    const struct chk_dims *d = arg;
    out_shape_signed(o, d->dims, d->ndim);
}

static const char *path_text(struct chk *c, const struct seg *p, size_t *path_len)
{
    size_t len = 0;
    for (const struct seg *q = p; q; q = q->up)
        len += q->len + (q->up ? 1 : 0);
    *path_len = len;
    char *s = arena_alloc(c->ar, len + 1);
    if (!s) {
        c->st = set_nomem(c->err);
        return NULL;
    }
    s[len] = '\0';
    size_t end = len;
    for (const struct seg *q = p; q; q = q->up) {
        size_t n = q->len;
        end -= n;
        memcpy(s + end, q->name, n);
        if (q->up)
            s[--end] = '.';
    }
    return s;
}

/* Record a mismatch whose expected and found texts are elen and flen
 * bytes long (a title or names may hold NULs). */
void chk_add_n(struct chk *c, npydt_mismatch_code code, const struct seg *path,
               const char *expected, size_t elen, const char *found, size_t flen)
{
    if (c->st != NPYDT_OK)
        return;
    npydt_check_result *r = c->res;
    r->total++;
    if (!keeping(c))
        return;
    size_t plen;
    const char *p = path_text(c, path, &plen);
    if (!p || !expected || !found)
        return;   /* c->st is set */
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 8;
        if (cap > NPYDT_CHECK_MISMATCH_MAX)
            cap = NPYDT_CHECK_MISMATCH_MAX;
        npydt_mismatch *items = arena_alloc_array(c->ar, cap, sizeof *items);
        if (!items) {
            c->st = set_nomem(c->err);
            return;
        }
        if (r->n)
            memcpy(items, r->items, r->n * sizeof *items);
        r->items = items;
        r->cap = cap;
    }
    r->items[r->n++] = (npydt_mismatch){code, p, expected, found, plen, elen, flen};
}

void chk_add(struct chk *c, npydt_mismatch_code code, const struct seg *path,
             const char *expected, const char *found)
{
    chk_add_n(c, code, path, expected, expected ? strlen(expected) : 0, found,
              found ? strlen(found) : 0);
}

void chk_names_out(struct outbuf *o, const void *arg)
{
    const struct chk_names *a = arg;
    for (size_t k = 0; k < a->n; k++) {
        if (k)
            out_puts(o, ", ");
        const struct npydt_field *f = &a->dt->fields[a->which[k]];
        for (size_t i = 0; i < f->name_len; i++)
            out_putc(o, f->name[i]);
    }
}

npydt_status chk_first_error(const npydt_check_result *res, npydt_error *err)
{
    if (!res->n)
        return NPYDT_OK;
    const npydt_mismatch *m = &res->items[0];
    char path[256], expected[96], found[96];
    name_for_message(path, sizeof path, m->path, m->path_len);
    name_for_message(expected, sizeof expected, m->expected, m->expected_len);
    name_for_message(found, sizeof found, m->found, m->found_len);
    return set_error(err, NPYDT_E_MISMATCH, NPYDT_NO_OFFSET, path,
                     "%zu mismatch%s; first: %s: expected %s, found %s", res->total,
                     res->total == 1 ? "" : "es", npydt_mismatch_code_name(m->code),
                     m->expected_len ? expected : "(none)", m->found_len ? found : "(none)");
}

size_t npydt_check_result_count(const npydt_check_result *r)
{
    return r ? r->n : 0;
}

size_t npydt_check_result_total(const npydt_check_result *r)
{
    return r ? r->total : 0;
}

const npydt_mismatch *npydt_check_result_get(const npydt_check_result *r, size_t i)
{
    return r && i < r->n ? &r->items[i] : NULL;
}

void npydt_check_result_free(npydt_check_result *r)
{
    if (!r)
        return;
    struct arena ar = r->arena;
    arena_release(&ar);
}

/* Dtype nodes: construction with NumPy's size rules, and the read-only
 * accessors of the public API. */
#include "dtype_build.h"

#include <stdio.h>
#include <string.h>

npydt_dtype *dtype_new_scalar(struct dtype_ctx *c, char kind, char byteorder, uint64_t itemsize)
{
    npydt_dtype *dt = arena_alloc(c->arena, sizeof *dt);
    if (!dt)
        return NULL;
    dt->cls = NPYDT_SCALAR;
    dt->kind = kind;
    dt->byteorder = byteorder;
    dt->itemsize = itemsize;
    dt->unit = NPYDT_UNIT_NONE;
    dt->has_object = kind == 'O';
    return dt;
}

npydt_status dtype_make_subarray(struct dtype_ctx *c, const npydt_dtype *base,
                                 const uint64_t *shape, size_t ndim, size_t off,
                                 const npydt_dtype **out)
{
    if (ndim > c->limits->max_ndim)
        return set_error(c->err, NPYDT_E_LIMIT, off, c->path,
                         "subarray has %zu dimensions, more than the limit of %u", ndim,
                         c->limits->max_ndim);
    uint64_t items = 1;
    for (size_t i = 0; i < ndim; i++) {
        if (shape[i] > NPYDT_MAX_ITEMSIZE)
            return set_error(c->err, NPYDT_E_OVERFLOW, off, c->path,
                             "subarray dimension %llu does not fit a C int",
                             (unsigned long long)shape[i]);
        if (!ck_mul(items, shape[i], &items) || items > NPYDT_MAX_ITEMSIZE)
            return set_error(c->err, NPYDT_E_OVERFLOW, off, c->path,
                             "subarray element count does not fit a C int");
    }
    uint64_t bytes;
    if (!ck_mul(items, base->itemsize, &bytes) || bytes > NPYDT_MAX_ITEMSIZE)
        return set_error(c->err, NPYDT_E_OVERFLOW, off, c->path,
                         "subarray size in bytes does not fit a C int");
    npydt_dtype *dt = arena_alloc(c->arena, sizeof *dt);
    uint64_t *dims = arena_alloc_array(c->arena, ndim ? ndim : 1, sizeof *dims);
    if (!dt || !dims)
        return set_nomem(c->err);
    memcpy(dims, shape, ndim * sizeof *dims);
    dt->cls = NPYDT_SUBARRAY;
    dt->kind = 'V';
    dt->byteorder = '|';
    dt->unit = NPYDT_UNIT_NONE;
    dt->itemsize = bytes;
    dt->ndim = ndim;
    dt->shape = dims;
    dt->base = base;
    dt->has_object = base->has_object;
    *out = dt;
    return NPYDT_OK;
}

static bool lit_is_int(const struct lit *v)
{
    return v->kind == LIT_INT;
}

npydt_status dtype_apply_shape(struct dtype_ctx *c, const npydt_dtype *base,
                               const struct lit *v, size_t off, const npydt_dtype **out)
{
    if (base->cls == NPYDT_SCALAR && base->itemsize == 0 &&
        (base->kind == 'S' || base->kind == 'U' || base->kind == 'V')) {
        /* ('S', 5) sets the size of an unsized flexible type */
        if (!lit_is_int(v) || v->u.num.neg || v->u.num.big || v->u.num.mag > NPYDT_MAX_ITEMSIZE)
            return set_error(c->err, NPYDT_E_VALUE, off, c->path,
                             "invalid itemsize in generic type tuple");
        uint64_t size = v->u.num.mag;
        if (base->kind == 'U' && !(ck_mul(size, 4, &size) && size <= NPYDT_MAX_ITEMSIZE))
            return set_error(c->err, NPYDT_E_OVERFLOW, off, c->path,
                             "unicode itemsize does not fit a C int");
        npydt_dtype *dt = dtype_new_scalar(c, base->kind, base->byteorder, size);
        if (!dt)
            return set_nomem(c->err);
        *out = dt;
        return NPYDT_OK;
    }
    enum { INLINE_DIMS = 32 };
    uint64_t inline_dims[INLINE_DIMS];
    uint64_t *dims = inline_dims;
    size_t ndim;
    if (lit_is_int(v)) {
        ndim = 1;
        if (!v->u.num.neg && !v->u.num.big && v->u.num.mag == 1) {
            *out = base;   /* (type, 1) still means type in NumPy 1.x */
            return NPYDT_OK;
        }
    } else if (v->kind == LIT_TUPLE || v->kind == LIT_LIST) {
        ndim = v->u.seq.n;
        if (ndim == 0) {
            *out = base;
            return NPYDT_OK;
        }
        if (ndim > c->limits->max_ndim)
            return set_error(c->err, NPYDT_E_LIMIT, off, c->path,
                             "subarray has %zu dimensions, more than the limit of %u", ndim,
                             c->limits->max_ndim);
        if (ndim > INLINE_DIMS) {
            dims = arena_alloc_array(c->arena, ndim, sizeof *dims);
            if (!dims)
                return set_nomem(c->err);
        }
    } else {
        return set_error(c->err, NPYDT_E_VALUE, off, c->path, "invalid shape in fixed-type tuple");
    }
    const struct lit *d = lit_is_int(v) ? v : v->u.seq.head;
    for (size_t i = 0; i < ndim; i++, d = d->next) {
        if (!lit_is_int(d))
            return set_error(c->err, NPYDT_E_VALUE, off, c->path,
                             "invalid shape in fixed-type tuple: dimensions must be integers");
        if (d->u.num.neg && d->u.num.mag != 0)
            return set_error(c->err, NPYDT_E_SHAPE, off, c->path,
                             "invalid shape in fixed-type tuple: negative dimension");
        if (d->u.num.big || d->u.num.mag > NPYDT_MAX_ITEMSIZE)
            return set_error(c->err, NPYDT_E_OVERFLOW, off, c->path,
                             "subarray dimension does not fit a C int");
        dims[i] = d->u.num.mag;
    }
    return dtype_make_subarray(c, base, dims, ndim, off, out);
}

/* ---- duplicate names and titles ---------------------------------------- */

struct name_set {
    const char **slots;
    size_t mask;
};

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Returns false if s was already present. */
static bool name_set_add(struct name_set *set, const char *s)
{
    size_t i = (size_t)hash_str(s) & set->mask;
    while (set->slots[i]) {
        if (strcmp(set->slots[i], s) == 0)
            return false;
        i = (i + 1) & set->mask;
    }
    set->slots[i] = s;
    return true;
}

npydt_status dtype_make_struct(struct dtype_ctx *c, const struct field_spec *specs, size_t n,
                               uint64_t itemsize, size_t off, const npydt_dtype **out)
{
    if (n > c->limits->max_fields || c->nfields > c->limits->max_fields - n)
        return set_error(c->err, NPYDT_E_LIMIT, off, c->path,
                         "more than %zu fields in the dtype", c->limits->max_fields);
    c->nfields += n;
    npydt_dtype *dt = arena_alloc(c->arena, sizeof *dt);
    struct npydt_field *fields = arena_alloc_array(c->arena, n ? n : 1, sizeof *fields);
    if (!dt || !fields)
        return set_nomem(c->err);
    /* room for every name and title at load factor <= 1/2 */
    size_t cap = 8;
    while (cap < 4 * n)
        cap *= 2;
    struct name_set set = {arena_alloc_array(c->arena, cap, sizeof(char *)), cap - 1};
    if (!set.slots)
        return set_nomem(c->err);
    bool has_object = false;
    for (size_t i = 0; i < n; i++) {
        const struct field_spec *f = &specs[i];
        if (!name_set_add(&set, f->name))
            return set_error(c->err, NPYDT_E_NAME, f->text_offset, c->path,
                             "field name '%s' already used as a name or title", f->name);
        if (f->title && !name_set_add(&set, f->title))
            return set_error(c->err, NPYDT_E_NAME, f->text_offset, c->path,
                             "title '%s' already used as a name or title", f->title);
        fields[i].name = f->name;
        fields[i].title = f->title;
        fields[i].offset = f->offset;
        fields[i].dtype = f->dtype;
        has_object |= f->dtype->has_object;
    }
    dt->cls = NPYDT_STRUCT;
    dt->kind = 'V';
    dt->byteorder = '|';
    dt->unit = NPYDT_UNIT_NONE;
    dt->itemsize = itemsize;
    dt->nfields = n;
    dt->fields = fields;
    dt->has_object = has_object;
    *out = dt;
    return NPYDT_OK;
}

/* ---- public accessors ---------------------------------------------------- */

npydt_dtype_class npydt_dtype_get_class(const npydt_dtype *dt) { return dt->cls; }
size_t npydt_dtype_itemsize(const npydt_dtype *dt) { return (size_t)dt->itemsize; }
char npydt_dtype_kind(const npydt_dtype *dt) { return dt->kind; }
char npydt_dtype_byteorder(const npydt_dtype *dt) { return dt->byteorder; }
npydt_unit npydt_dtype_unit(const npydt_dtype *dt) { return (npydt_unit)dt->unit; }
int32_t npydt_dtype_unit_count(const npydt_dtype *dt)
{
    return dt->unit == NPYDT_UNIT_NONE ? 0 : dt->unit_count;
}
size_t npydt_dtype_nfields(const npydt_dtype *dt) { return dt->nfields; }

const char *npydt_dtype_field_name(const npydt_dtype *dt, size_t i)
{
    return i < dt->nfields ? dt->fields[i].name : NULL;
}

const char *npydt_dtype_field_title(const npydt_dtype *dt, size_t i)
{
    return i < dt->nfields ? dt->fields[i].title : NULL;
}

size_t npydt_dtype_field_offset(const npydt_dtype *dt, size_t i)
{
    return i < dt->nfields ? (size_t)dt->fields[i].offset : 0;
}

const npydt_dtype *npydt_dtype_field_dtype(const npydt_dtype *dt, size_t i)
{
    return i < dt->nfields ? dt->fields[i].dtype : NULL;
}

size_t npydt_dtype_ndim(const npydt_dtype *dt) { return dt->ndim; }
const uint64_t *npydt_dtype_shape(const npydt_dtype *dt) { return dt->ndim ? dt->shape : NULL; }
const npydt_dtype *npydt_dtype_base(const npydt_dtype *dt) { return dt->base; }
int npydt_dtype_has_object(const npydt_dtype *dt) { return dt->has_object; }

static bool str_eq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

int npydt_dtype_equal(const npydt_dtype *a, const npydt_dtype *b)
{
    if (a == b)
        return 1;
    if (a->cls != b->cls || a->kind != b->kind || a->byteorder != b->byteorder ||
        a->itemsize != b->itemsize || a->unit != b->unit ||
        (a->unit != NPYDT_UNIT_NONE && a->unit_count != b->unit_count))
        return 0;
    switch (a->cls) {
    case NPYDT_SCALAR:
        return 1;
    case NPYDT_SUBARRAY:
        if (a->ndim != b->ndim || memcmp(a->shape, b->shape, a->ndim * sizeof *a->shape) != 0)
            return 0;
        return npydt_dtype_equal(a->base, b->base);
    case NPYDT_STRUCT:
        if (a->nfields != b->nfields)
            return 0;
        for (size_t i = 0; i < a->nfields; i++) {
            const struct npydt_field *fa = &a->fields[i], *fb = &b->fields[i];
            if (fa->offset != fb->offset || !str_eq(fa->name, fb->name) ||
                !str_eq(fa->title, fb->title) || !npydt_dtype_equal(fa->dtype, fb->dtype))
                return 0;
        }
        return 1;
    }
    return 0;
}

size_t npydt_dtype_str(const npydt_dtype *dt, char *buf, size_t size)
{
    int n;
    if (dt->cls != NPYDT_SCALAR)
        n = snprintf(buf, size, "|V%llu", (unsigned long long)dt->itemsize);
    else if (dt->kind == 'O')
        n = snprintf(buf, size, "|O");
    else if (dt->kind == 'U')
        n = snprintf(buf, size, "%cU%llu", dt->byteorder, (unsigned long long)(dt->itemsize / 4));
    else if (dt->kind == 'M' || dt->kind == 'm') {
        if (dt->unit == NPYDT_UNIT_GENERIC)
            n = snprintf(buf, size, "%c%c8", dt->byteorder, dt->kind);
        else if (dt->unit_count == 1)
            n = snprintf(buf, size, "%c%c8[%s]", dt->byteorder, dt->kind,
                         npydt_unit_name((npydt_unit)dt->unit));
        else
            n = snprintf(buf, size, "%c%c8[%d%s]", dt->byteorder, dt->kind, (int)dt->unit_count,
                         npydt_unit_name((npydt_unit)dt->unit));
    } else
        n = snprintf(buf, size, "%c%c%llu", dt->byteorder, dt->kind,
                     (unsigned long long)dt->itemsize);
    return n < 0 ? 0 : (size_t)n;
}

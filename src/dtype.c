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

/* Names and titles of one struct share a namespace. They are checked by
 * sorting, not hashing: names chosen by the input can make a hash table's
 * probes collide (FNV-style hashes even give multi-collisions for free),
 * and then it costs quadratic time; a merge sort costs n log n comparisons
 * whatever the names. */
struct name_ref {
    uint64_t key;   /* a hash of s: sorts by key, then by s, so that equal
                     * names meet and most comparisons touch no string */
    const char *s;
    size_t order;   /* 2 * field + (1 for a title): the order NumPy checks them in */
};

static uint64_t name_key(const char *s)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a: colliding keys only cost a strcmp */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static bool name_ref_le(const struct name_ref *a, const struct name_ref *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    int c = strcmp(a->s, b->s);
    return c < 0 || (c == 0 && a->order <= b->order);
}

/* Bottom-up merge sort of v[0..n) with tmp[0..n) as scratch; returns the
 * array that holds the result (v or tmp). */
static struct name_ref *name_sort(struct name_ref *v, struct name_ref *tmp, size_t n)
{
    for (size_t width = 1; width < n; width = width > n / 2 ? n : 2 * width) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = n - lo > width ? lo + width : n;
            size_t hi = n - mid > width ? mid + width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = name_ref_le(&v[i], &v[j]) ? v[i++] : v[j++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
            if (hi == n)
                break;
        }
        struct name_ref *t = v;
        v = tmp;
        tmp = t;
    }
    return v;
}

/* The first name or title, in field order, that repeats an earlier one:
 * its order number, or SIZE_MAX when all are distinct. */
static size_t first_duplicate(struct name_ref *v, struct name_ref *tmp, size_t n)
{
    struct name_ref *sorted = name_sort(v, tmp, n);
    size_t first = SIZE_MAX;
    for (size_t i = 1; i < n; i++)
        if (sorted[i].order < first && strcmp(sorted[i - 1].s, sorted[i].s) == 0 &&
            (i < 2 || strcmp(sorted[i - 2].s, sorted[i].s) != 0))
            first = sorted[i].order;   /* the second of its group */
    return first;
}

npydt_status dtype_make_struct(struct dtype_ctx *c, const struct field_spec *specs, size_t n,
                               uint64_t itemsize, size_t off, const npydt_dtype **out)
{
    if (n > c->limits->max_fields || c->nfields > c->limits->max_fields - n)
        return set_error(c->err, NPYDT_E_LIMIT, off, c->path,
                         "more than %zu fields in the dtype", c->limits->max_fields);
    c->nfields += n;
    npydt_dtype *dt = arena_alloc(c->arena, sizeof *dt);
    struct npydt_field *fields = arena_alloc_array_raw(c->arena, n ? n : 1, sizeof *fields);
    if (!dt || !fields)
        return set_nomem(c->err);
    size_t nrefs = n;
    for (size_t i = 0; i < n; i++)
        nrefs += specs[i].title != NULL;
    /* the entries and the sort's scratch (arena_alloc_array checks the size) */
    struct name_ref *refs = arena_alloc_array_raw(c->arena, nrefs ? 2 * nrefs : 1, sizeof *refs);
    if (!refs)
        return set_nomem(c->err);
    nrefs = 0;
    for (size_t i = 0; i < n; i++) {
        refs[nrefs++] = (struct name_ref){name_key(specs[i].name), specs[i].name, 2 * i};
        if (specs[i].title)
            refs[nrefs++] =
                (struct name_ref){name_key(specs[i].title), specs[i].title, 2 * i + 1};
    }
    size_t dup = first_duplicate(refs, refs + nrefs, nrefs);
    if (dup != SIZE_MAX) {
        const struct field_spec *f = &specs[dup / 2];
        if (dup % 2 == 0)
            return set_error(c->err, NPYDT_E_NAME, f->text_offset, c->path,
                             "field name '%s' already used as a name or title", f->name);
        return set_error(c->err, NPYDT_E_NAME, f->text_offset, c->path,
                         "title '%s' already used as a name or title", f->title);
    }
    bool has_object = false;
    for (size_t i = 0; i < n; i++) {
        const struct field_spec *f = &specs[i];
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

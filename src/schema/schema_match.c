/* Checking a dtype (and a header's shape and order) against a compiled
 * schema: fields paired by name, then compared node by node, by layout or
 * as NumPy's safe cast; each difference goes to the result through
 * schema_report.c. */
#include "schema/schema.h"

#include "header/header.h"
#include "schema/cancast.h"

#include <string.h>

/* ---- name lookup in a struct's fields ---- */

struct name_index {
    const npydt_dtype *dt;
    size_t *slots;   /* field index + 1; 0 is empty */
    size_t mask;
};

#define LINEAR_FIELDS 8u

static bool index_build(struct chk *c, struct name_index *ix, const npydt_dtype *dt)
{
    ix->dt = dt;
    ix->slots = NULL;
    ix->mask = 0;
    if (dt->nfields <= LINEAR_FIELDS)
        return true;
    size_t cap = 16;
    while (cap < 2 * dt->nfields)
        cap *= 2;
    ix->slots = arena_alloc_array(&c->scratch, cap, sizeof *ix->slots);
    if (!ix->slots) {
        c->st = set_nomem(c->err);
        return false;
    }
    ix->mask = cap - 1;
    for (size_t j = 0; j < dt->nfields; j++) {
        size_t h = (size_t)name_key(dt->fields[j].name, dt->fields[j].name_len) & ix->mask;
        while (ix->slots[h])
            h = (h + 1) & ix->mask;
        ix->slots[h] = j + 1;
    }
    return true;
}

static size_t index_find(const struct name_index *ix, const char *name, size_t len)
{
    const npydt_dtype *dt = ix->dt;
    if (!ix->slots) {
        for (size_t j = 0; j < dt->nfields; j++)
            if (name_eq(dt->fields[j].name, dt->fields[j].name_len, name, len))
                return j;
        return SIZE_MAX;
    }
    for (size_t h = (size_t)name_key(name, len) & ix->mask; ix->slots[h];
         h = (h + 1) & ix->mask) {
        const struct npydt_field *f = &dt->fields[ix->slots[h] - 1];
        if (name_eq(f->name, f->name_len, name, len))
            return ix->slots[h] - 1;
    }
    return SIZE_MAX;
}

/* ---- the comparison ---- */

static void cmp_node(struct chk *c, const npydt_dtype *s, const npydt_dtype *f,
                     const struct seg *path, bool top, unsigned depth);

static bool is_datetime(char kind)
{
    return kind == 'M' || kind == 'm';
}

static void cmp_scalar(struct chk *c, const npydt_dtype *s, const npydt_dtype *f,
                       const struct seg *path, bool top)
{
    if (c->flags & NPYDT_CHECK_SAFE_CAST) {
        if (cancast_scalar(f, s, top))
            return;
        npydt_mismatch_code code = s->kind != f->kind ? NPYDT_MISMATCH_KIND
                                   : is_datetime(s->kind) ? NPYDT_MISMATCH_UNIT
                                                          : NPYDT_MISMATCH_SIZE;
        chk_add(c, code, path, chk_type_text(c, s), chk_type_text(c, f));
        return;
    }
    if (s->kind != f->kind)
        chk_add(c, NPYDT_MISMATCH_KIND, path, chk_type_text(c, s), chk_type_text(c, f));
    else if (s->itemsize != f->itemsize)
        chk_add(c, NPYDT_MISMATCH_SIZE, path, chk_type_text(c, s), chk_type_text(c, f));
    else if (is_datetime(s->kind) && !cancast_datetime_equiv(f, s))
        chk_add(c, NPYDT_MISMATCH_UNIT, path, chk_type_text(c, s), chk_type_text(c, f));
    if ((c->flags & NPYDT_CHECK_STRICT) && s->kind == f->kind && s->byteorder != f->byteorder)
        chk_add(c, NPYDT_MISMATCH_BYTEORDER, path, chk_type_text(c, s), chk_type_text(c, f));
}

static void cmp_struct(struct chk *c, const npydt_dtype *s, const npydt_dtype *f,
                       const struct seg *path, unsigned depth)
{
    bool allow_extra = c->flags & NPYDT_CHECK_ALLOW_EXTRA;
    bool layout = !(c->flags & NPYDT_CHECK_SAFE_CAST);
    size_t n = s->nfields, m = f->nfields;
    struct name_index ix;
    if (!index_build(c, &ix, f))
        return;
    /* which file field each schema field names (SIZE_MAX: none) */
    size_t *match = arena_alloc_array(&c->scratch, n ? n : 1, sizeof *match);
    bool *used = arena_alloc_array(&c->scratch, m ? m : 1, sizeof *used);
    if (!match || !used) {
        c->st = set_nomem(c->err);
        return;
    }
    size_t nmatched = 0, last = 0;
    bool in_order = true;
    for (size_t i = 0; i < n; i++) {
        match[i] = index_find(&ix, s->fields[i].name, s->fields[i].name_len);
        if (match[i] == SIZE_MAX)
            continue;
        used[match[i]] = true;
        if (nmatched && match[i] < last)
            in_order = false;
        last = match[i];
        nmatched++;
    }
    /* the named fields keep their order at every level; under allow-extra
     * a reader finds them by name, so where they sit is free */
    bool extras = nmatched < m;
    if (!in_order) {
        /* the common fields, in the schema's order and in the file's */
        size_t *sorder = arena_alloc_array(&c->scratch, nmatched, sizeof *sorder);
        size_t *forder = arena_alloc_array(&c->scratch, nmatched, sizeof *forder);
        if (!sorder || !forder) {
            c->st = set_nomem(c->err);
            return;
        }
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (match[i] != SIZE_MAX)
                sorder[k++] = i;
        k = 0;
        for (size_t j = 0; j < m; j++)
            if (used[j])
                forder[k++] = j;
        struct chk_names sa = {s, sorder, nmatched}, fa = {f, forder, nmatched};
        size_t elen = 0, flen = 0;
        const char *e = chk_text_n(c, chk_names_out, &sa, &elen);
        const char *fnd = chk_text_n(c, chk_names_out, &fa, &flen);
        chk_add_n(c, NPYDT_MISMATCH_ORDER, path, e, elen, fnd, flen);
    }
    /* offsets and the struct's size are compared where the layout lines
     * up field for field; a field is reported only when the padding before
     * it differs, so one field of the wrong size does not make every later
     * offset a mismatch */
    bool aligned = layout && !allow_extra && in_order && !extras && nmatched == n;
    uint64_t s_end = 0, f_end = 0;
    for (size_t i = 0; i < n && c->st == NPYDT_OK; i++) {
        const struct npydt_field *sf = &s->fields[i];
        struct seg here = {path, sf->name, sf->name_len};
        if (match[i] == SIZE_MAX) {
            chk_add(c, NPYDT_MISMATCH_MISSING_FIELD, &here, chk_type_text(c, sf->dtype), "");
            continue;
        }
        const struct npydt_field *ff = &f->fields[match[i]];
        /* np.can_cast ignores titles: only the other levels compare them */
        if (layout && sf->title &&
            !(ff->title && name_eq(sf->title, sf->title_len, ff->title, ff->title_len)))
            chk_add_n(c, NPYDT_MISMATCH_TITLE, &here, sf->title, sf->title_len,
                      ff->title ? ff->title : "", ff->title_len);
        if (aligned) {
            if (sf->offset != ff->offset && sf->offset - s_end != ff->offset - f_end)
                chk_add(c, NPYDT_MISMATCH_OFFSET, &here,
                        chk_printf(c, "%llu", (unsigned long long)sf->offset),
                        chk_printf(c, "%llu", (unsigned long long)ff->offset));
            s_end = sf->offset + sf->dtype->itemsize;
            f_end = ff->offset + ff->dtype->itemsize;
        }
        cmp_node(c, sf->dtype, ff->dtype, &here, false, depth + 1);
    }
    if (!allow_extra)
        for (size_t j = 0; j < m && c->st == NPYDT_OK; j++)
            if (!used[j]) {
                struct seg here = {path, f->fields[j].name, f->fields[j].name_len};
                chk_add(c, NPYDT_MISMATCH_EXTRA_FIELD, &here, "", chk_type_text(c, f->fields[j].dtype));
            }
    if (aligned && s->itemsize != f->itemsize && s->itemsize - s_end != f->itemsize - f_end)
        chk_add(c, NPYDT_MISMATCH_SIZE, path,
                chk_printf(c, "%llu bytes", (unsigned long long)s->itemsize),
                chk_printf(c, "%llu bytes", (unsigned long long)f->itemsize));
}

static bool subarray_is_empty(const npydt_dtype *dt)
{
    for (size_t i = 0; i < dt->ndim; i++)
        if (dt->shape[i] == 0)
            return true;
    return false;
}

/* An empty subarray given a size, (('<i4', (0,)), 3), takes that many
 * bytes in NumPy whatever its shape: with the same shapes as the other
 * side's, only its size tells them apart (a safe cast ignores it). */
static void cmp_empty_subarray_sizes(struct chk *c, const npydt_dtype *s, const npydt_dtype *f,
                                     const struct seg *path)
{
    for (; s->cls == NPYDT_SUBARRAY && f->cls == NPYDT_SUBARRAY; s = s->base, f = f->base)
        if (s->itemsize != f->itemsize && subarray_is_empty(s)) {   /* f's too: same shapes */
            chk_add(c, NPYDT_MISMATCH_SIZE, path,
                    chk_printf(c, "%llu bytes", (unsigned long long)s->itemsize),
                    chk_printf(c, "%llu bytes", (unsigned long long)f->itemsize));
            return;
        }
}

/* s: the schema's node, f: the file's. top marks the root of the check,
 * where NumPy reads S0, U0 and V0 as whole type classes. */
static void cmp_node(struct chk *c, const npydt_dtype *s, const npydt_dtype *f,
                     const struct seg *path, bool top, unsigned depth)
{
    if (c->st != NPYDT_OK)
        return;
    if (depth > NPYDT_DEPTH_CEILING) {
        c->st = set_error(c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                          "dtype nested too deeply to check");
        return;
    }
    bool safe = c->flags & NPYDT_CHECK_SAFE_CAST;
    if (safe && s->cls == NPYDT_SCALAR && s->kind == 'O')
        return;   /* anything casts safely to an object */
    if (safe && top && dtype_is_unsized_flexible(s)) {
        if (f->cls == NPYDT_SCALAR) {
            cmp_scalar(c, s, f, path, true);
        } else if (s->kind != 'V') {
            chk_add(c, NPYDT_MISMATCH_KIND, path, chk_type_text(c, s), chk_type_text(c, f));
        }
        return;
    }
    const npydt_dtype *sb = cancast_flat_base(s), *fb = cancast_flat_base(f);
    if (!cancast_shapes_fit(f, s, safe))
        chk_add(c, NPYDT_MISMATCH_SHAPE, path, chk_text(c, chk_shape_out, s),
                chk_text(c, chk_shape_out, f));
    else if (!safe)
        cmp_empty_subarray_sizes(c, s, f, path);
    bool base_top = top && s == sb && f == fb;
    if (safe && sb->cls == NPYDT_SCALAR && sb->kind == 'O')
        return;
    if (sb->cls == NPYDT_STRUCT && fb->cls == NPYDT_STRUCT)
        cmp_struct(c, sb, fb, path, depth);
    else if (sb->cls == NPYDT_STRUCT || fb->cls == NPYDT_STRUCT)
        chk_add(c, NPYDT_MISMATCH_KIND, path, chk_type_text(c, sb), chk_type_text(c, fb));
    else
        cmp_scalar(c, sb, fb, path, base_top);
}

static void cmp_array(struct chk *c, const npydt_schema *s, const npydt_header *h)
{
    size_t ndim = npydt_header_ndim(h);
    const uint64_t *shape = npydt_header_shape(h);
    if (s->has_shape) {
        bool ok = ndim == s->ndim;
        for (size_t i = 0; ok && i < ndim; i++)
            ok = s->shape[i] == HEADER_DIM_ANY || s->shape[i] == shape[i];
        if (!ok) {
            int64_t *expected = arena_alloc_array(&c->scratch, s->ndim ? s->ndim : 1,
                                                  sizeof *expected);
            int64_t *found = arena_alloc_array(&c->scratch, ndim ? ndim : 1, sizeof *found);
            if (!expected || !found) {
                c->st = set_nomem(c->err);
                return;
            }
            for (size_t i = 0; i < s->ndim; i++)
                expected[i] = s->shape[i] == HEADER_DIM_ANY ? -1 : (int64_t)s->shape[i];
            for (size_t i = 0; i < ndim; i++)
                found[i] = (int64_t)shape[i];   /* the parser bounds them by INT64_MAX */
            struct chk_dims ea = {expected, s->ndim}, fa = {found, ndim};
            chk_add(c, NPYDT_MISMATCH_DIMENSION, NULL, chk_text(c, chk_dims_out, &ea),
                    chk_text(c, chk_dims_out, &fa));
        }
    }
    bool fortran = npydt_header_fortran_order(h) != 0;
    if (s->has_fortran && s->fortran != fortran)
        chk_add(c, NPYDT_MISMATCH_FORTRAN_ORDER, NULL, s->fortran ? "True" : "False",
                fortran ? "True" : "False");
}

static npydt_status run_check(const npydt_schema *s, const npydt_dtype *dt,
                              const npydt_header *h, unsigned flags, npydt_check_result **out,
                              npydt_error *err)
{
    if (out)
        *out = NULL;
    if (!s || !dt)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "schema or input is NULL");
    const unsigned known = NPYDT_CHECK_STRICT | NPYDT_CHECK_SAFE_CAST | NPYDT_CHECK_ALLOW_EXTRA;
    if (flags & ~known)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "unknown check flags 0x%x",
                         flags & ~known);
    if ((flags & NPYDT_CHECK_STRICT) && (flags & NPYDT_CHECK_SAFE_CAST))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "strict and safe-cast checks exclude each other");
    /* a result nobody keeps lives on the stack: a match costs no
     * allocation */
    _Alignas(16) unsigned char room[512];
    struct arena ar;
    if (out)
        arena_init(&ar, s->alloc);
    else
        arena_init_buffer(&ar, s->alloc, room, sizeof room);
    npydt_check_result *res = arena_alloc(&ar, sizeof *res);
    if (!res) {
        arena_release(&ar);
        return set_nomem(err);
    }
    struct chk c = {.ar = &ar, .res = res, .flags = flags, .err = err, .st = NPYDT_OK};
    arena_init(&c.scratch, s->alloc);
    if (s->dtype)
        cmp_node(&c, s->dtype, dt, NULL, true, 0);
    if (h && c.st == NPYDT_OK)
        cmp_array(&c, s, h);
    arena_release(&c.scratch);
    if (c.st != NPYDT_OK) {
        arena_release(&ar);
        return c.st;
    }
    npydt_status st = chk_first_error(res, err);
    if (out) {
        res->arena = ar;
        *out = res;
    } else {
        arena_release(&ar);
    }
    return st;
}

npydt_status npydt_check(const npydt_schema *schema, const npydt_header *h, unsigned flags,
                         npydt_check_result **out, npydt_error *err)
{
    error_clear(err);
    if (out)
        *out = NULL;
    if (!h)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "header is NULL");
    return run_check(schema, npydt_header_dtype(h), h, flags, out, err);
}

npydt_status npydt_check_dtype(const npydt_schema *schema, const npydt_dtype *dt, unsigned flags,
                               npydt_check_result **out, npydt_error *err)
{
    error_clear(err);
    return run_check(schema, dt, NULL, flags, out, err);
}


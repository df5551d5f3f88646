/* Schemas: an expected dtype (and optionally array shape and order),
 * compiled once from a spec and checked against any number of headers,
 * with every mismatch named. */
#include "schema/schema.h"

#include "header/header.h"
#include "literal/literal.h"
#include "schema/cancast.h"

#include <stdio.h>
#include <string.h>

struct npydt_schema {
    struct arena arena;
    const npydt_allocator *alloc;
    const npydt_dtype *dtype;   /* NULL: the spec does not constrain it */
    bool has_shape;
    bool has_fortran;
    bool fortran;
    size_t ndim;
    const uint64_t *shape;      /* HEADER_DIM_ANY matches any length */
};

struct npydt_check_result {
    struct arena arena;
    npydt_mismatch *items;
    size_t n, cap;      /* n <= NPYDT_CHECK_MISMATCH_MAX */
    size_t total;       /* every mismatch found, those not kept included */
};

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

/* ---- compiling a spec ------------------------------------------------------ */

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* A spec is a literal when it starts like one: a quote, a list, a dict, or
 * a tuple whose first item is one of those. Anything else ("f8, (3,)i4",
 * "(2,3)f4", "float64") is a type string. */
static bool looks_literal(const char *t, size_t n)
{
    if (t[0] == '\'' || t[0] == '"' || t[0] == '[' || t[0] == '{')
        return true;
    if (t[0] != '(')
        return false;
    size_t i = 1;
    while (i < n && is_space(t[i]))
        i++;
    return i < n && (t[i] == '\'' || t[i] == '"' || t[i] == '[' || t[i] == '(');
}

/* {'descr': ..., 'shape': ..., 'fortran_order': ...}, every key optional. */
static npydt_status parse_dict_spec(struct npydt_schema *s, struct dtype_ctx *c,
                                    const struct lit *d, const npydt_dtype **dt)
{
    struct header_dict vals;
    npydt_status st = header_dict_read(c, d, HEADER_DICT_SCHEMA, &vals);
    if (st != NPYDT_OK)
        return st;
    *dt = vals.dtype;
    s->has_fortran = vals.has_fortran_order;
    s->fortran = vals.fortran_order;
    s->has_shape = vals.has_shape;
    s->ndim = vals.ndim;
    s->shape = vals.shape;
    return NPYDT_OK;
}

/* Everything but the arena move; errors carry offsets into the trimmed
 * text (b bytes into the spec). */
static npydt_status compile_into(struct npydt_schema *s, struct arena *ar, const char *spec,
                                 size_t b, size_t e, const npydt_limits *lim, npydt_error *err)
{
    struct dtype_ctx c;
    dtype_ctx_init(&c, ar, NULL, lim, err);
    const char *t = spec + b;
    size_t n = e - b;
    const npydt_dtype *dt = NULL;
    npydt_status st;
    if (!looks_literal(t, n)) {
        st = typestr_parse_text(&c, t, n, b, &dt);
    } else {
        struct lit *v;
        st = lit_parse_text_as(ar, NULL, t, n, true, true, LIT_ROOT_DESCR, lim, err, &v);
        if (st == NPYDT_OK)
            st = v->kind == LIT_DICT ? parse_dict_spec(s, &c, v, &dt) : descr_from_lit(&c, v, &dt);
        if (st != NPYDT_OK && err && err->offset != NPYDT_NO_OFFSET)
            err->offset += b;
    }
    if (st != NPYDT_OK || !dt)
        return st;
    /* a root of its own, with the leaf table, like any parsed dtype */
    npydt_dtype *root;
    st = dtype_make_root(&c, dt, NULL, &root);
    if (st == NPYDT_OK)
        s->dtype = root;
    return st;
}

npydt_status npydt_schema_compile(const char *spec, size_t len, const npydt_options *opts,
                                  npydt_schema **out, npydt_error *err)
{
    error_clear(err);
    npydt_options defaults;
    opts = options_or_default(opts, &defaults);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!spec && len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "spec is NULL");
    npydt_status st = options_check(opts, err);
    if (st != NPYDT_OK)
        return st;
    size_t b = 0, e = len;
    while (b < e && is_space(spec[b]))
        b++;
    while (e > b && is_space(spec[e - 1]))
        e--;
    if (b == e)
        return set_error(err, NPYDT_E_SYNTAX, len, NULL, "empty schema");
    struct arena_budget budget;
    arena_budget_init(&budget, opts->limits.max_alloc_bytes);
    struct arena ar;
    arena_init(&ar, opts->allocator);
    arena_budget_attach(&ar, &budget);
    struct npydt_schema *s = arena_alloc(&ar, sizeof *s);
    if (!s) {
        arena_release(&ar);
        return arena_budget_explain(&budget, set_nomem(err), err);
    }
    s->alloc = opts->allocator;
    st = compile_into(s, &ar, spec, b, e, &opts->limits, err);
    if (st != NPYDT_OK) {
        arena_release(&ar);   /* s lives in ar */
        return arena_budget_explain(&budget, st, err);
    }
    arena_budget_detach(&ar);   /* budget ends with this call */
    s->arena = ar;
    *out = s;
    return NPYDT_OK;
}

void npydt_schema_free(npydt_schema *schema)
{
    if (!schema)
        return;
    struct arena ar = schema->arena;
    arena_release(&ar);
}

const npydt_dtype *npydt_schema_dtype(const npydt_schema *schema)
{
    return schema ? schema->dtype : NULL;
}

/* ---- checking ------------------------------------------------------------------ */

/* A field path as a chain on the C stack, turned into text only when a
 * mismatch is recorded. */
struct seg {
    const struct seg *up;
    const char *name;
    size_t len;                  /* of name, which may hold a NUL */
};

struct chk {
    struct arena *ar;            /* the result's arena */
    struct arena scratch;        /* name indexes, released after the check */
    npydt_check_result *res;
    unsigned flags;
    npydt_error *err;
    npydt_status st;             /* first failure (allocation, depth) */
};

/* Past NPYDT_CHECK_MISMATCH_MAX a mismatch is only counted: the texts of
 * its path and values are not built (each builder below gives "" then). */
static bool keeping(const struct chk *c)
{
    return c->res->n < NPYDT_CHECK_MISMATCH_MAX;
}

static const char *ctext(struct chk *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static const char *ctext(struct chk *c, const char *fmt, ...)
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
static const char *type_text(struct chk *c, const npydt_dtype *dt)
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
static const char *outbuf_text_n(struct chk *c, void (*write)(struct outbuf *, const void *),
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

static const char *outbuf_text(struct chk *c, void (*write)(struct outbuf *, const void *),
                               const void *arg)
{
    return outbuf_text_n(c, write, arg, NULL);
}

/* the subarray shape of a node: "(3, 2)", or "(3,) of (2,)" for a
 * subarray of subarrays, which NumPy keeps apart from the first */
static void node_shape_out(struct outbuf *o, const void *arg)
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

struct dims_arg {
    const int64_t *dims;
    size_t ndim;
};

static void dims_out(struct outbuf *o, const void *arg)
{
    const struct dims_arg *d = arg;
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
static void add_n(struct chk *c, npydt_mismatch_code code, const struct seg *path,
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

static void add(struct chk *c, npydt_mismatch_code code, const struct seg *path,
                const char *expected, const char *found)
{
    add_n(c, code, path, expected, expected ? strlen(expected) : 0, found,
          found ? strlen(found) : 0);
}

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
        add(c, code, path, type_text(c, s), type_text(c, f));
        return;
    }
    if (s->kind != f->kind)
        add(c, NPYDT_MISMATCH_KIND, path, type_text(c, s), type_text(c, f));
    else if (s->itemsize != f->itemsize)
        add(c, NPYDT_MISMATCH_SIZE, path, type_text(c, s), type_text(c, f));
    else if (is_datetime(s->kind) && !cancast_datetime_equiv(f, s))
        add(c, NPYDT_MISMATCH_UNIT, path, type_text(c, s), type_text(c, f));
    if ((c->flags & NPYDT_CHECK_STRICT) && s->kind == f->kind && s->byteorder != f->byteorder)
        add(c, NPYDT_MISMATCH_BYTEORDER, path, type_text(c, s), type_text(c, f));
}

struct names_arg {
    const npydt_dtype *dt;
    const size_t *which;   /* field indexes, in the order to print */
    size_t n;
};

static void names_out(struct outbuf *o, const void *arg)
{
    const struct names_arg *a = arg;
    for (size_t k = 0; k < a->n; k++) {
        if (k)
            out_puts(o, ", ");
        const struct npydt_field *f = &a->dt->fields[a->which[k]];
        for (size_t i = 0; i < f->name_len; i++)
            out_putc(o, f->name[i]);
    }
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
        struct names_arg sa = {s, sorder, nmatched}, fa = {f, forder, nmatched};
        size_t elen = 0, flen = 0;
        const char *e = outbuf_text_n(c, names_out, &sa, &elen);
        const char *fnd = outbuf_text_n(c, names_out, &fa, &flen);
        add_n(c, NPYDT_MISMATCH_ORDER, path, e, elen, fnd, flen);
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
            add(c, NPYDT_MISMATCH_MISSING_FIELD, &here, type_text(c, sf->dtype), "");
            continue;
        }
        const struct npydt_field *ff = &f->fields[match[i]];
        /* np.can_cast ignores titles: only the other levels compare them */
        if (layout && sf->title &&
            !(ff->title && name_eq(sf->title, sf->title_len, ff->title, ff->title_len)))
            add_n(c, NPYDT_MISMATCH_TITLE, &here, sf->title, sf->title_len,
                  ff->title ? ff->title : "", ff->title_len);
        if (aligned) {
            if (sf->offset != ff->offset && sf->offset - s_end != ff->offset - f_end)
                add(c, NPYDT_MISMATCH_OFFSET, &here,
                    ctext(c, "%llu", (unsigned long long)sf->offset),
                    ctext(c, "%llu", (unsigned long long)ff->offset));
            s_end = sf->offset + sf->dtype->itemsize;
            f_end = ff->offset + ff->dtype->itemsize;
        }
        cmp_node(c, sf->dtype, ff->dtype, &here, false, depth + 1);
    }
    if (!allow_extra)
        for (size_t j = 0; j < m && c->st == NPYDT_OK; j++)
            if (!used[j]) {
                struct seg here = {path, f->fields[j].name, f->fields[j].name_len};
                add(c, NPYDT_MISMATCH_EXTRA_FIELD, &here, "", type_text(c, f->fields[j].dtype));
            }
    if (aligned && s->itemsize != f->itemsize && s->itemsize - s_end != f->itemsize - f_end)
        add(c, NPYDT_MISMATCH_SIZE, path, ctext(c, "%llu bytes", (unsigned long long)s->itemsize),
            ctext(c, "%llu bytes", (unsigned long long)f->itemsize));
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
            add(c, NPYDT_MISMATCH_SIZE, path,
                ctext(c, "%llu bytes", (unsigned long long)s->itemsize),
                ctext(c, "%llu bytes", (unsigned long long)f->itemsize));
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
            add(c, NPYDT_MISMATCH_KIND, path, type_text(c, s), type_text(c, f));
        }
        return;
    }
    const npydt_dtype *sb = cancast_flat_base(s), *fb = cancast_flat_base(f);
    if (!cancast_shapes_fit(f, s, safe))
        add(c, NPYDT_MISMATCH_SHAPE, path, outbuf_text(c, node_shape_out, s),
            outbuf_text(c, node_shape_out, f));
    else if (!safe)
        cmp_empty_subarray_sizes(c, s, f, path);
    bool base_top = top && s == sb && f == fb;
    if (safe && sb->cls == NPYDT_SCALAR && sb->kind == 'O')
        return;
    if (sb->cls == NPYDT_STRUCT && fb->cls == NPYDT_STRUCT)
        cmp_struct(c, sb, fb, path, depth);
    else if (sb->cls == NPYDT_STRUCT || fb->cls == NPYDT_STRUCT)
        add(c, NPYDT_MISMATCH_KIND, path, type_text(c, sb), type_text(c, fb));
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
            struct dims_arg ea = {expected, s->ndim}, fa = {found, ndim};
            add(c, NPYDT_MISMATCH_DIMENSION, NULL, outbuf_text(c, dims_out, &ea),
                outbuf_text(c, dims_out, &fa));
        }
    }
    bool fortran = npydt_header_fortran_order(h) != 0;
    if (s->has_fortran && s->fortran != fortran)
        add(c, NPYDT_MISMATCH_FORTRAN_ORDER, NULL, s->fortran ? "True" : "False",
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
    npydt_status st = NPYDT_OK;
    if (res->n) {
        const npydt_mismatch *m = &res->items[0];
        char path[256], expected[96], found[96];
        name_for_message(path, sizeof path, m->path, m->path_len);
        name_for_message(expected, sizeof expected, m->expected, m->expected_len);
        name_for_message(found, sizeof found, m->found, m->found_len);
        st = set_error(err, NPYDT_E_MISMATCH, NPYDT_NO_OFFSET, path,
                       "%zu mismatch%s; first: %s: expected %s, found %s", res->total,
                       res->total == 1 ? "" : "es", npydt_mismatch_code_name(m->code),
                       m->expected_len ? expected : "(none)", m->found_len ? found : "(none)");
    }
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

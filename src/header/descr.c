/* The 'descr' value of a header, interpreted as numpy.lib.format's
 * descr_to_dtype does: a type string, a (type, shape) tuple, or a list of
 * (name, type[, shape]) entries in which ('', V-type) entries are padding.
 * This reads the literal tree; the dtype stage builds the nodes from the
 * plain values read here. npydt_header_parse_descr reads such a literal
 * from text into a root dtype. */
#include "header/header.h"

static bool lit_is_int(const struct lit *v)
{
    return v->kind == LIT_INT;
}

/* np.dtype((base, v)): v is the itemsize of an unsized type ('S0', 'U0',
 * 'V0'), or a shape (an integer or a sequence of integers), read into
 * plain values for the dtype stage. off: where errors point. */
static npydt_status shape_from_lit(struct dtype_ctx *c, const npydt_dtype *base,
                                   const struct lit *v, size_t off, const npydt_dtype **out)
{
    if (dtype_takes_itemsize(base)) {
        /* ('S', 5) sets the size of an unsized type */
        bool size_ok = lit_is_int(v) && !v->u.num.neg && !v->u.num.big;
        return dtype_with_itemsize(c, base, size_ok ? v->u.num.mag : UINT64_MAX, off, out);
    }
    enum { INLINE_DIMS = 32 };
    uint64_t inline_dims[INLINE_DIMS];
    uint64_t *dims = inline_dims;
    size_t ndim;
    bool scalar = lit_is_int(v);
    if (scalar) {
        ndim = 1;
    } else if (v->kind == LIT_TUPLE || v->kind == LIT_LIST) {
        ndim = v->u.seq.n;
        npydt_status st = ndim ? dtype_check_ndim(c, ndim, off) : NPYDT_OK;
        if (st != NPYDT_OK)
            return st;
        if (ndim > INLINE_DIMS) {
            dims = arena_alloc_array(c->arena, ndim, sizeof *dims);
            if (!dims)
                return set_nomem(c->err);
        }
    } else {
        return set_error(c->err, NPYDT_E_VALUE, off, dtype_path(c), "invalid shape in fixed-type tuple");
    }
    const struct lit *d = scalar ? v : v->u.seq.head;
    for (size_t i = 0; i < ndim; i++, d = d->next) {
        if (!lit_is_int(d))
            return set_error(c->err, NPYDT_E_VALUE, off, dtype_path(c),
                             "invalid shape in fixed-type tuple: dimensions must be integers");
        if (d->u.num.neg && d->u.num.mag != 0)
            return set_error(c->err, NPYDT_E_SHAPE, off, dtype_path(c),
                             "invalid shape in fixed-type tuple: negative dimension");
        if (d->u.num.big || d->u.num.mag > NPYDT_MAX_ITEMSIZE)
            return dtype_dim_overflow(c, off);
        dims[i] = d->u.num.mag;
    }
    return dtype_apply_dims(c, base, dims, ndim, scalar, off, out);
}

/* field_list_add's error: the struct outgrew a C int. */
static npydt_status field_list_overflow(struct dtype_ctx *c, size_t text_offset)
{
    return set_error(c->err, NPYDT_E_OVERFLOW, text_offset, dtype_path(c),
                     "struct itemsize does not fit a C int");
}

/* The fields of one descriptor list as they are read: padding entries
 * only move the offset, the others become fields of the struct. */
struct field_list {
    struct npydt_field *fields;
    size_t *text_offsets;   /* where each field's entry is, for messages */
    size_t n;
    uint64_t offset;        /* where the next entry starts */
};

/* Add one (name, dtype) entry; plain_name is false when the name came as
 * a (title, name) tuple (such an entry is never padding). The caller has
 * made room for it. */
static npydt_status field_list_add(struct dtype_ctx *c, struct field_list *fl,
                                   const char *name, size_t name_len, bool plain_name,
                                   const char *title, size_t title_len, const npydt_dtype *dt,
                                   size_t text_offset)
{
    /* NumPy: name == '' and dt.type is void and dt.names is None, which
     * holds for plain V types and for every subarray */
    bool padding = plain_name && name_len == 0 &&
                   ((dt->cls == NPYDT_SCALAR && dt->kind == 'V') || dt->cls == NPYDT_SUBARRAY);
    if (!padding) {
        fl->fields[fl->n] = (struct npydt_field){name, title, fl->offset, dt, name_len,
                                                 title_len};
        fl->text_offsets[fl->n++] = text_offset;
    }
    if (!ck_add(fl->offset, dt->itemsize, &fl->offset) || fl->offset > NPYDT_MAX_ITEMSIZE)
        return field_list_overflow(c, text_offset);
    return NPYDT_OK;
}

static npydt_status field_list(struct dtype_ctx *c, const struct lit *v, const npydt_dtype **out)
{
    size_t cap = v->u.seq.n ? v->u.seq.n : 1;
    struct field_list fl = {
        .fields = arena_alloc_array_raw(c->arena, cap, sizeof *fl.fields),
        .text_offsets = arena_alloc_array_raw(c->scratch ? c->scratch : c->arena, cap,
                                              sizeof *fl.text_offsets),
    };
    if (!fl.fields || !fl.text_offsets)
        return set_nomem(c->err);
    for (const struct lit *e = v->u.seq.head; e; e = e->next) {
        if ((e->kind != LIT_TUPLE && e->kind != LIT_LIST) || e->u.seq.n < 2 || e->u.seq.n > 3)
            return set_error(c->err, NPYDT_E_VALUE, e->start, dtype_path(c),
                             "a field must be (name, type) or (name, type, shape)");
        const struct lit *name_lit = e->u.seq.head;
        const struct lit *type_lit = name_lit->next;
        const struct lit *shape_lit = type_lit->next;
        const char *name, *title = NULL;
        size_t name_len, title_len = 0;
        if (name_lit->kind == LIT_STR) {
            name = name_lit->u.str.s;
            name_len = name_lit->u.str.len;
        } else if (name_lit->kind == LIT_TUPLE && name_lit->u.seq.n == 2) {
            const struct lit *t = name_lit->u.seq.head, *nm = t->next;
            if (nm->kind != LIT_STR)
                return set_error(c->err, NPYDT_E_NAME, nm->start, dtype_path(c),
                                 "field names must be strings");
            if (t->kind != LIT_STR)
                return set_error(c->err, NPYDT_E_NAME, t->start, dtype_path(c),
                                 "field titles must be strings");
            name = nm->u.str.s;
            name_len = nm->u.str.len;
            title = t->u.str.s;
            title_len = t->u.str.len;
        } else {
            return set_error(c->err, NPYDT_E_NAME, name_lit->start, dtype_path(c),
                             "field names must be strings or (title, name) tuples");
        }
        struct path_frame frame = {name, name_len, c->frame};
        c->frame = &frame;
        /* np.save's type strings ('<f8', '|S5') straight to their node,
         * as typestr_parse would first try them */
        bool nomem = false;
        const npydt_dtype *dt =
            type_lit->kind == LIT_STR ? typestr_saved(c, type_lit->u.str.s, type_lit->u.str.len,
                                                      &nomem)
                                      : NULL;
        npydt_status st = dt ? NPYDT_OK : nomem ? set_nomem(c->err) : descr_from_lit(c, type_lit, &dt);
        if (st == NPYDT_OK && shape_lit)
            st = shape_from_lit(c, dt, shape_lit, shape_lit->start, &dt);
        c->frame = frame.up;
        if (st == NPYDT_OK)
            st = field_list_add(c, &fl, name, name_len, name_lit->kind == LIT_STR, title,
                                title_len, dt, e->start);
        if (st != NPYDT_OK)
            return st;
    }
    return dtype_make_struct_fields(c, fl.fields, fl.text_offsets, fl.n, fl.offset, v->start,
                                    out);
}

npydt_status descr_from_lit(struct dtype_ctx *c, const struct lit *v, const npydt_dtype **out)
{
    switch (v->kind) {
    case LIT_STR:
        return typestr_parse(c, v->u.str.s, v->u.str.len, v->start, out);
    case LIT_TUPLE: {
        /* (type, shape); NumPy ignores anything after the shape */
        if (v->u.seq.n < 2)
            return set_error(c->err, NPYDT_E_VALUE, v->start, dtype_path(c),
                             "a type tuple must be (type, shape)");
        const npydt_dtype *base;
        npydt_status st = descr_from_lit(c, v->u.seq.head, &base);
        if (st != NPYDT_OK)
            return st;
        return shape_from_lit(c, base, v->u.seq.head->next, v->u.seq.head->next->start, out);
    }
    case LIT_LIST:
        return field_list(c, v, out);
    default:
        return set_error(c->err, NPYDT_E_VALUE, v->start, dtype_path(c),
                         "descr is not a valid dtype descriptor");
    }
}

npydt_status descr_read_text(struct dtype_ctx *c, const char *text, size_t len,
                             const npydt_dtype **out)
{
    struct lit *v;
    npydt_status st = lit_parse_text(c->arena, c->scratch, text, len, 3, LIT_ROOT_DESCR,
                                     c->limits, c->err, &v);
    return st == NPYDT_OK ? descr_from_lit(c, v, out) : st;
}

npydt_status npydt_header_parse_descr(const char *text, size_t len, const npydt_options *opts,
                                      npydt_dtype **out, npydt_error *err)
{
    error_clear(err);
    return dtype_parse_root(text, len, opts, descr_read_text, out, err);
}

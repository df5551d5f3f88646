/* The 'descr' value of a header, interpreted as numpy.lib.format's
 * descr_to_dtype does: a type string, a (type, shape) tuple, or a list of
 * (name, type[, shape]) entries in which ('', V-type) entries are padding. */
#include "dtype/build.h"

#include <string.h>

/* Append one level to the path in c->path (at bytes so far): a '.' after
 * a non-empty path, then the name. A long path is cut, never overflowed. */
static size_t path_append(struct dtype_ctx *c, size_t at, const char *name, size_t len)
{
    if (at && at + 1 < sizeof c->path)
        c->path[at++] = '.';
    return at + name_for_message(c->path + at, sizeof c->path - at, name, len);
}

const char *dtype_path(struct dtype_ctx *c)
{
    /* the frames run from the innermost up: turned around to spell the
     * path from the top, then turned back */
    struct path_frame *down = NULL, *f = c->frame;
    while (f) {
        struct path_frame *up = f->up;
        f->up = down;
        down = f;
        f = up;
    }
    size_t at = 0;
    c->path[0] = '\0';
    while (down) {
        at = path_append(c, at, down->name, down->len);
        struct path_frame *next = down->up;
        down->up = f;
        f = down;
        down = next;
    }
    return c->path;
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
            st = dtype_apply_shape(c, dt, shape_lit, shape_lit->start, &dt);
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
        return dtype_apply_shape(c, base, v->u.seq.head->next, v->u.seq.head->next->start, out);
    }
    case LIT_LIST:
        return field_list(c, v, out);
    default:
        return set_error(c->err, NPYDT_E_VALUE, v->start, dtype_path(c),
                         "descr is not a valid dtype descriptor");
    }
}

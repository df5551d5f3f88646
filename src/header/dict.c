/* The one reader of header-like dicts: {'descr': ..., 'fortran_order':
 * ..., 'shape': (...)} as a .npy header holds it, or as a schema spec
 * writes it (keys optional, None for "any", -1 for a dimension of any
 * length). */
#include "header/header.h"

#include <string.h>

/* The keys, in the order a header's missing ones are reported. */
enum { KEY_DESCR, KEY_FORTRAN_ORDER, KEY_SHAPE, NKEYS };
static const char *const dict_keys[NKEYS] = {"descr", "fortran_order", "shape"};

/* Which key a string literal is, or -1 (a NUL inside never matches). */
static int dict_key(const struct lit *k)
{
    const char *s = k->u.str.s;
    switch (k->u.str.len) {
    case 5:
        return memcmp(s, "descr", 5) == 0 ? KEY_DESCR : memcmp(s, "shape", 5) == 0 ? KEY_SHAPE : -1;
    case 13:
        return memcmp(s, "fortran_order", 13) == 0 ? KEY_FORTRAN_ORDER : -1;
    default:
        return -1;
    }
}

static npydt_status read_shape(struct dtype_ctx *c, const struct lit *v, bool schema,
                               struct header_dict *out)
{
    if (schema && v->kind == LIT_NONE)
        return NPYDT_OK;
    if (v->kind != LIT_TUPLE && !(schema && v->kind == LIT_LIST))
        return set_error(c->err, NPYDT_E_VALUE, v->start, NULL,
                         schema ? "shape must be a tuple of integers (-1 matches any length)"
                                : "shape is not a tuple");
    if (v->u.seq.n > c->limits->max_ndim)
        return set_error(c->err, NPYDT_E_LIMIT, v->start, NULL,
                         "shape has %zu dimensions, more than the limit of %u", v->u.seq.n,
                         c->limits->max_ndim);
    out->ndim = v->u.seq.n;
    out->shape = arena_alloc_array(c->arena, out->ndim ? out->ndim : 1, sizeof *out->shape);
    if (!out->shape)
        return set_nomem(c->err);
    size_t i = 0;
    for (const struct lit *d = v->u.seq.head; d; d = d->next, i++) {
        if (d->kind != LIT_INT) {
            /* True passes NumPy's header check (a bool is an int in
             * Python), but np.load refuses it ("an integer is required"):
             * so do we */
            if (!schema && d->kind == LIT_BOOL)
                return set_error(c->err, NPYDT_E_VALUE, d->start, NULL,
                                 "shape dimensions must be integers, not %s",
                                 d->u.b ? "True" : "False");
            return set_error(c->err, NPYDT_E_VALUE, d->start, NULL,
                             "shape dimensions must be integers%s",
                             schema ? " (-1 matches any length)" : "");
        }
        if (d->u.num.neg && d->u.num.mag != 0) {
            if (!schema || d->u.num.mag != 1 || d->u.num.big)
                return set_error(c->err, NPYDT_E_SHAPE, d->start, NULL,
                                 "negative dimension in shape%s",
                                 schema ? " (only -1, any length, is allowed)" : "");
            out->shape[i] = HEADER_DIM_ANY;
            continue;
        }
        if (d->u.num.big || d->u.num.mag > (uint64_t)INT64_MAX)
            return set_error(c->err, NPYDT_E_OVERFLOW, d->start, NULL,
                             "shape dimension does not fit 64 bits");
        out->shape[i] = d->u.num.mag;
    }
    out->has_shape = true;
    return NPYDT_OK;
}

static npydt_status read_value(struct dtype_ctx *c, int key, const struct lit *v, bool schema,
                               struct header_dict *out)
{
    switch (key) {
    case KEY_DESCR:
        return descr_from_lit(c, v, &out->dtype);
    case KEY_FORTRAN_ORDER:
        if (v->kind == LIT_BOOL) {
            out->has_fortran_order = true;
            out->fortran_order = v->u.b;
            return NPYDT_OK;
        }
        if (schema && v->kind == LIT_NONE)
            return NPYDT_OK;
        return set_error(c->err, NPYDT_E_VALUE, v->start, NULL, "fortran_order is not a bool");
    default:
        return read_shape(c, v, schema, out);
    }
}

/* A header's keys are all checked before any value, and its values read
 * in a fixed order; a schema's values are read as their keys come. */
npydt_status header_dict_read(struct dtype_ctx *c, const struct lit *d,
                              enum header_dict_mode mode, struct header_dict *out)
{
    bool schema = mode == HEADER_DICT_SCHEMA;
    *out = (struct header_dict){0};
    if (d->kind != LIT_DICT)
        return set_error(c->err, NPYDT_E_VALUE, d->start, NULL, "header is not a dictionary");
    const struct lit *vals[NKEYS] = {NULL, NULL, NULL};
    npydt_status st;
    for (const struct lit *k = d->u.seq.head; k; k = k->next->next) {
        if (k->kind != LIT_STR)
            return set_error(c->err, NPYDT_E_KEY, k->start, NULL, "%s keys must be strings",
                             schema ? "schema" : "header");
        int which = dict_key(k);
        if (which < 0)
            return set_error(c->err, NPYDT_E_KEY, k->start, NULL, "unexpected key '%.40s'%s",
                             k->u.str.s,
                             schema ? " (a schema has descr, shape and fortran_order)" : "");
        if (vals[which])
            return set_error(c->err, NPYDT_E_KEY, k->start, NULL, "duplicate key '%s'",
                             dict_keys[which]);
        vals[which] = k->next;
        if (schema && (st = read_value(c, which, k->next, true, out)) != NPYDT_OK)
            return st;
    }
    if (schema)
        return NPYDT_OK;
    for (int i = 0; i < NKEYS; i++)
        if (!vals[i])
            return set_error(c->err, NPYDT_E_KEY, d->start, NULL, "missing key '%s'",
                             dict_keys[i]);
    if ((st = read_value(c, KEY_FORTRAN_ORDER, vals[KEY_FORTRAN_ORDER], false, out)) != NPYDT_OK ||
        (st = read_value(c, KEY_SHAPE, vals[KEY_SHAPE], false, out)) != NPYDT_OK)
        return st;
    return read_value(c, KEY_DESCR, vals[KEY_DESCR], false, out);
}

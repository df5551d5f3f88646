/* Root dtypes a caller owns: one read from text (a type string here, a
 * descriptor literal by the header stage through dtype_parse_root), a copy
 * in another byte order, and their release. */
#include "dtype/dtype.h"

#include <string.h>

void npydt_dtype_free(npydt_dtype *root)
{
    if (!root || !root->root || !root->root->owns_arena)
        return;
    struct arena ar = root->root->arena;
    arena_release(&ar);
}

npydt_status dtype_parse_root(const char *text, size_t len, const npydt_options *opts,
                              dtype_text_reader read, npydt_dtype **out, npydt_error *err)
{
    npydt_options defaults;
    opts = options_or_default(opts, &defaults);
    *out = NULL;
    if (!text && len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "text is NULL");
    npydt_status st = options_check(opts, err);
    if (st != NPYDT_OK)
        return st;
    _Alignas(16) unsigned char room[SCRATCH_ROOM];
    struct arena_budget budget;
    arena_budget_init(&budget, opts->limits.max_alloc_bytes);
    struct arena ar, scratch;
    arena_init(&ar, opts->allocator);
    arena_init_buffer(&scratch, opts->allocator, room, sizeof room);
    arena_budget_attach(&ar, &budget);
    arena_budget_attach(&scratch, &budget);
    arena_expect(&ar, len);
    arena_expect_nodes(&scratch, len);
    struct dtype_ctx c;
    dtype_ctx_init(&c, &ar, &scratch, &opts->limits, err);
    const npydt_dtype *dt = NULL;
    st = read(&c, text, len, &dt);
    if (st != NPYDT_OK || (st = dtype_make_root(&c, dt, &ar, out)) != NPYDT_OK) {
        arena_release(&scratch);
        arena_release(&ar);
        pool_explain_nomem(opts->allocator, err);
        return arena_budget_explain(&budget, st, err);
    }
    arena_release(&scratch);
    arena_budget_detach(&(*out)->root->arena);   /* budget ends with this call */
    return NPYDT_OK;
}

static npydt_status read_typestr(struct dtype_ctx *c, const char *text, size_t len,
                                 const npydt_dtype **out)
{
    return typestr_parse_text(c, text, len, 0, out);
}

npydt_status npydt_dtype_parse_typestr(const char *text, size_t len, const npydt_options *opts,
                                       npydt_dtype **out, npydt_error *err)
{
    error_clear(err);
    return dtype_parse_root(text, len, opts, read_typestr, out, err);
}

/* ---- dtype.newbyteorder ---------------------------------------------------- */

static npydt_status copy_node(struct arena *ar, const npydt_dtype *src, npydt_order to,
                              uint32_t depth, const npydt_dtype **out, npydt_error *err)
{
    if (depth > NPYDT_DEPTH_CEILING)
        return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL, "dtype nested too deeply");
    npydt_dtype *dt = arena_alloc(ar, sizeof *dt);
    if (!dt)
        return set_nomem(err);
    *dt = *src;
    dt->root = NULL;
    npydt_status st;
    switch (src->cls) {
    case NPYDT_SCALAR:
        if (dt->byteorder == '<' || dt->byteorder == '>') {
            if (to == NPYDT_ORDER_SWAP)
                dt->byteorder = dt->byteorder == '<' ? '>' : '<';
            else
                dt->byteorder = to == NPYDT_ORDER_NATIVE ? TEXT_HOST_ORDER : (char)to;
        }
        break;
    case NPYDT_SUBARRAY:
        dt->shape = arena_alloc_array(ar, src->ndim ? src->ndim : 1, sizeof *dt->shape);
        if (!dt->shape)
            return set_nomem(err);
        memcpy(dt->shape, src->shape, src->ndim * sizeof *dt->shape);
        if ((st = copy_node(ar, src->base, to, depth + 1, &dt->base, err)) != NPYDT_OK)
            return st;
        break;
    case NPYDT_STRUCT:
        dt->fields = arena_alloc_array(ar, src->nfields ? src->nfields : 1, sizeof *dt->fields);
        if (!dt->fields)
            return set_nomem(err);
        for (size_t i = 0; i < src->nfields; i++) {
            const struct npydt_field *sf = &src->fields[i];
            struct npydt_field *f = &dt->fields[i];
            f->offset = sf->offset;
            f->name = arena_strndup(ar, sf->name, sf->name_len);
            f->name_len = sf->name_len;
            f->title = sf->title ? arena_strndup(ar, sf->title, sf->title_len) : NULL;
            f->title_len = sf->title_len;
            if (!f->name || (sf->title && !f->title))
                return set_nomem(err);
            if ((st = copy_node(ar, sf->dtype, to, depth + 1, &f->dtype, err)) != NPYDT_OK)
                return st;
        }
        break;
    }
    *out = dt;
    return NPYDT_OK;
}

npydt_status npydt_dtype_newbyteorder(const npydt_dtype *dt, npydt_order to,
                                      const npydt_options *opts, npydt_dtype **out,
                                      npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!dt)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "dtype is NULL");
    if (to != NPYDT_ORDER_NATIVE && to != NPYDT_ORDER_LITTLE && to != NPYDT_ORDER_BIG &&
        to != NPYDT_ORDER_SWAP)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "unknown byte order %d",
                         (int)to);
    npydt_options defaults;
    opts = options_or_default(opts, &defaults);
    npydt_status st = options_check(opts, err);
    if (st != NPYDT_OK)
        return st;
    struct arena_budget budget;
    arena_budget_init(&budget, opts->limits.max_alloc_bytes);
    struct arena ar;
    arena_init(&ar, opts->allocator);
    arena_budget_attach(&ar, &budget);
    struct dtype_ctx c;
    dtype_ctx_init(&c, &ar, NULL, &opts->limits, err);
    const npydt_dtype *copy;
    st = copy_node(&ar, dt, to, 0, &copy, err);
    if (st == NPYDT_OK && (st = dtype_make_root(&c, copy, &ar, out)) == NPYDT_OK) {
        arena_budget_detach(&(*out)->root->arena);   /* budget ends with this call */
        return NPYDT_OK;
    }
    arena_release(&ar);
    return arena_budget_explain(&budget, st, err);
}

/* The flat table of leaves: one entry per scalar position of the record,
 * with the subarrays around it as (count, stride) repeats, so that record
 * code walks a table instead of the tree. */
#include "internal.h"

#include <string.h>

struct walk {
    struct dtype_ctx *c;
    npydt_leaf *leaves;      /* NULL on the counting pass */
    size_t n;
    npydt_repeat reps[64];
    uint32_t nreps;
    const char *path;        /* of the node being walked; "" at the root */
};

static npydt_status add_leaf(struct walk *w, const npydt_dtype *dt, uint64_t offset)
{
    if (w->leaves) {
        npydt_leaf *l = &w->leaves[w->n];
        l->path = w->path;
        l->dtype = dt;
        l->offset = offset;
        l->itemsize = (uint32_t)dt->itemsize;
        l->kind = dt->kind;
        l->byteorder = dt->byteorder;
        l->count = 1;
        l->nrepeats = w->nreps;
        if (w->nreps) {
            npydt_repeat *r = arena_alloc_array(w->c->arena, w->nreps, sizeof *r);
            if (!r)
                return set_nomem(w->c->err);
            memcpy(r, w->reps, w->nreps * sizeof *r);
            for (uint32_t i = 0; i < w->nreps; i++)
                l->count *= r[i].count;   /* bounded: the bytes fit a C int */
            l->repeats = r;
        }
    }
    w->n++;
    return NPYDT_OK;
}

static npydt_status walk(struct walk *w, const npydt_dtype *dt, uint64_t offset, uint32_t depth)
{
    if (depth > w->c->limits->max_depth || w->nreps >= sizeof w->reps / sizeof w->reps[0])
        return set_error(w->c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, w->path,
                         "dtype nested too deeply");
    switch (dt->cls) {
    case NPYDT_SCALAR:
        return add_leaf(w, dt, offset);
    case NPYDT_SUBARRAY: {
        uint64_t items = 1;
        for (size_t i = 0; i < dt->ndim; i++)
            items *= dt->shape[i];   /* bounded: the bytes fit a C int */
        const npydt_dtype *base = dt->base;
        npydt_status st;
        npydt_repeat *prev = w->nreps ? &w->reps[w->nreps - 1] : NULL;
        if (prev && base->cls == NPYDT_SCALAR && prev->stride == dt->itemsize) {
            /* the enclosing run steps over exactly this subarray: one
             * contiguous run of scalars */
            npydt_repeat saved = *prev;
            prev->count = saved.count * items;
            prev->stride = base->itemsize;
            st = walk(w, base, offset, depth + 1);
            w->reps[w->nreps - 1] = saved;
        } else {
            w->reps[w->nreps++] = (npydt_repeat){items, base->itemsize};
            st = walk(w, base, offset, depth + 1);
            w->nreps--;
        }
        return st;
    }
    case NPYDT_STRUCT:
        for (size_t i = 0; i < dt->nfields; i++) {
            const struct npydt_field *f = &dt->fields[i];
            const char *parent = w->path;
            if (w->leaves) {
                size_t plen = strlen(parent), nlen = strlen(f->name);
                char *p = arena_alloc(w->c->arena, plen + nlen + 2);
                if (!p)
                    return set_nomem(w->c->err);
                memcpy(p, parent, plen);
                if (plen)
                    p[plen++] = '.';
                memcpy(p + plen, f->name, nlen + 1);
                w->path = p;
            }
            npydt_status st = walk(w, f->dtype, offset + f->offset, depth + 1);
            w->path = parent;
            if (st != NPYDT_OK)
                return st;
        }
        return NPYDT_OK;
    }
    return NPYDT_OK;
}

npydt_status layout_build_root(struct dtype_ctx *c, npydt_dtype *dt, bool owns_arena)
{
    struct dtype_root *root = arena_alloc(c->arena, sizeof *root);
    if (!root)
        return set_nomem(c->err);
    struct walk *w = arena_alloc(c->arena, sizeof *w);
    if (!w)
        return set_nomem(c->err);
    w->c = c;
    w->path = "";
    npydt_status st = walk(w, dt, 0, 0);
    if (st != NPYDT_OK)
        return st;
    size_t n = w->n;
    if (n) {
        w->leaves = arena_alloc_array(c->arena, n, sizeof *w->leaves);
        if (!w->leaves)
            return set_nomem(c->err);
        w->n = 0;
        st = walk(w, dt, 0, 0);
        if (st != NPYDT_OK)
            return st;
    }
    root->leaves = w->leaves;
    root->nleaves = n;
    root->owns_arena = owns_arena;
    dt->root = root;
    return NPYDT_OK;
}

const npydt_leaf *npydt_dtype_leaves(const npydt_dtype *root, size_t *count)
{
    if (!root->root) {
        *count = 0;
        return NULL;
    }
    *count = root->root->nleaves;
    return root->root->leaves;
}

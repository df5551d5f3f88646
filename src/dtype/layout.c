/* The flat table of leaves: one entry per scalar position of the record,
 * with the subarrays around it as (count, stride) repeats, so that record
 * code walks a table instead of the tree. */
#include "dtype/dtype.h"

#include <string.h>

/* Every field carries its own copy of its path, so a long path over many
 * fields ("aaaa...a.f0", "aaaa...a.f1", ...) would cost memory quadratic
 * in the descriptor. The paths may total at most max(64, D) times the
 * bytes of all names and nodes of the dtype (each of which came from the
 * text), plus 1 MiB, where D is the deepest nesting of structs. Real
 * dtypes stay far below: a chain of D structs costs D / 2 times its names,
 * and D is at most 65 under the default max_depth. */
#define PATH_BYTES_PER_NAME_BYTE 64u
#define PATH_BYTES_FLOOR ((uint64_t)1 << 20)

struct walk {
    struct dtype_ctx *c;
    npydt_leaf *leaves;      /* sized by the root's totals */
    size_t n;
    uint32_t nreps;
    const npydt_repeat *shared; /* copy of reps[0..nreps) for the next leaves, or NULL */
    const char *path;        /* of the node being walked; "" at the root */
    size_t path_len;
    npydt_repeat reps[64];
};

static inline npydt_status add_leaf(struct walk *w, const npydt_dtype *dt, uint64_t offset)
{
    npydt_leaf *l = &w->leaves[w->n++];
    l->path = w->path;
    l->path_len = w->path_len;
    l->dtype = dt;
    l->offset = offset;
    l->itemsize = (uint32_t)dt->itemsize;
    l->kind = dt->kind;
    l->byteorder = dt->byteorder;
    l->count = 1;
    l->nrepeats = w->nreps;
    l->repeats = NULL;
    if (w->nreps) {
        /* leaves under the same subarrays share one copy */
        if (!w->shared) {
            npydt_repeat *r = arena_alloc_array_raw(w->c->arena, w->nreps, sizeof *r);
            if (!r)
                return set_nomem(w->c->err);
            memcpy(r, w->reps, w->nreps * sizeof *r);
            w->shared = r;
        }
        for (uint32_t i = 0; i < w->nreps; i++)
            l->count *= w->reps[i].count;   /* bounded: the bytes fit a C int */
        l->repeats = w->shared;
    }
    return NPYDT_OK;
}

static npydt_status walk(struct walk *w, const npydt_dtype *dt, uint64_t offset, uint32_t depth)
{
    if (depth > w->c->limits->max_depth || w->nreps >= sizeof w->reps / sizeof w->reps[0]) {
        char path[256];
        name_for_message(path, sizeof path, w->path, w->path_len);
        return set_error(w->c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, path,
                         "dtype nested too deeply");
    }
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
            w->shared = NULL;
            st = walk(w, base, offset, depth + 1);
            w->reps[w->nreps - 1] = saved;
        } else {
            w->reps[w->nreps++] = (npydt_repeat){items, base->itemsize};
            w->shared = NULL;
            st = walk(w, base, offset, depth + 1);
            w->nreps--;
        }
        w->shared = NULL;
        return st;
    }
    case NPYDT_STRUCT:
        for (size_t i = 0; i < dt->nfields; i++) {
            const struct npydt_field *f = &dt->fields[i];
            const char *parent = w->path;
            size_t plen = w->path_len, nlen = f->name_len;
            /* "parent.name": plen + 1 + nlen, which fits (both are in memory) */
            w->path_len = plen + (plen ? 1 : 0) + nlen;
            if (!plen) {
                w->path = f->name;   /* a top-level field's path is its name */
            } else {
                char *p = arena_alloc_str(w->c->arena, w->path_len);
                if (!p)
                    return set_nomem(w->c->err);
                copy_small(p, parent, plen);
                p[plen] = '.';
                copy_small(p + plen + 1, f->name, nlen);
                p[w->path_len] = '\0';
                w->path = p;
            }
            /* a scalar field is a leaf straight away: walk's checks on it
             * would pass (nreps is unchanged since ours) */
            npydt_status st = f->dtype->cls == NPYDT_SCALAR && depth < w->c->limits->max_depth
                                  ? add_leaf(w, f->dtype, offset + f->offset)
                                  : walk(w, f->dtype, offset + f->offset, depth + 1);
            w->path = parent;
            w->path_len = plen;
            if (st != NPYDT_OK)
                return st;
        }
        return NPYDT_OK;
    }
    return NPYDT_OK;
}

npydt_status dtype_leaf_table(struct dtype_ctx *c, const npydt_dtype *dt, npydt_leaf **out,
                              size_t *count)
{
    const struct dtype_totals *t = &dt->totals;
    uint32_t per = t->struct_depth > PATH_BYTES_PER_NAME_BYTE ? t->struct_depth
                                                               : PATH_BYTES_PER_NAME_BYTE;
    if (t->path_bytes > sat_add(sat_mul(t->name_bytes, per), PATH_BYTES_FLOOR))
        return set_error(c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "the field paths would take %llu bytes, more than %u times "
                         "the names of the dtype",
                         (unsigned long long)t->path_bytes, per);
    /* every entry is set by the walk; the leaves are in memory, so they fit */
    size_t n = (size_t)t->leaves;
    npydt_leaf *leaves = NULL;
    if (n && !(leaves = arena_alloc_array_raw(c->arena, n, sizeof *leaves)))
        return set_nomem(c->err);
    struct walk w;   /* not zeroed: reps[] is large and only read below nreps */
    w.c = c;
    w.leaves = leaves;
    w.n = 0;
    w.nreps = 0;
    w.shared = NULL;
    w.path = "";
    w.path_len = 0;
    /* most headers: a struct of scalars, whose leaves are its fields, as
     * the walk below would make them */
    if (dt->cls == NPYDT_STRUCT && t->leaves == dt->nfields && t->fields == dt->nfields &&
        c->limits->max_depth >= 1) {
        for (size_t i = 0; i < dt->nfields && dt->fields[i].dtype->cls == NPYDT_SCALAR; i++) {
            w.path = dt->fields[i].name;
            w.path_len = dt->fields[i].name_len;
            (void)add_leaf(&w, dt->fields[i].dtype, dt->fields[i].offset);   /* no repeats: cannot fail */
        }
        w.path = "";
        w.path_len = 0;
    }
    if (w.n != n) {   /* anything else, or a subarray among the fields */
        w.n = 0;
        npydt_status st = walk(&w, dt, 0, 0);
        if (st != NPYDT_OK)
            return st;
    }
    *out = leaves;
    *count = n;
    return NPYDT_OK;
}

/* Compute the leaf table and attach the root record to dt. */
static npydt_status layout_build_root(struct dtype_ctx *c, npydt_dtype *dt, bool owns_arena)
{
    npydt_leaf *leaves;
    size_t n;
    npydt_status st = dtype_leaf_table(c, dt, &leaves, &n);
    if (st != NPYDT_OK)
        return st;
    struct dtype_root *root = arena_alloc(c->arena, sizeof *root);
    if (!root)
        return set_nomem(c->err);
    root->leaves = leaves;
    root->nleaves = n;
    root->owns_arena = owns_arena;
    dt->root = root;
    return NPYDT_OK;
}

npydt_status dtype_make_root(struct dtype_ctx *c, const npydt_dtype *dt, struct arena *owned,
                             npydt_dtype **out)
{
    /* a node of its own, since it carries the root record */
    npydt_dtype *root = arena_alloc_raw(c->arena, sizeof *root);
    if (!root)
        return set_nomem(c->err);
    *root = *dt;
    root->root = NULL;
    npydt_status st = layout_build_root(c, root, owned != NULL);
    if (st != NPYDT_OK)
        return st;
    if (owned)
        root->root->arena = *owned;   /* as it stands after the last allocation */
    *out = root;
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

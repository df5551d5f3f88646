/* The flat table of leaves: one entry per scalar position of the record,
 * with the subarrays around it as (count, stride) repeats, so that record
 * code walks a table instead of the tree. */
#include "dtype/dtype.h"

#include <string.h>

/* Paths are not spelled here: a leaf names the last step of its path, and
 * the steps (one per struct field, each naming the one above it) share
 * every prefix, so the table takes a fixed size per field and per leaf
 * however long and deep the names are. */
struct walk {
    struct dtype_ctx *c;
    npydt_leaf *leaves;      /* sized by the root's totals */
    size_t n;
    struct path_step *steps; /* the same */
    size_t nsteps;
    size_t step;             /* of the node being walked; PATH_STEP_NONE at the root */
    size_t path_len;         /* its path's length */
    uint32_t nreps;
    const npydt_repeat *shared; /* copy of reps[0..nreps) for the next leaves, or NULL */
    npydt_repeat reps[DTYPE_MAX_REPEATS + 1];
};

static inline npydt_status add_leaf(struct walk *w, const npydt_dtype *dt, uint64_t offset)
{
    npydt_leaf *l = &w->leaves[w->n++];
    l->path_step = w->step;
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

/* The path of the node being walked, for a message (a NUL in a name
 * written \x00, cut to the buffer). */
static const char *walk_path(struct walk *w, char *buf, size_t size)
{
    char raw[256];
    size_t len = path_steps_spell(w->steps, NULL, w->step, raw, sizeof raw);
    name_for_message(buf, size, raw, len < sizeof raw ? len : sizeof raw - 1);
    return buf;
}

static npydt_status walk(struct walk *w, const npydt_dtype *dt, uint64_t offset, uint32_t depth)
{
    /* the builders refuse such nodes where the text has them (levels,
     * repeats): this holds for nodes built under other limits */
    if (depth > w->c->limits->max_depth || w->nreps >= sizeof w->reps / sizeof w->reps[0]) {
        char path[256];
        return set_error(w->c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET,
                         walk_path(w, path, sizeof path),
                         "dtype nested deeper than %u levels (max_depth) or %u subarrays",
                         w->c->limits->max_depth, DTYPE_MAX_REPEATS);
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
            size_t up = w->step, plen = w->path_len;
            /* "parent.name", or "name" below an empty path: both are in
             * memory, so the sum fits */
            struct path_step *s = &w->steps[w->nsteps];
            s->field = f;
            s->up = up;
            s->path_len = plen + (plen ? 1 : 0) + f->name_len;
            w->step = w->nsteps++;
            w->path_len = s->path_len;
            /* a scalar field is a leaf straight away: walk's checks on it
             * would pass (nreps is unchanged since ours) */
            npydt_status st = f->dtype->cls == NPYDT_SCALAR && depth < w->c->limits->max_depth
                                  ? add_leaf(w, f->dtype, offset + f->offset)
                                  : walk(w, f->dtype, offset + f->offset, depth + 1);
            w->step = up;
            w->path_len = plen;
            if (st != NPYDT_OK)
                return st;
        }
        return NPYDT_OK;
    }
    return NPYDT_OK;
}

npydt_status dtype_leaf_table(struct dtype_ctx *c, const npydt_dtype *dt,
                              struct leaf_table *out)
{
    const struct dtype_totals *t = &dt->totals;
    /* every entry is set by the walk; the leaves and fields are in memory,
     * so they fit */
    size_t n = (size_t)t->leaves, nfields = (size_t)t->fields;
    npydt_leaf *leaves = NULL;
    if (n && !(leaves = arena_alloc_array_raw(c->arena, n, sizeof *leaves)))
        return set_nomem(c->err);
    struct walk w;   /* not zeroed: reps[] is large and only read below nreps */
    w.c = c;
    w.leaves = leaves;
    w.n = 0;
    w.steps = NULL;
    w.nsteps = 0;
    w.step = PATH_STEP_NONE;
    w.path_len = 0;
    w.nreps = 0;
    w.shared = NULL;
    /* most headers: a struct of scalars, whose leaves are its fields, as
     * the walk below would make them; their steps are the fields
     * themselves, so no table of steps is made */
    if (dt->cls == NPYDT_STRUCT && t->leaves == dt->nfields && t->fields == dt->nfields &&
        c->limits->max_depth >= 1) {
        for (size_t i = 0; i < dt->nfields && dt->fields[i].dtype->cls == NPYDT_SCALAR; i++) {
            w.step = i;
            (void)add_leaf(&w, dt->fields[i].dtype, dt->fields[i].offset);   /* no repeats: cannot fail */
        }
        w.step = PATH_STEP_NONE;
    }
    if (w.n != n) {   /* anything else, or a subarray among the fields */
        if (nfields && !(w.steps = arena_alloc_array_raw(c->arena, nfields, sizeof *w.steps)))
            return set_nomem(c->err);
        w.n = 0;
        npydt_status st = walk(&w, dt, 0, 0);
        if (st != NPYDT_OK)
            return st;
    }
    out->leaves = leaves;
    out->nleaves = n;
    out->steps = w.steps;
    return NPYDT_OK;
}

/* Compute the leaf table and attach the root record to dt. */
static npydt_status layout_build_root(struct dtype_ctx *c, npydt_dtype *dt, bool owns_arena)
{
    struct leaf_table table;
    npydt_status st = dtype_leaf_table(c, dt, &table);
    if (st != NPYDT_OK)
        return st;
    struct dtype_root *root = arena_alloc(c->arena, sizeof *root);
    if (!root)
        return set_nomem(c->err);
    root->table = table;
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
    *count = root->root->table.nleaves;
    return root->root->table.leaves;
}

size_t npydt_dtype_leaf_path(const npydt_dtype *root, size_t i, char *buf, size_t size)
{
    if (!root->root || i >= root->root->table.nleaves) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    const struct leaf_table *t = &root->root->table;
    return path_steps_spell(t->steps, root, t->leaves[i].path_step, buf, size);
}

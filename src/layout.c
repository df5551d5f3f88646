/* The flat table of leaves: one entry per scalar position of the record,
 * with the subarrays around it as (count, stride) repeats, so that record
 * code walks a table instead of the tree. */
#include "internal.h"

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
    npydt_leaf *leaves;      /* NULL on the counting pass */
    size_t n;
    npydt_repeat reps[64];
    uint32_t nreps;
    const npydt_repeat *shared; /* copy of reps[0..nreps) for the next leaves, or NULL */
    const char *path;        /* of the node being walked; "" at the root */
    size_t path_len;
    uint64_t path_bytes;     /* counting pass: all field paths, NULs included */
    uint64_t name_bytes;     /* counting pass: names, titles and nodes */
    uint32_t struct_depth, max_struct_depth;
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
        l->repeats = NULL;
        if (w->nreps) {
            /* leaves under the same subarrays share one copy */
            if (!w->shared) {
                npydt_repeat *r = arena_alloc_array(w->c->arena, w->nreps, sizeof *r);
                if (!r)
                    return set_nomem(w->c->err);
                memcpy(r, w->reps, w->nreps * sizeof *r);
                w->shared = r;
            }
            for (uint32_t i = 0; i < w->nreps; i++)
                l->count *= w->reps[i].count;   /* bounded: the bytes fit a C int */
            l->repeats = w->shared;
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
        w->name_bytes += 1;
        return st;
    }
    case NPYDT_STRUCT:
        w->name_bytes += 1;
        if (++w->struct_depth > w->max_struct_depth)
            w->max_struct_depth = w->struct_depth;
        for (size_t i = 0; i < dt->nfields; i++) {
            const struct npydt_field *f = &dt->fields[i];
            const char *parent = w->path;
            size_t plen = w->path_len, nlen = strlen(f->name);
            /* "parent.name": plen + 1 + nlen, which fits (both are in memory) */
            w->path_len = plen + (plen ? 1 : 0) + nlen;
            if (w->leaves && !plen) {
                w->path = f->name;   /* a top-level field's path is its name */
            } else if (w->leaves) {
                char *p = arena_alloc_raw(w->c->arena, w->path_len + 1);
                if (!p)
                    return set_nomem(w->c->err);
                memcpy(p, parent, plen);
                if (plen)
                    p[plen] = '.';
                memcpy(p + w->path_len - nlen, f->name, nlen + 1);
                w->path = p;
            } else {
                w->path_bytes += w->path_len + 1;
                w->name_bytes += nlen + 1 + (f->title ? strlen(f->title) : 0);
            }
            npydt_status st = walk(w, f->dtype, offset + f->offset, depth + 1);
            w->path = parent;
            w->path_len = plen;
            if (st != NPYDT_OK)
                return st;
        }
        w->struct_depth--;
        return NPYDT_OK;
    }
    return NPYDT_OK;
}

npydt_status layout_build_root(struct dtype_ctx *c, npydt_dtype *dt, bool owns_arena)
{
    struct dtype_root *root = arena_alloc(c->arena, sizeof *root);
    if (!root)
        return set_nomem(c->err);
    /* not zeroed: reps[] is large and only read below nreps */
    struct walk *w = arena_alloc_raw(c->arena, sizeof *w);
    if (!w)
        return set_nomem(c->err);
    w->c = c;
    w->leaves = NULL;
    w->n = 0;
    w->nreps = 0;
    w->shared = NULL;
    w->path = "";
    w->path_len = 0;
    w->path_bytes = w->name_bytes = 0;
    w->struct_depth = w->max_struct_depth = 0;
    npydt_status st = walk(w, dt, 0, 0);
    if (st != NPYDT_OK)
        return st;
    uint32_t per = w->max_struct_depth > PATH_BYTES_PER_NAME_BYTE ? w->max_struct_depth
                                                                 : PATH_BYTES_PER_NAME_BYTE;
    /* no overflow: name_bytes counts bytes in memory, per <= 4096 */
    if (w->path_bytes > w->name_bytes * per + PATH_BYTES_FLOOR)
        return set_error(c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "the field paths would take %llu bytes, more than %u times "
                         "the names of the dtype",
                         (unsigned long long)w->path_bytes, per);
    size_t n = w->n;
    if (n) {
        w->leaves = arena_alloc_array_raw(c->arena, n, sizeof *w->leaves);   /* every field set */
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

/* Byteswap through a compiled plan.
 *
 * A plan is built once per dtype from its leaf table: every multi-byte
 * scalar becomes a run of swap units (the scalar's size; half of it for
 * complex; 4 bytes for U; all 16 bytes of a long double, as NumPy's
 * byteswap does). Subarrays are runs; small subarrays of structs are
 * unrolled; adjacent runs of one unit size merge. A plan holds three op
 * lists: the '>' scalars (to little endian), the '<' scalars (to big
 * endian) and both (a plain byteswap).
 *
 * Records are processed in blocks of about 16 KiB, op by op: each op is a
 * tight loop over the block's records with one unit size, so there is no
 * per-element branching on kinds, and the block stays in L1 while every op
 * passes over it. Where the CPU has SSSE3 the flat ops are compiled
 * further into 16-byte windows, each a single pshufb that swaps every unit
 * inside it: the 68-byte mixed record of the benchmark is 5 shuffles.
 * Up to 8 windows that each can read the record as it was make a record
 * program (swap_simd.c): one pass over the records, every window of a
 * record loaded, shuffled and stored before the next record, instead of
 * one pass per window over the block (which left the loads from memory
 * in the first pass alone, not overlapped by the shuffles of the others).
 * Between buffers, the block is copied first and then swapped where it
 * landed. S, V, b1, one-byte scalars and padding keep their values (a
 * window may load and store them back unchanged, within the record).
 *
 * A list whose one flat op swaps every byte of the record in units of
 * one size ('<f8', '<c16', a struct of '<i4' fields) is dense: records
 * are then one run of units, swapped in a single pass from the input to
 * the output, 16 bytes a pshufb where the CPU has it (no copy first). */
#include "records/records.h"

#include <stdlib.h>

#define BLOCK_BYTES 16384u
#define EXPAND_MAX 1024u      /* unroll a repeated leaf up to this many times */
#define FLAT_MAX 65536u       /* and up to this many flat ops in all */
#define MAX_REPS 64u

struct swap_op {
    uint64_t off;                 /* first unit, from the record start */
    uint64_t n;                   /* contiguous units */
    uint32_t unit;                /* bytes per unit */
    uint32_t nreps;               /* outer repeats (looped ops only) */
    const npydt_repeat *reps;     /* outermost first */
};

struct swap_list {
    const struct swap_op *ops;
    size_t nflat;                 /* ops[0..nflat): no repeats, sorted */
    size_t nops;                  /* looped ops follow the flat ones */
    uint64_t bytes;               /* bytes moved per record */
    const struct swap_window *windows;  /* the flat ops as windows, or NULL */
    size_t nwindows;
    uint32_t dense;               /* the unit of a dense list (2, 4, 8, 16), else 0 */
    struct swap_rec rec;          /* the windows as one pass, or rec.nw 0 */
};

enum { LIST_TO_LITTLE = 0, LIST_TO_BIG = 1, LIST_ALL = 2 };

struct npydt_swap_plan {
    const npydt_allocator *alloc;
    size_t size;                  /* of this allocation */
    uint64_t itemsize;
    struct swap_list list[3];
    struct swap_window *windows;  /* of all lists, one allocation */
    size_t windows_size;
    bool ssse3;                   /* dense lists use pshufb */
};

/* Windows need SSSE3's pshufb (swap_simd.c). */
#define MAX_WINDOWS 65536u

/* ---- the inner loops ---------------------------------------------------- */

/* Swap n contiguous units at each of nrec places stride bytes apart. */
#define DEFINE_RUN(NAME, W, T, BSWAP)                                               \
    static void NAME(unsigned char *p, uint64_t nrec, size_t stride, uint64_t n)    \
    {                                                                               \
        if (n == 1) {                                                               \
            for (uint64_t r = 0; r < nrec; r++, p += stride) {                      \
                T v;                                                                \
                memcpy(&v, p, W);                                                   \
                v = BSWAP(v);                                                       \
                memcpy(p, &v, W);                                                   \
            }                                                                       \
            return;                                                                 \
        }                                                                           \
        for (uint64_t r = 0; r < nrec; r++, p += stride) {                          \
            unsigned char *q = p;                                                   \
            for (uint64_t k = 0; k < n; k++, q += W) {                              \
                T v;                                                                \
                memcpy(&v, q, W);                                                   \
                v = BSWAP(v);                                                       \
                memcpy(q, &v, W);                                                   \
            }                                                                       \
        }                                                                           \
    }

DEFINE_RUN(run2, 2, uint16_t, __builtin_bswap16)
DEFINE_RUN(run4, 4, uint32_t, __builtin_bswap32)
DEFINE_RUN(run8, 8, uint64_t, __builtin_bswap64)

static void run16(unsigned char *p, uint64_t nrec, size_t stride, uint64_t n)
{
    for (uint64_t r = 0; r < nrec; r++, p += stride) {
        unsigned char *q = p;
        for (uint64_t k = 0; k < n; k++, q += 16) {
            uint64_t a = text_load64(q, false), b = text_load64(q + 8, false);
            text_store64(q, true, b);
            text_store64(q + 8, true, a);
        }
    }
}

static void run_any(unsigned char *p, uint64_t nrec, size_t stride, uint64_t n, uint32_t unit)
{
    for (uint64_t r = 0; r < nrec; r++, p += stride)
        for (uint64_t k = 0; k < n; k++)
            reverse_bytes(p + k * unit, p + k * unit, unit);
}

static void run_units(unsigned char *p, uint64_t nrec, size_t stride, uint64_t n, uint32_t unit)
{
    switch (unit) {
    case 2: run2(p, nrec, stride, n); break;
    case 4: run4(p, nrec, stride, n); break;
    case 8: run8(p, nrec, stride, n); break;
    case 16: run16(p, nrec, stride, n); break;
    default: run_any(p, nrec, stride, n, unit); break;
    }
}

/* n bytes of units of one size swapped from src into dst (the same
 * buffer, or apart) one unit at a time: loaded, swapped, stored. */
static void dense_units(unsigned char *dst, const unsigned char *src, size_t n, uint32_t unit)
{
    size_t i = 0;
    switch (unit) {
    case 2:
        for (; i + 2 <= n; i += 2) {
            uint16_t v;
            memcpy(&v, src + i, 2);
            v = __builtin_bswap16(v);
            memcpy(dst + i, &v, 2);
        }
        break;
    case 4:
        for (; i + 4 <= n; i += 4) {
            uint32_t v;
            memcpy(&v, src + i, 4);
            v = __builtin_bswap32(v);
            memcpy(dst + i, &v, 4);
        }
        break;
    case 8:
        for (; i + 8 <= n; i += 8) {
            uint64_t v;
            memcpy(&v, src + i, 8);
            v = __builtin_bswap64(v);
            memcpy(dst + i, &v, 8);
        }
        break;
    default:   /* 16: the whole unit reversed, as run16 */
        for (; i + 16 <= n; i += 16) {
            uint64_t a = text_load64(src + i, false), b = text_load64(src + i + 8, false);
            text_store64(dst + i, true, b);
            text_store64(dst + i + 8, true, a);
        }
        break;
    }
}

/* A looped op: the innermost repeat is the loop of run_units, the outer
 * ones an odometer. */
static void run_looped(const struct swap_op *op, unsigned char *base, uint64_t nrec,
                       size_t stride)
{
    uint32_t nr = op->nreps;
    const npydt_repeat *inner = &op->reps[nr - 1];
    uint64_t idx[MAX_REPS];
    for (uint64_t r = 0; r < nrec; r++) {
        unsigned char *rec = base + r * stride + op->off;
        memset(idx, 0, nr * sizeof idx[0]);
        for (;;) {
            uint64_t off = 0;
            for (uint32_t k = 0; k + 1 < nr; k++)
                off += idx[k] * op->reps[k].stride;
            run_units(rec + off, inner->count, (size_t)inner->stride, op->n, op->unit);
            /* advance the outer levels; done when they all wrap */
            uint32_t k = nr - 1;
            for (;;) {
                if (k == 0)
                    goto next;
                k--;
                if (++idx[k] < op->reps[k].count)
                    break;
                idx[k] = 0;
            }
        }
next:;
    }
}

static void run_list(const struct swap_list *l, unsigned char *base, uint64_t nrec,
                     size_t stride)
{
    if (l->rec.nw)
        swap_rec_run(&l->rec, base, nrec, stride);
    else if (l->windows)
        swap_run_windows(l->windows, l->nwindows, base, nrec, stride);
    else
        for (size_t i = 0; i < l->nflat; i++)
            run_units(base + l->ops[i].off, nrec, stride, l->ops[i].n, l->ops[i].unit);
    for (size_t i = l->nflat; i < l->nops; i++)
        run_looped(&l->ops[i], base, nrec, stride);
}

/* ---- building a plan ------------------------------------------------------ */

struct raw_op {
    uint64_t off, n;
    uint32_t unit, nreps;
    size_t rep_at;      /* into the builder's repeat pool */
    char order;         /* '<' or '>' */
};

struct builder {
    const npydt_allocator *alloc;
    npydt_error *err;
    struct raw_op *ops;
    size_t nops, cap;
    npydt_repeat *pool;
    size_t npool, pool_cap;
    size_t nflat;
};

static bool grow(const npydt_allocator *a, void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2 / elem)
            return false;
        ncap *= 2;
    }
    void *q = realloc_bytes(a, *p, *cap * elem, ncap * elem);
    if (!q)
        return false;
    *p = q;
    *cap = ncap;
    return true;
}

static npydt_status push_op(struct builder *b, struct raw_op op)
{
    if (!grow(b->alloc, (void **)&b->ops, &b->cap, b->nops + 1, sizeof *b->ops))
        return set_nomem(b->err);
    b->ops[b->nops++] = op;
    return NPYDT_OK;
}

/* One scalar position (with the repeats around it) becomes ops. */
static npydt_status add_scalar(struct builder *b, uint64_t off, char kind, char order,
                               uint64_t itemsize, const npydt_repeat *reps, uint32_t nreps)
{
    uint32_t unit = swap_unit(kind, itemsize);
    if (!unit || (order != '<' && order != '>'))
        return NPYDT_OK;
    uint64_t n = itemsize / unit;
    for (uint32_t k = 0; k < nreps; k++)
        if (reps[k].count == 0)
            return NPYDT_OK;
    if (nreps && reps[nreps - 1].stride == itemsize) {
        n *= reps[nreps - 1].count;   /* a contiguous run */
        nreps--;
    }
    uint64_t inst = 1;
    for (uint32_t k = 0; k < nreps; k++)
        inst *= reps[k].count;        /* bounded: the bytes fit a C int */
    if (nreps == 0 || (inst <= EXPAND_MAX && b->nflat + inst <= FLAT_MAX)) {
        uint64_t idx[MAX_REPS] = {0};
        for (uint64_t i = 0; i < inst; i++) {
            uint64_t o = off;
            for (uint32_t k = 0; k < nreps; k++)
                o += idx[k] * reps[k].stride;
            npydt_status st = push_op(b, (struct raw_op){o, n, unit, 0, 0, order});
            if (st != NPYDT_OK)
                return st;
            for (uint32_t k = nreps; k-- > 0;) {
                if (++idx[k] < reps[k].count)
                    break;
                idx[k] = 0;
            }
        }
        b->nflat += inst;
        return NPYDT_OK;
    }
    if (!grow(b->alloc, (void **)&b->pool, &b->pool_cap, b->npool + nreps, sizeof *b->pool))
        return set_nomem(b->err);
    memcpy(b->pool + b->npool, reps, nreps * sizeof *reps);
    npydt_status st = push_op(b, (struct raw_op){off, n, unit, nreps, b->npool, order});
    b->npool += nreps;
    return st;
}

static int cmp_off(const void *a, const void *b)
{
    const struct swap_op *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Select the ops of one list into out (room for b->nops), flat ones
 * sorted and merged. Returns the number of ops; *nflat the flat ones. */
static npydt_status make_list(const struct builder *b, const npydt_repeat *pool, int which,
                              struct swap_op *out, size_t *nops, size_t *nflat, uint64_t *bytes,
                              npydt_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < b->nops; i++) {
        const struct raw_op *r = &b->ops[i];
        bool take = which == LIST_ALL || (which == LIST_TO_LITTLE) == (r->order == '>');
        if (take && r->nreps == 0)
            out[n++] = (struct swap_op){r->off, r->n, r->unit, 0, NULL};
    }
    if (n > 1)
        qsort(out, n, sizeof *out, cmp_off);
    size_t m = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += out[i].n * out[i].unit;
        if (m > 0) {
            struct swap_op *prev = &out[m - 1];
            uint64_t end = prev->off + prev->n * prev->unit;
            if (out[i].off < end)
                return set_error(err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, NULL,
                                 "fields overlap at byte %llu: they cannot be byte-swapped",
                                 (unsigned long long)out[i].off);
            if (out[i].off == end && out[i].unit == prev->unit) {
                prev->n += out[i].n;
                continue;
            }
        }
        out[m++] = out[i];
    }
    *nflat = m;
    for (size_t i = 0; i < b->nops; i++) {
        const struct raw_op *r = &b->ops[i];
        bool take = which == LIST_ALL || (which == LIST_TO_LITTLE) == (r->order == '>');
        if (take && r->nreps > 0) {
            out[m++] = (struct swap_op){r->off, r->n, r->unit, r->nreps, pool + r->rep_at};
            uint64_t inst = 1;
            for (uint32_t k = 0; k < r->nreps; k++)
                inst *= pool[r->rep_at + k].count;
            total += inst * r->n * r->unit;
        }
    }
    *nops = m;
    *bytes = total;
    return NPYDT_OK;
}

/* Cover the units of the flat ops (sorted) with 16-byte windows inside
 * the record, each unit in exactly one window; windows are applied in
 * order, so one may overlap bytes an earlier one swapped (identity there).
 * With out NULL, only counts. */
/* Counting (out NULL) stops past `limit`: a huge subarray of tiny structs
 * must not cost time per element just to learn it needs too many windows. */
static size_t make_windows(const struct swap_list *l, uint64_t itemsize, struct swap_window *out,
                           size_t limit)
{
    size_t nw = 0;
    size_t i = 0;       /* op */
    uint64_t k = 0;     /* unit within the op */
    while (i < l->nflat) {
        const struct swap_op *op = &l->ops[i];
        uint64_t s = op->off + k * op->unit;
        if (s + 16 > itemsize)
            s = itemsize - 16;
        struct swap_window w;
        w.off = s;
        for (unsigned b = 0; b < 16; b++)
            w.mask[b] = (unsigned char)b;
        while (i < l->nflat) {
            op = &l->ops[i];
            uint64_t u = op->off + k * op->unit;
            if (u + op->unit > s + 16)
                break;
            for (uint32_t b = 0; b < op->unit; b++)
                w.mask[u - s + b] = (unsigned char)(u - s + op->unit - 1 - b);
            if (++k == op->n) {
                k = 0;
                i++;
            }
        }
        if (out)
            out[nw] = w;
        if (++nw > limit && !out)
            return nw;
    }
    return nw;
}

/* The byte of the record that byte x of the swapped record comes from:
 * its mirror within its unit, or itself outside the flat ops. */
static uint64_t list_source(const void *ctx, uint64_t x)
{
    const struct swap_list *l = ctx;
    size_t lo = 0, hi = l->nflat;   /* the first op starting after x */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->ops[mid].off <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return x;
    const struct swap_op *op = &l->ops[lo - 1];
    uint64_t rel = x - op->off;
    if (rel >= op->n * op->unit)
        return x;
    uint64_t u = rel - rel % op->unit;
    return op->off + u + (op->unit - 1 - (rel - u));
}

/* Windows for every list, when the CPU has pshufb and they stay few. */
static npydt_status add_windows(struct npydt_swap_plan *plan, npydt_error *err)
{
    if (plan->itemsize < 16 || !plan->ssse3)
        return NPYDT_OK;
    size_t count[3], total = 0;
    for (int k = 0; k < 3; k++) {
        const struct swap_list *l = &plan->list[k];
        for (size_t i = 0; i < l->nflat; i++)
            if (l->ops[i].unit > 16)
                return NPYDT_OK;
        if (l->nflat > MAX_WINDOWS)
            return NPYDT_OK;
        count[k] = make_windows(l, plan->itemsize, NULL, MAX_WINDOWS);
        if (count[k] > MAX_WINDOWS)
            return NPYDT_OK;
        total += count[k];
    }
    if (total == 0)
        return NPYDT_OK;
    plan->windows = alloc_bytes(plan->alloc, total * sizeof *plan->windows);
    if (!plan->windows)
        return set_nomem(err);
    plan->windows_size = total * sizeof *plan->windows;
    struct swap_window *w = plan->windows;
    for (int k = 0; k < 3; k++) {
        if (count[k] == 0)
            continue;
        make_windows(&plan->list[k], plan->itemsize, w, SIZE_MAX);
        plan->list[k].windows = w;
        plan->list[k].nwindows = count[k];
        swap_rec_make(&plan->list[k].rec, w, count[k], list_source, &plan->list[k]);
        w += count[k];
    }
    return NPYDT_OK;
}

npydt_status npydt_swap_plan_new(const npydt_dtype *dt, const npydt_options *opts,
                                 npydt_swap_plan **out, npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!dt)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "dtype is NULL");
    if (dt->has_object)
        return set_error(err, NPYDT_E_OBJECT, NPYDT_NO_OFFSET, NULL,
                         "object data is a pickle and cannot be byte-swapped");
    if (opts) {
        npydt_status checked = options_check(opts, err);
        if (checked != NPYDT_OK)
            return checked;
    }
    struct builder b;
    memset(&b, 0, sizeof b);
    b.alloc = opts ? opts->allocator : NULL;
    b.err = err;
    npydt_status st = NPYDT_OK;
    /* the leaf table: a root's own, or one made for this node */
    size_t nleaves;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &nleaves);
    struct arena scratch;
    arena_init(&scratch, b.alloc);
    if (!dt->root) {
        npydt_options defaults;
        npydt_limits limits = options_or_default(opts, &defaults)->limits;
        limits.max_depth = NPYDT_DEPTH_CEILING;   /* the node was built under its own limits */
        struct dtype_ctx c;
        dtype_ctx_init(&c, &scratch, NULL, &limits, err);
        struct leaf_table table;
        st = dtype_leaf_table(&c, dt, &table);
        if (st == NPYDT_OK) {
            leaves = table.leaves;
            nleaves = table.nleaves;
        }
    }
    for (size_t i = 0; i < nleaves && st == NPYDT_OK; i++) {
        const npydt_leaf *l = &leaves[i];
        st = add_scalar(&b, l->offset, l->kind, l->byteorder, l->itemsize, l->repeats,
                        l->nrepeats);
    }
    arena_release(&scratch);
    struct npydt_swap_plan *plan = NULL;
    size_t size = 0;
    if (st == NPYDT_OK) {
        /* one allocation: the plan, three op arrays of b.nops, the repeats */
        size_t ops_bytes = 3 * b.nops * sizeof(struct swap_op);
        size = sizeof *plan + ops_bytes + b.npool * sizeof(npydt_repeat);
        plan = alloc_bytes(b.alloc, size);
        if (!plan)
            st = set_nomem(err);
    }
    if (plan) {
        memset(plan, 0, sizeof *plan);
        plan->alloc = b.alloc;
        plan->size = size;
        plan->itemsize = dt->itemsize;
        struct swap_op *ops = (struct swap_op *)(plan + 1);
        npydt_repeat *pool = (npydt_repeat *)(ops + 3 * b.nops);
        if (b.npool)
            memcpy(pool, b.pool, b.npool * sizeof *pool);
        for (int k = 0; k < 3 && st == NPYDT_OK; k++) {
            struct swap_list *l = &plan->list[k];
            struct swap_op *lo = ops + (size_t)k * b.nops;
            st = make_list(&b, pool, k, lo, &l->nops, &l->nflat, &l->bytes, err);
            l->ops = lo;
        }
        for (int k = 0; k < 3 && st == NPYDT_OK; k++) {
            struct swap_list *l = &plan->list[k];
            uint32_t unit = l->nops == 1 && l->nflat == 1 ? l->ops[0].unit : 0;
            if ((unit == 2 || unit == 4 || unit == 8 || unit == 16) && l->ops[0].off == 0 &&
                l->ops[0].n * unit == plan->itemsize)
                l->dense = unit;
        }
        plan->ssse3 = swap_simd_available();
        if (st == NPYDT_OK)
            st = add_windows(plan, err);
        if (st != NPYDT_OK) {
            npydt_swap_plan_free(plan);
            plan = NULL;
        }
    }
    free_bytes(b.alloc, b.ops, b.cap * sizeof *b.ops);
    free_bytes(b.alloc, b.pool, b.pool_cap * sizeof *b.pool);
    *out = plan;
    return st;
}

void npydt_swap_plan_free(npydt_swap_plan *plan)
{
    if (!plan)
        return;
    free_bytes(plan->alloc, plan->windows, plan->windows_size);
    free_bytes(plan->alloc, plan, plan->size);
}

static const struct swap_list *list_for(const npydt_swap_plan *plan, npydt_order to)
{
    switch (to) {
    case NPYDT_ORDER_LITTLE: return &plan->list[LIST_TO_LITTLE];
    case NPYDT_ORDER_BIG: return &plan->list[LIST_TO_BIG];
    case NPYDT_ORDER_NATIVE:
        return &plan->list[TEXT_HOST_ORDER == '<' ? LIST_TO_LITTLE : LIST_TO_BIG];
    case NPYDT_ORDER_SWAP: return &plan->list[LIST_ALL];
    }
    return NULL;
}

uint64_t npydt_swap_plan_bytes(const npydt_swap_plan *plan, npydt_order to)
{
    const struct swap_list *l = plan ? list_for(plan, to) : NULL;
    return l ? l->bytes : 0;
}

size_t swap_plan_drop_windows(npydt_swap_plan *plan)
{
    size_t n = 0;
    for (int k = 0; k < 3; k++) {
        n += plan->list[k].nwindows;
        plan->list[k].windows = NULL;
        plan->list[k].nwindows = 0;
        plan->list[k].dense = 0;
        plan->list[k].rec.nw = 0;
    }
    return n;
}

size_t swap_plan_rec_windows(const npydt_swap_plan *plan, npydt_order to)
{
    const struct swap_list *l = list_for(plan, to);
    return l ? l->rec.nw : 0;
}

size_t swap_plan_nops(const npydt_swap_plan *plan, npydt_order to, size_t *nflat)
{
    const struct swap_list *l = list_for(plan, to);
    *nflat = l ? l->nflat : 0;
    return l ? l->nops : 0;
}

/* Blocks of whole records of about BLOCK_BYTES. */
static uint64_t block_records(size_t stride)
{
    return stride >= BLOCK_BYTES ? 1 : BLOCK_BYTES / stride;
}

void swap_plan_run_native(const npydt_swap_plan *plan, unsigned char *base, uint64_t n,
                          size_t stride)
{
    const struct swap_list *l = list_for(plan, NPYDT_ORDER_NATIVE);
    if (l->nops == 0 || stride == 0)
        return;
    uint64_t blk = block_records(stride);
    for (uint64_t i = 0; i < n; i += blk) {
        uint64_t k = n - i < blk ? n - i : blk;
        run_list(l, base + i * stride, k, stride);
    }
}

npydt_status npydt_swap(const npydt_swap_plan *plan, npydt_order to, const void *in, void *out,
                        uint64_t n, npydt_error *err)
{
    error_clear(err);
    if (!plan)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "plan is NULL");
    const struct swap_list *l = list_for(plan, to);
    if (!l)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "unknown byte order %d",
                         (int)to);
    uint64_t total;
    if (!ck_mul(n, plan->itemsize, &total) || total > SIZE_MAX)
        return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "%llu records do not fit the address space", (unsigned long long)n);
    if (total == 0)
        return NPYDT_OK;
    if (!in || !out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "in or out is NULL");
    const unsigned char *src = in;
    unsigned char *dst = out;
    uintptr_t a = (uintptr_t)src, b = (uintptr_t)dst;
    if (a != b && a < b + total && b < a + total)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "in and out overlap without being the same buffer");
    size_t stride = (size_t)plan->itemsize;
    if (l->nops == 0) {
        if (src != dst)
            memcpy(dst, src, (size_t)total);
        return NPYDT_OK;
    }
    if (l->dense) {
        size_t done = plan->ssse3 ? swap_dense_windows(dst, src, (size_t)total, l->dense) : 0;
        dense_units(dst + done, src + done, (size_t)total - done, l->dense);
        return NPYDT_OK;
    }
    uint64_t blk = block_records(stride);
    for (uint64_t i = 0; i < n; i += blk) {
        uint64_t k = n - i < blk ? n - i : blk;
        unsigned char *d = dst + i * stride;
        if (src != dst)
            memcpy(d, src + i * stride, (size_t)(k * stride));
        run_list(l, d, k, stride);
    }
    return NPYDT_OK;
}

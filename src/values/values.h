/* The values stage: what the values of records are, read in one pass
 * over them (statistics in stats*.c). Not installed. */
#ifndef NPYDT_VALUES_H
#define NPYDT_VALUES_H

#include "base/base.h"

/* ==== statistics ========================================================= */

/* How a column's values are gathered and summed up. */
enum stats_cat {
    STATS_FLOAT,   /* f, and each part of c: doubles */
    STATS_INT,     /* b, i, u below 8 bytes: int64 */
    STATS_UINT,    /* u8: uint64 */
    STATS_TIME,    /* M, m: int64 counts, NaT skipped */
    STATS_BYTES,   /* S, V: the stored bytes */
    STATS_TEXT     /* U: code units in the host's order */
};

/* The values a kernel takes at once: a tile of gathered values is at most
 * STATS_TILE_BYTES (one element more where an element is larger), and a
 * block of doubles summed pairwise at most STATS_BLOCK. */
#define STATS_TILE_BYTES ((size_t)32 << 10)
#define STATS_BLOCK (STATS_TILE_BYTES / 8)

/* HyperLogLog registers of a string column: 2^STATS_HLL_BITS bytes. */
#define STATS_HLL_BITS 12
#define STATS_HLL_SIZE ((size_t)1 << STATS_HLL_BITS)

/* One column's running statistics. */
struct stats_column {
    size_t leaf;
    uint64_t element;            /* or NPYDT_STATS_POOLED */
    int part;                    /* NPYDT_STATS_* */
    char kind;
    const npydt_dtype *dtype;    /* the leaf's scalar */
    enum stats_cat cat;
    uint64_t count, nan, posinf, neginf, nat, zeros;
    uint64_t valid;              /* values in min and max */
    int64_t min_i, max_i;        /* STATS_INT, STATS_TIME */
    uint64_t min_u, max_u;       /* STATS_UINT */
    double min_f, max_f;         /* STATS_FLOAT */
    /* moments of the finite values: their number, the compensated sum
     * (sum + comp) and Chan's running mean and sum of squared deviations */
    uint64_t nfin;
    double sum, comp, mean, m2;
    /* order: the last value that was not NaN or NaT */
    unsigned sorted;
    bool have_prev;
    double prev_f;
    int64_t prev_i;
    uint64_t prev_u;
    unsigned char *prev_s;       /* STATS_BYTES, STATS_TEXT: room for one value */
    size_t prev_len;             /* its bytes (without trailing NULs for S, U) */
    uint64_t min_len, max_len;
    unsigned char *hll;          /* STATS_HLL_SIZE registers, or NULL */
};

/* How the plan reads a leaf's values (stats_load.c): a tight loop per
 * kind and size, the bytes of S in place, or npydt_gather. */
enum stats_load {
    STATS_LOAD_GATHER,
    STATS_LOAD_F64, STATS_LOAD_F32,                        /* as doubles */
    STATS_LOAD_I64, STATS_LOAD_I32, STATS_LOAD_I16, STATS_LOAD_I8,   /* as int64 */
    STATS_LOAD_U32, STATS_LOAD_U16, STATS_LOAD_U8,         /* as int64 */
    STATS_LOAD_U64,                                        /* as uint64 */
    STATS_LOAD_BYTES                                       /* S: in place */
};

/* A selected leaf: how its values are gathered (as, gsize bytes per
 * element) and where its columns start (col: parts of them, per element
 * of its subarrays with per_element). */
struct stats_source {
    size_t leaf;
    const npydt_leaf *l;
    size_t col;
    enum stats_cat cat;
    npydt_convert as;
    size_t gsize;
    int parts;                   /* 2 for complex */
    bool per_element;
    enum stats_load load;        /* and whether its loads swap bytes */
    bool swap;
};

/* The accumulator: its columns, and the buffers values are gathered into
 * (tile and buf, tile_size bytes each: STATS_TILE_BYTES or one element). */
struct npydt_stats {
    const npydt_allocator *alloc;
    const npydt_dtype *dt;
    size_t itemsize;
    struct stats_source *src;
    size_t nsrc;
    struct stats_column *cols;
    size_t ncols;
    unsigned char *strmem;       /* the string columns' registers and last values */
    size_t strmem_size;
    unsigned char *tile, *buf;
    size_t tile_size;
    double *scratch;             /* STATS_BLOCK doubles */
};

/* The kernels (stats_kernel.c): fold k values, contiguous, into c. */
void stats_fold_double(struct stats_column *c, const double *x, size_t k, double *scratch);
void stats_fold_int(struct stats_column *c, const int64_t *x, size_t k, double *scratch);
void stats_fold_uint(struct stats_column *c, const uint64_t *x, size_t k, double *scratch);
void stats_fold_time(struct stats_column *c, const int64_t *x, size_t k);
/* k strings of size bytes each, stride bytes apart (U: code units in the
 * host's order). */
void stats_fold_strings(struct stats_column *c, const unsigned char *x, size_t stride, size_t size,
                        size_t k);

/* The plan's loads (stats_load.c): how a leaf's values converted as `as`
 * are read, and n of them, stride bytes apart from base, into out. */
enum stats_load stats_load_kind(const npydt_leaf *l, npydt_convert as);
void stats_load(enum stats_load kind, bool swap, const unsigned char *base, size_t stride,
                size_t n, unsigned char *out);

/* The sketch (stats_sketch.c): add a value's hash, and the estimate of
 * the number of distinct values added. */
static inline void stats_hll_add(unsigned char *regs, uint64_t hash)
{
    size_t j = (size_t)(hash >> (64 - STATS_HLL_BITS));
    /* the rank of the first 1 bit in the remaining 52 bits (53 when none) */
    uint64_t rest = hash << STATS_HLL_BITS | (UINT64_C(1) << (STATS_HLL_BITS - 1));
    unsigned char rank = (unsigned char)(__builtin_clzll(rest) + 1);
    if (rank > regs[j])
        regs[j] = rank;
}
double stats_hll_estimate(const unsigned char *regs);

#endif

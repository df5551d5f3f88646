/* The values stage: what is in an array's elements, read in one streaming
 * pass (after the access stage, which gives the elements in C order):
 * statistics (stats*.c) and value rules (rules*.c). Not installed. */
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
    double min_f, max_f;         /* STATS_FLOAT, and STATS_INT folded as doubles */
    bool doubles;                /* STATS_INT whose loads give doubles */
    /* moments of the finite values: their number, the compensated sum
     * (sum + comp) and Chan's running mean and sum of squared deviations */
    uint64_t nfin;
    double sum, comp, mean, m2;
    /* order: the last value that was not NaN or NaT, and the first (while
     * the column is in some order: npydt_stats_merge steps from one
     * accumulator's last to the other's first) */
    unsigned sorted;
    bool have_prev;
    double prev_f, first_f;
    int64_t prev_i, first_i;
    uint64_t prev_u, first_u;
    unsigned char *prev_s;       /* STATS_BYTES, STATS_TEXT: room for one value */
    size_t prev_len;             /* its bytes (without trailing NULs for S, U) */
    unsigned char *first_s;      /* and for the first */
    size_t first_len;
    uint64_t min_len, max_len;
    unsigned char *hll;          /* STATS_HLL_SIZE registers, or NULL */
};

/* How the plan reads a leaf's values (stats_load.c): a tight loop per
 * kind and size, the bytes of S in place, or npydt_gather. */
enum stats_load {
    STATS_LOAD_GATHER,
    STATS_LOAD_F64, STATS_LOAD_F32,                        /* as doubles */
    STATS_LOAD_I64,                                        /* as int64 */
    STATS_LOAD_I32, STATS_LOAD_I16, STATS_LOAD_I8,         /* as doubles (exact) */
    STATS_LOAD_U32, STATS_LOAD_U16, STATS_LOAD_U8,         /* as doubles (exact) */
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

/* Clear the order bits that the step from a to b breaks. */
#define STATS_ORDER_STEP(sorted, a, b)                                                   \
    do {                                                                           \
        if ((b) < (a))                                                             \
            (sorted) &= ~(unsigned)(NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING); \
        else if ((b) > (a))                                                        \
            (sorted) &= ~(unsigned)(NPYDT_SORTED_DESCENDING |                      \
                                    NPYDT_SORTED_STRICTLY_DESCENDING);             \
        else                                                                       \
            (sorted) &= ~(unsigned)(NPYDT_SORTED_STRICTLY_ASCENDING |              \
                                    NPYDT_SORTED_STRICTLY_DESCENDING);             \
    } while (0)

/* The kernels (stats_kernel.c): fold k values, contiguous, into c. */
void stats_fold_double(struct stats_column *c, const double *x, size_t k);
/* k <= STATS_BLOCK values of a kind whose loads give doubles, stride bytes
 * apart from base, read and folded in one pass (and left in x). */
void stats_fold_load(struct stats_column *c, enum stats_load kind, bool swap,
                     const unsigned char *base, size_t stride, size_t k, double *x);

/* Where the compiler can build a function for AVX2 and the program can ask
 * the processor whether it has it (GCC and Clang on x86-64), the two
 * kernels above run an AVX2 instance of the block kernel on a processor
 * that has AVX2 (stats_kernel_avx2.c) and the portable one elsewhere. The
 * instances keep the same four lanes, chunks and order of operations, so
 * that they give equal results, bit for bit. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define STATS_AVX2 1
bool stats_avx2(void);
/* stats_fold_load's AVX2 instance; kind gives doubles, or is
 * STATS_LOAD_GATHER: then base is x, the doubles themselves, stride 8. */
void stats_fold_load_avx2(struct stats_column *c, enum stats_load kind, bool swap,
                          const unsigned char *base, size_t stride, size_t k, double *x);
/* stats_fold_int_load's (its moments summed as fold_moments sums them) */
void stats_fold_int_load_avx2(struct stats_column *c, bool swap, const unsigned char *base,
                              size_t stride, size_t k);
/* The steps up in x[0..k): i in [1, k) with x[i] > x[i - 1]. */
size_t stats_count_up_avx2(const int64_t *x, size_t k);
#else
#define STATS_AVX2 0
#endif
/* The portable instances, whatever the processor. */
void stats_fold_double_portable(struct stats_column *c, const double *x, size_t k);
void stats_fold_load_portable(struct stats_column *c, enum stats_load kind, bool swap,
                              const unsigned char *base, size_t stride, size_t k, double *x);
void stats_fold_int_load_portable(struct stats_column *c, bool swap, const unsigned char *base,
                                  size_t stride, size_t k, double *scratch);
/* Join n values summed in nc chunks of four lanes (sums cr, deviations
 * from the shift k cs, their squares cq) to the moments of c. */
void stats_moments_end(struct stats_column *c, size_t n, double k, const double *cr,
                       const double *cs, const double *cq, size_t nc);
/* The end of a block of k values folded by a block kernel (x: the values
 * as doubles): the block's chunk sums cr, cs, cq (nc of them, shift kf),
 * its extremes blo, bhi (NaN skipped) and zeros joined to c, the values
 * that are not finite counted and the order followed. */
void stats_block_end(struct stats_column *c, const double *x, size_t k, double kf, double blo,
                     double bhi, uint64_t zeros, const double *cr, const double *cs,
                     const double *cq, size_t nc);
/* The extremes of a block of k doubles in the portable kernel's lanes,
 * for a block whose extreme is a zero (which of -0.0 and 0.0 is kept
 * depends on the order in which the values are met). */
void stats_block_extremes(const double *x, size_t k, double *blo, double *bhi);

/* The value at p as a double by the plan's load kind (stats_load.c; the
 * gathered doubles for any other), its byte swap decided by swap. */
static inline __attribute__((always_inline)) double stats_load_double(enum stats_load kind,
                                                                      bool swap,
                                                                      const unsigned char *p)
{
    switch (kind) {
    case STATS_LOAD_F64: return text_f64_of_bits(text_load64(p, swap));
    case STATS_LOAD_F32: return (double)text_f32_of_bits(text_load32(p, swap));
    case STATS_LOAD_I32: return (double)(int32_t)text_load32(p, swap);
    case STATS_LOAD_I16: return (double)(int16_t)text_load16(p, swap);
    case STATS_LOAD_I8: return (double)(int8_t)p[0];
    case STATS_LOAD_U32: return (double)text_load32(p, swap);
    case STATS_LOAD_U16: return (double)text_load16(p, swap);
    case STATS_LOAD_U8: return (double)p[0];
    default: {
        double d;
        memcpy(&d, p, sizeof d);
        return d;
    }
    }
}
void stats_fold_int(struct stats_column *c, const int64_t *x, size_t k, double *scratch);
/* k int64 values (STATS_LOAD_I64) stride bytes apart from base, read and
 * folded in one pass into a column out of order (whose order is settled). */
void stats_fold_int_load(struct stats_column *c, bool swap, const unsigned char *base,
                         size_t stride, size_t k, double *scratch);
void stats_fold_uint(struct stats_column *c, const uint64_t *x, size_t k, double *scratch);
void stats_fold_time(struct stats_column *c, const int64_t *x, size_t k);
/* k strings of size bytes each, stride bytes apart (U: code units in the
 * host's order): stats_strings.c. */
void stats_fold_strings(struct stats_column *c, const unsigned char *x, size_t stride, size_t size,
                        size_t k);
/* The order of dst's values followed by src's (strings: stats_strings.c;
 * the others: stats_merge.c), src's last value dst's. */
void stats_join_string_order(struct stats_column *dst, const struct stats_column *src);
/* The one order of strings, the statistics' and the value rules': -1, 0
 * or 1 as a (alen bytes) sorts before, with or after b (blen bytes), as
 * bytes (S) or as 4-byte code units in the host's order (U, units), a
 * prefix first. Values of one size padded with NULs compare so as NumPy
 * compares them: the NULs sort first. */
static inline int values_string_order(const unsigned char *a, size_t alen, const unsigned char *b,
                                      size_t blen, bool units)
{
    size_t n = alen < blen ? alen : blen;
    if (!units) {
        int r = n ? memcmp(a, b, n) : 0;
        if (r)
            return r < 0 ? -1 : 1;
    } else {
        for (size_t i = 0; i + 4 <= n; i += 4) {
            uint32_t ua, ub;
            memcpy(&ua, a + i, 4);
            memcpy(&ub, b + i, 4);
            if (ua != ub)
                return ua < ub ? -1 : 1;
        }
    }
    return alen < blen ? -1 : alen > blen;
}
/* Join n finite values of compensated sum sum + comp, mean mean and sum
 * of squared deviations m2 to the moments of c (stats_kernel.c). */
void stats_join_moments(struct stats_column *c, uint64_t n, double sum, double comp, double mean,
                        double m2);

/* The plan's loads (stats_load.c): how a leaf's values converted as `as`
 * are read, and n of them, stride bytes apart from base, into out. */
enum stats_load stats_load_kind(const npydt_leaf *l, npydt_convert as);
void stats_load(enum stats_load kind, bool swap, const unsigned char *base, size_t stride,
                size_t n, unsigned char *out);
/* Does kind give doubles (floats, and integers below 8 bytes)? */
bool stats_load_doubles(enum stats_load kind);

/* The sketch (stats_sketch.c): add a value's hash, and the estimate of
 * the number of distinct values added. */
static inline void stats_hll_add(unsigned char *regs, uint64_t hash)
{
    size_t j = (size_t)(hash >> (64 - STATS_HLL_BITS));
    /* the rank of the lowest 1 bit in the other 52 bits (53 when none) */
    uint64_t rest = hash | UINT64_C(1) << (64 - STATS_HLL_BITS);
    unsigned char rank = (unsigned char)(__builtin_ctzll(rest) + 1);
    if (rank > regs[j])
        regs[j] = rank;
}
double stats_hll_estimate(const unsigned char *regs);

/* ==== value rules (rules_*.c) ========================================= */

/* What a field's values are read as, by npydt_gather. */
enum rule_domain {
    DOM_INT,      /* i, u below 8 bytes, b, M, m: int64 (NPYDT_AS_INT64) */
    DOM_UINT,     /* u8: uint64 (NPYDT_AS_NATIVE) */
    DOM_FLOAT,    /* f: double (NPYDT_AS_DOUBLE) */
    DOM_COMPLEX,  /* c: two doubles (NPYDT_AS_DOUBLE) */
    DOM_BYTES,    /* S: the bytes (NPYDT_AS_NATIVE) */
    DOM_TEXT      /* U: native UCS-4 code units (NPYDT_AS_NATIVE) */
};

enum rule_op {
    RULE_MIN, RULE_MAX, RULE_EXCLUSIVE_MIN, RULE_EXCLUSIVE_MAX, RULE_NAN, RULE_INF, RULE_NAT,
    RULE_SORTED, RULE_UNIQUE, RULE_VALUES, RULE_MIN_LEN, RULE_MAX_LEN, RULE_UTF8, RULE_ASCII,
    RULE_OP_COUNT
};

/* A bound that no value, or every value, passes. */
enum bound_reach { BOUND_SOME, BOUND_ALL, BOUND_NONE };

/* sorted: each element against the one before it breaks the order when
 * (element OP previous), OP being <, >, <= or >= (NaN and NaT never do). */
enum rule_order { ORDER_ASC, ORDER_DESC, ORDER_STRICT_ASC, ORDER_STRICT_DESC };

/* One string of a 'values' set: bytes (S) or code units (U, as uint32). */
struct rule_str {
    const void *p;
    size_t len;         /* bytes, or code units */
};

struct rule {
    enum rule_op op;
    size_t target;              /* index in npydt_rules.targets */
    size_t offset;              /* of the rule's key in the text */
    const char *expected;       /* the rule's value as written */
    size_t expected_len;
    bool active;                /* false: the rule allows everything (nan: True) */
    enum bound_reach reach;     /* of a bound */
    union {
        int64_t i;              /* DOM_INT bound, inclusive (exclusive ones made so) */
        uint64_t u;             /* DOM_UINT bound, inclusive; a length */
        double d;               /* DOM_FLOAT bound, as op says (strict or not) */
        enum rule_order order;
    } v;
    size_t nset;                /* 'values': sorted, without repeats */
    const void *set;            /* int64_t, uint64_t, double or struct rule_str */
};

/* The field a key of the rules names. */
struct rule_target {
    const npydt_dtype *field;   /* a scalar, or a subarray of scalars */
    const npydt_dtype *scalar;
    uint64_t offset;            /* in the record */
    uint64_t elems;             /* scalars per record */
    enum rule_domain dom;
    npydt_convert as;
    size_t gather_size;         /* bytes of one record's gathered field */
    const char *path;
    size_t path_len;
    size_t first_rule, nrules;  /* its rules, contiguous in npydt_rules.rules */
};

struct npydt_rules {
    struct arena arena;
    const npydt_allocator *alloc;
    const npydt_dtype *dtype;   /* the caller's, or NULL: rules read, not placed */
    uint64_t max_unique_bytes;
    struct rule_target *targets;
    size_t ntargets;
    struct rule *rules;
    size_t nrules;
};

/* The name of a rule as the text writes it ("min", "exclusive_max"). */
const char *rule_op_name(enum rule_op op);

/* rules_number.c: a number of the text read into a field's domain.
 * Integers as (neg, mag); big: beyond 64 bits. */
struct rule_num {
    bool is_float;
    bool neg, big;
    uint64_t mag;
    double d;                   /* the float, or the nearest double of the integer */
};
/* Read literal v (LIT_INT or LIT_FLOAT of text) into *n: false when v is
 * no real number (a complex literal, a float the reader cannot spell). */
struct lit;
bool rule_num_read(const struct lit *v, const char *text, struct rule_num *n);
/* Set r's bound (r->op one of the four bounds) in domain dom from n. */
void rule_bound_set(struct rule *r, enum rule_domain dom, const struct rule_num *n);
/* n as a value of domain dom: false when no value of the domain equals it. */
/* Bound r (min, max or exclusive) of a datetime64 field at an instant in
 * [q, q + 1) of the field's counts (exact: at q), as its inclusive bound. */
void rule_bound_set_count(struct rule *r, int64_t q, bool exact);
bool rule_num_to_i64(const struct rule_num *n, int64_t *out);
bool rule_num_to_u64(const struct rule_num *n, uint64_t *out);
bool rule_num_to_double(const struct rule_num *n, double *out);

/* rules_direct.c: the bound, nan, inf and nat rules of one field fused
 * into one pass over records where they are (rule_fuse, once per check),
 * each rule counted in a slot (nat in FUSE_NAN). */
enum { FUSE_LO, FUSE_HI, FUSE_NAN, FUSE_INF, FUSE_NSLOTS };
/* How a rule is counted (rule_fuse's how[]): 0 by the general loops,
 * slot + 1 by the fused pass, FUSE_NOTHING not at all (nothing breaks it). */
#define FUSE_NOTHING (FUSE_NSLOTS + 1)
struct rule_fused {
    size_t rule[FUSE_NSLOTS];   /* the rule counted in each slot, or SIZE_MAX */
    unsigned want;              /* the tests the pass makes; 0: no pass */
    bool alone;                 /* it takes every active rule of the field */
    char kind;                  /* 'f', 'i' (and M, m), 'u' below 8 bytes, 'U' u8 */
    unsigned char width;
    bool swap, time;
    double lo_d, hi_d;          /* inclusive: x < lo_d, x > hi_d break them */
    int64_t lo_i, hi_i;
    uint64_t lo_u, hi_u;
};
/* The pass of target's rules into *f; how[i] set for each rule it takes
 * (the others' entries are left as they are). */
void rule_fuse(const npydt_rules *rs, size_t target, struct rule_fused *f, unsigned char *how);
/* The elements of n records stride bytes apart, rec at the field of the
 * first, elems a record, that break each slot's rule. */
void rule_fused_count(const struct rule_fused *f, const unsigned char *rec, size_t stride,
                      size_t n, uint64_t elems, uint64_t count[FUSE_NSLOTS]);

/* rules_set.c: sorted sets and the distinct values of a unique rule. */
void rule_set_sort(void *set, size_t *n, enum rule_domain dom);
bool rule_set_has_i64(const int64_t *set, size_t n, int64_t v);
bool rule_set_has_u64(const uint64_t *set, size_t n, uint64_t v);
bool rule_set_has_double(const double *set, size_t n, double v);
bool rule_set_has_str(const struct rule_str *set, size_t n, const void *p, size_t len,
                      size_t unit);

/* The distinct values seen by one unique rule: an open-addressing table
 * of 8-byte keys (numbers) or of strings kept in a pool, its memory
 * bounded by max_bytes. */
struct rule_unique {
    const npydt_allocator *alloc;
    uint64_t max_bytes;
    uint64_t *slots;            /* key (numbers) or pool offset + 1 (strings); 0 free */
    uint64_t *hashes;           /* strings only */
    size_t nslots, used;
    bool has_zero;              /* numbers: the key 0 is in (0 marks free slots) */
    unsigned char *pool;
    size_t pool_len, pool_cap;
};
/* Insert; *seen tells whether it was in already. NPYDT_E_LIMIT past
 * max_bytes, NPYDT_E_NOMEM. */
npydt_status rule_unique_add_key(struct rule_unique *u, uint64_t key, bool *seen,
                                 npydt_error *err);
npydt_status rule_unique_add_str(struct rule_unique *u, const void *p, size_t len, bool *seen,
                                 npydt_error *err);
void rule_unique_free(struct rule_unique *u);

#endif

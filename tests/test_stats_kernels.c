/* The instances of the statistics kernels (values/values.h): on a
 * processor with AVX2 the run-time choice takes the AVX2 instance, and
 * it gives the portable instance's columns bit for bit (sums, moments,
 * the sign of a zero extreme, counts, order) over every load kind, both
 * byte orders, NaN, infinities and zeros, and blocks whose length is not
 * a multiple of four. Elsewhere these tests are skipped. */
#include "test_util.h"

#include "values/values.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#if STATS_AVX2

/* Records of STRIDE bytes whose value sits at OFFSET, one block long. */
#define STRIDE 13
#define OFFSET 3
#define COUNT (STATS_BLOCK - 3)

static uint64_t rnd_state = 0x243f6a8885a308d3u;

static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

static void column_start(struct stats_column *c, enum stats_cat cat)
{
    memset(c, 0, sizeof *c);
    c->element = NPYDT_STATS_POOLED;
    c->part = NPYDT_STATS_VALUE;
    c->cat = cat;
    c->kind = cat == STATS_FLOAT ? 'f' : 'i';
    c->min_f = INFINITY;
    c->max_f = -INFINITY;
    c->sorted = NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING |
                NPYDT_SORTED_DESCENDING | NPYDT_SORTED_STRICTLY_DESCENDING;
}

/* Every field a kernel writes, equal bit for bit. */
static void assert_same_column(const struct stats_column *a, const struct stats_column *b)
{
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->nan, b->nan);
    assert_int_equal(a->posinf, b->posinf);
    assert_int_equal(a->neginf, b->neginf);
    assert_int_equal(a->zeros, b->zeros);
    assert_int_equal(a->valid, b->valid);
    assert_int_equal(a->nfin, b->nfin);
    assert_int_equal(a->min_i, b->min_i);
    assert_int_equal(a->max_i, b->max_i);
    assert_int_equal(a->sorted, b->sorted);
    assert_int_equal(a->have_prev, b->have_prev);
    const double *da[] = {&a->min_f, &a->max_f, &a->sum, &a->comp, &a->mean, &a->m2, &a->prev_f,
                          &a->first_f};
    const double *db[] = {&b->min_f, &b->max_f, &b->sum, &b->comp, &b->mean, &b->m2, &b->prev_f,
                          &b->first_f};
    for (size_t i = 0; i < sizeof da / sizeof da[0]; i++)
        assert_memory_equal(da[i], db[i], sizeof(double));
}

/* Bytes of a value of kind and its store, in the order swap says. */
static size_t kind_size(enum stats_load kind)
{
    switch (kind) {
    case STATS_LOAD_F64: case STATS_LOAD_I64: return 8;
    case STATS_LOAD_F32: case STATS_LOAD_I32: case STATS_LOAD_U32: return 4;
    case STATS_LOAD_I16: case STATS_LOAD_U16: return 2;
    default: return 1;
    }
}

static void store_value(unsigned char *p, enum stats_load kind, bool swap, uint64_t bits)
{
    size_t n = kind_size(kind);
    for (size_t i = 0; i < n; i++) {
        unsigned char byte = (unsigned char)(bits >> (8 * i));
        p[TEXT_HOST_BIG != swap ? n - 1 - i : i] = byte;
    }
}

/* A float of the mix: mostly normal numbers, some NaN, infinities and
 * zeros of either sign (in which patterns: mode). */
static double float_value(int mode)
{
    uint64_t r = rnd();
    unsigned pick = (unsigned)(r % 100);
    double v = (double)(int64_t)(r >> 11) / 1e12;
    if (mode == 1)
        return pick < 30 ? 0.0 : pick < 60 ? -0.0 : fabs(v);   /* extremes are zeros */
    if (mode == 2)
        return pick < 2 ? NAN : v;
    if (pick < 3)
        return NAN;
    if (pick < 5)
        return pick == 3 ? INFINITY : -INFINITY;
    if (pick < 10)
        return pick < 7 ? 0.0 : -0.0;
    return v;
}

static uint64_t value_bits(enum stats_load kind, int mode)
{
    if (kind == STATS_LOAD_F64) {
        double d = float_value(mode);
        uint64_t b;
        memcpy(&b, &d, sizeof b);
        return b;
    }
    if (kind == STATS_LOAD_F32) {
        float f = (float)float_value(mode);
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    uint64_t r = rnd();
    return r % 17 == 0 ? 0 : r;   /* zeros among them */
}

/* The two instances over the same records, compared after each of three
 * blocks (the second and third join the first's state). */
static void check_kind(enum stats_load kind, bool swap, int mode)
{
    size_t bytes = (size_t)COUNT * STRIDE;
    unsigned char *rec = malloc(bytes);
    double *xa = malloc(STATS_BLOCK * sizeof(double)), *xb = malloc(STATS_BLOCK * sizeof(double));
    assert_non_null(rec);
    assert_non_null(xa);
    assert_non_null(xb);
    struct stats_column a, b;
    column_start(&a, STATS_FLOAT);
    column_start(&b, STATS_FLOAT);
    for (int block = 0; block < 3; block++) {
        memset(rec, 0x5a, bytes);
        for (size_t i = 0; i < COUNT; i++)
            store_value(rec + i * STRIDE + OFFSET, kind, swap, value_bits(kind, mode));
        size_t k = COUNT - (size_t)block;   /* 4093, 4092, 4091 */
        stats_fold_load_portable(&a, kind, swap, rec + OFFSET, STRIDE, k, xa);
        stats_fold_load_avx2(&b, kind, swap, rec + OFFSET, STRIDE, k, xb);
        assert_memory_equal(xa, xb, k * sizeof(double));
        assert_same_column(&a, &b);
    }
    free(rec);
    free(xa);
    free(xb);
}

static const enum stats_load double_kinds[] = {
    STATS_LOAD_F64, STATS_LOAD_F32, STATS_LOAD_I32, STATS_LOAD_I16,
    STATS_LOAD_I8,  STATS_LOAD_U32, STATS_LOAD_U16, STATS_LOAD_U8,
};

static void test_stats_kernels_avx2_loads_equal_the_portable_bit_for_bit(void **state)
{
    (void)state;
    if (!stats_avx2())
        skip();
    for (size_t i = 0; i < sizeof double_kinds / sizeof double_kinds[0]; i++)
        for (int swap = 0; swap < 2; swap++)
            for (int mode = 0; mode < 3; mode++)
                check_kind(double_kinds[i], swap, mode);
}

static void test_stats_kernels_avx2_keeps_the_portable_sign_of_a_zero_extreme(void **state)
{
    (void)state;
    if (!stats_avx2())
        skip();
    /* 1.0, -0.0 and 0.0 in every arrangement of two runs of four: which
     * zero is the least depends on the lane each is met in */
    for (unsigned pattern = 0; pattern < 6561; pattern++) {
        double x[11], xa[11], xb[11];
        uint64_t zeros = 0;
        for (unsigned i = 0, p = pattern; i < 11; i++, p /= 3) {
            static const double pick[] = {1.0, -0.0, 0.0};
            x[i] = i < 8 ? pick[p % 3] : 1.0 + (double)i;
            zeros += x[i] == 0;
        }
        struct stats_column a, b;
        column_start(&a, STATS_FLOAT);
        column_start(&b, STATS_FLOAT);
        memcpy(xa, x, sizeof x);
        memcpy(xb, x, sizeof x);
        stats_fold_double_portable(&a, xa, 11);
        stats_fold_load_avx2(&b, STATS_LOAD_GATHER, false, (const unsigned char *)xb,
                             sizeof(double), 11, xb);
        assert_same_column(&a, &b);
        assert_int_equal(b.zeros, zeros);
    }
}

static void test_stats_kernels_avx2_contiguous_doubles_equal_the_portable(void **state)
{
    (void)state;
    if (!stats_avx2())
        skip();
    double *xa = malloc(STATS_BLOCK * sizeof(double)), *xb = malloc(STATS_BLOCK * sizeof(double));
    assert_non_null(xa);
    assert_non_null(xb);
    for (int mode = 0; mode < 3; mode++) {
        struct stats_column a, b;
        column_start(&a, STATS_FLOAT);
        column_start(&b, STATS_FLOAT);
        for (int block = 0; block < 3; block++) {
            size_t k = STATS_BLOCK - (size_t)block;
            for (size_t i = 0; i < k; i++)
                xa[i] = xb[i] = float_value(mode);
            stats_fold_double_portable(&a, xa, k);
            stats_fold_load_avx2(&b, STATS_LOAD_GATHER, false, (const unsigned char *)xb,
                                 sizeof(double), k, xb);
            assert_same_column(&a, &b);
        }
    }
    free(xa);
    free(xb);
}

static void test_stats_kernels_avx2_int64_equals_the_portable_bit_for_bit(void **state)
{
    (void)state;
    if (!stats_avx2())
        skip();
    size_t bytes = (size_t)COUNT * STRIDE;
    unsigned char *rec = malloc(bytes);
    double *scratch = malloc(STATS_BLOCK * sizeof(double));
    assert_non_null(rec);
    assert_non_null(scratch);
    for (int swap = 0; swap < 2; swap++) {
        struct stats_column a, b;
        column_start(&a, STATS_INT);
        column_start(&b, STATS_INT);
        a.sorted = b.sorted = 0;   /* the order is settled */
        for (int block = 0; block < 3; block++) {
            for (size_t i = 0; i < COUNT; i++) {
                /* beyond 2^53 (rounded as doubles), the extremes, zeros */
                uint64_t v = i == 5 ? UINT64_C(1) << 63 : i == 9 ? INT64_MAX : value_bits(STATS_LOAD_I64, 0);
                store_value(rec + i * STRIDE + OFFSET, STATS_LOAD_I64, swap, v);
            }
            size_t k = COUNT - (size_t)block;
            stats_fold_int_load_portable(&a, swap, rec + OFFSET, STRIDE, k, scratch);
            stats_fold_int_load_avx2(&b, swap, rec + OFFSET, STRIDE, k);
            assert_same_column(&a, &b);
        }
        assert_int_equal(b.min_i, INT64_MIN);
        assert_int_equal(b.max_i, INT64_MAX);
    }
    free(rec);
    free(scratch);
}

static void test_stats_kernels_avx2_counts_the_steps_up(void **state)
{
    (void)state;
    if (!stats_avx2())
        skip();
    int64_t x[103];
    for (size_t k = 0; k <= 103; k++) {
        for (size_t i = 0; i < k; i++)
            x[i] = (int64_t)(rnd() % 5) - 2 + (i % 3 == 0 ? INT64_MIN / 2 : 0);
        size_t up = 0;
        for (size_t i = 1; i < k; i++)
            up += x[i] > x[i - 1];
        assert_int_equal(stats_count_up_avx2(x, k), up);
    }
}

#else

static void test_stats_kernels_avx2_not_built_for_this_target(void **state)
{
    (void)state;
    skip();
}

#endif

#if STATS_AVX2
TEST_LIST("stats_kernels",
    cmocka_unit_test(test_stats_kernels_avx2_loads_equal_the_portable_bit_for_bit),
    cmocka_unit_test(test_stats_kernels_avx2_keeps_the_portable_sign_of_a_zero_extreme),
    cmocka_unit_test(test_stats_kernels_avx2_contiguous_doubles_equal_the_portable),
    cmocka_unit_test(test_stats_kernels_avx2_int64_equals_the_portable_bit_for_bit),
    cmocka_unit_test(test_stats_kernels_avx2_counts_the_steps_up),
);
#else
TEST_LIST("stats_kernels",
    cmocka_unit_test(test_stats_kernels_avx2_not_built_for_this_target),
);
#endif

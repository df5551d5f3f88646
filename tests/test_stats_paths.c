/* Statistics of values (npydt_stats): the paths the kernels take through
 * a column (values read where they are, blocks with NaN, sorted
 * datetimes, the order settled) give what one value at a time would, and
 * npydt_stats_merge joins two accumulators as one pass over both. */
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An accumulator of r's records [from, to). */
static npydt_stats *stats_part(struct test_recs *r, size_t from, size_t to)
{
    npydt_stats *s;
    TEST_ERROR(err);
    if (npydt_stats_new(r->dt, NULL, &s, &err) != NPYDT_OK)
        fail_msg("npydt_stats_new: %s", err.message);
    assert_int_equal(npydt_stats_add(s, r->buf + from * r->isz, to - from, &err), NPYDT_OK);
    return s;
}

static npydt_stats *stats_of(struct test_recs *r, const npydt_stats_options *opts)
{
    (void)opts;
    return stats_part(r, 0, r->n);
}

static npydt_stats_result column(const npydt_stats *s, size_t i)
{
    npydt_stats_result out;
    TEST_ERROR(err);
    assert_int_equal(npydt_stats_get(s, i, &out, &err), NPYDT_OK);
    return out;
}

static void test_stats_datetimes_rising_after_a_leading_nat_count_it(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<M8[s]'", 4);
    test_recs_set_i64(&r, 0, "", NPYDT_NAT);
    for (size_t i = 1; i < 4; i++)
        test_recs_set_i64(&r, i, "", (int64_t)i * 10);
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result c = column(s, 0);
    assert_int_equal(c.nat, 1);
    assert_int_equal(c.valid, 3);
    assert_true(c.min_i == 10 && c.max_i == 30);
    assert_int_equal(c.sorted, NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_datetimes_sorted_over_many_tiles_keep_their_ends(void **state)
{
    (void)state;
    const size_t n = 20000;
    struct test_recs r = test_recs_make("[('t', '>m8[ns]'), ('pad', 'u1')]", n);
    for (size_t i = 0; i < n; i++)
        test_recs_set_i64(&r, i, "t", (int64_t)i - 5000);
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result c = column(s, 0);
    assert_int_equal(c.nat, 0);
    assert_int_equal(c.zeros, 1);
    assert_true(c.min_i == -5000 && c.max_i == (int64_t)n - 5001);
    assert_int_equal(c.sorted, NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING);
    npydt_stats_free(s);
    test_recs_free(&r);
}

/* After the first tile has settled the order, int64 values are read
 * where they are: the extremes and zeros of the later tiles still count. */
static void test_stats_int64_extremes_after_the_order_is_settled(void **state)
{
    (void)state;
    const size_t n = 20000;
    struct test_recs r = test_recs_make("[('pad', 'u1'), ('e', '>i8')]", n);
    for (size_t i = 0; i < n; i++)
        test_recs_set_i64(&r, i, "e", (int64_t)((i * 7919) % 1000) + 1);
    test_recs_set_i64(&r, 15001, "e", INT64_MIN);
    test_recs_set_i64(&r, 12001, "e", INT64_MAX);
    test_recs_set_i64(&r, 9999, "e", 0);
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result c = column(s, 1);
    assert_true(c.min_i == INT64_MIN && c.max_i == INT64_MAX);
    assert_int_equal(c.zeros, 1);
    assert_int_equal(c.valid, n);
    assert_int_equal(c.sorted, 0);
    npydt_stats_free(s);
    test_recs_free(&r);
}

/* A block with NaN and infinities among finite values: the kinds are
 * counted and the finite values alone make the moments, in any block. */
static void test_stats_finite_values_beside_nan_make_the_moments(void **state)
{
    (void)state;
    const size_t n = 10000;
    struct test_recs r = test_recs_make("'>f4'", n);
    double sum = 0;
    size_t nfin = 0;
    for (size_t i = 0; i < n; i++) {
        double v = (double)(i % 100) - 49.5;
        if (i % 97 == 3)
            v = NAN;
        else if (i == 7777)
            v = -INFINITY;
        else
            sum += v, nfin++;
        test_recs_set_double(&r, i, "", v);
    }
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result c = column(s, 0);
    assert_int_equal(c.nan, (n - 3 + 96) / 97);
    assert_int_equal(c.neginf, 1);
    assert_int_equal(c.posinf, 0);
    assert_int_equal(c.valid, n - c.nan);
    assert_true(c.min_f == -INFINITY && c.max_f == 49.5);
    assert_true(c.mean == -INFINITY);
    npydt_stats_free(s);
    /* without the infinity: the mean of the finite values */
    test_recs_set_double(&r, 7777, "", 0.5);
    sum += 0.5, nfin++;
    s = stats_of(&r, NULL);
    c = column(s, 0);
    assert_true(fabs(c.mean - sum / (double)nfin) < 1e-12);
    assert_int_equal(c.zeros, 0);
    npydt_stats_free(s);
    test_recs_free(&r);
}

/* ---- merge ---------------------------------------------------------------- */

static bool close_to(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return a == b || fabs(a - b) <= 1e-12 * fabs(b);
}

/* Every result of a and b alike: exactly, the moments within rounding. */
static void assert_same_results(const npydt_stats *a, const npydt_stats *b)
{
    assert_int_equal(npydt_stats_count(a), npydt_stats_count(b));
    for (size_t i = 0; i < npydt_stats_count(a); i++) {
        npydt_stats_result x = column(a, i), y = column(b, i);
        assert_int_equal(x.count, y.count);
        assert_int_equal(x.valid, y.valid);
        assert_int_equal(x.nan, y.nan);
        assert_int_equal(x.posinf, y.posinf);
        assert_int_equal(x.neginf, y.neginf);
        assert_int_equal(x.nat, y.nat);
        assert_int_equal(x.zeros, y.zeros);
        assert_int_equal(x.sorted, y.sorted);
        assert_true(x.min_i == y.min_i && x.max_i == y.max_i);
        assert_true(x.min_u == y.min_u && x.max_u == y.max_u);
        assert_true(x.min_f == y.min_f || (isnan(x.min_f) && isnan(y.min_f)));
        assert_true(x.max_f == y.max_f || (isnan(x.max_f) && isnan(y.max_f)));
        assert_true(x.min_len == y.min_len && x.max_len == y.max_len);
        assert_string_equal(x.min_text, y.min_text);
        assert_string_equal(x.max_text, y.max_text);
        assert_true(x.distinct == y.distinct);
        if (!close_to(x.mean, y.mean) || !close_to(x.std, y.std))
            fail_msg("column %zu: mean %.17g std %.17g, one pass %.17g %.17g", i, x.mean,
                     x.std, y.mean, y.std);
    }
}

#define MIXED                                                                           \
    "[('t', '<M8[s]'), ('x', '>f8'), ('e', '<i8'), ('u', '>u8'), ('h', '<i2'), "          \
    "('s', '|S6'), ('w', '<U3')]"

static struct test_recs mixed_records(size_t n)
{
    struct test_recs r = test_recs_make(MIXED, n);
    for (size_t i = 0; i < n; i++) {
        test_recs_set_i64(&r, i, "t", i % 50 == 7 ? NPYDT_NAT : (int64_t)(i / 3));
        test_recs_set_double(&r, i, "x", i % 31 == 5 ? NAN : (double)((i * 37) % 101) * 0.25 - 3);
        test_recs_set_i64(&r, i, "e", (int64_t)((i * 7919) % 1013) - 500);
        test_recs_set_u64(&r, i, "u", (uint64_t)i * 0x9e3779b97f4a7c15ull);
        test_recs_set_i64(&r, i, "h", (int64_t)(i % 300) - 150);
        char b[8];
        int len = snprintf(b, sizeof b, "k%zu", i % 97);
        test_recs_set_bytes(&r, i, "s", b, (size_t)len);
        test_recs_set_bytes(&r, i, "w", b, (size_t)(len < 3 ? len : 3));
    }
    return r;
}

static void test_stats_merge_equals_one_pass_over_both(void **state)
{
    (void)state;
    const size_t n = 9000;
    struct test_recs r = mixed_records(n);
    npydt_stats *whole = stats_part(&r, 0, n);
    const size_t splits[] = {0, 1, 2, 4095, 4096, 5000, n - 1, n};
    for (size_t k = 0; k < sizeof splits / sizeof splits[0]; k++) {
        npydt_stats *a = stats_part(&r, 0, splits[k]), *b = stats_part(&r, splits[k], n);
        TEST_ERROR(err);
        assert_int_equal(npydt_stats_merge(a, b, &err), NPYDT_OK);
        assert_same_results(a, whole);
        npydt_stats_free(a);
        npydt_stats_free(b);
    }
    npydt_stats_free(whole);
    test_recs_free(&r);
}

/* Each part in order, the step between them not: the order the two make
 * together is the merge's. */
static void test_stats_merge_takes_the_order_across_the_boundary(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('x', '<f8'), ('s', '|S2'), ('t', '<m8[s]')]", 5);
    const double x[] = {1, 2, 3, 3, 4};
    const char *s[] = {"a", "b", "c", "a", "b"};
    const int64_t t[] = {5, 4, 3, 3, 2};
    for (size_t i = 0; i < 5; i++) {
        test_recs_set_double(&r, i, "x", x[i]);
        test_recs_set_bytes(&r, i, "s", s[i], 1);
        test_recs_set_i64(&r, i, "t", t[i]);
    }
    npydt_stats *a = stats_part(&r, 0, 3), *b = stats_part(&r, 3, 5);
    TEST_ERROR(err);
    assert_int_equal(column(a, 0).sorted, NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING);
    assert_int_equal(column(b, 1).sorted, NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING);
    assert_int_equal(npydt_stats_merge(a, b, &err), NPYDT_OK);
    assert_int_equal(column(a, 0).sorted, NPYDT_SORTED_ASCENDING);
    assert_int_equal(column(a, 1).sorted, 0);
    assert_int_equal(column(a, 2).sorted, NPYDT_SORTED_DESCENDING);
    npydt_stats_free(a);
    npydt_stats_free(b);
    test_recs_free(&r);
}

static void test_stats_merge_of_an_empty_accumulator_changes_nothing(void **state)
{
    (void)state;
    struct test_recs r = mixed_records(100);
    npydt_stats *whole = stats_part(&r, 0, 100), *empty = stats_part(&r, 0, 0);
    npydt_stats *a = stats_part(&r, 0, 100);
    TEST_ERROR(err);
    assert_int_equal(npydt_stats_merge(a, empty, &err), NPYDT_OK);
    assert_same_results(a, whole);
    assert_int_equal(npydt_stats_merge(empty, a, &err), NPYDT_OK);
    assert_same_results(empty, whole);
    npydt_stats_free(a);
    npydt_stats_free(empty);
    npydt_stats_free(whole);
    test_recs_free(&r);
}

static void test_stats_merge_refuses_other_columns_and_itself(void **state)
{
    (void)state;
    struct test_recs r = mixed_records(10);
    struct test_recs o = test_recs_make("[('t', '<M8[s]'), ('x', '<f8')]", 10);
    npydt_stats *a = stats_part(&r, 0, 10), *b = stats_part(&o, 0, 10), *c;
    npydt_stats_options opts;
    npydt_stats_options_init(&opts);
    const char *fields[] = {"x"};
    opts.fields = fields;
    opts.nfields = 1;
    TEST_ERROR(err);
    assert_int_equal(npydt_stats_new(r.dt, &opts, &c, &err), NPYDT_OK);
    assert_int_equal(npydt_stats_merge(a, b, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_stats_merge(a, c, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_stats_merge(a, a, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_stats_merge(a, NULL, &err), NPYDT_E_ARG);
    assert_int_equal(column(a, 0).count, 10);
    npydt_stats_free(a);
    npydt_stats_free(b);
    npydt_stats_free(c);
    test_recs_free(&o);
    test_recs_free(&r);
}

TEST_LIST("stats_paths",
    cmocka_unit_test(test_stats_datetimes_rising_after_a_leading_nat_count_it),
    cmocka_unit_test(test_stats_datetimes_sorted_over_many_tiles_keep_their_ends),
    cmocka_unit_test(test_stats_int64_extremes_after_the_order_is_settled),
    cmocka_unit_test(test_stats_finite_values_beside_nan_make_the_moments),
    cmocka_unit_test(test_stats_merge_equals_one_pass_over_both),
    cmocka_unit_test(test_stats_merge_takes_the_order_across_the_boundary),
    cmocka_unit_test(test_stats_merge_of_an_empty_accumulator_changes_nothing),
    cmocka_unit_test(test_stats_merge_refuses_other_columns_and_itself),
);

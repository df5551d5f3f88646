/* Statistics of values (npydt_stats): what each column reports, how the
 * values are taken (order, subarrays, byte order, selections) and how the
 * accumulator refuses what it cannot do. */
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The statistics of all of r's records; column i into *out. */
static npydt_stats *stats_of(struct test_recs *r, const npydt_stats_options *opts)
{
    npydt_stats *s;
    TEST_ERROR(err);
    if (npydt_stats_new(r->dt, opts, &s, &err) != NPYDT_OK)
        fail_msg("npydt_stats_new: %s", err.message);
    assert_int_equal(npydt_stats_add(s, r->buf, r->n, &err), NPYDT_OK);
    return s;
}

static npydt_stats_result column(const npydt_stats *s, size_t i)
{
    npydt_stats_result out;
    TEST_ERROR(err);
    assert_int_equal(npydt_stats_get(s, i, &out, &err), NPYDT_OK);
    return out;
}

#define ALL_ORDERS                                                                    \
    (NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING | NPYDT_SORTED_DESCENDING | \
     NPYDT_SORTED_STRICTLY_DESCENDING)

static void test_stats_float_counts_nan_infinities_and_zeros(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<f8'", 6);
    const double v[] = {1.5, NAN, INFINITY, 0.0, -INFINITY, -0.0};
    for (size_t i = 0; i < 6; i++)
        test_recs_set_double(&r, i, "", v[i]);
    npydt_stats *s = stats_of(&r, NULL);
    assert_int_equal(npydt_stats_count(s), 1);
    npydt_stats_result c = column(s, 0);
    assert_int_equal(c.count, 6);
    assert_int_equal(c.valid, 5);
    assert_int_equal(c.nan, 1);
    assert_int_equal(c.posinf, 1);
    assert_int_equal(c.neginf, 1);
    assert_int_equal(c.zeros, 2);
    assert_true(c.min_f == -INFINITY && c.max_f == INFINITY);
    assert_true(isnan(c.mean));   /* both infinities, as np.nanmean */
    assert_true(isnan(c.std));
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_min_max_skip_nan_as_nanmin(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'>f4'", 4);
    const double v[] = {NAN, 2.5, -1.25, NAN};
    for (size_t i = 0; i < 4; i++)
        test_recs_set_double(&r, i, "", v[i]);
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result c = column(s, 0);
    assert_true(c.min_f == -1.25 && c.max_f == 2.5);
    assert_true(c.mean == 0.625);
    assert_true(c.std == 1.875);
    assert_int_equal(c.sorted, NPYDT_SORTED_DESCENDING | NPYDT_SORTED_STRICTLY_DESCENDING);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_mean_and_std_of_integers_are_nanmean_and_nanstd(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<i2'", 1000);
    for (size_t i = 0; i < 1000; i++)
        test_recs_set_i64(&r, i, "", (int64_t)i + 1);
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result c = column(s, 0);
    assert_true(c.mean == 500.5);
    /* population std of 1..n: sqrt((n^2 - 1) / 12) */
    assert_true(fabs(c.std - sqrt((1000.0 * 1000.0 - 1) / 12)) < 1e-12 * c.std);
    assert_int_equal(c.min_i, 1);
    assert_int_equal(c.max_i, 1000);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_mean_compensates_between_additions(void **state)
{
    (void)state;
    /* 1e16 + 1 is 1e16 in a double: summed naively the ones vanish */
    struct test_recs r = test_recs_make("'<f8'", 12);
    test_recs_set_double(&r, 0, "", 1e16);
    for (size_t i = 1; i < 11; i++)
        test_recs_set_double(&r, i, "", 1.0);
    test_recs_set_double(&r, 11, "", -1e16);
    npydt_stats *s;
    assert_int_equal(npydt_stats_new(r.dt, NULL, &s, NULL), NPYDT_OK);
    for (size_t i = 0; i < 12; i++)
        assert_int_equal(npydt_stats_add(s, r.buf + i * r.isz, 1, NULL), NPYDT_OK);
    npydt_stats_result c = column(s, 0);
    /* the quotient rounded to a double (x87 keeps it wider otherwise) */
    assert_true(c.mean == (double)(10.0 / 12.0));
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_integer_extremes_are_exact(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('i', '>i8'), ('u', '<u8')]", 3);
    test_recs_set_i64(&r, 0, "i", INT64_MAX - 1);
    test_recs_set_i64(&r, 1, "i", INT64_MIN + 1);
    test_recs_set_i64(&r, 2, "i", INT64_MAX);
    test_recs_set_u64(&r, 0, "u", UINT64_MAX - 1);
    test_recs_set_u64(&r, 1, "u", (UINT64_C(1) << 63) + 1);
    test_recs_set_u64(&r, 2, "u", UINT64_MAX);
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result i = column(s, 0), u = column(s, 1);
    assert_true(i.min_i == INT64_MIN + 1 && i.max_i == INT64_MAX);
    assert_true(u.min_u == (UINT64_C(1) << 63) + 1 && u.max_u == UINT64_MAX);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_small_unsigned_extremes_are_unsigned(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<u4'", 2);
    test_recs_set_u64(&r, 0, "", UINT32_MAX);
    test_recs_set_u64(&r, 1, "", 7);
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result c = column(s, 0);
    assert_true(c.min_u == 7 && c.max_u == UINT32_MAX);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_order_of_values(void **state)
{
    (void)state;
    static const struct {
        double v[4];
        unsigned sorted;
    } cases[] = {
        {{1, 2, 3, 4}, NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING},
        {{1, 2, 2, 4}, NPYDT_SORTED_ASCENDING},
        {{4, 3, 3, 1}, NPYDT_SORTED_DESCENDING},
        {{4, 3, 2, 1}, NPYDT_SORTED_DESCENDING | NPYDT_SORTED_STRICTLY_DESCENDING},
        {{2, 2, 2, 2}, NPYDT_SORTED_ASCENDING | NPYDT_SORTED_DESCENDING},
        {{1, 3, 2, 4}, 0},
        {{1, NAN, 2, 3}, NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING},
        {{NAN, NAN, 5, NAN}, ALL_ORDERS},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct test_recs r = test_recs_make("'<f8'", 4);
        for (size_t i = 0; i < 4; i++)
            test_recs_set_double(&r, i, "", cases[k].v[i]);
        npydt_stats *s = stats_of(&r, NULL);
        npydt_stats_result c = column(s, 0);
        if (c.sorted != cases[k].sorted)
            fail_msg("case %zu: sorted %u, want %u", k, c.sorted, cases[k].sorted);
        assert_true(c.has_order);
        npydt_stats_free(s);
        test_recs_free(&r);
    }
}

static void test_stats_order_follows_the_additions(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<i4'", 3);
    test_recs_set_i64(&r, 0, "", 5);
    test_recs_set_i64(&r, 1, "", 6);
    test_recs_set_i64(&r, 2, "", 1);
    npydt_stats *s;
    assert_int_equal(npydt_stats_new(r.dt, NULL, &s, NULL), NPYDT_OK);
    assert_int_equal(npydt_stats_add(s, r.buf, 2, NULL), NPYDT_OK);
    assert_int_equal(column(s, 0).sorted,
                     NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING);
    assert_int_equal(npydt_stats_add(s, r.buf + 2 * r.isz, 1, NULL), NPYDT_OK);
    assert_int_equal(column(s, 0).sorted, 0);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_datetimes_count_nat_and_give_iso_text(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'>M8[s]'", 3);
    test_recs_set_i64(&r, 0, "", 86400);
    test_recs_set_i64(&r, 1, "", NPYDT_NAT);
    test_recs_set_i64(&r, 2, "", -1);
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result c = column(s, 0);
    assert_int_equal(c.nat, 1);
    assert_int_equal(c.valid, 2);
    assert_true(c.min_i == -1 && c.max_i == 86400);
    assert_string_equal(c.min_text, "1969-12-31T23:59:59");
    assert_string_equal(c.max_text, "1970-01-02T00:00:00");
    assert_int_equal(c.sorted, NPYDT_SORTED_DESCENDING | NPYDT_SORTED_STRICTLY_DESCENDING);
    assert_true(isnan(c.mean));
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_string_lengths_drop_trailing_nuls(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('s', '|S6'), ('u', '>U4'), ('v', '|V3')]", 3);
    test_recs_set_bytes(&r, 0, "s", "ab", 2);
    test_recs_set_bytes(&r, 1, "s", "a\0b", 3);
    test_recs_set_bytes(&r, 2, "s", "", 0);
    test_recs_set_bytes(&r, 0, "u", "\xc3\xa9", 2);
    test_recs_set_bytes(&r, 1, "u", "abcd", 4);
    test_recs_set_bytes(&r, 2, "u", "x", 1);
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result bs = column(s, 0), us = column(s, 1), vs = column(s, 2);
    assert_true(bs.min_len == 0 && bs.max_len == 3);
    assert_true(us.min_len == 1 && us.max_len == 4);
    assert_true(vs.min_len == 3 && vs.max_len == 3);
    assert_int_equal(bs.sorted, NPYDT_SORTED_DESCENDING | NPYDT_SORTED_STRICTLY_DESCENDING);
    assert_int_equal(us.sorted, 0);
    assert_false(vs.has_order);
    assert_true(fabs(bs.distinct - 3) < 0.5);
    assert_true(fabs(vs.distinct - 1) < 0.5);
    npydt_stats_free(s);
    test_recs_free(&r);
}

/* Equal, or both NaN. */
static bool same_double(double x, double y)
{
    return x == y || (isnan(x) && isnan(y));
}

/* Every kind the plan loads itself, at odd offsets in records of an odd
 * size and from a misaligned start, in both byte orders: the same
 * answers, and the ones the values give. */
static void test_stats_plan_loads_every_kind_misaligned_in_either_order(void **state)
{
    (void)state;
    static const char *const kinds[] = {"i1", "i2", "i4", "i8", "u1", "u2", "u4",
                                        "u8", "f4", "f8", "M8[s]", "m8[s]"};
    const size_t n = 5000;   /* more than a tile of every kind */
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        char descr[2][80];
        snprintf(descr[0], sizeof descr[0], "[('p', '|u1'), ('x', '<%s'), ('q', '|S2')]", kinds[k]);
        snprintf(descr[1], sizeof descr[1], "[('p', '|u1'), ('x', '>%s'), ('q', '|S2')]", kinds[k]);
        npydt_stats_result got[2];
        for (int o = 0; o < 2; o++) {
            struct test_recs r = test_recs_make(descr[o], n);
            for (size_t i = 0; i < n; i++) {
                if (kinds[k][0] == 'f')
                    test_recs_set_double(&r, i, "x", (double)i * 0.25 - 7);
                else if (kinds[k][0] == 'u')
                    test_recs_set_u64(&r, i, "x", (uint64_t)(i % 100));
                else
                    test_recs_set_i64(&r, i, "x", (int64_t)(i % 100) - 50);
            }
            /* from a misaligned copy */
            unsigned char *copy = malloc(n * r.isz + 1);
            assert_non_null(copy);
            memcpy(copy + 1, r.buf, n * r.isz);
            npydt_stats *s;
            TEST_ERROR(err);
            assert_int_equal(npydt_stats_new(r.dt, NULL, &s, &err), NPYDT_OK);
            assert_int_equal(npydt_stats_add(s, copy + 1, n, &err), NPYDT_OK);
            got[o] = column(s, 1);
            npydt_stats_free(s);
            free(copy);
            test_recs_free(&r);
        }
        npydt_stats_result a = got[0], b = got[1];
        assert_true(a.count == n && b.count == n);
        assert_true(a.min_i == b.min_i && a.max_i == b.max_i);
        assert_true(a.min_u == b.min_u && a.max_u == b.max_u);
        assert_true(same_double(a.min_f, b.min_f) && same_double(a.max_f, b.max_f));
        assert_true(same_double(a.mean, b.mean) && same_double(a.std, b.std));
        assert_int_equal(a.sorted, b.sorted);
        assert_int_equal(a.zeros, b.zeros);
        if (kinds[k][0] == 'f') {
            assert_true(a.min_f == -7 && a.max_f == (double)(n - 1) * 0.25 - 7);
            assert_int_equal(a.sorted, NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING);
        } else if (kinds[k][0] == 'u') {
            assert_true(a.min_u == 0 && a.max_u == 99 && fabs(a.mean - 49.5) < 1e-9);
        } else {
            assert_true(a.min_i == -50 && a.max_i == 49);
            assert_int_equal(a.zeros, kinds[k][0] == 'M' ? 0 : n / 100);
        }
    }
}

/* S values are measured where they lie in the records: trailing NULs
 * dropped a word at a time and byte by byte, inner NULs kept. */
static void test_stats_string_lengths_in_place_of_every_size(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('a', '|u1'), ('s', '|S19'), ('b', '<f8')]", 6);
    test_recs_set_bytes(&r, 0, "s", "", 0);
    test_recs_set_bytes(&r, 1, "s", "abcdefghijklmnopqrs", 19);
    test_recs_set_bytes(&r, 2, "s", "abcdefghijk", 11);
    test_recs_set_bytes(&r, 3, "s", "a\0\0\0\0\0\0\0\0\0\0\0b", 13);
    test_recs_set_bytes(&r, 4, "s", "x", 1);
    test_recs_set_bytes(&r, 5, "s", "abcdefghijklmnop", 16);
    static const uint64_t lens[] = {0, 19, 11, 13, 1, 16};
    for (size_t i = 0; i < 6; i++) {
        struct test_recs one = r;
        one.buf = r.buf + i * r.isz;
        one.n = 1;
        npydt_stats *s = stats_of(&one, NULL);
        npydt_stats_result c = column(s, 1);
        assert_true(c.min_len == lens[i] && c.max_len == lens[i]);
        npydt_stats_free(s);
    }
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result c = column(s, 1);
    assert_true(c.min_len == 0 && c.max_len == 19);
    assert_true(fabs(c.distinct - 6) < 0.5);
    assert_int_equal(c.sorted, 0);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_distinct_estimate_is_within_its_error(void **state)
{
    (void)state;
    const size_t n = 100000;
    struct test_recs r = test_recs_make("'|S8'", n);
    for (size_t i = 0; i < n; i++) {
        char t[9];
        int len = snprintf(t, sizeof t, "k%zu", i % 50000);
        test_recs_set_bytes(&r, i, "", t, (size_t)len);
    }
    npydt_stats *s = stats_of(&r, NULL);
    double d = column(s, 0).distinct;
    /* three standard errors of 1.625 % */
    assert_true(fabs(d - 50000) < 0.049 * 50000);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_subarray_elements_pooled_in_c_order(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('m', '<i4', (2, 2))]", 2);
    const npydt_leaf *l = npydt_dtype_leaves(r.dt, &(size_t){0});
    for (size_t i = 0; i < 8; i++)   /* the records are the subarray's 16 bytes */
        assert_int_equal(npydt_write_i64(l->dtype, r.buf + i * 4, (int64_t)i, NULL), NPYDT_OK);
    npydt_stats *s = stats_of(&r, NULL);
    assert_int_equal(npydt_stats_count(s), 1);
    npydt_stats_result c = column(s, 0);
    assert_int_equal(c.element, NPYDT_STATS_POOLED);
    assert_int_equal(c.count, 8);
    assert_int_equal(c.sorted, NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_per_element_gives_each_element_a_column(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('x', '<f8'), ('m', '<i4', (2, 2))]", 3);
    const npydt_leaf *l = &npydt_dtype_leaves(r.dt, &(size_t){0})[1];
    for (size_t i = 0; i < 3; i++)
        for (size_t e = 0; e < 4; e++)
            assert_int_equal(npydt_write_i64(l->dtype, r.buf + i * r.isz + l->offset + e * 4,
                                             (int64_t)(10 * e + i), NULL),
                             NPYDT_OK);
    npydt_stats_options o;
    npydt_stats_options_init(&o);
    o.per_element = 1;
    npydt_stats *s = stats_of(&r, &o);
    assert_int_equal(npydt_stats_count(s), 5);
    assert_int_equal(column(s, 0).element, NPYDT_STATS_POOLED);
    for (size_t e = 0; e < 4; e++) {
        npydt_stats_result c = column(s, 1 + e);
        assert_int_equal(c.element, e);
        assert_int_equal(c.count, 3);
        assert_true(c.min_i == (int64_t)(10 * e) && c.max_i == (int64_t)(10 * e + 2));
    }
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_subarray_larger_than_a_tile_keeps_c_order(void **state)
{
    (void)state;
    /* 40,000 bytes an element: read along the subarray, record by record */
    struct test_recs r = test_recs_make("[('m', '>i4', (100, 100)), ('a', '<u2')]", 3);
    const npydt_leaf *l = npydt_dtype_leaves(r.dt, &(size_t){0});
    for (size_t i = 0; i < 3; i++)
        for (size_t e = 0; e < 10000; e++)
            assert_int_equal(npydt_write_i64(l->dtype, r.buf + i * r.isz + e * 4,
                                             (int64_t)(i * 10000 + e), NULL),
                             NPYDT_OK);
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result c = column(s, 0);
    assert_int_equal(c.count, 30000);
    assert_true(c.min_i == 0 && c.max_i == 29999);
    assert_int_equal(c.sorted, NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING);
    assert_true(c.mean == 14999.5);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_nested_subarrays_larger_than_a_tile_keep_c_order(void **state)
{
    (void)state;
    /* leaf p.v: 2 structs of 5,000 values each, 80,000 bytes a record */
    struct test_recs r = test_recs_make("[('p', [('v', '<i4', (5000,)), ('w', '<u1')], (2,))]", 2);
    const npydt_leaf *l = npydt_dtype_leaves(r.dt, &(size_t){0});
    assert_int_equal(l->nrepeats, 2);
    int64_t k = 0;
    for (size_t i = 0; i < 2; i++)
        for (uint64_t a = 0; a < l->repeats[0].count; a++)
            for (uint64_t b = 0; b < l->repeats[1].count; b++)
                assert_int_equal(npydt_write_i64(l->dtype,
                                                 r.buf + i * r.isz + l->offset +
                                                     a * l->repeats[0].stride +
                                                     b * l->repeats[1].stride,
                                                 k++, NULL),
                                 NPYDT_OK);
    npydt_stats *s = stats_of(&r, NULL);
    npydt_stats_result c = column(s, 0);
    assert_int_equal(c.count, 20000);
    assert_true(c.min_i == 0 && c.max_i == 19999);
    assert_int_equal(c.sorted, NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_complex_leaf_has_a_real_and_an_imaginary_column(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'>c16'", 2);
    const double a[2] = {1.0, -2.0}, b[2] = {3.0, 4.0};
    assert_int_equal(npydt_write_complex(r.dt, r.buf, a, NULL), NPYDT_OK);
    assert_int_equal(npydt_write_complex(r.dt, r.buf + 16, b, NULL), NPYDT_OK);
    npydt_stats *s = stats_of(&r, NULL);
    assert_int_equal(npydt_stats_count(s), 2);
    npydt_stats_result re = column(s, 0), im = column(s, 1);
    assert_int_equal(re.part, NPYDT_STATS_REAL);
    assert_int_equal(im.part, NPYDT_STATS_IMAG);
    assert_true(re.min_f == 1.0 && re.max_f == 3.0 && re.mean == 2.0);
    assert_true(im.min_f == -2.0 && im.max_f == 4.0 && im.mean == 1.0);
    assert_false(re.has_order);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_same_values_in_either_byte_order(void **state)
{
    (void)state;
    struct test_recs le = test_recs_make("[('a', '<f8'), ('b', '<i4')]", 50);
    struct test_recs be = test_recs_make("[('a', '>f8'), ('b', '>i4')]", 50);
    for (size_t i = 0; i < 50; i++) {
        test_recs_set_double(&le, i, "a", (double)i * 0.37 - 3);
        test_recs_set_double(&be, i, "a", (double)i * 0.37 - 3);
        test_recs_set_i64(&le, i, "b", (int64_t)(i * i) - 40);
        test_recs_set_i64(&be, i, "b", (int64_t)(i * i) - 40);
    }
    npydt_stats *s1 = stats_of(&le, NULL), *s2 = stats_of(&be, NULL);
    for (size_t k = 0; k < 2; k++) {
        npydt_stats_result x = column(s1, k), y = column(s2, k);
        assert_true(x.min_f == y.min_f || (isnan(x.min_f) && isnan(y.min_f)));
        assert_true(x.min_i == y.min_i && x.max_i == y.max_i);
        assert_true(x.mean == y.mean && x.std == y.std);
        assert_int_equal(x.sorted, y.sorted);
    }
    npydt_stats_free(s1);
    npydt_stats_free(s2);
    test_recs_free(&le);
    test_recs_free(&be);
}

static void test_stats_fields_select_the_leaves_below_a_path(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('t', '<i8'), ('pos', [('x', '<f4'), ('y', '<f4')]), ('n', '|S2')]", 1);
    const char *paths[] = {"n", "pos"};
    npydt_stats_options o;
    npydt_stats_options_init(&o);
    o.fields = paths;
    o.nfields = 2;
    npydt_stats *s = stats_of(&r, &o);
    assert_int_equal(npydt_stats_count(s), 3);
    assert_int_equal(column(s, 0).leaf, 1);   /* record order: pos.x, pos.y, n */
    assert_int_equal(column(s, 1).leaf, 2);
    assert_int_equal(column(s, 2).leaf, 3);
    npydt_stats_free(s);
    test_recs_free(&r);
}

static void test_stats_unknown_field_path_is_not_found(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('pos', [('x', '<f4')])]", 1);
    const char *paths[] = {"po"};
    npydt_stats_options o;
    npydt_stats_options_init(&o);
    o.fields = paths;
    o.nfields = 1;
    npydt_stats *s = (npydt_stats *)&o;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_NOT_FOUND, &err, npydt_stats_new(r.dt, &o, &s, &err));
    assert_null(s);
    assert_string_equal(err.path, "po");
    test_recs_free(&r);
}

static void test_stats_refuses_object_leaves(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<f8'), ('o', '|O')]");
    npydt_stats *s;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_OBJECT, &err, npydt_stats_new(dt, NULL, &s, &err));
    assert_string_equal(err.path, "o");
    npydt_dtype_free(dt);
}

static void test_stats_memory_beyond_max_bytes_is_refused(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('s', '|S4', (1000,))]");
    npydt_stats_options o;
    npydt_stats_options_init(&o);
    o.per_element = 1;   /* a sketch of 4 KiB per element: 4 MB */
    o.max_bytes = 1 << 20;
    npydt_stats *s;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_stats_new(dt, &o, &s, &err));
    o.per_element = 0;
    assert_int_equal(npydt_stats_new(dt, &o, &s, &err), NPYDT_OK);
    npydt_stats_free(s);
    npydt_dtype_free(dt);
}

static void test_stats_refuses_nonzero_reserved_room(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<f8'");
    npydt_stats_options o;
    npydt_stats_options_init(&o);
    o.reserved[3] = 1;
    npydt_stats *s;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_stats_new(dt, &o, &s, &err));
    npydt_dtype_free(dt);
}

static void test_stats_column_out_of_range_is_an_argument_error(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<f8'");
    npydt_stats *s;
    assert_int_equal(npydt_stats_new(dt, NULL, &s, NULL), NPYDT_OK);
    npydt_stats_result out;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_stats_get(s, 1, &out, &err));
    npydt_stats_result c = column(s, 0);   /* nothing added yet */
    assert_int_equal(c.count, 0);
    assert_true(isnan(c.min_f) && isnan(c.mean));
    npydt_stats_free(s);
    npydt_dtype_free(dt);
}

static void test_stats_reader_gives_fortran_order_data_in_c_order(void **state)
{
    (void)state;
    npydt_reader *r = test_open_fixture("fortran_2d.npy");
    const npydt_dtype *dt = test_reader_dtype(r);
    npydt_stats *a, *b;
    assert_int_equal(npydt_stats_new(dt, NULL, &a, NULL), NPYDT_OK);
    assert_int_equal(npydt_stats_new(dt, NULL, &b, NULL), NPYDT_OK);
    TEST_ERROR(err);
    assert_int_equal(npydt_stats_add_reader(a, r, &err), NPYDT_OK);
    uint64_t n = npydt_header_count(npydt_reader_header(r));
    for (uint64_t i = 0; i < n; i++)
        assert_int_equal(npydt_stats_add(b, test_element_at(r, i), 1, NULL), NPYDT_OK);
    for (size_t k = 0; k < npydt_stats_count(a); k++) {
        npydt_stats_result x = column(a, k), y = column(b, k);
        assert_int_equal(x.count, n);
        assert_int_equal(x.sorted, y.sorted);
        assert_true(x.mean == y.mean || (isnan(x.mean) && isnan(y.mean)));
    }
    npydt_stats_free(a);
    npydt_stats_free(b);
    npydt_reader_close(r);
}

static void test_stats_reader_of_another_dtype_is_refused(void **state)
{
    (void)state;
    npydt_reader *r = test_open_fixture("fortran_2d.npy");
    npydt_dtype *dt = test_parse_literal("[('zz', '<f8')]");
    npydt_stats *s;
    assert_int_equal(npydt_stats_new(dt, NULL, &s, NULL), NPYDT_OK);
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_stats_add_reader(s, r, &err));
    npydt_stats_free(s);
    npydt_dtype_free(dt);
    npydt_reader_close(r);
}

static void test_stats_every_failed_allocation_is_reported_without_leak(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<f8'), ('s', '|S3', (2,))]");
    const char *paths[] = {"s"};
    for (long k = 0;; k++) {
        struct test_alloc t;
        test_alloc_init(&t, k, 0);
        npydt_stats_options o;
        npydt_stats_options_init(&o);
        o.allocator = &t.alloc;
        o.fields = paths;
        o.nfields = 1;
        npydt_stats *s;
        npydt_status st = npydt_stats_new(dt, &o, &s, NULL);
        if (st == NPYDT_OK) {
            npydt_stats_free(s);
            assert_int_equal(t.live_blocks, 0);
            assert_true(k > 3);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        assert_int_equal(t.live_blocks, 0);
    }
    npydt_dtype_free(dt);
}

TEST_LIST("stats",
    cmocka_unit_test(test_stats_float_counts_nan_infinities_and_zeros),
    cmocka_unit_test(test_stats_min_max_skip_nan_as_nanmin),
    cmocka_unit_test(test_stats_mean_and_std_of_integers_are_nanmean_and_nanstd),
    cmocka_unit_test(test_stats_mean_compensates_between_additions),
    cmocka_unit_test(test_stats_integer_extremes_are_exact),
    cmocka_unit_test(test_stats_small_unsigned_extremes_are_unsigned),
    cmocka_unit_test(test_stats_order_of_values),
    cmocka_unit_test(test_stats_order_follows_the_additions),
    cmocka_unit_test(test_stats_datetimes_count_nat_and_give_iso_text),
    cmocka_unit_test(test_stats_string_lengths_drop_trailing_nuls),
    cmocka_unit_test(test_stats_plan_loads_every_kind_misaligned_in_either_order),
    cmocka_unit_test(test_stats_string_lengths_in_place_of_every_size),
    cmocka_unit_test(test_stats_distinct_estimate_is_within_its_error),
    cmocka_unit_test(test_stats_subarray_elements_pooled_in_c_order),
    cmocka_unit_test(test_stats_per_element_gives_each_element_a_column),
    cmocka_unit_test(test_stats_subarray_larger_than_a_tile_keeps_c_order),
    cmocka_unit_test(test_stats_nested_subarrays_larger_than_a_tile_keep_c_order),
    cmocka_unit_test(test_stats_complex_leaf_has_a_real_and_an_imaginary_column),
    cmocka_unit_test(test_stats_same_values_in_either_byte_order),
    cmocka_unit_test(test_stats_fields_select_the_leaves_below_a_path),
    cmocka_unit_test(test_stats_unknown_field_path_is_not_found),
    cmocka_unit_test(test_stats_refuses_object_leaves),
    cmocka_unit_test(test_stats_memory_beyond_max_bytes_is_refused),
    cmocka_unit_test(test_stats_refuses_nonzero_reserved_room),
    cmocka_unit_test(test_stats_column_out_of_range_is_an_argument_error),
    cmocka_unit_test(test_stats_reader_gives_fortran_order_data_in_c_order),
    cmocka_unit_test(test_stats_reader_of_another_dtype_is_refused),
    cmocka_unit_test(test_stats_every_failed_allocation_is_reported_without_leak),
);

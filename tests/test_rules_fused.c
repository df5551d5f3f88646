/* The bound, nan, inf and nat rules of a field counted in one pass where
 * the records are: in either byte order, at any alignment, across the
 * chunks the records are checked in, and with NaN among numbers that
 * break a bound. Counts are compared with counts made here, element by
 * element. */
#include "rules_test.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Check the n records at p against text, added `piece` records at a time. */
static struct run check_at(const struct test_recs *r, const unsigned char *p, const char *text,
                           size_t piece)
{
    struct run run;
    TEST_ERROR(err);
    if (npydt_rules_compile(text, strlen(text), r->dt, NULL, &run.rules, &err) != NPYDT_OK)
        fail_msg("%s: %s", text, err.message);
    assert_int_equal(npydt_rules_check_new(run.rules, &run.check, &err), NPYDT_OK);
    for (size_t done = 0; done < r->n; done += piece) {
        size_t k = r->n - done < piece ? r->n - done : piece;
        if (npydt_rules_check_add(run.check, p + done * r->isz, k, &err) != NPYDT_OK)
            fail_msg("%s: %s", text, err.message);
    }
    return run;
}

/* The counts and first elements (index and text) of every rule agree. */
static void same_results(const struct run *a, const struct run *b, size_t nrules)
{
    for (size_t i = 0; i < nrules; i++) {
        const npydt_rule_result *x = npydt_rules_check_result(a->check, i);
        const npydt_rule_result *y = npydt_rules_check_result(b->check, i);
        assert_int_equal(x->violations, y->violations);
        assert_int_equal(x->nfirst, y->nfirst);
        for (size_t k = 0; k < x->nfirst; k++) {
            assert_int_equal(x->first[k], y->first[k]);
            assert_string_equal(x->values[k], y->values[k]);
        }
    }
}

/* A value of a small deterministic sequence: 0 .. 1000. */
static int64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005u + 1442695040888963407u;
    return (int64_t)((*s >> 33) % 1001);
}

#define MIXED_LE "[('a', '<f8'), ('b', '<f4'), ('c', '<i2'), ('d', '<i4'), ('e', '<i8'), " \
                 "('f', '<u2'), ('g', '<u4'), ('h', '<u8'), ('t', '<M8[s]')]"
#define MIXED_BE "[('a', '>f8'), ('b', '>f4'), ('c', '>i2'), ('d', '>i4'), ('e', '>i8'), " \
                 "('f', '>u2'), ('g', '>u4'), ('h', '>u8'), ('t', '>M8[s]')]"
#define MIXED_RULES                                                                        \
    "{'a': {'min': -400, 'max': 400, 'nan': False, 'inf': False},"                         \
    " 'b': {'exclusive_min': -400, 'exclusive_max': 400.5, 'nan': False},"                 \
    " 'c': {'min': -450, 'max': 480}, 'd': {'min': -490}, 'e': {'max': 470},"              \
    " 'f': {'max': 990}, 'g': {'min': 5, 'max': 995}, 'h': {'max': 985},"                  \
    " 't': {'nat': False, 'min': -480}}"

static void fill_mixed(struct test_recs *r)
{
    uint64_t s = 26;
    for (size_t i = 0; i < r->n; i++) {
        int64_t v = next(&s) - 500;
        double d = (double)v;
        if (v == 499)
            d = NAN;
        else if (v == -499)
            d = -INFINITY;
        test_recs_set_double(r, i, "a", d);
        test_recs_set_double(r, i, "b", v == 498 ? NAN : d == -INFINITY ? INFINITY : d + 0.5);
        test_recs_set_i64(r, i, "c", v);
        test_recs_set_i64(r, i, "d", v);
        test_recs_set_i64(r, i, "e", v);
        test_recs_set_i64(r, i, "f", v + 500);
        test_recs_set_i64(r, i, "g", v + 500);
        test_recs_set_i64(r, i, "h", v + 500);
        test_recs_set_i64(r, i, "t", v == 497 ? INT64_MIN : v);
    }
}

static void test_rules_fused_other_byte_order_counts_as_the_host_order(void **state)
{
    (void)state;
    struct test_recs le = test_recs_make(MIXED_LE, 3000), be = test_recs_make(MIXED_BE, 3000);
    fill_mixed(&le);
    fill_mixed(&be);
    struct run x = check_at(&le, le.buf, MIXED_RULES, le.n);
    struct run y = check_at(&be, be.buf, MIXED_RULES, be.n);
    size_t nrules = npydt_rules_count(x.rules);
    assert_int_equal(nrules, 17);
    same_results(&x, &y, nrules);
    /* and as counted here, element by element */
    uint64_t s = 26, want[17] = {0};
    for (size_t i = 0; i < le.n; i++) {
        int64_t v = next(&s) - 500;
        bool nan_a = v == 499, inf_a = v == -499, nan_b = v == 498 || v == 499;
        want[0] += !nan_a && v < -400;                 /* a min (-inf too) */
        want[1] += !nan_a && !inf_a && v > 400;        /* a max */
        want[2] += nan_a;
        want[3] += inf_a;
        want[4] += !nan_b && !inf_a && v + 0.5 <= -400;   /* b exclusive_min (+inf passes) */
        want[5] += !nan_b && (inf_a || v + 0.5 >= 400.5);
        want[6] += nan_b;
        want[7] += v < -450;
        want[8] += v > 480;
        want[9] += v < -490;
        want[10] += v > 470;
        want[11] += v + 500 > 990;
        want[12] += v + 500 < 5;
        want[13] += v + 500 > 995;
        want[14] += v + 500 > 985;
        want[15] += v == 497;                          /* NaT */
        want[16] += v != 497 && v < -480;              /* NaT breaks no bound */
    }
    for (size_t i = 0; i < nrules; i++) {
        const npydt_rule_result *res = npydt_rules_check_result(x.check, i);
        if (res->violations != want[i])
            fail_msg("rule %zu (%.*s %s): %llu, not %llu", i, (int)res->path_len, res->path,
                     res->rule, (unsigned long long)res->violations,
                     (unsigned long long)want[i]);
        assert_true(want[i] > 0);   /* every rule is tested breaking */
    }
    finish(&x);
    finish(&y);
    test_recs_free(&le);
    test_recs_free(&be);
}

static void test_rules_fused_records_at_an_odd_address_with_packed_fields(void **state)
{
    (void)state;
    /* offsets 0, 1, 9, 13 in records of 17 bytes */
    struct test_recs r = test_recs_make("[('p', '|u1'), ('x', '<f8'), ('y', '>i4'), ('z', '<f4')]", 700);
    for (size_t i = 0; i < r.n; i++) {
        test_recs_set_i64(&r, i, "p", (int64_t)(i % 256));
        test_recs_set_double(&r, i, "x", i % 100 == 7 ? -1.0 : (double)i);
        test_recs_set_i64(&r, i, "y", i % 250 == 3 ? 100000 : (int64_t)i);
        test_recs_set_double(&r, i, "z", i == 699 ? NAN : 0.25);
    }
    memmove(r.buf + 1, r.buf, r.n * r.isz);
    const char *rules = "{'x': {'min': 0}, 'y': {'max': 99999}, 'z': {'nan': False}}";
    struct run run = check_at(&r, r.buf + 1, rules, r.n);
    broke(&run, 0, 7, (int[]){7, 107, 207, 307, 407, -1});
    broke(&run, 1, 3, (int[]){3, 253, 503, -1});
    broke(&run, 2, 1, (int[]){699, -1});
    assert_string_equal(npydt_rules_check_result(run.check, 1)->values[0], "100000");
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_fused_breaks_at_chunk_edges_are_counted_and_kept_in_order(void **state)
{
    (void)state;
    /* 16-byte records: records at powers of two and at the edges of the
     * pieces added (777 records) carry breaks */
    static const int at_x[] = {511, 512, 1023, 1024, 1553, 1554, 2047, 2048, 4095, 4999};
    struct test_recs r = test_recs_make("[('x', '<f8'), ('y', '<i8')]", 5000);
    for (size_t i = 0; i < r.n; i++) {
        test_recs_set_double(&r, i, "x", 1.0);
        test_recs_set_i64(&r, i, "y", 7);
    }
    for (size_t k = 0; k < sizeof at_x / sizeof at_x[0]; k++) {
        test_recs_set_double(&r, (size_t)at_x[k], "x", 2.0);
        test_recs_set_i64(&r, (size_t)at_x[k], "y", -1);
    }
    const char *rules = "{'x': {'max': 1.5}, 'y': {'min': 0}}";
    for (size_t piece = 777; piece <= 5000; piece += 5000 - 777) {
        struct run run = check_at(&r, r.buf, rules, piece);
        broke(&run, 0, 10, (int[]){511, 512, 1023, 1024, 1553, -1});
        broke(&run, 1, 10, (int[]){511, 512, 1023, 1024, 1553, -1});
        finish(&run);
    }
    test_recs_free(&r);
}

static void test_rules_fused_records_at_any_place_in_a_page_count_as_one_at_a_time(void **state)
{
    (void)state;
    /* batches end where a 4 KiB page of the records' addresses does: the
     * same records copied to each of these places in a page, checked in
     * one add, find what a check fed one record at a time finds */
    static const size_t place[] = {0, 1, 3, 8, 1023, 1024, 1025, 3071, 3072, 3073, 4047, 4095};
    const char *rules =
        "{'a': {'min': -400, 'max': 400, 'nan': False, 'inf': False},"
        " 'b': {'exclusive_min': -400, 'nan': False}, 'c': {'min': -450, 'max': 480},"
        " 'e': {'max': 470, 'sorted': 'ascending'}, 'g': {'unique': True},"
        " 't': {'nat': False, 'min': -480}}";
    struct test_recs r = test_recs_make(MIXED_LE, 3000);
    fill_mixed(&r);
    struct run one = check_at(&r, r.buf, rules, 1);
    size_t nrules = npydt_rules_count(one.rules);
    for (size_t i = 0; i < nrules; i++)
        assert_true(npydt_rules_check_result(one.check, i)->violations > 0);
    size_t size = (r.n * r.isz / 4096 + 2) * 4096;
    unsigned char *page = aligned_alloc(4096, size);
    assert_non_null(page);
    for (size_t k = 0; k < sizeof place / sizeof place[0]; k++) {
        memcpy(page + place[k], r.buf, r.n * r.isz);
        struct run all = check_at(&r, page + place[k], rules, r.n);
        same_results(&one, &all, nrules);
        finish(&all);
    }
    free(page);
    finish(&one);
    test_recs_free(&r);
}

static void test_rules_fused_nan_with_min_and_max_breaks_only_nan(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('d', '<f8'), ('f', '>f4')]", 2000);
    for (size_t i = 0; i < r.n; i++) {
        /* NaN right before and right after the numbers that break a bound */
        double v = i % 400 == 10 ? -5.0 : i % 400 == 20 ? 9.0 : i % 10 == 9 ? NAN : 1.0;
        if (i % 400 == 11 || i % 400 == 19)
            v = NAN;
        test_recs_set_double(&r, i, "d", v);
        test_recs_set_double(&r, i, "f", v);
    }
    uint64_t nans = 0;
    for (size_t i = 0; i < r.n; i++)
        nans += i % 400 == 11 || i % 400 == 19 || (i % 10 == 9 && i % 400 != 10 &&
                                                   i % 400 != 20);
    const char *rules = "{'d': {'min': 0, 'max': 5, 'nan': False},"
                        " 'f': {'min': 0, 'max': 5, 'inf': False}}";
    struct run run = check_at(&r, r.buf, rules, r.n);
    broke(&run, 0, 5, (int[]){10, 410, 810, 1210, 1610, -1});
    broke(&run, 1, 5, (int[]){20, 420, 820, 1220, 1620, -1});
    broke(&run, 2, nans, (int[]){9, 11, 19, 29, 39, -1});
    broke(&run, 3, 5, (int[]){10, 410, 810, 1210, 1610, -1});
    broke(&run, 4, 5, (int[]){20, 420, 820, 1220, 1620, -1});
    broke(&run, 5, 0, (int[]){-1});
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_fused_exclusive_float_bounds_are_exact(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('d', '<f8'), ('f', '<f4')]", 5);
    double d[5] = {1.0, nextafter(1.0, 2.0), 0.5, INFINITY, NAN};
    float f[5] = {0.1f, nextafterf(0.1f, 0.0f), 1.0f, -INFINITY, NAN};
    for (size_t i = 0; i < 5; i++) {
        test_recs_set_double(&r, i, "d", d[i]);
        test_recs_set_double(&r, i, "f", (double)f[i]);
    }
    /* 0.1f is above 0.1; an exclusive bound at an infinity takes every number */
    struct run run = check_at(&r, r.buf, "{'d': {'exclusive_min': 1.0, 'exclusive_max': 1e999},"
                                         " 'f': {'exclusive_max': 0.1,"
                                         " 'exclusive_min': -1e999}}", r.n);
    broke(&run, 0, 2, (int[]){0, 2, -1});
    broke(&run, 1, 1, (int[]){3, -1});
    broke(&run, 2, 2, (int[]){0, 2, -1});
    broke(&run, 3, 1, (int[]){3, -1});
    finish(&run);
    run = check_at(&r, r.buf, "{'d': {'exclusive_min': 1e999}, 'f': {'exclusive_max': -1e999}}",
                   r.n);
    broke(&run, 0, 4, (int[]){0, 1, 2, 3, -1});
    broke(&run, 1, 4, (int[]){0, 1, 2, 3, -1});
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_fused_bounds_no_integer_passes_break_every_element(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('s', '<i2'), ('l', '>i8'), ('t', '<m8[s]')]", 3);
    for (size_t i = 0; i < 3; i++) {
        test_recs_set_i64(&r, i, "s", (int64_t)i - 32768);
        test_recs_set_i64(&r, i, "l", i == 0 ? INT64_MIN : INT64_MAX - (int64_t)i);
        test_recs_set_i64(&r, i, "t", i == 1 ? INT64_MIN : (int64_t)i);
    }
    struct run run = check_at(&r, r.buf, "{'s': {'min': 40000}, 'l': {'max': -1180591620717411303424},"
                                         " 't': {'min': 18446744073709551616}}", r.n);
    broke(&run, 0, 3, (int[]){0, 1, 2, -1});
    broke(&run, 1, 3, (int[]){0, 1, 2, -1});
    broke(&run, 2, 2, (int[]){0, 2, -1});   /* NaT breaks no bound */
    finish(&run);
    test_recs_free(&r);
}

TEST_LIST("rules_fused",
    cmocka_unit_test(test_rules_fused_other_byte_order_counts_as_the_host_order),
    cmocka_unit_test(test_rules_fused_records_at_an_odd_address_with_packed_fields),
    cmocka_unit_test(test_rules_fused_breaks_at_chunk_edges_are_counted_and_kept_in_order),
    cmocka_unit_test(test_rules_fused_records_at_any_place_in_a_page_count_as_one_at_a_time),
    cmocka_unit_test(test_rules_fused_nan_with_min_and_max_breaks_only_nan),
    cmocka_unit_test(test_rules_fused_exclusive_float_bounds_are_exact),
    cmocka_unit_test(test_rules_fused_bounds_no_integer_passes_break_every_element),
);

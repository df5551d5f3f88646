/* Value rules checked over records: what breaks each rule, the counts,
 * the first indices and values kept, and the state a check carries. */
#include "rules_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct run start(struct test_recs *r, const char *text, const npydt_rules_options *o)
{
    struct run run;
    TEST_ERROR(err);
    if (npydt_rules_compile(text, strlen(text), r->dt, o, &run.rules, &err) != NPYDT_OK)
        fail_msg("%s: %s", text, err.message);
    assert_int_equal(npydt_rules_check_new(run.rules, &run.check, &err), NPYDT_OK);
    return run;
}

/* Compile text against r's dtype and check all of r's records. */
static struct run check_all(struct test_recs *r, const char *text)
{
    struct run run = start(r, text, NULL);
    TEST_ERROR(err);
    if (npydt_rules_check_add(run.check, r->buf, r->n, &err) != NPYDT_OK)
        fail_msg("%s: %s", text, err.message);
    return run;
}

static const int NONE[] = {-1};

static void test_rules_check_bounds_let_nan_pass_and_count_every_break(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<f8'", 6);
    double v[6] = {1.0, NAN, -200.0, 181.0, 180.0, -INFINITY};
    for (size_t i = 0; i < 6; i++)
        test_recs_set_double(&r, i, "", v[i]);
    struct run run = check_all(&r, "{'': {'min': -180.0, 'max': 180}}");
    broke(&run, 0, 2, (int[]){2, 5, -1});
    broke(&run, 1, 1, (int[]){3, -1});
    assert_int_equal(npydt_rules_check_violations(run.check), 3);
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_keeps_the_first_five_with_their_values(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<i2'", 9);
    for (size_t i = 0; i < 9; i++)
        test_recs_set_i64(&r, i, "", -(int64_t)i);
    struct run run = check_all(&r, "{'': {'min': 0}}");
    broke(&run, 0, 8, (int[]){1, 2, 3, 4, 5, -1});
    const npydt_rule_result *res = npydt_rules_check_result(run.check, 0);
    assert_string_equal(res->values[0], "-1");
    assert_string_equal(res->values[4], "-5");
    assert_string_equal(res->rule, "min");
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_bounds_beyond_the_type_pass_all_or_none(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('a', '|u1'), ('b', '<u2')]", 3);
    for (size_t i = 0; i < 3; i++) {
        test_recs_set_i64(&r, i, "a", (int64_t)i * 100);
        test_recs_set_i64(&r, i, "b", (int64_t)i);
    }
    struct run run = check_all(&r, "{'a': {'min': -1, 'max': 300, 'exclusive_min': -1e999},"
                                   " 'b': {'exclusive_max': 0, 'exclusive_min': 1e999}}");
    broke(&run, 0, 0, NONE);
    broke(&run, 1, 0, NONE);
    broke(&run, 2, 0, NONE);
    broke(&run, 3, 3, (int[]){0, 1, 2, -1});   /* no u2 is below 0 */
    broke(&run, 4, 3, (int[]){0, 1, 2, -1});   /* nor above infinity */
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_float_bounds_on_integers_are_exact(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<i8'", 4);
    test_recs_set_i64(&r, 0, "", 1);
    test_recs_set_i64(&r, 1, "", 2);
    test_recs_set_i64(&r, 2, "", INT64_MAX);
    test_recs_set_i64(&r, 3, "", 7);
    /* 2^63 as a float is above INT64_MAX: exclusive_max breaks none */
    struct run run = check_all(&r, "{'': {'min': 1.5, 'exclusive_max': 9.223372036854775808e18,"
                                   " 'max': 6.5}}");
    broke(&run, 0, 1, (int[]){0, -1});
    broke(&run, 1, 0, NONE);
    broke(&run, 2, 2, (int[]){2, 3, -1});
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_integer_bounds_on_floats_are_exact(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<f8'", 2);
    test_recs_set_double(&r, 0, "", 9007199254740992.0);   /* 2^53 */
    test_recs_set_double(&r, 1, "", 9007199254740994.0);   /* the next double */
    /* 2^53 + 1 is no double: rounding it to 2^53 would let the second pass */
    struct run run = check_all(&r, "{'': {'max': 9007199254740993, 'exclusive_min': 9007199254740993}}");
    broke(&run, 0, 1, (int[]){1, -1});
    broke(&run, 1, 1, (int[]){0, -1});
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_u8_above_int64(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'>u8'", 3);
    test_recs_set_u64(&r, 0, "", UINT64_MAX);
    test_recs_set_u64(&r, 1, "", (uint64_t)1 << 63);
    test_recs_set_u64(&r, 2, "", 5);
    struct run run = check_all(&r, "{'': {'max': 9223372036854775808, 'values': [5, 18446744073709551615]}}");
    broke(&run, 0, 1, (int[]){0, -1});
    broke(&run, 1, 1, (int[]){1, -1});
    assert_string_equal(npydt_rules_check_result(run.check, 0)->values[0], "18446744073709551615");
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_nan_and_inf_of_complex_take_either_part(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'>c16'", 4);
    test_recs_set_complex(&r, 0, "", 1, 2);
    test_recs_set_complex(&r, 1, "", 1, NAN);
    test_recs_set_complex(&r, 2, "", INFINITY, 0);
    test_recs_set_complex(&r, 3, "", NAN, -INFINITY);
    struct run run = check_all(&r, "{'': {'nan': False, 'inf': False}}");
    broke(&run, 0, 2, (int[]){1, 3, -1});
    broke(&run, 1, 2, (int[]){2, 3, -1});
    assert_string_equal(npydt_rules_check_result(run.check, 1)->values[0], "(inf+0.0j)");
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_inf_counts_infinities_and_not_nan(void **state)
{
    (void)state;
    /* the host's order is counted in place, the other gathered: both alike */
    const char *descr[] = {"[('a', '<f8'), ('b', '>f4')]", "[('a', '>f8'), ('b', '<f4')]"};
    for (size_t d = 0; d < 2; d++) {
        struct test_recs r = test_recs_make(descr[d], 4);
        double v[4] = {NAN, INFINITY, 1, -INFINITY};
        for (size_t i = 0; i < 4; i++) {
            test_recs_set_double(&r, i, "a", v[i]);
            test_recs_set_double(&r, i, "b", v[3 - i]);
        }
        struct run run = check_all(&r, "{'a': {'inf': False}, 'b': {'inf': False, 'nan': False}}");
        broke(&run, 0, 2, (int[]){1, 3, -1});
        broke(&run, 1, 2, (int[]){0, 2, -1});
        broke(&run, 2, 1, (int[]){3, -1});
        finish(&run);
        test_recs_free(&r);
    }
}

static void test_rules_check_nat_breaks_nat_and_no_bound(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<M8[s]'", 3);
    test_recs_set_i64(&r, 0, "", 0);
    test_recs_set_i64(&r, 1, "", INT64_MIN);
    test_recs_set_i64(&r, 2, "", -10);
    struct run run = check_all(&r, "{'': {'nat': False, 'min': 0, 'max': 5}}");
    broke(&run, 0, 1, (int[]){1, -1});
    broke(&run, 1, 1, (int[]){2, -1});
    broke(&run, 2, 0, NONE);
    const npydt_rule_result *res = npydt_rules_check_result(run.check, 0);
    assert_string_equal(res->values[0], "NaT");
    assert_string_equal(npydt_rules_check_result(run.check, 1)->values[0],
                        "1969-12-31T23:59:50");
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_sorted_carries_across_adds(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<i4'", 4);
    int64_t v[4] = {1, 5, 4, 4};
    for (size_t i = 0; i < 4; i++)
        test_recs_set_i64(&r, i, "", v[i]);
    struct run run = start(&r, "{'': {'sorted': 'ascending'}}", NULL);
    struct run strict = start(&r, "{'': {'sorted': 'strictly_ascending'}}", NULL);
    TEST_ERROR(err);
    for (size_t i = 0; i < 4; i++) {   /* one record at a time */
        assert_int_equal(npydt_rules_check_add(run.check, r.buf + i * r.isz, 1, &err), NPYDT_OK);
        assert_int_equal(npydt_rules_check_add(strict.check, r.buf + i * r.isz, 1, &err),
                         NPYDT_OK);
    }
    broke(&run, 0, 1, (int[]){2, -1});
    broke(&strict, 0, 2, (int[]){2, 3, -1});
    finish(&run);
    finish(&strict);
    test_recs_free(&r);
}

static void test_rules_check_sorted_never_breaks_at_nan(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<f4'", 4);
    double v[4] = {3, NAN, 1, 0};
    for (size_t i = 0; i < 4; i++)
        test_recs_set_double(&r, i, "", v[i]);
    struct run run = check_all(&r, "{'': {'sorted': 'ascending'}}");
    broke(&run, 0, 1, (int[]){3, -1});   /* 0 after 1; 1 after NaN is no break */
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_unique_takes_negative_zero_and_every_nan_as_one(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<f8'", 5);
    double v[5] = {0.0, -0.0, NAN, -NAN, 1};
    for (size_t i = 0; i < 5; i++)
        test_recs_set_double(&r, i, "", v[i]);
    struct run run = check_all(&r, "{'': {'unique': True}}");
    broke(&run, 0, 2, (int[]){1, 3, -1});
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_unique_past_its_memory_is_a_limit_error(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<i8'", 5000);
    for (size_t i = 0; i < 5000; i++)
        test_recs_set_i64(&r, i, "", (int64_t)i + 1);
    npydt_rules_options o;
    npydt_rules_options_init(&o);
    o.max_unique_bytes = 32768;   /* 4096 slots of 8 bytes, half full: 2048 values */
    struct run run = start(&r, "{'': {'unique': True}}", &o);
    TEST_ERROR(err);
    assert_int_equal(npydt_rules_check_add(run.check, r.buf, 2048, &err), NPYDT_OK);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_rules_check_add(run.check, r.buf + 2048 * 8, 1, &err));
    assert_true(strstr(err.message, "max_unique_bytes") != NULL);
    finish(&run);
    /* the same values fit a larger bound */
    o.max_unique_bytes = 65536;
    run = start(&r, "{'': {'unique': True}}", &o);
    assert_int_equal(npydt_rules_check_add(run.check, r.buf, 2049, &err), NPYDT_OK);
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_unique_strings_drop_trailing_nuls(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'|S3'", 4);
    test_recs_set_bytes(&r, 0, "", "ab", 2);
    test_recs_set_bytes(&r, 1, "", "ab\0", 3);
    test_recs_set_bytes(&r, 2, "", "a\0b", 3);
    test_recs_set_bytes(&r, 3, "", "a", 1);
    struct run run = check_all(&r, "{'': {'unique': True, 'values': [b'ab', b'a']}}");
    broke(&run, 0, 1, (int[]){1, -1});
    broke(&run, 1, 1, (int[]){2, -1});
    assert_string_equal(npydt_rules_check_result(run.check, 1)->values[0], "b'a\\x00b'");
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_lengths_and_ascii_of_str_count_code_points(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'>U3'", 3);
    test_recs_set_bytes(&r, 0, "", "\xc3\xa9t\xc3\xa9", strlen("\xc3\xa9t\xc3\xa9"));   /* été: 3 code points, 5 UTF-8 bytes */
    test_recs_set_bytes(&r, 1, "", "", strlen(""));
    test_recs_set_bytes(&r, 2, "", "ab", strlen("ab"));
    struct run run = check_all(&r, "{'': {'min_len': 1, 'max_len': 2, 'ascii': True,"
                                   " 'values': ['\\xe9t\\xe9', 'ab']}}");
    broke(&run, 0, 1, (int[]){1, -1});
    broke(&run, 1, 1, (int[]){0, -1});
    broke(&run, 2, 1, (int[]){0, -1});
    broke(&run, 3, 1, (int[]){1, -1});
    assert_string_equal(npydt_rules_check_result(run.check, 2)->values[0], "'\xc3\xa9t\xc3\xa9'");
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_utf8_of_bytes_is_strict(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'|S4'", 3);
    test_recs_set_bytes(&r, 0, "", "\xc3\xa9", 2);
    test_recs_set_bytes(&r, 1, "", "\xed\xa0\x80", 3);   /* a surrogate: Python's decoder refuses it */
    test_recs_set_bytes(&r, 2, "", "\xff", 1);
    struct run run = check_all(&r, "{'': {'utf8': True}}");
    broke(&run, 0, 2, (int[]){1, 2, -1});
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_subarray_indices_count_its_elements(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('id', '<i4'), ('m', '>i2', (2, 3))]", 2);
    test_recs_set_i64(&r, 0, "m[1,2]", -1);
    test_recs_set_i64(&r, 1, "m[0,1]", -2);
    struct run run = check_all(&r, "{'m': {'min': 0}}");
    broke(&run, 0, 2, (int[]){5, 7, -1});   /* record * 6 + row * 3 + column */
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_nested_big_endian_fields(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("[('pos', [('x', '>f8'), ('y', '>f4')]), ('n', '>i8')]", 3);
    for (size_t i = 0; i < 3; i++) {
        test_recs_set_double(&r, i, "pos.x", (double)i * 100);
        test_recs_set_double(&r, i, "pos.y", -(double)i);
        test_recs_set_i64(&r, i, "n", (int64_t)i << 40);
    }
    struct run run = check_all(&r, "{'pos.x': {'max': 150}, 'pos.y': {'min': -1.5},"
                                   " 'n': {'max': 1099511627776}}");
    broke(&run, 0, 1, (int[]){2, -1});
    broke(&run, 1, 1, (int[]){2, -1});
    broke(&run, 2, 1, (int[]){2, -1});
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_reader_reads_a_fortran_array_in_c_order(void **state)
{
    (void)state;
    npydt_reader *rd = test_open_fixture("fortran_2d.npy");   /* (2, 3) of 0..5 in C order */
    const npydt_dtype *dt = npydt_header_dtype(npydt_reader_header(rd));
    npydt_rules *rules;
    npydt_rules_check *c;
    TEST_ERROR(err);
    const char *text = "{'': {'sorted': 'strictly_ascending', 'max': 3}}";
    assert_int_equal(npydt_rules_compile(text, strlen(text), dt, NULL, &rules, &err), NPYDT_OK);
    assert_int_equal(npydt_rules_check_new(rules, &c, &err), NPYDT_OK);
    assert_int_equal(npydt_rules_check_reader(c, rd, &err), NPYDT_OK);
    struct run run = {rules, c};
    broke(&run, 0, 0, NONE);
    broke(&run, 1, 2, (int[]){4, 5, -1});
    finish(&run);
    npydt_reader_close(rd);
}

static void test_rules_check_two_checks_of_one_rules_keep_their_own_state(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<i4'", 2);
    test_recs_set_i64(&r, 0, "", 7);
    test_recs_set_i64(&r, 1, "", 7);
    struct run a = check_all(&r, "{'': {'unique': True}}");
    npydt_rules_check *b;
    TEST_ERROR(err);
    assert_int_equal(npydt_rules_check_new(a.rules, &b, &err), NPYDT_OK);
    assert_int_equal(npydt_rules_check_add(b, r.buf, 1, &err), NPYDT_OK);
    assert_int_equal(npydt_rules_check_violations(b), 0);
    assert_int_equal(npydt_rules_check_violations(a.check), 1);
    npydt_rules_check_free(b);
    finish(&a);
    test_recs_free(&r);
}

static void test_rules_check_values_of_integers_skip_what_no_integer_equals(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<i4'", 3);
    test_recs_set_i64(&r, 0, "", 2);
    test_recs_set_i64(&r, 1, "", 3);
    test_recs_set_i64(&r, 2, "", 1);
    struct run run = check_all(&r, "{'': {'values': [2.5, 1180591620717411303424, 2, 1.0, True]}}");
    broke(&run, 0, 1, (int[]){1, -1});
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_rules_that_allow_everything_never_break(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<f8'", 2);
    test_recs_set_double(&r, 0, "", NAN);
    test_recs_set_double(&r, 1, "", NAN);
    struct run run = check_all(&r, "{'': {'nan': True, 'unique': False, 'inf': True}}");
    assert_int_equal(npydt_rules_check_violations(run.check), 0);
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_refuses_a_reader_of_another_dtype(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<i2'", 1);
    struct run run = start(&r, "{'': {'min': 0}}", NULL);
    npydt_reader *rd = test_open_fixture("fortran_2d.npy");   /* <i4 */
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_rules_check_reader(run.check, rd, &err));
    npydt_reader_close(rd);
    finish(&run);
    test_recs_free(&r);
}

/* Compile, make a check and check r's records with allocator a. */
static npydt_status run_with(const npydt_allocator *a, struct test_recs *r, const char *text)
{
    npydt_rules_options o;
    npydt_rules_options_init(&o);
    o.base.allocator = a;
    npydt_rules *rules;
    npydt_rules_check *c;
    npydt_error err;
    test_poison_error(&err);
    npydt_status st = npydt_rules_compile(text, strlen(text), r->dt, &o, &rules, &err);
    if (st != NPYDT_OK) {
        assert_null(rules);
        return st;
    }
    if ((st = npydt_rules_check_new(rules, &c, &err)) == NPYDT_OK) {
        st = npydt_rules_check_add(c, r->buf, r->n, &err);
        npydt_rules_check_free(c);
    } else {
        assert_null(c);
    }
    npydt_rules_free(rules);
    if (st != NPYDT_OK)
        test_assert_error_filled(st, &err);
    return st;
}

static void fail_each_allocation(int forever)
{
    struct test_recs r = test_recs_make("[('id', '<i8'), ('s', '|S5'), ('u', '<U2')]", 3000);
    for (size_t i = 0; i < 3000; i++) {
        char s[8];
        snprintf(s, sizeof s, "%04zu", i);
        test_recs_set_i64(&r, i, "id", (int64_t)i);
        test_recs_set_bytes(&r, i, "s", s, 4);
        const char *text = i % 2 ? "ab" : "\xc3\xa9";
        test_recs_set_bytes(&r, i, "u", text, strlen(text));
    }
    const char *text = "{'id': {'unique': True, 'values': [1, 2, 3]}, 's': {'unique': True,"
                       " 'values': [b'0001']}, 'u': {'values': ['ab'], 'unique': True}}";
    for (long n = 0;; n++) {
        struct test_alloc t;
        test_alloc_init(&t, n, forever);
        npydt_status st = run_with(&t.alloc, &r, text);
        assert_int_equal(t.live_blocks, 0);
        assert_int_equal(t.live_bytes, 0);
        if (st == NPYDT_OK) {
            assert_true(t.calls <= n);
            break;
        }
        if (st != NPYDT_E_NOMEM)
            fail_msg("allocation %ld failing: %s", n, npydt_status_name(st));
        assert_true(n < 100000);
    }
    test_recs_free(&r);
}

static void test_rules_check_each_failed_allocation_is_nomem_and_leaks_nothing(void **state)
{
    (void)state;
    fail_each_allocation(0);
    fail_each_allocation(1);
}

static void test_rules_check_dates_bound_datetimes_exactly(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'>M8[s]'", 4);
    int64_t v[4] = {0, 1, -1, 86400};
    for (size_t i = 0; i < 4; i++)
        test_recs_set_i64(&r, i, "", v[i]);
    struct run run = check_all(&r, "{'': {'min': '1970-01-01T00:00:00.5', 'max': '1970-01-02',"
                                   " 'exclusive_max': '1970-01-02'}}");
    broke(&run, 0, 2, (int[]){0, 2, -1});   /* half a second: 1 is the least that keeps it */
    broke(&run, 1, 0, NONE);
    broke(&run, 2, 1, (int[]){3, -1});
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_dates_in_values_match_whole_counts(void **state)
{
    (void)state;
    struct test_recs r = test_recs_make("'<M8[D]'", 3);
    int64_t v[3] = {0, 1, 2};
    for (size_t i = 0; i < 3; i++)
        test_recs_set_i64(&r, i, "", v[i]);
    struct run run = check_all(&r, "{'': {'values': ['1970-01-02', '1970-01-01T12']}}");
    broke(&run, 0, 2, (int[]){0, 2, -1});   /* noon of the first day is no day's value */
    finish(&run);
    test_recs_free(&r);
}

static void test_rules_check_sorted_strings_compare_as_numpy_does(void **state)
{
    (void)state;
    static const char *const descr[] = {"[('s', 'S3'), ('u', '<U2'), ('v', '>U2')]"};
    struct test_recs r = test_recs_make(descr[0], 4);
    static const char *const s[4] = {"a", "a\0b", "ab", "b"};
    static const size_t slen[4] = {1, 3, 2, 1};
    static const char *const u[4] = {"y", "z", "\xc3\xa9", "za"};
    for (size_t i = 0; i < 4; i++) {
        test_recs_set_bytes(&r, i, "s", s[i], slen[i]);
        test_recs_set_bytes(&r, i, "u", u[i], strlen(u[i]));
        test_recs_set_bytes(&r, i, "v", u[i], strlen(u[i]));
    }
    struct run run = check_all(&r, "{'s': {'sorted': 'strictly_ascending'},"
                                   " 'u': {'sorted': 'ascending'}, 'v': {'sorted': 'ascending'}}");
    broke(&run, 0, 0, NONE);                 /* b'a' < b'a\0b' < b'ab' < b'b' */
    broke(&run, 1, 1, (int[]){3, -1});       /* 'za' after U+00E9 */
    broke(&run, 2, 1, (int[]){3, -1});       /* the same in the other byte order */
    finish(&run);
    test_recs_free(&r);
}

TEST_LIST("rules_check",
    cmocka_unit_test(test_rules_check_dates_bound_datetimes_exactly),
    cmocka_unit_test(test_rules_check_dates_in_values_match_whole_counts),
    cmocka_unit_test(test_rules_check_sorted_strings_compare_as_numpy_does),
    cmocka_unit_test(test_rules_check_bounds_let_nan_pass_and_count_every_break),
    cmocka_unit_test(test_rules_check_keeps_the_first_five_with_their_values),
    cmocka_unit_test(test_rules_check_bounds_beyond_the_type_pass_all_or_none),
    cmocka_unit_test(test_rules_check_float_bounds_on_integers_are_exact),
    cmocka_unit_test(test_rules_check_integer_bounds_on_floats_are_exact),
    cmocka_unit_test(test_rules_check_u8_above_int64),
    cmocka_unit_test(test_rules_check_nan_and_inf_of_complex_take_either_part),
    cmocka_unit_test(test_rules_check_inf_counts_infinities_and_not_nan),
    cmocka_unit_test(test_rules_check_nat_breaks_nat_and_no_bound),
    cmocka_unit_test(test_rules_check_sorted_carries_across_adds),
    cmocka_unit_test(test_rules_check_sorted_never_breaks_at_nan),
    cmocka_unit_test(test_rules_check_unique_takes_negative_zero_and_every_nan_as_one),
    cmocka_unit_test(test_rules_check_unique_past_its_memory_is_a_limit_error),
    cmocka_unit_test(test_rules_check_unique_strings_drop_trailing_nuls),
    cmocka_unit_test(test_rules_check_lengths_and_ascii_of_str_count_code_points),
    cmocka_unit_test(test_rules_check_utf8_of_bytes_is_strict),
    cmocka_unit_test(test_rules_check_subarray_indices_count_its_elements),
    cmocka_unit_test(test_rules_check_nested_big_endian_fields),
    cmocka_unit_test(test_rules_check_reader_reads_a_fortran_array_in_c_order),
    cmocka_unit_test(test_rules_check_two_checks_of_one_rules_keep_their_own_state),
    cmocka_unit_test(test_rules_check_values_of_integers_skip_what_no_integer_equals),
    cmocka_unit_test(test_rules_check_rules_that_allow_everything_never_break),
    cmocka_unit_test(test_rules_check_refuses_a_reader_of_another_dtype),
    cmocka_unit_test(test_rules_check_each_failed_allocation_is_nomem_and_leaks_nothing),
);

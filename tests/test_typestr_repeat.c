/* The repeat prefix of a type string ("(2,3)f8", "3S"): the dtype stage
 * reads it as NumPy does, with ast.literal_eval, without the header's
 * literal parser. Expected values are NumPy 1.24's np.dtype(str). */
#include "test_util.h"

#include <string.h>

/* Parse s as a type string with the default limits but max_depth and
 * max_ndim; *dt is set on success. */
static npydt_status parse_with(const char *s, uint32_t max_depth, uint32_t max_ndim,
                               npydt_dtype **dt, npydt_error *err)
{
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_depth = max_depth;
    opts.limits.max_ndim = max_ndim;
    *dt = NULL;
    test_poison_error(err);
    return npydt_dtype_parse_typestr(s, strlen(s), &opts, dt, err);
}

/* s must parse into a dtype that np.save would describe as want. */
static void assert_repeat_gives(const char *s, const char *want)
{
    npydt_dtype *dt;
    npydt_error err;
    npydt_status st = parse_with(s, 128, 32, &dt, &err);
    if (st != NPYDT_OK)
        fail_msg("'%s': %s at %zu: %s", s, npydt_status_name(st), err.offset, err.message);
    char buf[128];
    npydt_dtype_descr(dt, buf, sizeof buf);
    assert_string_equal(buf, want);
    npydt_dtype_free(dt);
}

/* s must be refused with code at offset, and exactly that message. */
static void assert_repeat_refused(const char *s, uint32_t max_depth, uint32_t max_ndim,
                                  npydt_status code, size_t offset, const char *message)
{
    npydt_dtype *dt;
    npydt_error err;
    npydt_status st = parse_with(s, max_depth, max_ndim, &dt, &err);
    if (st == NPYDT_OK)
        fail_msg("'%s' accepted", s);
    test_assert_error_filled(st, &err);
    assert_int_equal(st, code);
    assert_int_equal(err.offset, offset);
    assert_string_equal(err.message, message);
}

static void test_repeat_tuple_makes_a_subarray(void **state)
{
    (void)state;
    assert_repeat_gives("(2,3)f8", "('<f8', (2, 3))");
    assert_repeat_gives("( 2 , 3 , )f8", "('<f8', (2, 3))");
    assert_repeat_gives("(1,)f8", "('<f8', (1,))");
}

/* Python reads "2,3" as a tuple, parentheses or not. */
static void test_repeat_integers_joined_by_commas_are_a_tuple(void **state)
{
    (void)state;
    assert_repeat_gives("2,3f8", "('<f8', (2, 3))");
    assert_repeat_gives(" 2, 3 f8", "('<f8', (2, 3))");
}

/* '1f8' and '()f8' are f8 itself (NumPy 1.x), '00f8' a subarray of 0. */
static void test_repeat_of_one_or_nothing_is_the_type_itself(void **state)
{
    (void)state;
    assert_repeat_gives("1f8", "'<f8'");
    assert_repeat_gives("()f8", "'<f8'");
    assert_repeat_gives("00f8", "('<f8', (0,))");
}

/* Python 3 refuses leading zeros, as np.dtype('01f8') does; the error
 * points at the item's repeat. */
static void test_repeat_with_a_leading_zero_is_refused(void **state)
{
    (void)state;
    assert_repeat_refused("01f8", 128, 32, NPYDT_E_TYPE, 0,
                          "invalid repeat count '01' in type string");
    assert_repeat_refused("i4, 01f8", 128, 32, NPYDT_E_TYPE, 4,
                          "invalid repeat count '01' in type string");
}

static void test_repeat_that_is_no_python_literal_is_refused(void **state)
{
    (void)state;
    assert_repeat_refused("2 3f8", 128, 32, NPYDT_E_TYPE, 0,
                          "invalid repeat count '2 3' in type string");
    assert_repeat_refused("(2,f8", 128, 32, NPYDT_E_TYPE, 0,
                          "invalid repeat count '(2,' in type string");
    assert_repeat_refused("2)f8", 128, 32, NPYDT_E_TYPE, 0,
                          "invalid repeat count '2)' in type string");
}

/* An unsized type takes an integer repeat as its size, and no tuple. */
static void test_repeat_sets_the_size_of_an_unsized_type(void **state)
{
    (void)state;
    assert_repeat_gives("3S", "'|S3'");
    assert_repeat_refused("(3,)S", 128, 32, NPYDT_E_VALUE, 0,
                          "invalid itemsize in generic type tuple");
}

static void test_repeat_dimension_past_c_int_overflows(void **state)
{
    (void)state;
    assert_repeat_refused("(2147483648,)f8", 128, 32, NPYDT_E_OVERFLOW, 0,
                          "subarray dimension does not fit a C int");
    assert_repeat_refused("(2,99999999999999999999)f8", 128, 32, NPYDT_E_OVERFLOW, 0,
                          "subarray dimension does not fit a C int");
}

/* The limits hold as they do for a header's literal: the dimensions count
 * against max_ndim. (A parenthesis is a level of nesting, which every
 * max_depth allows: 0 is the default, 128.) */
static void test_repeat_keeps_the_depth_and_ndim_limits(void **state)
{
    (void)state;
    npydt_dtype *dt;
    npydt_error err;
    assert_int_equal(parse_with("(2,)f8", 0, 32, &dt, &err), NPYDT_OK);
    npydt_dtype_free(dt);
    assert_repeat_refused("(1,1,1)f8", 128, 2, NPYDT_E_LIMIT, 0,
                          "subarray has 3 dimensions, more than the limit of 2");
}

TEST_LIST("typestr_repeat",
    cmocka_unit_test(test_repeat_tuple_makes_a_subarray),
    cmocka_unit_test(test_repeat_integers_joined_by_commas_are_a_tuple),
    cmocka_unit_test(test_repeat_of_one_or_nothing_is_the_type_itself),
    cmocka_unit_test(test_repeat_with_a_leading_zero_is_refused),
    cmocka_unit_test(test_repeat_that_is_no_python_literal_is_refused),
    cmocka_unit_test(test_repeat_sets_the_size_of_an_unsized_type),
    cmocka_unit_test(test_repeat_dimension_past_c_int_overflows),
    cmocka_unit_test(test_repeat_keeps_the_depth_and_ndim_limits),
);

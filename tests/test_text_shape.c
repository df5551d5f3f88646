/* Python's spelling of a shape tuple (src/text/shape.c). */
#include "test_util.h"

#include <string.h>

#include "text/text.h"

static char out[256];

static const char *tuple(const uint64_t *dims, size_t ndim)
{
    struct text_buf b = text_buf_fixed(out, sizeof out);
    text_shape_tuple(&b, dims, ndim);
    text_buf_terminate(&b);
    return out;
}

static void test_text_shape_of_no_dimension_is_empty_tuple(void **state)
{
    (void)state;
    assert_string_equal(tuple(NULL, 0), "()");
}

static void test_text_shape_of_one_dimension_has_trailing_comma(void **state)
{
    (void)state;
    const uint64_t d[] = {3};
    assert_string_equal(tuple(d, 1), "(3,)");
}

static void test_text_shape_dimensions_separated_by_comma_space(void **state)
{
    (void)state;
    const uint64_t d[] = {2, 3, 0};
    assert_string_equal(tuple(d, 3), "(2, 3, 0)");
}

static void test_text_shape_spells_the_largest_dimension(void **state)
{
    (void)state;
    const uint64_t d[] = {UINT64_MAX};
    assert_string_equal(tuple(d, 1), "(18446744073709551615,)");
}

static void test_text_shape_signed_spells_minus_one(void **state)
{
    (void)state;
    const int64_t d[] = {-1, 4};
    struct text_buf b = text_buf_fixed(out, sizeof out);
    text_shape_tuple_signed(&b, d, 2);
    text_buf_terminate(&b);
    assert_string_equal(out, "(-1, 4)");
}

static void test_text_shape_measures_without_room(void **state)
{
    (void)state;
    const uint64_t d[] = {10, 20};
    struct text_buf b = text_buf_fixed(NULL, 0);
    text_shape_tuple(&b, d, 2);
    assert_int_equal(b.len, strlen("(10, 20)"));
}

TEST_LIST("text_shape",
          cmocka_unit_test(test_text_shape_of_no_dimension_is_empty_tuple),
          cmocka_unit_test(test_text_shape_of_one_dimension_has_trailing_comma),
          cmocka_unit_test(test_text_shape_dimensions_separated_by_comma_space),
          cmocka_unit_test(test_text_shape_spells_the_largest_dimension),
          cmocka_unit_test(test_text_shape_signed_spells_minus_one),
          cmocka_unit_test(test_text_shape_measures_without_room));

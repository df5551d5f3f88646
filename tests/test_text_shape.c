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

static void test_text_shape_read_gives_back_what_tuple_spells(void **state)
{
    (void)state;
    static const uint64_t shapes[][3] = {{0}, {3}, {2, 3}, {2, 0, 4}, {UINT64_MAX, 1, 0}};
    static const size_t ndims[] = {0, 1, 2, 3, 3};
    for (size_t i = 0; i < sizeof ndims / sizeof ndims[0]; i++) {
        uint64_t got[4];
        size_t n = 99;
        const char *t = tuple(shapes[i], ndims[i]);
        assert_true(text_shape_read(t, strlen(t), got, 4, &n));
        assert_int_equal(n, ndims[i]);
        if (n)
            assert_memory_equal(got, shapes[i], n * sizeof got[0]);
    }
}

static void test_text_shape_read_refuses_other_spellings(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",       "(",       ")",        "(3)",      "(3, )",     "(2,3)",     "(2, 3,)",
        "(,)",    "(-1,)",   "(01,)",    "( 3,)",    "(3,) ",     "[3]",       "(2,  3)",
        "(3,,)",  "(a,)",    "(18446744073709551616,)", "(1, 2, 3, 4, 5)",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t got[4];
        size_t n;
        if (text_shape_read(bad[i], strlen(bad[i]), got, 4, &n))
            fail_msg("'%s' read as a shape", bad[i]);
    }
}

TEST_LIST("text_shape",
          cmocka_unit_test(test_text_shape_of_no_dimension_is_empty_tuple),
          cmocka_unit_test(test_text_shape_of_one_dimension_has_trailing_comma),
          cmocka_unit_test(test_text_shape_dimensions_separated_by_comma_space),
          cmocka_unit_test(test_text_shape_spells_the_largest_dimension),
          cmocka_unit_test(test_text_shape_signed_spells_minus_one),
          cmocka_unit_test(test_text_shape_measures_without_room),
          cmocka_unit_test(test_text_shape_read_gives_back_what_tuple_spells),
          cmocka_unit_test(test_text_shape_read_refuses_other_spellings));

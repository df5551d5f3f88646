/* Messages of errno values (src/text/errno_text.c). */
#include "test_util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "text/text.h"

static void test_text_errno_is_strerror_text(void **state)
{
    (void)state;
    char want[TEXT_ERRNO_MAX];
    snprintf(want, sizeof want, "%s", strerror(ENOENT));
    assert_string_equal(TEXT_ERRNO(ENOENT), want);
}

static void test_text_errno_cuts_to_the_buffer(void **state)
{
    (void)state;
    char buf[6];
    const char *m = text_errno(ENOENT, buf, sizeof buf);
    assert_ptr_equal(m, buf);
    assert_int_equal(strlen(buf), sizeof buf - 1);
    assert_int_equal(strncmp(buf, strerror(ENOENT), sizeof buf - 1), 0);
}

static void test_text_errno_of_a_one_byte_buffer_is_empty(void **state)
{
    (void)state;
    char buf[1] = {'x'};
    assert_string_equal(text_errno(EACCES, buf, 1), "");
}

static void test_text_errno_of_an_unknown_value_names_the_number(void **state)
{
    (void)state;
    const char *m = TEXT_ERRNO(98765);
    assert_non_null(strstr(m, "98765"));
}

/* Each buffer is its caller's: messages asked for at once stay apart. */
static void test_text_errno_buffers_are_separate(void **state)
{
    (void)state;
    char a[TEXT_ERRNO_MAX], b[TEXT_ERRNO_MAX];
    text_errno(ENOENT, a, sizeof a);
    text_errno(EACCES, b, sizeof b);
    assert_string_not_equal(a, b);
    assert_int_equal(strncmp(a, strerror(ENOENT), sizeof a - 1), 0);
}

TEST_LIST("text_errno",
          cmocka_unit_test(test_text_errno_is_strerror_text),
          cmocka_unit_test(test_text_errno_cuts_to_the_buffer),
          cmocka_unit_test(test_text_errno_of_a_one_byte_buffer_is_empty),
          cmocka_unit_test(test_text_errno_of_an_unknown_value_names_the_number),
          cmocka_unit_test(test_text_errno_buffers_are_separate));

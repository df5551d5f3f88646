/* The text stage's UTF-8 and WTF-8 coder (src/text/utf8.c). */
#include "test_util.h"

#include <string.h>

#include "text/text.h"

static size_t decode(const char *s, uint32_t *cp)
{
    return text_utf8_decode((const unsigned char *)s, strlen(s), cp);
}

static void test_text_utf8_decodes_each_length(void **state)
{
    (void)state;
    uint32_t cp;
    assert_int_equal(decode("A", &cp), 1);
    assert_int_equal(cp, 0x41);
    assert_int_equal(decode("\xc3\xa9", &cp), 2);
    assert_int_equal(cp, 0xE9);
    assert_int_equal(decode("\xe2\x82\xac", &cp), 3);
    assert_int_equal(cp, 0x20AC);
    assert_int_equal(decode("\xf0\x9f\x98\x80", &cp), 4);
    assert_int_equal(cp, 0x1F600);
}

static void test_text_utf8_refuses_overlong_forms(void **state)
{
    (void)state;
    uint32_t cp;
    assert_int_equal(decode("\xc0\xaf", &cp), 0);
    assert_int_equal(decode("\xe0\x80\xaf", &cp), 0);
    assert_int_equal(decode("\xf0\x80\x80\xaf", &cp), 0);
}

static void test_text_utf8_refuses_beyond_10ffff(void **state)
{
    (void)state;
    uint32_t cp;
    assert_int_equal(decode("\xf4\x90\x80\x80", &cp), 0);
}

static void test_text_utf8_refuses_a_cut_sequence(void **state)
{
    (void)state;
    uint32_t cp;
    assert_int_equal(text_utf8_decode((const unsigned char *)"\xe2\x82\xac", 2, &cp), 0);
    assert_int_equal(decode("\xe2\x28\xac", &cp), 0);
    assert_int_equal(text_utf8_decode((const unsigned char *)"", 0, &cp), 0);
}

static void test_text_utf8_refuses_surrogates_wtf8_takes_them(void **state)
{
    (void)state;
    uint32_t cp = 0;
    const unsigned char lone[] = {0xed, 0xa0, 0x80};   /* U+D800 */
    assert_int_equal(text_utf8_decode(lone, 3, &cp), 0);
    assert_int_equal(text_wtf8_decode(lone, 3, &cp), 3);
    assert_int_equal(cp, 0xD800);
}

static void test_text_utf8_encode_round_trips(void **state)
{
    (void)state;
    const uint32_t cps[] = {0, 0x7F, 0x80, 0x7FF, 0x800, 0xD800, 0xFFFF, 0x10000, 0x10FFFF};
    for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
        char out[4];
        uint32_t back;
        size_t n = text_utf8_encode(cps[i], out);
        assert_int_equal(text_wtf8_decode((const unsigned char *)out, n, &back), n);
        assert_int_equal(back, cps[i]);
    }
}

static void test_text_utf8_cut_keeps_a_sequence_whole(void **state)
{
    (void)state;
    const char *s = "abc\xe2\x82\xac" "def";   /* the euro sign at bytes 3..5 */
    assert_int_equal(text_utf8_cut(s, strlen(s), 4), 3);
    assert_int_equal(text_utf8_cut(s, strlen(s), 6), 6);
    assert_int_equal(text_utf8_cut(s, strlen(s), 100), strlen(s));
}

static void test_text_utf8_cut_backs_over_at_most_three_bytes(void **state)
{
    (void)state;
    const char s[] = "a\x80\x80\x80\x80\x80";
    assert_int_equal(text_utf8_cut(s, sizeof s - 1, 5), 2);
}

TEST_LIST("text_utf8",
          cmocka_unit_test(test_text_utf8_decodes_each_length),
          cmocka_unit_test(test_text_utf8_refuses_overlong_forms),
          cmocka_unit_test(test_text_utf8_refuses_beyond_10ffff),
          cmocka_unit_test(test_text_utf8_refuses_a_cut_sequence),
          cmocka_unit_test(test_text_utf8_refuses_surrogates_wtf8_takes_them),
          cmocka_unit_test(test_text_utf8_encode_round_trips),
          cmocka_unit_test(test_text_utf8_cut_keeps_a_sequence_whole),
          cmocka_unit_test(test_text_utf8_cut_backs_over_at_most_three_bytes));

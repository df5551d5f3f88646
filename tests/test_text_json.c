/* JSON string escaping of the text stage (src/text/json_string.c). */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "text/text.h"

/* s escaped in mode, NUL-terminated in a static array */
static const char *escaped(const char *s, size_t len, enum text_json_mode mode)
{
    static char out[TEXT_JSON_ESCAPED_MAX(64) + 1];
    assert_true(len <= 64);
    out[text_json_escape_into(out, s, len, mode)] = '\0';
    return out;
}

static void test_text_json_printable_ascii_passes(void **state)
{
    (void)state;
    assert_string_equal(escaped("a b~", 4, TEXT_JSON_TEXT), "a b~");
}

static void test_text_json_short_escapes_as_json_dumps(void **state)
{
    (void)state;
    assert_string_equal(escaped("\"\\\b\f\n\r\t", 7, TEXT_JSON_TEXT), "\\\"\\\\\\b\\f\\n\\r\\t");
}

static void test_text_json_other_controls_and_del_as_u00xx(void **state)
{
    (void)state;
    assert_string_equal(escaped("\x01\x1f\x7f", 3, TEXT_JSON_TEXT), "\\u0001\\u001f\\u007f");
    assert_string_equal(escaped("\0", 1, TEXT_JSON_TEXT), "\\u0000");
}

static void test_text_json_utf8_passes_through(void **state)
{
    (void)state;
    assert_string_equal(escaped("\xc3\xa9\xe2\x82\xac", 5, TEXT_JSON_TEXT), "\xc3\xa9\xe2\x82\xac");
}

static void test_text_json_line_breaks_and_lone_surrogates_escaped(void **state)
{
    (void)state;
    assert_string_equal(escaped("\xc2\x85", 2, TEXT_JSON_TEXT), "\\u0085");
    assert_string_equal(escaped("\xe2\x80\xa8\xe2\x80\xa9", 6, TEXT_JSON_TEXT), "\\u2028\\u2029");
    assert_string_equal(escaped("\xed\xa0\x80", 3, TEXT_JSON_TEXT), "\\ud800");
}

static void test_text_json_bytes_mode_escapes_every_high_byte(void **state)
{
    (void)state;
    assert_string_equal(escaped("a\xc3\xa9\n", 4, TEXT_JSON_BYTES), "a\\u00c3\\u00a9\\n");
}

/* Bytes mode takes eight plain bytes at once: every byte value at every
 * place of plain text of 1 to 24 bytes (and next to a neighbour byte
 * value) escapes as it does alone. */
static void test_text_json_bytes_mode_in_words_escapes_each_byte_as_alone(void **state)
{
    (void)state;
    static char in[24], out[TEXT_JSON_ESCAPED_MAX(24)], want[TEXT_JSON_ESCAPED_MAX(24)];
    for (size_t len = 1; len <= sizeof in; len++) {
        for (size_t at = 0; at < len; at++) {
            for (int c = 0; c < 256; c++) {
                memset(in, 'a', len);
                in[at] = (char)c;
                if (at + 1 < len)
                    in[at + 1] = (char)(c ^ 0x80);
                size_t n = 0;
                for (size_t i = 0; i < len; i++)
                    n += text_json_escape_into(want + n, in + i, 1, TEXT_JSON_BYTES);
                assert_int_equal(text_json_escape_into(out, in, len, TEXT_JSON_BYTES), n);
                assert_memory_equal(out, want, n);
            }
        }
    }
}

/* An S field: every byte value at every place of letters of 0 to 24
 * bytes, followed by NULs up to fields of 1 to 24 bytes, escapes as its
 * bytes before the trailing NULs do, reading no byte past the field nor
 * writing past TEXT_JSON_ESCAPED_MAX(size) (both at the end of their
 * allocations: a sanitized build sees any access beyond). */
static void test_text_json_escape_field_as_its_bytes_before_trailing_nuls(void **state)
{
    (void)state;
    enum { MAX = 24 };
    unsigned char *field = malloc(MAX);
    char *out = malloc(TEXT_JSON_ESCAPED_MAX(MAX));
    char want[TEXT_JSON_ESCAPED_MAX(MAX)];
    assert_non_null(field);
    assert_non_null(out);
    for (size_t size = 1; size <= MAX; size++) {
        unsigned char *f = field + MAX - size;
        char *o = out + TEXT_JSON_ESCAPED_MAX(MAX) - TEXT_JSON_ESCAPED_MAX(size);
        for (size_t len = 0; len <= size; len++) {
            for (size_t at = 0; at <= len; at++) {   /* at == len: letters only */
                for (int c = 0; c < (at < len ? 256 : 1); c++) {
                    for (size_t i = 0; i < size; i++)
                        f[i] = i < len ? (unsigned char)('a' + i) : 0;
                    if (at < len)
                        f[at] = (unsigned char)c;
                    size_t n = len;
                    while (n > 0 && f[n - 1] == 0)
                        n--;
                    size_t w = text_json_escape_into(want, (const char *)f, n, TEXT_JSON_BYTES);
                    assert_int_equal(text_json_escape_field(o, f, size), w);
                    assert_memory_equal(o, want, w);
                }
            }
        }
    }
    free(field);
    free(out);
}

static void test_text_json_escape_field_of_nuls_is_empty(void **state)
{
    (void)state;
    static const unsigned char nuls[40];
    char out[TEXT_JSON_ESCAPED_MAX(40)];
    for (size_t size = 0; size <= sizeof nuls; size++)
        assert_int_equal(text_json_escape_field(out, nuls, size), 0);
}

static void test_text_json_escaped_max_bounds_the_worst_byte(void **state)
{
    (void)state;
    char out[TEXT_JSON_ESCAPED_MAX(1)];
    assert_int_equal(text_json_escape_into(out, "\x01", 1, TEXT_JSON_TEXT), sizeof out);
}

static void test_text_breaks_lines_names_c1_and_u2028(void **state)
{
    (void)state;
    assert_true(text_breaks_lines((const unsigned char *)"\xc2\x9f", 2));
    assert_true(text_breaks_lines((const unsigned char *)"\xe2\x80\xa9", 3));
    assert_false(text_breaks_lines((const unsigned char *)"\xc2\xa0", 2));
    assert_false(text_breaks_lines((const unsigned char *)"\xe2\x80", 2));
}

TEST_LIST("text_json",
          cmocka_unit_test(test_text_json_printable_ascii_passes),
          cmocka_unit_test(test_text_json_short_escapes_as_json_dumps),
          cmocka_unit_test(test_text_json_other_controls_and_del_as_u00xx),
          cmocka_unit_test(test_text_json_utf8_passes_through),
          cmocka_unit_test(test_text_json_line_breaks_and_lone_surrogates_escaped),
          cmocka_unit_test(test_text_json_bytes_mode_escapes_every_high_byte),
          cmocka_unit_test(test_text_json_bytes_mode_in_words_escapes_each_byte_as_alone),
          cmocka_unit_test(test_text_json_escape_field_as_its_bytes_before_trailing_nuls),
          cmocka_unit_test(test_text_json_escape_field_of_nuls_is_empty),
          cmocka_unit_test(test_text_json_escaped_max_bounds_the_worst_byte),
          cmocka_unit_test(test_text_breaks_lines_names_c1_and_u2028));

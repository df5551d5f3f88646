/* An npydt_error's path and message are text safe to log: names and type
 * strings from a hostile header reach them escaped (no control byte, no
 * line break, nothing that is not UTF-8), by the rule npydt_text_escape
 * gives programs; the raw names stay reachable through the accessors that
 * carry a length. */
#include "test_util.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* No byte of s is a control, DEL, or outside valid UTF-8; no C1 control
 * or U+2028/U+2029. */
static void assert_safe_text(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        assert_true(*p >= 0x20 && *p != 0x7f);
        size_t n = *p < 0x80 ? 1 : *p >= 0xc2 && *p < 0xe0 ? 2 : *p >= 0xe0 && *p < 0xf0 ? 3 : 4;
        assert_false(p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f);
        assert_false(p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9));
        for (size_t k = 1; k < n; k++)
            assert_true((p[k] & 0xc0) == 0x80);
        p += n;
    }
}

static npydt_status parse(const char *descr, npydt_dtype **dt, npydt_error *err)
{
    return npydt_header_parse_descr(descr, strlen(descr), NULL, dt, err);
}

static void test_error_escape_a_hostile_field_name_in_a_message(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    /* sets a terminal's title, twice: a duplicate name */
    assert_int_equal(parse("[('a\\x1b]0;x\\x07', '<f8'), ('a\\x1b]0;x\\x07', '<i4')]", &dt, &err),
                     NPYDT_E_NAME);
    assert_safe_text(err.message);
    assert_string_equal(err.message, "field name 'a\\x1b]0;x\\a' already used as a name or title");
}

static void test_error_escape_a_hostile_type_string_in_a_message(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse("[('x', '<f8\\x1b[2J\\n')]", &dt, &err), NPYDT_E_TYPE);
    assert_safe_text(err.message);
    assert_string_equal(err.message, "data type '<f8\\x1b[2J\\n' not understood");
    assert_string_equal(err.path, "x");
}

static void test_error_escape_hostile_names_in_a_path(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    /* a line break, and a C1 control (CSI) */
    assert_int_equal(parse("[('x', '<f8'), ('y\\n', [('z\\x9b', 'q8')])]", &dt, &err),
                     NPYDT_E_TYPE);
    assert_safe_text(err.path);
    assert_string_equal(err.path, "y\\n.z\\u009b");
}

static void test_error_escape_bytes_that_are_not_utf8_in_a_path(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('x', '<f8')]");
    TEST_ERROR(err);
    uint64_t off;
    const npydt_dtype *f;
    assert_int_equal(npydt_field_lookup(dt, "x\xff\xc2\n", &off, &f, &err), NPYDT_E_NOT_FOUND);
    assert_safe_text(err.path);
    assert_safe_text(err.message);
    assert_string_equal(err.path, "x\\xff\\xc2\\n");
    npydt_dtype_free(dt);
}

static void test_error_escape_a_nul_in_a_name_is_still_backslash_x00(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse("[('a\\x00', '<f8'), ('b', [('c', 'q8')])]", &dt, &err), NPYDT_E_TYPE);
    assert_string_equal(err.path, "b.c");
    assert_int_equal(parse("[('x', '<f8'), ('a\\x00', 'q8')]", &dt, &err), NPYDT_E_TYPE);
    assert_string_equal(err.path, "a\\x00");
}

static void test_error_escape_the_writer_names_a_hostile_path_escaped(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('t', 'u1')]");
    uint64_t shape[1] = {0};
    npydt_writer *w;
    TEST_ERROR(err);
    char path[64];
    snprintf(path, sizeof path, "/tmp/npydt-error-escape-%ld.npy", (long)getpid());
    assert_int_equal(npydt_writer_create_path(path, dt, shape, 1, NULL, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_set_i64(w, "t", 300, &err), NPYDT_E_RANGE);
    assert_string_equal(err.path, "t");
    assert_int_equal(npydt_writer_set_i64(w, "\x1b[2J", 1, &err), NPYDT_E_NOT_FOUND);
    assert_safe_text(err.path);
    assert_safe_text(err.message);
    npydt_writer_discard(w, NULL);
    npydt_dtype_free(dt);
}

static void test_error_escape_raw_names_stay_reachable_with_their_length(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('t\\x1b[2J\\x00', '<f8')]");
    assert_int_equal(npydt_dtype_field_name_len(dt, 0), 6);
    assert_memory_equal(npydt_dtype_field_name(dt, 0), "t\x1b[2J\0", 6);
    char path[16];
    assert_int_equal(npydt_dtype_leaf_path(dt, 0, path, sizeof path), 6);
    assert_memory_equal(path, "t\x1b[2J\0", 6);
    npydt_dtype_free(dt);
}

static void test_error_escape_text_escape_is_the_rule_of_the_errors(void **state)
{
    (void)state;
    char buf[64];
    const char raw[] = "a\x1b]0;x\x07\n\x9b\xc2\x85\xe2\x80\xa8\xff" "\xc3\xa9\\";
    size_t whole = npydt_text_escape(raw, sizeof raw - 1, buf, sizeof buf);
    assert_string_equal(buf, "a\\x1b]0;x\\a\\n\\x9b\\u0085\\u2028\\xff\xc3\xa9\\");
    assert_int_equal(whole, strlen(buf));
    /* escaped text escapes to itself */
    char again[64];
    assert_int_equal(npydt_text_escape(buf, whole, again, sizeof again), whole);
    assert_string_equal(again, buf);
    /* a short buffer: whole escapes only, the length still the whole one */
    char small[3];
    assert_int_equal(npydt_text_escape("a\n", 2, small, sizeof small), 3);
    assert_string_equal(small, "a");
    assert_int_equal(npydt_text_escape("ab", 2, NULL, 0), 2);
}

TEST_LIST("error_escape",
    cmocka_unit_test(test_error_escape_a_hostile_field_name_in_a_message),
    cmocka_unit_test(test_error_escape_a_hostile_type_string_in_a_message),
    cmocka_unit_test(test_error_escape_hostile_names_in_a_path),
    cmocka_unit_test(test_error_escape_bytes_that_are_not_utf8_in_a_path),
    cmocka_unit_test(test_error_escape_a_nul_in_a_name_is_still_backslash_x00),
    cmocka_unit_test(test_error_escape_the_writer_names_a_hostile_path_escaped),
    cmocka_unit_test(test_error_escape_raw_names_stay_reachable_with_their_length),
    cmocka_unit_test(test_error_escape_text_escape_is_the_rule_of_the_errors),
);

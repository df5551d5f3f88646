/* Edges of the parse entry points that neither the fixtures nor the error
 * table reach: every string escape, raw strings, invalid arguments, limits
 * raised and lowered, sizes at the C int boundary, dtype comparison, and
 * printing of names that need escapes. */
#include "test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static npydt_dtype *parse_ok(const char *text, const npydt_options *opts)
{
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    npydt_status st = npydt_header_parse_descr(text, strlen(text), opts, &dt, &err);
    if (st != NPYDT_OK)
        fail_msg("%s: %s at %zu: %s", text, npydt_status_name(st), err.offset, err.message);
    return dt;
}

static npydt_status parse_status(const char *text, const npydt_options *opts, npydt_error *err)
{
    npydt_dtype *dt = NULL;
    npydt_status st = npydt_header_parse_descr(text, strlen(text), opts, &dt, err);
    npydt_dtype_free(dt);
    return st;
}

/* ---- strings ------------------------------------------------------------------- */

static void test_parse_edges_every_simple_escape_decodes(void **state)
{
    (void)state;
    npydt_dtype *dt = parse_ok("[('\\\\\\'\\\"\\a\\b\\f\\n\\r\\t\\v', '<f8')]", NULL);
    assert_string_equal(npydt_dtype_field_name(dt, 0), "\\'\"\a\b\f\n\r\t\v");
    npydt_dtype_free(dt);
}

static void test_parse_edges_numeric_escapes_decode(void **state)
{
    (void)state;
    npydt_dtype *dt = parse_ok("[('\\101\\x4A\\x4b\\u00E9\\U0001F600\\060', '<f8')]", NULL);
    assert_string_equal(npydt_dtype_field_name(dt, 0), "AJK\xc3\xa9\xf0\x9f\x98\x80" "0");
    npydt_dtype_free(dt);
}

static void test_parse_edges_line_continuation_inside_string(void **state)
{
    (void)state;
    npydt_dtype *dt = parse_ok("[('ab\\\ncd\\\r\nef', '<f8')]", NULL);
    assert_string_equal(npydt_dtype_field_name(dt, 0), "abcdef");
    npydt_dtype_free(dt);
}

static void test_parse_edges_unknown_escape_is_kept(void **state)
{
    (void)state;
    npydt_dtype *dt = parse_ok("[('\\q\\8', '<f8')]", NULL);
    assert_string_equal(npydt_dtype_field_name(dt, 0), "\\q\\8");
    npydt_dtype_free(dt);
}

static void test_parse_edges_raw_string_keeps_backslashes(void **state)
{
    (void)state;
    npydt_dtype *dt = parse_ok("[(r'a\\'b\\\\', '<f8'), (R\"\\x\", 'u1')]", NULL);
    assert_string_equal(npydt_dtype_field_name(dt, 0), "a\\'b\\\\");
    assert_string_equal(npydt_dtype_field_name(dt, 1), "\\x");
    npydt_dtype_free(dt);
}

/* In a raw string, a backslash before a multi-byte character stays a
 * backslash and the character stays whole (splitting it would leave the
 * lexer without progress). */
static void test_parse_edges_raw_backslash_before_utf8(void **state)
{
    (void)state;
    npydt_dtype *dt = parse_ok("[(r'\\\xc3\xa9', '<f8')]", NULL);
    assert_string_equal(npydt_dtype_field_name(dt, 0), "\\\xc3\xa9");
    npydt_dtype_free(dt);
}

static void test_parse_edges_raw_backslash_before_latin1_in_version1(void **state)
{
    (void)state;
    const char hdr[] = "{'descr': [(r'\\\xe9', '<f8')], 'fortran_order': False, 'shape': (0,), }\n";
    unsigned char buf[256] = "\x93NUMPY\x01\x00";
    buf[8] = (unsigned char)(sizeof hdr - 1);
    memcpy(buf + 10, hdr, sizeof hdr - 1);
    npydt_header *h = NULL;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_parse(buf, 10 + sizeof hdr - 1, NULL, &h, &err), NPYDT_OK);
    /* latin-1 0xE9 is U+00E9, kept as UTF-8 after the backslash */
    assert_string_equal(npydt_dtype_field_name(npydt_header_dtype(h), 0), "\\\xc3\xa9");
    npydt_header_free(h);
}

static void test_parse_edges_bytes_literals_are_not_descriptors(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "b'<f8'", "B'\\u00e9'", "b'\\N{DASH}'", "rb'\\x'", "bR'a' b'b'", "b'\\x41\\101'",
        "b'\\x80\\xff\\777'",   /* Python takes any byte escape */
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        TEST_ERROR(err);
        if (parse_status(texts[i], NULL, &err) != NPYDT_E_VALUE)
            fail_msg("%s: %s", texts[i], err.message);
    }
}

static void test_parse_edges_mixing_bytes_and_str_is_syntax_error(void **state)
{
    (void)state;
    TEST_ERROR(err);
    assert_int_equal(parse_status("b'a' 'b'", NULL, &err), NPYDT_E_SYNTAX);
    assert_int_equal(err.offset, 5);
    assert_int_equal(parse_status("'a' \"b\" b'c'", NULL, &err), NPYDT_E_SYNTAX);
    assert_int_equal(err.offset, 8);
}

static void test_parse_edges_adjacent_strings_join(void **state)
{
    (void)state;
    npydt_dtype *dt = parse_ok("[('a' \"b\" '''c''' \"\"\"d\"\"\" u'e', '<' 'f' '8')]", NULL);
    assert_string_equal(npydt_dtype_field_name(dt, 0), "abcde");
    assert_int_equal(npydt_dtype_itemsize(npydt_dtype_field_dtype(dt, 0)), 8);
    npydt_dtype_free(dt);
}

/* ---- arguments and options -------------------------------------------------------- */

static void test_parse_edges_null_arguments_are_arg_errors(void **state)
{
    (void)state;
    TEST_ERROR(err);
    npydt_header *h = NULL;
    npydt_dtype *dt = NULL;
    assert_fails(NPYDT_E_ARG, &err, npydt_header_parse("x", 1, NULL, NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_header_parse(NULL, 4, NULL, &h, &err));
    assert_null(h);
    assert_fails(NPYDT_E_ARG, &err, npydt_header_parse_descr(NULL, 3, NULL, &dt, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_dtype_parse_typestr(NULL, 3, NULL, &dt, &err));
    assert_null(dt);
    assert_fails(NPYDT_E_ARG, &err, npydt_parse_fd(0, NULL, NULL, &err));
    assert_int_equal(npydt_header_write(NULL, NULL, 0, 0, NULL, 0, &err), 0);
    assert_int_equal(err.code, NPYDT_E_ARG);
}

static void test_parse_edges_allocator_without_free_is_arg_error(void **state)
{
    (void)state;
    struct test_alloc t;
    test_alloc_init(&t, -1, 0);
    t.alloc.free = NULL;
    npydt_options opts;
    npydt_options_init(&opts);
    opts.allocator = &t.alloc;
    TEST_ERROR(err);
    assert_int_equal(parse_status("'<f8'", &opts, &err), NPYDT_E_ARG);
    assert_int_equal(t.calls, 0);
}

static void test_parse_edges_max_depth_above_ceiling_refused_by_every_entry(void **state)
{
    (void)state;
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_depth = 100000;
    TEST_ERROR(err);
    npydt_header *h = NULL;
    unsigned char file[16] = "\x93NUMPY\x01\x00";
    assert_fails(NPYDT_E_ARG, &err, npydt_header_parse(file, sizeof file, &opts, &h, &err));
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_parse_path(test_fixture("scalar_b1.npy"), &opts, &h, &err));
    assert_null(h);
}

static void test_parse_edges_bad_descriptors_are_io_errors(void **state)
{
    (void)state;
    TEST_ERROR(err);
    npydt_header *h = NULL;
    assert_fails(NPYDT_E_IO, &err, npydt_parse_fd(-1, NULL, &h, &err));
    int fd = open(".", O_RDONLY);
    assert_true(fd >= 0);
    assert_fails(NPYDT_E_IO, &err, npydt_parse_fd(fd, NULL, &h, &err));   /* a directory */
    close(fd);
    assert_null(h);
}

static void test_parse_edges_nul_in_type_string_is_encoding_error(void **state)
{
    (void)state;
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ENCODING, &err, npydt_dtype_parse_typestr("<f8\0x", 5, NULL, &dt, &err));
    assert_int_equal(err.offset, 3);
    assert_null(dt);
}

static void test_parse_edges_max_fields_counts_nested_fields(void **state)
{
    (void)state;
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_fields = 3;
    TEST_ERROR(err);
    npydt_dtype_free(parse_ok("[('a', [('b', 'u1'), ('c', 'u1')])]", &opts));
    assert_int_equal(parse_status("[('a', [('b', 'u1'), ('c', 'u1')]), ('d', 'u1')]", &opts, &err),
                     NPYDT_E_LIMIT);
}

static void test_parse_edges_raised_max_ndim_allows_40_dimensions(void **state)
{
    (void)state;
    char text[256] = "('<f8', (";
    for (int i = 0; i < 40; i++)
        strcat(text, "1, ");
    strcat(text, "))");
    npydt_options opts;
    npydt_options_init(&opts);
    TEST_ERROR(err);
    assert_int_equal(parse_status(text, &opts, &err), NPYDT_E_LIMIT);
    opts.limits.max_ndim = 40;
    npydt_dtype *dt = parse_ok(text, &opts);
    assert_int_equal(npydt_dtype_ndim(dt), 40);
    assert_int_equal(npydt_dtype_itemsize(dt), 8);
    npydt_dtype_free(dt);
}

static void test_parse_edges_unicode_size_beyond_c_int_overflows(void **state)
{
    (void)state;
    TEST_ERROR(err);
    assert_int_equal(parse_status("('U', 536870912)", NULL, &err), NPYDT_E_OVERFLOW);
    npydt_dtype *dt = parse_ok("('U', 536870911)", NULL);
    assert_int_equal(npydt_dtype_itemsize(dt), 2147483644u);
    npydt_dtype_free(dt);
}

static void test_parse_edges_struct_beyond_c_int_overflows(void **state)
{
    (void)state;
    TEST_ERROR(err);
    assert_int_equal(parse_status("[('a', 'S2147483647'), ('b', 'u1')]", NULL, &err),
                     NPYDT_E_OVERFLOW);
    assert_int_equal(parse_status("('S2147483647', 2)", NULL, &err), NPYDT_E_OVERFLOW);
}

/* ---- comparison and printing -------------------------------------------------------- */

static void test_parse_edges_equal_tells_shapes_fields_titles_apart(void **state)
{
    (void)state;
    static const char *const pairs[][2] = {
        {"('<f8', (2, 3))", "('<f8', (6,))"},
        {"('<f8', (2, 3))", "('<f8', (3, 2))"},
        {"[('a', 'u1')]", "[('a', 'u1'), ('b', 'u1')]"},
        {"[('a', 'u2')]", "[('a', 'u1'), ('b', 'u1')]"},
        {"[('a', 'u1')]", "[(('t', 'a'), 'u1')]"},
        {"[('a', 'u1')]", "[('b', 'u1')]"},
        {"[('a', 'u1'), ('b', 'u1')]", "[('a', 'u1'), ('', '|V1'), ('b', 'u1')]"},
        {"'<M8[s]'", "'<M8[2s]'"},
        {"'<f8'", "'>f8'"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        npydt_dtype *a = parse_ok(pairs[i][0], NULL), *b = parse_ok(pairs[i][1], NULL);
        if (npydt_dtype_equal(a, b) || npydt_dtype_equal(b, a))
            fail_msg("%s == %s", pairs[i][0], pairs[i][1]);
        npydt_dtype_free(a);
        npydt_dtype_free(b);
    }
}

static void test_parse_edges_names_print_with_python_escapes(void **state)
{
    (void)state;
    /* both quotes, newline, carriage return, a non-printable astral code point */
    npydt_dtype *dt = parse_ok("[('a\\'b\"\\n\\r\\U000e0001', '<f8')]", NULL);
    char buf[128];
    npydt_dtype_descr(dt, buf, sizeof buf);
    assert_string_equal(buf, "[('a\\'b\"\\n\\r\\U000e0001', '<f8')]");
    npydt_dtype_free(dt);
}

static void test_parse_edges_title_beyond_latin1_writes_version3(void **state)
{
    (void)state;
    npydt_dtype *dt = parse_ok("[(('\\u0100', 'a'), '<f8')]", NULL);
    unsigned char buf[256];
    TEST_ERROR(err);
    size_t n = npydt_header_write(dt, NULL, 0, 0, buf, sizeof buf, &err);
    assert_true(n > 0 && n <= sizeof buf);
    assert_int_equal(buf[6], 3);
    npydt_dtype_free(dt);
}

static void test_parse_edges_bad_hex_digit_is_syntax_error(void **state)
{
    (void)state;
    TEST_ERROR(err);
    assert_int_equal(parse_status("[('a\\x4g', '<f8')]", NULL, &err), NPYDT_E_SYNTAX);
    assert_int_equal(err.offset, 4);   /* the backslash */
}

static void test_parse_edges_truncated_utf8_at_end_is_encoding_error(void **state)
{
    (void)state;
    TEST_ERROR(err);
    assert_int_equal(parse_status("'<f8' #\xe2\x82", NULL, &err), NPYDT_E_ENCODING);
    assert_int_equal(err.offset, 7);
}

static void test_parse_edges_65_nested_subarrays_is_limit_error(void **state)
{
    (void)state;
    /* every level but the innermost keeps its own repeat: 64 is the most */
    char text[2048] = "";
    for (int i = 0; i < 66; i++)
        strcat(text, "(");
    strcat(text, "'u1'");
    for (int i = 0; i < 66; i++)
        strcat(text, ", 1)");
    TEST_ERROR(err);
    /* (x, 1) is x itself: no subarray at all */
    npydt_dtype_free(parse_ok(text, NULL));
    text[0] = '\0';
    for (int i = 0; i < 66; i++)
        strcat(text, "(");
    strcat(text, "'u1'");
    for (int i = 0; i < 66; i++)
        strcat(text, ", (1,))");
    assert_int_equal(parse_status(text, NULL, &err), NPYDT_E_LIMIT);
}

static void test_parse_edges_huge_datetime_multiplier_is_unit_error(void **state)
{
    (void)state;
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    const char *t = "M8[99999999999999999999999s]";
    assert_fails(NPYDT_E_UNIT, &err, npydt_dtype_parse_typestr(t, strlen(t), NULL, &dt, &err));
    assert_null(dt);
}

static void test_parse_edges_long_type_in_comma_string_is_type_error(void **state)
{
    (void)state;
    char t[512] = "i4, ";
    memset(t + 4, 'f', 300);
    t[304] = '\0';
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_TYPE, &err, npydt_dtype_parse_typestr(t, strlen(t), NULL, &dt, &err));
}

static void test_parse_edges_comma_struct_beyond_c_int_overflows(void **state)
{
    (void)state;
    const char *t = "S2147483647, u1";
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_OVERFLOW, &err, npydt_dtype_parse_typestr(t, strlen(t), NULL, &dt, &err));
}

static void test_parse_edges_every_status_has_its_own_name(void **state)
{
    (void)state;
    for (int a = NPYDT_OK; a <= NPYDT_E_ARCHIVE; a++) {
        const char *na = npydt_status_name((npydt_status)a);
        assert_string_not_equal(na, "unknown error");
        for (int b = NPYDT_OK; b < a; b++)
            assert_string_not_equal(na, npydt_status_name((npydt_status)b));
    }
    assert_string_equal(npydt_status_name((npydt_status)99), "unknown error");
    assert_string_equal(npydt_unit_name((npydt_unit)99), "");
    assert_string_equal(npydt_unit_name(NPYDT_UNIT_NONE), "");
}

static void test_parse_edges_nested_name_beyond_latin1_writes_version3(void **state)
{
    (void)state;
    npydt_dtype *dt = parse_ok("[('a', [('\\u0100', 'u1')])]", NULL);
    unsigned char buf[256];
    TEST_ERROR(err);
    size_t n = npydt_header_write(dt, NULL, 0, 0, buf, sizeof buf, &err);
    assert_true(n > 0 && n <= sizeof buf);
    assert_int_equal(buf[6], 3);
    npydt_dtype_free(dt);
}

static void test_parse_edges_data_end_beyond_int64_overflows(void **state)
{
    (void)state;
    /* (2^60 - 1) * 8 bytes fit 63 bits, but not once the data offset is added */
    const char hdr[] = "{'descr': '<f8', 'fortran_order': False, 'shape': (1152921504606846975,), }\n";
    unsigned char buf[128] = "\x93NUMPY\x01\x00";
    buf[8] = (unsigned char)(sizeof hdr - 1);
    memcpy(buf + 10, hdr, sizeof hdr - 1);
    npydt_header *h = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_OVERFLOW, &err,
                 npydt_header_parse(buf, 10 + sizeof hdr - 1, NULL, &h, &err));
    assert_null(h);
    buf[10 + 52] = '4';   /* 1452921504606846975 * 8 does not fit 63 bits at all */
    assert_fails(NPYDT_E_OVERFLOW, &err,
                 npydt_header_parse(buf, 10 + sizeof hdr - 1, NULL, &h, &err));
}

TEST_LIST("parse_edges",
    cmocka_unit_test(test_parse_edges_every_simple_escape_decodes),
    cmocka_unit_test(test_parse_edges_numeric_escapes_decode),
    cmocka_unit_test(test_parse_edges_line_continuation_inside_string),
    cmocka_unit_test(test_parse_edges_unknown_escape_is_kept),
    cmocka_unit_test(test_parse_edges_raw_string_keeps_backslashes),
    cmocka_unit_test(test_parse_edges_raw_backslash_before_utf8),
    cmocka_unit_test(test_parse_edges_raw_backslash_before_latin1_in_version1),
    cmocka_unit_test(test_parse_edges_bytes_literals_are_not_descriptors),
    cmocka_unit_test(test_parse_edges_mixing_bytes_and_str_is_syntax_error),
    cmocka_unit_test(test_parse_edges_adjacent_strings_join),
    cmocka_unit_test(test_parse_edges_null_arguments_are_arg_errors),
    cmocka_unit_test(test_parse_edges_allocator_without_free_is_arg_error),
    cmocka_unit_test(test_parse_edges_max_depth_above_ceiling_refused_by_every_entry),
    cmocka_unit_test(test_parse_edges_bad_descriptors_are_io_errors),
    cmocka_unit_test(test_parse_edges_nul_in_type_string_is_encoding_error),
    cmocka_unit_test(test_parse_edges_max_fields_counts_nested_fields),
    cmocka_unit_test(test_parse_edges_raised_max_ndim_allows_40_dimensions),
    cmocka_unit_test(test_parse_edges_unicode_size_beyond_c_int_overflows),
    cmocka_unit_test(test_parse_edges_struct_beyond_c_int_overflows),
    cmocka_unit_test(test_parse_edges_equal_tells_shapes_fields_titles_apart),
    cmocka_unit_test(test_parse_edges_names_print_with_python_escapes),
    cmocka_unit_test(test_parse_edges_title_beyond_latin1_writes_version3),
    cmocka_unit_test(test_parse_edges_bad_hex_digit_is_syntax_error),
    cmocka_unit_test(test_parse_edges_truncated_utf8_at_end_is_encoding_error),
    cmocka_unit_test(test_parse_edges_65_nested_subarrays_is_limit_error),
    cmocka_unit_test(test_parse_edges_huge_datetime_multiplier_is_unit_error),
    cmocka_unit_test(test_parse_edges_long_type_in_comma_string_is_type_error),
    cmocka_unit_test(test_parse_edges_comma_struct_beyond_c_int_overflows),
    cmocka_unit_test(test_parse_edges_every_status_has_its_own_name),
    cmocka_unit_test(test_parse_edges_nested_name_beyond_latin1_writes_version3),
    cmocka_unit_test(test_parse_edges_data_end_beyond_int64_overflows),
);

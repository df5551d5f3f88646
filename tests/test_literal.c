/* The header literal: Python's syntax, as far as a header can use it. */
#include "test_util.h"

#include "literal/literal.h"   /* the syntax tree, for integers past 64 bits */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A complete file around header text, with enough zero data bytes. */
static npydt_status parse_header(const char *text, int major, const npydt_options *opts,
                                 npydt_header **h, npydt_error *err)
{
    size_t n = strlen(text), pre = major == 1 ? 10 : 12;
    unsigned char *b = calloc(1, pre + n + 4096);
    assert_non_null(b);
    memcpy(b, "\x93NUMPY", 6);
    b[6] = (unsigned char)major;
    b[8] = (unsigned char)(n & 0xff);
    b[9] = (unsigned char)(n >> 8);
    memcpy(b + pre, text, n);
    npydt_status st = npydt_header_parse(b, pre + n + 4096, opts, h, err);
    free(b);
    return st;
}

static void test_literal_escapes_decode(void **state)
{
    (void)state;
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(parse_header("{'descr': '\\x3cf8', 'fortran_order': False, 'shape': (1,)}", 1,
                                  NULL, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_dtype_byteorder(npydt_header_dtype(h)), '<');
    npydt_header_free(h);
}

static void test_literal_adjacent_strings_concatenate(void **state)
{
    (void)state;
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(parse_header("{'descr': '>' \"f\" '''8''', 'fortran_order': False, 'shape': (1,)}",
                                  1, NULL, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_dtype_byteorder(npydt_header_dtype(h)), '>');
    npydt_header_free(h);
}

static void test_literal_raw_and_unicode_prefixes(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[(r'a\\b', u'<i4')]");
    assert_string_equal(npydt_dtype_field_name(dt, 0), "a\\b");
    npydt_dtype_free(dt);
}

/* Python reads CR and CRLF in source text as one newline, also inside a
 * triple-quoted string (a single-quoted one cannot hold a line break). */
static void test_literal_carriage_returns_in_triple_quoted_strings_become_newlines(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('''a\rb''', '<i4'), ('''c\r\nd\r''', '<i4'), "
                                         "(r'''e\\\r\nf''', '<i4')]");
    assert_string_equal(npydt_dtype_field_name(dt, 0), "a\nb");
    assert_string_equal(npydt_dtype_field_name(dt, 1), "c\nd\n");
    assert_string_equal(npydt_dtype_field_name(dt, 2), "e\\\nf");
    npydt_dtype_free(dt);
    TEST_ERROR(err);
    assert_fails(NPYDT_E_SYNTAX, &err,
                 npydt_header_parse_descr("[('a\rb', '<i4')]", 16, NULL, &dt, &err));
}

/* Comments and line continuations end at CR as well as LF, as Python's
 * tokenizer reads a lone CR as a newline. */
static void test_literal_carriage_return_ends_comments_and_continuations(void **state)
{
    (void)state;
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(parse_header("{'descr': '<i4', # c\r 'fortran_order': False, 'shape': (2,), }",
                                  1, NULL, &h, &err), NPYDT_OK);
    npydt_header_free(h);
    assert_int_equal(parse_header("{'descr': '<i4', \\\r 'fortran_order': False, 'shape': (2,), }",
                                  1, NULL, &h, &err), NPYDT_OK);
    npydt_header_free(h);
    assert_int_equal(parse_header("{'descr': '<i4', \\\r\n 'fortran_order': False, 'shape': (2,), }",
                                  1, NULL, &h, &err), NPYDT_OK);
    npydt_header_free(h);
}

static void test_literal_long_suffix_only_in_versions_1_and_2(void **state)
{
    (void)state;
    const char *text = "{'descr': '<f8', 'fortran_order': False, 'shape': (3L, 2 L)}";
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(parse_header(text, 1, NULL, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_header_count(h), 6);
    npydt_header_free(h);
    assert_int_equal(parse_header(text, 2, NULL, &h, &err), NPYDT_OK);
    npydt_header_free(h);
    assert_int_equal(parse_header(text, 3, NULL, &h, &err), NPYDT_E_SYNTAX);
    assert_int_equal(err.offset, 52);
}

static void test_literal_comments_and_line_continuations(void **state)
{
    (void)state;
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(parse_header("{'descr': '<f8', # the type\n 'fortran_order': False, \\\n"
                                  "'shape': (3,)}  # done\n", 1, NULL, &h, &err), NPYDT_OK);
    npydt_header_free(h);
}

static void test_literal_integer_spellings(void **state)
{
    (void)state;
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(parse_header("{'descr': '<f8', 'fortran_order': False, "
                                  "'shape': (0x10, 1_0, 0o7, 0b1, +2, 00)}", 1, NULL, &h, &err),
                     NPYDT_OK);
    const uint64_t *s = npydt_header_shape(h);
    assert_int_equal(s[0], 16);
    assert_int_equal(s[1], 10);
    assert_int_equal(s[2], 7);
    assert_int_equal(s[3], 1);
    assert_int_equal(s[4], 2);
    assert_int_equal(s[5], 0);
    npydt_header_free(h);
}

static void test_literal_bool_in_shape_is_refused_as_np_load_refuses_it(void **state)
{
    (void)state;
    npydt_header *h;
    TEST_ERROR(err);
    const char *text = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, False)}";
    assert_int_equal(parse_header(text, 1, NULL, &h, &err), NPYDT_E_VALUE);
    assert_int_equal(err.offset, (size_t)(strstr(text, "False)") - text));
    assert_non_null(strstr(err.message, "not False"));
}

static void test_literal_leading_spaces_allowed_but_indented_first_line_is_not(void **state)
{
    (void)state;
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(parse_header("  {'descr': '<f8', 'fortran_order': False, 'shape': ()}", 1,
                                  NULL, &h, &err), NPYDT_OK);
    npydt_header_free(h);
    assert_int_equal(parse_header("\n{'descr': '<f8', 'fortran_order': False, 'shape': ()}", 1,
                                  NULL, &h, &err), NPYDT_OK);
    npydt_header_free(h);
    assert_int_equal(parse_header("\n  {'descr': '<f8', 'fortran_order': False, 'shape': ()}", 1,
                                  NULL, &h, &err), NPYDT_E_SYNTAX);
    assert_string_equal(err.message, "unexpected indent");
}

static void test_literal_latin1_names_in_version_1_become_utf8(void **state)
{
    (void)state;
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(parse_header("{'descr': [('\xe9', '<f8')], 'fortran_order': False, 'shape': ()}",
                                  1, NULL, &h, &err), NPYDT_OK);
    assert_string_equal(npydt_dtype_field_name(npydt_header_dtype(h), 0), "\xc3\xa9");
    npydt_header_free(h);
}

static void test_literal_syntax_errors_name_what_was_expected(void **state)
{
    (void)state;
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(parse_header("{'descr': '<f8' 'fortran_order': False}", 1, NULL, &h, &err),
                     NPYDT_E_SYNTAX);
    assert_int_equal(err.offset, 31);
    assert_string_equal(err.message, "expected '}' or ',', found ':'");
}

/* The lexer reads np.save's common runs whole (a list of pairs, a run of
 * pairs, a pair with a shape, a shape, "('name', ", a top-level 'key':
 * value entry with its ','); a syntax error right after one, or inside a
 * list it began to read whole, is reported as after the same text read
 * token by token: same offset, same expected tokens. */
static void test_literal_composite_tokens_err_as_tokens_one_by_one(void **state)
{
    (void)state;
    static const struct { const char *text; size_t offset; const char *message; } cases[] = {
        {"{'descr': [('a', '<f8'), ('b', '<i4') u'x'], 'fortran_order': False, 'shape': ()}",
         38, "unexpected string"},
        {"{'descr': [('a', '<f8'), ('b', '<i4', (2,)) : 1], 'fortran_order': False, "
         "'shape': ()}", 44, "expected end of header, ']', ')' or ',', found ':'"},
        {"{'descr': [('a', [('b', '<f8'), ('c', '<f8')] : 1)], 'fortran_order': False, "
         "'shape': ()}", 46, "expected end of header, ']', ')' or ',', found ':'"},
        {"{'descr': ('<f8', (2, 3) 4), 'fortran_order': False, 'shape': ()}", 25,
         "unexpected integer"},
        {"{'descr': '<f8', 'fortran_order': False, : 1, 'shape': ()}", 41, "unexpected ':'"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (3,) 'x'}", 55,
         "unexpected string"},
        {"{'descr': [('a', '<f8'), ('b', '<i4')), 'fortran_order': False, 'shape': ()}", 37,
         "expected ']' or ',', found ')'"},
        {"{'descr': [('a', '<f8') 'x'], 'fortran_order': False, 'shape': ()}", 24,
         "unexpected string"},
        {"{'descr': [('a', '<f8'), ('b', [('c', '<i4')]), 'fortran_order': False, 'shape': ()}",
         63, "expected end of header, ']', ')' or ',', found ':'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        npydt_header *h;
        TEST_ERROR(err);
        assert_int_equal(parse_header(cases[i].text, 1, NULL, &h, &err), NPYDT_E_SYNTAX);
        assert_int_equal(err.offset, cases[i].offset);
        assert_string_equal(err.message, cases[i].message);
    }
}

/* ('name', 'type') as np.save writes it is read in one step; an error at
 * such an entry is reported as one at its '(' would be, and the entry
 * means what any spacing of it means. */
static void test_literal_name_type_pairs_err_at_their_paren(void **state)
{
    (void)state;
    static const struct { const char *text; size_t offset; const char *message; } cases[] = {
        {"{'descr': [('a', '<f8') ('b', '<i4')], 'fortran_order': False, 'shape': ()}", 24,
         "unexpected '('"},
        {"{'descr' ('a', '<f8'), 'fortran_order': False, 'shape': ()}", 9, "unexpected '('"},
        {"{'descr': [( 'a' ,'<f8')) ], 'fortran_order': False, 'shape': ()}", 24,
         "expected ']' or ',', found ')'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        npydt_header *h;
        TEST_ERROR(err);
        assert_int_equal(parse_header(cases[i].text, 1, NULL, &h, &err), NPYDT_E_SYNTAX);
        assert_int_equal(err.offset, cases[i].offset);
        assert_string_equal(err.message, cases[i].message);
    }
    static const char *const spaced[] = {
        "[('a', '<f8'), ('b', '>i4')]", "[( 'a' ,\t'<f8' ), ('b',\f'>i4')]",
        "[('a', '<f8' ), ('b', '>i4',)]", "[('a', '<' 'f8'), ('b', '>i4')]",
        "[('a', u'<f8'), (\"b\", '>i4')]",
    };
    npydt_dtype *want = test_parse_literal(spaced[0]);
    for (size_t i = 1; i < sizeof spaced / sizeof spaced[0]; i++) {
        npydt_dtype *dt = test_parse_literal(spaced[i]);
        if (!npydt_dtype_equal(dt, want))
            fail_msg("%s reads otherwise than %s", spaced[i], spaced[0]);
        npydt_dtype_free(dt);
    }
    npydt_dtype_free(want);
}

/* A pair opens a bracket like the '(' it starts with: the depth limit
 * stops it at that '('. */
static void test_literal_name_type_pair_counts_toward_the_depth_limit(void **state)
{
    (void)state;
    npydt_options opts;
    npydt_options_init(&opts);
    const char *text = "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': ()}";
    npydt_header *h;
    TEST_ERROR(err);
    opts.limits.max_depth = 3;
    assert_int_equal(parse_header(text, 1, &opts, &h, &err), NPYDT_OK);
    npydt_header_free(h);
    opts.limits.max_depth = 2;
    assert_int_equal(parse_header(text, 1, &opts, &h, &err), NPYDT_E_LIMIT);
    assert_int_equal(err.offset, 11);
}

static void test_literal_truncated_hex_escapes_name_their_letter(void **state)
{
    (void)state;
    static const struct { const char *text, *message; } cases[] = {
        {"[('a', b'\\x')]", "truncated \\xXX escape in string"},
        {"[('a\\x4', '<f8')]", "truncated \\xXX escape in string"},
        {"[('a\\u12', '<f8')]", "truncated \\uXX escape in string"},
        {"[('a\\U0001', '<f8')]", "truncated \\UXX escape in string"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        npydt_dtype *dt;
        TEST_ERROR(err);
        assert_fails(NPYDT_E_SYNTAX, &err,
                     npydt_header_parse_descr(cases[i].text, strlen(cases[i].text), NULL,
                                                   &dt, &err));
        assert_string_equal(err.message, cases[i].message);
    }
}

static void test_literal_nesting_beyond_limit_is_refused_at_the_bracket(void **state)
{
    (void)state;
    enum { DEPTH = 100000 };
    char *text = malloc(DEPTH + 64);
    assert_non_null(text);
    strcpy(text, "{'descr': ");
    size_t n = strlen(text);
    memset(text + n, '[', DEPTH);
    text[n + DEPTH] = '\0';
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_parse_descr(text + n, DEPTH, NULL, &dt, &err));
    assert_int_equal(err.offset, 128);   /* the 129th bracket, with the default of 128 */
    npydt_header *h;
    assert_int_equal(parse_header(text, 2, NULL, &h, &err), NPYDT_E_LIMIT);
    assert_int_equal(err.offset, n + 127);   /* the dict's brace is the first level */
    free(text);
}

static void test_literal_raising_max_depth_lets_deeper_descriptors_through(void **state)
{
    (void)state;
    /* 100 nested structs: [('a', [('a', ... '<i1') ...)] */
    enum { LEVELS = 100 };
    char *text = malloc(LEVELS * 16 + 16);
    assert_non_null(text);
    size_t n = 0;
    for (int i = 0; i < LEVELS; i++)
        n += (size_t)sprintf(text + n, "[('a', ");
    n += (size_t)sprintf(text + n, "'<i1'");
    for (int i = 0; i < LEVELS; i++)
        n += (size_t)sprintf(text + n, ")]");
    npydt_options opts;
    npydt_options_init(&opts);
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_parse_descr(text, n, &opts, &dt, &err));
    opts.limits.max_depth = 400;
    assert_int_equal(npydt_header_parse_descr(text, n, &opts, &dt, &err), NPYDT_OK);
    size_t nl;
    const npydt_leaf *l = npydt_dtype_leaves(dt, &nl);
    assert_int_equal(nl, 1);
    (void)l;
    assert_int_equal(npydt_dtype_leaf_path(dt, 0, NULL, 0), 2 * LEVELS - 1);
    npydt_dtype_free(dt);
    opts.limits.max_depth = 100000;
    assert_fails(NPYDT_E_ARG, &err, npydt_header_parse_descr(text, n, &opts, &dt, &err));
    free(text);
}

static void test_literal_header_length_limit_is_checked_before_reading(void **state)
{
    (void)state;
    unsigned char b[12] = {0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 0xff, 0xff, 0xff, 0x7f};
    npydt_header *h;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_parse(b, sizeof b, NULL, &h, &err));
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_header_bytes = SIZE_MAX;
    assert_fails(NPYDT_E_TRUNCATED, &err, npydt_header_parse(b, sizeof b, &opts, &h, &err));
}

/* Descriptor literals refused by the lexer or the grammar: exact code,
 * offset and message, under the limits given (0: the default). */
static void test_literal_descriptor_errors_have_code_offset_and_message(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        uint32_t max_depth;
        size_t max_fields;
        npydt_status code;
        size_t offset;
        const char *message;
    } cases[] = {
        /* a pair, a tuple head and a list of pairs are read whole, and
         * named as the bracket they begin with */
        {"'<i4' ('a', '<i4')", 0, 0, NPYDT_E_SYNTAX, 6, "unexpected '('"},
        {"'<i4' ('a', 1)", 0, 0, NPYDT_E_SYNTAX, 6, "unexpected '('"},
        {"'<i4' [('a', '<i4')]", 0, 0, NPYDT_E_SYNTAX, 6, "unexpected '['"},
        /* strings that end with the text */
        {"[('a\\\r", 0, 0, NPYDT_E_SYNTAX, 2, "unterminated string"},
        {"[('''a', '<i4')]", 0, 0, NPYDT_E_SYNTAX, 2, "unterminated string"},
        {"[('''a'", 0, 0, NPYDT_E_SYNTAX, 2, "unterminated string"},
        {"[('\\x 1', '<i4')]", 0, 0, NPYDT_E_SYNTAX, 3, "truncated \\xXX escape in string"},
        /* a name is cut in the message after 32 characters */
        {"abcdefghijklmnopqrstuvwxyzabcdefghij", 0, 0, NPYDT_E_SYNTAX, 0,
         "name 'abcdefghijklmnopqrstuvwxyzabcdef...' is not a literal"},
        /* the depth limit stops a pair's shape, a shape, a shape in a run
         * of pairs (after a newline, read pair by pair) at its '(' */
        {"[('a', '<i4', (2,))]", 2, 0, NPYDT_E_LIMIT, 14, "nesting deeper than 2 brackets"},
        {"[(1,)]", 1, 0, NPYDT_E_LIMIT, 1, "nesting deeper than 1 brackets"},
        {"[\n('a', '<i4'), ('b', '<i4', (2,))]", 2, 0, NPYDT_E_LIMIT, 29,
         "nesting deeper than 2 brackets"},
        /* the fields of such a run are counted as they are read */
        {"[\n('a', '<i4'), ('b', '<i4'), ('c', '<i4'), ('d', '<i4')]", 0, 2, NPYDT_E_LIMIT, 30,
         "more than 2 fields in the dtype"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        npydt_options opts;
        npydt_options_init(&opts);
        if (cases[i].max_depth)
            opts.limits.max_depth = cases[i].max_depth;
        if (cases[i].max_fields)
            opts.limits.max_fields = cases[i].max_fields;
        npydt_dtype *dt;
        TEST_ERROR(err);
        npydt_status st = npydt_header_parse_descr(cases[i].text, strlen(cases[i].text), &opts,
                                                    &dt, &err);
        if (st != cases[i].code || err.offset != cases[i].offset ||
            strcmp(err.message, cases[i].message) != 0)
            fail_msg("%s: got %s at %zu: %s", cases[i].text, npydt_status_name(st), err.offset,
                     err.message);
        test_assert_error_filled(st, &err);
    }
}

/* The depth limit stops a shape the lexer would read with its key, as the
 * tokens one by one, at the shape's '('. */
static void test_literal_header_shape_beyond_depth_limit_is_refused_at_its_paren(void **state)
{
    (void)state;
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_depth = 1;
    npydt_header *h;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err,
                 parse_header("{'descr': '<i4', 'fortran_order': False, 'shape': (2,)}", 1, &opts,
                              &h, &err));
    assert_int_equal(err.offset, 50);
    assert_string_equal(err.message, "nesting deeper than 1 brackets");
}

/* Python's string rules at the edges: a backslash before a lone CR
 * continues the line, an octal escape ends at the first character that is
 * not an octal digit, an empty string may end the text. */
static void test_literal_string_escapes_at_their_edges(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a\\\r', '<i4'), ('b\\\rc', '<i4'), ('\\1 ', '<i4')]");
    assert_string_equal(npydt_dtype_field_name(dt, 0), "a");
    assert_string_equal(npydt_dtype_field_name(dt, 1), "bc");
    assert_string_equal(npydt_dtype_field_name(dt, 2), "\x01 ");
    npydt_dtype_free(dt);
    dt = test_parse_literal("'<i4' ''");
    npydt_dtype *want = test_parse_literal("'<i4'");
    assert_true(npydt_dtype_equal(dt, want));
    npydt_dtype_free(dt);
    npydt_dtype_free(want);
}

/* An integer of more than 64 bits is marked big, whether the last digit's
 * multiplication or its addition passes 2^64 - 1. */
static void test_literal_integers_past_64_bits_are_big(void **state)
{
    (void)state;
    static const struct { const char *text; uint64_t mag; bool big; } cases[] = {
        {"18446744073709551615", UINT64_MAX, false},
        {"18446744073709551616", UINT64_MAX, true},    /* 1844674407370955161 * 10 + 6 */
        {"18446744073709551620", UINT64_MAX, true},    /* 1844674407370955162 * 10 */
        {"0x1_0000_0000_0000_0000", UINT64_MAX, true},
    };
    npydt_options opts;
    npydt_options_init(&opts);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct arena ar;
        arena_init(&ar, NULL);
        struct lit *v;
        TEST_ERROR(err);
        assert_int_equal(lit_parse_text(&ar, NULL, cases[i].text, strlen(cases[i].text), 3,
                                        LIT_ROOT_DESCR, &opts.limits, &err, &v), NPYDT_OK);
        assert_int_equal(v->kind, LIT_INT);
        assert_true(v->u.num.mag == cases[i].mag);
        assert_int_equal(v->u.num.big, cases[i].big);
        arena_release(&ar);
    }
}

TEST_LIST("literal",
    cmocka_unit_test(test_literal_escapes_decode),
    cmocka_unit_test(test_literal_name_type_pairs_err_at_their_paren),
    cmocka_unit_test(test_literal_composite_tokens_err_as_tokens_one_by_one),
    cmocka_unit_test(test_literal_name_type_pair_counts_toward_the_depth_limit),
    cmocka_unit_test(test_literal_adjacent_strings_concatenate),
    cmocka_unit_test(test_literal_raw_and_unicode_prefixes),
    cmocka_unit_test(test_literal_carriage_returns_in_triple_quoted_strings_become_newlines),
    cmocka_unit_test(test_literal_carriage_return_ends_comments_and_continuations),
    cmocka_unit_test(test_literal_long_suffix_only_in_versions_1_and_2),
    cmocka_unit_test(test_literal_comments_and_line_continuations),
    cmocka_unit_test(test_literal_integer_spellings),
    cmocka_unit_test(test_literal_bool_in_shape_is_refused_as_np_load_refuses_it),
    cmocka_unit_test(test_literal_leading_spaces_allowed_but_indented_first_line_is_not),
    cmocka_unit_test(test_literal_latin1_names_in_version_1_become_utf8),
    cmocka_unit_test(test_literal_syntax_errors_name_what_was_expected),
    cmocka_unit_test(test_literal_truncated_hex_escapes_name_their_letter),
    cmocka_unit_test(test_literal_nesting_beyond_limit_is_refused_at_the_bracket),
    cmocka_unit_test(test_literal_raising_max_depth_lets_deeper_descriptors_through),
    cmocka_unit_test(test_literal_header_length_limit_is_checked_before_reading),
    cmocka_unit_test(test_literal_descriptor_errors_have_code_offset_and_message),
    cmocka_unit_test(test_literal_header_shape_beyond_depth_limit_is_refused_at_its_paren),
    cmocka_unit_test(test_literal_string_escapes_at_their_edges),
    cmocka_unit_test(test_literal_integers_past_64_bits_are_big),
);

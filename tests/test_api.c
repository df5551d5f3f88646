/* The library's fixed points: its version, the stable names of its codes,
 * and the rules that let options structs grow. */
#include "test_util.h"
#include "base/name_key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_api_version_string_is_built_from_the_three_numbers(void **state)
{
    (void)state;
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", NPYDT_VERSION_MAJOR, NPYDT_VERSION_MINOR,
             NPYDT_VERSION_PATCH);
    assert_string_equal(NPYDT_VERSION_STRING, want);
}

static void test_api_version_number_orders_major_minor_patch(void **state)
{
    (void)state;
    assert_int_equal(NPYDT_VERSION_NUMBER, NPYDT_VERSION_MAJOR * 10000 +
                                               NPYDT_VERSION_MINOR * 100 + NPYDT_VERSION_PATCH);
#if NPYDT_VERSION_NUMBER < 100
#error "NPYDT_VERSION_NUMBER is usable in #if and is at least 0.1.0"
#endif
}

static void test_api_library_reports_the_header_version(void **state)
{
    (void)state;
    assert_string_equal(npydt_version(), NPYDT_VERSION_STRING);
    assert_int_equal(npydt_version_number(), NPYDT_VERSION_NUMBER);
}

/* The names the header documents, spelled as it spells them. */
static void test_api_status_names_are_as_documented(void **state)
{
    (void)state;
    assert_string_equal(npydt_status_name(NPYDT_OK), "ok");
    assert_string_equal(npydt_status_name(NPYDT_E_SYNTAX), "syntax error");
    assert_string_equal(npydt_status_name(NPYDT_E_NOT_FOUND), "not found");
    assert_string_equal(npydt_status_name((npydt_status)99), "unknown error");
    assert_string_equal(npydt_mismatch_code_name(NPYDT_MISMATCH_MISSING_FIELD), "missing_field");
    assert_string_equal(npydt_mismatch_code_name(NPYDT_MISMATCH_KIND), "kind");
    assert_string_equal(npydt_mismatch_code_name((npydt_mismatch_code)99), "unknown");
    assert_string_equal(npydt_unit_name(NPYDT_UNIT_ns), "ns");
    assert_string_equal(npydt_unit_name(NPYDT_UNIT_GENERIC), "generic");
}

static void test_api_field_and_member_share_the_not_found_status(void **state)
{
    (void)state;
    assert_int_equal(NPYDT_E_FIELD, NPYDT_E_NOT_FOUND);
    npydt_dtype *dt = test_parse_literal("[('x', '<f8')]");
    uint64_t off;
    const npydt_dtype *f;
    npydt_error err;
    assert_int_equal(npydt_field_lookup(dt, "y", &off, &f, &err), NPYDT_E_NOT_FOUND);
    npydt_dtype_free(dt);

    const char *dir = getenv("FIXTURES_NPZ");
    char path[1024];
    snprintf(path, sizeof path, "%s/savez.npz", dir && *dir ? dir : "tests/fixtures_npz");
    size_t len;
    unsigned char *buf = test_read_file(path, &len);
    npydt_npz *z = NULL;
    assert_int_equal(npydt_npz_open_buffer(buf, len, NULL, &z, &err), NPYDT_OK);
    size_t i;
    test_poison_error(&err);
    assert_int_equal(npydt_npz_find(z, "no_such_member", &i, &err), NPYDT_E_NOT_FOUND);
    test_assert_error_filled(NPYDT_E_NOT_FOUND, &err);
    npydt_npz_close(z);
    free(buf);
}

static void test_api_options_init_leaves_reserved_room_zero(void **state)
{
    (void)state;
    npydt_options o;
    memset(&o, 0xA5, sizeof o);
    npydt_options_init(&o);
    for (size_t i = 0; i < sizeof o.reserved / sizeof o.reserved[0]; i++)
        assert_int_equal(o.reserved[i], 0);
    for (size_t i = 0; i < sizeof o.limits.reserved / sizeof o.limits.reserved[0]; i++)
        assert_int_equal(o.limits.reserved[i], 0);
    npydt_npz_options z;
    memset(&z, 0xA5, sizeof z);
    npydt_npz_options_init(&z);
    for (size_t i = 0; i < sizeof z.reserved / sizeof z.reserved[0]; i++)
        assert_int_equal(z.reserved[i], 0);
}

static void test_api_options_with_reserved_room_set_are_refused(void **state)
{
    (void)state;
    static const char text[] = "'<f8'";
    npydt_dtype *dt = NULL;
    npydt_error err;
    npydt_options o;
    npydt_options_init(&o);
    o.reserved[3] = 1;
    test_poison_error(&err);
    assert_int_equal(npydt_header_parse_descr(text, strlen(text), &o, &dt, &err), NPYDT_E_ARG);
    test_assert_error_filled(NPYDT_E_ARG, &err);
    assert_null(dt);
    assert_non_null(strstr(err.message, "reserved"));
    npydt_options_init(&o);
    o.limits.reserved[0] = 1;
    assert_int_equal(npydt_header_parse_descr(text, strlen(text), &o, &dt, &err), NPYDT_E_ARG);
    npydt_options_init(&o);
    assert_int_equal(npydt_header_parse_descr(text, strlen(text), &o, &dt, &err), NPYDT_OK);

    npydt_swap_plan *plan = NULL;
    o.reserved[0] = 1;
    assert_int_equal(npydt_swap_plan_new(dt, &o, &plan, &err), NPYDT_E_ARG);
    assert_null(plan);
    npydt_dtype *swapped = NULL;
    assert_int_equal(npydt_dtype_newbyteorder(dt, NPYDT_ORDER_BIG, &o, &swapped, &err),
                     NPYDT_E_ARG);
    assert_null(swapped);
    npydt_dtype_free(dt);
}

static int sink_nothing(void *ctx, const void *buf, size_t len)
{
    (void)ctx;
    (void)buf;
    (void)len;
    return 0;
}

static void test_api_npz_options_with_reserved_room_set_are_refused(void **state)
{
    (void)state;
    static const unsigned char empty_zip[22] = {'P', 'K', 5, 6};
    npydt_error err;
    npydt_npz_options z;
    npydt_npz_options_init(&z);
    npydt_npz *a = NULL;
    assert_int_equal(npydt_npz_open_buffer(empty_zip, sizeof empty_zip, &z, &a, &err), NPYDT_OK);
    npydt_npz_close(a);
    a = NULL;
    z.reserved[1] = 7;
    assert_int_equal(npydt_npz_open_buffer(empty_zip, sizeof empty_zip, &z, &a, &err),
                     NPYDT_E_ARG);
    assert_null(a);
    npydt_npz_sink sink = {sink_nothing, NULL, NULL};
    npydt_npz_writer *w = NULL;
    assert_int_equal(npydt_npz_writer_new(&sink, &z, &w, &err), NPYDT_E_ARG);
    assert_null(w);
    npydt_npz_options_init(&z);
    z.base.reserved[2] = 7;
    assert_int_equal(npydt_npz_open_buffer(empty_zip, sizeof empty_zip, &z, &a, &err),
                     NPYDT_E_ARG);
    assert_int_equal(npydt_npz_writer_new(&sink, &z, &w, &err), NPYDT_E_ARG);
}

/* Terminal columns of names: ASCII 1 each, CJK 2, combining marks 0,
 * controls (a NUL in a name) 0, a byte that is not UTF-8 1. */
static void test_api_text_width_counts_terminal_columns(void **state)
{
    (void)state;
    assert_int_equal(npydt_text_width("pos.x", 5), 5);
    assert_int_equal(npydt_text_width("\xe5\x90\x8d\xe5\x89\x8d", 6), 4);      /* 名前 */
    assert_int_equal(npydt_text_width("e\xcc\x81te\xcc\x81", 7), 3);            /* e + U+0301 */
    assert_int_equal(npydt_text_width("\xef\xbc\xa1", 3), 2);                    /* fullwidth A */
    assert_int_equal(npydt_text_width("\xf0\x9f\x98\x80", 4), 2);               /* U+1F600 */
    assert_int_equal(npydt_text_width("a\0b", 3), 2);
    assert_int_equal(npydt_text_width("\xff\xe5\x90", 3), 3);                    /* not UTF-8 */
    assert_int_equal(npydt_text_width("\xc2\xad", 2), 1);                         /* soft hyphen */
    assert_int_equal(npydt_text_width("\xcd\xb8", 2), 1);                         /* unassigned */
    assert_int_equal(npydt_text_width("", 0), 0);
}

static void test_api_name_hash_is_the_library_tables_hash(void **state)
{
    (void)state;
    static const char *const names[] = {"", "x", "pos", "pos.x", "f0761900", "a much longer name"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        assert_true(npydt_name_hash(names[i], strlen(names[i])) ==
                    name_key(names[i], strlen(names[i])));
    /* the length counts, a NUL is a byte like any other */
    assert_true(npydt_name_hash("a\0b", 3) != npydt_name_hash("a", 1));
    assert_true(npydt_name_hash("a\0b", 3) != npydt_name_hash("a\0c", 3));
}

TEST_LIST("api",
    cmocka_unit_test(test_api_text_width_counts_terminal_columns),
    cmocka_unit_test(test_api_name_hash_is_the_library_tables_hash),
    cmocka_unit_test(test_api_version_string_is_built_from_the_three_numbers),
    cmocka_unit_test(test_api_version_number_orders_major_minor_patch),
    cmocka_unit_test(test_api_library_reports_the_header_version),
    cmocka_unit_test(test_api_status_names_are_as_documented),
    cmocka_unit_test(test_api_field_and_member_share_the_not_found_status),
    cmocka_unit_test(test_api_options_init_leaves_reserved_room_zero),
    cmocka_unit_test(test_api_options_with_reserved_room_set_are_refused),
    cmocka_unit_test(test_api_npz_options_with_reserved_room_set_are_refused),
);

/* Descriptor literals and type strings become the dtypes NumPy builds. */
#include "test_util.h"
#include "base/name_key.h"   /* to choose names that share a hash table slot */

#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static npydt_status parse_lit(const char *text, npydt_dtype **dt, npydt_error *err)
{
    return npydt_header_parse_descr(text, strlen(text), NULL, dt, err);
}

static npydt_status parse_ts(const char *text, npydt_dtype **dt, npydt_error *err)
{
    return npydt_dtype_parse_typestr(text, strlen(text), NULL, dt, err);
}

/* The descriptor np.save would write for the dtype of text. */
static void assert_canonical(const char *text, int typestr, const char *want)
{
    npydt_dtype *dt;
    TEST_ERROR(err);
    npydt_status st = typestr ? parse_ts(text, &dt, &err) : parse_lit(text, &dt, &err);
    if (st != NPYDT_OK)
        fail_msg("%s: %s", text, err.message);
    char buf[512];
    npydt_dtype_descr(dt, buf, sizeof buf);
    assert_string_equal(buf, want);
    npydt_dtype_free(dt);
}

static void test_dtype_typestr_little_f8(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<f8'");
    assert_int_equal(npydt_dtype_get_class(dt), NPYDT_SCALAR);
    assert_int_equal(npydt_dtype_kind(dt), 'f');
    assert_int_equal(npydt_dtype_byteorder(dt), '<');
    assert_int_equal(npydt_dtype_itemsize(dt), 8);
    npydt_dtype_free(dt);
}

/* Numbers in type strings are read as NumPy reads them on x86-64 (a 64-bit
 * long), whatever the host's long: one past INT_MAX is refused where long
 * has 32 bits as well, never saturated or wrapped into a valid size. */
static void test_dtype_typestr_numbers_past_int_max_are_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "S2147483648", "U2147483648", "V4294967297", "S9223372036854775808",
        "S99999999999999999999", "M8[2147483648s]", "m8[4294967297D]",
        "M8[9223372036854775808s]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        npydt_dtype *dt = NULL;
        TEST_ERROR(err);
        if (parse_ts(bad[i], &dt, &err) == NPYDT_OK)
            fail_msg("'%s' accepted", bad[i]);
        assert_null(dt);
        /* and inside a header's descriptor literal */
        char lit[64];
        snprintf(lit, sizeof lit, "'%s'", bad[i]);
        if (parse_lit(lit, &dt, &err) == NPYDT_OK)
            fail_msg("%s accepted", lit);
    }
    assert_canonical("S2147483647", 1, "'|S2147483647'");
    assert_canonical("M8[2147483647s]", 1, "'<M8[2147483647s]'");
}

static void test_dtype_unicode_itemsize_is_four_bytes_per_char(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'>U3'");
    assert_int_equal(npydt_dtype_kind(dt), 'U');
    assert_int_equal(npydt_dtype_itemsize(dt), 12);
    assert_int_equal(npydt_dtype_byteorder(dt), '>');
    char s[16];
    npydt_dtype_str(dt, s, sizeof s);
    assert_string_equal(s, ">U3");
    npydt_dtype_free(dt);
}

static void test_dtype_one_byte_types_have_no_byte_order(void **state)
{
    (void)state;
    assert_canonical(">b1", 1, "'|b1'");
    assert_canonical(">i1", 1, "'|i1'");
    assert_canonical(">S5", 1, "'|S5'");
    assert_canonical(">V8", 1, "'|V8'");
    assert_canonical(">O", 1, "'|O'");
}

static void test_dtype_native_and_not_applicable_orders_are_little_endian(void **state)
{
    (void)state;
    assert_canonical("=f8", 1, "'<f8'");
    assert_canonical("|f8", 1, "'<f8'");
    assert_canonical("f8", 1, "'<f8'");
}

static void test_dtype_type_names_resolve_as_on_linux_x86_64(void **state)
{
    (void)state;
    assert_canonical("float64", 1, "'<f8'");
    assert_canonical("int", 1, "'<i8'");
    assert_canonical("longdouble", 1, "'<f16'");
    assert_canonical("complex256", 1, "'<c32'");
    assert_canonical("bool", 1, "'|b1'");
    assert_canonical("str", 1, "'<U0'");
    assert_canonical("l", 1, "'<i8'");
    assert_canonical("g", 1, "'<f16'");
    assert_canonical("c", 1, "'|S1'");
}

static void test_dtype_type_names_take_no_byte_order_prefix(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse_ts("<float64", &dt, &err), NPYDT_E_TYPE);
    assert_non_null(strstr(err.message, "<float64"));
}

static void test_dtype_datetime_units_and_multipliers(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<M8[25s]'");
    assert_int_equal(npydt_dtype_kind(dt), 'M');
    assert_int_equal(npydt_dtype_unit(dt), NPYDT_UNIT_s);
    assert_int_equal(npydt_dtype_unit_count(dt), 25);
    npydt_dtype_free(dt);
    assert_canonical("<m8[25s]", 1, "'<m8[25s]'");
    assert_canonical("datetime64[ns]", 1, "'<M8[ns]'");
    assert_canonical("M8", 1, "'<M8'");
    assert_canonical(">M8[\xce\xbcs]", 1, "'>M8[us]'");   /* Greek mu */
}

static void test_dtype_datetime_divisor_becomes_smaller_unit(void **state)
{
    (void)state;
    assert_canonical("M8[s/10]", 1, "'<M8[100ms]'");
    assert_canonical("M8[Y/5]", 1, "'<M8[73D]'");
    assert_canonical("M8[1m/24]", 1, "'<M8[2500ms]'");
}

static void test_dtype_datetime_generic_has_unit_generic(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<M8'");
    assert_int_equal(npydt_dtype_unit(dt), NPYDT_UNIT_GENERIC);
    assert_string_equal(npydt_unit_name(npydt_dtype_unit(dt)), "generic");
    npydt_dtype_free(dt);
}

/* NumPy keeps the multiplier (np.datetime_data gives ('generic', 2)) and
 * compares unequal to plain M8, yet prints and saves it as '<M8'. */
static void test_dtype_generic_datetime_multiplier_is_kept_but_not_printed(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'M8[2generic]'");
    npydt_dtype *plain = test_parse_literal("'<M8'");
    assert_int_equal(npydt_dtype_unit(dt), NPYDT_UNIT_GENERIC);
    assert_int_equal(npydt_dtype_unit_count(dt), 2);
    assert_false(npydt_dtype_equal(dt, plain));
    assert_canonical("M8[2generic]", 1, "'<M8'");
    npydt_dtype_free(plain);
    npydt_dtype_free(dt);
}

static void test_dtype_comma_string_makes_struct_f0_f1_f2(void **state)
{
    (void)state;
    assert_canonical("i4, (2,3)f8, S5", 1,
                     "[('f0', '<i4'), ('f1', '<f8', (2, 3)), ('f2', '|S5')]");
}

static void test_dtype_subarray_prefix_alone_is_a_subarray(void **state)
{
    (void)state;
    assert_canonical("(3,2)f4", 1, "('<f4', (3, 2))");
    assert_canonical("()f8", 1, "'<f8'");
}

static void test_dtype_struct_offsets_are_packed(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<i2'), ('b', '<f8'), ('c', '|S3')]");
    assert_int_equal(npydt_dtype_nfields(dt), 3);
    assert_int_equal(npydt_dtype_field_offset(dt, 0), 0);
    assert_int_equal(npydt_dtype_field_offset(dt, 1), 2);
    assert_int_equal(npydt_dtype_field_offset(dt, 2), 10);
    assert_int_equal(npydt_dtype_itemsize(dt), 13);
    npydt_dtype_free(dt);
}

static void test_dtype_padding_entries_move_offsets_and_count_in_itemsize(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<i2'), ('', '|V6'), ('b', '<f8'), ('', '|V4')]");
    assert_int_equal(npydt_dtype_nfields(dt), 2);
    assert_string_equal(npydt_dtype_field_name(dt, 1), "b");
    assert_int_equal(npydt_dtype_field_offset(dt, 1), 8);
    assert_int_equal(npydt_dtype_itemsize(dt), 20);
    char buf[128];
    npydt_dtype_descr(dt, buf, sizeof buf);
    assert_string_equal(buf, "[('a', '<i2'), ('', '|V6'), ('b', '<f8'), ('', '|V4')]");
    npydt_dtype_free(dt);
}

static void test_dtype_empty_name_with_non_void_type_is_a_field(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('', '<i4')]");
    assert_int_equal(npydt_dtype_nfields(dt), 1);
    assert_string_equal(npydt_dtype_field_name(dt, 0), "");
    npydt_dtype_free(dt);
}

static void test_dtype_empty_name_subarray_is_padding_as_in_numpy(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('', '<i4', (2,)), ('x', '|u1')]");
    assert_int_equal(npydt_dtype_nfields(dt), 1);
    assert_int_equal(npydt_dtype_field_offset(dt, 0), 8);
    npydt_dtype_free(dt);
}

static void test_dtype_titles_are_kept_and_printed(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[(('Temperature', 't'), '<f4')]");
    assert_string_equal(npydt_dtype_field_name(dt, 0), "t");
    assert_string_equal(npydt_dtype_field_title(dt, 0), "Temperature");
    npydt_dtype_free(dt);
    assert_canonical("[(('Temperature', 't'), '<f4')]", 0, "[(('Temperature', 't'), '<f4')]");
}

/* 'a' and 'a\x00' are two names, as in NumPy: lengths tell them apart
 * where the NUL-terminated views look alike. */
static void test_dtype_names_and_titles_may_hold_nul(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<i4'), ('a\\x00', '|u1'), (('t\\x00x', 'n'), '<i2')]");
    assert_int_equal(npydt_dtype_nfields(dt), 3);
    assert_int_equal(npydt_dtype_field_name_len(dt, 0), 1);
    assert_int_equal(npydt_dtype_field_name_len(dt, 1), 2);
    assert_memory_equal(npydt_dtype_field_name(dt, 1), "a\0", 3);   /* and terminated */
    assert_string_equal(npydt_dtype_field_title(dt, 2), "t");          /* the view */
    assert_int_equal(npydt_dtype_field_title_len(dt, 2), 3);
    assert_memory_equal(npydt_dtype_field_title(dt, 2), "t\0x", 4);
    assert_int_equal(npydt_dtype_field_title_len(dt, 0), 0);
    assert_int_equal(npydt_dtype_field_name_len(dt, 3), 0);           /* out of range */
    npydt_dtype_free(dt);
    assert_canonical("[('a', '<i4'), ('a\\x00', '|u1'), (('t\\x00x', 'n'), '<i2')]", 0,
                     "[('a', '<i4'), ('a\\x00', '|u1'), (('t\\x00x', 'n'), '<i2')]");
}

static void test_dtype_equal_tells_names_apart_after_a_nul(void **state)
{
    (void)state;
    npydt_dtype *a = test_parse_literal("[('a\\x00b', '<i4')]");
    npydt_dtype *b = test_parse_literal("[('a\\x00c', '<i4')]");
    npydt_dtype *c = test_parse_literal("[('a', '<i4')]");
    npydt_dtype *d = test_parse_literal("[('a\\0b', '<i4')]");
    assert_false(npydt_dtype_equal(a, b));
    assert_false(npydt_dtype_equal(a, c));
    assert_true(npydt_dtype_equal(a, d));
    npydt_dtype_free(a);
    npydt_dtype_free(b);
    npydt_dtype_free(c);
    npydt_dtype_free(d);
}

static void test_dtype_names_equal_up_to_a_nul_are_not_duplicates(void **state)
{
    (void)state;
    /* the same through the hashed and the sorted duplicate checks: many fields */
    char text[8192];
    size_t n = (size_t)sprintf(text, "[('x', '<i4'), ('x\\x00', '<i4'), (('x\\x00\\x00', 'y'), '<i4')");
    for (int i = 0; i < 100; i++)
        n += (size_t)sprintf(text + n, ", ('f%d\\x00', '|u1'), ('f%d', '|u1')", i, i);
    sprintf(text + n, "]");
    npydt_dtype *dt = test_parse_literal(text);
    assert_int_equal(npydt_dtype_nfields(dt), 203);
    npydt_dtype_free(dt);
    npydt_dtype *out = NULL;
    TEST_ERROR(err);
    const char *dup = "[('x\\x00', '<i4'), ('y', '<i4'), ('x\\0', '<i4')]";
    assert_fails(NPYDT_E_NAME, &err, npydt_header_parse_descr(dup, strlen(dup), NULL, &out, &err));
    assert_string_equal(err.message, "field name 'x\\x00' already used as a name or title");
}

static void test_dtype_duplicate_names_are_refused_with_path(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse_lit("[('p', [('x', '<f8'), ('x', '<f4')])]", &dt, &err), NPYDT_E_NAME);
    assert_string_equal(err.path, "p");
    assert_int_equal(err.offset, 22);   /* the second (x, ...) entry */
}

/* A descriptor of the names given, each an '<i4' field, into buf. */
static void names_descr(char *buf, size_t size, char names[][16], size_t n)
{
    size_t at = 0;
    at += (size_t)snprintf(buf + at, size - at, "[");
    for (size_t i = 0; i < n; i++)
        at += (size_t)snprintf(buf + at, size - at, "%s('%s', '<i4')", i ? ", " : "", names[i]);
    snprintf(buf + at, size - at, "]");
}

/* A few names are compared only where a cheap signature (length, first
 * and last byte) repeats: names that share it but differ are kept, the
 * first real repeat is found, empty names included. */
static void test_dtype_repeated_name_among_few_is_found(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse_lit("[('abc', '<i4'), ('axc', '<i4'), ('ac', '<i4')]", &dt, &err),
                     NPYDT_OK);
    npydt_dtype_free(dt);
    assert_int_equal(parse_lit("[('x', '<i4'), ('y', '<i4'), ('x', '<f8')]", &dt, &err),
                     NPYDT_E_NAME);
    assert_string_equal(err.message, "field name 'x' already used as a name or title");
    assert_int_equal(parse_lit("[('', '<i4'), ('abc', '<i4'), ('axc', '<i4'), ('', '<f8')]",
                               &dt, &err), NPYDT_E_NAME);
    assert_string_equal(err.message, "field name '' already used as a name or title");
    assert_int_equal(err.offset, 46);   /* the repeating entry */
}

static void test_dtype_repeated_name_among_many_is_found(void **state)
{
    (void)state;
    static char names[41][16], text[2048];
    for (int i = 0; i < 40; i++)
        snprintf(names[i], sizeof names[i], "f%d", i);
    strcpy(names[40], "f17");
    names_descr(text, sizeof text, names, 41);
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse_lit(text, &dt, &err), NPYDT_E_NAME);
    assert_string_equal(err.message, "field name 'f17' already used as a name or title");
    assert_int_equal(err.offset, strstr(text, "('f17', '<i4')]") - text);
    names_descr(text, sizeof text, names, 40);
    assert_int_equal(parse_lit(text, &dt, &err), NPYDT_OK);
    assert_int_equal(npydt_dtype_nfields(dt), 40);
    npydt_dtype_free(dt);
}

/* Names in ascending (length, bytes) order are known distinct without a
 * table; a name equal to the one before it ends the ascent, and is found. */
static void test_dtype_repeat_right_after_its_original_in_ascending_names_is_found(void **state)
{
    (void)state;
    static char names[41][16], text[2048];
    for (int i = 0; i < 40; i++)
        snprintf(names[i], sizeof names[i], "f%d", i);   /* f0 ... f9, f10 ... f39 */
    strcpy(names[40], "f39");
    names_descr(text, sizeof text, names, 41);
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse_lit(text, &dt, &err), NPYDT_E_NAME);
    assert_string_equal(err.message, "field name 'f39' already used as a name or title");
    assert_int_equal(err.offset, strstr(text, "('f39', '<i4')]") - text);
    strcpy(names[39], "f40");   /* distinct and ascending: accepted */
    strcpy(names[40], "f41");
    names_descr(text, sizeof text, names, 41);
    assert_int_equal(parse_lit(text, &dt, &err), NPYDT_OK);
    assert_int_equal(npydt_dtype_nfields(dt), 41);
    npydt_dtype_free(dt);
}

static void test_dtype_title_repeating_an_earlier_name_among_many_is_found(void **state)
{
    (void)state;
    char text[2048];
    size_t at = (size_t)snprintf(text, sizeof text, "[");
    for (int i = 0; i < 20; i++)
        at += (size_t)snprintf(text + at, sizeof text - at, "(('t%d', 'n%d'), '<i4'), ", i, i);
    snprintf(text + at, sizeof text - at, "(('n3', 'last'), '<i4')]");
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse_lit(text, &dt, &err), NPYDT_E_NAME);
    assert_string_equal(err.message, "title 'n3' already used as a name or title");
}

/* np.save's names often differ only in their last bytes ('f0000000' to
 * 'f0099999', 'sensor_1', ...): they must spread over the duplicate
 * check's table, or its probe budget runs out and the slower sort decides
 * (a weak final mix once put names differing in the last byte into one
 * slot in groups of ten). Linear probing at this load needs about 1.3
 * probes per name for random keys. */
static void test_dtype_name_key_spreads_names_differing_in_their_last_bytes(void **state)
{
    (void)state;
    enum { N = 100000, SLOTS = 1 << 18 };
    static const char *const formats[] = {"f%07u", "f%05u", "c%u", "channel_%u_value",
                                          "%u_channel_value_calibrated"};
    static unsigned char used[SLOTS];
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        memset(used, 0, sizeof used);
        uint64_t probes = 0;
        for (unsigned k = 0; k < N; k++) {
            char s[64];
            int n = snprintf(s, sizeof s, formats[f], k);
            size_t at = (size_t)name_key(s, (size_t)n) & (SLOTS - 1);
            for (probes++; used[at]; at = (at + 1) & (SLOTS - 1))
                probes++;
            used[at] = 1;
        }
        assert_true(probes < 2 * (uint64_t)N);
    }
}

static void test_dtype_names_colliding_in_the_hash_table_are_still_checked(void **state)
{
    (void)state;
    enum { N = 100 };   /* a table of 256 slots */
    static char names[N + 1][16], text[4096];
    size_t n = 0;
    for (unsigned k = 0; n < N; k++) {
        char s[16];
        snprintf(s, sizeof s, "c%u", k);
        if ((name_key(s, strlen(s)) & 255) == 7)
            strcpy(names[n++], s);
    }
    names_descr(text, sizeof text, names, N);
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse_lit(text, &dt, &err), NPYDT_OK);
    assert_int_equal(npydt_dtype_nfields(dt), N);
    assert_string_equal(npydt_dtype_field_name(dt, N - 1), names[N - 1]);
    npydt_dtype_free(dt);
    strcpy(names[N], names[42]);
    names_descr(text, sizeof text, names, N + 1);
    assert_int_equal(parse_lit(text, &dt, &err), NPYDT_E_NAME);
    char want[64];
    snprintf(want, sizeof want, "field name '%s' already used as a name or title", names[42]);
    assert_string_equal(err.message, want);
}

static void test_dtype_title_equal_to_its_own_name_is_refused(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse_lit("[(('a', 'a'), '<i4')]", &dt, &err), NPYDT_E_NAME);
}

static void test_dtype_nested_subarrays_are_not_collapsed(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('x', ('<f8', (2,)), (3,))]");
    const npydt_dtype *x = npydt_dtype_field_dtype(dt, 0);
    assert_int_equal(npydt_dtype_get_class(x), NPYDT_SUBARRAY);
    assert_int_equal(npydt_dtype_shape(x)[0], 3);
    assert_int_equal(npydt_dtype_get_class(npydt_dtype_base(x)), NPYDT_SUBARRAY);
    assert_int_equal(npydt_dtype_itemsize(x), 48);
    npydt_dtype_free(dt);
}

static void test_dtype_shape_one_as_int_means_no_subarray(void **state)
{
    (void)state;
    assert_canonical("[('a', '<f8', 1)]", 0, "[('a', '<f8')]");
    assert_canonical("[('a', '<f8', (1,))]", 0, "[('a', '<f8', (1,))]");
    assert_canonical("[('a', '<f8', 0)]", 0, "[('a', '<f8', (0,))]");
}

static void test_dtype_unsized_flexible_with_int_sets_itemsize(void **state)
{
    (void)state;
    assert_canonical("[('x', '|S', 5)]", 0, "[('x', '|S5')]");
    assert_canonical("('<U', 3)", 0, "'<U3'");
}

/* NumPy counts a subarray of size 0 as unsized too: an int after it is its
 * size in bytes, and a shape after it is an error. */
static void test_dtype_empty_subarray_with_int_takes_that_size(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', ('<i4', (0,)), 2), ('b', '|u1')]");
    assert_int_equal(npydt_dtype_itemsize(dt), 3);
    assert_int_equal(npydt_dtype_field_offset(dt, 1), 2);
    const npydt_dtype *a = npydt_dtype_field_dtype(dt, 0);
    assert_int_equal(npydt_dtype_get_class(a), NPYDT_SUBARRAY);
    assert_int_equal(npydt_dtype_shape(a)[0], 0);
    assert_int_equal(npydt_dtype_itemsize(a), 2);
    npydt_dtype_free(dt);
    /* written so that it reads back the same (NumPy's own spelling loses the size) */
    assert_canonical("[('a', ('<i4', (0,)), 2), ('b', '|u1')]", 0,
                     "[('a', (('<i4', (0,)), 2)), ('b', '|u1')]");
    assert_canonical("[('a', (('<i4', (0,)), 2)), ('b', '|u1')]", 0,
                     "[('a', (('<i4', (0,)), 2)), ('b', '|u1')]");
    assert_canonical("[('a', ('(0,)i4', 2), (3,))]", 0, "[('a', (('<i4', (0,)), 2), (3,))]");
    assert_canonical("[('a', ('<i4', (0,)), 0)]", 0, "[('a', '<i4', (0,))]");
}

static void test_dtype_empty_subarray_with_shape_is_refused(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse_lit("[('a', ('<i4', (0,)), (3,))]", &dt, &err), NPYDT_E_VALUE);
    assert_string_equal(err.message, "invalid itemsize in generic type tuple");
    assert_string_equal(err.path, "a");
}

static void test_dtype_subarray_bytes_must_fit_c_int(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(parse_lit("[('a', '<f8', (268435456,))]", &dt, &err), NPYDT_E_OVERFLOW);
    assert_string_equal(err.path, "a");
    assert_int_equal(parse_lit("[('a', '<f8', (268435455,))]", &dt, &err), NPYDT_OK);
    npydt_dtype_free(dt);
}

static void test_dtype_empty_struct(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[]");
    assert_int_equal(npydt_dtype_get_class(dt), NPYDT_STRUCT);
    assert_int_equal(npydt_dtype_nfields(dt), 0);
    assert_int_equal(npydt_dtype_itemsize(dt), 0);
    size_t n = 99;
    npydt_dtype_leaves(dt, &n);
    assert_int_equal(n, 0);
    npydt_dtype_free(dt);
}

static void test_dtype_leaves_flatten_nesting_and_subarrays(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(
        "[('t', '>M8[ns]'), ('pos', [('x', '>f8'), ('y', '>f8')]), ('s', '>i2', (2, 4)),"
        " ('r', [('a', '<i2'), ('b', '|u1')], (3,))]");
    size_t n;
    const npydt_leaf *l = npydt_dtype_leaves(dt, &n);
    assert_int_equal(n, 6);
    char path[16];
    assert_string_equal(test_leaf_path(dt, 1, path, sizeof path), "pos.x");
    assert_int_equal(l[2].offset, 16);
    assert_string_equal(test_leaf_path(dt, 3, path, sizeof path), "s");
    assert_int_equal(l[3].count, 8);
    assert_int_equal(l[3].nrepeats, 1);
    assert_int_equal(l[3].repeats[0].stride, 2);
    assert_string_equal(test_leaf_path(dt, 5, path, sizeof path), "r.b");
    assert_int_equal(l[5].offset, 42);
    assert_int_equal(l[5].count, 3);
    assert_int_equal(l[5].repeats[0].stride, 3);
    npydt_dtype_free(dt);
}

static void test_dtype_leaves_of_nested_subarray_merge_into_one_run(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('x', ('<f4', (2,)), (3,))]");
    size_t n;
    const npydt_leaf *l = npydt_dtype_leaves(dt, &n);
    assert_int_equal(n, 1);
    assert_int_equal(l[0].nrepeats, 1);
    assert_int_equal(l[0].count, 6);
    assert_int_equal(l[0].repeats[0].stride, 4);
    npydt_dtype_free(dt);
}

static void test_dtype_equal_distinguishes_byte_order(void **state)
{
    (void)state;
    npydt_dtype *a = test_parse_literal("[('x', '<f8')]");
    npydt_dtype *b = test_parse_literal("[('x', '>f8')]");
    npydt_dtype *c = test_parse_literal("[(\"x\", 'float64')]");
    assert_false(npydt_dtype_equal(a, b));
    assert_true(npydt_dtype_equal(a, c));
    npydt_dtype_free(a);
    npydt_dtype_free(b);
    npydt_dtype_free(c);
}

static void test_dtype_descr_quotes_names_like_python_repr(void **state)
{
    (void)state;
    assert_canonical("[(\"it's\", '<i4')]", 0, "[(\"it's\", '<i4')]");
    assert_canonical("[('a\\tb', '<i4')]", 0, "[('a\\tb', '<i4')]");
    assert_canonical("[('\\x80', '<i4')]", 0, "[('\\x80', '<i4')]");
    assert_canonical("[('\\u00e9', '<i4')]", 0, "[('\xc3\xa9', '<i4')]");
}

static void test_dtype_descr_reports_needed_length_like_snprintf(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('x', '<f8')]");
    char small[4];
    size_t need = npydt_dtype_descr(dt, small, sizeof small);
    assert_int_equal(need, strlen("[('x', '<f8')]"));
    assert_string_equal(small, "[('");
    npydt_dtype_free(dt);
}

static void test_dtype_free_accepts_null(void **state)
{
    (void)state;
    npydt_dtype_free(NULL);
    npydt_header_free(NULL);
}

TEST_LIST("dtype",
    cmocka_unit_test(test_dtype_typestr_little_f8),
    cmocka_unit_test(test_dtype_names_and_titles_may_hold_nul),
    cmocka_unit_test(test_dtype_equal_tells_names_apart_after_a_nul),
    cmocka_unit_test(test_dtype_names_equal_up_to_a_nul_are_not_duplicates),
    cmocka_unit_test(test_dtype_typestr_numbers_past_int_max_are_refused),
    cmocka_unit_test(test_dtype_unicode_itemsize_is_four_bytes_per_char),
    cmocka_unit_test(test_dtype_one_byte_types_have_no_byte_order),
    cmocka_unit_test(test_dtype_native_and_not_applicable_orders_are_little_endian),
    cmocka_unit_test(test_dtype_type_names_resolve_as_on_linux_x86_64),
    cmocka_unit_test(test_dtype_type_names_take_no_byte_order_prefix),
    cmocka_unit_test(test_dtype_datetime_units_and_multipliers),
    cmocka_unit_test(test_dtype_datetime_divisor_becomes_smaller_unit),
    cmocka_unit_test(test_dtype_datetime_generic_has_unit_generic),
    cmocka_unit_test(test_dtype_generic_datetime_multiplier_is_kept_but_not_printed),
    cmocka_unit_test(test_dtype_comma_string_makes_struct_f0_f1_f2),
    cmocka_unit_test(test_dtype_subarray_prefix_alone_is_a_subarray),
    cmocka_unit_test(test_dtype_struct_offsets_are_packed),
    cmocka_unit_test(test_dtype_padding_entries_move_offsets_and_count_in_itemsize),
    cmocka_unit_test(test_dtype_empty_name_with_non_void_type_is_a_field),
    cmocka_unit_test(test_dtype_empty_name_subarray_is_padding_as_in_numpy),
    cmocka_unit_test(test_dtype_titles_are_kept_and_printed),
    cmocka_unit_test(test_dtype_duplicate_names_are_refused_with_path),
    cmocka_unit_test(test_dtype_repeated_name_among_few_is_found),
    cmocka_unit_test(test_dtype_repeated_name_among_many_is_found),
    cmocka_unit_test(test_dtype_repeat_right_after_its_original_in_ascending_names_is_found),
    cmocka_unit_test(test_dtype_title_repeating_an_earlier_name_among_many_is_found),
    cmocka_unit_test(test_dtype_name_key_spreads_names_differing_in_their_last_bytes),
    cmocka_unit_test(test_dtype_names_colliding_in_the_hash_table_are_still_checked),
    cmocka_unit_test(test_dtype_title_equal_to_its_own_name_is_refused),
    cmocka_unit_test(test_dtype_nested_subarrays_are_not_collapsed),
    cmocka_unit_test(test_dtype_shape_one_as_int_means_no_subarray),
    cmocka_unit_test(test_dtype_unsized_flexible_with_int_sets_itemsize),
    cmocka_unit_test(test_dtype_empty_subarray_with_int_takes_that_size),
    cmocka_unit_test(test_dtype_empty_subarray_with_shape_is_refused),
    cmocka_unit_test(test_dtype_subarray_bytes_must_fit_c_int),
    cmocka_unit_test(test_dtype_empty_struct),
    cmocka_unit_test(test_dtype_leaves_flatten_nesting_and_subarrays),
    cmocka_unit_test(test_dtype_leaves_of_nested_subarray_merge_into_one_run),
    cmocka_unit_test(test_dtype_equal_distinguishes_byte_order),
    cmocka_unit_test(test_dtype_descr_quotes_names_like_python_repr),
    cmocka_unit_test(test_dtype_descr_reports_needed_length_like_snprintf),
    cmocka_unit_test(test_dtype_free_accepts_null),
);

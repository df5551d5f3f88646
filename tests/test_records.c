/* Field lookup and the typed readers. */
#include "test_util.h"

#include "records/records.h"   /* float conversions, checked against the FPU */

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- field lookup ------------------------------------------------------------- */

static void lookup_ok(const npydt_dtype *dt, const char *path, uint64_t want_off,
                      char want_kind, size_t want_size)
{
    uint64_t off;
    const npydt_dtype *fd;
    TEST_ERROR(err);
    if (npydt_field_lookup(dt, path, &off, &fd, &err) != NPYDT_OK)
        fail_msg("lookup %s: %s", path, err.message);
    assert_int_equal(off, want_off);
    assert_int_equal(npydt_dtype_kind(fd), want_kind);
    assert_int_equal(npydt_dtype_itemsize(fd), want_size);
}

static void test_records_field_nested_names(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("struct_nested3.npy");
    lookup_ok(test_reader_dtype(f), "a.b.d", 2, 'f', 4);
    lookup_ok(test_reader_dtype(f), "a.e", 6, 'u', 1);
    lookup_ok(test_reader_dtype(f), "g", 15, 'f', 16);
    lookup_ok(test_reader_dtype(f), "a.b", 0, 'V', 6);
    npydt_reader_close(f);
}

static void test_records_field_titles(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("struct_titles.npy");
    lookup_ok(test_reader_dtype(f), "Title A", 4, 'i', 4);
    lookup_ok(test_reader_dtype(f), "a", 4, 'i', 4);
    lookup_ok(test_reader_dtype(f), "t\xc3\xa9", 16, 'u', 1);
    npydt_reader_close(f);
}

static void test_records_field_subarray_indices(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("struct_subarray_fields.npy");
    lookup_ok(test_reader_dtype(f), "m[1][2]", 12 + 5 * 2, 'i', 2);
    lookup_ok(test_reader_dtype(f), "m[1,2]", 12 + 5 * 2, 'i', 2);
    lookup_ok(test_reader_dtype(f), "v[2]", 8, 'f', 4);
    lookup_ok(test_reader_dtype(f), "m", 12, 'V', 12);
    npydt_reader_close(f);
}

static void test_records_field_subarray_of_struct(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("struct_subarray_of_struct.npy");
    lookup_ok(test_reader_dtype(f), "pts[1].y", 12 + 4, 'i', 8);
    lookup_ok(test_reader_dtype(f), "pts[0].x", 0, 'f', 4);
    npydt_reader_close(f);
}

static void test_records_field_nested_subarrays_take_more_indices(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("struct_nested_subarray.npy");
    lookup_ok(test_reader_dtype(f), "x[2][1]", 2 * 16 + 8, 'f', 8);
    lookup_ok(test_reader_dtype(f), "x[2]", 2 * 16, 'V', 16);
    npydt_reader_close(f);
}

static void test_records_field_empty_path_is_the_dtype(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<i4')]");
    uint64_t off = 7;
    const npydt_dtype *fd;
    assert_int_equal(npydt_field_lookup(dt, "", &off, &fd, NULL), NPYDT_OK);
    assert_int_equal(off, 0);
    assert_ptr_equal(fd, dt);
    npydt_dtype_free(dt);
}

static void test_records_field_longest_name_wins(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', [('b', '<i2')]), ('a.b', '<f8')]");
    lookup_ok(dt, "a.b", 2, 'f', 8);
    npydt_dtype_free(dt);
}

static void field_error(const npydt_dtype *dt, const char *path, const char *needle)
{
    uint64_t off;
    const npydt_dtype *fd;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_NOT_FOUND, &err, npydt_field_lookup(dt, path, &off, &fd, &err));
    assert_string_equal(err.path, path);
    if (!strstr(err.message, needle))
        fail_msg("lookup %s: message '%s' lacks '%s'", path, err.message, needle);
}

static void test_records_field_errors_name_the_path(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(
        "[('pos', [('x', '<f8'), ('y', '<f8')]), ('s', '<i2', (8,)), ('g', '<i2', (2, 3))]");
    field_error(dt, "pos.q", "no field 'q'");
    field_error(dt, "nope", "no field 'nope'");
    field_error(dt, "s[8]", "out of range");
    field_error(dt, "g[1]", "2 dimensions");
    field_error(dt, "pos.x.y", "not a struct");
    field_error(dt, "pos[0]", "not a subarray");
    field_error(dt, "s[x]", "expected an index");
    field_error(dt, "s[1]x", "expected '.'");
    npydt_dtype_free(dt);
}

/* ---- typed readers --------------------------------------------------------------- */

static void test_records_read_i64_all_sizes_both_orders(void **state)
{
    (void)state;
    static const char *files[] = {"scalar_i2_le.npy", "scalar_i2_be.npy", "scalar_i4_le.npy",
                                  "scalar_i4_be.npy", "scalar_i8_le.npy", "scalar_i8_be.npy"};
    static const int64_t mins[] = {INT16_MIN, INT16_MIN, INT32_MIN, INT32_MIN, INT64_MIN,
                                   INT64_MIN};
    static const int64_t maxs[] = {INT16_MAX, INT16_MAX, INT32_MAX, INT32_MAX, INT64_MAX,
                                   INT64_MAX};
    for (size_t k = 0; k < 6; k++) {
        npydt_reader *f = test_open_fixture(files[k]);
        int64_t want[6] = {mins[k], mins[k] + 1, -1, 0, 1, maxs[k]};
        for (uint64_t i = 0; i < 6; i++) {
            int64_t v;
            assert_int_equal(npydt_read_i64(test_reader_dtype(f), test_element_at(f, i), &v, NULL), NPYDT_OK);
            assert_true(v == want[i]);
        }
        npydt_reader_close(f);
    }
}

static void test_records_read_u64_max_and_range(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("scalar_u8_be.npy");
    uint64_t u;
    int64_t s;
    TEST_ERROR(err);
    assert_int_equal(npydt_read_u64(test_reader_dtype(f), test_element_at(f, 3), &u, NULL), NPYDT_OK);
    assert_true(u == UINT64_MAX);
    assert_fails(NPYDT_E_RANGE, &err, npydt_read_i64(test_reader_dtype(f), test_element_at(f, 3), &s, &err));
    assert_fails(NPYDT_E_RANGE, &err, npydt_read_i64(test_reader_dtype(f), test_element_at(f, 2), &s, &err));
    assert_int_equal(npydt_read_i64(test_reader_dtype(f), test_element_at(f, 1), &s, &err), NPYDT_OK);
    assert_true(s == 1);
    npydt_reader_close(f);
    f = test_open_fixture("scalar_i1.npy");
    assert_fails(NPYDT_E_RANGE, &err, npydt_read_u64(test_reader_dtype(f), test_element_at(f, 0), &u, &err));
    npydt_reader_close(f);
}

static void test_records_read_i64_from_float_needs_integers(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'>f8'");
    unsigned char b[8];
    int64_t v;
    TEST_ERROR(err);
    test_store_f8(-3.0, '>', b);
    assert_int_equal(npydt_read_i64(dt, b, &v, NULL), NPYDT_OK);
    assert_true(v == -3);
    test_store_f8(1.5, '>', b);
    assert_fails(NPYDT_E_RANGE, &err, npydt_read_i64(dt, b, &v, &err));
    test_store_f8(NAN, '>', b);
    assert_fails(NPYDT_E_RANGE, &err, npydt_read_i64(dt, b, &v, &err));
    npydt_dtype_free(dt);
}

/* The value in the message is spelled as the command writes a double
 * (shortest round trip), not with 17 significant digits. */
static void test_records_read_i64_from_float_names_the_value_as_written(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<f8'");
    unsigned char b[8];
    int64_t v;
    TEST_ERROR(err);
    test_store_f8(0.1, '<', b);
    assert_fails(NPYDT_E_RANGE, &err, npydt_read_i64(dt, b, &v, &err));
    assert_string_equal(err.message, "0.1 is not an integer that fits int64");
    test_store_f8(1e300, '<', b);
    assert_fails(NPYDT_E_RANGE, &err, npydt_read_i64(dt, b, &v, &err));
    assert_string_equal(err.message, "1e+300 is not an integer that fits int64");
    npydt_dtype_free(dt);
}

static int same_double(double a, double b)
{
    if (a != a || b != b)
        return a != a && b != b;
    return memcmp(&a, &b, sizeof a) == 0;
}

static void test_records_read_double_half_both_orders(void **state)
{
    (void)state;
    static const double want[] = {0.0, -0.0, 1.5, -2.25, NAN, INFINITY, -INFINITY, 65504.0,
                                  -65504.0, 6.103515625e-05, 5.960464477539063e-08,
                                  0.0999755859375, 0.333251953125};
    static const char *files[] = {"scalar_f2_le.npy", "scalar_f2_be.npy"};
    for (int k = 0; k < 2; k++) {
        npydt_reader *f = test_open_fixture(files[k]);
        for (uint64_t i = 0; i < 13; i++) {
            double v;
            assert_int_equal(npydt_read_double(test_reader_dtype(f), test_element_at(f, i), &v, NULL),
                             NPYDT_OK);
            if (!same_double(v, want[i]))
                fail_msg("%s[%llu]: %.17g, expected %.17g", files[k], (unsigned long long)i, v,
                         want[i]);
        }
        npydt_reader_close(f);
    }
}

static void test_records_read_double_long_double_both_orders(void **state)
{
    (void)state;
    /* the fixture's expectation, from NumPy's float(np.longdouble) */
    static const double want[] = {0.0, -0.0, 0.3333333333333333, 0.6666666666666666,
                                  INFINITY, -INFINITY, 0.0, 0.0, 1.0, 1.0000000000000004, NAN,
                                  INFINITY, -INFINITY, 1.0, 5e-324, INFINITY};
    static const char *files[] = {"scalar_f16_le.npy", "scalar_f16_be.npy"};
    for (int k = 0; k < 2; k++) {
        npydt_reader *f = test_open_fixture(files[k]);
        for (uint64_t i = 0; i < 16; i++) {
            double v;
            assert_int_equal(npydt_read_double(test_reader_dtype(f), test_element_at(f, i), &v, NULL),
                             NPYDT_OK);
            if (!same_double(v, want[i]))
                fail_msg("%s[%llu]: %.17g, expected %.17g", files[k], (unsigned long long)i, v,
                         want[i]);
        }
        npydt_reader_close(f);
    }
}

static void test_records_half_round_trips_every_value(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 0x10000; h++) {
        double d = text_f16_of_bits((uint16_t)h);
        if (d != d)
            continue;
        assert_int_equal(text_bits_of_f16(d), h);
    }
    /* ties to even between 1 and the next half (2^-10 apart) */
    assert_int_equal(text_bits_of_f16(1.0 + 0.5 / 1024), 0x3c00);
    assert_int_equal(text_bits_of_f16(1.0 + 1.5 / 1024), 0x3c02);
    assert_int_equal(text_bits_of_f16(65520.0), 0x7c00);   /* rounds up to inf */
    assert_int_equal(text_bits_of_f16(65519.99), 0x7bff);
    assert_int_equal(text_bits_of_f16(0x1p-25), 0x0000);   /* tie to even: 0 */
    assert_int_equal(text_bits_of_f16(0x1.8p-25), 0x0001);
}

/* The x87 FPU's 80-bit long double is the reference: only x86 machines
 * have one (elsewhere long double is another format, and the test skips). */
#if LDBL_MANT_DIG == 64 && (defined(__x86_64__) || defined(__i386__))
#define HAVE_X87_LONG_DOUBLE 1
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}
#endif

static void test_records_ext80_matches_the_fpu(void **state)
{
    (void)state;
#ifdef HAVE_X87_LONG_DOUBLE
    /* the reference is the FPU's own 80-bit arithmetic; an emulated one
     * (valgrind computes long doubles as doubles) cannot serve */
    volatile long double one = 1.0L, eps = LDBL_EPSILON;
    if (one + eps == one)
        skip();
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (long i = 0; i < 2000000; i++) {
        uint64_t m = rng_next(&s);
        uint16_t se;
        uint64_t r = rng_next(&s);
        switch (r % 8) {
        case 0: se = (uint16_t)(r >> 8); break;                                 /* anything */
        case 1: se = (uint16_t)((r >> 16) & 0x8000) | 0x7fff; break;            /* inf/NaN */
        case 2: se = (uint16_t)((r >> 16) & 0x8000); break;                     /* denormal */
        case 3: se = (uint16_t)(((r >> 16) & 0x8000) | (15300 + (r >> 20) % 120)); break;
        case 4: se = (uint16_t)(((r >> 16) & 0x8000) | (16383 + 1010 + (r >> 20) % 20)); break;
        case 5: m &= ~(UINT64_C(0x7ff) >> ((r >> 30) % 12)); /* fallthrough */
        case 6: m |= UINT64_C(1) << 63; se = (uint16_t)(16383 - 1030 + (r >> 20) % 2100); break;
        default: m = (m & ~UINT64_C(0x7ff)) | ((r >> 40) & 1 ? 0x400 : 0x3ff);
            m |= UINT64_C(1) << 63;
            se = (uint16_t)(16383 - 1100 + (r >> 20) % 2200);
            break;
        }
        unsigned char b[16] = {0};
        memcpy(b, &m, 8);
        memcpy(b + 8, &se, 2);
        long double ld;
        memcpy(&ld, b, sizeof ld);
        double want = (double)ld;
        double got = ext80_to_double(m, se);
        if (!same_double(got, want))
            fail_msg("m=%016llx se=%04x: %a, FPU gives %a", (unsigned long long)m, se, got, want);
    }
    /* and back: every double is exact */
    for (long i = 0; i < 200000; i++) {
        uint64_t bits = rng_next(&s);
        double d;
        memcpy(&d, &bits, 8);
        if (d != d)
            continue;
        uint64_t m;
        uint16_t se;
        double_to_ext80(d, &m, &se);
        long double ld = d;
        unsigned char b[16];
        memcpy(b, &ld, 10);
        uint64_t wm;
        uint16_t wse;
        memcpy(&wm, b, 8);
        memcpy(&wse, b + 8, 2);
        assert_true(m == wm && se == wse);
    }
#else
    skip();
#endif
}

static void test_records_read_complex_c32_big_endian(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("scalar_c32_be.npy");
    double v[2];
    assert_int_equal(npydt_read_complex(test_reader_dtype(f), test_element_at(f, 0), v, NULL), NPYDT_OK);
    assert_true(v[0] == 1.0 && v[1] == 2.0);
    assert_int_equal(npydt_read_complex(test_reader_dtype(f), test_element_at(f, 3), v, NULL), NPYDT_OK);
    assert_true(v[0] != v[0] && v[1] == 1.0);
    assert_int_equal(npydt_read_complex(test_reader_dtype(f), test_element_at(f, 4), v, NULL), NPYDT_OK);
    /* the casts drop x87 excess precision */
    assert_true(v[0] == (double)0.1 && v[1] == (double)1e300);
    npydt_reader_close(f);
}

static void test_records_read_bool_any_nonzero_byte(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'|b1'");
    unsigned char b[3] = {0, 1, 2};
    int v;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(npydt_read_bool(dt, b + i, &v, NULL), NPYDT_OK);
        assert_int_equal(v, i != 0);
    }
    npydt_dtype_free(dt);
}

static void test_records_read_bytes_trims_trailing_nuls_only(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("scalar_S5.npy");
    const void *b;
    size_t n;
    /* b"\xff\x00a" and b"a\x00\x00" */
    assert_int_equal(npydt_read_bytes(test_reader_dtype(f), test_element_at(f, 1), &b, &n, NULL), NPYDT_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(b, "\xff\0a", 3);
    assert_int_equal(npydt_read_bytes(test_reader_dtype(f), test_element_at(f, 4), &b, &n, NULL), NPYDT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(npydt_read_bytes(test_reader_dtype(f), test_element_at(f, 2), &b, &n, NULL), NPYDT_OK);
    assert_int_equal(n, 0);
    npydt_reader_close(f);
}

static void test_records_read_unicode_to_utf8(void **state)
{
    (void)state;
    static const char *files[] = {"scalar_U3_le.npy", "scalar_U3_be.npy"};
    for (int k = 0; k < 2; k++) {
        npydt_reader *f = test_open_fixture(files[k]);
        char buf[16];
        size_t n;
        assert_int_equal(npydt_read_unicode(test_reader_dtype(f), test_element_at(f, 0), buf, sizeof buf, &n,
                                            NULL),
                         NPYDT_OK);
        assert_string_equal(buf, "\xc3\xa9t\xc3\xa9");
        assert_int_equal(n, 5);
        assert_int_equal(npydt_read_unicode(test_reader_dtype(f), test_element_at(f, 2), buf, sizeof buf, &n,
                                            NULL),
                         NPYDT_OK);
        assert_string_equal(buf, "\xf0\x9f\x98\x80!");
        /* "a\0b" keeps the inner NUL */
        assert_int_equal(npydt_read_unicode(test_reader_dtype(f), test_element_at(f, 4), buf, sizeof buf, &n,
                                            NULL),
                         NPYDT_OK);
        assert_int_equal(n, 3);
        assert_memory_equal(buf, "a\0b", 4);
        TEST_ERROR(err);
        assert_fails(NPYDT_E_RANGE, &err,
                     npydt_read_unicode(test_reader_dtype(f), test_element_at(f, 0), buf, 5, &n, &err));
        assert_int_equal(n, 5);
        npydt_reader_close(f);
    }
}

static void test_records_read_unicode_surrogates_and_bad_units(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<U2'");
    unsigned char b[8] = {0x00, 0xd8, 0, 0, 0x41, 0, 0, 0};
    char buf[16];
    size_t n;
    TEST_ERROR(err);
    assert_int_equal(npydt_read_unicode(dt, b, buf, sizeof buf, &n, NULL), NPYDT_OK);
    assert_memory_equal(buf, "\xed\xa0\x80" "A", 5);
    b[2] = 0x11;   /* 0x11d800 */
    assert_fails(NPYDT_E_ENCODING, &err, npydt_read_unicode(dt, b, buf, sizeof buf, &n, &err));
    npydt_dtype_free(dt);
}

static void test_records_read_datetime_unit_and_nat(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("scalar_M8_25s_be.npy");
    npydt_datetime t;
    assert_int_equal(npydt_read_datetime(test_reader_dtype(f), test_element_at(f, 3), &t, NULL), NPYDT_OK);
    assert_true(t.count == 1700000000);
    assert_int_equal(t.unit, NPYDT_UNIT_s);
    assert_int_equal(t.unit_count, 25);
    assert_false(t.is_nat);
    assert_int_equal(npydt_read_datetime(test_reader_dtype(f), test_element_at(f, 6), &t, NULL), NPYDT_OK);
    assert_true(t.is_nat);
    assert_true(t.count == NPYDT_NAT);
    assert_int_equal(npydt_read_datetime(test_reader_dtype(f), test_element_at(f, 5), &t, NULL), NPYDT_OK);
    assert_false(t.is_nat);
    npydt_reader_close(f);
}

static void test_records_readers_refuse_wrong_kinds(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('s', 'S3'), ('o', '|O'), ('x', '<f8')]");
    unsigned char rec[32] = {0};
    double d;
    int64_t i;
    npydt_datetime t;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_read_double(dt, rec, &d, &err));
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_read_double(npydt_dtype_field_dtype(dt, 0), rec, &d, &err));
    assert_fails(NPYDT_E_OBJECT, &err,
                 npydt_read_i64(npydt_dtype_field_dtype(dt, 1), rec, &i, &err));
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_read_datetime(npydt_dtype_field_dtype(dt, 2), rec, &t, &err));
    npydt_dtype_free(dt);
}

/* ---- arguments and the rarer paths ------------------------------------------------ */

static void test_records_readers_refuse_null_and_non_scalars(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("('<f8', (2,))");
    unsigned char rec[16] = {0};
    double d;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_read_double(NULL, rec, &d, &err));
    assert_string_equal(err.message, "dtype or pointer is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_read_double(dt, NULL, &d, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_read_double(dt, rec, &d, &err));
    assert_string_equal(err.message, "cannot read a subarray as double: not a scalar");
    npydt_dtype_free(dt);
}

static void test_records_read_bool_of_numbers(void **state)
{
    (void)state;
    static const char *const types[] = {"'>i4'", "'<u2'", "'>f8'", "'<c8'"};
    for (size_t t = 0; t < 4; t++) {
        npydt_dtype *dt = test_parse_literal(types[t]);
        unsigned char z[16] = {0}, one[16] = {0};
        /* a nonzero last byte: the lowest of '>' integers, the sign-free
         * top of a float, the imaginary part of a complex */
        one[npydt_dtype_itemsize(dt) - 1] = 0x40;
        int v = 7;
        assert_int_equal(npydt_read_bool(dt, z, &v, NULL), NPYDT_OK);
        assert_int_equal(v, 0);
        assert_int_equal(npydt_read_bool(dt, one, &v, NULL), NPYDT_OK);
        assert_int_equal(v, 1);
        npydt_dtype_free(dt);
    }
    npydt_dtype *dt = test_parse_literal("'<f8'");
    double nan = NAN;
    int v = 0;
    assert_int_equal(npydt_read_bool(dt, &nan, &v, NULL), NPYDT_OK);
    assert_int_equal(v, 1);
    npydt_dtype_free(dt);
}

static void test_records_read_complex_of_a_real(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<i2'");
    unsigned char b[2] = {0xfe, 0xff}; /* -2 */
    double v[2] = {9, 9};
    assert_int_equal(npydt_read_complex(dt, b, v, NULL), NPYDT_OK);
    assert_true(v[0] == -2.0 && v[1] == 0.0);
    npydt_dtype_free(dt);
}

static void test_records_readers_name_the_wrong_kind(void **state)
{
    (void)state;
    npydt_dtype *s = test_parse_literal("'|S3'");
    npydt_dtype *i = test_parse_literal("'<i4'");
    unsigned char b[8] = {0};
    double v[2];
    int flag;
    const void *bytes;
    size_t n;
    char buf[8];
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_read_complex(s, b, v, &err));
    assert_string_equal(err.message, "cannot read |S3 as complex");
    assert_fails(NPYDT_E_ARG, &err, npydt_read_bool(s, b, &flag, &err));
    assert_string_equal(err.message, "cannot read |S3 as bool");
    assert_fails(NPYDT_E_ARG, &err, npydt_read_bytes(i, b, &bytes, &n, &err));
    assert_string_equal(err.message, "cannot read <i4 as bytes");
    assert_fails(NPYDT_E_ARG, &err, npydt_read_unicode(s, b, buf, sizeof buf, &n, &err));
    assert_string_equal(err.message, "cannot read |S3 as unicode");
    npydt_dtype_free(s);
    npydt_dtype_free(i);
}

static void test_records_read_unicode_refuses_null_buffers(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<U2'");
    unsigned char b[8] = {'a', 0, 0, 0, 0, 0, 0, 0};
    char buf[8];
    size_t n = 5;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_read_unicode(dt, b, buf, sizeof buf, NULL, &err));
    assert_string_equal(err.message, "len or buf is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_read_unicode(dt, b, NULL, 8, &n, &err));
    assert_int_equal(n, 5);
    /* no buffer at all only measures */
    assert_fails(NPYDT_E_RANGE, &err, npydt_read_unicode(dt, b, NULL, 0, &n, &err));
    assert_int_equal(n, 1);
    npydt_dtype_free(dt);
}

/* The 80-bit format's special values: infinities and NaNs keep the
 * explicit integer bit and the payload, zeros keep their sign. */
static void test_records_ext80_specials_from_double(void **state)
{
    (void)state;
    uint64_t m;
    uint16_t se;
    double_to_ext80(INFINITY, &m, &se);
    assert_int_equal(m, UINT64_C(1) << 63);
    assert_int_equal(se, 0x7fff);
    double_to_ext80(-INFINITY, &m, &se);
    assert_int_equal(se, 0xffff);
    double_to_ext80(text_f64_of_bits(UINT64_C(0x7ff8000000000001)), &m, &se);
    assert_int_equal(m, UINT64_C(0xC000000000000800));
    assert_int_equal(se, 0x7fff);
    double_to_ext80(-0.0, &m, &se);
    assert_int_equal(m, 0);
    assert_int_equal(se, 0x8000);
    assert_true(ext80_to_double(m, se) == 0.0 && signbit(ext80_to_double(m, se)));
    int_to_ext80(0, true, &m, &se);
    assert_int_equal(m, 0);
    assert_int_equal(se, 0x8000);
}

/* store_float in each size gives the bytes NumPy holds for the value. */
static void test_records_store_float_every_size(void **state)
{
    (void)state;
    unsigned char p[16];
    store_float(p, 2, '>', 1.5);
    assert_memory_equal(p, "\x3e\x00", 2);
    store_float(p, 8, '<', -2.0);
    assert_memory_equal(p, "\0\0\0\0\0\0\0\xc0", 8);
    store_float(p, 16, '>', 1.0);   /* 0x3fff, then the integer bit; padded in front */
    assert_memory_equal(p, "\0\0\0\0\0\0\x3f\xff\x80\0\0\0\0\0\0\0", 16);
    assert_true(load_float(p, 16, '>') == 1.0);
    store_float_int(p, 4, '<', 3, true);
    assert_true(load_float(p, 4, '<') == -3.0);
    assert_int_equal(text_bits_of_f16(1e6), 0x7c00);
    assert_int_equal(text_bits_of_f16(-1e6), 0xfc00);
    assert_int_equal(text_bits_of_f16(-INFINITY), 0xfc00);
}

static void test_records_field_lookup_refuses_null_arguments(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<i2')]");
    uint64_t off;
    const npydt_dtype *f;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_field_lookup(NULL, "a", &off, &f, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_field_lookup(dt, NULL, &off, &f, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_field_lookup(dt, "a", NULL, &f, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_field_lookup(dt, "a", &off, NULL, &err));
    assert_string_equal(err.message, "argument is NULL");
    npydt_dtype_free(dt);
}

/* A path is bytes with a length: a NUL inside a name is part of it, in
 * the leaf table and in lookups. */
static void test_records_paths_carry_names_with_nul(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(
        "[('a', '<i4'), ('a\\x00', [('x\\x00', '<i2'), ('x', '|u1')], (2,)), (('t\\x00', 'b'), '|u1')]");
    size_t n;
    const npydt_leaf *l = npydt_dtype_leaves(dt, &n);
    assert_int_equal(n, 4);
    (void)l;
    char path[8];
    assert_int_equal(npydt_dtype_leaf_path(dt, 0, path, sizeof path), 1);
    assert_int_equal(npydt_dtype_leaf_path(dt, 1, path, sizeof path), 5);
    assert_memory_equal(path, "a\0.x\0", 6);   /* with its terminator */
    assert_int_equal(npydt_dtype_leaf_path(dt, 2, path, sizeof path), 4);
    assert_memory_equal(path, "a\0.x", 5);
    assert_int_equal(npydt_dtype_leaf_path(dt, 3, path, sizeof path), 1);
    uint64_t off;
    const npydt_dtype *f;
    TEST_ERROR(err);
    assert_int_equal(npydt_field_lookup_len(dt, "a\0[1].x\0", 8, &off, &f, &err), NPYDT_OK);
    assert_int_equal(off, 4 + 3 + 0);
    assert_int_equal(npydt_dtype_itemsize(f), 2);
    assert_int_equal(npydt_field_lookup_len(dt, "a\0[1].x", 7, &off, &f, &err), NPYDT_OK);
    assert_int_equal(off, 4 + 3 + 2);
    /* by title, and the C string view, which stops at the NUL: field 'a' */
    assert_int_equal(npydt_field_lookup_len(dt, "t\0", 2, &off, &f, &err), NPYDT_OK);
    assert_int_equal(off, 10);
    assert_int_equal(npydt_field_lookup(dt, "a\0[1]", &off, &f, &err), NPYDT_OK);
    assert_int_equal(off, 0);
    /* a name that is only a prefix up to the NUL is not the field */
    assert_fails(NPYDT_E_NOT_FOUND, &err,
                 npydt_field_lookup_len(dt, "a\0[1].y\0", 8, &off, &f, &err));
    assert_string_equal(err.path, "a\\x00[1].y\\x00");
    assert_string_equal(err.message, "no field 'y\\x00' (after 'a\\x00[1]')");
    npydt_dtype_free(dt);
}

/* "[1, 2]" takes spaces after the comma; an index of 2**64 or more, and
 * anything but ',' or ']' after an index, are refused where they stand. */
static void test_records_field_index_spacing_and_errors(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('g', '<i2', (2, 3))]");
    uint64_t off;
    const npydt_dtype *f;
    TEST_ERROR(err);
    assert_int_equal(npydt_field_lookup(dt, "g[1,  2]", &off, &f, &err), NPYDT_OK);
    assert_int_equal(off, 10);
    assert_fails(NPYDT_E_NOT_FOUND, &err,
                 npydt_field_lookup(dt, "g[18446744073709551616]", &off, &f, &err));
    assert_int_equal(err.offset, NPYDT_NO_OFFSET);
    assert_string_equal(err.path, "g[18446744073709551616]");
    assert_string_equal(err.message, "index too large (after 'g[1844674407370955161')");
    assert_int_equal(npydt_field_lookup(dt, "g[1;2]", &off, &f, &err), NPYDT_E_NOT_FOUND);
    assert_string_equal(err.message, "expected ',' or ']' (after 'g[1')");
    npydt_dtype_free(dt);
}

TEST_LIST("records",
    cmocka_unit_test(test_records_field_nested_names),
    cmocka_unit_test(test_records_field_titles),
    cmocka_unit_test(test_records_field_subarray_indices),
    cmocka_unit_test(test_records_field_subarray_of_struct),
    cmocka_unit_test(test_records_field_nested_subarrays_take_more_indices),
    cmocka_unit_test(test_records_field_empty_path_is_the_dtype),
    cmocka_unit_test(test_records_field_longest_name_wins),
    cmocka_unit_test(test_records_field_errors_name_the_path),
    cmocka_unit_test(test_records_read_i64_all_sizes_both_orders),
    cmocka_unit_test(test_records_read_u64_max_and_range),
    cmocka_unit_test(test_records_read_i64_from_float_needs_integers),
    cmocka_unit_test(test_records_read_i64_from_float_names_the_value_as_written),
    cmocka_unit_test(test_records_read_double_half_both_orders),
    cmocka_unit_test(test_records_read_double_long_double_both_orders),
    cmocka_unit_test(test_records_half_round_trips_every_value),
    cmocka_unit_test(test_records_ext80_matches_the_fpu),
    cmocka_unit_test(test_records_read_complex_c32_big_endian),
    cmocka_unit_test(test_records_read_bool_any_nonzero_byte),
    cmocka_unit_test(test_records_read_bytes_trims_trailing_nuls_only),
    cmocka_unit_test(test_records_read_unicode_to_utf8),
    cmocka_unit_test(test_records_read_unicode_surrogates_and_bad_units),
    cmocka_unit_test(test_records_read_datetime_unit_and_nat),
    cmocka_unit_test(test_records_readers_refuse_wrong_kinds),
    cmocka_unit_test(test_records_readers_refuse_null_and_non_scalars),
    cmocka_unit_test(test_records_read_bool_of_numbers),
    cmocka_unit_test(test_records_read_complex_of_a_real),
    cmocka_unit_test(test_records_readers_name_the_wrong_kind),
    cmocka_unit_test(test_records_read_unicode_refuses_null_buffers),
    cmocka_unit_test(test_records_ext80_specials_from_double),
    cmocka_unit_test(test_records_store_float_every_size),
    cmocka_unit_test(test_records_field_lookup_refuses_null_arguments),
    cmocka_unit_test(test_records_paths_carry_names_with_nul),
    cmocka_unit_test(test_records_field_index_spacing_and_errors),
);

/* The typed writers npydt_write_*: what each kind accepts, the exact
 * refusal of a value that does not fit (bytes left unchanged), byte
 * order, and round trips through the typed readers. */
#include "test_util.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every target starts as these bytes: a refused write must leave them. */
#define FILL 0x5A
#define BUF 40

static npydt_dtype *dtype_of(const char *type)
{
    char lit[128];
    snprintf(lit, sizeof lit, "'%s'", type);
    return test_parse_literal(lit);
}

/* A target buffer of FILL bytes and a poisoned error, for one write. */
struct target {
    npydt_dtype *dt;
    unsigned char b[BUF];
    npydt_error err;
};

static void target_init(struct target *t, const char *type)
{
    t->dt = dtype_of(type);
    memset(t->b, FILL, BUF);
    test_poison_error(&t->err);
}

/* The write was refused with code and exactly msg, path "", no byte changed. */
static void assert_refused(struct target *t, npydt_status st, npydt_status code, const char *msg)
{
    assert_int_equal(st, code);
    test_assert_error_filled(st, &t->err);
    assert_string_equal(t->err.message, msg);
    assert_string_equal(t->err.path, "");
    for (size_t i = 0; i < BUF; i++)
        if (t->b[i] != FILL)
            fail_msg("byte %zu changed by a refused write (%s)", i, msg);
    npydt_dtype_free(t->dt);
}

static void assert_written(struct target *t, npydt_status st, const void *bytes, size_t n)
{
    if (st != NPYDT_OK)
        fail_msg("refused: %s", t->err.message);
    assert_memory_equal(t->b, bytes, n);
    npydt_dtype_free(t->dt);
}

static npydt_status put_i64(struct target *t, const char *type, int64_t v)
{
    target_init(t, type);
    return npydt_write_i64(t->dt, t->b, v, &t->err);
}

static npydt_status put_u64(struct target *t, const char *type, uint64_t v)
{
    target_init(t, type);
    return npydt_write_u64(t->dt, t->b, v, &t->err);
}

static npydt_status put_double(struct target *t, const char *type, double v)
{
    target_init(t, type);
    return npydt_write_double(t->dt, t->b, v, &t->err);
}

static npydt_status put_complex(struct target *t, const char *type, double re, double im)
{
    double v[2] = {re, im};
    target_init(t, type);
    return npydt_write_complex(t->dt, t->b, v, &t->err);
}

static npydt_status put_text(struct target *t, const char *type, const char *s, size_t len)
{
    target_init(t, type);
    return npydt_write_unicode(t->dt, t->b, s, len, &t->err);
}

static npydt_status put_bytes(struct target *t, const char *type, const char *s, size_t len)
{
    target_init(t, type);
    return npydt_write_bytes(t->dt, t->b, s, len, &t->err);
}

static npydt_status put_time(struct target *t, const char *type, int64_t count, npydt_unit unit,
                             int32_t mult)
{
    npydt_datetime v = {count, unit, mult, 0};
    target_init(t, type);
    return npydt_write_datetime(t->dt, t->b, &v, &t->err);
}

/* ---- integers --------------------------------------------------------------- */

static void test_field_write_integers_follow_the_byte_order(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_i64(&t, "<i4", 0x01020304), "\x04\x03\x02\x01", 4);
    assert_written(&t, put_i64(&t, ">i4", 0x01020304), "\x01\x02\x03\x04", 4);
    assert_written(&t, put_i64(&t, ">i2", -2), "\xff\xfe", 2);
    assert_written(&t, put_u64(&t, "<u8", UINT64_C(0x0102030405060708)),
                   "\x08\x07\x06\x05\x04\x03\x02\x01", 8);
    assert_written(&t, put_u64(&t, ">u8", UINT64_C(0x0102030405060708)),
                   "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    assert_written(&t, put_i64(&t, "|u1", 255), "\xff", 1);
}

static void test_field_write_integer_limits_are_accepted(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_i64(&t, "<i1", -128), "\x80", 1);
    assert_written(&t, put_i64(&t, "<i1", 127), "\x7f", 1);
    assert_written(&t, put_i64(&t, "<i2", -32768), "\x00\x80", 2);
    assert_written(&t, put_i64(&t, "<u2", 65535), "\xff\xff", 2);
    assert_written(&t, put_i64(&t, "<i4", INT32_MIN), "\x00\x00\x00\x80", 4);
    assert_written(&t, put_u64(&t, "<u4", UINT32_MAX), "\xff\xff\xff\xff", 4);
    assert_written(&t, put_i64(&t, "<i8", INT64_MIN), "\0\0\0\0\0\0\0\x80", 8);
    assert_written(&t, put_u64(&t, "<u8", UINT64_MAX), "\xff\xff\xff\xff\xff\xff\xff\xff", 8);
}

static const struct {
    const char *type;
    int is_unsigned;
    int64_t i;
    uint64_t u;
    const char *message;
} integer_refusals[] = {
    {"|u1", 0, 300, 0, "300 does not fit u1 (0 to 255)"},
    {"<u2", 0, -1, 0, "-1 does not fit u2 (0 to 65535)"},
    {"|i1", 0, 128, 0, "128 does not fit i1 (-128 to 127)"},
    {"|i1", 0, -129, 0, "-129 does not fit i1 (-128 to 127)"},
    {">i2", 0, 32768, 0, "32768 does not fit i2 (-32768 to 32767)"},
    {"<i4", 0, INT64_C(2147483648), 0, "2147483648 does not fit i4 (-2147483648 to 2147483647)"},
    {"<u4", 0, INT64_C(4294967296), 0, "4294967296 does not fit u4 (0 to 4294967295)"},
    {"<u8", 0, -1, 0, "-1 does not fit u8 (0 to 18446744073709551615)"},
    {"<i8", 1, 0, UINT64_C(9223372036854775808),
     "9223372036854775808 does not fit i8 (-9223372036854775808 to 9223372036854775807)"},
    {"|b1", 0, 2, 0, "2 does not fit b1 (0 or 1)"},
    {"|b1", 0, -1, 0, "-1 does not fit b1 (0 or 1)"},
    {"<m8[s]", 1, 0, UINT64_C(9223372036854775808),
     "9223372036854775808 does not fit m8[s] (-9223372036854775808 to 9223372036854775807)"},
};

static void test_field_write_integer_out_of_range_names_value_and_range(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof integer_refusals / sizeof integer_refusals[0]; i++) {
        struct target t;
        npydt_status st = integer_refusals[i].is_unsigned
                              ? put_u64(&t, integer_refusals[i].type, integer_refusals[i].u)
                              : put_i64(&t, integer_refusals[i].type, integer_refusals[i].i);
        assert_refused(&t, st, NPYDT_E_RANGE, integer_refusals[i].message);
    }
}

static void test_field_write_integer_into_float_must_be_exact(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_i64(&t, "<f4", 16777217), NPYDT_E_RANGE,
                   "16777217 is not exactly representable in f4 (nearest 16777216.0)");
    assert_refused(&t, put_i64(&t, "<f2", 2049), NPYDT_E_RANGE,
                   "2049 is not exactly representable in f2 (nearest 2048.0)");
    assert_refused(&t, put_i64(&t, ">f8", INT64_C(9007199254740993)), NPYDT_E_RANGE,
                   "9007199254740993 is not exactly representable in f8 "
                   "(nearest 9007199254740992.0)");
    assert_refused(&t, put_i64(&t, "<f2", -70000), NPYDT_E_RANGE,
                   "-70000 does not fit f2 (-65504.0 to 65504.0)");
    assert_written(&t, put_i64(&t, "<f4", 16777216), "\x00\x00\x80\x4b", 4);
    assert_written(&t, put_i64(&t, ">f2", -2048), "\xe8\x00", 2);
}

static void test_field_write_integer_into_f16_keeps_all_64_bits(void **state)
{
    (void)state;
    struct target t;
    /* x87: significand with its integer bit, then sign and exponent 16383 + 63 */
    assert_written(&t, put_u64(&t, "<f16", UINT64_MAX),
                   "\xff\xff\xff\xff\xff\xff\xff\xff\x3e\x40\0\0\0\0\0\0", 16);
    assert_written(&t, put_i64(&t, ">f16", INT64_MIN),
                   "\0\0\0\0\0\0\xc0\x3e\x80\0\0\0\0\0\0\0", 16);
}

static void test_field_write_integer_into_complex_has_zero_imaginary_part(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_i64(&t, ">c8", 3), "\x40\x40\0\0\0\0\0\0", 8);
    assert_refused(&t, put_i64(&t, "<c8", 16777217), NPYDT_E_RANGE,
                   "16777217 is not exactly representable in c8 (nearest 16777216.0)");
}

static void test_field_write_integer_into_datetime_is_a_raw_count(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_i64(&t, "<M8[25s]", 7), "\x07\0\0\0\0\0\0\0", 8);
    assert_written(&t, put_i64(&t, ">m8", -1), "\xff\xff\xff\xff\xff\xff\xff\xff", 8);
    assert_written(&t, put_i64(&t, "<M8[D]", NPYDT_NAT), "\0\0\0\0\0\0\0\x80", 8);
}

/* ---- bools --------------------------------------------------------------------- */

static void test_field_write_bool_stores_0_or_1(void **state)
{
    (void)state;
    struct target t;
    target_init(&t, "|b1");
    assert_written(&t, npydt_write_bool(t.dt, t.b, 5, &t.err), "\x01", 1);
    target_init(&t, "<i2");
    assert_written(&t, npydt_write_bool(t.dt, t.b, -1, &t.err), "\x01\x00", 2);
    target_init(&t, ">f4");
    assert_written(&t, npydt_write_bool(t.dt, t.b, 1, &t.err), "\x3f\x80\0\0", 4);
    target_init(&t, "<c16");
    assert_written(&t, npydt_write_bool(t.dt, t.b, 0, &t.err), "\0\0\0\0\0\0\0\0", 8);
}

/* ---- doubles ------------------------------------------------------------------- */

static uint32_t f4_bits(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void test_field_write_double_into_f4_rounds_ties_to_even(void **state)
{
    (void)state;
    struct target t;
    assert_int_equal(put_double(&t, "<f4", 1.0 + ldexp(1, -24)), NPYDT_OK);
    assert_int_equal(f4_bits(t.b), 0x3f800000);   /* halfway: down to the even 1.0 */
    npydt_dtype_free(t.dt);
    assert_int_equal(put_double(&t, "<f4", 1.0 + 3 * ldexp(1, -24)), NPYDT_OK);
    assert_int_equal(f4_bits(t.b), 0x3f800002);   /* halfway: up to the even neighbour */
    npydt_dtype_free(t.dt);
    assert_int_equal(put_double(&t, "<f4", 1.0 + ldexp(1, -24) + ldexp(1, -50)), NPYDT_OK);
    assert_int_equal(f4_bits(t.b), 0x3f800001);   /* above halfway: up */
    npydt_dtype_free(t.dt);
    assert_int_equal(put_double(&t, "<f4", 3 * ldexp(1, -150)), NPYDT_OK);
    assert_int_equal(f4_bits(t.b), 2);            /* subnormal tie 1.5 ulp: to 2 ulp */
    npydt_dtype_free(t.dt);
    assert_int_equal(put_double(&t, "<f4", ldexp(1, -150)), NPYDT_OK);
    assert_int_equal(f4_bits(t.b), 0);            /* half the smallest subnormal: to 0 */
    npydt_dtype_free(t.dt);
}

static void test_field_write_double_into_f2_rounds_ties_to_even(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_double(&t, "<f2", 2049.0), "\x00\x68", 2);    /* 2048 */
    assert_written(&t, put_double(&t, "<f2", 2051.0), "\x02\x68", 2);    /* 2052 */
    assert_written(&t, put_double(&t, "<f2", 3 * ldexp(1, -25)), "\x02\x00", 2);
    assert_written(&t, put_double(&t, "<f2", ldexp(1, -25)), "\x00\x00", 2);
    assert_written(&t, put_double(&t, ">f2", 65519.99), "\x7b\xff", 2);   /* 65504 */
}

static void test_field_write_double_overflowing_a_float_is_refused(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_double(&t, "<f4", 1e300), NPYDT_E_RANGE,
                   "1e+300 does not fit f4 (-3.4028234663852886e+38 to 3.4028234663852886e+38)");
    assert_refused(&t, put_double(&t, "<f4", -0x1.ffffffp+127), NPYDT_E_RANGE,
                   "-3.4028235677973366e+38 does not fit f4 (-3.4028234663852886e+38 to "
                   "3.4028234663852886e+38)");
    assert_refused(&t, put_double(&t, ">f2", 65520.0), NPYDT_E_RANGE,
                   "65520.0 does not fit f2 (-65504.0 to 65504.0)");
    /* just below the halfway point: FLT_MAX */
    assert_written(&t, put_double(&t, "<f4", nextafter(0x1.ffffffp+127, 0)), "\xff\xff\x7f\x7f", 4);
}

static void test_field_write_double_keeps_nan_and_infinities(void **state)
{
    (void)state;
    static const char *const types[] = {"<f2", ">f4", "<f8", ">f16", "<c8"};
    static const double vals[3] = {INFINITY, -INFINITY, NAN};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        for (int k = 0; k < 3; k++) {
            struct target t;
            double back[2];
            assert_int_equal(put_double(&t, types[i], vals[k]), NPYDT_OK);
            assert_int_equal(npydt_read_complex(t.dt, t.b, back, NULL), NPYDT_OK);
            assert_true(k == 2 ? isnan(back[0]) : back[0] == vals[k]);
            npydt_dtype_free(t.dt);
        }
}

static void test_field_write_f16_is_x87_extended_on_every_machine(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_double(&t, "<f16", -1.5),
                   "\0\0\0\0\0\0\0\xc0\xff\xbf\0\0\0\0\0\0", 16);
    assert_written(&t, put_double(&t, ">f16", 1.0),
                   "\0\0\0\0\0\0\x3f\xff\x80\0\0\0\0\0\0\0", 16);
    assert_written(&t, put_double(&t, "<f16", ldexp(1, -1074)),   /* normal in x87 */
                   "\0\0\0\0\0\0\0\x80\xcd\x3b\0\0\0\0\0\0", 16);
}

static const struct {
    const char *type;
    double v;
    const char *message;
} double_refusals[] = {
    {"<i4", 2.5, "2.5 is not an integer (i4)"},
    {"<i4", -0.5, "-0.5 is not an integer (i4)"},
    {"<i4", NAN, "nan is not an integer (i4)"},
    {"<u8", INFINITY, "inf is not an integer (u8)"},
    {"<i8", 1e20, "1e+20 does not fit i8 (-9223372036854775808 to 9223372036854775807)"},
    {"<u8", 18446744073709551616.0,
     "1.8446744073709552e+19 does not fit u8 (0 to 18446744073709551615)"},
    {"|u1", -1.0, "-1.0 does not fit u1 (0 to 255)"},
    {"|b1", 2.0, "2.0 does not fit b1 (0 or 1)"},
    {"|b1", 0.5, "0.5 is not an integer (b1)"},
};

static void test_field_write_double_into_integer_must_be_integral_and_fit(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof double_refusals / sizeof double_refusals[0]; i++) {
        struct target t;
        assert_refused(&t, put_double(&t, double_refusals[i].type, double_refusals[i].v),
                       NPYDT_E_RANGE, double_refusals[i].message);
    }
}

static void test_field_write_double_into_integer_takes_the_whole_range(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_double(&t, "<i8", -9223372036854775808.0), "\0\0\0\0\0\0\0\x80", 8);
    assert_written(&t, put_double(&t, ">u8", 9223372036854775808.0), "\x80\0\0\0\0\0\0\0", 8);
    assert_written(&t, put_double(&t, "<i2", -0.0), "\0\0", 2);
    assert_written(&t, put_double(&t, "|b1", 1.0), "\x01", 1);
}

/* ---- complex -------------------------------------------------------------------- */

static void test_field_write_complex_stores_both_parts_in_order(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_complex(&t, ">c8", 1.5, -2.0), "\x3f\xc0\0\0\xc0\0\0\0", 8);
    assert_written(&t, put_complex(&t, "<c16", 1.0, 2.0),
                   "\0\0\0\0\0\0\xf0\x3f\0\0\0\0\0\0\0\x40", 16);
    assert_written(&t, put_complex(&t, "<c32", 1.0, -1.0),
                   "\0\0\0\0\0\0\0\x80\xff\x3f\0\0\0\0\0\0"
                   "\0\0\0\0\0\0\0\x80\xff\xbf\0\0\0\0\0\0", 32);
}

static void test_field_write_complex_overflowing_part_is_refused(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_complex(&t, "<c8", 1.0, -1e300), NPYDT_E_RANGE,
                   "(1.0-1e+300j) does not fit c8 parts (-3.4028234663852886e+38 to "
                   "3.4028234663852886e+38)");
    assert_refused(&t, put_double(&t, "<c8", 1e39), NPYDT_E_RANGE,
                   "1e+39 does not fit c8 parts (-3.4028234663852886e+38 to "
                   "3.4028234663852886e+38)");
}

static void test_field_write_complex_into_real_needs_zero_imaginary_part(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_complex(&t, "<f8", 1.0, 2.0), NPYDT_E_RANGE,
                   "(1.0+2.0j) has an imaginary part (f8 holds real numbers)");
    assert_refused(&t, put_complex(&t, "<i4", 1.0, NAN), NPYDT_E_RANGE,
                   "(1.0+nanj) has an imaginary part (i4 holds real numbers)");
    assert_written(&t, put_complex(&t, "<i4", 7.0, -0.0), "\x07\0\0\0", 4);
    assert_written(&t, put_complex(&t, ">f4", 1.0, 0.0), "\x3f\x80\0\0", 4);
}

/* ---- bytes and text --------------------------------------------------------------- */

static void test_field_write_bytes_are_nul_padded(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_bytes(&t, "|S5", "ab", 2), "ab\0\0\0", 5);
    assert_written(&t, put_bytes(&t, "|S3", "a\0b", 3), "a\0b", 3);
    assert_written(&t, put_bytes(&t, "|S2", NULL, 0), "\0\0", 2);
}

static void test_field_write_bytes_longer_than_the_field_are_refused(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_bytes(&t, "|S5", "abcdef", 6), NPYDT_E_RANGE,
                   "'abcdef' is longer than S5 (6 bytes)");
    assert_refused(&t, put_bytes(&t, "|S2", "a'\\\0\xff", 5), NPYDT_E_RANGE,
                   "'a\\'\\\\\\x00\\xff' is longer than S2 (5 bytes)");
    char big[100];
    memset(big, 'x', sizeof big);
    char want[128];
    snprintf(want, sizeof want, "'%.32s...' is longer than S5 (100 bytes)", big);
    assert_refused(&t, put_bytes(&t, "|S5", big, sizeof big), NPYDT_E_RANGE, want);
}

static void test_field_write_void_takes_exactly_its_size(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_bytes(&t, "|V4", "\x01\0\x02\0", 4), "\x01\0\x02\0", 4);
    assert_refused(&t, put_bytes(&t, "|V4", "abc", 3), NPYDT_E_RANGE,
                   "'abc' is not 4 bytes long, as V4 needs (3 bytes)");
    assert_refused(&t, put_bytes(&t, "|V4", "abcde", 5), NPYDT_E_RANGE,
                   "'abcde' is not 4 bytes long, as V4 needs (5 bytes)");
}

static void test_field_write_unicode_stores_code_points_in_order(void **state)
{
    (void)state;
    struct target t;
    /* a, e acute, euro sign, then one NUL code unit of padding */
    assert_written(&t, put_text(&t, "<U4", "a\xc3\xa9\xe2\x82\xac", 6),
                   "a\0\0\0\xe9\0\0\0\xac\x20\0\0\0\0\0\0", 16);
    assert_written(&t, put_text(&t, ">U1", "\xf0\x9d\x84\x9e", 4), "\0\x01\xd1\x1e", 4);
    assert_written(&t, put_text(&t, "<U3", "a\0b", 3), "a\0\0\0\0\0\0\0b\0\0\0", 12);
}

static void test_field_write_unicode_longer_than_the_field_is_refused(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_text(&t, "<U5", "abcdef", 6), NPYDT_E_RANGE,
                   "'abcdef' is longer than U5 (6 characters)");
    assert_refused(&t, put_text(&t, ">U2", "\xc3\xa9\xc3\xa9\n", 5), NPYDT_E_RANGE,
                   "'\xc3\xa9\xc3\xa9\\x0a' is longer than U2 (3 characters)");
    assert_refused(&t, put_text(&t, "<U1", "\xed\xb0\x80\xed\xa0\x80", 6), NPYDT_E_RANGE,
                   "'\\udc00\\ud800' is longer than U1 (2 characters)");
}

static void test_field_write_unicode_refuses_invalid_utf8(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_text(&t, "<U5", "a\xff", 2), NPYDT_E_ENCODING,
                   "the text is not valid UTF-8 at byte 1 (0xff)");
    assert_refused(&t, put_text(&t, "<U5", "\xc0\x80", 2), NPYDT_E_ENCODING,
                   "the text is not valid UTF-8 at byte 0 (0xc0)");
    assert_refused(&t, put_text(&t, "<U5", "ab\xe2\x82", 4), NPYDT_E_ENCODING,
                   "the text is not valid UTF-8 at byte 2 (0xe2)");
    assert_refused(&t, put_text(&t, "<U5", "\xf4\x90\x80\x80", 4), NPYDT_E_ENCODING,
                   "the text is not valid UTF-8 at byte 0 (0xf4)");
}

static void test_field_write_unicode_takes_lone_surrogates_as_read_gives_them(void **state)
{
    (void)state;
    /* a high and a low surrogate, each alone: kept as two code units */
    static const char units[] = "\x00\xd8\0\0\x00\xdc\0\0";
    npydt_dtype *dt = dtype_of("<U2");
    char text[16];
    size_t len;
    assert_int_equal(npydt_read_unicode(dt, units, text, sizeof text, &len, NULL), NPYDT_OK);
    assert_memory_equal(text, "\xed\xa0\x80\xed\xb0\x80", 6);
    unsigned char back[8];
    assert_int_equal(npydt_write_unicode(dt, back, text, len, NULL), NPYDT_OK);
    assert_memory_equal(back, units, 8);
    npydt_dtype_free(dt);
}

/* ---- datetimes --------------------------------------------------------------------- */

static void test_field_write_datetime_converts_to_a_finer_unit(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_time(&t, "<m8[ms]", 3, NPYDT_UNIT_s, 1), "\xb8\x0b\0\0\0\0\0\0", 8);
    assert_written(&t, put_time(&t, "<M8[D]", -2, NPYDT_UNIT_W, 1),
                   "\xf2\xff\xff\xff\xff\xff\xff\xff", 8);
    assert_written(&t, put_time(&t, "<M8[M]", 2, NPYDT_UNIT_Y, 1), "\x18\0\0\0\0\0\0\0", 8);
    assert_written(&t, put_time(&t, ">m8[25s]", 2, NPYDT_UNIT_h, 1), "\0\0\0\0\0\0\x01\x20", 8);
    assert_written(&t, put_time(&t, "<m8[as]", 9, NPYDT_UNIT_s, 1),
                   "\0\0\x84\xe2\x50\x6c\xe6\x7c", 8);   /* 9e18 */
}

static void test_field_write_datetime_into_a_coarser_unit_must_divide(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_time(&t, "<m8[s]", 1500, NPYDT_UNIT_ms, 1), NPYDT_E_RANGE,
                   "1500 [ms] is not a whole number of m8[s]");
    assert_refused(&t, put_time(&t, "<M8[25s]", 7, NPYDT_UNIT_s, 1), NPYDT_E_RANGE,
                   "7 [s] is not a whole number of M8[25s]");
    assert_refused(&t, put_time(&t, "<M8[Y]", 13, NPYDT_UNIT_M, 1), NPYDT_E_RANGE,
                   "13 [M] is not a whole number of M8[Y]");
    assert_refused(&t, put_time(&t, "<m8[W]", 1, NPYDT_UNIT_as, 1), NPYDT_E_RANGE,
                   "1 [as] is not a whole number of m8[W]");
    assert_written(&t, put_time(&t, "<m8[s]", -3000, NPYDT_UNIT_ms, 1),
                   "\xfd\xff\xff\xff\xff\xff\xff\xff", 8);
    assert_written(&t, put_time(&t, "<M8[25s]", 5, NPYDT_UNIT_s, 10), "\x02\0\0\0\0\0\0\0", 8);
    assert_written(&t, put_time(&t, "<M8[Y]", 24, NPYDT_UNIT_M, 1), "\x02\0\0\0\0\0\0\0", 8);
}

static void test_field_write_datetime_beyond_int64_is_refused(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_time(&t, "<M8[ns]", INT64_MAX, NPYDT_UNIT_s, 1), NPYDT_E_RANGE,
                   "9223372036854775807 [s] does not fit M8[ns] (the count is beyond int64)");
    assert_refused(&t, put_time(&t, "<m8[as]", 1, NPYDT_UNIT_W, 1), NPYDT_E_RANGE,
                   "1 [W] does not fit m8[as] (the count is beyond int64)");
    /* -2^63 would read back as NaT */
    assert_refused(&t, put_time(&t, "<m8[500ms]", -(INT64_C(1) << 62), NPYDT_UNIT_s, 1),
                   NPYDT_E_RANGE,
                   "-4611686018427387904 [s] does not fit m8[500ms] (the count is beyond int64)");
    assert_written(&t, put_time(&t, "<m8[as]", 0, NPYDT_UNIT_W, 1), "\0\0\0\0\0\0\0\0", 8);
}

/* Raw count of one datetime write, or a failure naming its message. */
static int64_t time_count(const char *type, int64_t count, npydt_unit unit, int32_t mult)
{
    struct target t;
    npydt_status st = put_time(&t, type, count, unit, mult);
    if (st != NPYDT_OK)
        fail_msg("refused: %s", t.err.message);
    int64_t v;
    assert_int_equal(npydt_read_i64(t.dt, t.b, &v, NULL), NPYDT_OK);
    npydt_dtype_free(t.dt);
    return v;
}

static void test_field_write_datetime_months_start_on_their_calendar_day(void **state)
{
    (void)state;
    assert_true(time_count("<M8[D]", 1, NPYDT_UNIT_Y, 1) == 365);         /* 1971-01-01 */
    assert_true(time_count("<M8[D]", 5, NPYDT_UNIT_Y, 10) == 18262);      /* 2020-01-01 */
    assert_true(time_count("<M8[D]", -1, NPYDT_UNIT_M, 1) == -31);        /* 1969-12-01 */
    assert_true(time_count("<M8[D]", -838, NPYDT_UNIT_M, 1) == -25508);   /* 1900-03-01 */
    assert_true(time_count("<M8[D]", -4439, NPYDT_UNIT_M, 1) == -135109); /* 1600-02-01 */
    assert_true(time_count("<M8[s]", 1, NPYDT_UNIT_Y, 1) == 31536000);
    assert_true(time_count("<M8[M]", 11017, NPYDT_UNIT_D, 1) == 362);     /* 2000-03-01 */
    assert_true(time_count("<M8[Y]", 18262 * 24, NPYDT_UNIT_h, 1) == 50);
}

static void test_field_write_datetime_inside_a_month_is_not_a_whole_month(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_time(&t, "<M8[M]", 18326, NPYDT_UNIT_D, 1), NPYDT_E_RANGE,
                   "18326 [D] is not a whole number of M8[M]");   /* 2020-03-05 */
    assert_refused(&t, put_time(&t, "<M8[Y]", 18322, NPYDT_UNIT_D, 1), NPYDT_E_RANGE,
                   "18322 [D] is not a whole number of M8[Y]");   /* 2020-03-01 */
    assert_refused(&t, put_time(&t, "<M8[M]", 18322 * 86400 + 1, NPYDT_UNIT_s, 1), NPYDT_E_RANGE,
                   "1583020801 [s] is not a whole number of M8[M]");
    assert_refused(&t, put_time(&t, "<M8[2M]", -4439, NPYDT_UNIT_M, 1), NPYDT_E_RANGE,
                   "-4439 [M] is not a whole number of M8[2M]");
}

static void test_field_write_timedelta_months_are_numpy_average_months(void **state)
{
    (void)state;
    struct target t;
    assert_true(time_count("<m8[s]", 1, NPYDT_UNIT_M, 1) == 2629746);   /* 30.436875 days */
    assert_true(time_count("<m8[D]", 400, NPYDT_UNIT_Y, 1) == 146097);
    assert_true(time_count("<m8[Y]", 146097, NPYDT_UNIT_D, 1) == 400);
    assert_refused(&t, put_time(&t, "<m8[D]", 1, NPYDT_UNIT_Y, 1), NPYDT_E_RANGE,
                   "1 [Y] is not a whole number of m8[D]");
}

static void test_field_write_datetime_calendar_beyond_int64_is_refused(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_time(&t, "<M8[D]", INT64_MAX, NPYDT_UNIT_Y, 1), NPYDT_E_RANGE,
                   "9223372036854775807 [Y] does not fit M8[D] (the count is beyond int64)");
    assert_refused(&t, put_time(&t, "<M8[D]", INT64_C(1) << 62, NPYDT_UNIT_M, 1), NPYDT_E_RANGE,
                   "4611686018427387904 [M] does not fit M8[D] (the count is beyond int64)");
    /* month starts near the end of int64's days convert both ways */
    static const int64_t months[] = {INT64_C(300000000000000000), -INT64_C(300000000000000000)};
    for (int i = 0; i < 2; i++) {
        int64_t days = time_count("<M8[D]", months[i], NPYDT_UNIT_M, 1);
        assert_true(days > INT64_C(9000000000000000000) || days < -INT64_C(9000000000000000000));
        assert_true(time_count("<M8[M]", days, NPYDT_UNIT_D, 1) == months[i]);
    }
}

/* The last month whose first day is within int64 days converts, though
 * its 400-year eras alone are beyond int64 days. */
static void test_field_write_datetime_last_month_start_of_int64_converts(void **state)
{
    (void)state;
    const int64_t month = INT64_C(303032819133198654), day = INT64_C(9223372036854775781);
    assert_true(time_count("<M8[D]", month, NPYDT_UNIT_M, 1) == day);
    assert_true(time_count("<M8[M]", day, NPYDT_UNIT_D, 1) == month);
    struct target t;
    assert_refused(&t, put_time(&t, "<M8[D]", month + 1, NPYDT_UNIT_M, 1), NPYDT_E_RANGE,
                   "303032819133198655 [M] does not fit M8[D] (the count is beyond int64)");
}

static void test_field_write_datetime_nat_stays_nat(void **state)
{
    (void)state;
    static const unsigned char nat[8] = {0, 0, 0, 0, 0, 0, 0, 0x80};
    struct target t;
    npydt_datetime v = {0, NPYDT_UNIT_s, 1, 1};
    target_init(&t, "<M8[D]");
    assert_written(&t, npydt_write_datetime(t.dt, t.b, &v, &t.err), nat, 8);
    assert_written(&t, put_time(&t, "<m8[as]", NPYDT_NAT, NPYDT_UNIT_Y, 1), nat, 8);
    assert_written(&t, put_time(&t, "<M8", NPYDT_NAT, NPYDT_UNIT_s, 1), nat, 8);
    assert_written(&t, put_time(&t, ">m8[s]", NPYDT_NAT, NPYDT_UNIT_GENERIC, 1),
                   "\x80\0\0\0\0\0\0\0", 8);
}

static void test_field_write_datetime_multiplier_0_only_meets_itself(void **state)
{
    (void)state;
    struct target t;
    /* NumPy takes m8[0s] but cannot cast it: a count of nothing */
    assert_written(&t, put_time(&t, "<m8[0s]", 5, NPYDT_UNIT_s, 0), "\x05\0\0\0\0\0\0\0", 8);
    assert_refused(&t, put_time(&t, "<m8[0ms]", 5, NPYDT_UNIT_s, 0), NPYDT_E_VALUE,
                   "5 [0s] cannot be converted to m8[0ms]: a unit of multiplier 0 has no length");
    assert_refused(&t, put_time(&t, "<m8[s]", 5, NPYDT_UNIT_s, 0), NPYDT_E_VALUE,
                   "5 [0s] cannot be converted to m8[s]: a unit of multiplier 0 has no length");
    assert_refused(&t, put_time(&t, "<M8[0D]", 0, NPYDT_UNIT_D, 1), NPYDT_E_VALUE,
                   "0 [D] cannot be converted to M8[0D]: a unit of multiplier 0 has no length");
}

static void test_field_write_datetime_generic_only_meets_generic(void **state)
{
    (void)state;
    struct target t;
    assert_written(&t, put_time(&t, "<M8", 5, NPYDT_UNIT_GENERIC, 1), "\x05\0\0\0\0\0\0\0", 8);
    assert_refused(&t, put_time(&t, "<M8[s]", 5, NPYDT_UNIT_GENERIC, 1), NPYDT_E_VALUE,
                   "5 [generic] has no unit to convert to M8[s]");
    assert_refused(&t, put_time(&t, "<m8", 5, NPYDT_UNIT_s, 1), NPYDT_E_VALUE,
                   "5 [s] has a unit: m8 (generic) holds only NaT and unitless counts");
}

static void test_field_write_datetime_refuses_bad_units(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_time(&t, "<M8[s]", 1, (npydt_unit)42, 1), NPYDT_E_ARG,
                   "unknown datetime unit 42");
    assert_refused(&t, put_time(&t, "<M8[s]", 1, NPYDT_UNIT_NONE, 1), NPYDT_E_ARG,
                   "unknown datetime unit -1");
    assert_refused(&t, put_time(&t, "<M8[s]", 1, NPYDT_UNIT_s, -2), NPYDT_E_ARG,
                   "datetime unit multiplier -2 is negative");
}

/* ---- wrong sorts and arguments ------------------------------------------------------- */

static void test_field_write_value_of_the_wrong_sort_is_refused(void **state)
{
    (void)state;
    struct target t;
    assert_refused(&t, put_i64(&t, "|S5", 1), NPYDT_E_VALUE, "cannot write an integer into S5");
    assert_refused(&t, put_u64(&t, "|V4", 1), NPYDT_E_VALUE, "cannot write an integer into V4");
    assert_refused(&t, put_double(&t, "<M8[s]", 1.0), NPYDT_E_VALUE,
                   "cannot write a float into M8[s]");
    assert_refused(&t, put_complex(&t, "<U2", 1.0, 0.0), NPYDT_E_VALUE,
                   "cannot write a complex number into U2");
    assert_refused(&t, put_bytes(&t, "<f8", "ab", 2), NPYDT_E_VALUE, "cannot write bytes into f8");
    assert_refused(&t, put_text(&t, "|S3", "ab", 2), NPYDT_E_VALUE, "cannot write text into S3");
    assert_refused(&t, put_time(&t, "<i8", 1, NPYDT_UNIT_s, 1), NPYDT_E_VALUE,
                   "cannot write a datetime into i8");
    target_init(&t, "<m8[s]");
    assert_refused(&t, npydt_write_bool(t.dt, t.b, 1, &t.err), NPYDT_E_VALUE,
                   "cannot write a bool into m8[s]");
    assert_refused(&t, put_bytes(&t, "|b1", "\x01", 1), NPYDT_E_VALUE, "cannot write bytes into b1");
    assert_refused(&t, put_text(&t, "<u2", "1", 1), NPYDT_E_VALUE, "cannot write text into u2");
    assert_refused(&t, put_bytes(&t, "<U2", "ab", 2), NPYDT_E_VALUE, "cannot write bytes into U2");
    assert_refused(&t, put_time(&t, "<c8", 1, NPYDT_UNIT_s, 1), NPYDT_E_VALUE,
                   "cannot write a datetime into c8");
    assert_refused(&t, put_time(&t, ">f16", 1, NPYDT_UNIT_s, 1), NPYDT_E_VALUE,
                   "cannot write a datetime into f16");
    assert_refused(&t, put_double(&t, "|V8", 1.0), NPYDT_E_VALUE, "cannot write a float into V8");
    assert_refused(&t, put_complex(&t, ">m8[D]", 1.0, 0.0), NPYDT_E_VALUE,
                   "cannot write a complex number into m8[D]");
}

static void test_field_write_needs_a_scalar_and_pointers(void **state)
{
    (void)state;
    struct target t;
    t.dt = test_parse_literal("[('x', '<i4')]");
    memset(t.b, FILL, BUF);
    test_poison_error(&t.err);
    assert_refused(&t, npydt_write_i64(t.dt, t.b, 1, &t.err), NPYDT_E_ARG,
                   "cannot write into a struct: not a scalar");
    t.dt = test_parse_literal("('<i4', (2,))");
    assert_refused(&t, npydt_write_double(t.dt, t.b, 1, &t.err), NPYDT_E_ARG,
                   "cannot write into a subarray: not a scalar");
    assert_refused(&t, put_i64(&t, "O", 1), NPYDT_E_OBJECT,
                   "object data is a pickle and cannot be written");
    target_init(&t, "<i4");
    assert_refused(&t, npydt_write_i64(t.dt, NULL, 1, &t.err), NPYDT_E_ARG,
                   "dtype or pointer is NULL");
    target_init(&t, "<c8");
    assert_refused(&t, npydt_write_complex(t.dt, t.b, NULL, &t.err), NPYDT_E_ARG,
                   "the value is NULL");
    target_init(&t, "|S4");
    assert_refused(&t, npydt_write_bytes(t.dt, t.b, NULL, 1, &t.err), NPYDT_E_ARG,
                   "the bytes are NULL");
    target_init(&t, "<U4");
    assert_refused(&t, npydt_write_unicode(t.dt, t.b, NULL, 1, &t.err), NPYDT_E_ARG,
                   "the text is NULL");
    target_init(&t, "<M8[s]");
    assert_refused(&t, npydt_write_datetime(t.dt, t.b, NULL, &t.err), NPYDT_E_ARG,
                   "the value is NULL");
    assert_int_equal(npydt_write_i64(NULL, t.b, 1, NULL), NPYDT_E_ARG);
}

static void test_field_write_error_struct_may_be_null(void **state)
{
    (void)state;
    npydt_dtype *dt = dtype_of("|u1");
    unsigned char b = 7;
    assert_int_equal(npydt_write_i64(dt, &b, 300, NULL), NPYDT_E_RANGE);
    assert_int_equal(b, 7);
    npydt_dtype_free(dt);
}

/* ---- round trips through the readers ------------------------------------------------ */

/* A small fixed-seed generator: the same values on every run. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static const char *const int_types[] = {
    "|i1", "<i2", ">i2", "<i4", ">i4", "<i8", ">i8",
    "|u1", "<u2", ">u2", "<u4", ">u4", "<u8", ">u8",
};

static void test_field_write_integers_read_back(void **state)
{
    (void)state;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < sizeof int_types / sizeof int_types[0]; i++) {
        npydt_dtype *dt = dtype_of(int_types[i]);
        unsigned bits = (unsigned)npydt_dtype_itemsize(dt) * 8;
        bool is_signed = int_types[i][1] == 'i';
        for (int k = 0; k < 1000; k++) {
            unsigned char b[8];
            uint64_t r = next_random(&seed) >> (64 - bits);
            if (is_signed) {
                int64_t v = (int64_t)(r << (64 - bits)) >> (64 - bits);   /* sign-extended */
                int64_t back;
                assert_int_equal(npydt_write_i64(dt, b, v, NULL), NPYDT_OK);
                assert_int_equal(npydt_read_i64(dt, b, &back, NULL), NPYDT_OK);
                assert_true(back == v);
            } else {
                uint64_t back;
                assert_int_equal(npydt_write_u64(dt, b, r, NULL), NPYDT_OK);
                assert_int_equal(npydt_read_u64(dt, b, &back, NULL), NPYDT_OK);
                assert_true(back == r);
            }
        }
        npydt_dtype_free(dt);
    }
}

/* The double a float of `size` bytes holds, from random bits. */
static double random_float(uint64_t *seed, size_t size)
{
    uint64_t r = next_random(seed);
    if (size == 2) {
        npydt_dtype *dt = dtype_of("<f2");
        unsigned char b[2] = {(unsigned char)r, (unsigned char)(r >> 8)};
        double d;
        npydt_read_double(dt, b, &d, NULL);
        npydt_dtype_free(dt);
        return d;
    }
    if (size == 4) {
        uint32_t w = (uint32_t)r;
        float f;
        memcpy(&f, &w, 4);
        return f;
    }
    double d;
    memcpy(&d, &r, 8);
    return d;
}

static void test_field_write_floats_read_back(void **state)
{
    (void)state;
    static const char *const types[] = {"<f2", ">f2", "<f4", ">f4", "<f8", ">f8",
                                        "<f16", ">f16", "<c8", ">c16", "<c32"};
    uint64_t seed = 12345;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        npydt_dtype *dt = dtype_of(types[i]);
        bool cplx = types[i][1] == 'c';
        size_t part = (size_t)npydt_dtype_itemsize(dt) / (cplx ? 2 : 1);
        for (int k = 0; k < 2000; k++) {
            double v[2] = {random_float(&seed, part > 8 ? 8 : part),
                           cplx ? random_float(&seed, part > 8 ? 8 : part) : 0.0};
            double back[2];
            unsigned char b[32];
            assert_int_equal(npydt_write_complex(dt, b, v, NULL), NPYDT_OK);
            assert_int_equal(npydt_read_complex(dt, b, back, NULL), NPYDT_OK);
            for (int j = 0; j < 2; j++)
                if (!(isnan(v[j]) && isnan(back[j])) &&
                    memcmp(&v[j], &back[j], sizeof(double)) != 0)
                    fail_msg("%s: %a came back as %a", types[i], v[j], back[j]);
        }
        npydt_dtype_free(dt);
    }
}

static void test_field_write_other_kinds_read_back(void **state)
{
    (void)state;
    unsigned char b[32];
    int flag;
    npydt_dtype *dt = dtype_of("|b1");
    assert_int_equal(npydt_write_bool(dt, b, 1, NULL), NPYDT_OK);
    assert_int_equal(npydt_read_bool(dt, b, &flag, NULL), NPYDT_OK);
    assert_int_equal(flag, 1);
    npydt_dtype_free(dt);

    const void *bytes;
    size_t len;
    dt = dtype_of("|S6");
    assert_int_equal(npydt_write_bytes(dt, b, "a\0bc", 4, NULL), NPYDT_OK);
    assert_int_equal(npydt_read_bytes(dt, b, &bytes, &len, NULL), NPYDT_OK);
    assert_int_equal(len, 4);
    assert_memory_equal(bytes, "a\0bc", 4);
    npydt_dtype_free(dt);

    dt = dtype_of("|V3");
    assert_int_equal(npydt_write_bytes(dt, b, "\0\xff\0", 3, NULL), NPYDT_OK);
    assert_int_equal(npydt_read_bytes(dt, b, &bytes, &len, NULL), NPYDT_OK);
    assert_int_equal(len, 3);
    assert_memory_equal(bytes, "\0\xff\0", 3);
    npydt_dtype_free(dt);

    char text[32];
    static const char word[] = "\xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80";
    dt = dtype_of(">U6");
    assert_int_equal(npydt_write_unicode(dt, b, word, strlen(word), NULL), NPYDT_OK);
    assert_int_equal(npydt_read_unicode(dt, b, text, sizeof text, &len, NULL), NPYDT_OK);
    assert_int_equal(len, strlen(word));
    assert_string_equal(text, word);
    npydt_dtype_free(dt);

    static const char *const times[] = {"<M8[D]", ">m8[25s]", "<M8", ">M8[as]"};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        npydt_datetime v, back;
        dt = dtype_of(times[i]);
        v.count = -123456789;
        v.unit = npydt_dtype_unit(dt);
        v.unit_count = npydt_dtype_unit_count(dt);
        v.is_nat = 0;
        assert_int_equal(npydt_write_datetime(dt, b, &v, NULL), NPYDT_OK);
        assert_int_equal(npydt_read_datetime(dt, b, &back, NULL), NPYDT_OK);
        assert_true(back.count == v.count && back.unit == v.unit &&
                    back.unit_count == v.unit_count && !back.is_nat);
        npydt_dtype_free(dt);
    }
}

TEST_LIST("field_write",
    cmocka_unit_test(test_field_write_integers_follow_the_byte_order),
    cmocka_unit_test(test_field_write_integer_limits_are_accepted),
    cmocka_unit_test(test_field_write_integer_out_of_range_names_value_and_range),
    cmocka_unit_test(test_field_write_integer_into_float_must_be_exact),
    cmocka_unit_test(test_field_write_integer_into_f16_keeps_all_64_bits),
    cmocka_unit_test(test_field_write_integer_into_complex_has_zero_imaginary_part),
    cmocka_unit_test(test_field_write_integer_into_datetime_is_a_raw_count),
    cmocka_unit_test(test_field_write_bool_stores_0_or_1),
    cmocka_unit_test(test_field_write_double_into_f4_rounds_ties_to_even),
    cmocka_unit_test(test_field_write_double_into_f2_rounds_ties_to_even),
    cmocka_unit_test(test_field_write_double_overflowing_a_float_is_refused),
    cmocka_unit_test(test_field_write_double_keeps_nan_and_infinities),
    cmocka_unit_test(test_field_write_f16_is_x87_extended_on_every_machine),
    cmocka_unit_test(test_field_write_double_into_integer_must_be_integral_and_fit),
    cmocka_unit_test(test_field_write_double_into_integer_takes_the_whole_range),
    cmocka_unit_test(test_field_write_complex_stores_both_parts_in_order),
    cmocka_unit_test(test_field_write_complex_overflowing_part_is_refused),
    cmocka_unit_test(test_field_write_complex_into_real_needs_zero_imaginary_part),
    cmocka_unit_test(test_field_write_bytes_are_nul_padded),
    cmocka_unit_test(test_field_write_bytes_longer_than_the_field_are_refused),
    cmocka_unit_test(test_field_write_void_takes_exactly_its_size),
    cmocka_unit_test(test_field_write_unicode_stores_code_points_in_order),
    cmocka_unit_test(test_field_write_unicode_longer_than_the_field_is_refused),
    cmocka_unit_test(test_field_write_unicode_refuses_invalid_utf8),
    cmocka_unit_test(test_field_write_unicode_takes_lone_surrogates_as_read_gives_them),
    cmocka_unit_test(test_field_write_datetime_converts_to_a_finer_unit),
    cmocka_unit_test(test_field_write_datetime_into_a_coarser_unit_must_divide),
    cmocka_unit_test(test_field_write_datetime_beyond_int64_is_refused),
    cmocka_unit_test(test_field_write_datetime_months_start_on_their_calendar_day),
    cmocka_unit_test(test_field_write_datetime_inside_a_month_is_not_a_whole_month),
    cmocka_unit_test(test_field_write_timedelta_months_are_numpy_average_months),
    cmocka_unit_test(test_field_write_datetime_calendar_beyond_int64_is_refused),
    cmocka_unit_test(test_field_write_datetime_last_month_start_of_int64_converts),
    cmocka_unit_test(test_field_write_datetime_nat_stays_nat),
    cmocka_unit_test(test_field_write_datetime_multiplier_0_only_meets_itself),
    cmocka_unit_test(test_field_write_datetime_generic_only_meets_generic),
    cmocka_unit_test(test_field_write_datetime_refuses_bad_units),
    cmocka_unit_test(test_field_write_value_of_the_wrong_sort_is_refused),
    cmocka_unit_test(test_field_write_needs_a_scalar_and_pointers),
    cmocka_unit_test(test_field_write_error_struct_may_be_null),
    cmocka_unit_test(test_field_write_integers_read_back),
    cmocka_unit_test(test_field_write_floats_read_back),
    cmocka_unit_test(test_field_write_other_kinds_read_back));

/* text_read_double, the text stage's decimal-to-double reading of JSON
 * numbers: whenever it answers, it answers what strtod reads, bit for bit
 * (edge cases, every decimal exponent it covers, and random numbers of
 * up to 19 digits); it refuses what is not a JSON number; and it leaves
 * little to strtod for numbers as dump writes them. */
#include "test_util.h"

#include "text/text.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* 1 when s was read by text_read_double, 0 when left to strtod; fails
 * the test when the two disagree. */
static int agrees(const char *s)
{
    double mine, ref = strtod(s, NULL);
    if (!text_read_double(s, strlen(s), &mine))
        return 0;
    if (bits_of(mine) != bits_of(ref))
        fail_msg("%s: read as %a, strtod reads %a", s, mine, ref);
    return 1;
}

/* A deterministic generator, so a failure can be replayed. */
static uint64_t next(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static void test_text_number_edge_cases_read_as_strtod_does(void **state)
{
    (void)state;
    static const char *const cases[] = {
        "0", "-0", "0.0", "-0.0", "0e5", "-0e-5", "1", "-1", "9007199254740992",
        "9007199254740993", "9007199254740995", "18446744073709551615", "9999999999999999999",
        "1e22", "1e23", "-1e23", "8.98846567431158e307", "1.7976931348623157e308",
        "1.7976931348623158e308", "2.2250738585072014e-308", "2.2250738585072011e-308",
        "4.9406564584124654e-324", "1e-320", "1e308", "1e309", "1e-400", "0.1", "0.2", "0.3",
        "3.0000000000000004", "0.30000000000000004", "1.0000000000000002", "123456789012345678e-30",
        "7.3177701707893310e+15", "5e-324", "1e-5", "9.999250037498125e-05", "-999.63",
        "0.3333333333333333", "-333.3333435058594", "1.5e300", "4.35e-250", "2.5E+10",
        "1e+03", "-1e+03", "1E0", "0.000000000000000000001", "1234567890123456789e10",
        "1234567890123456789e-10", "1.234567890123456789e-290", "9.1e-292", "7e-293",
        /* digits beyond 64 bits, some of them wrapping to 0 */
        "18446744073709551616", "36893488147419103232", "18446744073709551616.5",
        "184467440737095516160e-1", "-18446744073709551616", "0.18446744073709551616",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        agrees(cases[i]);
}

static void test_text_number_every_covered_exponent_reads_as_strtod_does(void **state)
{
    (void)state;
    uint64_t rng = 0x9E3779B97F4A7C15u;
    char buf[64];
    for (int q = -330; q <= 330; q++) {
        for (int k = 0; k < 200; k++) {
            uint64_t m = next(&rng) >> (next(&rng) % 64);
            if (k < 3)
                m = (uint64_t[]){1, 9999999999999999999u, 4503599627370497u}[k];
            snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)m, q);
            agrees(buf);
        }
    }
}

static void test_text_number_random_doubles_read_as_strtod_does(void **state)
{
    (void)state;
    uint64_t rng = 12345;
    char buf[64];
    int read = 0, total = 0;
    for (int k = 0; k < 300000; k++) {
        uint64_t b = next(&rng);
        double d;
        memcpy(&d, &b, sizeof d);
        if (!isfinite(d))
            continue;
        /* the shortest text (as dump writes it) and longer ones */
        snprintf(buf, sizeof buf, "%.*g", 15 + k % 5, d);
        int mine = agrees(buf);
        if (fabs(d) > 1e-250 && fabs(d) < 1e250) {
            read += mine;
            total++;
        }
    }
    /* beyond these magnitudes the table ends (strtod reads them); within
     * them only a value next to a rounding boundary goes to strtod (and
     * everything where the 128-bit table path cannot be compiled) */
    assert_true(total > 200000);
#ifdef __SIZEOF_INT128__
    assert_true(read >= total - total / 10000);
#else
    (void)read;
#endif
}

static void test_text_number_random_digit_strings_read_as_strtod_does(void **state)
{
    (void)state;
    uint64_t rng = 4242;
    char buf[96];
    for (int k = 0; k < 300000; k++) {
        size_t o = 0;
        if (next(&rng) % 2)
            buf[o++] = '-';
        size_t whole = 1 + next(&rng) % 25, frac = next(&rng) % 3 ? 0 : 1 + next(&rng) % 25;
        for (size_t i = 0; i < whole; i++)   /* a leading zero only alone */
            buf[o++] = (char)((i == 0 && whole > 1 ? '1' : '0') + next(&rng) % (i == 0 && whole > 1 ? 9 : 10));
        if (frac) {
            buf[o++] = '.';
            for (size_t i = 0; i < frac; i++)
                buf[o++] = (char)('0' + (next(&rng) % 3 ? 0 : next(&rng) % 10));
        }
        if (next(&rng) % 2)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "e%d", (int)(next(&rng) % 700) - 350);
        buf[o] = '\0';
        agrees(buf);
    }
}

static void test_text_number_halfway_values_round_to_even(void **state)
{
    (void)state;
    char buf[64];
    /* 2^53 + 1, 2^53 + 3, ... times powers of ten: exactly between two
     * doubles before the scaling */
    for (uint64_t m = ((uint64_t)1 << 53) + 1; m < ((uint64_t)1 << 53) + 41; m += 2)
        for (int q = -25; q <= 25; q++) {
            snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)m, q);
            agrees(buf);
        }
}

static void test_text_number_refuses_what_is_not_a_json_number(void **state)
{
    (void)state;
    static const char *const bad[] = {"", "-", "01", "-01", "1.", ".5", "1.e5", "1e", "1e+",
                                      "+1", "1.2.3", "0x10", "1e5x", "nan", "inf", " 1", "1 "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double d = 42;
        if (text_read_double(bad[i], strlen(bad[i]), &d))
            fail_msg("'%s' was read as %g", bad[i], d);
        assert_true(d == 42);
    }
}

static void test_text_number_leaves_long_numbers_to_strtod(void **state)
{
    (void)state;
    double d;
    const char *twenty = "12345678901234567890";
    assert_int_equal(text_read_double(twenty, strlen(twenty), &d), 0);
    const char *huge = "1e400000";
    assert_int_equal(text_read_double(huge, strlen(huge), &d), 0);
}

/* text_read_integer against strtoull, for every length from 1 to 20
 * digits, with and without a sign, and with a byte after the digits. */
static void test_text_read_integer_reads_every_length(void **state)
{
    (void)state;
    uint64_t x = 0x9E3779B97F4A7C15u;
    for (int round = 0; round < 20000; round++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        char buf[32];
        uint64_t v = x, scale = 1;
        for (int k = 0; k < 1 + round % 20 && k < 19; k++)
            scale *= 10;
        if (round % 20 < 19)
            v %= scale;   /* at most 1 + round % 20 digits */
        int len = snprintf(buf, sizeof buf, "%s%llu", round % 3 ? "" : "-",
                           (unsigned long long)v);
        buf[len] = round % 2 ? ',' : '\0';
        uint64_t mag;
        bool neg;
        size_t took = text_read_integer(buf, (size_t)len + (round % 2), &mag, &neg);
        assert_int_equal(took, (size_t)len);
        char copy[32];
        memcpy(copy, buf, (size_t)len);
        copy[len] = '\0';
        int minus = copy[0] == '-';
        assert_int_equal(neg, minus);
        assert_true(mag == strtoull(copy + minus, NULL, 10));
    }
}

static void test_text_read_integer_refuses_what_json_does_not_allow(void **state)
{
    (void)state;
    const char *const bad[] = {"", "-", "01", "-01", "00", "18446744073709551616",
                               "99999999999999999999", "123456789012345678901", "+1", ".5",
                               "x1", "-x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint64_t mag;
        bool neg;
        if (text_read_integer(bad[i], strlen(bad[i]), &mag, &neg) != 0)
            fail_msg("text_read_integer took \"%s\"", bad[i]);
    }
}

static void test_text_read_integer_stops_before_what_follows(void **state)
{
    (void)state;
    uint64_t mag;
    bool neg;
    assert_int_equal(text_read_integer("18446744073709551615}", 21, &mag, &neg), 20);
    assert_true(mag == UINT64_MAX && !neg);
    assert_int_equal(text_read_integer("-0.5", 4, &mag, &neg), 2);
    assert_true(mag == 0 && neg);
    assert_int_equal(text_read_integer("12345678e3", 10, &mag, &neg), 8);
    assert_true(mag == 12345678);
    assert_int_equal(text_read_integer("1234567890123456789 ", 20, &mag, &neg), 19);
    assert_true(mag == 1234567890123456789u);
}

TEST_LIST("text_number",
    cmocka_unit_test(test_text_read_integer_reads_every_length),
    cmocka_unit_test(test_text_read_integer_refuses_what_json_does_not_allow),
    cmocka_unit_test(test_text_read_integer_stops_before_what_follows),
    cmocka_unit_test(test_text_number_edge_cases_read_as_strtod_does),
    cmocka_unit_test(test_text_number_every_covered_exponent_reads_as_strtod_does),
    cmocka_unit_test(test_text_number_random_doubles_read_as_strtod_does),
    cmocka_unit_test(test_text_number_random_digit_strings_read_as_strtod_does),
    cmocka_unit_test(test_text_number_halfway_values_round_to_even),
    cmocka_unit_test(test_text_number_refuses_what_is_not_a_json_number),
    cmocka_unit_test(test_text_number_leaves_long_numbers_to_strtod));

/* Checks of the shortest float text (src/text/float_shortest.c).
 *
 *   float_check f32 STRIDE [START [END]]
 *                                   float32 bit patterns START, START+STRIDE,
 *                                   ... below END (STRIDE 1, no START: all
 *                                   2^32): each text reads
 *                                   back with strtof to the same bits, and
 *                                   neither decimal of one digit fewer around
 *                                   it does (shortness)
 *   float_check f64 N SEED          N random finite doubles (random bit
 *                                   patterns): strtod round trip, and the
 *                                   digit count equals the least k for which
 *                                   "%.{k-1}e" reads back, with the same
 *                                   digits when that one reads back
 *   float_check print16             the text of all 65536 float16 patterns,
 *                                   one per line (compared with NumPy)
 *   float_check print64 N SEED      N random doubles: bits in hex and text
 *                                   (compared with Python's repr)
 *   float_check print32 N SEED      N random finite float32 patterns: bits
 *                                   in hex and text (compared with NumPy)
 *   float_check print64near N SEED  N random doubles of magnitude about
 *                                   1e-8 to 1e31, half of them short
 *                                   decimals (every positional layout and
 *                                   the switch to exponents): bits in hex
 *                                   and text (compared with Python's repr)
 *   float_check decimal N SEED      text_decimal_u64 and text_decimal_i64 against
 *                                   printf: every digit count's ends, the
 *                                   extremes and N random values of random
 *                                   length; nothing written past their room
 *
 * Prints "float_check: N checked, M failed" and the first failures;
 * exit 1 on any failure. */
#include "text/float_shortest.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t failed, checked;

static void fail(const char *what, uint64_t bits, const char *text)
{
    if (failed++ < 20)
        fprintf(stderr, "FAIL %s: bits 0x%" PRIx64 " text %s\n", what, bits, text);
}

/* Digits, their count and the exponent of the last one, from our text. */
static int parse_digits(const char *text, char *digits, int *exp_last)
{
    int n = 0, point = 0, seen_point = 0, lead = 1;
    const char *p = text + (text[0] == '-');
    for (; *p && *p != 'e'; p++) {
        if (*p == '.') {
            point = n;
            seen_point = 1;
            continue;
        }
        if (lead && *p == '0') {
            if (seen_point)
                point--;   /* 0.00ddd: zeros after the point shift it */
            continue;
        }
        lead = 0;
        digits[n++] = *p;
    }
    if (!seen_point)
        point = n;
    while (n > 1 && digits[n - 1] == '0')
        n--;   /* trailing zeros of the positional form */
    int e = *p == 'e' ? atoi(p + 1) : 0;
    digits[n] = '\0';
    *exp_last = e + point - n;
    return n;
}

/* A decimal (digit string times 10^e) one digit shorter, rounded down or up. */
static void shorter(const char *digits, int n, int up, int e, char *out, size_t size)
{
    char d[32];
    memcpy(d, digits, (size_t)n - 1);
    d[n - 1] = '\0';
    int len = n - 1;
    if (up) {
        int i = len - 1;
        while (i >= 0 && d[i] == '9')
            d[i--] = '0';
        if (i >= 0) {
            d[i]++;
        } else {
            memmove(d + 1, d, (size_t)len + 1);
            d[0] = '1';
        }
    }
    snprintf(out, size, "%se%d", len || up ? d : "0", e + 1);
    if (!len && !up)
        snprintf(out, size, "0");
}

static void check_f32(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    if (!isfinite(f) || f == 0)
        return;
    char text[TEXT_FLOAT_MAX];
    text_float_f32(bits, text);
    checked++;
    float back = strtof(text, NULL);
    if (memcmp(&back, &f, sizeof f) != 0) {
        fail("f32 round trip", bits, text);
        return;
    }
    char digits[32], alt[48];
    int e;
    int n = parse_digits(text, digits, &e);
    if (n < 2)
        return;
    for (int up = 0; up < 2; up++) {
        shorter(digits, n, up, e, alt, sizeof alt);
        if (strtof(alt, NULL) == fabsf(f)) {
            fail("f32 not shortest", bits, text);
            return;
        }
    }
}

static uint64_t next_random(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static double random_double(uint64_t *s, uint64_t *bits)
{
    double v;
    do {
        *bits = next_random(s);
        memcpy(&v, bits, sizeof v);
    } while (!isfinite(v) || v == 0);
    return v;
}

static void check_f64(double v, uint64_t bits)
{
    char text[TEXT_FLOAT_MAX];
    text_float_f64(v, text);
    checked++;
    if (strtod(text, NULL) != v) {
        fail("f64 round trip", bits, text);
        return;
    }
    char digits[32];
    int e;
    int n = parse_digits(text, digits, &e);
    /* the least k for which the correctly rounded k digits read back */
    for (int k = 1; k <= 17; k++) {
        char buf[48];
        snprintf(buf, sizeof buf, "%.*e", k - 1, fabs(v));
        if (strtod(buf, NULL) != fabs(v))
            continue;
        if (k != n) {
            fail(k < n ? "f64 not shortest" : "f64 shorter than possible", bits, text);
        } else {
            char pd[32];
            int pe;
            parse_digits(buf, pd, &pe);
            if (strcmp(pd, digits) != 0 || pe != e)
                fail("f64 not the closest", bits, text);
        }
        return;
    }
}

/* A double of magnitude about 10^-8 .. 10^31: random bits, or (half of
 * them) a decimal of up to 7 digits scaled by a power of ten, whose text
 * is short. */
static double random_near(uint64_t *s, uint64_t *bits)
{
    uint64_t r = next_random(s);
    double v;
    if (r & 1) {
        v = (double)(r >> 8 & 0xfffff) + 1;   /* 1 .. 2^20 */
        for (int e = (int)(r >> 40 & 31) - 12; e != 0; e += e < 0 ? 1 : -1)
            v = e < 0 ? v / 10 : v * 10;
    } else {
        v = ldexp((double)(r >> 11) / 9007199254740992.0 + 0.5, (int)(r >> 2 & 127) - 23);
    }
    if (r & 2)
        v = -v;
    memcpy(bits, &v, sizeof v);
    return v;
}

/* text_decimal_u64 and text_decimal_i64 of v (and -v) against printf, and the
 * bytes past their room untouched. */
static void check_decimal(uint64_t v)
{
    char want[32], got[32];
    checked++;
    memset(got, '#', sizeof got);
    size_t n = text_decimal_u64(v, got);
    snprintf(want, sizeof want, "%" PRIu64, v);
    if (n != strlen(want) || memcmp(got, want, n) != 0 || got[20] != '#')
        fail("text_decimal_u64", v, want);
    int64_t iv;
    memcpy(&iv, &v, sizeof iv);
    memset(got, '#', sizeof got);
    n = text_decimal_i64(iv, got);
    snprintf(want, sizeof want, "%" PRId64, iv);
    if (n != strlen(want) || memcmp(got, want, n) != 0 || got[21] != '#')
        fail("text_decimal_i64", v, want);
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "f32") == 0) {
        uint64_t stride = strtoull(argv[2], NULL, 0);
        uint64_t start = argc > 3 ? strtoull(argv[3], NULL, 0) : 0;
        uint64_t end = argc > 4 ? strtoull(argv[4], NULL, 0) : UINT64_C(1) << 32;
        for (uint64_t b = start; b < end && b <= UINT32_MAX; b += stride ? stride : 1)
            check_f32((uint32_t)b);
    } else if (argc == 4 && strcmp(argv[1], "f64") == 0) {
        uint64_t n = strtoull(argv[2], NULL, 0), s = strtoull(argv[3], NULL, 0), bits;
        for (uint64_t i = 0; i < n; i++) {
            double v = random_double(&s, &bits);
            check_f64(v, bits);
        }
    } else if (argc == 2 && strcmp(argv[1], "print16") == 0) {
        char text[TEXT_FLOAT_MAX];
        for (uint32_t b = 0; b < 65536; b++) {
            text_float_f16((uint16_t)b, text);
            puts(text);
        }
        return 0;
    } else if (argc == 4 && strcmp(argv[1], "print64") == 0) {
        uint64_t n = strtoull(argv[2], NULL, 0), s = strtoull(argv[3], NULL, 0), bits;
        char text[TEXT_FLOAT_MAX];
        for (uint64_t i = 0; i < n; i++) {
            double v = random_double(&s, &bits);
            text_float_f64(v, text);
            printf("%016" PRIx64 " %s\n", bits, text);
        }
        return 0;
    } else if (argc == 4 && strcmp(argv[1], "print64near") == 0) {
        uint64_t n = strtoull(argv[2], NULL, 0), s = strtoull(argv[3], NULL, 0), bits;
        char text[TEXT_FLOAT_MAX];
        for (uint64_t i = 0; i < n; i++) {
            double v = random_near(&s, &bits);
            text_float_f64(v, text);
            printf("%016" PRIx64 " %s\n", bits, text);
        }
        return 0;
    } else if (argc == 4 && strcmp(argv[1], "decimal") == 0) {
        uint64_t n = strtoull(argv[2], NULL, 0), s = strtoull(argv[3], NULL, 0);
        check_decimal(0);
        check_decimal(UINT64_MAX);
        check_decimal((uint64_t)INT64_MAX);
        check_decimal((uint64_t)INT64_MAX + 1);   /* INT64_MIN */
        for (uint64_t p = 10; p <= UINT64_C(10000000000000000000); p *= 10) {
            check_decimal(p - 1);
            check_decimal(p);
            check_decimal(p + 1);
            check_decimal(0 - p);   /* -p as an int64 */
            if (p > UINT64_MAX / 10)
                break;
        }
        for (uint64_t i = 0; i < n; i++) {
            uint64_t r = next_random(&s);
            check_decimal(r >> (next_random(&s) & 63));
        }
    } else if (argc == 4 && strcmp(argv[1], "print32") == 0) {
        uint64_t n = strtoull(argv[2], NULL, 0), s = strtoull(argv[3], NULL, 0);
        char text[TEXT_FLOAT_MAX];
        for (uint64_t i = 0; i < n;) {
            uint32_t bits = (uint32_t)next_random(&s);
            if (((bits >> 23) & 0xff) == 0xff)
                continue;
            text_float_f32(bits, text);
            printf("%08" PRIx32 " %s\n", bits, text);
            i++;
        }
        return 0;
    } else {
        fputs("usage: float_check f32 STRIDE [START] | f64 N SEED | print16 | print64 N SEED | "
              "print32 N SEED | print64near N SEED | decimal N SEED\n",
              stderr);
        return 2;
    }
    printf("float_check: %" PRIu64 " checked, %" PRIu64 " failed\n", checked, failed);
    return failed ? 1 : 0;
}

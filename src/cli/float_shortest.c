/* Shortest round-trip digits by Schubfach (R. Giulietti, "The Schubfach
 * way to render doubles", 2020), written from the paper's description.
 *
 * A finite v = c * 2^q > 0 reads back from every decimal inside its
 * rounding interval R = [v - half the gap below, v + half the gap above]
 * (ends included when c is even: ties go to the even significand). With
 * k = floor(log10 |R|), R holds at least one multiple of 10^k and at most
 * one of 10^(k+1): when it holds one of 10^(k+1), that is the shortest;
 * else the shortest are among s * 10^k and (s + 1) * 10^k, s = floor(v /
 * 10^k), and the closer to v wins. The scaled values 4 v / 10^k and the
 * ends of R come from one 64 x 128-bit product each with a 128-bit
 * over-estimate of 10^-k, rounded to odd: the lowest bit says "inexact",
 * which keeps every comparison with an exact multiple of 4 right. */
#include "float_shortest.h"

#include <math.h>
#include <string.h>

const struct float_kind float_kind_f64 = {53, -1074};
const struct float_kind float_kind_f32 = {24, -149};
const struct float_kind float_kind_f16 = {11, -24};

/* floor(x / 2^s) for any sign (a right shift of a negative is not
 * portable C). */
static int floor_shift(int64_t x, int s)
{
    return (int)(x >= 0 ? x >> s : -((-x - 1) >> s) - 1);
}

/* floor(log10(2^q)), floor(log10(3/4 2^q)), floor(log2(10^e)): exact for
 * |q|, |e| below 1200 (checked against exact rationals). */
static int flog10_pow2(int q)
{
    return floor_shift((int64_t)q * 315653, 20);
}

static int flog10_three_quarters_pow2(int q)
{
    return floor_shift((int64_t)q * 315653 - 131237, 20);
}

static int flog2_pow10(int e)
{
    return floor_shift((int64_t)e * 1741647, 19);
}

/* The 128-bit product of two 64-bit numbers (by halves where the compiler
 * has no 128-bit integers, as on i386). */
static void mul_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
    __extension__ typedef unsigned __int128 u128;
    u128 p = (u128)a * b;
    *hi = (uint64_t)(p >> 64);
    *lo = (uint64_t)p;
#else
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32, b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* floor(g * x / 2^128), its lowest bit set when bits 64..127 of the
 * product are not all zero (rounding to odd). The lowest 64 bits are left
 * out: they hold the over-estimate of g (below x < 2^64), which must not
 * make an exact quotient look inexact (the paper's proof bounds the rest). */
static uint64_t scale_round_odd(const uint64_t g[2], uint64_t x)
{
    uint64_t hh, hl, lh, ll;
    mul_64x64(g[0], x, &hh, &hl);
    mul_64x64(g[1], x, &lh, &ll);
    (void)ll;
    uint64_t mid = hl + lh;
    uint64_t top = hh + (mid < hl);
    return top | (mid != 0);
}

struct float_decimal float_shortest(const struct float_kind *kind, uint64_t c, int q)
{
    uint64_t cmin = (uint64_t)1 << (kind->precision - 1);
    int open = (int)(c & 1);   /* odd c: the ends of R round to its neighbours */
    uint64_t cb = c << 2, cbr = cb + 2, cbl;
    int k;
    if (c != cmin || q == kind->qmin) {
        cbl = cb - 2;
        k = flog10_pow2(q);
    } else {
        /* the gap below a power of two is half the gap above */
        cbl = cb - 1;
        k = flog10_three_quarters_pow2(q);
    }
    /* 2^127 <= g = 10^-k / 2^r < 2^128 with r = flog2_pow10(-k) - 127, so
     * x * g / 2^128 = 4 v / 10^k for x = cb * 2^h, h = q + r + 128 (1..4) */
    const uint64_t *g = float_pow10_table[-k - POW10_MIN];
    int h = q + flog2_pow10(-k) + 1;
    uint64_t vb = scale_round_odd(g, cb << h);
    uint64_t vbl = scale_round_odd(g, cbl << h);
    uint64_t vbr = scale_round_odd(g, cbr << h);
    uint64_t s = vb >> 2;
    struct float_decimal d;
    d.exp10 = k;
    if (s >= 10) {
        /* one digit fewer: the multiple of 10^(k+1) below v or the one above */
        uint64_t sp = s / 10 * 10;
        int lower_in = vbl + (uint64_t)open <= sp << 2;
        int upper_in = ((sp + 10) << 2) + (uint64_t)open <= vbr;
        if (lower_in != upper_in) {
            d.digits = lower_in ? sp : sp + 10;
            goto strip;
        }
    }
    uint64_t t = s + 1;
    int s_in = vbl + (uint64_t)open <= s << 2;
    int t_in = (t << 2) + (uint64_t)open <= vbr;
    if (s_in != t_in) {
        d.digits = s_in ? s : t;
    } else {
        /* both in R: the closer to v, the even one on a tie */
        uint64_t mid = (s + t) << 1;
        d.digits = vb < mid || (vb == mid && (s & 1) == 0) ? s : t;
    }
strip:
    while (d.digits % 10 == 0) {
        d.digits /= 10;
        d.exp10++;
    }
    return d;
}

/* ---- text ------------------------------------------------------------------------ */

static const uint64_t pow10_u64[20] = {
    UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000),
    UINT64_C(100000), UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000),
    UINT64_C(1000000000), UINT64_C(10000000000), UINT64_C(100000000000),
    UINT64_C(1000000000000), UINT64_C(10000000000000), UINT64_C(100000000000000),
    UINT64_C(1000000000000000), UINT64_C(10000000000000000),
    UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
    UINT64_C(10000000000000000000)};

/* Decimal digits of v (1 for 0): from the bit length (log10(2) ~ 1233 /
 * 4096), one fewer when below that power of ten. */
static int digit_count(uint64_t v)
{
    int t = (64 - __builtin_clzll(v | 1)) * 1233 >> 12;
    return t + 1 - (t > 0 && v < pow10_u64[t]);
}

static int host_little_endian(void)
{
    uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first;
}

/* The 8 bytes of w at p, its lowest byte first (whatever the host's order). */
static void store_le64(char *p, uint64_t w)
{
    if (!host_little_endian())
        w = __builtin_bswap64(w);
    memcpy(p, &w, 8);
}

/* The 8 decimal digits of v < 10^8 (leading zeros included) as ASCII, the
 * first digit in the lowest byte. All digits at once in one 64-bit word:
 * v splits into two 4-digit halves in 32-bit lanes, each into two 2-digit
 * parts in 16-bit lanes, each into two digits in bytes; a quotient by 100
 * or 10 is a multiply and shift (exact for these ranges: (a * 10486) >> 20
 * = a / 100 for a < 10^4, (b * 103) >> 10 = b / 10 for b < 100), the
 * remainder a multiply and subtract. */
static uint64_t eight_digits(uint32_t v)
{
    uint64_t x = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
    uint64_t h = ((x * 10486) >> 20) & UINT64_C(0x0000007F0000007F);
    x = h | (x - h * 100) << 16;
    uint64_t t = ((x * 103) >> 10) & UINT64_C(0x000F000F000F000F);
    x = t | (x - t * 10) << 8;
    return x + UINT64_C(0x3030303030303030);
}

/* The nd digits (1..20) of v < 10^nd at buf. Whole 8-byte words are
 * stored, so up to max(nd, 8) bytes at buf are written; the leading group
 * of fewer than 8 digits drops its leading zeros by a shift of the word. */
static void put_digits(uint64_t v, int nd, char *buf)
{
    if (nd <= 8) {
        store_le64(buf, eight_digits((uint32_t)v) >> (8 * (8 - nd)));
        return;
    }
    uint64_t hi = v / 100000000;
    uint32_t lo = (uint32_t)(v - hi * 100000000);
    int lead = nd - 8;
    if (lead > 8) {
        uint64_t top = hi / 100000000;
        lead -= 8;
        store_le64(buf, eight_digits((uint32_t)top) >> (8 * (8 - lead)));
        store_le64(buf + lead, eight_digits((uint32_t)(hi - top * 100000000)));
        lead += 8;
    } else {
        store_le64(buf, eight_digits((uint32_t)hi) >> (8 * (8 - lead)));
    }
    store_le64(buf + lead, eight_digits(lo));
}

size_t decimal_u64(uint64_t v, char *buf)
{
    int nd = digit_count(v);
    put_digits(v, nd, buf);
    return (size_t)nd;
}

size_t decimal_i64(int64_t v, char *buf)
{
    if (v >= 0)
        return decimal_u64((uint64_t)v, buf);
    buf[0] = '-';
    return 1 + decimal_u64((uint64_t)0 - (uint64_t)v, buf + 1);
}

static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324"
                                  "25262728293031323334353637383940414243444546474849"
                                  "50515253545556575859606162636465666768697071727374"
                                  "75767778798081828384858687888990919293949596979899";

/* Python's layout of digits (no trailing zeros) times 10^exp10, written
 * in place: the digits go where they end up, whole words at a time (the
 * bytes after the text are scratch; FLOAT_TEXT_MAX bounds them all). */
static size_t layout(int neg, struct float_decimal d, char *buf)
{
    char *o = buf;
    *o = '-';
    o += neg;
    int nd = digit_count(d.digits);
    int point = d.exp10 + nd;   /* digits before the decimal point */
    int sci = point - 1;        /* exponent of the first digit */
    if (sci >= -4 && sci < 16) {
        if (point <= 0) {
            /* 0.ddd, 0.0ddd .. 0.000ddd */
            memcpy(o, "0.000", 5);
            put_digits(d.digits, nd, o + 2 - point);
            o += 2 - point + nd;
        } else if (point < nd) {
            /* the first `point` digits move one to the left for the '.' */
            put_digits(d.digits, nd, o + 1);
            for (int i = 0; i < point; i++)
                o[i] = o[i + 1];
            o[point] = '.';
            o += nd + 1;
        } else {
            /* integral: trailing zeros up to the point, then ".0" */
            put_digits(d.digits, nd, o);
            for (int i = nd; i < point; i += 8)
                memcpy(o + i, "00000000", 8);
            memcpy(o + point, ".0", 2);
            o += point + 2;
        }
    } else {
        /* d.ddde+XX: the digits one to the right, the first moved back */
        put_digits(d.digits, nd, o + 1);
        o[0] = o[1];
        if (nd > 1) {
            o[1] = '.';
            o += nd + 1;
        } else {
            o += 1;
        }
        o[0] = 'e';
        o[1] = sci < 0 ? '-' : '+';
        unsigned e = (unsigned)(sci < 0 ? -sci : sci);
        o += 2;
        if (e >= 100) {
            *o++ = (char)('0' + e / 100);
            e %= 100;
        }
        memcpy(o, digit_pairs + 2 * e, 2);
        o += 2;
    }
    *o = '\0';
    return (size_t)(o - buf);
}

/* Any format: sign, biased exponent field, fraction field. */
static size_t text_of(const struct float_kind *kind, int neg, uint64_t expo, uint64_t frac,
                      uint64_t expo_max, char *buf)
{
    static const char *const special[] = {"nan", "inf", "-inf", "0.0", "-0.0"};
    const char *s = NULL;
    if (expo == expo_max)
        s = frac ? special[0] : special[neg ? 2 : 1];
    else if (expo == 0 && frac == 0)
        s = special[neg ? 4 : 3];
    if (s) {
        size_t n = strlen(s);
        memcpy(buf, s, n + 1);
        return n;
    }
    int fbits = kind->precision - 1;
    uint64_t c = expo ? frac | (uint64_t)1 << fbits : frac;
    int q = expo ? (int)expo - 1 + kind->qmin : kind->qmin;
    return layout(neg, float_shortest(kind, c, q), buf);
}

size_t float_text_f64(double v, char *buf)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return text_of(&float_kind_f64, (int)(b >> 63), (b >> 52) & 0x7ff,
                   b & ((UINT64_C(1) << 52) - 1), 0x7ff, buf);
}

size_t float_text_f32(uint32_t b, char *buf)
{
    return text_of(&float_kind_f32, (int)(b >> 31), (b >> 23) & 0xff, b & 0x7fffffu, 0xff, buf);
}

size_t float_text_f16(uint16_t b, char *buf)
{
    return text_of(&float_kind_f16, b >> 15, (b >> 10) & 0x1f, b & 0x3ffu, 0x1f, buf);
}

uint32_t float_f32_bits(double v)
{
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

uint16_t float_f16_bits(double v)
{
    uint16_t sign = signbit(v) ? 0x8000u : 0;
    if (isnan(v))
        return 0x7e00u;
    v = fabs(v);
    if (isinf(v))
        return sign | 0x7c00u;
    if (v == 0)
        return sign;
    int e;
    double m = frexp(v, &e);   /* v = m 2^e, 1/2 <= m < 1 */
    if (e + 14 <= 0)           /* below 2^-14: subnormal, v / 2^-24 units */
        return sign | (uint16_t)ldexp(v, 24);
    return sign | (uint16_t)((unsigned)(e + 14) << 10) | (uint16_t)(ldexp(m, 11) - 1024);
}

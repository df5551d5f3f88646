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

#include <string.h>

const struct text_float_kind text_float_kind_f64 = {53, -1074};
const struct text_float_kind text_float_kind_f32 = {24, -149};
const struct text_float_kind text_float_kind_f16 = {11, -24};

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

/* Forced inline: GCC and clang otherwise keep one out-of-line copy
 * called per value. */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* text_float_shortest, inline in the text writers below (one value each). */
ALWAYS_INLINE struct text_float_decimal shortest(const struct text_float_kind *kind, uint64_t c,
                                                 int q)
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
    const uint64_t *g = text_pow10_table[-k - POW10_MIN];
    int h = q + flog2_pow10(-k) + 1;
    uint64_t vb = scale_round_odd(g, cb << h);
    uint64_t vbl = scale_round_odd(g, cbl << h);
    uint64_t vbr = scale_round_odd(g, cbr << h);
    uint64_t s = vb >> 2;
    struct text_float_decimal d;
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

struct text_float_decimal text_float_shortest(const struct text_float_kind *kind, uint64_t c,
                                              int q)
{
    return shortest(kind, c, q);
}

/* ---- text ------------------------------------------------------------------------ */

/* Python's layout of digits (no trailing zeros) times 10^exp10, written
 * in place: the digits go once where most of them end up, whole words at
 * a time (the bytes after the text are scratch; TEXT_FLOAT_MAX bounds
 * them all), then the few that move, the point and the exponent. */
ALWAYS_INLINE size_t layout(int neg, struct text_float_decimal d, char *buf)
{
    char *o = buf;
    *o = '-';
    o += neg;
    int nd = text_decimal_count(d.digits);
    int point = d.exp10 + nd;   /* digits before the decimal point */
    int sci = point - 1;        /* exponent of the first digit */
    int positional = sci >= -4 && sci < 16;
    /* 0.000ddd: after "0." and -point zeros; ddd.0: in place; else one
     * to the right, for the point after the first `point` digits (the
     * first digit in exponent form) */
    int at = !positional ? 1 : point <= 0 ? 2 - point : point < nd;
    if (positional && point <= 0)
        memcpy(o, "0.000", 5);
    text_decimal_put(d.digits, nd, o + at);
    if (positional) {
        if (point <= 0) {
            o += 2 - point + nd;
        } else if (point < nd) {
            for (int i = 0; i < point; i++)
                o[i] = o[i + 1];
            o[point] = '.';
            o += nd + 1;
        } else {
            /* integral: zeros up to the point, then ".0" */
            for (int i = nd; i < point; i += 8)
                memcpy(o + i, "00000000", 8);
            memcpy(o + point, ".0", 2);
            o += point + 2;
        }
        *o = '\0';
        return (size_t)(o - buf);
    }
    /* d.ddde+XX */
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
    /* two or three digits without a branch on which (it would be
     * mispredicted on varied magnitudes): the hundreds digit is written
     * either way and kept only when nonzero */
    unsigned wide = e >= 100;
    o[2] = (char)('0' + e / 100);
    memcpy(o + 2 + wide, text_decimal_pairs + 2 * (e % 100), 2);
    o += 4 + wide;
    *o = '\0';
    return (size_t)(o - buf);
}

/* Any format: sign, biased exponent field, fraction field. */
ALWAYS_INLINE size_t spell(const struct text_float_kind *kind, int neg, uint64_t expo,
                           uint64_t frac, uint64_t expo_max, char *buf)
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
    return layout(neg, shortest(kind, c, q), buf);
}

size_t text_float_f64(double v, char *buf)
{
    uint64_t b = text_bits_of_f64(v);
    return spell(&text_float_kind_f64, (int)(b >> 63), (b >> 52) & 0x7ff,
                   b & ((UINT64_C(1) << 52) - 1), 0x7ff, buf);
}

size_t text_float_f32(uint32_t b, char *buf)
{
    return spell(&text_float_kind_f32, (int)(b >> 31), (b >> 23) & 0xff, b & 0x7fffffu, 0xff,
                 buf);
}

size_t text_float_f16(uint16_t b, char *buf)
{
    return spell(&text_float_kind_f16, b >> 15, (b >> 10) & 0x1f, b & 0x3ffu, 0x1f, buf);
}

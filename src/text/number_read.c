/* JSON numbers read into doubles without strtod or locale where that can
 * be done exactly: the digits (19 significant at most) times a power of ten,
 * rounded once to the nearest double (ties to even), the result strtod
 * gives. Three ways, the first that applies: zero; both factors exact
 * doubles, so one correctly rounded multiplication or division
 * (Clinger's fast path); or the 128-bit power of ten of
 * text_pow10_table, which bounds the exact value between two 192-bit
 * products - when both bounds round to the same double, that double is
 * the answer (the method of Eisel and Lemire, with the proof replaced by
 * the two bounds). Everything else (more digits, subnormal or overflowing
 * results, the rare value next to a rounding boundary) is left to strtod
 * by the caller. */
#include "float_shortest.h"

#include <float.h>
#include <string.h>

bool text_is_number(const char *s, size_t n)
{
    size_t i = 0;
#define DIGIT(k) ((k) < n && s[k] >= '0' && s[k] <= '9')
    if (i < n && s[i] == '-')
        i++;
    if (!DIGIT(i))
        return false;
    if (s[i] == '0')
        i++;
    else
        while (DIGIT(i))
            i++;
    if (i < n && s[i] == '.') {
        if (!DIGIT(i + 1))
            return false;
        for (i++; DIGIT(i);)
            i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        if (!DIGIT(i))
            return false;
        while (DIGIT(i))
            i++;
    }
#undef DIGIT
    return i == n;
}

/* Exponents beyond this go to strtod (the value is 0 or infinite, or has
 * so many digits that strtod reads it anyway). */
#define EXPONENT_LIMIT 100000

/* s[i..) while it is digits, into *m (m * 10 + digit, wrapping past 19
 * digits: the caller counts them); the index after them. */
static size_t digits(const char *s, size_t i, size_t n, uint64_t *m)
{
    uint64_t v = *m;
    for (unsigned d; i < n && (d = (unsigned)(unsigned char)s[i] - '0') < 10; i++)
        v = v * 10 + d;
    *m = v;
    return i;
}

/* The parts of a JSON number: mant * 10^scale with at most 19
 * significant digits in mant. 0 when s is not a JSON number (the form
 * text_is_number takes) or has more digits. */
static int decimal_parts(const char *s, size_t n, int *neg, uint64_t *mant, int *scale)
{
    size_t i = (size_t)(*neg = n && s[0] == '-'), start = i;
    uint64_t m = 0;
    if (i < n && s[i] == '0')
        i++;   /* a leading zero stands alone */
    else
        i = digits(s, i, n, &m);
    if (i == start || (i < n && s[i] >= '0' && s[i] <= '9'))
        return 0;
    /* (m may have wrapped: count the digits, not m's value) */
    size_t significant = s[start] != '0' ? i - start : 0;
    long sc = 0;
    if (i < n && s[i] == '.') {
        size_t point = ++i;
        if (significant == 0)
            while (i < n && s[i] == '0')
                i++;   /* zeros before the first significant digit */
        size_t first = i;
        i = digits(s, i, n, &m);
        if (i == point)
            return 0;
        significant += i - first;
        sc = -(long)(i - point);
    }
    if (significant > 19)
        return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int eneg = 0;
        if (++i < n && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        size_t first = i;
        uint64_t e = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9' && e <= EXPONENT_LIMIT)
            e = e * 10 + (uint64_t)(s[i++] - '0');
        if (i == first || e > EXPONENT_LIMIT)
            return 0;
        sc += eneg ? -(long)e : (long)e;
    }
    if (i != n || sc < -2 * EXPONENT_LIMIT || sc > 2 * EXPONENT_LIMIT)
        return 0;
    *mant = m;
    *scale = (int)sc;
    return 1;
}

/* Double arithmetic rounds once, to double, when FLT_EVAL_METHOD is 0 or
 * 1 (1, as on s390x in ISO C mode, widens only float); x87 arithmetic
 * (2) would round twice. */
#define DOUBLE_ROUNDS_ONCE (FLT_EVAL_METHOD == 0 || FLT_EVAL_METHOD == 1)

#if DOUBLE_ROUNDS_ONCE
/* 10^0 .. 10^22: every one an exact double. */
static const double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#endif

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128;

/* The bits of the double nearest to top * 2^64 + low times 2^e2 (ties to
 * even), where 2^126 <= top < 2^128. 0 when the result is not a normal
 * finite double. */
static int round_bits(u128 top, uint64_t low, int e2, uint64_t *bits)
{
    int shift = (top >> 127) ? 75 : 74;   /* keeps 53 bits */
    uint64_t m = (uint64_t)(top >> shift);
    u128 rem = top & (((u128)1 << shift) - 1), half = (u128)1 << (shift - 1);
    if (rem > half || (rem == half && (low != 0 || (m & 1))))
        m++;
    int e = e2 + 64 + shift + 52;   /* the value is m * 2^(e - 52) */
    if (m >> 53) {
        m >>= 1;
        e++;
    }
    if (e < -1022 || e > 1023)
        return 0;
    *bits = (uint64_t)(e + 1023) << 52 | (m & (((uint64_t)1 << 52) - 1));
    return 1;
}

/* floor(log2(10^q)) for |q| <= 400 (217706 / 2^16 is log2(10) closely
 * enough over that range). */
static int floor_log2_pow10(int q)
{
    long v = (long)q * 217706;
    return (int)(v >= 0 ? v / 65536 : -((-v + 65535) / 65536));
}

/* The nearest double of mant * 10^q (mant != 0) from the 128-bit power of
 * ten: 10^q = (g - 1 + f) * 2^r with 0 <= f < 1 (the table's g is one
 * unit above the truncated value), so the exact product lies in
 * [mant * (g - 1), mant * g) * 2^r. 0 when the bounds round apart. */
static int table_double(uint64_t mant, int q, double *out)
{
    if (q < POW10_MIN || q > POW10_MAX)
        return 0;
    const uint64_t *g = text_pow10_table[q - POW10_MIN];
    u128 t = ((u128)g[0] << 64 | g[1]) - 1;
    int lz = __builtin_clzll(mant);
    uint64_t w = mant << lz;
    u128 lo = (u128)w * (uint64_t)t;
    u128 top = (u128)w * (uint64_t)(t >> 64) + (lo >> 64);   /* < 2^128 */
    uint64_t low = (uint64_t)lo;
    uint64_t up_low = low + w;                               /* the upper bound */
    u128 up_top = top + (up_low < low);
    int e2 = floor_log2_pow10(q) - 127 - lz;
    uint64_t a, b;
    if (!round_bits(top, low, e2, &a) || !round_bits(up_top, up_low, e2, &b) || a != b)
        return 0;
    memcpy(out, &a, sizeof *out);
    return 1;
}
#endif

bool text_read_double(const char *s, size_t n, double *out)
{
    int neg, q;
    uint64_t mant;
    if (!decimal_parts(s, n, &neg, &mant, &q))
        return false;
    double d;
    if (mant == 0) {
        d = 0.0;
    }
#if DOUBLE_ROUNDS_ONCE
    else if (mant <= ((uint64_t)1 << 53) && q >= -22 && q <= 22) {
        d = q < 0 ? (double)mant / exact_pow10[-q] : (double)mant * exact_pow10[q];
    }
#endif
#ifdef __SIZEOF_INT128__
    else if (!table_double(mant, q, &d)) {
        return false;
    }
#else
    else {
        return false;
    }
#endif
    *out = neg ? -d : d;
    return true;
}

/* IEEE binary16 (NumPy's float16) to and from double, and the rounding
 * of a significand by a shift that the narrowing conversions share. */
#include "text/text.h"

#define MANT52 ((UINT64_C(1) << 52) - 1)

uint64_t text_round_shift(uint64_t m, unsigned s)
{
    if (s == 0)
        return m;
    if (s > 64)
        return 0;
    if (s == 64)
        return m > (UINT64_C(1) << 63) ? 1 : 0;
    uint64_t keep = m >> s;
    uint64_t rem = m & ((UINT64_C(1) << s) - 1);
    uint64_t half = UINT64_C(1) << (s - 1);
    if (rem > half || (rem == half && (keep & 1)))
        keep++;
    return keep;
}

double text_f16_of_bits(uint16_t h)
{
    uint64_t sign = (uint64_t)(h >> 15) << 63;
    unsigned e = (h >> 10) & 0x1f;
    uint64_t m = h & 0x3ff;
    if (e == 0x1f)   /* inf or NaN (payload kept, quiet bit included) */
        return text_f64_of_bits(sign | (UINT64_C(0x7ff) << 52) | (m << 42));
    if (e == 0) {
        if (m == 0)
            return text_f64_of_bits(sign);
        int ex = -14;
        while (!(m & 0x400)) {
            m <<= 1;
            ex--;
        }
        return text_f64_of_bits(sign | ((uint64_t)(ex + 1023) << 52) | ((m & 0x3ff) << 42));
    }
    return text_f64_of_bits(sign | ((uint64_t)((int)e - 15 + 1023) << 52) | (m << 42));
}

uint16_t text_bits_of_f16(double d)
{
    uint64_t b = text_bits_of_f64(d);
    uint16_t sign = (uint16_t)((b >> 63) << 15);
    int e = (int)((b >> 52) & 0x7ff);
    uint64_t f = b & MANT52;
    if (e == 0x7ff) {
        if (f == 0)
            return sign | 0x7c00;
        return sign | 0x7e00 | (uint16_t)((f >> 42) & 0x3ff);
    }
    if (e == 0)   /* double subnormals are far below half's range */
        return sign;
    int ex = e - 1023;
    uint64_t m = f | (UINT64_C(1) << 52);
    if (ex > 15)
        return sign | 0x7c00;
    if (ex >= -14) {
        uint64_t keep = text_round_shift(m, 42);   /* 11 bits with the leading one */
        if (keep == 0x800) {
            keep = 0x400;
            ex++;
        }
        if (ex > 15)
            return sign | 0x7c00;
        return sign | (uint16_t)((unsigned)(ex + 15) << 10) | (uint16_t)(keep & 0x3ff);
    }
    /* subnormal half: units of 2^-24; value = m * 2^(ex - 52) */
    unsigned s = (unsigned)(28 - ex);
    return sign | (uint16_t)text_round_shift(m, s);   /* 0x400 is the smallest normal */
}

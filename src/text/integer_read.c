/* A JSON integer read into its magnitude and sign, eight digits at a
 * time where eight are there: the one integer reader of the command's
 * inputs (load's plans and its general path alike). */
#include "text.h"

/* The eight bytes at p when all are ASCII digits: true and their value. A
 * byte is a digit when its high half is 3 and stays 3 after adding 6 (a
 * carry out of a byte only spoils bytes already refused); the digits are
 * then joined in pairs, fours and eights by multiplying the lanes (the
 * first byte, lowest in a little-endian load, is the most significant
 * digit). */
static bool eight_digits(const unsigned char *p, uint64_t *v)
{
    const uint64_t highs = 0xF0F0F0F0F0F0F0F0u, ones = 0x0101010101010101u;
    uint64_t w = text_load_le64(p);
    if (((w & highs) | (((w + 6 * ones) & highs) >> 4)) != 0x33 * ones)
        return false;
    w -= 0x30 * ones;
    w = w * 10 + (w >> 8);   /* pairs in the even bytes */
    const uint64_t pair = 0x000000FF000000FFu;
    *v = ((w & pair) * (100 + (1000000ull << 32)) + ((w >> 16) & pair) * (1 + (10000ull << 32))) >>
         32;
    return true;
}

size_t text_read_integer(const char *s, size_t n, uint64_t *mag, bool *neg)
{
    const unsigned char *p = (const unsigned char *)s, *e = p + n;
    bool minus = n && *p == '-';
    p += minus;
    const unsigned char *start = p, *stop = e - p > 19 ? p + 19 : e;
    uint64_t m = 0, eight;
    unsigned d;
    while (stop - p >= 8 && eight_digits(p, &eight)) {
        m = m * 100000000u + eight;
        p += 8;
    }
    while (p < stop && (d = (unsigned)*p - '0') < 10) {
        m = m * 10 + d;
        p++;
    }
    if (p == start || (*start == '0' && p - start > 1))
        return 0;   /* no digit, or a leading zero JSON does not allow */
    if (p < e && (d = (unsigned)*p - '0') < 10) {
        /* a 20th digit, within uint64 and last */
        if (m > (UINT64_MAX - d) / 10 || (p + 1 < e && (unsigned)p[1] - '0' < 10))
            return 0;
        m = m * 10 + d;
        p++;
    }
    *neg = minus;
    *mag = m;
    return (size_t)(p - (const unsigned char *)s);
}

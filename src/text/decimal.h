/* Decimal digits of integers (included by text.h): integers, the digits
 * of floats, exponents; inline because they run per value: up to 8
 * digits come from one 64-bit word computed with multiplies and shifts
 * and stored whole, at the place the text puts them (no digit buffer to
 * copy from). Writers may store whole words past the digits: their
 * comments say how far. */
#ifndef NPYDT_TEXT_DECIMAL_H
#define NPYDT_TEXT_DECIMAL_H

#include "byteorder.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* "00" .. "99", two bytes each. */
static const char text_decimal_pairs[] = "00010203040506070809101112131415161718192021222324"
                                         "25262728293031323334353637383940414243444546474849"
                                         "50515253545556575859606162636465666768697071727374"
                                         "75767778798081828384858687888990919293949596979899";

/* Decimal digits of v (1 for 0): from the bit length (log10(2) ~ 1233 /
 * 4096), one fewer when below that power of ten. The table starts with 0,
 * not 1, so that v < 8 (t == 0) counts one digit without a branch. */
static inline int text_decimal_count(uint64_t v)
{
    static const uint64_t pow10[20] = {
        UINT64_C(0), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000),
        UINT64_C(100000), UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000),
        UINT64_C(1000000000), UINT64_C(10000000000), UINT64_C(100000000000),
        UINT64_C(1000000000000), UINT64_C(10000000000000), UINT64_C(100000000000000),
        UINT64_C(1000000000000000), UINT64_C(10000000000000000),
        UINT64_C(100000000000000000), UINT64_C(1000000000000000000),
        UINT64_C(10000000000000000000)};
    int t = (64 - __builtin_clzll(v | 1)) * 1233 >> 12;
    return t + 1 - (v < pow10[t]);
}

/* The 8 decimal digits of v < 10^8 (leading zeros included) as ASCII, the
 * first digit in the lowest byte. All digits at once in one 64-bit word:
 * v splits into two 4-digit halves in 32-bit lanes, each into two 2-digit
 * parts in 16-bit lanes, each into two digits in bytes; a quotient by 100
 * or 10 is a multiply and shift (exact for these ranges: (a * 10486) >> 20
 * = a / 100 for a < 10^4, (b * 103) >> 10 = b / 10 for b < 100), the
 * remainder a multiply and subtract. Stored lowest byte first
 * (text_store64 swapping on a big-endian host), the digits read in order. */
static inline uint64_t text_decimal_eight(uint32_t v)
{
    uint64_t x = (uint64_t)(v / 10000) | (uint64_t)(v % 10000) << 32;
    uint64_t h = ((x * 10486) >> 20) & UINT64_C(0x0000007F0000007F);
    x = h | (x - h * 100) << 16;
    uint64_t t = ((x * 103) >> 10) & UINT64_C(0x000F000F000F000F);
    x = t | (x - t * 10) << 8;
    return x + UINT64_C(0x3030303030303030);
}

/* The n digits (1..8) of v < 10^n at buf, writing at most 8 bytes: one
 * or two by the pair table, more as the word of text_decimal_eight without
 * its leading zeros (a shift). */
static inline void text_decimal_lead(uint32_t v, int n, char *buf)
{
    if (n == 1)
        buf[0] = (char)('0' + v);
    else if (n == 2)
        memcpy(buf, text_decimal_pairs + 2 * v, 2);
    else
        text_store64(buf, TEXT_HOST_BIG, text_decimal_eight(v) >> (8 * (8 - n)));
}

/* The nd digits (1..20) of v < 10^nd at buf, in whole 8-byte words where
 * they take 8: up to max(nd, 8) bytes at buf are written. */
static inline void text_decimal_put(uint64_t v, int nd, char *buf)
{
    if (nd <= 8) {
        text_decimal_lead((uint32_t)v, nd, buf);
        return;
    }
    uint64_t hi = v / 100000000;
    uint32_t lo = (uint32_t)(v - hi * 100000000);
    int lead = nd - 8;
    if (lead > 8) {
        uint64_t top = hi / 100000000;
        lead -= 8;
        text_decimal_lead((uint32_t)top, lead, buf);
        hi -= top * 100000000;
        text_store64(buf + lead, TEXT_HOST_BIG, text_decimal_eight((uint32_t)hi));
        lead += 8;
    } else {
        text_decimal_lead((uint32_t)hi, lead, buf);
    }
    text_store64(buf + lead, TEXT_HOST_BIG, text_decimal_eight(lo));
}

/* The decimal text of an integer at buf (room for 20 bytes, 21 for
 * text_decimal_i64, all of which may be written); its length. */
static inline size_t text_decimal_u64(uint64_t v, char *buf)
{
    int nd = text_decimal_count(v);
    text_decimal_put(v, nd, buf);
    return (size_t)nd;
}

static inline size_t text_decimal_i64(int64_t v, char *buf)
{
    /* no branch on the sign: random signs would be mispredicted half the
     * time */
    size_t neg = v < 0;
    uint64_t mask = (uint64_t)0 - neg;
    buf[0] = '-';
    return neg + text_decimal_u64(((uint64_t)v ^ mask) + neg, buf + neg);
}

#endif

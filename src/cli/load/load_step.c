/* One scalar element converted straight from its text into the record's
 * bytes: the step JSON Lines' plan and CSV's columns share. A step is
 * chosen once from the element's kind, size and byte order; a value then
 * goes into its bytes with no load_value, no typed writer and no second
 * look at its text. A step takes only what the general path
 * (load_put) reads to the same bytes: integers in range, numbers
 * text_read_double converts, floats in range, bytes that fit; for
 * anything else it answers 0, and the general path reads the value and
 * gives the result or the error. */
#include "cli/load/load.h"

#include <string.h>

int load_step_of(const npydt_dtype *dt, uint64_t offset, struct load_step *s)
{
    char kind = npydt_dtype_kind(dt), bo = npydt_dtype_byteorder(dt);
    uint64_t size = npydt_dtype_itemsize(dt);
    int integer_size = size == 1 || size == 2 || size == 4 || size == 8;
    int op = LOAD_OP_NONE;
    switch (kind) {
    case 'b': op = size == 1 ? LOAD_OP_BOOL : LOAD_OP_NONE; break;
    case 'i': case 'M': case 'm': op = integer_size ? LOAD_OP_INT : LOAD_OP_NONE; break;
    case 'u': op = integer_size ? LOAD_OP_UINT : LOAD_OP_NONE; break;
    case 'f': op = size == 4 ? LOAD_OP_F4 : size == 8 ? LOAD_OP_F8 : LOAD_OP_NONE; break;
    case 'c': op = size == 8 ? LOAD_OP_C8 : size == 16 ? LOAD_OP_C16 : LOAD_OP_NONE; break;
    case 'S': op = size ? LOAD_OP_BYTES : LOAD_OP_NONE; break;
    }
    if (op != LOAD_OP_BYTES && size > 1 && bo != '<' && bo != '>')
        op = LOAD_OP_NONE;
    *s = (struct load_step){.op = (unsigned char)op,
                            .size = (unsigned char)(kind == 'c' ? size / 2 : size <= 8 ? size : 0),
                            .swap = (bo == '>') != TEXT_HOST_BIG,
                            .n = (size_t)size,
                            .offset = (size_t)offset};
    return op != LOAD_OP_NONE;
}

/* The eight bytes at p when all are ASCII digits: 1 and their value. A
 * byte is a digit when its high half is 3 and stays 3 after adding 6;
 * the digits are then joined in pairs, fours and eights by multiplying
 * the lanes (the first byte, lowest in a little-endian load, is the most
 * significant digit). */
static int eight_digits(const unsigned char *p, uint64_t *v)
{
    const uint64_t highs = 0xF0F0F0F0F0F0F0F0u, ones = 0x0101010101010101u;
    uint64_t w = text_load_le64(p);
    if (((w & highs) | (((w + 6 * ones) & highs) >> 4)) != 0x33 * ones)
        return 0;
    w -= 0x30 * ones;
    w = w * 10 + (w >> 8);   /* pairs in the even bytes */
    const uint64_t pair = 0x000000FF000000FFu;
    *v = ((w & pair) * (100 + (1000000ull << 32)) + ((w >> 16) & pair) * (1 + (10000ull << 32))) >>
         32;
    return 1;
}

size_t load_read_integer(const char *s, size_t n, uint64_t *mag, int *neg)
{
    const unsigned char *p = (const unsigned char *)s, *e = p + n;
    int minus = n && *p == '-';
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
    /* none, a 20th digit (the general path says whether it fits), or a
     * leading zero JSON does not allow */
    if (p == start || (p < e && (unsigned)*p - '0' < 10) || (*start == '0' && p - start > 1))
        return 0;
    *neg = minus;
    *mag = m;
    return (size_t)(p - (const unsigned char *)s);
}

int load_step_text(const struct load_step *s, const char *t, size_t n, unsigned char *rec)
{
    uint64_t mag;
    int neg;
    double d;
    switch (s->op) {
    case LOAD_OP_INT:
    case LOAD_OP_UINT:
        return n && load_read_integer(t, n, &mag, &neg) == n &&
               load_step_integer(s, mag, neg, rec);
    case LOAD_OP_F4:
    case LOAD_OP_F8:
        return text_read_double(t, n, &d) && load_step_float(s, 0, d, rec);
    case LOAD_OP_BOOL:
        if ((n == 4 && (memcmp(t, "True", 4) == 0 || memcmp(t, "true", 4) == 0)) ||
            (n == 5 && (memcmp(t, "False", 5) == 0 || memcmp(t, "false", 5) == 0))) {
            rec[s->offset] = n == 4;
            return 1;
        }
        return 0;
    case LOAD_OP_BYTES:
        if (n > s->n)
            return 0;
        memcpy(rec + s->offset, t, n);   /* the rest stays zero */
        return 1;
    }
    return 0;
}

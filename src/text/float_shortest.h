/* Shortest round-trip decimal digits of binary floats (double, float32,
 * float16) by Giulietti's Schubfach method: the stage's digits behind
 * text_float_* (text.h), and the powers of ten that number_read.c also
 * reads by. */
#ifndef NPYDT_TEXT_FLOAT_SHORTEST_H
#define NPYDT_TEXT_FLOAT_SHORTEST_H

#include "text.h"

#include <stddef.h>
#include <stdint.h>

/* The decimal exponents text_pow10_table covers (tests/tools/gen_float_pow10.py). */
#define POW10_MIN (-292)
#define POW10_MAX 324
extern const uint64_t text_pow10_table[POW10_MAX - POW10_MIN + 1][2];

/* A binary floating-point format: significand bits with the hidden one
 * (53, 24, 11) and the exponent of the last significand bit of the
 * subnormals (-1074, -149, -24). */
struct text_float_kind {
    int precision;
    int qmin;
};
extern const struct text_float_kind text_float_kind_f64, text_float_kind_f32, text_float_kind_f16;

/* A positive value digits * 10^exp10, digits without trailing zeros. */
struct text_float_decimal {
    uint64_t digits;
    int exp10;
};

/* The decimal with the fewest digits that reads back (round to nearest,
 * ties to even) to the value c * 2^q of format kind, and of those the
 * closest to it (an even last digit on a tie). c > 0 is the significand
 * with its hidden bit (c < 2^precision; c < 2^(precision-1) only when
 * q == kind->qmin). */
struct text_float_decimal text_float_shortest(const struct text_float_kind *kind, uint64_t c,
                                              int q);

#endif

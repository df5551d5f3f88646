/* Shortest round-trip decimal digits of binary floats (double, float32,
 * float16) by Giulietti's Schubfach method, and their text as Python's
 * repr() and NumPy's scalar repr write it. Locale independent; no printf
 * or strtod. */
#ifndef NPYDT_CLI_FLOAT_SHORTEST_H
#define NPYDT_CLI_FLOAT_SHORTEST_H

#include "decimal.h"

#include <stddef.h>
#include <stdint.h>

/* The decimal exponents float_pow10_table covers (tools/gen_float_pow10.py). */
#define POW10_MIN (-292)
#define POW10_MAX 324
extern const uint64_t float_pow10_table[POW10_MAX - POW10_MIN + 1][2];

/* A binary floating-point format: significand bits with the hidden one
 * (53, 24, 11) and the exponent of the last significand bit of the
 * subnormals (-1074, -149, -24). */
struct float_kind {
    int precision;
    int qmin;
};
extern const struct float_kind float_kind_f64, float_kind_f32, float_kind_f16;

/* A positive value digits * 10^exp10, digits without trailing zeros. */
struct float_decimal {
    uint64_t digits;
    int exp10;
};

/* The decimal with the fewest digits that reads back (round to nearest,
 * ties to even) to the value c * 2^q of format kind, and of those the
 * closest to it (an even last digit on a tie). c > 0 is the significand
 * with its hidden bit (c < 2^precision; c < 2^(precision-1) only when
 * q == kind->qmin). */
struct float_decimal float_shortest(const struct float_kind *kind, uint64_t c, int q);

/* Room float_text needs: "-d.dddddddddddddddde-XXX" and a NUL, and the
 * scratch its whole-word stores reach past the text (up to 26 bytes in
 * all). */
#define FLOAT_TEXT_MAX 32

/* The text of a value as Python's repr(float) writes it (and NumPy's repr
 * of float16/float32 scalars): shortest digits, positional for decimal
 * exponents -4..15 with at least one digit after the point, else
 * d.ddde+XX; "nan", "inf", "-inf", "0.0", "-0.0". Returns its length. */
size_t float_text_f64(double v, char *buf);
/* The same for the float32 with these bits. */
size_t float_text_f32(uint32_t bits, char *buf);
/* The same for the float16 with these bits. */
size_t float_text_f16(uint16_t bits, char *buf);
/* The bits of the float32 / float16 that v (one of their values, as a
 * double) is. */
uint32_t float_f32_bits(double v);
uint16_t float_f16_bits(double v);

#endif

/* Private helpers of the record modules (field, convert, gather, swap):
 * unaligned loads and stores, byte swaps and float format conversions. */
#ifndef NPYDT_RECORDS_H
#define NPYDT_RECORDS_H

#include "dtype/dtype.h"

#include <string.h>

/* ---- unaligned access: memcpy compiles to one load or store ------------ */

static inline uint16_t ld16(const unsigned char *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t ld32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t ld64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline void st16(unsigned char *p, uint16_t v) { memcpy(p, &v, 2); }
static inline void st32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void st64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

/* Reverse n bytes from src into dst (dst == src allowed). */
static inline void reverse_bytes(unsigned char *dst, const unsigned char *src, size_t n)
{
    if (dst == src) {
        for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
            unsigned char t = dst[i];
            dst[i] = dst[j - 1];
            dst[j - 1] = t;
        }
    } else {
        for (size_t i = 0; i < n; i++)
            dst[i] = src[n - 1 - i];
    }
}

/* True when a scalar stored with this byte order must be swapped to be
 * read natively. */
static inline bool order_swaps(char byteorder)
{
    return (byteorder == '<' || byteorder == '>') && byteorder != NATIVE_ORDER;
}

/* Integers of a stored scalar of `size` bytes in the given order. */
static inline uint64_t load_uint(const unsigned char *p, size_t size, bool swap)
{
    switch (size) {
    case 1: return p[0];
    case 2: { uint16_t v = ld16(p); return swap ? __builtin_bswap16(v) : v; }
    case 4: { uint32_t v = ld32(p); return swap ? __builtin_bswap32(v) : v; }
    default: { uint64_t v = ld64(p); return swap ? __builtin_bswap64(v) : v; }
    }
}

static inline void store_uint(unsigned char *p, size_t size, bool swap, uint64_t v)
{
    switch (size) {
    case 1: p[0] = (unsigned char)v; break;
    case 2: { uint16_t x = (uint16_t)v; st16(p, swap ? __builtin_bswap16(x) : x); break; }
    case 4: { uint32_t x = (uint32_t)v; st32(p, swap ? __builtin_bswap32(x) : x); break; }
    default: st64(p, swap ? __builtin_bswap64(v) : v); break;
    }
}

static inline double bits_to_double(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static inline uint64_t double_to_bits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static inline float bits_to_float(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline uint32_t float_to_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* ---- float formats (convert.c) ---------------------------------------- */

/* IEEE binary16 bits to double (exact). */
double half_to_double(uint16_t h);
/* Double to binary16 bits, rounding to nearest even. */
uint16_t double_to_half(double d);
/* x87 80-bit extended (64-bit significand with explicit integer bit, in
 * the 10 low-order bytes of a long double, little-endian) to the nearest
 * double, ties to even, as the x87 FPU converts it: unnormals and pseudo
 * NaN/infinity become NaN. */
double ext80_to_double(uint64_t mant, uint16_t sign_exp);
/* Double to x87 80-bit extended (exact). */
void double_to_ext80(double d, uint64_t *mant, uint16_t *sign_exp);

/* Integer to x87 80-bit extended (exact). */
void int_to_ext80(uint64_t magnitude, bool negative, uint64_t *mant, uint16_t *sign_exp);

/* Read a float of kind 'f' of the given size (2, 4, 8, 12, 16) stored in
 * byte order `byteorder` ('<', '>', '|') from p. Long doubles are x87
 * extended in the low-order 10 bytes; '>' stores them fully reversed, as
 * NumPy's byteswap does. */
double load_float(const unsigned char *p, size_t size, char byteorder);
/* Store d into such a float (rounding to nearest even); long double
 * padding bytes are zeroed. */
void store_float(unsigned char *p, size_t size, char byteorder, double d);
/* Store an integer into such a float (long doubles exactly). */
void store_float_int(unsigned char *p, size_t size, char byteorder, uint64_t magnitude,
                     bool negative);

/* ---- datetime units (time_convert.c) ------------------------------------ */

/* Outcome of time_convert. */
enum time_conv {
    TIME_OK,
    TIME_INEXACT,   /* the target unit would drop part of the count */
    TIME_OVERFLOW   /* the converted count is beyond int64 (or NaT's value) */
};
/* Convert count (not NaT) of from_mult * from_unit into to_mult * to_unit
 * exactly (units Y..as, multipliers >= 1): *out only on TIME_OK. Years and
 * months against weeks or finer units: with `calendar` (datetimes) a
 * month is the span from its first day, so only month starts convert;
 * without (timedeltas) it is NumPy's average, 30.436875 days. */
enum time_conv time_convert(int64_t count, int from_unit, int32_t from_mult, int to_unit,
                            int32_t to_mult, bool calendar, int64_t *out);

/* ---- values and types in messages (value_text.c) ------------------------ */

/* A field's type without byte order: "u1", "f16", "S5", "U5" (characters),
 * "M8[25s]". */
void value_type_name(const npydt_dtype *dt, char *buf, size_t size);
/* The shortest digits that read back as v, laid out as Python's repr()
 * without a trailing ".0": "2.5", "65520", "1e+300", "nan". */
void format_double(char *buf, size_t size, double v);
/* A complex number as Python prints one: "(1+2j)", "(1-2j)". */
void format_complex(char *buf, size_t size, const double v[2]);
/* A string quoted, printable ASCII as it is, quotes, backslashes and
 * control bytes escaped, cut after 32 characters with "..."; with `text`
 * (valid WTF-8) other code points as they are, surrogates as \udXXX,
 * else other bytes as \xNN. */
void quote_value(char *buf, size_t size, const unsigned char *s, size_t len, bool text);
/* A datetime value with its unit: "1500 [ms]", "7 [25s]", "5 [generic]". */
void format_datetime(char *buf, size_t size, const npydt_datetime *v);

/* ---- swap units ---------------------------------------------------------- */

/* Bytes of the unit a byteswap reverses in a scalar of this kind and size:
 * the size, half of it for complex, 4 for U; 0 when nothing is swapped
 * (b, S, V, O, 1-byte and empty scalars). */
static inline uint32_t swap_unit(char kind, uint64_t itemsize)
{
    switch (kind) {
    case 'b': case 'S': case 'V': case 'O':
        return 0;
    case 'c':
        return itemsize >= 4 ? (uint32_t)(itemsize / 2) : 0;
    case 'U':
        return itemsize >= 4 ? 4 : 0;
    default:
        return itemsize >= 2 ? (uint32_t)itemsize : 0;
    }
}

/* Follow subarrays from dt to a scalar: *scalar and the number of its
 * elements (contiguous in dt). False when a struct is on the way. */
bool scalar_chain(const npydt_dtype *dt, const npydt_dtype **scalar, uint64_t *elems);

/* ---- swap plans (swap.c), used by gather and scatter -------------------- */

/* Swap in place, to native order, n records of the plan's type at base,
 * stride bytes apart (also converts native data back to the stored order). */
void swap_plan_run_native(const npydt_swap_plan *plan, unsigned char *base, uint64_t n,
                          size_t stride);

/* For tests: run the plain op loops instead of the pshufb windows;
 * returns how many windows the plan had. */
size_t swap_plan_drop_windows(npydt_swap_plan *plan);
/* Ops of the list for `to` (flat ones in *nflat): for tests. */
size_t swap_plan_nops(const npydt_swap_plan *plan, npydt_order to, size_t *nflat);

#endif

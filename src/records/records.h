/* Private helpers of the record modules (field, convert, gather, swap): byte reversal, float format conversions, datetime units, values
 * in messages and swap plans (loads, stores and the host's byte order are
 * the text stage's: text/text.h). */
#ifndef NPYDT_RECORDS_H
#define NPYDT_RECORDS_H

#include "dtype/dtype.h"

#include "text/text.h"

#include <string.h>

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

/* ---- float formats (convert.c) ---------------------------------------- */

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
/* v as the command writes a double (text_float_f64, Python's repr()):
 * "2.5", "65520.0", "1e+300", "nan". */
void format_double(char *buf, size_t size, double v);
/* A complex number, its parts as format_double writes them: "(1.0+2.0j)",
 * "(1.5-2.0j)". */
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

/* The scalar node at path in dt (as npydt_field_lookup reads it) and its
 * offset: the one lookup of a value read or written by path. A struct or
 * subarray node is NPYDT_E_VALUE naming the path; a NULL path
 * NPYDT_E_ARG. */
npydt_status field_lookup_scalar(const npydt_dtype *dt, const char *path, uint64_t *offset,
                                 const npydt_dtype **field, npydt_error *err);

/* Follow subarrays from dt to a scalar: *scalar and the number of its
 * elements (contiguous in dt). False when a struct is on the way. */
bool scalar_chain(const npydt_dtype *dt, const npydt_dtype **scalar, uint64_t *elems);

/* ---- columns of many records, a tile at a time (gather.c) ---------------- */

/* One field of the records gathered into a column as npydt_gather does it
 * with NPYDT_AS_NATIVE: size bytes at offset in each record to dst, size
 * bytes a record, units of unit bytes swapped when swap. With nat_scan
 * (int64 datetimes or timedeltas, or subarrays of them), nat tells
 * whether a value gathered is NaT. */
struct gather_col {
    uint64_t offset;
    size_t size;
    uint32_t unit;
    bool swap;
    bool nat_scan;
    bool nat;
    unsigned char *dst;
};
/* The column of field (a scalar or a subarray of scalars, no object) at
 * offset of each record into dst; nat_scan as above (ignored unless the
 * scalar takes 8 bytes). */
void gather_col_init(struct gather_col *c, const npydt_dtype *field, uint64_t offset,
                     bool nat_scan, unsigned char *dst);
/* Every column of cols from n records stride bytes apart at records (each
 * field within the stride, the columns' dst large enough), reading the
 * records once from memory: a tile of them at a time, each column in
 * turn from the tile while it is in the first-level cache. */
void gather_columns(const void *records, size_t stride, uint64_t n, struct gather_col *cols,
                    size_t ncols);
/* Is one of the n native int64 values at values NaT? */
bool gather_any_nat(const void *values, uint64_t n);

/* ---- the swap plan's byte shuffles (swap_simd.c) ------------------------ */

/* A 16-byte window of the record and the byte shuffle that swaps every
 * unit inside it (identity elsewhere): pshufb does it in one instruction. */
struct swap_window {
    uint64_t off;
    unsigned char mask[16];
};

#define SWAP_REC_WINDOWS 8

/* A record program: up to SWAP_REC_WINDOWS windows that each read the
 * record as it was (all loads first), stored in order, the last store to
 * a byte its right value. */
struct swap_rec {
    uint32_t nw;   /* 0: none */
    struct swap_window w[SWAP_REC_WINDOWS];
};

/* Has the CPU pshufb (and was this built for x86 with GCC or Clang)? */
bool swap_simd_available(void);
/* Apply windows (each reading what the earlier ones stored) to nrec
 * records at base, stride bytes apart, window by window. */
void swap_run_windows(const struct swap_window *w, size_t nw, unsigned char *base, uint64_t nrec,
                      size_t stride);
/* n bytes of units of one size swapped from src into dst (the same
 * buffer, or apart), 16 bytes a shuffle; returns the bytes done, a
 * multiple of 16 (the rest is the caller's). */
size_t swap_dense_windows(unsigned char *dst, const unsigned char *src, size_t n, uint32_t unit);
/* Make rc from the nw windows w (as swap_run_windows applies them);
 * source(ctx, x) is the byte of the record that byte x of the swapped
 * record comes from. False (rc->nw 0) when the windows are too many, the
 * CPU lacks pshufb, or windows read from each other. */
bool swap_rec_make(struct swap_rec *rc, const struct swap_window *w, size_t nw,
                   uint64_t (*source)(const void *ctx, uint64_t x), const void *ctx);
/* Run rc over nrec records at base, stride bytes apart, in place, one
 * record at a time. */
void swap_rec_run(const struct swap_rec *rc, unsigned char *base, uint64_t nrec, size_t stride);

/* ---- swap plans (swap.c), used by gather and scatter -------------------- */

/* Swap in place, to native order, n records of the plan's type at base,
 * stride bytes apart (also converts native data back to the stored order). */
void swap_plan_run_native(const npydt_swap_plan *plan, unsigned char *base, uint64_t n,
                          size_t stride);

/* For tests: run the plain op loops instead of the pshufb windows and
 * the one-pass swap of dense lists; returns how many windows the plan
 * had. */
size_t swap_plan_drop_windows(npydt_swap_plan *plan);
/* Windows of the record program of the list for `to` (0: none): for tests. */
size_t swap_plan_rec_windows(const npydt_swap_plan *plan, npydt_order to);
/* Ops of the list for `to` (flat ones in *nflat): for tests. */
size_t swap_plan_nops(const npydt_swap_plan *plan, npydt_order to, size_t *nflat);

#endif

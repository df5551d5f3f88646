/* The text stage: how values and formats are spelled, with libc alone.
 *
 * The lowest stage of the library. It knows no arena, no npydt_error and
 * no dtype: it turns numbers, dates, code points and shapes into bytes and
 * back, the same way for the library's messages and the command's output.
 * Every other stage may include this header, and so may the command
 * (src/cli/), which links the stage's objects itself; in the shared
 * library these names are hidden, in the static one localized.
 */
#ifndef NPYDT_TEXT_H
#define NPYDT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* ---- numbers, calendar, bytes ------------------------------------------- */

#include <stdbool.h>

/* bytes: the host's byte order (TEXT_HOST_ORDER, '<' or '>'), and loads
 * and stores of 1/2/4/8-byte integers, swapped or not (byteorder.h) */
#include "byteorder.h"

/* numbers: decimal digits of integers (decimal.h) */
#include "decimal.h"

/* Room text_float_* need: "-d.dddddddddddddddde-XXX" and a NUL, and the
 * scratch their whole-word stores reach past the text (up to 26 bytes in
 * all). */
#define TEXT_FLOAT_MAX 32

/* The shortest text that reads back as the value, as Python's
 * repr(float) writes it (and NumPy's repr of float16/float32 scalars):
 * positional for decimal exponents -4..15 with at least one digit after
 * the point, else d.ddde+XX; "nan", "inf", "-inf", "0.0", "-0.0". No
 * printf, no locale. Writes TEXT_FLOAT_MAX bytes at most at buf and
 * returns the text's length (NUL-terminated). */
size_t text_float_f64(double v, char *buf);
/* The same for the float32 / float16 with these bits. */
size_t text_float_f32(uint32_t bits, char *buf);
size_t text_float_f16(uint16_t bits, char *buf);
/* The bits of the float16 that v (one of its values, as a double) is
 * (for a float32: text_bits_of_f32((float)v)). */
uint16_t text_bits_of_f16(double v);

/* True when s[0..n) is a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
bool text_is_number(const char *s, size_t n);
/* The double nearest to the JSON number s[0..n) (ties to even), which is
 * what strtod reads, computed without strtod or locale: true and *out, or
 * false, *out untouched, for what is not a JSON number and for the few
 * numbers this exact reading leaves to the caller (more than 19
 * significant digits, subnormal or overflowing results, values next to a
 * rounding boundary). */
bool text_read_double(const char *s, size_t n, double *out);

/* calendar: the proleptic Gregorian calendar, days counted from
 * 1970-01-01 */

/* The date of a day count (any int64): year, month 1..12, day 1..31. */
void text_civil_from_days(int64_t days, int64_t *year, unsigned *month, unsigned *day);
/* The day count of year-month-day (month 1..12, day 1..31); false when it
 * is beyond int64. */
bool text_days_from_civil(int64_t year, unsigned month, unsigned day, int64_t *days);

/* Room text_datetime needs: "-292277026596-12-04T15:30:08" and 18
 * digits of attoseconds at most. */
#define TEXT_DATETIME_MAX 48
/* The text of a datetime64 count of `mult` units (mult >= 1; unit in
 * NumPy's order, as npydt_unit numbers them: 0 years, 1 months, 2 weeks,
 * 3 days, 4 hours ... 12 attoseconds) as NumPy's str() writes it: ISO
 * 8601 down to the unit ("2020", "2020-06", "2020-06-01",
 * "2020-06-01T07", ..., "...T00:00:00.000000000000000001"), weeks as
 * their first day, years before 1 as "-001", after 9999 with more digits.
 * NaT is the caller's. Its length, 0 for another unit (generic) or a
 * value whose date is beyond int64 days. */
size_t text_datetime(int64_t count, int unit, int32_t mult, char *buf);

#endif

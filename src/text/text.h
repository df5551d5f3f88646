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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ==== strings: UTF-8, the buffer, JSON strings, shapes ================ */

/* ---- UTF-8 (utf8.c) ---------------------------------------------------- */

/* Decode one code point of strict UTF-8 (Python's decoder: no overlong
 * form, no surrogate, nothing above U+10FFFF) from the len bytes at s;
 * returns the bytes used, 0 when they do not start a valid sequence. */
size_t text_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);
/* As text_utf8_decode, also taking U+D800..U+DFFF as 3-byte sequences
 * (WTF-8): the lone surrogates a U string may hold, as npydt_read_unicode
 * writes them (each code unit alone, a pair never joined). */
size_t text_wtf8_decode(const unsigned char *s, size_t len, uint32_t *cp);
/* Encode one code point (a surrogate too, as 3 bytes); returns the bytes
 * written (1 to 4). */
size_t text_utf8_encode(uint32_t cp, char out[4]);
/* The length of a first piece of s[0..len) of at most max bytes (max >= 4)
 * that does not cut a UTF-8 sequence: max, less the continuation bytes (up
 * to three) that would begin the rest; len when len <= max. For writing
 * long text through a small array. */
size_t text_utf8_cut(const char *s, size_t len, size_t max);

/* ---- buffer (buffer.c) ------------------------------------------------- */

/* Where a growing buffer's memory comes from: a block of new_size bytes
 * holding the first old_size bytes of ptr (ptr NULL and old_size 0: a new
 * block), or NULL when there is no memory (ptr is then kept). new_size 0
 * frees ptr and returns NULL. Sizes come back as they were given, for
 * allocators that keep no headers (npydt_allocator's realloc has this
 * form). */
typedef void *text_realloc_fn(void *ctx, void *ptr, size_t old_size, size_t new_size);
/* libc's realloc and free in that form (ctx unused). */
void *text_libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size);

/* A byte buffer in one of two modes.
 * Growing (text_buf_growing): the text is buf[0..len); cap grows from the
 * first capacity by doubling, through grow. When memory runs out or a size
 * would overflow, failed is set and what comes after is dropped.
 * Measuring (text_buf_fixed): buf is the caller's array of size bytes, of
 * which it holds the text's first size - 1 (room for a NUL, which
 * text_buf_terminate writes); len counts the whole text, also what did not
 * fit, so that a first pass over no array (NULL, 0) measures the length. */
struct text_buf {
    char *buf;
    size_t len;
    size_t cap;               /* bytes at buf */
    text_realloc_fn *grow;    /* NULL: a measuring buffer */
    void *ctx;                /* grow's */
    size_t first;             /* the first capacity a growing buffer takes */
    bool failed;
};
/* An empty growing buffer whose first block is first bytes (0: 64); it
 * takes nothing until the first append. */
struct text_buf text_buf_growing(text_realloc_fn *grow, void *ctx, size_t first);
/* A measuring buffer over buf[0..size) (buf may be NULL when size is 0). */
struct text_buf text_buf_fixed(char *buf, size_t size);
/* Room for n more bytes at buf + len in a growing buffer: write at most n
 * bytes there, then add what was written to len. NULL when the buffer has
 * failed or fails now, and for a measuring buffer that lacks the room (its
 * failed is then set: measure with the appends below). */
char *text_buf_reserve(struct text_buf *b, size_t n);
static inline char *text_buf_room(struct text_buf *b, size_t n)
{
    /* after a failure nothing more goes in, even what would fit */
    return !b->failed && b->len <= b->cap && n <= b->cap - b->len ? b->buf + b->len
                                                                 : text_buf_reserve(b, n);
}
/* Append n bytes (s may be NULL when n is 0), a string, one byte. */
void text_buf_write(struct text_buf *b, const void *s, size_t n);
void text_buf_puts(struct text_buf *b, const char *s);
void text_buf_putc(struct text_buf *b, char c);
/* NUL-terminate a measuring buffer's text at the end of what it holds
 * (nothing when its size is 0). */
void text_buf_terminate(struct text_buf *b);
/* Give a growing buffer's memory back; the buffer is then empty. */
void text_buf_free(struct text_buf *b);

/* ---- JSON strings (json_string.c) ----------------------------------------- */

/* Does s start with a C1 control, U+2028 or U+2029 (in UTF-8)? JSON text
 * may hold them raw, but Python's splitlines() breaks lines at them, so
 * JSON is written with them as \uXXXX. */
bool text_breaks_lines(const unsigned char *s, size_t n);
/* How a JSON string takes bytes of 0x80 and above. */
enum text_json_mode {
    TEXT_JSON_TEXT,    /* UTF-8 text: passes through, but a lone surrogate
                        * (ED A0..BF xx, as npydt_read_unicode writes U
                        * data) and the line breaks above are \uXXXX */
    TEXT_JSON_BYTES    /* bytes (S data): each as \u00XX */
};
/* The most bytes len bytes of text take escaped (6 each, as \u00XX). */
#define TEXT_JSON_ESCAPED_MAX(len) (6 * (len))
/* len bytes of s escaped as the inside of a JSON string into dst, which
 * holds TEXT_JSON_ESCAPED_MAX(len) bytes: '"', '\\' and the controls \b
 * \f \n \r \t as json.dumps writes them, other controls and DEL as \u00XX;
 * returns the bytes written. */
size_t text_json_escape_into(char *dst, const char *s, size_t len, enum text_json_mode mode);
/* An S value: the bytes of the size bytes at s before their trailing
 * NULs, escaped as TEXT_JSON_BYTES into dst, which holds
 * TEXT_JSON_ESCAPED_MAX(size) bytes (any of them may be written); returns
 * the bytes of the text. Reads all size bytes, a word at a time: the
 * short text of a fixed-size field costs a few word operations. */
size_t text_json_escape_field(char *dst, const unsigned char *s, size_t size);

/* ---- escapes for text shown and logged (escape.c) ------------------------ */

/* The one rule by which text from a file (names, type strings, messages
 * quoting them) is shown on a terminal or in a log: controls and DEL as
 * \a \b \t \n \v \f \r or \xNN (NUL as \x00), C1 controls and
 * U+2028/U+2029 (line breaks for Python's splitlines()) as \uNNNN, each
 * byte that does not start valid UTF-8 as \xNN; everything else, the
 * backslash too, as it is. So escaping escaped text changes nothing. */
#define TEXT_ESCAPE_MAX 6
/* The character at p (n bytes left, n >= 1): returns its bytes (1 to 4)
 * and writes its escape into esc, NUL-terminated, or "" when it goes as
 * it is. */
size_t text_escape_at(const unsigned char *p, size_t n, char esc[TEXT_ESCAPE_MAX + 1]);
/* The most bytes len bytes take escaped (4 each, as \xNN). */
#define TEXT_ESCAPED_MAX(len) (4 * (len))
/* len bytes of s escaped into dst, which holds TEXT_ESCAPED_MAX(len)
 * bytes; returns the bytes written. */
size_t text_escape_into(char *dst, const char *s, size_t len);
/* As much of s escaped as fits whole (characters and escapes never cut)
 * in dst's size bytes, NUL-terminated (size > 0); returns its length. */
size_t text_escape_fit(char *dst, size_t size, const char *s, size_t len);

/* ---- shapes (shape.c) ---------------------------------------------------- */

/* Python's spelling of a shape tuple at the end of b: "()", "(3,)",
 * "(2, 3)". */
void text_shape_tuple(struct text_buf *b, const uint64_t *dims, size_t ndim);
/* The same of signed dimensions (a schema's -1 for any length). */
void text_shape_tuple_signed(struct text_buf *b, const int64_t *dims, size_t ndim);
/* The dimensions of s[0..len) when it is a shape tuple as
 * text_shape_tuple spells it (no other spacing, digits without a leading
 * zero, each at most UINT64_MAX): at most max of them into dims, their
 * number into *ndim; false for anything else. */
bool text_shape_read(const char *s, size_t len, uint64_t *dims, size_t max, size_t *ndim);

/* ---- system error messages (errno_text.c) ----------------------------- */

/* The message of the errno value e (strerror's text) in buf[0..size),
 * size >= 1, cut to fit and NUL-terminated; "error E" when the C library
 * has none. Unlike strerror, no buffer is shared: any thread may call it.
 * Returns buf. */
const char *text_errno(int e, char *buf, size_t size);
/* text_errno into a buffer that lives to the end of the enclosing block,
 * for an argument: printf("cannot open: %s", TEXT_ERRNO(errno)). */
#define TEXT_ERRNO_MAX 128
#define TEXT_ERRNO(e) text_errno((e), (char[TEXT_ERRNO_MAX]){0}, TEXT_ERRNO_MAX)

/* ==== end of strings ================================================== */

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
/* binary16 (binary16.c): the double a float16's bits stand for (exact),
 * and the float16 nearest to v (ties to even; beyond its range an
 * infinity, a NaN keeping the top bits of its payload). For a float32:
 * text_f32_of_bits, text_bits_of_f32((float)v). */
double text_f16_of_bits(uint16_t bits);
uint16_t text_bits_of_f16(double v);
/* m >> s rounded to nearest, ties to even; any s (0 beyond 64). */
uint64_t text_round_shift(uint64_t m, unsigned s);

/* True when s[0..n) is a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
bool text_is_number(const char *s, size_t n);
/* The double nearest to the JSON number s[0..n) (ties to even), which is
 * what strtod reads, computed without strtod or locale: true and *out, or
 * false, *out untouched, for what is not a JSON number and for the few
 * numbers this exact reading leaves to the caller (more than 19
 * significant digits, subnormal or overflowing results, values next to a
 * rounding boundary). */
bool text_read_double(const char *s, size_t n, double *out);

/* The JSON integer -?(0|[1-9][0-9]*) at the start of s[0..n), within
 * uint64 in magnitude (integer_read.c): the bytes it takes, with *mag and
 * *neg (true for a '-', also of "-0"); 0 when s does not start with one,
 * or it is out of range. Whatever follows is the caller's to check. */
size_t text_read_integer(const char *s, size_t n, uint64_t *mag, bool *neg);

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
/* The datetime64 count of `mult` units (unit as text_datetime's) that
 * ISO 8601 text s[0..n) falls in: the instant floored to a whole count,
 * *exact when it is one. The text as NumPy reads a date: "YYYY",
 * "YYYY-MM" or "YYYY-MM-DD" (a year of 4 to 12 digits, signed or not),
 * then 'T' or ' ' and "hh", "hh:mm", "hh:mm:ss" or "hh:mm:ss.f" with 1
 * to 18 digits; no time zone. 0; -1 for other text, a date or time that
 * does not exist, or a generic unit; 1 for a count beyond int64 (or
 * INT64_MIN, NaT's). */
int text_datetime_read(const char *s, size_t n, int unit, int32_t mult, int64_t *count,
                       bool *exact);

#endif

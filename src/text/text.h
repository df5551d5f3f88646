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
    return b->len <= b->cap && n <= b->cap - b->len ? b->buf + b->len : text_buf_reserve(b, n);
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

/* ---- shapes (shape.c) ---------------------------------------------------- */

/* Python's spelling of a shape tuple at the end of b: "()", "(3,)",
 * "(2, 3)". */
void text_shape_tuple(struct text_buf *b, const uint64_t *dims, size_t ndim);
/* The same of signed dimensions (a schema's -1 for any length). */
void text_shape_tuple_signed(struct text_buf *b, const int64_t *dims, size_t ndim);

/* ==== end of strings ================================================== */

#endif

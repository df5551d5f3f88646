/* What the base stage gives every later stage: checked arithmetic, the
 * allocator and arena, options, file access, errors, a string builder
 * and the name hash (UTF-8 and the rest of spelling: text/text.h). Not
 * installed. */
#ifndef NPYDT_BASE_H
#define NPYDT_BASE_H

#include "npydt.h"
#include "text/text.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/name_key.h"

/* NumPy stores itemsize in a C int: every dtype size must fit. */
#define NPYDT_MAX_ITEMSIZE ((uint64_t)INT32_MAX)

/* ---- checked arithmetic ---------------------------------------------- */

static inline bool ck_add(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

static inline bool ck_mul(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

/* Sums and products of sizes that only feed limit checks: stuck at the
 * maximum instead of wrapping. */
static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static inline uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* ---- options and files ----------------------------------------------------- */

/* NPYDT_DEPTH_CEILING (npydt.h), the ceiling on limits.max_depth, is also
 * the deepest nesting any walk over a dtype follows. */

/* The default limits.max_header_bytes (16 MiB), and the longest HEADER_LEN
 * any writer of the library puts in a file: every file written opens with
 * the default limits. */
#define HEADER_LEN_LIMIT ((size_t)16 << 20)
/* NPYDT_E_LIMIT, naming both lengths, when a header about to be written
 * would have a HEADER_LEN of hlen above HEADER_LEN_LIMIT; else OK. */
npydt_status header_len_writable(uint64_t hlen, npydt_error *err);

/* Give every limit that is 0 its default (npydt_options_init's value):
 * a zeroed npydt_limits means "the defaults". */
void options_resolve_limits(npydt_limits *lim);
/* A copy of opts (or the defaults when opts is NULL) in *resolved, its
 * zero limits resolved; returns resolved. */
const npydt_options *options_or_default(const npydt_options *opts, npydt_options *resolved);
/* True when the n words of an options struct's reserved room are all 0. */
bool reserved_is_zero(const uint64_t *reserved, size_t n);
/* Refuse nonzero reserved room, limits above their ceilings and
 * allocators missing a function. */
npydt_status options_check(const npydt_options *opts, npydt_error *err);
/* Open path for reading (or reading and writing) without blocking on FIFOs. */
npydt_status io_open(const char *path, int writable, int *fd, npydt_error *err);
/* pread n bytes at off, retrying short reads; *got < n only at end of file. */
npydt_status io_pread(int fd, void *buf, size_t n, uint64_t off, size_t *got, npydt_error *err);
/* read(2) n bytes in sequence (a pipe), retrying short reads and EINTR;
 * *got < n only at the end of the input. */
npydt_status io_read(int fd, void *buf, size_t n, size_t *got, npydt_error *err);
/* The size of the regular file open on fd (NPYDT_E_IO for anything else). */
npydt_status io_file_size(int fd, uint64_t *size, npydt_error *err);

/* Bytes of a regular file in memory: mapped where the system allows it,
 * else read into a copy. */
struct io_region {
    const unsigned char *bytes;   /* the first byte asked for; never NULL when
                                   * len is 0; NULL when left unread (IO_NO_COPY) */
    uint64_t len;                 /* bytes at bytes */
    unsigned char *map;           /* a mapping of the file from offset 0, or NULL */
    size_t map_len;
    unsigned char *copy;          /* the bytes read into memory, or NULL */
    size_t copy_len;
    const npydt_allocator *alloc; /* of copy */
};
#define IO_REST UINT64_MAX   /* as len: from off to the end of the file */
#define IO_NO_MAP 1u         /* read into a copy, never map */
#define IO_NO_COPY 2u        /* map, else leave unread (bytes NULL) for pread */
#define IO_WRITE 4u          /* a shared writable mapping, or NPYDT_E_IO */
/* Bytes [off, off + len) of the regular file open on fd, as the IO_ flags
 * ask; the region is released by io_region_release, fd may be closed
 * before. NPYDT_E_DATA when the file is shorter than off + len. */
npydt_status io_map_or_read(int fd, uint64_t off, uint64_t len, unsigned flags,
                            const npydt_allocator *a, struct io_region *r, npydt_error *err);
/* Unmap or free what io_map_or_read gave r; a zeroed region is nothing. */
void io_region_release(struct io_region *r);
/* True when buf starts like a zip archive, as np.load decides: "PK\3\4",
 * or "PK\5\6" / "PK\6\6" for an empty one (npydt_npz_is_archive, and the
 * .npy reader's refusal of an archive). */
bool io_looks_like_zip(const void *buf, size_t len);

/* ---- errors -------------------------------------------------------------- */

/* Write success into err (when non-NULL): code NPYDT_OK, offset
 * NPYDT_NO_OFFSET, empty path and message. Every public call taking an
 * npydt_error calls it first, so that the struct says what the call did
 * whatever it held before; a failure then overwrites it. Four stores: cheap
 * enough for the per-value readers and writers. */
static inline void error_clear(npydt_error *err)
{
    if (err) {
        err->code = NPYDT_OK;
        err->offset = NPYDT_NO_OFFSET;
        err->path[0] = '\0';
        err->message[0] = '\0';
    }
}

/* Fill err (when non-NULL) and return code. path may be NULL. */
npydt_status set_error(npydt_error *err, npydt_status code, size_t offset,
                       const char *path, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
npydt_status set_errorv(npydt_error *err, npydt_status code, size_t offset,
                        const char *path, const char *fmt, va_list ap);
npydt_status set_nomem(npydt_error *err);
/* err->path (when err is non-NULL) from a name of len bytes, escaped as
 * set_error escapes every path and message: the one place a path that
 * did not come through set_error is written. */
void error_set_path(npydt_error *err, const char *name, size_t len);
/* When err holds NPYDT_E_NOMEM and a is a pool (npydt_pool_allocator_init),
 * say in its message the pool's size, the request it refused last and its
 * largest free block then. The parse calls call it before they return. */
void pool_explain_nomem(const npydt_allocator *a, npydt_error *err);
/* A name of len bytes as messages and error paths spell it: escaped by
 * the text stage's one rule (text_escape_at; a NUL inside becomes the four
 * characters \x00), cut to whole escapes where size ends. Returns the
 * length written (buf is NUL-terminated when size > 0). */
size_t name_for_message(char *buf, size_t size, const char *s, size_t len);

/* Names and titles are byte strings with a length: NumPy allows a NUL
 * inside ('a\x00'), so they are compared by length and bytes, never as C
 * strings. */
static inline bool name_eq(const char *a, size_t alen, const char *b, size_t blen)
{
    return alen == blen && (alen == 0 || (a[0] == b[0] && memcmp(a, b, alen) == 0));
}

/* A string builder that counts what does not fit: len is the length the
 * whole text needs, buf holds its first size - 1 bytes. It is the text
 * stage's measuring buffer (text_buf_fixed), kept as these three fields. */
struct outbuf {
    char *buf;
    size_t size;   /* capacity */
    size_t len;    /* bytes that would have been written */
};
/* Append one byte. */
void out_putc(struct outbuf *o, char c);
/* Append a NUL-terminated string. */
void out_puts(struct outbuf *o, const char *s);
/* Append formatted text of at most 63 bytes (numbers and short names). */
void out_printf(struct outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append the decimal digits of v (text_decimal_u64, text_decimal_i64). */
void out_u64(struct outbuf *o, uint64_t v);
void out_i64(struct outbuf *o, int64_t v);
/* End the text with a NUL, cutting it to the buffer (nothing when size is 0). */
void out_finish(struct outbuf *o);

/* Append a shape as a Python tuple (text_shape_tuple, or its _signed form). */
void out_shape(struct outbuf *o, const uint64_t *dims, size_t ndim);
void out_shape_signed(struct outbuf *o, const int64_t *dims, size_t ndim);

/* Python's str.isprintable() for one code point (unicode_printable.c,
 * generated by tools/gen_printable.py). */
bool unicode_is_printable(uint32_t cp);
/* Terminal columns of one code point: 2 (East Asian wide), 0 (combining,
 * format) or 1 (unicode_width.c, generated by the same script). */
unsigned unicode_width(uint32_t cp);

#endif

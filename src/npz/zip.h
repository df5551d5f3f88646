/* Private pieces of the .npz reader shared by zip.c (the handle),
 * zip_directory.c (end records, central directory, local headers),
 * zip_names.c (member names), zip_stream.c (reading members), npz.c
 * (member headers) and the writer. */
#ifndef NPYDT_ZIP_H
#define NPYDT_ZIP_H

#include "base/base.h"

struct npydt_npz {
    npydt_npz_options opts;
    const unsigned char *base;   /* the whole archive */
    uint64_t size;
    struct io_region region;     /* base mapped or read from a file; zeroed for
                                  * the caller's buffer */
    size_t count;
    npydt_npz_member *members;   /* count entries, central directory order */
    size_t members_size;         /* bytes allocated for members */
    char *names;                 /* every member name, NUL-terminated */
    size_t names_size;
};

/* A copy of opts (the defaults when NULL) in *resolved, every limit and
 * size that is 0 given its default; refuses options the reader and the
 * writer cannot use (options_check on the base, nonzero reserved room). */
npydt_status zip_options_resolve(const npydt_npz_options *opts, npydt_npz_options *resolved,
                                 npydt_error *err);

/* Fill err with NPYDT_E_ARCHIVE: "member 'NAME': " + the formatted text. */
npydt_status zip_member_error(npydt_error *err, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Read z's end records and central directory, checking every entry's
 * local header, and fill z's members and names (z->base, z->size and
 * z->opts set; what it allocates is released by npydt_npz_close). */
npydt_status zip_parse_archive(struct npydt_npz *z, npydt_error *err);

/* Decode a raw name into out (room for 3 * len + 1 bytes) as UTF-8 (CP437
 * unless utf8) and check it. Returns NULL or what is wrong with it. */
const char *zip_decode_name(const unsigned char *raw, size_t len, bool utf8, char *out,
                            size_t *out_len);

/* Quote a raw name from the archive, before it is known to be text:
 * bytes outside printable ASCII escaped, cut like zip_quote_name. */
void zip_quote_raw(char *buf, size_t size, const unsigned char *s, size_t len);

/* Quote a (valid UTF-8) member name for a message: control characters,
 * quotes and backslashes escaped, cut with "..." beyond about 80 bytes. */
void zip_quote_name(char *buf, size_t size, const char *name);

/* zlib's memory through the caller's allocator (opaque is the
 * npydt_allocator, NULL for libc); zlib frees without a size, so each
 * block keeps its size in front. Shared by reading and writing. */
#include <zlib.h>
voidpf zip_zalloc(voidpf opaque, uInt items, uInt size);
void zip_zfree(voidpf opaque, voidpf ptr);

/* True when the name has '..' as a path component ('/' or '\\'
 * separated): refused by the reader and the writer alike. */
bool zip_name_has_dotdot(const char *name, size_t len);

#endif

/* Writing .npz archives byte for byte as np.savez does (Python 3's
 * zipfile.ZipFile(mode="w") with ZipFile.open(name, "w", force_zip64=True)
 * per member), streaming: the caller's bytes go to the sink as they come
 * (deflated through one bounded buffer); only the central directory is
 * kept, a few dozen bytes per member. Every offset and size is checked
 * before it is used; names are refused where the reader would refuse them. */
#include "npz/npz.h"
#include "npz/zip.h"
#include "npz/zip_format.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define LOCAL_EXTRA_LEN 20u     /* Zip64 extra: tag, size, usize, csize */

/* Python's zipfile switches to Zip64 fields above these (ZIP64_LIMIT is
 * 2**31 - 1, not 2**32 - 1, and ZIP_FILECOUNT_LIMIT 2**16 - 1). */
#define ZIP64_LIMIT ((uint64_t)0x7FFFFFFF)
#define FILECOUNT_LIMIT ((uint64_t)0xFFFF)

#define VERSION_DEFAULT 20u     /* "2.0": deflate */
#define VERSION_ZIP64 45u       /* "4.5": Zip64 */
#define MADE_BY_UNIX 3u         /* create_system of zipfile on POSIX */
#define DOS_DATE_1980 0x0021u   /* 1980-01-01, np.savez's (zipfile's default) */
#define EXTERNAL_ATTR 0x01800000u /* 0o600 << 16: -rw------- */

/* Largest piece handed to zlib at once (its counters are 32-bit). */
#define ZCHUNK ((size_t)1 << 30)

/* One member as the central directory will list it. */
struct wentry {
    size_t name_off;     /* in names */
    uint16_t name_len;
    uint16_t flags;
    uint16_t method;
    uint32_t crc;
    uint64_t csize, usize, offset;
};

enum wstate { W_IDLE, W_MEMBER, W_DONE };

struct npydt_npz_writer {
    npydt_npz_sink sink;
    const npydt_allocator *alloc;
    size_t max_members;
    enum wstate state;
    uint64_t pos;              /* bytes written so far */
    npydt_status failed;       /* sticky */
    npydt_error failure;
    /* the central directory */
    struct wentry *entries;
    size_t count, entries_cap;
    char *names;
    size_t names_len, names_cap;
    size_t *table;             /* open addressing over entries: index + 1, 0 free */
    size_t table_cap;          /* a power of two, at least twice count */
    /* the member being written (entries[count] once it ends) */
    struct wentry cur;
    uLong crc;
    bool zinit;
    z_stream zs;
    unsigned char *buf;        /* deflate output */
    size_t buf_size;
    struct npz_writer_owner owner;   /* ctx NULL: none, or committed */
};

#define ULL(x) ((unsigned long long)(x))

/* ---- errors and output ------------------------------------------------------ */

/* Make an error sticky and hand it to the caller. */
static npydt_status fail(npydt_npz_writer *w, npydt_error *err, npydt_status code,
                         const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static npydt_status fail(npydt_npz_writer *w, npydt_error *err, npydt_status code,
                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_errorv(&w->failure, code, NPYDT_NO_OFFSET, NULL, fmt, ap);
    va_end(ap);
    w->failed = code;
    if (err)
        *err = w->failure;
    return code;
}

static npydt_status fail_nomem(npydt_npz_writer *w, npydt_error *err)
{
    return fail(w, err, NPYDT_E_NOMEM, "out of memory");
}

void npz_writer_fail(npydt_npz_writer *w, const npydt_error *cause)
{
    if (w && !w->failed)
        fail(w, NULL, cause->code, "%s", cause->message);
}

/* A failed write of the sink, by its owner's cause when it knows one:
 * that error made sticky, else NPYDT_OK. */
static npydt_status owner_cause(npydt_npz_writer *w, npydt_error *err)
{
    npydt_error cause;
    if (w->owner.ctx && w->owner.status(w->owner.ctx, &cause) != NPYDT_OK)
        return fail(w, err, cause.code, "%s", cause.message);
    return NPYDT_OK;
}

void npz_writer_own(npydt_npz_writer *w, const struct npz_writer_owner *o)
{
    w->owner = *o;
}

/* Append n bytes to the sink. */
static npydt_status emit(npydt_npz_writer *w, const void *p, size_t n, npydt_error *err)
{
    uint64_t end;
    if (!ck_add(w->pos, n, &end))
        return fail(w, err, NPYDT_E_OVERFLOW, "the archive would pass 2**64 bytes");
    if (n > 0 && w->sink.write(w->sink.ctx, p, n) != 0) {
        npydt_status st = owner_cause(w, err);
        return st != NPYDT_OK ? st
                              : fail(w, err, NPYDT_E_IO,
                                     "the sink failed to write %zu bytes at offset %llu", n,
                                     ULL(w->pos));
    }
    w->pos = end;
    return NPYDT_OK;
}

/* The checks every call starts with. */
static npydt_status enter(npydt_npz_writer *w, npydt_error *err)
{
    if (!w)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "the writer is NULL");
    if (w->failed) {
        if (err)
            *err = w->failure;
        return w->failed;
    }
    return NPYDT_OK;
}

static npydt_status out_of_order(npydt_error *err, const char *what)
{
    return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "%s", what);
}

/* The error of a call that needs the writer between members. */
static npydt_status not_idle(const npydt_npz_writer *w, npydt_error *err)
{
    return out_of_order(err, w->state == W_MEMBER ? "a member is being written: end it first"
                                                  : "the archive is finished");
}

/* ---- the writer --------------------------------------------------------------- */

npydt_status npydt_npz_writer_new(const npydt_npz_sink *sink, const npydt_npz_options *opts,
                                  npydt_npz_writer **out, npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!sink || !sink->write)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "the sink has no write");
    npydt_npz_options resolved;
    npydt_status st = zip_options_resolve(opts, &resolved, err);
    if (st != NPYDT_OK)
        return st;
    opts = &resolved;
    const npydt_allocator *a = opts->base.allocator;
    npydt_npz_writer *w = alloc_bytes(a, sizeof *w);
    if (!w)
        return set_nomem(err);
    memset(w, 0, sizeof *w);
    w->sink = *sink;
    w->alloc = a;
    w->max_members = opts->max_members;
    w->buf_size = opts->buffer_size;
    w->state = W_IDLE;
    *out = w;
    return NPYDT_OK;
}

void npydt_npz_writer_free(npydt_npz_writer *w)
{
    if (!w)
        return;
    const npydt_allocator *a = w->alloc;
    if (w->owner.ctx)
        w->owner.discard(w->owner.ctx);
    if (w->zinit)
        deflateEnd(&w->zs);
    free_bytes(a, w->buf, w->buf_size);
    free_bytes(a, w->entries, w->entries_cap * sizeof *w->entries);
    free_bytes(a, w->names, w->names_cap);
    free_bytes(a, w->table, w->table_cap * sizeof *w->table);
    free_bytes(a, w, sizeof *w);
}

/* ---- names ---------------------------------------------------------------------- */

/* NULL, or why this name is not written: what the reader would refuse,
 * and names that would not extract as one file inside the directory an
 * archive is extracted into (absolute, with a drive, a directory), or that
 * a terminal would act on (control characters, C0, DEL and C1). */
static const char *name_problem(const char *name, size_t len)
{
    if (len == 0)
        return "the name is empty";
    if (len > 0xFFFF)
        return "the name is longer than 65535 bytes";
    const unsigned char *s = (const unsigned char *)name;
    bool control = false;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t k = text_utf8_decode(s + i, len - i, &cp);
        if (k == 0)
            return "the name is not valid UTF-8";
        control |= cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
        i += k;
    }
    if (zip_name_has_dotdot(name, len))
        return "the name has a '..' component";
    if (s[0] == '/' || s[0] == '\\')
        return "the name is absolute (starts with '/' or '\\')";
    if (len >= 2 && s[1] == ':' && (s[0] | 0x20) >= 'a' && (s[0] | 0x20) <= 'z')
        return "the name starts with a drive ('X:')";
    if (s[len - 1] == '/' || s[len - 1] == '\\')
        return "the name ends with '/' or '\\' (a directory)";
    if (control)
        return "the name has a control character";
    return NULL;
}

/* The slot of name in the table: where it is, or the free one it would go to. */
static size_t find_slot(const npydt_npz_writer *w, const char *name, size_t len)
{
    size_t mask = w->table_cap - 1;
    for (size_t i = (size_t)name_key(name, len) & mask;; i = (i + 1) & mask) {
        size_t v = w->table[i];
        if (v == 0)
            return i;
        const struct wentry *e = &w->entries[v - 1];
        if (e->name_len == len && memcmp(w->names + e->name_off, name, len) == 0)
            return i;
    }
}

/* Room for member number count + 1 in entries and the table, and for a
 * name of len bytes: allocated before anything is written, so that a lack
 * of memory leaves the writer as it was. */
static npydt_status reserve(npydt_npz_writer *w, size_t len, npydt_error *err)
{
    const npydt_allocator *a = w->alloc;
    if (w->count == w->entries_cap) {
        size_t cap = w->entries_cap ? w->entries_cap * 2 : 16;
        uint64_t bytes;
        if (cap < w->entries_cap || !ck_mul(cap, sizeof *w->entries, &bytes) ||
            bytes > SIZE_MAX)
            return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                             "too many members for this machine");
        struct wentry *e =
            w->entries ? realloc_bytes(a, w->entries, w->entries_cap * sizeof *e, (size_t)bytes)
                       : alloc_bytes(a, (size_t)bytes);
        if (!e)
            return set_nomem(err);
        w->entries = e;
        w->entries_cap = cap;
    }
    if (w->names_cap - w->names_len < len) {
        uint64_t need, cap = w->names_cap ? w->names_cap : 256;
        if (!ck_add(w->names_len, len, &need) || need > SIZE_MAX / 2)
            return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                             "the member names are too long for this machine");
        while (cap < need)
            cap *= 2;
        char *n = w->names ? realloc_bytes(a, w->names, w->names_cap, (size_t)cap)
                           : alloc_bytes(a, (size_t)cap);
        if (!n)
            return set_nomem(err);
        w->names = n;
        w->names_cap = (size_t)cap;
    }
    /* the table stays at most half full */
    if ((w->count + 1) * 2 > w->table_cap) {
        size_t cap = w->table_cap ? w->table_cap * 2 : 64;
        uint64_t bytes;
        if (cap < w->table_cap || !ck_mul(cap, sizeof *w->table, &bytes) || bytes > SIZE_MAX)
            return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                             "too many members for this machine");
        size_t *t = alloc_bytes(a, (size_t)bytes);
        if (!t)
            return set_nomem(err);
        memset(t, 0, (size_t)bytes);
        size_t *old = w->table, old_cap = w->table_cap;
        w->table = t;
        w->table_cap = cap;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i]) {
                const struct wentry *e = &w->entries[old[i] - 1];
                t[find_slot(w, w->names + e->name_off, e->name_len)] = old[i];
            }
        free_bytes(a, old, old_cap * sizeof *old);
    }
    return NPYDT_OK;
}

/* ---- members ----------------------------------------------------------------- */

/* The local header of the current member: as first written (CRC and sizes
 * 0) when final is false, else with its CRC and sizes. A member with a data
 * descriptor keeps zeros there, as zipfile writes it. */
static size_t local_header(const npydt_npz_writer *w, bool final, unsigned char *out)
{
    const struct wentry *e = &w->cur;
    uint64_t crc = 0, csize = 0, usize = 0;
    if (final && !(e->flags & ZIP_FLAG_DESCRIPTOR)) {
        crc = e->crc;
        csize = e->csize;
        usize = e->usize;
    }
    bool big = usize > ZIP64_LIMIT || csize > ZIP64_LIMIT;
    unsigned char *p = out;
    p = text_store_le32(p, ZIP_SIG_LOCAL);
    p = text_store_le16(p, big ? VERSION_ZIP64 : VERSION_DEFAULT);
    p = text_store_le16(p, e->flags);
    p = text_store_le16(p, e->method);
    p = text_store_le16(p, 0);                 /* time 00:00:00 */
    p = text_store_le16(p, DOS_DATE_1980);
    p = text_store_le32(p, crc);
    p = text_store_le32(p, big ? ZIP_SENTINEL32 : csize);
    p = text_store_le32(p, big ? ZIP_SENTINEL32 : usize);
    p = text_store_le16(p, e->name_len);
    p = text_store_le16(p, LOCAL_EXTRA_LEN);
    memcpy(p, w->names + e->name_off, e->name_len);
    p += e->name_len;
    p = text_store_le16(p, ZIP64_EXTRA_TAG);            /* Zip64 extended information */
    p = text_store_le16(p, 16);
    p = text_store_le64(p, usize);
    p = text_store_le64(p, csize);
    return (size_t)(p - out);
}

/* Write a local header through a bounded buffer (names are long at most
 * 65535 bytes: the header is written in pieces when it does not fit). */
static npydt_status write_local(npydt_npz_writer *w, bool final, npydt_error *err)
{
    size_t n = ZIP_LOCAL_LEN + w->cur.name_len + LOCAL_EXTRA_LEN;
    unsigned char small[ZIP_LOCAL_LEN + 256 + LOCAL_EXTRA_LEN];
    unsigned char *p = n <= sizeof small ? small : alloc_bytes(w->alloc, n);
    if (!p)
        return fail_nomem(w, err);
    local_header(w, final, p);
    npydt_status st = NPYDT_OK;
    if (!final) {
        st = emit(w, p, n, err);
    } else if (w->sink.pwrite(w->sink.ctx, p, n, w->cur.offset) != 0) {
        if ((st = owner_cause(w, err)) == NPYDT_OK)
            st = fail(w, err, NPYDT_E_IO,
                      "the sink failed to rewrite the local header at offset %llu",
                      ULL(w->cur.offset));
    }
    if (p != small)
        free_bytes(w->alloc, p, n);
    return st;
}

npydt_status npydt_npz_writer_begin(npydt_npz_writer *w, const char *name,
                                    npydt_npz_method method, npydt_error *err)
{
    error_clear(err);
    npydt_status st = enter(w, err);
    if (st != NPYDT_OK)
        return st;
    if (w->state != W_IDLE)
        return not_idle(w, err);
    if (!name)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "the name is NULL");
    if (method != NPYDT_NPZ_STORED && method != NPYDT_NPZ_DEFLATED)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "method %d: only stored (0) and deflated (8)", (int)method);
    size_t len = strlen(name);
    const char *why = name_problem(name, len);
    if (why) {
        /* a readable name: cut, no control bytes (it may not be UTF-8) */
        char shown[96];
        size_t k = 0;
        for (size_t i = 0; i < len && k + 5 < sizeof shown; i++) {
            unsigned char c = (unsigned char)name[i];
            if (c < 0x20 || c >= 0x7f || c == '\'' || c == '\\')
                k += (size_t)snprintf(shown + k, sizeof shown - k, "\\x%02x", c);
            else
                shown[k++] = (char)c;
        }
        shown[k] = '\0';
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "member '%s%s': %s", shown,
                         k + 5 >= sizeof shown ? "..." : "", why);
    }
    if (w->count >= w->max_members)
        return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "more than %zu members (max_members)", w->max_members);
    if ((st = reserve(w, len, err)) != NPYDT_OK)
        return st;
    if (w->table[find_slot(w, name, len)] != 0) {
        char quoted[128];
        zip_quote_name(quoted, sizeof quoted, name);
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "member %s: already in the archive", quoted);
    }
    if (method == NPYDT_NPZ_DEFLATED) {
        /* zlib's state and the output buffer, once for every member */
        if (!w->buf) {
            w->buf = alloc_bytes(w->alloc, w->buf_size);
            if (!w->buf)
                return set_nomem(err);
        }
        if (!w->zinit) {
            w->zs.zalloc = zip_zalloc;
            w->zs.zfree = zip_zfree;
            w->zs.opaque = (voidpf)(uintptr_t)w->alloc;
            /* zlib.compressobj(-1, DEFLATED, -15) as zipfile makes it */
            int r = deflateInit2(&w->zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8,
                                 Z_DEFAULT_STRATEGY);
            if (r != Z_OK)
                return r == Z_MEM_ERROR ? set_nomem(err)
                                        : set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                                                    "zlib cannot start deflating (%d)", r);
            w->zinit = true;
        } else if (deflateReset(&w->zs) != Z_OK) {
            return fail(w, err, NPYDT_E_IO, "zlib cannot restart deflating");
        }
    }
    memcpy(w->names + w->names_len, name, len);
    struct wentry *e = &w->cur;
    memset(e, 0, sizeof *e);
    e->name_off = w->names_len;
    e->name_len = (uint16_t)len;
    e->method = (uint16_t)method;
    e->offset = w->pos;
    e->flags = w->sink.pwrite ? 0 : ZIP_FLAG_DESCRIPTOR;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)name[i] >= 0x80) {
            e->flags |= ZIP_FLAG_UTF8;
            break;
        }
    w->crc = crc32(0, Z_NULL, 0);
    if ((st = write_local(w, false, err)) != NPYDT_OK)
        return st;
    w->names_len += len;
    w->state = W_MEMBER;
    return NPYDT_OK;
}

/* Run deflate over the input set in zs with flush, writing every full
 * output buffer; with Z_FINISH until the stream ends. */
static npydt_status pump(npydt_npz_writer *w, int flush, npydt_error *err)
{
    for (;;) {
        w->zs.next_out = w->buf;
        w->zs.avail_out = (uInt)(w->buf_size < ZCHUNK ? w->buf_size : ZCHUNK);
        uInt room = w->zs.avail_out;
        int r = deflate(&w->zs, flush);
        if (r == Z_STREAM_ERROR)
            return fail(w, err, NPYDT_E_IO, "zlib failed to deflate");
        size_t made = room - w->zs.avail_out;
        if (!ck_add(w->cur.csize, made, &w->cur.csize))
            return fail(w, err, NPYDT_E_OVERFLOW, "the member passes 2**64 bytes");
        npydt_status st = emit(w, w->buf, made, err);
        if (st != NPYDT_OK)
            return st;
        if (flush == Z_FINISH ? r == Z_STREAM_END : w->zs.avail_in == 0 && w->zs.avail_out > 0)
            return NPYDT_OK;
    }
}

npydt_status npydt_npz_writer_write(npydt_npz_writer *w, const void *buf, size_t len,
                                    npydt_error *err)
{
    error_clear(err);
    npydt_status st = enter(w, err);
    if (st != NPYDT_OK)
        return st;
    if (w->state != W_MEMBER)
        return out_of_order(err, "no member is being written: begin one first");
    if (!buf && len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "buf is NULL");
    const unsigned char *p = buf;
    while (len > 0) {
        size_t n = len < ZCHUNK ? len : ZCHUNK;
        if (!ck_add(w->cur.usize, n, &w->cur.usize))
            return fail(w, err, NPYDT_E_OVERFLOW, "the member passes 2**64 bytes");
        w->crc = crc32(w->crc, p, (uInt)n);
        if (w->cur.method == NPYDT_NPZ_STORED) {
            w->cur.csize = w->cur.usize;
            st = emit(w, p, n, err);
        } else {
            w->zs.next_in = (Bytef *)(uintptr_t)p;
            w->zs.avail_in = (uInt)n;
            st = pump(w, Z_NO_FLUSH, err);
        }
        if (st != NPYDT_OK)
            return st;
        p += n;
        len -= n;
    }
    return NPYDT_OK;
}

npydt_status npydt_npz_writer_end(npydt_npz_writer *w, npydt_error *err)
{
    error_clear(err);
    npydt_status st = enter(w, err);
    if (st != NPYDT_OK)
        return st;
    if (w->state != W_MEMBER)
        return out_of_order(err, "no member is being written");
    if (w->cur.method == NPYDT_NPZ_DEFLATED) {
        w->zs.next_in = Z_NULL;
        w->zs.avail_in = 0;
        if ((st = pump(w, Z_FINISH, err)) != NPYDT_OK)
            return st;
    }
    w->cur.crc = (uint32_t)w->crc;
    if (w->cur.flags & ZIP_FLAG_DESCRIPTOR) {
        unsigned char d[ZIP_DESCRIPTOR64_LEN], *p = d;
        p = text_store_le32(p, ZIP_SIG_DESCRIPTOR);
        p = text_store_le32(p, w->cur.crc);
        p = text_store_le64(p, w->cur.csize);
        text_store_le64(p, w->cur.usize);
        st = emit(w, d, sizeof d, err);
    } else {
        st = write_local(w, true, err);
    }
    if (st != NPYDT_OK)
        return st;
    /* reserve() made room for both */
    w->entries[w->count] = w->cur;
    w->table[find_slot(w, w->names + w->cur.name_off, w->cur.name_len)] = w->count + 1;
    w->count++;
    w->state = W_IDLE;
    return NPYDT_OK;
}

/* ---- the central directory and the end records --------------------------------- */

/* The little-endian word at offset i of the bytes a, b, c laid end to end. */
static uint32_t word_at(const unsigned char *a, size_t na, const unsigned char *b, size_t nb,
                        const unsigned char *c, size_t i)
{
    unsigned char w[4];
    for (unsigned k = 0; k < 4; k++, i++)
        w[k] = i < na ? a[i] : i - na < nb ? b[i - na] : c[i - na - nb];
    return text_load_le32(w);
}

/* Write e's central entry; *tail gets the word 20 bytes before its end,
 * where a reader looks for the Zip64 locator when e is the last entry. */
static npydt_status write_central(npydt_npz_writer *w, const struct wentry *e, uint32_t *tail,
                                  npydt_error *err)
{
    uint64_t extra[3];
    size_t nextra = 0;
    bool big = e->usize > ZIP64_LIMIT || e->csize > ZIP64_LIMIT;
    if (big) {
        extra[nextra++] = e->usize;
        extra[nextra++] = e->csize;
    }
    bool big_offset = e->offset > ZIP64_LIMIT;
    if (big_offset)
        extra[nextra++] = e->offset;
    unsigned version = nextra ? VERSION_ZIP64 : VERSION_DEFAULT;
    unsigned char h[ZIP_CENTRAL_LEN], *p = h;
    p = text_store_le32(p, ZIP_SIG_CENTRAL);
    p = text_store_le16(p, MADE_BY_UNIX << 8 | version);
    p = text_store_le16(p, version);
    p = text_store_le16(p, e->flags);
    p = text_store_le16(p, e->method);
    p = text_store_le16(p, 0);
    p = text_store_le16(p, DOS_DATE_1980);
    p = text_store_le32(p, e->crc);
    p = text_store_le32(p, big ? ZIP_SENTINEL32 : e->csize);
    p = text_store_le32(p, big ? ZIP_SENTINEL32 : e->usize);
    p = text_store_le16(p, e->name_len);
    p = text_store_le16(p, nextra ? 4 + 8 * nextra : 0);
    p = text_store_le16(p, 0);                 /* comment */
    p = text_store_le16(p, 0);                 /* disk */
    p = text_store_le16(p, 0);                 /* internal attributes */
    p = text_store_le32(p, EXTERNAL_ATTR);
    text_store_le32(p, big_offset ? ZIP_SENTINEL32 : e->offset);
    unsigned char x[4 + 24];
    size_t xlen = 0;
    if (nextra) {
        p = text_store_le16(x, ZIP64_EXTRA_TAG);
        p = text_store_le16(p, 8 * nextra);
        for (size_t i = 0; i < nextra; i++)
            p = text_store_le64(p, extra[i]);
        xlen = (size_t)(p - x);
    }
    const unsigned char *name = (const unsigned char *)w->names + e->name_off;
    *tail = word_at(h, sizeof h, name, e->name_len, x,
                    sizeof h + e->name_len + xlen - ZIP_LOCATOR64_LEN);
    npydt_status st = emit(w, h, sizeof h, err);
    if (st == NPYDT_OK)
        st = emit(w, name, e->name_len, err);
    if (st == NPYDT_OK && xlen)
        st = emit(w, x, xlen, err);
    return st;
}

npydt_status npydt_npz_writer_finish(npydt_npz_writer *w, uint64_t *size, npydt_error *err)
{
    error_clear(err);
    npydt_status st = enter(w, err);
    if (st != NPYDT_OK)
        return st;
    if (w->state != W_IDLE)
        return not_idle(w, err);
    uint64_t cd_offset = w->pos;
    uint32_t tail = 0;
    for (size_t i = 0; i < w->count; i++)
        if ((st = write_central(w, &w->entries[i], &tail, err)) != NPYDT_OK)
            return st;
    uint64_t cd_end = w->pos, cd_size = cd_end - cd_offset, n = w->count;
    /* A last name that ends in what reads as a Zip64 locator gets real
     * Zip64 end records in between, as readers would otherwise take it for
     * one (Python's zipfile refuses it when its disk fields are not 0). */
    if (n > FILECOUNT_LIMIT || cd_offset > ZIP64_LIMIT || cd_size > ZIP64_LIMIT ||
        tail == ZIP_SIG_LOCATOR64) {
        unsigned char r[ZIP_EOCD64_LEN + ZIP_LOCATOR64_LEN], *p = r;
        p = text_store_le32(p, ZIP_SIG_EOCD64);
        p = text_store_le64(p, ZIP_EOCD64_LEN - ZIP_EOCD64_SIZE_BASE);
        p = text_store_le16(p, VERSION_ZIP64);
        p = text_store_le16(p, VERSION_ZIP64);
        p = text_store_le32(p, 0);
        p = text_store_le32(p, 0);
        p = text_store_le64(p, n);
        p = text_store_le64(p, n);
        p = text_store_le64(p, cd_size);
        p = text_store_le64(p, cd_offset);
        p = text_store_le32(p, ZIP_SIG_LOCATOR64);
        p = text_store_le32(p, 0);
        p = text_store_le64(p, cd_end);
        text_store_le32(p, 1);
        if ((st = emit(w, r, sizeof r, err)) != NPYDT_OK)
            return st;
    }
    unsigned char e[ZIP_EOCD_LEN], *p = e;
    p = text_store_le32(p, ZIP_SIG_EOCD);
    p = text_store_le16(p, 0);
    p = text_store_le16(p, 0);
    p = text_store_le16(p, n < FILECOUNT_LIMIT ? n : FILECOUNT_LIMIT);
    p = text_store_le16(p, n < FILECOUNT_LIMIT ? n : FILECOUNT_LIMIT);
    p = text_store_le32(p, cd_size < ZIP_SENTINEL32 ? cd_size : ZIP_SENTINEL32);
    p = text_store_le32(p, cd_offset < ZIP_SENTINEL32 ? cd_offset : ZIP_SENTINEL32);
    text_store_le16(p, 0);                     /* no comment */
    if ((st = emit(w, e, sizeof e, err)) != NPYDT_OK)
        return st;
    w->state = W_DONE;
    if (w->owner.ctx) {
        void *ctx = w->owner.ctx;
        w->owner.ctx = NULL;
        npydt_error cause;
        if (w->owner.commit(ctx, &cause) != NPYDT_OK)
            return fail(w, err, cause.code, "%s", cause.message);
    }
    if (size)
        *size = w->pos;
    return NPYDT_OK;
}

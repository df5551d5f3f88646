/* Reading members: stored bytes straight from the archive, deflated ones
 * through zlib into the caller's (or a bounded) buffer, never beyond the
 * declared size; the end of the deflate stream and the CRC-32 are checked
 * when the declared size is reached. */
#include "npz/zip.h"

#include <string.h>
#include <zlib.h>

/* Largest piece handed to zlib at once (its counters are 32-bit). */
#define ZCHUNK ((uInt)1 << 30)

struct npydt_npz_stream {
    const struct npydt_npz *z;
    const npydt_npz_member *m;
    const npydt_allocator *alloc;
    uint64_t produced;          /* bytes delivered */
    uLong crc;                  /* CRC-32 of those bytes */
    bool done;                  /* everything delivered and checked */
    npydt_status failed;        /* sticky: every later call replays it */
    npydt_error failure;
    /* deflate only */
    bool zinit;                 /* zs needs inflateEnd */
    bool ended;                 /* inflate returned Z_STREAM_END */
    z_stream zs;
    const unsigned char *in;    /* compressed bytes not yet given to zlib */
    uint64_t in_left;
    unsigned char *buf;         /* for npydt_npz_stream_next */
    size_t buf_size;
};

/* ---- zlib's memory through the caller's allocator -------------------------- */

/* zlib frees without a size: keep it in front of each block. */
#define ZHEADER 16u

voidpf zip_zalloc(voidpf opaque, uInt items, uInt size)
{
    size_t n;
    if (__builtin_mul_overflow((size_t)items, (size_t)size, &n) || n > SIZE_MAX - ZHEADER)
        return Z_NULL;
    n += ZHEADER;
    unsigned char *p = alloc_bytes(opaque, n);
    if (!p)
        return Z_NULL;
    memcpy(p, &n, sizeof n);
    return p + ZHEADER;
}

void zip_zfree(voidpf opaque, voidpf ptr)
{
    if (!ptr)
        return;
    unsigned char *p = (unsigned char *)ptr - ZHEADER;
    size_t n;
    memcpy(&n, p, sizeof n);
    free_bytes(opaque, p, n);
}

/* ---- the stream ------------------------------------------------------------ */

static void crc_update(npydt_npz_stream *s, const unsigned char *p, size_t n)
{
    while (n > 0) {
        uInt k = n < ZCHUNK ? (uInt)n : ZCHUNK;
        s->crc = crc32(s->crc, p, k);
        p += k;
        n -= k;
    }
}

npydt_status npydt_npz_stream_open(const npydt_npz *z, size_t i, npydt_npz_stream **out,
                                   npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!z || i >= z->count)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "no member %zu", i);
    const npydt_allocator *a = z->opts.base.allocator;
    npydt_npz_stream *s = alloc_bytes(a, sizeof *s);
    if (!s)
        return set_nomem(err);
    memset(s, 0, sizeof *s);
    s->z = z;
    s->m = &z->members[i];
    s->alloc = a;
    s->crc = crc32(0, Z_NULL, 0);
    if (s->m->method == NPYDT_NPZ_DEFLATED) {
        s->zs.zalloc = zip_zalloc;
        s->zs.zfree = zip_zfree;
        s->zs.opaque = (voidpf)(uintptr_t)a;
        int r = inflateInit2(&s->zs, -MAX_WBITS); /* raw deflate, as zip stores it */
        if (r != Z_OK) {
            free_bytes(a, s, sizeof *s);
            return r == Z_MEM_ERROR ? set_nomem(err)
                                    : set_error(err, NPYDT_E_ARCHIVE, NPYDT_NO_OFFSET, NULL,
                                                "zlib cannot start inflating (%d)", r);
        }
        s->zinit = true;
        s->in = z->base + s->m->data_offset;
        s->in_left = s->m->compressed_size;
    }
    *out = s;
    return NPYDT_OK;
}

/* Inflate up to want bytes into dst. Fewer only when the deflate stream
 * ends (s->ended). */
static npydt_status inflate_into(npydt_npz_stream *s, unsigned char *dst, size_t want,
                                 size_t *have)
{
    size_t done = 0;
    while (done < want && !s->ended) {
        if (s->zs.avail_in == 0 && s->in_left > 0) {
            uInt n = s->in_left < ZCHUNK ? (uInt)s->in_left : ZCHUNK;
            s->zs.next_in = (Bytef *)(uintptr_t)s->in;
            s->zs.avail_in = n;
            s->in += n;
            s->in_left -= n;
        }
        size_t room = want - done;
        uInt r = room < ZCHUNK ? (uInt)room : ZCHUNK;
        s->zs.next_out = dst + done;
        s->zs.avail_out = r;
        int ret = inflate(&s->zs, Z_NO_FLUSH);
        done += r - s->zs.avail_out;
        if (ret == Z_STREAM_END) {
            s->ended = true;
        } else if (ret == Z_MEM_ERROR) {
            return set_nomem(&s->failure);
        } else if (ret == Z_BUF_ERROR && s->zs.avail_in == 0 && s->in_left == 0) {
            return zip_member_error(&s->failure, s->m->name,
                                    "its %llu compressed bytes end inside the deflate stream "
                                    "(after %llu bytes inflated)",
                                    (unsigned long long)s->m->compressed_size,
                                    (unsigned long long)(s->produced + done));
        } else if (ret != Z_OK && done < want) {
            /* Z_DATA_ERROR, or anything else zlib should never say here.
             * (Once the output is full zlib may still decode the next block
             * header and fail on it; those bytes are not ours yet, and
             * zlib repeats the error on the next call.) */
            return zip_member_error(&s->failure, s->m->name,
                                    "corrupt deflate data after %llu bytes inflated: %s",
                                    (unsigned long long)(s->produced + done),
                                    s->zs.msg ? s->zs.msg : "inflate failed");
        }
    }
    *have = done;
    return NPYDT_OK;
}

/* The declared size has been delivered: the deflate stream must end here
 * and use every compressed byte, and the CRC must match. */
static npydt_status finish(npydt_npz_stream *s)
{
    const npydt_npz_member *m = s->m;
    if (m->method == NPYDT_NPZ_DEFLATED) {
        if (!s->ended) {
            unsigned char extra;
            size_t n = 0;
            npydt_status st = inflate_into(s, &extra, 1, &n);
            if (st != NPYDT_OK)
                return st;
            if (n > 0)
                return zip_member_error(&s->failure, m->name,
                                        "inflates to more than its declared %llu bytes",
                                        (unsigned long long)m->uncompressed_size);
        }
        uint64_t rest = s->zs.avail_in + s->in_left;
        if (rest > 0)
            return zip_member_error(&s->failure, m->name,
                                    "%llu of its %llu compressed bytes follow the end of its "
                                    "deflate stream",
                                    (unsigned long long)rest,
                                    (unsigned long long)m->compressed_size);
    }
    if (s->crc != m->crc32)
        return zip_member_error(&s->failure, m->name,
                                "CRC-32 mismatch: the data gives %08lx, the archive declares "
                                "%08lx",
                                (unsigned long)s->crc, (unsigned long)m->crc32);
    s->done = true;
    return NPYDT_OK;
}

/* Deliver the next min(size, bytes left) bytes into dst. */
static npydt_status produce(npydt_npz_stream *s, unsigned char *dst, size_t size, size_t *got)
{
    const npydt_npz_member *m = s->m;
    uint64_t left = m->uncompressed_size - s->produced;
    size_t want = size < left ? size : (size_t)left;
    size_t have = want;
    if (m->method == NPYDT_NPZ_STORED) {
        if (want)
            memcpy(dst, s->z->base + m->data_offset + s->produced, want);
    } else {
        npydt_status st = inflate_into(s, dst, want, &have);
        if (st != NPYDT_OK)
            return st;
        if (have < want)
            return zip_member_error(&s->failure, m->name,
                                    "its deflate stream ends after %llu bytes but it declares "
                                    "%llu",
                                    (unsigned long long)(s->produced + have),
                                    (unsigned long long)m->uncompressed_size);
    }
    crc_update(s, dst, have);
    s->produced += have;
    *got = have;
    return s->produced == m->uncompressed_size ? finish(s) : NPYDT_OK;
}

/* Make an error sticky and hand it to the caller. */
static npydt_status fail(npydt_npz_stream *s, npydt_status st, npydt_error *err)
{
    s->failed = st;
    s->failure.code = st;
    if (err)
        *err = s->failure;
    return st;
}

npydt_status npydt_npz_stream_read(npydt_npz_stream *s, void *buf, size_t size, size_t *got,
                                   npydt_error *err)
{
    error_clear(err);
    if (got)
        *got = 0;
    if (!s || !got || (!buf && size))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "NULL argument");
    if (s->failed)
        return fail(s, s->failed, err);
    if (s->done)
        return NPYDT_OK;
    npydt_status st = produce(s, buf, size, got);
    if (st != NPYDT_OK) {
        *got = 0;
        return fail(s, st, err);
    }
    return NPYDT_OK;
}

npydt_status npydt_npz_stream_next(npydt_npz_stream *s, const void **chunk, size_t *len,
                                   npydt_error *err)
{
    error_clear(err);
    if (chunk)
        *chunk = NULL;
    if (len)
        *len = 0;
    if (!s || !chunk || !len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "NULL argument");
    if (s->failed)
        return fail(s, s->failed, err);
    if (s->done)
        return NPYDT_OK;
    const npydt_npz_member *m = s->m;
    npydt_status st;
    if (m->method == NPYDT_NPZ_STORED) {
        /* all of the rest in place, checked before it is handed out (the
         * archive is addressable, so the size fits a size_t) */
        size_t n = (size_t)(m->uncompressed_size - s->produced);
        const unsigned char *p = s->z->base + m->data_offset + s->produced;
        crc_update(s, p, n);
        s->produced += n;
        if ((st = finish(s)) != NPYDT_OK)
            return fail(s, st, err);
        *chunk = p;
        *len = n;
        return NPYDT_OK;
    }
    if (!s->buf) {
        /* no larger than the member needs */
        uint64_t want = m->uncompressed_size < s->z->opts.buffer_size ? m->uncompressed_size
                                                                       : s->z->opts.buffer_size;
        s->buf_size = want ? (size_t)want : 1;
        s->buf = alloc_bytes(s->alloc, s->buf_size);
        if (!s->buf)
            return set_nomem(err); /* not sticky: the caller may retry */
    }
    size_t got = 0;
    if ((st = produce(s, s->buf, s->buf_size, &got)) != NPYDT_OK)
        return fail(s, st, err);
    *chunk = s->buf;
    *len = got;
    return NPYDT_OK;
}

uint64_t npydt_npz_stream_position(const npydt_npz_stream *s)
{
    return s ? s->produced : 0;
}

void npydt_npz_stream_close(npydt_npz_stream *s)
{
    if (!s)
        return;
    if (s->zinit)
        inflateEnd(&s->zs);
    free_bytes(s->alloc, s->buf, s->buf_size);
    free_bytes(s->alloc, s, sizeof *s);
}

npydt_status npydt_npz_member_verify(const npydt_npz *z, size_t i, npydt_error *err)
{
    error_clear(err);
    npydt_npz_stream *s;
    npydt_status st = npydt_npz_stream_open(z, i, &s, err);
    if (st != NPYDT_OK)
        return st;
    const void *chunk;
    size_t len;
    do
        st = npydt_npz_stream_next(s, &chunk, &len, err);
    while (st == NPYDT_OK && len > 0);
    npydt_npz_stream_close(s);
    return st;
}

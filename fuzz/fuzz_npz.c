/* Harness: bytes -> an .npz archive opened from memory. Lists and looks up
 * every member, parses each member's header, and reads each member twice
 * (zero-copy chunks with npydt_npz_stream_next, then 13-byte copies with
 * npydt_npz_stream_read) under small caps, through a counting allocator.
 *
 * Oracles: a refused open leaves no handle and a complete error; the open
 * archive holds what its input justifies (live bytes at most 5 x input +
 * 1 KiB); every member's bytes lie inside the input, its name is non-empty,
 * has no '..' component and resolves back to it (names are unique); a
 * stored member's zero-copy bytes are where the listing says; a parsed
 * header fits in the member's declared size; both reads agree on success,
 * on the byte count (exactly the declared size, never more on failure) and
 * on the bytes (their CRC-32, which is the declared one); deflated members
 * stay under the inflated-bytes cap; nothing leaks. */
#include "fuzz_util.h"

#include <zlib.h>

/* Read member i with npydt_npz_stream_next; the CRC of what it delivered. */
static npydt_status read_chunks(const npydt_npz *z, size_t i, uint64_t *total, uLong *crc)
{
    npydt_npz_stream *s;
    npydt_error err;
    *total = 0;
    *crc = crc32(0, Z_NULL, 0);
    npydt_status st = npydt_npz_stream_open(z, i, &s, &err);
    if (st != NPYDT_OK) {
        fuzz_check_error(st, &err, 0);
        return st;
    }
    const void *chunk;
    size_t len;
    fuzz_poison_error(&err);
    while ((st = npydt_npz_stream_next(s, &chunk, &len, &err)) == NPYDT_OK && len > 0) {
        FUZZ_CHECK(chunk != NULL);
        *total += len;
        for (size_t done = 0; done < len;) {
            uInt k = len - done < (1u << 30) ? (uInt)(len - done) : (1u << 30);
            *crc = crc32(*crc, (const Bytef *)chunk + done, k);
            done += k;
        }
    }
    if (st != NPYDT_OK) {
        fuzz_check_error(st, &err, 0);
        FUZZ_CHECK(chunk == NULL && len == 0);
    }
    FUZZ_CHECK(npydt_npz_stream_position(s) >= *total);
    npydt_npz_stream_close(s);
    return st;
}

/* The same through npydt_npz_stream_read, 13 bytes at a time. */
static npydt_status read_copies(const npydt_npz *z, size_t i, uint64_t *total, uLong *crc)
{
    npydt_npz_stream *s;
    npydt_error err;
    *total = 0;
    *crc = crc32(0, Z_NULL, 0);
    npydt_status st = npydt_npz_stream_open(z, i, &s, &err);
    if (st != NPYDT_OK) {
        fuzz_check_error(st, &err, 0);
        return st;
    }
    unsigned char buf[13];
    size_t got;
    fuzz_poison_error(&err);
    while ((st = npydt_npz_stream_read(s, buf, sizeof buf, &got, &err)) == NPYDT_OK && got > 0) {
        FUZZ_CHECK(got <= sizeof buf);
        *total += got;
        *crc = crc32(*crc, buf, (uInt)got);
    }
    if (st != NPYDT_OK) {
        fuzz_check_error(st, &err, 0);
        FUZZ_CHECK(got == 0);
        /* the error is sticky */
        npydt_error again;
        FUZZ_CHECK(npydt_npz_stream_read(s, buf, sizeof buf, &got, &again) == st);
        FUZZ_CHECK(strcmp(again.message, err.message) == 0);
    }
    npydt_npz_stream_close(s);
    return st;
}

static int has_dotdot(const char *name)
{
    for (const char *p = name; *p;) {
        size_t n = strcspn(p, "/\\");
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return 1;
        p += n;
        if (*p)
            p++;
    }
    return 0;
}

static void check_member(const npydt_npz *z, size_t i, const uint8_t *data, size_t size,
                         const npydt_npz_options *opts)
{
    const npydt_npz_member *m = npydt_npz_member_at(z, i);
    npydt_error err;
    FUZZ_CHECK(m != NULL && m->name != NULL && m->name[0] != '\0');
    FUZZ_CHECK(!has_dotdot(m->name));
    FUZZ_CHECK(m->method == NPYDT_NPZ_STORED || m->method == NPYDT_NPZ_DEFLATED);
    FUZZ_CHECK(m->local_header_offset + 30 <= m->data_offset);
    FUZZ_CHECK(m->data_offset <= size && m->compressed_size <= size - m->data_offset);
    if (m->method == NPYDT_NPZ_STORED)
        FUZZ_CHECK(m->compressed_size == m->uncompressed_size);
    else
        FUZZ_CHECK(m->uncompressed_size <= fuzz_mul(m->compressed_size, opts->max_ratio));
    size_t found = SIZE_MAX;
    FUZZ_CHECK(npydt_npz_find(z, m->name, &found, &err) == NPYDT_OK && found == i);

    const void *bytes = NULL;
    uint64_t len = 0;
    fuzz_poison_error(&err);
    npydt_status st = npydt_npz_member_data(z, i, &bytes, &len, &err);
    if (m->method == NPYDT_NPZ_STORED)
        FUZZ_CHECK(st == NPYDT_OK && (const uint8_t *)bytes == data + m->data_offset &&
                   len == m->uncompressed_size);
    else
        FUZZ_CHECK(st == NPYDT_E_ARG && err.code == NPYDT_E_ARG);

    npydt_header *h = (npydt_header *)&h;
    fuzz_poison_error(&err);
    st = npydt_npz_member_header(z, i, &h, &err);
    if (st == NPYDT_OK) {
        FUZZ_CHECK(h != NULL);
        /* an object member holds a pickle: count * itemsize does not apply */
        FUZZ_CHECK(npydt_dtype_has_object(npydt_header_dtype(h)) ||
                   fuzz_add(npydt_header_data_offset(h), npydt_header_data_bytes(h)) <=
                       m->uncompressed_size);
        npydt_header_free(h);
    } else {
        FUZZ_CHECK(h == NULL);
        FUZZ_CHECK(st != NPYDT_E_ARG);
        fuzz_check_error(st, &err, m->uncompressed_size);
    }

    uint64_t total1, total2;
    uLong crc1, crc2;
    npydt_status st1 = read_chunks(z, i, &total1, &crc1);
    npydt_status st2 = read_copies(z, i, &total2, &crc2);
    FUZZ_CHECK(st1 == st2 || st1 == NPYDT_E_NOMEM || st2 == NPYDT_E_NOMEM);
    FUZZ_CHECK(total1 <= m->uncompressed_size && total2 <= m->uncompressed_size);
    if (st1 == NPYDT_OK && st2 == NPYDT_OK) {
        FUZZ_CHECK(total1 == m->uncompressed_size && total2 == m->uncompressed_size);
        FUZZ_CHECK(crc1 == m->crc32 && crc2 == m->crc32);
        FUZZ_CHECK(npydt_npz_member_verify(z, i, &err) == NPYDT_OK);
    } else if (st1 != NPYDT_E_NOMEM) {
        FUZZ_CHECK(st1 == NPYDT_E_ARCHIVE);
        fuzz_poison_error(&err);
        FUZZ_CHECK(npydt_npz_member_verify(z, i, &err) == NPYDT_E_ARCHIVE);
        fuzz_check_error(NPYDT_E_ARCHIVE, &err, 0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_alloc fa;
    fuzz_alloc_init(&fa, -1, 0);
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.base.allocator = &fa.alloc;
    opts.max_members = 256;
    opts.max_inflated_bytes = (uint64_t)1 << 20;
    opts.buffer_size = 512;

    npydt_npz *z = (npydt_npz *)&z;   /* must be reset to NULL on failure */
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_npz_open_buffer(data, size, &opts, &z, &err);
    if (st != NPYDT_OK) {
        FUZZ_CHECK(z == NULL);
        FUZZ_CHECK(st == NPYDT_E_ARCHIVE || st == NPYDT_E_OVERFLOW);
        fuzz_check_error(st, &err, 0);
        FUZZ_CHECK(fa.live_blocks == 0 && fa.live_bytes == 0);
        return 0;
    }
    FUZZ_CHECK(fa.live_bytes <= fuzz_add(fuzz_mul(size, 5), 1024));
    size_t n = npydt_npz_count(z);
    FUZZ_CHECK(n <= opts.max_members);
    FUZZ_CHECK(npydt_npz_member_at(z, n) == NULL);
    uint64_t inflated = 0;
    for (size_t i = 0; i < n; i++) {
        const npydt_npz_member *m = npydt_npz_member_at(z, i);
        if (m->method == NPYDT_NPZ_DEFLATED)
            inflated = fuzz_add(inflated, m->uncompressed_size);
        check_member(z, i, data, size, &opts);
    }
    FUZZ_CHECK(inflated <= opts.max_inflated_bytes);
    npydt_npz_close(z);
    FUZZ_CHECK(fa.live_blocks == 0 && fa.live_bytes == 0);
    return 0;
}

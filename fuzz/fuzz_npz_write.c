/* Harness: bytes -> a script of members for the .npz writer; what it
 * writes is read back by the library's reader.
 *
 * Input: byte 0 picks the sink (bit 0: seekable, with pwrite; else data
 * descriptors), the deflate buffer (bits 1-2: 1, 7, 512 or 65536 bytes) and
 * an allocation to fail (bits 3-7: none, or number value - 1); byte 1 a
 * sink call to fail (0: none, else call number value - 1). Then members
 * until the input ends, each: a byte (bit 7 deflated, bits 0-6 the name's
 * length), the name's bytes (up to a NUL), two bytes of data length
 * (little-endian, cut to what is left), a byte of write size (0: all at
 * once), the data.
 *
 * Oracles: the writer refuses exactly the names the reader would refuse
 * (empty, over 65535 bytes, not UTF-8, a '..' component) and duplicates,
 * with NPYDT_E_ARG, and goes on; without injected failures the archive
 * opens, lists exactly the accepted members in order with their names,
 * methods, sizes and flags (data descriptor without pwrite, UTF-8 for
 * non-ASCII names), and every member reads back (CRC checked) to the very
 * bytes written; finish reports the archive's size and nothing is accepted
 * after it; an injected allocation or sink failure gives NPYDT_E_NOMEM or
 * a sticky NPYDT_E_IO; nothing leaks. */
#include "fuzz_util.h"

#define MAX_MEMBERS 64

struct out {
    unsigned char *data;
    size_t len, cap;
    long calls, fail_at;  /* the write/pwrite call that fails, -1: none */
    int failed;
};

static int out_write(void *ctx, const void *buf, size_t len)
{
    struct out *o = ctx;
    if (o->fail_at >= 0 && o->calls++ == o->fail_at) {
        o->failed = 1;
        return -1;
    }
    if (o->cap - o->len < len) {
        size_t cap = o->cap ? o->cap : 1024;
        while (cap - o->len < len)
            cap *= 2;
        unsigned char *d = realloc(o->data, cap);
        FUZZ_CHECK(d != NULL);
        o->data = d;
        o->cap = cap;
    }
    if (len)
        memcpy(o->data + o->len, buf, len);
    o->len += len;
    return 0;
}

static int out_pwrite(void *ctx, const void *buf, size_t len, uint64_t offset)
{
    struct out *o = ctx;
    if (o->fail_at >= 0 && o->calls++ == o->fail_at) {
        o->failed = 1;
        return -1;
    }
    FUZZ_CHECK(offset <= o->len && len <= o->len - offset);
    memcpy(o->data + offset, buf, len);
    return 0;
}

/* An independent statement of the names a zip member may have here. */
static int strict_utf8(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t k;
        uint32_t v, min;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            k = 2, v = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            k = 3, v = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            k = 4, v = c & 0x07, min = 0x10000;
        } else {
            return 0;
        }
        if (n - i < k)
            return 0;
        for (size_t j = 1; j < k; j++) {
            if ((s[i + j] & 0xC0) != 0x80)
                return 0;
            v = v << 6 | (s[i + j] & 0x3F);
        }
        if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
            return 0;
        i += k;
    }
    return 1;
}

static int name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 65535 || !strict_utf8((const unsigned char *)name, n))
        return 0;
    /* absolute, a drive, a directory */
    if (strchr("/\\", name[0]) || strchr("/\\", name[n - 1]) ||
        (n >= 2 && name[1] == ':' && ((name[0] >= 'a' && name[0] <= 'z') ||
                                      (name[0] >= 'A' && name[0] <= 'Z'))))
        return 0;
    /* control characters: C0, DEL, and C1 (U+0080..U+009F, C2 80..C2 9F) */
    for (const unsigned char *u = (const unsigned char *)name; *u; u++)
        if (*u < 0x20 || *u == 0x7f || (u[0] == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f))
            return 0;
    for (const char *p = name;;) {
        size_t k = strcspn(p, "/\\");
        if (k == 2 && p[0] == '.' && p[1] == '.')
            return 0;
        if (!p[k])
            return 1;
        p += k + 1;
    }
}

struct expect {
    char name[128];
    npydt_npz_method method;
    const uint8_t *data;
    size_t len;
};

static void check_archive(const struct out *o, const struct expect *ex, size_t n, int seekable)
{
    npydt_npz *z;
    npydt_error err;
    npydt_status st = npydt_npz_open_buffer(o->data, o->len, NULL, &z, &err);
    if (st != NPYDT_OK)
        fuzz_fail_status("the written archive does not open", st, &err, "", 0);
    FUZZ_CHECK(npydt_npz_count(z) == n);
    unsigned char *buf = malloc(4096);
    FUZZ_CHECK(buf != NULL);
    for (size_t i = 0; i < n; i++) {
        const npydt_npz_member *m = npydt_npz_member_at(z, i);
        FUZZ_CHECK(strcmp(m->name, ex[i].name) == 0);
        FUZZ_CHECK(m->method == ex[i].method);
        FUZZ_CHECK(m->uncompressed_size == ex[i].len);
        FUZZ_CHECK(!!(m->flags & 0x0008) == !seekable);
        int ascii = 1;
        for (const char *p = ex[i].name; *p; p++)
            ascii &= (unsigned char)*p < 0x80;
        FUZZ_CHECK(!!(m->flags & 0x0800) == !ascii);
        npydt_npz_stream *s;
        FUZZ_CHECK(npydt_npz_stream_open(z, i, &s, &err) == NPYDT_OK);
        size_t total = 0, got;
        do {
            st = npydt_npz_stream_read(s, buf, 4096, &got, &err);
            if (st != NPYDT_OK)
                fuzz_fail_status("a written member does not read back", st, &err, "", 0);
            FUZZ_CHECK(got <= ex[i].len - total);
            FUZZ_CHECK(memcmp(buf, ex[i].data + total, got) == 0);
            total += got;
        } while (got > 0);
        FUZZ_CHECK(total == ex[i].len);
        npydt_npz_stream_close(s);
    }
    free(buf);
    npydt_npz_close(z);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const size_t buffers[4] = {1, 7, 512, 65536};
    if (size < 2)
        return 0;
    int seekable = data[0] & 1;
    long fail_alloc = (data[0] >> 3) ? (long)(data[0] >> 3) - 1 : -1;
    struct fuzz_alloc fa;
    fuzz_alloc_init(&fa, fail_alloc, 0);
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.base.allocator = &fa.alloc;
    opts.buffer_size = buffers[(data[0] >> 1) & 3];
    struct out o = {NULL, 0, 0, 0, data[1] ? (long)data[1] - 1 : -1, 0};
    npydt_npz_sink sink = {out_write, seekable ? out_pwrite : NULL, &o};

    static struct expect ex[MAX_MEMBERS];
    size_t n = 0;
    npydt_npz_writer *w = (npydt_npz_writer *)&w;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_npz_writer_new(&sink, &opts, &w, &err);
    if (st != NPYDT_OK) {
        FUZZ_CHECK(st == NPYDT_E_NOMEM && w == NULL);
        fuzz_check_error(st, &err, 0);
        FUZZ_CHECK(fa.live_blocks == 0);
        return 0;
    }
    size_t pos = 2;
    while (st == NPYDT_OK && pos < size && n < MAX_MEMBERS) {
        unsigned head = data[pos++];
        size_t nlen = head & 0x7F;
        if (size - pos < nlen)
            break;
        struct expect *e = &ex[n];
        memcpy(e->name, data + pos, nlen);
        e->name[nlen] = '\0';
        pos += nlen;
        e->method = head & 0x80 ? NPYDT_NPZ_DEFLATED : NPYDT_NPZ_STORED;
        size_t len = 0, step = 0;
        if (size - pos >= 2) {
            len = (size_t)data[pos] | (size_t)data[pos + 1] << 8;
            pos += 2;
        }
        if (pos < size)
            step = data[pos++];
        if (len > size - pos)
            len = size - pos;
        e->data = data + pos;
        e->len = len;
        pos += len;
        int dup = 0;
        for (size_t i = 0; i < n; i++)
            dup |= strcmp(ex[i].name, e->name) == 0;
        fuzz_poison_error(&err);
        st = npydt_npz_writer_begin(w, e->name, e->method, &err);
        if (st == NPYDT_E_ARG) {
            FUZZ_CHECK(!name_ok(e->name) || dup);
            fuzz_check_error(st, &err, 0);
            st = NPYDT_OK;   /* refused, not failed: go on */
            continue;
        }
        if (st != NPYDT_OK)
            break;
        FUZZ_CHECK(name_ok(e->name) && !dup);
        size_t chunk = step ? step : (len ? len : 1);
        for (size_t done = 0; st == NPYDT_OK && done < len; done += chunk)
            st = npydt_npz_writer_write(w, e->data + done, len - done < chunk ? len - done : chunk,
                                        &err);
        if (st == NPYDT_OK)
            st = npydt_npz_writer_end(w, &err);
        if (st == NPYDT_OK)
            n++;
    }
    uint64_t total = 0;
    if (st == NPYDT_OK) {
        fuzz_poison_error(&err);
        st = npydt_npz_writer_finish(w, &total, &err);
    }
    if (st == NPYDT_OK) {
        FUZZ_CHECK(!o.failed);
        FUZZ_CHECK(total == o.len);
        FUZZ_CHECK(npydt_npz_writer_begin(w, "late", NPYDT_NPZ_STORED, &err) == NPYDT_E_ARG);
        npydt_npz_writer_free(w);
        check_archive(&o, ex, n, seekable);
    } else {
        fuzz_check_error(st, &err, 0);
        FUZZ_CHECK(st == NPYDT_E_NOMEM || (st == NPYDT_E_IO && o.failed));
        if (st == NPYDT_E_IO) {
            /* sticky */
            npydt_error again;
            FUZZ_CHECK(npydt_npz_writer_finish(w, NULL, &again) == NPYDT_E_IO);
            FUZZ_CHECK(strcmp(again.message, err.message) == 0);
        }
        npydt_npz_writer_free(w);
    }
    FUZZ_CHECK(fa.live_blocks == 0 && fa.live_bytes == 0);
    free(o.data);
    return 0;
}

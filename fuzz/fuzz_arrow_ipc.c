/* Harness: bytes -> an Arrow IPC stream read from memory
 * (npydt_arrow_ipc_open_buffer) under small limits, through a counting
 * allocator: the schema asked for twice, every batch read.
 *
 * Oracles: a refused open leaves no stream and a complete error (an
 * offset inside the input); a failing get_next leaves no array and the
 * stream's npydt_error says why; the memory held stays within what the
 * input justifies (256 x its bytes + 1 MiB); a stream read whole is
 * written again by npydt_arrow_ipc_write, and that stream, read and
 * written once more, gives the same bytes (what the reader accepts, the
 * writer writes, and the two agree); a stream read whole is imported into
 * a .npy member (npydt_arrow_dtype, npydt_arrow_write_stream) with every
 * row, or refused with a complete error, and converted by
 * npydt_arrow_records a MiB of records at a time with the same status and
 * message; nothing leaks. */
#include "fuzz_util.h"

#include <errno.h>

struct mem {
    unsigned char *p;
    size_t len, cap;
};

static int mem_write(void *ctx, const void *buf, size_t len)
{
    struct mem *m = ctx;
    if (m->cap - m->len < len) {
        size_t cap = m->cap ? m->cap : 256;
        while (cap - m->len < len)
            cap *= 2;
        unsigned char *p = realloc(m->p, cap);
        if (!p)
            return -1;
        m->p = p;
        m->cap = cap;
    }
    memcpy(m->p + m->len, buf, len);
    m->len += len;
    return 0;
}

static void options(npydt_arrow_ipc_options *o, struct fuzz_alloc *fa)
{
    npydt_arrow_ipc_options_init(o);
    o->base.allocator = &fa->alloc;
    o->base.limits.max_depth = 32;
    o->base.limits.max_fields = 2000;
    o->max_message_bytes = 1 << 20;
}

/* Read data whole; its status, and the rows read in *rows. */
static npydt_status drain(const uint8_t *data, size_t size, struct fuzz_alloc *fa,
                          uint64_t *rows)
{
    npydt_arrow_ipc_options o;
    options(&o, fa);
    struct ArrowArrayStream s;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_arrow_ipc_open_buffer(data, size, &o, &s, &err);
    if (st != NPYDT_OK) {
        fuzz_check_error(st, &err, size);
        FUZZ_CHECK(s.release == NULL);
        return st;
    }
    for (int i = 0; i < 2; i++) {
        struct ArrowSchema sc;
        int rc = s.get_schema(&s, &sc);
        /* the open parsed the same bytes: only memory can fail */
        FUZZ_CHECK(rc == 0 || (rc == ENOMEM && fa->fail_at >= 0));
        if (rc) {
            FUZZ_CHECK(sc.release == NULL);
            s.release(&s);
            return NPYDT_E_NOMEM;
        }
        FUZZ_CHECK(sc.release && strcmp(sc.format, "+s") == 0);
        sc.release(&sc);
        FUZZ_CHECK(sc.release == NULL);
    }
    for (;;) {
        struct ArrowArray a;
        int rc = s.get_next(&s, &a);
        if (rc) {
            FUZZ_CHECK(a.release == NULL);
            FUZZ_CHECK(s.get_last_error(&s) != NULL);
            fuzz_poison_error(&err);
            FUZZ_CHECK(npydt_arrow_stream_error(&s, &err) == NPYDT_OK);
            fuzz_check_error(err.code, &err, size);
            st = err.code;
            break;
        }
        if (!a.release)
            break;
        FUZZ_CHECK(a.length >= 0 && a.offset == 0);
        FUZZ_CHECK(fa->live_bytes <= 256 * size + (1u << 20));
        *rows += (uint64_t)a.length;
        a.release(&a);
    }
    s.release(&s);
    FUZZ_CHECK(s.release == NULL);
    return st;
}

/* The stream in[0..len) read and written again into *out. */
static npydt_status rewrite(const unsigned char *in, size_t len, struct mem *out)
{
    struct fuzz_alloc fa;
    fuzz_alloc_init(&fa, -1, 0);
    npydt_arrow_ipc_options o;
    options(&o, &fa);
    struct ArrowArrayStream s;
    npydt_error err;
    npydt_status st = npydt_arrow_ipc_open_buffer(in, len, &o, &s, &err);
    if (st == NPYDT_OK) {
        npydt_npz_sink sink = {mem_write, NULL, out};
        uint64_t written = 0;
        fuzz_poison_error(&err);
        st = npydt_arrow_ipc_write(&s, &sink, &o, &written, &err);
        if (st != NPYDT_OK)
            fuzz_check_error(st, &err, SIZE_MAX);
        FUZZ_CHECK(written == out->len);
        s.release(&s);
    }
    FUZZ_CHECK(fa.live_blocks == 0);
    return st;
}

/* The stream in[0..len) converted by npydt_arrow_records, a MiB of
 * records at a time, as load --arrow converts it: the status and the
 * message of the writer's import (want, want_err), and nothing held. */
static void records_agree(const unsigned char *in, size_t len, const npydt_dtype *dt,
                          const npydt_arrow_import_options *io0, npydt_status want,
                          const npydt_error *want_err)
{
    struct fuzz_alloc fa;
    fuzz_alloc_init(&fa, -1, 0);
    npydt_arrow_ipc_options o;
    options(&o, &fa);
    npydt_arrow_import_options io = *io0;
    io.base.allocator = &fa.alloc;
    struct ArrowArrayStream s;
    npydt_error err;
    FUZZ_CHECK(npydt_arrow_ipc_open_buffer(in, len, &o, &s, &err) == NPYDT_OK);
    struct ArrowSchema sc;
    FUZZ_CHECK(s.get_schema(&s, &sc) == 0);
    fuzz_poison_error(&err);
    npydt_status st = npydt_arrow_records(dt, &sc, NULL, 0, 0, 0, &io, NULL, &err);
    size_t isz = npydt_dtype_itemsize(dt);
    /* as load --arrow: rows of no bytes all in one call */
    uint64_t most = isz ? ((1u << 20) / isz ? (1u << 20) / isz : 1) : (uint64_t)INT64_MAX;
    unsigned char *buf = malloc((size_t)most * isz + 1);
    FUZZ_CHECK(buf != NULL);
    uint64_t row0 = 0;
    while (st == NPYDT_OK) {
        struct ArrowArray a;
        FUZZ_CHECK(s.get_next(&s, &a) == 0);   /* the stream read whole before */
        if (!a.release)
            break;
        int64_t at = 0;
        do {
            uint64_t left = a.length > at ? (uint64_t)(a.length - at) : 0;
            int64_t n = (int64_t)(left < most ? left : most);
            fuzz_poison_error(&err);
            st = npydt_arrow_records(dt, &sc, &a, at, n, row0, &io, buf, &err);
            at += n;
        } while (st == NPYDT_OK && at < a.length);
        row0 += (uint64_t)a.length;
        a.release(&a);
    }
    /* the writer's own refusals (a member's shape, its sink) are not the
     * conversion's */
    if (want == NPYDT_E_SHAPE || want == NPYDT_E_IO)
        st = want;
    FUZZ_CHECK(st == want);
    if (st != NPYDT_OK && want != NPYDT_E_SHAPE && want != NPYDT_E_IO) {
        fuzz_check_error(st, &err, SIZE_MAX);
        FUZZ_CHECK(strcmp(err.message, want_err->message) == 0);
    }
    free(buf);
    sc.release(&sc);
    s.release(&s);
    FUZZ_CHECK(fa.live_blocks == 0);
}

/* The stream in[0..len), which reads whole to rows rows, imported into a
 * member of an archive in memory. */
static void import(const unsigned char *in, size_t len, uint64_t rows)
{
    struct fuzz_alloc fa;
    fuzz_alloc_init(&fa, -1, 0);
    npydt_arrow_ipc_options o;
    options(&o, &fa);
    npydt_arrow_import_options io;
    npydt_arrow_import_options_init(&io);
    io.base.allocator = &fa.alloc;
    io.string_width = 16;
    io.nulls_as_zero = (int)(len & 1);
    struct ArrowArrayStream s;
    npydt_error err;
    FUZZ_CHECK(npydt_arrow_ipc_open_buffer(in, len, &o, &s, &err) == NPYDT_OK);
    struct ArrowSchema sc;
    FUZZ_CHECK(s.get_schema(&s, &sc) == 0);
    npydt_dtype *dt = NULL;
    fuzz_poison_error(&err);
    npydt_status st = npydt_arrow_dtype(&sc, NULL, &io, &dt, &err);
    sc.release(&sc);
    if (st != NPYDT_OK) {
        fuzz_check_error(st, &err, SIZE_MAX);
    } else if (npydt_dtype_itemsize(dt) > o.max_message_bytes) {
        /* no row of it fits in a message: refused before a writer, as
         * load --arrow does */
        npydt_dtype_free(dt);
    } else {
        struct mem out = {0};
        npydt_npz_sink sink = {mem_write, NULL, &out};
        npydt_npz_writer *z = NULL;
        npydt_writer *w = NULL;
        uint64_t shape[1] = {rows};   /* a member's final shape */
        FUZZ_CHECK(npydt_npz_writer_new(&sink, NULL, &z, &err) == NPYDT_OK);
        st = npydt_writer_create_member(z, "a", NPYDT_NPZ_STORED, dt, shape, 1, NULL, &w, &err);
        if (st == NPYDT_OK) {
            fuzz_poison_error(&err);
            st = npydt_arrow_write_stream(w, &s, &io, &err);
            /* the writer's dtype, as load --arrow converts to it (its
             * header text gives its names, which may differ from dt's) */
            records_agree(in, len, npydt_writer_dtype(w), &io, st, &err);
            if (st == NPYDT_OK) {
                FUZZ_CHECK(npydt_writer_count(w) == rows);
                FUZZ_CHECK(npydt_writer_close(w, &err) == NPYDT_OK);
            } else {
                fuzz_check_error(st, &err, SIZE_MAX);
                npydt_writer_discard(w, &err);
            }
        }
        npydt_npz_writer_free(z);
        npydt_dtype_free(dt);
        free(out.p);
    }
    s.release(&s);
    FUZZ_CHECK(fa.live_blocks == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_alloc fa;
    fuzz_alloc_init(&fa, -1, 0);
    uint64_t rows = 0;
    npydt_status st = drain(data, size, &fa, &rows);
    FUZZ_CHECK(fa.live_blocks == 0);
    if (st == NPYDT_OK) {
        import(data, size, rows);
        struct mem one = {0}, two = {0};
        FUZZ_CHECK(rewrite(data, size, &one) == NPYDT_OK);
        FUZZ_CHECK(rewrite(one.p, one.len, &two) == NPYDT_OK);
        FUZZ_CHECK(one.len == two.len && memcmp(one.p, two.p, one.len) == 0);
        free(one.p);
        free(two.p);
    }
    /* and once with an allocation failing: an error, nothing left */
    fuzz_alloc_init(&fa, (long)(size % 23), 0);
    rows = 0;
    st = drain(data, size, &fa, &rows);
    FUZZ_CHECK(fa.live_blocks == 0);
    return 0;
}

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
 * writer writes, and the two agree); nothing leaks. */
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

/* Read data whole; its status. */
static npydt_status drain(const uint8_t *data, size_t size, struct fuzz_alloc *fa)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_alloc fa;
    fuzz_alloc_init(&fa, -1, 0);
    npydt_status st = drain(data, size, &fa);
    FUZZ_CHECK(fa.live_blocks == 0);
    if (st == NPYDT_OK) {
        struct mem one = {0}, two = {0};
        FUZZ_CHECK(rewrite(data, size, &one) == NPYDT_OK);
        FUZZ_CHECK(rewrite(one.p, one.len, &two) == NPYDT_OK);
        FUZZ_CHECK(one.len == two.len && memcmp(one.p, two.p, one.len) == 0);
        free(one.p);
        free(two.p);
    }
    /* and once with an allocation failing: an error, nothing left */
    fuzz_alloc_init(&fa, (long)(size % 23), 0);
    st = drain(data, size, &fa);
    FUZZ_CHECK(fa.live_blocks == 0);
    return 0;
}

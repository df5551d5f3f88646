/* The Arrow IPC stream format: every fixture's export written as a stream
 * and read back (from memory and from a pipe) equals the export value by
 * value; the framing follows the specification; truncated and corrupted
 * streams, limits and types npydt does not read give errors, never a
 * crash; the writer honours array offsets and refuses formats it does not
 * write; allocation failures leave nothing behind. */
#include "arrow_test.h"

#include <math.h>
#include <stdbool.h>
#include <unistd.h>

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t le16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

/* ---- comparing schemas and arrays ------------------------------------------------- */

static size_t meta_len(const char *m)
{
    if (!m)
        return 0;
    int32_t n, k;
    size_t len = 4;
    memcpy(&n, m, 4);
    for (int32_t i = 0; i < 2 * n; i++) {
        memcpy(&k, m + len, 4);
        len += 4 + (size_t)k;
    }
    return len;
}

static void same_schema(const struct ArrowSchema *a, const struct ArrowSchema *b)
{
    assert_string_equal(a->format, b->format);
    assert_string_equal(a->name, b->name);
    assert_int_equal(a->flags, b->flags);
    assert_int_equal(meta_len(a->metadata), meta_len(b->metadata));
    if (a->metadata)
        assert_memory_equal(a->metadata, b->metadata, meta_len(a->metadata));
    assert_int_equal(a->n_children, b->n_children);
    for (int64_t i = 0; i < a->n_children; i++)
        same_schema(a->children[i], b->children[i]);
}

static int bit(const void *bits, int64_t i)
{
    return (((const unsigned char *)bits)[i / 8] >> (i % 8)) & 1;
}

static int valid(const struct ArrowArray *a, int64_t i)
{
    return !a->buffers[0] || bit(a->buffers[0], a->offset + i);
}

/* Bytes of one value of a fixed-width format; 0 for the others. */
static size_t width_of(const char *f)
{
    if (strchr("cC", f[0]) && !f[1])
        return 1;
    if (strchr("sSe", f[0]) && !f[1])
        return 2;
    if (strchr("iIf", f[0]) && !f[1])
        return 4;
    if (strchr("lLg", f[0]) && !f[1])
        return 8;
    if (!strcmp(f, "tdD"))
        return 4;
    if (f[0] == 't')
        return 8;
    if (!strncmp(f, "w:", 2))
        return (size_t)atoi(f + 2);
    return 0;
}

/* Values [i, i + n) of a and [j, j + n) of b, of format s, are equal. */
static void same_values(const struct ArrowSchema *s, const struct ArrowArray *a, int64_t i,
                        const struct ArrowArray *b, int64_t j, int64_t n)
{
    const char *f = s->format;
    for (int64_t k = 0; k < n; k++) {
        assert_int_equal(valid(a, i + k), valid(b, j + k));
        if (!valid(a, i + k))
            continue;
        int64_t x = a->offset + i + k, y = b->offset + j + k;
        if (!strcmp(f, "b")) {
            assert_int_equal(bit(a->buffers[1], x), bit(b->buffers[1], y));
        } else if (!strcmp(f, "u") || !strcmp(f, "z")) {
            const int32_t *oa = a->buffers[1], *ob = b->buffers[1];
            assert_int_equal(oa[x + 1] - oa[x], ob[y + 1] - ob[y]);
            assert_memory_equal((const char *)a->buffers[2] + oa[x],
                                (const char *)b->buffers[2] + ob[y], (size_t)(oa[x + 1] - oa[x]));
        } else if (!strcmp(f, "+s")) {
            for (int64_t c = 0; c < s->n_children; c++)
                same_values(s->children[c], a->children[c], x, b->children[c], y, 1);
        } else if (!strncmp(f, "+w:", 3)) {
            int64_t d = atoi(f + 3);
            same_values(s->children[0], a->children[0], x * d, b->children[0], y * d, d);
        } else {
            size_t w = width_of(f);
            assert_true(w > 0 || !strcmp(f, "w:0"));
            assert_memory_equal((const char *)a->buffers[1] + (size_t)x * w,
                                (const char *)b->buffers[1] + (size_t)y * w, w);
        }
    }
}

static void same_batch(const struct ArrowSchema *s, const struct ArrowArray *a,
                       const struct ArrowArray *b)
{
    assert_int_equal(a->length, b->length);
    assert_int_equal(b->offset, 0);
    for (int64_t c = 0; c < s->n_children; c++) {
        assert_int_equal(a->children[c]->length - 0, b->children[c]->length);
        same_values(s->children[c], a->children[c], 0, b->children[c], 0, a->length);
    }
}

/* The stream read equals stream want: schema and every batch. Releases both. */
static void same_streams(struct ArrowArrayStream *want, struct ArrowArrayStream *got)
{
    struct ArrowSchema sw, sg;
    assert_int_equal(want->get_schema(want, &sw), 0);
    assert_int_equal(got->get_schema(got, &sg), 0);
    same_schema(&sw, &sg);
    for (;;) {
        struct ArrowArray aw, ag;
        assert_int_equal(want->get_next(want, &aw), 0);
        int rc = got->get_next(got, &ag);
        if (rc)
            fail_msg("get_next: %s", got->get_last_error(got));
        assert_int_equal(aw.release == NULL, ag.release == NULL);
        if (!aw.release)
            break;
        same_batch(&sw, &aw, &ag);
        aw.release(&aw);
        ag.release(&ag);
    }
    sw.release(&sw);
    sg.release(&sg);
    want->release(want);
    got->release(got);
}

static void round_trip(const char *name, uint64_t batch_rows)
{
    struct membuf m = fixture_stream(name, batch_rows);
    npydt_reader *r;
    struct ArrowArrayStream want, got;
    open_export(name, batch_rows, &r, &want);
    TEST_ERROR(err);
    if (npydt_arrow_ipc_open_buffer(m.p, m.len, NULL, &got, &err) != NPYDT_OK)
        fail_msg("%s: %s", name, err.message);
    same_streams(&want, &got);
    npydt_reader_close(r);
    free(m.p);
}

/* ---- round trips ------------------------------------------------------------------- */

/* Each fixture in batches of all its rows, then of 2 rows. */
static void round_trips(const char *name, void *ctx)
{
    (void)ctx;
    round_trip(name, 0);
    round_trip(name, 2);
}

static void test_arrow_ipc_round_trip_every_fixture(void **state)
{
    (void)state;
    for_each_arrow_fixture(round_trips, NULL);
}

/* npydt_arrow_batch of records picked by the caller gives the batch the
 * stream gives for the same rows. */
static void test_arrow_batch_of_picked_records_is_the_streams(void **state)
{
    (void)state;
    npydt_reader *r;
    struct ArrowArrayStream s;
    open_export("struct_subarray_of_struct.npy", 0, &r, &s);
    const npydt_dtype *dt = npydt_header_dtype(npydt_reader_header(r));
    const unsigned char *bytes = npydt_reader_bytes(r);
    uint64_t n = npydt_header_count(npydt_reader_header(r));
    struct ArrowSchema sc;
    struct ArrowArray want, got;
    assert_int_equal(s.get_schema(&s, &sc), 0);
    assert_int_equal(s.get_next(&s, &want), 0);
    assert_int_equal(want.length, (int64_t)n);
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_batch(dt, bytes, n, NULL, &got, &err), NPYDT_OK);
    same_batch(&sc, &want, &got);
    got.release(&got);
    assert_int_equal(npydt_arrow_batch(dt, NULL, 1, NULL, &got, &err), NPYDT_E_ARG);
    assert_null(got.release);
    want.release(&want);
    sc.release(&sc);
    s.release(&s);
    npydt_reader_close(r);
}

static void test_arrow_ipc_reads_a_pipe_message_by_message(void **state)
{
    (void)state;
    struct membuf m = fixture_stream("struct_nested_subarray.npy", 1);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_true(m.len < 4096);   /* the pipe holds it all */
    assert_int_equal(write(fds[1], m.p, m.len), (ssize_t)m.len);
    close(fds[1]);
    npydt_reader *r;
    struct ArrowArrayStream want, got;
    open_export("struct_nested_subarray.npy", 1, &r, &want);
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_ipc_open_fd(fds[0], NULL, &got, &err), NPYDT_OK);
    same_streams(&want, &got);
    npydt_reader_close(r);
    close(fds[0]);
    free(m.p);
}

/* Continuation markers, 8-byte aligned metadata and bodies, the
 * end-of-stream marker. */
static void test_arrow_ipc_framing_follows_the_format(void **state)
{
    (void)state;
    struct membuf m = fixture_stream("struct_nested_subarray.npy", 1);
    size_t pos = 0, messages = 0;
    assert_int_equal(m.len % 8, 0);
    for (;;) {
        assert_true(pos + 8 <= m.len);
        assert_int_equal(le32(m.p + pos), 0xFFFFFFFFu);
        uint32_t len = le32(m.p + pos + 4);
        if (len == 0)
            break;
        assert_int_equal(len % 8, 0);
        /* the body's length is the Message's field 3 (int64): found here by
         * walking to the next continuation marker */
        pos += 8 + len;
        while (pos < m.len && le32(m.p + pos) != 0xFFFFFFFFu)
            pos += 8;
        messages++;
    }
    assert_int_equal(pos + 8, m.len);
    assert_int_equal(messages, 1 + 2);   /* the schema, a batch per row */
    free(m.p);
}

/* ---- untrusted bytes ------------------------------------------------------------- */

/* Read a stream whole; its status (the error in *err). */
static npydt_status drain(const unsigned char *p, size_t len, const npydt_arrow_ipc_options *o,
                          npydt_error *err)
{
    struct ArrowArrayStream s;
    npydt_status st = npydt_arrow_ipc_open_buffer(p, len, o, &s, err);
    if (st != NPYDT_OK) {
        assert_null(s.release);
        return st;
    }
    struct ArrowSchema sc;
    int rc = s.get_schema(&s, &sc);
    if (rc) {
        assert_int_equal(rc, ENOMEM);
        assert_null(sc.release);
        assert_int_equal(npydt_arrow_stream_error(&s, err), NPYDT_OK);
        s.release(&s);
        return err->code;
    }
    sc.release(&sc);
    for (;;) {
        struct ArrowArray a;
        rc = s.get_next(&s, &a);
        if (rc) {
            assert_null(a.release);
            assert_non_null(s.get_last_error(&s));
            assert_int_equal(npydt_arrow_stream_error(&s, err), NPYDT_OK);
            assert_int_not_equal(err->code, NPYDT_OK);
            st = err->code;
            break;
        }
        if (!a.release)
            break;
        a.release(&a);
    }
    s.release(&s);
    return st;
}

static void test_arrow_ipc_truncated_streams_are_errors(void **state)
{
    (void)state;
    struct membuf m = fixture_stream("struct_subarray_of_struct.npy", 1);
    size_t ends = 0;
    for (size_t n = 0; n < m.len; n++) {
        TEST_ERROR(err);
        npydt_status st = drain(m.p, n, NULL, &err);
        if (st == NPYDT_OK) {
            ends++;   /* cut between two messages: the end, as readers take it */
            continue;
        }
        assert_int_equal(st, NPYDT_E_DATA);
        assert_true(err.offset == NPYDT_NO_OFFSET || err.offset <= n);
        assert_non_null(strstr(err.message, "Arrow IPC"));
    }
    assert_true(ends < 10);
    free(m.p);
}

static void test_arrow_ipc_corrupted_bytes_never_crash(void **state)
{
    (void)state;
    struct membuf m = fixture_stream("struct_subarray_of_struct.npy", 2);
    unsigned char *c = malloc(m.len);
    assert_non_null(c);
    size_t failed = 0;
    for (size_t i = 0; i < m.len; i++)
        for (unsigned x = 1; x < 256; x <<= 2) {
            memcpy(c, m.p, m.len);
            c[i] ^= (unsigned char)x;
            TEST_ERROR(err);
            npydt_status st = drain(c, m.len, NULL, &err);
            if (st != NPYDT_OK) {
                failed++;
                assert_true(err.message[0] != '\0');
                assert_int_equal(err.code, st);
            }
        }
    assert_true(failed > m.len);
    free(c);
    free(m.p);
}

static void test_arrow_ipc_limits_are_errors(void **state)
{
    (void)state;
    struct membuf m = fixture_stream("struct_nested_subarray.npy", 0);
    npydt_arrow_ipc_options o;
    TEST_ERROR(err);
    npydt_arrow_ipc_options_init(&o);
    o.max_message_bytes = 64;
    assert_int_equal(drain(m.p, m.len, &o, &err), NPYDT_E_LIMIT);
    assert_non_null(strstr(err.message, "max_message_bytes"));
    npydt_arrow_ipc_options_init(&o);
    o.base.limits.max_depth = 2;
    assert_int_equal(drain(m.p, m.len, &o, &err), NPYDT_E_LIMIT);
    assert_non_null(strstr(err.message, "nesting"));
    npydt_arrow_ipc_options_init(&o);
    o.base.limits.max_fields = 2;
    assert_int_equal(drain(m.p, m.len, &o, &err), NPYDT_E_LIMIT);
    assert_non_null(strstr(err.message, "max_fields"));
    npydt_arrow_ipc_options_init(&o);
    o.reserved[0] = 1;
    assert_int_equal(drain(m.p, m.len, &o, &err), NPYDT_E_ARG);
    free(m.p);
}

/* The position of field id of the table at t (0: absent), by the
 * Flatbuffers layout. */
static size_t fb_field(const unsigned char *p, size_t t, unsigned id)
{
    size_t vt = t - (size_t)(int32_t)le32(p + t);
    if (4 + 2 * id >= le16(p + vt))
        return 0;
    size_t off = le16(p + vt + 4 + 2 * id);
    return off ? t + off : 0;
}

static size_t fb_deref(const unsigned char *p, size_t at)
{
    return at + le32(p + at);
}

static void test_arrow_ipc_unread_type_names_field_and_type(void **state)
{
    (void)state;
    struct membuf m = fixture_stream("scalar_b1.npy", 0);
    /* Message -> Schema -> fields[0] -> type_type, made Union (14) */
    unsigned char *meta = m.p + 8;
    size_t msg = fb_deref(meta, 0);
    size_t schema = fb_deref(meta, fb_field(meta, msg, 2));
    size_t fields = fb_deref(meta, fb_field(meta, schema, 1));
    size_t f0 = fb_deref(meta, fields + 4);
    size_t tt = fb_field(meta, f0, 2);
    assert_int_equal(meta[tt], 6);   /* Bool */
    meta[tt] = 14;
    TEST_ERROR(err);
    assert_int_equal(drain(m.p, m.len, NULL, &err), NPYDT_E_TYPE);
    assert_string_equal(err.path, "value");
    assert_string_equal(err.message, "Arrow IPC: Arrow type Union is not one npydt reads");
    free(m.p);
}

/* tests/consumers/arrow_js_stream.arrows, written by Arrow JS
 * (arrow_js_stream.mjs beside it): Arrow's own writer, read here. */
static void test_arrow_ipc_reads_a_stream_arrow_js_wrote(void **state)
{
    (void)state;
    FILE *f = fopen(test_fixture("../consumers/arrow_js_stream.arrows"), "rb");
    assert_non_null(f);
    unsigned char buf[4096];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(len > 0 && len < sizeof buf);
    TEST_ERROR(err);
    struct ArrowArrayStream s;
    const uint16_t one = 1;
    if (*(const unsigned char *)&one == 0) {
        /* a big-endian host refuses a little-endian stream (doc/api.md) */
        assert_int_equal(npydt_arrow_ipc_open_buffer(buf, len, NULL, &s, &err), NPYDT_E_VALUE);
        return;
    }
    if (npydt_arrow_ipc_open_buffer(buf, len, NULL, &s, &err) != NPYDT_OK)
        fail_msg("%s", err.message);
    struct ArrowSchema sc;
    assert_int_equal(s.get_schema(&s, &sc), 0);
    const char *formats[] = {"i", "g", "u", "b", "+w:2", "+s"};
    assert_int_equal(sc.n_children, 6);
    for (int i = 0; i < 6; i++)
        assert_string_equal(sc.children[i]->format, formats[i]);
    assert_string_equal(sc.children[5]->children[1]->name, "y");
    struct ArrowArray a;
    assert_int_equal(s.get_next(&s, &a), 0);
    assert_int_equal(a.length, 5);
    const struct ArrowArray *i32 = a.children[0], *f64 = a.children[1], *u = a.children[2];
    const struct ArrowArray *b = a.children[3], *l = a.children[4], *p = a.children[5];
    assert_int_equal(i32->null_count, 1);
    assert_false(valid(i32, 2));
    assert_int_equal(((const int32_t *)i32->buffers[1])[4], 2147483647);
    assert_true(isnan(((const double *)f64->buffers[1])[1]));
    assert_true(((const double *)f64->buffers[1])[2] == (double)-1e300);
    const int32_t *o = u->buffers[1];
    assert_int_equal(o[5] - o[4], 5);
    assert_memory_equal((const char *)u->buffers[2] + o[4], "x\xf0\x9f\x98\x80", 5);
    assert_int_equal(bit(b->buffers[1], 0), 1);
    assert_int_equal(bit(b->buffers[1], 1), 0);
    assert_false(valid(l, 2));
    assert_int_equal(l->children[0]->length, 10);
    assert_int_equal(((const int16_t *)l->children[0]->buffers[1])[9], 10);
    assert_false(valid(p, 2));
    assert_false(valid(p->children[1], 3));
    assert_int_equal(((const int32_t *)p->children[0]->buffers[1])[4], 5);
    a.release(&a);
    assert_int_equal(s.get_next(&s, &a), 0);
    assert_null(a.release);
    sc.release(&sc);
    s.release(&s);
}

/* ---- the writer on arrays of other producers ------------------------------------- */

struct hand {
    struct ArrowSchema root, kids[3], *kidp[3];
    struct ArrowArray aroot, akids[3], *akidp[3];
    const void *rootbufs[1], *bufs[3][3];
    int given;
};

static void no_release_schema(struct ArrowSchema *s) { s->release = NULL; }
static void no_release_array(struct ArrowArray *a) { a->release = NULL; }

static int hand_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    struct hand *h = s->private_data;
    *out = h->root;
    return 0;
}

static int hand_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    struct hand *h = s->private_data;
    out->release = NULL;
    if (h->given++ == 0)
        *out = h->aroot;
    return 0;
}

static const char *hand_error(struct ArrowArrayStream *s)
{
    (void)s;
    return NULL;
}

static void hand_release(struct ArrowArrayStream *s) { s->release = NULL; }

/* A batch of three columns: bool bits from bit 3, int16 from element 1,
 * text whose offsets start at 5; two rows, the struct itself at offset 1. */
static void hand_init(struct hand *h, struct ArrowArrayStream *s, const char *f2)
{
    static const unsigned char bools[] = {0xA8, 0x01};
    static const int16_t ints[] = {-1, 7, -300, 12};
    static const int32_t offs[] = {5, 6, 9, 12};
    static const char text[] = "xxxxxabcdefghi";
    static const unsigned char valid[] = {0x05};                  /* 1 0 1 */
    memset(h, 0, sizeof *h);
    const char *formats[3] = {"b", "s", f2};
    const char *names[3] = {"flag", "n", "t"};
    for (int i = 0; i < 3; i++) {
        h->kids[i] = (struct ArrowSchema){formats[i], names[i], NULL, 0, 0, NULL, NULL,
                                          no_release_schema, NULL};
        h->kidp[i] = &h->kids[i];
        h->akidp[i] = &h->akids[i];
    }
    h->root = (struct ArrowSchema){"+s", "", NULL, 0, 3, h->kidp, NULL, no_release_schema, NULL};
    h->bufs[0][1] = bools;
    h->akids[0] = (struct ArrowArray){3, 0, 2, 2, 0, h->bufs[0], NULL, NULL, no_release_array, NULL};
    h->bufs[1][0] = valid;
    h->bufs[1][1] = ints;
    h->akids[1] = (struct ArrowArray){3, 1, 0, 2, 0, h->bufs[1], NULL, NULL, no_release_array, NULL};
    h->bufs[2][1] = offs;
    h->bufs[2][2] = text;
    h->akids[2] = (struct ArrowArray){3, 0, 0, 3, 0, h->bufs[2], NULL, NULL, no_release_array, NULL};
    h->aroot = (struct ArrowArray){2, 0, 1, 1, 3, h->rootbufs, h->akidp, NULL, no_release_array,
                                   NULL};
    *s = (struct ArrowArrayStream){hand_schema, hand_next, hand_error, hand_release, h};
}

static void test_arrow_ipc_writer_honours_offsets(void **state)
{
    (void)state;
    struct hand h;
    struct ArrowArrayStream s;
    hand_init(&h, &s, "u");
    struct membuf m = write_stream(&s);
    TEST_ERROR(err);
    struct ArrowArrayStream got;
    assert_int_equal(npydt_arrow_ipc_open_buffer(m.p, m.len, NULL, &got, &err), NPYDT_OK);
    struct ArrowArray a;
    assert_int_equal(got.get_next(&got, &a), 0);
    assert_int_equal(a.length, 2);
    /* rows 1 and 2 of each column (the struct's offset, then the column's) */
    struct ArrowArray *flag = a.children[0], *n = a.children[1], *t = a.children[2];
    assert_int_equal(bit(flag->buffers[1], 0), 1);    /* bits 1 + 2 and 4 of 0xA8 */
    assert_int_equal(bit(flag->buffers[1], 1), 0);
    assert_int_equal(n->null_count, 1);
    assert_int_equal(bit(n->buffers[0], 0), 0);
    assert_int_equal(((const int16_t *)n->buffers[1])[1], -300);
    const int32_t *o = t->buffers[1];
    assert_int_equal(o[0], 0);
    assert_int_equal(o[2], 6);
    assert_memory_equal(t->buffers[2], "bcdefg", 6);
    a.release(&a);
    assert_int_equal(got.get_next(&got, &a), 0);
    assert_null(a.release);
    got.release(&got);
    free(m.p);
}

static void test_arrow_ipc_writer_refuses_unknown_format_naming_field(void **state)
{
    (void)state;
    struct hand h;
    struct ArrowArrayStream s;
    hand_init(&h, &s, "+l");
    struct membuf m = {0};
    npydt_npz_sink sink = {mem_write, NULL, &m};
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_ipc_write(&s, &sink, NULL, NULL, &err), NPYDT_E_TYPE);
    assert_string_equal(err.path, "t");
    assert_string_equal(err.message, "Arrow format '+l' cannot be written as Arrow IPC by npydt");
    assert_int_equal(m.len, 0);
    free(m.p);
}

static void test_arrow_ipc_allocation_failures_leave_nothing(void **state)
{
    (void)state;
    struct membuf m = fixture_stream("struct_subarray_of_struct.npy", 1);
    bool wrote = false, read = false;
    for (long n = 0; !(wrote && read); n++) {
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        npydt_arrow_ipc_options o;
        npydt_arrow_ipc_options_init(&o);
        o.base.allocator = &ta.alloc;
        TEST_ERROR(err);
        npydt_status st = drain(m.p, m.len, &o, &err);
        assert_true(st == NPYDT_OK || st == NPYDT_E_NOMEM);
        read = read || st == NPYDT_OK;
        npydt_reader *r;
        struct ArrowArrayStream s;
        open_export("struct_subarray_of_struct.npy", 1, &r, &s);
        struct membuf w = {0};
        npydt_npz_sink sink = {mem_write, NULL, &w};
        st = npydt_arrow_ipc_write(&s, &sink, &o, NULL, &err);
        assert_true(st == NPYDT_OK || st == NPYDT_E_NOMEM);
        wrote = wrote || st == NPYDT_OK;
        s.release(&s);
        npydt_reader_close(r);
        free(w.p);
        assert_int_equal(ta.live_blocks, 0);
        assert_true(n < 10000);
    }
    free(m.p);
}

TEST_LIST("arrow_ipc",
          cmocka_unit_test(test_arrow_ipc_round_trip_every_fixture),
          cmocka_unit_test(test_arrow_batch_of_picked_records_is_the_streams),
          cmocka_unit_test(test_arrow_ipc_reads_a_pipe_message_by_message),
          cmocka_unit_test(test_arrow_ipc_framing_follows_the_format),
          cmocka_unit_test(test_arrow_ipc_truncated_streams_are_errors),
          cmocka_unit_test(test_arrow_ipc_corrupted_bytes_never_crash),
          cmocka_unit_test(test_arrow_ipc_limits_are_errors),
          cmocka_unit_test(test_arrow_ipc_unread_type_names_field_and_type),
          cmocka_unit_test(test_arrow_ipc_reads_a_stream_arrow_js_wrote),
          cmocka_unit_test(test_arrow_ipc_writer_honours_offsets),
          cmocka_unit_test(test_arrow_ipc_writer_refuses_unknown_format_naming_field),
          cmocka_unit_test(test_arrow_ipc_allocation_failures_leave_nothing));

/* Writing .npz archives: byte for byte what np.savez, np.savez_compressed
 * and np.savez_compressed on a pipe write (tests/fixtures_npz, from
 * tests/gen_npz_fixtures.py), read back by the library's reader, Zip64
 * fields past 2**31 - 1 bytes and 65535 members, refused names, sticky
 * sink errors, and every allocation failed in turn. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The keys of tests/gen_npz_fixtures.py's arrays(), in savez order. */
static const char *const keys[] = {
    "ints", "fortran", "big_endian", "records", "aligned",
    "empty", "empty_records", "scalar", "text", "dates", "v3",
};
#define NKEYS (sizeof keys / sizeof keys[0])

static const char *npz_path(const char *name)
{
    static char path[1024];
    const char *dir = getenv("FIXTURES_NPZ");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fixtures_npz", name);
    return path;
}

/* ---- sinks ------------------------------------------------------------------ */

/* The archive in memory; fail_after: the write or pwrite call that fails
 * (counting from 0), -1 for none. */
struct mem_sink {
    unsigned char *data;
    size_t len, cap;
    long calls, fail_after;
    long pwrites;
};

static int mem_write(void *ctx, const void *buf, size_t len)
{
    struct mem_sink *m = ctx;
    if (m->fail_after >= 0 && m->calls++ >= m->fail_after)
        return -1;
    if (m->cap - m->len < len) {
        size_t cap = m->cap ? m->cap : 4096;
        while (cap - m->len < len)
            cap *= 2;
        m->data = realloc(m->data, cap);
        assert_non_null(m->data);
        m->cap = cap;
    }
    memcpy(m->data + m->len, buf, len);
    m->len += len;
    return 0;
}

static int mem_pwrite(void *ctx, const void *buf, size_t len, uint64_t offset)
{
    struct mem_sink *m = ctx;
    if (m->fail_after >= 0 && m->calls++ >= m->fail_after)
        return -1;
    assert_true(offset <= m->len && len <= m->len - offset);
    memcpy(m->data + offset, buf, len);
    m->pwrites++;
    return 0;
}

static void mem_init(struct mem_sink *m)
{
    memset(m, 0, sizeof *m);
    m->fail_after = -1;
}

static npydt_npz_writer *new_writer(struct mem_sink *m, int seekable,
                                    const npydt_npz_options *opts)
{
    npydt_npz_sink sink = {mem_write, seekable ? mem_pwrite : NULL, m};
    npydt_npz_writer *w = NULL;
    npydt_error err;
    if (npydt_npz_writer_new(&sink, opts, &w, &err) != NPYDT_OK)
        fail_msg("writer_new: %s", err.message);
    return w;
}

static void ok(npydt_status st, const npydt_error *err)
{
    if (st != NPYDT_OK)
        fail_msg("%s: %s", npydt_status_name(st), err->message);
}

/* One member, written `step` bytes at a time. */
static void put_member(npydt_npz_writer *w, const char *name, npydt_npz_method method,
                       const unsigned char *bytes, size_t len, size_t step)
{
    npydt_error err;
    ok(npydt_npz_writer_begin(w, name, method, &err), &err);
    for (size_t i = 0; i < len; i += step)
        ok(npydt_npz_writer_write(w, bytes + i, len - i < step ? len - i : step, &err), &err);
    ok(npydt_npz_writer_end(w, &err), &err);
}

/* ---- what NumPy writes ----------------------------------------------------- */

/* The arrays saved alone are the members' bytes: written in savez order
 * they must give NumPy's archive exactly. */
static void check_same_as_numpy(const char *archive, npydt_npz_method method, int seekable,
                                size_t step)
{
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, seekable, NULL);
    for (size_t i = 0; i < NKEYS; i++) {
        char name[64], alone[96];
        snprintf(name, sizeof name, "%s.npy", keys[i]);
        snprintf(alone, sizeof alone, "alone/%s", name);
        size_t len;
        unsigned char *bytes = test_read_file(npz_path(alone), &len);
        put_member(w, name, method, bytes, len, step);
        free(bytes);
    }
    uint64_t size = 0;
    npydt_error err;
    ok(npydt_npz_writer_finish(w, &size, &err), &err);
    npydt_npz_writer_free(w);
    assert_int_equal(size, m.len);
    size_t want_len;
    unsigned char *want = test_read_file(npz_path(archive), &want_len);
    assert_int_equal(m.len, want_len);
    assert_memory_equal(m.data, want, want_len);
    assert_int_equal(m.pwrites, seekable ? (long)NKEYS : 0);
    free(want);
    free(m.data);
}

static void test_npz_write_stored_is_savez(void **state)
{
    (void)state;
    check_same_as_numpy("savez.npz", NPYDT_NPZ_STORED, 1, 1u << 20);
}

static void test_npz_write_stored_in_small_pieces_is_savez(void **state)
{
    (void)state;
    check_same_as_numpy("savez.npz", NPYDT_NPZ_STORED, 1, 3);
}

static void test_npz_write_deflated_is_savez_compressed(void **state)
{
    (void)state;
    check_same_as_numpy("savez_compressed.npz", NPYDT_NPZ_DEFLATED, 1, 1u << 20);
}

static void test_npz_write_deflated_in_small_pieces_is_savez_compressed(void **state)
{
    (void)state;
    check_same_as_numpy("savez_compressed.npz", NPYDT_NPZ_DEFLATED, 1, 5);
}

static void test_npz_write_unseekable_is_savez_to_a_pipe(void **state)
{
    (void)state;
    check_same_as_numpy("savez_stream.npz", NPYDT_NPZ_DEFLATED, 0, 1u << 20);
}

static void test_npz_write_no_members_is_empty_savez(void **state)
{
    (void)state;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, 1, NULL);
    npydt_error err;
    ok(npydt_npz_writer_finish(w, NULL, &err), &err);
    npydt_npz_writer_free(w);
    size_t want_len;
    unsigned char *want = test_read_file(npz_path("empty.npz"), &want_len);
    assert_int_equal(m.len, want_len);
    assert_memory_equal(m.data, want, want_len);
    free(want);
    free(m.data);
}

/* ---- read back ---------------------------------------------------------------- */

static unsigned char *read_all(const npydt_npz *z, size_t i, size_t *len)
{
    const npydt_npz_member *m = npydt_npz_member_at(z, i);
    unsigned char *out = malloc(m->uncompressed_size + 1);
    assert_non_null(out);
    npydt_npz_stream *s;
    npydt_error err;
    ok(npydt_npz_stream_open(z, i, &s, &err), &err);
    size_t total = 0, got;
    do {
        ok(npydt_npz_stream_read(s, out + total, m->uncompressed_size + 1 - total, &got, &err),
           &err);
        total += got;
    } while (got > 0);
    npydt_npz_stream_close(s);
    *len = total;
    return out;
}

/* Bytes that deflate in several blocks and buffers: a pattern with noise. */
static unsigned char *pattern(size_t n, unsigned seed)
{
    unsigned char *p = malloc(n ? n : 1);
    assert_non_null(p);
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (unsigned char)((i % 251) ^ ((x >> 24) & 0x0F));
    }
    return p;
}

static void round_trip(int seekable, size_t buffer_size)
{
    static const size_t sizes[] = {0, 1, 100, 65536, 300000};
    const char *names[] = {"a.npy", "dir/b.npy", "caf\xc3\xa9.npy", "\xcf\x80", "e"};
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.buffer_size = buffer_size;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, seekable, &opts);
    unsigned char *data[5];
    for (size_t i = 0; i < 5; i++) {
        data[i] = pattern(sizes[i], (unsigned)i);
        put_member(w, names[i], i % 2 ? NPYDT_NPZ_STORED : NPYDT_NPZ_DEFLATED, data[i],
                   sizes[i], 7777);
    }
    npydt_error err;
    ok(npydt_npz_writer_finish(w, NULL, &err), &err);
    npydt_npz_writer_free(w);
    npydt_npz *z;
    ok(npydt_npz_open_buffer(m.data, m.len, NULL, &z, &err), &err);
    assert_int_equal(npydt_npz_count(z), 5);
    for (size_t i = 0; i < 5; i++) {
        const npydt_npz_member *mem = npydt_npz_member_at(z, i);
        assert_string_equal(mem->name, names[i]);
        assert_int_equal(mem->method, i % 2 ? NPYDT_NPZ_STORED : NPYDT_NPZ_DEFLATED);
        assert_int_equal(mem->uncompressed_size, sizes[i]);
        /* non-ASCII names are flagged UTF-8, as zipfile writes them */
        assert_int_equal(!!(mem->flags & 0x0800), i == 2 || i == 3);
        assert_int_equal(!!(mem->flags & 0x0008), !seekable);
        size_t len;
        unsigned char *back = read_all(z, i, &len);
        assert_int_equal(len, sizes[i]);
        if (len)
            assert_memory_equal(back, data[i], len);
        free(back);
        free(data[i]);
    }
    npydt_npz_close(z);
    free(m.data);
}

static void test_npz_write_round_trip_seekable(void **state)
{
    (void)state;
    round_trip(1, 64 << 10);
}

static void test_npz_write_round_trip_descriptors(void **state)
{
    (void)state;
    round_trip(0, 64 << 10);
}

static void test_npz_write_round_trip_tiny_buffer(void **state)
{
    (void)state;
    round_trip(1, 1);
}

/* ---- Zip64 ---------------------------------------------------------------------- */

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t rd16(const unsigned char *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static uint64_t rd64(const unsigned char *p)
{
    return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static void test_npz_write_65536_members_get_zip64_end_records(void **state)
{
    (void)state;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, 1, NULL);
    char name[32];
    for (unsigned i = 0; i < 65536; i++) {
        snprintf(name, sizeof name, "m%u", i);
        put_member(w, name, NPYDT_NPZ_STORED, (const unsigned char *)"", 0, 1);
    }
    npydt_error err;
    ok(npydt_npz_writer_finish(w, NULL, &err), &err);
    npydt_npz_writer_free(w);
    /* end record: counts at the 16-bit sentinel; locator, Zip64 record */
    const unsigned char *eocd = m.data + m.len - 22;
    assert_int_equal(rd32(eocd), 0x06054b50u);
    assert_int_equal(rd16(eocd + 8), 0xFFFF);
    assert_int_equal(rd16(eocd + 10), 0xFFFF);
    const unsigned char *loc = eocd - 20;
    assert_int_equal(rd32(loc), 0x07064b50u);
    const unsigned char *rec = m.data + rd64(loc + 8);
    assert_int_equal(rd32(rec), 0x06064b50u);
    assert_int_equal(rd64(rec + 32), 65536);
    assert_int_equal(rd64(rec + 48), rd32(eocd + 16)); /* offset fits 32 bits here */
    npydt_npz *z;
    ok(npydt_npz_open_buffer(m.data, m.len, NULL, &z, &err), &err);
    assert_int_equal(npydt_npz_count(z), 65536);
    assert_string_equal(npydt_npz_member_at(z, 65535)->name, "m65535");
    npydt_npz_close(z);
    free(m.data);
}

static void test_npz_write_65535_members_need_no_zip64(void **state)
{
    (void)state;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, 1, NULL);
    char name[32];
    for (unsigned i = 0; i < 65535; i++) {
        snprintf(name, sizeof name, "m%u", i);
        put_member(w, name, NPYDT_NPZ_STORED, (const unsigned char *)"", 0, 1);
    }
    npydt_error err;
    ok(npydt_npz_writer_finish(w, NULL, &err), &err);
    npydt_npz_writer_free(w);
    const unsigned char *eocd = m.data + m.len - 22;
    assert_int_equal(rd16(eocd + 10), 0xFFFF);
    assert_int_not_equal(rd32(eocd - 20), 0x07064b50u);
    npydt_npz *z;
    ok(npydt_npz_open_buffer(m.data, m.len, NULL, &z, &err), &err);
    assert_int_equal(npydt_npz_count(z), 65535);
    npydt_npz_close(z);
    free(m.data);
}

/* A last name whose final 20 bytes read as a Zip64 locator (naming disk
 * "abcd") gets real Zip64 end records before the end record, so that
 * readers, Python's zipfile among them, find the true locator there. */
/* A sink that keeps only the first 4 KiB of the archive and everything
 * from `keep_from` on: room for headers around 2 GiB of data. */
struct sparse_sink {
    unsigned char head[4096];
    unsigned char *tail;
    size_t tail_len, tail_cap;
    uint64_t keep_from, len;
};

static int sparse_write(void *ctx, const void *buf, size_t len)
{
    struct sparse_sink *s = ctx;
    const unsigned char *p = buf;
    uint64_t start = s->len, end = s->len + len;
    if (start < sizeof s->head)
        memcpy(s->head + start, p, (size_t)((end < sizeof s->head ? end : sizeof s->head) - start));
    if (end > s->keep_from) {
        uint64_t from = start > s->keep_from ? start : s->keep_from;
        size_t n = (size_t)(end - from);
        if (s->tail_cap - s->tail_len < n) {
            while (s->tail_cap - s->tail_len < n)
                s->tail_cap = s->tail_cap ? s->tail_cap * 2 : 4096;
            s->tail = realloc(s->tail, s->tail_cap);
            assert_non_null(s->tail);
        }
        memcpy(s->tail + s->tail_len, p + (from - start), n);
        s->tail_len += n;
    }
    s->len = end;
    return 0;
}

static int sparse_pwrite(void *ctx, const void *buf, size_t len, uint64_t offset)
{
    struct sparse_sink *s = ctx;
    if (offset >= s->keep_from) {
        assert_true(offset - s->keep_from + len <= s->tail_len);
        memcpy(s->tail + (offset - s->keep_from), buf, len);
    } else {
        assert_true(offset + len <= sizeof s->head);
        memcpy(s->head + offset, buf, len);
    }
    return 0;
}

/* The last directory entry's 4 bytes 20 before its end are where a reader
 * looks for the Zip64 locator. With a 16-byte name they are the member's
 * offset: at 0x07064b50 they read as the locator's signature, and real
 * Zip64 end records follow the directory (a name cannot end like a
 * locator: the signature holds control characters, which are refused). */
static void test_npz_write_entry_ending_like_locator_gets_zip64_end_records(void **state)
{
    (void)state;
    const uint64_t at = 0x07064b50u;
    static struct sparse_sink s;
    memset(&s, 0, sizeof s);
    s.keep_from = at;
    npydt_npz_sink sink = {sparse_write, sparse_pwrite, &s};
    npydt_npz_writer *w;
    npydt_error err;
    ok(npydt_npz_writer_new(&sink, NULL, &w, &err), &err);
    size_t chunk = 1 << 22;
    unsigned char *zeros = calloc(1, chunk);
    assert_non_null(zeros);
    uint64_t first = at - (30 + 1 + 20); /* "a": local header, name, Zip64 extra */
    ok(npydt_npz_writer_begin(w, "a", NPYDT_NPZ_STORED, &err), &err);
    for (uint64_t done = 0; done < first; done += chunk)
        ok(npydt_npz_writer_write(w, zeros, first - done < chunk ? (size_t)(first - done) : chunk,
                                  &err),
           &err);
    ok(npydt_npz_writer_end(w, &err), &err);
    free(zeros);
    put_member(w, "sixteen_bytes.np", NPYDT_NPZ_STORED, (const unsigned char *)"xyz", 3, 3);
    ok(npydt_npz_writer_finish(w, NULL, &err), &err);
    npydt_npz_writer_free(w);

    assert_int_equal(rd32(s.tail), 0x04034b50u);   /* the second member's local header */
    const unsigned char *end = s.tail + s.tail_len;
    const unsigned char *eocd = end - 22, *loc = eocd - 20, *rec = loc - 56;
    assert_int_equal(rd32(eocd), 0x06054b50u);
    assert_int_equal(rd32(loc), 0x07064b50u);
    assert_int_equal(rd32(loc + 4), 0);
    assert_int_equal(rd64(loc + 8), (uint64_t)(rec - s.tail) + s.keep_from);
    assert_int_equal(rd32(rec), 0x06064b50u);
    assert_int_equal(rd64(rec + 32), 2);
    /* the entry before the record: its offset field is the false signature */
    assert_int_equal(rd32(rec - 20), 0x07064b50u);
    assert_memory_equal(rec - 16, "sixteen_bytes.np", 16);
    free(s.tail);
}

static void test_npz_write_zip64_fields_past_2gib(void **state)
{
    (void)state;
    const uint64_t big = ((uint64_t)1 << 31) + 4096; /* above zipfile's ZIP64_LIMIT */
    static struct sparse_sink s;
    memset(&s, 0, sizeof s);
    s.keep_from = big;
    npydt_npz_sink sink = {sparse_write, sparse_pwrite, &s};
    npydt_npz_writer *w;
    npydt_error err;
    ok(npydt_npz_writer_new(&sink, NULL, &w, &err), &err);
    size_t chunk = 1 << 22;
    unsigned char *zeros = calloc(1, chunk);
    assert_non_null(zeros);
    ok(npydt_npz_writer_begin(w, "big.npy", NPYDT_NPZ_STORED, &err), &err);
    for (uint64_t done = 0; done < big; done += chunk)
        ok(npydt_npz_writer_write(w, zeros, big - done < chunk ? (size_t)(big - done) : chunk,
                                  &err),
           &err);
    ok(npydt_npz_writer_end(w, &err), &err);
    put_member(w, "after.npy", NPYDT_NPZ_STORED, (const unsigned char *)"xyz", 3, 3);
    ok(npydt_npz_writer_finish(w, NULL, &err), &err);
    npydt_npz_writer_free(w);
    free(zeros);

    /* local header of big.npy: version 4.5, sentinel sizes, the Zip64 extra */
    const unsigned char *l = s.head;
    assert_int_equal(rd32(l), 0x04034b50u);
    assert_int_equal(rd16(l + 4), 45);
    assert_int_equal(rd32(l + 18), 0xFFFFFFFFu);
    assert_int_equal(rd32(l + 22), 0xFFFFFFFFu);
    assert_int_equal(rd16(l + 28), 20);
    const unsigned char *x = l + 30 + 7;
    assert_int_equal(rd16(x), 1);
    assert_int_equal(rd16(x + 2), 16);
    assert_int_equal(rd64(x + 4), big);
    assert_int_equal(rd64(x + 12), big);
    uint64_t data0 = 30 + 7 + 20;
    /* after.npy's local header lies right after big.npy's data */
    uint64_t after = data0 + big;
    assert_true(after >= s.keep_from);
    const unsigned char *t = s.tail + (after - s.keep_from);
    assert_int_equal(rd32(t), 0x04034b50u);
    assert_int_equal(rd16(t + 4), 20);
    uint64_t cd = after + 30 + 9 + 20 + 3;
    const unsigned char *c = s.tail + (cd - s.keep_from);
    /* big.npy: sizes in the extra, offset 0 in the entry */
    assert_int_equal(rd32(c), 0x02014b50u);
    assert_int_equal(rd16(c + 4), 3 << 8 | 45);
    assert_int_equal(rd16(c + 6), 45);
    assert_int_equal(rd32(c + 20), 0xFFFFFFFFu);
    assert_int_equal(rd32(c + 24), 0xFFFFFFFFu);
    assert_int_equal(rd16(c + 30), 4 + 16);
    assert_int_equal(rd32(c + 42), 0);
    x = c + 46 + 7;
    assert_int_equal(rd64(x + 4), big);
    assert_int_equal(rd64(x + 12), big);
    /* after.npy: real sizes, the offset in the extra */
    c = x + 20;
    assert_int_equal(rd32(c), 0x02014b50u);
    assert_int_equal(rd16(c + 4), 3 << 8 | 45);
    assert_int_equal(rd32(c + 20), 3);
    assert_int_equal(rd32(c + 42), 0xFFFFFFFFu);
    assert_int_equal(rd16(c + 30), 4 + 8);
    assert_int_equal(rd64(c + 46 + 9 + 4), after);
    /* Zip64 end record (the directory starts past 2**31 - 1), locator, end */
    const unsigned char *rec = c + 46 + 9 + 12;
    assert_int_equal(rd32(rec), 0x06064b50u);
    assert_int_equal(rd64(rec + 32), 2);
    assert_int_equal(rd64(rec + 48), cd);
    const unsigned char *eocd = rec + 56 + 20;
    assert_int_equal(rd32(eocd), 0x06054b50u);
    assert_int_equal(rd16(eocd + 10), 2);
    assert_int_equal(rd32(eocd + 16), cd); /* below 2**32: the value, as zipfile writes */
    assert_int_equal(s.len, (uint64_t)(eocd + 22 - s.tail) + s.keep_from);
    free(s.tail);
}

/* ---- refusals -------------------------------------------------------------------- */

static void test_npz_write_refuses_bad_names_and_goes_on(void **state)
{
    (void)state;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, 1, NULL);
    const char *bad[] = {"", "../a.npy", "x/../a", "a\\..\\b", "..", "\xff.npy", "\xed\xa0\x80"};
    npydt_error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        test_poison_error(&err);
        assert_int_equal(npydt_npz_writer_begin(w, bad[i], NPYDT_NPZ_STORED, &err), NPYDT_E_ARG);
        test_assert_error_filled(NPYDT_E_ARG, &err);
    }
    char *longname = malloc(65537);
    assert_non_null(longname);
    memset(longname, 'n', 65536);
    longname[65536] = '\0';
    assert_int_equal(npydt_npz_writer_begin(w, longname, NPYDT_NPZ_STORED, &err), NPYDT_E_ARG);
    longname[65535] = '\0';   /* 65535 bytes is allowed */
    put_member(w, longname, NPYDT_NPZ_STORED, (const unsigned char *)"1", 1, 1);
    put_member(w, "a..b/..c/.npy", NPYDT_NPZ_STORED, (const unsigned char *)"2", 1, 1);
    assert_int_equal(npydt_npz_writer_begin(w, "a..b/..c/.npy", NPYDT_NPZ_DEFLATED, &err),
                     NPYDT_E_ARG);
    assert_non_null(strstr(err.message, "already"));
    assert_int_equal(npydt_npz_writer_begin(w, "m", (npydt_npz_method)12, &err), NPYDT_E_ARG);
    ok(npydt_npz_writer_finish(w, NULL, &err), &err);
    npydt_npz_writer_free(w);
    npydt_npz *z;
    ok(npydt_npz_open_buffer(m.data, m.len, NULL, &z, &err), &err);
    assert_int_equal(npydt_npz_count(z), 2);
    assert_int_equal(strlen(npydt_npz_member_at(z, 0)->name), 65535);
    npydt_npz_close(z);
    free(longname);
    free(m.data);
}

/* Names that would not extract as one file inside the target directory,
 * or that a terminal would act on, are refused with the reason, naming
 * the member; np.savez writes them, Python's zipfile strips them. */
static void test_npz_write_refuses_unsafe_names(void **state)
{
    (void)state;
    static const struct {
        const char *name, *message;
    } cases[] = {
        {"/etc/x.npy", "member '/etc/x.npy': the name is absolute (starts with '/' or '\\')"},
        {"/", "member '/': the name is absolute (starts with '/' or '\\')"},
        {"\\x.npy", "member '\\x5cx.npy': the name is absolute (starts with '/' or '\\')"},
        {"C:\\x.npy", "member 'C:\\x5cx.npy': the name starts with a drive ('X:')"},
        {"z:x.npy", "member 'z:x.npy': the name starts with a drive ('X:')"},
        {"dir/", "member 'dir/': the name ends with '/' or '\\' (a directory)"},
        {"a\x1b]0;x\a.npy", "member 'a\\x1b]0;x\\x07.npy': the name has a control character"},
        {"a\nb.npy", "member 'a\\x0ab.npy': the name has a control character"},
        {"a\x7f.npy", "member 'a\\x7f.npy': the name has a control character"},
        {"a\xc2\x9b.npy", "member 'a\\xc2\\x9b.npy': the name has a control character"},
        /* where a reader looks for the Zip64 locator */
        {"x.PK\x06\x07" "abcdefghijklmnop",
         "member 'x.PK\\x06\\x07abcdefghijklmnop': the name has a control character"},
    };
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, 1, NULL);
    npydt_error err;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(npydt_npz_writer_begin(w, cases[i].name, NPYDT_NPZ_STORED, &err),
                         NPYDT_E_ARG);
        assert_string_equal(err.message, cases[i].message);
    }
    /* a drive needs a letter; '\\' and ':' inside a name are plain bytes */
    put_member(w, "1:x.npy", NPYDT_NPZ_STORED, (const unsigned char *)"1", 1, 1);
    put_member(w, "a/b\\c:d.npy", NPYDT_NPZ_STORED, (const unsigned char *)"2", 1, 1);
    put_member(w, "caf\xc3\xa9.npy", NPYDT_NPZ_STORED, (const unsigned char *)"3", 1, 1);
    ok(npydt_npz_writer_finish(w, NULL, &err), &err);
    npydt_npz_writer_free(w);
    free(m.data);
}

/* The reader opens what the writer refuses to write (NumPy reads such
 * archives): an archive written with a safe name of the same length,
 * then renamed in its local header and central directory. */
static void test_npz_write_unsafe_names_are_read(void **state)
{
    (void)state;
    static const char *const names[] = {"/etc/x.npy", "C:\\x.npy", "a\x1b.npy", "/"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len = strlen(names[i]);
        char safe[16];
        memset(safe, 'q', len);
        safe[len] = '\0';
        struct mem_sink m;
        mem_init(&m);
        npydt_npz_writer *w = new_writer(&m, 1, NULL);
        put_member(w, safe, NPYDT_NPZ_STORED, (const unsigned char *)"1", 1, 1);
        npydt_error err;
        ok(npydt_npz_writer_finish(w, NULL, &err), &err);
        npydt_npz_writer_free(w);
        int renamed = 0;
        for (size_t k = 0; k + len <= m.len; k++)
            if (memcmp(m.data + k, safe, len) == 0) {
                memcpy(m.data + k, names[i], len);
                renamed++;
            }
        assert_int_equal(renamed, 2);
        npydt_npz *z;
        ok(npydt_npz_open_buffer(m.data, m.len, NULL, &z, &err), &err);
        assert_string_equal(npydt_npz_member_at(z, 0)->name, names[i]);
        npydt_npz_close(z);
        free(m.data);
    }
}

static void test_npz_write_calls_out_of_order_refused(void **state)
{
    (void)state;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, 1, NULL);
    npydt_error err;
    assert_int_equal(npydt_npz_writer_write(w, "x", 1, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_npz_writer_end(w, &err), NPYDT_E_ARG);
    ok(npydt_npz_writer_begin(w, "a", NPYDT_NPZ_STORED, &err), &err);
    assert_int_equal(npydt_npz_writer_begin(w, "b", NPYDT_NPZ_STORED, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_npz_writer_finish(w, NULL, &err), NPYDT_E_ARG);
    ok(npydt_npz_writer_end(w, &err), &err);
    ok(npydt_npz_writer_finish(w, NULL, &err), &err);
    assert_int_equal(npydt_npz_writer_begin(w, "c", NPYDT_NPZ_STORED, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_npz_writer_finish(w, NULL, &err), NPYDT_E_ARG);
    npydt_npz_writer_free(w);
    npydt_npz_writer_free(NULL);
    npydt_npz_sink nowrite = {NULL, NULL, NULL};
    assert_int_equal(npydt_npz_writer_new(&nowrite, NULL, &w, &err), NPYDT_E_ARG);
    assert_null(w);
    free(m.data);
}

static void test_npz_write_max_members_is_a_limit(void **state)
{
    (void)state;
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.max_members = 2;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, 1, &opts);
    put_member(w, "a", NPYDT_NPZ_STORED, (const unsigned char *)"", 0, 1);
    put_member(w, "b", NPYDT_NPZ_STORED, (const unsigned char *)"", 0, 1);
    npydt_error err;
    assert_int_equal(npydt_npz_writer_begin(w, "c", NPYDT_NPZ_STORED, &err), NPYDT_E_LIMIT);
    ok(npydt_npz_writer_finish(w, NULL, &err), &err);
    npydt_npz_writer_free(w);
    free(m.data);
}

/* A failing sink fails the writer for good, with the same error, at
 * whichever write it fails. */
static void test_npz_write_sink_error_is_sticky(void **state)
{
    (void)state;
    unsigned char *data = pattern(200000, 1);
    for (long fail_after = 0;; fail_after++) {
        struct mem_sink m;
        mem_init(&m);
        m.fail_after = fail_after;
        npydt_npz_writer *w = new_writer(&m, 1, NULL);
        npydt_error err, again;
        npydt_status st = npydt_npz_writer_begin(w, "a.npy", NPYDT_NPZ_DEFLATED, &err);
        for (int i = 0; i < 4 && st == NPYDT_OK; i++)
            st = npydt_npz_writer_write(w, data, 200000, &err);
        if (st == NPYDT_OK)
            st = npydt_npz_writer_end(w, &err);
        if (st == NPYDT_OK)
            st = npydt_npz_writer_finish(w, NULL, &err);
        if (st == NPYDT_OK) {
            /* the sink was never failed: every write and pwrite before was */
            assert_true(m.calls <= fail_after && fail_after > 4);
            npydt_npz_writer_free(w);
            free(m.data);
            break;
        }
        assert_int_equal(st, NPYDT_E_IO);
        assert_int_equal(err.code, NPYDT_E_IO);
        assert_int_equal(npydt_npz_writer_begin(w, "b.npy", NPYDT_NPZ_STORED, &again),
                         NPYDT_E_IO);
        assert_string_equal(again.message, err.message);
        assert_int_equal(npydt_npz_writer_finish(w, NULL, &again), NPYDT_E_IO);
        npydt_npz_writer_free(w);
        free(m.data);
    }
    free(data);
}

/* Write 40 members (every third deflated) through allocator a. */
static npydt_status write_forty(const npydt_allocator *a, struct mem_sink *m,
                                const unsigned char *data, npydt_error *err)
{
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.base.allocator = a;
    npydt_npz_sink sink = {mem_write, mem_pwrite, m};
    npydt_npz_writer *w;
    npydt_status st = npydt_npz_writer_new(&sink, &opts, &w, err);
    char name[16];
    for (int i = 0; i < 40 && st == NPYDT_OK; i++) {
        snprintf(name, sizeof name, "m%d", i);
        st = npydt_npz_writer_begin(w, name, i % 3 ? NPYDT_NPZ_STORED : NPYDT_NPZ_DEFLATED, err);
        if (st == NPYDT_OK)
            st = npydt_npz_writer_write(w, data, (size_t)i * 997, err);
        if (st == NPYDT_OK)
            st = npydt_npz_writer_end(w, err);
    }
    if (st == NPYDT_OK)
        st = npydt_npz_writer_finish(w, NULL, err);
    npydt_npz_writer_free(w);
    return st;
}

/* Every allocation failed in turn: NPYDT_E_NOMEM and nothing leaks; a
 * refused begin leaves the writer usable (the same name then succeeds). */
static void test_npz_write_allocation_failures(void **state)
{
    (void)state;
    unsigned char *data = pattern(40000, 3);
    struct mem_sink ref;
    mem_init(&ref);
    npydt_error err;
    ok(write_forty(NULL, &ref, data, &err), &err);
    for (long n = 0;; n++) {
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        struct mem_sink m;
        mem_init(&m);
        npydt_status st = write_forty(&ta.alloc, &m, data, &err);
        assert_int_equal(ta.live_blocks, 0);
        assert_int_equal(ta.live_bytes, 0);
        if (st == NPYDT_OK) {
            assert_true(ta.calls <= n);
            assert_int_equal(m.len, ref.len);
            assert_memory_equal(m.data, ref.data, ref.len);
            free(m.data);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        assert_int_equal(err.code, NPYDT_E_NOMEM);
        free(m.data);
    }
    /* a begin refused for memory leaves the writer as it was */
    struct test_alloc ta;
    test_alloc_init(&ta, 1, 0);   /* allocation 0 is the writer itself */
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.base.allocator = &ta.alloc;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_sink sink = {mem_write, mem_pwrite, &m};
    npydt_npz_writer *w;
    ok(npydt_npz_writer_new(&sink, &opts, &w, &err), &err);
    assert_int_equal(npydt_npz_writer_begin(w, "a.npy", NPYDT_NPZ_STORED, &err), NPYDT_E_NOMEM);
    assert_int_equal(m.len, 0);
    put_member(w, "a.npy", NPYDT_NPZ_STORED, data, 10, 10);
    ok(npydt_npz_writer_finish(w, NULL, &err), &err);
    npydt_npz_writer_free(w);
    assert_int_equal(ta.live_blocks, 0);
    npydt_npz *z;
    ok(npydt_npz_open_buffer(m.data, m.len, NULL, &z, &err), &err);
    assert_int_equal(npydt_npz_count(z), 1);
    npydt_npz_close(z);
    free(m.data);
    free(ref.data);
    free(data);
}


/* ---- arguments ---------------------------------------------------------------- */

static void test_npz_write_new_refuses_bad_arguments(void **state)
{
    (void)state;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_sink sink = {mem_write, mem_pwrite, &m};
    npydt_npz_writer *w = (npydt_npz_writer *)1;
    npydt_error err;
    assert_int_equal(npydt_npz_writer_new(&sink, NULL, NULL, &err), NPYDT_E_ARG);
    assert_string_equal(err.message, "out is NULL");
    assert_int_equal(npydt_npz_writer_new(NULL, NULL, &w, &err), NPYDT_E_ARG);
    assert_null(w);
    assert_string_equal(err.message, "the sink has no write");
    struct test_alloc ta;
    test_alloc_init(&ta, -1, 0);
    ta.alloc.free = NULL;
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.base.allocator = &ta.alloc;
    assert_int_equal(npydt_npz_writer_new(&sink, &opts, &w, &err), NPYDT_E_ARG);
    assert_string_equal(err.message, "allocator is missing a function");
    assert_int_equal(ta.calls, 0);
    assert_int_equal(m.calls, 0);
}

static void test_npz_write_null_writer_refused(void **state)
{
    (void)state;
    npydt_error err;
    uint64_t size = 7;
    assert_int_equal(npydt_npz_writer_begin(NULL, "a", NPYDT_NPZ_STORED, &err), NPYDT_E_ARG);
    assert_string_equal(err.message, "the writer is NULL");
    assert_int_equal(npydt_npz_writer_write(NULL, "x", 1, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_npz_writer_end(NULL, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_npz_writer_finish(NULL, &size, &err), NPYDT_E_ARG);
    assert_string_equal(err.message, "the writer is NULL");
    assert_int_equal(size, 7);
}

static void test_npz_write_null_name_and_buf_refused(void **state)
{
    (void)state;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, 1, NULL);
    npydt_error err;
    assert_int_equal(npydt_npz_writer_begin(w, NULL, NPYDT_NPZ_STORED, &err), NPYDT_E_ARG);
    assert_string_equal(err.message, "the name is NULL");
    assert_int_equal(m.len, 0);
    ok(npydt_npz_writer_begin(w, "a", NPYDT_NPZ_STORED, &err), &err);
    assert_int_equal(npydt_npz_writer_write(w, NULL, 1, &err), NPYDT_E_ARG);
    assert_string_equal(err.message, "buf is NULL");
    ok(npydt_npz_writer_write(w, NULL, 0, &err), &err);
    ok(npydt_npz_writer_end(w, &err), &err);
    uint64_t size = 0;
    ok(npydt_npz_writer_finish(w, &size, &err), &err);
    assert_int_equal(size, m.len);
    npydt_npz_writer_free(w);
    npydt_npz *z;
    ok(npydt_npz_open_buffer(m.data, m.len, NULL, &z, &err), &err);
    assert_int_equal(npydt_npz_member_at(z, 0)->uncompressed_size, 0);
    npydt_npz_close(z);
    free(m.data);
}

/* A refused name is shown with quotes, backslashes and DEL escaped. */
static void test_npz_write_refused_name_escaped(void **state)
{
    (void)state;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, 1, NULL);
    npydt_error err;
    assert_int_equal(npydt_npz_writer_begin(w, "a'\\\x7f/../b", NPYDT_NPZ_STORED, &err),
                     NPYDT_E_ARG);
    assert_string_equal(err.message, "member 'a\\x27\\x5c\\x7f/../b': the name has a '..' "
                                     "component");
    npydt_npz_writer_free(w);
    free(m.data);
}

/* A sink failure seen without an error struct is kept: the next call
 * reports it in full, and a call without one still returns it. */
static void test_npz_write_failure_without_err_kept(void **state)
{
    (void)state;
    struct mem_sink m;
    mem_init(&m);
    m.fail_after = 0;
    npydt_npz_writer *w = new_writer(&m, 1, NULL);
    assert_int_equal(npydt_npz_writer_begin(w, "a", NPYDT_NPZ_STORED, NULL), NPYDT_E_IO);
    assert_int_equal(npydt_npz_writer_end(w, NULL), NPYDT_E_IO);
    npydt_error err;
    assert_int_equal(npydt_npz_writer_finish(w, NULL, &err), NPYDT_E_IO);
    assert_string_equal(err.message, "the sink failed to write 51 bytes at offset 0");
    npydt_npz_writer_free(w);
    free(m.data);
}

/* A local header too long for the stack buffer (a name past 256 bytes) is
 * built in allocated memory: when that fails the writer fails for good. */
static void test_npz_write_long_local_header_allocation_failure_sticky(void **state)
{
    (void)state;
    struct test_alloc ta;
    test_alloc_init(&ta, -1, 0);
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.base.allocator = &ta.alloc;
    struct mem_sink m;
    mem_init(&m);
    npydt_npz_writer *w = new_writer(&m, 1, &opts);
    put_member(w, "a", NPYDT_NPZ_STORED, (const unsigned char *)"x", 1, 1);
    char name[301];
    memset(name, 'n', 300);
    name[300] = '\0';
    npydt_error err;
    ta.fail_at = ta.calls;       /* the names grow first: refused, writer kept */
    assert_int_equal(npydt_npz_writer_begin(w, name, NPYDT_NPZ_STORED, &err), NPYDT_E_NOMEM);
    ta.fail_at = ta.calls + 1;   /* then the local header's memory */
    assert_int_equal(npydt_npz_writer_begin(w, name, NPYDT_NPZ_STORED, &err), NPYDT_E_NOMEM);
    assert_string_equal(err.message, "out of memory");
    assert_int_equal(npydt_npz_writer_begin(w, "b", NPYDT_NPZ_STORED, &err), NPYDT_E_NOMEM);
    assert_int_equal(npydt_npz_writer_finish(w, NULL, &err), NPYDT_E_NOMEM);
    npydt_npz_writer_free(w);
    assert_int_equal(ta.live_blocks, 0);
    assert_int_equal(ta.live_bytes, 0);
    free(m.data);
}

TEST_LIST("npz_write",
    cmocka_unit_test(test_npz_write_stored_is_savez),
    cmocka_unit_test(test_npz_write_stored_in_small_pieces_is_savez),
    cmocka_unit_test(test_npz_write_deflated_is_savez_compressed),
    cmocka_unit_test(test_npz_write_deflated_in_small_pieces_is_savez_compressed),
    cmocka_unit_test(test_npz_write_unseekable_is_savez_to_a_pipe),
    cmocka_unit_test(test_npz_write_no_members_is_empty_savez),
    cmocka_unit_test(test_npz_write_round_trip_seekable),
    cmocka_unit_test(test_npz_write_round_trip_descriptors),
    cmocka_unit_test(test_npz_write_round_trip_tiny_buffer),
    cmocka_unit_test(test_npz_write_65536_members_get_zip64_end_records),
    cmocka_unit_test(test_npz_write_65535_members_need_no_zip64),
    cmocka_unit_test(test_npz_write_entry_ending_like_locator_gets_zip64_end_records),
    cmocka_unit_test(test_npz_write_zip64_fields_past_2gib),
    cmocka_unit_test(test_npz_write_refuses_bad_names_and_goes_on),
    cmocka_unit_test(test_npz_write_refuses_unsafe_names),
    cmocka_unit_test(test_npz_write_unsafe_names_are_read),
    cmocka_unit_test(test_npz_write_calls_out_of_order_refused),
    cmocka_unit_test(test_npz_write_max_members_is_a_limit),
    cmocka_unit_test(test_npz_write_sink_error_is_sticky),
    cmocka_unit_test(test_npz_write_allocation_failures),
    cmocka_unit_test(test_npz_write_new_refuses_bad_arguments),
    cmocka_unit_test(test_npz_write_null_writer_refused),
    cmocka_unit_test(test_npz_write_null_name_and_buf_refused),
    cmocka_unit_test(test_npz_write_refused_name_escaped),
    cmocka_unit_test(test_npz_write_failure_without_err_kept),
    cmocka_unit_test(test_npz_write_long_local_header_allocation_failure_sticky),
);

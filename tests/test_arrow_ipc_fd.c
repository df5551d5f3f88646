/* The Arrow IPC reader on a descriptor: each record batch's body is read
 * once, straight into a block its arrays point into, which lives as long
 * as any of them (released in any order, after the stream, moved out of
 * their parent); allocation failures leave nothing behind; a .npy file
 * or a zip archive is refused by name wherever a message belongs, from a
 * buffer and from a descriptor alike. */
#include "arrow_test.h"

#include "text/text.h"

#include <fcntl.h>
#include <stdbool.h>
#include <unistd.h>

/* A descriptor reading bytes p[0..len) from the start (an unlinked file). */
static int temp_fd(const void *p, size_t len)
{
    char path[] = "/tmp/npydt_test_arrow_ipc_fd_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, p, len), (ssize_t)len);
    assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    unlink(path);
    return fd;
}

/* The IPC stream of rows records of [('a', '<f8'), ('b', '<i4')] in
 * batches of batch_rows, record i holding a = i / 4, b = -i. */
static struct membuf rows_stream(size_t rows, uint64_t batch_rows)
{
    /* the bytes below are the host's: the header says which order that is */
    npydt_dtype *dt = test_parse_literal(TEXT_HOST_ORDER == '<' ? "[('a', '<f8'), ('b', '<i4')]"
                                                                : "[('a', '>f8'), ('b', '>i4')]");
    uint64_t shape[1] = {rows};
    TEST_ERROR(err);
    size_t h = npydt_header_write(dt, shape, 1, 0, NULL, 0, &err);
    assert_true(h > 0);
    unsigned char *npy = malloc(h + rows * 12);
    assert_non_null(npy);
    assert_int_equal(npydt_header_write(dt, shape, 1, 0, npy, h, &err), h);
    for (size_t i = 0; i < rows; i++) {
        double a = (double)i / 4;
        int32_t b = -(int32_t)i;
        memcpy(npy + h + i * 12, &a, 8);
        memcpy(npy + h + i * 12 + 8, &b, 4);
    }
    npydt_reader *r;
    assert_int_equal(npydt_reader_open_buffer(npy, h + rows * 12, NULL, &r, &err), NPYDT_OK);
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    o.batch_rows = batch_rows;
    struct ArrowArrayStream s;
    assert_int_equal(npydt_arrow_stream_open(r, &o, &s, &err), NPYDT_OK);
    struct membuf m = write_stream(&s);
    npydt_reader_close(r);
    npydt_dtype_free(dt);
    free(npy);
    return m;
}

/* Rows [row0, row0 + n) of the columns of rows_stream. */
static void assert_rows(const struct ArrowArray *a, const struct ArrowArray *b, size_t row0,
                        size_t n)
{
    assert_int_equal(a->length, (int64_t)n);
    assert_int_equal(b->length, (int64_t)n);
    for (size_t i = 0; i < n; i++) {
        double x;
        int32_t y;
        memcpy(&x, (const unsigned char *)a->buffers[1] + 8 * (a->offset + (int64_t)i), 8);
        memcpy(&y, (const unsigned char *)b->buffers[1] + 4 * (b->offset + (int64_t)i), 4);
        assert_true(x == (double)(row0 + i) / 4);
        assert_int_equal(y, -(int32_t)(row0 + i));
    }
}

static void test_arrow_ipc_fd_batches_outlive_the_stream_and_their_parent(void **state)
{
    (void)state;
    struct membuf m = rows_stream(100, 40);
    int fd = temp_fd(m.p, m.len);
    struct ArrowArrayStream s;
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_ipc_open_fd(fd, NULL, &s, &err), NPYDT_OK);
    struct ArrowArray first, second;
    assert_int_equal(s.get_next(&s, &first), 0);
    assert_int_equal(s.get_next(&s, &second), 0);   /* the first still held */
    s.release(&s);
    close(fd);
    assert_rows(first.children[0], first.children[1], 0, 40);
    assert_rows(second.children[0], second.children[1], 40, 40);
    /* a child moved out lives on after its parent */
    struct ArrowArray a = *first.children[0], b = *first.children[1];
    first.children[0]->release = NULL;
    first.children[1]->release = NULL;
    first.release(&first);
    assert_rows(&a, &b, 0, 40);
    a.release(&a);
    second.release(&second);
    for (int32_t i = 0; i < 40; i++) {   /* the last of the first batch's block */
        int32_t y;
        memcpy(&y, (const unsigned char *)b.buffers[1] + 4 * i, 4);
        assert_int_equal(y, -i);
    }
    b.release(&b);
    free(m.p);
}

/* A batch's body is read once: no copy of its buffers beside it. */
static void test_arrow_ipc_fd_reads_each_body_once(void **state)
{
    (void)state;
    enum { ROWS = 8192 };
    struct membuf m = rows_stream(ROWS, ROWS / 2);
    int fd = temp_fd(m.p, m.len);
    struct test_alloc ta;
    test_alloc_init(&ta, -1, 0);
    npydt_arrow_ipc_options o;
    npydt_arrow_ipc_options_init(&o);
    o.base.allocator = &ta.alloc;
    struct ArrowArrayStream s;
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_ipc_open_fd(fd, &o, &s, &err), NPYDT_OK);
    size_t rows = 0;
    for (;;) {
        struct ArrowArray a;
        assert_int_equal(s.get_next(&s, &a), 0);
        if (!a.release)
            break;
        assert_rows(a.children[0], a.children[1], rows, ROWS / 2);
        rows += ROWS / 2;
        a.release(&a);
    }
    assert_int_equal(rows, ROWS);
    s.release(&s);
    close(fd);
    /* a body is 12 bytes a row (padded to 8 bytes per buffer); its
     * buffers copied beside it would take as much again */
    assert_true(ta.peak_bytes < (size_t)ROWS / 2 * 12 * 5 / 4 + 4096);
    assert_int_equal(ta.live_blocks, 0);
    free(m.p);
}

static void test_arrow_ipc_fd_allocation_failures_leave_nothing(void **state)
{
    (void)state;
    struct membuf m = rows_stream(100, 30);
    bool read = false;
    for (long n = 0; !read; n++) {
        int fd = temp_fd(m.p, m.len);
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        npydt_arrow_ipc_options o;
        npydt_arrow_ipc_options_init(&o);
        o.base.allocator = &ta.alloc;
        struct ArrowArrayStream s;
        TEST_ERROR(err);
        npydt_status st = npydt_arrow_ipc_open_fd(fd, &o, &s, &err);
        assert_true(st == NPYDT_OK || st == NPYDT_E_NOMEM);
        int rc = 0;
        size_t rows = 0;
        if (st == NPYDT_OK) {
            struct ArrowArray held = {0};
            for (;;) {
                struct ArrowArray a;
                if ((rc = s.get_next(&s, &a)) != 0) {
                    assert_int_equal(rc, ENOMEM);
                    assert_null(a.release);
                    break;
                }
                if (!a.release)
                    break;
                rows += (size_t)a.length;
                /* one batch held while the next is read: a new block */
                if (held.release)
                    held.release(&held);
                held = a;
            }
            if (held.release)
                held.release(&held);
            s.release(&s);
        }
        read = st == NPYDT_OK && rc == 0;
        if (read)
            assert_int_equal(rows, 100);
        close(fd);
        assert_int_equal(ta.live_blocks, 0);
        assert_true(n < 1000);
    }
    free(m.p);
}

/* The first message's status and error of bytes p[0..len), read from a
 * buffer (fd < 0) or from a descriptor. */
static npydt_status read_all(const unsigned char *p, size_t len, bool from_fd, npydt_error *err)
{
    int fd = from_fd ? temp_fd(p, len) : -1;
    struct ArrowArrayStream s;
    npydt_status st = from_fd ? npydt_arrow_ipc_open_fd(fd, NULL, &s, err)
                              : npydt_arrow_ipc_open_buffer(p, len, NULL, &s, err);
    if (st == NPYDT_OK) {
        for (;;) {
            struct ArrowArray a;
            if (s.get_next(&s, &a) != 0) {
                assert_int_equal(npydt_arrow_stream_error(&s, err), NPYDT_OK);
                st = err->code;
                break;
            }
            if (!a.release)
                break;
            a.release(&a);
        }
        s.release(&s);
    }
    if (fd >= 0)
        close(fd);
    return st;
}

static void test_arrow_ipc_npy_file_is_refused_by_name_from_buffer_and_fd(void **state)
{
    (void)state;
    size_t len;
    unsigned char *npy = test_read_file(test_fixture("scalar_f8_le.npy"), &len);
    for (int from_fd = 0; from_fd < 2; from_fd++) {
        TEST_ERROR(err);
        assert_int_equal(read_all(npy, len, from_fd, &err), NPYDT_E_MAGIC);
        assert_int_equal(err.offset, 0);
        assert_string_equal(err.message, "Arrow IPC: a .npy file, not an Arrow IPC stream "
                                         "(dump --arrow writes one)");
    }
    free(npy);
}

/* A stream without its end marker, then a .npy file or a zip archive: the
 * file is named at the place of the next message, from a buffer and from
 * a descriptor. */
static void test_arrow_ipc_npy_file_after_messages_is_refused_by_name(void **state)
{
    (void)state;
    struct membuf m = rows_stream(10, 10);
    size_t len;
    unsigned char *npy = test_read_file(test_fixture("scalar_f8_le.npy"), &len);
    static const char *zip = "PK\003\004 a zip's first bytes";
    size_t at = m.len - 8;   /* the end marker dropped */
    for (int what = 0; what < 2; what++) {
        const unsigned char *tail = what == 0 ? npy : (const unsigned char *)zip;
        size_t tlen = what == 0 ? len : strlen(zip);
        unsigned char *p = malloc(at + tlen);
        assert_non_null(p);
        memcpy(p, m.p, at);
        memcpy(p + at, tail, tlen);
        for (int from_fd = 0; from_fd < 2; from_fd++) {
            TEST_ERROR(err);
            assert_int_equal(read_all(p, at + tlen, from_fd, &err), NPYDT_E_MAGIC);
            assert_int_equal(err.offset, at);
            assert_string_equal(err.message,
                                what == 0 ? "Arrow IPC: where a message belongs: a .npy file, not "
                                            "an Arrow IPC stream (dump --arrow writes one)"
                                          : "Arrow IPC: where a message belongs: a zip archive "
                                            "(.npz), not an Arrow IPC stream");
        }
        free(p);
    }
    free(npy);
    free(m.p);
}

TEST_LIST("arrow_ipc_fd",
          cmocka_unit_test(test_arrow_ipc_fd_batches_outlive_the_stream_and_their_parent),
          cmocka_unit_test(test_arrow_ipc_fd_reads_each_body_once),
          cmocka_unit_test(test_arrow_ipc_fd_allocation_failures_leave_nothing),
          cmocka_unit_test(test_arrow_ipc_npy_file_is_refused_by_name_from_buffer_and_fd),
          cmocka_unit_test(test_arrow_ipc_npy_file_after_messages_is_refused_by_name));

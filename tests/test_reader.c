/* The data-access layer: one array's data bytes from a path, a descriptor,
 * a buffer or an archive member, whole in place or in bounded chunks, and
 * in C order whatever the stored order.
 * Fixtures: fortran_3d.npy is np.arange(24, dtype='>f8').reshape(2, 3, 4)
 * saved in Fortran order, so its C-order values are 0, 1, ..., 23; the
 * archives hold tests/gen_npz_fixtures.py's arrays ("ints" is
 * np.arange(5), "fortran" is np.arange(6.0).reshape(2, 3) in Fortran
 * order), stored in savez.npz and deflated in savez_compressed.npz. */
#include "test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *npz_path(const char *name)
{
    static char path[1024];
    const char *dir = getenv("FIXTURES_NPZ");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fixtures_npz", name);
    return path;
}

static npydt_reader *open_path_ok(const char *path, const npydt_reader_options *opts)
{
    npydt_reader *r = NULL;
    TEST_ERROR(err);
    npydt_status st = npydt_reader_open_path(path, opts, &r, &err);
    if (st != NPYDT_OK)
        fail_msg("%s: %s: %s", path, npydt_status_name(st), err.message);
    return r;
}

/* Member `name` of an archive file, and the archive (close it after r). */
static npydt_reader *open_member_ok(const char *archive, const char *name, npydt_npz **z)
{
    TEST_ERROR(err);
    size_t i;
    npydt_reader *r = NULL;
    assert_int_equal(npydt_npz_open_path(npz_path(archive), NULL, z, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_find(*z, name, &i, &err), NPYDT_OK);
    npydt_status st = npydt_reader_open_member(*z, i, NULL, &r, &err);
    if (st != NPYDT_OK)
        fail_msg("%s:%s: %s: %s", archive, name, npydt_status_name(st), err.message);
    return r;
}

/* Every value of a float array in C order through npydt_reader_next_c,
 * batches of at most max; each must be value index. Returns the batches. */
static size_t expect_c_order_counting(npydt_reader *r, uint64_t max, size_t most_bytes)
{
    const npydt_header *h = npydt_reader_header(r);
    const npydt_dtype *dt = npydt_header_dtype(h);
    size_t is = (size_t)npydt_dtype_itemsize(dt), batches = 0;
    uint64_t seen = 0;
    TEST_ERROR(err);
    for (;;) {
        const void *batch;
        uint64_t n;
        assert_int_equal(npydt_reader_next_c(r, max, &batch, &n, &err), NPYDT_OK);
        if (n == 0)
            break;
        assert_true(n <= max);
        assert_true(n * is <= most_bytes);
        for (uint64_t j = 0; j < n; j++) {
            double v;
            assert_int_equal(npydt_read_double(dt, (const char *)batch + j * is, &v, &err),
                             NPYDT_OK);
            assert_true(v == (double)(seen + j));
        }
        seen += n;
        batches++;
    }
    assert_int_equal(seen, npydt_header_count(h));
    return batches;
}

/* All the data bytes through npydt_reader_next_chunk, checking each chunk's
 * size; returns a malloc'd copy of them. */
static unsigned char *all_chunks(npydt_reader *r, size_t most, size_t *len)
{
    uint64_t total = npydt_header_data_bytes(npydt_reader_header(r));
    unsigned char *all = malloc(total ? (size_t)total : 1);
    assert_non_null(all);
    size_t have = 0;
    TEST_ERROR(err);
    for (;;) {
        const void *chunk;
        size_t n;
        assert_int_equal(npydt_reader_next_chunk(r, &chunk, &n, &err), NPYDT_OK);
        if (n == 0)
            break;
        assert_true(n <= most);
        assert_true(have + n <= total);
        memcpy(all + have, chunk, n);
        have += n;
    }
    assert_int_equal(have, total);
    *len = have;
    return all;
}

/* The data bytes of a fixture file, read directly. */
static unsigned char *file_data(const char *path, size_t *len)
{
    size_t flen;
    unsigned char *file = test_read_file(path, &flen);
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(npydt_parse_buffer(file, flen, NULL, &h, &err), NPYDT_OK);
    size_t off = (size_t)npydt_header_data_offset(h);
    *len = (size_t)npydt_header_data_bytes(h);
    memmove(file, file + off, *len);
    npydt_header_free(h);
    return file;
}

static void test_reader_path_gives_the_data_in_place(void **state)
{
    (void)state;
    const char *path = test_fixture("fortran_3d.npy");
    npydt_reader *r = open_path_ok(path, NULL);
    size_t len;
    unsigned char *want = file_data(path, &len);
    assert_int_equal(npydt_header_ndim(npydt_reader_header(r)), 3);
    assert_non_null(npydt_reader_bytes(r));
    assert_memory_equal(npydt_reader_bytes(r), want, len);
    free(want);
    npydt_reader_close(r);
}

static void test_reader_fd_is_left_open(void **state)
{
    (void)state;
    int fd = open(test_fixture("fortran_3d.npy"), O_RDONLY);
    assert_true(fd >= 0);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_fd(fd, NULL, &r, &err), NPYDT_OK);
    npydt_reader_close(r);
    assert_true(fcntl(fd, F_GETFD) != -1);
    close(fd);
}

static void test_reader_fd_without_mmap_reads_with_pread(void **state)
{
    (void)state;
    const char *path = test_fixture("fortran_3d.npy");
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    opts.no_mmap = 1;
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_fd(fd, &opts, &r, &err), NPYDT_OK);
    assert_null(npydt_reader_bytes(r));
    size_t len, wlen;
    unsigned char *got = all_chunks(r, opts.chunk_bytes, &len);
    unsigned char *want = file_data(path, &wlen);
    assert_int_equal(len, wlen);
    assert_memory_equal(got, want, len);
    free(got);
    free(want);
    npydt_reader_close(r);
    close(fd);
}

static void test_reader_buffer_is_not_copied(void **state)
{
    (void)state;
    size_t len;
    unsigned char *file = test_read_file(test_fixture("fortran_3d.npy"), &len);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_buffer(file, len, NULL, &r, &err), NPYDT_OK);
    assert_ptr_equal(npydt_reader_bytes(r),
                     file + npydt_header_data_offset(npydt_reader_header(r)));
    npydt_reader_close(r);
    free(file);
}

static void test_reader_stored_member_is_in_place(void **state)
{
    (void)state;
    npydt_npz *z;
    npydt_reader *r = open_member_ok("savez.npz", "ints", &z);
    assert_non_null(npydt_reader_bytes(r));
    const npydt_dtype *dt = npydt_header_dtype(npydt_reader_header(r));
    TEST_ERROR(err);
    for (int k = 0; k < 5; k++) {
        int64_t v;
        assert_int_equal(
            npydt_read_i64(dt, (const char *)npydt_reader_bytes(r) + 8 * k, &v, &err), NPYDT_OK);
        assert_int_equal(v, k);
    }
    npydt_reader_close(r);
    npydt_npz_close(z);
}

static void test_reader_deflated_member_comes_in_chunks(void **state)
{
    (void)state;
    npydt_npz *zs, *zd;
    npydt_reader *stored = open_member_ok("savez.npz", "records", &zs);
    npydt_reader *deflated = open_member_ok("savez_compressed.npz", "records", &zd);
    assert_null(npydt_reader_bytes(deflated));
    size_t len;
    unsigned char *got = all_chunks(deflated, (size_t)1 << 20, &len);
    assert_int_equal(len, npydt_header_data_bytes(npydt_reader_header(stored)));
    assert_memory_equal(got, npydt_reader_bytes(stored), len);
    free(got);
    npydt_reader_close(deflated);
    npydt_reader_close(stored);
    npydt_npz_close(zd);
    npydt_npz_close(zs);
}

static void test_reader_file_larger_than_the_chunk_comes_in_whole_elements(void **state)
{
    (void)state;
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    opts.no_mmap = 1;
    opts.chunk_bytes = 20;   /* 2 elements of 8 bytes; the data is 192 */
    npydt_reader *r = open_path_ok(test_fixture("fortran_3d.npy"), &opts);
    const void *chunk;
    size_t n, chunks = 0;
    TEST_ERROR(err);
    while (npydt_reader_next_chunk(r, &chunk, &n, &err) == NPYDT_OK && n > 0) {
        assert_int_equal(n, 16);
        chunks++;
    }
    assert_int_equal(chunks, 12);
    npydt_reader_close(r);
}

static void test_reader_chunk_holds_one_element_at_least(void **state)
{
    (void)state;
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    opts.no_mmap = 1;
    opts.chunk_bytes = 1;
    npydt_reader *r = open_path_ok(test_fixture("fortran_3d.npy"), &opts);
    const void *chunk;
    size_t n;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_next_chunk(r, &chunk, &n, &err), NPYDT_OK);
    assert_int_equal(n, 8);
    npydt_reader_close(r);
}

static void test_reader_fortran_in_place_comes_in_c_order(void **state)
{
    (void)state;
    npydt_reader *r = open_path_ok(test_fixture("fortran_3d.npy"), NULL);
    assert_non_null(npydt_reader_bytes(r));
    expect_c_order_counting(r, UINT64_MAX, (size_t)1 << 20);
    npydt_reader_close(r);
}

static void test_reader_fortran_read_with_pread_comes_in_c_order_by_bands(void **state)
{
    (void)state;
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    opts.no_mmap = 1;
    opts.chunk_bytes = 24;    /* 3 elements a batch: 24 elements take 8 */
    opts.window_bytes = 40;   /* bands of 5 elements of a row of 12 */
    npydt_reader *r = open_path_ok(test_fixture("fortran_3d.npy"), &opts);
    assert_int_equal(expect_c_order_counting(r, UINT64_MAX, 24), 8);
    npydt_reader_close(r);
}

static void test_reader_fortran_deflated_member_comes_in_c_order(void **state)
{
    (void)state;
    npydt_npz *z;
    npydt_reader *r = open_member_ok("savez_compressed.npz", "fortran", &z);
    assert_null(npydt_reader_bytes(r));
    expect_c_order_counting(r, UINT64_MAX, (size_t)64 << 20);
    npydt_reader_close(r);
    npydt_npz_close(z);
}

static void test_reader_c_order_batch_never_exceeds_max(void **state)
{
    (void)state;
    npydt_reader *r = open_path_ok(test_fixture("fortran_3d.npy"), NULL);
    assert_int_equal(expect_c_order_counting(r, 7, (size_t)1 << 20), 4);
    npydt_reader_close(r);
}

static void test_reader_rewind_starts_from_the_first_element(void **state)
{
    (void)state;
    npydt_npz *z;
    npydt_reader *r = open_member_ok("savez_compressed.npz", "fortran", &z);
    expect_c_order_counting(r, 4, (size_t)64 << 20);
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_rewind(r, &err), NPYDT_OK);
    expect_c_order_counting(r, 4, (size_t)64 << 20);
    npydt_reader_close(r);
    npydt_npz_close(z);
}

/* A .npy file in memory: descr, shape text, then data_len bytes of data
 * (the '<f8' values 0, 1, 2, ... when f8 is set); free() it. */
static unsigned char *npy_in_memory(const char *descr, const char *shape, size_t data_len,
                                    int f8, size_t *len)
{
    char text[256];
    int n = snprintf(text, sizeof text, "{'descr': %s, 'fortran_order': False, 'shape': %s, }",
                     descr, shape);
    assert_true(n > 0 && (size_t)n < sizeof text);
    size_t hlen = ((size_t)n + 1 + 10 + 63) / 64 * 64 - 10;
    unsigned char *b = calloc(1, 10 + hlen + data_len + 1);
    assert_non_null(b);
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    b[8] = (unsigned char)hlen;
    b[9] = (unsigned char)(hlen >> 8);
    memcpy(b + 10, text, (size_t)n);
    memset(b + 10 + n, ' ', hlen - (size_t)n - 1);
    b[10 + hlen - 1] = '\n';
    for (size_t i = 0; f8 && i < data_len / 8; i++)
        test_store_f8((double)i, '<', b + 10 + hlen + 8 * i);
    *len = 10 + hlen + data_len;
    return b;
}

static void test_reader_c_order_in_place_batches_point_into_the_data(void **state)
{
    (void)state;
    size_t len;
    unsigned char *file = npy_in_memory("'<f8'", "(10,)", 80, 1, &len);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_buffer(file, len, NULL, &r, &err), NPYDT_OK);
    const unsigned char *data = npydt_reader_bytes(r);
    assert_ptr_equal(data, file + len - 80);
    const void *batch;
    uint64_t n;
    assert_int_equal(npydt_reader_next_c(r, 4, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 4);
    assert_ptr_equal(batch, data);
    assert_int_equal(npydt_reader_next_c(r, 100, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 6);
    assert_ptr_equal(batch, data + 32);
    assert_int_equal(npydt_reader_next_c(r, 100, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 0);
    assert_int_equal(npydt_reader_rewind(r, &err), NPYDT_OK);
    assert_int_equal(expect_c_order_counting(r, 3, 24), 4);
    npydt_reader_close(r);
    free(file);
}

static void test_reader_elements_of_itemsize_0_come_all_at_once(void **state)
{
    (void)state;
    size_t len;
    unsigned char *file = npy_in_memory("'|V0'", "(1000,)", 0, 0, &len);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_buffer(file, len, NULL, &r, &err), NPYDT_OK);
    const void *batch;
    uint64_t n;
    assert_int_equal(npydt_reader_next_c(r, UINT64_MAX, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 1000);
    assert_non_null(batch);
    assert_int_equal(npydt_reader_next_c(r, UINT64_MAX, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 0);
    npydt_reader_close(r);
    free(file);
}

static void test_reader_null_arguments_are_refused(void **state)
{
    (void)state;
    size_t len;
    unsigned char *file = npy_in_memory("'<f8'", "(2,)", 16, 1, &len);
    npydt_reader *r;
    const void *p;
    uint64_t n;
    size_t sz;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_open_buffer(file, len, NULL, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
    assert_int_equal(npydt_reader_open_buffer(file, len, NULL, &r, &err), NPYDT_OK);
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_next_c(NULL, 1, &p, &n, &err));
    assert_string_equal(err.message, "argument is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_next_c(r, 1, NULL, &n, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_next_c(r, 1, &p, NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_next_chunk(NULL, &p, &sz, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_next_chunk(r, NULL, &sz, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_next_chunk(r, &p, NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_rewind(NULL, &err));
    npydt_reader_close(r);
    npydt_reader_close(NULL);
    /* a header that does not parse is the parse's error */
    file[0] = 'x';
    assert_fails(NPYDT_E_MAGIC, &err, npydt_reader_open_buffer(file, len, NULL, &r, &err));
    free(file);
}

/* next_c after next_chunk on a deflated member goes on from the element
 * after its own last batch: the member is read again up to it. */
static void test_reader_c_order_after_chunks_goes_on_from_its_own_place(void **state)
{
    (void)state;
    npydt_npz *z;
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    npydt_reader *r;
    TEST_ERROR(err);
    size_t i;
    assert_int_equal(npydt_npz_open_path(npz_path("savez_compressed.npz"), NULL, &z, &err),
                     NPYDT_OK);
    assert_int_equal(npydt_npz_find(z, "ints", &i, &err), NPYDT_OK);
    assert_int_equal(npydt_reader_open_member(z, i, &opts, &r, &err), NPYDT_OK);
    const void *batch;
    uint64_t n;
    assert_int_equal(npydt_reader_next_c(r, 2, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 2);
    int64_t first[2];
    memcpy(first, batch, sizeof first);
    const void *chunk;
    size_t len;
    assert_int_equal(npydt_reader_next_chunk(r, &chunk, &len, &err), NPYDT_OK);
    assert_int_equal(len, 24);
    int64_t rest[3];
    memcpy(rest, chunk, sizeof rest);
    assert_int_equal(npydt_reader_next_c(r, 10, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(batch, rest, sizeof rest);
    npydt_reader_close(r);
    npydt_npz_close(z);
}

static void test_reader_truncated_buffer_is_refused(void **state)
{
    (void)state;
    size_t len;
    unsigned char *file = test_read_file(test_fixture("fortran_3d.npy"), &len);
    npydt_reader *r = (npydt_reader *)file;   /* must be reset to NULL */
    TEST_ERROR(err);
    assert_fails(NPYDT_E_DATA, &err, npydt_reader_open_buffer(file, len - 1, NULL, &r, &err));
    assert_null(r);
    free(file);
}

static void test_reader_file_that_shrinks_gives_an_io_error(void **state)
{
    (void)state;
    size_t len;
    unsigned char *file = test_read_file(test_fixture("fortran_3d.npy"), &len);
    char path[] = "/tmp/npydt_reader_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, file, len), (ssize_t)len);
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    opts.no_mmap = 1;
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_fd(fd, &opts, &r, &err), NPYDT_OK);
    assert_int_equal(ftruncate(fd, (off_t)len - 8), 0);
    const void *chunk;
    size_t n;
    assert_fails(NPYDT_E_IO, &err, npydt_reader_next_chunk(r, &chunk, &n, &err));
    assert_string_equal(err.message, "the file shrank while it was read");
    npydt_reader_close(r);
    close(fd);
    unlink(path);
    free(file);
}

static void test_reader_options_with_reserved_room_set_are_refused(void **state)
{
    (void)state;
    npydt_reader_options o;
    npydt_reader_options_init(&o);
    for (size_t i = 0; i < sizeof o.reserved / sizeof o.reserved[0]; i++)
        assert_int_equal(o.reserved[i], 0);
    o.reserved[1] = 1;
    npydt_reader *r = (npydt_reader *)&o;
    TEST_ERROR(err);
    test_poison_error(&err);
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_reader_open_path(test_fixture("fortran_3d.npy"), &o, &r, &err));
    test_assert_error_filled(NPYDT_E_ARG, &err);
    assert_null(r);
    assert_non_null(strstr(err.message, "reserved"));
}

static void test_reader_failed_allocations_leak_nothing(void **state)
{
    (void)state;
    npydt_npz *z;
    npydt_reader *keep = open_member_ok("savez_compressed.npz", "fortran", &z);
    npydt_reader_close(keep);
    size_t i;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_find(z, "fortran", &i, &err), NPYDT_OK);
    for (long n = 0;; n++) {
        struct test_alloc t;
        test_alloc_init(&t, n, 0);
        npydt_reader_options opts;
        npydt_reader_options_init(&opts);
        opts.base.allocator = &t.alloc;
        npydt_reader *r = NULL;
        test_poison_error(&err);
        npydt_status st = npydt_reader_open_member(z, i, &opts, &r, &err);
        const void *batch;
        uint64_t k = 0;
        while (st == NPYDT_OK) {
            test_poison_error(&err);
            st = npydt_reader_next_c(r, 2, &batch, &k, &err);
            if (k == 0)
                break;
        }
        if (st != NPYDT_OK) {
            assert_int_equal(st, NPYDT_E_NOMEM);
            test_assert_error_filled(st, &err);
        }
        npydt_reader_close(r);   /* NULL when the open failed */
        assert_int_equal(t.live_blocks, 0);
        if (st == NPYDT_OK && t.calls <= n)
            break;   /* nothing left to fail */
    }
    npydt_npz_close(z);
}

TEST_LIST("reader",
          cmocka_unit_test(test_reader_path_gives_the_data_in_place),
          cmocka_unit_test(test_reader_fd_is_left_open),
          cmocka_unit_test(test_reader_fd_without_mmap_reads_with_pread),
          cmocka_unit_test(test_reader_buffer_is_not_copied),
          cmocka_unit_test(test_reader_stored_member_is_in_place),
          cmocka_unit_test(test_reader_deflated_member_comes_in_chunks),
          cmocka_unit_test(test_reader_file_larger_than_the_chunk_comes_in_whole_elements),
          cmocka_unit_test(test_reader_chunk_holds_one_element_at_least),
          cmocka_unit_test(test_reader_fortran_in_place_comes_in_c_order),
          cmocka_unit_test(test_reader_fortran_read_with_pread_comes_in_c_order_by_bands),
          cmocka_unit_test(test_reader_fortran_deflated_member_comes_in_c_order),
          cmocka_unit_test(test_reader_c_order_batch_never_exceeds_max),
          cmocka_unit_test(test_reader_rewind_starts_from_the_first_element),
          cmocka_unit_test(test_reader_truncated_buffer_is_refused),
          cmocka_unit_test(test_reader_file_that_shrinks_gives_an_io_error),
          cmocka_unit_test(test_reader_options_with_reserved_room_set_are_refused),
          cmocka_unit_test(test_reader_failed_allocations_leak_nothing),
          cmocka_unit_test(test_reader_c_order_in_place_batches_point_into_the_data),
          cmocka_unit_test(test_reader_elements_of_itemsize_0_come_all_at_once),
          cmocka_unit_test(test_reader_null_arguments_are_refused),
          cmocka_unit_test(test_reader_c_order_after_chunks_goes_on_from_its_own_place));

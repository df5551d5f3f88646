/* Opening one array's data with the options that shape the handle: all in
 * memory (a mapping, else one copy read or inflated), writable mappings
 * whose stores reach the file, and what is refused from every source.
 * Sequential and C-order reads are in test_reader.c. */
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

/* Reader options with in_memory set, and no_mmap and writable as given. */
static npydt_reader_options in_memory(int no_mmap, int writable)
{
    npydt_reader_options o;
    npydt_reader_options_init(&o);
    o.in_memory = 1;
    o.no_mmap = no_mmap;
    o.writable = writable;
    return o;
}

/* A copy of fixture name in a temporary file; its path in path. */
static unsigned char *scratch_copy(const char *name, char path[static 32], size_t *len)
{
    unsigned char *raw = test_read_file(test_fixture(name), len);
    strcpy(path, "/tmp/npydt-test-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, raw, *len), (ssize_t)*len);
    close(fd);
    return raw;
}

static void test_open_in_memory_maps_file_data(void **state)
{
    (void)state;
    size_t len;
    unsigned char *raw = test_read_file(test_fixture("struct_simple.npy"), &len);
    npydt_reader_options o = in_memory(0, 0);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_path(test_fixture("struct_simple.npy"), &o, &r, &err),
                     NPYDT_OK);
    assert_true(npydt_reader_is_mapped(r));
    const npydt_header *h = npydt_reader_header(r);
    assert_memory_equal(npydt_reader_bytes(r), raw + npydt_header_data_offset(h),
                        npydt_header_data_bytes(h));
    assert_null(npydt_reader_bytes_mut(r));
    npydt_reader_close(r);
    free(raw);
}

static void test_open_in_memory_without_mmap_reads_a_copy(void **state)
{
    (void)state;
    size_t len;
    unsigned char *raw = test_read_file(test_fixture("struct_nested3.npy"), &len);
    npydt_reader_options o = in_memory(1, 0);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_path(test_fixture("struct_nested3.npy"), &o, &r, &err),
                     NPYDT_OK);
    assert_false(npydt_reader_is_mapped(r));
    const npydt_header *h = npydt_reader_header(r);
    assert_non_null(npydt_reader_bytes(r));
    assert_memory_equal(npydt_reader_bytes(r), raw + npydt_header_data_offset(h),
                        npydt_header_data_bytes(h));
    npydt_reader_close(r);
    free(raw);
}

/* A copy needs no descriptor: the caller may close it at once. */
static void test_open_in_memory_copy_outlives_its_descriptor(void **state)
{
    (void)state;
    size_t len;
    unsigned char *raw = test_read_file(test_fixture("fortran_3d.npy"), &len);
    int fd = open(test_fixture("fortran_3d.npy"), O_RDONLY);
    assert_true(fd >= 0);
    npydt_reader_options o = in_memory(1, 0);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_fd(fd, &o, &r, &err), NPYDT_OK);
    close(fd);
    const npydt_header *h = npydt_reader_header(r);
    const void *chunk;
    size_t n;
    assert_int_equal(npydt_reader_next_chunk(r, &chunk, &n, &err), NPYDT_OK);
    assert_ptr_equal(chunk, npydt_reader_bytes(r));
    assert_int_equal(n, npydt_header_data_bytes(h));
    assert_memory_equal(chunk, raw + npydt_header_data_offset(h), n);
    npydt_reader_close(r);
    free(raw);
}

/* A deflated member opened in_memory is inflated whole: its bytes are in
 * place, as those of a stored member, and equal to them. */
static void test_open_in_memory_deflated_member_is_inflated_whole(void **state)
{
    (void)state;
    npydt_npz *stored, *deflated;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_open_path(npz_path("savez.npz"), NULL, &stored, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_open_path(npz_path("savez_compressed.npz"), NULL, &deflated, &err),
                     NPYDT_OK);
    size_t i, j;
    assert_int_equal(npydt_npz_find(stored, "fortran", &i, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_find(deflated, "fortran", &j, &err), NPYDT_OK);
    npydt_reader_options o = in_memory(0, 0);
    npydt_reader *rs, *rd, *chunks;
    assert_int_equal(npydt_reader_open_member(stored, i, NULL, &rs, &err), NPYDT_OK);
    assert_int_equal(npydt_reader_open_member(deflated, j, NULL, &chunks, &err), NPYDT_OK);
    assert_null(npydt_reader_bytes(chunks));
    assert_int_equal(npydt_reader_open_member(deflated, j, &o, &rd, &err), NPYDT_OK);
    assert_non_null(npydt_reader_bytes(rd));
    assert_false(npydt_reader_is_mapped(rd));
    uint64_t n = npydt_header_data_bytes(npydt_reader_header(rd));
    assert_int_equal(n, 6 * 8);
    assert_memory_equal(npydt_reader_bytes(rd), npydt_reader_bytes(rs), (size_t)n);
    /* C order from the bytes in place */
    const void *batch;
    uint64_t k;
    assert_int_equal(npydt_reader_next_c(rd, 6, &batch, &k, &err), NPYDT_OK);
    assert_int_equal(k, 6);
    assert_int_equal(npydt_dtype_byteorder(npydt_header_dtype(npydt_reader_header(rd))), '<');
    for (uint64_t e = 0; e < k; e++) {
        /* '<f8' on any host: the bytes read little-endian */
        const unsigned char *p = (const unsigned char *)batch + e * 8;
        uint64_t bits = 0;
        for (int b = 7; b >= 0; b--)
            bits = bits << 8 | p[b];
        double v;
        memcpy(&v, &bits, 8);
        assert_true(v == (double)e);
    }
    npydt_reader_close(rd);
    npydt_reader_close(chunks);
    npydt_reader_close(rs);
    npydt_npz_close(deflated);
    npydt_npz_close(stored);
}

static void test_open_writable_stores_reach_the_file(void **state)
{
    (void)state;
    char path[32];
    size_t len;
    unsigned char *raw = scratch_copy("scalar_i4_be.npy", path, &len);
    npydt_reader_options o = in_memory(0, 1);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_path(path, &o, &r, &err), NPYDT_OK);
    unsigned char *d = npydt_reader_bytes_mut(r);
    assert_non_null(d);
    assert_ptr_equal(d, npydt_reader_bytes(r));
    d[3] ^= 0xff;
    assert_int_equal(npydt_reader_sync(r, &err), NPYDT_OK);
    uint64_t off = npydt_header_data_offset(npydt_reader_header(r));
    npydt_reader_close(r);
    size_t len2;
    unsigned char *after = test_read_file(path, &len2);
    assert_int_equal(len2, len);
    assert_int_equal(after[off + 3], raw[off + 3] ^ 0xff);
    unlink(path);
    free(after);
    free(raw);
}

/* writable alone maps the file: its bytes are in place as with in_memory. */
static void test_open_writable_is_in_memory(void **state)
{
    (void)state;
    char path[32];
    size_t len;
    unsigned char *raw = scratch_copy("scalar_i4_be.npy", path, &len);
    npydt_reader_options o;
    npydt_reader_options_init(&o);
    o.writable = 1;
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_path(path, &o, &r, &err), NPYDT_OK);
    assert_true(npydt_reader_is_mapped(r));
    assert_non_null(npydt_reader_bytes_mut(r));
    npydt_reader_close(r);
    unlink(path);
    free(raw);
}

static void test_open_writable_without_mmap_is_refused(void **state)
{
    (void)state;
    npydt_reader_options o = in_memory(1, 1);
    npydt_reader *r = (npydt_reader *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_reader_open_path(test_fixture("scalar_b1.npy"), &o, &r, &err));
    assert_null(r);
    assert_string_equal(err.message, "writable needs a mapping: no_mmap excludes it");
}

/* A buffer and an archive member are read-only. */
static void test_open_writable_buffer_or_member_is_refused(void **state)
{
    (void)state;
    size_t len;
    unsigned char *raw = test_read_file(test_fixture("scalar_f8_le.npy"), &len);
    npydt_reader_options o = in_memory(0, 1);
    npydt_reader *r = (npydt_reader *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_open_buffer(raw, len, &o, &r, &err));
    assert_null(r);
    assert_string_equal(err.message,
                        "writable needs a file: a buffer or an archive member is read-only");
    npydt_npz *z;
    assert_int_equal(npydt_npz_open_path(npz_path("savez.npz"), NULL, &z, &err), NPYDT_OK);
    r = (npydt_reader *)1;
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_open_member(z, 0, &o, &r, &err));
    assert_null(r);
    npydt_npz_close(z);
    free(raw);
}

/* Write access needs a shared writable mapping, which a read-only
 * descriptor cannot give. */
static void test_open_writable_on_read_only_fd_is_io(void **state)
{
    (void)state;
    int fd = open(test_fixture("scalar_S5.npy"), O_RDONLY);
    assert_true(fd >= 0);
    npydt_reader_options o = in_memory(0, 1);
    npydt_reader *r = (npydt_reader *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err, npydt_reader_open_fd(fd, &o, &r, &err));
    assert_null(r);
    assert_string_equal(err.message, "cannot map the file for writing: Permission denied");
    close(fd);
}

/* One refusal for every source: the data of an object dtype is a pickle,
 * while the header stays readable. */
static void test_open_object_dtype_is_refused_from_every_source(void **state)
{
    (void)state;
    const char *path = test_fixture("object_in_struct.npy");
    size_t len;
    unsigned char *raw = test_read_file(path, &len);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    npydt_reader_options o = in_memory(0, 0);
    npydt_reader *r = (npydt_reader *)1;
    TEST_ERROR(err);
    const char *msg = "the data of an object dtype is a pickle; only the header is readable";
    assert_fails(NPYDT_E_OBJECT, &err, npydt_reader_open_path(path, &o, &r, &err));
    assert_null(r);
    assert_string_equal(err.message, msg);
    assert_fails(NPYDT_E_OBJECT, &err, npydt_reader_open_fd(fd, NULL, &r, &err));
    assert_string_equal(err.message, msg);
    assert_fails(NPYDT_E_OBJECT, &err, npydt_reader_open_buffer(raw, len, &o, &r, &err));
    assert_string_equal(err.message, msg);
    npydt_header *h;
    assert_int_equal(npydt_parse_path(path, NULL, &h, &err), NPYDT_OK);
    npydt_header_free(h);
    close(fd);
    free(raw);
}

static void test_open_missing_path_is_io(void **state)
{
    (void)state;
    npydt_reader_options o = in_memory(0, 0);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err, npydt_reader_open_path("/nonexistent/x.npy", &o, &r, &err));
}

static void test_open_empty_array_bytes_are_not_null(void **state)
{
    (void)state;
    npydt_reader_options o = in_memory(1, 0);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_path(test_fixture("empty_f8.npy"), &o, &r, &err),
                     NPYDT_OK);
    assert_non_null(npydt_reader_bytes(r));
    assert_int_equal(npydt_header_count(npydt_reader_header(r)), 0);
    npydt_reader_close(r);
}

static void test_open_null_out_is_refused(void **state)
{
    (void)state;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_open_fd(0, NULL, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_open_buffer("", 0, NULL, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_sync(NULL, &err));
}

static void test_open_in_memory_allocation_failures_leak_nothing(void **state)
{
    (void)state;
    for (long n = 0;; n++) {
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        npydt_reader_options o = in_memory(1, 0);
        o.base.allocator = &ta.alloc;
        npydt_reader *r;
        TEST_ERROR(err);
        npydt_status st =
            npydt_reader_open_path(test_fixture("struct_nested3.npy"), &o, &r, &err);
        if (st == NPYDT_OK) {
            npydt_reader_close(r);
            assert_int_equal(ta.live_blocks, 0);
            assert_true(n > 1);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        test_assert_error_filled(st, &err);
        assert_null(r);
        assert_int_equal(ta.live_blocks, 0);
        assert_int_equal(ta.live_bytes, 0);
    }
}

static void test_open_inflating_a_member_whole_leaks_nothing_when_allocations_fail(void **state)
{
    (void)state;
    npydt_npz *z;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_open_path(npz_path("savez_compressed.npz"), NULL, &z, &err),
                     NPYDT_OK);
    size_t i;
    assert_int_equal(npydt_npz_find(z, "fortran", &i, &err), NPYDT_OK);
    for (long n = 0;; n++) {
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        npydt_reader_options o = in_memory(0, 0);
        o.base.allocator = &ta.alloc;
        npydt_reader *r;
        test_poison_error(&err);
        npydt_status st = npydt_reader_open_member(z, i, &o, &r, &err);
        if (st == NPYDT_OK) {
            assert_non_null(npydt_reader_bytes(r));
            npydt_reader_close(r);
            assert_int_equal(ta.live_blocks, 0);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        test_assert_error_filled(st, &err);
        assert_null(r);
        assert_int_equal(ta.live_blocks, 0);
    }
    npydt_npz_close(z);
}

TEST_LIST("open",
          cmocka_unit_test(test_open_in_memory_maps_file_data),
          cmocka_unit_test(test_open_in_memory_without_mmap_reads_a_copy),
          cmocka_unit_test(test_open_in_memory_copy_outlives_its_descriptor),
          cmocka_unit_test(test_open_in_memory_deflated_member_is_inflated_whole),
          cmocka_unit_test(test_open_writable_stores_reach_the_file),
          cmocka_unit_test(test_open_writable_is_in_memory),
          cmocka_unit_test(test_open_writable_without_mmap_is_refused),
          cmocka_unit_test(test_open_writable_buffer_or_member_is_refused),
          cmocka_unit_test(test_open_writable_on_read_only_fd_is_io),
          cmocka_unit_test(test_open_object_dtype_is_refused_from_every_source),
          cmocka_unit_test(test_open_missing_path_is_io),
          cmocka_unit_test(test_open_empty_array_bytes_are_not_null),
          cmocka_unit_test(test_open_null_out_is_refused),
          cmocka_unit_test(test_open_in_memory_allocation_failures_leak_nothing),
          cmocka_unit_test(test_open_inflating_a_member_whole_leaks_nothing_when_allocations_fail));

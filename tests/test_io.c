/* A file's bytes in memory (io_map_or_read, the base stage's one "map the
 * file, else read it" under the .npy data, the reader and the archive
 * reader): mapped where possible, read into a copy otherwise, and a clear
 * error value for every file that cannot give the bytes asked for. */
#include "test_util.h"
#include "base/base.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char text[] = "0123456789abcdefghijklmnopqrstuvwxyz";
#define TEXT_LEN (sizeof text - 1)

/* A temporary file holding text, open read-only (or read-write); the path
 * is unlinked, the descriptor left to the test to close. */
static int temp_file(int writable)
{
    char path[] = "/tmp/npydt_test_io_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, TEXT_LEN), (ssize_t)TEXT_LEN);
    close(fd);
    fd = open(path, writable ? O_RDWR : O_RDONLY);
    assert_true(fd >= 0);
    unlink(path);
    return fd;
}

static void test_io_regular_file_is_mapped(void **state)
{
    (void)state;
    int fd = temp_file(0);
    struct io_region r;
    npydt_error err;
    test_poison_error(&err);
    assert_int_equal(io_map_or_read(fd, 10, 6, 0, NULL, &r, &err), NPYDT_OK);
    assert_non_null(r.map);
    assert_null(r.copy);
    assert_int_equal(r.len, 6);
    assert_memory_equal(r.bytes, "abcdef", 6);
    io_region_release(&r);
    close(fd);
}

/* The mapping covers the file from offset 0 and outlives the descriptor. */
static void test_io_mapping_outlives_its_descriptor(void **state)
{
    (void)state;
    int fd = temp_file(0);
    struct io_region r;
    npydt_error err;
    assert_int_equal(io_map_or_read(fd, 30, 6, 0, NULL, &r, &err), NPYDT_OK);
    close(fd);
    assert_int_equal(r.map_len, 36);
    assert_memory_equal(r.bytes, "uvwxyz", 6);
    io_region_release(&r);
}

static void test_io_no_map_reads_only_the_bytes_asked_for(void **state)
{
    (void)state;
    int fd = temp_file(0);
    struct test_alloc t;
    test_alloc_init(&t, -1, 0);
    struct io_region r;
    npydt_error err;
    assert_int_equal(io_map_or_read(fd, 10, 6, IO_NO_MAP, &t.alloc, &r, &err), NPYDT_OK);
    assert_null(r.map);
    assert_ptr_equal(r.bytes, r.copy);
    assert_int_equal(t.live_bytes, 6);
    assert_memory_equal(r.bytes, "abcdef", 6);
    io_region_release(&r);
    assert_int_equal(t.live_blocks, 0);
    close(fd);
}

static void test_io_rest_is_everything_from_the_offset(void **state)
{
    (void)state;
    int fd = temp_file(0);
    struct io_region r;
    npydt_error err;
    for (unsigned flags = 0; flags <= IO_NO_MAP; flags += IO_NO_MAP) {
        assert_int_equal(io_map_or_read(fd, 26, IO_REST, flags, NULL, &r, &err), NPYDT_OK);
        assert_int_equal(r.len, 10);
        assert_memory_equal(r.bytes, "qrstuvwxyz", 10);
        io_region_release(&r);
    }
    close(fd);
}

/* Nothing to map or read, but a pointer a caller may pass on. */
static void test_io_empty_region_has_bytes_and_holds_nothing(void **state)
{
    (void)state;
    int fd = temp_file(0);
    struct test_alloc t;
    test_alloc_init(&t, 0, 1);   /* any allocation would fail */
    struct io_region r;
    npydt_error err;
    assert_int_equal(io_map_or_read(fd, TEXT_LEN, IO_REST, IO_NO_MAP, &t.alloc, &r, &err),
                     NPYDT_OK);
    assert_non_null(r.bytes);
    assert_int_equal(r.len, 0);
    assert_null(r.map);
    assert_null(r.copy);
    assert_int_equal(t.calls, 0);
    io_region_release(&r);
    close(fd);
}

/* IO_NO_COPY: the reader's bounded reads; an unmapped file stays unread. */
static void test_io_no_copy_without_a_mapping_leaves_the_bytes_unread(void **state)
{
    (void)state;
    int fd = temp_file(0);
    struct test_alloc t;
    test_alloc_init(&t, -1, 0);
    struct io_region r;
    npydt_error err;
    assert_int_equal(io_map_or_read(fd, 0, TEXT_LEN, IO_NO_MAP | IO_NO_COPY, &t.alloc, &r, &err),
                     NPYDT_OK);
    assert_null(r.bytes);
    assert_null(r.map);
    assert_int_equal(t.calls, 0);
    io_region_release(&r);
    close(fd);
}

static void test_io_writable_mapping_writes_the_file(void **state)
{
    (void)state;
    int fd = temp_file(1);
    struct io_region r;
    npydt_error err;
    assert_int_equal(io_map_or_read(fd, 0, 4, IO_WRITE, NULL, &r, &err), NPYDT_OK);
    assert_non_null(r.map);
    memcpy(r.map, "WXYZ", 4);
    io_region_release(&r);
    char back[4];
    assert_int_equal(pread(fd, back, 4, 0), 4);
    assert_memory_equal(back, "WXYZ", 4);
    close(fd);
}

/* Write access has no copy to fall back on. */
static void test_io_write_on_a_read_only_descriptor_is_io(void **state)
{
    (void)state;
    int fd = temp_file(0);
    struct io_region r;
    npydt_error err;
    test_poison_error(&err);
    npydt_status st = io_map_or_read(fd, 0, 4, IO_WRITE, NULL, &r, &err);
    assert_int_equal(st, NPYDT_E_IO);
    test_assert_error_filled(st, &err);
    assert_string_equal(err.message, "cannot map the file for writing: Permission denied");
    assert_null(r.bytes);
    close(fd);
}

static void test_io_file_shorter_than_asked_is_an_io_error(void **state)
{
    (void)state;
    int fd = temp_file(0);
    struct test_alloc t;
    test_alloc_init(&t, -1, 0);
    struct io_region r;
    npydt_error err;
    for (unsigned flags = 0; flags <= IO_NO_MAP; flags += IO_NO_MAP) {
        test_poison_error(&err);
        npydt_status st = io_map_or_read(fd, 30, 7, flags, &t.alloc, &r, &err);
        assert_int_equal(st, NPYDT_E_IO);
        test_assert_error_filled(st, &err);
        assert_string_equal(err.message, "the file shrank while it was read");
        assert_int_equal(t.calls, 0);   /* refused before anything is allocated */
    }
    close(fd);
}

static void test_io_pipe_is_not_a_regular_file(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    struct io_region r;
    npydt_error err;
    test_poison_error(&err);
    npydt_status st = io_map_or_read(p[0], 0, IO_REST, 0, NULL, &r, &err);
    assert_int_equal(st, NPYDT_E_IO);
    test_assert_error_filled(st, &err);
    assert_string_equal(err.message, "not a regular file");
    close(p[0]);
    close(p[1]);
}

static void test_io_bad_descriptor_cannot_be_stat(void **state)
{
    (void)state;
    struct io_region r;
    npydt_error err;
    test_poison_error(&err);
    npydt_status st = io_map_or_read(-1, 0, 1, 0, NULL, &r, &err);
    assert_int_equal(st, NPYDT_E_IO);
    test_assert_error_filled(st, &err);
    assert_string_equal(err.message, "cannot stat: Bad file descriptor");
}

static void test_io_region_past_the_largest_offset_overflows(void **state)
{
    (void)state;
    int fd = temp_file(0);
    struct io_region r;
    npydt_error err;
    test_poison_error(&err);
    npydt_status st = io_map_or_read(fd, 1, (uint64_t)INT64_MAX, 0, NULL, &r, &err);
    assert_int_equal(st, NPYDT_E_OVERFLOW);
    test_assert_error_filled(st, &err);
    assert_string_equal(err.message, "the data lies beyond the largest file offset");
    close(fd);
}

/* A write-only descriptor can be neither mapped nor read: the copy made
 * for the read is released. */
static void test_io_failed_read_releases_the_copy(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt_test_io_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, TEXT_LEN), (ssize_t)TEXT_LEN);
    struct test_alloc t;
    test_alloc_init(&t, -1, 0);
    struct io_region r;
    npydt_error err;
    close(fd);
    fd = open(path, O_WRONLY);
    assert_true(fd >= 0);
    unlink(path);
    test_poison_error(&err);
    npydt_status st = io_map_or_read(fd, 0, TEXT_LEN, 0, &t.alloc, &r, &err);
    assert_int_equal(st, NPYDT_E_IO);
    test_assert_error_filled(st, &err);
    assert_string_equal(err.message, "read failed: Bad file descriptor");
    assert_int_equal(t.calls, 1);
    assert_int_equal(t.live_blocks, 0);
    close(fd);
}

static void test_io_copy_allocation_failure_is_nomem(void **state)
{
    (void)state;
    int fd = temp_file(0);
    struct test_alloc t;
    test_alloc_init(&t, 0, 0);
    struct io_region r;
    npydt_error err;
    test_poison_error(&err);
    npydt_status st = io_map_or_read(fd, 0, TEXT_LEN, IO_NO_MAP, &t.alloc, &r, &err);
    assert_int_equal(st, NPYDT_E_NOMEM);
    test_assert_error_filled(st, &err);
    assert_int_equal(t.live_blocks, 0);
    close(fd);
}

static void test_io_zeroed_region_releases_nothing(void **state)
{
    (void)state;
    struct io_region r;
    memset(&r, 0, sizeof r);
    io_region_release(&r);
    assert_null(r.bytes);
}

TEST_LIST("io",
          cmocka_unit_test(test_io_regular_file_is_mapped),
          cmocka_unit_test(test_io_mapping_outlives_its_descriptor),
          cmocka_unit_test(test_io_no_map_reads_only_the_bytes_asked_for),
          cmocka_unit_test(test_io_rest_is_everything_from_the_offset),
          cmocka_unit_test(test_io_empty_region_has_bytes_and_holds_nothing),
          cmocka_unit_test(test_io_no_copy_without_a_mapping_leaves_the_bytes_unread),
          cmocka_unit_test(test_io_writable_mapping_writes_the_file),
          cmocka_unit_test(test_io_write_on_a_read_only_descriptor_is_io),
          cmocka_unit_test(test_io_file_shorter_than_asked_is_an_io_error),
          cmocka_unit_test(test_io_pipe_is_not_a_regular_file),
          cmocka_unit_test(test_io_bad_descriptor_cannot_be_stat),
          cmocka_unit_test(test_io_region_past_the_largest_offset_overflows),
          cmocka_unit_test(test_io_failed_read_releases_the_copy),
          cmocka_unit_test(test_io_copy_allocation_failure_is_nomem),
          cmocka_unit_test(test_io_zeroed_region_releases_nothing));

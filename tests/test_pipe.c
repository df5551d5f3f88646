/* A .npy file arriving on a descriptor that cannot seek (a pipe):
 * npydt_reader_open_pipe reads its data once, front to back, and
 * npydt_verify_pipe counts them; the caller has read the header (head).
 * The bytes are written into a pipe whose write end is then closed (each
 * file here fits a pipe's buffer). Fixtures: tests/fixtures (FIXTURES). */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A pipe holding bytes[from .. from + n) and then its end: the read end. */
static int pipe_of(const unsigned char *bytes, size_t n)
{
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], bytes, n), (ssize_t)n);
    close(fds[1]);
    return fds[0];
}

/* A fixture's bytes and its data offset (the header's size). */
static unsigned char *fixture(const char *name, size_t *len, size_t *offset)
{
    unsigned char *bytes = test_read_file(test_fixture(name), len);
    uint64_t total;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_size(bytes, *len, NULL, &total, &err), NPYDT_OK);
    *offset = (size_t)total;
    return bytes;
}

static void test_pipe_reader_gives_the_data_in_sequence(void **state)
{
    (void)state;
    size_t len, off;
    unsigned char *bytes = fixture("struct_simple.npy", &len, &off);
    int fd = pipe_of(bytes + off, len - off);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_pipe(fd, bytes, off, NULL, &r, &err), NPYDT_OK);
    assert_null(npydt_reader_bytes(r));
    assert_int_equal(npydt_header_count(npydt_reader_header(r)), 3);
    const void *chunk;
    size_t n, got = 0;
    unsigned char data[64];
    while (npydt_reader_next_chunk(r, &chunk, &n, &err) == NPYDT_OK && n > 0) {
        assert_true(got + n <= sizeof data);
        memcpy(data + got, chunk, n);
        got += n;
    }
    assert_int_equal(err.code, NPYDT_OK);
    assert_int_equal(got, len - off);
    assert_memory_equal(data, bytes + off, got);
    npydt_reader_close(r);
    close(fd);
    free(bytes);
}

static void test_pipe_reader_takes_data_bytes_from_head_first(void **state)
{
    (void)state;
    size_t len, off;
    unsigned char *bytes = fixture("struct_simple.npy", &len, &off);
    /* head holds the header and the first 20 data bytes */
    int fd = pipe_of(bytes + off + 20, len - off - 20);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_pipe(fd, bytes, off + 20, NULL, &r, &err), NPYDT_OK);
    const void *batch;
    uint64_t n;
    assert_int_equal(npydt_reader_next_c(r, 3, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(batch, bytes + off, len - off);
    npydt_reader_close(r);
    close(fd);
    free(bytes);
}

static void test_pipe_reader_of_short_data_says_what_a_short_file_says(void **state)
{
    (void)state;
    size_t len, off;
    unsigned char *bytes = fixture("struct_simple.npy", &len, &off);
    int fd = pipe_of(bytes + off, 20);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_pipe(fd, bytes, off, NULL, &r, &err), NPYDT_OK);
    const void *chunk;
    size_t n;
    assert_fails(NPYDT_E_DATA, &err, npydt_reader_next_chunk(r, &chunk, &n, &err));
    assert_string_equal(err.message,
                        "the data needs 51 bytes (count 3 * itemsize 17) but 20 are present");
    npydt_reader_close(r);
    close(fd);
    free(bytes);
}

static void test_pipe_reader_cannot_go_back(void **state)
{
    (void)state;
    size_t len, off;
    unsigned char *bytes = fixture("struct_simple.npy", &len, &off);
    int fd = pipe_of(bytes + off, len - off);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_pipe(fd, bytes, off, NULL, &r, &err), NPYDT_OK);
    assert_int_equal(npydt_reader_rewind(r, &err), NPYDT_OK);   /* nothing read yet */
    const void *chunk;
    size_t n;
    assert_int_equal(npydt_reader_next_chunk(r, &chunk, &n, &err), NPYDT_OK);
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_rewind(r, &err));
    npydt_reader_close(r);
    close(fd);
    free(bytes);
}

static void test_pipe_reader_in_memory_reads_a_fortran_array_whole(void **state)
{
    (void)state;
    size_t len, off;
    unsigned char *bytes = fixture("fortran_2d.npy", &len, &off);
    int fd = pipe_of(bytes + off, len - off);
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    opts.in_memory = 1;
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_pipe(fd, bytes, off, &opts, &r, &err), NPYDT_OK);
    assert_non_null(npydt_reader_bytes(r));
    assert_memory_equal(npydt_reader_bytes(r), bytes + off, len - off);
    assert_int_equal(npydt_reader_rewind(r, &err), NPYDT_OK);
    npydt_reader_close(r);
    close(fd);
    free(bytes);
}

static void test_pipe_reader_needs_the_whole_header_in_head(void **state)
{
    (void)state;
    size_t len, off;
    unsigned char *bytes = fixture("struct_simple.npy", &len, &off);
    int fd = pipe_of(bytes + off - 4, len - off + 4);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_TRUNCATED, &err, npydt_reader_open_pipe(fd, bytes, off - 4, NULL, &r, &err));
    close(fd);
    free(bytes);
}

static void test_verify_pipe_counts_trailing_bytes(void **state)
{
    (void)state;
    size_t len, off;
    unsigned char *bytes = fixture("struct_simple.npy", &len, &off);
    unsigned char *more = malloc(len + 5);
    assert_non_null(more);
    memcpy(more, bytes, len);
    memcpy(more + len, "extra", 5);
    int fd = pipe_of(more + off, len - off + 5);
    npydt_verify_report rep;
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(npydt_verify_pipe(fd, more, off, NULL, &h, &rep, &err), NPYDT_OK);
    assert_int_equal(rep.size, len + 5);
    assert_int_equal(rep.expected, len);
    assert_int_equal(rep.trailing, 5);
    assert_int_equal(rep.crc32_checked, 0);
    assert_int_equal(npydt_header_count(h), 3);
    npydt_header_free(h);
    close(fd);
    free(more);
    free(bytes);
}

static void test_verify_pipe_of_short_data_refused(void **state)
{
    (void)state;
    size_t len, off;
    unsigned char *bytes = fixture("struct_simple.npy", &len, &off);
    int fd = pipe_of(bytes + off, 10);
    npydt_verify_report rep;
    npydt_header *h;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_DATA, &err, npydt_verify_pipe(fd, bytes, off, NULL, &h, &rep, &err));
    assert_null(h);
    assert_string_equal(err.message,
                        "the data needs 51 bytes (count 3 * itemsize 17) but 10 are present");
    close(fd);
    free(bytes);
}

TEST_LIST("pipe",
    cmocka_unit_test(test_pipe_reader_gives_the_data_in_sequence),
    cmocka_unit_test(test_pipe_reader_takes_data_bytes_from_head_first),
    cmocka_unit_test(test_pipe_reader_of_short_data_says_what_a_short_file_says),
    cmocka_unit_test(test_pipe_reader_cannot_go_back),
    cmocka_unit_test(test_pipe_reader_in_memory_reads_a_fortran_array_whole),
    cmocka_unit_test(test_pipe_reader_needs_the_whole_header_in_head),
    cmocka_unit_test(test_verify_pipe_counts_trailing_bytes),
    cmocka_unit_test(test_verify_pipe_of_short_data_refused),
);

/* npydt_header_size: how many bytes a header takes, from the first 10 or
 * 12 bytes of a file or upload, so that a reader of a stream reads exactly
 * the header before any data; and the bytes a truncated header needs, in
 * npydt_header_parse's message. */
#include "test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Every valid file has at least 12 bytes: a header of a few bytes could
 * not hold the dict. */
static void assert_size_is_data_offset(const char *name)
{
    size_t len;
    unsigned char *file = test_read_file(test_fixture(name), &len);
    npydt_header *h;
    npydt_error err;
    assert_int_equal(npydt_header_parse(file, len, NULL, &h, &err), NPYDT_OK);
    uint64_t total = 0;
    TEST_ERROR(err2);
    assert_int_equal(npydt_header_size(file, 12, NULL, &total, &err2), NPYDT_OK);
    assert_int_equal(total, npydt_header_data_offset(h));
    npydt_header_free(h);
    free(file);
}

static void test_header_size_is_the_data_offset_of_every_version(void **state)
{
    (void)state;
    assert_size_is_data_offset("fortran_2d.npy");
    assert_size_is_data_offset("version2_small.npy");
    assert_size_is_data_offset("version2_big_header.npy");
    assert_size_is_data_offset("version3_small.npy");
}

/* The answer comes from the first 10 bytes of a 1.0 file and the first 12
 * of a 2.0 or 3.0 file; fewer is NPYDT_E_TRUNCATED with the bytes to give
 * in *total: 10 until the version is known, then 10 or 12. */
static void test_header_size_short_prefix_says_how_many_bytes_to_give(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        size_t need;
    } files[] = {{"fortran_2d.npy", 10}, {"version2_small.npy", 12}, {"version3_small.npy", 12}};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        size_t len;
        unsigned char *file = test_read_file(test_fixture(files[f].name), &len);
        for (size_t n = 0; n < files[f].need; n++) {
            uint64_t total = 99;
            TEST_ERROR(err);
            assert_fails(NPYDT_E_TRUNCATED, &err, npydt_header_size(file, n, NULL, &total, &err));
            assert_int_equal(total, n < 8 ? 10 : files[f].need);
            assert_non_null(strstr(err.message, "needs"));
        }
        uint64_t total = 0;
        npydt_error err;
        assert_int_equal(npydt_header_size(file, files[f].need, NULL, &total, &err), NPYDT_OK);
        free(file);
    }
}

static void test_header_size_messages_name_the_bytes_needed_and_given(void **state)
{
    (void)state;
    uint64_t total;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_TRUNCATED, &err,
                 npydt_header_size("\x93NUMPY", 6, NULL, &total, &err));
    assert_string_equal(err.message, "the preamble needs at least 10 bytes, 6 given: the input "
                                     "ends inside the magic string and version");
    assert_fails(NPYDT_E_TRUNCATED, &err,
                 npydt_header_size("\x93NUMPY\x02\x00\x10\x00", 10, NULL, &total, &err));
    assert_string_equal(err.message, "the preamble needs 12 bytes, 10 given: the input ends "
                                     "inside the header length field");
    assert_int_equal(total, 12);
}

/* A few bytes are enough to refuse what is not a .npy: an archive's "PK"
 * after two. */
static void test_header_size_refuses_bad_magic_from_the_first_bytes(void **state)
{
    (void)state;
    uint64_t total = 99;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_MAGIC, &err, npydt_header_size("PK", 2, NULL, &total, &err));
    assert_int_equal(total, 0);
    assert_fails(NPYDT_E_MAGIC, &err,
                 npydt_header_size("\x93NUMPX\x01\x00\x10\x00", 10, NULL, &total, &err));
}

static void test_header_size_refuses_an_unknown_version(void **state)
{
    (void)state;
    uint64_t total = 99;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_VERSION, &err,
                 npydt_header_size("\x93NUMPY\x04\x00\x10\x00\x00\x00", 12, NULL, &total, &err));
    assert_int_equal(total, 0);
    assert_string_equal(err.message, "format version 4.0 is not supported (1.0, 2.0 and 3.0 are)");
    assert_fails(NPYDT_E_VERSION, &err,
                 npydt_header_size("\x93NUMPY\x01\x01\x10\x00", 10, NULL, &total, &err));
}

/* A HEADER_LEN above the options' limit is refused before it is read; the
 * size it declares is still given. */
static void test_header_size_refuses_a_header_above_the_limit(void **state)
{
    (void)state;
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_header_bytes = 1000;
    /* version 2.0, HEADER_LEN 0x00100000 */
    const char pre[12] = "\x93NUMPY\x02\x00\x00\x00\x10\x00";
    uint64_t total = 0;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_size(pre, 12, &opts, &total, &err));
    assert_int_equal(total, 12 + 0x100000);
    assert_int_equal(npydt_header_size(pre, 12, NULL, &total, &err), NPYDT_OK);
    assert_int_equal(total, 12 + 0x100000);
    /* the largest HEADER_LEN: the sum does not wrap */
    opts.limits.max_header_bytes = SIZE_MAX;
    assert_int_equal(npydt_header_size("\x93NUMPY\x03\x00\xff\xff\xff\xff", 12, &opts, &total,
                                       &err), NPYDT_OK);
    assert_int_equal(total, (uint64_t)12 + UINT32_MAX);
}

static void test_header_size_refuses_null_arguments(void **state)
{
    (void)state;
    uint64_t total;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_header_size("\x93NUMPY", 6, NULL, NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_header_size(NULL, 6, NULL, &total, &err));
    assert_fails(NPYDT_E_TRUNCATED, &err, npydt_header_size(NULL, 0, NULL, &total, &err));
    assert_int_equal(total, 10);
}

/* What a service does with an upload: 12 bytes, the size, the rest of the
 * header, the parse; the data is not read. */
static void test_header_size_lets_a_stream_read_exactly_the_header(void **state)
{
    (void)state;
    int fd = open(test_fixture("version2_big_header.npy"), O_RDONLY);
    assert_true(fd >= 0);
    unsigned char pre[12];
    assert_int_equal(read(fd, pre, sizeof pre), sizeof pre);
    uint64_t total;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_size(pre, sizeof pre, NULL, &total, &err), NPYDT_OK);
    unsigned char *buf = malloc((size_t)total);
    assert_non_null(buf);
    memcpy(buf, pre, sizeof pre);
    assert_int_equal(read(fd, buf + sizeof pre, (size_t)total - sizeof pre),
                     (ssize_t)(total - sizeof pre));
    npydt_header *h;
    assert_int_equal(npydt_header_parse(buf, (size_t)total, NULL, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_header_data_offset(h), total);
    assert_int_equal(lseek(fd, 0, SEEK_CUR), (off_t)total);
    npydt_header_free(h);
    free(buf);
    close(fd);
}

/* A header cut short says how many bytes it needs and how many it got. */
static void test_header_size_truncated_header_parse_names_the_bytes_needed(void **state)
{
    (void)state;
    size_t len;
    unsigned char *file = test_read_file(test_fixture("fortran_2d.npy"), &len);
    npydt_header *h;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_TRUNCATED, &err, npydt_header_parse(file, 100, NULL, &h, &err));
    assert_string_equal(err.message, "header length is 118 bytes but only 90 of them are "
                                     "present: the header needs 128 bytes from the start, "
                                     "100 given");
    assert_int_equal(err.offset, 90);
    free(file);
}

/* The same from a file shorter than its header. */
static void test_header_size_truncated_file_names_the_bytes_needed(void **state)
{
    (void)state;
    size_t len;
    unsigned char *file = test_read_file(test_fixture("fortran_2d.npy"), &len);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(file, 1, 100, f), 100);
    fflush(f);
    npydt_header *h;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_TRUNCATED, &err, npydt_parse_fd(fileno(f), NULL, &h, &err));
    assert_string_equal(err.message, "header length is 118 bytes but only 90 of them are "
                                     "present: the header needs 128 bytes from the start, "
                                     "the file holds 100");
    fclose(f);
    free(file);
}

TEST_LIST("header_size",
    cmocka_unit_test(test_header_size_is_the_data_offset_of_every_version),
    cmocka_unit_test(test_header_size_short_prefix_says_how_many_bytes_to_give),
    cmocka_unit_test(test_header_size_messages_name_the_bytes_needed_and_given),
    cmocka_unit_test(test_header_size_refuses_bad_magic_from_the_first_bytes),
    cmocka_unit_test(test_header_size_refuses_an_unknown_version),
    cmocka_unit_test(test_header_size_refuses_a_header_above_the_limit),
    cmocka_unit_test(test_header_size_refuses_null_arguments),
    cmocka_unit_test(test_header_size_lets_a_stream_read_exactly_the_header),
    cmocka_unit_test(test_header_size_truncated_header_parse_names_the_bytes_needed),
    cmocka_unit_test(test_header_size_truncated_file_names_the_bytes_needed),
);

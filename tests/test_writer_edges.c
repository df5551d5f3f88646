/* The record writer at its edges: arguments it refuses (NULL writer, out,
 * path, records; too many dimensions; shapes and counts past 64 bits or
 * the largest file offset), a shape whose other axes hold no record,
 * caller's descriptors that cannot be written, setters whose path is not
 * a field, a member whose archive fails, and appends that must change the
 * header's format text (a version 1.0 header np.save's text would not fit,
 * latin-1 names in a version 3.0 file). The file operations' failures are
 * in tests/check_writer_faults.sh. */
#include "test_scratch.h"
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_bytes(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* ---- arguments ---------------------------------------------------------------- */

static int discard_write(void *ctx, const void *buf, size_t len)
{
    (void)ctx;
    (void)buf;
    (void)len;
    return 0;
}

static void test_writer_edges_null_arguments_are_refused(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = test_parse_literal("'<i4'");
    uint64_t shape[1] = {0};
    npydt_writer *w;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_writer_create_path(s->path, dt, shape, 1, NULL, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_writer_create_path(NULL, dt, shape, 1, NULL, &w, &err));
    assert_string_equal(err.message, "path is NULL");
    assert_null(w);
    assert_fails(NPYDT_E_ARG, &err, npydt_writer_create_fd(0, dt, shape, 1, NULL, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_writer_append_path(s->path, NULL, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_writer_append_path(NULL, NULL, &w, &err));
    assert_string_equal(err.message, "path is NULL");
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_writer_create_member(NULL, "a.npy", NPYDT_NPZ_STORED, dt, shape, 1, NULL,
                                            NULL, &err));
    assert_string_equal(err.message, "out is NULL");
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_writer_create_member(NULL, "a.npy", NPYDT_NPZ_STORED, dt, shape, 1, NULL,
                                            &w, &err));
    assert_string_equal(err.message, "archive writer is NULL");
    /* a member's dtype and name are refused before anything is written */
    npydt_npz_sink sink = {discard_write, NULL, NULL};
    npydt_npz_writer *z;
    assert_int_equal(npydt_npz_writer_new(&sink, NULL, &z, &err), NPYDT_OK);
    npydt_dtype *obj = test_parse_literal("'|O'");
    assert_fails(NPYDT_E_OBJECT, &err,
                 npydt_writer_create_member(z, "a.npy", NPYDT_NPZ_STORED, obj, shape, 1, NULL,
                                            &w, &err));
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_writer_create_member(z, "", NPYDT_NPZ_STORED, dt, shape, 1, NULL, &w, &err));
    assert_null(w);
    npydt_npz_writer_free(z);
    npydt_dtype_free(obj);
    /* a NULL writer: every call but close refuses it, the accessors give nothing */
    assert_fails(NPYDT_E_ARG, &err, npydt_writer_write(NULL, "abcd", 1, &err));
    assert_string_equal(err.message, "writer is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_writer_flush(NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_writer_commit(NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_writer_set_i64(NULL, "x", 1, &err));
    assert_null(npydt_writer_dtype(NULL));
    assert_int_equal(npydt_writer_count(NULL), 0);
    assert_null(npydt_writer_record(NULL));
    assert_int_equal(npydt_writer_close(NULL, &err), NPYDT_OK);
    npydt_dtype_free(dt);
}

static void test_writer_edges_more_dimensions_than_the_limit_are_refused(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = test_parse_literal("'<i4'");
    uint64_t shape[33] = {0};
    npydt_writer *w;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_writer_create_path(s->path, dt, shape, 33, NULL, &w, &err));
    assert_string_equal(err.message, "33 dimensions is above the limit of 32");
    assert_int_equal(access(s->path, F_OK), -1);
    npydt_dtype_free(dt);
}

static void test_writer_edges_a_shape_past_64_bits_is_refused(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = test_parse_literal("'<i4'");
    uint64_t shape[3] = {0, (uint64_t)1 << 40, (uint64_t)1 << 30};
    npydt_writer *w;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_OVERFLOW, &err, npydt_writer_create_path(s->path, dt, shape, 3, NULL, &w, &err));
    assert_string_equal(err.message, "the shape's size does not fit 64 bits");
    assert_int_equal(access(s->path, F_OK), -1);
    npydt_dtype_free(dt);
}

static void test_writer_edges_writes_past_64_bits_or_the_largest_offset_are_refused(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = test_parse_literal("'|u1'");
    uint64_t shape[1] = {0};
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.no_sync = 1;
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_write(w, "a", 1, &err), NPYDT_OK);
    /* nothing to write is no call at all, NULL records or not */
    assert_int_equal(npydt_writer_write(w, NULL, 0, &err), NPYDT_OK);
    assert_fails(NPYDT_E_ARG, &err, npydt_writer_write(w, NULL, 1, &err));
    assert_string_equal(err.message, "records is NULL");
    assert_fails(NPYDT_E_OVERFLOW, &err, npydt_writer_write(w, "a", UINT64_MAX, &err));
    assert_string_equal(err.message, "18446744073709551615 more records do not fit");
    assert_fails(NPYDT_E_OVERFLOW, &err, npydt_writer_write(w, "a", (uint64_t)1 << 63, &err));
    /* 2^63 bytes are past a 32-bit host's memory before they are past
     * the largest file offset */
    assert_string_equal(err.message, (uint64_t)SIZE_MAX >> 63
                                         ? "the file would pass the largest file offset"
                                         : "9223372036854775808 more records do not fit");
    /* refusals leave the writer as it was */
    assert_int_equal(npydt_writer_count(w), 1);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    npydt_header *h;
    assert_int_equal(npydt_parse_path(s->path, NULL, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_header_count(h), 1);
    npydt_header_free(h);
    npydt_dtype_free(dt);
}

/* ---- shapes ------------------------------------------------------------------- */

static void test_writer_edges_a_shape_whose_rows_hold_nothing_takes_no_record(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = test_parse_literal("'<i4'");
    uint64_t shape[2] = {0, 0};
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.no_sync = 1;
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 2, &opts, &w, &err), NPYDT_OK);
    assert_fails(NPYDT_E_SHAPE, &err, npydt_writer_write(w, "abcd", 1, &err));
    assert_string_equal(err.message, "the other dimensions of the shape hold no record");
    assert_int_equal(npydt_writer_flush(w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    size_t len;
    unsigned char *b = test_read_file(s->path, &len);
    static const char want[] = "{'descr': '<i4', 'fortran_order': False, 'shape': (0, 0), }";
    assert_int_equal(len, 128);
    assert_memory_equal(b + 10, want, sizeof want - 1);
    free(b);
    npydt_dtype_free(dt);
}

/* ---- the caller's descriptor -------------------------------------------------- */

static void test_writer_edges_a_descriptor_that_cannot_be_stated_is_refused(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'<i4'");
    uint64_t shape[1] = {0};
    npydt_writer *w;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err, npydt_writer_create_fd(-1, dt, shape, 1, NULL, &w, &err));
    char want[128];
    snprintf(want, sizeof want, "file descriptor -1: cannot stat: %s", strerror(EBADF));
    assert_string_equal(err.message, want);
    npydt_dtype_free(dt);
}

static void test_writer_edges_a_read_only_descriptor_fails_at_the_header(void **state)
{
    struct scratch *s = *state;
    write_bytes(s->path, "", 0);
    int fd = open(s->path, O_RDONLY);
    assert_true(fd >= 0);
    npydt_dtype *dt = test_parse_literal("'<i4'");
    uint64_t shape[1] = {0};
    npydt_writer *w;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err, npydt_writer_create_fd(fd, dt, shape, 1, NULL, &w, &err));
    char want[128];
    snprintf(want, sizeof want, "file descriptor %d: write failed: %s", fd, strerror(EBADF));
    assert_string_equal(err.message, want);
    /* an object dtype is refused before anything is written */
    npydt_dtype *obj = test_parse_literal("'|O'");
    assert_fails(NPYDT_E_OBJECT, &err, npydt_writer_create_fd(fd, obj, shape, 1, NULL, &w, &err));
    close(fd);
    npydt_dtype_free(obj);
    npydt_dtype_free(dt);
}

static void test_writer_edges_a_0d_array_goes_into_the_callers_descriptor_at_close(void **state)
{
    struct scratch *s = *state;
    int fd = open(s->path, O_RDWR | O_CREAT | O_EXCL, 0644);
    assert_true(fd >= 0);
    npydt_dtype *dt = test_parse_literal("'<i4'");
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_create_fd(fd, dt, NULL, 0, NULL, &w, &err), NPYDT_OK);
    assert_int_equal(lseek(fd, 0, SEEK_END), 0);
    assert_int_equal(npydt_writer_write(w, "\x2a\0\0\0", 1, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    /* the caller's descriptor stays open, the file holds header and record */
    assert_int_equal(lseek(fd, 0, SEEK_END), 132);
    close(fd);
    size_t len;
    unsigned char *b = test_read_file(s->path, &len);
    assert_memory_equal(b + 128, "\x2a\0\0\0", 4);
    free(b);
    npydt_dtype_free(dt);
}

/* An I/O failure reported to a NULL error struct is still the writer's
 * failure: every later call returns it, with its status as the message. */
static void test_writer_edges_a_failure_without_an_error_struct_is_kept(void **state)
{
    struct scratch *s = *state;
    int fd = open(s->path, O_RDWR | O_CREAT | O_EXCL, 0644);
    assert_true(fd >= 0);
    npydt_dtype *dt = test_parse_literal("'<i4'");
    uint64_t shape[1] = {0};
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_create_fd(fd, dt, shape, 1, NULL, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_write(w, "abcd", 1, NULL), NPYDT_OK);
    int ro = open(s->path, O_RDONLY);
    assert_true(ro >= 0);
    assert_int_equal(dup2(ro, fd), fd);
    close(ro);
    assert_int_equal(npydt_writer_flush(w, NULL), NPYDT_E_IO);
    assert_fails(NPYDT_E_IO, &err, npydt_writer_write(w, "abcd", 1, &err));
    assert_string_equal(err.message, npydt_status_name(NPYDT_E_IO));
    assert_fails(NPYDT_E_IO, &err, npydt_writer_set_i64(w, "", 1, &err));
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_E_IO);
    close(fd);
    npydt_dtype_free(dt);
}

/* ---- setters ------------------------------------------------------------------ */

static void test_writer_edges_every_setter_names_a_path_that_is_no_field(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = test_parse_literal("[('a', '<i4')]");
    uint64_t shape[1] = {0};
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.no_sync = 1;
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err), NPYDT_OK);
    const double c[2] = {1, 2};
    const npydt_datetime when = {0};
    npydt_status st[8] = {
        npydt_writer_set_i64(w, "b", 1, &err),
        npydt_writer_set_u64(w, "b", 1, &err),
        npydt_writer_set_double(w, "b", 1, &err),
        npydt_writer_set_complex(w, "b", c, &err),
        npydt_writer_set_bool(w, "b", 1, &err),
        npydt_writer_set_bytes(w, "b", "x", 1, &err),
        npydt_writer_set_unicode(w, "b", "x", 1, &err),
        npydt_writer_set_datetime(w, "b", &when, &err),
    };
    for (int i = 0; i < 8; i++)
        assert_int_equal(st[i], NPYDT_E_NOT_FOUND);
    assert_string_equal(err.path, "b");
    assert_fails(NPYDT_E_ARG, &err, npydt_writer_set_u64(w, NULL, 1, &err));
    assert_string_equal(err.message, "path is NULL");
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    npydt_dtype_free(dt);
}

/* ---- members ------------------------------------------------------------------ */

/* A sink that takes limit bytes, then fails. */
struct failing_sink {
    size_t taken, limit;
};

static int failing_write(void *ctx, const void *buf, size_t len)
{
    struct failing_sink *f = ctx;
    (void)buf;
    if (len > f->limit - f->taken)
        return -1;
    f->taken += len;
    return 0;
}

static void test_writer_edges_a_member_whose_sink_fails_at_close_reports_it(void **state)
{
    (void)state;
    struct failing_sink fs = {0, 0};
    npydt_npz_sink sink = {failing_write, NULL, &fs};
    npydt_npz_writer *z;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_writer_new(&sink, NULL, &z, &err), NPYDT_OK);
    npydt_dtype *dt = test_parse_literal("'<i4'");
    uint64_t shape[1] = {2};
    npydt_writer *w;
    /* the sink takes the local header and the member's .npy header only */
    fs.limit = (size_t)-1;
    assert_int_equal(npydt_writer_create_member(z, "a.npy", NPYDT_NPZ_STORED, dt, shape, 1, NULL,
                                                &w, &err),
                     NPYDT_OK);
    fs.limit = fs.taken;
    assert_int_equal(npydt_writer_write(w, "abcdefgh", 2, &err), NPYDT_OK);
    assert_fails(NPYDT_E_IO, &err, npydt_writer_close(w, &err));
    /* the archive fails as a whole */
    assert_int_equal(npydt_npz_writer_finish(z, NULL, &err), NPYDT_E_IO);
    npydt_npz_writer_free(z);
    npydt_dtype_free(dt);
}

/* ---- appends that change the header's text -------------------------------------- */

/* A version 1.0 file of n '<i4' fields f0000... and one record of zeros,
 * its header written without np.save's spaces. */
static size_t compact_v1(unsigned char *out, size_t size, int n)
{
    char *text = malloc(70000);
    assert_non_null(text);
    size_t len = (size_t)sprintf(text, "{'descr':[");
    for (int i = 0; i < n; i++)
        len += (size_t)sprintf(text + len, "('f%04d','<i4'),", i);
    len += (size_t)sprintf(text + len, "],'fortran_order':False,'shape':(1,)}");
    size_t hlen = len + 1;
    hlen += (64 - (10 + hlen) % 64) % 64;
    size_t total = 10 + hlen + 4 * (size_t)n;
    assert_true(total <= size && hlen <= 0xFFFF);
    memcpy(out, "\x93NUMPY\x01\x00", 8);
    out[8] = (unsigned char)(hlen & 0xFF);
    out[9] = (unsigned char)(hlen >> 8);
    memcpy(out + 10, text, len);
    memset(out + 10 + len, ' ', hlen - len - 1);
    out[10 + hlen - 1] = '\n';
    memset(out + 10 + hlen, 0, 4 * (size_t)n);
    free(text);
    return total;
}

static void test_writer_edges_append_past_version_1_room_rewrites_in_version_2(void **state)
{
    struct scratch *s = *state;
    /* 3,900 fields: 62,400 bytes as written, more than 65,535 as np.save
     * spells them */
    static unsigned char file[90000];
    size_t n = compact_v1(file, sizeof file, 3900);
    write_bytes(s->path, file, n);
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.no_sync = 1;
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_append_path(s->path, &opts, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_count(w), 1);
    assert_int_equal(npydt_writer_commit(w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    npydt_header *h;
    assert_int_equal(npydt_parse_path(s->path, NULL, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_header_count(h), 2);
    assert_int_equal(npydt_header_version_major(h), 2);
    npydt_header_free(h);
}

/* Appends to np.save's own 2.0 and 3.0 headers of a short text (written
 * with an explicit version=) keep the file's version and header bytes:
 * the header is encoded for that version, not the one np.save chooses. */
static void append_keeps_version(struct scratch *s, const char *fixture, int major,
                                 const void *record, size_t itemsize)
{
    size_t len;
    unsigned char *orig = test_read_file(test_fixture(fixture), &len);
    write_bytes(s->path, orig, len);
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.no_sync = 1;
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_append_path(s->path, &opts, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_write(w, record, 1, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    size_t got_len;
    unsigned char *got = test_read_file(s->path, &got_len);
    assert_int_equal(got_len, len + itemsize);
    assert_int_equal(got[6], major);
    /* only the count's digit and the data changed: (3,) became (4,) */
    size_t data = len - 3 * itemsize;
    const unsigned char *three = memchr(orig, '3', data);
    for (size_t i = 0; three && i < data; i++)
        if (i != (size_t)(three - orig) && got[i] != orig[i])
            fail_msg("%s: header byte %zu changed", fixture, i);
    assert_non_null(three);
    assert_int_equal(got[three - orig], '4');
    free(got);
    free(orig);
}

static void test_writer_edges_append_to_version_2_short_header_stays_version_2(void **state)
{
    static const double one = 1.0;
    append_keeps_version(*state, "version2_small.npy", 2, &one, 8);
}

static void test_writer_edges_append_to_version_3_ascii_header_stays_version_3(void **state)
{
    static const int32_t one = 1;
    append_keeps_version(*state, "version3_small.npy", 3, &one, 4);
}

static void test_writer_edges_append_to_version_3_keeps_latin1_names_in_utf8(void **state)
{
    struct scratch *s = *state;
    /* np.lib.format.write_array(f, np.zeros(1, [('\xe9', '<i4')]), version=(3, 0)) */
    static const char dict[] = "{'descr': [('\xc3\xa9', '<i4')], 'fortran_order': False, "
                               "'shape': (1,), }";
    unsigned char file[128 + 4];
    size_t len = sizeof dict - 1;
    memcpy(file, "\x93NUMPY\x03\x00", 8);
    uint32_t hlen = 128 - 12;
    for (int i = 0; i < 4; i++)
        file[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(file + 12, dict, len);
    memset(file + 12 + len, ' ', 128 - 12 - len - 1);
    file[127] = '\n';
    memset(file + 128, 0, 4);
    write_bytes(s->path, file, sizeof file);
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.no_sync = 1;
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_append_path(s->path, &opts, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_write(w, "\1\0\0\0", 1, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    size_t got_len;
    unsigned char *got = test_read_file(s->path, &got_len);
    assert_int_equal(got_len, 128 + 8);
    assert_int_equal(got[6], 3);
    static const char want[] = "{'descr': [('\xc3\xa9', '<i4')], 'fortran_order': False, "
                               "'shape': (2,), }";
    assert_memory_equal(got + 12, want, sizeof want - 1);
    free(got);
}

/* Replacing through a symbolic link: the link becomes the new file, which
 * takes the mode of the file the link named (as npydt_output does). */
static void test_writer_edges_replace_through_a_link_keeps_the_mode_of_its_file(void **state)
{
    struct scratch *s = *state;
    TEST_ERROR(err);
    char target[160];
    snprintf(target, sizeof target, "%s/target.npy", s->dir);
    FILE *f = fopen(target, "wb");
    assert_non_null(f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(target, 0604), 0);
    assert_int_equal(symlink("target.npy", s->path), 0);
    npydt_dtype *dt = test_parse_literal("'<i4'");
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.replace = 1;
    const uint64_t shape[1] = {0};
    npydt_writer *w;
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_write(w, "\1\0\0\0", 1, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    npydt_dtype_free(dt);
    struct stat sb;
    assert_int_equal(lstat(s->path, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    assert_int_equal(sb.st_mode & 07777, 0604);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

TEST_LIST("writer_edges",
          T(test_writer_edges_null_arguments_are_refused),
          T(test_writer_edges_more_dimensions_than_the_limit_are_refused),
          T(test_writer_edges_a_shape_past_64_bits_is_refused),
          T(test_writer_edges_writes_past_64_bits_or_the_largest_offset_are_refused),
          T(test_writer_edges_a_shape_whose_rows_hold_nothing_takes_no_record),
          T(test_writer_edges_a_descriptor_that_cannot_be_stated_is_refused),
          T(test_writer_edges_a_read_only_descriptor_fails_at_the_header),
          T(test_writer_edges_a_0d_array_goes_into_the_callers_descriptor_at_close),
          T(test_writer_edges_a_failure_without_an_error_struct_is_kept),
          T(test_writer_edges_every_setter_names_a_path_that_is_no_field),
          T(test_writer_edges_a_member_whose_sink_fails_at_close_reports_it),
          T(test_writer_edges_append_past_version_1_room_rewrites_in_version_2),
          T(test_writer_edges_append_to_version_3_keeps_latin1_names_in_utf8),
          T(test_writer_edges_append_to_version_2_short_header_stays_version_2),
          T(test_writer_edges_append_to_version_3_ascii_header_stays_version_3),
          T(test_writer_edges_replace_through_a_link_keeps_the_mode_of_its_file));

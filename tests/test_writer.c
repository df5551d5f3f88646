/* The record writer: files byte for byte as NumPy writes them
 * (tests/fixtures_writer, from tests/gen_writer_fixtures.py: records whose
 * values follow their index), flushes that count records in the header,
 * appending to files of every format version and to a header without
 * room, archive members as np.savez writes them, fields set by path, and
 * every refusal:
 * existing files, object dtypes, 0-d arrays, incomplete rows, I/O errors
 * that leave the writer unusable, and every allocation failed in turn. */
#include "test_scratch.h"
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIRST 5   /* records in a fixture NAME.npy */
#define ALL 12    /* records in NAME.grown.npy */

static const char *fixture(const char *name)
{
    static char path[1024];
    const char *dir = getenv("FIXTURES_WRITER");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fixtures_writer", name);
    return path;
}

/* Files in the scratch folder (the writer must leave no temporary file). */
static int files_in(const struct scratch *s)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", s->dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p) {
        if (fscanf(p, "%d", &n) != 1)
            n = -1;
        pclose(p);
    }
    return n;
}

static void copy_file(const char *from, const char *to)
{
    size_t len;
    unsigned char *b = test_read_file(from, &len);
    FILE *f = fopen(to, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    free(b);
}

static void assert_same_file(const char *path, const char *expected)
{
    size_t len, want_len;
    unsigned char *got = test_read_file(path, &len);
    unsigned char *want = test_read_file(expected, &want_len);
    assert_int_equal(len, want_len);
    assert_memory_equal(got, want, len);
    free(got);
    free(want);
}

/* Records count of the file's header as npydt reads it. */
static uint64_t header_count(const char *path)
{
    npydt_header *h;
    npydt_error err;
    assert_int_equal(npydt_parse_path(path, NULL, &h, &err), NPYDT_OK);
    uint64_t n = npydt_header_count(h);
    npydt_header_free(h);
    return n;
}

static off_t file_size(const char *path)
{
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    return sb.st_size;
}

/* ST = [('x', '<i4'), ('y', '>f8')] record i: (i, i / 2), as the fixtures. */
static void st_record(unsigned char out[12], uint64_t i)
{
    uint32_t x = (uint32_t)i;
    for (int k = 0; k < 4; k++)
        out[k] = (unsigned char)(x >> (8 * k));
    test_store_f8((double)i / 2, '>', out + 4);
}

static void i4_record(unsigned char out[4], uint64_t i)
{
    for (int k = 0; k < 4; k++)
        out[k] = (unsigned char)(i >> (8 * k));
}

/* Append records from..to-1 of the fixture's dtype, one call each. */
static void append_records(npydt_writer *w, uint64_t from, uint64_t to)
{
    npydt_error err;
    size_t itemsize = npydt_dtype_itemsize(npydt_writer_dtype(w));
    for (uint64_t i = from; i < to; i++) {
        unsigned char rec[12];
        if (itemsize == 12)
            st_record(rec, i);
        else
            i4_record(rec, i);
        assert_int_equal(npydt_writer_write(w, rec, 1, &err), NPYDT_OK);
    }
}

static npydt_dtype *parse(const char *literal)
{
    return test_parse_literal(literal);
}

/* ---- creating ---------------------------------------------------------------- */

static void test_writer_create_writes_what_np_save_writes(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {999};   /* the growth axis is ignored */
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, NULL, &w, &err), NPYDT_OK);
    append_records(w, 0, ALL);
    assert_int_equal(npydt_writer_count(w), ALL);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_same_file(s->path, fixture("v1.grown.npy"));
    assert_int_equal(files_in(s), 1);
    npydt_dtype_free(dt);
}

static void test_writer_new_file_is_an_empty_array_at_once(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer *w;
    npydt_error err;
    assert_int_equal(npydt_writer_create_path(s->path, dt, NULL, 1, NULL, &w, &err), NPYDT_E_ARG);
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, NULL, &w, &err), NPYDT_OK);
    assert_int_equal(header_count(s->path), 0);
    assert_int_equal(files_in(s), 1);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    npydt_dtype_free(dt);
}

static void test_writer_flush_makes_the_header_count_the_records(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, NULL, &w, &err), NPYDT_OK);
    off_t empty = file_size(s->path);
    append_records(w, 0, 3);
    /* buffered: neither in the file nor counted */
    assert_int_equal(file_size(s->path), empty);
    assert_int_equal(header_count(s->path), 0);
    assert_int_equal(npydt_writer_flush(w, &err), NPYDT_OK);
    assert_int_equal(header_count(s->path), 3);
    assert_int_equal(file_size(s->path), empty + 12);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    npydt_dtype_free(dt);
}

static void test_writer_flush_every_flushes_by_itself(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.flush_every = 4;
    opts.no_sync = 1;
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err), NPYDT_OK);
    append_records(w, 0, 3);
    assert_int_equal(header_count(s->path), 0);
    append_records(w, 3, 9);
    assert_int_equal(header_count(s->path), 8);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_int_equal(header_count(s->path), 9);
    npydt_dtype_free(dt);
}

static void test_writer_large_writes_bypass_a_small_buffer(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.buffer_bytes = 8;
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err), NPYDT_OK);
    unsigned char recs[4 * ALL];
    for (int i = 0; i < ALL; i++)
        i4_record(recs + 4 * i, (uint64_t)i);
    off_t empty = file_size(s->path);
    assert_int_equal(npydt_writer_write(w, recs, 1, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_write(w, recs + 4, 10, &err), NPYDT_OK);
    /* the first record went out with the large block, which went straight through */
    assert_int_equal(file_size(s->path), empty + 44);
    assert_int_equal(npydt_writer_write(w, recs + 44, 1, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_same_file(s->path, fixture("v1.grown.npy"));
    npydt_dtype_free(dt);
}

static void test_writer_record_commit_appends_and_zeroes(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("[('x', '<i4'), ('y', '>f8')]");
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, NULL, &w, &err), NPYDT_OK);
    assert_true(npydt_dtype_equal(npydt_writer_dtype(w), dt));
    for (uint64_t i = 0; i < ALL; i++) {
        unsigned char *rec = npydt_writer_record(w);
        static const unsigned char zero[12];
        assert_memory_equal(rec, zero, 12);
        st_record(rec, i);
        assert_int_equal(npydt_writer_commit(w, &err), NPYDT_OK);
    }
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    /* np.save's header for this dtype is 1.0; the fixture's is 2.0 */
    size_t len;
    unsigned char *got = test_read_file(s->path, &len);
    size_t want_len;
    unsigned char *want = test_read_file(fixture("v2.grown.npy"), &want_len);
    assert_int_equal(len, 128 + 12 * ALL);
    assert_memory_equal(got + 128, want + want_len - 12 * ALL, 12 * ALL);
    free(got);
    free(want);
    npydt_dtype_free(dt);
}

static void test_writer_fortran_order_grows_the_last_axis(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.fortran_order = 1;
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[2] = {3, 0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 2, &opts, &w, &err), NPYDT_OK);
    append_records(w, 0, 12);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_same_file(s->path, fixture("fortran.grown.npy"));
    npydt_dtype_free(dt);
}

static void test_writer_create_fd_writes_into_the_callers_file(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    int fd = open(s->path, O_RDWR | O_CREAT | O_EXCL, 0644);
    assert_true(fd >= 0);
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_fd(fd, dt, shape, 1, NULL, &w, &err), NPYDT_OK);
    append_records(w, 0, ALL);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    /* not closed by the writer */
    assert_int_equal(close(fd), 0);
    assert_same_file(s->path, fixture("v1.grown.npy"));
    npydt_dtype_free(dt);
}

static void test_writer_create_fd_refuses_a_file_with_bytes(void **state)
{
    struct scratch *s = *state;
    copy_file(fixture("v1.npy"), s->path);
    npydt_dtype *dt = parse("'<i4'");
    int fd = open(s->path, O_RDWR);
    assert_true(fd >= 0);
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    test_poison_error(&err);
    npydt_status st = npydt_writer_create_fd(fd, dt, shape, 1, NULL, &w, &err);
    assert_int_equal(st, NPYDT_E_ARG);
    test_assert_error_filled(st, &err);
    assert_null(w);
    close(fd);
    npydt_dtype_free(dt);
}

/* ---- refusals ---------------------------------------------------------------- */

static void test_writer_create_refuses_an_existing_file(void **state)
{
    struct scratch *s = *state;
    copy_file(fixture("v1.npy"), s->path);
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    test_poison_error(&err);
    npydt_status st = npydt_writer_create_path(s->path, dt, shape, 1, NULL, &w, &err);
    assert_int_equal(st, NPYDT_E_IO);
    test_assert_error_filled(st, &err);
    assert_non_null(strstr(err.message, s->path));
    assert_non_null(strstr(err.message, "exists"));
    assert_null(w);
    assert_same_file(s->path, fixture("v1.npy"));
    assert_int_equal(files_in(s), 1);
    npydt_dtype_free(dt);
}

static void test_writer_replace_keeps_the_old_file_until_the_first_flush(void **state)
{
    struct scratch *s = *state;
    copy_file(fixture("v1.npy"), s->path);
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.replace = 1;
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err), NPYDT_OK);
    append_records(w, 0, 3);
    assert_same_file(s->path, fixture("v1.npy"));
    assert_int_equal(npydt_writer_flush(w, &err), NPYDT_OK);
    assert_int_equal(header_count(s->path), 3);
    append_records(w, 3, ALL);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_same_file(s->path, fixture("v1.grown.npy"));
    assert_int_equal(files_in(s), 1);
    npydt_dtype_free(dt);
}

static void test_writer_replace_keeps_the_replaced_files_mode(void **state)
{
    struct scratch *s = *state;
    copy_file(fixture("v1.npy"), s->path);
    assert_int_equal(chmod(s->path, 0640), 0);
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.replace = 1;
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err), NPYDT_OK);
    append_records(w, 0, ALL);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    struct stat sb;
    assert_int_equal(stat(s->path, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0640);
    assert_same_file(s->path, fixture("v1.grown.npy"));
    npydt_dtype_free(dt);
}

static void test_writer_refuses_object_dtypes(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("[('a', '<i4'), ('o', '|O')]");
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    test_poison_error(&err);
    npydt_status st = npydt_writer_create_path(s->path, dt, shape, 1, NULL, &w, &err);
    assert_int_equal(st, NPYDT_E_OBJECT);
    test_assert_error_filled(st, &err);
    assert_int_equal(files_in(s), 0);
    npydt_dtype_free(dt);
    /* nor appends to a file of one */
    assert_int_equal(npydt_writer_append_path(test_fixture("object_O.npy"), NULL, &w, &err),
                     NPYDT_E_OBJECT);
    assert_null(w);
}

static void test_writer_0d_array_appears_at_close_with_its_record(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer *w;
    npydt_error err;
    assert_int_equal(npydt_writer_create_path(s->path, dt, NULL, 0, NULL, &w, &err), NPYDT_OK);
    unsigned char rec[4];
    i4_record(rec, 7);
    assert_int_equal(npydt_writer_write(w, rec, 1, &err), NPYDT_OK);
    assert_int_equal(files_in(s), 0);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    npydt_reader *r;
    assert_int_equal(npydt_reader_open_path(s->path, NULL, &r, &err), NPYDT_OK);
    assert_int_equal(npydt_header_ndim(npydt_reader_header(r)), 0);
    assert_memory_equal(npydt_reader_bytes(r), rec, 4);
    npydt_reader_close(r);
    assert_int_equal(files_in(s), 1);
    npydt_dtype_free(dt);
}

static void test_writer_0d_array_refuses_a_second_record(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer *w;
    npydt_error err;
    assert_int_equal(npydt_writer_create_path(s->path, dt, NULL, 0, NULL, &w, &err), NPYDT_OK);
    unsigned char rec[8] = {1, 0, 0, 0, 2, 0, 0, 0};
    test_poison_error(&err);
    npydt_status st = npydt_writer_write(w, rec, 2, &err);
    assert_int_equal(st, NPYDT_E_SHAPE);
    test_assert_error_filled(st, &err);
    assert_int_equal(npydt_writer_commit(w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_commit(w, &err), NPYDT_E_SHAPE);
    assert_int_equal(npydt_writer_count(w), 1);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_int_equal(header_count(s->path), 1);
    npydt_dtype_free(dt);
}

static void test_writer_0d_array_without_its_record_leaves_no_file(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer *w;
    npydt_error err;
    assert_int_equal(npydt_writer_create_path(s->path, dt, NULL, 0, NULL, &w, &err), NPYDT_OK);
    test_poison_error(&err);
    npydt_status st = npydt_writer_close(w, &err);
    assert_int_equal(st, NPYDT_E_SHAPE);
    test_assert_error_filled(st, &err);
    assert_int_equal(files_in(s), 0);
    npydt_dtype_free(dt);
}

static void test_writer_incomplete_row_at_close_keeps_the_whole_rows(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.fortran_order = 1;
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[2] = {3, 0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 2, &opts, &w, &err), NPYDT_OK);
    append_records(w, 0, 14);
    assert_int_equal(npydt_writer_flush(w, &err), NPYDT_OK);
    /* a flush counts whole rows only */
    assert_int_equal(header_count(s->path), 12);
    test_poison_error(&err);
    npydt_status st = npydt_writer_close(w, &err);
    assert_int_equal(st, NPYDT_E_SHAPE);
    test_assert_error_filled(st, &err);
    assert_same_file(s->path, fixture("fortran.grown.npy"));
    npydt_dtype_free(dt);
}

static void test_writer_options_with_reserved_room_are_refused(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.reserved[2] = 1;
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err),
                     NPYDT_E_ARG);
    npydt_writer_options_init(&opts);
    opts.no_room = (npydt_no_room)7;
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err),
                     NPYDT_E_ARG);
    assert_int_equal(files_in(s), 0);
    assert_int_equal(npydt_writer_close(NULL, &err), NPYDT_OK);
    npydt_dtype_free(dt);
}

static void test_writer_io_error_leaves_only_close(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    int fd = open(s->path, O_RDWR | O_CREAT | O_EXCL, 0644);
    assert_true(fd >= 0);
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_fd(fd, dt, shape, 1, NULL, &w, &err), NPYDT_OK);
    append_records(w, 0, 3);
    /* the descriptor now refuses writes */
    int ro = open(s->path, O_RDONLY);
    assert_true(ro >= 0);
    assert_int_equal(dup2(ro, fd), fd);
    close(ro);
    test_poison_error(&err);
    npydt_status st = npydt_writer_flush(w, &err);
    assert_int_equal(st, NPYDT_E_IO);
    test_assert_error_filled(st, &err);
    char want[64];
    snprintf(want, sizeof want, "file descriptor %d: write failed: %s", fd, strerror(EBADF));
    assert_string_equal(err.message, want);
    /* every later call gives the same error; the header still counts 0 */
    assert_int_equal(npydt_writer_write(w, "abcd", 1, &err), NPYDT_E_IO);
    assert_string_equal(err.message, want);
    assert_int_equal(npydt_writer_commit(w, &err), NPYDT_E_IO);
    assert_int_equal(npydt_writer_flush(w, &err), NPYDT_E_IO);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_E_IO);
    assert_int_equal(header_count(s->path), 0);
    close(fd);
    npydt_dtype_free(dt);
}

static void test_writer_io_errors_name_the_path_and_errno(void **state)
{
    struct scratch *s = *state;
    npydt_writer *w;
    npydt_error err;
    npydt_status st = npydt_writer_append_path(s->path, NULL, &w, &err);
    assert_int_equal(st, NPYDT_E_IO);
    char want[256];
    snprintf(want, sizeof want, "%s: open failed: %s", s->path, strerror(ENOENT));
    assert_string_equal(err.message, want);
}

/* ---- appending --------------------------------------------------------------- */

/* Append records FIRST..ALL-1 to a copy of NAME.npy: the result must be
 * NAME.grown.npy. */
static void append_and_compare(const struct scratch *s, const char *name)
{
    char from[256], grown[256];
    snprintf(from, sizeof from, "%s.npy", name);
    snprintf(grown, sizeof grown, "%s.grown.npy", name);
    copy_file(fixture(from), s->path);
    npydt_writer *w;
    npydt_error err;
    assert_int_equal(npydt_writer_append_path(s->path, NULL, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_count(w), FIRST);
    append_records(w, FIRST, ALL);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_same_file(s->path, fixture(grown));
    assert_int_equal(files_in(s), 1);
}

static void test_writer_appends_to_version_1(void **state) { append_and_compare(*state, "v1"); }
static void test_writer_appends_to_version_2(void **state) { append_and_compare(*state, "v2"); }
static void test_writer_appends_to_version_3(void **state) { append_and_compare(*state, "v3"); }
static void test_writer_appends_to_version_3_names(void **state)
{
    append_and_compare(*state, "v3_names");
}

static void test_writer_appends_fortran_order_along_the_last_axis(void **state)
{
    struct scratch *s = *state;
    copy_file(fixture("fortran.npy"), s->path);
    npydt_writer *w;
    npydt_error err;
    assert_int_equal(npydt_writer_append_path(s->path, NULL, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_count(w), 6);
    append_records(w, 6, 12);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_same_file(s->path, fixture("fortran.grown.npy"));
}

static void test_writer_rewrites_a_header_without_room_once(void **state)
{
    append_and_compare(*state, "noroom");
}

static void test_writer_no_room_fail_leaves_the_file_untouched(void **state)
{
    struct scratch *s = *state;
    copy_file(fixture("noroom.npy"), s->path);
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.no_room = NPYDT_NO_ROOM_FAIL;
    npydt_writer *w;
    npydt_error err;
    test_poison_error(&err);
    npydt_status st = npydt_writer_append_path(s->path, &opts, &w, &err);
    assert_int_equal(st, NPYDT_E_LIMIT);
    test_assert_error_filled(st, &err);
    assert_non_null(strstr(err.message, "no room"));
    assert_null(w);
    assert_same_file(s->path, fixture("noroom.npy"));
    assert_int_equal(files_in(s), 1);
}

static void test_writer_append_cuts_an_unflushed_tail(void **state)
{
    struct scratch *s = *state;
    copy_file(fixture("v1.npy"), s->path);
    /* a torn record and more past the five records the header counts */
    FILE *f = fopen(s->path, "ab");
    assert_non_null(f);
    assert_int_equal(fwrite("\x63\x63\x63\x63\x63\x63", 1, 6, f), 6);
    assert_int_equal(fclose(f), 0);
    npydt_writer *w;
    npydt_error err;
    assert_int_equal(npydt_writer_append_path(s->path, NULL, &w, &err), NPYDT_OK);
    assert_int_equal(file_size(s->path), file_size(fixture("v1.npy")));
    append_records(w, FIRST, ALL);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_same_file(s->path, fixture("v1.grown.npy"));
}

static void test_writer_append_refuses_a_0d_array(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("'<i4'");
    npydt_writer *w;
    npydt_error err;
    assert_int_equal(npydt_writer_create_path(s->path, dt, NULL, 0, NULL, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_commit(w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    test_poison_error(&err);
    npydt_status st = npydt_writer_append_path(s->path, NULL, &w, &err);
    assert_int_equal(st, NPYDT_E_SHAPE);
    test_assert_error_filled(st, &err);
    assert_null(w);
    npydt_dtype_free(dt);
}

static void test_writer_appends_after_its_own_close(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("[('x', '<i4'), ('y', '>f8')]");
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    for (uint64_t i = 0; i < ALL; i += 3) {
        if (i == 0)
            assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, NULL, &w, &err),
                             NPYDT_OK);
        else
            assert_int_equal(npydt_writer_append_path(s->path, NULL, &w, &err), NPYDT_OK);
        assert_int_equal(npydt_writer_count(w), i);
        append_records(w, i, i + 3);
        assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    }
    assert_int_equal(header_count(s->path), ALL);
    npydt_dtype_free(dt);
}

/* ---- archive members --------------------------------------------------------- */

static int fd_write(void *ctx, const void *buf, size_t len)
{
    return write(*(int *)ctx, buf, len) == (ssize_t)len ? 0 : -1;
}

static int fd_pwrite(void *ctx, const void *buf, size_t len, uint64_t offset)
{
    return pwrite(*(int *)ctx, buf, len, (off_t)offset) == (ssize_t)len ? 0 : -1;
}

static void members_as_savez(const struct scratch *s, npydt_npz_method method,
                             const char *expected)
{
    int fd = open(s->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    npydt_npz_sink sink = {fd_write, fd_pwrite, &fd};
    npydt_npz_writer *z;
    npydt_error err;
    assert_int_equal(npydt_npz_writer_new(&sink, NULL, &z, &err), NPYDT_OK);
    npydt_dtype *i4 = parse("'<i4'"), *st = parse("[('x', '<i4'), ('y', '>f8')]");
    npydt_dtype *f8 = parse("'<f8'");
    uint64_t shape[1] = {ALL};
    npydt_writer *w;
    assert_int_equal(npydt_writer_create_member(z, "a.npy", method, i4, shape, 1, NULL, &w, &err),
                     NPYDT_OK);
    append_records(w, 0, ALL);
    assert_int_equal(npydt_writer_flush(w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_create_member(z, "s.npy", method, st, shape, 1, NULL, &w, &err),
                     NPYDT_OK);
    append_records(w, 0, ALL);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_create_member(z, "z.npy", method, f8, NULL, 0, NULL, &w, &err),
                     NPYDT_OK);
    unsigned char v[8];
    test_store_f8(2.5, '<', v);
    assert_int_equal(npydt_writer_write(w, v, 1, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_writer_finish(z, NULL, &err), NPYDT_OK);
    npydt_npz_writer_free(z);
    close(fd);
    assert_same_file(s->path, fixture(expected));
    npydt_dtype_free(i4);
    npydt_dtype_free(st);
    npydt_dtype_free(f8);
}

static void test_writer_members_make_what_np_savez_makes(void **state)
{
    members_as_savez(*state, NPYDT_NPZ_STORED, "members.npz");
}

static void test_writer_members_make_what_np_savez_compressed_makes(void **state)
{
    members_as_savez(*state, NPYDT_NPZ_DEFLATED, "members_compressed.npz");
}

static int discard_write(void *ctx, const void *buf, size_t len)
{
    (void)ctx;
    (void)buf;
    (void)len;
    return 0;
}

static void test_writer_short_member_fails_the_archive(void **state)
{
    (void)state;
    npydt_npz_sink sink = {discard_write, NULL, NULL};
    npydt_npz_writer *z;
    npydt_error err;
    assert_int_equal(npydt_npz_writer_new(&sink, NULL, &z, &err), NPYDT_OK);
    npydt_dtype *i4 = parse("'<i4'");
    uint64_t shape[1] = {ALL};
    npydt_writer *w;
    assert_int_equal(npydt_writer_create_member(z, "a.npy", NPYDT_NPZ_STORED, i4, shape, 1, NULL,
                                                &w, &err),
                     NPYDT_OK);
    append_records(w, 0, ALL - 1);
    test_poison_error(&err);
    npydt_status st = npydt_writer_close(w, &err);
    assert_int_equal(st, NPYDT_E_SHAPE);
    test_assert_error_filled(st, &err);
    assert_int_equal(npydt_npz_writer_end(z, &err), NPYDT_E_SHAPE);
    assert_int_equal(npydt_npz_writer_finish(z, NULL, &err), NPYDT_E_SHAPE);
    npydt_npz_writer_free(z);
    /* a member refuses records past its shape */
    assert_int_equal(npydt_npz_writer_new(&sink, NULL, &z, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_create_member(z, "a.npy", NPYDT_NPZ_STORED, i4, shape, 1, NULL,
                                                &w, &err),
                     NPYDT_OK);
    append_records(w, 0, ALL);
    assert_int_equal(npydt_writer_commit(w, &err), NPYDT_E_SHAPE);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_writer_finish(z, NULL, &err), NPYDT_OK);
    npydt_npz_writer_free(z);
    npydt_dtype_free(i4);
}

/* ---- setting fields by path -------------------------------------------------- */

#define SET_DESCR                                                                        \
    "[('t', '<u8'), ('pos', [('x', '>f8'), ('y', '<f4')]), ('name', '|S5'), "          \
    "('u', '<U3'), ('when', '>M8[s]'), ('c', '<c8'), ('ok', '|b1'), ('n', '>i2', (3,))]"

/* The scalar at path of the writer's record under construction. */
static const void *field_at(npydt_writer *w, const char *path, const npydt_dtype **f)
{
    uint64_t off;
    npydt_error err;
    assert_int_equal(npydt_field_lookup(npydt_writer_dtype(w), path, &off, f, &err), NPYDT_OK);
    return (const unsigned char *)npydt_writer_record(w) + off;
}

static void test_writer_set_stores_each_field_by_path(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse(SET_DESCR);
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, NULL, &w, &err), NPYDT_OK);
    double c[2] = {1.5, -2};
    npydt_datetime when = {1700000000, NPYDT_UNIT_s, 1, 0};
    assert_int_equal(npydt_writer_set_u64(w, "t", UINT64_MAX, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_set_double(w, "pos.x", 0.1, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_set_double(w, "pos.y", 2.5, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_set_bytes(w, "name", "abc", 3, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_set_unicode(w, "u", "\xc3\xa9t\xc3\xa9", 5, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_set_datetime(w, "when", &when, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_set_complex(w, "c", c, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_set_bool(w, "ok", 1, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_set_i64(w, "n[2]", -300, &err), NPYDT_OK);
    const npydt_dtype *f;
    const void *p = field_at(w, "t", &f);
    uint64_t u;
    assert_int_equal(npydt_read_u64(f, p, &u, &err), NPYDT_OK);
    assert_true(u == UINT64_MAX);
    double d;
    p = field_at(w, "pos.x", &f);
    assert_int_equal(npydt_read_double(f, p, &d, &err), NPYDT_OK);
    assert_true(d == (double)0.1);   /* the cast: i386 evaluates 0.1 as a long double */
    p = field_at(w, "pos.y", &f);
    assert_int_equal(npydt_read_double(f, p, &d, &err), NPYDT_OK);
    assert_true(d == 2.5);
    const void *bytes;
    size_t len;
    p = field_at(w, "name", &f);
    assert_int_equal(npydt_read_bytes(f, p, &bytes, &len, &err), NPYDT_OK);
    assert_int_equal(len, 3);
    assert_memory_equal(bytes, "abc", 3);
    char text[16];
    p = field_at(w, "u", &f);
    assert_int_equal(npydt_read_unicode(f, p, text, sizeof text, &len, &err), NPYDT_OK);
    assert_string_equal(text, "\xc3\xa9t\xc3\xa9");
    npydt_datetime got;
    p = field_at(w, "when", &f);
    assert_int_equal(npydt_read_datetime(f, p, &got, &err), NPYDT_OK);
    assert_true(got.count == 1700000000);
    double cz[2];
    p = field_at(w, "c", &f);
    assert_int_equal(npydt_read_complex(f, p, cz, &err), NPYDT_OK);
    assert_true(cz[0] == 1.5 && cz[1] == -2);
    int b;
    p = field_at(w, "ok", &f);
    assert_int_equal(npydt_read_bool(f, p, &b, &err), NPYDT_OK);
    assert_true(b);
    int64_t i;
    p = field_at(w, "n[2]", &f);
    assert_int_equal(npydt_read_i64(f, p, &i, &err), NPYDT_OK);
    assert_true(i == -300);
    p = field_at(w, "n[0]", &f);
    assert_int_equal(npydt_read_i64(f, p, &i, &err), NPYDT_OK);
    assert_true(i == 0);
    assert_int_equal(npydt_writer_commit(w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_int_equal(header_count(s->path), 1);
    npydt_dtype_free(dt);
}

static void test_writer_set_errors_name_the_path_and_keep_the_record(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse(SET_DESCR);
    npydt_writer *w;
    npydt_error err;
    uint64_t shape[1] = {0};
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, NULL, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_set_i64(w, "n[1]", 7, &err), NPYDT_OK);
    size_t itemsize = npydt_dtype_itemsize(dt);
    unsigned char before[128];
    memcpy(before, npydt_writer_record(w), itemsize);
    /* out of range for >i2 */
    test_poison_error(&err);
    npydt_status st = npydt_writer_set_i64(w, "n[1]", 70000, &err);
    assert_int_equal(st, NPYDT_E_RANGE);
    test_assert_error_filled(st, &err);
    assert_string_equal(err.path, "n[1]");
    /* text into a number, a number into text */
    assert_int_equal(npydt_writer_set_unicode(w, "pos.x", "1", 1, &err), NPYDT_E_VALUE);
    assert_string_equal(err.path, "pos.x");
    assert_int_equal(npydt_writer_set_double(w, "name", 1, &err), NPYDT_E_VALUE);
    assert_string_equal(err.path, "name");
    /* too long for S5 */
    assert_int_equal(npydt_writer_set_bytes(w, "name", "abcdef", 6, &err), NPYDT_E_RANGE);
    /* no such field, and a struct is no scalar */
    assert_int_equal(npydt_writer_set_double(w, "pos.z", 1, &err), NPYDT_E_NOT_FOUND);
    assert_string_equal(err.path, "pos.z");
    assert_int_equal(npydt_writer_set_double(w, "pos", 1, &err), NPYDT_E_VALUE);
    assert_string_equal(err.path, "pos");
    assert_memory_equal(npydt_writer_record(w), before, itemsize);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    npydt_dtype_free(dt);
}

/* ---- allocation failures ----------------------------------------------------- */

static void test_writer_every_allocation_failure_is_clean(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = parse("[('x', '<i4'), ('y', '>f8')]");
    uint64_t shape[1] = {0};
    int succeeded = 0;
    for (long n = 0; n < 200 && !succeeded; n++) {
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        npydt_writer_options opts;
        npydt_writer_options_init(&opts);
        opts.base.allocator = &ta.alloc;
        npydt_writer *w;
        npydt_error err;
        unlink(s->path);
        npydt_status st = npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err);
        if (st == NPYDT_OK) {
            append_records(w, 0, 4);
            st = npydt_writer_close(w, &err);
        }
        if (st == NPYDT_OK) {
            st = npydt_writer_append_path(s->path, &opts, &w, &err);
            if (st == NPYDT_OK) {
                append_records(w, 4, 8);
                st = npydt_writer_close(w, &err);
                succeeded = st == NPYDT_OK;
            }
        }
        if (!succeeded)
            assert_int_equal(st, NPYDT_E_NOMEM);
        assert_int_equal(ta.live_blocks, 0);
        /* no temporary file is left behind */
        assert_true(files_in(s) <= 1);
    }
    assert_true(succeeded);
    npydt_dtype_free(dt);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

TEST_LIST("writer",
          T(test_writer_create_writes_what_np_save_writes),
          T(test_writer_new_file_is_an_empty_array_at_once),
          T(test_writer_flush_makes_the_header_count_the_records),
          T(test_writer_flush_every_flushes_by_itself),
          T(test_writer_large_writes_bypass_a_small_buffer),
          T(test_writer_record_commit_appends_and_zeroes),
          T(test_writer_fortran_order_grows_the_last_axis),
          T(test_writer_create_fd_writes_into_the_callers_file),
          T(test_writer_create_fd_refuses_a_file_with_bytes),
          T(test_writer_create_refuses_an_existing_file),
          T(test_writer_replace_keeps_the_old_file_until_the_first_flush),
          T(test_writer_replace_keeps_the_replaced_files_mode),
          T(test_writer_refuses_object_dtypes),
          T(test_writer_0d_array_appears_at_close_with_its_record),
          T(test_writer_0d_array_refuses_a_second_record),
          T(test_writer_0d_array_without_its_record_leaves_no_file),
          T(test_writer_incomplete_row_at_close_keeps_the_whole_rows),
          T(test_writer_options_with_reserved_room_are_refused),
          T(test_writer_io_error_leaves_only_close),
          T(test_writer_io_errors_name_the_path_and_errno),
          T(test_writer_appends_to_version_1),
          T(test_writer_appends_to_version_2),
          T(test_writer_appends_to_version_3),
          T(test_writer_appends_to_version_3_names),
          T(test_writer_appends_fortran_order_along_the_last_axis),
          T(test_writer_rewrites_a_header_without_room_once),
          T(test_writer_no_room_fail_leaves_the_file_untouched),
          T(test_writer_append_cuts_an_unflushed_tail),
          T(test_writer_append_refuses_a_0d_array),
          T(test_writer_appends_after_its_own_close),
          T(test_writer_members_make_what_np_savez_makes),
          T(test_writer_members_make_what_np_savez_compressed_makes),
          T(test_writer_short_member_fails_the_archive),
          T(test_writer_set_stores_each_field_by_path),
          T(test_writer_set_errors_name_the_path_and_keep_the_record),
          T(test_writer_every_allocation_failure_is_clean));

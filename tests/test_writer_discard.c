/* npydt_writer_discard: a writer given up before its close leaves the
 * destination as the last flush left it. A new file that was never under
 * its name disappears (an old file it was to replace stays, byte for
 * byte), records appended in place are cut back to the header's count,
 * the copy made of a header without room is removed, and an .npz member
 * fails its archive. This is what "write everything or nothing" is made
 * of: write while the input is good, close at its end, discard at the
 * first bad record. And while it writes, a writer that syncs hands its
 * records to the disk in steps. */
#include "test_scratch.h"
#include "test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *writer_fixture(const char *name)
{
    static char path[1024];
    const char *dir = getenv("FIXTURES_WRITER");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fixtures_writer", name);
    return path;
}

/* Entries in the scratch folder (a discarded writer leaves no temporary
 * file). */
static int entries(const struct scratch *s)
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

static void put_file(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void copy_file(const char *from, const char *to)
{
    size_t len;
    unsigned char *b = test_read_file(from, &len);
    put_file(to, b, len);
    free(b);
}

static void assert_file_holds(const char *path, const unsigned char *want, size_t want_len)
{
    size_t len;
    unsigned char *got = test_read_file(path, &len);
    assert_int_equal(len, want_len);
    assert_memory_equal(got, want, len);
    free(got);
}

static void assert_same_file(const char *path, const char *expected)
{
    size_t len;
    unsigned char *want = test_read_file(expected, &len);
    assert_file_holds(path, want, len);
    free(want);
}

/* n records of itemsize bytes, all 0x5a. */
static void write_records(npydt_writer *w, uint64_t n)
{
    size_t size = npydt_dtype_itemsize(npydt_writer_dtype(w));
    unsigned char *b = malloc(size * n + 1);
    assert_non_null(b);
    memset(b, 0x5a, size * n);
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_write(w, b, n, &err), NPYDT_OK);
    free(b);
}

static npydt_writer *create(const struct scratch *s, int replace, const uint64_t *shape,
                            size_t ndim)
{
    npydt_dtype *dt = test_parse_literal("'<i4'");
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.replace = replace;
    opts.no_sync = 1;
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, ndim, &opts, &w, &err),
                     NPYDT_OK);
    npydt_dtype_free(dt);
    return w;
}

static void test_writer_discard_of_a_new_file_with_replace_leaves_no_file(void **state)
{
    struct scratch *s = *state;
    uint64_t shape[1] = {0};
    npydt_writer *w = create(s, 1, shape, 1);
    write_records(w, 300000);   /* more than the buffer: some reach the file */
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
    assert_int_equal(access(s->path, F_OK), -1);
    assert_int_equal(entries(s), 0);
}

static void test_writer_discard_with_replace_keeps_the_old_file(void **state)
{
    struct scratch *s = *state;
    put_file(s->path, "old bytes", 9);
    uint64_t shape[1] = {0};
    npydt_writer *w = create(s, 1, shape, 1);
    write_records(w, 300000);
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
    assert_file_holds(s->path, (const unsigned char *)"old bytes", 9);
    assert_int_equal(entries(s), 1);
}

static void test_writer_discard_of_a_0d_array_leaves_no_file(void **state)
{
    struct scratch *s = *state;
    npydt_writer *w = create(s, 1, NULL, 0);
    write_records(w, 1);
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
    assert_int_equal(entries(s), 0);
}

static void test_writer_discard_keeps_what_the_last_flush_counted(void **state)
{
    struct scratch *s = *state;
    uint64_t shape[1] = {0};
    npydt_writer *w = create(s, 1, shape, 1);
    write_records(w, 3);
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_flush(w, &err), NPYDT_OK);
    size_t len;
    unsigned char *flushed = test_read_file(s->path, &len);
    write_records(w, 300000);
    assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
    assert_file_holds(s->path, flushed, len);
    assert_int_equal(entries(s), 1);
    free(flushed);
}

static void test_writer_discard_of_an_append_leaves_the_file_as_it_was(void **state)
{
    struct scratch *s = *state;
    copy_file(writer_fixture("v1.npy"), s->path);
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_append_path(s->path, NULL, &w, &err), NPYDT_OK);
    write_records(w, 100000);
    assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
    assert_same_file(s->path, writer_fixture("v1.npy"));
    assert_int_equal(entries(s), 1);
}

static void test_writer_discard_of_an_append_without_room_leaves_the_file_as_it_was(void **state)
{
    struct scratch *s = *state;
    copy_file(writer_fixture("noroom.npy"), s->path);
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_append_path(s->path, NULL, &w, &err), NPYDT_OK);
    write_records(w, 7);
    assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
    assert_same_file(s->path, writer_fixture("noroom.npy"));
    assert_int_equal(entries(s), 1);
}

static void test_writer_discard_of_a_member_fails_its_archive(void **state)
{
    struct scratch *s = *state;
    npydt_output *o = NULL;
    TEST_ERROR(err);
    assert_int_equal(npydt_output_open(s->path, NULL, &o, &err), NPYDT_OK);
    npydt_npz_sink sink;
    npydt_output_sink(o, &sink);
    npydt_npz_writer *z;
    assert_int_equal(npydt_npz_writer_new(&sink, NULL, &z, &err), NPYDT_OK);
    npydt_dtype *dt = test_parse_literal("'<i4'");
    uint64_t shape[1] = {2};
    npydt_writer *w;
    assert_int_equal(npydt_writer_create_member(z, "a.npy", NPYDT_NPZ_STORED, dt, shape, 1, NULL,
                                                &w, &err),
                     NPYDT_OK);
    assert_int_equal(npydt_writer_write(w, "abcd", 1, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
    assert_fails(NPYDT_E_SHAPE, &err, npydt_npz_writer_finish(z, NULL, &err));
    assert_string_equal(err.message, "the member was discarded after 1 of its 2 records");
    npydt_npz_writer_free(z);
    npydt_output_discard(o);
    npydt_dtype_free(dt);
    assert_int_equal(entries(s), 0);
}

static void test_writer_discard_of_null_is_a_no_op(void **state)
{
    (void)state;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_discard(NULL, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_discard(NULL, NULL), NPYDT_OK);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

/* npydt_writer_temp_path names the temporary file a new file with
 * replace is written to until the flush renames it, for a program that
 * removes it when a signal ends the process; a file linked to its path at
 * the creation has none. */
static void test_writer_temp_path_names_the_file_until_it_is_published(void **state)
{
    struct scratch *s = *state;
    uint64_t shape[1] = {0};
    npydt_writer *w = create(s, 1, shape, 1);
    const char *tmp = npydt_writer_temp_path(w);
    assert_non_null(tmp);
    assert_int_equal(strncmp(tmp, s->path, strlen(s->path)), 0);
    assert_int_equal(access(tmp, F_OK), 0);
    write_records(w, 10);
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_flush(w, &err), NPYDT_OK);
    assert_null(npydt_writer_temp_path(w));
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    assert_int_equal(entries(s), 1);
    assert_null(npydt_writer_temp_path(NULL));
}

/* A writer that syncs at its flush hands the records to the disk in steps
 * as they are written, so that the flush's fsync waits for the last step
 * only: at most a page or two of 32 MiB is still dirty before it. */
static void test_writer_records_go_to_the_disk_before_the_flush(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = test_parse_literal("'<i4'");
    uint64_t shape[1] = {0};
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.replace = 1;
    npydt_writer *w;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err), NPYDT_OK);
    npydt_dtype_free(dt);
    enum { MIB = 1 << 20, TOTAL = 32 };
    for (int k = 0; k < TOTAL; k++)
        write_records(w, MIB / 4);
    int fd = open(npydt_writer_temp_path(w), O_RDONLY);
    assert_true(fd >= 0);
    long dirty = test_dirty_pages(fd, (uint64_t)(TOTAL + 1) * MIB);
    close(fd);
    if (dirty < 0) {
        assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
        skip();
    }
    assert_in_range((uint64_t)dirty, 0, 2);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
}

static void test_writer_temp_path_of_a_linked_file_is_null(void **state)
{
    struct scratch *s = *state;
    uint64_t shape[1] = {0};
    npydt_writer *w = create(s, 0, shape, 1);
    assert_null(npydt_writer_temp_path(w));
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
}

TEST_LIST("writer_discard",
          T(test_writer_temp_path_names_the_file_until_it_is_published),
          T(test_writer_temp_path_of_a_linked_file_is_null),
          T(test_writer_records_go_to_the_disk_before_the_flush),
          T(test_writer_discard_of_a_new_file_with_replace_leaves_no_file),
          T(test_writer_discard_with_replace_keeps_the_old_file),
          T(test_writer_discard_of_a_0d_array_leaves_no_file),
          T(test_writer_discard_keeps_what_the_last_flush_counted),
          T(test_writer_discard_of_an_append_leaves_the_file_as_it_was),
          T(test_writer_discard_of_an_append_without_room_leaves_the_file_as_it_was),
          T(test_writer_discard_of_a_member_fails_its_archive),
          T(test_writer_discard_of_null_is_a_no_op));

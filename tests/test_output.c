/* npydt_output: a whole file written beside its destination and put in
 * place at commit (mode kept, fsync, rename, folder fsync); nothing of it
 * at the destination before, no temporary file after; appended bytes go
 * to the disk as they come, not all at the commit. */
#include "test_scratch.h"
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Entries of dir other than . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void put_file(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, mode), 0);
}

static void assert_file_holds(const char *path, const char *text)
{
    size_t len;
    unsigned char *got = test_read_file(path, &len);
    assert_int_equal(len, strlen(text));
    assert_memory_equal(got, text, len);
    free(got);
}

static mode_t mode_of(const char *path)
{
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    return sb.st_mode & 07777;
}

static void test_output_the_destination_appears_whole_at_commit(void **state)
{
    struct scratch *s = *state;
    TEST_ERROR(err);
    npydt_output *o;
    assert_int_equal(npydt_output_open(s->path, NULL, &o, &err), NPYDT_OK);
    /* the temporary file is beside the destination: PATH.XXXXXXXX.tmp */
    const char *tmp = npydt_output_temp_path(o);
    assert_int_equal(strlen(tmp), strlen(s->path) + NPYDT_OUTPUT_TEMP_EXTRA);
    assert_memory_equal(tmp, s->path, strlen(s->path));
    assert_string_equal(tmp + strlen(tmp) - 4, ".tmp");
    assert_int_equal(npydt_output_write(o, "abc", 3, &err), NPYDT_OK);
    assert_int_equal(npydt_output_write(o, "de", 2, &err), NPYDT_OK);
    assert_int_equal(npydt_output_pwrite(o, "X", 1, 1, &err), NPYDT_OK);
    assert_int_equal(access(s->path, F_OK), -1);
    assert_int_equal(npydt_output_commit(o, &err), NPYDT_OK);
    assert_file_holds(s->path, "aXcde");
    assert_int_equal(entries(s->dir), 1);
}

static void test_output_a_replaced_file_keeps_its_mode(void **state)
{
    struct scratch *s = *state;
    TEST_ERROR(err);
    put_file(s->path, "old", 0640);
    npydt_output *o;
    assert_int_equal(npydt_output_open(s->path, NULL, &o, &err), NPYDT_OK);
    assert_int_equal(npydt_output_write(o, "new", 3, &err), NPYDT_OK);
    assert_int_equal(npydt_output_commit(o, &err), NPYDT_OK);
    assert_file_holds(s->path, "new");
    assert_int_equal(mode_of(s->path), 0640);
}

static void test_output_a_new_file_takes_0666_less_the_umask(void **state)
{
    struct scratch *s = *state;
    TEST_ERROR(err);
    mode_t mask = umask(027);
    npydt_output *o;
    npydt_status st = npydt_output_open(s->path, NULL, &o, &err);
    umask(mask);
    assert_int_equal(st, NPYDT_OK);
    assert_int_equal(npydt_output_commit(o, &err), NPYDT_OK);
    assert_int_equal(mode_of(s->path), 0640);
}

static void test_output_through_a_symbolic_link_takes_the_mode_of_its_file(void **state)
{
    struct scratch *s = *state;
    TEST_ERROR(err);
    char target[160];
    snprintf(target, sizeof target, "%s/target", s->dir);
    put_file(target, "old", 0604);
    assert_int_equal(symlink("target", s->path), 0);
    npydt_output *o;
    assert_int_equal(npydt_output_open(s->path, NULL, &o, &err), NPYDT_OK);
    assert_int_equal(npydt_output_commit(o, &err), NPYDT_OK);
    struct stat sb;
    assert_int_equal(lstat(s->path, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    assert_int_equal(sb.st_mode & 07777, 0604);
    assert_file_holds(target, "old");
}

static void test_output_discard_leaves_the_destination_as_it_was(void **state)
{
    struct scratch *s = *state;
    TEST_ERROR(err);
    put_file(s->path, "old", 0644);
    npydt_output *o;
    assert_int_equal(npydt_output_open(s->path, NULL, &o, &err), NPYDT_OK);
    assert_int_equal(npydt_output_write(o, "new", 3, &err), NPYDT_OK);
    npydt_output_discard(o);
    assert_file_holds(s->path, "old");
    assert_int_equal(entries(s->dir), 1);
    npydt_output_discard(NULL);
}

static void test_output_a_failed_write_is_kept_and_commit_returns_it(void **state)
{
    struct scratch *s = *state;
    TEST_ERROR(err);
    put_file(s->path, "old", 0644);
    npydt_output *o;
    assert_int_equal(npydt_output_open(s->path, NULL, &o, &err), NPYDT_OK);
    assert_int_equal(npydt_output_status(o, &err), NPYDT_OK);
    assert_fails(NPYDT_E_OVERFLOW, &err,
                 npydt_output_pwrite(o, "x", 1, (uint64_t)INT64_MAX, &err));
    /* every later call gives the same error */
    assert_fails(NPYDT_E_OVERFLOW, &err, npydt_output_write(o, "y", 1, &err));
    assert_fails(NPYDT_E_OVERFLOW, &err, npydt_output_status(o, &err));
    assert_string_equal(err.message, "the file would pass the largest file offset");
    assert_fails(NPYDT_E_OVERFLOW, &err, npydt_output_commit(o, &err));
    assert_file_holds(s->path, "old");
    assert_int_equal(entries(s->dir), 1);
}

static void test_output_a_folder_that_does_not_exist_is_refused(void **state)
{
    struct scratch *s = *state;
    TEST_ERROR(err);
    char path[160];
    snprintf(path, sizeof path, "%s/no/out.npy", s->dir);
    npydt_output *o = (npydt_output *)&err;
    assert_fails(NPYDT_E_IO, &err, npydt_output_open(path, NULL, &o, &err));
    assert_null(o);
    char want[256];
    snprintf(want, sizeof want, "%s: cannot create a temporary file beside it: %s", path,
             strerror(ENOENT));
    assert_string_equal(err.message, want);
}

static void test_output_null_arguments_are_refused(void **state)
{
    struct scratch *s = *state;
    TEST_ERROR(err);
    npydt_output *o;
    assert_fails(NPYDT_E_ARG, &err, npydt_output_open(NULL, NULL, &o, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_output_open(s->path, NULL, NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_output_write(NULL, "x", 1, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_output_pwrite(NULL, "x", 1, 0, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_output_status(NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_output_commit(NULL, &err));
    assert_null(npydt_output_temp_path(NULL));
    assert_int_equal(entries(s->dir), 0);
}

static void test_output_is_an_archive_writers_sink(void **state)
{
    struct scratch *s = *state;
    TEST_ERROR(err);
    npydt_output *o;
    assert_int_equal(npydt_output_open(s->path, NULL, &o, &err), NPYDT_OK);
    npydt_npz_sink sink;
    npydt_output_sink(o, &sink);
    npydt_npz_writer *z;
    assert_int_equal(npydt_npz_writer_new(&sink, NULL, &z, &err), NPYDT_OK);
    /* stored: the local header is patched with pwrite once the data is in */
    assert_int_equal(npydt_npz_writer_begin(z, "a.npy", NPYDT_NPZ_STORED, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_writer_write(z, "hello", 5, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_writer_end(z, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_writer_finish(z, NULL, &err), NPYDT_OK);
    npydt_npz_writer_free(z);
    assert_int_equal(npydt_output_commit(o, &err), NPYDT_OK);
    npydt_npz *zr;
    assert_int_equal(npydt_npz_open_path(s->path, NULL, &zr, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_count(zr), 1);
    assert_string_equal(npydt_npz_member_at(zr, 0)->name, "a.npy");
    npydt_npz_close(zr);
}

/* Every allocation failing in turn: NPYDT_E_NOMEM, nothing leaked, no
 * file left; then the run that needs none of them fail. */
static void test_output_each_failing_allocation_leaves_nothing(void **state)
{
    struct scratch *s = *state;
    for (long n = 0;; n++) {
        struct test_alloc t;
        test_alloc_init(&t, n, 0);
        npydt_options opts;
        npydt_options_init(&opts);
        opts.allocator = &t.alloc;
        TEST_ERROR(err);
        npydt_output *o;
        npydt_status st = npydt_output_open(s->path, &opts, &o, &err);
        if (st == NPYDT_OK) {
            assert_int_equal(npydt_output_write(o, "abc", 3, &err), NPYDT_OK);
            st = npydt_output_commit(o, &err);
        }
        assert_int_equal(t.live_blocks, 0);
        if (st == NPYDT_OK) {
            assert_true(n > 0);
            assert_file_holds(s->path, "abc");
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        assert_int_equal(entries(s->dir), 0);
    }
}

static void test_output_appended_bytes_go_to_the_disk_before_the_commit(void **state)
{
    struct scratch *s = *state;
    TEST_ERROR(err);
    enum { MIB = 1 << 20, TOTAL = 32 };
    unsigned char *block = malloc(MIB);
    assert_non_null(block);
    memset(block, 0x5a, MIB);
    npydt_output *o;
    assert_int_equal(npydt_output_open(s->path, NULL, &o, &err), NPYDT_OK);
    for (int k = 0; k < TOTAL; k++)
        assert_int_equal(npydt_output_write(o, block, MIB, &err), NPYDT_OK);
    free(block);
    int fd = open(npydt_output_temp_path(o), O_RDONLY);
    assert_true(fd >= 0);
    long dirty = test_dirty_pages(fd, (uint64_t)TOTAL * MIB);
    close(fd);
    if (dirty < 0) {
        npydt_output_discard(o);
        skip();
    }
    /* every whole MiB was handed to the disk as it was written:
     * at most a page or two of the 32 MiB still waits for the fsync */
    assert_in_range((uint64_t)dirty, 0, 2);
    assert_int_equal(npydt_output_commit(o, &err), NPYDT_OK);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

TEST_LIST("output",
          T(test_output_the_destination_appears_whole_at_commit),
          T(test_output_a_replaced_file_keeps_its_mode),
          T(test_output_a_new_file_takes_0666_less_the_umask),
          T(test_output_through_a_symbolic_link_takes_the_mode_of_its_file),
          T(test_output_discard_leaves_the_destination_as_it_was),
          T(test_output_a_failed_write_is_kept_and_commit_returns_it),
          T(test_output_a_folder_that_does_not_exist_is_refused),
          T(test_output_null_arguments_are_refused),
          T(test_output_is_an_archive_writers_sink),
          T(test_output_each_failing_allocation_leaves_nothing),
          T(test_output_appended_bytes_go_to_the_disk_before_the_commit));

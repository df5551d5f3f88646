/* An archive written to a path (npydt_npz_writer_create_path): np.load
 * reads it with members named as np.savez names them, and a writer freed
 * unfinished or failed leaves nothing behind (the path as it was, no
 * temporary file). */
#include "test_scratch.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Entries in the scratch folder. */
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

/* A member of n int32 records 10, 11, ... */
static void add_member(npydt_npz_writer *z, const char *name, uint64_t n)
{
    npydt_error err;
    npydt_dtype *i4;
    assert_int_equal(npydt_dtype_parse_typestr("<i4", 3, NULL, &i4, &err), NPYDT_OK);
    npydt_writer *w;
    assert_int_equal(
        npydt_writer_create_member(z, name, NPYDT_NPZ_DEFLATED, i4, &n, 1, NULL, &w, &err),
        NPYDT_OK);
    for (uint64_t i = 0; i < n; i++) {
        unsigned char v[4];
        uint32_t x = (uint32_t)(10 + i);
        v[0] = (unsigned char)x;
        v[1] = (unsigned char)(x >> 8);
        v[2] = 0;
        v[3] = 0;
        assert_int_equal(npydt_writer_write(w, v, 1, &err), NPYDT_OK);
    }
    npydt_writer_close(w, &err);
    npydt_dtype_free(i4);
}

static void test_npz_path_archive_loads_with_numpy_by_keyword_names(void **state)
{
    struct scratch *s = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/out.npz", s->dir);
    npydt_npz_writer *z;
    npydt_error err;
    assert_int_equal(npydt_npz_writer_create_path(path, NULL, &z, &err), NPYDT_OK);
    add_member(z, "a", 3);
    add_member(z, "b.npy", 2);
    assert_int_equal(files_in(s), 1);   /* the temporary file only */
    assert_int_equal(npydt_npz_writer_finish(z, NULL, &err), NPYDT_OK);
    npydt_npz_writer_free(z);
    assert_int_equal(files_in(s), 1);   /* out.npz in its place */
    /* stored as np.savez(path, a=..., b=...) stores them */
    npydt_npz *r;
    assert_int_equal(npydt_npz_open_path(path, NULL, &r, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_count(r), 2);
    assert_string_equal(npydt_npz_member_at(r, 0)->name, "a.npy");
    assert_string_equal(npydt_npz_member_at(r, 1)->name, "b.npy");
    npydt_npz_close(r);
    char cmd[400];
    snprintf(cmd, sizeof cmd,
             "/usr/bin/python3 -c \"import numpy as np; z = np.load('%s'); "
             "print(sorted(z.files), z['a'].tolist(), z['b'].tolist())\" 2>&1",
             path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[200] = "";
    if (!fgets(line, sizeof line, p))
        line[0] = '\0';
    pclose(p);
    assert_string_equal(line, "['a', 'b'] [10, 11, 12] [10, 11]\n");
}

static void test_npz_path_freed_unfinished_leaves_no_file(void **state)
{
    struct scratch *s = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/out.npz", s->dir);
    npydt_npz_writer *z;
    npydt_error err;
    assert_int_equal(npydt_npz_writer_create_path(path, NULL, &z, &err), NPYDT_OK);
    add_member(z, "a", 3);
    npydt_npz_writer_free(z);
    assert_int_equal(files_in(s), 0);
}

static void test_npz_path_failed_archive_leaves_the_old_file_as_it_was(void **state)
{
    struct scratch *s = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/out.npz", s->dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("old", f);
    fclose(f);
    npydt_npz_writer *z;
    npydt_error err;
    assert_int_equal(npydt_npz_writer_create_path(path, NULL, &z, &err), NPYDT_OK);
    /* a member that gets fewer records than its shape fails the archive */
    npydt_dtype *i4;
    assert_int_equal(npydt_dtype_parse_typestr("<i4", 3, NULL, &i4, &err), NPYDT_OK);
    uint64_t n = 4;
    npydt_writer *w;
    assert_int_equal(
        npydt_writer_create_member(z, "a", NPYDT_NPZ_STORED, i4, &n, 1, NULL, &w, &err),
        NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_E_SHAPE);
    assert_int_equal(npydt_npz_writer_finish(z, NULL, &err), NPYDT_E_SHAPE);
    npydt_npz_writer_free(z);
    npydt_dtype_free(i4);
    assert_int_equal(files_in(s), 1);
    size_t len;
    unsigned char *b = test_read_file(path, &len);
    assert_int_equal(len, 3);
    assert_memory_equal(b, "old", 3);
    free(b);
}

static void test_npz_path_in_a_missing_folder_is_an_io_error(void **state)
{
    struct scratch *s = *state;
    char path[160];
    snprintf(path, sizeof path, "%s/no/out.npz", s->dir);
    npydt_npz_writer *z = (npydt_npz_writer *)&z;
    npydt_error err;
    assert_int_equal(npydt_npz_writer_create_path(path, NULL, &z, &err), NPYDT_E_IO);
    assert_null(z);
    assert_int_equal(files_in(s), 0);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
TEST_LIST("npz_path", T(test_npz_path_archive_loads_with_numpy_by_keyword_names),
          T(test_npz_path_freed_unfinished_leaves_no_file),
          T(test_npz_path_failed_archive_leaves_the_old_file_as_it_was),
          T(test_npz_path_in_a_missing_folder_is_an_io_error));

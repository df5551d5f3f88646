/* The short path on an open array: a field of element i by path
 * (npydt_reader_get_*), and a column by path in C order
 * (npydt_reader_gather), whatever the stored order and wherever the
 * bytes are: in place, read with pread, inflated from a member. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *npz_fixture(const char *name)
{
    static char path[1024];
    const char *dir = getenv("FIXTURES_NPZ");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fixtures_npz", name);
    return path;
}

/* A reader on a .npy fixture read with pread (not mapped, not in memory),
 * with chunks of one element. */
static npydt_reader *open_read_in_chunks(const char *name)
{
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    opts.no_mmap = 1;
    opts.chunk_bytes = 1;
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_path(test_fixture(name), &opts, &r, &err), NPYDT_OK);
    return r;
}

/* A reader on member name of an archive fixture; in_memory or streamed. */
static npydt_reader *open_member(const char *archive, const char *name, int in_memory,
                                 npydt_npz **z)
{
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    opts.in_memory = in_memory;
    opts.chunk_bytes = 1;
    size_t i;
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_open_path(npz_fixture(archive), NULL, z, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_find(*z, name, &i, &err), NPYDT_OK);
    assert_int_equal(npydt_reader_open_member(*z, i, &opts, &r, &err), NPYDT_OK);
    return r;
}

static void test_reader_get_fields_of_a_record_by_path(void **state)
{
    (void)state;
    npydt_npz *z;
    npydt_reader *r = open_member("savez.npz", "records", 0, &z);   /* stored: in place */
    TEST_ERROR(err);
    double x, t;
    int64_t sample;
    uint64_t id;
    char name[8];
    size_t len;
    assert_int_equal(npydt_reader_get_double(r, "pos.x", 1, &x, &err), NPYDT_OK);
    assert_true(x == 1.5);
    assert_int_equal(npydt_reader_get_double(r, "Title", 1, &t, &err), NPYDT_OK);   /* '>f4' */
    assert_true(t == 2.0);
    assert_int_equal(npydt_reader_get_i64(r, "samples[2]", 2, &sample, &err), NPYDT_OK);
    assert_int_equal(sample, -3);
    assert_int_equal(npydt_reader_get_u64(r, "id", 2, &id, &err), NPYDT_OK);
    assert_int_equal(id, 3);
    assert_int_equal(npydt_reader_get_bytes(r, "name", 1, name, sizeof name, &len, &err),
                     NPYDT_OK);
    assert_int_equal(len, 3);
    assert_memory_equal(name, "cde", 3);
    npydt_reader_close(r);
    npydt_npz_close(z);
}

static void test_reader_get_counts_elements_in_c_order_of_a_fortran_file(void **state)
{
    (void)state;
    npydt_reader *mapped = test_open_fixture("fortran_2d.npy");
    npydt_reader *read = open_read_in_chunks("fortran_2d.npy");
    TEST_ERROR(err);
    for (uint64_t i = 0; i < 6; i++) {
        int64_t a, b;
        assert_int_equal(npydt_reader_get_i64(mapped, "", i, &a, &err), NPYDT_OK);
        assert_int_equal(npydt_reader_get_i64(read, "", i, &b, &err), NPYDT_OK);
        assert_int_equal(a, (int64_t)i);   /* C order: 0 1 2 3 4 5 */
        assert_int_equal(b, (int64_t)i);
    }
    npydt_reader_close(mapped);
    npydt_reader_close(read);
}

/* The '<i4' value at p, whatever the host's order. */
static int32_t le_i32(const void *p)
{
    const unsigned char *b = p;
    return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                     (uint32_t)b[3] << 24);
}

static void test_reader_get_keeps_the_chunk_position_of_a_file_read_with_pread(void **state)
{
    (void)state;
    npydt_reader *r = open_read_in_chunks("fortran_2d.npy");
    TEST_ERROR(err);
    const void *chunk;
    size_t len;
    int64_t v;
    assert_int_equal(npydt_reader_next_chunk(r, &chunk, &len, &err), NPYDT_OK);
    assert_int_equal(npydt_reader_get_i64(r, "", 5, &v, &err), NPYDT_OK);
    assert_int_equal(v, 5);
    /* the second stored element (Fortran order: 0 3 1 4 2 5) */
    assert_int_equal(npydt_reader_next_chunk(r, &chunk, &len, &err), NPYDT_OK);
    assert_int_equal(len, 4);
    assert_int_equal(le_i32(chunk), 3);
    npydt_reader_close(r);
}

static void test_reader_get_reads_a_deflated_member_forward_and_back(void **state)
{
    (void)state;
    npydt_npz *z;
    npydt_reader *r = open_member("savez_compressed.npz", "fortran", 0, &z);
    TEST_ERROR(err);
    double v;
    static const uint64_t order[] = {5, 0, 3, 4, 1};
    for (size_t k = 0; k < 5; k++) {
        assert_int_equal(npydt_reader_get_double(r, "", order[k], &v, &err), NPYDT_OK);
        assert_true(v == (double)order[k]);
    }
    npydt_reader_close(r);
    npydt_npz_close(z);
}

static void test_reader_get_names_the_path_of_what_it_cannot_read(void **state)
{
    (void)state;
    npydt_npz *z;
    npydt_reader *r = open_member("savez.npz", "records", 1, &z);
    TEST_ERROR(err);
    double v;
    int64_t n;
    assert_int_equal(npydt_reader_get_double(r, "pos", 0, &v, &err), NPYDT_E_VALUE);
    assert_string_equal(err.path, "pos");
    assert_string_equal(err.message, "pos is a struct: name one of its scalars");
    assert_int_equal(npydt_reader_get_double(r, "pos.w", 0, &v, &err), NPYDT_E_NOT_FOUND);
    assert_int_equal(npydt_reader_get_double(r, "pos.x", 3, &v, &err), NPYDT_E_ARG);
    assert_string_equal(err.message, "element 3 is out of bounds for 3 elements");
    assert_int_equal(npydt_reader_get_i64(r, "pos.x", 0, &n, &err), NPYDT_E_RANGE);   /* 0.5 */
    assert_string_equal(err.path, "pos.x");
    char small[2];
    size_t len;
    assert_int_equal(npydt_reader_get_bytes(r, "name", 1, small, sizeof small, &len, &err),
                     NPYDT_E_RANGE);
    assert_int_equal(len, 3);
    npydt_reader_close(r);
    npydt_npz_close(z);
}

static void test_reader_gather_a_column_in_c_order_wherever_the_bytes_are(void **state)
{
    (void)state;
    TEST_ERROR(err);
    npydt_npz *z1, *z2;
    npydt_reader *readers[] = {
        test_open_fixture("fortran_2d.npy"),                      /* mapped */
        open_read_in_chunks("fortran_2d.npy"),                     /* pread */
        open_member("savez_compressed.npz", "fortran", 0, &z1),   /* inflated */
        open_member("savez.npz", "fortran", 0, &z2),              /* stored */
    };
    for (size_t k = 0; k < 4; k++) {
        double col[6];
        assert_int_equal(npydt_reader_gather(readers[k], "", NPYDT_AS_DOUBLE, col, sizeof col,
                                             &err),
                         NPYDT_OK);
        for (int i = 0; i < 6; i++)
            assert_true(col[i] == (double)i);
        npydt_reader_close(readers[k]);
    }
    npydt_npz_close(z1);
    npydt_npz_close(z2);
}

static void test_reader_gather_a_struct_field_of_a_fortran_file(void **state)
{
    (void)state;
    npydt_reader *r = open_read_in_chunks("fortran_struct.npy");
    TEST_ERROR(err);
    int64_t a[6];
    assert_int_equal(npydt_reader_gather(r, "a", NPYDT_AS_INT64, a, sizeof a, &err), NPYDT_OK);
    static const int64_t want[6] = {14155, -26981, -6778, 19709, -25359, -29054};
    assert_memory_equal(a, want, sizeof want);
    char b[12];
    assert_int_equal(npydt_reader_gather(r, "b", NPYDT_AS_NATIVE, b, sizeof b, &err), NPYDT_OK);
    assert_memory_equal(b, "w';rs\xbd\x96\xdfhC \x16", 12);
    npydt_reader_close(r);
}

static void test_reader_gather_refuses_a_buffer_too_small(void **state)
{
    (void)state;
    npydt_reader *r = test_open_fixture("fortran_2d.npy");
    TEST_ERROR(err);
    double col[5];
    assert_int_equal(npydt_reader_gather(r, "", NPYDT_AS_DOUBLE, col, sizeof col, &err),
                     NPYDT_E_RANGE);
    assert_string_equal(err.message,
                        "the column takes 6 elements of 8 bytes, the buffer holds 40 bytes");
    npydt_reader_close(r);
}

static void test_reader_gather_keeps_the_position_of_next_c(void **state)
{
    (void)state;
    npydt_reader *r = open_read_in_chunks("fortran_2d.npy");
    TEST_ERROR(err);
    const void *batch;
    uint64_t n;
    /* a batch of chunk_bytes: one element */
    assert_int_equal(npydt_reader_next_c(r, 2, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 1);
    double col[6];
    assert_int_equal(npydt_reader_gather(r, "", NPYDT_AS_DOUBLE, col, sizeof col, &err), NPYDT_OK);
    assert_int_equal(npydt_reader_next_c(r, 1, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(le_i32(batch), 1);
    npydt_reader_close(r);
}

TEST_LIST("reader_get",
    cmocka_unit_test(test_reader_get_fields_of_a_record_by_path),
    cmocka_unit_test(test_reader_get_counts_elements_in_c_order_of_a_fortran_file),
    cmocka_unit_test(test_reader_get_keeps_the_chunk_position_of_a_file_read_with_pread),
    cmocka_unit_test(test_reader_get_reads_a_deflated_member_forward_and_back),
    cmocka_unit_test(test_reader_get_names_the_path_of_what_it_cannot_read),
    cmocka_unit_test(test_reader_gather_a_column_in_c_order_wherever_the_bytes_are),
    cmocka_unit_test(test_reader_gather_a_struct_field_of_a_fortran_file),
    cmocka_unit_test(test_reader_gather_refuses_a_buffer_too_small),
    cmocka_unit_test(test_reader_gather_keeps_the_position_of_next_c),
);

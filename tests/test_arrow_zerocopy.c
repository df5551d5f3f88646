/* The Arrow export without copies: a column whose bytes in a mapped file
 * are already laid out as Arrow lays them (native order, one value after
 * the other) points into the mapping, which stays mapped for as long as
 * an array points into it, whichever of the stream, the reader and the
 * arrays goes first; every other column, and every column of an array not
 * mapped, is gathered into the batch's own buffers. */
#include "arrow_test.h"

#include <stdbool.h>
#include <unistd.h>

static bool host_big(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 0;
}

/* A .npy file of n doubles 0.5, 1.5, ... written as ts says ("<f8" is
 * read as the host's order: the data are this host's C array, swapped
 * for the other order), C order; its path in path (a template). */
static void write_doubles(char *path, const char *ts, uint64_t n)
{
    char host_ts[16];
    snprintf(host_ts, sizeof host_ts, "%s", ts);
    if (host_big())
        host_ts[0] = host_ts[0] == '<' ? '>' : '<';
    bool swap = host_ts[0] == (host_big() ? '<' : '>');
    npydt_dtype *dt = typestr(host_ts);
    TEST_ERROR(err);
    size_t h = npydt_header_write(dt, &n, 1, 0, NULL, 0, &err);
    assert_true(h > 0);
    unsigned char *buf = malloc(h + n * 8);
    assert_non_null(buf);
    assert_int_equal(npydt_header_write(dt, &n, 1, 0, buf, h, &err), h);
    for (uint64_t i = 0; i < n; i++) {
        double v = (double)i + 0.5;
        unsigned char b[8];
        memcpy(b, &v, 8);
        for (int k = 0; k < 8; k++)
            buf[h + i * 8 + (uint64_t)k] = b[swap ? 7 - k : k];
    }
    npydt_dtype_free(dt);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, buf, h + n * 8), (ssize_t)(h + n * 8));
    assert_int_equal(close(fd), 0);
    free(buf);
}

static npydt_reader *open_path(const char *path)
{
    npydt_reader *r = NULL;
    TEST_ERROR(err);
    if (npydt_reader_open_path(path, NULL, &r, &err) != NPYDT_OK)
        fail_msg("%s", err.message);
    return r;
}

/* The first batch of a stream over r (all of its rows) into *a. */
static void first_batch(npydt_reader *r, struct ArrowArrayStream *s, struct ArrowArray *a)
{
    TEST_ERROR(err);
    if (npydt_arrow_stream_open(r, NULL, s, &err) != NPYDT_OK)
        fail_msg("%s", err.message);
    assert_int_equal(s->get_next(s, a), 0);
    assert_non_null(a->release);
    assert_int_equal(a->n_children, 1);
}

static bool inside(const void *p, const void *base, size_t len)
{
    uintptr_t at = (uintptr_t)p, lo = (uintptr_t)base;
    return at >= lo && at - lo < len;
}

/* The column's values are 0.5, 1.5, ... */
static void assert_doubles(const struct ArrowArray *col, uint64_t n)
{
    assert_int_equal(col->length, (int64_t)n);
    const unsigned char *d = col->buffers[1];
    for (uint64_t i = 0; i < n; i++) {
        double v;
        memcpy(&v, d + i * 8, 8);
        assert_true(v == (double)i + 0.5);
    }
}

static void test_arrow_native_f8_column_points_into_the_mapping(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt_arrow_zc_XXXXXX";
    write_doubles(path, "<f8", 1000);
    npydt_reader *r = open_path(path);
    assert_true(npydt_reader_is_mapped(r));
    struct ArrowArrayStream s;
    struct ArrowArray a;
    first_batch(r, &s, &a);
    assert_true(inside(a.children[0]->buffers[1], npydt_reader_bytes(r), 1000 * 8));
    assert_ptr_equal(a.children[0]->buffers[1], npydt_reader_bytes(r));
    assert_doubles(a.children[0], 1000);
    a.release(&a);
    s.release(&s);
    npydt_reader_close(r);
    unlink(path);
}

static void test_arrow_mapped_column_outlives_stream_then_reader(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt_arrow_zc_XXXXXX";
    write_doubles(path, "<f8", 5000);
    npydt_reader *r = open_path(path);
    struct ArrowArrayStream s;
    struct ArrowArray a;
    first_batch(r, &s, &a);
    assert_ptr_equal(a.children[0]->buffers[1], npydt_reader_bytes(r));
    s.release(&s);
    assert_null(s.release);
    npydt_reader_close(r);
    unlink(path);
    assert_doubles(a.children[0], 5000);
    a.release(&a);
    assert_null(a.release);
}

static void test_arrow_mapped_column_outlives_reader_then_stream(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt_arrow_zc_XXXXXX";
    write_doubles(path, "<f8", 5000);
    npydt_reader *r = open_path(path);
    struct ArrowArrayStream s;
    struct ArrowArray a;
    first_batch(r, &s, &a);
    assert_ptr_equal(a.children[0]->buffers[1], npydt_reader_bytes(r));
    npydt_reader_close(r);
    s.release(&s);
    unlink(path);
    assert_doubles(a.children[0], 5000);
    a.release(&a);
}

static void test_arrow_moved_mapped_child_outlives_its_batch(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt_arrow_zc_XXXXXX";
    write_doubles(path, "<f8", 300);
    npydt_reader *r = open_path(path);
    struct ArrowArrayStream s;
    struct ArrowArray a, moved;
    first_batch(r, &s, &a);
    assert_ptr_equal(a.children[0]->buffers[1], npydt_reader_bytes(r));
    /* a consumer moves the child out and marks it released in the parent */
    moved = *a.children[0];
    a.children[0]->release = NULL;
    a.release(&a);
    s.release(&s);
    npydt_reader_close(r);
    unlink(path);
    assert_doubles(&moved, 300);
    moved.release(&moved);
    assert_null(moved.release);
}

static void test_arrow_two_batches_of_one_mapping_released_in_any_order(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt_arrow_zc_XXXXXX";
    write_doubles(path, "<f8", 100);
    npydt_reader *r = open_path(path);
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    o.batch_rows = 60;
    TEST_ERROR(err);
    struct ArrowArrayStream s;
    assert_int_equal(npydt_arrow_stream_open(r, &o, &s, &err), NPYDT_OK);
    struct ArrowArray one, two;
    assert_int_equal(s.get_next(&s, &one), 0);
    assert_int_equal(s.get_next(&s, &two), 0);
    npydt_reader_close(r);
    s.release(&s);
    unlink(path);
    assert_ptr_equal((const unsigned char *)two.children[0]->buffers[1],
                     (const unsigned char *)one.children[0]->buffers[1] + 60 * 8);
    one.release(&one);
    double v;
    memcpy(&v, (const unsigned char *)two.children[0]->buffers[1] + 39 * 8, 8);
    assert_true(v == 99.5);
    two.release(&two);
}

static void test_arrow_big_endian_f8_is_gathered(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt_arrow_zc_XXXXXX";
    write_doubles(path, ">f8", 1000);   /* the other order on any host */
    npydt_reader *r = open_path(path);
    assert_true(npydt_reader_is_mapped(r));
    struct ArrowArrayStream s;
    struct ArrowArray a;
    first_batch(r, &s, &a);
    assert_false(inside(a.children[0]->buffers[1], npydt_reader_bytes(r), 1000 * 8));
    assert_doubles(a.children[0], 1000);
    s.release(&s);
    npydt_reader_close(r);
    a.release(&a);
    unlink(path);
}

static void test_arrow_buffer_reader_is_gathered(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt_arrow_zc_XXXXXX";
    write_doubles(path, "<f8", 200);
    size_t len;
    unsigned char *file = test_read_file(path, &len);
    unlink(path);
    npydt_reader *r = NULL;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_buffer(file, len, NULL, &r, &err), NPYDT_OK);
    struct ArrowArrayStream s;
    struct ArrowArray a;
    first_batch(r, &s, &a);
    assert_false(inside(a.children[0]->buffers[1], file, len));
    s.release(&s);
    npydt_reader_close(r);
    free(file);
    assert_doubles(a.children[0], 200);
    a.release(&a);
}

/* A struct of records: the field of a one-field struct (its stride its
 * size) points into the mapping, fields of a wider struct are gathered. */
static void test_arrow_struct_leaf_in_place_only_when_dense(void **state)
{
    (void)state;
    for (int wide = 0; wide < 2; wide++) {
        const char *descr = wide ? "[('x', '<f8'), ('y', '<i4')]" : "[('x', '<f8')]";
        npydt_dtype *dt = test_parse_literal(descr);
        uint64_t n = 64;
        size_t isz = (size_t)npydt_dtype_itemsize(dt);
        TEST_ERROR(err);
        size_t h = npydt_header_write(dt, &n, 1, 0, NULL, 0, &err);
        unsigned char *buf = calloc(1, h + n * isz);
        assert_non_null(buf);
        assert_int_equal(npydt_header_write(dt, &n, 1, 0, buf, h, &err), h);
        for (uint64_t i = 0; i < n; i++) {
            double v = (double)i + 0.5;
            unsigned char b[8];
            memcpy(b, &v, 8);
            for (int k = 0; k < 8; k++)   /* '<' */
                buf[h + i * isz + (size_t)k] = b[host_big() ? 7 - k : k];
        }
        npydt_dtype_free(dt);
        char path[] = "/tmp/npydt_arrow_zc_XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, buf, h + n * isz), (ssize_t)(h + n * isz));
        close(fd);
        free(buf);
        npydt_reader *r = open_path(path);
        struct ArrowArrayStream s;
        struct ArrowArray a;
        TEST_ERROR(e2);
        assert_int_equal(npydt_arrow_stream_open(r, NULL, &s, &e2), NPYDT_OK);
        assert_int_equal(s.get_next(&s, &a), 0);
        assert_int_equal(a.n_children, wide ? 2 : 1);
        bool mapped = inside(a.children[0]->buffers[1], npydt_reader_bytes(r), n * isz);
        assert_int_equal(mapped, !wide && !host_big());
        s.release(&s);
        npydt_reader_close(r);
        unlink(path);
        assert_doubles(a.children[0], n);
        a.release(&a);
    }
}

/* A 2-d array: in C order its elements, flattened, are the column in
 * place; in Fortran order they are gathered into C order. */
static void test_arrow_2d_in_place_in_c_order_gathered_in_fortran_order(void **state)
{
    (void)state;
    for (int fortran = 0; fortran < 2; fortran++) {
        npydt_dtype *dt = typestr(host_big() ? ">f8" : "<f8");
        uint64_t shape[2] = {3, 4};
        TEST_ERROR(err);
        size_t h = npydt_header_write(dt, shape, 2, fortran, NULL, 0, &err);
        assert_true(h > 0);
        unsigned char *buf = malloc(h + 12 * 8);
        assert_non_null(buf);
        assert_int_equal(npydt_header_write(dt, shape, 2, fortran, buf, h, &err), h);
        /* element (i, j) is 4 i + j + 0.5, stored in the file's order */
        for (uint64_t i = 0; i < 3; i++)
            for (uint64_t j = 0; j < 4; j++) {
                double v = (double)(4 * i + j) + 0.5;
                uint64_t at = fortran ? j * 3 + i : i * 4 + j;
                memcpy(buf + h + at * 8, &v, 8);
            }
        npydt_dtype_free(dt);
        char path[] = "/tmp/npydt_arrow_zc_XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, buf, h + 12 * 8), (ssize_t)(h + 12 * 8));
        close(fd);
        free(buf);
        npydt_reader *r = open_path(path);
        struct ArrowArrayStream s;
        struct ArrowArray a;
        first_batch(r, &s, &a);
        assert_int_equal(inside(a.children[0]->buffers[1], npydt_reader_bytes(r), 12 * 8),
                         !fortran);
        s.release(&s);
        npydt_reader_close(r);
        unlink(path);
        assert_doubles(a.children[0], 12);
        a.release(&a);
    }
}

TEST_LIST("arrow_zerocopy",
          cmocka_unit_test(test_arrow_native_f8_column_points_into_the_mapping),
          cmocka_unit_test(test_arrow_mapped_column_outlives_stream_then_reader),
          cmocka_unit_test(test_arrow_mapped_column_outlives_reader_then_stream),
          cmocka_unit_test(test_arrow_moved_mapped_child_outlives_its_batch),
          cmocka_unit_test(test_arrow_two_batches_of_one_mapping_released_in_any_order),
          cmocka_unit_test(test_arrow_big_endian_f8_is_gathered),
          cmocka_unit_test(test_arrow_buffer_reader_is_gathered),
          cmocka_unit_test(test_arrow_struct_leaf_in_place_only_when_dense),
          cmocka_unit_test(test_arrow_2d_in_place_in_c_order_gathered_in_fortran_order));

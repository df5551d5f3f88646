/* Gather one field of many records into a native array, and scatter back. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIXED                                                                          \
    "[('t', '>M8[ns]'), ('id', '>u4'), ('flag', '|b1'), ('pos', [('x', '>f8'), "   \
    "('y', '>f8'), ('z', '>f8')]), ('name', '|S7'), ('samples', '>i2', (8,)), "      \
    "('c', '>c8')]"

#define N 257

struct fixture {
    npydt_dtype *dt;
    size_t isz;
    unsigned char *recs;
};

static uint64_t rng_state = 0x853c49e6748fea9bu;

static void fill_random(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        p[i] = (unsigned char)(rng_state >> 24);
    }
}

static struct fixture make(const char *descr)
{
    struct fixture fx;
    fx.dt = test_parse_literal(descr);
    fx.isz = npydt_dtype_itemsize(fx.dt);
    fx.recs = malloc(N * fx.isz + 1);
    assert_non_null(fx.recs);
    fill_random(fx.recs, N * fx.isz);
    return fx;
}

static void release(struct fixture *fx)
{
    free(fx->recs);
    npydt_dtype_free(fx->dt);
}

static const npydt_dtype *field(struct fixture *fx, const char *path, uint64_t *off)
{
    const npydt_dtype *fd;
    TEST_ERROR(err);
    if (npydt_field_lookup(fx->dt, path, off, &fd, &err) != NPYDT_OK)
        fail_msg("%s: %s", path, err.message);
    return fd;
}

static int same_double(double a, double b)
{
    return (a != a && b != b) || memcmp(&a, &b, sizeof a) == 0;
}

static void test_gather_native_f8_equals_reader(void **state)
{
    (void)state;
    struct fixture fx = make(MIXED);
    uint64_t off;
    const npydt_dtype *x = field(&fx, "pos.y", &off);
    double out[N];
    assert_int_equal(npydt_gather_size(x, NPYDT_AS_NATIVE), 8);
    assert_int_equal(npydt_gather(fx.recs, fx.isz, N, x, off, NPYDT_AS_NATIVE, out, NULL),
                     NPYDT_OK);
    for (size_t i = 0; i < N; i++) {
        double v;
        npydt_read_double(x, fx.recs + i * fx.isz + off, &v, NULL);
        assert_true(same_double(out[i], v));
    }
    release(&fx);
}

static void test_gather_as_double_every_real_kind(void **state)
{
    (void)state;
    struct fixture fx = make("[('a', '>f4'), ('b', '<i2'), ('c', '>u8'), ('d', '|b1'), "
                             "('e', '>f2'), ('f', '>f16'), ('g', '|i1'), ('h', '<f8')]");
    static const char *paths[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    for (size_t k = 0; k < 8; k++) {
        uint64_t off;
        const npydt_dtype *fd = field(&fx, paths[k], &off);
        double out[N];
        assert_int_equal(npydt_gather(fx.recs, fx.isz, N, fd, off, NPYDT_AS_DOUBLE, out, NULL),
                         NPYDT_OK);
        for (size_t i = 0; i < N; i++) {
            double v;
            assert_int_equal(npydt_read_double(fd, fx.recs + i * fx.isz + off, &v, NULL),
                             NPYDT_OK);
            if (!same_double(out[i], v))
                fail_msg("field %s record %zu: %g vs %g", paths[k], i, out[i], v);
        }
    }
    release(&fx);
}

static void test_gather_as_int64_checks_range(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('u', '>u8'), ('i', '<i2')]");
    unsigned char recs[3 * 10] = {0};
    recs[10 + 7] = 5;          /* record 1: u = 5 */
    recs[20] = 0x80;           /* record 2: u = 2^63 */
    recs[8] = 0xfe;            /* record 0: i = 0xfffe = -2 */
    recs[9] = 0xff;
    int64_t out[3];
    TEST_ERROR(err);
    const npydt_dtype *u = npydt_dtype_field_dtype(dt, 0), *i16 = npydt_dtype_field_dtype(dt, 1);
    assert_int_equal(npydt_gather(recs, 10, 2, u, 0, NPYDT_AS_INT64, out, NULL), NPYDT_OK);
    assert_true(out[0] == 0 && out[1] == 5);
    assert_fails(NPYDT_E_RANGE, &err, npydt_gather(recs, 10, 3, u, 0, NPYDT_AS_INT64, out, &err));
    assert_non_null(strstr(err.message, "record 2"));
    assert_int_equal(npydt_gather(recs, 10, 3, i16, 8, NPYDT_AS_INT64, out, NULL), NPYDT_OK);
    assert_true(out[0] == -2 && out[1] == 0);
    npydt_dtype_free(dt);
}

static void test_gather_subarray_field_native(void **state)
{
    (void)state;
    struct fixture fx = make(MIXED);
    uint64_t off;
    const npydt_dtype *s = field(&fx, "samples", &off);
    int16_t out[N][8];
    assert_int_equal(npydt_gather_size(s, NPYDT_AS_NATIVE), 16);
    assert_int_equal(npydt_gather(fx.recs, fx.isz, N, s, off, NPYDT_AS_NATIVE, out, NULL),
                     NPYDT_OK);
    for (size_t i = 0; i < N; i++)
        for (int k = 0; k < 8; k++) {
            const unsigned char *p = fx.recs + i * fx.isz + off + 2 * k;
            assert_int_equal(out[i][k], (int16_t)((p[0] << 8) | p[1]));
        }
    double d[N][8];
    assert_int_equal(npydt_gather_size(s, NPYDT_AS_DOUBLE), 64);
    assert_int_equal(npydt_gather(fx.recs, fx.isz, N, s, off, NPYDT_AS_DOUBLE, d, NULL),
                     NPYDT_OK);
    assert_true(d[N - 1][7] == (double)out[N - 1][7]);
    release(&fx);
}

static void test_gather_struct_field_swaps_to_native(void **state)
{
    (void)state;
    struct fixture fx = make(MIXED);
    uint64_t off;
    const npydt_dtype *pos = field(&fx, "pos", &off);
    double out[N][3];
    TEST_ERROR(err);
    assert_int_equal(npydt_gather(fx.recs, fx.isz, N, pos, off, NPYDT_AS_NATIVE, out, NULL),
                     NPYDT_OK);
    for (size_t i = 0; i < N; i++)
        for (int k = 0; k < 3; k++) {
            double v;
            npydt_read_double(npydt_dtype_field_dtype(pos, (size_t)k),
                              fx.recs + i * fx.isz + off + 8 * k, &v, NULL);
            assert_true(same_double(out[i][k], v));
        }
    assert_int_equal(npydt_gather_size(pos, NPYDT_AS_DOUBLE), 0);
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_gather(fx.recs, fx.isz, N, pos, off, NPYDT_AS_DOUBLE, out, &err));
    release(&fx);
}

static void test_gather_complex_as_double_pairs(void **state)
{
    (void)state;
    struct fixture fx = make(MIXED);
    uint64_t off;
    const npydt_dtype *c = field(&fx, "c", &off);
    double out[N][2];
    assert_int_equal(npydt_gather_size(c, NPYDT_AS_DOUBLE), 16);
    assert_int_equal(npydt_gather(fx.recs, fx.isz, N, c, off, NPYDT_AS_DOUBLE, out, NULL),
                     NPYDT_OK);
    for (size_t i = 0; i < N; i++) {
        double v[2];
        npydt_read_complex(c, fx.recs + i * fx.isz + off, v, NULL);
        assert_true(same_double(out[i][0], v[0]) && same_double(out[i][1], v[1]));
    }
    release(&fx);
}

static void test_gather_refuses_bad_requests(void **state)
{
    (void)state;
    struct fixture fx = make(MIXED);
    uint64_t off;
    const npydt_dtype *name = field(&fx, "name", &off);
    double out[N];
    TEST_ERROR(err);
    assert_int_equal(npydt_gather_size(name, NPYDT_AS_DOUBLE), 0);
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_gather(fx.recs, fx.isz, N, name, off, NPYDT_AS_DOUBLE, out, &err));
    /* a stride smaller than the field's end */
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_gather(fx.recs, 4, N, name, off, NPYDT_AS_NATIVE, out, &err));
    npydt_dtype *obj = test_parse_literal("[('o', '|O')]");
    assert_fails(NPYDT_E_OBJECT, &err,
                 npydt_gather(fx.recs, 8, 1, npydt_dtype_field_dtype(obj, 0), 0,
                                  NPYDT_AS_NATIVE, out, &err));
    npydt_dtype_free(obj);
    release(&fx);
}

/* Byte strings of every size from 1 to 20, between other fields and as
 * the whole record (values one after the other): the gathered array is
 * each record's bytes, and scattering it back restores the records. */
static void test_gather_bytes_of_every_size_and_back(void **state)
{
    (void)state;
    for (int size = 1; size <= 20; size++) {
        for (int alone = 0; alone < 2; alone++) {
            char descr[96];
            if (alone)
                snprintf(descr, sizeof descr, "[('s', '|S%d')]", size);
            else
                snprintf(descr, sizeof descr, "[('a', '|u1'), ('s', '|S%d'), ('b', '<u2')]",
                         size);
            struct fixture fx = make(descr);
            uint64_t off;
            const npydt_dtype *fd = field(&fx, "s", &off);
            unsigned char *arr = malloc(N * (size_t)size);
            assert_non_null(arr);
            assert_int_equal(npydt_gather(fx.recs, fx.isz, N, fd, off, NPYDT_AS_NATIVE, arr,
                                          NULL), NPYDT_OK);
            for (size_t i = 0; i < N; i++)
                if (memcmp(arr + i * (size_t)size, fx.recs + i * fx.isz + off, (size_t)size))
                    fail_msg("S%d (alone %d): record %zu gathered wrong", size, alone, i);
            unsigned char *orig = malloc(N * fx.isz);
            assert_non_null(orig);
            memcpy(orig, fx.recs, N * fx.isz);
            for (size_t i = 0; i < N; i++)
                memset(fx.recs + i * fx.isz + off, 0, (size_t)size);
            assert_int_equal(npydt_scatter(fx.recs, fx.isz, N, fd, off, NPYDT_AS_NATIVE, arr,
                                           NULL), NPYDT_OK);
            if (memcmp(fx.recs, orig, N * fx.isz) != 0)
                fail_msg("S%d (alone %d): scatter does not restore the records", size, alone);
            free(orig);
            free(arr);
            release(&fx);
        }
    }
}

static void test_scatter_native_round_trip(void **state)
{
    (void)state;
    struct fixture fx = make(MIXED);
    unsigned char *orig = malloc(N * fx.isz);
    memcpy(orig, fx.recs, N * fx.isz);
    static const char *paths[] = {"t", "id", "flag", "pos", "name", "samples", "c", "pos.z",
                                  "samples[3]"};
    for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++) {
        uint64_t off;
        const npydt_dtype *fd = field(&fx, paths[k], &off);
        size_t size = npydt_gather_size(fd, NPYDT_AS_NATIVE);
        unsigned char *arr = malloc(N * size);
        assert_int_equal(npydt_gather(fx.recs, fx.isz, N, fd, off, NPYDT_AS_NATIVE, arr, NULL),
                         NPYDT_OK);
        memset(fx.recs, 0x5a, N * fx.isz);
        memcpy(fx.recs, orig, N * fx.isz);
        for (size_t i = 0; i < N; i++)
            memset(fx.recs + i * fx.isz + off, 0, size);
        assert_int_equal(npydt_scatter(fx.recs, fx.isz, N, fd, off, NPYDT_AS_NATIVE, arr, NULL),
                         NPYDT_OK);
        if (memcmp(fx.recs, orig, N * fx.isz) != 0)
            fail_msg("scatter of %s does not restore the records", paths[k]);
        free(arr);
    }
    free(orig);
    release(&fx);
}

static void test_scatter_native_writes_stored_order(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '>i4'), ('b', '<i2')]");
    unsigned char recs[12] = {0};
    int32_t a[2] = {0x01020304, -2};
    assert_int_equal(npydt_scatter(recs, 6, 2, npydt_dtype_field_dtype(dt, 0), 0,
                                   NPYDT_AS_NATIVE, a, NULL),
                     NPYDT_OK);
    static const unsigned char want[12] = {1, 2, 3, 4, 0, 0, 0xff, 0xff, 0xff, 0xfe, 0, 0};
    assert_memory_equal(recs, want, 12);
    npydt_dtype_free(dt);
}

static void test_scatter_as_double_checks_before_writing(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('i', '>i2'), ('f', '>f4')]");
    const npydt_dtype *i16 = npydt_dtype_field_dtype(dt, 0), *f4 = npydt_dtype_field_dtype(dt, 1);
    unsigned char recs[3 * 6] = {0};
    double ok[3] = {-32768.0, 7.0, 32767.0};
    double bad[3] = {1.0, 2.5, 3.0};
    double big[3] = {1.0, 2.0, 32768.0};
    TEST_ERROR(err);
    assert_fails(NPYDT_E_RANGE, &err,
                 npydt_scatter(recs, 6, 3, i16, 0, NPYDT_AS_DOUBLE, bad, &err));
    assert_fails(NPYDT_E_RANGE, &err,
                 npydt_scatter(recs, 6, 3, i16, 0, NPYDT_AS_DOUBLE, big, &err));
    static const unsigned char zero[18] = {0};
    assert_memory_equal(recs, zero, 18);
    assert_int_equal(npydt_scatter(recs, 6, 3, i16, 0, NPYDT_AS_DOUBLE, ok, NULL), NPYDT_OK);
    assert_int_equal(npydt_scatter(recs, 6, 3, f4, 2, NPYDT_AS_DOUBLE, bad, NULL), NPYDT_OK);
    double back[3];
    assert_int_equal(npydt_gather(recs, 6, 3, i16, 0, NPYDT_AS_DOUBLE, back, NULL), NPYDT_OK);
    assert_true(back[0] == -32768.0 && back[1] == 7.0 && back[2] == 32767.0);
    assert_int_equal(npydt_gather(recs, 6, 3, f4, 2, NPYDT_AS_DOUBLE, back, NULL), NPYDT_OK);
    assert_true(back[1] == 2.5);
    npydt_dtype_free(dt);
}

static void test_scatter_int64_into_long_double_is_exact(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("'>f16'");
    unsigned char rec[16];
    int64_t v = INT64_MAX;
    assert_int_equal(npydt_scatter(rec, 16, 1, dt, 0, NPYDT_AS_INT64, &v, NULL), NPYDT_OK);
    /* big endian: 6 padding bytes, then sign/exponent 0x403d, then 2^63-1 << 1 */
    static const unsigned char want[16] = {0, 0, 0, 0, 0, 0, 0x40, 0x3d,
                                           0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe};
    assert_memory_equal(rec, want, 16);
    npydt_dtype_free(dt);
}

static void test_gather_refuses_null_unknown_and_overflowing_requests(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<i4'), ('b', '<f8')]");
    const npydt_dtype *a = npydt_dtype_field_dtype(dt, 0);
    unsigned char recs[24] = {0};
    int32_t out[2];
    TEST_ERROR(err);
    assert_int_equal(npydt_gather_size(NULL, NPYDT_AS_NATIVE), 0);
    assert_fails(NPYDT_E_ARG, &err, npydt_gather(recs, 12, 2, NULL, 0, NPYDT_AS_NATIVE, out, &err));
    assert_string_equal(err.message, "field is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_gather(recs, 12, 2, a, 0, (npydt_convert)7, out, &err));
    assert_string_equal(err.message, "unknown conversion 7");
    assert_fails(NPYDT_E_ARG, &err, npydt_gather(NULL, 12, 2, a, 0, NPYDT_AS_NATIVE, out, &err));
    assert_string_equal(err.message, "records or array is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_scatter(recs, 12, 2, a, 0, NPYDT_AS_NATIVE, NULL, &err));
    assert_string_equal(err.message, "records or array is NULL");
    /* n * 4 output bytes past the address space */
    assert_fails(NPYDT_E_OVERFLOW, &err,
                 npydt_gather(recs, 12, UINT64_MAX / 2, a, 0, NPYDT_AS_NATIVE, out, &err));
    assert_string_equal(err.message, "9223372036854775807 records do not fit the address space");
    /* nothing to do: no records */
    assert_int_equal(npydt_gather(NULL, 12, 0, a, 0, NPYDT_AS_NATIVE, NULL, &err), NPYDT_OK);
    npydt_dtype_free(dt);
}

static void test_scatter_native_stores_each_size_in_file_order(void **state)
{
    (void)state;
    /* one field of every copy width, little and big endian, long double
     * (16-byte units) and complex (8-byte halves) among them */
    npydt_dtype *dt = test_parse_literal("[('u1', '|u1'), ('i2', '<i2'), ('i4', '<i4'), "
                                         "('f16', '>f16'), ('c8', '>c8'), ('i8', '<i8')]");
    enum { STRIDE = 1 + 2 + 4 + 16 + 8 + 8, NREC = 3 };
    unsigned char recs[NREC * STRIDE], back[NREC * 16];
    fill_random(recs, sizeof recs);
    for (size_t f = 0; f < npydt_dtype_nfields(dt); f++) {
        const npydt_dtype *fd = npydt_dtype_field_dtype(dt, f);
        size_t off = npydt_dtype_field_offset(dt, f), size = npydt_gather_size(fd, NPYDT_AS_NATIVE);
        unsigned char arr[NREC * 16];
        for (size_t i = 0; i < NREC * size; i++)
            arr[i] = (unsigned char)(i * 7 + f);
        assert_int_equal(npydt_scatter(recs, STRIDE, NREC, fd, off, NPYDT_AS_NATIVE, arr, NULL),
                         NPYDT_OK);
        /* each record now holds the array's element in the field's byte
         * order: reversed per unit where that is not the machine's */
        char order = npydt_dtype_byteorder(fd);
        int reversed = (order == '<' || order == '>') && order != test_native_order();
        size_t unit = npydt_dtype_kind(fd) == 'c' ? size / 2 : size;
        for (size_t i = 0; i < NREC; i++)
            for (size_t b = 0; b < size; b++) {
                size_t u = b / unit, k = b % unit;
                size_t from = reversed ? u * unit + (unit - 1 - k) : b;
                if (recs[i * STRIDE + off + b] != arr[i * size + from])
                    fail_msg("field %s record %zu byte %zu", npydt_dtype_field_name(dt, f), i, b);
            }
        assert_int_equal(npydt_gather(recs, STRIDE, NREC, fd, off, NPYDT_AS_NATIVE, back, NULL),
                         NPYDT_OK);
        assert_memory_equal(back, arr, NREC * size);
    }
    npydt_dtype_free(dt);
}


/* Byte strings of every width from 1 to 20 bytes (copied in overlapping
 * halves up to 16): scatter stores exactly the field's bytes of each
 * record, its neighbours untouched, and gather reads them back. */
static void test_scatter_and_gather_bytes_of_every_width(void **state)
{
    (void)state;
    enum { NREC = 5 };
    for (int width = 1; width <= 20; width++) {
        char descr[80];
        snprintf(descr, sizeof descr, "[('p', '|u1'), ('s', '|S%d'), ('q', '|u1')]", width);
        npydt_dtype *dt = test_parse_literal(descr);
        size_t stride = (size_t)width + 2;
        const npydt_dtype *fd = npydt_dtype_field_dtype(dt, 1);
        unsigned char recs[NREC * 22], orig[NREC * 22], arr[NREC * 20], back[NREC * 20];
        fill_random(recs, sizeof recs);
        memcpy(orig, recs, sizeof recs);
        fill_random(arr, sizeof arr);
        assert_int_equal(npydt_scatter(recs, stride, NREC, fd, 1, NPYDT_AS_NATIVE, arr, NULL),
                         NPYDT_OK);
        for (size_t i = 0; i < NREC; i++) {
            assert_int_equal(recs[i * stride], orig[i * stride]);
            assert_memory_equal(recs + i * stride + 1, arr + i * (size_t)width, (size_t)width);
            assert_int_equal(recs[i * stride + 1 + (size_t)width],
                             orig[i * stride + 1 + (size_t)width]);
        }
        assert_memory_equal(recs + NREC * stride, orig + NREC * stride,
                            sizeof recs - NREC * stride);
        assert_int_equal(npydt_gather(recs, stride, NREC, fd, 1, NPYDT_AS_NATIVE, back, NULL),
                         NPYDT_OK);
        assert_memory_equal(back, arr, NREC * (size_t)width);
        npydt_dtype_free(dt);
    }
}

/* Doubles into unsigned fields: exact values from 0 up to 2**bits. */
static void test_scatter_as_double_into_unsigned_checks_range(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<u1'), ('b', '>u8')]");
    const npydt_dtype *u1 = npydt_dtype_field_dtype(dt, 0), *u8 = npydt_dtype_field_dtype(dt, 1);
    unsigned char recs[2 * 9] = {0};
    double neg[2] = {1.0, -1.0}, over[2] = {255.0, 256.0}, ok[2] = {0.0, 255.0};
    double top[2] = {18446744073709549568.0, 18446744073709551616.0};
    TEST_ERROR(err);
    assert_fails(NPYDT_E_RANGE, &err, npydt_scatter(recs, 9, 2, u1, 0, NPYDT_AS_DOUBLE, neg, &err));
    assert_string_equal(err.message, "record 1, element 0 does not fit |u1");
    assert_fails(NPYDT_E_RANGE, &err,
                 npydt_scatter(recs, 9, 2, u1, 0, NPYDT_AS_DOUBLE, over, &err));
    assert_fails(NPYDT_E_RANGE, &err, npydt_scatter(recs, 9, 2, u8, 1, NPYDT_AS_DOUBLE, top, &err));
    assert_string_equal(err.message, "record 1, element 0 does not fit >u8");
    static const unsigned char zero[18] = {0};
    assert_memory_equal(recs, zero, 18);
    assert_int_equal(npydt_scatter(recs, 9, 2, u1, 0, NPYDT_AS_DOUBLE, ok, NULL), NPYDT_OK);
    assert_int_equal(npydt_scatter(recs, 9, 1, u8, 1, NPYDT_AS_DOUBLE, top, NULL), NPYDT_OK);
    static const unsigned char want[18] = {0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf8, 0,
                                           0xff, 0, 0, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(recs, want, 18);
    npydt_dtype_free(dt);
}

/* Pairs of doubles into a complex field; doubles into a bool. */
static void test_scatter_as_double_into_complex_and_bool(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('c', '>c8'), ('b', '|b1')]");
    const npydt_dtype *c = npydt_dtype_field_dtype(dt, 0), *b = npydt_dtype_field_dtype(dt, 1);
    unsigned char recs[2 * 9] = {0};
    double pairs[4] = {1.5, -2.0, 0.0, 0.25};
    double flags[2] = {0.0, -3.5};
    assert_int_equal(npydt_scatter(recs, 9, 2, c, 0, NPYDT_AS_DOUBLE, pairs, NULL), NPYDT_OK);
    assert_int_equal(npydt_scatter(recs, 9, 2, b, 8, NPYDT_AS_DOUBLE, flags, NULL), NPYDT_OK);
    static const unsigned char want[18] = {0x3f, 0xc0, 0, 0, 0xc0, 0, 0, 0, 0,
                                           0, 0, 0, 0, 0x3e, 0x80, 0, 0, 1};
    assert_memory_equal(recs, want, 18);
    double back[4];
    assert_int_equal(npydt_gather(recs, 9, 2, c, 0, NPYDT_AS_DOUBLE, back, NULL), NPYDT_OK);
    assert_memory_equal(back, pairs, sizeof pairs);
    npydt_dtype_free(dt);
}

/* int64 values into narrower signed, unsigned and bool fields. */
static void test_scatter_as_int64_checks_each_kind(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('i', '<i1'), ('u', '>u2'), ('b', '|b1'), "
                                         "('q', '<u8')]");
    const npydt_dtype *i1 = npydt_dtype_field_dtype(dt, 0), *u2 = npydt_dtype_field_dtype(dt, 1);
    const npydt_dtype *b1 = npydt_dtype_field_dtype(dt, 2), *u8 = npydt_dtype_field_dtype(dt, 3);
    unsigned char recs[2 * 12] = {0};
    int64_t i_bad[2] = {-128, 128}, i_ok[2] = {-128, 127};
    int64_t u_bad[2] = {65535, -1}, u_big[2] = {0, 65536}, u_ok[2] = {65535, 258};
    int64_t b_vals[2] = {0, -9}, q_bad[2] = {INT64_MAX, INT64_MIN}, q_ok[2] = {INT64_MAX, 1};
    TEST_ERROR(err);
    assert_fails(NPYDT_E_RANGE, &err,
                 npydt_scatter(recs, 12, 2, i1, 0, NPYDT_AS_INT64, i_bad, &err));
    assert_string_equal(err.message, "record 1, element 0 does not fit |i1");
    assert_fails(NPYDT_E_RANGE, &err,
                 npydt_scatter(recs, 12, 2, u2, 1, NPYDT_AS_INT64, u_bad, &err));
    assert_string_equal(err.message, "record 1, element 0 does not fit >u2");
    assert_fails(NPYDT_E_RANGE, &err,
                 npydt_scatter(recs, 12, 2, u2, 1, NPYDT_AS_INT64, u_big, &err));
    assert_fails(NPYDT_E_RANGE, &err,
                 npydt_scatter(recs, 12, 2, u8, 4, NPYDT_AS_INT64, q_bad, &err));
    static const unsigned char zero[24] = {0};
    assert_memory_equal(recs, zero, 24);
    assert_int_equal(npydt_scatter(recs, 12, 2, i1, 0, NPYDT_AS_INT64, i_ok, NULL), NPYDT_OK);
    assert_int_equal(npydt_scatter(recs, 12, 2, u2, 1, NPYDT_AS_INT64, u_ok, NULL), NPYDT_OK);
    assert_int_equal(npydt_scatter(recs, 12, 2, b1, 3, NPYDT_AS_INT64, b_vals, NULL), NPYDT_OK);
    assert_int_equal(npydt_scatter(recs, 12, 2, u8, 4, NPYDT_AS_INT64, q_ok, NULL), NPYDT_OK);
    static const unsigned char want[24] = {
        0x80, 0xff, 0xff, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
        0x7f, 0x01, 0x02, 1, 1, 0, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(recs, want, 24);
    npydt_dtype_free(dt);
}

static void test_gather_refusal_to_convert_names_what_it_cannot(void **state)
{
    (void)state;
    struct fixture fx = make(MIXED);
    uint64_t off;
    double out[N][3];
    TEST_ERROR(err);
    const npydt_dtype *pos = field(&fx, "pos", &off);
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_gather(fx.recs, fx.isz, N, pos, off, NPYDT_AS_DOUBLE, out, &err));
    assert_string_equal(err.message, "cannot convert a struct of 3 fields to double: gather each "
                                     "of its fields, or the whole struct as NPYDT_AS_NATIVE");
    const npydt_dtype *name = field(&fx, "name", &off);
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_gather(fx.recs, fx.isz, N, name, off, NPYDT_AS_INT64, out, &err));
    assert_string_equal(err.message, "cannot convert |S7 to int64");
    release(&fx);
}

TEST_LIST("gather",
          cmocka_unit_test(test_gather_bytes_of_every_size_and_back),
    cmocka_unit_test(test_gather_native_f8_equals_reader),
    cmocka_unit_test(test_scatter_and_gather_bytes_of_every_width),
    cmocka_unit_test(test_gather_as_double_every_real_kind),
    cmocka_unit_test(test_gather_as_int64_checks_range),
    cmocka_unit_test(test_gather_subarray_field_native),
    cmocka_unit_test(test_gather_struct_field_swaps_to_native),
    cmocka_unit_test(test_gather_complex_as_double_pairs),
    cmocka_unit_test(test_gather_refuses_bad_requests),
    cmocka_unit_test(test_gather_refusal_to_convert_names_what_it_cannot),
    cmocka_unit_test(test_scatter_native_round_trip),
    cmocka_unit_test(test_scatter_native_writes_stored_order),
    cmocka_unit_test(test_scatter_as_double_checks_before_writing),
    cmocka_unit_test(test_scatter_int64_into_long_double_is_exact),
    cmocka_unit_test(test_gather_refuses_null_unknown_and_overflowing_requests),
    cmocka_unit_test(test_scatter_native_stores_each_size_in_file_order),
    cmocka_unit_test(test_scatter_as_double_into_unsigned_checks_range),
    cmocka_unit_test(test_scatter_as_double_into_complex_and_bool),
    cmocka_unit_test(test_scatter_as_int64_checks_each_kind),
);

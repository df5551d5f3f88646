/* Element addressing: the byte offset of an element by multi-index or by
 * C-order position, in C and Fortran order. */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

static void test_element_offset_c_order(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("shape_2x2x2.npy");
    uint64_t idx[3] = {1, 0, 1}, off;
    assert_int_equal(npydt_element_offset(npydt_reader_header(f), idx, 3, &off, NULL), NPYDT_OK);
    assert_int_equal(off, 5 * 2);
    npydt_reader_close(f);
}

static void test_element_offset_fortran_order(void **state)
{
    (void)state;
    /* np.asfortranarray(np.arange(24, dtype='>f8').reshape(2, 3, 4)) */
    npydt_reader *f = test_open_fixture("fortran_3d.npy");
    const npydt_header *h = npydt_reader_header(f);
    for (uint64_t i = 0; i < 2; i++)
        for (uint64_t j = 0; j < 3; j++)
            for (uint64_t k = 0; k < 4; k++) {
                uint64_t idx[3] = {i, j, k}, off;
                assert_int_equal(npydt_element_offset(h, idx, 3, &off, NULL), NPYDT_OK);
                assert_int_equal(off, (i + 2 * j + 6 * k) * 8);
                double v;
                assert_int_equal(npydt_read_double(test_reader_dtype(f),
                                                   (const char *)npydt_reader_bytes(f) + off, &v,
                                                   NULL),
                                 NPYDT_OK);
                assert_true(v == (double)(i * 12 + j * 4 + k));
            }
    npydt_reader_close(f);
}

static void test_element_offset_flat_is_c_order_for_fortran(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("fortran_3d.npy");
    for (uint64_t i = 0; i < 24; i++) {
        double v;
        assert_int_equal(npydt_read_double(test_reader_dtype(f), test_element_at(f, i), &v, NULL), NPYDT_OK);
        assert_true(v == (double)i);
    }
    npydt_reader_close(f);
}

static void test_element_offset_rejects_bad_indices(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("shape_2x2x2.npy");
    const npydt_header *h = npydt_reader_header(f);
    uint64_t idx[3] = {0, 2, 0}, off;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_element_offset(h, idx, 3, &off, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_element_offset(h, idx, 2, &off, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_element_offset_flat(h, 8, &off, &err));
    npydt_reader_close(f);
}

static void test_element_offset_0d(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("shape0d_f8.npy");
    uint64_t off = 99;
    assert_int_equal(npydt_element_offset(npydt_reader_header(f), NULL, 0, &off, NULL), NPYDT_OK);
    assert_int_equal(off, 0);
    double v;
    assert_int_equal(npydt_read_double(test_reader_dtype(f), test_element_at(f, 0), &v, NULL), NPYDT_OK);
    assert_true(v == 2.5);
    npydt_reader_close(f);
}

static void test_element_offset_refuses_null_arguments(void **state)
{
    (void)state;
    npydt_reader *f = test_open_fixture("scalar_S5.npy");
    const npydt_header *h = npydt_reader_header(f);
    uint64_t off = 77, idx = 0;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_element_offset(NULL, &idx, 1, &off, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_element_offset(h, &idx, 1, NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_element_offset(h, NULL, 1, &off, &err));
    assert_string_equal(err.message, "argument is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_element_offset_flat(NULL, 0, &off, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_element_offset_flat(h, 0, NULL, &err));
    assert_string_equal(err.message, "argument is NULL");
    assert_int_equal(off, 77);
    npydt_reader_close(f);
}

/* 70 dimensions (more than the 64-entry stride table): shape (2, 1, ...,
 * 1, 3) in Fortran order puts C-order element 5, index (1, 0, ..., 0, 2),
 * at (1 + 2 * 2) * 2 bytes. */
static void test_element_offset_flat_fortran_70_dimensions(void **state)
{
    (void)state;
    char text[512];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "{'descr': '<i2', 'fortran_order': True, 'shape': (2, ");
    for (int k = 1; k < 69; k++)
        n += (size_t)snprintf(text + n, sizeof text - n, "1, ");
    n += (size_t)snprintf(text + n, sizeof text - n, "3), }");
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_ndim = 70;
    npydt_header *h;
    TEST_ERROR(err);
    unsigned char npy[640];
    size_t hlen = (10 + n + 1 + 63) / 64 * 64 - 10;
    memcpy(npy, "\x93NUMPY\x01\x00", 8);
    npy[8] = (unsigned char)hlen;
    npy[9] = (unsigned char)(hlen >> 8);
    memcpy(npy + 10, text, n);
    memset(npy + 10 + n, ' ', hlen - n - 1);
    npy[10 + hlen - 1] = '\n';
    npydt_status st = npydt_header_parse(npy, 10 + hlen, &opts, &h, &err);
    if (st != NPYDT_OK)
        fail_msg("%s", err.message);
    assert_int_equal(npydt_header_ndim(h), 70);
    uint64_t off, idx[70] = {0};
    for (uint64_t i = 0; i < 6; i++) {
        assert_int_equal(npydt_element_offset_flat(h, i, &off, &err), NPYDT_OK);
        assert_int_equal(off, (i / 3 + (i % 3) * 2) * 2);
        idx[0] = i / 3;
        idx[69] = i % 3;
        uint64_t off2;
        assert_int_equal(npydt_element_offset(h, idx, 70, &off2, &err), NPYDT_OK);
        assert_int_equal(off2, off);
    }
    npydt_header_free(h);
}

TEST_LIST("element",
          cmocka_unit_test(test_element_offset_c_order),
          cmocka_unit_test(test_element_offset_fortran_order),
          cmocka_unit_test(test_element_offset_flat_is_c_order_for_fortran),
          cmocka_unit_test(test_element_offset_rejects_bad_indices),
          cmocka_unit_test(test_element_offset_0d),
          cmocka_unit_test(test_element_offset_refuses_null_arguments),
          cmocka_unit_test(test_element_offset_flat_fortran_70_dimensions));

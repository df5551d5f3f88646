/* Options filled with zeros ({0}, memset) instead of their *_init call:
 * every limit and size that is 0 means its default, in every options
 * struct, and a default limit still holds. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *npz_path(const char *name)
{
    static char path[1024];
    const char *dir = getenv("FIXTURES_NPZ");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fixtures_npz", name);
    return path;
}

/* A whole .npy file of a nested struct of shape (2, 3), zero data, in a
 * malloc'd buffer. */
static unsigned char *nested_file(size_t *len)
{
    npydt_dtype *dt = test_parse_literal("[('a', [('b', '<f8', (2,))])]");
    const uint64_t shape[2] = {2, 3};
    npydt_error err;
    size_t hlen = npydt_header_write(dt, shape, 2, 0, NULL, 0, &err);
    assert_true(hlen > 0);
    *len = hlen + 6 * npydt_dtype_itemsize(dt);
    unsigned char *buf = calloc(1, *len);
    assert_non_null(buf);
    assert_int_equal(npydt_header_write(dt, shape, 2, 0, buf, hlen, &err), hlen);
    npydt_dtype_free(dt);
    return buf;
}

static void test_options_zeroed_options_read_a_nested_header(void **state)
{
    (void)state;
    npydt_options opts = {0};
    size_t len;
    unsigned char *file = nested_file(&len);
    npydt_header *h;
    TEST_ERROR(err);
    npydt_status st = npydt_parse_buffer(file, len, &opts, &h, &err);
    if (st != NPYDT_OK)
        fail_msg("%s: %s", npydt_status_name(st), err.message);
    assert_int_equal(npydt_header_ndim(h), 2);
    npydt_header_free(h);
    free(file);
}

/* 0 is the default limit, not "no limit": max_depth 0 is 128. */
static void test_options_zero_limit_is_the_default_not_unlimited(void **state)
{
    (void)state;
    npydt_options opts;
    memset(&opts, 0, sizeof opts);
    char text[400];
    size_t n = 0;
    for (int i = 0; i < 129; i++)
        text[n++] = '[';
    for (int i = 0; i < 129; i++)
        text[n++] = ']';
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_parse_descr(text, n, &opts, &dt, &err));
    assert_string_equal(err.message, "nesting deeper than 128 brackets");
}

static void test_options_zeroed_options_parse_descriptors_and_schemas(void **state)
{
    (void)state;
    npydt_options opts = {0};
    npydt_dtype *dt;
    TEST_ERROR(err);
    const char *lit = "[('a', [('b', '<f8')]), ('c', '<i4', (2, 3))]";
    assert_int_equal(npydt_header_parse_descr(lit, strlen(lit), &opts, &dt, &err), NPYDT_OK);
    npydt_dtype_free(dt);
    const char *ts = "i4, (2,3)f8";
    assert_int_equal(npydt_dtype_parse_typestr(ts, strlen(ts), &opts, &dt, &err), NPYDT_OK);
    npydt_dtype_free(dt);
    npydt_schema *schema;
    assert_int_equal(npydt_schema_compile(lit, strlen(lit), &opts, &schema, &err), NPYDT_OK);
    npydt_schema_free(schema);
}

static void test_options_zeroed_npz_options_open_and_stream_an_archive(void **state)
{
    (void)state;
    npydt_npz_options opts;
    memset(&opts, 0, sizeof opts);
    npydt_npz *z;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_open_path(npz_path("savez_compressed.npz"), &opts, &z, &err),
                     NPYDT_OK);
    npydt_header *h;
    assert_int_equal(npydt_npz_member_header(z, 0, &h, &err), NPYDT_OK);
    npydt_header_free(h);
    assert_int_equal(npydt_npz_member_verify(z, 0, &err), NPYDT_OK);
    npydt_npz_close(z);
}

/* chunk_bytes 0 is the default 1 MiB: the 24 data bytes come in one chunk. */
static void test_options_zeroed_reader_options_take_the_default_chunk(void **state)
{
    (void)state;
    npydt_reader_options opts;
    memset(&opts, 0, sizeof opts);
    opts.no_mmap = 1;
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_path(test_fixture("fortran_2d.npy"), &opts, &r, &err),
                     NPYDT_OK);
    const void *chunk;
    size_t len;
    assert_int_equal(npydt_reader_next_chunk(r, &chunk, &len, &err), NPYDT_OK);
    assert_int_equal(len, 24);
    const void *batch;
    uint64_t n;
    assert_int_equal(npydt_reader_next_c(r, 100, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 6);
    npydt_reader_close(r);
}

static void test_options_zeroed_writer_options_write_a_2d_file(void **state)
{
    (void)state;
    npydt_writer_options opts;
    memset(&opts, 0, sizeof opts);
    FILE *f = tmpfile();
    assert_non_null(f);
    npydt_dtype *dt = test_parse_literal("'<i4'");
    const uint64_t shape[2] = {0, 3};
    npydt_writer *w;
    TEST_ERROR(err);
    npydt_status st = npydt_writer_create_fd(fileno(f), dt, shape, 2, &opts, &w, &err);
    if (st != NPYDT_OK)
        fail_msg("%s: %s", npydt_status_name(st), err.message);
    const int32_t row[3] = {1, 2, 3};
    assert_int_equal(npydt_writer_write(w, row, 3, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    npydt_header *h;
    assert_int_equal(npydt_parse_fd(fileno(f), &(npydt_options){0}, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_header_shape(h)[0], 1);
    npydt_header_free(h);
    npydt_dtype_free(dt);
    fclose(f);
}

/* The preset for input from outside: the defaults but for the documented
 * header, depth, field and allocation limits (and archive ones), reserved
 * room zero. */
static void test_options_untrusted_preset_sets_its_documented_limits(void **state)
{
    (void)state;
    npydt_options o, d;
    memset(&o, 0x5a, sizeof o);
    npydt_options_init_untrusted(&o);
    npydt_options_init(&d);
    assert_int_equal(o.limits.max_header_bytes, 64 << 10);
    assert_int_equal(o.limits.max_depth, 32);
    assert_int_equal(o.limits.max_fields, 10000);
    assert_int_equal(o.limits.max_alloc_bytes, 4194304);
    assert_int_equal(o.limits.max_ndim, d.limits.max_ndim);
    assert_null(o.allocator);
    d.limits.max_header_bytes = 64 << 10;
    d.limits.max_depth = 32;
    d.limits.max_fields = 10000;
    d.limits.max_alloc_bytes = (uint64_t)4 << 20;
    assert_memory_equal(&o, &d, sizeof o);
    npydt_npz_options z, zd;
    memset(&z, 0x5a, sizeof z);
    npydt_npz_options_init_untrusted(&z);
    npydt_npz_options_init(&zd);
    zd.base = d;
    zd.max_members = 10000;
    zd.max_inflated_bytes = (uint64_t)1 << 30;
    assert_memory_equal(&z, &zd, sizeof z);
}

/* A header one byte past the preset's 64 KiB is refused before it is read. */
static void test_options_untrusted_preset_refuses_a_longer_header(void **state)
{
    (void)state;
    unsigned char pre[12] = {0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 0x01, 0x00, 0x01, 0x00};
    npydt_options o;
    npydt_options_init_untrusted(&o);
    uint64_t total;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_size(pre, sizeof pre, &o, &total, &err));
    assert_string_equal(err.message, "header length 65537 is above the limit of 65536 bytes");
    pre[8] = 0;
    assert_int_equal(npydt_header_size(pre, sizeof pre, &o, &total, &err), NPYDT_OK);
    assert_int_equal(total, 12 + 65536);
}

TEST_LIST("options",
    cmocka_unit_test(test_options_untrusted_preset_sets_its_documented_limits),
    cmocka_unit_test(test_options_untrusted_preset_refuses_a_longer_header),
    cmocka_unit_test(test_options_zeroed_options_read_a_nested_header),
    cmocka_unit_test(test_options_zero_limit_is_the_default_not_unlimited),
    cmocka_unit_test(test_options_zeroed_options_parse_descriptors_and_schemas),
    cmocka_unit_test(test_options_zeroed_npz_options_open_and_stream_an_archive),
    cmocka_unit_test(test_options_zeroed_reader_options_take_the_default_chunk),
    cmocka_unit_test(test_options_zeroed_writer_options_write_a_2d_file),
);

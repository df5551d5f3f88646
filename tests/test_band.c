/* A Fortran-order array in C order by bands (src/access/band.c): the
 * transpose of a band, and whole arrays read through npydt_reader_next_c
 * and npydt_reader_seek_c from memory, from a mapped file and with pread,
 * each element checked against the element-by-element answer
 * (npydt_element_offset_flat into the stored bytes). Shapes have size-1
 * and empty axes, itemsizes odd ones; small window_bytes make bands of a
 * few rows, and parts of a row where one row does not fit. */
#include "test_util.h"
#include "access/access.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A reproducible generator for the tests' choices and bytes. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void test_band_transpose_matches_element_by_element(void **state)
{
    (void)state;
    uint64_t seed = 7;
    static const size_t sizes[] = {1, 2, 3, 4, 8, 12, 16, 17};
    for (int round = 0; round < 400; round++) {
        size_t is = sizes[next_random(&seed) % 8];
        uint64_t h = 1 + next_random(&seed) % 9, w = 1 + next_random(&seed) % 11;
        uint64_t total = h * w, from = next_random(&seed) % total;
        uint64_t k = 1 + next_random(&seed) % (total - from);
        unsigned char *band = malloc(total * is), *out = malloc(k * is);
        assert_non_null(band);
        assert_non_null(out);
        for (size_t b = 0; b < total * is; b++)
            band[b] = (unsigned char)next_random(&seed);
        band_transpose(band, is, h, w, from, k, out);
        for (uint64_t p = from; p < from + k; p++) {
            /* C-order position p is row p / w, position p % w; the band
             * holds position j's h elements from j * h */
            uint64_t row = p / w, j = p % w;
            assert_memory_equal(out + (p - from) * is, band + (j * h + row) * is, is);
        }
        free(band);
        free(out);
    }
}

/* An array: its header and its stored (Fortran-order) bytes, each
 * element's bytes made from its C-order index. */
struct fortran_array {
    unsigned char *file;   /* the whole .npy file */
    size_t len, data_offset, itemsize;
    uint64_t count;
    npydt_header *h;
};

static struct fortran_array make_array(const uint64_t *shape, size_t nd, size_t is,
                                       uint64_t *seed)
{
    struct fortran_array a;
    char descr[32];
    snprintf(descr, sizeof descr, "'|V%zu'", is);
    npydt_dtype *dt = test_parse_literal(descr);
    TEST_ERROR(err);
    size_t hlen = npydt_header_write(dt, shape, nd, 1, NULL, 0, &err);
    assert_true(hlen > 0);
    a.count = 1;
    for (size_t k = 0; k < nd; k++)
        a.count *= shape[k];
    a.itemsize = is;
    a.data_offset = hlen;
    a.len = hlen + (size_t)a.count * is;
    a.file = malloc(a.len + 1);
    assert_non_null(a.file);
    assert_int_equal(npydt_header_write(dt, shape, nd, 1, a.file, hlen, &err), hlen);
    npydt_dtype_free(dt);
    assert_int_equal(npydt_parse_buffer(a.file, a.len, NULL, &a.h, &err), NPYDT_OK);
    uint64_t salt = next_random(seed);
    for (uint64_t i = 0; i < a.count; i++) {
        uint64_t off;
        assert_int_equal(npydt_element_offset_flat(a.h, i, &off, &err), NPYDT_OK);
        for (size_t b = 0; b < is; b++)
            a.file[hlen + off + b] = (unsigned char)((i >> (8 * (b % 8))) + b * 37 + salt);
    }
    return a;
}

static void free_array(struct fortran_array *a)
{
    npydt_header_free(a->h);
    free(a->file);
}

/* The element-by-element answer: C-order element i of a. */
static const unsigned char *expected(const struct fortran_array *a, uint64_t i)
{
    uint64_t off;
    TEST_ERROR(err);
    assert_int_equal(npydt_element_offset_flat(a->h, i, &off, &err), NPYDT_OK);
    return a->file + a->data_offset + off;
}

/* All of r's elements in C order (batches of at most max, each at most
 * chunk bytes), then a batch from each of some positions set by
 * npydt_reader_seek_c, against a's answer. */
static void expect_all(const struct fortran_array *a, npydt_reader *r, uint64_t max,
                       size_t chunk, uint64_t *seed)
{
    TEST_ERROR(err);
    const npydt_header *h = npydt_reader_header(r);
    size_t above_one = 0;
    for (size_t k = 0; k < npydt_header_ndim(h); k++)
        above_one += npydt_header_shape(h)[k] > 1;
    int gathered = above_one > 1;   /* else C order: in place, all at once */
    uint64_t seen = 0;
    for (;;) {
        const void *batch;
        uint64_t n;
        assert_int_equal(npydt_reader_next_c(r, max, &batch, &n, &err), NPYDT_OK);
        if (n == 0)
            break;
        assert_true(n <= max);
        assert_true(!gathered || n == 1 || n * a->itemsize <= chunk);
        for (uint64_t j = 0; j < n; j++)
            assert_memory_equal((const unsigned char *)batch + j * a->itemsize,
                                expected(a, seen + j), a->itemsize);
        seen += n;
    }
    assert_int_equal(seen, a->count);
    for (int s = 0; s < 8 && a->count > 0; s++) {
        uint64_t at = next_random(seed) % a->count;
        const void *batch;
        uint64_t n;
        assert_int_equal(npydt_reader_seek_c(r, at, &err), NPYDT_OK);
        assert_int_equal(npydt_reader_next_c(r, max, &batch, &n, &err), NPYDT_OK);
        assert_true(n >= 1 && n <= a->count - at);
        for (uint64_t j = 0; j < n; j++)
            assert_memory_equal((const unsigned char *)batch + j * a->itemsize,
                                expected(a, at + j), a->itemsize);
    }
}

enum source { FROM_BUFFER, FROM_MAPPED_FILE, FROM_PREAD, FROM_COPY, SOURCES };

/* Shapes with at least two axes above 1 (those are gathered), others,
 * size-1 axes among them, and empty ones. */
static const struct {
    size_t nd;
    uint64_t shape[4];
} shapes[] = {
    {2, {5, 3}}, {2, {3, 5}}, {2, {1, 7}}, {2, {64, 2}}, {2, {2, 64}}, {3, {2, 3, 4}},
    {3, {4, 1, 5}}, {3, {1, 6, 3}}, {3, {3, 2, 1}}, {4, {2, 3, 2, 3}}, {4, {3, 1, 4, 2}},
    {2, {0, 4}}, {3, {2, 0, 3}}, {1, {9}}, {2, {100, 37}}, {3, {7, 9, 11}},
};

static void check_shape_everywhere(size_t si, size_t is, uint64_t *seed)
{
    struct fortran_array a = make_array(shapes[si].shape, shapes[si].nd, is, seed);
    char path[] = "/tmp/npydt_band_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, a.file, a.len), (ssize_t)a.len);
    close(fd);
    /* window_bytes: a band of a few rows, of part of a row, of one
     * element; and the default */
    static const size_t windows[] = {1, 7, 40, 200, 0};
    for (enum source from = 0; from < SOURCES; from++) {
        for (size_t wi = 0; wi < sizeof windows / sizeof windows[0]; wi++) {
            npydt_reader_options opts;
            npydt_reader_options_init(&opts);
            opts.window_bytes = windows[wi];
            opts.chunk_bytes = 1 + (size_t)(next_random(seed) % 64);
            opts.no_mmap = from == FROM_PREAD || from == FROM_COPY;
            opts.in_memory = from == FROM_COPY;
            npydt_reader *r = NULL;
            TEST_ERROR(err);
            npydt_status st = from == FROM_BUFFER
                                  ? npydt_reader_open_buffer(a.file, a.len, &opts, &r, &err)
                                  : npydt_reader_open_path(path, &opts, &r, &err);
            assert_int_equal(st, NPYDT_OK);
            uint64_t max = 1 + next_random(seed) % (a.count + 3);
            expect_all(&a, r, max, opts.chunk_bytes, seed);
            npydt_reader_close(r);
        }
    }
    unlink(path);
    free_array(&a);
}

static void test_band_every_source_matches_element_by_element(void **state)
{
    (void)state;
    uint64_t seed = 11;
    static const size_t sizes[] = {1, 2, 3, 8, 16, 24};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
            check_shape_everywhere(si, sizes[k], &seed);
}

/* A mapped Fortran-order file that another process truncates is read
 * with pread, never through the mapping: the usual error, no SIGBUS. */
static void test_band_mapped_file_that_shrinks_gives_an_io_error(void **state)
{
    (void)state;
    uint64_t seed = 3, shape[2] = {300, 40};
    struct fortran_array a = make_array(shape, 2, 8, &seed);
    char path[] = "/tmp/npydt_band_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, a.file, a.len), (ssize_t)a.len);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_fd(fd, NULL, &r, &err), NPYDT_OK);
    assert_true(npydt_reader_is_mapped(r));
    assert_int_equal(ftruncate(fd, (off_t)a.data_offset + 1000), 0);
    const void *batch;
    uint64_t n;
    assert_fails(NPYDT_E_IO, &err, npydt_reader_next_c(r, UINT64_MAX, &batch, &n, &err));
    assert_string_equal(err.message, "the file shrank while it was read");
    npydt_reader_close(r);
    close(fd);
    unlink(path);
    free_array(&a);
}

/* An allocator that grants *left more requests (all when negative). */
static int grant(void *ctx)
{
    int *left = ctx;
    if (*left == 0)
        return 0;
    if (*left > 0)
        --*left;
    return 1;
}
static void *counting_malloc(void *ctx, size_t size)
{
    return grant(ctx) ? malloc(size) : NULL;
}
static void *counting_realloc(void *ctx, void *p, size_t old_size, size_t size)
{
    (void)old_size;
    return grant(ctx) ? realloc(p, size) : NULL;
}
static void counting_free(void *ctx, void *p, size_t size)
{
    (void)ctx;
    (void)size;
    free(p);
}

/* Out of memory at any allocation of the first batch leaves no half-made
 * plan: the next call, with memory again, reads every element. */
static void test_band_out_of_memory_then_reads_on_retry(void **state)
{
    (void)state;
    uint64_t seed = 5, shape[2] = {30, 7};
    struct fortran_array a = make_array(shape, 2, 8, &seed);
    for (int k = 0; k < 8; k++) {
        int left = -1;
        npydt_allocator alc = {counting_malloc, counting_realloc, counting_free, &left};
        npydt_reader_options opts;
        npydt_reader_options_init(&opts);
        opts.base.allocator = &alc;
        npydt_reader *r = NULL;
        TEST_ERROR(err);
        assert_int_equal(npydt_reader_open_buffer(a.file, a.len, &opts, &r, &err), NPYDT_OK);
        const void *batch;
        uint64_t n;
        left = k;
        npydt_status st = npydt_reader_next_c(r, UINT64_MAX, &batch, &n, &err);
        assert_true(st == NPYDT_OK || st == NPYDT_E_NOMEM);
        left = -1;
        if (st == NPYDT_E_NOMEM)
            expect_all(&a, r, UINT64_MAX, 1u << 20, &seed);
        npydt_reader_close(r);
    }
    free_array(&a);
}

/* The reader keeps its own descriptor of a mapped file: the caller's may
 * be closed once it is open, as for any mapping. */
static void test_band_mapped_file_reads_after_its_descriptor_is_closed(void **state)
{
    (void)state;
    uint64_t seed = 5, shape[3] = {6, 5, 4};
    struct fortran_array a = make_array(shape, 3, 4, &seed);
    char path[] = "/tmp/npydt_band_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, a.file, a.len), (ssize_t)a.len);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_fd(fd, NULL, &r, &err), NPYDT_OK);
    close(fd);
    expect_all(&a, r, UINT64_MAX, (size_t)1 << 20, &seed);
    npydt_reader_close(r);
    unlink(path);
    free_array(&a);
}

/* A writable reader's bytes may be stored to between batches: the next
 * batch shows the store, no band kept from before it. */
static void test_band_writable_reader_shows_stores_between_batches(void **state)
{
    (void)state;
    uint64_t seed = 13, shape[2] = {4, 3};
    struct fortran_array a = make_array(shape, 2, 8, &seed);
    char path[] = "/tmp/npydt_band_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, a.file, a.len), (ssize_t)a.len);
    close(fd);
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    opts.writable = 1;
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_path(path, &opts, &r, &err), NPYDT_OK);
    const void *batch;
    uint64_t n, off;
    assert_int_equal(npydt_reader_next_c(r, 1, &batch, &n, &err), NPYDT_OK);
    assert_memory_equal(batch, expected(&a, 0), 8);
    assert_int_equal(npydt_element_offset_flat(a.h, 1, &off, &err), NPYDT_OK);
    memset((unsigned char *)npydt_reader_bytes_mut(r) + off, 0x5a, 8);
    assert_int_equal(npydt_reader_next_c(r, 1, &batch, &n, &err), NPYDT_OK);
    assert_memory_equal(batch, "ZZZZZZZZ", 8);
    npydt_reader_close(r);
    unlink(path);
    free_array(&a);
}

static void test_band_seek_beyond_the_count_is_refused(void **state)
{
    (void)state;
    uint64_t seed = 9, shape[2] = {3, 4};
    struct fortran_array a = make_array(shape, 2, 2, &seed);
    npydt_reader *r;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_buffer(a.file, a.len, NULL, &r, &err), NPYDT_OK);
    assert_fails(NPYDT_E_ARG, &err, npydt_reader_seek_c(r, 13, &err));
    assert_int_equal(npydt_reader_seek_c(r, 12, &err), NPYDT_OK);   /* the end */
    const void *batch;
    uint64_t n = 1;
    assert_int_equal(npydt_reader_next_c(r, UINT64_MAX, &batch, &n, &err), NPYDT_OK);
    assert_int_equal(n, 0);
    npydt_reader_close(r);
    free_array(&a);
}

TEST_LIST("band",
          cmocka_unit_test(test_band_transpose_matches_element_by_element),
          cmocka_unit_test(test_band_every_source_matches_element_by_element),
          cmocka_unit_test(test_band_mapped_file_that_shrinks_gives_an_io_error),
          cmocka_unit_test(test_band_mapped_file_reads_after_its_descriptor_is_closed),
          cmocka_unit_test(test_band_writable_reader_shows_stores_between_batches),
          cmocka_unit_test(test_band_seek_beyond_the_count_is_refused),
          cmocka_unit_test(test_band_out_of_memory_then_reads_on_retry));

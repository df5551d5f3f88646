/* Resource bounds: nesting depth gives a clean error at the right offset,
 * the limits can be raised within their ceiling, no allocation is made for
 * bytes that are not there, and the memory a parse holds stays below a
 * fixed multiple of the header length, for ordinary and for pathological
 * headers. (Time per byte is checked by tests/check_linear.sh, which counts
 * instructions.) */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- a growable text ----------------------------------------------------------- */

struct text {
    char *s;
    size_t len, cap;
};

static void put(struct text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len + n + 1 > t->cap) {
        t->cap = 2 * (t->len + n + 1);
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    memcpy(t->s + t->len, s, n + 1);
    t->len += n;
}

static void putf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct text *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    put(t, buf);
}

static void put_n(struct text *t, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        put(t, s);
}

/* A whole version 2.0 file around header text (no data: shape ()). */
static unsigned char *npy_v2(const char *header, size_t hlen, size_t *len)
{
    *len = 12 + hlen;
    unsigned char *b = malloc(*len);
    assert_non_null(b);
    memcpy(b, "\x93NUMPY\x02\x00", 8);
    b[8] = (unsigned char)(hlen & 0xFF);
    b[9] = (unsigned char)(hlen >> 8 & 0xFF);
    b[10] = (unsigned char)(hlen >> 16 & 0xFF);
    b[11] = (unsigned char)(hlen >> 24 & 0xFF);
    memcpy(b + 12, header, hlen);
    return b;
}

/* ---- a measuring allocator ----------------------------------------------------- */

struct meter {
    npydt_allocator alloc;
    size_t live, peak, max_block;
    size_t cap;   /* refuse what would hold more than this; 0: no cap */
    long calls, live_blocks;
};

static void meter_note(struct meter *m, size_t size)
{
    m->calls++;
    if (m->live > m->peak)
        m->peak = m->live;
    if (size > m->max_block)
        m->max_block = size;
}

static void *m_malloc(void *ctx, size_t size)
{
    struct meter *m = ctx;
    void *p = m->cap && size > m->cap - m->live ? NULL : malloc(size);
    if (p) {
        m->live += size;
        m->live_blocks++;
    }
    meter_note(m, size);
    return p;
}

static void *m_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    struct meter *m = ctx;
    void *p = m->cap && new_size > old_size && new_size - old_size > m->cap - m->live
                  ? NULL
                  : realloc(ptr, new_size);
    if (p) {
        m->live += new_size - old_size;
        m->live_blocks += ptr == NULL;
    }
    meter_note(m, new_size);
    return p;
}

static void m_free(void *ctx, void *ptr, size_t size)
{
    struct meter *m = ctx;
    if (ptr) {
        m->live -= size;
        m->live_blocks--;
        free(ptr);
    }
}

static void meter_init(struct meter *m, npydt_options *opts)
{
    memset(m, 0, sizeof *m);
    m->alloc = (npydt_allocator){m_malloc, m_realloc, m_free, m};
    npydt_options_init(opts);
    opts->allocator = &m->alloc;
}

/* ---- nesting depth ------------------------------------------------------------- */

static void test_bounds_100000_brackets_in_header_is_limit_error(void **state)
{
    (void)state;
    struct text t = {0};
    put(&t, "{'descr': ");
    put_n(&t, "[", 100000);
    put_n(&t, "]", 100000);
    put(&t, ", 'fortran_order': False, 'shape': (), }\n");
    size_t len;
    unsigned char *file = npy_v2(t.s, t.len, &len);
    npydt_header *h = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_parse(file, len, NULL, &h, &err));
    assert_null(h);
    assert_int_equal(err.code, NPYDT_E_LIMIT);
    /* '{' is level 1, so the 128th '[' (text offset 10 + 127) is level 129 */
    assert_int_equal(err.offset, 10 + 127);
    assert_int_equal(t.s[err.offset], '[');
    free(file);
    free(t.s);
}

static void test_bounds_100000_brackets_in_descr_is_limit_error(void **state)
{
    (void)state;
    struct text t = {0};
    put_n(&t, "(", 100000);
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_parse_descr(t.s, t.len, NULL, &dt, &err));
    assert_null(dt);
    assert_int_equal(err.offset, 128);
    free(t.s);
}

/* n nested single-field structs: [('a', [('a', ... '<f8' ...)])] */
static void nested_structs(struct text *t, int n)
{
    put_n(t, "[('a', ", (size_t)n);
    put(t, "'<f8'");
    put_n(t, ")]", (size_t)n);
}

static void test_bounds_nesting_over_default_depth_is_limit_error(void **state)
{
    (void)state;
    struct text t = {0};
    nested_structs(&t, 65);   /* 130 brackets */
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_parse_descr(t.s, t.len, NULL, &dt, &err));
    free(t.s);
}

static void test_bounds_raised_max_depth_lets_deeper_nesting_through(void **state)
{
    (void)state;
    struct text t = {0};
    nested_structs(&t, 500);   /* 1,000 brackets */
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_depth = 1001;
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_parse_descr(t.s, t.len, &opts, &dt, &err), NPYDT_OK);
    size_t n;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &n);
    assert_int_equal(n, 1);
    assert_non_null(leaves);
    assert_int_equal(npydt_dtype_leaf_path(dt, 0, NULL, 0), 2 * 500 - 1);   /* "a.a.....a" */
    npydt_dtype_free(dt);
    free(t.s);
}

static void test_bounds_ceiling_depth_parses_without_exhausting_the_stack(void **state)
{
    (void)state;
    struct text t = {0};
    nested_structs(&t, 2047);   /* 4,094 brackets: every level recurses */
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_depth = 4096;
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_parse_descr(t.s, t.len, &opts, &dt, &err), NPYDT_OK);
    /* printing and comparing recurse too */
    char *printed = malloc(t.len + 1);
    assert_non_null(printed);
    assert_int_equal(npydt_dtype_descr(dt, printed, t.len + 1), t.len);
    assert_memory_equal(printed, t.s, t.len);   /* the input is canonical */
    assert_true(npydt_dtype_equal(dt, dt));
    free(printed);
    npydt_dtype_free(dt);
    free(t.s);
}

/* Subarrays one inside another: (((...('<f8', (1,)), (1,)) ...), (1,)). */
static void nested_subarrays(struct text *t, int n)
{
    put_n(t, "(", (size_t)n);
    put(t, "'<f8'");
    put_n(t, ", (1,))", (size_t)n);
}

/* The leaf table gives a leaf at most 63 repeats (a subarray of scalars
 * inside another shares its repeat): 64 subarrays fit, 65 are refused at
 * the shape of the one that passes the limit, with the limit named. */
static void test_bounds_subarrays_nested_past_the_limit_are_refused_where_they_stand(void **state)
{
    (void)state;
    struct text t = {0};
    nested_subarrays(&t, 64);
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_parse_descr(t.s, t.len, NULL, &dt, &err), NPYDT_OK);
    npydt_dtype_free(dt);
    t.len = 0;
    nested_subarrays(&t, 65);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_parse_descr(t.s, t.len, NULL, &dt, &err));
    assert_string_equal(err.message, "more than 63 subarrays nested one inside another");
    assert_int_equal(err.offset, t.len - 5);   /* the outermost "(1,)" */
    assert_null(dt);
    free(t.s);
}

/* A comma type string makes two levels (a struct of subarray fields) of
 * no bracket: levels of structs and subarrays are held to max_depth too,
 * refused at the node that passes it (here the outer list, at 0). */
static void test_bounds_levels_past_max_depth_are_refused_with_the_limit_named(void **state)
{
    (void)state;
    static const char text[] = "[('a', 'f8,(2,)i4')]";
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_depth = 2;
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err,
                 npydt_header_parse_descr(text, sizeof text - 1, &opts, &dt, &err));
    assert_string_equal(err.message,
                        "dtype nested deeper than 2 levels of structs and subarrays (max_depth)");
    assert_int_equal(err.offset, 0);
    assert_null(dt);
    opts.limits.max_depth = 3;
    assert_int_equal(npydt_header_parse_descr(text, sizeof text - 1, &opts, &dt, &err), NPYDT_OK);
    npydt_dtype_free(dt);
}

static void test_bounds_max_depth_above_ceiling_is_arg_error(void **state)
{
    (void)state;
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_depth = 4097;
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_header_parse_descr("'<f8'", 5, &opts, &dt, &err));
    assert_null(dt);
}

/* ---- nothing is allocated for bytes that are not there ------------------------- */

static void test_bounds_header_longer_than_buffer_allocates_nothing(void **state)
{
    (void)state;
    unsigned char file[64] = "\x93NUMPY\x02\x00";
    file[10] = 0x30;   /* HEADER_LEN 3 MiB (under the limit), 52 bytes present */
    struct meter m;
    npydt_options opts;
    meter_init(&m, &opts);
    npydt_header *h = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_TRUNCATED, &err, npydt_header_parse(file, sizeof file, &opts, &h, &err));
    assert_int_equal(m.calls, 0);
}

static void test_bounds_file_shorter_than_header_len_allocates_nothing(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt_bounds_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unsigned char file[64] = "\x93NUMPY\x02\x00";
    file[10] = 0x30;
    assert_int_equal(write(fd, file, sizeof file), (ssize_t)sizeof file);
    close(fd);
    struct meter m;
    npydt_options opts;
    meter_init(&m, &opts);
    npydt_header *h = NULL;
    TEST_ERROR(err);
    npydt_status st = npydt_parse_path(path, &opts, &h, &err);
    unlink(path);
    assert_int_equal(st, NPYDT_E_TRUNCATED);
    test_assert_error_filled(st, &err);
    assert_int_equal(m.calls, 0);
}

static void test_bounds_header_above_max_header_bytes_allocates_nothing(void **state)
{
    (void)state;
    size_t len;
    const char *hdr = "{'descr': '<f8', 'fortran_order': False, 'shape': (), }\n";
    unsigned char *file = npy_v2(hdr, strlen(hdr), &len);
    struct meter m;
    npydt_options opts;
    meter_init(&m, &opts);
    opts.limits.max_header_bytes = 16;
    npydt_header *h = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_parse(file, len, &opts, &h, &err));
    assert_int_equal(m.calls, 0);
    free(file);
}

/* ---- memory per header byte ---------------------------------------------------- */

/* The bound asserted below: peak bytes held during a parse of a header of
 * L bytes stay under MEM_PER_BYTE * L + MEM_CONSTANT, for every shape:
 * leaf paths share their prefixes, so long names above many leaves cost
 * nothing per leaf. Measured (64 KiB and 1 MiB headers): about 117 per
 * byte for comma type strings of one-letter types, bare or below a chain
 * of long names ('?,?,?,...': every two bytes make a field with its name,
 * entry, leaf and hash slot, and the arena doubles its chunks), 114 for
 * struct subarrays of one-byte fields, 53 or less for the rest. */
#define MEM_PER_BYTE 128u
#define MEM_CONSTANT 65536u

typedef void (*family_fn)(struct text *t, size_t n);

static void fam_many_fields(struct text *t, size_t n)
{
    put(t, "[");
    for (size_t i = 0; i < n / 16; i++)
        putf(t, "('f%zu', '<f8'), ", i);
    put(t, "]");
}

static void fam_titles(struct text *t, size_t n)
{
    put(t, "[");
    for (size_t i = 0; i < n / 24; i++)
        putf(t, "(('t%zu', 'f%zu'), 'u1'), ", i, i);
    put(t, "]");
}

static void fam_comma_typestr(struct text *t, size_t n)
{
    put(t, "'");
    put_n(t, "?,", n / 2);
    put(t, "?'");
}

static void fam_adjacent_strings(struct text *t, size_t n)
{
    put(t, "[('a");
    put_n(t, "' 'a", n / 4);
    put(t, "', '<f8')]");
}

static void fam_escapes(struct text *t, size_t n)
{
    put(t, "[('");
    put_n(t, "\\x41\\n\\u00e9\\U0001f600\\\\", n / 24);
    put(t, "', '<f8')]");
}

static void fam_long_paths(struct text *t, size_t n)
{
    for (int d = 0; d < 20; d++) {
        put(t, "[('");
        put_n(t, "x", n / 200);
        putf(t, "%d', ", d);
    }
    put(t, "[");
    for (size_t i = 0; i < n / 24; i++)
        putf(t, "('f%zu', 'i1'), ", i);
    put(t, "]");
    put_n(t, ")]", 20);
}

static void fam_subarray_leaves(struct text *t, size_t n)
{
    put_n(t, "[('s', ", 40);
    put(t, "[");
    for (size_t i = 0; i < n / 24; i++)
        putf(t, "('f%zu', 'i1', 2), ", i);
    put(t, "]");
    put_n(t, ", (1, 1, 1))]", 40);
}

static void fam_shape_tuples(struct text *t, size_t n)
{
    put(t, "[");
    for (size_t i = 0; i < n / 40; i++)
        putf(t, "('f%zu', ('<i2', (1, 2)), (1, 1, 1)), ", i);
    put(t, "]");
}

static void fam_comments(struct text *t, size_t n)
{
    put(t, "[");
    for (size_t i = 0; i < n / 40; i++)
        putf(t, "# comment %zu\n('f%zu', # more\n '<f8'),\\\n", i, i);
    put(t, "]");
}

/* 50 nested structs of 12-character names around a comma type string:
 * each leaf's path is 650 bytes, from two bytes of text */
static void fam_names_around_comma_typestr(struct text *t, size_t n)
{
    for (int d = 0; d < 50; d++)
        putf(t, "[('%012d', ", d);
    put(t, "'");
    put_n(t, "b,", (n - 1000) / 2);
    put(t, "b'");
    put_n(t, ")]", 50);
}

static void fam_many_empty_tuples(struct text *t, size_t n)
{
    put(t, "('<f8', [");
    put_n(t, "(), ", n / 4);
    put(t, "])");
}

static npydt_status check_memory(family_fn fam, size_t n, const char *name)
{
    struct text t = {0};
    fam(&t, n);
    struct meter m;
    npydt_options opts;
    meter_init(&m, &opts);
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    npydt_status st = npydt_header_parse_descr(t.s, t.len, &opts, &dt, &err);
    double factor = (double)m.peak / (double)t.len;
    print_message("%s: %zu bytes, %s, peak %zu bytes (%.1f per byte), largest block %zu\n", name,
                  t.len, npydt_status_name(st), m.peak, factor, m.max_block);
    if (m.peak > (size_t)MEM_PER_BYTE * t.len + MEM_CONSTANT)
        fail_msg("%s: peak %zu bytes for %zu header bytes", name, m.peak, t.len);
    assert_true(m.max_block <= m.peak);
    npydt_dtype_free(dt);
    assert_int_equal(m.live_blocks, 0);
    free(t.s);
    return st;
}

#define MEMORY_TEST(fam)                                                                     \
    static void test_bounds_memory_per_byte_##fam(void **state)                              \
    {                                                                                        \
        (void)state;                                                                         \
        (void)check_memory(fam_##fam, 64 << 10, #fam);                                       \
        (void)check_memory(fam_##fam, 1 << 20, #fam);                                        \
    }

MEMORY_TEST(many_fields)
MEMORY_TEST(titles)
MEMORY_TEST(comma_typestr)
MEMORY_TEST(adjacent_strings)
MEMORY_TEST(escapes)
MEMORY_TEST(long_paths)
MEMORY_TEST(subarray_leaves)
MEMORY_TEST(shape_tuples)
MEMORY_TEST(comments)
MEMORY_TEST(many_empty_tuples)

/* Spelled out, its paths would take 325 times the text (650 bytes for
 * every two): a 4 KB header held 571 bytes per byte, a larger one was
 * refused. Paths share their prefixes, and every size parses. */
static void test_bounds_memory_per_byte_names_around_comma_typestr(void **state)
{
    (void)state;
    static const size_t sizes[] = {4032, 64 << 10, 1 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        assert_int_equal(check_memory(fam_names_around_comma_typestr, sizes[i],
                                      "names_around_comma_typestr"),
                         NPYDT_OK);
}

/* npydt_options_init_untrusted: the most a parse holds under the preset,
 * stated in npydt.h, over every family above at every size its 64 KiB
 * headers allow (a larger family is refused by a limit, for less). */
#define UNTRUSTED_PEAK ((size_t)4 << 20)

static void test_bounds_untrusted_preset_holds_every_family_under_its_peak(void **state)
{
    (void)state;
    static const struct {
        family_fn fam;
        const char *name;
    } fams[] = {{fam_many_fields, "many_fields"}, {fam_titles, "titles"},
                {fam_comma_typestr, "comma_typestr"}, {fam_adjacent_strings, "adjacent_strings"},
                {fam_escapes, "escapes"}, {fam_long_paths, "long_paths"},
                {fam_subarray_leaves, "subarray_leaves"}, {fam_shape_tuples, "shape_tuples"},
                {fam_comments, "comments"}, {fam_many_empty_tuples, "many_empty_tuples"},
                {fam_names_around_comma_typestr, "names_around_comma_typestr"}};
    size_t worst = 0;
    for (size_t f = 0; f < sizeof fams / sizeof fams[0]; f++)
        for (size_t n = 4096; n <= (size_t)64 << 10; n += 4096) {
            struct text t = {0};
            put(&t, "{'descr': ");
            fams[f].fam(&t, n - 100);
            put(&t, ", 'fortran_order': False, 'shape': (0,), }\n");
            size_t len;
            unsigned char *file = npy_v2(t.s, t.len, &len);
            struct meter m;
            npydt_options opts;
            meter_init(&m, &opts);
            npydt_options_init_untrusted(&opts);
            opts.allocator = &m.alloc;
            npydt_header *h = NULL;
            TEST_ERROR(err);
            npydt_status st = npydt_header_parse(file, len, &opts, &h, &err);
            if (m.peak > worst) {
                worst = m.peak;
                print_message("%s: %zu bytes, %s, peak %zu bytes\n", fams[f].name, t.len,
                              npydt_status_name(st), m.peak);
            }
            npydt_header_free(h);
            assert_int_equal(m.live_blocks, 0);
            free(file);
            free(t.s);
        }
    assert_true(worst <= UNTRUSTED_PEAK);
}

/* A header whose leaf table and name table pass 4 MiB parses to the same
 * result with malloc and with the huge-page allocator, which maps blocks
 * of 4 MiB and more directly (and grows them by remapping). */
static void test_bounds_header_past_4_mib_of_tables_with_malloc_and_huge_pages(void **state)
{
    (void)state;
    enum { N = 300000 };   /* 12 MB of fields, 17 MB of leaves, 4 MB of hash slots */
    struct text t = {0};
    put(&t, "\x93NUMPY\x02");
    put_n(&t, "\x01", 5);   /* version 2.0, then the length, set below */
    size_t start = t.len;
    put(&t, "{'descr': [");
    for (size_t i = 0; i < N; i++)
        putf(&t, "%s('f%06zu', '<f8')", i ? ", " : "", i);
    put(&t, "], 'fortran_order': False, 'shape': (0,), }\n");
    t.s[6] = 2;
    t.s[7] = 0;
    uint32_t hlen = (uint32_t)(t.len - start);
    for (int k = 0; k < 4; k++)
        t.s[8 + k] = (char)((hlen >> (8 * k)) & 0xff);
    for (int huge = 0; huge < 2; huge++) {
        npydt_options opts;
        npydt_options_init(&opts);
        opts.limits.max_header_bytes = (size_t)64 << 20;
        opts.allocator = huge ? npydt_huge_page_allocator() : NULL;
        npydt_header *h;
        TEST_ERROR(err);
        assert_int_equal(npydt_header_parse(t.s, t.len, &opts, &h, &err), NPYDT_OK);
        const npydt_dtype *dt = npydt_header_dtype(h);
        assert_int_equal(npydt_dtype_nfields(dt), N);
        assert_string_equal(npydt_dtype_field_name(dt, N - 1), "f299999");
        assert_int_equal(npydt_dtype_field_offset(dt, N - 1), 8 * (N - 1));
        size_t nleaves;
        assert_non_null(npydt_dtype_leaves(dt, &nleaves));
        assert_int_equal(nleaves, N);
        char path[16];
        assert_string_equal(test_leaf_path(dt, N / 2, path, sizeof path), "f150000");
        npydt_header_free(h);
        /* a repeated name among them is still found */
        char *last = strstr(t.s + start, "'f299999'");   /* the text has no NUL */
        memcpy(last, "'f000007'", 9);
        assert_fails(NPYDT_E_NAME, &err, npydt_header_parse(t.s, t.len, &opts, &h, &err));
        assert_string_equal(err.message, "field name 'f000007' already used as a name or title");
        memcpy(last, "'f299999'", 9);
    }
    free(t.s);
}

/* 20 levels of 5,000-byte names over 43,690 fields: 4.4 GB if every
 * leaf held its path, a table of a fixed size per field as they share it */
static void test_bounds_long_paths_over_many_fields_share_their_prefix(void **state)
{
    (void)state;
    struct text t = {0};
    fam_long_paths(&t, 1 << 20);
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_parse_descr(t.s, t.len, NULL, &dt, &err), NPYDT_OK);
    size_t n;
    (void)npydt_dtype_leaves(dt, &n);
    assert_int_equal(n, (1 << 20) / 24);
    char *path = malloc(20 * 5250);
    assert_non_null(path);
    size_t len = npydt_dtype_leaf_path(dt, n - 1, path, 20 * 5250);
    /* names of 5,242 x's and the level (one digit, then two), dots, the field */
    assert_int_equal(len, 10 * 5243 + 10 * 5244 + 20 + strlen("f43689"));
    assert_string_equal(path + len - 9, "19.f43689");
    assert_int_equal(path[5242], '0');
    assert_int_equal(path[5243], '.');
    /* cut like snprintf */
    char head[8];
    assert_int_equal(npydt_dtype_leaf_path(dt, n - 1, head, sizeof head), len);
    assert_string_equal(head, "xxxxxxx");
    free(path);
    npydt_dtype_free(dt);
    free(t.s);
}

static void test_bounds_long_paths_of_real_size_are_accepted(void **state)
{
    (void)state;
    /* 10 levels of 64-byte names over 1,000 fields: 650 KB of paths */
    struct text t = {0};
    for (int d = 0; d < 10; d++)
        putf(&t, "[('%064d', ", d);
    put(&t, "[");
    for (int i = 0; i < 1000; i++)
        putf(&t, "('f%d', 'i1'), ", i);
    put(&t, "]");
    put_n(&t, ")]", 10);
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_parse_descr(t.s, t.len, NULL, &dt, &err), NPYDT_OK);
    size_t n;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &n);
    assert_int_equal(n, 1000);
    assert_non_null(leaves);
    assert_int_equal(npydt_dtype_leaf_path(dt, 999, NULL, 0), 10 * 65 + 4);
    npydt_dtype_free(dt);
    free(t.s);
}

/* Below empty-named fields the paths start without a '.': the first
 * non-empty name opens the path. */
static void test_bounds_paths_below_empty_names_start_without_a_dot(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('', [('', [('aa', [('', [('x', '|u1')])])])])]");
    char path[16];
    assert_int_equal(npydt_dtype_leaf_path(dt, 0, path, sizeof path), 5);
    assert_string_equal(path, "aa..x");
    npydt_dtype_free(dt);
}

/* ---- the field limit, counted as the text is read ------------------------------ */

/* A version 2.0 header with descr (the rest of the dict around it). */
static unsigned char *npy_with_descr(const char *descr, size_t *len, size_t *descr_at)
{
    struct text t = {0};
    put(&t, "{'descr': ");
    *descr_at = t.len;
    put(&t, descr);
    put(&t, ", 'fortran_order': False, 'shape': (), }\n");
    unsigned char *file = npy_v2(t.s, t.len, len);
    free(t.s);
    return file;
}

/* Peak bytes a header parse held, with max_fields set; the status, and
 * the error in *err. */
static npydt_status parse_metered(const unsigned char *file, size_t len, size_t max_fields,
                                  size_t cap, size_t *peak, npydt_error *err)
{
    struct meter m;
    npydt_options opts;
    meter_init(&m, &opts);
    m.cap = cap;
    opts.limits.max_fields = max_fields;
    npydt_header *h = NULL;
    npydt_status st = npydt_header_parse(file, len, &opts, &h, err);
    npydt_header_free(h);
    assert_int_equal(m.live_blocks, 0);
    *peak = m.peak;
    return st;
}

/* 100,000 fields against a limit of 100: refused at field 101's entry,
 * holding the copy of the text and at most the first MiB of its syntax
 * tree's arena, where building them all took 13 bytes per byte. */
static void test_bounds_fields_past_max_fields_are_refused_at_the_entry_that_passes(void **state)
{
    (void)state;
    struct text d = {0};
    put(&d, "[");
    for (size_t i = 0; i < 100000; i++)
        putf(&d, "('f%zu', 'u1'), ", i);
    put(&d, "]");
    size_t len, at, peak;
    unsigned char *file = npy_with_descr(d.s, &len, &at);
    TEST_ERROR(err);
    assert_int_equal(parse_metered(file, len, 100, 0, &peak, &err), NPYDT_E_LIMIT);
    assert_string_equal(err.message, "more than 100 fields in the dtype");
    assert_int_equal(err.offset, at + (size_t)(strstr(d.s, "('f100',") - d.s));
    print_message("%zu header bytes: peak %zu\n", len - 12, peak);
    assert_true(peak < len + (1u << 20) + MEM_CONSTANT);
    free(file);
    free(d.s);
}

/* The same for the fields of a comma type string: refused at the item
 * that passes the limit, not once all are made (80 bytes per byte),
 * holding the copy of the text and the first blocks of the arenas. */
static void test_bounds_comma_typestr_past_max_fields_is_refused_as_it_is_read(void **state)
{
    (void)state;
    struct text d = {0};
    put(&d, "'b");
    put_n(&d, ",b", 99999);
    put(&d, "'");
    size_t len, at, peak;
    unsigned char *file = npy_with_descr(d.s, &len, &at);
    TEST_ERROR(err);
    assert_int_equal(parse_metered(file, len, 100, 0, &peak, &err), NPYDT_E_LIMIT);
    assert_string_equal(err.message, "more than 100 fields in the dtype");
    print_message("%zu header bytes: peak %zu\n", len - 12, peak);
    assert_true(peak < len + 2 * MEM_CONSTANT);
    free(file);
    free(d.s);
}

/* Only what becomes a field counts: padding entries (also in
 * parentheses, and a subarray's), the ignored items after a type tuple's
 * shape, the names and shapes of entries. Each descr below has 3 fields:
 * accepted at a limit of 3, refused at 2. */
static void test_bounds_field_count_takes_only_what_becomes_a_field(void **state)
{
    (void)state;
    static const char *const descrs[] = {
        "[('a', 'u1'), ('', '|V4'), ('b', 'u1'), ('c', 'u1'), ('', '|V2')]",
        "[('a', 'u1'), (('', '|V4')), ('b', 'u1'), ('', ('u1', 2)), ('c', 'u1')]",
        "[('a', [('b', 'u1'), ('', 'V3'), ('c', 'u1')])]",
        "[('a', ('u1', 2, [('x', 'u1'), ('y', 'u1'), ('z', 'u1')])), ('b', 'u1'), "
        "('c', 'u1')]",
        "[(('t', 'a'), 'u1'), ('b', 'u1', (2,)), ['c', 'u1'], ('', 'V1')]",
        "[\n('a', 'u1'), ('b', 'u1'),\n ('c', 'u1')]",
        "([('a', 'u1'), ('b', 'u1'), ('c', 'u1'), ('', 'V1')], (2,))",
        "'u1, u1, u1'",
    };
    for (size_t i = 0; i < sizeof descrs / sizeof descrs[0]; i++) {
        size_t len, at, peak;
        unsigned char *file = npy_with_descr(descrs[i], &len, &at);
        TEST_ERROR(err);
        if (parse_metered(file, len, 3, 0, &peak, &err) != NPYDT_OK)
            fail_msg("%s: %s", descrs[i], err.message);
        assert_int_equal(parse_metered(file, len, 2, 0, &peak, &err), NPYDT_E_LIMIT);
        assert_string_equal(err.message, "more than 2 fields in the dtype");
        free(file);
    }
}

/* A caller's capped allocator is charged for what a parse uses, not for
 * reservations in proportion to the header: a 6 MB header with a syntax
 * error near its start reports that error under a cap of the header's
 * copy and 2 MiB (it needed 78 MB). */
static void test_bounds_capped_allocator_gets_the_syntax_error_of_a_large_header(void **state)
{
    (void)state;
    struct text d = {0};
    put(&d, "[");
    for (int i = 0; d.len < 760; i++)
        putf(&d, "('a%d', 'u1'), ", i);
    put(&d, "('b', 'u1') ('c', 'u1'), ");   /* no ',' before the second '(' */
    while (d.len < (size_t)6 << 20)
        put(&d, "('fxxxxxxx', 'u1'), ");
    put(&d, "]");
    size_t len, at, peak;
    unsigned char *file = npy_with_descr(d.s, &len, &at);
    TEST_ERROR(err);
    assert_int_equal(parse_metered(file, len, 1000000, len + (2u << 20), &peak, &err),
                     NPYDT_E_SYNTAX);
    assert_int_equal(err.offset, at + (size_t)(strstr(d.s, "('c'") - d.s));
    assert_string_equal(err.message, "unexpected '('");
    free(file);
    free(d.s);
}

TEST_LIST("bounds",
    cmocka_unit_test(test_bounds_100000_brackets_in_header_is_limit_error),
    cmocka_unit_test(test_bounds_100000_brackets_in_descr_is_limit_error),
    cmocka_unit_test(test_bounds_nesting_over_default_depth_is_limit_error),
    cmocka_unit_test(test_bounds_subarrays_nested_past_the_limit_are_refused_where_they_stand),
    cmocka_unit_test(test_bounds_levels_past_max_depth_are_refused_with_the_limit_named),
    cmocka_unit_test(test_bounds_raised_max_depth_lets_deeper_nesting_through),
    cmocka_unit_test(test_bounds_ceiling_depth_parses_without_exhausting_the_stack),
    cmocka_unit_test(test_bounds_max_depth_above_ceiling_is_arg_error),
    cmocka_unit_test(test_bounds_header_longer_than_buffer_allocates_nothing),
    cmocka_unit_test(test_bounds_file_shorter_than_header_len_allocates_nothing),
    cmocka_unit_test(test_bounds_header_above_max_header_bytes_allocates_nothing),
    cmocka_unit_test(test_bounds_memory_per_byte_many_fields),
    cmocka_unit_test(test_bounds_memory_per_byte_titles),
    cmocka_unit_test(test_bounds_memory_per_byte_comma_typestr),
    cmocka_unit_test(test_bounds_memory_per_byte_adjacent_strings),
    cmocka_unit_test(test_bounds_memory_per_byte_escapes),
    cmocka_unit_test(test_bounds_memory_per_byte_long_paths),
    cmocka_unit_test(test_bounds_memory_per_byte_subarray_leaves),
    cmocka_unit_test(test_bounds_memory_per_byte_shape_tuples),
    cmocka_unit_test(test_bounds_memory_per_byte_comments),
    cmocka_unit_test(test_bounds_memory_per_byte_many_empty_tuples),
    cmocka_unit_test(test_bounds_memory_per_byte_names_around_comma_typestr),
    cmocka_unit_test(test_bounds_untrusted_preset_holds_every_family_under_its_peak),
    cmocka_unit_test(test_bounds_header_past_4_mib_of_tables_with_malloc_and_huge_pages),
    cmocka_unit_test(test_bounds_long_paths_over_many_fields_share_their_prefix),
    cmocka_unit_test(test_bounds_long_paths_of_real_size_are_accepted),
    cmocka_unit_test(test_bounds_paths_below_empty_names_start_without_a_dot),
    cmocka_unit_test(test_bounds_fields_past_max_fields_are_refused_at_the_entry_that_passes),
    cmocka_unit_test(test_bounds_comma_typestr_past_max_fields_is_refused_as_it_is_read),
    cmocka_unit_test(test_bounds_field_count_takes_only_what_becomes_a_field),
    cmocka_unit_test(test_bounds_capped_allocator_gets_the_syntax_error_of_a_large_header),
);

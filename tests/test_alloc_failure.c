/* Allocation failure: for each entry point, fail the Nth allocation for
 * N = 0, 1, 2, ... until the call succeeds. Every failing call must return
 * NPYDT_E_NOMEM with a NULL result, and leave nothing allocated; the call
 * that succeeds must be the first whose failing allocation is never
 * reached. Both modes: fail once (later allocations succeed again), and
 * fail forever (every allocation from the Nth on fails). */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One call of an entry point with opts; the result goes to *out. */
typedef npydt_status (*call_fn)(const void *arg, const npydt_options *opts, void **out,
                                npydt_error *err);

struct bytes {
    const unsigned char *buf;
    size_t len;
};

/* Runs call with allocation N failing for N = 0, 1, ... and returns the
 * number of allocations the successful call made. */
static long fail_each_allocation(call_fn call, void (*release)(void *), const void *arg,
                                 int forever)
{
    for (long n = 0;; n++) {
        struct test_alloc t;
        test_alloc_init(&t, n, forever);
        npydt_options opts;
        npydt_options_init(&opts);
        opts.allocator = &t.alloc;
        void *out = NULL;
        npydt_error err;
        test_poison_error(&err);
        npydt_status st = call(arg, &opts, &out, &err);
        if (st == NPYDT_OK) {
            /* success only once the failing allocation is out of reach */
            assert_true(t.calls <= n);
            assert_non_null(out);
            release(out);
            assert_int_equal(t.live_blocks, 0);
            assert_int_equal(t.live_bytes, 0);
            return t.calls;
        }
        if (st != NPYDT_E_NOMEM)
            fail_msg("allocation %ld failing (%s): got %s (%s)", n, forever ? "forever" : "once",
                     npydt_status_name(st), err.message);
        test_assert_error_filled(st, &err);
        assert_null(out);
        assert_true(t.calls > n);
        if (t.live_blocks != 0 || t.live_bytes != 0)
            fail_msg("allocation %ld failing (%s): %ld blocks, %zu bytes leaked", n,
                     forever ? "forever" : "once", t.live_blocks, t.live_bytes);
        assert_true(n < 1000000);
    }
}

/* ---- entry points ------------------------------------------------------------ */

static npydt_status call_parse_buffer(const void *arg, const npydt_options *opts, void **out,
                                      npydt_error *err)
{
    const struct bytes *b = arg;
    npydt_header *h = NULL;
    npydt_status st = npydt_parse_buffer(b->buf, b->len, opts, &h, err);
    *out = h;
    return st;
}

static npydt_status call_header_parse(const void *arg, const npydt_options *opts, void **out,
                                      npydt_error *err)
{
    const struct bytes *b = arg;
    npydt_header *h = NULL;
    npydt_status st = npydt_header_parse(b->buf, b->len, opts, &h, err);
    *out = h;
    return st;
}

static npydt_status call_parse_path(const void *arg, const npydt_options *opts, void **out,
                                    npydt_error *err)
{
    npydt_header *h = NULL;
    npydt_status st = npydt_parse_path(arg, opts, &h, err);
    *out = h;
    return st;
}

static npydt_status call_parse_literal(const void *arg, const npydt_options *opts, void **out,
                                       npydt_error *err)
{
    npydt_dtype *dt = NULL;
    npydt_status st = npydt_header_parse_descr(arg, strlen(arg), opts, &dt, err);
    *out = dt;
    return st;
}

static npydt_status call_parse_typestr(const void *arg, const npydt_options *opts, void **out,
                                       npydt_error *err)
{
    npydt_dtype *dt = NULL;
    npydt_status st = npydt_dtype_parse_typestr(arg, strlen(arg), opts, &dt, err);
    *out = dt;
    return st;
}

static void release_header(void *p) { npydt_header_free(p); }
static void release_dtype(void *p) { npydt_dtype_free(p); }

/* ---- helpers ----------------------------------------------------------------- */

static void check_fixture(call_fn call, const char *name, int forever)
{
    struct bytes b;
    unsigned char *buf = test_read_file(test_fixture(name), &b.len);
    b.buf = buf;
    long calls = fail_each_allocation(call, release_header, &b, forever);
    assert_true(calls > 0);
    free(buf);
}

static void check_text(call_fn call, const char *text, int forever)
{
    long calls = fail_each_allocation(call, release_dtype, text, forever);
    assert_true(calls > 0);
}

/* A descriptor that makes the parse allocate many times: long names fill
 * the arena's chunks, and a deep nesting grows the parser's stack. */
static char *big_descr(void)
{
    size_t cap = 1 << 20, len = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    len += (size_t)snprintf(s + len, cap - len, "[");
    for (int i = 0; i < 400; i++)
        len += (size_t)snprintf(s + len, cap - len,
                                "(('title %d', 'field_with_a_long_name_%d'), '<f8', (2, 3)), ", i, i);
    for (int i = 0; i < 60; i++)   /* 121 brackets deep: under the default 128 */
        len += (size_t)snprintf(s + len, cap - len, "('n%d', [", i);
    len += (size_t)snprintf(s + len, cap - len, "('leaf', 'i4, (2,)f8, S5')");
    for (int i = 0; i < 60; i++)
        len += (size_t)snprintf(s + len, cap - len, "])");
    len += (size_t)snprintf(s + len, cap - len, "]");
    assert_true(len < cap);
    return s;
}

/* ---- tests ------------------------------------------------------------------- */

static void test_alloc_failure_parse_buffer_nested_struct_once(void **state)
{
    (void)state;
    check_fixture(call_parse_buffer, "struct_nested3.npy", 0);
}

static void test_alloc_failure_parse_buffer_nested_struct_forever(void **state)
{
    (void)state;
    check_fixture(call_parse_buffer, "struct_nested3.npy", 1);
}

static void test_alloc_failure_parse_buffer_version2_big_header_once(void **state)
{
    (void)state;
    check_fixture(call_parse_buffer, "version2_big_header.npy", 0);
}

static void test_alloc_failure_parse_buffer_version2_big_header_forever(void **state)
{
    (void)state;
    check_fixture(call_parse_buffer, "version2_big_header.npy", 1);
}

static void test_alloc_failure_parse_buffer_utf8_names_once(void **state)
{
    (void)state;
    check_fixture(call_parse_buffer, "struct_utf8_name.npy", 0);
}

static void test_alloc_failure_parse_buffer_utf8_names_forever(void **state)
{
    (void)state;
    check_fixture(call_parse_buffer, "struct_utf8_name.npy", 1);
}

static void test_alloc_failure_header_parse_titles_once(void **state)
{
    (void)state;
    check_fixture(call_header_parse, "struct_titles.npy", 0);
}

static void test_alloc_failure_header_parse_subarray_of_struct_forever(void **state)
{
    (void)state;
    check_fixture(call_header_parse, "struct_subarray_of_struct.npy", 1);
}

static void test_alloc_failure_parse_path_once(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s", test_fixture("struct_nested3.npy"));
    assert_true(fail_each_allocation(call_parse_path, release_header, path, 0) > 0);
}

static void test_alloc_failure_parse_path_forever(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s", test_fixture("version2_big_header.npy"));
    assert_true(fail_each_allocation(call_parse_path, release_header, path, 1) > 0);
}

static void test_alloc_failure_parse_literal_once(void **state)
{
    (void)state;
    char *s = big_descr();
    check_text(call_parse_literal, s, 0);
    free(s);
}

static void test_alloc_failure_parse_literal_forever(void **state)
{
    (void)state;
    char *s = big_descr();
    check_text(call_parse_literal, s, 1);
    free(s);
}

static void test_alloc_failure_parse_literal_adjacent_strings_once(void **state)
{
    (void)state;
    check_text(call_parse_literal, "[('a' 'b' \"c\" '''d''', '<' 'f8'), (u'x', r'i4')]", 0);
}

static void test_alloc_failure_parse_typestr_once(void **state)
{
    (void)state;
    check_text(call_parse_typestr, "i4, (2,3)f8, S5, M8[25s], U7, (4)u1, >c16, ?", 0);
}

static void test_alloc_failure_parse_typestr_forever(void **state)
{
    (void)state;
    check_text(call_parse_typestr, "i4, (2,3)f8, S5, M8[25s], U7, (4)u1, >c16, ?", 1);
}

static void test_alloc_failure_parse_typestr_scalar_forever(void **state)
{
    (void)state;
    check_text(call_parse_typestr, ">M8[10s/4]", 1);
}

/* The arena takes memory in chunks, so failing the Nth allocation only
 * fails the allocation that opens a chunk. Growing a leading comment (or a
 * leading run of fields) byte by byte moves the chunk boundaries across
 * every allocation a parse makes, so each of them fails in some run. */
static const char rich_descr[] =
    "[(('t0', 'a'), '<f8'), ('b', [('c', '>i4', (2, 3)), ('d', 'S5')]), "
    "('e', ('<U3', 4)), ('f', 'i4, (2,)f8, M8[25s]'), ('', '|V4'), ('g', ('V', 7)), "
    "('h', [('i', '<c16', [1, 2, 3])], 2), ('j', '<m8[us]'), ('k', ('S', 3)), "
    "(u'l\\u00e9', r'?' '')]";

static void sweep_literal(int forever)
{
    for (size_t pad = 0; pad < 2200; pad += 8) {
        size_t len = pad + 2 + strlen(rich_descr);   /* '#', pad, '\n', descr */
        char *text = malloc(len + 1);
        assert_non_null(text);
        text[0] = '#';
        memset(text + 1, 'x', pad);
        text[pad + 1] = '\n';
        memcpy(text + pad + 2, rich_descr, strlen(rich_descr) + 1);
        fail_each_allocation(call_parse_literal, release_dtype, text, forever);
        free(text);
    }
}

static void test_alloc_failure_every_site_of_a_descr_parse_once(void **state)
{
    (void)state;
    sweep_literal(0);
}

static void test_alloc_failure_every_site_of_a_descr_parse_forever(void **state)
{
    (void)state;
    sweep_literal(1);
}

static void test_alloc_failure_every_site_of_a_header_parse_once(void **state)
{
    (void)state;
    static const char tail[] =
        "{'descr': [('a', '<f8', (2,)), ('b', [('c', 'i4, f8')])], 'fortran_order': True, "
        "'shape': (2, 3, 0x4, 5_0), }";
    for (size_t pad = 0; pad < 2200; pad += 8) {
        size_t hlen = pad + 2 + sizeof tail;   /* '#', pad, '\n', tail, '\n' */
        struct bytes b;
        b.len = 10 + hlen;
        unsigned char *buf = malloc(b.len);
        assert_non_null(buf);
        memcpy(buf, "\x93NUMPY\x01\x00", 8);
        buf[8] = (unsigned char)(hlen & 0xFF);
        buf[9] = (unsigned char)(hlen >> 8);
        buf[10] = '#';
        memset(buf + 11, 'x', pad);
        buf[11 + pad] = '\n';
        memcpy(buf + 12 + pad, tail, sizeof tail - 1);
        buf[b.len - 1] = '\n';
        b.buf = buf;
        fail_each_allocation(call_header_parse, release_header, &b, 0);
        free(buf);
    }
}

static void test_alloc_failure_every_site_of_a_typestr_parse_once(void **state)
{
    (void)state;
    static const char tail[] = "(2,3)i4, M8[25s], S5, (2)U3, >c16, (0,)V4, m8";
    for (size_t lead = 0; lead < 120; lead++) {
        size_t len = 2 * lead + sizeof tail;
        char *text = malloc(len);
        assert_non_null(text);
        for (size_t i = 0; i < lead; i++)
            memcpy(text + 2 * i, "?,", 2);
        memcpy(text + 2 * lead, tail, sizeof tail);
        fail_each_allocation(call_parse_typestr, release_dtype, text, 0);
        free(text);
    }
}

TEST_LIST("alloc_failure",
    cmocka_unit_test(test_alloc_failure_every_site_of_a_descr_parse_once),
    cmocka_unit_test(test_alloc_failure_every_site_of_a_descr_parse_forever),
    cmocka_unit_test(test_alloc_failure_every_site_of_a_header_parse_once),
    cmocka_unit_test(test_alloc_failure_every_site_of_a_typestr_parse_once),
    cmocka_unit_test(test_alloc_failure_parse_buffer_nested_struct_once),
    cmocka_unit_test(test_alloc_failure_parse_buffer_nested_struct_forever),
    cmocka_unit_test(test_alloc_failure_parse_buffer_version2_big_header_once),
    cmocka_unit_test(test_alloc_failure_parse_buffer_version2_big_header_forever),
    cmocka_unit_test(test_alloc_failure_parse_buffer_utf8_names_once),
    cmocka_unit_test(test_alloc_failure_parse_buffer_utf8_names_forever),
    cmocka_unit_test(test_alloc_failure_header_parse_titles_once),
    cmocka_unit_test(test_alloc_failure_header_parse_subarray_of_struct_forever),
    cmocka_unit_test(test_alloc_failure_parse_path_once),
    cmocka_unit_test(test_alloc_failure_parse_path_forever),
    cmocka_unit_test(test_alloc_failure_parse_literal_once),
    cmocka_unit_test(test_alloc_failure_parse_literal_forever),
    cmocka_unit_test(test_alloc_failure_parse_literal_adjacent_strings_once),
    cmocka_unit_test(test_alloc_failure_parse_typestr_once),
    cmocka_unit_test(test_alloc_failure_parse_typestr_forever),
    cmocka_unit_test(test_alloc_failure_parse_typestr_scalar_forever),
);

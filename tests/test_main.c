/* The main of every test binary, and the helpers they share. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
    assert_non_null(buf);
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    assert_int_equal(got, (size_t)n);
    *len = got;
    return buf;
}

const char *test_fixture(const char *name)
{
    static char path[1024];
    const char *dir = getenv("FIXTURES");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fixtures", name);
    return path;
}

const char *test_leaf_path(const npydt_dtype *root, size_t i, char *buf, size_t size)
{
    assert_true(npydt_dtype_leaf_path(root, i, buf, size) < size);
    return buf;
}

npydt_dtype *test_parse_literal(const char *text)
{
    npydt_dtype *dt = NULL;
    npydt_error err;
    test_poison_error(&err);
    npydt_status st = npydt_header_parse_descr(text, strlen(text), NULL, &dt, &err);
    if (st != NPYDT_OK)
        fail_msg("parsing %s: %s at %zu: %s", text, npydt_status_name(st), err.offset,
                 err.message);
    return dt;
}

char test_native_order(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first ? '<' : '>';
}

void test_store_f8(double v, char order, unsigned char out[8])
{
    uint64_t bits;
    memcpy(&bits, &v, 8);   /* a double and a uint64_t share the byte order */
    for (int i = 0; i < 8; i++) {
        int shift = order == '<' ? 8 * i : 8 * (7 - i);
        out[i] = (unsigned char)(bits >> shift);
    }
}

static int should_fail(struct test_alloc *t)
{
    long n = t->calls++;
    if (t->fail_at < 0)
        return 0;
    return t->fail_forever ? n >= t->fail_at : n == t->fail_at;
}

static void *t_malloc(void *ctx, size_t size)
{
    struct test_alloc *t = ctx;
    if (should_fail(t))
        return NULL;
    void *p = malloc(size);
    if (p) {
        t->live_blocks++;
        t->live_bytes += size;
        if (t->live_bytes > t->peak_bytes)
            t->peak_bytes = t->live_bytes;
    }
    return p;
}

static void *t_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    struct test_alloc *t = ctx;
    if (should_fail(t))
        return NULL;
    void *p = realloc(ptr, new_size);
    if (p) {
        if (!ptr)
            t->live_blocks++;
        t->live_bytes += new_size;
        t->live_bytes -= old_size;
        if (t->live_bytes > t->peak_bytes)
            t->peak_bytes = t->live_bytes;
    }
    return p;
}

static void t_free(void *ctx, void *ptr, size_t size)
{
    struct test_alloc *t = ctx;
    if (!ptr)
        return;
    t->live_blocks--;
    t->live_bytes -= size;
    free(ptr);
}

void test_alloc_init(struct test_alloc *t, long fail_at, int fail_forever)
{
    memset(t, 0, sizeof *t);
    t->alloc.malloc = t_malloc;
    t->alloc.realloc = t_realloc;
    t->alloc.free = t_free;
    t->alloc.ctx = t;
    t->fail_at = fail_at;
    t->fail_forever = fail_forever;
}

/* The case pattern of the command line, read by test_case_selected. */
static const char *case_pattern;

/* Glob match with '*' and '?', as cmocka matches test names. */
static int glob_match(const char *pattern, const char *s)
{
    if (*pattern == '\0')
        return *s == '\0';
    if (*pattern == '*')
        return glob_match(pattern + 1, s) || (*s && glob_match(pattern, s + 1));
    if (*s && (*pattern == '?' || *pattern == *s))
        return glob_match(pattern + 1, s + 1);
    return 0;
}

int test_case_selected(const char *name)
{
    return !case_pattern || glob_match(case_pattern, name);
}

void test_poison_error(npydt_error *err)
{
    memset(err, 0xA5, sizeof *err);
}

void test_assert_error_filled(npydt_status st, const npydt_error *err)
{
    npydt_error poison;
    test_poison_error(&poison);
    assert_int_not_equal(st, NPYDT_OK);
    assert_int_equal(err->code, st);
    assert_true(err->offset != poison.offset);
    assert_non_null(memchr(err->path, '\0', sizeof err->path));
    assert_non_null(memchr(err->message, '\0', sizeof err->message));
    assert_true(err->message[0] != '\0');
}

int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    if (argc > 2)
        case_pattern = argv[2];
    return _cmocka_run_group_tests(npydt_test_group, npydt_test_list, npydt_test_count, NULL,
                                   NULL);
}

npydt_reader *test_open_fixture(const char *name)
{
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    opts.in_memory = 1;
    npydt_reader *r = NULL;
    TEST_ERROR(err);
    npydt_status st = npydt_reader_open_path(test_fixture(name), &opts, &r, &err);
    if (st != NPYDT_OK)
        fail_msg("opening %s: %s", name, err.message);
    return r;
}

const unsigned char *test_element_at(npydt_reader *r, uint64_t i)
{
    uint64_t off;
    assert_int_equal(npydt_element_offset_flat(npydt_reader_header(r), i, &off, NULL), NPYDT_OK);
    return (const unsigned char *)npydt_reader_bytes(r) + off;
}

const npydt_dtype *test_reader_dtype(npydt_reader *r)
{
    return npydt_header_dtype(npydt_reader_header(r));
}

struct test_recs test_recs_make(const char *descr, size_t n)
{
    struct test_recs r;
    r.dt = test_parse_literal(descr);
    r.isz = npydt_dtype_itemsize(r.dt);
    r.n = n;
    r.buf = calloc(n * r.isz + 1, 1);
    assert_non_null(r.buf);
    return r;
}

void test_recs_free(struct test_recs *r)
{
    free(r->buf);
    npydt_dtype_free(r->dt);
}

unsigned char *test_recs_at(struct test_recs *r, size_t i, const char *path,
                            const npydt_dtype **f)
{
    uint64_t off;
    TEST_ERROR(err);
    if (npydt_field_lookup(r->dt, path, &off, f, &err) != NPYDT_OK)
        fail_msg("%s: %s", path, err.message);
    return r->buf + i * r->isz + off;
}

void test_recs_set_double(struct test_recs *r, size_t i, const char *path, double v)
{
    const npydt_dtype *f;
    unsigned char *p = test_recs_at(r, i, path, &f);
    assert_int_equal(npydt_write_double(f, p, v, NULL), NPYDT_OK);
}

void test_recs_set_complex(struct test_recs *r, size_t i, const char *path, double re,
                           double im)
{
    const npydt_dtype *f;
    unsigned char *p = test_recs_at(r, i, path, &f);
    double v[2] = {re, im};
    assert_int_equal(npydt_write_complex(f, p, v, NULL), NPYDT_OK);
}

void test_recs_set_i64(struct test_recs *r, size_t i, const char *path, int64_t v)
{
    const npydt_dtype *f;
    unsigned char *p = test_recs_at(r, i, path, &f);
    assert_int_equal(npydt_write_i64(f, p, v, NULL), NPYDT_OK);
}

void test_recs_set_u64(struct test_recs *r, size_t i, const char *path, uint64_t v)
{
    const npydt_dtype *f;
    unsigned char *p = test_recs_at(r, i, path, &f);
    assert_int_equal(npydt_write_u64(f, p, v, NULL), NPYDT_OK);
}

void test_recs_set_bytes(struct test_recs *r, size_t i, const char *path, const char *s,
                         size_t len)
{
    const npydt_dtype *f;
    unsigned char *p = test_recs_at(r, i, path, &f);
    npydt_status st = npydt_dtype_kind(f) == 'U' ? npydt_write_unicode(f, p, s, len, NULL)
                                                 : npydt_write_bytes(f, p, s, len, NULL);
    assert_int_equal(st, NPYDT_OK);
}

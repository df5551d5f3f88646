/* limits.max_alloc_bytes: the bytes one parse may hold at once, its
 * result's and its scratch's blocks together, counted as asked of the
 * allocator. A parse that needs more stops with NPYDT_E_LIMIT naming the
 * limit, having given back all it took; one that needs exactly the limit
 * parses; 0 is no limit. */
#include "test_util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A struct of n fields with names of name_len bytes, '<f8' each. */
static char *wide_descr(size_t n, size_t name_len)
{
    size_t cap = 2 + n * (name_len + 32);
    char *s = malloc(cap);
    assert_non_null(s);
    size_t at = 0;
    s[at++] = '[';
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(s + at, cap - at, "('%0*zu', '<f8'), ", (int)name_len, i);
        assert_true(w > 0 && (size_t)w < cap - at);
        at += (size_t)w;
    }
    s[at++] = ']';
    s[at] = '\0';
    return s;
}

/* Parse descr under a limit of limit bytes with a counting allocator;
 * the status, the error in *err and what the allocator saw in *t. */
static npydt_status parse_under(const char *descr, uint64_t limit, struct test_alloc *t,
                                npydt_error *err)
{
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_alloc_bytes = limit;
    test_alloc_init(t, -1, 0);
    opts.allocator = &t->alloc;
    npydt_dtype *dt = NULL;
    npydt_status st = npydt_header_parse_descr(descr, strlen(descr), &opts, &dt, err);
    assert_true((st == NPYDT_OK) == (dt != NULL));
    npydt_dtype_free(dt);
    assert_int_equal(t->live_blocks, 0);
    assert_int_equal(t->live_bytes, 0);
    return st;
}

/* The peak a parse of descr holds with no limit. */
static size_t peak_of(const char *descr)
{
    struct test_alloc t;
    TEST_ERROR(err);
    assert_int_equal(parse_under(descr, 0, &t, &err), NPYDT_OK);
    return t.peak_bytes;
}

static void assert_limit_message(const npydt_error *err, uint64_t limit)
{
    char want[160];
    snprintf(want, sizeof want,
             "the parse would hold more than %llu bytes "
             "(limits.max_alloc_bytes)",
             (unsigned long long)limit);
    assert_string_equal(err->message, want);
}

/* The field takes the first word of the reserved room: the struct keeps
 * its size and every other offset, on 32-bit hosts too. */
static void test_alloc_limit_field_takes_the_first_reserved_word(void **state)
{
    (void)state;
    assert_int_equal(sizeof(npydt_limits),
                     2 * sizeof(size_t) + 2 * sizeof(uint32_t) + 4 * sizeof(uint64_t));
    assert_int_equal(offsetof(npydt_limits, max_alloc_bytes),
                     offsetof(npydt_limits, max_fields) + sizeof(size_t));
    assert_int_equal(offsetof(npydt_limits, reserved),
                     offsetof(npydt_limits, max_alloc_bytes) + sizeof(uint64_t));
}

/* One byte less than the parse's peak: refused with the limit named, and
 * nothing held past the limit or after the call. */
static void test_alloc_limit_header_needing_more_is_refused_with_the_limit_named(void **state)
{
    (void)state;
    char *descr = wide_descr(2000, 8);
    size_t peak = peak_of(descr);
    struct test_alloc t;
    TEST_ERROR(err);
    assert_int_equal(parse_under(descr, peak - 1, &t, &err), NPYDT_E_LIMIT);
    assert_int_equal(err.code, NPYDT_E_LIMIT);
    assert_int_equal(err.offset, NPYDT_NO_OFFSET);
    assert_limit_message(&err, peak - 1);
    assert_true(t.peak_bytes <= peak - 1);
    free(descr);
}

/* A limit of exactly the parse's peak lets it through. */
static void test_alloc_limit_header_needing_exactly_the_limit_parses(void **state)
{
    (void)state;
    char *descr = wide_descr(2000, 8);
    size_t peak = peak_of(descr);
    struct test_alloc t;
    TEST_ERROR(err);
    assert_int_equal(parse_under(descr, peak, &t, &err), NPYDT_OK);
    assert_int_equal(t.peak_bytes, peak);
    free(descr);
}

/* 0, the default, is no limit: a parse holding more than the untrusted
 * preset's 4 MiB goes through. */
static void test_alloc_limit_zero_means_no_limit(void **state)
{
    (void)state;
    npydt_options opts;
    npydt_options_init(&opts);
    assert_int_equal(opts.limits.max_alloc_bytes, 0);
    char *descr = wide_descr(30000, 8);
    struct test_alloc t;
    TEST_ERROR(err);
    assert_int_equal(parse_under(descr, 0, &t, &err), NPYDT_OK);
    assert_true(t.peak_bytes > (size_t)4 << 20);
    free(descr);
}

/* Every limit below the peak stops the parse at whichever block passes
 * it (the first chunk, a scratch block, a table of its own, the root):
 * always NPYDT_E_LIMIT, never NPYDT_E_NOMEM, and every block given back. */
static void test_alloc_limit_every_limit_below_the_peak_refuses_and_frees_all(void **state)
{
    (void)state;
    char *descr = wide_descr(300, 3);
    size_t peak = peak_of(descr);
    for (size_t limit = 1; limit < peak; limit += limit < 4096 ? 16 : 997) {
        struct test_alloc t;
        TEST_ERROR(err);
        assert_int_equal(parse_under(descr, limit, &t, &err), NPYDT_E_LIMIT);
        assert_limit_message(&err, limit);
        assert_true(t.peak_bytes <= limit);
    }
    free(descr);
}

/* The untrusted preset's 4 MiB holds where its other limits would not:
 * with HEADER_LEN allowed to 1 MiB, 10,000 fields of 90-byte names (a
 * parse of 4.5 MB) are refused by max_alloc_bytes, holding at most
 * 4 MiB on the way. */
static void test_alloc_limit_untrusted_preset_refuses_a_header_holding_more(void **state)
{
    (void)state;
    npydt_options opts;
    npydt_options_init_untrusted(&opts);
    assert_int_equal(opts.limits.max_alloc_bytes, (uint64_t)4 << 20);
    opts.limits.max_header_bytes = (size_t)1 << 20;
    char *descr = wide_descr(9999, 90);
    assert_true(peak_of(descr) > (size_t)4 << 20);
    struct test_alloc t;
    test_alloc_init(&t, -1, 0);
    opts.allocator = &t.alloc;
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err,
                 npydt_header_parse_descr(descr, strlen(descr), &opts, &dt, &err));
    assert_limit_message(&err, (uint64_t)4 << 20);
    assert_null(dt);
    assert_true(t.peak_bytes <= (size_t)4 << 20);
    assert_int_equal(t.live_blocks, 0);
    free(descr);
}

/* The other parses that take npydt_options keep it too: a whole .npy
 * header, a type string, a schema, rules, a byte-order copy, a reader. */
static void test_alloc_limit_is_kept_by_every_parse_of_options(void **state)
{
    (void)state;
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_alloc_bytes = 64;
    TEST_ERROR(err);
    npydt_dtype *dt = NULL;
    const char *ts = "i4, (2,3)f8, S7";
    assert_fails(NPYDT_E_LIMIT, &err, npydt_dtype_parse_typestr(ts, strlen(ts), &opts, &dt, &err));
    assert_limit_message(&err, 64);
    npydt_schema *schema = NULL;
    const char *spec = "[('a', '<f8'), ('b', '<i4')]";
    assert_fails(NPYDT_E_LIMIT, &err,
                 npydt_schema_compile(spec, strlen(spec), &opts, &schema, &err));
    assert_limit_message(&err, 64);
    assert_null(schema);

    npydt_dtype *base = test_parse_literal(spec);
    npydt_rules_options rules_opts;
    npydt_rules_options_init(&rules_opts);
    rules_opts.base.limits.max_alloc_bytes = 64;
    npydt_rules *rules = NULL;
    const char *text = "{'a': {'min': 0, 'max': 9}, 'b': {'min': 1}}";
    assert_fails(NPYDT_E_LIMIT, &err,
                 npydt_rules_compile(text, strlen(text), base, &rules_opts, &rules, &err));
    assert_limit_message(&err, 64);
    assert_null(rules);
    assert_fails(NPYDT_E_LIMIT, &err,
                 npydt_dtype_newbyteorder(base, NPYDT_ORDER_BIG, &opts, &dt, &err));
    assert_limit_message(&err, 64);
    assert_null(dt);

    const uint64_t shape[1] = {3};
    size_t hlen = npydt_header_write(base, shape, 1, 0, NULL, 0, &err);
    assert_true(hlen > 0);
    unsigned char *file = calloc(1, hlen + 3 * npydt_dtype_itemsize(base));
    assert_non_null(file);
    assert_int_equal(npydt_header_write(base, shape, 1, 0, file, hlen, &err), hlen);
    npydt_header *h = NULL;
    assert_fails(NPYDT_E_LIMIT, &err, npydt_header_parse(file, hlen, &opts, &h, &err));
    assert_limit_message(&err, 64);
    assert_null(h);
    opts.limits.max_alloc_bytes = 0;
    assert_int_equal(npydt_header_parse(file, hlen, &opts, &h, &err), NPYDT_OK);
    npydt_header_free(h);

    npydt_reader_options ro;
    npydt_reader_options_init(&ro);
    ro.base.limits.max_alloc_bytes = 64;
    npydt_reader *r = NULL;
    assert_fails(NPYDT_E_LIMIT, &err,
                 npydt_reader_open_buffer(file, hlen + 3 * npydt_dtype_itemsize(base), &ro, &r,
                                          &err));
    assert_limit_message(&err, 64);
    assert_null(r);
    free(file);
    npydt_dtype_free(base);
}

/* An archive's member header is a header parse under the archive
 * options' base limits (max_inflated_bytes, the archive's own budget for
 * inflating, is another limit). */
static void test_alloc_limit_is_kept_by_an_archive_member_header(void **state)
{
    (void)state;
    char path[1024];
    const char *dir = getenv("FIXTURES_NPZ");
    snprintf(path, sizeof path, "%s/savez_compressed.npz",
             dir && *dir ? dir : "tests/fixtures_npz");
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.base.limits.max_alloc_bytes = 64;
    npydt_npz *z = NULL;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_open_path(path, &opts, &z, &err), NPYDT_OK);
    npydt_header *h = NULL;
    assert_fails(NPYDT_E_LIMIT, &err, npydt_npz_member_header(z, 0, &h, &err));
    assert_limit_message(&err, 64);
    assert_null(h);
    npydt_npz_close(z);
}

TEST_LIST("alloc_limit",
    cmocka_unit_test(test_alloc_limit_field_takes_the_first_reserved_word),
    cmocka_unit_test(test_alloc_limit_header_needing_more_is_refused_with_the_limit_named),
    cmocka_unit_test(test_alloc_limit_header_needing_exactly_the_limit_parses),
    cmocka_unit_test(test_alloc_limit_zero_means_no_limit),
    cmocka_unit_test(test_alloc_limit_every_limit_below_the_peak_refuses_and_frees_all),
    cmocka_unit_test(test_alloc_limit_untrusted_preset_refuses_a_header_holding_more),
    cmocka_unit_test(test_alloc_limit_is_kept_by_every_parse_of_options),
    cmocka_unit_test(test_alloc_limit_is_kept_by_an_archive_member_header),
);

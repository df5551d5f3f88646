/* The C declarations of record types (npydt_cstruct_*): what a unit
 * holds, the names it refuses, and its memory. The text itself is checked
 * by compiling it (tests/check_cstruct.sh). */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

/* The unit's text, gathered by npydt_cstruct_write. */
struct text {
    char *s;
    size_t len;
};

static void gather(void *ctx, const char *s, size_t n)
{
    struct text *t = ctx;
    t->s = realloc(t->s, t->len + n + 1);
    assert_non_null(t->s);
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

/* The text of a unit holding dt as `tag`. */
static char *declarations(const char *descr, const char *tag)
{
    npydt_dtype *dt = test_parse_literal(descr);
    npydt_cstruct *u;
    TEST_ERROR(err);
    assert_int_equal(npydt_cstruct_create(NULL, &u, &err), NPYDT_OK);
    assert_int_equal(npydt_cstruct_add(u, dt, tag, NULL, &err), NPYDT_OK);
    struct text t = {0};
    assert_int_equal(npydt_cstruct_write(u, gather, &t, &err), NPYDT_OK);
    npydt_cstruct_free(u);
    npydt_dtype_free(dt);
    return t.s;
}

static void test_cstruct_tag_ok_takes_identifiers_only(void **state)
{
    (void)state;
    assert_true(npydt_cstruct_tag_ok("rec"));
    assert_true(npydt_cstruct_tag_ok("npy_record_2"));
    assert_false(npydt_cstruct_tag_ok(""));
    assert_false(npydt_cstruct_tag_ok("2rec"));
    assert_false(npydt_cstruct_tag_ok("int"));
    assert_false(npydt_cstruct_tag_ok("class"));
    assert_false(npydt_cstruct_tag_ok("__rec"));
    assert_false(npydt_cstruct_tag_ok("_Rec"));
    assert_false(npydt_cstruct_tag_ok("a-b"));
    assert_false(npydt_cstruct_tag_ok(NULL));
}

static void test_cstruct_add_declares_members_at_numpy_offsets(void **state)
{
    (void)state;
    char *s = declarations("[('x', '<f8'), ('n', '<i4')]", "rec");
    assert_non_null(strstr(s, "struct rec {"));
    assert_non_null(strstr(s, "#define REC_ITEMSIZE 12\n"));
    assert_non_null(strstr(s, "offsetof(struct rec, n) == 8"));
    assert_non_null(strstr(s, "#ifndef REC_H\n"));
    free(s);
}

static void test_cstruct_add_names_a_plain_dtype_member_value(void **state)
{
    (void)state;
    char *s = declarations("'<i2'", "one");
    assert_non_null(strstr(s, "struct one {"));
    assert_non_null(strstr(s, " value;"));
    free(s);
}

static void test_cstruct_add_refuses_object_fields_and_keeps_the_unit(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<i4'), ('o', '|O')]");
    npydt_cstruct *u;
    TEST_ERROR(err);
    assert_int_equal(npydt_cstruct_create(NULL, &u, &err), NPYDT_OK);
    assert_fails(NPYDT_E_OBJECT, &err, npydt_cstruct_add(u, dt, "rec", NULL, &err));
    assert_string_equal(err.path, "o");
    struct text t = {0};
    assert_int_equal(npydt_cstruct_write(u, gather, &t, &err), NPYDT_OK);
    assert_int_equal(t.len, 0);
    npydt_cstruct_free(u);
    npydt_dtype_free(dt);
}

static void test_cstruct_add_refuses_a_tag_declared_before(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('x', '<f8')]");
    npydt_cstruct *u;
    TEST_ERROR(err);
    assert_int_equal(npydt_cstruct_create(NULL, &u, &err), NPYDT_OK);
    assert_int_equal(npydt_cstruct_add(u, dt, "rec", NULL, &err), NPYDT_OK);
    assert_fails(NPYDT_E_NAME, &err, npydt_cstruct_add(u, dt, "rec", NULL, &err));
    assert_fails(NPYDT_E_NAME, &err, npydt_cstruct_add(u, dt, "while", NULL, &err));
    npydt_cstruct_free(u);
    npydt_dtype_free(dt);
}

static void test_cstruct_add_member_suffixes_a_root_that_clashes(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('x', '<f8')]");
    npydt_cstruct *u;
    TEST_ERROR(err);
    assert_int_equal(npydt_cstruct_create(NULL, &u, &err), NPYDT_OK);
    assert_int_equal(npydt_cstruct_add_member(u, dt, "arr", "a-b.npy", NULL, &err), NPYDT_OK);
    assert_int_equal(npydt_cstruct_add_member(u, dt, "arr", "a_b", NULL, &err), NPYDT_OK);
    struct text t = {0};
    assert_int_equal(npydt_cstruct_write(u, gather, &t, &err), NPYDT_OK);
    assert_non_null(strstr(t.s, "struct arr_a_b {"));
    assert_non_null(strstr(t.s, "struct arr_a_b_2 {"));
    assert_non_null(strstr(t.s, "#define ARR_A_B_2_ITEMSIZE 8\n"));
    free(t.s);
    npydt_cstruct_free(u);
    npydt_dtype_free(dt);
}

static void test_cstruct_names_the_header_it_came_from(void **state)
{
    (void)state;
    size_t len;
    unsigned char *file = test_read_file(test_fixture("struct_nested3.npy"), &len);
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(npydt_header_parse(file, len, NULL, &h, &err), NPYDT_OK);
    npydt_cstruct *u;
    assert_int_equal(npydt_cstruct_create(NULL, &u, &err), NPYDT_OK);
    npydt_cstruct_source src = {"in.npy", h, 0};
    assert_int_equal(npydt_cstruct_add(u, npydt_header_dtype(h), "rec", &src, &err), NPYDT_OK);
    struct text t = {0};
    assert_int_equal(npydt_cstruct_write(u, gather, &t, &err), NPYDT_OK);
    assert_non_null(strstr(t.s, "records of \"in.npy\""));
    assert_non_null(strstr(t.s, "records at byte offset"));
    free(t.s);
    npydt_cstruct_free(u);
    npydt_header_free(h);
    free(file);
}

/* Allocation N fails, for N = 0, 1, ... until the whole run succeeds:
 * every failure is NPYDT_E_NOMEM and nothing stays allocated. */
static void test_cstruct_every_failed_allocation_is_nomem_and_frees_all(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(
        "[('a', [('b', '<i4'), ('c', [('d', '>f8', (2, 3))])]), ('a b', '|S3'), ('int', '<u2')]");
    for (long n = 0;; n++) {
        struct test_alloc t;
        test_alloc_init(&t, n, 0);
        npydt_options opts;
        npydt_options_init(&opts);
        opts.allocator = &t.alloc;
        npydt_cstruct *u = NULL;
        TEST_ERROR(err);
        npydt_status st = npydt_cstruct_create(&opts, &u, &err);
        if (st == NPYDT_OK)
            st = npydt_cstruct_add(u, dt, "rec", NULL, &err);
        if (st == NPYDT_OK)
            st = npydt_cstruct_add_member(u, dt, "rec", "m.npy", NULL, &err);
        struct text out = {0};
        if (st == NPYDT_OK)
            st = npydt_cstruct_write(u, gather, &out, &err);
        npydt_cstruct_free(u);
        free(out.s);
        assert_int_equal(t.live_blocks, 0);
        assert_int_equal(t.live_bytes, 0);
        if (st == NPYDT_OK) {
            assert_true(t.calls <= n);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        assert_true(n < 100000);
    }
    npydt_dtype_free(dt);
}

TEST_LIST("cstruct",
    cmocka_unit_test(test_cstruct_tag_ok_takes_identifiers_only),
    cmocka_unit_test(test_cstruct_add_declares_members_at_numpy_offsets),
    cmocka_unit_test(test_cstruct_add_names_a_plain_dtype_member_value),
    cmocka_unit_test(test_cstruct_add_refuses_object_fields_and_keeps_the_unit),
    cmocka_unit_test(test_cstruct_add_refuses_a_tag_declared_before),
    cmocka_unit_test(test_cstruct_add_member_suffixes_a_root_that_clashes),
    cmocka_unit_test(test_cstruct_names_the_header_it_came_from),
    cmocka_unit_test(test_cstruct_every_failed_allocation_is_nomem_and_frees_all),
);

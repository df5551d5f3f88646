/* Field handles of the record writer: a path resolved once
 * (npydt_writer_field), then values stored through the handle
 * (npydt_writer_put_*) with the checks and messages of the path-based
 * setters, which put through the same code. */
#include "test_scratch.h"
#include "test_util.h"

#include <string.h>
#include <unistd.h>

#define DESCR                                                                            \
    "[('t', '<u8'), ('pos', [('x', '>f8'), ('y', '<f4')]), ('name', '|S5'), "          \
    "('u', '<U3'), ('when', '>M8[s]'), ('c', '<c8'), ('ok', '|b1'), ('n', '>i2', (3,))]"

static npydt_writer *create(const struct scratch *s, npydt_dtype **dt)
{
    *dt = test_parse_literal(DESCR);
    npydt_writer *w;
    uint64_t shape[1] = {0};
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_create_path(s->path, *dt, shape, 1, NULL, &w, &err), NPYDT_OK);
    return w;
}

static npydt_field_handle field(npydt_writer *w, const char *path)
{
    npydt_field_handle h;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_field(w, path, &h, &err), NPYDT_OK);
    return h;
}

static void test_writer_field_puts_every_sort_of_value(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt;
    npydt_writer *w = create(s, &dt);
    TEST_ERROR(err);
    npydt_field_handle t = field(w, "t"), x = field(w, "pos.x"), y = field(w, "pos.y"),
                       name = field(w, "name"), u = field(w, "u"), when = field(w, "when"),
                       c = field(w, "c"), ok = field(w, "ok"), n2 = field(w, "n[2]");
    double cv[2] = {1.5, -2};
    npydt_datetime at = {1700000000, NPYDT_UNIT_s, 1, 0};
    for (uint64_t i = 0; i < 3; i++) {
        assert_int_equal(npydt_writer_put_u64(w, t, UINT64_MAX - i, &err), NPYDT_OK);
        assert_int_equal(npydt_writer_put_double(w, x, 0.5 + (double)i, &err), NPYDT_OK);
        assert_int_equal(npydt_writer_put_double(w, y, 2.5, &err), NPYDT_OK);
        assert_int_equal(npydt_writer_put_bytes(w, name, "abc", 3, &err), NPYDT_OK);
        assert_int_equal(npydt_writer_put_unicode(w, u, "\xc3\xa9t", 3, &err), NPYDT_OK);
        assert_int_equal(npydt_writer_put_datetime(w, when, &at, &err), NPYDT_OK);
        assert_int_equal(npydt_writer_put_complex(w, c, cv, &err), NPYDT_OK);
        assert_int_equal(npydt_writer_put_bool(w, ok, 1, &err), NPYDT_OK);
        assert_int_equal(npydt_writer_put_i64(w, n2, -300 - (int64_t)i, &err), NPYDT_OK);
        assert_int_equal(npydt_writer_commit(w, &err), NPYDT_OK);
    }
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    npydt_reader *r;
    assert_int_equal(npydt_reader_open_path(s->path, NULL, &r, &err), NPYDT_OK);
    uint64_t tv;
    double xv, cz[2];
    int64_t nv;
    int b;
    char text[8];
    size_t len;
    npydt_datetime got;
    assert_int_equal(npydt_reader_get_u64(r, "t", 2, &tv, &err), NPYDT_OK);
    assert_true(tv == UINT64_MAX - 2);
    assert_int_equal(npydt_reader_get_double(r, "pos.x", 1, &xv, &err), NPYDT_OK);
    assert_true(xv == 1.5);
    assert_int_equal(npydt_reader_get_bytes(r, "name", 1, text, sizeof text, &len, &err),
                     NPYDT_OK);
    assert_memory_equal(text, "abc", 3);
    assert_int_equal(npydt_reader_get_unicode(r, "u", 1, text, sizeof text, &len, &err),
                     NPYDT_OK);
    assert_string_equal(text, "\xc3\xa9t");
    assert_int_equal(npydt_reader_get_datetime(r, "when", 0, &got, &err), NPYDT_OK);
    assert_true(got.count == 1700000000);
    assert_int_equal(npydt_reader_get_complex(r, "c", 0, cz, &err), NPYDT_OK);
    assert_true(cz[0] == 1.5 && cz[1] == -2);
    assert_int_equal(npydt_reader_get_bool(r, "ok", 2, &b, &err), NPYDT_OK);
    assert_true(b);
    assert_int_equal(npydt_reader_get_i64(r, "n[2]", 2, &nv, &err), NPYDT_OK);
    assert_int_equal(nv, -302);
    assert_int_equal(npydt_reader_get_i64(r, "n[0]", 2, &nv, &err), NPYDT_OK);
    assert_int_equal(nv, 0);
    npydt_reader_close(r);
    npydt_dtype_free(dt);
}

static void test_writer_field_refuses_what_is_not_a_scalar(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt;
    npydt_writer *w = create(s, &dt);
    npydt_field_handle h;
    TEST_ERROR(err);
    assert_int_equal(npydt_writer_field(w, "pos", &h, &err), NPYDT_E_VALUE);
    assert_string_equal(err.path, "pos");
    assert_string_equal(err.message, "pos is a struct: name one of its scalars");
    assert_int_equal(npydt_writer_field(w, "n", &h, &err), NPYDT_E_VALUE);
    assert_string_equal(err.message, "n is a subarray: name one of its scalars");
    assert_int_equal(npydt_writer_field(w, "pos.w", &h, &err), NPYDT_E_NOT_FOUND);
    assert_int_equal(npydt_writer_field(w, NULL, &h, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
    npydt_dtype_free(dt);
}

static void test_writer_field_put_errors_name_the_path_and_keep_the_record(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt;
    npydt_writer *w = create(s, &dt);
    TEST_ERROR(err);
    npydt_field_handle n1 = field(w, "n[1]");
    assert_int_equal(npydt_writer_put_i64(w, n1, 7, &err), NPYDT_OK);
    size_t itemsize = npydt_dtype_itemsize(dt);
    unsigned char before[128];
    memcpy(before, npydt_writer_record(w), itemsize);
    assert_int_equal(npydt_writer_put_i64(w, n1, 40000, &err), NPYDT_E_RANGE);   /* >i2 */
    assert_string_equal(err.path, "n[1]");
    assert_memory_equal(npydt_writer_record(w), before, itemsize);
    npydt_field_handle foreign = {99};
    assert_int_equal(npydt_writer_put_i64(w, foreign, 1, &err), NPYDT_E_ARG);
    assert_string_equal(err.message, "field handle 99 was not given by this writer");
    /* the path-based setter says the same */
    assert_int_equal(npydt_writer_set_i64(w, "n[1]", 40000, &err), NPYDT_E_RANGE);
    assert_string_equal(err.path, "n[1]");
    assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
    npydt_dtype_free(dt);
}

static void test_writer_field_handles_outnumber_the_first_table(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt;
    npydt_writer *w = create(s, &dt);
    TEST_ERROR(err);
    npydt_field_handle h[20];
    for (int k = 0; k < 20; k++)
        h[k] = field(w, k % 2 ? "pos.x" : "t");   /* the same field twice is two handles */
    for (int k = 0; k < 20; k++)
        assert_int_equal(npydt_writer_put_u64(w, h[k], (uint64_t)k, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_commit(w, &err), NPYDT_OK);
    assert_int_equal(npydt_writer_close(w, &err), NPYDT_OK);
    npydt_reader *r;
    uint64_t t;
    double x;
    assert_int_equal(npydt_reader_open_path(s->path, NULL, &r, &err), NPYDT_OK);
    assert_int_equal(npydt_reader_get_u64(r, "t", 0, &t, &err), NPYDT_OK);
    assert_int_equal(npydt_reader_get_double(r, "pos.x", 0, &x, &err), NPYDT_OK);
    assert_true(t == 18 && x == 19);
    npydt_reader_close(r);
    npydt_dtype_free(dt);
}

static void test_writer_field_every_allocation_failed_in_turn(void **state)
{
    struct scratch *s = *state;
    npydt_dtype *dt = test_parse_literal(DESCR);
    uint64_t shape[1] = {0};
    for (long fail_at = 0;; fail_at++) {
        struct test_alloc ta;
        test_alloc_init(&ta, fail_at, 1);
        npydt_writer_options opts;
        npydt_writer_options_init(&opts);
        opts.base.allocator = &ta.alloc;
        npydt_writer *w;
        TEST_ERROR(err);
        unlink(s->path);
        npydt_status st = npydt_writer_create_path(s->path, dt, shape, 1, &opts, &w, &err);
        npydt_field_handle h;
        for (int k = 0; k < 10 && st == NPYDT_OK; k++)
            st = npydt_writer_field(w, "pos.x", &h, &err);
        if (w && st == NPYDT_OK) {
            assert_int_equal(npydt_writer_discard(w, &err), NPYDT_OK);
            assert_int_equal(ta.live_blocks, 0);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        if (w)
            npydt_writer_discard(w, NULL);
        assert_int_equal(ta.live_blocks, 0);
    }
    npydt_dtype_free(dt);
}

TEST_LIST("writer_field",
    cmocka_unit_test_setup_teardown(test_writer_field_puts_every_sort_of_value, setup, teardown),
    cmocka_unit_test_setup_teardown(test_writer_field_refuses_what_is_not_a_scalar, setup,
                                    teardown),
    cmocka_unit_test_setup_teardown(test_writer_field_put_errors_name_the_path_and_keep_the_record,
                                    setup, teardown),
    cmocka_unit_test_setup_teardown(test_writer_field_handles_outnumber_the_first_table, setup,
                                    teardown),
    cmocka_unit_test_setup_teardown(test_writer_field_every_allocation_failed_in_turn, setup,
                                    teardown),
);

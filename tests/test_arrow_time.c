/* Datetimes and timedeltas of units Arrow has not: converted to Arrow's
 * unit when every count is a whole number of it ([m] [h] as seconds, [W]
 * as days, [25s] [10ms] multiplied out), NaT still null, a count past
 * int64 an error naming record and field; and back, divided, a count that
 * is not a whole number of the dtype's unit refused naming row and
 * column. */
#include "arrow_import_test.h"

/* '<' or '>': this host's byte order. */
static char host_order(void)
{
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first ? '<' : '>';
}

/* The one batch of the counts v (C int64s of this host) as type string
 * ts, its byte order made the host's. */
static npydt_status batch_of(const char *ts, const int64_t *v, uint64_t n, struct ArrowArray *a,
                             npydt_error *err)
{
    char host[32];
    snprintf(host, sizeof host, "%c%s", host_order(), ts + 1);
    npydt_dtype *dt = typestr(host);
    npydt_status st = npydt_arrow_batch(dt, v, n, NULL, a, err);
    npydt_dtype_free(dt);
    return st;
}

static void test_arrow_time_exact_units_convert_to_arrows(void **state)
{
    (void)state;
    static const struct {
        const char *ts;
        int64_t per;   /* Arrow's counts in one count of ts */
        int days;      /* Arrow's int32 days */
    } cases[] = {
        {"<M8[m]", 60, 0},     {"<M8[h]", 3600, 0},     {">M8[25s]", 25, 0},
        {"<M8[10ms]", 10, 0},  {"<M8[1000ms]", 1000, 0}, {"<M8[W]", 7, 1},
        {"<M8[7D]", 7, 1},     {"<m8[D]", 86400, 0},     {"<m8[h]", 3600, 0},
        {"<m8[W]", 604800, 0}, {">m8[25s]", 25, 0},      {"<m8[3us]", 3, 0},
    };
    const int64_t v[5] = {0, 1, -1, 480000, INT64_MIN};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ArrowArray a;
        TEST_ERROR(err);
        if (batch_of(cases[i].ts, v, 5, &a, &err) != NPYDT_OK)
            fail_msg("%s: %s", cases[i].ts, err.message);
        const struct ArrowArray *c = a.children[0];
        assert_int_equal(c->null_count, 1);
        assert_int_equal(((const unsigned char *)c->buffers[0])[0] & 0x1F, 0x0F);
        for (int k = 0; k < 4; k++) {
            int64_t got;
            if (cases[i].days) {
                int32_t d;
                memcpy(&d, (const char *)c->buffers[1] + 4 * k, 4);
                got = d;
            } else {
                memcpy(&got, (const char *)c->buffers[1] + 8 * k, 8);
            }
            if (got != v[k] * cases[i].per)
                fail_msg("%s: %lld, not %lld", cases[i].ts, (long long)got,
                         (long long)(v[k] * cases[i].per));
        }
        a.release(&a);
    }
}

static void test_arrow_time_units_arrow_has_not_stay_counts(void **state)
{
    (void)state;
    static const char *const kept[] = {"<M8[Y]", "<M8[M]", "<M8[ps]", "<M8[fs]",
                                       "<M8[as]", "<m8[1000ps]", "<m8"};
    const int64_t v[2] = {4611686018427387904, -3};
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        struct ArrowArray a;
        TEST_ERROR(err);
        if (batch_of(kept[i], v, 2, &a, &err) != NPYDT_OK)
            fail_msg("%s: %s", kept[i], err.message);
        assert_memory_equal(a.children[0]->buffers[1], v, sizeof v);
        a.release(&a);
    }
}

static void test_arrow_time_count_past_int64_names_record_and_field(void **state)
{
    (void)state;
    /* records of (i <i4, t <M8[h]): the third's t is 2**62 hours */
    struct { int32_t i; int32_t pad; int64_t t; } rec[3] = {
        {1, 0, 5}, {2, 0, INT64_MIN}, {3, 0, (int64_t)1 << 62}};
    char descr[64], want[96];
    snprintf(descr, sizeof descr, "[('i', '%ci4'), ('', '|V4'), ('t', '%cM8[h]')]", host_order(),
             host_order());
    snprintf(want, sizeof want, "record 2: 4611686018427387904 of %cM8[h] is beyond "
             "Arrow's int64 seconds", host_order());
    npydt_dtype *dt = test_parse_literal(descr);
    struct ArrowArray a;
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_batch(dt, rec, 3, NULL, &a, &err), NPYDT_E_RANGE);
    assert_null(a.release);
    assert_string_equal(err.path, "t");
    assert_string_equal(err.message, want);
    assert_int_equal(npydt_arrow_batch(dt, rec, 2, NULL, &a, &err), NPYDT_OK);
    a.release(&a);
    npydt_dtype_free(dt);
}

/* A column of one datetime type: its schema from the export (so it
 * carries npydt.dtype), its values by hand. */
struct tcol {
    struct col root, k;
    unsigned char valid;
    int64_t v[3];
    int32_t d[3];
    struct ArrowSchema schema;
};

static void tcol_init(struct tcol *t, const char *ts, int64_t v0, int64_t v1, int64_t v2)
{
    memset(t, 0, sizeof *t);
    npydt_dtype *dt = typestr(ts);
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_schema(dt, NULL, &t->schema, &err), NPYDT_OK);
    npydt_dtype_free(dt);
    const struct ArrowSchema *cs = t->schema.children[0];
    t->v[0] = v0, t->v[1] = v1, t->v[2] = v2;
    for (int i = 0; i < 3; i++)
        t->d[i] = (int32_t)t->v[i];
    t->valid = 0x05;   /* row 1 null */
    col_init(&t->k, cs->format, "value", 3, 2, &t->valid,
             strcmp(cs->format, "tdD") == 0 ? (const void *)t->d : (const void *)t->v, NULL);
    t->k.s.metadata = cs->metadata;
    t->k.a.null_count = 1;
    col_init(&t->root, "+s", "", 3, 1, NULL, NULL, NULL);
    col_child(&t->root, &t->k);
}

static void test_arrow_time_import_divides_back_to_the_unit(void **state)
{
    (void)state;
    struct tcol t;
    tcol_init(&t, ">M8[h]", 7200, 5, -3600);
    npydt_dtype *dt = dtype_of_schema(&t.root.s, NULL, NULL);
    char str[32];
    npydt_dtype_str(dt, str, sizeof str);
    assert_string_equal(str, ">M8[h]");
    struct imported im;
    TEST_ERROR(err);
    assert_int_equal(import_into(dt, NULL, &t.root.s, &t.root.a, NULL, &err, &im), NPYDT_OK);
    static const int64_t want[3] = {2, INT64_MIN, -1};
    for (uint64_t i = 0; i < 3; i++) {
        int64_t got;
        assert_int_equal(npydt_read_i64(dt, test_element_at(im.r, i), &got, &err), NPYDT_OK);
        assert_true(got == want[i]);
    }
    imported_free(&im);
    npydt_dtype_free(dt);
    t.schema.release(&t.schema);
}

static void test_arrow_time_import_refuses_a_part_of_the_unit(void **state)
{
    (void)state;
    static const struct { const char *ts; int64_t bad; const char *msg; } cases[] = {
        {"<M8[h]", 5400, "row 2: 5400 (Arrow 'tss:') is not a whole number of <M8[h]"},
        {"<M8[W]", 15, "row 2: 15 (Arrow 'tdD') is not a whole number of <M8[W]"},
        {"<m8[25s]", 30, "row 2: 30 (Arrow 'tDs') is not a whole number of <m8[25s]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct tcol t;
        tcol_init(&t, cases[i].ts, 0, 1, cases[i].bad);
        npydt_dtype *dt = dtype_of_schema(&t.root.s, NULL, NULL);
        struct imported im;
        TEST_ERROR(err);
        assert_int_equal(import_into(dt, NULL, &t.root.s, &t.root.a, NULL, &err, &im),
                         NPYDT_E_RANGE);
        assert_string_equal(err.path, "value");
        assert_string_equal(err.message, cases[i].msg);
        npydt_dtype_free(dt);
        t.schema.release(&t.schema);
    }
}

TEST_LIST("arrow_time",
          cmocka_unit_test(test_arrow_time_exact_units_convert_to_arrows),
          cmocka_unit_test(test_arrow_time_units_arrow_has_not_stay_counts),
          cmocka_unit_test(test_arrow_time_count_past_int64_names_record_and_field),
          cmocka_unit_test(test_arrow_time_import_divides_back_to_the_unit),
          cmocka_unit_test(test_arrow_time_import_refuses_a_part_of_the_unit));

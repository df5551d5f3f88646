/* The Arrow export's schemas: the format of every kind of dtype, structs
 * and their titles, subarrays as nested fixed-size lists, refusals, and
 * the release of moved children. */
#include "arrow_test.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The schema of a type string; its column (the root's one child). */
static void schema_of(const char *ts, const npydt_arrow_options *o, struct ArrowSchema *s)
{
    npydt_dtype *dt = typestr(ts);
    TEST_ERROR(err);
    if (npydt_arrow_schema(dt, o, s, &err) != NPYDT_OK)
        fail_msg("%s: %s", ts, err.message);
    npydt_dtype_free(dt);
    assert_non_null(s->release);
}


static void test_arrow_schema_formats_of_every_kind(void **state)
{
    (void)state;
    static const struct { const char *ts, *format, *child; } cases[] = {
        {"b1", "b", NULL},       {"i1", "c", NULL},       {"<i2", "s", NULL},
        {">i4", "i", NULL},      {"<i8", "l", NULL},      {"u1", "C", NULL},
        {">u2", "S", NULL},      {"<u4", "I", NULL},      {">u8", "L", NULL},
        {"<f2", "e", NULL},      {">f4", "f", NULL},      {"<f8", "g", NULL},
        {"<f16", "g", NULL},     {"<c8", "+w:2", "f"},    {">c16", "+w:2", "g"},
        {"<c32", "+w:2", "g"},   {"S5", "w:5", NULL},     {"S0", "w:0", NULL},
        {"V3", "w:3", NULL},     {"<U4", "u", NULL},      {"<M8[s]", "tss:", NULL},
        {"<M8[ms]", "tsm:", NULL}, {">M8[us]", "tsu:", NULL}, {"<M8[ns]", "tsn:", NULL},
        {"<M8[D]", "tdD", NULL}, {"<M8[Y]", "l", NULL},   {"<M8", "l", NULL},
        {"<m8[s]", "tDs", NULL}, {"<m8[ms]", "tDm", NULL}, {"<m8[us]", "tDu", NULL},
        {">m8[ns]", "tDn", NULL}, {"<m8", "l", NULL},
        /* units Arrow has not, converted where every count is exact */
        {"<M8[m]", "tss:", NULL}, {"<M8[h]", "tss:", NULL}, {"<M8[25s]", "tss:", NULL},
        {">M8[10ms]", "tsm:", NULL}, {"<M8[2us]", "tsu:", NULL}, {"<M8[W]", "tdD", NULL},
        {"<M8[7D]", "tdD", NULL}, {"<m8[D]", "tDs", NULL}, {"<m8[h]", "tDs", NULL},
        {"<m8[W]", "tDs", NULL}, {"<m8[1000ms]", "tDm", NULL}, {"<M8[M]", "l", NULL},
        {"<M8[ps]", "l", NULL},  {"<M8[fs]", "l", NULL},  {"<m8[as]", "l", NULL},
        {"<m8[3Y]", "l", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ArrowSchema s;
        schema_of(cases[i].ts, NULL, &s);
        assert_string_equal(s.format, "+s");
        assert_int_equal(s.n_children, 1);
        const struct ArrowSchema *c = s.children[0];
        assert_string_equal(c->name, "value");
        if (strcmp(c->format, cases[i].format) != 0)
            fail_msg("%s: %s, not %s", cases[i].ts, c->format, cases[i].format);
        npydt_dtype *dt = typestr(cases[i].ts);
        char str[64];
        npydt_dtype_str(dt, str, sizeof str);
        npydt_dtype_free(dt);
        assert_meta(c, "npydt.dtype", str);
        if (cases[i].child) {
            assert_int_equal(c->n_children, 1);
            assert_string_equal(c->children[0]->format, cases[i].child);
        } else {
            assert_int_equal(c->n_children, 0);
        }
        assert_int_equal(!!(c->flags & ARROW_FLAG_NULLABLE), strchr("Mm", str[1]) != NULL);
        s.release(&s);
        assert_null(s.release);
    }
}

static void test_arrow_schema_struct_titles_padding_dropped(void **state)
{
    (void)state;
    /* np.save's descr of a dtype with padding: the '' void entries */
    npydt_dtype *dt =
        test_parse_literal("[(('The A', 'a'), '<i4'), ('', '|V4'), ('b', '|u1'), ('', '|V7')]");
    assert_int_equal(npydt_dtype_nfields(dt), 2);
    assert_int_equal(npydt_dtype_itemsize(dt), 16);
    struct ArrowSchema s;
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_schema(dt, NULL, &s, &err), NPYDT_OK);
    assert_string_equal(s.format, "+s");
    assert_string_equal(s.name, "");
    assert_int_equal(s.n_children, 2);
    assert_string_equal(s.children[0]->name, "a");
    assert_string_equal(s.children[0]->format, "i");
    assert_meta(s.children[0], "npydt.title", "The A");
    assert_string_equal(s.children[1]->name, "b");
    int32_t len;
    assert_null(meta_get(s.children[1]->metadata, "npydt.title", &len));
    s.release(&s);
    npydt_dtype_free(dt);
}

static void test_arrow_schema_subarray_nested_lists(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('m', '<i2', (2, 3)), ('p', [('x', '<f4')], (4,))]");
    struct ArrowSchema s;
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_schema(dt, NULL, &s, &err), NPYDT_OK);
    const struct ArrowSchema *m = s.children[0], *p = s.children[1];
    assert_string_equal(m->format, "+w:2");
    assert_meta(m, "npydt.shape", "(2, 3)");
    assert_string_equal(m->children[0]->format, "+w:3");
    assert_string_equal(m->children[0]->name, "item");
    assert_string_equal(m->children[0]->children[0]->format, "s");
    assert_string_equal(p->format, "+w:4");
    assert_meta(p, "npydt.shape", "(4,)");
    assert_string_equal(p->children[0]->format, "+s");
    assert_string_equal(p->children[0]->children[0]->name, "x");
    s.release(&s);
    npydt_dtype_free(dt);
}

static void test_arrow_schema_bytes_as_binary(void **state)
{
    (void)state;
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    o.bytes_as_binary = 1;
    struct ArrowSchema s;
    schema_of("S5", &o, &s);
    assert_string_equal(s.children[0]->format, "z");
    s.release(&s);
    schema_of("V5", &o, &s);
    assert_string_equal(s.children[0]->format, "w:5");
    s.release(&s);
}

static void test_arrow_schema_refuses_object_and_nul_names(void **state)
{
    (void)state;
    TEST_ERROR(err);
    struct ArrowSchema s;
    npydt_dtype *dt = test_parse_literal("[('a', '<i4'), ('b', [('c', '|O')])]");
    assert_fails(NPYDT_E_OBJECT, &err, npydt_arrow_schema(dt, NULL, &s, &err));
    assert_null(s.release);
    assert_string_equal(err.path, "b.c");
    npydt_dtype_free(dt);
    dt = test_parse_literal("[('a\\x00', '<i4')]");
    assert_fails(NPYDT_E_NAME, &err, npydt_arrow_schema(dt, NULL, &s, &err));
    assert_null(s.release);
    npydt_dtype_free(dt);
}

static void test_arrow_schema_refuses_reserved_room(void **state)
{
    (void)state;
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    o.reserved[0] = 1;
    npydt_dtype *dt = typestr("f8");
    struct ArrowSchema s;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_arrow_schema(dt, &o, &s, &err));
    npydt_dtype_free(dt);
}

static void test_arrow_schema_moved_child_outlives_parent(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('a', '<i4'), ('b', '<c8')]");
    struct ArrowSchema s, moved;
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_schema(dt, NULL, &s, &err), NPYDT_OK);
    moved = *s.children[1];
    s.children[1]->release = NULL;
    s.release(&s);
    assert_string_equal(moved.name, "b");
    assert_string_equal(moved.children[0]->format, "f");
    moved.release(&moved);
    assert_null(moved.release);
    npydt_dtype_free(dt);
}

/* The schema a stream over fixture name gives. */
static void stream_schema(const char *name, struct ArrowSchema *s)
{
    npydt_reader *r = test_open_fixture(name);
    struct ArrowArrayStream st;
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_stream_open(r, NULL, &st, &err), NPYDT_OK);
    assert_int_equal(st.get_schema(&st, s), 0);
    st.release(&st);
    npydt_reader_close(r);
}

static void test_arrow_schema_stream_carries_the_shape_of_an_array_not_1d(void **state)
{
    (void)state;
    static const struct { const char *name, *shape; size_t ndim; uint64_t first; } cases[] = {
        {"fortran_3d.npy", "(2, 3, 4)", 3, 2},      /* the rows in C order */
        {"fortran_struct.npy", "(3, 2)", 2, 3},
        {"shape0d_struct.npy", "()", 0, 0},
        {"empty_3x0.npy", "(3, 0)", 2, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ArrowSchema s;
        stream_schema(cases[i].name, &s);
        assert_meta(&s, "npydt.shape", cases[i].shape);
        uint64_t dims[4] = {0};
        size_t nd;
        TEST_ERROR(err);
        assert_int_equal(npydt_arrow_shape(&s, dims, 4, &nd, &err), NPYDT_OK);
        assert_int_equal(nd, cases[i].ndim);
        assert_true(dims[0] == cases[i].first);
        s.release(&s);
    }
    /* a 1-d array's rows are its elements: no shape, and none for a dtype */
    struct ArrowSchema s;
    int32_t len;
    stream_schema("struct_simple.npy", &s);
    assert_null(meta_get(s.metadata, "npydt.shape", &len));
    uint64_t dims[4];
    size_t nd;
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_shape(&s, dims, 4, &nd, &err), NPYDT_E_NOT_FOUND);
    s.release(&s);
    npydt_dtype *dt = typestr("<f8");
    assert_int_equal(npydt_arrow_schema(dt, NULL, &s, &err), NPYDT_OK);
    assert_null(s.metadata);
    s.release(&s);
    npydt_dtype_free(dt);
}

static void test_arrow_schema_shape_read_back_or_refused(void **state)
{
    (void)state;
    struct ArrowSchema s;
    stream_schema("fortran_3d.npy", &s);
    uint64_t dims[3];
    size_t nd;
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_shape(&s, dims, 3, &nd, &err), NPYDT_OK);
    assert_int_equal(nd, 3);
    assert_true(dims[0] == 2 && dims[1] == 3 && dims[2] == 4);
    /* fewer dimensions than it has */
    assert_int_equal(npydt_arrow_shape(&s, dims, 2, &nd, &err), NPYDT_E_SHAPE);
    assert_non_null(strstr(err.message, "'(2, 3, 4)' is not a shape of at most 2 dimensions"));
    s.release(&s);
    /* a shape of another spelling, or past uint64 elements */
    static const struct { const char *text; npydt_status code; } bad[] = {
        {"(2,3)", NPYDT_E_SHAPE}, {"[2]", NPYDT_E_SHAPE}, {"(3)", NPYDT_E_SHAPE},
        {"(4294967296, 4294967296)", NPYDT_E_OVERFLOW},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char m[96];
        int32_t n = 1, kl = 11, vl = (int32_t)strlen(bad[i].text);
        memcpy(m, &n, 4);
        memcpy(m + 4, &kl, 4);
        memcpy(m + 8, "npydt.shape", 11);
        memcpy(m + 19, &vl, 4);
        memcpy(m + 23, bad[i].text, (size_t)vl);
        npydt_dtype *dt = typestr("<f8");
        assert_int_equal(npydt_arrow_schema(dt, NULL, &s, &err), NPYDT_OK);
        npydt_dtype_free(dt);
        const char *keep = s.metadata;
        s.metadata = m;
        assert_int_equal(npydt_arrow_shape(&s, dims, 3, &nd, &err), bad[i].code);
        s.metadata = keep;
        s.release(&s);
    }
}

TEST_LIST("arrow_schema",
          cmocka_unit_test(test_arrow_schema_formats_of_every_kind),
          cmocka_unit_test(test_arrow_schema_struct_titles_padding_dropped),
          cmocka_unit_test(test_arrow_schema_subarray_nested_lists),
          cmocka_unit_test(test_arrow_schema_bytes_as_binary),
          cmocka_unit_test(test_arrow_schema_refuses_object_and_nul_names),
          cmocka_unit_test(test_arrow_schema_refuses_reserved_room),
          cmocka_unit_test(test_arrow_schema_moved_child_outlives_parent),
          cmocka_unit_test(test_arrow_schema_stream_carries_the_shape_of_an_array_not_1d),
          cmocka_unit_test(test_arrow_schema_shape_read_back_or_refused));

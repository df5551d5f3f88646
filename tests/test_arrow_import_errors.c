/* The Arrow import of columns laid out by hand as other producers lay
 * them out: the dtype each format reads as, what is refused (naming the
 * column and the type), strings and their widths, nulls, array offsets,
 * a schema against a given dtype, hostile lengths and offsets, and a
 * failing stream. */
#include "arrow_import_test.h"

/* The descriptor of dt equals want, whose '<' mean the host's order. */
static void assert_descr(const npydt_dtype *dt, const char *want)
{
    char w[512], got[512];
    snprintf(w, sizeof w, "%s", want);
    for (char *c = w; *c; c++)
        if (*c == '<')
            *c = test_native_order();
    npydt_dtype_descr(dt, got, sizeof got);
    assert_string_equal(got, w);
}

/* A struct root "+s" of length rows over children kids. */
static void root_of(struct col *root, int64_t rows, struct col **kids, int n)
{
    col_init(root, "+s", "", rows, 1, NULL, NULL, NULL);
    for (int i = 0; i < n; i++)
        col_child(root, kids[i]);
}

/* npydt_arrow_dtype fails with code and a message holding both parts. */
static void dtype_fails(const struct ArrowSchema *s, const struct ArrowArray *a,
                        const npydt_arrow_import_options *o, npydt_status code,
                        const char *part1, const char *part2)
{
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_dtype(s, a, o, &dt, &err), code);
    assert_null(dt);
    if (!strstr(err.message, part1) || (part2 && !strstr(err.message, part2)))
        fail_msg("message '%s' lacks '%s' or '%s'", err.message, part1, part2 ? part2 : "");
}

static void test_arrow_import_formats_read_as_numpy_types(void **state)
{
    (void)state;
    static const char *const fmts[] = {"b", "c", "C", "s", "S", "i", "I", "l", "L", "e",
                                       "f", "g", "w:3", "tss:", "tsm:", "tsu:UTC", "tsn:",
                                       "tdD", "tdm", "tDs", "tDm", "tDu", "tDn"};
    enum { N = sizeof fmts / sizeof fmts[0] };
    struct col kids[N], root, *kp[N];
    char names[N][8];
    for (int i = 0; i < N; i++) {
        snprintf(names[i], sizeof names[i], "c%d", i);
        col_init(&kids[i], fmts[i], names[i], 0, 2, NULL, NULL, NULL);
        kp[i] = &kids[i];
    }
    root_of(&root, 0, kp, N);
    npydt_dtype *dt = dtype_of_schema(&root.s, NULL, NULL);
    assert_descr(dt, "[('c0', '|b1'), ('c1', '|i1'), ('c2', '|u1'), ('c3', '<i2'), "
                     "('c4', '<u2'), ('c5', '<i4'), ('c6', '<u4'), ('c7', '<i8'), "
                     "('c8', '<u8'), ('c9', '<f2'), ('c10', '<f4'), ('c11', '<f8'), "
                     "('c12', '|V3'), ('c13', '<M8[s]'), ('c14', '<M8[ms]'), "
                     "('c15', '<M8[us]'), ('c16', '<M8[ns]'), ('c17', '<M8[D]'), "
                     "('c18', '<M8[ms]'), ('c19', '<m8[s]'), ('c20', '<m8[ms]'), "
                     "('c21', '<m8[us]'), ('c22', '<m8[ns]')]");
    npydt_dtype_free(dt);
}

static void test_arrow_import_nested_lists_are_one_subarray(void **state)
{
    (void)state;
    struct col leaf, inner, outer, root, *kp[1] = {&outer};
    col_init(&leaf, "s", "item", 0, 2, NULL, NULL, NULL);
    col_init(&inner, "+w:3", "item", 0, 1, NULL, NULL, NULL);
    col_init(&outer, "+w:2", "m", 0, 1, NULL, NULL, NULL);
    col_child(&inner, &leaf);
    col_child(&outer, &inner);
    root_of(&root, 0, kp, 1);
    npydt_dtype *dt = dtype_of_schema(&root.s, NULL, NULL);
    assert_descr(dt, "[('m', '<i2', (2, 3))]");
    npydt_dtype_free(dt);
}

static void test_arrow_import_one_column_named_value_is_the_dtype(void **state)
{
    (void)state;
    struct col v, root, *kp[1] = {&v};
    col_init(&v, "g", "value", 0, 2, NULL, NULL, NULL);
    root_of(&root, 0, kp, 1);
    npydt_dtype *dt = dtype_of_schema(&root.s, NULL, NULL);
    assert_descr(dt, "'<f8'");
    npydt_dtype_free(dt);
    /* a root that is no struct is its own column */
    dt = dtype_of_schema(&v.s, NULL, NULL);
    assert_descr(dt, "'<f8'");
    npydt_dtype_free(dt);
}

/* npydt.dtype gives the exact type when the export of that type is the
 * column's format, and is ignored otherwise. */
static void test_arrow_import_metadata_type_only_where_it_fits(void **state)
{
    (void)state;
    char m1[64], m2[64], m3[64], m4[64], m5[64];
    struct col a, b, c, d, e, root, *kp[5] = {&a, &b, &c, &d, &e};
    col_init(&a, "i", "a", 0, 2, NULL, NULL, NULL);
    a.s.metadata = meta1(m1, "npydt.dtype", ">i4");
    col_init(&b, "i", "b", 0, 2, NULL, NULL, NULL);
    b.s.metadata = meta1(m2, "npydt.dtype", "<f8");
    col_init(&c, "l", "c", 0, 2, NULL, NULL, NULL);
    c.s.metadata = meta1(m3, "npydt.dtype", ">M8[3Y]");
    col_init(&d, "tss:", "d", 0, 2, NULL, NULL, NULL);
    d.s.metadata = meta1(m4, "npydt.dtype", ">M8[25s]");
    /* exported as "tss:" now, so "l" is not its column */
    col_init(&e, "l", "e", 0, 2, NULL, NULL, NULL);
    e.s.metadata = meta1(m5, "npydt.dtype", "<m8[h]");
    root_of(&root, 0, kp, 5);
    npydt_dtype *dt = dtype_of_schema(&root.s, NULL, NULL);
    assert_descr(dt, "[('a', '>i4'), ('b', '<i4'), ('c', '>M8[3Y]'), ('d', '>M8[25s]'), "
                     "('e', '<i8')]");
    npydt_dtype_free(dt);
}

static void test_arrow_import_refuses_types_numpy_has_not(void **state)
{
    (void)state;
    static const struct { const char *fmt; const char *what; } no[] = {
        {"+l", "a list"},          {"+L", "a large list"},  {"+m", "a map"},
        {"+ud:0", "a dense union"}, {"+us:0", "a sparse union"}, {"d:10,2", "a decimal"},
        {"U", "large UTF-8"},      {"Z", "large binary"},   {"vu", "a UTF-8 view"},
        {"u", "variable-length UTF-8"}, {"z", "variable-length binary"},
        {"tts", "a time of day"},  {"tiM", "an interval"},  {"n", "null"},
        {"w:0", "unknown"},        {"+w:x", "unknown"},     {"?", "unknown"},
    };
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        struct col item, k, root, *kp[1] = {&k};
        col_init(&item, "i", "item", 0, 2, NULL, NULL, NULL);
        col_init(&k, no[i].fmt, "things", 0, 1, NULL, NULL, NULL);
        if (no[i].fmt[0] == '+')
            col_child(&k, &item);
        root_of(&root, 0, kp, 1);
        char want[64];
        snprintf(want, sizeof want, "Arrow type '%s'", no[i].fmt);
        dtype_fails(&root.s, NULL, NULL, NPYDT_E_TYPE, want, no[i].what);
    }
    /* a dictionary-encoded column, whatever its index type */
    struct col dict, k, root, *kp[1] = {&k};
    col_init(&dict, "u", "", 0, 3, NULL, NULL, NULL);
    col_init(&k, "i", "cat", 0, 2, NULL, NULL, NULL);
    k.s.dictionary = &dict.s;
    root_of(&root, 0, kp, 1);
    dtype_fails(&root.s, NULL, NULL, NPYDT_E_TYPE, "a dictionary-encoded", NULL);
}

/* A root of one "u" column "name" holding the strings given. */
struct strings {
    struct col k, root;
    int32_t off[8];
    char data[64];
};

static void strings_init(struct strings *t, const char *fmt, const char *const *v, int n)
{
    t->off[0] = 0;
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        memcpy(t->data + at, v[i], strlen(v[i]));
        at += strlen(v[i]);
        t->off[i + 1] = (int32_t)at;
    }
    col_init(&t->k, fmt, "name", n, 3, NULL, t->off, t->data);
    struct col *kp[1] = {&t->k};
    root_of(&t->root, n, kp, 1);
}

static void test_arrow_import_strings_take_the_width_given(void **state)
{
    (void)state;
    static const char *const v[] = {"ab", "h\xc3\xa9llo", ""};
    struct strings t;
    strings_init(&t, "u", v, 3);
    npydt_arrow_import_options o;
    npydt_arrow_import_options_init(&o);
    o.string_width = 5;
    npydt_dtype *dt = dtype_of_schema(&t.root.s, NULL, &o);
    assert_descr(dt, "[('name', '<U5')]");
    struct imported im;
    TEST_ERROR(err);
    assert_int_equal(import_into(dt, NULL, &t.root.s, &t.root.a, &o, &err, &im), NPYDT_OK);
    char buf[16];
    size_t len;
    const npydt_dtype *f = npydt_dtype_field_dtype(test_reader_dtype(im.r), 0);
    assert_int_equal(npydt_read_unicode(f, test_element_at(im.r, 1), buf, sizeof buf, &len,
                                        &err), NPYDT_OK);
    assert_string_equal(buf, "h\xc3\xa9llo");
    imported_free(&im);
    npydt_dtype_free(dt);
    /* longer than the width: the row and the column named */
    o.string_width = 4;
    dt = dtype_of_schema(&t.root.s, NULL, &o);
    assert_fails(NPYDT_E_RANGE, &err,
                 import_into(dt, NULL, &t.root.s, &t.root.a, &o, &err, &im));
    assert_non_null(strstr(err.message, "row 1: "));
    assert_string_equal(err.path, "name");
    npydt_dtype_free(dt);
}

static void test_arrow_import_longest_value_sets_the_width(void **state)
{
    (void)state;
    static const char *const v[] = {"ab", "h\xc3\xa9llo", ""};
    struct strings t;
    npydt_arrow_import_options o;
    npydt_arrow_import_options_init(&o);
    o.string_width = NPYDT_ARROW_LONGEST;
    strings_init(&t, "u", v, 3);
    npydt_dtype *dt = dtype_of_schema(&t.root.s, &t.root.a, &o);
    assert_descr(dt, "[('name', '<U5')]");  /* characters */
    npydt_dtype_free(dt);
    strings_init(&t, "z", v, 3);
    dt = dtype_of_schema(&t.root.s, &t.root.a, &o);
    assert_descr(dt, "[('name', '|S6')]");  /* bytes */
    npydt_dtype_free(dt);
    /* a schema alone has no values to measure */
    dtype_fails(&t.root.s, NULL, &o, NPYDT_E_ARG, "the longest value needs the array", NULL);
}

static void test_arrow_import_invalid_utf8_names_row_and_column(void **state)
{
    (void)state;
    static const char *const v[] = {"ok", "\xff"};
    struct strings t;
    strings_init(&t, "u", v, 2);
    npydt_dtype *dt = test_parse_literal("[('name', '<U4')]");
    struct imported im;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ENCODING, &err,
                 import_into(dt, NULL, &t.root.s, &t.root.a, NULL, &err, &im));
    assert_non_null(strstr(err.message, "row 1: "));
    assert_string_equal(err.path, "name");
    npydt_dtype_free(dt);
}

/* One column "x" of 4 rows, 10 to 13 (int32, or int64 for fmt "tD."),
 * row 2 null. */
struct nullable {
    struct col k, root;
    unsigned char valid;
    int32_t v[4];
    int64_t v64[4];
};

static void nullable_init(struct nullable *t, const char *fmt)
{
    t->valid = 0x0B; /* rows 0, 1, 3 */
    for (int i = 0; i < 4; i++)
        t->v64[i] = t->v[i] = 10 + i;
    const void *data = strncmp(fmt, "tD", 2) == 0 ? (const void *)t->v64 : (const void *)t->v;
    col_init(&t->k, fmt, "x", 4, 2, &t->valid, data, NULL);
    t->k.a.null_count = 1;
    struct col *kp[1] = {&t->k};
    root_of(&t->root, 4, kp, 1);
}

static void test_arrow_import_null_is_refused_naming_row_and_column(void **state)
{
    (void)state;
    struct nullable t;
    nullable_init(&t, "i");
    npydt_dtype *dt = dtype_of_schema(&t.root.s, NULL, NULL);
    struct imported im;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_VALUE, &err,
                 import_into(dt, NULL, &t.root.s, &t.root.a, NULL, &err, &im));
    assert_non_null(strstr(err.message, "row 2: a null"));
    assert_string_equal(err.path, "x");
    npydt_dtype_free(dt);
}

static void test_arrow_import_null_as_zero_by_option(void **state)
{
    (void)state;
    struct nullable t;
    nullable_init(&t, "i");
    npydt_arrow_import_options o;
    npydt_arrow_import_options_init(&o);
    o.nulls_as_zero = 1;
    npydt_dtype *dt = dtype_of_schema(&t.root.s, NULL, NULL);
    struct imported im;
    TEST_ERROR(err);
    assert_int_equal(import_into(dt, NULL, &t.root.s, &t.root.a, &o, &err, &im), NPYDT_OK);
    static const int32_t want[4] = {10, 11, 0, 13};
    for (uint64_t i = 0; i < 4; i++)
        assert_memory_equal(test_element_at(im.r, i), &want[i], 4);
    imported_free(&im);
    npydt_dtype_free(dt);
}

static void test_arrow_import_null_datetime_is_nat(void **state)
{
    (void)state;
    struct nullable t;
    nullable_init(&t, "tdD");
    npydt_dtype *dt = dtype_of_schema(&t.root.s, NULL, NULL);
    struct imported im;
    TEST_ERROR(err);
    assert_int_equal(import_into(dt, NULL, &t.root.s, &t.root.a, NULL, &err, &im), NPYDT_OK);
    const npydt_dtype *f = npydt_dtype_field_dtype(test_reader_dtype(im.r), 0);
    npydt_datetime d;
    assert_int_equal(npydt_read_datetime(f, test_element_at(im.r, 2), &d, &err), NPYDT_OK);
    assert_true(d.is_nat);
    assert_int_equal(npydt_read_datetime(f, test_element_at(im.r, 3), &d, &err), NPYDT_OK);
    assert_int_equal(d.count, 13);
    imported_free(&im);
    npydt_dtype_free(dt);
}

/* The root and its columns start at offsets of their own; a list's items
 * follow its offset times its size. */
static void test_arrow_import_array_offsets_pick_the_rows(void **state)
{
    (void)state;
    static const int16_t a[6] = {0, 1, 2, 3, 4, 5};
    static const int32_t items[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    static const unsigned char bits = 0x2C; /* 0b101100: rows 2, 3, 5 true */
    struct col ka, kb, kl, li, root, *kp[3] = {&ka, &kb, &kl};
    col_init(&ka, "s", "a", 5, 2, NULL, a, NULL);
    ka.a.offset = 1;
    col_init(&kb, "b", "b", 6, 2, NULL, &bits, NULL);
    col_init(&li, "i", "item", 12, 2, NULL, items, NULL);
    li.a.offset = 2;
    col_init(&kl, "+w:2", "l", 5, 1, NULL, NULL, NULL);
    col_child(&kl, &li);
    root_of(&root, 3, kp, 3);
    root.a.offset = 2;
    /* rows 0..2 of the root are rows 2..4 of its columns:
     * a = a[1 + 2..], b = bits[2..], l = items[2 + 2 * 2..] */
    npydt_dtype *dt = dtype_of_schema(&root.s, NULL, NULL);
    assert_descr(dt, "[('a', '<i2'), ('b', '|b1'), ('l', '<i4', (2,))]");
    struct imported im;
    TEST_ERROR(err);
    assert_int_equal(import_into(dt, NULL, &root.s, &root.a, NULL, &err, &im), NPYDT_OK);
    for (int r = 0; r < 3; r++) {
        const unsigned char *p = test_element_at(im.r, (uint64_t)r);
        int16_t va;
        int32_t vl[2];
        memcpy(&va, p, 2);
        memcpy(vl, p + 3, 8);
        assert_int_equal(va, 3 + r);
        assert_int_equal(p[2], (bits >> (2 + r)) & 1);
        assert_int_equal(vl[0], 6 + 2 * r);
        assert_int_equal(vl[1], 7 + 2 * r);
    }
    imported_free(&im);
    npydt_dtype_free(dt);
}

static void test_arrow_import_writes_the_writers_byte_order(void **state)
{
    (void)state;
    static const int32_t v[2] = {1, 0x01020304};
    struct col k, root, *kp[1] = {&k};
    col_init(&k, "i", "x", 2, 2, NULL, v, NULL);
    root_of(&root, 2, kp, 1);
    npydt_dtype *dt = test_parse_literal("[('x', '>i4')]");
    struct imported im;
    TEST_ERROR(err);
    assert_int_equal(import_into(dt, NULL, &root.s, &root.a, NULL, &err, &im), NPYDT_OK);
    assert_memory_equal(test_element_at(im.r, 1), "\x01\x02\x03\x04", 4);
    imported_free(&im);
    npydt_dtype_free(dt);
}

static void test_arrow_import_schema_against_dtype_names_first_difference(void **state)
{
    (void)state;
    struct col ka, kb, root, *kp[2] = {&ka, &kb};
    col_init(&ka, "i", "a", 0, 2, NULL, NULL, NULL);
    col_init(&kb, "f", "b", 0, 2, NULL, NULL, NULL);
    root_of(&root, 0, kp, 2);
    static const struct { const char *dtype, *path, *msg; } diff[] = {
        {"[('a', '<i4'), ('b', '<f8')]", "b", "Arrow type 'f' where the dtype has <f8"},
        {"[('a', '<i4'), ('c', '<f4')]", "b", "an Arrow column where the dtype has field 'c'"},
        {"[('a', '<i4')]", "", "a struct of columns: '2'"},
        {"[('a', '<i4'), ('b', '<f4', (2,))]", "b", "Arrow type 'f'"},
    };
    for (size_t i = 0; i < sizeof diff / sizeof diff[0]; i++) {
        npydt_dtype *dt = test_parse_literal(diff[i].dtype);
        struct imported im;
        TEST_ERROR(err);
        assert_fails(NPYDT_E_MISMATCH, &err,
                     import_into(dt, NULL, &root.s, &root.a, NULL, &err, &im));
        if (!strstr(err.message, diff[i].msg) || strcmp(err.path, diff[i].path) != 0)
            fail_msg("%s: path %s, message %s", diff[i].dtype, err.path, err.message);
        npydt_dtype_free(dt);
    }
}

/* A column inside a struct column: the error's path names it, its
 * message says what is wrong without naming it again. */
static void test_arrow_import_struct_field_errors_name_the_field_once(void **state)
{
    (void)state;
    struct nullable t;
    nullable_init(&t, "i");
    /* root { a { x } }, x's row 2 null */
    struct col a, root, *kp[1] = {&a};
    col_init(&a, "+s", "a", 4, 1, NULL, NULL, NULL);
    col_child(&a, &t.k);
    root_of(&root, 4, kp, 1);
    static const struct {
        const char *dtype;
        npydt_status code;
        const char *path, *message;
    } cases[] = {
        {"[('a', [('x', '<f8')])]", NPYDT_E_MISMATCH, "a.x", "Arrow type 'i' where the dtype has <f8"},
        {"[('a', [('y', '<i4')])]", NPYDT_E_MISMATCH, "a.x",
         "an Arrow column where the dtype has field 'y'"},
        {"[('a', [('x', '<i4')])]", NPYDT_E_VALUE, "a.x", "row 2: a null, which <i4 has no value for"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        npydt_dtype *dt = test_parse_literal(cases[i].dtype);
        struct imported im;
        TEST_ERROR(err);
        assert_fails(cases[i].code, &err, import_into(dt, NULL, &root.s, &root.a, NULL, &err, &im));
        assert_string_equal(err.path, cases[i].path);
        assert_string_equal(err.message, cases[i].message);
        npydt_dtype_free(dt);
    }
}

/* Lengths, offsets and counts a foreign array gets wrong. */
static void test_arrow_import_hostile_arrays_are_refused(void **state)
{
    (void)state;
    static const int32_t v[4] = {1, 2, 3, 4};
    for (int kind = 0; kind < 7; kind++) {
        struct col k, root, *kp[1] = {&k};
        col_init(&k, "i", "x", 4, 2, NULL, v, NULL);
        root_of(&root, 4, kp, 1);
        switch (kind) {
        case 0: k.a.length = 3; break;                   /* shorter than its parent */
        case 1: k.a.offset = INT64_MAX; break;           /* offset + length overflows */
        case 2: k.a.n_buffers = 3; break;                /* buffers of another type */
        case 3: k.bufs[1] = NULL; break;                 /* the data is missing */
        case 4: root.a.n_children = 2; break;            /* children of another type */
        case 5: root.a.length = -1; break;               /* negative */
        case 6: k.a.offset = INT64_MAX / 2; break;       /* bytes beyond size_t */
        }
        npydt_dtype *dt = test_parse_literal("[('x', '<i4')]");
        struct imported im;
        TEST_ERROR(err);
        assert_fails(NPYDT_E_DATA, &err,
                     import_into(dt, NULL, &root.s, &root.a, NULL, &err, &im));
        npydt_dtype_free(dt);
    }
}

static void test_arrow_import_bad_string_offsets_are_refused(void **state)
{
    (void)state;
    static const char *const v[] = {"abc", "de"};
    struct strings t;
    strings_init(&t, "u", v, 2);
    t.off[1] = 4; /* past the next offset (3 bytes, then 5) */
    t.off[2] = 2;
    npydt_dtype *dt = test_parse_literal("[('name', '<U8')]");
    struct imported im;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_DATA, &err,
                 import_into(dt, NULL, &t.root.s, &t.root.a, NULL, &err, &im));
    assert_string_equal(err.message, "row 1: offsets 4 then 2");
    assert_string_equal(err.path, "name");
    npydt_dtype_free(dt);
}

/* ---- a stream ------------------------------------------------------------------- */

/* A stream of two batches of the nullable column, whose third call fails
 * with fail_rc (0: it ends). */
struct fake_stream {
    struct nullable t[2];
    int calls, fail_rc;
};

static int fake_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    struct fake_stream *f = s->private_data;
    *out = f->t[0].root.s;
    return 0;
}

static int fake_get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    struct fake_stream *f = s->private_data;
    memset(out, 0, sizeof *out);
    if (f->calls == 2) {
        if (f->fail_rc)
            return f->fail_rc;
        return 0;
    }
    *out = f->t[f->calls++].root.a;
    return 0;
}

static const char *fake_last_error(struct ArrowArrayStream *s)
{
    (void)s;
    return "the disk went away";
}

static void fake_release(struct ArrowArrayStream *s)
{
    s->release = NULL;
}

static void fake_init(struct fake_stream *f, struct ArrowArrayStream *s, int fail_rc)
{
    memset(f, 0, sizeof *f);
    nullable_init(&f->t[0], "tDs");
    nullable_init(&f->t[1], "tDs");
    f->fail_rc = fail_rc;
    *s = (struct ArrowArrayStream){fake_get_schema, fake_get_next, fake_last_error,
                                   fake_release, f};
}

static void test_arrow_import_stream_appends_every_batch(void **state)
{
    (void)state;
    struct fake_stream f;
    struct ArrowArrayStream s;
    fake_init(&f, &s, 0);
    npydt_dtype *dt = test_parse_literal("[('x', '<m8[s]')]");
    struct imported im;
    TEST_ERROR(err);
    assert_int_equal(import_into(dt, &s, NULL, NULL, NULL, &err, &im), NPYDT_OK);
    assert_int_equal(npydt_header_count(npydt_reader_header(im.r)), 8);
    /* the schema and both batches released, once each */
    assert_int_equal(f.t[0].root.schema_releases, 1);
    assert_int_equal(f.t[0].root.array_releases, 1);
    assert_int_equal(f.t[1].root.array_releases, 1);
    assert_non_null(s.release); /* the stream stays the caller's */
    s.release(&s);
    imported_free(&im);
    npydt_dtype_free(dt);
}

static void test_arrow_import_stream_error_gives_its_last_error(void **state)
{
    (void)state;
    struct fake_stream f;
    struct ArrowArrayStream s;
    fake_init(&f, &s, EIO);
    npydt_dtype *dt = test_parse_literal("[('x', '<m8[s]')]");
    struct imported im;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err, import_into(dt, &s, NULL, NULL, NULL, &err, &im));
    assert_non_null(strstr(err.message, "get_next failed"));
    assert_non_null(strstr(err.message, "the disk went away"));
    assert_int_equal(f.t[0].root.schema_releases, 1);
    assert_int_equal(f.t[1].root.array_releases, 1);
    s.release(&s);
    npydt_dtype_free(dt);
}

/* Rows of the second batch are counted from the stream's first. */
static void test_arrow_import_stream_rows_count_across_batches(void **state)
{
    (void)state;
    struct fake_stream f;
    struct ArrowArrayStream s;
    fake_init(&f, &s, 0);
    nullable_init(&f.t[0], "i");
    nullable_init(&f.t[1], "i");
    f.t[0].k.a.null_count = 0;
    npydt_dtype *dt = test_parse_literal("[('x', '<i4')]");
    struct imported im;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_VALUE, &err, import_into(dt, &s, NULL, NULL, NULL, &err, &im));
    assert_non_null(strstr(err.message, "row 6: "));
    assert_string_equal(err.path, "x");
    s.release(&s);
    npydt_dtype_free(dt);
}

TEST_LIST("arrow_import_errors",
          cmocka_unit_test(test_arrow_import_formats_read_as_numpy_types),
          cmocka_unit_test(test_arrow_import_nested_lists_are_one_subarray),
          cmocka_unit_test(test_arrow_import_one_column_named_value_is_the_dtype),
          cmocka_unit_test(test_arrow_import_metadata_type_only_where_it_fits),
          cmocka_unit_test(test_arrow_import_refuses_types_numpy_has_not),
          cmocka_unit_test(test_arrow_import_strings_take_the_width_given),
          cmocka_unit_test(test_arrow_import_longest_value_sets_the_width),
          cmocka_unit_test(test_arrow_import_invalid_utf8_names_row_and_column),
          cmocka_unit_test(test_arrow_import_null_is_refused_naming_row_and_column),
          cmocka_unit_test(test_arrow_import_null_as_zero_by_option),
          cmocka_unit_test(test_arrow_import_null_datetime_is_nat),
          cmocka_unit_test(test_arrow_import_array_offsets_pick_the_rows),
          cmocka_unit_test(test_arrow_import_writes_the_writers_byte_order),
          cmocka_unit_test(test_arrow_import_schema_against_dtype_names_first_difference),
          cmocka_unit_test(test_arrow_import_struct_field_errors_name_the_field_once),
          cmocka_unit_test(test_arrow_import_hostile_arrays_are_refused),
          cmocka_unit_test(test_arrow_import_bad_string_offsets_are_refused),
          cmocka_unit_test(test_arrow_import_stream_appends_every_batch),
          cmocka_unit_test(test_arrow_import_stream_error_gives_its_last_error),
          cmocka_unit_test(test_arrow_import_stream_rows_count_across_batches));

/* npydt_arrow_records: rows of an Arrow array converted into records in
 * memory store the bytes npydt_arrow_write_array writes, in pieces of any
 * size, with its errors (rows named from the row given); a NULL array
 * checks the schema only; rows outside the array are refused. */
#include "arrow_import_test.h"

/* Every fixture the export takes, as one batch: its rows converted in two
 * pieces (one row, then the rest) give the bytes of the file a writer
 * makes of them. */
static void same_as_write_array(const char *name, void *ctx)
{
    (void)ctx;
    npydt_reader *r = test_open_fixture(name);
    const npydt_dtype *dt = test_reader_dtype(r);
    struct ArrowArrayStream s;
    TEST_ERROR(err);
    if (npydt_arrow_stream_open(r, NULL, &s, &err) != NPYDT_OK)
        fail_msg("%s: %s", name, err.message);
    struct ArrowSchema schema;
    struct ArrowArray a;
    assert_int_equal(s.get_schema(&s, &schema), 0);
    assert_int_equal(s.get_next(&s, &a), 0);
    size_t isz = npydt_dtype_itemsize(dt);
    if (!a.release || isz == 0) {   /* no rows, or none of any bytes */
        if (a.release)
            a.release(&a);
        schema.release(&schema);
        s.release(&s);
        npydt_reader_close(r);
        return;
    }
    struct imported im;
    if (import_into(dt, NULL, &schema, &a, NULL, &err, &im) != NPYDT_OK)
        fail_msg("%s: %s", name, err.message);
    size_t n = (size_t)a.length;
    unsigned char *got = malloc(n * isz);
    assert_non_null(got);
    memset(got, 0xAA, n * isz);   /* padding must come out zero */
    int64_t first = n > 1 ? 1 : (int64_t)n;
    if (npydt_arrow_records(dt, &schema, &a, 0, first, 0, NULL, got, &err) != NPYDT_OK ||
        npydt_arrow_records(dt, &schema, &a, first, (int64_t)n - first, 0, NULL,
                            got + (size_t)first * isz, &err) != NPYDT_OK)
        fail_msg("%s: %s", name, err.message);
    for (size_t i = 0; i < n; i++)
        if (memcmp(got + i * isz, test_element_at(im.r, i), isz) != 0)
            fail_msg("%s: row %zu differs from the writer's", name, i);
    free(got);
    imported_free(&im);
    a.release(&a);
    schema.release(&schema);
    s.release(&s);
    npydt_reader_close(r);
}

static void test_arrow_records_store_what_write_array_writes(void **state)
{
    (void)state;
    for_each_arrow_fixture(same_as_write_array, NULL);
}

/* The dtype of a descriptor (a list of fields). */
static npydt_dtype *descr(const char *text)
{
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    if (npydt_header_parse_descr(text, strlen(text), NULL, &dt, &err) != NPYDT_OK)
        fail_msg("%s: %s", text, err.message);
    return dt;
}

/* A column "x" of int32 with a null at row 3 of its 5. */
static const int32_t xs[5] = {1, 2, 3, 4, 5};
static const unsigned char valid_bits[1] = {0x17};   /* rows 0, 1, 2, 4 */

static void column_with_a_null(struct col *root, struct col *x)
{
    col_init(root, "+s", "", 5, 1, NULL, NULL, NULL);
    col_init(x, "i", "x", 5, 2, valid_bits, xs, NULL);
    x->a.null_count = 1;
    col_child(root, x);
}

static void test_arrow_records_name_rows_from_row0(void **state)
{
    (void)state;
    struct col root, x;
    column_with_a_null(&root, &x);
    npydt_dtype *dt = descr("[('x', '<i4')]");
    unsigned char out[5 * 4];   /* '<i4' records, whatever the host's order */
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_records(dt, &root.s, &root.a, 0, 3, 10, NULL, out, &err),
                     NPYDT_OK);
    assert_int_equal(out[8] | out[9] << 8 | out[10] << 16 | (uint32_t)out[11] << 24, 3);
    assert_int_equal(npydt_arrow_records(dt, &root.s, &root.a, 2, 3, 10, NULL, out, &err),
                     NPYDT_E_VALUE);
    assert_string_equal(err.path, "x");
    assert_non_null(strstr(err.message, "row 13: a null"));
    npydt_dtype_free(dt);
}

static void test_arrow_records_without_an_array_check_the_schema(void **state)
{
    (void)state;
    struct col root, x;
    column_with_a_null(&root, &x);
    npydt_dtype *same = descr("[('x', '>i4')]"), *other = descr("[('x', '<f8')]");
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_records(same, &root.s, NULL, 0, 0, 0, NULL, NULL, &err),
                     NPYDT_OK);
    assert_int_equal(npydt_arrow_records(other, &root.s, NULL, 0, 0, 0, NULL, NULL, &err),
                     NPYDT_E_MISMATCH);
    assert_int_equal(npydt_arrow_records(same, &root.s, NULL, 0, 1, 0, NULL, NULL, &err),
                     NPYDT_E_ARG);
    npydt_dtype_free(same);
    npydt_dtype_free(other);
}

static void test_arrow_records_refuse_rows_outside_the_array(void **state)
{
    (void)state;
    struct col root, x;
    column_with_a_null(&root, &x);
    npydt_dtype *dt = descr("[('x', '<i4')]");
    int32_t out[8];
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_records(dt, &root.s, &root.a, 4, 2, 0, NULL, out, &err),
                     NPYDT_E_ARG);
    assert_int_equal(npydt_arrow_records(dt, &root.s, &root.a, -1, 1, 0, NULL, out, &err),
                     NPYDT_E_ARG);
    assert_int_equal(npydt_arrow_records(dt, &root.s, &root.a, 5, 0, 0, NULL, out, &err),
                     NPYDT_OK);
    npydt_dtype_free(dt);
}

/* Records of no bytes still have their values checked: a string longer
 * than U0 is refused, as the writer's import refuses it. */
static void test_arrow_records_of_no_bytes_check_the_values(void **state)
{
    (void)state;
    static const int32_t offsets[2] = {0, 3};
    struct col root, u;
    col_init(&root, "+s", "", 1, 1, NULL, NULL, NULL);
    col_init(&u, "u", "s", 1, 3, NULL, offsets, "abc");
    col_child(&root, &u);
    npydt_dtype *dt = descr("[('s', '<U0')]");
    unsigned char out[1];
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_records(dt, &root.s, &root.a, 0, 1, 0, NULL, out, &err),
                     NPYDT_E_RANGE);
    assert_string_equal(err.path, "s");
    assert_non_null(strstr(err.message, "row 0: 'abc' is longer than U0"));
    npydt_dtype_free(dt);
}

TEST_LIST("arrow_records",
          cmocka_unit_test(test_arrow_records_of_no_bytes_check_the_values),
          cmocka_unit_test(test_arrow_records_store_what_write_array_writes),
          cmocka_unit_test(test_arrow_records_name_rows_from_row0),
          cmocka_unit_test(test_arrow_records_without_an_array_check_the_schema),
          cmocka_unit_test(test_arrow_records_refuse_rows_outside_the_array));

/* The Arrow import: every NumPy-written fixture exported as a stream and
 * imported back into a .npy gives the same dtype and the same bytes, but
 * for what the export mapping drops (listed with the reason); dtypes read
 * from schemas of other producers; allocation failures. */
#include "arrow_import_test.h"

/* Fixtures whose import is not byte for byte the file, and why: the
 * padding's bytes (values_differ 0: the same dtype, the same leaves), or
 * values rounded (1). */
static const struct { const char *name; const char *why; int values_differ; } lossy[] = {
    {"struct_aligned.npy", "padding bytes", 0},
    {"struct_aligned_nested.npy", "padding bytes", 0},
    {"struct_offsets.npy", "padding bytes", 0},
    {"struct_offsets_nested.npy", "padding bytes", 0},
    /* x87 long doubles go as the nearest double, and come back from it */
    {"scalar_f16_be.npy", "f16 as double", 1},
    {"scalar_f16_le.npy", "f16 as double", 1},
    {"shape0d_f16_be.npy", "f16 as double", 1},
    {"scalar_c32_be.npy", "c32 as doubles", 1},
    {"scalar_c32_le.npy", "c32 as doubles", 1},
};

static int lossy_index(const char *name)
{
    for (size_t i = 0; i < sizeof lossy / sizeof lossy[0]; i++)
        if (strcmp(lossy[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Byte offset of element e of a leaf (its repeats in C order). */
static uint64_t leaf_elem(const npydt_leaf *l, uint64_t e)
{
    uint64_t off = l->offset;
    for (uint32_t k = l->nrepeats; k-- > 0;) {
        off += (e % l->repeats[k].count) * l->repeats[k].stride;
        e /= l->repeats[k].count;
    }
    return off;
}

/* The leaves of two records of dtypes a and b (the same leaves, laid out
 * apart) hold the same bytes. */
static void same_leaves(const npydt_dtype *a, const unsigned char *ra, const npydt_dtype *b,
                        const unsigned char *rb, const char *name, uint64_t row)
{
    size_t na, nb;
    const npydt_leaf *la = npydt_dtype_leaves(a, &na), *lb = npydt_dtype_leaves(b, &nb);
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++) {
        assert_int_equal(la[i].count, lb[i].count);
        assert_int_equal(la[i].itemsize, lb[i].itemsize);
        for (uint64_t e = 0; e < la[i].count; e++)
            if (memcmp(ra + leaf_elem(&la[i], e), rb + leaf_elem(&lb[i], e), la[i].itemsize))
                fail_msg("%s: row %llu, leaf %zu, element %llu differs", name,
                         (unsigned long long)row, i, (unsigned long long)e);
    }
}

/* Export fixture name as a stream (batches of batch_rows), import it into
 * a .npy of the dtype its schema reads as, compare. */
static void round_trip(const char *name, uint64_t batch_rows)
{
    npydt_reader *r;
    struct ArrowArrayStream s;
    open_export(name, batch_rows, &r, &s);
    const npydt_dtype *dt = test_reader_dtype(r);
    TEST_ERROR(err);
    struct ArrowSchema schema;
    assert_int_equal(s.get_schema(&s, &schema), 0);
    npydt_dtype *got = dtype_of_schema(&schema, NULL, NULL);
    schema.release(&schema);
    int li = lossy_index(name);
    char want_s[256], got_s[256];
    npydt_dtype_descr(dt, want_s, sizeof want_s);
    npydt_dtype_descr(got, got_s, sizeof got_s);
    if (!npydt_dtype_equal(dt, got))
        fail_msg("%s: dtype %s read back as %s", name, want_s, got_s);
    struct imported im;
    if (import_into(got, &s, NULL, NULL, NULL, &err, &im) != NPYDT_OK)
        fail_msg("%s: %s: %s", name, err.path, err.message);
    s.release(&s);
    const npydt_header *h = npydt_reader_header(r);
    uint64_t n = npydt_header_count(h);
    assert_int_equal(npydt_header_count(npydt_reader_header(im.r)), n);
    size_t isz = npydt_dtype_itemsize(dt);
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *a = test_element_at(r, i), *b = test_element_at(im.r, i);
        if (li < 0) {
            if (memcmp(a, b, isz) != 0)
                fail_msg("%s: row %llu differs", name, (unsigned long long)i);
        } else if (!lossy[li].values_differ) {
            same_leaves(dt, a, got, b, name, i);
        } else {
            /* the same doubles, NaN as NaN */
            double va[2], vb[2];
            assert_int_equal(npydt_read_complex(dt, a, va, &err), NPYDT_OK);
            assert_int_equal(npydt_read_complex(got, b, vb, &err), NPYDT_OK);
            for (int k = 0; k < 2; k++)
                if (!(va[k] == vb[k] || (isnan(va[k]) && isnan(vb[k]))))
                    fail_msg("%s: row %llu: %g read back as %g", name, (unsigned long long)i,
                             va[k], vb[k]);
        }
    }
    imported_free(&im);
    npydt_dtype_free(got);
    npydt_reader_close(r);
}

/* Each fixture in batches of all its rows, then of 2 rows. */
static void round_trips(const char *name, void *ctx)
{
    (void)ctx;
    round_trip(name, 0);
    round_trip(name, 2);
}

static void test_arrow_import_every_fixture_round_trips(void **state)
{
    (void)state;
    for_each_arrow_fixture(round_trips, NULL);
}

/* A struct whose fields leave gaps carries its descriptor, which gives
 * the layout back; a packed one needs none. */
static void test_arrow_import_struct_layout_comes_back_from_metadata(void **state)
{
    (void)state;
    npydt_dtype *gaps = test_parse_literal(
        "[('', '|V2'), ('a', '<i4'), ('', '|V2'), ('b', '|u1'), ('', '|V3')]");
    assert_int_equal(npydt_dtype_nfields(gaps), 2);
    npydt_dtype *packed = test_parse_literal("[('a', '<i4'), ('b', '|u1')]");
    struct ArrowSchema s;
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_schema(gaps, NULL, &s, &err), NPYDT_OK);
    int32_t len;
    assert_non_null(meta_get(s.metadata, "npydt.dtype", &len));
    npydt_dtype *got = dtype_of_schema(&s, NULL, NULL);
    assert_true(npydt_dtype_equal(got, gaps));
    npydt_dtype_free(got);
    s.release(&s);
    assert_int_equal(npydt_arrow_schema(packed, NULL, &s, &err), NPYDT_OK);
    assert_null(s.metadata);
    s.release(&s);
    npydt_dtype_free(gaps);
    npydt_dtype_free(packed);
}

/* The bytes of records that no leaf holds (padding) are zero after an
 * import, batch after batch (the chunk of records is reused), whatever
 * the exported file held there. */
static void test_arrow_import_padding_is_zero_in_every_batch(void **state)
{
    (void)state;
    static const char *const names[] = {"struct_aligned.npy", "struct_offsets_nested.npy"};
    for (size_t f = 0; f < sizeof names / sizeof names[0]; f++)
        for (uint64_t batch_rows = 1; batch_rows <= 2; batch_rows++) {
            npydt_reader *r;
            struct ArrowArrayStream s;
            open_export(names[f], batch_rows, &r, &s);
            const npydt_dtype *dt = test_reader_dtype(r);
            TEST_ERROR(err);
            struct imported im;
            if (import_into(dt, &s, NULL, NULL, NULL, &err, &im) != NPYDT_OK)
                fail_msg("%s: %s", names[f], err.message);
            s.release(&s);
            size_t isz = npydt_dtype_itemsize(dt), nleaves;
            const npydt_leaf *l = npydt_dtype_leaves(test_reader_dtype(im.r), &nleaves);
            unsigned char held[256] = {0};
            assert_true(isz <= sizeof held);
            for (size_t i = 0; i < nleaves; i++)
                for (uint64_t e = 0; e < l[i].count; e++)
                    memset(held + leaf_elem(&l[i], e), 1, l[i].itemsize);
            uint64_t n = npydt_header_count(npydt_reader_header(im.r));
            assert_true(n >= 2);
            for (uint64_t row = 0; row < n; row++) {
                const unsigned char *rec = test_element_at(im.r, row);
                for (size_t b = 0; b < isz; b++)
                    if (!held[b] && rec[b] != 0)
                        fail_msg("%s: row %llu, padding byte %zu is %u", names[f],
                                 (unsigned long long)row, b, rec[b]);
            }
            imported_free(&im);
            npydt_reader_close(r);
        }
}

/* Every allocation of the import fails in turn: NOMEM, nothing left. */
static void test_arrow_import_allocation_failures_leave_nothing(void **state)
{
    (void)state;
    npydt_reader *r = test_open_fixture("struct_subarray_of_struct.npy");
    int done = 0;
    for (long n = 0; !done; n++) {
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        npydt_arrow_import_options o;
        npydt_arrow_import_options_init(&o);
        o.base.allocator = &ta.alloc;
        npydt_arrow_options eo;
        npydt_arrow_options_init(&eo);
        eo.batch_rows = 1;
        struct ArrowArrayStream s;
        TEST_ERROR(err);
        assert_int_equal(npydt_arrow_stream_open(r, &eo, &s, &err), NPYDT_OK);
        struct ArrowSchema schema;
        assert_int_equal(s.get_schema(&s, &schema), 0);
        npydt_dtype *dt = NULL;
        npydt_status st = npydt_arrow_dtype(&schema, NULL, &o, &dt, &err);
        schema.release(&schema);
        if (st == NPYDT_OK) {
            struct imported im;
            st = import_into(dt, &s, NULL, NULL, &o, &err, &im);
            if (st == NPYDT_OK)
                imported_free(&im);
            npydt_dtype_free(dt);
        }
        s.release(&s);
        done = st == NPYDT_OK;
        if (!done)
            assert_int_equal(st, NPYDT_E_NOMEM);
        assert_int_equal(ta.live_blocks, 0);
        assert_true(n < 10000);
    }
    npydt_reader_close(r);
}

TEST_LIST("arrow_import",
          cmocka_unit_test(test_arrow_import_every_fixture_round_trips),
          cmocka_unit_test(test_arrow_import_struct_layout_comes_back_from_metadata),
          cmocka_unit_test(test_arrow_import_padding_is_zero_in_every_batch),
          cmocka_unit_test(test_arrow_import_allocation_failures_leave_nothing));

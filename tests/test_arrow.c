/* The Arrow export's streams: record batches over NumPy-written fixtures,
 * checked value by value against the library's typed readers and against
 * NumPy's values; batch bounds, C order, NaT as null, errors, release
 * semantics and allocation failures. */
#include "arrow_test.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A whole .npy in memory: the header np.save writes for dt and shape
 * (C order), then data (malloc'd; free it). The data is a C array of
 * this host, so every '<' of ts is read as the host's order. */
static unsigned char *npy_buffer(const char *ts, const uint64_t *shape, size_t ndim,
                                 const void *data, size_t nbytes, size_t *len)
{
    char host_ts[128];
    assert_true(strlen(ts) < sizeof host_ts);
    strcpy(host_ts, ts);
    const uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    for (char *c = host_ts; first == 0 && *c; c++)
        if (*c == '<')
            *c = '>';
    ts = host_ts;
    npydt_dtype *dt = ts[0] == '[' ? test_parse_literal(ts) : typestr(ts);
    TEST_ERROR(err);
    size_t h = npydt_header_write(dt, shape, ndim, 0, NULL, 0, &err);
    assert_true(h > 0);
    unsigned char *buf = malloc(h + nbytes + 1);
    assert_non_null(buf);
    assert_int_equal(npydt_header_write(dt, shape, ndim, 0, buf, h, &err), h);
    if (nbytes)
        memcpy(buf + h, data, nbytes);
    npydt_dtype_free(dt);
    *len = h + nbytes;
    return buf;
}

static npydt_reader *open_buffer(const unsigned char *buf, size_t len)
{
    npydt_reader *r = NULL;
    TEST_ERROR(err);
    if (npydt_reader_open_buffer(buf, len, NULL, &r, &err) != NPYDT_OK)
        fail_msg("%s", err.message);
    return r;
}

static void open_stream(npydt_reader *r, const npydt_arrow_options *o,
                        struct ArrowArrayStream *s)
{
    TEST_ERROR(err);
    if (npydt_arrow_stream_open(r, o, s, &err) != NPYDT_OK)
        fail_msg("%s", err.message);
}

/* ---- the structural and value check ------------------------------------ */

static int bit(const void *bits, int64_t i)
{
    return (((const unsigned char *)bits)[i / 8] >> (i % 8)) & 1;
}

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

static int64_t count_nulls(const struct ArrowArray *a)
{
    if (!a->buffers[0])
        return 0;
    int64_t n = 0;
    for (int64_t i = 0; i < a->length; i++)
        n += !bit(a->buffers[0], i);
    return n;
}

/* Check the array element j of column (s, a) against the value of scalar
 * or composite dtype dt at p. */
static void check_value(const npydt_dtype *dt, const unsigned char *p,
                        const struct ArrowSchema *s, const struct ArrowArray *a, int64_t j);

static void check_struct(const npydt_dtype *dt, const unsigned char *p,
                         const struct ArrowSchema *s, const struct ArrowArray *a, int64_t j)
{
    size_t n = npydt_dtype_nfields(dt);
    assert_string_equal(s->format, "+s");
    assert_int_equal(s->n_children, (int64_t)n);
    assert_int_equal(a->n_children, (int64_t)n);
    assert_int_equal(a->n_buffers, 1);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(s->children[i]->name, npydt_dtype_field_name(dt, i));
        assert_int_equal(a->children[i]->length, a->length);
        check_value(npydt_dtype_field_dtype(dt, i), p + npydt_dtype_field_offset(dt, i),
                    s->children[i], a->children[i], j);
    }
}

/* Dimension k of subarray dt: element j of list (s, a) holds the elements
 * at p. */
static void check_lists(const npydt_dtype *dt, size_t k, const unsigned char *p,
                        const struct ArrowSchema *s, const struct ArrowArray *a, int64_t j)
{
    const npydt_dtype *base = npydt_dtype_base(dt);
    if (k == npydt_dtype_ndim(dt)) {
        check_value(base, p, s, a, j);
        return;
    }
    uint64_t d = npydt_dtype_shape(dt)[k], stride = npydt_dtype_itemsize(base);
    for (size_t q = k + 1; q < npydt_dtype_ndim(dt); q++)
        stride *= npydt_dtype_shape(dt)[q];
    char want[32];
    snprintf(want, sizeof want, "+w:%llu", (unsigned long long)d);
    assert_string_equal(s->format, want);
    assert_int_equal(a->n_buffers, 1);
    assert_int_equal(a->children[0]->length, a->length * (int64_t)d);
    for (uint64_t i = 0; i < d; i++)
        check_lists(dt, k + 1, p + i * stride, s->children[0], a->children[0],
                    j * (int64_t)d + (int64_t)i);
}

/* Counts of Arrow's column of format fmt in one count of datetime dt:
 * the ratio of their units' nanoseconds, dt's multiplier included; 1 for
 * the raw count ("l"). */
static int64_t arrow_per_count(const npydt_dtype *dt, const char *fmt)
{
    static const int64_t ns[] = {[NPYDT_UNIT_W] = 604800000000000, [NPYDT_UNIT_D] = 86400000000000,
                                 [NPYDT_UNIT_h] = 3600000000000,   [NPYDT_UNIT_m] = 60000000000,
                                 [NPYDT_UNIT_s] = 1000000000,      [NPYDT_UNIT_ms] = 1000000,
                                 [NPYDT_UNIT_us] = 1000,           [NPYDT_UNIT_ns] = 1};
    if (strcmp(fmt, "l") == 0)
        return 1;
    char u = strcmp(fmt, "tdD") == 0 ? 'D' : fmt[2];
    int64_t to = u == 'D' ? ns[NPYDT_UNIT_D] : u == 's' ? ns[NPYDT_UNIT_s]
               : u == 'm' ? ns[NPYDT_UNIT_ms] : u == 'u' ? ns[NPYDT_UNIT_us] : 1;
    return ns[npydt_dtype_unit(dt)] * npydt_dtype_unit_count(dt) / to;
}

static void check_scalar(const npydt_dtype *dt, const unsigned char *p,
                         const struct ArrowSchema *s, const struct ArrowArray *a, int64_t j)
{
    TEST_ERROR(err);
    char kind = npydt_dtype_kind(dt);
    size_t size = npydt_dtype_itemsize(dt);
    char str[64];
    npydt_dtype_str(dt, str, sizeof str);
    assert_meta(s, "npydt.dtype", str);
    assert_int_equal(a->null_count, count_nulls(a));
    const unsigned char *data = a->n_buffers > 1 ? a->buffers[1] : NULL;
    switch (kind) {
    case 'b': {
        int v;
        assert_int_equal(npydt_read_bool(dt, p, &v, &err), NPYDT_OK);
        assert_int_equal(bit(data, j), v);
        break;
    }
    case 'i': {
        int64_t v, got = 0;
        assert_int_equal(npydt_read_i64(dt, p, &v, &err), NPYDT_OK);
        if (size == 1) got = ((const int8_t *)data)[j];
        if (size == 2) { int16_t x; memcpy(&x, data + j * 2, 2); got = x; }
        if (size == 4) { int32_t x; memcpy(&x, data + j * 4, 4); got = x; }
        if (size == 8) memcpy(&got, data + j * 8, 8);
        assert_true(got == v);
        break;
    }
    case 'u': {
        uint64_t v, got = 0;
        assert_int_equal(npydt_read_u64(dt, p, &v, &err), NPYDT_OK);
        if (size == 1) got = data[j];
        if (size == 2) { uint16_t x; memcpy(&x, data + j * 2, 2); got = x; }
        if (size == 4) { uint32_t x; memcpy(&x, data + j * 4, 4); got = x; }
        if (size == 8) memcpy(&got, data + j * 8, 8);
        assert_true(got == v);
        break;
    }
    case 'f': {
        double v, got;
        assert_int_equal(npydt_read_double(dt, p, &v, &err), NPYDT_OK);
        if (size == 2) { uint16_t x; memcpy(&x, data + j * 2, 2); got = half_to_double(x); }
        else if (size == 4) { float x; memcpy(&x, data + j * 4, 4); got = x; }
        else memcpy(&got, data + j * 8, 8);
        assert_true((isnan(v) && isnan(got)) || memcmp(&v, &got, sizeof v) == 0);
        break;
    }
    case 'c': {
        double v[2], got[2];
        assert_int_equal(npydt_read_complex(dt, p, v, &err), NPYDT_OK);
        assert_string_equal(s->format, "+w:2");
        const struct ArrowArray *c = a->children[0];
        assert_int_equal(c->length, 2 * a->length);
        const unsigned char *cd = c->buffers[1];
        for (int k = 0; k < 2; k++) {
            if (size == 8) { float x; memcpy(&x, cd + (2 * j + k) * 4, 4); got[k] = x; }
            else memcpy(&got[k], cd + (2 * j + k) * 8, 8);
            assert_true((isnan(v[k]) && isnan(got[k])) || v[k] == got[k]);
        }
        break;
    }
    case 'S':
    case 'V':
        if (strcmp(s->format, "z") == 0) {
            const void *b;
            size_t len;
            int32_t o[2];
            assert_int_equal(npydt_read_bytes(dt, p, &b, &len, &err), NPYDT_OK);
            memcpy(o, (const int32_t *)a->buffers[1] + j, 8);
            assert_int_equal(o[1] - o[0], (int32_t)len);
            assert_memory_equal((const char *)a->buffers[2] + o[0], b, len);
        } else if (size) {
            assert_memory_equal(data + j * (int64_t)size, p, size);
        }
        break;
    case 'U': {
        char buf[4096];
        size_t len;
        int32_t o[2];
        assert_int_equal(npydt_read_unicode(dt, p, buf, sizeof buf, &len, &err), NPYDT_OK);
        assert_string_equal(s->format, "u");
        memcpy(o, (const int32_t *)a->buffers[1] + j, 8);
        assert_int_equal(o[1] - o[0], (int32_t)len);
        if (len)
            assert_memory_equal((const char *)a->buffers[2] + o[0], buf, len);
        break;
    }
    case 'M':
    case 'm': {
        npydt_datetime v;
        assert_int_equal(npydt_read_datetime(dt, p, &v, &err), NPYDT_OK);
        assert_true(s->flags & ARROW_FLAG_NULLABLE);
        int valid = a->buffers[0] ? bit(a->buffers[0], j) : 1;
        assert_int_equal(valid, !v.is_nat);
        if (v.is_nat)
            break;
        int64_t got;
        if (strcmp(s->format, "tdD") == 0) {
            int32_t d;
            memcpy(&d, data + j * 4, 4);
            got = d;
        } else {
            memcpy(&got, data + j * 8, 8);
        }
        assert_true(got == v.count * arrow_per_count(dt, s->format));
        break;
    }
    default:
        fail_msg("kind %c", kind);
    }
}

static void check_value(const npydt_dtype *dt, const unsigned char *p,
                        const struct ArrowSchema *s, const struct ArrowArray *a, int64_t j)
{
    assert_non_null(a->release);
    assert_int_equal(a->offset, 0);
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_STRUCT:
        check_struct(dt, p, s, a, j);
        break;
    case NPYDT_SUBARRAY:
        check_lists(dt, 0, p, s, a, j);
        break;
    case NPYDT_SCALAR:
        check_scalar(dt, p, s, a, j);
        break;
    }
}

/* Read the whole stream over r (with options o) and check every row of
 * every batch against the typed readers on r's bytes; returns the
 * batches. */
static size_t check_stream(npydt_reader *r, const npydt_arrow_options *o)
{
    const npydt_header *h = npydt_reader_header(r);
    const npydt_dtype *dt = npydt_header_dtype(h);
    const unsigned char *bytes = npydt_reader_bytes(r);
    assert_non_null(bytes);
    struct ArrowArrayStream st;
    struct ArrowSchema s;
    open_stream(r, o, &st);
    assert_int_equal(st.get_schema(&st, &s), 0);
    assert_string_equal(s.format, "+s");
    uint64_t row = 0;
    size_t batches = 0;
    for (;;) {
        struct ArrowArray a;
        int rc = st.get_next(&st, &a);
        if (rc != 0)
            fail_msg("get_next: %d %s", rc, st.get_last_error(&st));
        if (!a.release)
            break;
        batches++;
        assert_true(a.length > 0);
        arrow_validate(&s, &a);
        for (int64_t j = 0; j < a.length; j++, row++) {
            uint64_t off;
            TEST_ERROR(err);
            assert_int_equal(npydt_element_offset_flat(h, row, &off, &err), NPYDT_OK);
            if (npydt_dtype_get_class(dt) == NPYDT_STRUCT) {
                check_value(dt, bytes + off, &s, &a, j);
            } else {
                assert_int_equal(s.n_children, 1);
                assert_string_equal(s.children[0]->name, "value");
                check_value(dt, bytes + off, s.children[0], a.children[0], j);
            }
        }
        a.release(&a);
        assert_null(a.release);
    }
    assert_int_equal(row, npydt_header_count(h));
    s.release(&s);
    st.release(&st);
    assert_null(st.release);
    return batches;
}

/* ---- streams ----------------------------------------------------------------- */

/* Fixture name's stream in one batch, then in batches of 2 rows. */
static void matches_reader(const char *name, void *ctx)
{
    (void)ctx;
    npydt_arrow_options small;
    npydt_arrow_options_init(&small);
    small.batch_rows = 2;
    npydt_reader *r = test_open_fixture(name);
    check_stream(r, NULL);
    check_stream(r, &small);
    npydt_reader_close(r);
}

static void test_arrow_stream_every_fixture_matches_readers(void **state)
{
    (void)state;
    for_each_arrow_fixture(matches_reader, NULL);
}

static void test_arrow_stream_refusals_name_the_reason(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof arrow_refused / sizeof arrow_refused[0]; i++) {
        TEST_ERROR(err);
        npydt_reader_options ro;
        npydt_reader_options_init(&ro);
        ro.in_memory = 1;
        npydt_reader *r = NULL;
        npydt_status st = npydt_reader_open_path(test_fixture(arrow_refused[i].name), &ro, &r, &err);
        if (st != NPYDT_OK) {
            assert_int_equal(st, arrow_refused[i].code);
            continue;
        }
        struct ArrowArrayStream s;
        st = npydt_arrow_stream_open(r, NULL, &s, &err);
        if (arrow_refused[i].rc == 0) {
            assert_int_equal(st, arrow_refused[i].code);
            assert_null(s.release);
        } else {
            struct ArrowArray a;
            assert_int_equal(st, NPYDT_OK);
            assert_int_equal(s.get_next(&s, &a), arrow_refused[i].rc);
            assert_null(a.release);
            assert_non_null(strstr(s.get_last_error(&s), "record "));
            s.release(&s);
        }
        npydt_reader_close(r);
    }
}

/* struct_nested_subarray.npy: x is ('<f8', (2,)) in a (3,) subarray, and
 * NumPy's values are [[0, 1], [2, 3], [4, 5]] then their negatives. */
static void test_arrow_stream_nested_subarray_values(void **state)
{
    (void)state;
    npydt_reader *r = test_open_fixture("struct_nested_subarray.npy");
    struct ArrowArrayStream st;
    struct ArrowArray a;
    open_stream(r, NULL, &st);
    assert_int_equal(st.get_next(&st, &a), 0);
    assert_int_equal(a.length, 2);
    const struct ArrowArray *x = a.children[0], *in = x->children[0], *v = in->children[0];
    assert_int_equal(in->length, 6);
    assert_int_equal(v->length, 12);
    const double *d = v->buffers[1];
    for (int i = 0; i < 6; i++) {
        assert_true(d[i] == i);
        assert_true(d[6 + i] == -i);
    }
    assert_true(signbit(d[6]));
    a.release(&a);
    st.release(&st);
    npydt_reader_close(r);
}

/* fortran_struct.npy: a (3, 2) Fortran-order array of (a <i2, b S2); NumPy
 * gives a, in C order, as these. */
static void test_arrow_stream_fortran_order_rows_in_c_order(void **state)
{
    (void)state;
    static const int16_t want[] = {14155, -26981, -6778, 19709, -25359, -29054};
    npydt_reader *r = test_open_fixture("fortran_struct.npy");
    struct ArrowArrayStream st;
    struct ArrowArray a;
    open_stream(r, NULL, &st);
    assert_int_equal(st.get_next(&st, &a), 0);
    assert_int_equal(a.length, 6);
    assert_memory_equal(a.children[0]->buffers[1], want, sizeof want);
    assert_memory_equal((const char *)a.children[1]->buffers[1] + 2, ";r", 2);
    a.release(&a);
    assert_int_equal(st.get_next(&st, &a), 0);
    assert_null(a.release);
    st.release(&st);
    npydt_reader_close(r);
}

/* scalar_U3_be.npy: NumPy's strings, big-endian UCS-4, as UTF-8. */
static void test_arrow_stream_unicode_as_utf8(void **state)
{
    (void)state;
    static const char *want[] = {"\xc3\xa9t\xc3\xa9", "\xe6\xbc\xa2\xe5\xad\x97",
                                 "\xf0\x9f\x98\x80!", "", "a\0b", "\"\\\n"};
    static const int32_t lens[] = {5, 6, 5, 0, 3, 3};
    npydt_reader *r = test_open_fixture("scalar_U3_be.npy");
    struct ArrowArrayStream st;
    struct ArrowArray a;
    open_stream(r, NULL, &st);
    assert_int_equal(st.get_next(&st, &a), 0);
    const struct ArrowArray *c = a.children[0];
    assert_int_equal(c->length, 6);
    const int32_t *o = c->buffers[1];
    for (int i = 0; i < 6; i++) {
        assert_int_equal(o[i + 1] - o[i], lens[i]);
        assert_memory_equal((const char *)c->buffers[2] + o[i], want[i], (size_t)lens[i]);
    }
    a.release(&a);
    st.release(&st);
    npydt_reader_close(r);
}

/* scalar_M8_ns.npy ends in NaT: a null, counted, its bit clear. */
static void test_arrow_stream_nat_is_null(void **state)
{
    (void)state;
    npydt_reader *r = test_open_fixture("scalar_M8_ns.npy");
    const npydt_header *h = npydt_reader_header(r);
    uint64_t n = npydt_header_count(h);
    struct ArrowArrayStream st;
    struct ArrowArray a;
    open_stream(r, NULL, &st);
    assert_int_equal(st.get_next(&st, &a), 0);
    const struct ArrowArray *c = a.children[0];
    assert_int_equal(c->length, (int64_t)n);
    assert_int_equal(c->null_count, 1);
    assert_non_null(c->buffers[0]);
    assert_int_equal(bit(c->buffers[0], (int64_t)n - 1), 0);
    assert_int_equal(bit(c->buffers[0], 0), 1);
    a.release(&a);
    st.release(&st);
    npydt_reader_close(r);
}

static void test_arrow_stream_batches_bounded_last_partial(void **state)
{
    (void)state;
    int32_t v[10];
    for (int i = 0; i < 10; i++)
        v[i] = i * 7;
    uint64_t shape[1] = {10};
    size_t len;
    unsigned char *buf = npy_buffer("<i4", shape, 1, v, sizeof v, &len);
    npydt_reader *r = open_buffer(buf, len);
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    o.batch_rows = 3;
    struct ArrowArrayStream st;
    open_stream(r, &o, &st);
    static const int64_t sizes[] = {3, 3, 3, 1};
    int next = 0;
    for (int b = 0; b < 4; b++) {
        struct ArrowArray a;
        assert_int_equal(st.get_next(&st, &a), 0);
        assert_int_equal(a.length, sizes[b]);
        const int32_t *d = a.children[0]->buffers[1];
        for (int64_t i = 0; i < a.length; i++)
            assert_int_equal(d[i], 7 * next++);
        a.release(&a);
    }
    struct ArrowArray end;
    assert_int_equal(st.get_next(&st, &end), 0);
    assert_null(end.release);
    assert_int_equal(check_stream(r, &o), 4);
    /* a byte budget: 40 bytes of buffers hold one row of 21 at most */
    o.batch_rows = 0;
    o.batch_bytes = 50;
    assert_int_equal(check_stream(r, &o), 5);
    st.release(&st);
    npydt_reader_close(r);
    free(buf);
}

/* fortran_3d.npy is np.arange(24, dtype='>f8').reshape(2, 3, 4) in Fortran
 * order: read in chunks (no mapping, 16-byte chunks) and in place, the
 * rows come in C order, 0 to 23, as native doubles. */
static void test_arrow_stream_chunked_reader_gives_c_order(void **state)
{
    (void)state;
    npydt_reader_options ro;
    npydt_reader_options_init(&ro);
    ro.no_mmap = 1;
    ro.chunk_bytes = 16;
    ro.window_bytes = 40;
    npydt_reader *r = NULL;
    TEST_ERROR(err);
    assert_int_equal(npydt_reader_open_path(test_fixture("fortran_3d.npy"), &ro, &r, &err),
                     NPYDT_OK);
    assert_null(npydt_reader_bytes(r));
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    o.batch_rows = 7;
    struct ArrowArrayStream st;
    open_stream(r, &o, &st);
    int next = 0;
    for (;;) {
        struct ArrowArray a;
        assert_int_equal(st.get_next(&st, &a), 0);
        if (!a.release)
            break;
        assert_true(a.length <= 7);
        const double *d = a.children[0]->buffers[1];
        for (int64_t i = 0; i < a.length; i++)
            assert_true(d[i] == next++);
        a.release(&a);
    }
    assert_int_equal(next, 24);
    st.release(&st);
    npydt_reader_close(r);
}

static void test_arrow_stream_two_streams_keep_their_places(void **state)
{
    (void)state;
    int64_t v[5] = {1, 2, 3, 4, 5};
    uint64_t shape[1] = {5};
    size_t len;
    unsigned char *buf = npy_buffer("<i8", shape, 1, v, sizeof v, &len);
    npydt_reader *r = open_buffer(buf, len);
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    o.batch_rows = 2;
    struct ArrowArrayStream s1, s2;
    struct ArrowArray a;
    open_stream(r, &o, &s1);
    assert_int_equal(s1.get_next(&s1, &a), 0);
    a.release(&a);
    open_stream(r, &o, &s2);
    assert_int_equal(s2.get_next(&s2, &a), 0);
    assert_int_equal(((const int64_t *)a.children[0]->buffers[1])[0], 1);
    a.release(&a);
    assert_int_equal(s1.get_next(&s1, &a), 0);
    assert_int_equal(((const int64_t *)a.children[0]->buffers[1])[0], 3);
    a.release(&a);
    s1.release(&s1);
    s2.release(&s2);
    npydt_reader_close(r);
    free(buf);
}

/* The first batch of the records 'A', U+D800, 'B' of descr (a U1 value
 * each) is refused: the stream's error into *err, its line of text into
 * text. */
static void surrogate_batch_fails(const char *descr, npydt_error *err, char *text, size_t size)
{
    uint32_t v[3] = {0x41, 0xD800, 0x42};
    uint64_t shape[1] = {3};
    size_t len;
    unsigned char *buf = npy_buffer(descr, shape, 1, v, sizeof v, &len);
    npydt_reader *r = open_buffer(buf, len);
    struct ArrowArrayStream st;
    struct ArrowArray a;
    open_stream(r, NULL, &st);
    assert_int_equal(st.get_next(&st, &a), EINVAL);
    assert_null(a.release);
    assert_int_equal(npydt_arrow_stream_error(&st, err), NPYDT_OK);
    snprintf(text, size, "%s", st.get_last_error(&st));
    st.release(&st);
    npydt_reader_close(r);
    free(buf);
}

static void test_arrow_stream_invalid_code_point_names_record_and_field(void **state)
{
    (void)state;
    TEST_ERROR(err);
    char text[600];
    surrogate_batch_fails("[('name', '<U1')]", &err, text, sizeof text);
    assert_string_equal(text, "field name: record 1: code point U+D800 cannot be UTF-8 text");
}

/* The error's path names a field inside a struct; its message says what
 * is wrong without naming the field again, and the stream's one line of
 * text puts the two together. */
static void test_arrow_stream_struct_field_error_names_the_field_once(void **state)
{
    (void)state;
    TEST_ERROR(err);
    char text[600];
    surrogate_batch_fails("[('a', [('name', '<U1')])]", &err, text, sizeof text);
    assert_int_equal(err.code, NPYDT_E_ENCODING);
    assert_string_equal(err.path, "a.name");
    assert_string_equal(err.message, "record 1: code point U+D800 cannot be UTF-8 text");
    assert_string_equal(text, "field a.name: record 1: code point U+D800 cannot be UTF-8 text");
}

static void test_arrow_stream_moved_child_array_outlives_batch(void **state)
{
    (void)state;
    npydt_reader *r = test_open_fixture("struct_nested_subarray.npy");
    struct ArrowArrayStream st;
    struct ArrowArray a, moved;
    open_stream(r, NULL, &st);
    assert_int_equal(st.get_next(&st, &a), 0);
    moved = *a.children[0];
    a.children[0]->release = NULL;
    a.release(&a);
    st.release(&st);
    npydt_reader_close(r);
    /* the batch owns its buffers: it outlives the stream and the reader */
    assert_true(((const double *)moved.children[0]->children[0]->buffers[1])[5] == 5.0);
    moved.release(&moved);
    assert_null(moved.release);
}

/* Every allocation of a schema, a stream and its batches fails in turn:
 * the error is NOMEM and nothing is left allocated. */
static void test_arrow_allocation_failures_leave_nothing(void **state)
{
    (void)state;
    npydt_reader *r = test_open_fixture("struct_subarray_of_struct.npy");
    const npydt_dtype *dt = npydt_header_dtype(npydt_reader_header(r));
    int done = 0;
    for (long n = 0; !done; n++) {
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        npydt_arrow_options o;
        npydt_arrow_options_init(&o);
        o.base.allocator = &ta.alloc;
        o.batch_rows = 1;
        TEST_ERROR(err);
        struct ArrowSchema s;
        npydt_status st = npydt_arrow_schema(dt, &o, &s, &err);
        if (st == NPYDT_OK) {
            s.release(&s);
            struct ArrowArrayStream as;
            st = npydt_arrow_stream_open(r, &o, &as, &err);
            if (st == NPYDT_OK) {
                int rc = 0;
                struct ArrowArray a;
                do {
                    rc = as.get_next(&as, &a);
                    if (rc == 0 && a.release)
                        a.release(&a);
                } while (rc == 0 && a.release);
                if (rc == 0) {
                    rc = as.get_schema(&as, &s);
                    if (rc == 0)
                        s.release(&s);
                }
                as.release(&as);
                done = rc == 0;
                if (rc)
                    assert_int_equal(rc, ENOMEM);
            } else {
                assert_int_equal(st, NPYDT_E_NOMEM);
            }
        } else {
            assert_int_equal(st, NPYDT_E_NOMEM);
            assert_null(s.release);
        }
        assert_int_equal(ta.live_blocks, 0);
        assert_true(n < 10000);
    }
    npydt_reader_close(r);
}

TEST_LIST("arrow",
          cmocka_unit_test(test_arrow_stream_every_fixture_matches_readers),
          cmocka_unit_test(test_arrow_stream_refusals_name_the_reason),
          cmocka_unit_test(test_arrow_stream_nested_subarray_values),
          cmocka_unit_test(test_arrow_stream_fortran_order_rows_in_c_order),
          cmocka_unit_test(test_arrow_stream_unicode_as_utf8),
          cmocka_unit_test(test_arrow_stream_nat_is_null),
          cmocka_unit_test(test_arrow_stream_batches_bounded_last_partial),
          cmocka_unit_test(test_arrow_stream_chunked_reader_gives_c_order),
          cmocka_unit_test(test_arrow_stream_two_streams_keep_their_places),
          cmocka_unit_test(test_arrow_stream_invalid_code_point_names_record_and_field),
          cmocka_unit_test(test_arrow_stream_struct_field_error_names_the_field_once),
          cmocka_unit_test(test_arrow_stream_moved_child_array_outlives_batch),
          cmocka_unit_test(test_arrow_allocation_failures_leave_nothing));

/* A call that succeeds writes success into its npydt_error: code NPYDT_OK,
 * offset NPYDT_NO_OFFSET, empty path and message, whatever the struct held
 * before. Every public call that takes an npydt_error, each from a
 * poisoned struct. */
#include "test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void assert_success_written(const npydt_error *err)
{
    assert_int_equal(err->code, NPYDT_OK);
    assert_true(err->offset == NPYDT_NO_OFFSET);
    assert_string_equal(err->path, "");
    assert_string_equal(err->message, "");
}

/* Poison *errp, make the call, and check that it succeeded and said so. */
#define assert_ok_written(errp, call)                                                \
    do {                                                                             \
        test_poison_error(errp);                                                     \
        assert_int_equal((call), NPYDT_OK);                                          \
        assert_success_written(errp);                                                \
    } while (0)

static const char *npz_path(const char *name)
{
    static char path[1024];
    const char *dir = getenv("FIXTURES_NPZ");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fixtures_npz", name);
    return path;
}

static void test_error_success_parse_calls_write_ok(void **state)
{
    (void)state;
    npydt_error err;
    npydt_dtype *dt;
    assert_ok_written(&err, npydt_header_parse_descr("'<f8'", 5, NULL, &dt, &err));
    npydt_dtype_free(dt);
    assert_ok_written(&err, npydt_dtype_parse_typestr("f8", 2, NULL, &dt, &err));
    const char *path = test_fixture("fortran_2d.npy");
    size_t len;
    unsigned char *file = test_read_file(path, &len);
    npydt_header *h;
    uint64_t total;
    assert_ok_written(&err, npydt_header_size(file, 12, NULL, &total, &err));
    assert_ok_written(&err, npydt_header_parse(file, len, NULL, &h, &err));
    assert_ok_written(&err, npydt_header_check_data(h, 24, &err));
    npydt_header_free(h);
    assert_ok_written(&err, npydt_parse_buffer(file, len, NULL, &h, &err));
    npydt_header_free(h);
    assert_ok_written(&err, npydt_parse_path(path, NULL, &h, &err));
    npydt_header_free(h);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_ok_written(&err, npydt_parse_fd(fd, NULL, &h, &err));
    npydt_header_free(h);
    close(fd);
    const uint64_t shape[1] = {3};
    unsigned char hdr[128];
    test_poison_error(&err);
    assert_true(npydt_header_write(dt, shape, 1, 0, hdr, sizeof hdr, &err) > 0);
    assert_success_written(&err);
    npydt_dtype_free(dt);
    free(file);
}

static void test_error_success_in_memory_reader_calls_write_ok(void **state)
{
    (void)state;
    npydt_error err;
    const char *path = test_fixture("fortran_2d.npy");
    size_t len;
    unsigned char *bytes = test_read_file(path, &len);
    npydt_reader_options o;
    npydt_reader_options_init(&o);
    o.in_memory = 1;
    npydt_reader *r;
    assert_ok_written(&err, npydt_reader_open_path(path, &o, &r, &err));
    const npydt_header *h = npydt_reader_header(r);
    const uint64_t index[2] = {1, 2};
    uint64_t off;
    assert_ok_written(&err, npydt_element_offset(h, index, 2, &off, &err));
    assert_ok_written(&err, npydt_element_offset_flat(h, 4, &off, &err));
    assert_ok_written(&err, npydt_reader_sync(r, &err));   /* nothing to flush */
    npydt_reader_close(r);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_ok_written(&err, npydt_reader_open_fd(fd, &o, &r, &err));
    npydt_reader_close(r);
    close(fd);
    /* a deflated member inflated whole */
    npydt_npz *z;
    assert_int_equal(npydt_npz_open_path(npz_path("savez_compressed.npz"), NULL, &z, &err),
                     NPYDT_OK);
    assert_ok_written(&err, npydt_reader_open_member(z, 0, &o, &r, &err));
    npydt_reader_close(r);
    npydt_npz_close(z);
    /* a writable mapping of a copy, for npydt_reader_sync */
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    assert_int_equal(fwrite(bytes, 1, len, tmp), len);
    fflush(tmp);
    o.writable = 1;
    assert_ok_written(&err, npydt_reader_open_fd(fileno(tmp), &o, &r, &err));
    assert_ok_written(&err, npydt_reader_sync(r, &err));
    npydt_reader_close(r);
    fclose(tmp);
    free(bytes);
}

static void test_error_success_field_readers_and_writers_write_ok(void **state)
{
    (void)state;
    npydt_error err;
    npydt_dtype *dt = test_parse_literal(
        "[('i', '<i8'), ('c', '<c16'), ('s', 'S5'), ('u', '<U3'), ('t', '<M8[s]'),"
        " ('nul\\x00', [('x', '<f8')])]");
    unsigned char rec[128];
    memset(rec, 0, sizeof rec);
    assert_true(npydt_dtype_itemsize(dt) <= sizeof rec);
    uint64_t oi, oc, os, ou, ot, ox;
    const npydt_dtype *fi, *fc, *fs, *fu, *ft, *fx;
    assert_ok_written(&err, npydt_field_lookup(dt, "i", &oi, &fi, &err));
    assert_ok_written(&err, npydt_field_lookup(dt, "c", &oc, &fc, &err));
    assert_ok_written(&err, npydt_field_lookup(dt, "s", &os, &fs, &err));
    assert_ok_written(&err, npydt_field_lookup(dt, "u", &ou, &fu, &err));
    assert_ok_written(&err, npydt_field_lookup(dt, "t", &ot, &ft, &err));
    assert_ok_written(&err, npydt_field_lookup_len(dt, "nul\0.x", 6, &ox, &fx, &err));
    const double c[2] = {1, 2};
    const npydt_datetime t = {5, NPYDT_UNIT_s, 1, 0};
    assert_ok_written(&err, npydt_write_i64(fi, rec + oi, -3, &err));
    assert_ok_written(&err, npydt_write_u64(fi, rec + oi, 3, &err));
    assert_ok_written(&err, npydt_write_double(fi, rec + oi, 4.0, &err));
    assert_ok_written(&err, npydt_write_bool(fi, rec + oi, 1, &err));
    assert_ok_written(&err, npydt_write_complex(fc, rec + oc, c, &err));
    assert_ok_written(&err, npydt_write_bytes(fs, rec + os, "ab", 2, &err));
    assert_ok_written(&err, npydt_write_unicode(fu, rec + ou, "xy", 2, &err));
    assert_ok_written(&err, npydt_write_datetime(ft, rec + ot, &t, &err));
    int64_t i;
    uint64_t u;
    double d, z[2];
    int b;
    const void *bytes;
    size_t len;
    char text[16];
    npydt_datetime got;
    assert_ok_written(&err, npydt_read_i64(fi, rec + oi, &i, &err));
    assert_ok_written(&err, npydt_read_u64(fi, rec + oi, &u, &err));
    assert_ok_written(&err, npydt_read_double(fi, rec + oi, &d, &err));
    assert_ok_written(&err, npydt_read_bool(fi, rec + oi, &b, &err));
    assert_ok_written(&err, npydt_read_complex(fc, rec + oc, z, &err));
    assert_ok_written(&err, npydt_read_bytes(fs, rec + os, &bytes, &len, &err));
    assert_ok_written(&err, npydt_read_unicode(fu, rec + ou, text, sizeof text, &len, &err));
    assert_ok_written(&err, npydt_read_datetime(ft, rec + ot, &got, &err));
    char when[NPYDT_DATETIME_TEXT_MAX + 1];
    assert_ok_written(&err, npydt_datetime_text(&got, when, sizeof when, &len, &err));
    int64_t secs;
    int32_t nanos;
    assert_ok_written(&err, npydt_datetime_to_unix(&got, &secs, &nanos, &err));
    npydt_dtype_free(dt);
}

static void test_error_success_gather_scatter_and_swap_write_ok(void **state)
{
    (void)state;
    npydt_error err;
    npydt_dtype *dt = test_parse_literal("[('a', '>i4'), ('b', '<f8')]");
    unsigned char recs[2 * 12];
    memset(recs, 0, sizeof recs);
    uint64_t off;
    const npydt_dtype *f;
    assert_int_equal(npydt_field_lookup(dt, "b", &off, &f, &err), NPYDT_OK);
    double col[2] = {1, 2};
    assert_ok_written(&err, npydt_scatter(recs, 12, 2, f, off, NPYDT_AS_DOUBLE, col, &err));
    assert_ok_written(&err, npydt_gather(recs, 12, 2, f, off, NPYDT_AS_DOUBLE, col, &err));
    npydt_swap_plan *plan;
    assert_ok_written(&err, npydt_swap_plan_new(dt, NULL, &plan, &err));
    assert_ok_written(&err, npydt_swap(plan, NPYDT_ORDER_SWAP, recs, recs, 2, &err));
    npydt_swap_plan_free(plan);
    npydt_dtype *swapped;
    assert_ok_written(&err, npydt_dtype_newbyteorder(dt, NPYDT_ORDER_SWAP, NULL, &swapped, &err));
    npydt_dtype_free(swapped);
    npydt_dtype_free(dt);
}

static void test_error_success_archive_calls_write_ok(void **state)
{
    (void)state;
    npydt_error err;
    const char *path = npz_path("savez.npz");
    size_t len;
    unsigned char *bytes = test_read_file(path, &len);
    npydt_npz *z;
    assert_ok_written(&err, npydt_npz_open_buffer(bytes, len, NULL, &z, &err));
    size_t index;
    const char *name = npydt_npz_member_at(z, 0)->name;
    assert_ok_written(&err, npydt_npz_find(z, name, &index, &err));
    const void *data;
    uint64_t dlen;
    assert_ok_written(&err, npydt_npz_member_data(z, 0, &data, &dlen, &err));
    npydt_npz_close(z);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_ok_written(&err, npydt_npz_open_fd(fd, NULL, &z, &err));
    npydt_npz_close(z);
    close(fd);
    assert_ok_written(&err, npydt_npz_open_path(npz_path("savez_compressed.npz"), NULL, &z,
                                                &err));
    npydt_header *h;
    assert_ok_written(&err, npydt_npz_member_header(z, 0, &h, &err));
    npydt_header_free(h);
    assert_ok_written(&err, npydt_npz_member_verify(z, 0, &err));
    npydt_npz_stream *s;
    assert_ok_written(&err, npydt_npz_stream_open(z, 0, &s, &err));
    unsigned char buf[16];
    size_t got;
    assert_ok_written(&err, npydt_npz_stream_read(s, buf, sizeof buf, &got, &err));
    const void *chunk;
    assert_ok_written(&err, npydt_npz_stream_next(s, &chunk, &got, &err));
    npydt_npz_stream_close(s);
    npydt_npz_close(z);
    free(bytes);
}

static int sink_write(void *ctx, const void *buf, size_t len)
{
    (void)buf;
    *(size_t *)ctx += len;
    return 0;
}

static void test_error_success_archive_writer_calls_write_ok(void **state)
{
    (void)state;
    npydt_error err;
    size_t written = 0;
    const npydt_npz_sink sink = {sink_write, NULL, &written};
    npydt_npz_writer *w;
    assert_ok_written(&err, npydt_npz_writer_new(&sink, NULL, &w, &err));
    assert_ok_written(&err, npydt_npz_writer_begin(w, "a.npy", NPYDT_NPZ_DEFLATED, &err));
    assert_ok_written(&err, npydt_npz_writer_write(w, "abc", 3, &err));
    assert_ok_written(&err, npydt_npz_writer_end(w, &err));
    /* a member written through a record writer */
    npydt_dtype *dt = test_parse_literal("'<i4'");
    const uint64_t shape[1] = {1};
    npydt_writer *rw;
    assert_ok_written(&err, npydt_writer_create_member(w, "b", NPYDT_NPZ_STORED, dt, shape, 1,
                                                       NULL, &rw, &err));
    const int32_t v = 7;
    assert_ok_written(&err, npydt_writer_write(rw, &v, 1, &err));
    assert_ok_written(&err, npydt_writer_close(rw, &err));
    uint64_t size;
    assert_ok_written(&err, npydt_npz_writer_finish(w, &size, &err));
    npydt_npz_writer_free(w);
    npydt_dtype_free(dt);
}

static void test_error_success_reader_calls_write_ok(void **state)
{
    (void)state;
    npydt_error err;
    const char *path = test_fixture("fortran_2d.npy");
    size_t len;
    unsigned char *bytes = test_read_file(path, &len);
    npydt_reader *r;
    const void *chunk;
    size_t clen;
    uint64_t n;
    assert_ok_written(&err, npydt_reader_open_path(path, NULL, &r, &err));
    assert_ok_written(&err, npydt_reader_next_chunk(r, &chunk, &clen, &err));
    assert_ok_written(&err, npydt_reader_rewind(r, &err));
    assert_ok_written(&err, npydt_reader_next_c(r, 10, &chunk, &n, &err));
    int64_t i64;
    uint64_t u64;
    double d, cz[2], col[6];
    int b;
    char text[8];
    size_t tlen;
    assert_ok_written(&err, npydt_reader_get_i64(r, "", 5, &i64, &err));
    assert_ok_written(&err, npydt_reader_get_u64(r, "", 5, &u64, &err));
    assert_ok_written(&err, npydt_reader_get_double(r, "", 5, &d, &err));
    assert_ok_written(&err, npydt_reader_get_complex(r, "", 5, cz, &err));
    assert_ok_written(&err, npydt_reader_get_bool(r, "", 5, &b, &err));
    assert_ok_written(&err, npydt_reader_gather(r, "", NPYDT_AS_DOUBLE, col, sizeof col, &err));
    npydt_reader_close(r);
    npydt_npz *zs;
    assert_int_equal(npydt_npz_open_path(npz_path("savez.npz"), NULL, &zs, &err), NPYDT_OK);
    size_t m;
    assert_int_equal(npydt_npz_find(zs, "records", &m, &err), NPYDT_OK);
    assert_ok_written(&err, npydt_reader_open_member(zs, m, NULL, &r, &err));
    assert_ok_written(&err, npydt_reader_get_bytes(r, "name", 0, text, sizeof text, &tlen, &err));
    npydt_reader_close(r);
    assert_int_equal(npydt_npz_find(zs, "text", &m, &err), NPYDT_OK);
    assert_ok_written(&err, npydt_reader_open_member(zs, m, NULL, &r, &err));
    assert_ok_written(&err, npydt_reader_get_unicode(r, "", 0, text, sizeof text, &tlen, &err));
    npydt_reader_close(r);
    npydt_datetime when;
    assert_int_equal(npydt_npz_find(zs, "dates", &m, &err), NPYDT_OK);
    assert_ok_written(&err, npydt_reader_open_member(zs, m, NULL, &r, &err));
    assert_ok_written(&err, npydt_reader_get_datetime(r, "", 0, &when, &err));
    npydt_reader_close(r);
    npydt_npz_close(zs);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_ok_written(&err, npydt_reader_open_fd(fd, NULL, &r, &err));
    npydt_reader_close(r);
    close(fd);
    assert_ok_written(&err, npydt_reader_open_buffer(bytes, len, NULL, &r, &err));
    npydt_reader_close(r);
    npydt_npz *z;
    assert_int_equal(npydt_npz_open_path(npz_path("savez.npz"), NULL, &z, &err), NPYDT_OK);
    assert_ok_written(&err, npydt_reader_open_member(z, 0, NULL, &r, &err));
    npydt_reader_close(r);
    npydt_npz_close(z);
    free(bytes);
}

static void test_error_success_writer_calls_write_ok(void **state)
{
    (void)state;
    npydt_error err;
    char dir[] = "/tmp/npydt_error_success_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/out.npy", dir);
    npydt_dtype *dt = test_parse_literal(
        "[('i', '<i8'), ('c', '<c16'), ('s', 'S5'), ('u', '<U3'), ('t', '<M8[s]')]");
    const uint64_t shape[1] = {0};
    npydt_writer *w;
    assert_ok_written(&err, npydt_writer_create_path(path, dt, shape, 1, NULL, &w, &err));
    const double c[2] = {1, 2};
    const npydt_datetime t = {5, NPYDT_UNIT_s, 1, 0};
    assert_ok_written(&err, npydt_writer_set_i64(w, "i", -1, &err));
    assert_ok_written(&err, npydt_writer_set_u64(w, "i", 1, &err));
    assert_ok_written(&err, npydt_writer_set_double(w, "i", 2.0, &err));
    assert_ok_written(&err, npydt_writer_set_bool(w, "i", 1, &err));
    assert_ok_written(&err, npydt_writer_set_complex(w, "c", c, &err));
    assert_ok_written(&err, npydt_writer_set_bytes(w, "s", "ab", 2, &err));
    assert_ok_written(&err, npydt_writer_set_unicode(w, "u", "xy", 2, &err));
    assert_ok_written(&err, npydt_writer_set_datetime(w, "t", &t, &err));
    npydt_field_handle hi, hc, hs, hu, ht;
    assert_ok_written(&err, npydt_writer_field(w, "i", &hi, &err));
    assert_ok_written(&err, npydt_writer_field(w, "c", &hc, &err));
    assert_ok_written(&err, npydt_writer_field(w, "s", &hs, &err));
    assert_ok_written(&err, npydt_writer_field(w, "u", &hu, &err));
    assert_ok_written(&err, npydt_writer_field(w, "t", &ht, &err));
    assert_ok_written(&err, npydt_writer_put_i64(w, hi, -1, &err));
    assert_ok_written(&err, npydt_writer_put_u64(w, hi, 1, &err));
    assert_ok_written(&err, npydt_writer_put_double(w, hi, 2.0, &err));
    assert_ok_written(&err, npydt_writer_put_bool(w, hi, 1, &err));
    assert_ok_written(&err, npydt_writer_put_complex(w, hc, c, &err));
    assert_ok_written(&err, npydt_writer_put_bytes(w, hs, "ab", 2, &err));
    assert_ok_written(&err, npydt_writer_put_unicode(w, hu, "xy", 2, &err));
    assert_ok_written(&err, npydt_writer_put_datetime(w, ht, &t, &err));
    assert_ok_written(&err, npydt_writer_commit(w, &err));
    assert_ok_written(&err, npydt_writer_write(w, npydt_writer_record(w), 1, &err));
    assert_ok_written(&err, npydt_writer_flush(w, &err));
    assert_ok_written(&err, npydt_writer_close(w, &err));
    assert_ok_written(&err, npydt_writer_append_path(path, NULL, &w, &err));
    assert_ok_written(&err, npydt_writer_close(w, &err));
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_ok_written(&err, npydt_writer_create_fd(fileno(f), dt, shape, 1, NULL, &w, &err));
    assert_ok_written(&err, npydt_writer_close(w, &err));
    assert_ok_written(&err, npydt_writer_close(NULL, &err));
    fclose(f);
    npydt_dtype_free(dt);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

static void test_error_success_output_calls_write_ok(void **state)
{
    (void)state;
    npydt_error err;
    char dir[] = "/tmp/npydt_error_success_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/out.bin", dir);
    npydt_output *o;
    assert_ok_written(&err, npydt_output_open(path, NULL, &o, &err));
    assert_ok_written(&err, npydt_output_write(o, "abc", 3, &err));
    assert_ok_written(&err, npydt_output_pwrite(o, "B", 1, 1, &err));
    assert_ok_written(&err, npydt_output_status(o, &err));
    assert_ok_written(&err, npydt_output_commit(o, &err));
    assert_ok_written(&err, npydt_output_open(path, NULL, &o, &err));
    npydt_output_discard(o);
    assert_int_equal(unlink(path), 0);
    /* an archive written to a path through an output */
    npydt_npz_writer *z;
    assert_ok_written(&err, npydt_npz_writer_create_path(path, NULL, &z, &err));
    assert_ok_written(&err, npydt_npz_writer_finish(z, NULL, &err));
    npydt_npz_writer_free(z);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

static void test_error_success_schema_calls_write_ok(void **state)
{
    (void)state;
    npydt_error err;
    const char *spec = "[('x', '<f8')]";
    npydt_schema *schema;
    assert_ok_written(&err, npydt_schema_compile(spec, strlen(spec), NULL, &schema, &err));
    npydt_dtype *dt = test_parse_literal(spec);
    npydt_check_result *r;
    assert_ok_written(&err, npydt_check_dtype(schema, dt, 0, &r, &err));
    npydt_check_result_free(r);
    size_t len;
    unsigned char *file = test_read_file(test_fixture("fortran_2d.npy"), &len);
    npydt_header *h;
    assert_int_equal(npydt_header_parse(file, len, NULL, &h, &err), NPYDT_OK);
    npydt_schema *any;
    assert_int_equal(npydt_schema_compile("'<i4'", 5, NULL, &any, &err), NPYDT_OK);
    assert_ok_written(&err, npydt_check(any, h, 0, &r, &err));
    npydt_check_result_free(r);
    npydt_schema_free(any);
    npydt_header_free(h);
    free(file);
    npydt_dtype_free(dt);
    npydt_schema_free(schema);
}

static void discard(void *ctx, const char *s, size_t n)
{
    (void)ctx, (void)s, (void)n;
}

static void test_error_success_cstruct_calls_write_ok(void **state)
{
    (void)state;
    npydt_error err;
    npydt_dtype *dt = test_parse_literal("[('x', '<f8'), ('n', '<i4')]");
    npydt_cstruct *u;
    assert_ok_written(&err, npydt_cstruct_create(NULL, &u, &err));
    assert_ok_written(&err, npydt_cstruct_add(u, dt, "rec", NULL, &err));
    assert_ok_written(&err, npydt_cstruct_add_member(u, dt, "rec", "a.npy", NULL, &err));
    assert_ok_written(&err, npydt_cstruct_write(u, discard, NULL, &err));
    npydt_cstruct_free(u);
    npydt_dtype_free(dt);
}

/* After a failure, a success on the same struct leaves no trace of it. */
static void test_error_success_after_a_failure_clears_it(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_SYNTAX, &err, npydt_header_parse_descr("[", 1, NULL, &dt, &err));
    assert_int_equal(npydt_header_parse_descr("'<f8'", 5, NULL, &dt, &err), NPYDT_OK);
    assert_success_written(&err);
    npydt_dtype_free(dt);
}

TEST_LIST("error_success",
    cmocka_unit_test(test_error_success_parse_calls_write_ok),
    cmocka_unit_test(test_error_success_in_memory_reader_calls_write_ok),
    cmocka_unit_test(test_error_success_field_readers_and_writers_write_ok),
    cmocka_unit_test(test_error_success_gather_scatter_and_swap_write_ok),
    cmocka_unit_test(test_error_success_archive_calls_write_ok),
    cmocka_unit_test(test_error_success_archive_writer_calls_write_ok),
    cmocka_unit_test(test_error_success_reader_calls_write_ok),
    cmocka_unit_test(test_error_success_writer_calls_write_ok),
    cmocka_unit_test(test_error_success_output_calls_write_ok),
    cmocka_unit_test(test_error_success_schema_calls_write_ok),
    cmocka_unit_test(test_error_success_cstruct_calls_write_ok),
    cmocka_unit_test(test_error_success_after_a_failure_clears_it),
);

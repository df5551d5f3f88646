/* Whole files: every NumPy-written fixture parses, and writing its header
 * back gives the bytes np.save wrote. */
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Calls fn for every .npy directly in the fixtures directory. */
static int for_each_fixture(void (*fn)(const char *path, const unsigned char *buf, size_t len))
{
    const char *dir = getenv("FIXTURES");
    if (!dir || !*dir)
        dir = "tests/fixtures";
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    /* errno tells the end of the directory from a failed read */
    while ((errno = 0, e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".npy") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t flen;
        unsigned char *buf = test_read_file(path, &flen);
        fn(path, buf, flen);
        free(buf);
        n++;
    }
    if (errno != 0)
        fail_msg("reading %s: %s", dir, strerror(errno));
    closedir(d);
    return n;
}

static void header_rewrites_identically(const char *path, const unsigned char *buf, size_t len)
{
    /* these two were written with an explicit version=, not np.save's choice */
    if (strstr(path, "version2_small") || strstr(path, "version3_small"))
        return;
    npydt_header *h;
    TEST_ERROR(err);
    npydt_status st = npydt_parse_buffer(buf, len, NULL, &h, &err);
    if (st != NPYDT_OK)
        fail_msg("%s: %s", path, err.message);
    size_t need = npydt_header_write(npydt_header_dtype(h), npydt_header_shape(h),
                                     npydt_header_ndim(h), npydt_header_fortran_order(h), NULL, 0,
                                     &err);
    assert_int_equal(need, npydt_header_data_offset(h));
    unsigned char *out = malloc(need);
    assert_non_null(out);
    assert_int_equal(npydt_header_write(npydt_header_dtype(h), npydt_header_shape(h),
                                        npydt_header_ndim(h), npydt_header_fortran_order(h), out,
                                        need, &err),
                     need);
    if (memcmp(out, buf, need) != 0)
        fail_msg("%s: rewritten header differs:\n%.*s\nvs\n%.*s", path, (int)need - 10, out + 10,
                 (int)need - 10, buf + 10);
    free(out);
    npydt_header_free(h);
}

static void test_header_write_matches_np_save_for_every_fixture(void **state)
{
    (void)state;
    assert_true(for_each_fixture(header_rewrites_identically) > 50);
}

static void descr_round_trips(const char *path, const unsigned char *buf, size_t len)
{
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(npydt_parse_buffer(buf, len, NULL, &h, &err), NPYDT_OK);
    const npydt_dtype *dt = npydt_header_dtype(h);
    size_t need = npydt_dtype_descr(dt, NULL, 0);
    char *text = malloc(need + 1);
    assert_non_null(text);
    npydt_dtype_descr(dt, text, need + 1);
    npydt_dtype *again;
    if (npydt_header_parse_descr(text, need, NULL, &again, &err) != NPYDT_OK)
        fail_msg("%s: printed descr %s does not parse: %s", path, text, err.message);
    assert_true(npydt_dtype_equal(dt, again));
    npydt_dtype_free(again);
    free(text);
    npydt_header_free(h);
}

static void test_header_descr_print_parse_is_identity_for_every_fixture(void **state)
{
    (void)state;
    assert_true(for_each_fixture(descr_round_trips) > 50);
}

/* The file's header text after its preamble, up to the spaces and newline
 * np.save puts after the dict. */
static void dict_is_header_text(const char *path, const unsigned char *buf, size_t len)
{
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(npydt_parse_buffer(buf, len, NULL, &h, &err), NPYDT_OK);
    size_t start = npydt_header_version_major(h) == 1 ? 10 : 12;
    size_t end = (size_t)npydt_header_data_offset(h) - 1;
    while (end > start && buf[end - 1] == ' ')
        end--;
    bool ascii = true;
    for (size_t i = start; i < end; i++)
        ascii &= buf[i] < 0x80;
    /* 1.0 and 2.0 headers spell names in latin-1; the dict text in UTF-8 */
    if (ascii || npydt_header_version_major(h) == 3) {
        size_t need = npydt_header_dict(npydt_header_dtype(h), npydt_header_shape(h),
                                        npydt_header_ndim(h), npydt_header_fortran_order(h),
                                        NULL, 0);
        char *text = malloc(need + 1);
        assert_non_null(text);
        assert_int_equal(npydt_header_dict(npydt_header_dtype(h), npydt_header_shape(h),
                                           npydt_header_ndim(h),
                                           npydt_header_fortran_order(h), text, need + 1),
                         need);
        if (need != end - start || memcmp(text, buf + start, need) != 0)
            fail_msg("%s: dict text differs:\n%s\nvs\n%.*s", path, text, (int)(end - start),
                     buf + start);
        free(text);
    }
    npydt_header_free(h);
}

static void test_header_dict_is_the_text_np_save_writes_for_every_fixture(void **state)
{
    (void)state;
    assert_true(for_each_fixture(dict_is_header_text) > 50);
}

static void test_header_dict_measures_and_cuts_like_snprintf(void **state)
{
    (void)state;
    npydt_dtype *dt;
    TEST_ERROR(err);
    assert_int_equal(npydt_dtype_parse_typestr("<f8", 3, NULL, &dt, &err), NPYDT_OK);
    const uint64_t shape[2] = {2, 3};
    const char *want = "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }";
    char buf[16];
    assert_int_equal(npydt_header_dict(dt, shape, 2, 1, buf, sizeof buf), strlen(want));
    assert_string_equal(buf, "{'descr': '<f8'");
    assert_int_equal(npydt_header_dict(dt, shape, 2, 1, NULL, 0), strlen(want));
    npydt_dtype_free(dt);
}

static void test_header_dict_of_no_dtype_is_empty(void **state)
{
    (void)state;
    char buf[8] = "x";
    assert_int_equal(npydt_header_dict(NULL, NULL, 0, 0, buf, sizeof buf), 0);
    assert_string_equal(buf, "x");
}

static void test_header_parse_path_reads_only_header(void **state)
{
    (void)state;
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(npydt_parse_path(test_fixture("fortran_2d.npy"), NULL, &h, &err), NPYDT_OK);
    assert_true(npydt_header_fortran_order(h));
    assert_int_equal(npydt_header_ndim(h), 2);
    assert_int_equal(npydt_header_data_offset(h) % 64, 0);
    npydt_header_free(h);
}

static void test_header_parse_path_null_is_argument_error(void **state)
{
    (void)state;
    npydt_header *h = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_parse_path(NULL, NULL, &h, &err));
    assert_null(h);
    assert_string_equal(err.message, "path is NULL");
}

static void test_header_parse_fd_unreadable_descriptor_is_io_error(void **state)
{
    (void)state;
    /* a descriptor open for writing only: the reads fail with EBADF */
    char path[] = "/tmp/npydt-test-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t len;
    unsigned char *bytes = test_read_file(test_fixture("fortran_2d.npy"), &len);
    assert_int_equal(write(fd, bytes, len), (ssize_t)len);
    free(bytes);
    close(fd);
    fd = open(path, O_WRONLY);
    unlink(path);
    assert_true(fd >= 0);
    npydt_header *h = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err, npydt_parse_fd(fd, NULL, &h, &err));
    close(fd);
    assert_null(h);
    assert_string_equal(err.message, "read failed: Bad file descriptor");
    assert_int_equal(err.offset, NPYDT_NO_OFFSET);
}

static void test_header_parse_path_missing_file_is_io_error(void **state)
{
    (void)state;
    npydt_header *h = (npydt_header *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err, npydt_parse_path("/nonexistent/x.npy", NULL, &h, &err));
    assert_null(h);
    assert_int_equal(err.code, NPYDT_E_IO);
}

static void test_header_zero_d_array_counts_one_element(void **state)
{
    (void)state;
    static const char hdr[] = "{'descr': '<i4', 'fortran_order': False, 'shape': (), }";
    unsigned char buf[256];
    size_t n = strlen(hdr);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)(n + 1);
    buf[9] = 0;
    memcpy(buf + 10, hdr, n);
    buf[10 + n] = '\n';
    memset(buf + 11 + n, 0, 4);
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(npydt_parse_buffer(buf, 15 + n, NULL, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_header_count(h), 1);
    assert_int_equal(npydt_header_data_bytes(h), 4);
    npydt_header_free(h);
    /* one byte short of the element */
    assert_fails(NPYDT_E_DATA, &err, npydt_parse_buffer(buf, 14 + n, NULL, &h, &err));
}

static void test_header_version3_utf8_names(void **state)
{
    (void)state;
    npydt_header *h;
    TEST_ERROR(err);
    size_t len;
    unsigned char *buf = test_read_file(test_fixture("struct_utf8_name.npy"), &len);
    assert_int_equal(npydt_parse_buffer(buf, len, NULL, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_header_version_major(h), 3);
    const npydt_dtype *dt = npydt_header_dtype(h);
    assert_int_equal(npydt_dtype_get_class(dt), NPYDT_STRUCT);
    int found = 0;
    for (size_t i = 0; i < npydt_dtype_nfields(dt); i++)
        found |= strcmp(npydt_dtype_field_name(dt, i), "\xe6\xbc\xa2") == 0; /* 漢 */
    assert_true(found);
    npydt_header_free(h);
    free(buf);
}

static void test_header_object_arrays_need_no_count_times_itemsize_bytes(void **state)
{
    (void)state;
    /* np.save of 100 Nones pickles them into far fewer than 800 bytes */
    static const char hdr[] = "{'descr': '|O', 'fortran_order': False, 'shape': (100,), }";
    unsigned char buf[256];
    size_t n = strlen(hdr);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)(n + 1);
    buf[9] = 0;
    memcpy(buf + 10, hdr, n);
    buf[10 + n] = '\n';
    npydt_header *h;
    TEST_ERROR(err);
    assert_int_equal(npydt_parse_buffer(buf, 11 + n + 20, NULL, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_header_data_bytes(h), 800);
    npydt_header_free(h);
}

/* The same header with one more space after "'descr':" is the same
 * Python literal: whitespace between tokens changes nothing read from it. */
static void respaced_header_agrees(const char *path, const unsigned char *buf, size_t len)
{
    npydt_header *saved, *respaced;
    TEST_ERROR(err);
    assert_int_equal(npydt_parse_buffer(buf, len, NULL, &saved, &err), NPYDT_OK);
    size_t pre = buf[6] == 1 ? 10 : 12, hlen = npydt_header_len(saved);
    const char *key = "{'descr': ";
    if (memcmp(buf + pre, key, strlen(key)) != 0 || buf[pre + hlen - 2] != ' ') {
        npydt_header_free(saved);   /* a hand-made quirk, not np.save's shape */
        return;
    }
    unsigned char *copy = malloc(len);
    assert_non_null(copy);
    /* shift the dict right by one inside the header, eating one pad space */
    memcpy(copy, buf, len);
    memcpy(copy + pre + strlen(key) + 1, buf + pre + strlen(key), hlen - strlen(key) - 2);
    copy[pre + strlen(key)] = ' ';
    if (npydt_parse_buffer(copy, len, NULL, &respaced, &err) != NPYDT_OK)
        fail_msg("%s: respaced: %s", path, err.message);
    assert_true(npydt_dtype_equal(npydt_header_dtype(saved), npydt_header_dtype(respaced)));
    assert_int_equal(npydt_header_ndim(saved), npydt_header_ndim(respaced));
    for (size_t i = 0; i < npydt_header_ndim(saved); i++)
        assert_int_equal(npydt_header_shape(saved)[i], npydt_header_shape(respaced)[i]);
    assert_int_equal(npydt_header_fortran_order(saved), npydt_header_fortran_order(respaced));
    size_t ns, nr;
    const npydt_leaf *ls = npydt_dtype_leaves(npydt_header_dtype(saved), &ns);
    const npydt_leaf *lr = npydt_dtype_leaves(npydt_header_dtype(respaced), &nr);
    assert_int_equal(ns, nr);
    for (size_t i = 0; i < ns; i++) {
        char ps[1024], pr[1024];
        assert_string_equal(test_leaf_path(npydt_header_dtype(saved), i, ps, sizeof ps),
                            test_leaf_path(npydt_header_dtype(respaced), i, pr, sizeof pr));
        assert_int_equal(ls[i].offset, lr[i].offset);
        assert_int_equal(ls[i].count, lr[i].count);
    }
    npydt_header_free(saved);
    npydt_header_free(respaced);
    free(copy);
}

/* A header of np.save's shape with descr D, padded to a multiple of 64;
 * extra_space puts one more space after "'descr':". */
static unsigned char *header_with_descr(const char *d, bool extra_space, size_t *len)
{
    char text[512];
    int n = snprintf(text, sizeof text, "{'descr':%s %s, 'fortran_order': False, 'shape': (0,), }",
                     extra_space ? " " : "", d);
    assert_true(n > 0 && (size_t)n < sizeof text - 80);
    size_t hlen = ((size_t)n + 1 + 10 + 63) / 64 * 64 - 10;
    unsigned char *b = malloc(10 + hlen);
    assert_non_null(b);
    memcpy(b, "\x93NUMPY\x01\x00", 8);
    b[8] = (unsigned char)(hlen & 0xff);
    b[9] = (unsigned char)(hlen >> 8);
    memcpy(b + 10, text, (size_t)n);
    memset(b + 10 + n, ' ', hlen - (size_t)n - 1);
    b[10 + hlen - 1] = '\n';
    *len = 10 + hlen;
    return b;
}

/* np.save's type strings, and strings close to one, mean the same in
 * np.save's header and in a respaced one, alone and as field types
 * (tests/check_typestr.sh holds type strings to np.dtype). */
static void test_header_type_strings_mean_the_same_whatever_the_spacing(void **state)
{
    (void)state;
    static const char *const types[] = {
        "'|b1'", "'|i1'", "'|u1'", "'<i2'", "'>i4'", "'<u8'", "'>f2'", "'<f4'", "'>f8'",
        "'<f16'", "'<c8'", "'>c16'", "'<c32'", "'<i1'", "'|i2'", "'<b1'", "'<f1'", "'<i16'",
        "'<f08'", "'<c4'", "'=f8'", "'|f8'", "'|O'", "'<M8'", "'>m8'", "'<M8[Y]'",
        "'<M8[M]'", "'>M8[W]'", "'<M8[D]'", "'<m8[h]'", "'<m8[m]'", "'<M8[s]'", "'>M8[ms]'",
        "'<M8[us]'", "'<M8[ns]'", "'>m8[ps]'", "'<m8[fs]'", "'<M8[as]'", "'<M8[25s]'",
        "'<M8[x]'", "'<M8[ns'", "'|M8[ns]'", "'<M4[ns]'", "'|S0'", "'|S5'", "'|S16'",
        "'|S05'", "'<S5'", "'|V0'", "'|V8'", "'<V8'", "'<U0'", "'<U3'", "'>U7'", "'|U3'",
        "'<U536870911'", "'<U536870912'", "'|S2147483647'", "'|S2147483648'", "'|S99999999999'",
        "'<i'", "'f8'", "'d'",
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        for (int in_struct = 0; in_struct < 2; in_struct++) {
            char d[96];
            snprintf(d, sizeof d, in_struct ? "[('a', %s), ('b', %s)]" : "%s", types[i],
                     types[i]);
            size_t la, lb;
            unsigned char *a = header_with_descr(d, false, &la), *b = header_with_descr(d, true, &lb);
            npydt_header *ha = NULL, *hb = NULL;
            npydt_error ea, eb;
            npydt_status sa = npydt_parse_buffer(a, la, NULL, &ha, &ea);
            npydt_status sb = npydt_parse_buffer(b, lb, NULL, &hb, &eb);
            if (sa != sb)
                fail_msg("%s: %s as np.save writes it, %s respaced", d, npydt_status_name(sa),
                         npydt_status_name(sb));
            if (sa == NPYDT_OK && !npydt_dtype_equal(npydt_header_dtype(ha), npydt_header_dtype(hb)))
                fail_msg("%s: the two readings differ", d);
            npydt_header_free(ha);
            npydt_header_free(hb);
            free(a);
            free(b);
        }
    }
}

static void test_header_np_save_headers_read_the_same_respaced(void **state)
{
    (void)state;
    assert_true(for_each_fixture(respaced_header_agrees) > 50);
}

TEST_LIST("header",
    cmocka_unit_test(test_header_np_save_headers_read_the_same_respaced),
    cmocka_unit_test(test_header_type_strings_mean_the_same_whatever_the_spacing),
    cmocka_unit_test(test_header_object_arrays_need_no_count_times_itemsize_bytes),
    cmocka_unit_test(test_header_write_matches_np_save_for_every_fixture),
    cmocka_unit_test(test_header_descr_print_parse_is_identity_for_every_fixture),
    cmocka_unit_test(test_header_dict_is_the_text_np_save_writes_for_every_fixture),
    cmocka_unit_test(test_header_dict_measures_and_cuts_like_snprintf),
    cmocka_unit_test(test_header_dict_of_no_dtype_is_empty),
    cmocka_unit_test(test_header_parse_path_reads_only_header),
    cmocka_unit_test(test_header_parse_path_null_is_argument_error),
    cmocka_unit_test(test_header_parse_fd_unreadable_descriptor_is_io_error),
    cmocka_unit_test(test_header_parse_path_missing_file_is_io_error),
    cmocka_unit_test(test_header_zero_d_array_counts_one_element),
    cmocka_unit_test(test_header_version3_utf8_names),
);

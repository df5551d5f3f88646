/* Verification of an array's bytes (npydt_verify_path, npydt_verify_buffer,
 * npydt_npz_member_verify_report): a .npy file's size against its
 * header's promise, an archive member's declared size and CRC-32, and the
 * bytes after the data that NumPy ignores, counted. Fixtures:
 * tests/fixtures (FIXTURES) and tests/fixtures_npz (FIXTURES_NPZ). */
#include "test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *npz_path(const char *name)
{
    static char path[1024];
    const char *dir = getenv("FIXTURES_NPZ");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fixtures_npz", name);
    return path;
}

/* An archive opened from an exact-size heap copy (AddressSanitizer sees
 * any read past its end). */
struct held {
    unsigned char *bytes;
    size_t len;
    npydt_npz *z;
};

static void hold_bytes(struct held *h, unsigned char *bytes, size_t len)
{
    h->bytes = bytes;
    h->len = len;
    h->z = NULL;
    npydt_error err;
    if (npydt_npz_open_buffer(h->bytes, h->len, NULL, &h->z, &err) != NPYDT_OK)
        fail_msg("open: %s", err.message);
}

static void hold(struct held *h, const char *name)
{
    size_t len;
    unsigned char *bytes = test_read_file(npz_path(name), &len);
    hold_bytes(h, bytes, len);
}

static void release(struct held *h)
{
    npydt_npz_close(h->z);
    free(h->bytes);
}

/* ---- archive members ------------------------------------------------------- */

/* np.savez's stored member with its last data byte flipped (the header
 * intact): refused for its CRC-32, as np.load refuses it ("Bad CRC-32"). */
static void test_verify_stored_member_with_flipped_data_byte_refused(void **state)
{
    (void)state;
    struct held h;
    hold(&h, "bad/crc_stored.npz");
    npydt_verify_report r;
    npydt_header *hd = (npydt_header *)&r;   /* not NULL: must be cleared */
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARCHIVE, &err,
                 npydt_npz_member_verify_report(h.z, 0, 1, &hd, &r, &err));
    assert_null(hd);
    assert_non_null(strstr(err.message, "member 'ints.npy'"));
    assert_non_null(strstr(err.message, "CRC-32 mismatch"));
    release(&h);
}

/* Without read_data only the header and the declared size are checked:
 * the flipped data byte goes unseen, and the report says the CRC-32 was
 * not checked. */
static void test_verify_member_without_read_data_reads_no_data(void **state)
{
    (void)state;
    struct held h;
    hold(&h, "bad/crc_stored.npz");
    npydt_verify_report r;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_member_verify_report(h.z, 0, 0, NULL, &r, &err), NPYDT_OK);
    assert_int_equal(r.crc32_checked, 0);
    assert_int_equal(r.crc32, 0);
    assert_int_equal(r.trailing, 0);
    release(&h);
}

/* A deflated member whose declared CRC-32 is off by one bit. */
static void test_verify_deflated_member_with_wrong_crc_refused(void **state)
{
    (void)state;
    struct held h;
    hold(&h, "bad/crc_deflated.npz");
    npydt_verify_report r;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_member_verify_report(h.z, 0, 1, NULL, &r, &err));
    assert_non_null(strstr(err.message, "CRC-32 mismatch"));
    release(&h);
}

/* A deflated member declaring 16 bytes more than its stream inflates to:
 * its declared data size is refused when read. */
static void test_verify_deflated_member_shorter_than_declared_refused(void **state)
{
    (void)state;
    struct held h;
    hold(&h, "bad/size_long.npz");
    npydt_verify_report r;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_member_verify_report(h.z, 0, 1, NULL, &r, &err));
    assert_non_null(strstr(err.message, "declares"));
    release(&h);
}

/* Every member of np.savez and np.savez_compressed archives verifies: the
 * CRC-32 checked is the declared one, the size is the member's, and it
 * holds exactly what its header promises. The header handed out is the
 * member's. */
static void check_all_members_verify(const char *name)
{
    struct held h;
    hold(&h, name);
    assert_true(npydt_npz_count(h.z) > 0);
    for (size_t i = 0; i < npydt_npz_count(h.z); i++) {
        const npydt_npz_member *m = npydt_npz_member_at(h.z, i);
        npydt_verify_report r;
        npydt_header *hd;
        TEST_ERROR(err);
        npydt_status st = npydt_npz_member_verify_report(h.z, i, 1, &hd, &r, &err);
        if (st != NPYDT_OK)
            fail_msg("%s:%s: %s", name, m->name, err.message);
        assert_int_equal(r.crc32_checked, 1);
        assert_int_equal(r.crc32, m->crc32);
        assert_int_equal(r.size, m->uncompressed_size);
        assert_int_equal(r.expected, r.size);
        assert_int_equal(r.trailing, 0);
        assert_int_equal(npydt_header_data_offset(hd) + npydt_header_data_bytes(hd), r.size);
        npydt_header_free(hd);
    }
    release(&h);
}

static void test_verify_every_savez_member(void **state)
{
    (void)state;
    check_all_members_verify("savez.npz");
}

static void test_verify_every_savez_compressed_member(void **state)
{
    (void)state;
    check_all_members_verify("savez_compressed.npz");
}

/* ---- a member with bytes after its data ------------------------------------ */

struct mem_sink {
    unsigned char *data;
    size_t len, cap;
};

static int mem_write(void *ctx, const void *buf, size_t len)
{
    struct mem_sink *m = ctx;
    if (m->cap - m->len < len) {
        size_t cap = m->cap ? m->cap : 4096;
        while (cap - m->len < len)
            cap *= 2;
        m->data = realloc(m->data, cap);
        assert_non_null(m->data);
        m->cap = cap;
    }
    memcpy(m->data + m->len, buf, len);
    m->len += len;
    return 0;
}

/* An archive of one member "a.npy": the bytes of tests/fixtures/NAME and
 * extra more bytes of junk. */
static void hold_member_with_junk(struct held *h, const char *name, npydt_npz_method method,
                                  size_t extra)
{
    size_t len;
    unsigned char *npy = test_read_file(test_fixture(name), &len);
    struct mem_sink m = {NULL, 0, 0};
    npydt_npz_sink sink = {mem_write, NULL, &m};
    npydt_npz_writer *w;
    npydt_error err;
    static const unsigned char junk[64] = "JUNK";
    assert_true(extra <= sizeof junk);
    assert_int_equal(npydt_npz_writer_new(&sink, NULL, &w, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_writer_begin(w, "a.npy", method, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_writer_write(w, npy, len, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_writer_write(w, junk, extra, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_writer_end(w, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_writer_finish(w, NULL, &err), NPYDT_OK);
    npydt_npz_writer_free(w);
    free(npy);
    /* an exact-size copy */
    unsigned char *bytes = malloc(m.len);
    assert_non_null(bytes);
    memcpy(bytes, m.data, m.len);
    free(m.data);
    hold_bytes(h, bytes, m.len);
}

/* NumPy reads what the header promises and ignores the rest: the member
 * verifies, and the bytes after its data are counted. */
static void test_verify_member_counts_trailing_bytes(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        npydt_npz_method method = k ? NPYDT_NPZ_DEFLATED : NPYDT_NPZ_STORED;
        struct held h;
        hold_member_with_junk(&h, "fortran_2d.npy", method, 16);
        npydt_verify_report r;
        TEST_ERROR(err);
        npydt_status st = npydt_npz_member_verify_report(h.z, 0, 1, NULL, &r, &err);
        if (st != NPYDT_OK)
            fail_msg("%s", err.message);
        assert_int_equal(r.trailing, 16);
        assert_int_equal(r.expected + 16, r.size);
        assert_int_equal(r.crc32_checked, 1);
        /* the declared sizes alone tell the same */
        assert_int_equal(npydt_npz_member_verify_report(h.z, 0, 0, NULL, &r, &err), NPYDT_OK);
        assert_int_equal(r.trailing, 16);
        release(&h);
    }
}

/* ---- .npy files ---------------------------------------------------------------- */

/* A file np.save wrote holds exactly what its header promises; there is
 * no CRC-32 to check. */
static void test_verify_path_of_np_save_file_has_no_trailing_bytes(void **state)
{
    (void)state;
    const char *path = test_fixture("fortran_2d.npy");
    size_t len;
    free(test_read_file(path, &len));
    npydt_verify_report r;
    npydt_header *hd;
    TEST_ERROR(err);
    assert_int_equal(npydt_verify_path(path, NULL, &hd, &r, &err), NPYDT_OK);
    assert_int_equal(r.size, len);
    assert_int_equal(r.expected, len);
    assert_int_equal(r.trailing, 0);
    assert_int_equal(r.crc32_checked, 0);
    assert_int_equal(r.crc32, 0);
    assert_int_equal(npydt_header_data_offset(hd) + npydt_header_data_bytes(hd), len);
    npydt_header_free(hd);
}

/* 8 bytes after the data: allowed (np.load reads the array), counted. */
static void test_verify_path_counts_trailing_bytes(void **state)
{
    (void)state;
    npydt_verify_report r;
    TEST_ERROR(err);
    assert_int_equal(npydt_verify_path(test_fixture("quirks/hdr_extra_data.npy"), NULL, NULL, &r,
                                       &err),
                     NPYDT_OK);
    assert_int_equal(r.trailing, 8);
    assert_int_equal(r.expected + 8, r.size);
}

/* The same file in memory gives the same report. */
static void test_verify_buffer_is_verify_path(void **state)
{
    (void)state;
    const char *path = test_fixture("quirks/hdr_extra_data.npy");
    size_t len;
    unsigned char *bytes = test_read_file(path, &len);
    npydt_verify_report a, b;
    TEST_ERROR(err);
    assert_int_equal(npydt_verify_path(path, NULL, NULL, &a, &err), NPYDT_OK);
    assert_int_equal(npydt_verify_buffer(bytes, len, NULL, NULL, &b, &err), NPYDT_OK);
    assert_int_equal(a.size, b.size);
    assert_int_equal(a.expected, b.expected);
    assert_int_equal(a.trailing, b.trailing);
    free(bytes);
}

/* A descriptor gives the report of its path, and stays open and where it
 * was (the header is read with pread). */
static void test_verify_fd_is_verify_path(void **state)
{
    (void)state;
    const char *path = test_fixture("quirks/hdr_extra_data.npy");
    npydt_verify_report a, b;
    npydt_header *hd;
    TEST_ERROR(err);
    assert_int_equal(npydt_verify_path(path, NULL, NULL, &a, &err), NPYDT_OK);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(npydt_verify_fd(fd, NULL, &hd, &b, &err), NPYDT_OK);
    assert_int_equal(a.size, b.size);
    assert_int_equal(a.expected, b.expected);
    assert_int_equal(a.trailing, b.trailing);
    assert_int_equal(npydt_header_data_offset(hd) + npydt_header_data_bytes(hd), b.expected);
    npydt_header_free(hd);
    assert_int_equal(lseek(fd, 0, SEEK_CUR), 0);
    assert_int_equal(close(fd), 0);
}

/* Short data through a descriptor: NPYDT_E_DATA as for the path. */
static void test_verify_fd_of_short_data_refused(void **state)
{
    (void)state;
    npydt_verify_report r;
    npydt_header *hd = (npydt_header *)&r;
    TEST_ERROR(err);
    int fd = open(test_fixture("bad/data_short_2d.npy"), O_RDONLY);
    assert_true(fd >= 0);
    assert_fails(NPYDT_E_DATA, &err, npydt_verify_fd(fd, NULL, &hd, &r, &err));
    assert_null(hd);
    close(fd);
}

/* The bytes a caller has read and the size it has taken give the report
 * of the path with no system call: a descriptor that is not open (-1)
 * is never used when the header lies in them. */
static void test_verify_head_reads_nothing_more(void **state)
{
    (void)state;
    const char *path = test_fixture("quirks/hdr_extra_data.npy");
    size_t len;
    unsigned char *bytes = test_read_file(path, &len);
    npydt_verify_report a, b;
    npydt_header *hd;
    TEST_ERROR(err);
    assert_int_equal(npydt_verify_path(path, NULL, NULL, &a, &err), NPYDT_OK);
    size_t head = len < NPYDT_VERIFY_HEAD_BYTES ? len : NPYDT_VERIFY_HEAD_BYTES;
    assert_int_equal(npydt_verify_head(-1, len, bytes, head, NULL, &hd, &b, &err), NPYDT_OK);
    assert_int_equal(a.size, b.size);
    assert_int_equal(a.expected, b.expected);
    assert_int_equal(a.trailing, b.trailing);
    assert_int_equal(npydt_header_data_offset(hd) + npydt_header_data_bytes(hd), b.expected);
    npydt_header_free(hd);
    free(bytes);
}

/* Fewer bytes than one read takes: the file is read through fd, from
 * its start, as npydt_verify_fd reads it. */
static void test_verify_head_short_of_bytes_reads_the_file(void **state)
{
    (void)state;
    const char *path = test_fixture("quirks/hdr_extra_data.npy");
    size_t len;
    unsigned char *bytes = test_read_file(path, &len);
    npydt_verify_report a, b;
    TEST_ERROR(err);
    assert_int_equal(npydt_verify_path(path, NULL, NULL, &a, &err), NPYDT_OK);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(npydt_verify_head(fd, len, bytes, 4, NULL, NULL, &b, &err), NPYDT_OK);
    assert_int_equal(a.expected, b.expected);
    assert_int_equal(a.trailing, b.trailing);
    assert_int_equal(npydt_verify_head(fd, len, NULL, 0, NULL, NULL, &b, &err), NPYDT_OK);
    assert_int_equal(a.trailing, b.trailing);
    assert_int_equal(lseek(fd, 0, SEEK_CUR), 0);
    assert_int_equal(close(fd), 0);
    free(bytes);
}

/* A header that goes on past the bytes given is read whole through fd. */
static void test_verify_head_reads_a_longer_header(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt-verify-head-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    /* a version 1.0 header of 8,192 bytes: padding after the dict */
    enum { TOTAL = 8192 };
    static unsigned char file[TOTAL + 16];
    const char dict[] = "{'descr': '<i2', 'fortran_order': False, 'shape': (8,), }";
    memcpy(file, "\x93NUMPY\x01\x00", 8);
    file[8] = (unsigned char)((TOTAL - 10) & 0xff);
    file[9] = (unsigned char)((TOTAL - 10) >> 8);
    memset(file + 10, ' ', TOTAL - 10);
    memcpy(file + 10, dict, sizeof dict - 1);
    file[TOTAL - 1] = '\n';
    assert_int_equal(write(fd, file, sizeof file), (ssize_t)sizeof file);
    npydt_verify_report r;
    npydt_header *hd;
    TEST_ERROR(err);
    assert_int_equal(npydt_verify_head(fd, sizeof file, file, NPYDT_VERIFY_HEAD_BYTES, NULL, &hd,
                                       &r, &err),
                     NPYDT_OK);
    assert_int_equal(npydt_header_data_offset(hd), TOTAL);
    assert_int_equal(r.trailing, 0);
    npydt_header_free(hd);
    close(fd);
    unlink(path);
}

/* Short data by the size given: NPYDT_E_DATA, no header. */
static void test_verify_head_of_short_data_refused(void **state)
{
    (void)state;
    size_t len;
    unsigned char *bytes = test_read_file(test_fixture("bad/data_short_2d.npy"), &len);
    npydt_verify_report r;
    npydt_header *hd = (npydt_header *)&r;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_DATA, &err, npydt_verify_head(-1, len, bytes, len, NULL, &hd, &r, &err));
    assert_null(hd);
    free(bytes);
}

/* Fewer data bytes than the header promises: NPYDT_E_DATA, no header. */
static void test_verify_path_of_short_data_refused(void **state)
{
    (void)state;
    npydt_verify_report r;
    npydt_header *hd = (npydt_header *)&r;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_DATA, &err,
                 npydt_verify_path(test_fixture("bad/data_short_2d.npy"), NULL, &hd, &r, &err));
    assert_null(hd);
    size_t len;
    unsigned char *bytes = test_read_file(test_fixture("bad/data_short_2d.npy"), &len);
    assert_fails(NPYDT_E_DATA, &err, npydt_verify_buffer(bytes, len, NULL, NULL, &r, &err));
    free(bytes);
}

/* An object array's data is a pickle of any length: nothing is trailing. */
static void test_verify_object_array_has_no_trailing_bytes(void **state)
{
    (void)state;
    npydt_verify_report r;
    TEST_ERROR(err);
    assert_int_equal(npydt_verify_path(test_fixture("object_O.npy"), NULL, NULL, &r, &err),
                     NPYDT_OK);
    assert_int_equal(r.trailing, 0);
    assert_int_equal(r.expected, r.size);
}

static void test_verify_missing_path_is_io(void **state)
{
    (void)state;
    npydt_verify_report r;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err,
                 npydt_verify_path(test_fixture("no/such/file.npy"), NULL, NULL, &r, &err));
}

static void test_verify_null_report_refused(void **state)
{
    (void)state;
    struct held h;
    hold(&h, "savez.npz");
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_member_verify_report(h.z, 0, 1, NULL, NULL, &err));
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_verify_path(test_fixture("fortran_2d.npy"), NULL, NULL, NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_verify_buffer(h.bytes, h.len, NULL, NULL, NULL, &err));
    npydt_verify_report r;
    assert_fails(NPYDT_E_ARG, &err,
                 npydt_npz_member_verify_report(h.z, npydt_npz_count(h.z), 1, NULL, &r, &err));
    release(&h);
}

TEST_LIST("verify",
    cmocka_unit_test(test_verify_stored_member_with_flipped_data_byte_refused),
    cmocka_unit_test(test_verify_member_without_read_data_reads_no_data),
    cmocka_unit_test(test_verify_deflated_member_with_wrong_crc_refused),
    cmocka_unit_test(test_verify_deflated_member_shorter_than_declared_refused),
    cmocka_unit_test(test_verify_every_savez_member),
    cmocka_unit_test(test_verify_every_savez_compressed_member),
    cmocka_unit_test(test_verify_member_counts_trailing_bytes),
    cmocka_unit_test(test_verify_path_of_np_save_file_has_no_trailing_bytes),
    cmocka_unit_test(test_verify_path_counts_trailing_bytes),
    cmocka_unit_test(test_verify_buffer_is_verify_path),
    cmocka_unit_test(test_verify_path_of_short_data_refused),
    cmocka_unit_test(test_verify_fd_is_verify_path),
    cmocka_unit_test(test_verify_fd_of_short_data_refused),
    cmocka_unit_test(test_verify_head_reads_nothing_more),
    cmocka_unit_test(test_verify_head_short_of_bytes_reads_the_file),
    cmocka_unit_test(test_verify_head_reads_a_longer_header),
    cmocka_unit_test(test_verify_head_of_short_data_refused),
    cmocka_unit_test(test_verify_object_array_has_no_trailing_bytes),
    cmocka_unit_test(test_verify_missing_path_is_io),
    cmocka_unit_test(test_verify_null_report_refused),
);

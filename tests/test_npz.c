/* .npz archives: NumPy's own archives read member by member exactly as the
 * arrays saved alone, and hand-damaged ones refused with NPYDT_E_ARCHIVE.
 * Fixtures: tests/gen_npz_fixtures.py writes $FIXTURES_NPZ (default
 * tests/fixtures_npz). Archives are opened from exact-size heap copies so
 * that AddressSanitizer sees any read past their end. */
#include "test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* The keys of tests/gen_npz_fixtures.py's arrays(), in savez order. */
static const char *const keys[] = {
    "ints", "fortran", "big_endian", "records", "aligned",
    "empty", "empty_records", "scalar", "text", "dates", "v3",
};
#define NKEYS (sizeof keys / sizeof keys[0])

static const char *npz_path(const char *name)
{
    static char path[1024];
    const char *dir = getenv("FIXTURES_NPZ");
    snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "tests/fixtures_npz", name);
    return path;
}

/* An archive opened from a heap copy of a fixture. */
struct held {
    unsigned char *bytes;
    size_t len;
    npydt_npz *z;
};

static npydt_status open_held(struct held *h, const char *name, const npydt_npz_options *opts,
                              npydt_error *err)
{
    h->bytes = test_read_file(npz_path(name), &h->len);
    h->z = NULL;
    return npydt_npz_open_buffer(h->bytes, h->len, opts, &h->z, err);
}

static void open_ok(struct held *h, const char *name, const npydt_npz_options *opts)
{
    TEST_ERROR(err);
    npydt_status st = open_held(h, name, opts, &err);
    if (st != NPYDT_OK)
        fail_msg("%s: %s: %s", name, npydt_status_name(st), err.message);
}

static void release(struct held *h)
{
    npydt_npz_close(h->z);
    free(h->bytes);
}

/* Every byte of member i through npydt_npz_stream_read, `step` at a time. */
static unsigned char *read_member(const npydt_npz *z, size_t i, size_t step, size_t *len)
{
    const npydt_npz_member *m = npydt_npz_member_at(z, i);
    unsigned char *out = malloc(m->uncompressed_size + 1);
    assert_non_null(out);
    npydt_npz_stream *s;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_stream_open(z, i, &s, &err), NPYDT_OK);
    size_t total = 0, got;
    do {
        size_t want = step;
        if (want > m->uncompressed_size + 1 - total)
            want = m->uncompressed_size + 1 - total;
        npydt_status st = npydt_npz_stream_read(s, out + total, want, &got, &err);
        if (st != NPYDT_OK)
            fail_msg("%s: %s", m->name, err.message);
        total += got;
    } while (got > 0);
    assert_int_equal(npydt_npz_stream_position(s), m->uncompressed_size);
    npydt_npz_stream_close(s);
    *len = total;
    return out;
}

/* Each member of the archive is the array saved alone: same header
 * (dtype, shape, order, version and length) and the very same bytes. */
static void check_members_match_alone(const char *archive, npydt_npz_method method)
{
    struct held h;
    open_ok(&h, archive, NULL);
    assert_int_equal(npydt_npz_count(h.z), NKEYS);
    for (size_t i = 0; i < NKEYS; i++) {
        const npydt_npz_member *m = npydt_npz_member_at(h.z, i);
        char want[64], alone[96];
        snprintf(want, sizeof want, "%s.npy", keys[i]);
        assert_string_equal(m->name, want);
        assert_int_equal(m->method, method);
        snprintf(alone, sizeof alone, "alone/%s", want);
        size_t alen;
        unsigned char *abytes = test_read_file(npz_path(alone), &alen);
        npydt_header *ha, *hm;
        TEST_ERROR(err);
        assert_int_equal(npydt_parse_buffer(abytes, alen, NULL, &ha, &err), NPYDT_OK);
        npydt_status st = npydt_npz_member_header(h.z, i, &hm, &err);
        if (st != NPYDT_OK)
            fail_msg("%s:%s: %s", archive, m->name, err.message);
        assert_true(npydt_dtype_equal(npydt_header_dtype(ha), npydt_header_dtype(hm)));
        assert_int_equal(npydt_header_ndim(ha), npydt_header_ndim(hm));
        for (size_t d = 0; d < npydt_header_ndim(ha); d++)
            assert_int_equal(npydt_header_shape(ha)[d], npydt_header_shape(hm)[d]);
        assert_int_equal(npydt_header_fortran_order(ha), npydt_header_fortran_order(hm));
        assert_int_equal(npydt_header_version_major(ha), npydt_header_version_major(hm));
        assert_int_equal(npydt_header_len(ha), npydt_header_len(hm));
        assert_int_equal(npydt_header_data_bytes(ha), npydt_header_data_bytes(hm));
        size_t mlen;
        unsigned char *mbytes = read_member(h.z, i, 7, &mlen);
        assert_int_equal(mlen, alen);
        assert_memory_equal(mbytes, abytes, alen);
        assert_int_equal(npydt_npz_member_verify(h.z, i, &err), NPYDT_OK);
        free(mbytes);
        npydt_header_free(ha);
        npydt_header_free(hm);
        free(abytes);
    }
    release(&h);
}

static void test_npz_savez_members_match_alone(void **state)
{
    (void)state;
    check_members_match_alone("savez.npz", NPYDT_NPZ_STORED);
}

static void test_npz_savez_compressed_members_match_alone(void **state)
{
    (void)state;
    check_members_match_alone("savez_compressed.npz", NPYDT_NPZ_DEFLATED);
}

static void test_npz_data_descriptors_members_match_alone(void **state)
{
    (void)state;
    check_members_match_alone("savez_stream.npz", NPYDT_NPZ_DEFLATED);
}

static void test_npz_zip64_records_members_match_alone(void **state)
{
    (void)state;
    check_members_match_alone("savez_zip64.npz", NPYDT_NPZ_STORED);
}

static void test_npz_comment_members_match_alone(void **state)
{
    (void)state;
    check_members_match_alone("comment.npz", NPYDT_NPZ_STORED);
}

static void test_npz_savez_member_sizes_listed(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "savez_compressed.npz", NULL);
    const npydt_npz_member *m = npydt_npz_member_at(h.z, 0); /* ints: 5 x <i8 */
    assert_int_equal(m->uncompressed_size, 128 + 40);
    assert_true(m->compressed_size > 0 && m->compressed_size < m->uncompressed_size);
    assert_int_equal(m->local_header_offset, 0);
    assert_true(m->data_offset > 30);
    assert_null(npydt_npz_member_at(h.z, NKEYS));
    release(&h);
}

static void test_npz_stored_member_data_in_place(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "savez.npz", NULL);
    const void *data;
    uint64_t len;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_member_data(h.z, 3, &data, &len, &err), NPYDT_OK);
    const npydt_npz_member *m = npydt_npz_member_at(h.z, 3);
    assert_ptr_equal(data, h.bytes + m->data_offset);
    assert_int_equal(len, m->uncompressed_size);
    size_t alen;
    unsigned char *abytes = test_read_file(npz_path("alone/records.npy"), &alen);
    assert_int_equal(len, alen);
    assert_memory_equal(data, abytes, alen);
    free(abytes);
    release(&h);
}

static void test_npz_deflated_member_data_refused(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "savez_compressed.npz", NULL);
    const void *data;
    uint64_t len;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_member_data(h.z, 0, &data, &len, &err));
    release(&h);
}

static void test_npz_stream_next_chunks_bounded(void **state)
{
    (void)state;
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.buffer_size = 16;
    struct held h;
    open_ok(&h, "savez_compressed.npz", &opts);
    npydt_npz_stream *s;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_stream_open(h.z, 0, &s, &err), NPYDT_OK);
    const void *chunk;
    size_t len, total = 0, chunks = 0;
    do {
        assert_int_equal(npydt_npz_stream_next(s, &chunk, &len, &err), NPYDT_OK);
        assert_true(len <= 16);
        total += len;
        chunks += len > 0;
    } while (len > 0);
    assert_int_equal(total, 168);
    assert_int_equal(chunks, (168 + 15) / 16);
    npydt_npz_stream_close(s);
    release(&h);
}

static void test_npz_empty_archive_has_no_members(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "empty.npz", NULL);
    assert_int_equal(npydt_npz_count(h.z), 0);
    release(&h);
}

static void test_npz_names_decoded_like_python(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "names.npz", NULL);
    assert_int_equal(npydt_npz_count(h.z), 2);
    assert_string_equal(npydt_npz_member_at(h.z, 0)->name, "caf\xc3\xa9.npy");
    assert_string_equal(npydt_npz_member_at(h.z, 1)->name, "\xc3\xb6l.npy"); /* CP437 0x94 */
    release(&h);
}

static void test_npz_find_with_and_without_suffix(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "savez.npz", NULL);
    size_t a = 99, b = 98;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_find(h.z, "records", &a, &err), NPYDT_OK);
    assert_int_equal(npydt_npz_find(h.z, "records.npy", &b, &err), NPYDT_OK);
    assert_int_equal(a, 3);
    assert_int_equal(b, 3);
    assert_fails(NPYDT_E_NOT_FOUND, &err, npydt_npz_find(h.z, "record", &a, &err));
    assert_non_null(strstr(err.message, "'record'"));
    release(&h);
}

static void test_npz_open_path_mapped_and_read(void **state)
{
    (void)state;
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    for (int no_mmap = 0; no_mmap <= 1; no_mmap++) {
        opts.no_mmap = no_mmap;
        npydt_npz *z;
        TEST_ERROR(err);
        assert_int_equal(npydt_npz_open_path(npz_path("savez.npz"), &opts, &z, &err), NPYDT_OK);
        assert_int_equal(npydt_npz_count(z), NKEYS);
        assert_int_equal(npydt_npz_member_verify(z, 0, &err), NPYDT_OK);
        npydt_npz_close(z);
    }
}

static void test_npz_open_path_missing_is_io(void **state)
{
    (void)state;
    npydt_npz *z = (npydt_npz *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err, npydt_npz_open_path(npz_path("no-such.npz"), NULL, &z, &err));
    assert_null(z);
}

static void test_npz_is_archive_by_magic(void **state)
{
    (void)state;
    assert_true(npydt_npz_is_archive("PK\3\4rest", 9));
    assert_true(npydt_npz_is_archive("PK\5\6", 4));
    assert_false(npydt_npz_is_archive("\x93NUMPY", 6));
    assert_false(npydt_npz_is_archive("PK\3", 3));
}

/* ---- zip bombs -------------------------------------------------------------- */

static void test_npz_bomb_honest_accepted_by_default(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "zeros_100m.npz", NULL);
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_member_verify(h.z, 0, &err), NPYDT_OK);
    release(&h);
}

static void test_npz_bomb_over_inflated_cap_refused(void **state)
{
    (void)state;
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.max_inflated_bytes = (uint64_t)64 << 20;
    struct held h;
    TEST_ERROR(err);
    assert_int_equal(open_held(&h, "zeros_100m.npz", &opts, &err), NPYDT_E_ARCHIVE);
    assert_null(h.z);
    assert_non_null(strstr(err.message, "'zeros.npy'"));
    assert_non_null(strstr(err.message, "max_inflated_bytes"));
    release(&h);
}

static void test_npz_bomb_over_ratio_refused(void **state)
{
    (void)state;
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.max_ratio = 100;
    struct held h;
    TEST_ERROR(err);
    assert_int_equal(open_held(&h, "zeros_100m.npz", &opts, &err), NPYDT_E_ARCHIVE);
    assert_non_null(strstr(err.message, "max_ratio"));
    release(&h);
}

static void test_npz_bomb_lying_small_size_stops_early(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "bad/size_short_bomb.npz", NULL);
    npydt_header *hd;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_member_header(h.z, 0, &hd, &err), NPYDT_OK);
    npydt_header_free(hd);
    npydt_npz_stream *s;
    assert_int_equal(npydt_npz_stream_open(h.z, 0, &s, &err), NPYDT_OK);
    unsigned char buf[4096];
    size_t got;
    npydt_status st;
    do {
        test_poison_error(&err);
        st = npydt_npz_stream_read(s, buf, sizeof buf, &got, &err);
    } while (st == NPYDT_OK && got > 0);
    assert_int_equal(st, NPYDT_E_ARCHIVE);
    test_assert_error_filled(st, &err);
    assert_non_null(strstr(err.message, "inflates to more than"));
    assert_int_equal(npydt_npz_stream_position(s), npydt_npz_member_at(h.z, 0)->uncompressed_size);
    npydt_npz_stream_close(s);
    release(&h);
}

/* ---- damage found only when the data is read --------------------------------- */

/* The archive opens and every header reads, but verifying member i fails
 * with NPYDT_E_ARCHIVE naming it and saying `needle`. */
static void check_verify_refused(const char *name, size_t i, const char *needle)
{
    struct held h;
    open_ok(&h, name, NULL);
    npydt_header *hd;
    TEST_ERROR(err);
    npydt_status st = npydt_npz_member_header(h.z, i, &hd, &err);
    if (st != NPYDT_OK)
        fail_msg("%s: header: %s", name, err.message);
    npydt_header_free(hd);
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_member_verify(h.z, i, &err));
    char quoted[128];
    snprintf(quoted, sizeof quoted, "member '%s'", npydt_npz_member_at(h.z, i)->name);
    if (!strstr(err.message, quoted) || !strstr(err.message, needle))
        fail_msg("%s: message '%s' lacks '%s' or '%s'", name, err.message, quoted, needle);
    release(&h);
}

static void test_npz_crc_stored_refused(void **state)
{
    (void)state;
    check_verify_refused("bad/crc_stored.npz", 0, "CRC-32 mismatch");
}

static void test_npz_crc_deflated_refused(void **state)
{
    (void)state;
    check_verify_refused("bad/crc_deflated.npz", 0, "CRC-32 mismatch");
}

static void test_npz_lying_long_size_refused(void **state)
{
    (void)state;
    check_verify_refused("bad/size_long.npz", 0, "deflate stream ends after");
}

static void test_npz_cut_deflate_stream_refused(void **state)
{
    (void)state;
    check_verify_refused("bad/deflate_cut.npz", 0, "end inside the deflate stream");
}

/* The header sits in a deflate block of its own and the data's block is
 * garbage: reading the header must not touch it. */
static void test_npz_header_does_not_inflate_data(void **state)
{
    (void)state;
    check_verify_refused("bad/corrupt_data.npz", 0, "corrupt deflate data");
}

static void test_npz_stream_next_checks_stored_crc_first(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "bad/crc_stored.npz", NULL);
    npydt_npz_stream *s;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_stream_open(h.z, 0, &s, &err), NPYDT_OK);
    const void *chunk = "x";
    size_t len = 1;
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_stream_next(s, &chunk, &len, &err));
    assert_null(chunk);
    assert_int_equal(len, 0);
    npydt_npz_stream_close(s);
    release(&h);
}

static void test_npz_stream_error_is_sticky(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "bad/crc_deflated.npz", NULL);
    npydt_npz_stream *s;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_stream_open(h.z, 0, &s, &err), NPYDT_OK);
    unsigned char buf[1024];
    size_t got;
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_stream_read(s, buf, sizeof buf, &got, &err));
    assert_int_equal(got, 0);
    test_poison_error(&err);
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_stream_read(s, buf, sizeof buf, &got, &err));
    test_assert_error_filled(NPYDT_E_ARCHIVE, &err);
    assert_non_null(strstr(err.message, "CRC-32"));
    npydt_npz_stream_close(s);
    release(&h);
}

static void test_npz_short_member_is_data_error(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "bad/short_member.npz", NULL);
    npydt_header *hd = (npydt_header *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_DATA, &err, npydt_npz_member_header(h.z, 0, &hd, &err));
    assert_null(hd);
    assert_non_null(strstr(err.message, "member 'a.npy': declares 140 bytes"));
    release(&h);
}

/* ---- damage found when the archive is opened --------------------------------- */

static void check_open_refused(const char *name, const npydt_npz_options *opts,
                               const char *needle)
{
    struct held h;
    TEST_ERROR(err);
    npydt_status st = open_held(&h, name, opts, &err);
    if (st != NPYDT_E_ARCHIVE)
        fail_msg("%s: expected bad archive, got %s: %s", name, npydt_status_name(st),
                 st ? err.message : "");
    assert_null(h.z);
    assert_int_equal(err.code, NPYDT_E_ARCHIVE);
    assert_int_equal(err.offset, NPYDT_NO_OFFSET);
    if (!strstr(err.message, needle))
        fail_msg("%s: message '%s' lacks '%s'", name, err.message, needle);
    release(&h);
}

#define REFUSED_AT_OPEN(what, file, needle)                  \
    static void test_npz_refuses_##what(void **state)        \
    {                                                        \
        (void)state;                                         \
        check_open_refused("bad/" file, NULL, needle);       \
    }

REFUSED_AT_OPEN(truncated_cd, "truncated_cd.npz", "no end of central directory record")
REFUSED_AT_OPEN(cd_count_beyond_cd, "cd_count.npz", "truncated in entry 12 of 12")
REFUSED_AT_OPEN(cd_size_short, "cd_size.npz", "does not end where the end record starts")
REFUSED_AT_OPEN(cd_entry_hidden_after_count, "cd_trailing.npz", "bytes after its last entry")
REFUSED_AT_OPEN(trailing_data, "trailing.npz", "bytes follow it")
REFUSED_AT_OPEN(prefixed_data, "prefixed.npz", "does not end where the end record starts")
REFUSED_AT_OPEN(signature_in_comment, "comment_signature.npz", "signature inside its comment")
REFUSED_AT_OPEN(duplicate_names, "duplicate.npz", "member 'a.npy': the name appears twice")
REFUSED_AT_OPEN(duplicate_decoded_names, "duplicate_decoded.npz", "appears twice")
REFUSED_AT_OPEN(overlapping_members, "overlap.npz", "member 'outer.npy': overlaps member 'inner.npy'")
REFUSED_AT_OPEN(data_into_cd, "into_cd.npz", "run past the start of the central directory")
REFUSED_AT_OPEN(offset_out_of_range, "offset.npz", "is not before the central directory")
REFUSED_AT_OPEN(encrypted, "encrypted.npz", "member 'a.npy': is encrypted")
REFUSED_AT_OPEN(unsupported_method, "method.npz", "compression method 12")
REFUSED_AT_OPEN(dotdot_name, "name_dotdot.npz", "'..' component")
REFUSED_AT_OPEN(dotdot_backslash_name, "name_dotdot_backslash.npz", "'..' component")
REFUSED_AT_OPEN(nul_in_name, "name_nul.npz", "member 'a\\x00b.npy': entry 1 has a NUL byte")
REFUSED_AT_OPEN(empty_name, "name_empty.npz", "empty name")
REFUSED_AT_OPEN(bad_utf8_name, "name_utf8.npz", "not valid UTF-8")
REFUSED_AT_OPEN(local_name_differs, "local_name.npz", "names another file")
REFUSED_AT_OPEN(local_size_differs, "local_size.npz", "the local header declares")
REFUSED_AT_OPEN(ratio_lie, "ratio.npz", "max_ratio")
REFUSED_AT_OPEN(zip64_disagreement, "zip64_disagree.npz", "disagree")
REFUSED_AT_OPEN(zip64_bad_locator, "zip64_locator.npz", "Zip64 end record offset")
REFUSED_AT_OPEN(zip64_short_extra, "zip64_short_extra.npz", "Zip64 extra field is too short")

static void test_npz_long_name_cut_in_message(void **state)
{
    (void)state;
    check_open_refused("bad/duplicate_long.npz", NULL, "nnnnnnnnnn...': the name appears twice");
}

/* An end record that counts more entries than its directory can hold
 * (46 bytes each) is refused before anything is allocated for them. */
static void test_npz_count_beyond_cd_size_refused(void **state)
{
    (void)state;
    size_t len;
    unsigned char *bytes = test_read_file(npz_path("savez.npz"), &len);
    unsigned char *eocd = bytes + len - 22;
    eocd[8] = eocd[10] = 0x60;
    eocd[9] = eocd[11] = 0xEA; /* 60000 entries */
    npydt_npz *z;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_open_buffer(bytes, len, NULL, &z, &err));
    assert_non_null(strstr(err.message, "cannot hold the 60000 entries"));
    free(bytes);
}

static void test_npz_open_path_refused_archive_released(void **state)
{
    (void)state;
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    for (int no_mmap = 0; no_mmap <= 1; no_mmap++) {
        opts.no_mmap = no_mmap;
        npydt_npz *z = (npydt_npz *)1;
        TEST_ERROR(err);
        assert_fails(NPYDT_E_ARCHIVE, &err,
                     npydt_npz_open_path(npz_path("bad/overlap.npz"), &opts, &z, &err));
        assert_null(z);
    }
}

static void test_npz_version3_member_header_inflated(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "savez_compressed.npz", NULL);
    size_t i;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_find(h.z, "v3", &i, &err), NPYDT_OK);
    npydt_header *hd;
    assert_int_equal(npydt_npz_member_header(h.z, i, &hd, &err), NPYDT_OK);
    assert_int_equal(npydt_header_version_major(hd), 3);
    assert_string_equal(npydt_dtype_field_name(npydt_header_dtype(hd), 0), "\xcf\x80");
    npydt_header_free(hd);
    release(&h);
}

static void test_npz_too_many_members_refused(void **state)
{
    (void)state;
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.max_members = 3;
    check_open_refused("savez.npz", &opts, "max_members");
}

static void test_npz_not_a_zip_refused(void **state)
{
    (void)state;
    check_open_refused("alone/ints.npy", NULL, "no end of central directory record");
}

static void test_npz_tiny_input_refused(void **state)
{
    (void)state;
    npydt_npz *z;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_open_buffer("PK\5\6", 4, NULL, &z, &err));
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_open_buffer(NULL, 0, NULL, &z, &err));
}

/* ---- robustness ----------------------------------------------------------------- */

/* Open, read every header and verify every member; returns the first
 * failure (OK when the archive is sound) and checks invariants. */
static npydt_status exercise(const unsigned char *bytes, size_t len, const npydt_npz_options *opts)
{
    npydt_npz *z;
    TEST_ERROR(err);
    npydt_status st = npydt_npz_open_buffer(bytes, len, opts, &z, &err);
    if (st != NPYDT_OK) {
        assert_null(z);
        return st;
    }
    npydt_status first = NPYDT_OK;
    for (size_t i = 0; i < npydt_npz_count(z); i++) {
        const npydt_npz_member *m = npydt_npz_member_at(z, i);
        assert_true(m->data_offset + m->compressed_size <= len);
        npydt_header *h;
        st = npydt_npz_member_header(z, i, &h, &err);
        if (st == NPYDT_OK) {
            assert_true(npydt_header_data_offset(h) + npydt_header_data_bytes(h) <=
                        m->uncompressed_size);
            npydt_header_free(h);
        } else if (first == NPYDT_OK) {
            first = st;
        }
        st = npydt_npz_member_verify(z, i, &err);
        if (st != NPYDT_OK && first == NPYDT_OK)
            first = st;
    }
    npydt_npz_close(z);
    return first;
}

static void test_npz_every_truncation_refused(void **state)
{
    (void)state;
    size_t len;
    unsigned char *full = test_read_file(npz_path("savez_compressed.npz"), &len);
    for (size_t n = 0; n < len; n++) {
        unsigned char *cut = malloc(n ? n : 1);
        assert_non_null(cut);
        memcpy(cut, full, n);
        assert_int_equal(exercise(cut, n, NULL), NPYDT_E_ARCHIVE);
        free(cut);
    }
    assert_int_equal(exercise(full, len, NULL), NPYDT_OK);
    free(full);
}

/* Flip bits in every byte: whatever happens, it is a status, never a crash,
 * and a member that verifies delivered exactly its declared size. */
static void test_npz_every_byte_damaged_survived(void **state)
{
    (void)state;
    static const unsigned char flips[] = {0x01, 0x80, 0xFF};
    const char *names[] = {"savez_compressed.npz", "savez_zip64.npz", "savez_stream.npz"};
    for (size_t f = 0; f < sizeof names / sizeof names[0]; f++) {
        size_t len;
        unsigned char *bytes = test_read_file(npz_path(names[f]), &len);
        size_t refused = 0;
        for (size_t i = 0; i < len; i++)
            for (size_t k = 0; k < sizeof flips; k++) {
                bytes[i] ^= flips[k];
                npydt_status st = exercise(bytes, len, NULL);
                refused += st != NPYDT_OK;
                bytes[i] ^= flips[k];
            }
        assert_true(refused > 0);
        free(bytes);
    }
}

/* Fail each allocation in turn: NPYDT_E_NOMEM and nothing leaks. */
static void test_npz_allocation_failures_reported(void **state)
{
    (void)state;
    size_t len;
    unsigned char *bytes = test_read_file(npz_path("savez_compressed.npz"), &len);
    for (long n = 0;; n++) {
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        npydt_npz_options opts;
        npydt_npz_options_init(&opts);
        opts.base.allocator = &ta.alloc;
        npydt_status st = exercise(bytes, len, &opts);
        assert_int_equal(ta.live_blocks, 0);
        assert_int_equal(ta.live_bytes, 0);
        if (st == NPYDT_OK) {
            assert_true(n > 3);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
    }
    free(bytes);
}


/* ---- hand-built archives ----------------------------------------------------- */

/* One member of a hand-built archive: its bytes as stored, and the fields
 * of its central entry (the local header repeats crc and sizes unless the
 * data-descriptor flag 0x0008 is set, then it holds zeros). */
struct zm {
    const char *name;
    size_t name_len;               /* 0: strlen(name) */
    uint16_t flags, method, disk;
    const void *data;
    size_t data_len;
    uint32_t crc, csize, usize;
    const void *cx;                /* central extra field */
    size_t cx_len;
    size_t gap;                    /* zero bytes after the data */
};

struct zbuf {
    unsigned char b[8192];
    size_t len;
};

static void put(struct zbuf *z, const void *p, size_t n)
{
    assert_true(n <= sizeof z->b - z->len);
    if (n)
        memcpy(z->b + z->len, p, n);
    z->len += n;
}

static void put16(struct zbuf *z, uint32_t v)
{
    unsigned char b[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
    put(z, b, 2);
}

static void put32(struct zbuf *z, uint32_t v)
{
    put16(z, v & 0xFFFF);
    put16(z, v >> 16);
}

/* A stored member of `data` with true CRC and sizes. */
static struct zm stored_member(const char *name, const void *data, size_t len)
{
    struct zm m = {0};
    m.name = name;
    m.data = data;
    m.data_len = len;
    m.crc = (uint32_t)crc32(0, data, (uInt)len);
    m.csize = m.usize = (uint32_t)len;
    return m;
}

/* A deflated member of `data` (raw deflate, as zip stores it); the
 * compressed bytes go to `out` (room: 256 bytes). */
static struct zm deflated_member(const char *name, const void *data, size_t len,
                                 unsigned char *out)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8,
                                  Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_in = (Bytef *)(uintptr_t)data;
    zs.avail_in = (uInt)len;
    zs.next_out = out;
    zs.avail_out = 256;
    assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
    struct zm m = stored_member(name, data, len);
    m.method = 8;
    m.data = out;
    m.data_len = 256 - zs.avail_out;
    m.csize = (uint32_t)m.data_len;
    deflateEnd(&zs);
    return m;
}

/* The archive of members ms[0..n) in a malloc'ed buffer of exact size. */
static unsigned char *build_zip(const struct zm *ms, size_t n, size_t *len)
{
    static struct zbuf z;
    uint32_t lho[8];
    assert_true(n <= 8);
    z.len = 0;
    for (size_t i = 0; i < n; i++) {
        const struct zm *m = &ms[i];
        size_t nlen = m->name_len ? m->name_len : strlen(m->name);
        int desc = (m->flags & 0x0008) != 0;
        lho[i] = (uint32_t)z.len;
        put32(&z, 0x04034b50);
        put16(&z, 20);
        put16(&z, m->flags);
        put16(&z, m->method);
        put32(&z, 0);
        put32(&z, desc ? 0 : m->crc);
        put32(&z, desc ? 0 : m->csize);
        put32(&z, desc ? 0 : m->usize);
        put16(&z, (uint32_t)nlen);
        put16(&z, 0);
        put(&z, m->name, nlen);
        put(&z, m->data, m->data_len);
        static const unsigned char zeros[64];
        put(&z, zeros, m->gap);
    }
    uint32_t cd_off = (uint32_t)z.len;
    for (size_t i = 0; i < n; i++) {
        const struct zm *m = &ms[i];
        size_t nlen = m->name_len ? m->name_len : strlen(m->name);
        put32(&z, 0x02014b50);
        put16(&z, 20);
        put16(&z, 20);
        put16(&z, m->flags);
        put16(&z, m->method);
        put32(&z, 0);
        put32(&z, m->crc);
        put32(&z, m->csize);
        put32(&z, m->usize);
        put16(&z, (uint32_t)nlen);
        put16(&z, (uint32_t)m->cx_len);
        put16(&z, 0);
        put16(&z, m->disk);
        put16(&z, 0);
        put32(&z, 0);
        put32(&z, lho[i]);
        put(&z, m->name, nlen);
        put(&z, m->cx, m->cx_len);
    }
    uint32_t cd_size = (uint32_t)z.len - cd_off;
    put32(&z, 0x06054b50);
    put16(&z, 0);
    put16(&z, 0);
    put16(&z, (uint32_t)n);
    put16(&z, (uint32_t)n);
    put32(&z, cd_size);
    put32(&z, cd_off);
    put16(&z, 0);
    unsigned char *out = malloc(z.len);
    assert_non_null(out);
    memcpy(out, z.b, z.len);
    *len = z.len;
    return out;
}

/* Opening the archive of ms[0..n) fails with NPYDT_E_ARCHIVE and exactly
 * `message`. */
static void check_built_refused(const struct zm *ms, size_t n, const char *message)
{
    size_t len;
    unsigned char *bytes = build_zip(ms, n, &len);
    npydt_npz *z = (npydt_npz *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_open_buffer(bytes, len, NULL, &z, &err));
    assert_null(z);
    assert_int_equal(err.code, NPYDT_E_ARCHIVE);
    assert_string_equal(err.message, message);
    free(bytes);
}

/* The archive of ms[0..n), opened (it must open); *bytes holds it until
 * the caller frees it after closing. */
static npydt_npz *open_built(const struct zm *ms, size_t n, unsigned char **bytes)
{
    size_t len;
    *bytes = build_zip(ms, n, &len);
    npydt_npz *z;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_open_buffer(*bytes, len, NULL, &z, &err), NPYDT_OK);
    return z;
}

static void test_npz_built_archive_opens_and_verifies(void **state)
{
    (void)state;
    struct zm m = stored_member("a.npy", "hello", 5);
    unsigned char *bytes;
    npydt_npz *z = open_built(&m, 1, &bytes);
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_count(z), 1);
    assert_int_equal(npydt_npz_member_at(z, 0)->data_offset, 35);
    assert_int_equal(npydt_npz_member_verify(z, 0, &err), NPYDT_OK);
    npydt_npz_close(z);
    free(bytes);
}

/* A disk number of 0xFFFF defers to the Zip64 extra field's 4-byte disk. */
static void test_npz_zip64_extra_disk_number_zero_accepted(void **state)
{
    (void)state;
    static const unsigned char x[] = {1, 0, 4, 0, 0, 0, 0, 0};
    struct zm m = stored_member("a.npy", "hello", 5);
    m.disk = 0xFFFF;
    m.cx = x;
    m.cx_len = sizeof x;
    unsigned char *bytes;
    npydt_npz *z = open_built(&m, 1, &bytes);
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_member_at(z, 0)->uncompressed_size, 5);
    assert_int_equal(npydt_npz_member_verify(z, 0, &err), NPYDT_OK);
    npydt_npz_close(z);
    free(bytes);
}

/* The last central entry's bytes (here an extra field of an unknown kind)
 * end in what reads as a Zip64 locator but no Zip64 end record is where it
 * points: the classic end record defers nothing, so it alone is read, as
 * Python's zipfile reads it. */
static void test_npz_locator_lookalike_before_complete_end_record_ignored(void **state)
{
    (void)state;
    static const unsigned char x[] = {0x77, 0x77, 20, 0, 'P', 'K', 6, 7, 0, 0, 0, 0,
                                      0x34, 0x12, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
    struct zm m = stored_member("a.npy", "hello", 5);
    m.cx = x;
    m.cx_len = sizeof x;
    unsigned char *bytes;
    npydt_npz *z = open_built(&m, 1, &bytes);
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_count(z), 1);
    assert_int_equal(npydt_npz_member_verify(z, 0, &err), NPYDT_OK);
    npydt_npz_close(z);
    free(bytes);
}

/* Such a lookalike naming another disk is refused, as Python refuses it. */
static void test_npz_locator_lookalike_naming_other_disk_refused(void **state)
{
    (void)state;
    static const unsigned char x[] = {0x77, 0x77, 20, 0, 'P', 'K', 6, 7, 3, 0, 0, 0,
                                      0x34, 0x12, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0};
    struct zm m = stored_member("a.npy", "hello", 5);
    m.cx = x;
    m.cx_len = sizeof x;
    check_built_refused(&m, 1, "the Zip64 locator names disk 3 of 1: multi-disk archives "
                               "are not supported");
}

static void test_npz_zip64_extra_disk_number_other_refused(void **state)
{
    (void)state;
    static const unsigned char x[] = {1, 0, 4, 0, 2, 0, 0, 0};
    struct zm m = stored_member("a.npy", "hello", 5);
    m.disk = 0xFFFF;
    m.cx = x;
    m.cx_len = sizeof x;
    check_built_refused(&m, 1, "member 'a.npy': starts on disk 2: multi-disk archives are "
                               "not supported");
}

static void test_npz_zip64_extra_without_disk_number_refused(void **state)
{
    (void)state;
    static const unsigned char x[] = {1, 0, 2, 0, 0, 0};
    struct zm m = stored_member("a.npy", "hello", 5);
    m.disk = 0xFFFF;
    m.cx = x;
    m.cx_len = sizeof x;
    check_built_refused(&m, 1, "member 'a.npy': its Zip64 extra field is too short for the "
                               "sizes it stands for");
}

static void test_npz_two_zip64_extra_fields_refused(void **state)
{
    (void)state;
    static const unsigned char x[] = {1, 0, 0, 0, 1, 0, 0, 0};
    struct zm m = stored_member("a.npy", "hello", 5);
    m.cx = x;
    m.cx_len = sizeof x;
    check_built_refused(&m, 1, "member 'a.npy': has two Zip64 extra fields");
}

/* '.a' is a two-byte component, but not '..'. */
static void test_npz_dot_prefixed_component_accepted(void **state)
{
    (void)state;
    struct zm m = stored_member(".a/b.npy", "hello", 5);
    size_t len;
    unsigned char *bytes = build_zip(&m, 1, &len);
    npydt_npz *z;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_open_buffer(bytes, len, NULL, &z, &err), NPYDT_OK);
    assert_string_equal(npydt_npz_member_at(z, 0)->name, ".a/b.npy");
    npydt_npz_close(z);
    free(bytes);
}

/* No room after the data for the data descriptor its flag announces. */
static void test_npz_descriptor_past_cd_refused(void **state)
{
    (void)state;
    struct zm m = stored_member("a.npy", "hello", 5);
    m.flags = 0x0008;
    check_built_refused(&m, 1, "member 'a.npy': its 5 bytes of data at offset 35 run past the "
                               "start of the central directory (at 40)");
}

/* A Zip64 compressed size of 2**64 - 1: the ratio product and the end of
 * the data both overflow, and the member is refused, not wrapped. */
static void test_npz_zip64_compressed_size_wrapping_refused(void **state)
{
    (void)state;
    static const unsigned char x[] = {1, 0, 16, 0, 5, 0, 0, 0, 0, 0, 0, 0,
                                      0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    struct zm m = stored_member("a.npy", "hello", 5);
    m.method = 8;
    m.flags = 0x0008;
    m.csize = m.usize = 0xFFFFFFFF;
    m.cx = x;
    m.cx_len = sizeof x;
    m.gap = 16;
    check_built_refused(&m, 1, "member 'a.npy': its 18446744073709551615 bytes of data at "
                               "offset 35 run past the start of the central directory (at 56)");
}

/* A name refused before it is decoded is shown byte by byte. */
static void test_npz_raw_name_escaped_in_message(void **state)
{
    (void)state;
    struct zm m = stored_member("a\\\x7f", "hello", 5);
    m.name = "a\\\x7f\0.npy";
    m.name_len = 8;
    check_built_refused(&m, 1, "member 'a\\x5c\\x7f\\x00.npy': entry 1 has a NUL byte in its name");
}

static void test_npz_refuses_cd_bytes_without_entries(void **state)
{
    (void)state;
    unsigned char bytes[46 + 22] = {0};
    unsigned char *e = bytes + 46;
    e[0] = 'P', e[1] = 'K', e[2] = 5, e[3] = 6;
    e[12] = 46; /* directory size; offset 0; no entries */
    npydt_npz *z;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_open_buffer(bytes, sizeof bytes, NULL, &z, &err));
    assert_string_equal(err.message, "the central directory has 46 bytes but no entries");
}

/* ---- the header of a deflated member ----------------------------------------- */

/* A deflated member of `bytes` gives the very status, offset and message
 * the header parser gives for the bytes themselves. */
static void check_deflated_header_like_parser(const void *bytes, size_t len,
                                              const npydt_npz_options *opts)
{
    unsigned char packed[256];
    struct zm m = deflated_member("a.npy", bytes, len, packed);
    size_t zlen;
    unsigned char *zip = build_zip(&m, 1, &zlen);
    npydt_npz *z;
    npydt_error err, want;
    assert_int_equal(npydt_npz_open_buffer(zip, zlen, opts, &z, &err), NPYDT_OK);
    npydt_header *h = (npydt_header *)1, *hp = NULL;
    npydt_status st = npydt_npz_member_header(z, 0, &h, &err);
    npydt_status wst = npydt_header_parse(bytes, len, opts ? &opts->base : NULL, &hp, &want);
    assert_int_not_equal(wst, NPYDT_OK);
    assert_int_equal(st, wst);
    assert_null(h);
    assert_int_equal(err.offset, want.offset);
    assert_string_equal(err.message, want.message);
    npydt_npz_close(z);
    free(zip);
}

static void test_npz_deflated_header_shorter_than_preamble(void **state)
{
    (void)state;
    check_deflated_header_like_parser("\x93NUMPY\x01\x00\x76", 9, NULL);
}

static void test_npz_deflated_header_empty_member(void **state)
{
    (void)state;
    check_deflated_header_like_parser("", 0, NULL);
}

static void test_npz_deflated_header_bad_minor_version(void **state)
{
    (void)state;
    check_deflated_header_like_parser("\x93NUMPY\x01\x01\x76\x00{}", 12, NULL);
}

static void test_npz_deflated_header_bad_major_versions(void **state)
{
    (void)state;
    check_deflated_header_like_parser("\x93NUMPY\x00\x00\x76\x00{}", 12, NULL);
    check_deflated_header_like_parser("\x93NUMPY\x04\x00\x76\x00{}", 12, NULL);
}

static void test_npz_deflated_header_bad_magic(void **state)
{
    (void)state;
    check_deflated_header_like_parser("\x93NUMPZ\x01\x00\x76\x00{}", 12, NULL);
}

static void test_npz_deflated_header_version2_cut_in_length(void **state)
{
    (void)state;
    check_deflated_header_like_parser("\x93NUMPY\x02\x00\x76\x00\x00", 11, NULL);
}

static void test_npz_deflated_header_over_max_header_bytes(void **state)
{
    (void)state;
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.base.limits.max_header_bytes = 16;
    check_deflated_header_like_parser("\x93NUMPY\x01\x00\x76\x00{'descr': '<i8', "
                                      "'fortran_order': False, 'shape': ()}", 63, &opts);
}

/* ---- arguments ---------------------------------------------------------------- */

static void test_npz_open_buffer_null_out_refused(void **state)
{
    (void)state;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_open_buffer("PK\5\6", 4, NULL, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
}

static void test_npz_open_buffer_null_buf_refused(void **state)
{
    (void)state;
    npydt_npz *z = (npydt_npz *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_open_buffer(NULL, 5, NULL, &z, &err));
    assert_null(z);
    assert_string_equal(err.message, "buf is NULL");
}

static void test_npz_open_incomplete_allocator_refused(void **state)
{
    (void)state;
    struct test_alloc ta;
    test_alloc_init(&ta, -1, 0);
    ta.alloc.realloc = NULL;
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.base.allocator = &ta.alloc;
    npydt_npz *z;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_open_buffer("PK\5\6", 4, &opts, &z, &err));
    assert_string_equal(err.message, "allocator is missing a function");
    assert_int_equal(ta.calls, 0);
}

/* 0 is the default for every limit and size of the options, buffer_size
 * included (64 KiB): a member streams through it. */
static void test_npz_open_zero_buffer_size_is_the_default(void **state)
{
    (void)state;
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.buffer_size = 0;
    npydt_npz *z;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_open_path(npz_path("savez.npz"), &opts, &z, &err), NPYDT_OK);
    npydt_npz_stream *s;
    assert_int_equal(npydt_npz_stream_open(z, 0, &s, &err), NPYDT_OK);
    unsigned char buf[64];
    size_t got;
    assert_int_equal(npydt_npz_stream_read(s, buf, sizeof buf, &got, &err), NPYDT_OK);
    assert_int_equal(got, sizeof buf);
    assert_memory_equal(buf, "\x93NUMPY", 6);
    npydt_npz_stream_close(s);
    npydt_npz_close(z);
}

static void test_npz_open_path_null_out_refused(void **state)
{
    (void)state;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_open_path(npz_path("savez.npz"), NULL, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
}

static void test_npz_open_fd_bad_fd_is_io(void **state)
{
    (void)state;
    npydt_npz *z = (npydt_npz *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err, npydt_npz_open_fd(-1, NULL, &z, &err));
    assert_null(z);
    assert_string_equal(err.message, "cannot stat: Bad file descriptor");
}

static void test_npz_open_directory_is_io(void **state)
{
    (void)state;
    npydt_npz *z = (npydt_npz *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err, npydt_npz_open_path(npz_path("bad"), NULL, &z, &err));
    assert_null(z);
    assert_string_equal(err.message, "not a regular file");
}

static void test_npz_open_empty_file_refused(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt-test-npz-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    npydt_npz *z = (npydt_npz *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_open_fd(fd, NULL, &z, &err));
    assert_null(z);
    assert_string_equal(err.message, "not a zip archive: 0 bytes is shorter than the 22-byte "
                                     "end of central directory record");
    close(fd);
    unlink(path);
}

/* A write-only descriptor can be neither mapped nor read. */
static void test_npz_open_write_only_fd_is_io(void **state)
{
    (void)state;
    char path[] = "/tmp/npydt-test-npz-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "PK\5\6", 4), 4);
    close(fd);
    fd = open(path, O_WRONLY);
    assert_true(fd >= 0);
    npydt_npz *z = (npydt_npz *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_IO, &err, npydt_npz_open_fd(fd, NULL, &z, &err));
    assert_null(z);
    assert_string_equal(err.message, "read failed: Bad file descriptor");
    close(fd);
    unlink(path);
}

static void test_npz_open_no_mmap_copy_allocation_failure(void **state)
{
    (void)state;
    struct test_alloc ta;
    test_alloc_init(&ta, 0, 0);
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.no_mmap = 1;
    opts.base.allocator = &ta.alloc;
    npydt_npz *z = (npydt_npz *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_NOMEM, &err, npydt_npz_open_path(npz_path("savez.npz"), &opts, &z, &err));
    assert_null(z);
    assert_int_equal(ta.calls, 1);
    assert_int_equal(ta.live_blocks, 0);
}

/* Every allocation of an archive read into memory failing in turn: the
 * copy of the file is released with whatever failed after it. */
static void test_npz_open_no_mmap_allocation_failures_leak_nothing(void **state)
{
    (void)state;
    for (long n = 0;; n++) {
        struct test_alloc ta;
        test_alloc_init(&ta, n, 0);
        npydt_npz_options opts;
        npydt_npz_options_init(&opts);
        opts.no_mmap = 1;
        opts.base.allocator = &ta.alloc;
        npydt_npz *z = (npydt_npz *)1;
        TEST_ERROR(err);
        npydt_status st = npydt_npz_open_path(npz_path("savez.npz"), &opts, &z, &err);
        if (st == NPYDT_OK) {
            npydt_npz_close(z);
            assert_int_equal(ta.live_blocks, 0);
            assert_true(n > 2);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        test_assert_error_filled(st, &err);
        assert_null(z);
        assert_int_equal(ta.live_blocks, 0);
        assert_int_equal(ta.live_bytes, 0);
    }
}

/* A file read into memory and then refused as an archive leaves nothing. */
static void test_npz_open_no_mmap_refused_file_leaks_nothing(void **state)
{
    (void)state;
    struct test_alloc ta;
    test_alloc_init(&ta, -1, 0);
    npydt_npz_options opts;
    npydt_npz_options_init(&opts);
    opts.no_mmap = 1;
    opts.base.allocator = &ta.alloc;
    npydt_npz *z = (npydt_npz *)1;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_ARCHIVE, &err,
                 npydt_npz_open_path(test_fixture("scalar_S5.npy"), &opts, &z, &err));
    assert_null(z);
    assert_true(ta.calls >= 1);
    assert_int_equal(ta.live_blocks, 0);
}

static void test_npz_null_archive_has_no_members(void **state)
{
    (void)state;
    assert_int_equal(npydt_npz_count(NULL), 0);
    assert_null(npydt_npz_member_at(NULL, 0));
    npydt_npz_close(NULL);
}

static void test_npz_member_calls_refuse_bad_arguments(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "savez.npz", NULL);
    TEST_ERROR(err);
    size_t i;
    const void *data;
    uint64_t len;
    npydt_header *hd = (npydt_header *)1;
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_find(NULL, "ints", &i, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_find(h.z, NULL, &i, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_find(h.z, "ints", NULL, &err));
    assert_string_equal(err.message, "NULL argument");
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_member_data(h.z, NKEYS, &data, &len, &err));
    assert_string_equal(err.message, "no member 11, or a NULL argument");
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_member_data(NULL, 0, &data, &len, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_member_data(h.z, 0, NULL, &len, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_member_data(h.z, 0, &data, NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_member_header(h.z, 0, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_member_header(h.z, NKEYS, &hd, &err));
    assert_null(hd);
    assert_string_equal(err.message, "no member 11");
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_member_header(NULL, 0, &hd, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_member_verify(h.z, NKEYS, &err));
    assert_string_equal(err.message, "no member 11");
    release(&h);
}

static void test_npz_stream_calls_refuse_bad_arguments(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "savez_compressed.npz", NULL);
    TEST_ERROR(err);
    npydt_npz_stream *s = (npydt_npz_stream *)1;
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_stream_open(h.z, 0, NULL, &err));
    assert_string_equal(err.message, "out is NULL");
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_stream_open(NULL, 0, &s, &err));
    assert_null(s);
    assert_string_equal(err.message, "no member 0");
    assert_int_equal(npydt_npz_stream_open(h.z, 0, &s, &err), NPYDT_OK);
    unsigned char buf[8];
    size_t got = 99;
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_stream_read(NULL, buf, 8, &got, &err));
    assert_int_equal(got, 0);
    assert_string_equal(err.message, "NULL argument");
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_stream_read(s, buf, 8, NULL, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_stream_read(s, NULL, 8, &got, &err));
    const void *chunk = "x";
    size_t len = 99;
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_stream_next(NULL, &chunk, &len, &err));
    assert_null(chunk);
    assert_int_equal(len, 0);
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_stream_next(s, NULL, &len, &err));
    assert_fails(NPYDT_E_ARG, &err, npydt_npz_stream_next(s, &chunk, NULL, &err));
    assert_string_equal(err.message, "NULL argument");
    /* none of that moved the stream */
    assert_int_equal(npydt_npz_stream_position(s), 0);
    assert_int_equal(npydt_npz_stream_read(s, buf, 6, &got, &err), NPYDT_OK);
    assert_int_equal(got, 6);
    assert_memory_equal(buf, "\x93NUMPY", 6);
    assert_int_equal(npydt_npz_stream_position(NULL), 0);
    npydt_npz_stream_close(s);
    npydt_npz_stream_close(NULL);
    release(&h);
}

static void test_npz_stream_read_of_nothing_stays_put(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "savez.npz", NULL);
    npydt_npz_stream *s;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_stream_open(h.z, 0, &s, &err), NPYDT_OK);
    size_t got = 99;
    assert_int_equal(npydt_npz_stream_read(s, NULL, 0, &got, &err), NPYDT_OK);
    assert_int_equal(got, 0);
    assert_int_equal(npydt_npz_stream_position(s), 0);
    npydt_npz_stream_close(s);
    release(&h);
}

/* A failure reported without an error struct is still kept, and replayed
 * in full by the next call of either kind. */
static void test_npz_stream_failure_without_err_replayed_by_next(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "bad/crc_stored.npz", NULL);
    npydt_npz_stream *s;
    TEST_ERROR(err);
    assert_int_equal(npydt_npz_stream_open(h.z, 0, &s, &err), NPYDT_OK);
    unsigned char buf[4096];
    size_t got;
    assert_int_equal(npydt_npz_stream_read(s, buf, sizeof buf, &got, NULL), NPYDT_E_ARCHIVE);
    assert_int_equal(got, 0);
    const void *chunk = "x";
    size_t len = 1;
    assert_fails(NPYDT_E_ARCHIVE, &err, npydt_npz_stream_next(s, &chunk, &len, &err));
    assert_null(chunk);
    assert_int_equal(len, 0);
    assert_int_equal(err.code, NPYDT_E_ARCHIVE);
    assert_string_equal(err.message, "member 'ints.npy': CRC-32 mismatch: the data gives "
                                     "fff61f83, the archive declares a99d77cb");
    npydt_npz_stream_close(s);
    release(&h);
}

static void test_npz_is_archive_needs_a_known_signature(void **state)
{
    (void)state;
    assert_true(npydt_npz_is_archive("PK\6\6", 4));
    assert_false(npydt_npz_is_archive("PK\3\5", 4));
    assert_false(npydt_npz_is_archive("PK\5\7", 4));
    assert_false(npydt_npz_is_archive("PK\6\7", 4));
    assert_false(npydt_npz_is_archive("PK\7\7", 4));
    assert_false(npydt_npz_is_archive("PX\3\4", 4));
    assert_false(npydt_npz_is_archive("QK\3\4", 4));
    assert_false(npydt_npz_is_archive(NULL, 4));
}

static void test_npz_find_quotes_odd_bytes(void **state)
{
    (void)state;
    struct held h;
    open_ok(&h, "savez.npz", NULL);
    size_t i;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_NOT_FOUND, &err, npydt_npz_find(h.z, "it's\\\x7f", &i, &err));
    assert_string_equal(err.message, "the archive has no member 'it\\x27s\\x5c\\x7f' (nor with "
                                     ".npy appended)");
    release(&h);
}

TEST_LIST("npz",
    cmocka_unit_test(test_npz_savez_members_match_alone),
    cmocka_unit_test(test_npz_savez_compressed_members_match_alone),
    cmocka_unit_test(test_npz_data_descriptors_members_match_alone),
    cmocka_unit_test(test_npz_zip64_records_members_match_alone),
    cmocka_unit_test(test_npz_comment_members_match_alone),
    cmocka_unit_test(test_npz_savez_member_sizes_listed),
    cmocka_unit_test(test_npz_stored_member_data_in_place),
    cmocka_unit_test(test_npz_deflated_member_data_refused),
    cmocka_unit_test(test_npz_stream_next_chunks_bounded),
    cmocka_unit_test(test_npz_empty_archive_has_no_members),
    cmocka_unit_test(test_npz_names_decoded_like_python),
    cmocka_unit_test(test_npz_find_with_and_without_suffix),
    cmocka_unit_test(test_npz_open_path_mapped_and_read),
    cmocka_unit_test(test_npz_open_path_missing_is_io),
    cmocka_unit_test(test_npz_is_archive_by_magic),
    cmocka_unit_test(test_npz_bomb_honest_accepted_by_default),
    cmocka_unit_test(test_npz_bomb_over_inflated_cap_refused),
    cmocka_unit_test(test_npz_bomb_over_ratio_refused),
    cmocka_unit_test(test_npz_bomb_lying_small_size_stops_early),
    cmocka_unit_test(test_npz_crc_stored_refused),
    cmocka_unit_test(test_npz_crc_deflated_refused),
    cmocka_unit_test(test_npz_lying_long_size_refused),
    cmocka_unit_test(test_npz_cut_deflate_stream_refused),
    cmocka_unit_test(test_npz_header_does_not_inflate_data),
    cmocka_unit_test(test_npz_stream_next_checks_stored_crc_first),
    cmocka_unit_test(test_npz_stream_error_is_sticky),
    cmocka_unit_test(test_npz_short_member_is_data_error),
    cmocka_unit_test(test_npz_refuses_truncated_cd),
    cmocka_unit_test(test_npz_refuses_cd_count_beyond_cd),
    cmocka_unit_test(test_npz_refuses_cd_size_short),
    cmocka_unit_test(test_npz_refuses_cd_entry_hidden_after_count),
    cmocka_unit_test(test_npz_refuses_trailing_data),
    cmocka_unit_test(test_npz_refuses_prefixed_data),
    cmocka_unit_test(test_npz_refuses_signature_in_comment),
    cmocka_unit_test(test_npz_refuses_duplicate_names),
    cmocka_unit_test(test_npz_refuses_duplicate_decoded_names),
    cmocka_unit_test(test_npz_refuses_overlapping_members),
    cmocka_unit_test(test_npz_refuses_data_into_cd),
    cmocka_unit_test(test_npz_refuses_offset_out_of_range),
    cmocka_unit_test(test_npz_refuses_encrypted),
    cmocka_unit_test(test_npz_refuses_unsupported_method),
    cmocka_unit_test(test_npz_refuses_dotdot_name),
    cmocka_unit_test(test_npz_refuses_dotdot_backslash_name),
    cmocka_unit_test(test_npz_refuses_nul_in_name),
    cmocka_unit_test(test_npz_refuses_empty_name),
    cmocka_unit_test(test_npz_refuses_bad_utf8_name),
    cmocka_unit_test(test_npz_refuses_local_name_differs),
    cmocka_unit_test(test_npz_refuses_local_size_differs),
    cmocka_unit_test(test_npz_refuses_ratio_lie),
    cmocka_unit_test(test_npz_refuses_zip64_disagreement),
    cmocka_unit_test(test_npz_refuses_zip64_bad_locator),
    cmocka_unit_test(test_npz_refuses_zip64_short_extra),
    cmocka_unit_test(test_npz_long_name_cut_in_message),
    cmocka_unit_test(test_npz_count_beyond_cd_size_refused),
    cmocka_unit_test(test_npz_open_path_refused_archive_released),
    cmocka_unit_test(test_npz_version3_member_header_inflated),
    cmocka_unit_test(test_npz_too_many_members_refused),
    cmocka_unit_test(test_npz_not_a_zip_refused),
    cmocka_unit_test(test_npz_tiny_input_refused),
    cmocka_unit_test(test_npz_every_truncation_refused),
    cmocka_unit_test(test_npz_every_byte_damaged_survived),
    cmocka_unit_test(test_npz_allocation_failures_reported),
    cmocka_unit_test(test_npz_built_archive_opens_and_verifies),
    cmocka_unit_test(test_npz_zip64_extra_disk_number_zero_accepted),
    cmocka_unit_test(test_npz_locator_lookalike_before_complete_end_record_ignored),
    cmocka_unit_test(test_npz_locator_lookalike_naming_other_disk_refused),
    cmocka_unit_test(test_npz_zip64_extra_disk_number_other_refused),
    cmocka_unit_test(test_npz_zip64_extra_without_disk_number_refused),
    cmocka_unit_test(test_npz_two_zip64_extra_fields_refused),
    cmocka_unit_test(test_npz_dot_prefixed_component_accepted),
    cmocka_unit_test(test_npz_descriptor_past_cd_refused),
    cmocka_unit_test(test_npz_zip64_compressed_size_wrapping_refused),
    cmocka_unit_test(test_npz_raw_name_escaped_in_message),
    cmocka_unit_test(test_npz_refuses_cd_bytes_without_entries),
    cmocka_unit_test(test_npz_deflated_header_shorter_than_preamble),
    cmocka_unit_test(test_npz_deflated_header_empty_member),
    cmocka_unit_test(test_npz_deflated_header_bad_minor_version),
    cmocka_unit_test(test_npz_deflated_header_bad_major_versions),
    cmocka_unit_test(test_npz_deflated_header_bad_magic),
    cmocka_unit_test(test_npz_deflated_header_version2_cut_in_length),
    cmocka_unit_test(test_npz_deflated_header_over_max_header_bytes),
    cmocka_unit_test(test_npz_open_buffer_null_out_refused),
    cmocka_unit_test(test_npz_open_buffer_null_buf_refused),
    cmocka_unit_test(test_npz_open_incomplete_allocator_refused),
    cmocka_unit_test(test_npz_open_zero_buffer_size_is_the_default),
    cmocka_unit_test(test_npz_open_path_null_out_refused),
    cmocka_unit_test(test_npz_open_fd_bad_fd_is_io),
    cmocka_unit_test(test_npz_open_directory_is_io),
    cmocka_unit_test(test_npz_open_empty_file_refused),
    cmocka_unit_test(test_npz_open_write_only_fd_is_io),
    cmocka_unit_test(test_npz_open_no_mmap_copy_allocation_failure),
    cmocka_unit_test(test_npz_open_no_mmap_allocation_failures_leak_nothing),
    cmocka_unit_test(test_npz_open_no_mmap_refused_file_leaks_nothing),
    cmocka_unit_test(test_npz_null_archive_has_no_members),
    cmocka_unit_test(test_npz_member_calls_refuse_bad_arguments),
    cmocka_unit_test(test_npz_stream_calls_refuse_bad_arguments),
    cmocka_unit_test(test_npz_stream_read_of_nothing_stays_put),
    cmocka_unit_test(test_npz_stream_failure_without_err_replayed_by_next),
    cmocka_unit_test(test_npz_is_archive_needs_a_known_signature),
    cmocka_unit_test(test_npz_find_quotes_odd_bytes),
);

/* Headers at the limit: every writer stops at the HEADER_LEN a reader with
 * the default limits takes (limits.max_header_bytes, 16 MiB), so that
 * each file written opens again. The dtypes here are one struct field
 * whose long name sets the header's length to the byte. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIMIT ((size_t)16 << 20)
/* the longest HEADER_LEN of version 2.0 within the limit: 12 + HEADER_LEN
 * is a multiple of 64 */
#define LONGEST (LIMIT - 12)

/* np.save's text around the name, for shape () */
static const char dict_head[] = "{'descr': [('";
static const char dict_tail[] = "', '|u1')], 'fortran_order': False, 'shape': (), }";

/* The name length that makes HEADER_LEN exactly hlen (12 + hlen a
 * multiple of 64): the text, its newline and one byte of padding. */
static size_t name_len_for(size_t hlen)
{
    return hlen - 2 - (sizeof dict_head - 1) - (sizeof dict_tail - 1);
}

/* [('aaa...', 'u1')] with a name of name_len bytes. */
static npydt_dtype *long_name_dtype(size_t name_len)
{
    static const char head[] = "[('", tail[] = "', 'u1')]";
    size_t len = sizeof head - 1 + name_len + sizeof tail - 1;
    char *text = malloc(len);
    assert_non_null(text);
    memcpy(text, head, sizeof head - 1);
    memset(text + sizeof head - 1, 'a', name_len);
    memcpy(text + sizeof head - 1 + name_len, tail, sizeof tail - 1);
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    npydt_status st = npydt_header_parse_descr(text, len, NULL, &dt, &err);
    free(text);
    if (st != NPYDT_OK)
        fail_msg("%s", err.message);
    return dt;
}

static void test_header_limit_longest_header_is_written_and_read_back(void **state)
{
    (void)state;
    npydt_dtype *dt = long_name_dtype(name_len_for(LONGEST));
    TEST_ERROR(err);
    size_t need = npydt_header_write(dt, NULL, 0, 0, NULL, 0, &err);
    assert_int_equal(need, 12 + LONGEST);
    unsigned char *buf = malloc(need);
    assert_non_null(buf);
    assert_int_equal(npydt_header_write(dt, NULL, 0, 0, buf, need, &err), need);
    npydt_header *h = NULL;
    assert_int_equal(npydt_header_parse(buf, need, NULL, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_header_len(h), LONGEST);
    assert_true(npydt_dtype_equal(npydt_header_dtype(h), dt));
    npydt_header_free(h);
    free(buf);
    npydt_dtype_free(dt);
}

static void test_header_limit_write_refuses_one_byte_more_and_writes_nothing(void **state)
{
    (void)state;
    /* one more byte of name needs 64 more bytes of header */
    npydt_dtype *dt = long_name_dtype(name_len_for(LONGEST) + 1);
    TEST_ERROR(err);
    assert_int_equal(npydt_header_write(dt, NULL, 0, 0, NULL, 0, &err), 0);
    test_assert_error_filled(NPYDT_E_LIMIT, &err);
    assert_int_equal(err.code, NPYDT_E_LIMIT);
    assert_string_equal(err.message, "the header would have length 16777268, above the "
                                     "limit of 16777216 bytes that readers take");
    /* given room for all of it, it still writes not one byte */
    size_t size = 12 + LONGEST + 64;
    unsigned char *buf = malloc(size);
    assert_non_null(buf);
    memset(buf, 0xA5, size);
    test_poison_error(&err);
    assert_int_equal(npydt_header_write(dt, NULL, 0, 0, buf, size, &err), 0);
    assert_int_equal(err.code, NPYDT_E_LIMIT);
    for (size_t i = 0; i < size; i++)
        if (buf[i] != 0xA5)
            fail_msg("byte %zu was written", i);
    free(buf);
    npydt_dtype_free(dt);
}

static void test_header_limit_writer_refuses_before_creating_a_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/npydt_limit_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/out.npy", dir);
    npydt_dtype *dt = long_name_dtype(name_len_for(LONGEST) + 1);
    uint64_t shape[1] = {0};
    npydt_writer *w = (npydt_writer *)&w;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_LIMIT, &err, npydt_writer_create_path(path, dt, shape, 1, NULL, &w, &err));
    assert_null(w);
    assert_non_null(strstr(err.message, "above the limit of 16777216 bytes"));
    /* no file, no temporary file: the folder is empty again */
    assert_int_equal(rmdir(dir), 0);
    npydt_dtype_free(dt);
}

TEST_LIST("header_limit",
          cmocka_unit_test(test_header_limit_longest_header_is_written_and_read_back),
          cmocka_unit_test(test_header_limit_write_refuses_one_byte_more_and_writes_nothing),
          cmocka_unit_test(test_header_limit_writer_refuses_before_creating_a_file));

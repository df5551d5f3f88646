/* Malformed headers: each gets the exact error code and byte offset. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO NPYDT_NO_OFFSET

struct bad_header {
    const char *text;       /* header text after the length field */
    int major;              /* format version */
    npydt_status code;
    size_t offset;          /* into text, or NO */
};

#define OKD "'descr': '<f8'"
#define OKF "'fortran_order': False"
#define OKS "'shape': (3,)"
#define H(d, f, s) "{" d ", " f ", " s "}"

static const struct bad_header cases[] = {
    /* syntax: structure of the literal */
    {"", 1, NPYDT_E_SYNTAX, 0},
    {"   ", 1, NPYDT_E_SYNTAX, 3},
    {"{", 1, NPYDT_E_SYNTAX, 1},
    {"{'descr'", 1, NPYDT_E_SYNTAX, 8},
    {"{'descr':", 1, NPYDT_E_SYNTAX, 9},
    {"{'descr': '<f8'", 1, NPYDT_E_SYNTAX, 15},
    {"{'descr': '<f8',", 1, NPYDT_E_SYNTAX, 16},
    {"{'descr' '<f8'}", 1, NPYDT_E_SYNTAX, 14},
    {"{'descr': '<f8' 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 31},
    {"{'descr': '<f8',, }", 1, NPYDT_E_SYNTAX, 16},
    {"{,}", 1, NPYDT_E_SYNTAX, 1},
    {"{'descr': Tru", 1, NPYDT_E_SYNTAX, 10},
    {"{'descr': }", 1, NPYDT_E_SYNTAX, 10},
    {"{'descr': '<f8', 'shape': (3,), 'fortran_order': False}}", 1, NPYDT_E_SYNTAX, 55},
    {"{'descr': '<f8', 'shape': (3,), 'fortran_order': False} x", 1, NPYDT_E_SYNTAX, 56},
    {"{'descr': '<f8', 'shape': (3,), 'fortran_order': False};", 1, NPYDT_E_SYNTAX, 55},
    {"{'descr': '<f8', 'shape': (3,, ), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 29},
    {"{'descr': '<f8', 'shape': (,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 27},
    {"{'descr': '<f8', 'shape': (3, 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 45},
    {"{'descr': [('a', '<f8'), 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 32},
    {"{'descr': [('a', '<f8')", 1, NPYDT_E_SYNTAX, 23},
    {"{'descr': [('a' '<f8')], 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_VALUE, 12},
    {"{'descr': ('a', '<f8']}", 1, NPYDT_E_SYNTAX, 21},
    {"{'descr': '<f8', 'shape': (3,), 'fortran_order': False]", 1, NPYDT_E_SYNTAX, 54},
    {"{'descr': '<f8' : 'x'}", 1, NPYDT_E_SYNTAX, 16},
    {"[('descr', '<f8')", 1, NPYDT_E_SYNTAX, 17},
    {"{'descr': '<f8', 'shape': (3,), 'fortran_order': False, } # ok\n}", 1, NPYDT_E_SYNTAX, 63},
    {"{'descr': '<f8', 'shape': (3,), 'fortran_order': False}\n{", 1, NPYDT_E_SYNTAX, 56},
    {"\n {'descr': '<f8', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 1},
    /* lexical */
    {"{'descr: '<f8', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 10},
    {"{'descr': '<f8, 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 17},
    {"{'descr': \"<f8', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 10},
    {"{'descr': '<f8\n', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 10},
    {"{'descr': '''<f8', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 10},
    {"{'descr': '<f8\\", 1, NPYDT_E_SYNTAX, 10},
    {"{'descr': '\\x3', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 11},
    {"{'descr': '\\u12', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 11},
    {"{'descr': '\\N{LESS-THAN SIGN}f8', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 11},
    {"{'descr': '\\ud800', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_ENCODING, 11},
    {"{'descr': '\\U00110000', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 11},
    {"{'descr': '<f8', 'shape': (3,), 'fortran_order': false}", 1, NPYDT_E_SYNTAX, 49},
    {"{'descr': '<f8', 'shape': (3,), 'fortran_order': FALSE}", 1, NPYDT_E_SYNTAX, 49},
    {"{'descr': '<f8', 'shape': (03,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 27},
    {"{'descr': '<f8', 'shape': (3l,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 28},
    {"{'descr': '<f8', 'shape': (3L,), 'fortran_order': False}", 3, NPYDT_E_SYNTAX, 28},
    {"{'descr': '<f8', 'shape': (3Lx,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 28},
    /* NumPy drops an 'L' only right after a number token: not after a
     * newline or a comment */
    {"{'descr': '<f8', 'shape': (3\n L,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 30},
    {"{'descr': '<f8', 'shape': (3 # c\n L,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 34},
    {"{'descr': '<f8', 'shape': (L,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 27},
    {"{'descr': '<f8', 'shape': (3_,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 28},
    {"{'descr': '<f8', 'shape': (0x,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 28},
    {"{'descr': '<f8', 'shape': (--3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 28},
    {"{'descr': '<f8', 'shape': (3,), 'fortran_order': False, @}", 1, NPYDT_E_SYNTAX, 56},
    {"{'descr': '<f8', 'shape': (3,), 'fortran_order': not False}", 1, NPYDT_E_SYNTAX, 49},
    {"{'descr': f'<f8', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 10},
    {"{'descr': b'<f8' '<f8', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 17},
    {"{'descr': b'\xe9', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_SYNTAX, 12},
    {"{'descr': '<f8'\x01, 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_ENCODING, 15},
    {"{'descr': '\xff<f8', 'shape': (3,), 'fortran_order': False}", 3, NPYDT_E_ENCODING, 11},
    {"{'descr': [('\xc3', '<f8')], 'shape': (3,), 'fortran_order': False}", 3, NPYDT_E_ENCODING, 13},
    {"{'descr': [('\xed\xa0\x80', '<f8')], 'shape': (3,), 'fortran_order': False}", 3, NPYDT_E_ENCODING, 13},
    {"{'descr': [('\xc0\xae', '<f8')], 'shape': (3,), 'fortran_order': False}", 3, NPYDT_E_ENCODING, 13},
    /* a NUL from an escape is part of a name, but never makes another key */
    {"{'descr\\x00': '<f8', 'shape': (3,), 'fortran_order': False}", 1, NPYDT_E_KEY, 1},
    {"{'descr': [('a\\x00', '<f8'), ('a\\0', '<i4')], 'shape': (3,), 'fortran_order': False}", 1,
     NPYDT_E_NAME, 29},
    /* the dict and its keys */
    {"['descr', '<f8']", 1, NPYDT_E_VALUE, 0},
    {"'{}'", 1, NPYDT_E_VALUE, 0},
    {"{}", 1, NPYDT_E_KEY, 0},
    {"{" OKD ", " OKF "}", 1, NPYDT_E_KEY, 0},
    {"{" OKD ", " OKS "}", 1, NPYDT_E_KEY, 0},
    {"{" OKF ", " OKS "}", 1, NPYDT_E_KEY, 0},
    {"{" OKD ", " OKF ", " OKS ", 'extra': 1}", 1, NPYDT_E_KEY, 56},
    {"{" OKD ", " OKF ", " OKS ", " OKD "}", 1, NPYDT_E_KEY, 56},
    {"{'desc': '<f8', " OKF ", " OKS "}", 1, NPYDT_E_KEY, 1},
    {"{'Descr': '<f8', " OKF ", " OKS "}", 1, NPYDT_E_KEY, 1},
    {"{b'descr': '<f8', " OKF ", " OKS "}", 1, NPYDT_E_KEY, 1},
    {"{1: '<f8', " OKF ", " OKS "}", 1, NPYDT_E_KEY, 1},
    {"{None: '<f8', " OKF ", " OKS "}", 1, NPYDT_E_KEY, 1},
    /* values */
    {"{" OKD ", 'fortran_order': 0, " OKS "}", 1, NPYDT_E_VALUE, 34},
    {"{" OKD ", 'fortran_order': 'False', " OKS "}", 1, NPYDT_E_VALUE, 34},
    {"{" OKD ", 'fortran_order': None, " OKS "}", 1, NPYDT_E_VALUE, 34},
    {"{" OKD ", 'fortran_order': (False,), " OKS "}", 1, NPYDT_E_VALUE, 34},
    {"{" OKD ", " OKF ", 'shape': [3]}", 1, NPYDT_E_VALUE, 50},
    {"{" OKD ", " OKF ", 'shape': 3}", 1, NPYDT_E_VALUE, 50},
    {"{" OKD ", " OKF ", 'shape': (3)}", 1, NPYDT_E_VALUE, 51},
    {"{" OKD ", " OKF ", 'shape': (3.0,)}", 1, NPYDT_E_VALUE, 51},
    {"{" OKD ", " OKF ", 'shape': (1e3,)}", 1, NPYDT_E_VALUE, 51},
    {"{" OKD ", " OKF ", 'shape': (3j,)}", 1, NPYDT_E_VALUE, 51},
    {"{" OKD ", " OKF ", 'shape': ('3',)}", 1, NPYDT_E_VALUE, 51},
    {"{" OKD ", " OKF ", 'shape': ((3,),)}", 1, NPYDT_E_VALUE, 51},
    {"{" OKD ", " OKF ", 'shape': (None,)}", 1, NPYDT_E_VALUE, 51},
    {"{" OKD ", " OKF ", 'shape': (-1,)}", 1, NPYDT_E_SHAPE, 51},
    {"{" OKD ", " OKF ", 'shape': (2, -3)}", 1, NPYDT_E_SHAPE, 54},
    {"{" OKD ", " OKF ", 'shape': (99999999999999999999,)}", 1, NPYDT_E_OVERFLOW, 51},
    {"{" OKD ", " OKF ", 'shape': (9223372036854775808,)}", 1, NPYDT_E_OVERFLOW, 51},
    {"{" OKD ", " OKF ", 'shape': (4294967296, 4294967296)}", 1, NPYDT_E_OVERFLOW, NO},
    {"{" OKD ", " OKF ", 'shape': (2305843009213693952,)}", 1, NPYDT_E_OVERFLOW, NO},
    {"{" OKD ", " OKF ", 'shape': (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1)}",
     1, NPYDT_E_LIMIT, 50},
    /* descriptors */
    {"{'descr': None, " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 10},
    {"{'descr': 8, " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 10},
    {"{'descr': b'<f8', " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 10},
    {"{'descr': {'a': 1}, " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 10},
    {"{'descr': '', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': '<f3', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': '<x8', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': '<i16', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': ' <f8', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': '<f8 ', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': '<float64', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': '<', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': 'f12', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': 'M4', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': '(3)f4', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': 'S2147483648', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': 'U600000000', " OKF ", " OKS "}", 1, NPYDT_E_OVERFLOW, 10},
    {"{'descr': 'i4,', " OKF ", " OKS "}", 1, NPYDT_OK, 0},
    {"{'descr': 'i4;f8', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': 'i4, f3', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': '<i4, >(2)f8', " OKF ", " OKS "}", 1, NPYDT_OK, 0},
    {"{'descr': '>i4, <>f8', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': '(2,3f8', " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 10},
    {"{'descr': '<M8[xs]', " OKF ", " OKS "}", 1, NPYDT_E_UNIT, 10},
    {"{'descr': '<M8[]', " OKF ", " OKS "}", 1, NPYDT_E_UNIT, 10},
    {"{'descr': '<M8[s', " OKF ", " OKS "}", 1, NPYDT_E_UNIT, 10},
    {"{'descr': '<M8[s]x', " OKF ", " OKS "}", 1, NPYDT_E_UNIT, 10},
    {"{'descr': '<M8[-1s]', " OKF ", " OKS "}", 1, NPYDT_E_UNIT, 10},
    {"{'descr': '<M8[2147483648s]', " OKF ", " OKS "}", 1, NPYDT_E_UNIT, 10},
    {"{'descr': '<M8[s/0]', " OKF ", " OKS "}", 1, NPYDT_E_UNIT, 10},
    {"{'descr': '<M8[s/3]', " OKF ", " OKS "}", 1, NPYDT_E_UNIT, 10},
    {"{'descr': '<M8[W/100]', " OKF ", " OKS "}", 1, NPYDT_E_UNIT, 10},
    {"{'descr': '<M8[generic/2]', " OKF ", " OKS "}", 1, NPYDT_E_UNIT, 10},
    {"{'descr': '<M8[2000000000s/2]', " OKF ", " OKS "}", 1, NPYDT_E_OVERFLOW, 10},
    {"{'descr': '<m8[B]', " OKF ", " OKS "}", 1, NPYDT_E_UNIT, 10},
    {"{'descr': [('a',)], " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 11},
    {"{'descr': [('a', '<f8', (2,), 1)], " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 11},
    {"{'descr': ['<f8'], " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 11},
    {"{'descr': [(1, '<f8')], " OKF ", " OKS "}", 1, NPYDT_E_NAME, 12},
    {"{'descr': [(b'a', '<f8')], " OKF ", " OKS "}", 1, NPYDT_E_NAME, 12},
    {"{'descr': [((1, 'a'), '<f8')], " OKF ", " OKS "}", 1, NPYDT_E_NAME, 13},
    {"{'descr': [(('t', 2), '<f8')], " OKF ", " OKS "}", 1, NPYDT_E_NAME, 18},
    {"{'descr': [('a', '<f8'), ('a', '<i4')], " OKF ", " OKS "}", 1, NPYDT_E_NAME, 25},
    {"{'descr': [('', '<f8'), ('', '<i4')], " OKF ", " OKS "}", 1, NPYDT_E_NAME, 24},
    {"{'descr': [(('a', 'a'), '<f8')], " OKF ", " OKS "}", 1, NPYDT_E_NAME, 11},
    {"{'descr': [(('t', 'a'), '<f8'), ('t', '<i4')], " OKF ", " OKS "}", 1, NPYDT_E_NAME, 32},
    {"{'descr': [(('t', 'a'), '<f8'), (('t', 'b'), '<i4')], " OKF ", " OKS "}", 1, NPYDT_E_NAME, 32},
    {"{'descr': [('a', '<f8', (-1,))], " OKF ", " OKS "}", 1, NPYDT_E_SHAPE, 24},
    {"{'descr': [('a', '<f8', -2)], " OKF ", " OKS "}", 1, NPYDT_E_SHAPE, 24},
    {"{'descr': [('a', '<f8', (2.0,))], " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 24},
    {"{'descr': [('a', '<f8', (True,))], " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 24},
    {"{'descr': [('a', '<f8', 'x')], " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 24},
    {"{'descr': [('a', '<f8', (2147483648,))], " OKF ", " OKS "}", 1, NPYDT_E_OVERFLOW, 24},
    {"{'descr': [('a', '<f8', (268435456,))], " OKF ", " OKS "}", 1, NPYDT_E_OVERFLOW, 24},
    {"{'descr': [('a', '<f8', (65536, 65536))], " OKF ", " OKS "}", 1, NPYDT_E_OVERFLOW, 24},
    {"{'descr': [('a', '<f8', (1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1))], " OKF ", " OKS "}",
     1, NPYDT_E_LIMIT, 24},
    {"{'descr': [('a', 'S2000000000'), ('b', 'S2000000000')], " OKF ", " OKS "}", 1, NPYDT_E_OVERFLOW, 33},
    {"{'descr': [('a', '|S0', (5,))], " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 24},
    {"{'descr': [('a', '|S', -5)], " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 23},
    {"{'descr': ('<f8',), " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 10},
    {"{'descr': ('<f8', None), " OKF ", " OKS "}", 1, NPYDT_E_VALUE, 18},
    {"{'descr': [('a', [('b', '<f3')])], " OKF ", " OKS "}", 1, NPYDT_E_TYPE, 24},
    /* data size */
    {"{'descr': [('a', 'S1000000000'), ('b', 'S1000000000')], " OKF ", 'shape': (4611686018427387904,)}",
     1, NPYDT_E_OVERFLOW, NO},
};

static void build_file(const struct bad_header *c, unsigned char **out, size_t *len)
{
    size_t n = strlen(c->text);
    size_t pre = c->major == 1 ? 10 : 12;
    unsigned char *b = calloc(1, pre + n + 64);
    assert_non_null(b);
    memcpy(b, "\x93NUMPY", 6);
    b[6] = (unsigned char)c->major;
    b[7] = 0;
    b[8] = (unsigned char)(n & 0xff);
    b[9] = (unsigned char)(n >> 8);
    memcpy(b + pre, c->text, n);
    /* a \x01 in a case's text stands for a NUL byte */
    for (size_t i = 0; i < n; i++)
        if (b[pre + i] == 1)
            b[pre + i] = 0;
    *out = b;
    *len = pre + n + 64;
}

/* Each case runs alone by its name, "case_" and its index in the table:
 *   build/tests/test_header_errors '*' case_017 */
static void test_header_errors_table_codes_and_offsets(void **state)
{
    (void)state;
    size_t ncases = sizeof cases / sizeof cases[0];
    size_t run = 0;
    int failures = 0;
    for (size_t i = 0; i < ncases; i++) {
        char name[32];
        snprintf(name, sizeof name, "case_%03zu", i);
        if (!test_case_selected(name))
            continue;
        run++;
        unsigned char *buf;
        size_t len;
        build_file(&cases[i], &buf, &len);
        const char *dump = getenv("DUMP_CASES_DIR");
        if (dump) {   /* lets tests/check_header_errors.sh ask NumPy too */
            char path[1024];
            snprintf(path, sizeof path, "%s/%s_%s.npy", dump, name,
                     cases[i].code == NPYDT_OK ? "ok" : "bad");
            FILE *f = fopen(path, "wb");
            assert_non_null(f);
            fwrite(buf, 1, len, f);
            fclose(f);
        }
        npydt_header *h = NULL;
        npydt_error err;
        test_poison_error(&err);
        npydt_status st = npydt_header_parse(buf, len, NULL, &h, &err);
        if (st != NPYDT_OK)
            test_assert_error_filled(st, &err);
        if (st != cases[i].code || (st != NPYDT_OK && err.offset != cases[i].offset)) {
            fprintf(stderr, "%s: %s\n  want %s @%zd, got %s @%zd: %s\n", name, cases[i].text,
                    npydt_status_name(cases[i].code), (ssize_t)cases[i].offset,
                    npydt_status_name(st), st == NPYDT_OK ? (ssize_t)-1 : (ssize_t)err.offset,
                    st == NPYDT_OK ? "" : err.message);
            failures++;
        }
        npydt_header_free(h);
        free(buf);
    }
    if (run == 0)
        fail_msg("%s", "no table case matches the case pattern");
    assert_true(ncases >= 100);
    assert_int_equal(failures, 0);
}

/* An archive handed to the .npy reader is named as one, with the calls
 * that read it; other bytes are "not a NumPy file". */
static void test_header_parse_names_a_zip_archive_given_as_npy(void **state)
{
    (void)state;
    static const unsigned char local[30] = {'P', 'K', 3, 4, 20};
    static const unsigned char empty[22] = {'P', 'K', 5, 6};
    static const char *const want = "a zip archive (.npz), not a .npy file: open it with "
                                    "npydt_npz_open_path (or _fd, _buffer) and read its members";
    npydt_header *h = NULL;
    TEST_ERROR(err);
    assert_fails(NPYDT_E_MAGIC, &err, npydt_header_parse(local, sizeof local, NULL, &h, &err));
    assert_string_equal(err.message, want);
    assert_fails(NPYDT_E_MAGIC, &err, npydt_parse_buffer(empty, sizeof empty, NULL, &h, &err));
    assert_string_equal(err.message, want);
    assert_fails(NPYDT_E_MAGIC, &err, npydt_header_parse("PK\1\2 and more", 15, NULL, &h, &err));
    assert_string_equal(err.message, "not a NumPy file: the magic string \\x93NUMPY is missing");
    assert_null(h);
}

TEST_LIST("header_errors",
    cmocka_unit_test(test_header_parse_names_a_zip_archive_given_as_npy),
    cmocka_unit_test(test_header_errors_table_codes_and_offsets),
);

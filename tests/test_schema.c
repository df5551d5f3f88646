/* Schemas: compiling the three spec forms, and checking dtypes and headers
 * at every matching level with the exact list of mismatches. */
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- table machinery ------------------------------------------------------ */

struct want {
    npydt_mismatch_code code;   /* 0 ends the list */
    const char *path, *expected, *found;
};

struct check_case {
    const char *file;     /* descriptor literal of the file's dtype */
    const char *spec;
    struct want mm[6];
};

#define MISSING NPYDT_MISMATCH_MISSING_FIELD
#define EXTRA NPYDT_MISMATCH_EXTRA_FIELD
#define KIND NPYDT_MISMATCH_KIND
#define SIZE NPYDT_MISMATCH_SIZE
#define BYTEORDER NPYDT_MISMATCH_BYTEORDER
#define UNIT NPYDT_MISMATCH_UNIT
#define SHAPE NPYDT_MISMATCH_SHAPE
#define OFFSET NPYDT_MISMATCH_OFFSET
#define ORDER NPYDT_MISMATCH_ORDER
#define TITLE NPYDT_MISMATCH_TITLE
#define DIMENSION NPYDT_MISMATCH_DIMENSION
#define FORTRAN NPYDT_MISMATCH_FORTRAN_ORDER

static npydt_schema *compile_ok(const char *spec)
{
    npydt_schema *s = NULL;
    npydt_error err;
    npydt_status st = npydt_schema_compile(spec, strlen(spec), NULL, &s, &err);
    if (st != NPYDT_OK)
        fail_msg("compiling %s: %s at %zu: %s", spec, npydt_status_name(st), err.offset,
                 err.message);
    return s;
}

static void dump_result(const npydt_check_result *r)
{
    for (size_t i = 0; i < npydt_check_result_count(r); i++) {
        const npydt_mismatch *m = npydt_check_result_get(r, i);
        print_error("    got {%s, \"%s\", \"%s\", \"%s\"}\n", npydt_mismatch_code_name(m->code),
                    m->path, m->expected, m->found);
    }
}

/* Compare a result with the expected list; describes the case on failure. */
static void expect_result(const char *what, npydt_status st, const npydt_check_result *r,
                          const struct want *mm)
{
    size_t n = 0;
    while (mm[n].code)
        n++;
    npydt_status want_st = n ? NPYDT_E_MISMATCH : NPYDT_OK;
    bool same = st == want_st && npydt_check_result_count(r) == n;
    for (size_t i = 0; same && i < n; i++) {
        const npydt_mismatch *m = npydt_check_result_get(r, i);
        same = m->code == mm[i].code && strcmp(m->path, mm[i].path) == 0 &&
               strcmp(m->expected, mm[i].expected) == 0 && strcmp(m->found, mm[i].found) == 0;
    }
    if (!same) {
        print_error("%s: status %s, %zu mismatches, expected %zu:\n", what,
                    npydt_status_name(st), npydt_check_result_count(r), n);
        dump_result(r);
        for (size_t i = 0; i < n; i++)
            print_error("    want {%s, \"%s\", \"%s\", \"%s\"}\n",
                        npydt_mismatch_code_name(mm[i].code), mm[i].path, mm[i].expected,
                        mm[i].found);
        fail();
    }
}

static void run_cases(const struct check_case *cases, size_t n, unsigned flags)
{
    for (size_t i = 0; i < n; i++) {
        npydt_dtype *dt = test_parse_literal(cases[i].file);
        npydt_schema *s = compile_ok(cases[i].spec);
        npydt_check_result *r = NULL;
        npydt_error err;
        npydt_status st = npydt_check_dtype(s, dt, flags, &r, &err);
        char what[512];
        snprintf(what, sizeof what, "case %zu: file %s, spec %s, flags %u", i, cases[i].file,
                 cases[i].spec, flags);
        expect_result(what, st, r, cases[i].mm);
        npydt_check_result_free(r);
        npydt_schema_free(s);
        npydt_dtype_free(dt);
    }
}

#define RUN(cases, flags) run_cases(cases, sizeof cases / sizeof cases[0], flags)

/* ---- default level ------------------------------------------------------------ */

static const struct check_case default_matches[] = {
    {"'<f8'", "'<f8'", {{0}}},
    {"'>f8'", "'<f8'", {{0}}},                       /* byte order may differ */
    {"'<f8'", "f8", {{0}}},                          /* type string */
    {"'<f8'", "  float64\n", {{0}}},
    {"'<f8'", "{'descr': '>f8'}", {{0}}},            /* dict form */
    {"[('x', '<f8'), ('y', '<i4', (3,))]", "[('x', '>f8'), ('y', '>i4', (3,))]", {{0}}},
    {"[('f0', '<f8'), ('f1', '<i4', (3,)), ('f2', '|S5')]", "f8, (3,)i4, S5", {{0}}},
    {"[('pos', [('x', '<f8'), ('y', '<f8')]), ('id', '<u4')]",
     "[('pos', [('x', '>f8'), ('y', '>f8')]), ('id', '>u4')]", {{0}}},
    {"[('pts', [('x', '<f4'), ('y', '<f4')], (4,))]",
     "[('pts', [('x', '<f4'), ('y', '<f4')], (4,))]", {{0}}},
    {"[('a', ('<i2', (2,)), (3,))]", "[('a', ('>i2', (2,)), (3,))]", {{0}}},
    {"[(('Title', 'a'), '<i4')]", "[('a', '<i4')]", {{0}}},           /* titles */
    {"[(('Title', 'a'), '<i4')]", "[(('Title', 'a'), '<i4')]", {{0}}},
    {"[('a', '<i4'), ('', '|V4'), ('b', '<f8')]", "[('a', '<i4'), ('', '|V4'), ('b', '<f8')]",
     {{0}}},
    {"'<M8[25s]'", "'>M8[25s]'", {{0}}},
    {"'<M8[1000ms]'", "'<M8[s]'", {{0}}},            /* NumPy: the same unit */
    {"'|V0'", "'|V0'", {{0}}},
    {"[]", "[]", {{0}}},
};

static void test_schema_default_matches(void **state)
{
    (void)state;
    RUN(default_matches, NPYDT_CHECK_DEFAULT);
}

static const struct check_case default_mismatches[] = {
    {"'<f4'", "'<f8'", {{SIZE, "", "<f8", "<f4"}}},
    {"'<i8'", "'<f8'", {{KIND, "", "<f8", "<i8"}}},
    {"'|S4'", "'<U4'", {{KIND, "", "<U4", "|S4"}}},
    {"'|V4'", "'|V8'", {{SIZE, "", "|V8", "|V4"}}},
    {"[('x', '<f8'), ('y', '<i4')]", "[('x', '<f8'), ('y', '<i4'), ('z', '|u1')]",
     {{MISSING, "z", "|u1", ""}}},
    {"[('x', '<f8'), ('y', '<i4'), ('z', '|u1')]", "[('x', '<f8'), ('y', '<i4')]",
     {{EXTRA, "z", "", "|u1"}}},
    {"[('x', '<f8'), ('y', '<f8')]", "[('y', '<f8'), ('x', '<f8')]",
     {{ORDER, "", "y, x", "x, y"}}},
    {"[('a', '<i4'), ('b', '<f8')]", "[('a', '<i4'), ('', '|V4'), ('b', '<f8')]",
     {{OFFSET, "b", "8", "4"}}},
    {"[('a', '<i4')]", "[('a', '<i4'), ('', '|V4')]", {{SIZE, "", "8 bytes", "4 bytes"}}},
    /* a field of the wrong size does not make the next offset a mismatch */
    {"[('x', '<f4'), ('y', '<f8')]", "[('x', '<f8'), ('y', '<f8')]",
     {{SIZE, "x", "<f8", "<f4"}}},
    {"[('v', '<f4', (3,))]", "[('v', '<f4', (4,))]", {{SHAPE, "v", "(4,)", "(3,)"}}},
    {"[('v', '<f4')]", "[('v', '<f4', (2, 3))]", {{SHAPE, "v", "(2, 3)", "()"}}},
    {"[('v', '<i2', (3,))]", "[('v', '<i4', (2,))]",
     {{SHAPE, "v", "(2,)", "(3,)"}, {SIZE, "v", "<i4", "<i2"}}},
    /* NumPy keeps a subarray of subarrays apart from the merged shape */
    {"[('a', ('<i2', (2,)), (3,))]", "[('a', '<i2', (3, 2))]",
     {{SHAPE, "a", "(3, 2)", "(3,) of (2,)"}}},
    {"[('a', '<i2', (3, 2))]", "[('a', ('<i2', (2,)), (3,))]",
     {{SHAPE, "a", "(3,) of (2,)", "(3, 2)"}}},
    /* an empty subarray given a size takes that many bytes, as in NumPy */
    {"[('v', '<i4', (0,))]", "[('v', ('<i4', (0,)), 3)]", {{SIZE, "v", "3 bytes", "0 bytes"}}},
    {"[('v', ('<i4', (0,)), 5)]", "[('v', ('<i4', (0,)), 3)]",
     {{SIZE, "v", "3 bytes", "5 bytes"}}},
    {"[('pos', [('x', '<f8'), ('y', '<f8')])]", "[('pos', [('x', '<f8'), ('y', '<f4')])]",
     {{SIZE, "pos.y", "<f4", "<f8"}}},
    {"[('pos', '<f8')]", "[('pos', [('x', '<f8')])]", {{KIND, "pos", "[('x', '<f8')]", "<f8"}}},
    {"[('pts', [('x', '<f4'), ('y', '<f4')], (4,))]",
     "[('pts', [('x', '<f4'), ('y', '<f8')], (4,))]", {{SIZE, "pts.y", "<f8", "<f4"}}},
    {"'<M8[s]'", "'<M8[ms]'", {{UNIT, "", "<M8[ms]", "<M8[s]"}}},
    {"'<M8[s]'", "'<M8[1000ms]'", {{UNIT, "", "<M8[1000ms]", "<M8[s]"}}},
    {"'<m8'", "'<m8[s]'", {{UNIT, "", "<m8[s]", "<m8"}}},
    {"[('a', '<i4')]", "[(('T', 'a'), '<i4')]", {{TITLE, "a", "T", ""}}},
    /* a title never stands for a name */
    {"[(('a', 'x'), '<i4')]", "[('a', '<i4')]", {{MISSING, "a", "<i4", ""}, {EXTRA, "x", "", "<i4"}}},
    {"[('a', '<i4'), ('b', '<f8'), ('c', '|S3')]", "[('a', '<i8'), ('d', '|u1'), ('c', '|S4')]",
     {{SIZE, "a", "<i8", "<i4"}, {MISSING, "d", "|u1", ""}, {SIZE, "c", "|S4", "|S3"},
      {EXTRA, "b", "", "<f8"}}},
    /* comma strings name their fields f0, f1, ... as NumPy does */
    {"[('x', '<f8'), ('y', '<i4')]", "f8, i4",
     {{MISSING, "f0", "<f8", ""}, {MISSING, "f1", "<i4", ""}, {EXTRA, "x", "", "<f8"},
      {EXTRA, "y", "", "<i4"}}},
    {"[('a', [('b', [('c', '<i2')])])]", "[('a', [('b', [('c', '<i2'), ('d', '<i2')])])]",
     {{MISSING, "a.b.d", "<i2", ""}}},
};

static void test_schema_default_mismatches(void **state)
{
    (void)state;
    RUN(default_mismatches, NPYDT_CHECK_DEFAULT);
}

/* ---- strict ------------------------------------------------------------------- */

static const struct check_case strict_cases[] = {
    {"'<f8'", "'<f8'", {{0}}},
    {"'|u1'", "u1", {{0}}},
    {"[('a', '>i4'), ('b', '<U2')]", "[('a', '>i4'), ('b', '<U2')]", {{0}}},
    {"'>f8'", "'<f8'", {{BYTEORDER, "", "<f8", ">f8"}}},
    {"'>f8'", "f8", {{BYTEORDER, "", "<f8", ">f8"}}},
    {"[('a', '>i4'), ('b', '<U2')]", "[('a', '<i4'), ('b', '>U2')]",
     {{BYTEORDER, "a", "<i4", ">i4"}, {BYTEORDER, "b", ">U2", "<U2"}}},
    {"'>i4'", "'<i8'", {{SIZE, "", "<i8", ">i4"}, {BYTEORDER, "", "<i8", ">i4"}}},
    {"'>M8[1000ms]'", "'<M8[s]'", {{BYTEORDER, "", "<M8[s]", ">M8[1000ms]"}}},
};

static void test_schema_strict_cases(void **state)
{
    (void)state;
    RUN(strict_cases, NPYDT_CHECK_STRICT);
}

/* ---- safe-cast ---------------------------------------------------------------- */

static const struct check_case safe_matches[] = {
    {"'<i2'", "'<i8'", {{0}}},
    {"'<f4'", "'>f8'", {{0}}},
    {"'>i2'", "'<f4'", {{0}}},
    {"'|u1'", "'<i2'", {{0}}},
    {"'<i8'", "'<f8'", {{0}}},                       /* NumPy counts it safe */
    {"'|b1'", "'<c8'", {{0}}},
    {"'|S3'", "'<U3'", {{0}}},
    {"'<i4'", "'|S11'", {{0}}},
    {"'<M8[s]'", "'<M8[ms]'", {{0}}},
    {"'<m8[Y]'", "'<m8[M]'", {{0}}},
    {"'<i4'", "'<m8[s]'", {{0}}},
    {"'<f8'", "'|O'", {{0}}},
    {"[('a', '<i4')]", "'|V0'", {{0}}},              /* V0 at the top: any void */
    {"'|S5'", "'|S0'", {{0}}},
    {"[('a', '<i2'), ('b', '<f4')]", "[('a', '<i8'), ('b', '<f8')]", {{0}}},   /* offsets free */
    {"[('v', '<i2')]", "[('v', '<i8', (3,))]", {{0}}},                          /* broadcast */
    {"[('v', '<i2', (2, 3))]", "[('v', '<f4', (2, 3))]", {{0}}},
    {"[('p', [('x', '|i1')])]", "[('p', [('x', '<i2')])]", {{0}}},
    {"[('p', [('x', '|i1')], (2,))]", "[('p', '|O', (2,))]", {{0}}},
    {"[('a', ('<i2', (2,)), (3,))]", "[('a', ('<i4', (2,)), (3,))]", {{0}}},
    {"[('a', '<i2')]", "[('a', ('<i4', (2,)), (3,))]", {{0}}},   /* broadcast */
    /* the same shapes as far as the file goes, then a broadcast */
    {"[('a', '<i2', (3,))]", "[('a', ('<i4', (2,)), (3,))]", {{0}}},
    {"[('a', '|b1', (2,))]", "[('a', ('>u8', (2, 3)), (2,))]", {{0}}},
    {"[('a', '<i4', (2,))]", "[('a', ('|O', (3,)), (2,))]", {{0}}},
    /* what is left below the matching shapes goes into an object whole */
    {"[('x', ('<i4', (2,)), (1,))]", "[('x', '|O', (1,))]", {{0}}},
    /* np.can_cast ignores an empty subarray's size, and titles */
    {"[('v', '<i4', (0,))]", "[('v', ('<i4', (0,)), 3)]", {{0}}},
    {"[('a', '<i4')]", "[(('T', 'a'), '<i8')]", {{0}}},
    {"[(('U', 'a'), '<i4')]", "[(('T', 'a'), '<i4')]", {{0}}},
};

static void test_schema_safe_cast_matches(void **state)
{
    (void)state;
    RUN(safe_matches, NPYDT_CHECK_SAFE_CAST);
}

static const struct check_case safe_mismatches[] = {
    {"'<i8'", "'<i4'", {{SIZE, "", "<i4", "<i8"}}},
    {"'<f8'", "'<f4'", {{SIZE, "", "<f4", "<f8"}}},
    {"'<f8'", "'<i8'", {{KIND, "", "<i8", "<f8"}}},
    {"'<u8'", "'<i8'", {{KIND, "", "<i8", "<u8"}}},
    {"'<i4'", "'<f4'", {{KIND, "", "<f4", "<i4"}}},
    {"'<c16'", "'<f16'", {{KIND, "", "<f16", "<c16"}}},
    {"'<M8[ms]'", "'<M8[s]'", {{UNIT, "", "<M8[s]", "<M8[ms]"}}},
    {"'<m8[s]'", "'<m8[M]'", {{UNIT, "", "<m8[M]", "<m8[s]"}}},
    {"'<M8[s]'", "'<M8'", {{UNIT, "", "<M8", "<M8[s]"}}},
    {"'<U3'", "'|S10'", {{KIND, "", "|S10", "<U3"}}},
    {"'|S5'", "'|S4'", {{SIZE, "", "|S4", "|S5"}}},
    {"'|O'", "'<f8'", {{KIND, "", "<f8", "|O"}}},
    {"'<u8'", "'<m8[s]'", {{KIND, "", "<m8[s]", "<u8"}}},
    {"[('v', '<i2', (3,))]", "[('v', '<i8')]", {{SHAPE, "v", "()", "(3,)"}}},
    {"[('a', ('<i2', (2,)), (3,))]", "[('a', '<i8', (3, 2))]",
     {{SHAPE, "a", "(3, 2)", "(3,) of (2,)"}}},
    /* no broadcast where the outer shapes differ, nor of void or object */
    {"[('a', '<i2', (3,))]", "[('a', ('<i4', (2,)), (2,))]",
     {{SHAPE, "a", "(2,) of (2,)", "(3,)"}}},
    {"[('a', '|V4', (2,))]", "[('a', ('|V4', (3,)), (2,))]",
     {{SHAPE, "a", "(2,) of (3,)", "(2,)"}}},
    {"[('a', '|O', (2,))]", "[('a', ('|O', (3,)), (2,))]",
     {{SHAPE, "a", "(2,) of (3,)", "(2,)"}}},
    {"[('a', '<i2')]", "[('b', '<i8')]", {{MISSING, "b", "<i8", ""}, {EXTRA, "a", "", "<i2"}}},
    {"[('a', '<i2'), ('b', '<i2')]", "[('b', '<i4'), ('a', '<i4')]",
     {{ORDER, "", "b, a", "a, b"}}},
    /* V0 below the top is a type of size 0, as in NumPy's struct casts */
    {"[('a', '<i2')]", "[('a', '|V0')]", {{KIND, "a", "|V0", "<i2"}}},
    {"[('a', '<i2')]", "'|S0'", {{KIND, "", "|S0", "[('a', '<i2')]"}}},
    {"[('p', [('x', '<i2')])]", "[('p', [('x', '|i1')])]", {{SIZE, "p.x", "|i1", "<i2"}}},
};

static void test_schema_safe_cast_mismatches(void **state)
{
    (void)state;
    RUN(safe_mismatches, NPYDT_CHECK_SAFE_CAST);
}

/* ---- allow-extra -------------------------------------------------------------- */

#define XYZ "[('x', '<f8'), ('y', '<i4'), ('z', '<f8')]"
#define NESTED "[('pos', [('x', '<f8'), ('y', '<f8'), ('w', '>f8')]), ('id', '<u4')]"

static const struct check_case extra_cases[] = {
    {XYZ, "[('x', '<f8'), ('z', '<f8')]", {{0}}},    /* z moved from 8 to 12 */
    {XYZ, "[('x', '<f8'), ('z', '>f8')]", {{0}}},
    {XYZ, "[]", {{0}}},
    {NESTED, "[('pos', [('x', '<f8'), ('y', '<f8')])]", {{0}}},
    {NESTED, "[('pos', [('w', '<f8')]), ('id', '<u4')]", {{0}}},
    {XYZ, "[('x', '<f8'), ('q', '<i4')]", {{MISSING, "q", "<i4", ""}}},
    {XYZ, "[('y', '<i8')]", {{SIZE, "y", "<i8", "<i4"}}},
    {NESTED, "[('pos', [('v', '<f8')])]", {{MISSING, "pos.v", "<f8", ""}}},
    {NESTED, "[('pos', '<f8')]", {{KIND, "pos", "<f8", "[('x', '<f8'), ('y', '<f8'), ('w', '>f8')]"}}},
    /* the named fields keep their order, extra fields or not */
    {XYZ, "[('z', '>f8'), ('x', '<f8')]", {{ORDER, "", "z, x", "x, z"}}},
    {"[('x', '<f8'), ('y', '<f8')]", "[('y', '<f8'), ('x', '<f8')]",
     {{ORDER, "", "y, x", "x, y"}}},
    {NESTED, "[('pos', [('y', '<f8'), ('x', '<f8'), ('w', '>f8')])]",
     {{ORDER, "pos", "y, x, w", "x, y, w"}}},
    {NESTED, "[('pos', [('w', '<f8'), ('x', '<f8')])]", {{ORDER, "pos", "w, x", "x, w"}}},
    /* a reader finds fields by name: offsets and struct sizes are free,
     * with extra fields at this level or not */
    {"[('a', '<i4'), ('b', '<f8')]", "[('a', '<i4'), ('', '|V4'), ('b', '<f8')]", {{0}}},
    {"[('a', '<i4')]", "[('a', '<i4'), ('', '|V4')]", {{0}}},
    {"[('', '|V8'), ('a', '<i4'), ('b', '<i4'), ('', '|V3')]", "[('a', '<i4'), ('b', '<i4')]",
     {{0}}},
};

static void test_schema_allow_extra_cases(void **state)
{
    (void)state;
    RUN(extra_cases, NPYDT_CHECK_ALLOW_EXTRA);
}

/* three levels of structs, two of them repeated in subarrays, with extra
 * fields at every level */
#define DEEP                                                                      \
    "[('hdr', '<u4'), ('f2', [('id', '<i4'), ('pad', '<i4'), ('inner', [('x', '<f4'), " \
    "('junk', '|u1'), ('y', '<f4')], (2,))], (3,)), ('tail', '<f8'), ('more', '|S3')]"

/* the same as np.dtype(..., align=True) lays it out: padding after the
 * extra fields, which a schema without them cannot have */
#define DEEP_ALIGNED                                                                   \
    "[('hdr', '|u1'), ('', '|V3'), ('f2', [('id', '<i4'), ('mask', '|u1'), ('', '|V3'), " \
    "('inner', [('x', '<f4'), ('junk', '|u1'), ('', '|V3'), ('y', '<f4')], (2,))], (3,)), " \
    "('', '|V4'), ('tail', '<f8'), ('more', '|S3'), ('', '|V5')]"

static const struct check_case extra_deep_cases[] = {
    {DEEP_ALIGNED, "[('hdr', '|u1'), ('f2', [('id', '<i4'), ('mask', '|u1'), ('inner', "
                   "[('x', '<f4'), ('y', '<f4')], (2,))], (3,)), ('tail', '<f8'), "
                   "('more', '|S3')]", {{0}}},
    {DEEP_ALIGNED, "[('f2', [('mask', '|u1'), ('inner', [('y', '<f4')], (2,))], (3,))]", {{0}}},
    {DEEP_ALIGNED, "[('f2', [('inner', [('x', '<f4'), ('y', '<i4')], (2,))], (3,)), "
                   "('tail', '<f8')]", {{KIND, "f2.inner.y", "<i4", "<f4"}}},
    {DEEP, "[('f2', [('id', '<i4'), ('inner', [('x', '<f4'), ('y', '<f4')], (2,))], (3,)), "
           "('tail', '<f8')]", {{0}}},
    /* every level but the innermost named in full: offsets and struct sizes
     * still free at all of them */
    {DEEP, "[('hdr', '<u4'), ('f2', [('id', '<i4'), ('pad', '<i4'), ('inner', [('x', '<f4'), "
           "('y', '<f4')], (2,))], (3,)), ('tail', '<f8'), ('more', '|S3')]", {{0}}},
    {DEEP, "[('f2', [('inner', [('y', '>f4')], (2,))], (3,))]", {{0}}},
    {DEEP, "[('f2', [('inner', [('y', '<f8')], (2,))], (3,))]",
     {{SIZE, "f2.inner.y", "<f8", "<f4"}}},
    {DEEP, "[('f2', [('inner', [('y', '<f4')], (3,))], (3,))]",
     {{SHAPE, "f2.inner", "(3,)", "(2,)"}}},
    {DEEP, "[('f2', [('inner', [('y', '<f4')])], (3,))]", {{SHAPE, "f2.inner", "()", "(2,)"}}},
    {DEEP, "[('f2', [('inner', [('y', '<f4'), ('x', '<f4')], (2,))], (3,))]",
     {{ORDER, "f2.inner", "y, x", "x, y"}}},
    {DEEP, "[('f2', [('inner', [('z', '<f4')], (2,))], (3,))]",
     {{MISSING, "f2.inner.z", "<f4", ""}}},
    {DEEP, "[('f2', [('inner', '<f4', (2,))], (3,))]",
     {{KIND, "f2.inner", "<f4", "[('x', '<f4'), ('junk', '|u1'), ('y', '<f4')]"}}},
};

static void test_schema_allow_extra_at_three_levels_of_nesting(void **state)
{
    (void)state;
    RUN(extra_deep_cases, NPYDT_CHECK_ALLOW_EXTRA);
}

static const struct check_case extra_strict_cases[] = {
    {DEEP, "[('f2', [('inner', [('y', '>f4')], (2,))], (3,))]",
     {{BYTEORDER, "f2.inner.y", ">f4", "<f4"}}},
    {NESTED, "[('pos', [('w', '>f8')])]", {{0}}},
    {NESTED, "[('pos', [('w', '<f8')])]", {{BYTEORDER, "pos.w", "<f8", ">f8"}}},
};

static void test_schema_allow_extra_with_strict(void **state)
{
    (void)state;
    RUN(extra_strict_cases, NPYDT_CHECK_ALLOW_EXTRA | NPYDT_CHECK_STRICT);
}

static const struct check_case extra_safe_cases[] = {
    {XYZ, "[('y', '<i8')]", {{0}}},
    {XYZ, "[('y', '<f8'), ('z', '<f16')]", {{0}}},
    {XYZ, "[('z', '<f16'), ('y', '<f8')]", {{ORDER, "", "z, y", "y, z"}}},
    {XYZ, "[('y', '<i2')]", {{SIZE, "y", "<i2", "<i4"}}},
};

static void test_schema_allow_extra_with_safe_cast(void **state)
{
    (void)state;
    RUN(extra_safe_cases, NPYDT_CHECK_ALLOW_EXTRA | NPYDT_CHECK_SAFE_CAST);
}

/* ---- names with NUL ------------------------------------------------------------ */

/* A schema names fields by their whole bytes: 'a' is not 'a\x00', and the
 * mismatch's path and texts carry the NUL with their lengths. */
static void test_schema_names_with_nul_are_compared_whole(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(
        "[('a', '<i4'), ('a\\x00', [('x\\x00', '<i2')]), (('t\\x00', 'b'), '|u1')]");
    npydt_schema *s = compile_ok(
        "[('a', '<i4'), ('a\\x00', [('x\\x00', '<i2')]), (('t\\x00', 'b'), '|u1')]");
    assert_int_equal(npydt_check_dtype(s, dt, NPYDT_CHECK_STRICT, NULL, NULL), NPYDT_OK);
    npydt_schema_free(s);
    s = compile_ok("[('a', '<i4'), ('a\\x00', [('x', '<i2')]), (('t\\x00\\x00', 'b'), '|u1')]");
    npydt_check_result *r = NULL;
    assert_int_equal(npydt_check_dtype(s, dt, NPYDT_CHECK_DEFAULT, &r, NULL), NPYDT_E_MISMATCH);
    assert_int_equal(npydt_check_result_count(r), 3);
    const npydt_mismatch *m = npydt_check_result_get(r, 0);
    assert_int_equal(m->code, MISSING);
    assert_int_equal(m->path_len, 4);
    assert_memory_equal(m->path, "a\0.x", 5);
    m = npydt_check_result_get(r, 1);
    assert_int_equal(m->code, EXTRA);
    assert_int_equal(m->path_len, 5);
    assert_memory_equal(m->path, "a\0.x\0", 6);
    assert_int_equal(m->expected_len, 0);
    m = npydt_check_result_get(r, 2);
    assert_int_equal(m->code, TITLE);
    assert_int_equal(m->expected_len, 3);
    assert_memory_equal(m->expected, "t\0\0", 4);
    assert_int_equal(m->found_len, 2);
    assert_memory_equal(m->found, "t\0", 3);
    npydt_check_result_free(r);
    npydt_schema_free(s);
    /* the order of the named fields, spelled with their NULs */
    s = compile_ok("[('a\\x00', [('x\\x00', '<i2')]), ('a', '<i4')]");
    assert_int_equal(npydt_check_dtype(s, dt, NPYDT_CHECK_ALLOW_EXTRA, &r, NULL),
                     NPYDT_E_MISMATCH);
    m = npydt_check_result_get(r, 0);
    assert_int_equal(m->code, ORDER);
    assert_int_equal(m->expected_len, 5);
    assert_memory_equal(m->expected, "a\0, a", 6);
    assert_int_equal(m->found_len, 5);
    assert_memory_equal(m->found, "a, a\0", 6);
    npydt_check_result_free(r);
    npydt_schema_free(s);
    npydt_dtype_free(dt);
}

/* ---- whole headers: shape and fortran_order ----------------------------------- */

struct header_case {
    const char *descr;
    uint64_t shape[3];
    size_t ndim;
    int fortran;
    const char *spec;
    struct want mm[4];
};

static npydt_header *make_header(const char *descr, const uint64_t *shape, size_t ndim,
                                 int fortran)
{
    npydt_dtype *dt = test_parse_literal(descr);
    unsigned char buf[4096];
    npydt_error err;
    size_t n = npydt_header_write(dt, shape, ndim, fortran, buf, sizeof buf, &err);
    assert_true(n > 0 && n <= sizeof buf);
    npydt_dtype_free(dt);
    npydt_header *h = NULL;
    assert_int_equal(npydt_header_parse(buf, n, NULL, &h, &err), NPYDT_OK);
    return h;
}

static const struct header_case header_cases[] = {
    {"'<f8'", {5, 3}, 2, 0, "{'descr': '<f8', 'shape': (-1, 3)}", {{0}}},
    {"'<f8'", {5, 3}, 2, 0, "{'descr': '<f8', 'shape': (5, 3), 'fortran_order': False}", {{0}}},
    {"'<f8'", {5, 3}, 2, 0, "{'shape': (-1, -1)}", {{0}}},
    {"'<f8'", {0}, 0, 0, "{'shape': ()}", {{0}}},
    {"'<f8'", {2, 3}, 2, 1, "{'fortran_order': True}", {{0}}},
    {"'<f8'", {2, 3}, 2, 1, "{'descr': '<f8', 'shape': None, 'fortran_order': None}", {{0}}},
    {"'<f8'", {5, 4}, 2, 0, "{'descr': '<f8', 'shape': (-1, 3)}",
     {{DIMENSION, "", "(-1, 3)", "(5, 4)"}}},
    {"'<f8'", {5}, 1, 0, "{'shape': (-1, 3)}", {{DIMENSION, "", "(-1, 3)", "(5,)"}}},
    {"'<f8'", {1}, 1, 0, "{'shape': ()}", {{DIMENSION, "", "()", "(1,)"}}},
    {"'<f8'", {2, 3}, 2, 0, "{'fortran_order': True}", {{FORTRAN, "", "True", "False"}}},
    {"[('x', '<f4')]", {2, 3}, 2, 1,
     "{'descr': [('x', '<f8')], 'shape': (2,), 'fortran_order': False}",
     {{SIZE, "x", "<f8", "<f4"}, {DIMENSION, "", "(2,)", "(2, 3)"},
      {FORTRAN, "", "False", "True"}}},
    /* a plain descriptor says nothing about the shape */
    {"'<f8'", {7, 7, 7}, 3, 1, "'<f8'", {{0}}},
};

static void test_schema_header_shape_and_order(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof header_cases / sizeof header_cases[0]; i++) {
        const struct header_case *c = &header_cases[i];
        npydt_header *h = make_header(c->descr, c->shape, c->ndim, c->fortran);
        npydt_schema *s = compile_ok(c->spec);
        npydt_check_result *r = NULL;
        npydt_error err;
        npydt_status st = npydt_check(s, h, NPYDT_CHECK_DEFAULT, &r, &err);
        char what[256];
        snprintf(what, sizeof what, "header case %zu: spec %s", i, c->spec);
        expect_result(what, st, r, c->mm);
        npydt_check_result_free(r);
        npydt_schema_free(s);
        npydt_header_free(h);
    }
}

/* ---- a dtype always matches itself --------------------------------------------- */

static const unsigned all_levels[] = {
    NPYDT_CHECK_DEFAULT, NPYDT_CHECK_STRICT, NPYDT_CHECK_SAFE_CAST, NPYDT_CHECK_ALLOW_EXTRA,
    NPYDT_CHECK_STRICT | NPYDT_CHECK_ALLOW_EXTRA, NPYDT_CHECK_SAFE_CAST | NPYDT_CHECK_ALLOW_EXTRA,
};

static void expect_self_match(const npydt_dtype *dt, const npydt_header *h, const char *spec,
                              const char *what)
{
    npydt_schema *s = compile_ok(spec);
    for (size_t k = 0; k < sizeof all_levels / sizeof all_levels[0]; k++) {
        npydt_check_result *r = NULL;
        npydt_error err;
        npydt_status st = h ? npydt_check(s, h, all_levels[k], &r, &err)
                            : npydt_check_dtype(s, dt, all_levels[k], &r, &err);
        if (st != NPYDT_OK) {
            print_error("%s, spec %s, flags %u: %s\n", what, spec, all_levels[k],
                        npydt_status_name(st));
            dump_result(r);
            fail();
        }
        npydt_check_result_free(r);
    }
    npydt_schema_free(s);
}

static const char *const self_dtypes[] = {
    "'|b1'", "'|i1'", "'>u2'", "'<i8'", "'>f2'", "'<f16'", "'>c32'", "'|S0'", "'|S7'",
    "'>U3'", "'|V0'", "'|V5'", "'|O'", "'<M8'", "'>M8[25s]'", "'<m8[7D]'", "'<M8[0s]'",
    "('<i4', (2, 3))", "[]", "[('', '|V4')]",
    "[('x', '<f8'), ('y', '<i4', (3,)), ('s', [('a', '|S2'), (('T', 'b'), '>U1')], (2,))]",
    "[('a', '|S0'), ('', '|V3'), ('b', '|O', (2,)), ('c', ('<i2', (2,)), (3,))]",
};

static void test_schema_dtype_matches_itself_at_every_level(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof self_dtypes / sizeof self_dtypes[0]; i++) {
        npydt_dtype *dt = test_parse_literal(self_dtypes[i]);
        char descr[1024];
        assert_true(npydt_dtype_descr(dt, descr, sizeof descr) < sizeof descr);
        expect_self_match(dt, NULL, self_dtypes[i], "literal");
        expect_self_match(dt, NULL, descr, "printed descriptor");
        npydt_dtype_free(dt);
    }
}

/* Every fixture file matches its own header, given as a dict spec. */
static void test_schema_fixtures_match_their_own_header(void **state)
{
    (void)state;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", test_fixture(""));
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t checked = 0;
    /* errno tells the end of the directory from a failed read */
    for (struct dirent *e; (errno = 0, e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 4, ".npy") != 0)
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        npydt_header *h = NULL;
        npydt_error err;
        if (npydt_parse_path(path, NULL, &h, &err) != NPYDT_OK)
            continue;   /* files NumPy cannot read either */
        const npydt_dtype *dt = npydt_header_dtype(h);
        size_t n = npydt_dtype_descr(dt, NULL, 0);
        char *descr = malloc(n + 1);
        char *spec = malloc(n + 256);
        assert_non_null(descr);
        assert_non_null(spec);
        npydt_dtype_descr(dt, descr, n + 1);
        int k = sprintf(spec, "{'descr': %s, 'fortran_order': %s, 'shape': (", descr,
                        npydt_header_fortran_order(h) ? "True" : "False");
        const uint64_t *shape = npydt_header_shape(h);
        for (size_t i = 0; i < npydt_header_ndim(h) && i < 8; i++)
            k += sprintf(spec + k, "%llu,", (unsigned long long)shape[i]);
        sprintf(spec + k, ")}");
        expect_self_match(dt, h, spec, path);
        expect_self_match(dt, h, descr, path);
        free(descr);
        free(spec);
        npydt_header_free(h);
        checked++;
    }
    if (errno != 0)
        fail_msg("reading %s: %s", dir, strerror(errno));
    closedir(d);
    assert_true(checked > 50);
}

/* ---- the three spec forms ------------------------------------------------------ */

static void expect_same_dtype(const char *a, const char *b)
{
    npydt_schema *sa = compile_ok(a), *sb = compile_ok(b);
    if (!npydt_dtype_equal(npydt_schema_dtype(sa), npydt_schema_dtype(sb)))
        fail_msg("%s and %s compile to different dtypes", a, b);
    npydt_schema_free(sa);
    npydt_schema_free(sb);
}

static void test_schema_spec_forms_agree(void **state)
{
    (void)state;
    const char *lit = "[('f0', '<f8'), ('f1', '<i4', (3,)), ('f2', '|S5')]";
    expect_same_dtype(lit, "f8, (3,)i4, S5");
    expect_same_dtype(lit, "{'descr': [('f0', '<f8'), ('f1', '<i4', (3,)), ('f2', '|S5')]}");
    expect_same_dtype("('<i4', (3,))", "(3,)i4");
    expect_same_dtype("( '<i4', (3,))", "(3,)<i4");
    expect_same_dtype("\n  '<f8'  \n", "float64");
    expect_same_dtype("{'descr': '<M8[ns]', 'shape': (-1,)}", "M8[ns]");
}

static void test_schema_dict_without_descr_has_no_dtype(void **state)
{
    (void)state;
    npydt_schema *s = compile_ok("{'shape': (-1, 2)}");
    assert_null(npydt_schema_dtype(s));
    npydt_dtype *dt = test_parse_literal("'<f8'");
    /* a bare dtype has no shape to check: it matches */
    assert_int_equal(npydt_check_dtype(s, dt, 0, NULL, NULL), NPYDT_OK);
    npydt_dtype_free(dt);
    npydt_schema_free(s);
}

static void test_schema_dtype_has_leaves(void **state)
{
    (void)state;
    npydt_schema *s = compile_ok("{'descr': [('a', '<i4'), ('b', [('c', '<f8')])]}");
    size_t n;
    const npydt_leaf *l = npydt_dtype_leaves(npydt_schema_dtype(s), &n);
    assert_int_equal(n, 2);
    char path[8];
    assert_string_equal(test_leaf_path(npydt_schema_dtype(s), 1, path, sizeof path), "b.c");
    assert_int_equal(l[1].offset, 4);
    npydt_schema_free(s);
}

struct spec_error {
    const char *spec;
    size_t len;            /* 0: strlen */
    npydt_status status;
    size_t offset;
    const char *path;
};

#define DIMS8 "1, 1, 1, 1, 1, 1, 1, 1, "
static const struct spec_error spec_errors[] = {
    {"[('x', '<f8') ('y', '<i4')]", 0, NPYDT_E_SYNTAX, 14, ""},
    {"  [('x', '<q9')]", 0, NPYDT_E_TYPE, 9, "x"},
    {"[('a', [('b', '<q8')])]", 0, NPYDT_E_TYPE, 14, "a.b"},
    {"", 0, NPYDT_E_SYNTAX, 0, ""},
    {" \n ", 0, NPYDT_E_SYNTAX, 3, ""},
    {"{'descr': '<f8', 'shape': (-2,)}", 0, NPYDT_E_SHAPE, 27, ""},
    {"{'descr': '<f8', 'colour': 1}", 0, NPYDT_E_KEY, 17, ""},
    {"{'descr': '<f8', 'descr': '<f4'}", 0, NPYDT_E_KEY, 17, ""},
    {"{1: 2}", 0, NPYDT_E_KEY, 1, ""},
    {"{'fortran_order': 1}", 0, NPYDT_E_VALUE, 18, ""},
    {"{'shape': 3}", 0, NPYDT_E_VALUE, 10, ""},
    {"{'shape': (2, 'a')}", 0, NPYDT_E_VALUE, 14, ""},
    /* an item of a type string is pointed at: its type, its repeat count,
     * or what stands where a comma should */
    {"f8, i4x", 0, NPYDT_E_TYPE, 4, ""},
    {" f8, i4x", 0, NPYDT_E_TYPE, 5, ""},
    {"f8, i4, S5x", 0, NPYDT_E_TYPE, 8, ""},
    {"f8, (2,3)q9", 0, NPYDT_E_TYPE, 9, ""},
    {"f8, (,)i4", 0, NPYDT_E_TYPE, 4, ""},
    {"f8, i4 ;", 0, NPYDT_E_TYPE, 7, ""},
    {"<f\0", 3, NPYDT_E_ENCODING, 2, ""},
    {"[('x', '<f8'), ('x', '<i4')]", 0, NPYDT_E_NAME, 15, ""},
    {"'<f8' junk", 0, NPYDT_E_SYNTAX, 6, ""},
    /* booleans are not dimensions; 'L' is a suffix only after an integer */
    {"{'shape': (2, True)}", 0, NPYDT_E_VALUE, 14, ""},
    {"[('x', '<f8', (False,))]", 0, NPYDT_E_VALUE, 14, "x"},
    {"{'shape': L}", 0, NPYDT_E_SYNTAX, 10, ""},
    {"{'shape': (2L L,)}", 0, NPYDT_E_SYNTAX, 14, ""},
    /* a NUL from an escape makes another key, never 'descr' */
    {"{'descr\\x00': '<f8'}", 0, NPYDT_E_KEY, 1, ""},
    /* a shape of more dimensions than max_ndim (32), a dimension past int64 */
    {"{'shape': (" DIMS8 DIMS8 DIMS8 DIMS8 "1)}", 0, NPYDT_E_LIMIT, 10, ""},
    {"{'shape': (2, 9223372036854775808)}", 0, NPYDT_E_OVERFLOW, 14, ""},
};

/* A schema reads Python 2 'L' suffixes after integers as a 1.0 header
 * does: NumPy's own win64python2.npy dict is a schema. */
static void test_schema_reads_python2_long_suffixes(void **state)
{
    (void)state;
    expect_same_dtype("[('a', '<i2', (2L, 3 L))]", "[('a', '<i2', (2, 3))]");
    npydt_schema *s = compile_ok("{'descr': '<f8', 'fortran_order': False, 'shape': (2L,), }");
    uint64_t shape[1] = {2};
    npydt_dtype *dt = test_parse_literal("'<f8'");
    unsigned char buf[256];
    npydt_error err;
    size_t n = npydt_header_write(dt, shape, 1, 0, buf, sizeof buf, &err);
    assert_true(n > 0 && n <= sizeof buf);
    npydt_header *h = NULL;
    assert_int_equal(npydt_header_parse(buf, n, NULL, &h, &err), NPYDT_OK);
    assert_int_equal(npydt_check(s, h, NPYDT_CHECK_STRICT, NULL, &err), NPYDT_OK);
    npydt_header_free(h);
    npydt_dtype_free(dt);
    npydt_schema_free(s);
}

static void test_schema_spec_errors_carry_offsets(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof spec_errors / sizeof spec_errors[0]; i++) {
        const struct spec_error *c = &spec_errors[i];
        npydt_schema *s = (npydt_schema *)1;
        npydt_error err;
        test_poison_error(&err);
        npydt_status st = npydt_schema_compile(c->spec, c->len ? c->len : strlen(c->spec), NULL,
                                               &s, &err);
        test_assert_error_filled(st, &err);
        if (st != c->status || err.code != c->status || err.offset != c->offset ||
            strcmp(err.path, c->path) != 0 || s != NULL)
            fail_msg("spec %zu (%s): %s at %zu path '%s' (%s), expected %s at %zu path '%s'", i,
                     c->spec, npydt_status_name(st), err.offset, err.path, err.message,
                     npydt_status_name(c->status), c->offset, c->path);
    }
}

/* ---- API contract ----------------------------------------------------------------- */

static void test_schema_check_reports_first_mismatch_in_error(void **state)
{
    (void)state;
    npydt_schema *s = compile_ok("[('a', '<i4'), ('b', [('c', '<f8')])]");
    npydt_dtype *dt = test_parse_literal("[('a', '<i4'), ('b', [('c', '<f4')]), ('d', '|u1')]");
    npydt_error err;
    assert_int_equal(npydt_check_dtype(s, dt, 0, NULL, &err), NPYDT_E_MISMATCH);
    assert_int_equal(err.code, NPYDT_E_MISMATCH);
    assert_int_equal(err.offset, NPYDT_NO_OFFSET);
    assert_string_equal(err.path, "b.c");
    assert_string_equal(err.message, "2 mismatches; first: size: expected <f8, found <f4");
    npydt_dtype_free(dt);
    npydt_schema_free(s);
}

static void test_schema_check_rejects_bad_arguments(void **state)
{
    (void)state;
    npydt_schema *s = compile_ok("'<f8'");
    npydt_dtype *dt = test_parse_literal("'<f8'");
    npydt_check_result *r = (npydt_check_result *)1;
    npydt_error err;
    assert_int_equal(npydt_check_dtype(s, dt, NPYDT_CHECK_STRICT | NPYDT_CHECK_SAFE_CAST, &r,
                                       &err), NPYDT_E_ARG);
    assert_null(r);
    assert_int_equal(npydt_check_dtype(s, dt, 1u << 7, &r, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_check_dtype(NULL, dt, 0, &r, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_check_dtype(s, NULL, 0, &r, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_check(s, NULL, 0, &r, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_schema_compile("'<f8'", 5, NULL, NULL, &err), NPYDT_E_ARG);
    assert_int_equal(npydt_schema_compile(NULL, 3, NULL, (npydt_schema **)&r, &err), NPYDT_E_ARG);
    npydt_dtype_free(dt);
    npydt_schema_free(s);
}

static void test_schema_result_accessors(void **state)
{
    (void)state;
    assert_int_equal(npydt_check_result_count(NULL), 0);
    assert_null(npydt_check_result_get(NULL, 0));
    npydt_check_result_free(NULL);
    npydt_schema_free(NULL);
    assert_null(npydt_schema_dtype(NULL));
    npydt_schema *s = compile_ok("'<f8'");
    npydt_dtype *dt = test_parse_literal("'<f8'");
    npydt_check_result *r = NULL;
    assert_int_equal(npydt_check_dtype(s, dt, 0, &r, NULL), NPYDT_OK);
    assert_non_null(r);
    assert_int_equal(npydt_check_result_count(r), 0);
    assert_null(npydt_check_result_get(r, 0));
    npydt_check_result_free(r);
    npydt_dtype_free(dt);
    npydt_schema_free(s);
}

static void test_schema_mismatch_code_names_are_stable(void **state)
{
    (void)state;
    static const char *const names[] = {
        "missing_field", "extra_field", "kind", "size", "byteorder", "unit", "shape",
        "offset", "order", "title", "dimension", "fortran_order",
    };
    for (int code = 1; code <= 12; code++)
        assert_string_equal(npydt_mismatch_code_name((npydt_mismatch_code)code), names[code - 1]);
    assert_string_equal(npydt_mismatch_code_name((npydt_mismatch_code)99), "unknown");
}

/* Many fields: names are found through an index, not by scanning. */
static void test_schema_wide_struct(void **state)
{
    (void)state;
    enum { N = 2000 };
    char *file = malloc(N * 32 + 32), *spec = malloc(N * 32);
    assert_non_null(file);
    assert_non_null(spec);
    size_t a = 0, b = 0;
    file[a++] = spec[b++] = '[';
    for (int i = 0; i < N; i++) {
        a += (size_t)sprintf(file + a, "%s('f%d', '<i4')", i ? ", " : "", i);
        /* a field of the file's own moves every later one */
        if (i == N / 2)
            a += (size_t)sprintf(file + a, ", ('extra', '<i4')");
        /* the schema widens one */
        b += (size_t)sprintf(spec + b, "%s('f%d', '%s')", i ? ", " : "", i,
                             i == 1992 ? "<i8" : "<i4");
    }
    file[a++] = spec[b++] = ']';
    file[a] = spec[b] = '\0';
    npydt_dtype *dt = test_parse_literal(file);
    npydt_schema *s = compile_ok(spec);
    npydt_check_result *r = NULL;
    assert_int_equal(npydt_check_dtype(s, dt, NPYDT_CHECK_ALLOW_EXTRA, &r, NULL),
                     NPYDT_E_MISMATCH);
    assert_int_equal(npydt_check_result_count(r), 1);
    const npydt_mismatch *m = npydt_check_result_get(r, 0);
    assert_int_equal(m->code, SIZE);
    assert_string_equal(m->path, "f1992");
    npydt_check_result_free(r);
    assert_int_equal(npydt_check_dtype(s, dt, NPYDT_CHECK_SAFE_CAST | NPYDT_CHECK_ALLOW_EXTRA,
                                       NULL, NULL), NPYDT_OK);
    npydt_schema_free(s);
    npydt_dtype_free(dt);
    free(file);
    free(spec);
}

/* ---- the cap on kept mismatches ----------------------------------------------------- */

/* "[('f0', T), ('f1', T), ...]" of n fields, to free */
static char *flat_struct(int n, const char *type)
{
    char *s = malloc((size_t)n * 32 + 8);
    assert_non_null(s);
    size_t a = 0;
    s[a++] = '[';
    for (int i = 0; i < n; i++)
        a += (size_t)sprintf(s + a, "%s('f%d', '%s')", i ? ", " : "", i, type);
    s[a++] = ']';
    s[a] = '\0';
    return s;
}

static void test_schema_check_keeps_the_first_mismatches_and_counts_all(void **state)
{
    (void)state;
    enum { N = 3 * NPYDT_CHECK_MISMATCH_MAX + 7 };
    char *file = flat_struct(N, "<f8"), *spec = flat_struct(N, "<i4");
    npydt_dtype *dt = test_parse_literal(file);
    npydt_schema *s = compile_ok(spec);
    npydt_check_result *r = NULL;
    npydt_error err;
    assert_int_equal(npydt_check_dtype(s, dt, 0, &r, &err), NPYDT_E_MISMATCH);
    assert_int_equal(npydt_check_result_count(r), NPYDT_CHECK_MISMATCH_MAX);
    assert_int_equal(npydt_check_result_total(r), N);
    assert_string_equal(npydt_check_result_get(r, 0)->path, "f0");
    char last[32];
    sprintf(last, "f%u", NPYDT_CHECK_MISMATCH_MAX - 1);
    assert_string_equal(npydt_check_result_get(r, NPYDT_CHECK_MISMATCH_MAX - 1)->path, last);
    assert_null(npydt_check_result_get(r, NPYDT_CHECK_MISMATCH_MAX));
    /* the error counts them all */
    char want[64];
    sprintf(want, "%d mismatches; first: kind: expected <i4, found <f8", N);
    assert_string_equal(err.message, want);
    npydt_check_result_free(r);
    npydt_schema_free(s);
    npydt_dtype_free(dt);
    free(file);
    free(spec);
}

/* Bytes a result holds for n fields of the wrong kind with long names. */
static size_t result_bytes(int n)
{
    char *file = malloc((size_t)n * 300 + 8), *spec = malloc((size_t)n * 300 + 8);
    assert_non_null(file);
    assert_non_null(spec);
    size_t a = 0, b = 0;
    file[a++] = spec[b++] = '[';
    for (int i = 0; i < n; i++) {
        a += (size_t)sprintf(file + a, "%s('%0256d', '<f8')", i ? ", " : "", i);
        b += (size_t)sprintf(spec + b, "%s('%0256d', '<i4')", i ? ", " : "", i);
    }
    file[a++] = spec[b++] = ']';
    file[a] = spec[b] = '\0';
    struct test_alloc t;
    test_alloc_init(&t, -1, 0);
    npydt_options o;
    npydt_options_init(&o);
    o.allocator = &t.alloc;
    npydt_schema *s = NULL;
    assert_int_equal(npydt_schema_compile(spec, b, &o, &s, NULL), NPYDT_OK);
    npydt_dtype *dt = test_parse_literal(file);
    size_t before = t.live_bytes;
    npydt_check_result *r = NULL;
    assert_int_equal(npydt_check_dtype(s, dt, 0, &r, NULL), NPYDT_E_MISMATCH);
    assert_int_equal(npydt_check_result_total(r), n);
    size_t held = t.live_bytes - before;
    npydt_check_result_free(r);
    npydt_schema_free(s);
    npydt_dtype_free(dt);
    free(file);
    free(spec);
    return held;
}

static void test_schema_check_result_memory_stops_at_the_cap(void **state)
{
    (void)state;
    size_t at_cap = result_bytes(NPYDT_CHECK_MISMATCH_MAX);
    assert_int_equal(result_bytes(8 * NPYDT_CHECK_MISMATCH_MAX), at_cap);
}

/* ---- allocation failures ---------------------------------------------------------- */

static void test_schema_compile_survives_every_allocation_failure(void **state)
{
    (void)state;
    const char *spec = "{'descr': [('a', '<i4'), ('b', [('c', '<f8')], (2,))], 'shape': (-1,)}";
    struct test_alloc t;
    test_alloc_init(&t, -1, 0);
    npydt_options o;
    npydt_options_init(&o);
    o.allocator = &t.alloc;
    for (long k = 0;; k++) {
        t.calls = 0;
        t.fail_at = k;
        npydt_schema *s = NULL;
        npydt_error err;
        npydt_status st = npydt_schema_compile(spec, strlen(spec), &o, &s, &err);
        if (st == NPYDT_OK) {
            npydt_schema_free(s);
            assert_int_equal(t.live_blocks, 0);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        assert_null(s);
        assert_int_equal(t.live_blocks, 0);
        assert_true(k < 1000);
    }
}

static void test_schema_check_survives_every_allocation_failure(void **state)
{
    (void)state;
    /* wide enough for the name index and several arena chunks of text */
    char spec[8192], file[8192];
    size_t a = 0, b = 0;
    spec[a++] = file[b++] = '[';
    for (int i = 0; i < 60; i++) {
        a += (size_t)sprintf(spec + a, "%s('field_number_%d', '<i8')", i ? ", " : "", i);
        b += (size_t)sprintf(file + b, "%s('field_number_%d', '<i4')", i ? ", " : "", i + 3);
    }
    spec[a++] = file[b++] = ']';
    spec[a] = file[b] = '\0';
    struct test_alloc t;
    test_alloc_init(&t, -1, 0);
    npydt_options o;
    npydt_options_init(&o);
    o.allocator = &t.alloc;
    npydt_schema *s = NULL;
    assert_int_equal(npydt_schema_compile(spec, strlen(spec), &o, &s, NULL), NPYDT_OK);
    long schema_blocks = t.live_blocks;
    npydt_dtype *dt = test_parse_literal(file);
    for (long k = 0;; k++) {
        t.calls = 0;
        t.fail_at = k;
        npydt_check_result *r = NULL;
        npydt_status st = npydt_check_dtype(s, dt, 0, &r, NULL);
        if (st == NPYDT_E_MISMATCH) {
            assert_int_equal(npydt_check_result_count(r), 63);   /* 57 size, 3 missing, 3 extra */
            npydt_check_result_free(r);
            break;
        }
        assert_int_equal(st, NPYDT_E_NOMEM);
        assert_null(r);
        assert_int_equal(t.live_blocks, schema_blocks);
        assert_true(k < 1000);
    }
    assert_int_equal(t.live_blocks, schema_blocks);
    npydt_dtype_free(dt);
    npydt_schema_free(s);
    assert_int_equal(t.live_blocks, 0);
}

/* ---- NumPy's can_cast ---------------------------------------------------------------- */

struct cast_case {
    const char *from, *to;
    int safe;   /* np.can_cast(from, to, 'safe'), NumPy 1.24 */
};

static const struct cast_case cast_cases[] = {
    {"'|b1'", "'|i1'", 1}, {"'|b1'", "'<c8'", 1}, {"'|i1'", "'|b1'", 0},
    {"'|i1'", "'<f2'", 1}, {"'<i2'", "'<f2'", 0}, {"'<i2'", "'<f4'", 1},
    {"'<i4'", "'<f4'", 0}, {"'<i4'", "'<f8'", 1}, {"'<i8'", "'<f8'", 1},
    {"'<i4'", "'<c8'", 0}, {"'<i4'", "'<c16'", 1}, {"'|u1'", "'|i1'", 0},
    {"'|u1'", "'<i2'", 1}, {"'<u8'", "'<i8'", 0}, {"'<u8'", "'<f8'", 1},
    {"'<u4'", "'<f4'", 0}, {"'<f2'", "'<c8'", 1}, {"'<f8'", "'<c8'", 0},
    {"'<f16'", "'<c32'", 1}, {"'<c32'", "'<c16'", 0}, {"'>i2'", "'<i2'", 1},
    {"'|b1'", "'|S5'", 1}, {"'|b1'", "'|S4'", 0}, {"'<i8'", "'|S21'", 1},
    {"'<i8'", "'|S20'", 0}, {"'<u8'", "'<U20'", 1}, {"'<f8'", "'|S32'", 1},
    {"'<f16'", "'|S47'", 0}, {"'<c16'", "'|S64'", 1}, {"'<c32'", "'|S95'", 0},
    {"'<c32'", "'|S96'", 1},
    {"'<c32'", "'|S0'", 1}, {"'|S3'", "'<U3'", 1}, {"'<U3'", "'|S12'", 0},
    {"'<U1'", "'|V4'", 1}, {"'<U1'", "'|V3'", 0}, {"'|S0'", "'|S1'", 1},
    {"'|V3'", "'|S3'", 0}, {"'|O'", "'|V8'", 0}, {"'|V2'", "'|O'", 1},
    {"'<M8[s]'", "'<M8[ms]'", 1}, {"'<M8[Y]'", "'<M8[D]'", 1}, {"'<m8[Y]'", "'<m8[D]'", 0},
    {"'<M8[W]'", "'<M8[ps]'", 0}, {"'<M8[h]'", "'<M8[ps]'", 1}, {"'<M8[7D]'", "'<M8[W]'", 0},
    {"'<M8[2s]'", "'<M8[s]'", 1}, {"'<M8[s]'", "'<M8[2s]'", 0}, {"'<M8'", "'<M8[s]'", 1},
    {"'<M8[s]'", "'<M8'", 0}, {"'<M8[s]'", "'<m8[s]'", 0}, {"'<i4'", "'<m8'", 1},
    {"'<u8'", "'<m8'", 0}, {"'<M8[s]'", "'|V8'", 1}, {"'<M8[s]'", "'|S0'", 0},
    {"'<M8[1000ms]'", "'<M8[s]'", 1}, {"'<M8[s]'", "'<M8[0s]'", 0},
    {"[('a', '<i2')]", "[('b', '<i8')]", 1},          /* paired by position */
    {"[('a', '<i2'), ('b', '|u1')]", "[('a', '<i8')]", 0},
    {"[('a', '<i2')]", "'|V0'", 1}, {"[('a', '<i2')]", "'|V2'", 0},
    {"[('a', '<i2')]", "'|O'", 1}, {"[('a', '<i2')]", "[('a', '|V0')]", 0},
    {"('<i2', (3,))", "('<i8', (3,))", 1}, {"('<i2', (3,))", "('<i8', (1, 3))", 0},
    {"'<i2'", "('<i8', (3,))", 1}, {"('<i2', (3,))", "'<i8'", 0},
    {"'|V2'", "('|V2', (3,))", 0}, {"'|O'", "('|O', (3,))", 0},
    {"('<i2', (3,))", "'|V0'", 1},
};

static void test_schema_can_cast_safe_follows_numpy(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cast_cases / sizeof cast_cases[0]; i++) {
        npydt_dtype *from = test_parse_literal(cast_cases[i].from);
        npydt_dtype *to = test_parse_literal(cast_cases[i].to);
        int got = npydt_can_cast_safe(from, to);
        if (got != cast_cases[i].safe)
            fail_msg("can_cast(%s, %s): %d, NumPy says %d", cast_cases[i].from, cast_cases[i].to,
                     got, cast_cases[i].safe);
        npydt_dtype_free(from);
        npydt_dtype_free(to);
    }
}

TEST_LIST("schema",
    cmocka_unit_test(test_schema_default_matches),
    cmocka_unit_test(test_schema_default_mismatches),
    cmocka_unit_test(test_schema_strict_cases),
    cmocka_unit_test(test_schema_safe_cast_matches),
    cmocka_unit_test(test_schema_safe_cast_mismatches),
    cmocka_unit_test(test_schema_allow_extra_cases),
    cmocka_unit_test(test_schema_allow_extra_at_three_levels_of_nesting),
    cmocka_unit_test(test_schema_allow_extra_with_strict),
    cmocka_unit_test(test_schema_names_with_nul_are_compared_whole),
    cmocka_unit_test(test_schema_allow_extra_with_safe_cast),
    cmocka_unit_test(test_schema_header_shape_and_order),
    cmocka_unit_test(test_schema_dtype_matches_itself_at_every_level),
    cmocka_unit_test(test_schema_fixtures_match_their_own_header),
    cmocka_unit_test(test_schema_spec_forms_agree),
    cmocka_unit_test(test_schema_dict_without_descr_has_no_dtype),
    cmocka_unit_test(test_schema_dtype_has_leaves),
    cmocka_unit_test(test_schema_spec_errors_carry_offsets),
    cmocka_unit_test(test_schema_reads_python2_long_suffixes),
    cmocka_unit_test(test_schema_check_reports_first_mismatch_in_error),
    cmocka_unit_test(test_schema_check_rejects_bad_arguments),
    cmocka_unit_test(test_schema_result_accessors),
    cmocka_unit_test(test_schema_mismatch_code_names_are_stable),
    cmocka_unit_test(test_schema_wide_struct),
    cmocka_unit_test(test_schema_check_keeps_the_first_mismatches_and_counts_all),
    cmocka_unit_test(test_schema_check_result_memory_stops_at_the_cap),
    cmocka_unit_test(test_schema_compile_survives_every_allocation_failure),
    cmocka_unit_test(test_schema_check_survives_every_allocation_failure),
    cmocka_unit_test(test_schema_can_cast_safe_follows_numpy),
);

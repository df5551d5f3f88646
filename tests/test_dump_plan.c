/* dump --jsonl's plan (src/cli/dump/dump_plan.c) against the tree walk it
 * stands in for (dump_put_element): for every dtype of the fixtures and a
 * list that takes every op of the plan in both byte orders, in every
 * style (the 16 combinations of --float native, --nan null, --big-int
 * string, --datetime iso), the plan writes each element as the walk does,
 * byte for byte, one element a call and a run of them in one call. The
 * elements are the fixtures' own and records made of values picked for
 * the edges of each op: integer limits and 2^53, NaN, infinities and -0,
 * NaT, S text that escapes, ends in NULs or fills its field, U text of
 * every UTF-8 length. */
#include "test_util.h"

#include "cli/dump/dump.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Structs in an array of structs, a complex subarray. */
#define NESTED                                                                              \
    "[('p',[('q','<f8'),('r','>i2',(3,)),('s',[('t','|S2'),('u','>M8[ms]')])],(2,)),"       \
    "('v','<c8',(2,))]"

/* Dtypes that take each op of the plan: every kind and size, in both byte
 * orders, a complex of each size, the innermost list of small integers,
 * S fields of 1 to 40 bytes, a key longer than the plan keeps in a step,
 * keys that escape, and the kinds the typed readers write (long U text
 * after values the plan writes: a typed value takes room the plan does
 * not reserve). */
static const char *const dtypes[] = {
    "[('a','|i1'),('b','<i2'),('c','>i2'),('d','<i4'),('e','>i4'),('f','<i8'),('g','>i8')]",
    "[('a','|u1'),('b','<u2'),('c','>u2'),('d','<u4'),('e','>u4'),('f','<u8'),('g','>u8')]",
    "[('a','<f4'),('b','>f4'),('c','<f8'),('d','>f8'),('e','<f2'),('f','>f2')]",
    "[('a','<c8'),('b','>c8'),('c','<c16'),('d','>c16')]",
    "[('a','<M8[ns]'),('b','>M8[ns]'),('c','<M8[D]'),('d','>M8[s]'),('e','<m8[us]'),"
    "('f','>m8[h]')]",
    "[('a','|b1'),('b','|V3'),('c','<U1'),('d','>U3'),('e','<U5')]",
    "[('a','<f8'),('b','<f8'),('c','<i8'),('d','<u8'),('e','<U64')]",
    "[('a','|b1'),('e','<U256')]",
    "[('a','|S1'),('b','|S2'),('c','|S7'),('d','|S8'),('e','|S9'),('f','|S10'),('g','|S16'),"
    "('h','|S17'),('i','|S24'),('j','|S40')]",
    "[('a','<i2',(3,)),('b','>u4',(2,2)),('c','|i1',(5,)),('d','|u1',(2,3)),('e','>i4',(1,)),"
    "('f','<f4',(2,)),('g','|S3',(2,))]",
    "[('a_key_longer_than_sixteen_bytes','<i8'),('b','<f8'),"
    "('another_long_key_of_some_thirty_bytes','|S5')]",
    "[('q\"uote','<i4'),('back\\\\slash','<f8'),('tab\\tkey','|S4'),('\xc3\xa9t\xc3\xa9','<u2')]",
    "[('t','<M8[ns]'),('id','<u4'),('a','<f8'),('b','<f8'),('c','<f4'),('d','<f4'),"
    "('e','<i8'),('f','<i2'),('s','|S10')]",
    NESTED,
    "'<f8'", "'>i8'", "'|S12'", "'<u2'", "'>M8[us]'", "('<i2',(2,3))", "'<U4'", "'|V8'",
    "'<f2'",
};

static uint64_t next(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* v's low n bytes at p in byte order order ('>' most significant first). */
static void store(unsigned char *p, size_t n, char order, uint64_t v)
{
    for (size_t i = 0; i < n && i < 8; i++) {
        unsigned char b = (unsigned char)(v >> (8 * i));
        p[order == '>' ? n - 1 - i : i] = b;
    }
}

/* An integer (or a datetime count) of n bytes at an edge, or at random. */
static uint64_t pick_int(uint64_t *rng, size_t n)
{
    uint64_t top = n >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * n)) - 1;
    uint64_t safe = (UINT64_C(1) << 53) - 1;
    const uint64_t edges[] = {0, 1, top, top >> 1, (top >> 1) + 1, safe, safe + 1,
                              (uint64_t)0 - safe, (uint64_t)0 - safe - 1, 9, 10, 99, 100,
                              UINT64_C(99999999), UINT64_C(100000000), UINT64_C(1) << 63};
    uint64_t r = next(rng);
    switch (r % 4) {
    case 0: return edges[next(rng) % (sizeof edges / sizeof edges[0])];
    case 1: return next(rng) % 1000 - 500;
    default: return next(rng);
    }
}

/* The bits of a float of n (4 or 8) bytes: a special value or random. */
static uint64_t pick_float(uint64_t *rng, size_t n)
{
    static const double specials[] = {0.0, -0.0, 1.0, -1.5, 0.1, 1e21, 1e-7, 123456789.0,
                                      5e-324, 1.7976931348623157e308, 3.4028234663852886e38};
    uint64_t r = next(rng) % 8;
    uint64_t exp_all = n == 8 ? UINT64_C(0x7ff0000000000000) : 0x7f800000;
    uint64_t sign = n == 8 ? UINT64_C(1) << 63 : UINT64_C(1) << 31;
    switch (r) {
    case 0: return exp_all | 1 | (next(rng) & 1 ? sign : 0);   /* NaN */
    case 1: return exp_all;                                      /* inf */
    case 2: return exp_all | sign;                               /* -inf */
    case 3: {
        double d = specials[next(rng) % (sizeof specials / sizeof specials[0])];
        if (n == 8) {
            uint64_t b;
            memcpy(&b, &d, 8);
            return b;
        }
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    default: return next(rng);
    }
}

/* S text: letters, bytes that escape or not (a NUL inside), or letters
 * but for one such byte anywhere; then NULs to the end of the field, or
 * none. */
static void pick_bytes(unsigned char *p, size_t n, uint64_t *rng)
{
    static const unsigned char alphabet[] = {'a', 'Z', ' ', '~', '"', '\\', '\n', '\t', 1,
                                             0x1f, 0x7f, 0x80, 0xc3, 0xe9, 0xff, 0, '/'};
    size_t len = next(rng) % 3 == 0 ? n : (size_t)(next(rng) % (n + 1));
    uint64_t mode = next(rng) % 3;
    for (size_t i = 0; i < n; i++)
        p[i] = i >= len ? 0 : mode == 1 ? alphabet[next(rng) % sizeof alphabet]
                                        : (unsigned char)('a' + next(rng) % 26);
    if (mode == 2 && len > 0)
        p[next(rng) % len] = alphabet[next(rng) % sizeof alphabet];
}

/* U text: code points of every UTF-8 length, a lone surrogate, controls
 * and the line breaks JSON output escapes; then zeros. */
static void pick_unicode(unsigned char *p, size_t n, char order, uint64_t *rng)
{
    static const uint32_t points[] = {'a', '"', '\\', '\n', 0x7f, 0x85, 0xe9, 0x2028, 0x20ac,
                                      0xd800, 0xffff, 0x1f600, 0x10ffff};
    size_t units = n / 4, len = (size_t)(next(rng) % (units + 1));
    for (size_t i = 0; i < units; i++)
        store(p + 4 * i, 4, order, i < len ? points[next(rng) % (sizeof points / sizeof points[0])] : 0);
}

/* One scalar of leaf l at p. */
static void pick_scalar(unsigned char *p, const npydt_leaf *l, uint64_t *rng)
{
    size_t n = l->itemsize;
    char order = l->byteorder;
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)next(rng);
    switch (l->kind) {
    case 'i': case 'u':
        if (n <= 8)
            store(p, n, order, pick_int(rng, n));
        break;
    case 'M': case 'm':
        store(p, n, order, next(rng) % 5 == 0 ? UINT64_C(1) << 63 : pick_int(rng, n));
        break;
    case 'f':
        if (n == 4 || n == 8)
            store(p, n, order, pick_float(rng, n));
        break;
    case 'c':
        if (n == 8 || n == 16) {
            store(p, n / 2, order, pick_float(rng, n / 2));
            store(p + n / 2, n / 2, order, pick_float(rng, n / 2));
        }
        break;
    case 'b': p[0] = next(rng) % 3 == 0 ? (unsigned char)next(rng) : (unsigned char)(next(rng) % 2); break;
    case 'S': pick_bytes(p, n, rng); break;
    case 'U': pick_unicode(p, n, order, rng); break;
    default: break;
    }
}

/* Every element of leaf l (its repeats from level on) in rec. */
static void pick_leaf(unsigned char *rec, const npydt_leaf *l, uint32_t level, uint64_t offset,
                      uint64_t *rng)
{
    if (level == l->nrepeats) {
        pick_scalar(rec + offset, l, rng);
        return;
    }
    for (uint64_t i = 0; i < l->repeats[level].count; i++)
        pick_leaf(rec, l, level + 1, offset + i * l->repeats[level].stride, rng);
}

/* n records of dt at recs, values picked per leaf (padding at random). */
static void pick_records(const npydt_dtype *dt, unsigned char *recs, size_t n, uint64_t *rng)
{
    size_t isz = npydt_dtype_itemsize(dt), nleaves;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &nleaves);
    for (size_t k = 0; k < n; k++) {
        unsigned char *rec = recs + k * isz;
        for (size_t i = 0; i < isz; i++)
            rec[i] = (unsigned char)next(rng);
        for (size_t i = 0; i < nleaves; i++)
            pick_leaf(rec, &leaves[i], 0, leaves[i].offset, rng);
    }
}

/* The dumper of a style: bit 0 --float native, 1 --nan null, 2 --big-int
 * string, 3 --datetime iso. */
static struct dumper dumper_of(const npydt_dtype *dt, unsigned style)
{
    struct dumper d;
    memset(&d, 0, sizeof d);
    d.style.float_native = style & 1;
    d.style.nan_null = (style >> 1) & 1;
    d.style.big_int_string = (style >> 2) & 1;
    d.style.datetime_iso = (style >> 3) & 1;
    size_t nleaves, m = 0;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &nleaves);
    for (size_t i = 0; i < nleaves; i++)
        if (leaves[i].kind == 'U' && leaves[i].itemsize > m)
            m = leaves[i].itemsize;
    d.ubuf_size = m + 1;
    d.ubuf = malloc(d.ubuf_size);
    assert_non_null(d.ubuf);
    d.itemsize = npydt_dtype_itemsize(dt);
    return d;
}

/* The n elements at recs of dt by the tree walk, a line each, into out;
 * stops at the first that fails (its partial text kept): 0 or -1. */
static int walk_lines(struct dumper *d, const npydt_dtype *dt, const unsigned char *const *recs,
                      size_t n, const struct selected *sel, size_t nsel, struct sink *out)
{
    for (size_t k = 0; k < n; k++) {
        if (dump_put_element(d, out, dt, recs[k], sel, nsel) != 0)
            return -1;
        sink_putc(out, '\n');
    }
    return 0;
}

static void assert_same_text(const struct sink *a, const struct sink *b, const char *what,
                             const char *descr, unsigned style)
{
    assert_false(a->bytes.failed);
    assert_false(b->bytes.failed);
    if (a->bytes.len == b->bytes.len &&
        (a->bytes.len == 0 || memcmp(a->bytes.buf, b->bytes.buf, a->bytes.len) == 0))
        return;
    size_t i = 0;
    while (i < a->bytes.len && i < b->bytes.len && a->bytes.buf[i] == b->bytes.buf[i])
        i++;
    size_t from = i > 60 ? i - 60 : 0;
    fail_msg("%s of %s in style %u differs from the tree walk at byte %zu:\n"
             "  walk: %.120s\n  plan: %.120s", what, descr, style, i,
             a->bytes.len > from ? a->bytes.buf + from : "",
             b->bytes.len > from ? b->bytes.buf + from : "");
}

/* The n elements at recs of dt (or its nsel fields sel) through the plan,
 * a call each and all in one call, against the tree walk, in every style. */
static void compare(const npydt_dtype *dt, const unsigned char *const *recs, size_t n,
                    const struct selected *sel, size_t nsel, const char *descr)
{
    for (unsigned style = 0; style < 16; style++) {
        struct dumper d = dumper_of(dt, style), e = dumper_of(dt, style);
        struct sink want, one, run;
        sink_init(&want, SINK_MEMORY);
        sink_init(&one, SINK_MEMORY);
        sink_init(&run, SINK_MEMORY);
        int rc = walk_lines(&d, dt, recs, n, sel, nsel, &want);
        struct json_plan line, bare;
        if (plan_build(&line, dt, sel, nsel, &e.style, "\n") != 0 ||
            plan_build(&bare, dt, sel, nsel, &e.style, "") != 0)
            fail_msg("no plan for %s", descr);
        int rc_run = plan_put_run(&e, &run, &line, recs, n);
        assert_int_equal(rc_run, rc);
        assert_same_text(&want, &run, "a run of elements", descr, style);
        if (rc != 0) {
            assert_int_equal(e.err.code, d.err.code);
            assert_string_equal(e.err.message, d.err.message);
        }
        int rc_one = 0;
        for (size_t k = 0; k < n && rc_one == 0; k++) {
            rc_one = plan_put(&e, &one, &bare, recs[k]);
            if (rc_one == 0)
                sink_putc(&one, '\n');
        }
        assert_int_equal(rc_one, rc);
        assert_same_text(&want, &one, "an element a call", descr, style);
        plan_free(&line);
        plan_free(&bare);
        sink_free(&want);
        sink_free(&one);
        sink_free(&run);
        free(d.ubuf);
        free(e.ubuf);
    }
}

/* n records of dt picked at random (seeded by seed), compared. */
static void compare_picked(const npydt_dtype *dt, size_t n, uint64_t seed, const char *descr)
{
    size_t isz = npydt_dtype_itemsize(dt);
    unsigned char *buf = malloc(n * isz + 1);
    const unsigned char **recs = malloc(n * sizeof *recs);
    assert_non_null(buf);
    assert_non_null(recs);
    uint64_t rng = seed | 1;
    /* at an odd address: the plan reads values wherever they lie */
    pick_records(dt, buf + 1, n, &rng);
    for (size_t k = 0; k < n; k++)
        recs[k] = buf + 1 + k * isz;
    compare(dt, recs, n, NULL, 0, descr);
    free(recs);
    free(buf);
}

static void test_dump_plan_writes_every_op_as_the_tree_walk(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++) {
        npydt_dtype *dt = test_parse_literal(dtypes[i]);
        compare_picked(dt, 400, 0x9E3779B97F4A7C15u + i, dtypes[i]);
        npydt_dtype_free(dt);
    }
}

static void test_dump_plan_writes_selected_fields_as_the_tree_walk(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(NESTED);
    struct selected *sel;
    size_t nsel;
    char *storage;
    assert_int_equal(dump_select_fields("t", "v,p.s.t,p.q,p.r", dt, &sel, &nsel, &storage), 0);
    size_t isz = npydt_dtype_itemsize(dt), n = 300;
    unsigned char *buf = malloc(n * isz);
    const unsigned char **recs = malloc(n * sizeof *recs);
    assert_non_null(buf);
    assert_non_null(recs);
    uint64_t rng = 12345;
    pick_records(dt, buf, n, &rng);
    for (size_t k = 0; k < n; k++)
        recs[k] = buf + k * isz;
    compare(dt, recs, n, sel, nsel, "fields v,p.s.t,p.q,p.r");
    free(recs);
    free(buf);
    free(sel);
    free(storage);
    npydt_dtype_free(dt);
}

/* Each .npy fixture the plan takes: its own elements (the first 2000)
 * and records of its dtype with picked values. */
static void test_dump_plan_writes_the_fixtures_as_the_tree_walk(void **state)
{
    (void)state;
    const char *dir = getenv("FIXTURES") ? getenv("FIXTURES") : "tests/fixtures";
    DIR *dp = opendir(dir);
    assert_non_null(dp);
    size_t planned = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 4 || strcmp(de->d_name + len - 4, ".npy") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        npydt_reader_options opts;
        npydt_reader_options_init(&opts);
        opts.in_memory = 1;
        npydt_reader *r = NULL;
        npydt_error err;
        if (npydt_reader_open_path(path, &opts, &r, &err) != NPYDT_OK)
            continue;   /* not an array dump prints */
        const npydt_header *h = npydt_reader_header(r);
        const npydt_dtype *dt = npydt_header_dtype(h);
        struct json_plan probe;
        struct value_style plain = {0};
        if (npydt_dtype_has_object(dt) || plan_build(&probe, dt, NULL, 0, &plain, "") != 0) {
            npydt_reader_close(r);
            continue;
        }
        plan_free(&probe);
        planned++;
        uint64_t count = npydt_header_count(h);
        size_t n = count > 2000 ? 2000 : (size_t)count;
        const unsigned char **recs = malloc((n ? n : 1) * sizeof *recs);
        assert_non_null(recs);
        for (size_t k = 0; k < n; k++)
            recs[k] = test_element_at(r, k);
        compare(dt, recs, n, NULL, 0, de->d_name);
        free(recs);
        if (npydt_dtype_itemsize(dt) > 0)
            compare_picked(dt, 100, len * 7919u, de->d_name);
        npydt_reader_close(r);
    }
    closedir(dp);
    assert_true(planned >= 50);
}

TEST_LIST("dump_plan",
    cmocka_unit_test(test_dump_plan_writes_every_op_as_the_tree_walk),
    cmocka_unit_test(test_dump_plan_writes_selected_fields_as_the_tree_walk),
    cmocka_unit_test(test_dump_plan_writes_the_fixtures_as_the_tree_walk));

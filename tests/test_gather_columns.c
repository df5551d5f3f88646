/* Many fields of many records into columns a tile of records at a time
 * (gather_columns): byte for byte what npydt_gather gives field by field,
 * for random layouts (gaps, any order, byte orders, subarrays, strings),
 * record counts around the tile's, and NaT found in datetime columns. */
#include "test_util.h"

#include "records/records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Scalars a column is gathered from, and subarrays of them (a shape). */
static const char *const kinds[] = {
    "'|b1'", "'|i1'", "'<i2'", "'>i2'", "'<u4'", "'>u4'", "'<i8'", "'>i8'", "'<f2'",
    "'>f4'", "'<f8'", "'>f8'", "'<c8'", "'>c16'", "'|S1'", "'|S3'", "'|S10'", "'|S17'",
    "'|V5'", "'<M8[ns]'", "'>M8[us]'", "'<m8[s]'", "'>m8[D]'", "'<M8'", "'<U2'", "'>U3'",
    "'>i4', (3,)", "'<u2', (2, 2)", "'>M8[ms]', (2,)", "'|S2', (5,)", "'<f4', (3,)",
};
#define NKINDS (sizeof kinds / sizeof kinds[0])
#define MAXF 12

struct layout {
    char descr[1024];
    size_t nf;   /* fields, padding counted */
    size_t itemsize;
};

/* A struct of 1..MAXF random fields, some after a gap (a padding field of
 * 1..7 bytes), padding after the last at times. */
static void random_layout(struct layout *l)
{
    size_t fields = 1 + (size_t)(next() % (MAXF / 2)), len = 0;
    l->nf = 0;
    len += (size_t)snprintf(l->descr + len, sizeof l->descr - len, "[");
    for (size_t i = 0; i <= fields; i++) {
        if (next() % 3 == 0) {
            len += (size_t)snprintf(l->descr + len, sizeof l->descr - len, "%s('', '|V%u')",
                                    l->nf ? ", " : "", (unsigned)(1 + next() % 7));
            l->nf++;
        }
        if (i == fields)
            break;
        len += (size_t)snprintf(l->descr + len, sizeof l->descr - len, "%s('f%zu', %s)",
                                l->nf ? ", " : "", i, kinds[next() % NKINDS]);
        l->nf++;
    }
    snprintf(l->descr + len, sizeof l->descr - len, "]");
    npydt_dtype *dt = test_parse_literal(l->descr);
    l->itemsize = npydt_dtype_itemsize(dt);
    npydt_dtype_free(dt);
}

static void fill_random(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(next() >> 24);
}

/* The scalar of field f (a scalar or a subarray of scalars). */
static const npydt_dtype *scalar_of(const npydt_dtype *f)
{
    while (npydt_dtype_get_class(f) == NPYDT_SUBARRAY)
        f = npydt_dtype_base(f);
    return f;
}

/* Is field f of 8-byte datetimes or timedeltas? */
static bool is_time(const npydt_dtype *f)
{
    char k = npydt_dtype_kind(scalar_of(f));
    return k == 'M' || k == 'm';
}

/* Every field of n records of layout l, gathered by gather_columns and by
 * npydt_gather: the same bytes; nat where a value is NaT, and only there. */
static void check_layout(const struct layout *l, uint64_t n, bool with_nat)
{
    npydt_dtype *dt = test_parse_literal(l->descr);
    size_t nf = npydt_dtype_nfields(dt), isz = npydt_dtype_itemsize(dt);
    assert_int_equal(isz, l->itemsize);
    unsigned char *recs = malloc((size_t)n * isz + 1);
    assert_non_null(recs);
    fill_random(recs, (size_t)n * isz);
    struct gather_col cols[MAXF];
    unsigned char *want[MAXF];
    bool nat_want[MAXF];
    for (size_t k = 0; k < nf; k++) {
        const npydt_dtype *f = npydt_dtype_field_dtype(dt, k);
        uint64_t off = npydt_dtype_field_offset(dt, k);
        size_t fsz = npydt_dtype_itemsize(f);
        nat_want[k] = false;
        if (is_time(f) && with_nat && n > 0) {
            /* NaT in one random element of one random record */
            uint64_t r = next() % n;
            size_t e = (size_t)(next() % (fsz / 8));
            unsigned char *v = recs + r * isz + off + e * 8;
            memset(v, 0, 8);   /* INT64_MIN in the field's byte order */
            v[text_order_swaps(npydt_dtype_byteorder(scalar_of(f))) == TEXT_HOST_BIG ? 7 : 0] =
                0x80;
            nat_want[k] = true;
        }
        unsigned char *dst = malloc((size_t)n * fsz + 1);
        want[k] = malloc((size_t)n * fsz + 1);
        assert_non_null(dst);
        assert_non_null(want[k]);
        gather_col_init(&cols[k], f, off, is_time(f), dst);
    }
    for (size_t k = 0; k < nf; k++) {
        TEST_ERROR(err);
        const npydt_dtype *f = npydt_dtype_field_dtype(dt, k);
        assert_int_equal(npydt_gather(recs, isz, n, f, npydt_dtype_field_offset(dt, k),
                                      NPYDT_AS_NATIVE, want[k], &err),
                         NPYDT_OK);
        if (is_time(f) && !nat_want[k])   /* random bytes may hold NaT too */
            for (uint64_t i = 0; i < n * (npydt_dtype_itemsize(f) / 8); i++) {
                int64_t v;
                memcpy(&v, want[k] + i * 8, 8);
                nat_want[k] |= v == NPYDT_NAT;
            }
    }
    gather_columns(recs, isz, n, cols, nf);
    for (size_t k = 0; k < nf; k++) {
        size_t fsz = npydt_dtype_itemsize(npydt_dtype_field_dtype(dt, k));
        if (n && memcmp(cols[k].dst, want[k], (size_t)n * fsz) != 0)
            fail_msg("%s: field %zu of %llu records differs", l->descr, k,
                     (unsigned long long)n);
        if (cols[k].nat != nat_want[k])
            fail_msg("%s: field %zu: NaT %s", l->descr, k,
                     nat_want[k] ? "missed" : "found where there is none");
        free(cols[k].dst);
        free(want[k]);
    }
    free(recs);
    npydt_dtype_free(dt);
}

static void test_gather_columns_equals_gather_on_random_layouts(void **state)
{
    (void)state;
    for (int round = 0; round < 300; round++) {
        struct layout l;
        random_layout(&l);
        /* around the tile's record count: none, one, a tile and a half */
        uint64_t tile = (16384 / l.itemsize) ? 16384 / l.itemsize : 1;
        uint64_t counts[] = {0, 1, 3, tile - 1, tile, tile + 1, tile + tile / 2 + next() % 7};
        uint64_t n = counts[next() % (sizeof counts / sizeof counts[0])];
        check_layout(&l, n, round % 2 == 0);
    }
}

static void test_gather_columns_of_the_mixed_record(void **state)
{
    (void)state;
    struct layout l;
    snprintf(l.descr, sizeof l.descr, "%s",
             "[('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('b', '<f8'), ('c', '<f4'), "
             "('d', '<f4'), ('e', '<i8'), ('f', '<i2'), ('s', 'S10')]");
    l.nf = 9;
    l.itemsize = 56;
    check_layout(&l, 5000, false);
    check_layout(&l, 5000, true);
}

static void test_gather_columns_of_a_lone_field_record(void **state)
{
    (void)state;
    struct layout l = {"[('x', '>f8')]", 1, 8};
    check_layout(&l, 4099, false);
    snprintf(l.descr, sizeof l.descr, "%s", "[('t', '>M8[s]')]");
    check_layout(&l, 4099, true);
}

TEST_LIST("gather_columns",
          cmocka_unit_test(test_gather_columns_equals_gather_on_random_layouts),
          cmocka_unit_test(test_gather_columns_of_the_mixed_record),
          cmocka_unit_test(test_gather_columns_of_a_lone_field_record),
);

/* Harness 4: dtype + record bytes -> byteswap, gather and typed readers.
 *
 * Input format: byte 0 chooses the record count (its low 3 bits: 0..7);
 * the bytes after it up to the first NUL are a descriptor literal (the
 * value of 'descr' in a header); the bytes after that NUL are a pattern
 * repeated to fill count * itemsize record bytes (zeros when empty). Only
 * dtypes without object fields and with count * itemsize <= 64 KiB get
 * records; object dtypes must refuse a swap plan with NPYDT_E_OBJECT or
 * accept it.
 *
 * Oracles: every refused call fills a complete error; swapping to
 * NPYDT_ORDER_SWAP twice restores the bytes (in place and out of place);
 * a swap the plan says moves no bytes changes none; little, then big (with
 * the plan of the little dtype), then little again (with the plan of the
 * big dtype) equals little once, and the big step equals big directly;
 * for the first and last elements of every leaf, gathering it with
 * NPYDT_AS_NATIVE gives the bytes a swap to native order puts there, and
 * the typed readers (integers, bools, floats, complex, datetimes) and the
 * AS_DOUBLE / AS_INT64 gathers read the value those native bytes hold;
 * the typed writers store what the readers read back as the same bytes
 * (integers, bools as 0/1, S, V, U, datetimes in their own unit, floats
 * other than NaN and long doubles) or at least the same value; nothing
 * leaks. */
#include "fuzz_util.h"

#define MAX_RECORD_BYTES 65536u
#define ELEMENTS_PER_LEAF 8u

static int host_little(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 1;
}

static npydt_swap_plan *plan_of(const npydt_dtype *dt)
{
    npydt_swap_plan *plan = NULL;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_swap_plan_new(dt, NULL, &plan, &err);
    if (st != NPYDT_OK)
        fuzz_fail_status("swap plan refused", st, &err, "", 0);
    FUZZ_CHECK(plan != NULL);
    return plan;
}

static void swap_ok(const npydt_swap_plan *plan, npydt_order to, const void *in, void *out,
                    uint64_t n)
{
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_swap(plan, to, in, out, n, &err);
    if (st != NPYDT_OK)
        fuzz_fail_status("swap refused", st, &err, "", 0);
}

/* A new root dtype in order `to`. */
static npydt_dtype *reorder(const npydt_dtype *dt, npydt_order to)
{
    npydt_dtype *out = NULL;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_dtype_newbyteorder(dt, to, NULL, &out, &err);
    if (st != NPYDT_OK)
        fuzz_fail_status("newbyteorder refused", st, &err, "", 0);
    FUZZ_CHECK(out != NULL);
    FUZZ_CHECK(npydt_dtype_itemsize(out) == npydt_dtype_itemsize(dt));
    return out;
}

static void check_swaps(const npydt_dtype *dt, const unsigned char *rec, size_t bytes,
                        uint64_t n, unsigned char *native)
{
    npydt_swap_plan *plan = plan_of(dt);
    size_t cap = bytes ? bytes : 1;
    unsigned char *a = malloc(cap), *b = malloc(cap), *c = malloc(cap);
    FUZZ_CHECK(a && b && c);

    /* SWAP twice restores, out of place and in place */
    swap_ok(plan, NPYDT_ORDER_SWAP, rec, a, n);
    swap_ok(plan, NPYDT_ORDER_SWAP, a, b, n);
    FUZZ_CHECK(bytes == 0 || memcmp(b, rec, bytes) == 0);
    swap_ok(plan, NPYDT_ORDER_SWAP, b, b, n);
    FUZZ_CHECK(bytes == 0 || memcmp(a, b, bytes) == 0);
    swap_ok(plan, NPYDT_ORDER_SWAP, b, b, n);
    FUZZ_CHECK(bytes == 0 || memcmp(b, rec, bytes) == 0);

    /* a swap that moves no bytes changes none */
    static const npydt_order orders[] = {NPYDT_ORDER_NATIVE, NPYDT_ORDER_LITTLE,
                                         NPYDT_ORDER_BIG, NPYDT_ORDER_SWAP};
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++) {
        uint64_t moved = npydt_swap_plan_bytes(plan, orders[i]);
        FUZZ_CHECK(moved <= npydt_dtype_itemsize(dt));
        if (moved == 0) {
            swap_ok(plan, orders[i], rec, a, n);
            FUZZ_CHECK(bytes == 0 || memcmp(a, rec, bytes) == 0);
        }
    }

    /* little, big, little == little; the big step == big directly */
    npydt_dtype *dl = reorder(dt, NPYDT_ORDER_LITTLE);
    npydt_dtype *db = reorder(dt, NPYDT_ORDER_BIG);
    npydt_swap_plan *pl = plan_of(dl), *pb = plan_of(db);
    swap_ok(plan, NPYDT_ORDER_LITTLE, rec, a, n);
    swap_ok(pl, NPYDT_ORDER_BIG, a, b, n);
    swap_ok(plan, NPYDT_ORDER_BIG, rec, c, n);
    FUZZ_CHECK(bytes == 0 || memcmp(b, c, bytes) == 0);
    swap_ok(pb, NPYDT_ORDER_LITTLE, b, c, n);
    FUZZ_CHECK(bytes == 0 || memcmp(a, c, bytes) == 0);
    /* data already in the target order stays put */
    swap_ok(pl, NPYDT_ORDER_LITTLE, a, c, n);
    FUZZ_CHECK(bytes == 0 || memcmp(a, c, bytes) == 0);
    swap_ok(pb, NPYDT_ORDER_BIG, b, c, n);
    FUZZ_CHECK(bytes == 0 || memcmp(b, c, bytes) == 0);
    /* native is one of them */
    swap_ok(plan, NPYDT_ORDER_NATIVE, rec, native, n);
    FUZZ_CHECK(bytes == 0 || memcmp(native, host_little() ? a : b, bytes) == 0);

    npydt_swap_plan_free(pl);
    npydt_swap_plan_free(pb);
    npydt_dtype_free(dl);
    npydt_dtype_free(db);
    npydt_swap_plan_free(plan);
    free(a);
    free(b);
    free(c);
}

static int same_double(double x, double y)
{
    return x == y || (x != x && y != y);
}

/* The typed readers on the stored bytes p agree with the native bytes q. */
static void check_readers(const npydt_dtype *dt, const unsigned char *p, const unsigned char *q)
{
    char k = npydt_dtype_kind(dt);
    size_t isz = npydt_dtype_itemsize(dt);
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st;
    if ((k == 'i' || k == 'M' || k == 'm') && (isz == 1 || isz == 2 || isz == 4 || isz == 8)) {
        int64_t want;
        if (isz == 1) { int8_t v; memcpy(&v, q, 1); want = v; }
        else if (isz == 2) { int16_t v; memcpy(&v, q, 2); want = v; }
        else if (isz == 4) { int32_t v; memcpy(&v, q, 4); want = v; }
        else { memcpy(&want, q, 8); }
        int64_t got;
        st = npydt_read_i64(dt, p, &got, &err);
        FUZZ_CHECK(st == NPYDT_OK && got == want);
        if (k != 'i') {
            npydt_datetime d;
            st = npydt_read_datetime(dt, p, &d, &err);
            FUZZ_CHECK(st == NPYDT_OK && d.count == want);
            FUZZ_CHECK(d.is_nat == (want == NPYDT_NAT));
            FUZZ_CHECK(d.unit == npydt_dtype_unit(dt));
        }
    } else if (k == 'u' && (isz == 1 || isz == 2 || isz == 4 || isz == 8)) {
        uint64_t want;
        if (isz == 1) { uint8_t v; memcpy(&v, q, 1); want = v; }
        else if (isz == 2) { uint16_t v; memcpy(&v, q, 2); want = v; }
        else if (isz == 4) { uint32_t v; memcpy(&v, q, 4); want = v; }
        else { memcpy(&want, q, 8); }
        uint64_t got;
        st = npydt_read_u64(dt, p, &got, &err);
        FUZZ_CHECK(st == NPYDT_OK && got == want);
    } else if (k == 'b' && isz == 1) {
        int got;
        st = npydt_read_bool(dt, p, &got, &err);
        FUZZ_CHECK(st == NPYDT_OK && (got != 0) == (q[0] != 0));
    } else if (k == 'f' && (isz == 4 || isz == 8)) {
        double want;
        if (isz == 4) { float v; memcpy(&v, q, 4); want = v; }
        else { memcpy(&want, q, 8); }
        double got;
        st = npydt_read_double(dt, p, &got, &err);
        FUZZ_CHECK(st == NPYDT_OK && same_double(got, want));
    } else if (k == 'c' && (isz == 8 || isz == 16)) {
        double want[2];
        if (isz == 8) {
            float v[2];
            memcpy(v, q, 8);
            want[0] = v[0];
            want[1] = v[1];
        } else {
            memcpy(want, q, 16);
        }
        double got[2];
        st = npydt_read_complex(dt, p, got, &err);
        FUZZ_CHECK(st == NPYDT_OK && same_double(got[0], want[0]) &&
                   same_double(got[1], want[1]));
    } else if (k == 'S') {
        const void *bytes;
        size_t len;
        st = npydt_read_bytes(dt, p, &bytes, &len, &err);
        FUZZ_CHECK(st == NPYDT_OK && len <= isz && (len == 0 || bytes == (const void *)p));
        FUZZ_CHECK(len == isz || p[len] == 0);
    }
}

/* Write value back with the writer matching the reader that gave it: the
 * bytes at p again, or (float formats a double cannot hold exactly, NaN
 * payloads) the same value. */
static void check_writers(const npydt_dtype *dt, const unsigned char *p)
{
    char k = npydt_dtype_kind(dt);
    size_t isz = npydt_dtype_itemsize(dt);
    unsigned char out[64];
    npydt_error err;
    npydt_status st = NPYDT_OK;
    int exact = 1;   /* the bytes must come back as they were */
    if (isz > sizeof out)
        return;
    if (k == 'i' || k == 'M' || k == 'm') {
        int64_t v;
        if (npydt_read_i64(dt, p, &v, NULL) != NPYDT_OK)
            return;
        st = npydt_write_i64(dt, out, v, &err);
        if (k != 'i' && st == NPYDT_OK) {
            npydt_datetime d;
            FUZZ_CHECK(npydt_read_datetime(dt, p, &d, NULL) == NPYDT_OK);
            unsigned char again[8];
            st = npydt_write_datetime(dt, again, &d, &err);
            FUZZ_CHECK(st != NPYDT_OK || memcmp(again, p, 8) == 0);
        }
    } else if (k == 'u') {
        uint64_t v;
        if (npydt_read_u64(dt, p, &v, NULL) != NPYDT_OK)
            return;
        st = npydt_write_u64(dt, out, v, &err);
    } else if (k == 'b') {
        int v;
        FUZZ_CHECK(npydt_read_bool(dt, p, &v, NULL) == NPYDT_OK);
        st = npydt_write_bool(dt, out, v, &err);
        exact = 0;
        FUZZ_CHECK(st != NPYDT_OK || out[0] == (p[0] != 0));
    } else if (k == 'f' || k == 'c') {
        double v[2], back[2];
        if (npydt_read_complex(dt, p, v, NULL) != NPYDT_OK)
            return;
        st = npydt_write_complex(dt, out, v, &err);
        exact = (k == 'f' ? isz : isz / 2) <= 8 && v[0] == v[0] && v[1] == v[1];
        if (st == NPYDT_OK) {
            FUZZ_CHECK(npydt_read_complex(dt, out, back, NULL) == NPYDT_OK);
            FUZZ_CHECK(same_double(back[0], v[0]) && same_double(back[1], v[1]));
        }
    } else if (k == 'S' || k == 'V') {
        const void *bytes;
        size_t len;
        if (npydt_read_bytes(dt, p, &bytes, &len, NULL) != NPYDT_OK)
            return;
        st = npydt_write_bytes(dt, out, bytes, len, &err);
    } else if (k == 'U') {
        char text[16 * 4 + 1];
        size_t len;
        if (npydt_read_unicode(dt, p, text, sizeof text, &len, NULL) != NPYDT_OK)
            return;
        st = npydt_write_unicode(dt, out, text, len, &err);
    } else {
        return;
    }
    if (st != NPYDT_OK)
        fuzz_fail_status("writing back what was read refused", st, &err, "", 0);
    FUZZ_CHECK(!exact || memcmp(out, p, isz) == 0);
}

/* Gather element eoff of leaf i of root from every record and compare. */
static void check_element(const npydt_dtype *root, size_t i, const unsigned char *rec,
                          size_t stride,
                          uint64_t n, uint64_t eoff, const unsigned char *native)
{
    size_t nleaves;
    const npydt_leaf *l = &npydt_dtype_leaves(root, &nleaves)[i];
    size_t gsz = npydt_gather_size(l->dtype, NPYDT_AS_NATIVE);
    FUZZ_CHECK(gsz == l->itemsize);
    unsigned char *out = malloc(n * gsz + 1);
    FUZZ_CHECK(out != NULL);
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_gather(rec, stride, n, l->dtype, eoff, NPYDT_AS_NATIVE, out, &err);
    if (st != NPYDT_OK) {
        char path[256];
        size_t len = npydt_dtype_leaf_path(root, i, path, sizeof path);
        fuzz_fail_status("gather refused", st, &err, path, len < sizeof path ? len : sizeof path - 1);
    }
    for (uint64_t r = 0; r < n; r++) {
        FUZZ_CHECK(memcmp(out + r * gsz, native + r * stride + eoff, gsz) == 0);
        check_readers(l->dtype, rec + r * stride + eoff, native + r * stride + eoff);
        check_writers(l->dtype, rec + r * stride + eoff);
    }
    free(out);

    /* conversions: one double / int64 per scalar (two for complex) */
    static const npydt_convert convs[] = {NPYDT_AS_DOUBLE, NPYDT_AS_INT64};
    for (size_t ci = 0; ci < 2; ci++) {
        size_t csz = npydt_gather_size(l->dtype, convs[ci]);
        if (csz == 0)
            continue;
        FUZZ_CHECK(csz == 8 || csz == 16);
        unsigned char *cv = malloc(n * csz + 1);
        FUZZ_CHECK(cv != NULL);
        fuzz_poison_error(&err);
        st = npydt_gather(rec, stride, n, l->dtype, eoff, convs[ci], cv, &err);
        for (uint64_t r = 0; r < n && st == NPYDT_OK; r++) {
            const unsigned char *p = rec + r * stride + eoff;
            if (convs[ci] == NPYDT_AS_DOUBLE && csz == 8) {
                double got, want;
                memcpy(&got, cv + r * csz, 8);
                npydt_error e2;
                if (npydt_read_double(l->dtype, p, &want, &e2) == NPYDT_OK)
                    FUZZ_CHECK(same_double(got, want));
            } else if (convs[ci] == NPYDT_AS_INT64) {
                int64_t got, want;
                memcpy(&got, cv + r * csz, 8);
                npydt_error e2;
                if (npydt_read_i64(l->dtype, p, &want, &e2) == NPYDT_OK)
                    FUZZ_CHECK(got == want);
            }
        }
        if (st != NPYDT_OK)
            fuzz_check_error(st, &err, 0);
        free(cv);
    }
}

/* Offset of element j (flat, C order over the repeats) of leaf l. */
static uint64_t element_offset(const npydt_leaf *l, uint64_t j)
{
    uint64_t off = l->offset;
    for (uint32_t k = l->nrepeats; k-- > 0;) {
        uint64_t cnt = l->repeats[k].count;
        off = fuzz_add(off, fuzz_mul(j % cnt, l->repeats[k].stride));
        j /= cnt;
    }
    return off;
}

static void check_gathers(const npydt_dtype *dt, const unsigned char *rec, uint64_t n,
                          const unsigned char *native)
{
    size_t stride = npydt_dtype_itemsize(dt);
    size_t nl;
    const npydt_leaf *lv = npydt_dtype_leaves(dt, &nl);
    for (size_t i = 0; i < nl; i++) {
        const npydt_leaf *l = &lv[i];
        if (l->count == 0 || l->itemsize == 0)
            continue;
        for (uint64_t j = 0; j < l->count && j < ELEMENTS_PER_LEAF; j++)
            check_element(dt, i, rec, stride, n, element_offset(l, j), native);
        if (l->count > ELEMENTS_PER_LEAF)
            check_element(dt, i, rec, stride, n, element_offset(l, l->count - 1), native);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint64_t n = data[0] & 7u;
    const char *text = (const char *)data + 1;
    const uint8_t *nul = memchr(data + 1, 0, size - 1);
    size_t len = nul ? (size_t)(nul - (data + 1)) : size - 1;
    const uint8_t *pat = nul ? nul + 1 : NULL;
    size_t plen = nul ? size - len - 2 : 0;

    npydt_dtype *dt = (npydt_dtype *)&dt;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = npydt_header_parse_descr(text, len, NULL, &dt, &err);
    if (st != NPYDT_OK) {
        FUZZ_CHECK(dt == NULL);
        fuzz_check_error(st, &err, len);
        return 0;
    }
    FUZZ_CHECK(dt != NULL);
    if (npydt_dtype_has_object(dt)) {
        npydt_swap_plan *plan = (npydt_swap_plan *)&plan;
        fuzz_poison_error(&err);
        st = npydt_swap_plan_new(dt, NULL, &plan, &err);
        if (st != NPYDT_OK) {
            fuzz_check_error(st, &err, 0);
            FUZZ_CHECK(st == NPYDT_E_OBJECT);
        } else {
            npydt_swap_plan_free(plan);
        }
        npydt_dtype_free(dt);
        return 0;
    }
    size_t isz = npydt_dtype_itemsize(dt);
    if (isz > MAX_RECORD_BYTES || isz * n > MAX_RECORD_BYTES) {
        npydt_dtype_free(dt);
        return 0;
    }
    size_t bytes = isz * (size_t)n;
    unsigned char *rec = malloc(bytes + 1), *native = malloc(bytes + 1);
    FUZZ_CHECK(rec && native);
    for (size_t i = 0; i < bytes; i++)
        rec[i] = plen ? pat[i % plen] : 0;

    check_swaps(dt, rec, bytes, n, native);
    check_gathers(dt, rec, n, native);

    free(rec);
    free(native);
    npydt_dtype_free(dt);
    return 0;
}

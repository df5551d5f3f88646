/* Gather one field of many records into a contiguous native array (of the
 * field's own type, or as double / int64), and scatter it back. The common
 * cases are tight loops chosen once per call: one memcpy-sized load, an
 * optional byte swap, one store per element. */
#include "records/records.h"

#include <stdio.h>

static npydt_status no_object(const npydt_dtype *field, npydt_error *err)
{
    if (field->has_object)
        return set_error(err, NPYDT_E_OBJECT, NPYDT_NO_OFFSET, NULL,
                         "object data is a pickle and cannot be read");
    return NPYDT_OK;
}

size_t npydt_gather_size(const npydt_dtype *field, npydt_convert as)
{
    if (!field || field->has_object)
        return 0;
    const npydt_dtype *s;
    uint64_t elems;
    bool uniform = scalar_chain(field, &s, &elems);
    uint64_t per = 0;
    switch (as) {
    case NPYDT_AS_NATIVE:
        return (size_t)field->itemsize;
    case NPYDT_AS_DOUBLE:
        if (uniform)
            per = s->kind == 'c' ? 16 : strchr("fiub", s->kind) ? 8 : 0;
        break;
    case NPYDT_AS_INT64:
        if (uniform)
            per = strchr("fiubMm", s->kind) ? 8 : 0;
        break;
    }
    /* elems * 16 < 2^36: fits 64 bits */
    uint64_t size = elems * per;
    return size > SIZE_MAX ? 0 : (size_t)size;
}

/* ---- native copies with an optional swap ---------------------------------- */

#define NOSWAP(v) (v)

/* dir 0: gather (record -> array), 1: scatter (array -> record). A lone
 * unit is moved four records at a time: four loads, then four stores. */
#define DEFINE_COPY(NAME, W, T, BSWAP)                                                  \
    static void NAME(unsigned char *rec, size_t stride, uint64_t n, uint64_t units,     \
                     unsigned char *arr, int dir)                                       \
    {                                                                                   \
        if (units == 1) {                                                               \
            /* from s, s_step bytes apart, to d, d_step apart */                        \
            const unsigned char *s = dir == 0 ? rec : arr;                              \
            unsigned char *d = dir == 0 ? arr : rec;                                    \
            size_t s_step = dir == 0 ? stride : W, d_step = dir == 0 ? W : stride;      \
            uint64_t i = 0;                                                             \
            for (; n - i >= 4; i += 4) {                                                \
                const unsigned char *p = s + i * s_step;                                \
                unsigned char *q = d + i * d_step;                                      \
                T v0, v1, v2, v3;                                                       \
                memcpy(&v0, p, W);                                                      \
                memcpy(&v1, p + s_step, W);                                             \
                memcpy(&v2, p + 2 * s_step, W);                                         \
                memcpy(&v3, p + 3 * s_step, W);                                         \
                v0 = BSWAP(v0);                                                         \
                v1 = BSWAP(v1);                                                         \
                v2 = BSWAP(v2);                                                         \
                v3 = BSWAP(v3);                                                         \
                memcpy(q, &v0, W);                                                      \
                memcpy(q + d_step, &v1, W);                                             \
                memcpy(q + 2 * d_step, &v2, W);                                         \
                memcpy(q + 3 * d_step, &v3, W);                                         \
            }                                                                           \
            for (; i < n; i++) {                                                        \
                T v;                                                                    \
                memcpy(&v, s + i * s_step, W);                                          \
                v = BSWAP(v);                                                           \
                memcpy(d + i * d_step, &v, W);                                          \
            }                                                                           \
            return;                                                                     \
        }                                                                               \
        for (uint64_t i = 0; i < n; i++) {                                              \
            unsigned char *r = rec + i * stride, *a = arr + i * units * W;              \
            for (uint64_t k = 0; k < units; k++, r += W, a += W) {                      \
                T v;                                                                    \
                memcpy(&v, dir == 0 ? r : a, W);                                        \
                v = BSWAP(v);                                                           \
                memcpy(dir == 0 ? a : r, &v, W);                                        \
            }                                                                           \
        }                                                                               \
    }

DEFINE_COPY(copy_swap2, 2, uint16_t, __builtin_bswap16)
DEFINE_COPY(copy_swap4, 4, uint32_t, __builtin_bswap32)
DEFINE_COPY(copy_swap8, 8, uint64_t, __builtin_bswap64)
DEFINE_COPY(copy_1, 1, uint8_t, NOSWAP)
DEFINE_COPY(copy_2, 2, uint16_t, NOSWAP)
DEFINE_COPY(copy_4, 4, uint32_t, NOSWAP)
DEFINE_COPY(copy_8, 8, uint64_t, NOSWAP)

/* Values of size bytes between W and 2 * W: the first W bytes and the
 * last W (overlapping them), no call per value. */
#define DEFINE_COPY_PAIR(NAME, W, T)                                                    \
    static void NAME(const unsigned char *s, size_t s_step, uint64_t n, size_t size,    \
                     unsigned char *d, size_t d_step)                                   \
    {                                                                                   \
        size_t tail = size - W;                                                         \
        uint64_t i = 0;                                                                 \
        for (; n - i >= 2; i += 2) {                                                    \
            const unsigned char *p = s + i * s_step;                                    \
            unsigned char *q = d + i * d_step;                                          \
            T a0, b0, a1, b1;                                                           \
            memcpy(&a0, p, W);                                                          \
            memcpy(&b0, p + tail, W);                                                   \
            memcpy(&a1, p + s_step, W);                                                 \
            memcpy(&b1, p + s_step + tail, W);                                          \
            memcpy(q, &a0, W);                                                          \
            memcpy(q + tail, &b0, W);                                                   \
            memcpy(q + d_step, &a1, W);                                                 \
            memcpy(q + d_step + tail, &b1, W);                                          \
        }                                                                               \
        if (i < n) {                                                                    \
            T a, b;                                                                     \
            memcpy(&a, s + i * s_step, W);                                              \
            memcpy(&b, s + i * s_step + tail, W);                                       \
            memcpy(d + i * d_step, &a, W);                                              \
            memcpy(d + i * d_step + tail, &b, W);                                       \
        }                                                                               \
    }

DEFINE_COPY_PAIR(copy_pair2, 2, uint16_t)
DEFINE_COPY_PAIR(copy_pair4, 4, uint32_t)
DEFINE_COPY_PAIR(copy_pair8, 8, uint64_t)

static void copy_bytes(unsigned char *rec, size_t stride, uint64_t n, size_t size,
                       unsigned char *arr, int dir)
{
    const unsigned char *s = dir == 0 ? rec : arr;
    unsigned char *d = dir == 0 ? arr : rec;
    size_t s_step = dir == 0 ? stride : size, d_step = dir == 0 ? size : stride;
    if (size > 2 && size < 4)
        copy_pair2(s, s_step, n, size, d, d_step);
    else if (size > 4 && size < 8)
        copy_pair4(s, s_step, n, size, d, d_step);
    else if (size > 8 && size <= 16)
        copy_pair8(s, s_step, n, size, d, d_step);
    else
        for (uint64_t i = 0; i < n; i++)
            memcpy(d + i * d_step, s + i * s_step, size);
}

/* Field bytes of n records <-> n * size array bytes, swapping units of
 * `unit` bytes when swap is set. */
static void copy_field(unsigned char *rec, size_t stride, uint64_t n, size_t size,
                       uint32_t unit, bool swap, unsigned char *arr, int dir)
{
    if (size == 0)
        return;
    if (!swap || unit == 0) {
        if (stride == size) {   /* the values are one after the other */
            memcpy(dir == 0 ? arr : rec, dir == 0 ? rec : arr, (size_t)n * size);
            return;
        }
        switch (size) {
        case 1: copy_1(rec, stride, n, 1, arr, dir); return;
        case 2: copy_2(rec, stride, n, 1, arr, dir); return;
        case 4: copy_4(rec, stride, n, 1, arr, dir); return;
        case 8: copy_8(rec, stride, n, 1, arr, dir); return;
        default: copy_bytes(rec, stride, n, size, arr, dir); return;
        }
    }
    uint64_t units = size / unit;
    switch (unit) {
    case 2: copy_swap2(rec, stride, n, units, arr, dir); return;
    case 4: copy_swap4(rec, stride, n, units, arr, dir); return;
    case 8: copy_swap8(rec, stride, n, units, arr, dir); return;
    default:
        for (uint64_t i = 0; i < n; i++) {
            unsigned char *r = rec + i * stride, *a = arr + i * size;
            for (uint64_t k = 0; k < units; k++) {
                if (dir == 0)
                    reverse_bytes(a + k * unit, r + k * unit, unit);
                else
                    reverse_bytes(r + k * unit, a + k * unit, unit);
            }
        }
    }
}

/* ---- conversions ------------------------------------------------------------ */

static int64_t sext(uint64_t v, size_t size)
{
    switch (size) {
    case 1: return (int8_t)v;
    case 2: return (int16_t)v;
    case 4: return (int32_t)v;
    default: return (int64_t)v;
    }
}

/* Loop over every scalar of n records: s points at it, d at the output. */
#define FOR_EACH_SCALAR(OUTSIZE, ...)                                                  \
    for (uint64_t i = 0; i < n; i++) {                                                  \
        const unsigned char *s = src + i * stride;                                      \
        unsigned char *d = dst + i * elems * (OUTSIZE);                                 \
        for (uint64_t k = 0; k < elems; k++, s += isz, d += (OUTSIZE)) {                \
            __VA_ARGS__                                                                 \
        }                                                                               \
    }

static void gather_double(const unsigned char *src, size_t stride, uint64_t n,
                          const npydt_dtype *sc, uint64_t elems, unsigned char *dst)
{
    size_t isz = (size_t)sc->itemsize;
    bool swap = text_order_swaps(sc->byteorder);
    char bo = sc->byteorder;
    switch (sc->kind) {
    case 'f':
        if (isz == 8) {
            copy_field((unsigned char *)src, stride, n, (size_t)(elems * 8), 8, swap, dst, 0);
        } else if (isz == 4) {
            FOR_EACH_SCALAR(8, {
                double v = (double)text_f32_of_bits((uint32_t)text_load_uint(s, 4, swap));
                memcpy(d, &v, 8);
            })
        } else {
            FOR_EACH_SCALAR(8, {
                double v = load_float(s, isz, bo);
                memcpy(d, &v, 8);
            })
        }
        return;
    case 'c': {
        size_t half = isz / 2;
        if (half == 8) {
            copy_field((unsigned char *)src, stride, n, (size_t)(elems * 16), 8, swap, dst, 0);
            return;
        }
        FOR_EACH_SCALAR(16, {
            double v[2] = {load_float(s, half, bo), load_float(s + half, half, bo)};
            memcpy(d, v, 16);
        })
        return;
    }
    case 'i':
        FOR_EACH_SCALAR(8, {
            double v = (double)sext(text_load_uint(s, isz, swap), isz);
            memcpy(d, &v, 8);
        })
        return;
    case 'u':
        FOR_EACH_SCALAR(8, {
            double v = (double)text_load_uint(s, isz, swap);
            memcpy(d, &v, 8);
        })
        return;
    default:   /* 'b' */
        FOR_EACH_SCALAR(8, {
            double v = s[0] != 0;
            memcpy(d, &v, 8);
        })
        return;
    }
}

static npydt_status gather_int64(const unsigned char *src, size_t stride, uint64_t n,
                                 const npydt_dtype *sc, uint64_t elems, unsigned char *dst,
                                 npydt_error *err)
{
    size_t isz = (size_t)sc->itemsize;
    bool swap = text_order_swaps(sc->byteorder);
    switch (sc->kind) {
    case 'i': case 'M': case 'm':
        if (isz == 8) {
            copy_field((unsigned char *)src, stride, n, (size_t)(elems * 8), 8, swap, dst, 0);
            return NPYDT_OK;
        }
        FOR_EACH_SCALAR(8, {
            int64_t v = sext(text_load_uint(s, isz, swap), isz);
            memcpy(d, &v, 8);
        })
        return NPYDT_OK;
    case 'u':
        FOR_EACH_SCALAR(8, {
            uint64_t v = text_load_uint(s, isz, swap);
            if (v > (uint64_t)INT64_MAX)
                return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                                 "record %llu: %llu does not fit int64", (unsigned long long)i,
                                 (unsigned long long)v);
            int64_t x = (int64_t)v;
            memcpy(d, &x, 8);
        })
        return NPYDT_OK;
    case 'b':
        FOR_EACH_SCALAR(8, {
            int64_t v = s[0] != 0;
            memcpy(d, &v, 8);
        })
        return NPYDT_OK;
    default: {   /* 'f': integral values only */
        FOR_EACH_SCALAR(8, {
            int64_t v;
            npydt_status st = npydt_read_i64(sc, s, &v, err);
            if (st != NPYDT_OK) {
                char msg[sizeof err->message];
                snprintf(msg, sizeof msg, "%s", err->message);
                return set_error(err, st, NPYDT_NO_OFFSET, NULL, "record %llu: %s",
                                 (unsigned long long)i, msg);
            }
            memcpy(d, &v, 8);
        })
        return NPYDT_OK;
    }
    }
}

/* The common checks of gather and scatter. */
static npydt_status check_args(const void *records, size_t stride, uint64_t n,
                               const npydt_dtype *field, uint64_t offset, npydt_convert as,
                               const void *arr, size_t *size, npydt_error *err)
{
    if (!field)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "field is NULL");
    npydt_status st = no_object(field, err);
    if (st != NPYDT_OK)
        return st;
    if (as != NPYDT_AS_NATIVE && as != NPYDT_AS_DOUBLE && as != NPYDT_AS_INT64)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "unknown conversion %d",
                         (int)as);
    *size = npydt_gather_size(field, as);
    const npydt_dtype *sc;
    uint64_t elems;
    bool uniform = scalar_chain(field, &sc, &elems);
    if (*size == 0 && as != NPYDT_AS_NATIVE && !(uniform && elems == 0)) {
        const char *to = as == NPYDT_AS_DOUBLE ? "double" : "int64";
        if (!uniform)   /* a struct, or an array of structs */
            return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                             "cannot convert a struct of %zu fields to %s: gather each of its "
                             "fields, or the whole struct as NPYDT_AS_NATIVE",
                             sc->nfields, to);
        char str[64];
        npydt_dtype_str(sc, str, sizeof str);
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "cannot convert %s to %s", str,
                         to);
    }
    uint64_t end, total;
    if (!ck_add(offset, field->itemsize, &end) || (n > 1 && end > stride))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "the field (bytes %llu to %llu) does not fit a stride of %zu",
                         (unsigned long long)offset, (unsigned long long)end, stride);
    if (!ck_mul(n, *size, &total) || total > SIZE_MAX ||
        (n > 0 && !ck_mul(n - 1, stride, &total)))
        return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "%llu records do not fit the address space", (unsigned long long)n);
    if (n > 0 && (!records || (!arr && *size > 0)))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "records or array is NULL");
    return NPYDT_OK;
}

npydt_status npydt_gather(const void *records, size_t stride, uint64_t n,
                          const npydt_dtype *field, uint64_t offset, npydt_convert as, void *out,
                          npydt_error *err)
{
    error_clear(err);
    size_t size;
    npydt_status st = check_args(records, stride, n, field, offset, as, out, &size, err);
    if (st != NPYDT_OK || n == 0 || size == 0)
        return st;
    unsigned char *src = (unsigned char *)records + offset;   /* only read */
    unsigned char *dst = out;
    const npydt_dtype *sc;
    uint64_t elems;
    if (!scalar_chain(field, &sc, &elems)) {
        /* a struct inside: copy the bytes, then swap them where they are */
        npydt_swap_plan *plan;
        if ((st = npydt_swap_plan_new(field, NULL, &plan, err)) != NPYDT_OK)
            return st;
        copy_field(src, stride, n, size, 0, false, dst, 0);
        swap_plan_run_native(plan, dst, n, size);
        npydt_swap_plan_free(plan);
        return NPYDT_OK;
    }
    switch (as) {
    case NPYDT_AS_NATIVE:
        copy_field(src, stride, n, size, swap_unit(sc->kind, sc->itemsize),
                   text_order_swaps(sc->byteorder), dst, 0);
        return NPYDT_OK;
    case NPYDT_AS_DOUBLE:
        gather_double(src, stride, n, sc, elems, dst);
        return NPYDT_OK;
    case NPYDT_AS_INT64:
        return gather_int64(src, stride, n, sc, elems, dst, err);
    }
    return NPYDT_OK;
}

/* ---- many fields a tile of records at a time -------------------------------- */

/* Records read per tile: about this many bytes, within a core's first-level
 * data cache, so that each column after the first reads the tile from it
 * (one column at a time over a whole batch reads every cache line of the
 * batch once per column). */
#define TILE_BYTES ((size_t)16 << 10)

void gather_col_init(struct gather_col *c, const npydt_dtype *field, uint64_t offset,
                     bool nat_scan, unsigned char *dst)
{
    const npydt_dtype *sc;
    uint64_t elems;
    scalar_chain(field, &sc, &elems);
    c->offset = offset;
    c->size = (size_t)field->itemsize;
    c->unit = swap_unit(sc->kind, sc->itemsize);
    c->swap = text_order_swaps(sc->byteorder);
    c->nat_scan = nat_scan && sc->itemsize == 8;
    c->nat = false;
    c->dst = dst;
}

bool gather_any_nat(const void *values, uint64_t n)
{
    const unsigned char *p = values;
    bool nat = false;
    uint64_t i = 0;
    for (; n - i >= 4; i += 4) {
        int64_t v[4];
        memcpy(v, p + i * 8, 32);
        nat |= (v[0] == NPYDT_NAT) | (v[1] == NPYDT_NAT) | (v[2] == NPYDT_NAT) |
               (v[3] == NPYDT_NAT);
    }
    for (; i < n; i++) {
        int64_t v;
        memcpy(&v, p + i * 8, 8);
        nat |= v == NPYDT_NAT;
    }
    return nat;
}

void gather_columns(const void *records, size_t stride, uint64_t n, struct gather_col *cols,
                    size_t ncols)
{
    uint64_t tile = stride && TILE_BYTES / stride > 1 ? TILE_BYTES / stride : 1;
    const unsigned char *rec = records;
    for (uint64_t at = 0; at < n; at += tile) {
        uint64_t m = n - at < tile ? n - at : tile;
        const unsigned char *src = rec + at * stride;
        for (size_t k = 0; k < ncols; k++) {
            struct gather_col *c = &cols[k];
            unsigned char *dst = c->dst + at * c->size;
            copy_field((unsigned char *)src + c->offset, stride, m, c->size, c->unit, c->swap,
                       dst, 0);
            if (c->nat_scan && !c->nat)
                c->nat = gather_any_nat(dst, m * (c->size / 8));
        }
    }
}

/* ---- scatter ------------------------------------------------------------------ */

/* Can the double v be stored in scalar sc? Integers need exact values in
 * range; floats take any value (rounded, possibly to infinity). */
static bool double_fits(const npydt_dtype *sc, double v)
{
    double lo, hi;   /* allowed: lo <= v < hi */
    unsigned bits = (unsigned)sc->itemsize * 8;
    switch (sc->kind) {
    case 'i':
        hi = (double)(UINT64_C(1) << (bits - 1));
        lo = -hi;
        break;
    case 'u':
        hi = bits == 64 ? 18446744073709551616.0 : (double)(UINT64_C(1) << bits);
        lo = 0;
        break;
    default:
        return true;
    }
    if (!(v >= lo && v < hi))   /* NaN fails too */
        return false;
    double a = v < 0 ? -v : v;
    return (double)(uint64_t)a == a;
}

static bool int_fits(const npydt_dtype *sc, int64_t v)
{
    unsigned bits = (unsigned)sc->itemsize * 8;
    switch (sc->kind) {
    case 'i':
        return bits == 64 || (v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1)));
    case 'u':
        return v >= 0 && (bits == 64 || (uint64_t)v < (UINT64_C(1) << bits));
    default:
        return true;
    }
}

static void store_double(const npydt_dtype *sc, unsigned char *p, const double *v)
{
    bool swap = text_order_swaps(sc->byteorder);
    size_t isz = (size_t)sc->itemsize;
    switch (sc->kind) {
    case 'f': store_float(p, isz, sc->byteorder, v[0]); break;
    case 'c':
        store_float(p, isz / 2, sc->byteorder, v[0]);
        store_float(p + isz / 2, isz / 2, sc->byteorder, v[1]);
        break;
    case 'b': p[0] = v[0] != 0; break;
    case 'i': text_store_uint(p, isz, swap, (uint64_t)(int64_t)v[0]); break;
    default: text_store_uint(p, isz, swap, (uint64_t)v[0]); break;   /* 'u' */
    }
}

static void store_int(const npydt_dtype *sc, unsigned char *p, int64_t v)
{
    bool swap = text_order_swaps(sc->byteorder);
    size_t isz = (size_t)sc->itemsize;
    switch (sc->kind) {
    case 'f':
        store_float_int(p, isz, sc->byteorder, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v,
                        v < 0);
        break;
    case 'b': p[0] = v != 0; break;
    default: text_store_uint(p, isz, swap, (uint64_t)v); break;   /* i u M m */
    }
}

npydt_status npydt_scatter(void *records, size_t stride, uint64_t n, const npydt_dtype *field,
                           uint64_t offset, npydt_convert as, const void *in, npydt_error *err)
{
    error_clear(err);
    size_t size;
    npydt_status st = check_args(records, stride, n, field, offset, as, in, &size, err);
    if (st != NPYDT_OK || n == 0 || size == 0)
        return st;
    unsigned char *dst = (unsigned char *)records + offset;
    const unsigned char *src = in;
    const npydt_dtype *sc;
    uint64_t elems;
    if (!scalar_chain(field, &sc, &elems)) {
        npydt_swap_plan *plan;
        if ((st = npydt_swap_plan_new(field, NULL, &plan, err)) != NPYDT_OK)
            return st;
        copy_field(dst, stride, n, size, 0, false, (unsigned char *)src, 1);
        swap_plan_run_native(plan, dst, n, stride);   /* native -> stored order */
        npydt_swap_plan_free(plan);
        return NPYDT_OK;
    }
    if (as == NPYDT_AS_NATIVE) {
        copy_field(dst, stride, n, size, swap_unit(sc->kind, sc->itemsize),
                   text_order_swaps(sc->byteorder), (unsigned char *)src, 1);
        return NPYDT_OK;
    }
    size_t isz = (size_t)sc->itemsize;
    size_t per = as == NPYDT_AS_DOUBLE && sc->kind == 'c' ? 16 : 8;
    /* check every value first: nothing is written when one does not fit */
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *a = src + i * elems * per;
        for (uint64_t k = 0; k < elems; k++, a += per) {
            bool ok;
            if (as == NPYDT_AS_DOUBLE) {
                double v;
                memcpy(&v, a, 8);
                ok = double_fits(sc, v);
            } else {
                int64_t v;
                memcpy(&v, a, 8);
                ok = int_fits(sc, v);
            }
            if (!ok) {
                char str[64];
                npydt_dtype_str(sc, str, sizeof str);
                return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                                 "record %llu, element %llu does not fit %s",
                                 (unsigned long long)i, (unsigned long long)k, str);
            }
        }
    }
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *a = src + i * elems * per;
        unsigned char *r = dst + i * stride;
        for (uint64_t k = 0; k < elems; k++, a += per, r += isz) {
            if (as == NPYDT_AS_DOUBLE) {
                double v[2] = {0, 0};
                memcpy(v, a, per);
                store_double(sc, r, v);
            } else {
                int64_t v;
                memcpy(&v, a, 8);
                store_int(sc, r, v);
            }
        }
    }
    return NPYDT_OK;
}

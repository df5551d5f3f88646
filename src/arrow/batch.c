/* Records as an Arrow record batch: a struct array whose children follow
 * the schema (schema.c) node for node. Each scalar column is gathered
 * (npydt_gather: native byte order, or doubles) into its data buffer, or
 * into scratch first when Arrow lays it out otherwise (bits, offsets and
 * text, int32 days), through the levels of repetition above it: the rows,
 * then the dimensions of subarrays of structs. */
#include "arrow/arrow.h"
#include "access/access.h"
#include "records/records.h"

#include <stdio.h>

/* ---- the plan: levels and bytes per row ----------------------------------- */

static uint64_t scalar_cost(const npydt_dtype *dt)
{
    /* the value's bytes (8 for a double or an int64 at most past them),
     * an int32 offset, a validity bit */
    size_t size = npydt_dtype_itemsize(dt);
    return (size > 16 ? size : 16) + 5;
}

static npydt_status plan(const npydt_dtype *dt, uint64_t mult, size_t nlev, uint32_t depth,
                         uint32_t max_depth, size_t *levels, uint64_t *bytes, npydt_error *err)
{
    if (depth >= max_depth)
        return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "nesting deeper than %u levels", (unsigned)max_depth);
    if (nlev > *levels)
        *levels = nlev;
    /* every node's element counts as a byte: lengths stay bounded */
    *bytes = sat_add(*bytes, mult);
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_STRUCT:
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++) {
            npydt_status st = plan(npydt_dtype_field_dtype(dt, i), mult, nlev, depth + 1,
                                   max_depth, levels, bytes, err);
            if (st != NPYDT_OK)
                return st;
        }
        return NPYDT_OK;
    case NPYDT_SUBARRAY: {
        const npydt_dtype *base = npydt_dtype_base(dt);
        size_t nd = npydt_dtype_ndim(dt);
        for (size_t k = 0; k < nd; k++)
            mult = sat_mul(mult, npydt_dtype_shape(dt)[k]);
        *bytes = sat_add(*bytes, sat_mul(mult, nd));
        /* a level per dimension (a subarray of scalars is gathered whole,
         * but the levels are written all the same) */
        return plan(base, mult, nlev + nd, depth + (uint32_t)nd, max_depth, levels, bytes, err);
    }
    case NPYDT_SCALAR:
        *bytes = sat_add(*bytes, sat_mul(mult, scalar_cost(dt)));
        return NPYDT_OK;
    }
    return NPYDT_OK;
}

npydt_status arrow_batch_plan(const npydt_dtype *dt, uint32_t max_depth, size_t *levels,
                              uint64_t *row_bytes, npydt_error *err)
{
    *levels = 1;
    *row_bytes = 0;
    return plan(dt, 1, 1, 0, max_depth, levels, row_bytes, err);
}

/* ---- filling ------------------------------------------------------------- */

/* A column gathered after the walk, with the others, a tile of records at
 * a time: the node whose data buffer (bytes long) it fills, the node of
 * its n values (for a NaT's validity). */
struct later {
    struct ArrowArray *data, *out;
    size_t bytes;
    uint64_t n;
};

struct fill {
    struct arrow_batch *b;
    char path[256];
    npydt_error *err;
    struct gather_col *cols;   /* the columns gathered after the walk */
    struct later *later;
    size_t ncols, cap;
};

/* The record (row of the array) that element e of a column of n elements
 * belongs to. */
static uint64_t record_of(const struct fill *f, uint64_t e, uint64_t n)
{
    return f->b->row0 + e / (n / f->b->rows);
}

/* Gather field gdt (a scalar, or a subarray of scalars) at offset in each
 * element of levels[0..nlev) into dst, in C order. */
static npydt_status gather_levels(struct fill *f, const npydt_dtype *gdt, npydt_convert as,
                                  uint64_t offset, size_t nlev, unsigned char *dst)
{
    const npydt_repeat *lev = f->b->levels;
    size_t gsz = npydt_gather_size(gdt, as);
    if (gsz == 0)
        return NPYDT_OK;
    uint64_t outer = 1;
    for (size_t k = 0; k + 1 < nlev; k++)
        outer *= lev[k].count;   /* bounded by the plan */
    const npydt_repeat *in = &lev[nlev - 1];
    for (uint64_t o = 0; o < outer; o++) {
        uint64_t at = offset, rest = o;
        for (size_t k = nlev - 1; k-- > 0;) {
            at += (rest % lev[k].count) * lev[k].stride;
            rest /= lev[k].count;
        }
        npydt_status st = npydt_gather(f->b->records + at, (size_t)in->stride, in->count, gdt, 0,
                                       as, dst, f->err);
        if (st != NPYDT_OK)
            return st;
        dst += in->count * gsz;
    }
    return NPYDT_OK;
}

/* The error's path names a field of a struct; the message names the one
 * column of any other dtype, which has no path. */
static npydt_status field_error(struct fill *f, npydt_status code, uint64_t record,
                                const char *what)
{
    if (f->path[0])
        return set_error(f->err, code, NPYDT_NO_OFFSET, f->path, "record %llu: %s",
                         (unsigned long long)record, what);
    return set_error(f->err, code, NPYDT_NO_OFFSET, NULL, "record %llu, field %s: %s",
                     (unsigned long long)record, ARROW_VALUE_NAME, what);
}

static npydt_status too_big(struct fill *f)
{
    if (f->path[0])
        return set_error(f->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, f->path,
                         "a batch's bytes pass Arrow's 32-bit offsets; make batch_bytes smaller");
    return set_error(f->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                     "field %s: a batch's bytes pass Arrow's 32-bit offsets; "
                     "make batch_bytes smaller", ARROW_VALUE_NAME);
}

/* The validity bitmap of out, every bit set, made when the first null comes. */
static unsigned char *validity(struct ArrowArray *out, uint64_t n)
{
    if (out->buffers[0])
        return (unsigned char *)out->buffers[0];
    unsigned char *v = arrow_array_buffer(out, 0, (size_t)((n + 7) / 8));
    if (v)
        memset(v, 0xff, (size_t)((n + 7) / 8));
    return v;
}

static void clear_bit(unsigned char *bits, uint64_t i)
{
    bits[i / 8] &= (unsigned char)~(1u << (i % 8));
}

/* *v, a count of sdt, in Arrow's unit of its column; NPYDT_E_RANGE naming
 * the record past int64. */
static npydt_status time_to_arrow(struct fill *f, const npydt_dtype *sdt,
                                  const struct arrow_scalar *sc, int64_t *v, uint64_t record)
{
    if (time_convert(*v, npydt_dtype_unit(sdt), npydt_dtype_unit_count(sdt), sc->time_unit, 1,
                     false, v) == TIME_OK)
        return NPYDT_OK;
    char str[64], what[160];
    npydt_dtype_str(sdt, str, sizeof str);
    snprintf(what, sizeof what, "%lld of %s is beyond Arrow's int64 %s", (long long)*v, str,
             sc->col == COL_DATE32 ? "days" : sc->time_unit == NPYDT_UNIT_s ? "seconds"
             : sc->time_unit == NPYDT_UNIT_ms ? "milliseconds"
             : sc->time_unit == NPYDT_UNIT_us ? "microseconds" : "nanoseconds");
    return field_error(f, NPYDT_E_RANGE, record, what);
}

/* NaT among the n int64 values at vals, the data of out: null in its
 * validity bitmap, 0 in the data. */
static npydt_status null_nat(struct ArrowArray *out, unsigned char *vals, uint64_t n,
                             npydt_error *err)
{
    for (uint64_t i = 0; i < n; i++) {
        int64_t v;
        memcpy(&v, vals + i * 8, 8);
        if (v == NPYDT_NAT) {
            unsigned char *bits = validity(out, n);
            if (!bits)
                return set_nomem(err);
            clear_bit(bits, i);
            out->null_count++;
            memset(vals + i * 8, 0, 8);
        }
    }
    return NPYDT_OK;
}

static npydt_status fill_time(struct fill *f, const npydt_dtype *sdt,
                              const struct arrow_scalar *sc, const unsigned char *vals,
                              uint64_t n, struct ArrowArray *out)
{
    unsigned char *data = (unsigned char *)out->buffers[1];
    if (sc->col == COL_TIME && !sc->time_convert)   /* gathered into data already */
        return gather_any_nat(data, n) ? null_nat(out, data, n, f->err) : NPYDT_OK;
    for (uint64_t i = 0; i < n; i++) {
        int64_t v;
        memcpy(&v, vals + i * 8, 8);
        if (v == NPYDT_NAT) {
            unsigned char *bits = validity(out, n);
            if (!bits)
                return set_nomem(f->err);
            clear_bit(bits, i);
            out->null_count++;
            v = 0;
        } else if (sc->time_convert &&
                   time_to_arrow(f, sdt, sc, &v, record_of(f, i, n)) != NPYDT_OK) {
            return NPYDT_E_RANGE;
        } else if (sc->col == COL_DATE32 && (v < INT32_MIN || v > INT32_MAX)) {
            char what[96];
            snprintf(what, sizeof what, "day %lld is beyond Arrow's 32-bit dates",
                     (long long)v);
            return field_error(f, NPYDT_E_RANGE, record_of(f, i, n), what);
        }
        if (sc->col == COL_DATE32) {
            int32_t d = (int32_t)v;
            memcpy(data + i * 4, &d, 4);
        } else {
            memcpy(data + i * 8, &v, 8);
        }
    }
    return NPYDT_OK;
}

/* Code units of a U value without its trailing NULs. */
static size_t ucs4_len(const unsigned char *p, size_t units)
{
    while (units > 0 && text_load32(p + (units - 1) * 4, false) == 0)
        units--;
    return units;
}

static npydt_status fill_text(struct fill *f, const struct arrow_scalar *sc, size_t size,
                              const unsigned char *vals, uint64_t n, struct ArrowArray *out)
{
    bool utf8 = sc->col == COL_UTF8;
    uint64_t total = 0;
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *p = vals + i * size;
        if (!utf8) {
            size_t len = size;
            while (len > 0 && p[len - 1] == 0)
                len--;
            total += len;
            continue;
        }
        size_t units = ucs4_len(p, size / 4);
        for (size_t k = 0; k < units; k++) {
            uint32_t cp = text_load32(p + k * 4, false);
            if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                char what[96];
                snprintf(what, sizeof what, "code point U+%04lX cannot be UTF-8 text",
                         (unsigned long)cp);
                return field_error(f, NPYDT_E_ENCODING, record_of(f, i, n), what);
            }
            total += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        }
    }
    if (total > INT32_MAX)
        return too_big(f);
    int32_t *offs = arrow_array_buffer(out, 1, (size_t)(n + 1) * 4);
    char *data = offs ? arrow_array_buffer(out, 2, (size_t)total) : NULL;
    if (!data)
        return set_nomem(f->err);
    int32_t at = 0;
    offs[0] = 0;
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *p = vals + i * size;
        if (!utf8) {
            size_t len = size;
            while (len > 0 && p[len - 1] == 0)
                len--;
            if (len)
                memcpy(data + at, p, len);
            at += (int32_t)len;
        } else {
            size_t units = ucs4_len(p, size / 4);
            for (size_t k = 0; k < units; k++)
                at += (int32_t)text_utf8_encode(text_load32(p + k * 4, false), data + at);
        }
        offs[i + 1] = at;
    }
    return NPYDT_OK;
}

/* The bytes of a column of n elements of field gdt (sdt, or a subarray of
 * sdt) at offset in the elements of levels[0..nlev), when they lie in
 * the batch's mapping as Arrow lays them out: values in native order
 * without conversion, one after the other (each level's stride the bytes
 * of the levels inside it), aligned to their unit. NULL otherwise. */
static const unsigned char *in_place(const struct fill *f, const npydt_dtype *sdt,
                                     const npydt_dtype *gdt, const struct arrow_scalar *sc,
                                     uint64_t offset, size_t nlev, uint64_t n)
{
    if (!f->b->share || n == 0 || sc->as != NPYDT_AS_NATIVE ||
        (sc->col != COL_FIXED && sc->col != COL_COMPLEX) ||
        text_order_swaps(npydt_dtype_byteorder(sdt)))
        return NULL;
    const npydt_repeat *lev = f->b->levels;
    uint64_t dense = npydt_dtype_itemsize(gdt);   /* bounded by the plan */
    for (size_t k = nlev; k-- > 0;) {
        if (lev[k].count > 1 && lev[k].stride != dense)
            return NULL;
        dense *= lev[k].count;
    }
    const unsigned char *p = f->b->records + offset;
    size_t unit = npydt_dtype_itemsize(sdt) / (sc->col == COL_COMPLEX ? 2 : 1);
    size_t align = unit >= 8 ? 8 : unit >= 4 ? 4 : unit >= 2 ? 2 : 1;
    if (sc->format[0] == 'w')   /* bytes, however many */
        align = 1;
    if ((uintptr_t)p % align != 0 || !reader_share_has(f->b->share, p, dense))
        return NULL;
    return p;
}

/* Gather field gdt at offset of each row after the walk (with the other
 * columns of the rows) into the data buffer of node data, bytes long;
 * time: its node out of n values takes NaT as null. */
static npydt_status defer(struct fill *f, const npydt_dtype *gdt, uint64_t offset, bool time,
                          struct ArrowArray *data, size_t bytes, uint64_t n,
                          struct ArrowArray *out)
{
    if (f->ncols == f->cap) {   /* a column per leaf: fewer than the plan's bytes */
        const npydt_allocator *a = f->b->alloc;
        size_t cap = f->cap ? 2 * f->cap : 16;
        struct gather_col *c = alloc_bytes(a, cap * sizeof *c);
        struct later *l = alloc_bytes(a, cap * sizeof *l);
        if (!c || !l) {
            free_bytes(a, c, cap * sizeof *c);
            free_bytes(a, l, cap * sizeof *l);
            return set_nomem(f->err);
        }
        if (f->ncols) {
            memcpy(c, f->cols, f->ncols * sizeof *c);
            memcpy(l, f->later, f->ncols * sizeof *l);
        }
        free_bytes(a, f->cols, f->cap * sizeof *c);
        free_bytes(a, f->later, f->cap * sizeof *l);
        f->cols = c;
        f->later = l;
        f->cap = cap;
    }
    gather_col_init(&f->cols[f->ncols], gdt, offset, time, NULL);
    f->later[f->ncols++] = (struct later){data, out, bytes, n};
    return NPYDT_OK;
}

/* The data buffers of the columns gathered after the walk: one after the
 * other in the batch's body block, each at a multiple of 8 bytes from its
 * start and followed by zeros up to the next (as Arrow's IPC body lays
 * them out: a writer sends them on in one piece), or one block each
 * without a body block. */
static npydt_status place(struct fill *f)
{
    struct arrow_batch *b = f->b;
    unsigned char *base = NULL;
    if (b->body) {
        uint64_t total = 0;
        for (size_t k = 0; k < f->ncols; k++)
            total = sat_add(total, ((uint64_t)f->later[k].bytes + 7) / 8 * 8);
        if (total > SIZE_MAX / 2 || !(base = arrow_shared_bytes(b->body, (size_t)total)))
            return set_nomem(f->err);
    }
    size_t at = 0;
    for (size_t k = 0; k < f->ncols; k++) {
        const struct later *l = &f->later[k];
        unsigned char *p;
        if (base) {
            size_t padded = (l->bytes + 7) / 8 * 8;
            p = base + at;
            memset(p + l->bytes, 0, padded - l->bytes);
            arrow_array_borrow_block(l->data, 1, b->body, p);
            at += padded;
        } else if (!(p = arrow_array_buffer_raw(l->data, 1, l->bytes))) {
            return set_nomem(f->err);
        }
        f->cols[k].dst = p;
    }
    return NPYDT_OK;
}

/* A scalar column of n elements: field gdt (sdt, or a subarray of sdt) at
 * offset in the elements of levels[0..nlev). */
static npydt_status leaf(struct fill *f, const npydt_dtype *sdt, const npydt_dtype *gdt,
                         uint64_t offset, size_t nlev, uint64_t n, struct ArrowArray *out)
{
    struct arrow_scalar sc;
    npydt_status st = arrow_scalar_of(sdt, f->b->bytes_as_binary, &sc, f->err);
    if (st != NPYDT_OK)
        return st;
    const npydt_allocator *a = f->b->alloc;
    int64_t nbuf = sc.col == COL_COMPLEX ? 1 : sc.col == COL_BINARY || sc.col == COL_UTF8 ? 3 : 2;
    if ((st = arrow_array_node(a, out, (int64_t)n, nbuf, sc.col == COL_COMPLEX, f->err)) !=
        NPYDT_OK)
        return st;
    struct ArrowArray *data_node = out;
    if (sc.col == COL_COMPLEX) {
        data_node = out->children[0];
        if ((st = arrow_array_node(a, data_node, (int64_t)(2 * n), 2, 0, f->err)) != NPYDT_OK)
            return st;
    }
    const unsigned char *mapped = in_place(f, sdt, gdt, &sc, offset, nlev, n);
    if (mapped) {
        arrow_array_borrow_mapping(data_node, 1, mapped, f->b->share);
        return NPYDT_OK;
    }
    size_t gsize = (size_t)n * sc.gathered;   /* bounded by the plan */
    unsigned char *dst;
    bool direct = sc.col == COL_FIXED || sc.col == COL_DOUBLE || sc.col == COL_COMPLEX ||
                  sc.col == COL_TIME;
    if (direct && nlev == 1 && sc.as == NPYDT_AS_NATIVE &&
        (sc.col != COL_TIME || !sc.time_convert))
        return defer(f, gdt, offset, sc.col == COL_TIME, data_node, gsize, n, out);
    if (direct) {
        dst = arrow_array_buffer_raw(data_node, 1, gsize);   /* gathered whole */
    } else {
        dst = alloc_bytes(a, gsize ? gsize : 1);
        if (sc.col == COL_DATE32 && dst && !arrow_array_buffer_raw(out, 1, (size_t)n * 4)) {
            free_bytes(a, dst, gsize ? gsize : 1);
            dst = NULL;
        }
    }
    if (!dst)
        return set_nomem(f->err);
    st = gather_levels(f, gdt, sc.as, offset, nlev, dst);
    if (st == NPYDT_OK) {
        switch (sc.col) {
        case COL_BOOL: {
            unsigned char *bits = arrow_array_buffer(out, 1, (size_t)((n + 7) / 8));
            if (!bits) {
                st = set_nomem(f->err);
                break;
            }
            for (uint64_t i = 0; i < n; i++)
                if (dst[i])
                    bits[i / 8] |= (unsigned char)(1u << (i % 8));
            break;
        }
        case COL_TIME:
        case COL_DATE32:
            st = fill_time(f, sdt, &sc, dst, n, out);
            break;
        case COL_BINARY:
        case COL_UTF8:
            st = fill_text(f, &sc, npydt_dtype_itemsize(sdt), dst, n, out);
            break;
        case COL_FIXED:
        case COL_DOUBLE:
        case COL_COMPLEX:
            break;
        }
    }
    if (!direct)
        free_bytes(a, dst, gsize ? gsize : 1);
    return st;
}

static npydt_status fill(struct fill *f, const npydt_dtype *dt, uint64_t offset, size_t nlev,
                         uint64_t n, struct ArrowArray *out);

/* The fixed-size lists of subarray dt from dimension k, over n elements. */
static npydt_status lists(struct fill *f, const npydt_dtype *dt, size_t k, uint64_t offset,
                          size_t nlev, uint64_t n, struct ArrowArray *out)
{
    const npydt_dtype *base = npydt_dtype_base(dt);
    size_t nd = npydt_dtype_ndim(dt);
    if (k == nd) {
        if (npydt_dtype_get_class(base) == NPYDT_SCALAR)
            return leaf(f, base, dt, offset, nlev - nd, n, out);
        return fill(f, base, offset, nlev, n, out);
    }
    uint64_t d = npydt_dtype_shape(dt)[k];
    npydt_status st = arrow_array_node(f->b->alloc, out, (int64_t)n, 1, 1, f->err);
    if (st != NPYDT_OK)
        return st;
    return lists(f, dt, k + 1, offset, nlev, n * d, out->children[0]);
}

static npydt_status fill(struct fill *f, const npydt_dtype *dt, uint64_t offset, size_t nlev,
                         uint64_t n, struct ArrowArray *out)
{
    npydt_status st;
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_STRUCT: {
        size_t nf = npydt_dtype_nfields(dt);
        if ((st = arrow_array_node(f->b->alloc, out, (int64_t)n, 1, (int64_t)nf, f->err)) !=
            NPYDT_OK)
            return st;
        for (size_t i = 0; i < nf && st == NPYDT_OK; i++) {
            size_t keep;
            arrow_path_push(f->path, sizeof f->path, npydt_dtype_field_name(dt, i),
                            npydt_dtype_field_name_len(dt, i), &keep);
            st = fill(f, npydt_dtype_field_dtype(dt, i),
                      offset + npydt_dtype_field_offset(dt, i), nlev, n, out->children[i]);
            f->path[keep] = '\0';
        }
        return st;
    }
    case NPYDT_SUBARRAY: {
        const npydt_dtype *base = npydt_dtype_base(dt);
        size_t nd = npydt_dtype_ndim(dt);
        const uint64_t *shape = npydt_dtype_shape(dt);
        /* levels for the dimensions: C order, the last one densest */
        uint64_t stride = npydt_dtype_itemsize(base);
        for (size_t k = nd; k-- > 0;) {
            f->b->levels[nlev + k] = (npydt_repeat){shape[k], stride};
            stride *= shape[k];
        }
        return lists(f, dt, 0, offset, nlev + nd, n, out);
    }
    case NPYDT_SCALAR:
        break;
    }
    return leaf(f, dt, dt, offset, nlev, n, out);
}

npydt_status arrow_batch_fill(struct arrow_batch *b, const npydt_dtype *dt,
                              struct ArrowArray *out, npydt_error *err)
{
    struct fill f = {b, "", err, NULL, NULL, 0, 0};
    b->levels[0] = (npydt_repeat){b->rows, b->itemsize};
    npydt_status st;
    if (npydt_dtype_get_class(dt) == NPYDT_STRUCT) {
        st = fill(&f, dt, 0, 1, b->rows, out);
    } else {
        st = arrow_array_node(b->alloc, out, (int64_t)b->rows, 1, 1, err);
        if (st == NPYDT_OK)
            st = fill(&f, dt, 0, 1, b->rows, out->children[0]);
    }
    if (st == NPYDT_OK && f.ncols)
        st = place(&f);
    if (st == NPYDT_OK && f.ncols) {
        gather_columns(b->records, b->itemsize, b->rows, f.cols, f.ncols);
        for (size_t k = 0; k < f.ncols && st == NPYDT_OK; k++)
            if (f.cols[k].nat)
                st = null_nat(f.later[k].out, f.cols[k].dst, f.later[k].n, err);
    }
    free_bytes(b->alloc, f.cols, f.cap * sizeof *f.cols);
    free_bytes(b->alloc, f.later, f.cap * sizeof *f.later);
    if (st != NPYDT_OK && out->release)
        out->release(out);
    return st;
}

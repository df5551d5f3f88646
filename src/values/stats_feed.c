/* Feeding the statistics accumulator: each selected leaf's values are
 * gathered (byte order and conversion: the plan's loads, stats_load.c, or
 * npydt_gather for what they do not cover) into a tile of at most
 * STATS_TILE_BYTES, in C order within each record, and handed to the
 * kernels; the kernels that read values where they are (S bytes, kinds
 * loaded as doubles, int64) take them without the copy. A leaf of one
 * element gathers a tile of records at once; the elements of a subarray
 * are gathered one position at a time across the tile's records and put
 * back in C order, or, for a subarray too large for a tile, along its
 * innermost dimension record by record. */
#include "values/values.h"

/* Fold k gathered values of src (at buf) into column col. */
static void fold(npydt_stats *s, const struct stats_source *src, struct stats_column *col,
                 unsigned char *buf, size_t k)
{
    switch (src->cat) {
    case STATS_FLOAT:
        if (src->parts == 2) {
            double *d = (double *)(void *)buf, *im = (double *)(void *)s->tile;
            for (size_t i = 0; i < k; i++) {
                double re = d[2 * i];
                im[i] = d[2 * i + 1];
                d[i] = re;
            }
            stats_fold_double(col, d, k);
            stats_fold_double(col + 1, im, k);
        } else {
            stats_fold_double(col, (const double *)(void *)buf, k);
        }
        return;
    case STATS_INT:
        if (col->doubles) {
            stats_fold_double(col, (const double *)(void *)buf, k);
            return;
        }
        stats_fold_int(col, (const int64_t *)(void *)buf, k, s->scratch);
        return;
    case STATS_UINT:
        stats_fold_uint(col, (const uint64_t *)(void *)buf, k, s->scratch);
        return;
    case STATS_TIME:
        stats_fold_time(col, (const int64_t *)(void *)buf, k);
        return;
    case STATS_BYTES:
    case STATS_TEXT:
        stats_fold_strings(col, buf, src->gsize, src->gsize, k);
        return;
    }
}

/* Offset of the next element position of l in C order: idx[] is the
 * multi-index over l's repeats (levels [0, nlev)), advanced in place. */
static uint64_t next_position(const npydt_leaf *l, uint32_t nlev, uint64_t *idx, uint64_t off)
{
    for (uint32_t k = nlev; k-- > 0;) {
        if (++idx[k] < l->repeats[k].count)
            return off + l->repeats[k].stride;
        off -= (idx[k] - 1) * l->repeats[k].stride;
        idx[k] = 0;
    }
    return off;
}

/* Elements per tile of values of gsize bytes (at least one). */
static size_t per_tile(size_t gsize)
{
    return gsize == 0 || gsize >= STATS_TILE_BYTES ? 1 : STATS_TILE_BYTES / gsize;
}

/* n values of src, stride bytes apart from base, into out: by the plan's
 * loads where they cover the leaf, else by npydt_gather. */
static npydt_status gather(const unsigned char *base, size_t stride, uint64_t n,
                           const struct stats_source *src, unsigned char *out, npydt_error *err)
{
    if (src->load == STATS_LOAD_GATHER || src->load == STATS_LOAD_BYTES)
        return npydt_gather(base, stride, n, src->l->dtype, 0, src->as, out, err);
    stats_load(src->load, src->swap, base, stride, (size_t)n, out);
    return NPYDT_OK;
}

/* Fold k values of src, stride bytes apart from base, into col: where
 * they are when a kernel reads them so (S bytes; kinds that load as
 * doubles; int64 once the column's order is settled), else gathered
 * into the tile first. */
static npydt_status fold_where(npydt_stats *s, const struct stats_source *src,
                               struct stats_column *col, const unsigned char *base, size_t stride,
                               size_t k, npydt_error *err)
{
    if (src->load == STATS_LOAD_BYTES) {
        stats_fold_strings(col, base, stride, src->gsize, k);
    } else if (src->parts == 1 && stats_load_doubles(src->load)) {
        stats_fold_load(col, src->load, src->swap, base, stride, k, (double *)(void *)s->buf);
    } else if (src->cat == STATS_INT && src->load == STATS_LOAD_I64 && !col->sorted) {
        stats_fold_int_load(col, src->swap, base, stride, k, s->scratch);
    } else {
        npydt_status st = gather(base, stride, k, src, s->buf, err);
        if (st != NPYDT_OK)
            return st;
        fold(s, src, col, s->buf, k);
    }
    return NPYDT_OK;
}

/* The values of a leaf whose subarray elements are pooled and take more
 * than a tile per record: record by record, along the innermost level. */
static npydt_status feed_long(npydt_stats *s, const struct stats_source *src,
                              const unsigned char *records, uint64_t n, npydt_error *err)
{
    const npydt_leaf *l = src->l;
    uint32_t outer = l->nrepeats - 1;
    const npydt_repeat *inner = &l->repeats[outer];
    uint64_t idx[64] = {0};
    uint64_t runs = 1;
    for (uint32_t k = 0; k < outer; k++)
        runs *= l->repeats[k].count;   /* within count */
    size_t piece = per_tile(src->gsize);
    for (uint64_t r = 0; r < n; r++) {
        const unsigned char *rec = records + r * s->itemsize;
        uint64_t off = l->offset;
        memset(idx, 0, sizeof idx);
        for (uint64_t run = 0; run < runs; run++) {
            for (uint64_t e = 0; e < inner->count; e += piece) {
                size_t k = (size_t)(inner->count - e < piece ? inner->count - e : piece);
                npydt_status st = fold_where(s, src, &s->cols[src->col],
                                             rec + off + e * inner->stride,
                                             (size_t)inner->stride, k, err);
                if (st != NPYDT_OK)
                    return st;
            }
            off = next_position(l, outer, idx, off);
        }
    }
    return NPYDT_OK;
}

/* The values of one leaf in n records. */
static npydt_status feed_source(npydt_stats *s, const struct stats_source *src,
                                const unsigned char *records, uint64_t n, npydt_error *err)
{
    const npydt_leaf *l = src->l;
    uint64_t c = l->count;
    if (c == 0)
        return NPYDT_OK;
    bool pooled = c > 1 && !src->per_element;
    if (pooled && c > per_tile(src->gsize))
        return feed_long(s, src, records, n, err);
    size_t m = per_tile(src->gsize);
    if (pooled)
        m /= (size_t)c;   /* c <= per_tile: m >= 1 */
    size_t stride = s->itemsize;
    uint64_t idx[64];
    for (uint64_t r0 = 0; r0 < n; r0 += m) {
        size_t mm = (size_t)(n - r0 < m ? n - r0 : m);
        const unsigned char *base = records + r0 * stride;
        uint64_t off = l->offset;
        memset(idx, 0, sizeof idx);
        npydt_status st;
        if (c == 1 || !pooled) {
            for (uint64_t e = 0; e < c; e++) {
                struct stats_column *col = &s->cols[src->col + (size_t)e * (size_t)src->parts];
                if ((st = fold_where(s, src, col, base + off, stride, mm, err)) != NPYDT_OK)
                    return st;
                off = next_position(l, l->nrepeats, idx, off);
            }
            continue;
        }
        /* each position across the records, then the tile in C order */
        size_t g = src->gsize;
        for (uint64_t e = 0; e < c; e++) {
            if ((st = gather(base + off, stride, mm, src, s->tile + e * mm * g, err)) != NPYDT_OK)
                return st;
            off = next_position(l, l->nrepeats, idx, off);
        }
        for (size_t i = 0; i < mm; i++)
            for (size_t e = 0; e < (size_t)c; e++)
                memcpy(s->buf + (i * (size_t)c + e) * g, s->tile + (e * mm + i) * g, g);
        fold(s, src, &s->cols[src->col], s->buf, mm * (size_t)c);
    }
    return NPYDT_OK;
}

npydt_status npydt_stats_add(npydt_stats *s, const void *records, uint64_t n, npydt_error *err)
{
    error_clear(err);
    if (!s || (n > 0 && !records))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "stats or records is NULL");
    uint64_t bytes;
    if (!ck_mul(n, s->itemsize, &bytes) || bytes > SIZE_MAX)
        return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "%llu records do not fit the address space", (unsigned long long)n);
    for (size_t i = 0; i < s->nsrc; i++) {
        npydt_status st = feed_source(s, &s->src[i], records, n, err);
        if (st != NPYDT_OK)
            return st;
    }
    return NPYDT_OK;
}

npydt_status npydt_stats_add_reader(npydt_stats *s, npydt_reader *r, npydt_error *err)
{
    error_clear(err);
    if (!s || !r)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "stats or reader is NULL");
    const npydt_dtype *dt = npydt_header_dtype(npydt_reader_header(r));
    if (dt != s->dt && !npydt_dtype_equal(dt, s->dt))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "the reader's dtype is not the accumulator's");
    for (;;) {
        const void *batch;
        uint64_t n;
        npydt_status st = npydt_reader_next_c(r, UINT64_MAX, &batch, &n, err);
        if (st != NPYDT_OK)
            return st;
        if (n == 0)
            return NPYDT_OK;
        if ((st = npydt_stats_add(s, batch, n, err)) != NPYDT_OK)
            return st;
    }
}

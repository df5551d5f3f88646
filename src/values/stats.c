/* The statistics accumulator: its options, the leaves it follows and
 * their columns (this file), feeding it records (stats_feed.c), the
 * kernels that fold gathered values (stats_kernel.c) and the sketch of
 * distinct strings (stats_sketch.c). */
#include "values/values.h"

#include <math.h>

#define STATS_DEFAULT_MAX_BYTES ((size_t)256 << 20)

void npydt_stats_options_init(npydt_stats_options *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->max_bytes = STATS_DEFAULT_MAX_BYTES;
}

/* How the values of a leaf are gathered and folded; false for an object. */
static bool leaf_plan(const npydt_leaf *l, struct stats_source *src)
{
    src->parts = 1;
    switch (l->kind) {
    case 'b': case 'i':
        src->cat = STATS_INT;
        src->as = NPYDT_AS_INT64;
        break;
    case 'u':
        src->cat = l->itemsize < 8 ? STATS_INT : STATS_UINT;
        src->as = l->itemsize < 8 ? NPYDT_AS_INT64 : NPYDT_AS_NATIVE;
        break;
    case 'f':
        src->cat = STATS_FLOAT;
        src->as = NPYDT_AS_DOUBLE;
        break;
    case 'c':
        src->cat = STATS_FLOAT;
        src->as = NPYDT_AS_DOUBLE;
        src->parts = 2;
        break;
    case 'M': case 'm':
        src->cat = STATS_TIME;
        src->as = NPYDT_AS_INT64;
        break;
    case 'S': case 'V':
        src->cat = STATS_BYTES;
        src->as = NPYDT_AS_NATIVE;
        break;
    case 'U':
        src->cat = STATS_TEXT;
        src->as = NPYDT_AS_NATIVE;
        break;
    default:
        return false;
    }
    src->gsize = src->as == NPYDT_AS_NATIVE ? l->itemsize : 8u * src->parts;
    src->load = stats_load_kind(l, src->as);
    src->swap = text_order_swaps(l->byteorder);
    return true;
}

/* Is the leaf path lp (lplen bytes) the field path p or below it? */
static bool path_selects(const char *p, size_t plen, const char *lp, size_t lplen)
{
    if (plen == 0)
        return true;
    return lplen >= plen && memcmp(lp, p, plen) == 0 && (lplen == plen || lp[plen] == '.');
}

/* Mark the leaves the options' field paths select in sel[0..nleaves). */
static npydt_status select_leaves(const npydt_dtype *dt, size_t nleaves,
                                  const npydt_stats_options *o, const npydt_allocator *a,
                                  bool *sel, npydt_error *err)
{
    if (!o->fields) {
        for (size_t i = 0; i < nleaves; i++)
            sel[i] = true;
        return NPYDT_OK;
    }
    size_t longest = 0;
    for (size_t i = 0; i < nleaves; i++) {
        size_t n = npydt_dtype_leaf_path(dt, i, NULL, 0);
        longest = n > longest ? n : longest;
    }
    char *lp = alloc_bytes(a, longest + 1);
    if (!lp)
        return set_nomem(err);
    npydt_status st = NPYDT_OK;
    for (size_t k = 0; k < o->nfields && st == NPYDT_OK; k++) {
        const char *p = o->fields[k];
        if (!p) {
            st = set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "field path %zu is NULL", k);
            break;
        }
        size_t plen = strlen(p);
        bool found = false;
        for (size_t i = 0; i < nleaves; i++) {
            size_t n = npydt_dtype_leaf_path(dt, i, lp, longest + 1);
            if (path_selects(p, plen, lp, n)) {
                sel[i] = true;
                found = true;
            }
        }
        if (!found)
            st = set_error(err, NPYDT_E_NOT_FOUND, NPYDT_NO_OFFSET, p,
                           "%s", "no such field");
    }
    free_bytes(a, lp, longest + 1);
    return st;
}

/* A column's starting state. */
static void column_init(struct stats_column *c, const struct stats_source *src, uint64_t element,
                        int part)
{
    memset(c, 0, sizeof *c);
    c->leaf = src->leaf;
    c->element = element;
    c->part = src->parts == 2 ? part + 1 : NPYDT_STATS_VALUE;
    c->kind = src->l->kind;
    c->dtype = src->l->dtype;
    c->cat = src->cat;
    c->doubles = src->cat == STATS_INT && stats_load_doubles(src->load);
    c->min_f = INFINITY;
    c->max_f = -INFINITY;
    c->sorted = NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING |
                NPYDT_SORTED_DESCENDING | NPYDT_SORTED_STRICTLY_DESCENDING;
}

/* Bytes of the string memory of one column of src: registers, and room
 * for the last and the first value where the column's order is followed. */
static uint64_t string_bytes(const struct stats_source *src)
{
    if (src->cat != STATS_BYTES && src->cat != STATS_TEXT)
        return 0;
    return STATS_HLL_SIZE + (src->l->kind == 'V' ? 0 : 2 * (uint64_t)src->gsize);
}

npydt_status npydt_stats_new(const npydt_dtype *dt, const npydt_stats_options *opts,
                             npydt_stats **out, npydt_error *err)
{
    error_clear(err);
    if (out)
        *out = NULL;
    if (!dt || !out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "dtype or out is NULL");
    npydt_stats_options o;
    npydt_stats_options_init(&o);
    if (opts) {
        if (!reserved_is_zero(opts->reserved, sizeof opts->reserved / sizeof opts->reserved[0]))
            return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                             "statistics options have nonzero reserved room: fill them with "
                             "npydt_stats_options_init");
        o = *opts;
        if (o.max_bytes == 0)
            o.max_bytes = STATS_DEFAULT_MAX_BYTES;
    }
    const npydt_allocator *a = o.allocator;
    size_t nleaves;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &nleaves);
    if (!leaves && nleaves)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "not a root dtype");
    bool *sel = alloc_bytes(a, nleaves ? nleaves : 1);
    if (!sel)
        return set_nomem(err);
    memset(sel, 0, nleaves ? nleaves : 1);
    npydt_status st = select_leaves(dt, nleaves, &o, a, sel, err);
    npydt_stats *s = NULL;
    size_t nsrc = 0;
    for (size_t i = 0; i < nleaves; i++)
        nsrc += sel[i];
    /* what the columns take: counted before anything is allocated */
    uint64_t ncols = 0, strmem = 0, tile = STATS_TILE_BYTES;
    for (size_t i = 0; i < nleaves && st == NPYDT_OK; i++) {
        struct stats_source src = {.leaf = i, .l = &leaves[i]};
        if (!sel[i])
            continue;
        if (!leaf_plan(&leaves[i], &src)) {
            char path[200];
            npydt_dtype_leaf_path(dt, i, path, sizeof path);
            st = set_error(err, NPYDT_E_OBJECT, NPYDT_NO_OFFSET, path,
                           "object data is a pickle and cannot be read");
            break;
        }
        uint64_t n = (o.per_element && leaves[i].nrepeats ? leaves[i].count : 1) * src.parts;
        ncols = sat_add(ncols, n);
        strmem = sat_add(strmem, sat_mul(n, string_bytes(&src)));
        tile = src.gsize > tile ? src.gsize : tile;
    }
    uint64_t total = sat_add(sat_add(sizeof *s, sat_mul(nsrc, sizeof(struct stats_source))),
                             sat_add(sat_mul(ncols, sizeof(struct stats_column)), strmem));
    total = sat_add(total, sat_add(sat_mul(tile, 2), STATS_BLOCK * sizeof(double)));
    if (st == NPYDT_OK && total > o.max_bytes)
        st = set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                       "the statistics of this dtype need %llu bytes, above the limit of %zu",
                       (unsigned long long)total, o.max_bytes);
    if (st == NPYDT_OK) {
        s = alloc_bytes(a, sizeof *s);
        if (!s)
            st = set_nomem(err);
    }
    if (s) {
        memset(s, 0, sizeof *s);
        s->alloc = a;
        s->dt = dt;
        s->itemsize = npydt_dtype_itemsize(dt);
        s->nsrc = nsrc;
        s->ncols = (size_t)ncols;
        s->strmem_size = (size_t)strmem;
        s->tile_size = (size_t)tile;
        s->src = alloc_bytes(a, (nsrc ? nsrc : 1) * sizeof *s->src);
        s->cols = alloc_bytes(a, (ncols ? (size_t)ncols : 1) * sizeof *s->cols);
        s->strmem = strmem ? alloc_bytes(a, (size_t)strmem) : NULL;
        s->tile = alloc_bytes(a, s->tile_size);
        s->buf = alloc_bytes(a, s->tile_size);
        s->scratch = alloc_bytes(a, STATS_BLOCK * sizeof(double));
        if (!s->src || !s->cols || (strmem && !s->strmem) || !s->tile || !s->buf || !s->scratch)
            st = set_nomem(err);
    }
    if (st == NPYDT_OK) {
        unsigned char *mem = s->strmem;
        if (mem)
            memset(mem, 0, s->strmem_size);
        size_t k = 0, col = 0;
        for (size_t i = 0; i < nleaves; i++) {
            if (!sel[i])
                continue;
            struct stats_source *src = &s->src[k++];
            *src = (struct stats_source){.leaf = i, .l = &leaves[i], .col = col};
            leaf_plan(&leaves[i], src);
            src->per_element = o.per_element && leaves[i].nrepeats > 0;
            uint64_t elems = src->per_element ? leaves[i].count : 1;
            for (uint64_t e = 0; e < elems; e++)
                for (int p = 0; p < src->parts; p++) {
                    struct stats_column *c = &s->cols[col++];
                    column_init(c, src, src->per_element ? e : NPYDT_STATS_POOLED, p);
                    if (string_bytes(src)) {
                        c->hll = mem;
                        mem += STATS_HLL_SIZE;
                        if (leaves[i].kind != 'V') {
                            c->prev_s = mem;
                            c->first_s = mem + src->gsize;
                            mem += 2 * src->gsize;
                        }
                    }
                }
        }
    }
    free_bytes(a, sel, nleaves ? nleaves : 1);
    if (st != NPYDT_OK) {
        npydt_stats_free(s);
        return st;
    }
    *out = s;
    return NPYDT_OK;
}

void npydt_stats_free(npydt_stats *s)
{
    if (!s)
        return;
    const npydt_allocator *a = s->alloc;
    free_bytes(a, s->src, (s->nsrc ? s->nsrc : 1) * sizeof *s->src);
    free_bytes(a, s->cols, (s->ncols ? s->ncols : 1) * sizeof *s->cols);
    free_bytes(a, s->strmem, s->strmem_size);
    free_bytes(a, s->tile, s->tile_size);
    free_bytes(a, s->buf, s->tile_size);
    free_bytes(a, s->scratch, STATS_BLOCK * sizeof(double));
    free_bytes(a, s, sizeof *s);
}

size_t npydt_stats_count(const npydt_stats *s)
{
    return s ? s->ncols : 0;
}

/* The mean and standard deviation of a numeric column, as np.nanmean and
 * np.nanstd give them in float64. */
static void moments(const struct stats_column *c, double *mean, double *std)
{
    if (c->posinf || c->neginf) {
        *mean = c->posinf && c->neginf ? NAN : c->posinf ? INFINITY : -INFINITY;
        *std = NAN;
    } else if (c->nfin == 0) {
        *mean = *std = NAN;
    } else {
        double n = (double)c->nfin;
        *mean = (c->sum + c->comp) / n;
        *std = sqrt(c->m2 / n);
    }
}

/* M's extreme as NumPy's str() writes it ("" where it has no text). */
static void time_text(const npydt_dtype *dt, int64_t count, char *buf)
{
    npydt_datetime v = {count, npydt_dtype_unit(dt), npydt_dtype_unit_count(dt), 0};
    size_t len;
    if (npydt_datetime_text(&v, buf, NPYDT_DATETIME_TEXT_MAX + 1, &len, NULL) != NPYDT_OK)
        buf[0] = '\0';
}

npydt_status npydt_stats_get(const npydt_stats *s, size_t i, npydt_stats_result *out,
                             npydt_error *err)
{
    error_clear(err);
    if (!s || !out || i >= s->ncols)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "no statistics column %zu (there are %zu)", i, s ? s->ncols : 0);
    const struct stats_column *c = &s->cols[i];
    memset(out, 0, sizeof *out);
    out->leaf = c->leaf;
    out->element = c->element;
    out->part = c->part;
    out->kind = c->kind;
    out->sorted = c->sorted;
    out->has_order = c->kind != 'c' && c->kind != 'V';
    if (!out->has_order)
        out->sorted = 0;
    out->count = c->count;
    out->valid = c->valid;
    out->nan = c->nan;
    out->posinf = c->posinf;
    out->neginf = c->neginf;
    out->nat = c->nat;
    out->zeros = c->kind == 'M' ? 0 : c->zeros;
    out->mean = out->std = out->min_f = out->max_f = NAN;
    out->distinct = 0;
    bool any = c->valid > 0;
    switch (c->cat) {
    case STATS_FLOAT:
        if (any) {
            out->min_f = c->min_f;
            out->max_f = c->max_f;
        }
        moments(c, &out->mean, &out->std);
        break;
    case STATS_INT:
        if (any && c->doubles && c->kind == 'u') {
            out->min_u = (uint64_t)c->min_f;
            out->max_u = (uint64_t)c->max_f;
        } else if (any && c->doubles) {
            out->min_i = (int64_t)c->min_f;
            out->max_i = (int64_t)c->max_f;
        } else if (any && c->kind == 'u') {
            out->min_u = (uint64_t)c->min_i;
            out->max_u = (uint64_t)c->max_i;
        } else if (any) {
            out->min_i = c->min_i;
            out->max_i = c->max_i;
        }
        moments(c, &out->mean, &out->std);
        break;
    case STATS_UINT:
        if (any) {
            out->min_u = c->min_u;
            out->max_u = c->max_u;
        }
        moments(c, &out->mean, &out->std);
        break;
    case STATS_TIME:
        if (any) {
            out->min_i = c->min_i;
            out->max_i = c->max_i;
            if (c->kind == 'M') {
                time_text(c->dtype, c->min_i, out->min_text);
                time_text(c->dtype, c->max_i, out->max_text);
            }
        }
        break;
    case STATS_BYTES:
    case STATS_TEXT:
        if (any) {
            out->min_len = c->min_len;
            out->max_len = c->max_len;
        }
        out->distinct = stats_hll_estimate(c->hll);
        break;
    }
    return NPYDT_OK;
}

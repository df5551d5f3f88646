/* Which elements npydt dump prints (--index, --range, --tail, --head),
 * and reaching them: in place by offset in a mapped file, so that the
 * last record of a large file costs no more than the first. */
#include "cli/dump/dump.h"
#include "cli/common/args.h"
#include "cli/common/report.h"

#include <string.h>

/* A decimal integer with an optional '-' filling s[0..len); -1 if not. */
static int parse_int(const char *s, size_t len, int64_t *out)
{
    size_t i = 0;
    int neg = len > 0 && s[0] == '-';
    i += (size_t)neg;
    if (i == len)
        return -1;
    uint64_t v = 0;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        if (v > (UINT64_C(1) << 58))
            return -1;   /* far beyond any array */
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = neg ? -(int64_t)v : (int64_t)v;
    return 0;
}

/* Python's index rule: -n <= i < n, negative from the end. */
static int resolve_index(int64_t i, uint64_t n, uint64_t *out)
{
    if (i < 0) {
        if ((uint64_t)0 - (uint64_t)i > n)
            return -1;
        *out = n - ((uint64_t)0 - (uint64_t)i);
        return 0;
    }
    if ((uint64_t)i >= n)
        return -1;
    *out = (uint64_t)i;
    return 0;
}

/* A slice bound as slice.indices() clamps it: into [lo, n + lo] after
 * adding n to a negative one (lo is 0 for a positive step, -1 else). */
static int64_t clamp_bound(int64_t b, int64_t n, int64_t lo)
{
    if (b < 0) {
        b += n;
        if (b < lo)
            b = lo;
    } else if (b > n + lo) {
        b = n + lo;
    }
    return b;
}

/* "START:STOP[:STEP]", each part optional, over n rows. */
static int parse_range(const char *spec, uint64_t n, struct selection *s)
{
    const char *c1 = strchr(spec, ':');
    if (!c1)
        return -1;
    const char *c2 = strchr(c1 + 1, ':');
    const char *end = spec + strlen(spec);
    const char *stop_end = c2 ? c2 : end;
    int64_t start, stop, step = 1;
    if (c2 && c2 + 1 < end && parse_int(c2 + 1, (size_t)(end - c2 - 1), &step) != 0)
        return -1;
    if (step == 0 || n > INT64_MAX / 2)
        return -1;
    int64_t len = (int64_t)n, lo = step > 0 ? 0 : -1;
    if (c1 == spec)
        start = step > 0 ? 0 : len - 1;
    else if (parse_int(spec, (size_t)(c1 - spec), &start) != 0)
        return -1;
    else
        start = clamp_bound(start, len, lo);
    if (stop_end == c1 + 1)
        stop = step > 0 ? len : -1;
    else if (parse_int(c1 + 1, (size_t)(stop_end - c1 - 1), &stop) != 0)
        return -1;
    else
        stop = clamp_bound(stop, len, lo);
    uint64_t count = 0;
    if (step > 0 && stop > start)
        count = (uint64_t)(stop - start - 1) / (uint64_t)step + 1;
    else if (step < 0 && start > stop)
        count = (uint64_t)(start - stop - 1) / ((uint64_t)0 - (uint64_t)step) + 1;
    s->row_first = count ? (uint64_t)start : 0;
    s->row_step = step;
    s->nrows = count;
    return 0;
}

int dump_select(const char *name, const npydt_header *h, const struct select_args *args,
                int have_head, uint64_t head, struct selection *out)
{
    return dump_select_to(NULL, name, h, args, have_head, head, out);
}

int dump_select_to(struct cli_dest *d, const char *name, const npydt_header *h,
                   const struct select_args *args, int have_head, uint64_t head,
                   struct selection *out)
{
    size_t nd = npydt_header_ndim(h);
    const uint64_t *shape = npydt_header_shape(h);
    uint64_t count = npydt_header_count(h);
    struct selection s = {0, 1, count, 1, 0, NULL};
    int given = (args->index != NULL) + (args->range != NULL) + (args->tail != NULL);
    if (given > 1)
        return cli_usage_to(d, &dump_command, "--index, --range and --tail exclude each other");
    if ((args->index || args->range) && nd == 0)
        return cli_fail_to(d, name, NPYDT_E_ARG, "%s",
                        "an array of shape () has no axis to index or slice");
    if (args->index) {
        /* i,j,...: a[i, j, ...], the sub-array of the remaining axes */
        const char *p = args->index;
        uint64_t row = 0;
        size_t k = 0;
        for (;; k++) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            int64_t i;
            uint64_t u;
            if (parse_int(p, len, &i) != 0)
                return cli_usage_to(d, &dump_command, "--index needs integers separated by commas, "
                                       "not '%s'", args->index);
            if (k >= nd)
                return cli_fail_to(d, name, NPYDT_E_ARG, "--index %s: too many indices for %zu "
                                "dimensions", args->index, nd);
            if (resolve_index(i, shape[k], &u) != 0)
                return cli_fail_to(d, name, NPYDT_E_ARG, "--index %s: index %lld is out of bounds "
                                "for axis %zu with size %llu", args->index, (long long)i, k,
                                (unsigned long long)shape[k]);
            row = row * shape[k] + u;
            if (!comma)
                break;
            p = comma + 1;
        }
        s.row_len = 1;
        for (size_t j = k + 1; j < nd; j++)
            s.row_len *= shape[j];
        s.row_first = row;
        s.nrows = 1;
    } else if (args->range) {
        /* a[START:STOP:STEP]: rows of the first axis */
        s.row_len = shape[0] ? count / shape[0] : 0;
        if (parse_range(args->range, shape[0], &s) != 0)
            return cli_usage_to(d, &dump_command, "--range needs START:STOP[:STEP] (integers, each "
                                   "optional, STEP not 0), not '%s'", args->range);
    } else if (args->tail) {
        /* the last N elements of the flattened array */
        int64_t n;
        if (parse_int(args->tail, strlen(args->tail), &n) != 0 || n < 0)
            return cli_usage_to(d, &dump_command, "--tail needs a count (0 or more)");
        s.nrows = (uint64_t)n < count ? (uint64_t)n : count;
        s.row_first = count - s.nrows;
    }
    s.total = s.nrows * s.row_len;   /* at most count */
    if (have_head && head < s.total)
        s.total = head;
    *out = s;
    return EXIT_OK;
}

uint64_t selection_flat(const struct selection *s, uint64_t i)
{
    if (s->pick)
        i = s->pick[i];
    uint64_t r = i / s->row_len, e = i % s->row_len;
    uint64_t row = s->row_step >= 0 ? s->row_first + r * (uint64_t)s->row_step
                                    : s->row_first - r * ((uint64_t)0 - (uint64_t)s->row_step);
    return row * s->row_len + e;
}

uint64_t selection_end(const struct selection *s)
{
    if (s->total == 0)
        return 0;
    if (s->pick) {
        uint64_t end = 0;
        for (uint64_t i = 0; i < s->total; i++) {
            uint64_t f = selection_flat(s, i);
            end = f >= end ? f + 1 : end;
        }
        return end;
    }
    /* forwards the last element is the furthest; backwards, the end of
     * the first row */
    uint64_t last = s->row_step >= 0 ? s->total - 1
                                     : (s->total < s->row_len ? s->total : s->row_len) - 1;
    return selection_flat(s, last) + 1;
}

/* ---- reaching elements --------------------------------------------------------------- */

void cursor_init(struct cursor *c, npydt_reader *src, uint64_t end)
{
    memset(c, 0, sizeof *c);
    c->src = src;
    c->end = end;
    c->h = npydt_reader_header(src);
    c->bytes = npydt_reader_bytes(src);
    c->itemsize = npydt_dtype_itemsize(npydt_header_dtype(c->h));
    c->fortran = npydt_header_fortran_order(c->h) && npydt_header_ndim(c->h) > 1;
    /* a Fortran-order array is read by the reader's bands, in C order,
     * without touching the mapping (an element of Fortran order jumps
     * across the file, and a mapping of large folios maps a folio whole
     * whichever of its pages is read: the file would stay resident); C
     * order is read front to back, the pages behind given back */
    if (c->fortran) {
        c->direct = c->bytes;
        c->bytes = NULL;
    }
    cli_behind_start(&c->behind, c->fortran ? NULL : src);
}

void cursor_any_order(struct cursor *c)
{
    if (!c->fortran)
        cli_behind_start_any(&c->behind, c->src, c->itemsize);
    else
        c->bytes = c->direct;
}

void cursor_select(struct cursor *c, const struct selection *s)
{
    if (s->row_step < 0)
        cursor_any_order(c);
    else if (s->pick || s->row_step > 1)
        c->bytes = c->direct;   /* far apart: a band for a few elements costs more */
}

const unsigned char *cursor_get(struct cursor *c, uint64_t i, npydt_error *err)
{
    const unsigned char *rec = cursor_at(c, i, err);
    if (rec)
        cursor_seen(c, &rec, 1);
    return rec;
}

void cursor_seen(struct cursor *c, const unsigned char *const *recs, size_t n)
{
    for (size_t k = 0; c->bytes && k < n; k++)
        cli_behind(&c->behind, recs[k]);
}

const unsigned char *cursor_at(struct cursor *c, uint64_t i, npydt_error *err)
{
    if (c->bytes) {
        uint64_t off = i * c->itemsize;   /* i < count: the data size was checked */
        if (c->fortran && npydt_element_offset_flat(c->h, i, &off, err) != NPYDT_OK)
            return NULL;
        return c->bytes + off;
    }
    if (i < c->batch_first || i > c->batch_first + c->batch_n) {
        /* elsewhere: from there on (back to the start of a stream) */
        if (npydt_reader_seek_c(c->src, i, err) != NPYDT_OK)
            return NULL;
        c->batch_first = i;
        c->batch_n = 0;
    }
    while (i >= c->batch_first + c->batch_n) {
        const void *b;
        uint64_t n;
        c->batch_first += c->batch_n;
        c->batch_n = 0;
        /* no further than the selection goes: a Fortran-order array is
         * gathered through a buffer of that many elements at most */
        uint64_t max = c->end > c->batch_first ? c->end - c->batch_first : 1;
        if (npydt_reader_next_c(c->src, max, &b, &n, err) != NPYDT_OK)
            return NULL;
        if (n == 0) {
            cli_error(err, NPYDT_E_DATA, "%s", "the data ends before the element asked for");
            return NULL;
        }
        c->batch = b;
        c->batch_n = n;
    }
    return c->batch + (i - c->batch_first) * c->itemsize;
}

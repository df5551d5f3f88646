/* Merging two statistics accumulators of the same dtype and options, as
 * threads that each fed one part of the records would: the counts and
 * extremes exactly, the moments by Chan's combination and the
 * compensated sum, the sketch register by register, the order across the
 * step from the first accumulator's last value to the second's first. */
#include "values/values.h"

/* Do a and b follow the same values in the same way? */
static bool same_column(const struct stats_column *a, const struct stats_column *b)
{
    return a->leaf == b->leaf && a->element == b->element && a->part == b->part &&
           a->kind == b->kind && a->cat == b->cat && a->doubles == b->doubles;
}

/* The order of d's values followed by s's. */
static void join_order(struct stats_column *d, const struct stats_column *s)
{
    if (d->cat == STATS_BYTES || d->cat == STATS_TEXT) {
        stats_join_string_order(d, s);
        return;
    }
    if (!s->have_prev)
        return;
    if (!d->have_prev) {
        d->sorted = s->sorted;
        d->first_f = s->first_f;
        d->first_i = s->first_i;
        d->first_u = s->first_u;
    } else {
        d->sorted &= s->sorted;
        if (d->cat == STATS_FLOAT || d->doubles)
            STATS_ORDER_STEP(d->sorted, d->prev_f, s->first_f);
        else if (d->cat == STATS_UINT)
            STATS_ORDER_STEP(d->sorted, d->prev_u, s->first_u);
        else
            STATS_ORDER_STEP(d->sorted, d->prev_i, s->first_i);
    }
    d->prev_f = s->prev_f;
    d->prev_i = s->prev_i;
    d->prev_u = s->prev_u;
    d->have_prev = true;
}

/* The extremes of d's values and s's. */
static void join_extremes(struct stats_column *d, const struct stats_column *s)
{
    /* the float extremes start at +-inf: no values leave them as they are */
    d->min_f = s->min_f < d->min_f ? s->min_f : d->min_f;
    d->max_f = s->max_f > d->max_f ? s->max_f : d->max_f;
    if (s->valid == 0)
        return;
    bool first = d->valid == 0;
    d->min_i = first || s->min_i < d->min_i ? s->min_i : d->min_i;
    d->max_i = first || s->max_i > d->max_i ? s->max_i : d->max_i;
    d->min_u = first || s->min_u < d->min_u ? s->min_u : d->min_u;
    d->max_u = first || s->max_u > d->max_u ? s->max_u : d->max_u;
    d->min_len = first || s->min_len < d->min_len ? s->min_len : d->min_len;
    d->max_len = first || s->max_len > d->max_len ? s->max_len : d->max_len;
}

npydt_status npydt_stats_merge(npydt_stats *dst, const npydt_stats *src, npydt_error *err)
{
    error_clear(err);
    if (!dst || !src || dst == src)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "merge needs two accumulators, not NULL or the same one twice");
    bool same = dst->ncols == src->ncols &&
                (dst->dt == src->dt || npydt_dtype_equal(dst->dt, src->dt));
    for (size_t i = 0; same && i < dst->ncols; i++)
        same = same_column(&dst->cols[i], &src->cols[i]);
    if (!same)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "the accumulators follow different dtypes, fields or elements");
    for (size_t i = 0; i < dst->ncols; i++) {
        struct stats_column *d = &dst->cols[i];
        const struct stats_column *s = &src->cols[i];
        join_order(d, s);
        join_extremes(d, s);
        if (s->nfin)
            stats_join_moments(d, s->nfin, s->sum, s->comp, s->mean, s->m2);
        d->count += s->count;
        d->nan += s->nan;
        d->posinf += s->posinf;
        d->neginf += s->neginf;
        d->nat += s->nat;
        d->zeros += s->zeros;
        d->valid += s->valid;
        if (d->hll)
            for (size_t j = 0; j < STATS_HLL_SIZE; j++)
                d->hll[j] = s->hll[j] > d->hll[j] ? s->hll[j] : d->hll[j];
    }
    return NPYDT_OK;
}

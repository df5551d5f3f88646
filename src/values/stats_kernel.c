/* The statistics kernels: a block of gathered values (at most
 * STATS_BLOCK, contiguous, in the order they were met) folded into a
 * column's counts, extremes, moments and order. Branch-free where the
 * values allow, so that a block is one or two passes over L1. */
#include "values/values.h"

#include <float.h>
#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- sums ------------------------------------------------------------------ */

/* Two doubles as one value (a vector of GCC and Clang): lane by lane the
 * same IEEE operations as on two doubles, in one instruction where the
 * target has them. Never passed to or returned from a function. */
typedef double v2d __attribute__((vector_size(16)));
typedef int64_t v2i __attribute__((vector_size(16)));   /* their masks and counts */

/* Sum of x[0..n) pairwise, n <= STATS_BLOCK / 8 (the chunk sums below). */
static double pairwise_sum(const double *x, size_t n)
{
    if (n <= 4) {
        double s = 0;
        for (size_t i = 0; i < n; i++)
            s += x[i];
        return s;
    }
    size_t half = n / 2;
    return pairwise_sum(x, half) + pairwise_sum(x + half, n - half);
}

/* Values a chunk holds: four lanes of 32, their sums added pairwise. */
#define CHUNK 128

/* Join a block of n finite values to the moments of c: their sum sb, the
 * sum sd of their deviations from the shift k and the sum sq of the
 * squares of those. */
void stats_join_moments(struct stats_column *c, uint64_t n, double sum, double comp, double mean,
                        double m2)
{
    double t = c->sum + sum;
    if (fabs(c->sum) >= fabs(sum))
        c->comp += (c->sum - t) + sum + comp;
    else
        c->comp += (sum - t) + c->sum + comp;
    c->sum = t;
    if (c->nfin == 0) {
        c->mean = mean;
        c->m2 = m2;
    } else {
        double na = (double)c->nfin, nb = (double)n, nt = na + nb, delta = mean - c->mean;
        c->mean += delta * (nb / nt);
        c->m2 += m2 + delta * delta * (na * nb / nt);
    }
    c->nfin += n;
}

static void add_moments(struct stats_column *c, size_t n, double k, double sb, double sd,
                        double sq)
{
    double nb = (double)n;
    double mb = k + sd / nb, m2b = sq - sd * (sd / nb);
    if (isinf(sq))
        m2b = sq;   /* squares beyond a double: the std is infinite, as NumPy's */
    else if (m2b < 0)
        m2b = 0;
    stats_join_moments(c, n, sb, 0, mb, m2b);
}

/* Fold the n finite values f[0..n) into the moments of c in one pass:
 * the values, their deviations d from a shift K (the block's first value)
 * and the squares of those, summed in chunks of four lanes whose sums are
 * added pairwise. The block's sum joins the running sum by Neumaier's
 * compensated addition; its sum of squared deviations from its own mean
 * (sum d^2 - (sum d)^2 / n) joins the running one by Chan's combination. */
static void fold_moments(struct stats_column *c, const double *f, size_t n)
{
    if (n == 0)
        return;
    double k = f[0];   /* the shift */
    double cr[STATS_BLOCK / CHUNK + 1], cs[STATS_BLOCK / CHUNK + 1], cq[STATS_BLOCK / CHUNK + 1];
    size_t nc = 0;
    for (size_t i0 = 0; i0 < n; i0 += CHUNK, nc++) {
        size_t end = n - i0 < CHUNK ? n : i0 + CHUNK;
        /* four lanes, two to a vector: lane j takes the values i with
         * i % 4 == j, whatever the width the target gives a vector */
        v2d r01 = {0, 0}, r23 = {0, 0}, s01 = {0, 0}, s23 = {0, 0}, q01 = {0, 0}, q23 = {0, 0};
        v2d kk = {k, k};
        size_t i = i0;
        for (; i + 4 <= end; i += 4) {
            v2d a, b;
            memcpy(&a, f + i, sizeof a);
            memcpy(&b, f + i + 2, sizeof b);
            v2d da = a - kk, db = b - kk;
            r01 += a;
            r23 += b;
            s01 += da;
            s23 += db;
            q01 += da * da;
            q23 += db * db;
        }
        double r0 = r01[0], r1 = r01[1], r2 = r23[0], r3 = r23[1];
        double s0 = s01[0], s1 = s01[1], s2 = s23[0], s3 = s23[1];
        double q0 = q01[0], q1 = q01[1], q2 = q23[0], q3 = q23[1];
        double tr = (r0 + r1) + (r2 + r3), ts = (s0 + s1) + (s2 + s3), tq = (q0 + q1) + (q2 + q3);
        for (; i < end; i++) {
            double d = f[i] - k;
            tr += f[i];
            ts += d;
            tq += d * d;
        }
        cr[nc] = tr;
        cs[nc] = ts;
        cq[nc] = tq;
    }
    stats_moments_end(c, n, k, cr, cs, cq, nc);
}

void stats_moments_end(struct stats_column *c, size_t n, double k, const double *cr,
                       const double *cs, const double *cq, size_t nc)
{
    add_moments(c, n, k, pairwise_sum(cr, nc), pairwise_sum(cs, nc), pairwise_sum(cq, nc));
}

/* ---- order --------------------------------------------------------------- */

/* The order of x[0..k) after *prev (when *have), none of them skipped
 * (so that any two compare as less, equal or greater): the steps up
 * counted without branches, the steps down only when some step is not up,
 * and the level ones the rest. */
#define ORDER_RUN(c, x, k, prev, have, first)                                      \
    do {                                                                           \
        if ((c)->sorted == 0 || (k) == 0)                                          \
            break;                                                                 \
        if (have)                                                                  \
            STATS_ORDER_STEP((c)->sorted, prev, (x)[0]);                           \
        else                                                                       \
            first = (x)[0];                                                        \
        size_t up = 0, down = 0, level;                                            \
        for (size_t o_ = 1; o_ < (k); o_++)                                        \
            up += (x)[o_] > (x)[o_ - 1];                                           \
        if (up < (k) - 1)                                                          \
            for (size_t o_ = 1; o_ < (k); o_++)                                    \
                down += (x)[o_] < (x)[o_ - 1];                                     \
        level = (k) - 1 - up - down;                                               \
        if (down)                                                                  \
            (c)->sorted &= ~(unsigned)(NPYDT_SORTED_ASCENDING | NPYDT_SORTED_STRICTLY_ASCENDING); \
        if (up)                                                                    \
            (c)->sorted &= ~(unsigned)(NPYDT_SORTED_DESCENDING |                   \
                                       NPYDT_SORTED_STRICTLY_DESCENDING);          \
        if (level)                                                                 \
            (c)->sorted &= ~(unsigned)(NPYDT_SORTED_STRICTLY_ASCENDING |           \
                                       NPYDT_SORTED_STRICTLY_DESCENDING);          \
    } while (0)

/* ---- numbers ----------------------------------------------------------------- */

/* The moments of the finite values of x[0..k) folded into c, and (when
 * infs: else there are none) the infinities among the others counted,
 * returning the number of finite ones: the pass of a block that has values that are not finite. As
 * fold_moments, the shift the first finite value, but each value in its
 * place, the others masked to zero (x - x is 0 for a finite x alone). */
static inline __attribute__((always_inline)) size_t
fold_finite(struct stats_column *c, const double *x, size_t k, bool infs, uint64_t *pinf,
            uint64_t *ninf)
{
    size_t first = 0;
    while (first < k && !isfinite(x[first]))
        first++;
    double kf = first < k ? x[first] : 0;
    const v2d zero = {0, 0}, kk = {kf, kf}, inf = {INFINITY, INFINITY};
    v2i nf = {0, 0}, np = {0, 0}, nm = {0, 0};
    double cr[STATS_BLOCK / CHUNK + 1], cs[STATS_BLOCK / CHUNK + 1], cq[STATS_BLOCK / CHUNK + 1];
    size_t nc = 0, tf = 0, tp = 0, tm = 0;
    for (size_t i0 = 0; i0 < k; i0 += CHUNK, nc++) {
        size_t end = k - i0 < CHUNK ? k : i0 + CHUNK;
        v2d r = zero, sd = zero, q = zero;
        size_t i = i0;
        for (; i + 2 <= end; i += 2) {
            v2d a;
            memcpy(&a, x + i, sizeof a);
            v2i m = (v2i)(a - a == zero);
            nf -= m;
            if (infs) {
                np -= (v2i)(a == inf);
                nm -= (v2i)(a == -inf);
            }
            v2d d = (v2d)((v2i)(a - kk) & m);
            r += (v2d)((v2i)a & m);
            sd += d;
            q += d * d;
        }
        double tr = r[0] + r[1], ts = sd[0] + sd[1], tq = q[0] + q[1];
        for (; i < end; i++) {
            double v = x[i];
            tp += v == INFINITY;
            tm += v == -INFINITY;
            if (isfinite(v)) {
                tf++;
                tr += v;
                ts += v - kf;
                tq += (v - kf) * (v - kf);
            }
        }
        cr[nc] = tr;
        cs[nc] = ts;
        cq[nc] = tq;
    }
    tf += (size_t)(nf[0] + nf[1]);
    *pinf = tp + (uint64_t)(np[0] + np[1]);
    *ninf = tm + (uint64_t)(nm[0] + nm[1]);
    if (tf)
        add_moments(c, tf, kf, pairwise_sum(cr, nc), pairwise_sum(cs, nc), pairwise_sum(cq, nc));
    return tf;
}

/* Lane by lane minimum and maximum of two vectors into m: a's where it is
 * below (above) m and m's otherwise, so that a NaN in a never replaces m,
 * as np.nanmin skips it. SSE2's minpd and maxpd are exactly that, one
 * instruction. (Macros: a vector is never passed to or returned from a
 * function, whose ABI differs where the target has no vectors.) */
#if defined(__SSE2__)
#define VMIN_INTO(m, a) ((m) = (v2d)_mm_min_pd((__m128d)(a), (__m128d)(m)))
#define VMAX_INTO(m, a) ((m) = (v2d)_mm_max_pd((__m128d)(a), (__m128d)(m)))
#else
#define VMIN_INTO(m, a)                                                                 \
    do {                                                                                \
        (m)[0] = (a)[0] < (m)[0] ? (a)[0] : (m)[0];                                     \
        (m)[1] = (a)[1] < (m)[1] ? (a)[1] : (m)[1];                                     \
    } while (0)
#define VMAX_INTO(m, a)                                                                 \
    do {                                                                                \
        (m)[0] = (a)[0] > (m)[0] ? (a)[0] : (m)[0];                                     \
        (m)[1] = (a)[1] > (m)[1] ? (a)[1] : (m)[1];                                     \
    } while (0)
#endif

/* The zeros (either sign) among x[0..k). */
static uint64_t count_zeros(const double *x, size_t k)
{
    const v2d zero = {0, 0};
    v2i z = {0, 0}, y = {0, 0};
    size_t i = 0;
    for (; i + 8 <= k; i += 8) {
        v2d a, b, c, d;
        memcpy(&a, x + i, sizeof a);
        memcpy(&b, x + i + 2, sizeof b);
        memcpy(&c, x + i + 4, sizeof c);
        memcpy(&d, x + i + 6, sizeof d);
        z -= (v2i)(a == zero);
        y -= (v2i)(b == zero);
        z -= (v2i)(c == zero);
        y -= (v2i)(d == zero);
    }
    uint64_t n = (uint64_t)(z[0] + z[1] + y[0] + y[1]);
    for (; i < k; i++)
        n += x[i] == 0;
    return n;
}

void stats_block_end(struct stats_column *c, const double *x, size_t k, double kf, double blo,
                     double bhi, uint64_t zeros, const double *cr, const double *cs,
                     const double *cq, size_t nc)
{
    double sb = pairwise_sum(cr, nc), sd = pairwise_sum(cs, nc), sq = pairwise_sum(cq, nc);
    uint64_t nan = 0, pinf = 0, ninf = 0;
    if (isfinite(sb) && isfinite(sd) && isfinite(sq)) {
        add_moments(c, k, kf, sb, sd, sq);
    } else {
        /* the extremes skip NaN alone: infinities are counted only in a
         * block whose extremes are infinite */
        size_t fin = blo == -INFINITY || bhi == INFINITY ? fold_finite(c, x, k, true, &pinf, &ninf)
                                                         : fold_finite(c, x, k, false, &pinf, &ninf);
        nan = k - fin - pinf - ninf;
    }
    c->count += k;
    c->nan += nan;
    c->posinf += pinf;
    c->neginf += ninf;
    c->zeros += zeros;
    c->valid += k - nan;
    c->min_f = blo < c->min_f ? blo : c->min_f;
    c->max_f = bhi > c->max_f ? bhi : c->max_f;
    if (c->part == NPYDT_STATS_VALUE && c->sorted) {
        if (nan == 0) {
            ORDER_RUN(c, x, k, c->prev_f, c->have_prev, c->first_f);
            c->prev_f = x[k - 1];
            c->have_prev = true;
        } else {
            for (size_t t = 0; t < k && c->sorted; t++) {
                if (x[t] != x[t])
                    continue;
                if (c->have_prev)
                    STATS_ORDER_STEP(c->sorted, c->prev_f, x[t]);
                else
                    c->first_f = x[t];
                c->prev_f = x[t];
                c->have_prev = true;
            }
        }
    }
}

void stats_block_extremes(const double *x, size_t k, double *blo, double *bhi)
{
    /* fold_run's two lanes: lane 0 takes the even values of each run of
     * four of a chunk, and the chunk's tail; lane 1 the odd ones */
    double lo0 = INFINITY, lo1 = INFINITY, hi0 = -INFINITY, hi1 = -INFINITY;
    for (size_t i0 = 0; i0 < k; i0 += CHUNK) {
        size_t end = k - i0 < CHUNK ? k : i0 + CHUNK;
        size_t i = i0;
        for (; i + 4 <= end; i += 4)
            for (size_t j = i; j < i + 4; j += 2) {
                double v = x[j], w = x[j + 1];
                lo0 = v < lo0 ? v : lo0;
                hi0 = v > hi0 ? v : hi0;
                lo1 = w < lo1 ? w : lo1;
                hi1 = w > hi1 ? w : hi1;
            }
        for (; i < end; i++) {
            lo0 = x[i] < lo0 ? x[i] : lo0;
            hi0 = x[i] > hi0 ? x[i] : hi0;
        }
    }
    *blo = lo1 < lo0 ? lo1 : lo0;
    *bhi = hi1 > hi0 ? hi1 : hi0;
}

/* Fold k <= STATS_BLOCK values, stride bytes apart from base and read by
 * load_double(kind, swap), into c; they are written to x as they are
 * read (unless kind is STATS_LOAD_GATHER: then base is x, the doubles
 * gathered already, and stride 8), for the passes that need them again. */
static inline __attribute__((always_inline)) void
fold_run(struct stats_column *c, const unsigned char *base, size_t stride, size_t k,
         enum stats_load kind, bool swap, double *x)
{
    if (k == 0)
        return;
    const bool store = kind != STATS_LOAD_GATHER;
#define LOAD_AT(j) stats_load_double(kind, swap, base + (j) * stride)
    /* One pass over the values: the block's extremes in two lanes (a
     * vector), the three sums of the moments in fold_moments' chunks and
     * four lanes (the shift: the first value). A NaN or an infinity makes
     * the sums NaN or infinite: only then (or when finite values overflow
     * them) does a second pass count the kinds of the values that are not
     * finite and sum the finite ones alone. Zeros are counted only in a
     * block whose extremes enclose zero. */
    v2d lo = {INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY};
    const v2d zero = {0, 0};
    double kf = LOAD_AT(0);
    const v2d kk = {kf, kf};
    double cr[STATS_BLOCK / CHUNK + 1], cs[STATS_BLOCK / CHUNK + 1], cq[STATS_BLOCK / CHUNK + 1];
    size_t nc = 0;
    cr[0] = cs[0] = cq[0] = 0;   /* k > 0: written below; said for the compiler */
    for (size_t i0 = 0; i0 < k; i0 += CHUNK, nc++) {
        size_t end = k - i0 < CHUNK ? k : i0 + CHUNK;
        v2d r01 = zero, r23 = zero, s01 = zero, s23 = zero, q01 = zero, q23 = zero;
        size_t i = i0;
        for (; i + 4 <= end; i += 4) {
            v2d a = {LOAD_AT(i), LOAD_AT(i + 1)}, b = {LOAD_AT(i + 2), LOAD_AT(i + 3)};
            if (store) {
                memcpy(x + i, &a, sizeof a);
                memcpy(x + i + 2, &b, sizeof b);
            }
            VMIN_INTO(lo, a);
            VMAX_INTO(hi, a);
            VMIN_INTO(lo, b);
            VMAX_INTO(hi, b);
            v2d da = a - kk, db = b - kk;
            r01 += a;
            r23 += b;
            s01 += da;
            s23 += db;
            q01 += da * da;
            q23 += db * db;
        }
        double tr = (r01[0] + r01[1]) + (r23[0] + r23[1]);
        double ts = (s01[0] + s01[1]) + (s23[0] + s23[1]);
        double tq = (q01[0] + q01[1]) + (q23[0] + q23[1]);
        for (; i < end; i++) {
            double v = LOAD_AT(i), d = v - kf;
            if (store)
                x[i] = v;
            lo[0] = v < lo[0] ? v : lo[0];
            hi[0] = v > hi[0] ? v : hi[0];
            tr += v;
            ts += d;
            tq += d * d;
        }
        cr[nc] = tr;
        cs[nc] = ts;
        cq[nc] = tq;
    }
    double blo = lo[1] < lo[0] ? lo[1] : lo[0], bhi = hi[1] > hi[0] ? hi[1] : hi[0];
    uint64_t zeros = blo <= 0 && bhi >= 0 ? count_zeros(x, k) : 0;
    stats_block_end(c, x, k, kf, blo, bhi, zeros, cr, cs, cq, nc);
}

#undef LOAD_AT

void stats_fold_double(struct stats_column *c, const double *x, size_t k)
{
#if STATS_AVX2
    if (stats_avx2()) {
        stats_fold_load_avx2(c, STATS_LOAD_GATHER, false, (const unsigned char *)x, sizeof *x, k,
                             (double *)x);
        return;
    }
#endif
    stats_fold_double_portable(c, x, k);
}

void stats_fold_double_portable(struct stats_column *c, const double *x, size_t k)
{
    fold_run(c, (const unsigned char *)x, sizeof *x, k, STATS_LOAD_GATHER, false, (double *)x);
}

/* One instance of fold_run per load kind and swap setting. */
#define FOLD_KIND(K)                                                                 \
    case K:                                                                          \
        if (swap)                                                                    \
            fold_run(c, base, stride, k, K, true, x);                                \
        else                                                                         \
            fold_run(c, base, stride, k, K, false, x);                               \
        return

void stats_fold_load(struct stats_column *c, enum stats_load kind, bool swap,
                     const unsigned char *base, size_t stride, size_t k, double *x)
{
#if STATS_AVX2
    if (stats_avx2() && stats_load_doubles(kind)) {
        stats_fold_load_avx2(c, kind, swap, base, stride, k, x);
        return;
    }
#endif
    stats_fold_load_portable(c, kind, swap, base, stride, k, x);
}

void stats_fold_load_portable(struct stats_column *c, enum stats_load kind, bool swap,
                              const unsigned char *base, size_t stride, size_t k, double *x)
{
    switch (kind) {
    FOLD_KIND(STATS_LOAD_F64);
    FOLD_KIND(STATS_LOAD_F32);
    FOLD_KIND(STATS_LOAD_I32);
    FOLD_KIND(STATS_LOAD_I16);
    FOLD_KIND(STATS_LOAD_I8);
    FOLD_KIND(STATS_LOAD_U32);
    FOLD_KIND(STATS_LOAD_U16);
    FOLD_KIND(STATS_LOAD_U8);
    default:
        stats_load(kind, swap, base, stride, k, (unsigned char *)x);
        stats_fold_double_portable(c, x, k);
        return;
    }
}
#undef FOLD_KIND

/* The extremes and zeros of k int64 values stride bytes apart from base
 * (byte swapped by swap) folded into c, and the values as doubles into
 * xd, two lanes of extremes so that the compares do not wait on each
 * other. */
static inline __attribute__((always_inline)) void
int_run(struct stats_column *c, const unsigned char *base, size_t stride, size_t k, bool swap,
        double *xd)
{
    uint64_t zeros = 0;
    int64_t mn0 = c->valid ? c->min_i : INT64_MAX, mx0 = c->valid ? c->max_i : INT64_MIN;
    int64_t mn1 = mn0, mx1 = mx0;
    size_t i = 0;
    for (; i + 2 <= k; i += 2) {
        int64_t v = (int64_t)text_load64(base + i * stride, swap);
        int64_t w = (int64_t)text_load64(base + (i + 1) * stride, swap);
        zeros += v == 0;
        zeros += w == 0;
        mn0 = v < mn0 ? v : mn0;
        mx0 = v > mx0 ? v : mx0;
        mn1 = w < mn1 ? w : mn1;
        mx1 = w > mx1 ? w : mx1;
        xd[i] = (double)v;
        xd[i + 1] = (double)w;
    }
    if (i < k) {
        int64_t v = (int64_t)text_load64(base + i * stride, swap);
        zeros += v == 0;
        mn0 = v < mn0 ? v : mn0;
        mx0 = v > mx0 ? v : mx0;
        xd[i] = (double)v;
    }
    c->count += k;
    c->valid += k;
    c->zeros += zeros;
    c->min_i = mn1 < mn0 ? mn1 : mn0;
    c->max_i = mx1 > mx0 ? mx1 : mx0;
}

void stats_fold_int(struct stats_column *c, const int64_t *x, size_t k, double *scratch)
{
    int_run(c, (const unsigned char *)x, sizeof *x, k, false, scratch);
    ORDER_RUN(c, x, k, c->prev_i, c->have_prev, c->first_i);
    if (k) {
        c->prev_i = x[k - 1];
        c->have_prev = true;
    }
    fold_moments(c, scratch, k);
}

void stats_fold_int_load(struct stats_column *c, bool swap, const unsigned char *base,
                         size_t stride, size_t k, double *scratch)
{
#if STATS_AVX2
    if (stats_avx2()) {
        stats_fold_int_load_avx2(c, swap, base, stride, k);
        return;
    }
#endif
    stats_fold_int_load_portable(c, swap, base, stride, k, scratch);
}

void stats_fold_int_load_portable(struct stats_column *c, bool swap, const unsigned char *base,
                                  size_t stride, size_t k, double *scratch)
{
    if (swap)
        int_run(c, base, stride, k, true, scratch);
    else
        int_run(c, base, stride, k, false, scratch);
    fold_moments(c, scratch, k);
}

void stats_fold_uint(struct stats_column *c, const uint64_t *x, size_t k, double *scratch)
{
    uint64_t zeros = 0;
    uint64_t mn = c->valid ? c->min_u : UINT64_MAX, mx = c->valid ? c->max_u : 0;
    for (size_t i = 0; i < k; i++) {
        uint64_t v = x[i];
        zeros += v == 0;
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
        scratch[i] = (double)v;
    }
    c->count += k;
    c->valid += k;
    c->zeros += zeros;
    c->min_u = mn;
    c->max_u = mx;
    ORDER_RUN(c, x, k, c->prev_u, c->have_prev, c->first_u);
    if (k) {
        c->prev_u = x[k - 1];
        c->have_prev = true;
    }
    fold_moments(c, scratch, k);
}

void stats_fold_time(struct stats_column *c, const int64_t *x, size_t k)
{
    if (k == 0)
        return;
    /* A block that rises strictly from a value that is not NaT (NaT is
     * the least int64: it could only be first) holds no NaT and has its
     * extremes at its ends; a column still in order takes that test
     * first, so that a sorted one is one pass. Otherwise the extremes of
     * all the values, and only when the least is NaT, the NaTs counted
     * and the least of the others. */
    uint64_t nat = 0, zeros = 0;
    int64_t mn, mx;
    if (c->sorted) {
        size_t up = 0;
#if STATS_AVX2
        if (stats_avx2())
            up = stats_count_up_avx2(x, k);
        else
#endif
            for (size_t i = 1; i < k; i++)
                up += x[i] > x[i - 1];
        if (up == k - 1 && x[0] != NPYDT_NAT) {
            if (c->have_prev)
                STATS_ORDER_STEP(c->sorted, c->prev_i, x[0]);
            else
                c->first_i = x[0];
            if (k > 1)
                c->sorted &= ~(unsigned)(NPYDT_SORTED_DESCENDING | NPYDT_SORTED_STRICTLY_DESCENDING);
            c->prev_i = x[k - 1];
            c->have_prev = true;
            if (c->kind == 'm')
                for (size_t i = 0; i < k; i++)
                    zeros += x[i] == 0;
            mn = x[0];
            mx = x[k - 1];
            goto done;
        }
    }
    int64_t mn0 = INT64_MAX, mn1 = INT64_MAX, mx0 = INT64_MIN, mx1 = INT64_MIN;
    size_t i = 0;
    for (; i + 2 <= k; i += 2) {
        int64_t v = x[i], w = x[i + 1];
        mn0 = v < mn0 ? v : mn0;
        mx0 = v > mx0 ? v : mx0;
        mn1 = w < mn1 ? w : mn1;
        mx1 = w > mx1 ? w : mx1;
    }
    if (i < k) {
        mn0 = x[i] < mn0 ? x[i] : mn0;
        mx0 = x[i] > mx0 ? x[i] : mx0;
    }
    mn = mn1 < mn0 ? mn1 : mn0;
    mx = mx1 > mx0 ? mx1 : mx0;   /* NaT is the least int64: never the max */
    if (c->kind == 'm')
        for (i = 0; i < k; i++)
            zeros += x[i] == 0;
    if (mn == NPYDT_NAT) {
        mn = INT64_MAX;
        for (i = 0; i < k; i++) {
            bool is_nat = x[i] == NPYDT_NAT;
            nat += is_nat;
            mn = x[i] < mn && !is_nat ? x[i] : mn;
        }
    }
    if (nat == 0) {
        ORDER_RUN(c, x, k, c->prev_i, c->have_prev, c->first_i);
        c->prev_i = x[k - 1];
        c->have_prev = true;
    } else {
        for (i = 0; i < k && c->sorted; i++) {
            if (x[i] == NPYDT_NAT)
                continue;
            if (c->have_prev)
                STATS_ORDER_STEP(c->sorted, c->prev_i, x[i]);
            else
                c->first_i = x[i];
            c->prev_i = x[i];
            c->have_prev = true;
        }
    }
done:
    if (nat < k) {
        c->min_i = c->valid && c->min_i < mn ? c->min_i : mn;
        c->max_i = c->valid && c->max_i > mx ? c->max_i : mx;
    }
    c->count += k;
    c->nat += nat;
    c->zeros += zeros;
    c->valid += k - nat;
}

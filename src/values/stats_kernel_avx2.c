/* The AVX2 instance of the numeric block kernel (fold_run in
 * stats_kernel.c), built with the target attribute and run only on a
 * processor that has AVX2: the same four lanes (lane j takes the values
 * i with i % 4 == j of each chunk's runs of four), the same chunks, shift
 * and order of additions, in one 256-bit vector where the portable kernel
 * takes two of 128 bits, so that the sums are equal bit for bit. The
 * extremes are equal too, but for the sign of a zero (which of -0.0 and
 * 0.0 is kept depends on the order the values are met): a block of
 * floats whose extreme is a zero takes them again in the portable
 * kernel's lanes. Zeros are counted in the same pass. */
#include "values/values.h"

#if STATS_AVX2

#include <immintrin.h>
#include <math.h>

#define AVX2 __attribute__((target("avx2")))

typedef double v4d __attribute__((vector_size(32)));
typedef int64_t v4i __attribute__((vector_size(32)));

/* Values a chunk holds (fold_run's CHUNK). */
#define CHUNK 128

bool stats_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}

static inline __attribute__((always_inline)) AVX2 void
fold_run(struct stats_column *c, const unsigned char *base, size_t stride, size_t k,
         enum stats_load kind, bool swap, double *x)
{
    if (k == 0)
        return;
    const bool store = kind != STATS_LOAD_GATHER;
#define LOAD_AT(j) stats_load_double(kind, swap, base + (j) * stride)
    const v4d zero = {0, 0, 0, 0};
    v4d lo = {INFINITY, INFINITY, INFINITY, INFINITY};
    v4d hi = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    v4i nz = {0, 0, 0, 0};
    double kf = LOAD_AT(0);
    const v4d kk = {kf, kf, kf, kf};
    double cr[STATS_BLOCK / CHUNK + 1], cs[STATS_BLOCK / CHUNK + 1], cq[STATS_BLOCK / CHUNK + 1];
    size_t nc = 0;
    uint64_t zeros = 0;
    cr[0] = cs[0] = cq[0] = 0;   /* k > 0: written below; said for the compiler */
    for (size_t i0 = 0; i0 < k; i0 += CHUNK, nc++) {
        size_t end = k - i0 < CHUNK ? k : i0 + CHUNK;
        v4d r = zero, s = zero, q = zero;
        size_t i = i0;
        for (; i + 4 <= end; i += 4) {
            v4d a;
            if (store) {
                a = (v4d){LOAD_AT(i), LOAD_AT(i + 1), LOAD_AT(i + 2), LOAD_AT(i + 3)};
                memcpy(x + i, &a, sizeof a);
            } else {
                memcpy(&a, x + i, sizeof a);
            }
            lo = (v4d)_mm256_min_pd((__m256d)a, (__m256d)lo);
            hi = (v4d)_mm256_max_pd((__m256d)a, (__m256d)hi);
            nz -= (v4i)(a == zero);
            v4d d = a - kk;
            r += a;
            s += d;
            q += d * d;
        }
        double tr = (r[0] + r[1]) + (r[2] + r[3]);
        double ts = (s[0] + s[1]) + (s[2] + s[3]);
        double tq = (q[0] + q[1]) + (q[2] + q[3]);
        for (; i < end; i++) {
            double v = LOAD_AT(i), d = v - kf;
            if (store)
                x[i] = v;
            lo[0] = v < lo[0] ? v : lo[0];
            hi[0] = v > hi[0] ? v : hi[0];
            zeros += v == 0;
            tr += v;
            ts += d;
            tq += d * d;
        }
        cr[nc] = tr;
        cs[nc] = ts;
        cq[nc] = tq;
    }
#undef LOAD_AT
    double l01 = lo[1] < lo[0] ? lo[1] : lo[0], l23 = lo[3] < lo[2] ? lo[3] : lo[2];
    double h01 = hi[1] > hi[0] ? hi[1] : hi[0], h23 = hi[3] > hi[2] ? hi[3] : hi[2];
    double blo = l23 < l01 ? l23 : l01, bhi = h23 > h01 ? h23 : h01;
    bool floats = kind == STATS_LOAD_F64 || kind == STATS_LOAD_F32 || kind == STATS_LOAD_GATHER;
    if (floats && (blo == 0 || bhi == 0))
        stats_block_extremes(x, k, &blo, &bhi);
    zeros += (uint64_t)(nz[0] + nz[1] + nz[2] + nz[3]);
    stats_block_end(c, x, k, kf, blo, bhi, zeros, cr, cs, cq, nc);
}

/* One instance of fold_run per load kind and swap setting. */
#define FOLD_KIND(K)                                                                 \
    case K:                                                                          \
        if (swap)                                                                    \
            fold_run(c, base, stride, k, K, true, x);                                \
        else                                                                         \
            fold_run(c, base, stride, k, K, false, x);                               \
        return

AVX2 void stats_fold_load_avx2(struct stats_column *c, enum stats_load kind, bool swap,
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
        fold_run(c, base, sizeof(double), k, STATS_LOAD_GATHER, false, x);
        return;
    }
}
#undef FOLD_KIND

/* int_run and fold_moments of stats_kernel.c in one pass: the extremes
 * and zeros of k int64 values stride bytes apart from base (byte swapped
 * by swap), and their moments as doubles in fold_moments' lanes. */
static inline __attribute__((always_inline)) AVX2 void
int_run(struct stats_column *c, const unsigned char *base, size_t stride, size_t k, bool swap)
{
    if (k == 0)
        return;
#define LOAD_AT(j) ((int64_t)text_load64(base + (j) * stride, swap))
    const v4d zero = {0, 0, 0, 0};
    const v4i izero = {0, 0, 0, 0};
    int64_t mn0 = c->valid ? c->min_i : INT64_MAX, mx0 = c->valid ? c->max_i : INT64_MIN;
    v4i mn = {mn0, mn0, mn0, mn0}, mx = {mx0, mx0, mx0, mx0}, nz = izero;
    double kf = (double)LOAD_AT(0);
    const v4d kk = {kf, kf, kf, kf};
    double cr[STATS_BLOCK / CHUNK + 1], cs[STATS_BLOCK / CHUNK + 1], cq[STATS_BLOCK / CHUNK + 1];
    size_t nc = 0;
    uint64_t zeros = 0;
    cr[0] = cs[0] = cq[0] = 0;   /* k > 0: written below; said for the compiler */
    for (size_t i0 = 0; i0 < k; i0 += CHUNK, nc++) {
        size_t end = k - i0 < CHUNK ? k : i0 + CHUNK;
        v4d r = zero, s = zero, q = zero;
        size_t i = i0;
        for (; i + 4 <= end; i += 4) {
            int64_t v0 = LOAD_AT(i), v1 = LOAD_AT(i + 1), v2 = LOAD_AT(i + 2), v3 = LOAD_AT(i + 3);
            v4i a = {v0, v1, v2, v3};
            mn = (v4i)_mm256_blendv_epi8((__m256i)mn, (__m256i)a, (__m256i)(mn > a));
            mx = (v4i)_mm256_blendv_epi8((__m256i)mx, (__m256i)a, (__m256i)(a > mx));
            nz -= a == izero;
            v4d f = {(double)v0, (double)v1, (double)v2, (double)v3};
            v4d d = f - kk;
            r += f;
            s += d;
            q += d * d;
        }
        double tr = (r[0] + r[1]) + (r[2] + r[3]);
        double ts = (s[0] + s[1]) + (s[2] + s[3]);
        double tq = (q[0] + q[1]) + (q[2] + q[3]);
        for (; i < end; i++) {
            int64_t v = LOAD_AT(i);
            double f = (double)v, d = f - kf;
            zeros += v == 0;
            mn[0] = v < mn[0] ? v : mn[0];
            mx[0] = v > mx[0] ? v : mx[0];
            tr += f;
            ts += d;
            tq += d * d;
        }
        cr[nc] = tr;
        cs[nc] = ts;
        cq[nc] = tq;
    }
#undef LOAD_AT
    int64_t m01 = mn[1] < mn[0] ? mn[1] : mn[0], m23 = mn[3] < mn[2] ? mn[3] : mn[2];
    int64_t x01 = mx[1] > mx[0] ? mx[1] : mx[0], x23 = mx[3] > mx[2] ? mx[3] : mx[2];
    c->count += k;
    c->valid += k;
    c->zeros += zeros + (uint64_t)(nz[0] + nz[1] + nz[2] + nz[3]);
    c->min_i = m23 < m01 ? m23 : m01;
    c->max_i = x23 > x01 ? x23 : x01;
    stats_moments_end(c, k, kf, cr, cs, cq, nc);
}

AVX2 void stats_fold_int_load_avx2(struct stats_column *c, bool swap, const unsigned char *base,
                                   size_t stride, size_t k)
{
    if (swap)
        int_run(c, base, stride, k, true);
    else
        int_run(c, base, stride, k, false);
}

AVX2 size_t stats_count_up_avx2(const int64_t *x, size_t k)
{
    v4i up = {0, 0, 0, 0};
    size_t i = 1;
    for (; i + 4 <= k; i += 4) {
        v4i a, b;
        memcpy(&a, x + i, sizeof a);
        memcpy(&b, x + i - 1, sizeof b);
        up -= a > b;
    }
    size_t n = (size_t)(up[0] + up[1] + up[2] + up[3]);
    for (; i < k; i++)
        n += x[i] > x[i - 1];
    return n;
}

#else
/* Not built for this target: the portable kernel runs everywhere. */
typedef int stats_kernel_avx2_unused;
#endif

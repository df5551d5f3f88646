/* The byte shuffles of the swap plan (swap.c) where the CPU has SSSE3's
 * pshufb: a 16-byte window of a record swapped in one instruction, a
 * dense run of units 16 bytes a shuffle, and the record program: every
 * window of a record loaded, shuffled and stored back in one pass over
 * the records, so that the records stream through once while the
 * shuffles of one record overlap the loads of the next. x86-64 itself
 * only promises SSE2, so the CPU is asked when a plan is built; elsewhere
 * these are stubs and the plan runs its plain loops. */
#include "records/records.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#include <tmmintrin.h>

bool swap_simd_available(void)
{
    return __builtin_cpu_supports("ssse3");
}

__attribute__((target("ssse3")))
void swap_run_windows(const struct swap_window *w, size_t nw, unsigned char *base, uint64_t nrec,
                      size_t stride)
{
    for (size_t k = 0; k < nw; k++) {
        __m128i m = _mm_loadu_si128((const __m128i *)(const void *)w[k].mask);
        unsigned char *p = base + w[k].off;
        for (uint64_t r = 0; r < nrec; r++, p += stride) {
            __m128i v = _mm_loadu_si128((const __m128i *)(void *)p);
            _mm_storeu_si128((__m128i *)(void *)p, _mm_shuffle_epi8(v, m));
        }
    }
}

__attribute__((target("ssse3")))
size_t swap_dense_windows(unsigned char *dst, const unsigned char *src, size_t n, uint32_t unit)
{
    unsigned char mask[16];
    for (unsigned b = 0; b < 16; b++)
        mask[b] = (unsigned char)(b / unit * unit + unit - 1 - b % unit);
    __m128i m = _mm_loadu_si128((const __m128i *)(const void *)mask);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(src + i));
        _mm_storeu_si128((__m128i *)(void *)(dst + i), _mm_shuffle_epi8(v, m));
    }
    return i;
}

/* One record program of NW windows: all NW loads (the record as it was),
 * NW shuffles, then the stores in window order. The steps are written
 * out (a constant REC_NW folds the ifs away), so that the masks and the
 * values stay in registers. */
#define REC_LOAD(k)                                                                      \
    if (REC_NW > k)                                                                          \
        v##k = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + o##k)), \
                                m##k);
#define REC_STORE(k)                                                                     \
    if (REC_NW > k)                                                                          \
        _mm_storeu_si128((__m128i *)(void *)(p + o##k), v##k);
#define REC_SETUP(k)                                                                     \
    size_t o##k = REC_NW > k ? (size_t)rc->w[k].off : 0;                                    \
    __m128i m##k = _mm_loadu_si128((const __m128i *)(const void *)rc->w[REC_NW > k ? k : 0].mask); \
    __m128i v##k = m##k;

#define DEFINE_REC_RUN(NAME, NW)                                                         \
    __attribute__((target("ssse3")))                                                     \
    static void NAME(const struct swap_rec *rc, unsigned char *p, uint64_t nrec,         \
                     size_t stride)                                                      \
    {                                                                                    \
        enum { REC_NW = NW };                                                            \
        REC_SETUP(0) REC_SETUP(1) REC_SETUP(2) REC_SETUP(3)                              \
        REC_SETUP(4) REC_SETUP(5) REC_SETUP(6) REC_SETUP(7)                              \
        for (uint64_t r = 0; r < nrec; r++, p += stride) {                               \
            REC_LOAD(0) REC_LOAD(1) REC_LOAD(2) REC_LOAD(3)                              \
            REC_LOAD(4) REC_LOAD(5) REC_LOAD(6) REC_LOAD(7)                              \
            REC_STORE(0) REC_STORE(1) REC_STORE(2) REC_STORE(3)                          \
            REC_STORE(4) REC_STORE(5) REC_STORE(6) REC_STORE(7)                          \
        }                                                                                \
    }

DEFINE_REC_RUN(rec_run1, 1)
DEFINE_REC_RUN(rec_run2, 2)
DEFINE_REC_RUN(rec_run3, 3)
DEFINE_REC_RUN(rec_run4, 4)
DEFINE_REC_RUN(rec_run5, 5)
DEFINE_REC_RUN(rec_run6, 6)
DEFINE_REC_RUN(rec_run7, 7)
DEFINE_REC_RUN(rec_run8, 8)

void swap_rec_run(const struct swap_rec *rc, unsigned char *base, uint64_t nrec, size_t stride)
{
    switch (rc->nw) {
    case 1: rec_run1(rc, base, nrec, stride); break;
    case 2: rec_run2(rc, base, nrec, stride); break;
    case 3: rec_run3(rc, base, nrec, stride); break;
    case 4: rec_run4(rc, base, nrec, stride); break;
    case 5: rec_run5(rc, base, nrec, stride); break;
    case 6: rec_run6(rc, base, nrec, stride); break;
    case 7: rec_run7(rc, base, nrec, stride); break;
    default: rec_run8(rc, base, nrec, stride); break;
    }
}
#else
bool swap_simd_available(void)
{
    return false;
}

void swap_run_windows(const struct swap_window *w, size_t nw, unsigned char *base, uint64_t nrec,
                      size_t stride)
{
    (void)w, (void)nw, (void)base, (void)nrec, (void)stride;
}

size_t swap_dense_windows(unsigned char *dst, const unsigned char *src, size_t n, uint32_t unit)
{
    (void)dst, (void)src, (void)n, (void)unit;
    return 0;
}

void swap_rec_run(const struct swap_rec *rc, unsigned char *base, uint64_t nrec, size_t stride)
{
    (void)rc, (void)base, (void)nrec, (void)stride;
}
#endif

/* Is byte x of window w (at off) the last store to x? Only if no later
 * window covers it. */
static bool covered_later(const struct swap_window *w, size_t k, size_t nw, uint64_t x)
{
    for (size_t j = k + 1; j < nw; j++)
        if (w[j].off <= x && x < w[j].off + 16)
            return true;
    return false;
}

bool swap_rec_make(struct swap_rec *rc, const struct swap_window *w, size_t nw,
                   uint64_t (*source)(const void *ctx, uint64_t x), const void *ctx)
{
    rc->nw = 0;
    if (nw == 0 || nw > SWAP_REC_WINDOWS || !swap_simd_available())
        return false;
    /* Every window reads the record as it was, not as an earlier window
     * left it: each byte takes its source byte from the window's own
     * load where that holds it. The byte a record ends with is the last
     * store's; it must be right there (a unit straddling that window's
     * edge, a clamped last window over units of an earlier one: no). */
    for (size_t k = 0; k < nw; k++) {
        rc->w[k].off = w[k].off;
        for (unsigned b = 0; b < 16; b++) {
            uint64_t x = w[k].off + b, s = source(ctx, x);
            bool inside = s >= w[k].off && s < w[k].off + 16;
            rc->w[k].mask[b] = (unsigned char)(inside ? s - w[k].off : b);
            if (!inside && !covered_later(w, k, nw, x))
                return false;
        }
    }
    rc->nw = (uint32_t)nw;
    return true;
}

/* The loads of the statistics plan: the values of a leaf whose kind,
 * size and byte order are known when the accumulator is made, read from
 * records (or subarray elements) stride bytes apart into a tile, in one
 * tight loop per kind with the byte swap decided outside it. They give
 * exactly what npydt_gather gives for the same conversion (integers below
 * 8 bytes as the doubles of those int64, which hold them exactly, so that
 * the float kernel folds them); what they do
 * not cover (bool, float16, complex, U, V) is left to npydt_gather; the
 * bytes of S are folded where they are, without a copy. */
#include "values/values.h"

/* One loop per swap setting, so that the test is not in the loop, two
 * values a step: for i in [0, n), LOAD(p, swap) of the element at
 * p = base + i * stride into out[i]. */
#define LOAD_RUN(T, LOAD, SWAP)                                              \
    do {                                                                     \
        T *o_ = (T *)(void *)out;                                            \
        const unsigned char *p = base;                                       \
        size_t i = 0;                                                        \
        for (; i + 2 <= n; i += 2, p += 2 * stride) {                        \
            o_[i] = LOAD(p, SWAP);                                           \
            o_[i + 1] = LOAD(p + stride, SWAP);                              \
        }                                                                    \
        if (i < n)                                                           \
            o_[i] = LOAD(p, SWAP);                                           \
    } while (0)
#define LOAD_LOOP(T, LOAD)                                                   \
    do {                                                                     \
        if (swap)                                                            \
            LOAD_RUN(T, LOAD, true);                                         \
        else                                                                 \
            LOAD_RUN(T, LOAD, false);                                        \
    } while (0)

#define F64(p, s) text_f64_of_bits(text_load64(p, s))
#define F32(p, s) (double)text_f32_of_bits(text_load32(p, s))
#define I64(p, s) (int64_t)text_load64(p, s)
#define I32(p, s) (double)(int32_t)text_load32(p, s)
#define I16(p, s) (double)(int16_t)text_load16(p, s)
#define I8(p, s) ((void)(s), (double)(int8_t)(p)[0])
#define U32(p, s) (double)text_load32(p, s)
#define U16(p, s) (double)text_load16(p, s)
#define U8(p, s) ((void)(s), (double)(p)[0])
#define UU64(p, s) text_load64(p, s)

enum stats_load stats_load_kind(const npydt_leaf *l, npydt_convert as)
{
    size_t isz = l->itemsize;
    switch (l->kind) {
    case 'f':
        return as != NPYDT_AS_DOUBLE ? STATS_LOAD_GATHER
               : isz == 8            ? STATS_LOAD_F64
               : isz == 4            ? STATS_LOAD_F32
                                     : STATS_LOAD_GATHER;
    case 'M': case 'm':
        return as == NPYDT_AS_INT64 && isz == 8 ? STATS_LOAD_I64 : STATS_LOAD_GATHER;
    case 'i':
        return as != NPYDT_AS_INT64 ? STATS_LOAD_GATHER
               : isz == 8           ? STATS_LOAD_I64
               : isz == 4           ? STATS_LOAD_I32
               : isz == 2           ? STATS_LOAD_I16
               : isz == 1           ? STATS_LOAD_I8
                                    : STATS_LOAD_GATHER;
    case 'u':
        if (as == NPYDT_AS_NATIVE && isz == 8)
            return STATS_LOAD_U64;
        return as != NPYDT_AS_INT64 ? STATS_LOAD_GATHER
               : isz == 4           ? STATS_LOAD_U32
               : isz == 2           ? STATS_LOAD_U16
               : isz == 1           ? STATS_LOAD_U8
                                    : STATS_LOAD_GATHER;
    case 'S':
        return STATS_LOAD_BYTES;
    default:
        return STATS_LOAD_GATHER;
    }
}

void stats_load(enum stats_load kind, bool swap, const unsigned char *base, size_t stride,
                size_t n, unsigned char *out)
{
    switch (kind) {
    case STATS_LOAD_F64: LOAD_LOOP(double, F64); return;
    case STATS_LOAD_F32: LOAD_LOOP(double, F32); return;
    case STATS_LOAD_I64: LOAD_LOOP(int64_t, I64); return;
    case STATS_LOAD_I32: LOAD_LOOP(double, I32); return;
    case STATS_LOAD_I16: LOAD_LOOP(double, I16); return;
    case STATS_LOAD_I8: LOAD_LOOP(double, I8); return;
    case STATS_LOAD_U32: LOAD_LOOP(double, U32); return;
    case STATS_LOAD_U16: LOAD_LOOP(double, U16); return;
    case STATS_LOAD_U8: LOAD_LOOP(double, U8); return;
    case STATS_LOAD_U64: LOAD_LOOP(uint64_t, UU64); return;
    case STATS_LOAD_BYTES:   /* folded where they are */
    case STATS_LOAD_GATHER:
        return;
    }
}

bool stats_load_doubles(enum stats_load kind)
{
    return kind == STATS_LOAD_F64 || kind == STATS_LOAD_F32 || kind == STATS_LOAD_I32 ||
           kind == STATS_LOAD_I16 || kind == STATS_LOAD_I8 || kind == STATS_LOAD_U32 ||
           kind == STATS_LOAD_U16 || kind == STATS_LOAD_U8;
}

/* The hot rules of a field counted where the records are: its bounds,
 * nan, inf and nat rules fused into one pass over a chunk of records,
 * each element loaded once at its offset with its width and byte order
 * known ahead (swapped on load when stored in the other order). The pass
 * screens the chunk without branches (least and greatest elements, the
 * sum of floats, NaT counted), and only a chunk the screen cannot clear
 * is counted again exactly, against bounds made inclusive in the field's
 * domain, one counter per rule. One loop per kind, width, order and set
 * of tests, chosen when the check starts. Where a count is not zero and
 * the rule's first elements are still wanted, the caller gathers the
 * chunk and finds them with the general loops, which count the same, as
 * the tests compare. */
#include "values/values.h"

#include "records/records.h"

#include <math.h>

/* The rules a pass counts, as bits of rule_fused.want. */
#define W_LO 1u
#define W_HI 2u
#define W_NAN 4u
#define W_INF 8u
#define W_RANGE (W_LO | W_HI | W_INF)   /* the float screen's least and greatest */

/* A rule of a hot kind whose field can be fused. */
static int rule_slot(const struct rule_target *t, const struct rule *r)
{
    char k = t->scalar->kind;
    switch (r->op) {
    case RULE_MIN: case RULE_EXCLUSIVE_MIN: return FUSE_LO;
    case RULE_MAX: case RULE_EXCLUSIVE_MAX: return FUSE_HI;
    case RULE_NAN: return k == 'f' ? FUSE_NAN : -1;
    case RULE_INF: return k == 'f' ? FUSE_INF : -1;
    case RULE_NAT: return k == 'M' || k == 'm' ? FUSE_NAN : -1;
    default: return -1;
    }
}

static bool fusable_scalar(const npydt_dtype *s)
{
    switch (s->kind) {
    case 'f': return s->itemsize == 4 || s->itemsize == 8;
    case 'i': return s->itemsize == 1 || s->itemsize == 2 || s->itemsize == 4 ||
                     s->itemsize == 8;
    case 'M': case 'm': return s->itemsize == 8;
    case 'u': return s->itemsize == 1 || s->itemsize == 2 || s->itemsize == 4 ||
                     s->itemsize == 8;
    default: return false;
    }
}

/* Bound r of a float field as an inclusive one: bad when x < lo (x > hi).
 * False when no double can say it (an exclusive bound at the infinity on
 * its side: every number breaks it). */
static bool float_bound(const struct rule *r, double *out)
{
    double d = r->v.d;
    switch (r->op) {
    case RULE_MIN: *out = d; return true;
    case RULE_MAX: *out = d; return true;
    case RULE_EXCLUSIVE_MIN:   /* x <= d is x < the next double up */
        if (d == HUGE_VAL)
            return false;
        *out = nextafter(d, HUGE_VAL);
        return true;
    default:                   /* exclusive max: x >= d is x > the next one down */
        if (d == -HUGE_VAL)
            return false;
        *out = nextafter(d, -HUGE_VAL);
        return true;
    }
}

/* Bound r of an integer field (inclusive already) into *lo or *hi; false
 * when the sentinel a missing bound uses would be a value of the field
 * (a bound no value passes, on an 8-byte field). */
static bool int_bound(const struct rule_target *t, const struct rule *r, struct rule_fused *f,
                      bool lower)
{
    bool wide = t->scalar->itemsize == 8;
    if (r->reach == BOUND_NONE) {
        if (wide)
            return false;
        if (lower)
            f->lo_i = INT64_MAX;    /* every narrow value is below it */
        else
            f->hi_i = INT64_MIN;
        return true;
    }
    if (t->dom == DOM_UINT) {
        if (lower)
            f->lo_u = r->v.u;
        else
            f->hi_u = r->v.u;
    } else if (lower) {
        f->lo_i = r->v.i;
    } else {
        f->hi_i = r->v.i;
    }
    return true;
}

void rule_fuse(const npydt_rules *rs, size_t target, struct rule_fused *f, unsigned char *how)
{
    const struct rule_target *t = &rs->targets[target];
    const npydt_dtype *s = t->scalar;
    memset(f, 0, sizeof *f);
    for (int k = 0; k < FUSE_NSLOTS; k++)
        f->rule[k] = SIZE_MAX;
    f->lo_d = -HUGE_VAL;
    f->hi_d = HUGE_VAL;
    f->lo_i = INT64_MIN;
    f->hi_i = INT64_MAX;
    f->lo_u = 0;
    f->hi_u = UINT64_MAX;
    /* 'f' float, 'i' signed or time, 'u' unsigned below 8 bytes, 'U' u8 */
    f->kind = s->kind == 'f' ? 'f' : t->dom == DOM_UINT ? 'U' : s->kind == 'u' ? 'u' : 'i';
    f->width = (unsigned char)s->itemsize;
    f->swap = text_order_swaps(s->byteorder);
    f->time = s->kind == 'M' || s->kind == 'm';
    if (t->gather_size == 0 || !fusable_scalar(s))
        return;
    for (size_t i = t->first_rule; i < t->first_rule + t->nrules; i++) {
        const struct rule *r = &rs->rules[i];
        int slot = rule_slot(t, r);
        if (!r->active || slot < 0 || f->rule[slot] != SIZE_MAX)
            continue;
        bool bound = slot == FUSE_LO || slot == FUSE_HI;
        if (bound && r->reach == BOUND_ALL) {   /* nothing breaks it: nothing to count */
            how[i] = FUSE_NOTHING;
            continue;
        }
        if (bound && f->kind == 'f' &&
            !float_bound(r, slot == FUSE_LO ? &f->lo_d : &f->hi_d))
            continue;
        if (bound && f->kind != 'f' && !int_bound(t, r, f, slot == FUSE_LO))
            continue;
        f->rule[slot] = i;
        f->want |= slot == FUSE_LO ? W_LO : slot == FUSE_HI ? W_HI : slot == FUSE_NAN ? W_NAN
                                                                      : W_INF;
        how[i] = (unsigned char)(slot + 1);
    }
    f->alone = true;
    for (size_t i = t->first_rule; i < t->first_rule + t->nrules; i++)
        if (rs->rules[i].active && how[i] == 0)
            f->alone = false;
}

/* ---- the loads ------------------------------------------------------------ */

#define LOADS(NAME, SWAP)                                                                  \
    static inline double NAME##_f8(const unsigned char *p)                                 \
    {                                                                                      \
        return text_f64_of_bits(text_load64(p, SWAP));                                     \
    }                                                                                      \
    static inline float NAME##_f4(const unsigned char *p)                                  \
    {                                                                                      \
        return text_f32_of_bits(text_load32(p, SWAP));                                     \
    }                                                                                      \
    static inline int64_t NAME##_i2(const unsigned char *p)                                \
    {                                                                                      \
        uint16_t u = text_load16(p, SWAP);                                                 \
        int16_t v;                                                                         \
        memcpy(&v, &u, 2);                                                                 \
        return v;                                                                          \
    }                                                                                      \
    static inline int64_t NAME##_i4(const unsigned char *p)                                \
    {                                                                                      \
        uint32_t u = text_load32(p, SWAP);                                                 \
        int32_t v;                                                                         \
        memcpy(&v, &u, 4);                                                                 \
        return v;                                                                          \
    }                                                                                      \
    static inline int64_t NAME##_i8(const unsigned char *p)                                \
    {                                                                                      \
        uint64_t u = text_load64(p, SWAP);                                                 \
        int64_t v;                                                                         \
        memcpy(&v, &u, 8);                                                                 \
        return v;                                                                          \
    }                                                                                      \
    static inline int64_t NAME##_u2(const unsigned char *p) { return text_load16(p, SWAP); } \
    static inline int64_t NAME##_u4(const unsigned char *p) { return text_load32(p, SWAP); } \
    static inline uint64_t NAME##_u8(const unsigned char *p) { return text_load64(p, SWAP); }

LOADS(host, false)
LOADS(swapped, true)

static inline int64_t load_i1(const unsigned char *p)
{
    int8_t v;
    memcpy(&v, p, 1);
    return v;
}

static inline int64_t load_u1(const unsigned char *p) { return *p; }

/* ---- the passes ----------------------------------------------------------- */

/* Every element of the n records (elems of them, SIZE bytes each, in a
 * record), P its address: BODY once per element, four records a turn
 * where a record has one, in lanes L 0 to 3 (accumulators indexed by the
 * lane run side by side). */
#define LANE(N, BODY)                                                                      \
    {                                                                                      \
        const int L = N;                                                                   \
        const unsigned char *P = q + (N) * stride;                                         \
        BODY                                                                               \
    }
#define EACH(SIZE, BODY)                                                                   \
    do {                                                                                   \
        if (elems == 1) {                                                                  \
            size_t i = 0;                                                                  \
            for (; i + 4 <= n; i += 4) {                                                   \
                const unsigned char *q = rec + i * stride;                                 \
                LANE(0, BODY) LANE(1, BODY) LANE(2, BODY) LANE(3, BODY)                    \
            }                                                                              \
            for (; i < n; i++) {                                                           \
                const unsigned char *q = rec + i * stride;                                 \
                LANE(0, BODY)                                                              \
            }                                                                              \
        } else {                                                                           \
            for (size_t i = 0; i < n; i++)                                                 \
                for (uint64_t e = 0; e < elems; e++) {                                     \
                    const unsigned char *q = rec + i * stride + (size_t)e * (SIZE);        \
                    LANE(0, BODY)                                                          \
                }                                                                          \
        }                                                                                  \
    } while (0)

/* A float field, X the element as loaded, V as a double (exactly): the
 * elements that break each slot's rule counted. */
#define FLOAT_PASS(T, LOAD, SIZE)                                                          \
    EACH(SIZE, {                                                                           \
        T X = LOAD(P);                                                                     \
        double V = X;                                                                      \
        (void)L;                                                                           \
        lo += V < lo_d;                                                                    \
        hi += V > hi_d;                                                                    \
        nan += X != X;                                                                     \
        inf += fabs(V) == HUGE_VAL;                                                        \
    })

/* The screen of a float field: the sum of its elements, which is NaN
 * when one is (an infinity may make it so too), and, when a bound or inf
 * is wanted, its least and greatest elements (which a NaN may spoil: the
 * sum tells). The chunk is counted, exactly, only when the sum is NaN,
 * the least and greatest reach past a bound or an infinity is wanted and
 * found: a chunk that breaks no rule costs an add (and a min and a max). */
#define FLOAT_SCREEN(T, LOAD, SIZE, RANGE)                                                 \
    EACH(SIZE, {                                                                           \
        T X = LOAD(P);                                                                     \
        sum[L] += X;                                                                       \
        if (RANGE) {                                                                       \
            mn[L] = mn[L] < X ? mn[L] : X;                                                 \
            mx[L] = mx[L] > X ? mx[L] : X;                                                 \
        }                                                                                  \
    })

#define FLOAT_RUN(T, LOAD, SIZE)                                                           \
    do {                                                                                   \
        T mn[4] = {(T)HUGE_VAL, (T)HUGE_VAL, (T)HUGE_VAL, (T)HUGE_VAL};                    \
        T mx[4] = {(T)-HUGE_VAL, (T)-HUGE_VAL, (T)-HUGE_VAL, (T)-HUGE_VAL};                \
        T sum[4] = {0, 0, 0, 0};                                                           \
        if (f->want & W_RANGE)                                                             \
            FLOAT_SCREEN(T, LOAD, SIZE, true);                                             \
        else                                                                               \
            FLOAT_SCREEN(T, LOAD, SIZE, false);                                            \
        T least = mn[0], most = mx[0], total = sum[0] + sum[1] + sum[2] + sum[3];          \
        for (int k = 1; k < 4; k++) {                                                      \
            least = mn[k] < least ? mn[k] : least;                                         \
            most = mx[k] > most ? mx[k] : most;                                            \
        }                                                                                  \
        if (total != total || least < f->lo_d || most > f->hi_d ||                         \
            ((f->want & W_INF) && (least == (T)-HUGE_VAL || most == (T)HUGE_VAL)))        \
            FLOAT_PASS(T, LOAD, SIZE);                                                     \
    } while (0)

/* An integer field as T (int64 or uint64): the elements below lo_v and
 * above hi_v counted, NaT too for times (NaT counts as below). */
#define INT_PASS(T, LOAD, SIZE, TIME)                                                      \
    EACH(SIZE, {                                                                           \
        T V = LOAD(P);                                                                     \
        (void)L;                                                                           \
        lo += V < lo_v;                                                                    \
        hi += V > hi_v;                                                                    \
        if (TIME)                                                                          \
            nan += V == (T)INT64_MIN;                                                      \
    })

/* Its screen: the least (but NaT) and greatest values, as the bounds
 * want (LO, HI), NaT counted for times. */
#define INT_SCREEN(T, LOAD, SIZE, TIME, LO, HI)                                            \
    EACH(SIZE, {                                                                           \
        T V = LOAD(P);                                                                     \
        if (TIME)                                                                          \
            nan += V == (T)INT64_MIN;                                                      \
        if ((LO) && (TIME))                                                                \
            mn[L] = V < mn[L] && V != (T)INT64_MIN ? V : mn[L];                            \
        else if (LO)                                                                       \
            mn[L] = V < mn[L] ? V : mn[L];                                                 \
        if (HI)                                                                            \
            mx[L] = V > mx[L] ? V : mx[L];                                                 \
    })

#define INT_RUN(T, LOAD, SIZE, TIME, TOP, BOTTOM)                                          \
    do {                                                                                   \
        T mn[4] = {TOP, TOP, TOP, TOP}, mx[4] = {BOTTOM, BOTTOM, BOTTOM, BOTTOM};          \
        switch (f->want & (W_LO | W_HI)) {                                                 \
        case W_LO: INT_SCREEN(T, LOAD, SIZE, TIME, true, false); break;                    \
        case W_HI: INT_SCREEN(T, LOAD, SIZE, TIME, false, true); break;                    \
        case 0: INT_SCREEN(T, LOAD, SIZE, TIME, false, false); break;                      \
        default: INT_SCREEN(T, LOAD, SIZE, TIME, true, true); break;                       \
        }                                                                                  \
        bool out = false;                                                                  \
        for (int k = 0; k < 4; k++)                                                        \
            out |= mn[k] < lo_v || mx[k] > hi_v;                                           \
        if (out) {                                                                         \
            nan = 0;                                                                       \
            INT_PASS(T, LOAD, SIZE, TIME);                                                 \
            if ((TIME) && lo_v > INT64_MIN)   /* NaT breaks no bound */                    \
                lo -= nan;                                                                 \
        }                                                                                  \
    } while (0)

void rule_fused_count(const struct rule_fused *f, const unsigned char *rec, size_t stride,
                      size_t n, uint64_t elems, uint64_t count[FUSE_NSLOTS])
{
    uint64_t lo = 0, hi = 0, nan = 0, inf = 0;
    if (f->kind == 'f') {
        double lo_d = f->lo_d, hi_d = f->hi_d;   /* nan: counted by the pass alone */
        if (f->width == 8 && f->swap)
            FLOAT_RUN(double, swapped_f8, 8);
        else if (f->width == 8)
            FLOAT_RUN(double, host_f8, 8);
        else if (f->swap)
            FLOAT_RUN(float, swapped_f4, 4);
        else
            FLOAT_RUN(float, host_f4, 4);
    } else if (f->kind == 'U') {
        uint64_t lo_v = f->lo_u, hi_v = f->hi_u;
        if (f->swap)
            INT_RUN(uint64_t, swapped_u8, 8, false, UINT64_MAX, 0);
        else
            INT_RUN(uint64_t, host_u8, 8, false, UINT64_MAX, 0);
    } else {
        int64_t lo_v = f->lo_i, hi_v = f->hi_i;
        bool sw = f->swap && f->width > 1;
#define I64(LOAD, SIZE, TIME) INT_RUN(int64_t, LOAD, SIZE, TIME, INT64_MAX, INT64_MIN)
        switch ((f->kind == 'u') * 64 + f->width * 4 + sw * 2 + f->time) {
        case 1 * 4: I64(load_i1, 1, false); break;
        case 2 * 4: I64(host_i2, 2, false); break;
        case 2 * 4 + 2: I64(swapped_i2, 2, false); break;
        case 4 * 4: I64(host_i4, 4, false); break;
        case 4 * 4 + 2: I64(swapped_i4, 4, false); break;
        case 8 * 4: I64(host_i8, 8, false); break;
        case 8 * 4 + 2: I64(swapped_i8, 8, false); break;
        case 8 * 4 + 1: I64(host_i8, 8, true); break;
        case 8 * 4 + 3: I64(swapped_i8, 8, true); break;
        case 64 + 1 * 4: I64(load_u1, 1, false); break;
        case 64 + 2 * 4: I64(host_u2, 2, false); break;
        case 64 + 2 * 4 + 2: I64(swapped_u2, 2, false); break;
        case 64 + 4 * 4: I64(host_u4, 4, false); break;
        default: I64(swapped_u4, 4, false); break;
        }
#undef I64
    }
    count[FUSE_LO] = lo;
    count[FUSE_HI] = hi;
    count[FUSE_NAN] = nan;
    count[FUSE_INF] = inf;
}

/* The hot rules counted where the records are: bounds, nan, inf and nat
 * of a field whose scalars are stored in the host's order, read as the
 * machine type they are (a load, no conversion), every rule of the field
 * in one pass over the batch. Where an element breaks a rule whose first
 * elements are still wanted, the caller gathers the batch and finds them
 * with the general loops; the counts are the same, as the tests compare. */
#include "values/values.h"

#include "records/records.h"

/* One rule as the pass tests it. */
struct hot {
    enum rule_op op;
    enum bound_reach reach;
    int64_t i;
    uint64_t u;
    double d;
    uint64_t count;
};

static bool hot_rule(const struct rule *r)
{
    switch (r->op) {
    case RULE_MIN: case RULE_MAX: case RULE_EXCLUSIVE_MIN: case RULE_EXCLUSIVE_MAX:
    case RULE_NAN: case RULE_INF: case RULE_NAT:
        return true;
    default:
        return false;
    }
}

bool rule_is_hot(const struct rule_target *t, const struct rule *r)
{
    const npydt_dtype *s = t->scalar;
    if (!hot_rule(r) || text_order_swaps(s->byteorder))
        return false;
    switch (s->kind) {
    case 'f': return s->itemsize == 4 || s->itemsize == 8;
    case 'i': case 'M': case 'm':
        return s->itemsize == 1 || s->itemsize == 2 || s->itemsize == 4 || s->itemsize == 8;
    case 'u': return s->itemsize == 1 || s->itemsize == 2 || s->itemsize == 4;
    default: return false;
    }
}

/* Elements of the n records that break rule h, X the element as T, V its
 * value widened (double for floats, int64 for integers). */
#define PASS(T, WIDE, BAD)                                                              \
    do {                                                                                \
        uint64_t c_ = 0;                                                                \
        if (elems == 1) {                                                               \
            for (size_t i = 0; i < n; i++) {                                            \
                T x;                                                                    \
                memcpy(&x, rec + i * stride, sizeof x);                                 \
                WIDE v = (WIDE)x;                                                       \
                c_ += (uint64_t)(BAD);                                                  \
            }                                                                           \
        } else {                                                                        \
            for (size_t i = 0; i < n; i++)                                              \
                for (uint64_t e = 0; e < elems; e++) {                                  \
                    T x;                                                                \
                    memcpy(&x, rec + i * stride + e * sizeof x, sizeof x);              \
                    WIDE v = (WIDE)x;                                                   \
                    c_ += (uint64_t)(BAD);                                              \
                }                                                                       \
        }                                                                               \
        h->count = c_;                                                                  \
    } while (0)

#define PASS_FLOAT(T)                                                                   \
    switch (h->op) {                                                                    \
    case RULE_MIN: PASS(T, double, v < lim); break;                                     \
    case RULE_EXCLUSIVE_MIN: PASS(T, double, v <= lim); break;                          \
    case RULE_MAX: PASS(T, double, v > lim); break;                                     \
    case RULE_EXCLUSIVE_MAX: PASS(T, double, v >= lim); break;                          \
    case RULE_NAN: PASS(T, double, v != v); break;                                      \
    default: PASS(T, double, v - v != v - v && v == v); break;   /* inf */              \
    }

#define PASS_INT(T)                                                                     \
    switch (h->op) {                                                                    \
    case RULE_MIN: case RULE_EXCLUSIVE_MIN:                                             \
        if (h->reach == BOUND_NONE)                                                     \
            PASS(T, int64_t, !(time && v == INT64_MIN));                                \
        else                                                                            \
            PASS(T, int64_t, v < lo && !(time && v == INT64_MIN));                      \
        break;                                                                          \
    case RULE_NAT: PASS(T, int64_t, v == INT64_MIN); break;                             \
    default:                                                                            \
        if (h->reach == BOUND_NONE)                                                     \
            PASS(T, int64_t, !(time && v == INT64_MIN));                                \
        else                                                                            \
            PASS(T, int64_t, v > lo);                                                   \
        break;                                                                          \
    }

uint64_t rule_count_in_place(const struct rule_target *t, const struct rule *r,
                             const unsigned char *records, size_t stride, size_t n)
{
    const npydt_dtype *s = t->scalar;
    const unsigned char *rec = records + t->offset;
    uint64_t elems = t->elems;
    bool time = s->kind == 'M' || s->kind == 'm';
    struct hot one = {r->op, r->reach, r->v.i, r->v.u, r->v.d, 0}, *h = &one;
    if (r->reach == BOUND_ALL && r->op != RULE_NAN && r->op != RULE_INF && r->op != RULE_NAT)
        return 0;
    double lim = h->d;
    int64_t lo = h->i;
    switch (s->kind) {
    case 'f':
        if (s->itemsize == 8) {
            PASS_FLOAT(double)
        } else {
            PASS_FLOAT(float)
        }
        break;
    case 'u':
        switch (s->itemsize) {
        case 1: PASS_INT(uint8_t) break;
        case 2: PASS_INT(uint16_t) break;
        default: PASS_INT(uint32_t) break;
        }
        break;
    default:
        switch (s->itemsize) {
        case 1: PASS_INT(int8_t) break;
        case 2: PASS_INT(int16_t) break;
        case 4: PASS_INT(int32_t) break;
        default: PASS_INT(int64_t) break;
        }
        break;
    }
    return h->count;
}

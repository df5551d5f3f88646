/* Exact conversion of a datetime64 / timedelta64 count between units and
 * multipliers ([ms] to [25s]), as a ratio of integers reduced before any
 * product is formed, so that no intermediate value can overflow. */
#include "records/records.h"

/* Length of each unit in the next finer one, in NumPy's unit order
 * Y M W D h m s ms us ns ps fs as. A month has no fixed number of weeks
 * (or days): 0 marks the gap no conversion crosses. */
static const uint32_t unit_step[NPYDT_UNIT_as] = {
    12, 0, 7, 24, 60, 60, 1000, 1000, 1000, 1000, 1000, 1000,
};

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b != 0) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Product of n factors; false when it exceeds uint64. */
static bool product(const uint64_t *f, size_t n, uint64_t *out)
{
    uint64_t r = 1;
    for (size_t i = 0; i < n; i++)
        if (!ck_mul(r, f[i], &r))
            return false;
    *out = r;
    return true;
}

enum time_conv time_convert(int64_t count, int from_unit, int32_t from_mult, int to_unit,
                            int32_t to_mult, int64_t *out)
{
    /* count * from_mult * len(from) = result * to_mult * len(to): the
     * steps between the two units go on the side of the coarser one */
    uint64_t num[NPYDT_UNIT_as + 1], den[NPYDT_UNIT_as + 1];
    size_t nn = 0, nd = 0;
    num[nn++] = (uint64_t)from_mult;
    den[nd++] = (uint64_t)to_mult;
    int lo = from_unit < to_unit ? from_unit : to_unit;
    int hi = from_unit < to_unit ? to_unit : from_unit;
    for (int u = lo; u < hi; u++) {
        if (unit_step[u] == 0)
            return TIME_NO_RATIO;
        if (from_unit < to_unit)
            num[nn++] = unit_step[u];
        else
            den[nd++] = unit_step[u];
    }
    /* cancel common factors pairwise: afterwards every numerator factor
     * is coprime with every denominator factor */
    for (size_t i = 0; i < nn; i++)
        for (size_t j = 0; j < nd; j++) {
            uint64_t g = gcd(num[i], den[j]);
            num[i] /= g;
            den[j] /= g;
        }
    uint64_t d, n;
    if (!product(den, nd, &d))
        d = 0;   /* beyond uint64: only a count of 0 divides */
    if (count == 0) {
        *out = 0;
        return TIME_OK;
    }
    if (d == 0 || d > (uint64_t)INT64_MAX || count % (int64_t)d != 0)
        return TIME_INEXACT;   /* a nonzero count is smaller than such a d */
    int64_t q = count / (int64_t)d, r;
    if (!product(num, nn, &n) || n > (uint64_t)INT64_MAX ||
        __builtin_mul_overflow(q, (int64_t)n, &r) || r == NPYDT_NAT)
        return TIME_OVERFLOW;
    *out = r;
    return TIME_OK;
}

/* Exact conversion of a datetime64 / timedelta64 count between units and
 * multipliers ([ms] to [25s]), as a ratio of integers reduced before any
 * product is formed, so that no intermediate value can overflow. Years
 * and months follow NumPy's two rules: a datetime in months is the first
 * day of that month of the proleptic Gregorian calendar; a timedelta month
 * is NumPy's average one, 1/12 of 365.2425 days. */
#include "records/records.h"

/* Length of each unit in the next finer one, as num / den, in NumPy's
 * unit order Y M W D h m s ms us ns ps fs as. Months to weeks is NumPy's
 * timedelta average: 30.436875 days = 48699/11200 weeks. */
static const struct {
    uint32_t num, den;
} unit_step[NPYDT_UNIT_as] = {
    {12, 1}, {48699, 11200}, {7, 1}, {24, 1}, {60, 1}, {60, 1},
    {1000, 1}, {1000, 1}, {1000, 1}, {1000, 1}, {1000, 1}, {1000, 1},
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

/* count * from_mult * len(from) = result * to_mult * len(to), with
 * timedelta months. */
static enum time_conv ratio_convert(int64_t count, int from_unit, int32_t from_mult, int to_unit,
                                    int32_t to_mult, int64_t *out)
{
    uint64_t num[2 * NPYDT_UNIT_as + 1], den[2 * NPYDT_UNIT_as + 1];
    size_t nn = 0, nd = 0;
    num[nn++] = (uint64_t)from_mult;
    den[nd++] = (uint64_t)to_mult;
    bool down = from_unit < to_unit;   /* from the coarser unit */
    int lo = down ? from_unit : to_unit, hi = down ? to_unit : from_unit;
    for (int u = lo; u < hi; u++) {
        num[nn++] = down ? unit_step[u].num : unit_step[u].den;
        den[nd++] = down ? unit_step[u].den : unit_step[u].num;
    }
    /* cancel common factors pairwise: afterwards every numerator factor
     * is coprime with every denominator factor */
    for (size_t i = 0; i < nn; i++)
        for (size_t j = 0; j < nd; j++) {
            uint64_t g = gcd(num[i], den[j]);
            num[i] /= g;
            den[j] /= g;
        }
    if (count == 0) {
        *out = 0;
        return TIME_OK;
    }
    uint64_t d, n;
    if (!product(den, nd, &d) || d > (uint64_t)INT64_MAX || count % (int64_t)d != 0)
        return TIME_INEXACT;   /* a nonzero count is smaller than so large a d */
    int64_t q = count / (int64_t)d, r;
    if (!product(num, nn, &n) || n > (uint64_t)INT64_MAX ||
        __builtin_mul_overflow(q, (int64_t)n, &r) || r == NPYDT_NAT)
        return TIME_OVERFLOW;
    *out = r;
    return TIME_OK;
}

/* ---- the calendar: days since 1970-01-01 and months since January 1970 ---- */

/* Days from 1970-01-01 to the first day of the month `months` after
 * January 1970; false beyond int64. */
static bool month_start_days(int64_t months, int64_t *days)
{
    int64_t y = months / 12 + 1970, m = months % 12;   /* m in -11..11 */
    if (m < 0) {
        m += 12;
        y--;
    }
    return text_days_from_civil(y, (unsigned)m + 1, 1, days);
}

/* The month (since January 1970) that day `days` falls in, and whether it
 * is its first day. */
static int64_t day_month(int64_t days, bool *first_day)
{
    int64_t y;
    unsigned m, d;
    text_civil_from_days(days, &y, &m, &d);
    *first_day = d == 1;
    return (y - 1970) * 12 + (int64_t)m - 1;
}

enum time_conv time_convert(int64_t count, int from_unit, int32_t from_mult, int to_unit,
                            int32_t to_mult, bool calendar, int64_t *out)
{
    bool from_months = from_unit <= NPYDT_UNIT_M, to_months = to_unit <= NPYDT_UNIT_M;
    if (!calendar || from_months == to_months)
        return ratio_convert(count, from_unit, from_mult, to_unit, to_mult, out);
    enum time_conv r;
    int64_t months, days;
    if (from_months) {
        /* a month start, as days, then into the finer unit */
        if ((r = ratio_convert(count, from_unit, from_mult, NPYDT_UNIT_M, 1, &months)) != TIME_OK)
            return r;
        if (!month_start_days(months, &days))
            return TIME_OVERFLOW;
        return ratio_convert(days, NPYDT_UNIT_D, 1, to_unit, to_mult, out);
    }
    /* whole days that start a month, then into years or months */
    if ((r = ratio_convert(count, from_unit, from_mult, NPYDT_UNIT_D, 1, &days)) != TIME_OK)
        return r;
    bool first_day;
    months = day_month(days, &first_day);
    if (!first_day)
        return TIME_INEXACT;
    return ratio_convert(months, NPYDT_UNIT_M, 1, to_unit, to_mult, out);
}

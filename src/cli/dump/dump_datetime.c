/* datetime64 values as NumPy's str() writes them: ISO 8601 down to the
 * unit of the dtype ("2020", "2020-06", "2020-06-01", "2020-06-01T07",
 * ..., "...T00:00:00.000000000000000001" for attoseconds); weeks as their
 * first day; years below 0 as "-001", above 9999 with more digits. */
#include "cli/dump/dump.h"
#include "cli/float_shortest.h"

#include <string.h>

/* floor division and the matching non-negative remainder */
static int64_t floor_div(int64_t a, int64_t b, int64_t *rem)
{
    int64_t q = a / b, r = a % b;
    if (r < 0) {
        r += b;
        q--;
    }
    *rem = r;
    return q;
}

/* The proleptic Gregorian date of a day count from 1970-01-01 (the
 * days-to-civil method of H. Hinnant's "chrono-compatible low-level date
 * algorithms"); the year needs 64 bits for second units. */
static void civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d)
{
    int64_t z = days + 719468, doe;
    int64_t era = floor_div(z, 146097, &doe);
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
    *m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

/* n as at least `width` digits (after a '-'). */
static size_t put_padded(char *buf, int64_t n, int width)
{
    char tmp[24];
    size_t o = 0;
    if (n < 0) {
        buf[o++] = '-';
        width--;
    }
    size_t t = decimal_u64(n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n, tmp);
    for (int i = (int)t; i < width; i++)
        buf[o++] = '0';
    memcpy(buf + o, tmp, t);
    return o + t;
}

size_t dump_datetime_iso(int64_t count, npydt_unit unit, int32_t mult, char *buf)
{
    int64_t v;
    if (__builtin_mul_overflow(count, (int64_t)(mult > 0 ? mult : 1), &v))
        return 0;
    static const int64_t per_second[] = {1000, 1000000, 1000000000, INT64_C(1000000000000),
                                         INT64_C(1000000000000000),
                                         INT64_C(1000000000000000000)};
    int64_t days = 0, sod = 0, frac = 0, r;
    int fdigits = 0, fields = 0;   /* fields after the date: 1 h, 2 h:m, 3 h:m:s */
    size_t o = 0;
    switch (unit) {
    case NPYDT_UNIT_Y:
        if (__builtin_add_overflow(v, 1970, &v))
            return 0;
        return put_padded(buf, v, 4);
    case NPYDT_UNIT_M: {
        int64_t y = floor_div(v, 12, &r);
        o = put_padded(buf, y + 1970, 4);
        buf[o++] = '-';
        return o + put_padded(buf + o, r + 1, 2);
    }
    case NPYDT_UNIT_W:
        if (__builtin_mul_overflow(v, 7, &days))
            return 0;
        break;
    case NPYDT_UNIT_D: days = v; break;
    case NPYDT_UNIT_h: days = floor_div(v, 24, &sod); sod *= 3600; fields = 1; break;
    case NPYDT_UNIT_m: days = floor_div(v, 1440, &sod); sod *= 60; fields = 2; break;
    case NPYDT_UNIT_s: days = floor_div(v, 86400, &sod); fields = 3; break;
    case NPYDT_UNIT_ms: case NPYDT_UNIT_us: case NPYDT_UNIT_ns:
    case NPYDT_UNIT_ps: case NPYDT_UNIT_fs: case NPYDT_UNIT_as: {
        int i = unit - NPYDT_UNIT_ms;
        int64_t secs = floor_div(v, per_second[i], &frac);
        days = floor_div(secs, 86400, &sod);
        fields = 3;
        fdigits = 3 * (i + 1);
        break;
    }
    default:
        return 0;   /* generic: no calendar */
    }
    if (days > INT64_MAX - 719468)
        return 0;
    int64_t y;
    unsigned m, d;
    civil_from_days(days, &y, &m, &d);
    o = put_padded(buf, y, 4);
    buf[o++] = '-';
    o += put_padded(buf + o, m, 2);
    buf[o++] = '-';
    o += put_padded(buf + o, d, 2);
    if (fields >= 1) {
        buf[o++] = 'T';
        o += put_padded(buf + o, sod / 3600, 2);
    }
    if (fields >= 2) {
        buf[o++] = ':';
        o += put_padded(buf + o, sod / 60 % 60, 2);
    }
    if (fields >= 3) {
        buf[o++] = ':';
        o += put_padded(buf + o, sod % 60, 2);
    }
    if (fdigits) {
        buf[o++] = '.';
        o += put_padded(buf + o, frac, fdigits);
    }
    return o;
}

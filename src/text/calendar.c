/* The proleptic Gregorian calendar (days from 1970-01-01 to a date and
 * back, by H. Hinnant's "chrono-compatible low-level date algorithms":
 * 400-year eras of 146097 days, the year taken to start in March), and
 * datetime64 values as NumPy's str() writes them. */
#include "text.h"

/* days from 0000-03-01 to 1970-01-01, and the days of an era */
#define DAYS_TO_EPOCH 719468
#define ERA_DAYS 146097

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

/* text_civil_from_days, inline in text_datetime (once per value) */
static inline void civil_from_days(int64_t days, int64_t *year, unsigned *month, unsigned *day)
{
    /* the era and the day in it, counted from 0000-03-01; the last days
     * of int64 take whole eras first, so that no sum is beyond int64 */
    int64_t doe, era;
    if (days <= INT64_MAX - DAYS_TO_EPOCH) {
        era = floor_div(days + DAYS_TO_EPOCH, ERA_DAYS, &doe);
    } else {
        era = floor_div(days, ERA_DAYS, &doe);
        doe += DAYS_TO_EPOCH;
        era += doe / ERA_DAYS;
        doe %= ERA_DAYS;
    }
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;   /* 0..399 */
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                /* March 1 = 0 */
    int64_t mp = (5 * doy + 2) / 153;                                      /* March = 0 */
    *day = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
    *month = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
    *year = yoe + era * 400 + (*month <= 2);
}

void text_civil_from_days(int64_t days, int64_t *year, unsigned *month, unsigned *day)
{
    civil_from_days(days, year, month, day);
}

bool text_days_from_civil(int64_t year, unsigned month, unsigned day, int64_t *days)
{
    if (year > INT64_MAX / 365 || year < INT64_MIN / 365)
        return false;   /* more than 365 days a year: beyond int64 */
    int64_t y = year - (month <= 2);
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;                                           /* 0..399 */
    int64_t doy = (153 * (int64_t)((month + 9) % 12) + 2) / 5 + (int64_t)day - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    /* era * ERA_DAYS + doe - DAYS_TO_EPOCH, with a non-negative second
     * term for eras after 0 (five eras moved into it), so that no partial
     * result is beyond int64 when the sum is not */
    int64_t shift = era > 0 ? 5 : 0, e;
    return !__builtin_mul_overflow(era - shift, (int64_t)ERA_DAYS, &e) &&
           !__builtin_add_overflow(e, doe - DAYS_TO_EPOCH + shift * ERA_DAYS, days);
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
    size_t t = text_decimal_u64(n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n, tmp);
    for (int i = (int)t; i < width; i++)
        buf[o++] = '0';
    memcpy(buf + o, tmp, t);
    return o + t;
}

/* npydt_unit's numbers */
enum { UNIT_Y, UNIT_M, UNIT_W, UNIT_D, UNIT_h, UNIT_m, UNIT_s, UNIT_ms, UNIT_as = 12 };

size_t text_datetime(int64_t count, int unit, int32_t mult, char *buf)
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
    case UNIT_Y:
        if (__builtin_add_overflow(v, 1970, &v))
            return 0;
        return put_padded(buf, v, 4);
    case UNIT_M: {
        int64_t y = floor_div(v, 12, &r);
        o = put_padded(buf, y + 1970, 4);
        buf[o++] = '-';
        return o + put_padded(buf + o, r + 1, 2);
    }
    case UNIT_W:
        if (__builtin_mul_overflow(v, 7, &days))
            return 0;
        break;
    case UNIT_D: days = v; break;
    case UNIT_h: days = floor_div(v, 24, &sod); sod *= 3600; fields = 1; break;
    case UNIT_m: days = floor_div(v, 1440, &sod); sod *= 60; fields = 2; break;
    case UNIT_s: days = floor_div(v, 86400, &sod); fields = 3; break;
    default: {
        if (unit < UNIT_ms || unit > UNIT_as)
            return 0;   /* generic: no calendar */
        int i = unit - UNIT_ms;
        int64_t secs = floor_div(v, per_second[i], &frac);
        days = floor_div(secs, 86400, &sod);
        fields = 3;
        fdigits = 3 * (i + 1);
        break;
    }
    }
    if (days > INT64_MAX - DAYS_TO_EPOCH)
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

/* digits of s[*i..n): at least min and at most max of them, as a number */
static bool read_digits(const char *s, size_t n, size_t *i, int min, int max, int64_t *out)
{
    int64_t v = 0;
    int k = 0;
    while (*i < n && k < max && s[*i] >= '0' && s[*i] <= '9') {
        v = v * 10 + (s[*i] - '0');
        (*i)++;
        k++;
    }
    *out = v;
    return k >= min && !(*i < n && k == max && s[*i] >= '0' && s[*i] <= '9');
}

/* A date and time read from text: days from 1970-01-01, seconds of the
 * day, attoseconds of the second; the calendar fields for Y and M. */
struct instant {
    int64_t year, month, day, days, sod, frac;
};

static const int64_t pow10_table[] = {
    1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
    INT64_C(10000000000), INT64_C(100000000000), INT64_C(1000000000000),
    INT64_C(10000000000000), INT64_C(100000000000000), INT64_C(1000000000000000),
    INT64_C(10000000000000000), INT64_C(100000000000000000),
    INT64_C(1000000000000000000)};

static bool read_instant(const char *s, size_t n, struct instant *t)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    int64_t month = 1, day = 1, h = 0, mi = 0, sec = 0, v;
    memset(t, 0, sizeof *t);
    if (!read_digits(s, n, &i, 4, 12, &t->year))
        return false;
    if (neg)
        t->year = -t->year;
    if (i < n && s[i] == '-') {
        i++;
        if (!read_digits(s, n, &i, 2, 2, &month) || month < 1 || month > 12)
            return false;
        if (i < n && s[i] == '-') {
            i++;
            if (!read_digits(s, n, &i, 2, 2, &day) || day < 1)
                return false;
            static const unsigned char mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
            bool leap = t->year % 4 == 0 && (t->year % 100 != 0 || t->year % 400 == 0);
            if (day > mdays[month - 1] || (month == 2 && day == 29 && !leap))
                return false;
            if (i < n && (s[i] == 'T' || s[i] == ' ')) {
                i++;
                if (!read_digits(s, n, &i, 2, 2, &h) || h > 23)
                    return false;
                if (i < n && s[i] == ':') {
                    i++;
                    if (!read_digits(s, n, &i, 2, 2, &mi) || mi > 59)
                        return false;
                    if (i < n && s[i] == ':') {
                        i++;
                        if (!read_digits(s, n, &i, 2, 2, &sec) || sec > 59)
                            return false;
                        if (i < n && s[i] == '.') {
                            size_t f0 = ++i;
                            if (!read_digits(s, n, &i, 1, 18, &v))
                                return false;
                            t->frac = v * pow10_table[18 - (i - f0)];
                        }
                    }
                }
            }
        }
    }
    if (i != n || !text_days_from_civil(t->year, (unsigned)month, (unsigned)day, &t->days))
        return false;
    t->month = month;
    t->day = day;
    t->sod = h * 3600 + mi * 60 + sec;
    return true;
}

int text_datetime_read(const char *s, size_t n, int unit, int32_t mult, int64_t *count,
                       bool *exact)
{
    struct instant t;
    if (!read_instant(s, n, &t))
        return -1;
    int64_t u, r;
    bool on = t.sod == 0 && t.frac == 0, over = false;
    switch (unit) {
    case UNIT_Y:
        over = __builtin_sub_overflow(t.year, 1970, &u);
        on = on && t.month == 1 && t.day == 1;
        break;
    case UNIT_M:
        over = __builtin_sub_overflow(t.year, 1970, &u) || __builtin_mul_overflow(u, 12, &u) ||
               __builtin_add_overflow(u, t.month - 1, &u);
        on = on && t.day == 1;
        break;
    case UNIT_W:
        u = floor_div(t.days, 7, &r);
        on = on && r == 0;
        break;
    case UNIT_D:
        u = t.days;
        break;
    case UNIT_h: case UNIT_m: case UNIT_s: {
        int64_t per = unit == UNIT_h ? 3600 : unit == UNIT_m ? 60 : 1;
        over = __builtin_mul_overflow(t.days, 86400 / per, &u) ||
               __builtin_add_overflow(u, t.sod / per, &u);
        on = t.sod % per == 0 && t.frac == 0;
        break;
    }
    default: {
        if (unit < UNIT_ms || unit > UNIT_as)
            return -1;
        int digits = 3 * (unit - UNIT_ms + 1);
        int64_t drop = pow10_table[18 - digits];
        over = __builtin_mul_overflow(t.days, 86400, &u) || __builtin_add_overflow(u, t.sod, &u) ||
               __builtin_mul_overflow(u, pow10_table[digits], &u) ||
               __builtin_add_overflow(u, t.frac / drop, &u);
        on = t.frac % drop == 0;
        break;
    }
    }
    if (over)
        return 1;
    *count = floor_div(u, mult > 0 ? mult : 1, &r);
    *exact = on && r == 0;
    return *count == INT64_MIN;   /* NaT's count is no date */
}

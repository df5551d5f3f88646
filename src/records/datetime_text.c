/* A datetime64 value as NumPy's str() writes it, and as a Unix time in
 * whole seconds and nanoseconds: the calendar is the text stage's
 * (text_datetime), unit changes are time_convert's. */
#include "records/records.h"

#include <string.h>

_Static_assert(NPYDT_DATETIME_TEXT_MAX + 1 == TEXT_DATETIME_MAX, "room for the text and a NUL");

static bool value_is_nat(const npydt_datetime *v)
{
    return v->is_nat || v->count == NPYDT_NAT;
}

/* NPYDT_E_UNIT unless v has a calendar unit and a multiplier of 1 or more. */
static npydt_status check_unit(const npydt_datetime *v, npydt_error *err)
{
    if (v->unit < NPYDT_UNIT_Y || v->unit > NPYDT_UNIT_as)
        return set_error(err, NPYDT_E_UNIT, NPYDT_NO_OFFSET, NULL,
                         "a datetime64 value of unit '%s' has no date",
                         v->unit == NPYDT_UNIT_GENERIC ? "generic" : "unknown");
    if (v->unit_count < 1)
        return set_error(err, NPYDT_E_UNIT, NPYDT_NO_OFFSET, NULL,
                         "a datetime64 value with multiplier %ld has no date",
                         (long)v->unit_count);
    return NPYDT_OK;
}

npydt_status npydt_datetime_text(const npydt_datetime *v, char *buf, size_t size, size_t *len,
                                 npydt_error *err)
{
    error_clear(err);
    if (!v || !len || (!buf && size > 0))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         !v ? "v is NULL" : !len ? "len is NULL" : "buf is NULL");
    char text[TEXT_DATETIME_MAX];
    size_t n;
    if (value_is_nat(v)) {
        memcpy(text, "NaT", 3);
        n = 3;
    } else {
        npydt_status st = check_unit(v, err);
        if (st != NPYDT_OK)
            return st;
        n = text_datetime(v->count, (int)v->unit, v->unit_count, text);
        if (n == 0)
            return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                             "%lld [%ld%s] is a date beyond int64 days",
                             (long long)v->count, (long)v->unit_count,
                             npydt_unit_name(v->unit));
    }
    *len = n;
    if (size > 0) {
        size_t k = n < size ? n : size - 1;
        memcpy(buf, text, k);
        buf[k] = '\0';
    }
    if (size <= n)
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                         "the text needs %zu bytes and a NUL; the buffer holds %zu", n, size);
    return NPYDT_OK;
}

/* 10^k */
static int64_t pow10_i64(int k)
{
    int64_t p = 1;
    while (k-- > 0)
        p *= 10;
    return p;
}

npydt_status npydt_datetime_to_unix(const npydt_datetime *v, int64_t *seconds,
                                    int32_t *nanoseconds, npydt_error *err)
{
    error_clear(err);
    if (!v || !seconds || !nanoseconds)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "%s is NULL",
                         !v ? "v" : !seconds ? "seconds" : "nanoseconds");
    if (value_is_nat(v))
        return set_error(err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, NULL, "NaT is no time");
    npydt_status st = check_unit(v, err);
    if (st != NPYDT_OK)
        return st;
    int64_t s, ns = 0;
    if (v->unit <= NPYDT_UNIT_s) {
        /* years and months are their first day, as in NumPy */
        if (time_convert(v->count, (int)v->unit, v->unit_count, NPYDT_UNIT_s, 1, true, &s) !=
            TIME_OK)
            goto beyond;
    } else {
        /* floor division by the units in a second: the remainder is the
         * fraction, in nanoseconds exactly or not at all */
        int digits = 3 * ((int)v->unit - NPYDT_UNIT_s);   /* 3 ms .. 18 as */
        int64_t total, rem;
        if (__builtin_mul_overflow(v->count, (int64_t)v->unit_count, &total))
            goto beyond;
        int64_t per_second = pow10_i64(digits);
        s = total / per_second;
        rem = total % per_second;
        if (rem < 0) {
            rem += per_second;
            s--;
        }
        if (digits <= 9) {
            ns = rem * pow10_i64(9 - digits);
        } else {
            int64_t below = pow10_i64(digits - 9);
            if (rem % below != 0)
                return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                                 "%lld [%ld%s] is not a whole number of nanoseconds",
                                 (long long)v->count, (long)v->unit_count,
                                 npydt_unit_name(v->unit));
            ns = rem / below;
        }
    }
    *seconds = s;
    *nanoseconds = (int32_t)ns;
    return NPYDT_OK;
beyond:
    return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                     "%lld [%ld%s] is beyond int64 seconds", (long long)v->count,
                     (long)v->unit_count, npydt_unit_name(v->unit));
}

/* The text stage's calendar: day counts from 1970-01-01 to proleptic
 * Gregorian dates and back, over the whole int64 range without overflow,
 * and datetime64 values spelled as NumPy's str() spells them. */
#include "test_util.h"

#include "text/text.h"

#include <stdint.h>
#include <string.h>

static void assert_date(int64_t days, int64_t year, unsigned month, unsigned day)
{
    int64_t y;
    unsigned m, d;
    text_civil_from_days(days, &y, &m, &d);
    if (y != year || m != month || d != day)
        fail_msg("day %lld: %lld-%u-%u, expected %lld-%u-%u", (long long)days, (long long)y, m, d,
                 (long long)year, month, day);
}

static void test_text_calendar_known_days_are_their_dates(void **state)
{
    (void)state;
    assert_date(0, 1970, 1, 1);
    assert_date(-1, 1969, 12, 31);
    assert_date(59, 1970, 3, 1);
    assert_date(11016, 2000, 2, 29);   /* a leap day of a century divisible by 400 */
    assert_date(-25508, 1900, 3, 1);   /* 1900 has no February 29 */
    assert_date(-719468, 0, 3, 1);
    assert_date(-719469, 0, 2, 29);    /* year 0 is a leap year */
    assert_date(-719529, -1, 12, 31);
}

static void test_text_calendar_days_and_dates_round_trip(void **state)
{
    (void)state;
    /* every day of 2000 years around the epoch, then far ones */
    for (int64_t days = -400000; days <= 400000; days++) {
        int64_t y, back;
        unsigned m, d;
        text_civil_from_days(days, &y, &m, &d);
        assert_true(text_days_from_civil(y, m, d, &back));
        if (back != days)
            fail_msg("day %lld reads back as %lld", (long long)days, (long long)back);
    }
    static const int64_t far[] = {INT64_C(-106751991167300), INT64_C(106751991167300),
                                  INT64_MAX / 2, INT64_MIN / 2, INT64_MAX / 400 * 400};
    for (size_t i = 0; i < sizeof far / sizeof far[0]; i++) {
        int64_t y, back;
        unsigned m, d;
        text_civil_from_days(far[i], &y, &m, &d);
        assert_true(text_days_from_civil(y, m, d, &back));
        assert_true(back == far[i]);
    }
}

static void test_text_calendar_extreme_days_have_dates(void **state)
{
    (void)state;
    int64_t y;
    unsigned m, d;
    text_civil_from_days(INT64_MAX, &y, &m, &d);
    assert_true(y > INT64_C(25000000000000000) && m >= 1 && m <= 12 && d >= 1 && d <= 31);
    text_civil_from_days(INT64_MIN, &y, &m, &d);
    assert_true(y < INT64_C(-25000000000000000) && m >= 1 && m <= 12 && d >= 1 && d <= 31);
}

static void test_text_calendar_dates_beyond_int64_days_are_refused(void **state)
{
    (void)state;
    int64_t days;
    assert_false(text_days_from_civil(INT64_MAX, 1, 1, &days));
    assert_false(text_days_from_civil(INT64_MIN, 1, 1, &days));
    assert_false(text_days_from_civil(INT64_C(30000000000000000), 6, 1, &days));
    assert_true(text_days_from_civil(INT64_C(25000000000000000), 6, 1, &days));
}

static void assert_datetime(int64_t count, int unit, int32_t mult, const char *want)
{
    char buf[TEXT_DATETIME_MAX];
    size_t n = text_datetime(count, unit, mult, buf);
    if (n != strlen(want) || memcmp(buf, want, n) != 0)
        fail_msg("%lld of unit %d x%d: '%.*s', expected '%s'", (long long)count, unit,
                 (int)mult, (int)n, buf, want);
}

/* npydt_unit's numbers */
enum { Y, M, W, D, h, m, s, ms, us, ns, ps, fs, as, GENERIC };

static void test_text_calendar_datetimes_read_as_numpy_str(void **state)
{
    (void)state;
    assert_datetime(50, Y, 1, "2020");
    assert_datetime(-1971, Y, 1, "-001");
    assert_datetime(8030, Y, 1, "10000");
    assert_datetime(605, M, 1, "2020-06");
    assert_datetime(-1, M, 1, "1969-12");
    assert_datetime(1, W, 1, "1970-01-08");
    assert_datetime(18414, D, 1, "2020-06-01");
    assert_datetime(441943, h, 1, "2020-06-01T07");
    assert_datetime(-1, m, 1, "1969-12-31T23:59");
    assert_datetime(3, s, 25, "1970-01-01T00:01:15");
    assert_datetime(-1, ms, 1, "1969-12-31T23:59:59.999");
    assert_datetime(1, as, 1, "1970-01-01T00:00:00.000000000000000001");
    assert_datetime(INT64_MIN + 1, s, 1, "-292277022657-01-27T08:29:53");
}

static void test_text_calendar_datetimes_without_a_date_have_no_text(void **state)
{
    (void)state;
    char buf[TEXT_DATETIME_MAX];
    assert_int_equal(text_datetime(5, GENERIC, 1, buf), 0);
    assert_int_equal(text_datetime(INT64_MAX, D, 1, buf), 0);      /* beyond the days' range */
    assert_int_equal(text_datetime(INT64_MAX / 2, Y, 3, buf), 0);  /* the count overflows */
}

TEST_LIST("text_calendar",
    cmocka_unit_test(test_text_calendar_known_days_are_their_dates),
    cmocka_unit_test(test_text_calendar_days_and_dates_round_trip),
    cmocka_unit_test(test_text_calendar_extreme_days_have_dates),
    cmocka_unit_test(test_text_calendar_dates_beyond_int64_days_are_refused),
    cmocka_unit_test(test_text_calendar_datetimes_read_as_numpy_str),
    cmocka_unit_test(test_text_calendar_datetimes_without_a_date_have_no_text));

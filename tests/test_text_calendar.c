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

/* NumPy's answers: np.datetime64(TEXT).astype('M8[MULT UNIT]') as an
 * integer, and whether it equals np.datetime64(TEXT). */
static const struct {
    const char *text;
    int unit;
    int32_t mult;
    int64_t count;
    bool exact;
} numpy_reads[] = {
    {"2024", D, 1, INT64_C(19723), true},
    {"2024-02-29", D, 1, INT64_C(19782), true},
    {"2024-02-29T13", h, 1, INT64_C(474781), true},
    {"2024-02-29T13:45", s, 1, INT64_C(1709214300), true},
    {"1969-12-31T23:59:59.5", s, 1, INT64_C(-1), false},
    {"1969-12-31T23:59:59.5", ms, 1, INT64_C(-500), true},
    {"1969-12-31T23:59:59.999999999999999999", as, 1, INT64_C(-1), true},
    {"1970-01-08", W, 1, INT64_C(1), true},
    {"1970-01-09", W, 1, INT64_C(1), false},
    {"1969-12-31", W, 1, INT64_C(-1), false},
    {"2024-03", M, 1, INT64_C(650), true},
    {"2024-03-02", M, 1, INT64_C(650), false},
    {"2024-01-01", Y, 1, INT64_C(54), true},
    {"2024-06-01", Y, 1, INT64_C(54), false},
    {"-0001-03-01", D, 1, INT64_C(-719834), true},
    {"2000-01-01T00:00:10", s, 25, INT64_C(37867392), false},
    {"2000-01-01T00:00:25", s, 25, INT64_C(37867393), true},
    {"1969-12-31T23:59:50", s, 25, INT64_C(-1), false},
    {"2262-04-11T23:47:16.854775807", ns, 1, INT64_C(9223372036854775807), true},
    {"10000-01-01", D, 1, INT64_C(2932897), true},
    {"2024-01-01 12:30", m, 1, INT64_C(28401870), true},
    {"2024-01-01T00:00:00.123456", us, 1, INT64_C(1704067200123456), true},
    {"2024-01-01T00:00:00.1234567", us, 1, INT64_C(1704067200123456), false},
    {"1900-01-01T01", h, 7, INT64_C(-87659), false},
};

static void test_text_calendar_iso_text_reads_to_numpys_counts(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof numpy_reads / sizeof numpy_reads[0]; i++) {
        int64_t count = 0;
        bool exact = !numpy_reads[i].exact;
        const char *t = numpy_reads[i].text;
        if (text_datetime_read(t, strlen(t), numpy_reads[i].unit, numpy_reads[i].mult, &count,
                               &exact) != 0 ||
            count != numpy_reads[i].count || exact != numpy_reads[i].exact)
            fail_msg("%s: %lld (%s), expected %lld (%s)", t, (long long)count,
                     exact ? "exact" : "floored", (long long)numpy_reads[i].count,
                     numpy_reads[i].exact ? "exact" : "floored");
    }
}

static void test_text_calendar_iso_text_that_is_no_date_is_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "", "202", "2024-2", "2024-13", "2023-02-29", "2024-04-31", "2024-01-01T24",
        "2024-01-01T12:60", "2024-01-01T12:00:60", "2024-01-01T12:00:00.", "2024-01-01T",
        "2024-01-01Z", "2024-01-01T12:00:00+01:00", "2024-01-01T12:00:00.1234567890123456789",
        "NaT", "today", "2024-01-01T1", "1e3", " 2024"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t count;
        bool exact;
        if (text_datetime_read(bad[i], strlen(bad[i]), s, 1, &count, &exact) != -1)
            fail_msg("'%s' read as a date", bad[i]);
    }
    int64_t count;
    bool exact;
    assert_int_equal(text_datetime_read("2024", 4, GENERIC, 1, &count, &exact), -1);
}

static void test_text_calendar_iso_text_beyond_the_unit_is_out_of_range(void **state)
{
    (void)state;
    int64_t count;
    bool exact;
    assert_int_equal(text_datetime_read("2263-01-01", 10, ns, 1, &count, &exact), 1);
    assert_int_equal(text_datetime_read("1677-09-21T00:12:43.145224192", 29, ns, 1, &count,
                                        &exact), 1);   /* NaT's count */
    assert_int_equal(text_datetime_read("999999999999-01-01", 18, as, 1, &count, &exact), 1);
    assert_int_equal(text_datetime_read("999999999999-01-01", 18, D, 1, &count, &exact), 0);
}

TEST_LIST("text_calendar",
    cmocka_unit_test(test_text_calendar_known_days_are_their_dates),
    cmocka_unit_test(test_text_calendar_days_and_dates_round_trip),
    cmocka_unit_test(test_text_calendar_extreme_days_have_dates),
    cmocka_unit_test(test_text_calendar_dates_beyond_int64_days_are_refused),
    cmocka_unit_test(test_text_calendar_datetimes_read_as_numpy_str),
    cmocka_unit_test(test_text_calendar_datetimes_without_a_date_have_no_text),
    cmocka_unit_test(test_text_calendar_iso_text_reads_to_numpys_counts),
    cmocka_unit_test(test_text_calendar_iso_text_that_is_no_date_is_refused),
    cmocka_unit_test(test_text_calendar_iso_text_beyond_the_unit_is_out_of_range));

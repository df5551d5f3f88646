/* The JSON Lines plan (src/cli/load/jsonl_plan.c), read in one pass over a line's bytes, against the general walk it
 * stands in for: whenever the plan takes a line, the general walk reads
 * the same line without error into the same bytes. Lines as dump writes
 * them are built with every value drawn from lists of edge cases (range
 * limits of each integer size, floats beyond float32, -0, null, strings
 * that escape or do not fit, values of the wrong sort); the plan must
 * also take the ordinary ones. */
#include "test_util.h"

#define JSONL_TOKENIZER   /* this file compiles its own copy of jsmn */
#include "cli/load/jsonl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ints[] = {
    "0", "1", "-0", "-1", "127", "128", "-128", "-129", "255", "256", "32767", "32768",
    "-32768", "-32769", "65535", "65536", "2147483647", "2147483648", "-2147483648",
    "-2147483649", "4294967295", "4294967296", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
    "18446744073709551616", "1234567890123456789", "01", "-01", "1.0", "1e2", "-", "true",
    "null", "\"1\"", "1.5", "[1]", "\"NaT\""};
static const char *const floats[] = {
    "0", "-0", "0.0", "-0.0", "1.5", "-2.25e-7", "3.4028234663852886e38",
    "3.4028235677973366e38", "3.4028235677973362e38", "-3.4028235677973366e38", "1e39",
    "-1e39", "1e308", "1e309", "5e-324", "1e-400", "null", "\"nan\"", "\"-inf\"", "true",
    "1.", "01", "123456789012345678901", "0.1", "9007199254740993", "1.2.3", "-", "[1]",
    "9.999250037498125e-05", "2.5E+10"};
static const char *const strings[] = {"\"\"", "\"ab\"", "\"abc\"", "\"abcd\"", "\"a\\u0041\"",
                                      "\"\\n\"", "\"\xc3\xa9\"", "\"\\u00e9\"", "1", "null",
                                      "[\"a\"]"};
static const char *const bools[] = {"true", "false", "0", "1", "null", "\"true\"", "tru"};

/* A record's line: its text with one "%" per value, and the list each
 * value comes from. */
struct shape {
    const char *dtype;
    const char *line;
    const char *const *const *lists;
    const size_t *sizes;
    size_t nvalues;
};

static uint64_t next(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* The line with the value at each "%" drawn from the first two entries of
 * its list (values every field of the list's sort takes), but for one or
 * two values drawn from the whole list unless ordinary is set. */
static void make_line(const struct shape *sh, uint64_t *rng, int ordinary, char *out, size_t size)
{
    size_t o = 0, v = 0;
    size_t odd1 = ordinary ? SIZE_MAX : next(rng) % sh->nvalues;
    size_t odd2 = ordinary || next(rng) % 2 ? SIZE_MAX : next(rng) % sh->nvalues;
    for (const char *p = sh->line; *p; p++) {
        const char *piece = NULL;
        char one[2] = {*p, 0};
        if (*p == '%') {
            size_t k = next(rng) % (v == odd1 || v == odd2 ? sh->sizes[v] : 2);
            piece = sh->lists[v][k];
            v++;
        }
        int n = snprintf(out + o, size - o, "%s", piece ? piece : one);
        assert_true(n >= 0 && (size_t)n < size - o);
        o += (size_t)n;
    }
}

/* Runs count lines of sh through both; returns how many the plan took. */
static size_t compare(const struct shape *sh, int ordinary, size_t count)
{
    npydt_dtype *dt = test_parse_literal(sh->dtype);
    npydt_error err;
    struct load_record rec;
    assert_int_equal(load_record_init(&rec, dt, &err), NPYDT_OK);
    struct jsonl_plan *plan = jsonl_plan_new(dt);
    assert_non_null(plan);
    unsigned char *fast = malloc(rec.itemsize + 1);
    assert_non_null(fast);
    jsmntok_t toks[256];
    char line[1024], sbuf[1024];
    uint64_t rng = 0x2545F4914F6CDD1Du;
    size_t taken = 0;
    for (size_t i = 0; i < count; i++) {
        make_line(sh, &rng, ordinary, line, sizeof line);
        jsmn_parser p;
        jsmn_init(&p);
        int nt = jsmn_parse(&p, line, strlen(line), toks, 256);
        if (nt <= 0)
            continue;   /* not JSON: the tokenizer's error, before either */
        if (!jsonl_plan_read(plan, line, strlen(line), fast))
            continue;
        taken++;
        npydt_status st = jsonl_walk(line, toks, nt, &rec, sbuf, &err);
        if (st != NPYDT_OK)
            fail_msg("the plan took %s; the general walk says %s: %s", line, err.path,
                     err.message);
        if (memcmp(fast, rec.bytes, rec.itemsize) != 0)
            fail_msg("the plan and the general walk read %s to different bytes", line);
    }
    free(fast);
    jsonl_plan_free(plan);
    load_record_free(&rec);
    npydt_dtype_free(dt);
    return taken;
}

static const char *const *const every_kind_lists[] = {ints, ints, ints, ints, ints, ints, ints,
                                                      ints, floats, floats, floats, floats,
                                                      floats, floats, ints, strings, bools};
static const size_t every_kind_sizes[] = {
    sizeof ints / sizeof *ints,     sizeof ints / sizeof *ints,     sizeof ints / sizeof *ints,
    sizeof ints / sizeof *ints,     sizeof ints / sizeof *ints,     sizeof ints / sizeof *ints,
    sizeof ints / sizeof *ints,     sizeof ints / sizeof *ints,     sizeof floats / sizeof *floats,
    sizeof floats / sizeof *floats, sizeof floats / sizeof *floats, sizeof floats / sizeof *floats,
    sizeof floats / sizeof *floats, sizeof floats / sizeof *floats, sizeof ints / sizeof *ints,
    sizeof strings / sizeof *strings, sizeof bools / sizeof *bools};

static const struct shape every_kind = {
    "[('a','<i1'),('b','<i2'),('c','>i4'),('d','<i8'),('e','<u1'),('f','>u2'),('g','<u4'),"
    "('h','>u8'),('i','<f4'),('j','>f8'),('k','<c16'),('l','>c8'),('m','<m8[s]'),('n','|S3'),"
    "('o','?')]",
    "{\"a\":%,\"b\":%,\"c\":%,\"d\":%,\"e\":%,\"f\":%,\"g\":%,\"h\":%,\"i\":%,\"j\":%,"
    "\"k\":[%,%],\"l\":[%,%],\"m\":%,\"n\":%,\"o\":%}",
    every_kind_lists, every_kind_sizes, 17};

static const char *const *const nested_lists[] = {floats, ints, ints, ints, floats, ints, ints,
                                                  ints, strings};
static const size_t nested_sizes[] = {
    sizeof floats / sizeof *floats, sizeof ints / sizeof *ints, sizeof ints / sizeof *ints,
    sizeof ints / sizeof *ints,     sizeof floats / sizeof *floats, sizeof ints / sizeof *ints,
    sizeof ints / sizeof *ints,     sizeof ints / sizeof *ints, sizeof strings / sizeof *strings};

static const struct shape nested = {
    "[('p',[('q','<f8'),('r','>i2',(3,))],(2,)),('s','|S2')]",
    "{\"p\":[{\"q\":%,\"r\":[%,%,%]},{\"q\":%,\"r\":[%,%,%]}],\"s\":%}", nested_lists,
    nested_sizes, 9};

static void test_jsonl_plan_takes_only_what_the_general_walk_reads_alike(void **state)
{
    (void)state;
    /* the plan takes the lines whose odd values fit, and no other */
    size_t a = compare(&every_kind, 0, 60000), b = compare(&nested, 0, 30000);
    assert_true(a > 10000 && a < 50000);
    assert_true(b > 5000 && b < 25000);
}

static void test_jsonl_plan_takes_ordinary_lines(void **state)
{
    (void)state;
    assert_int_equal(compare(&every_kind, 1, 1000), 1000);
    assert_int_equal(compare(&nested, 1, 1000), 1000);
}

static void test_jsonl_plan_leaves_other_key_orders_to_the_general_walk(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('x','<i4'),('y','<i4')]");
    struct jsonl_plan *plan = jsonl_plan_new(dt);
    assert_non_null(plan);
    const char *lines[] = {"{\"y\":1,\"x\":2}", "{\"x\":1}", "[1,2]", "{\"x\":1,\"y\":2,\"z\":3}",
                           "{\"x\":1,\"x\":2}", "{\"x\\u0000\":1,\"y\":2}"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        unsigned char bytes[8];
        assert_int_equal(jsonl_plan_read(plan, lines[i], strlen(lines[i]), bytes), 0);
    }
    jsonl_plan_free(plan);
    npydt_dtype_free(dt);
}

static void test_jsonl_plan_leaves_other_nestings_to_the_general_walk(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal("[('p',[('q','<i4'),('t','<i4')]),('r','<i4',(2,))]");
    struct jsonl_plan *plan = jsonl_plan_new(dt);
    assert_non_null(plan);
    /* as many tokens as the plan's line, in another nesting */
    const char *lines[] = {"{\"p\":[1,2],\"r\":[1,2]}", "{\"p\":{\"q\":1,\"t\":2},\"r\":{\"a\":1}}",
                           "{\"p\":{\"q\":1,\"t\":2},\"r\":[[1,2]]}"};
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        unsigned char bytes[16];
        assert_int_equal(jsonl_plan_read(plan, lines[i], strlen(lines[i]), bytes), 0);
    }
    jsonl_plan_free(plan);
    npydt_dtype_free(dt);
}

static void test_jsonl_plan_is_not_made_for_kinds_it_does_not_convert(void **state)
{
    (void)state;
    /* kinds without a step, empty elements, more tokens than a plan holds
     * (in one subarray, or in all fields together) */
    const char *const others[] = {"[('u','<U3')]", "[('v','|V4')]", "[('h','<f2')]",
                                  "[('a\\\\b','<i4')]", "[('e','|S0')]",
                                  "[('big','<i4',(300000,))]",
                                  "[('a','<i4',(200000,)),('b','<i4',(100000,))]"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        npydt_dtype *dt = test_parse_literal(others[i]);
        struct jsonl_plan *plan = jsonl_plan_new(dt);
        if (plan)
            fail_msg("a plan for %s", others[i]);
        npydt_dtype_free(dt);
    }
}

TEST_LIST("jsonl_plan",
    cmocka_unit_test(test_jsonl_plan_takes_only_what_the_general_walk_reads_alike),
    cmocka_unit_test(test_jsonl_plan_takes_ordinary_lines),
    cmocka_unit_test(test_jsonl_plan_leaves_other_key_orders_to_the_general_walk),
    cmocka_unit_test(test_jsonl_plan_leaves_other_nestings_to_the_general_walk),
    cmocka_unit_test(test_jsonl_plan_is_not_made_for_kinds_it_does_not_convert));

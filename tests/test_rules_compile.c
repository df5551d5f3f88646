/* Value rules compiled from their dict literal: what is accepted, and
 * every error, with its status, its offset in the text and the path. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT "[('t', '<M8[ns]'), ('pos', [('x', '<f8'), ('y', '>f4')]), ('id', '<i4'), " \
           "('name', 'S6'), ('u', '<U4'), ('m', '<u2', (3,)), ('c', '<c8'), ('b', '|b1')]"

/* Compile text against DT (or no dtype): the status, err filled. */
static npydt_status compile(const char *text, int placed, const npydt_rules_options *o,
                            npydt_error *err)
{
    npydt_dtype *dt = placed ? test_parse_literal(DT) : NULL;
    npydt_rules *r = (npydt_rules *)&r;
    test_poison_error(err);
    npydt_status st = npydt_rules_compile(text, strlen(text), dt, o, &r, err);
    if (st == NPYDT_OK) {
        assert_non_null(r);
        npydt_rules_free(r);
    } else {
        assert_null(r);
        test_assert_error_filled(st, err);
    }
    npydt_dtype_free(dt);
    return st;
}

/* The compile fails with code at offset, naming path, its message holding
 * `says`. */
static void refused(const char *text, int placed, npydt_status code, size_t offset,
                    const char *path, const char *says)
{
    npydt_error err;
    npydt_status st = compile(text, placed, NULL, &err);
    if (st != code || err.offset != offset || strcmp(err.path, path) != 0 ||
        !strstr(err.message, says))
        fail_msg("%s: got %s at %zu, path '%s': %s", text, npydt_status_name(st), err.offset,
                 err.path, err.message);
}

static void accepted(const char *text)
{
    npydt_error err;
    if (compile(text, 1, NULL, &err) != NPYDT_OK)
        fail_msg("%s: %s at %zu: %s", text, npydt_status_name(err.code), err.offset, err.message);
}

static void test_rules_compile_every_rule_on_a_field_it_applies_to(void **state)
{
    (void)state;
    accepted("{'t': {'nat': False, 'sorted': 'ascending', 'min': 0, 'unique': True,"
             " 'values': [1, 2]},"
             " 'pos.x': {'min': -180.0, 'max': 180, 'exclusive_min': -1e999,"
             " 'exclusive_max': 1_000.5, 'nan': False, 'inf': True,"
             " 'sorted': 'strictly_descending', 'values': (1, 2.5)},"
             " 'id': {'unique': True, 'values': [1, True, 2.0, 2.5, -3]},"
             " 'name': {'values': [b'alpha'], 'min_len': 1, 'max_len': 6, 'utf8': True,"
             " 'ascii': True},"
             " 'u': {'values': ['\\xe9t\\xe9'], 'ascii': False, 'unique': False},"
             " 'm': {'min': 0}, 'c': {'nan': False, 'inf': False},"
             " 'b': {'values': [True], 'sorted': 'ascending'}}");
}

static void test_rules_compile_counts_rules_in_text_order(void **state)
{
    (void)state;
    npydt_dtype *dt = test_parse_literal(DT);
    npydt_rules *r;
    TEST_ERROR(err);
    const char *text = "{'id': {'min': 0, 'max': 9}, 'pos.y': {'nan': False}}";
    assert_int_equal(npydt_rules_compile(text, strlen(text), dt, NULL, &r, &err), NPYDT_OK);
    assert_int_equal(npydt_rules_count(r), 3);
    npydt_rules_check *c;
    assert_int_equal(npydt_rules_check_new(r, &c, &err), NPYDT_OK);
    const npydt_rule_result *res = npydt_rules_check_result(c, 2);
    assert_string_equal(res->rule, "nan");
    assert_string_equal(res->path, "pos.y");
    assert_int_equal(res->expected_len, 5);
    assert_memory_equal(res->expected, "False", 5);
    assert_int_equal(res->offset, 39);
    assert_null(npydt_rules_check_result(c, 3));
    npydt_rules_check_free(c);
    npydt_rules_free(r);
    npydt_dtype_free(dt);
}

static void test_rules_compile_without_dtype_reads_keys_and_values_only(void **state)
{
    (void)state;
    npydt_error err;
    /* no field is looked up, no type compared */
    assert_int_equal(compile("{'nowhere': {'nan': False, 'min_len': 2}}", 0, NULL, &err),
                     NPYDT_OK);
    refused("{'nowhere': {'nan': 0}}", 0, NPYDT_E_VALUE, 20, "nowhere",
            "'nan' takes True or False, found an integer");
}

static void test_rules_compile_refuses_text_that_is_no_literal(void **state)
{
    (void)state;
    refused("{'id': {'min': 0}", 1, NPYDT_E_SYNTAX, 17, "", "expected");
}

static void test_rules_compile_refuses_rules_that_are_no_dict(void **state)
{
    (void)state;
    refused("  ['id']", 1, NPYDT_E_VALUE, 2, "", "rules are a dict of field paths, found a list");
}

static void test_rules_compile_refuses_a_key_that_is_no_string(void **state)
{
    (void)state;
    refused("{1: {'min': 0}}", 1, NPYDT_E_KEY, 1, "",
            "a key of the rules is a field path (a string), found an integer");
}

static void test_rules_compile_refuses_a_path_given_twice(void **state)
{
    (void)state;
    refused("{'id': {}, 'id': {}}", 1, NPYDT_E_KEY, 11, "id", "field path given twice");
}

static void test_rules_compile_refuses_rules_of_a_field_that_are_no_dict(void **state)
{
    (void)state;
    refused("{'id': ['min']}", 1, NPYDT_E_VALUE, 7, "id",
            "the rules of a field are a dict, found a list");
}

static void test_rules_compile_refuses_an_unknown_rule(void **state)
{
    (void)state;
    refused("{'id': {'mni': 0}}", 1, NPYDT_E_KEY, 8, "id", "unknown rule 'mni' (rules: min,");
}

static void test_rules_compile_refuses_a_rule_name_that_is_no_string(void **state)
{
    (void)state;
    refused("{'id': {None: 0}}", 1, NPYDT_E_KEY, 8, "id", "a rule's name is a string, found None");
}

static void test_rules_compile_refuses_a_rule_given_twice(void **state)
{
    (void)state;
    refused("{'id': {'min': 0, 'min': 1}}", 1, NPYDT_E_KEY, 18, "id", "rule 'min' given twice");
}

static void test_rules_compile_refuses_a_path_the_dtype_lacks(void **state)
{
    (void)state;
    refused("{'id': {}, 'pos.z': {'min': 0}}", 1, NPYDT_E_NOT_FOUND, 11, "pos.z", "");
}

static void test_rules_compile_refuses_a_bound_on_a_struct(void **state)
{
    (void)state;
    refused("{'pos': {'min': 0}}", 1, NPYDT_E_VALUE, 9, "pos",
            "rule 'min' cannot apply to a struct ('|V12'): it is for integers, floats,");
}

static void test_rules_compile_refuses_nan_on_an_integer(void **state)
{
    (void)state;
    refused("{'id': {'nan': False}}", 1, NPYDT_E_VALUE, 8, "id",
            "rule 'nan' cannot apply to '<i4': it is for floats and complex numbers");
}

static void test_rules_compile_refuses_nat_on_a_float(void **state)
{
    (void)state;
    refused("{'pos.x': {'nat': False}}", 1, NPYDT_E_VALUE, 11, "pos.x",
            "rule 'nat' cannot apply to '<f8': it is for datetime64 and timedelta64");
}

static void test_rules_compile_refuses_a_bound_on_complex_bool_and_strings(void **state)
{
    (void)state;
    refused("{'c': {'max': 1}}", 1, NPYDT_E_VALUE, 7, "c", "rule 'max' cannot apply to '<c8'");
    refused("{'b': {'min': 0}}", 1, NPYDT_E_VALUE, 7, "b", "rule 'min' cannot apply to '|b1'");
    refused("{'name': {'min': 0}}", 1, NPYDT_E_VALUE, 10, "name",
            "rule 'min' cannot apply to '|S6'");
}

static void test_rules_compile_refuses_lengths_on_numbers(void **state)
{
    (void)state;
    refused("{'id': {'max_len': 3}}", 1, NPYDT_E_VALUE, 8, "id",
            "rule 'max_len' cannot apply to '<i4': it is for bytes (S) and str (U)");
}

static void test_rules_compile_refuses_utf8_on_str(void **state)
{
    (void)state;
    refused("{'u': {'utf8': True}}", 1, NPYDT_E_VALUE, 7, "u",
            "rule 'utf8' cannot apply to '<U4': it is for bytes (S)");
}

static void test_rules_compile_names_a_subarray_by_its_elements(void **state)
{
    (void)state;
    refused("{'m': {'nan': True}}", 1, NPYDT_E_VALUE, 7, "m",
            "rule 'nan' cannot apply to a subarray ('<u2', (3,)): it is for floats and");
}

static void test_rules_compile_refuses_a_bound_that_is_no_number(void **state)
{
    (void)state;
    refused("{'id': {'min': '0'}}", 1, NPYDT_E_VALUE, 15, "id",
            "'min' takes a number, found a string");
    refused("{'id': {'max': True}}", 1, NPYDT_E_VALUE, 15, "id", "'max' takes a number, found a bool");
    refused("{'pos.x': {'max': 1j}}", 1, NPYDT_E_VALUE, 18, "pos.x",
            "'max' takes a number, found a number");
}

static void test_rules_compile_refuses_a_float_bound_on_a_datetime(void **state)
{
    (void)state;
    refused("{'t': {'min': 1.5}}", 1, NPYDT_E_VALUE, 14, "t",
            "'min' of a datetime64 field takes an integer count of its unit or a date");
}

static void test_rules_compile_refuses_flags_that_are_no_bool(void **state)
{
    (void)state;
    refused("{'pos.x': {'inf': 'no'}}", 1, NPYDT_E_VALUE, 18, "pos.x",
            "'inf' takes True or False, found a string");
}

static void test_rules_compile_refuses_a_length_that_is_no_count(void **state)
{
    (void)state;
    refused("{'name': {'min_len': -1}}", 1, NPYDT_E_VALUE, 21, "name",
            "'min_len' takes a length (an integer >= 0), found a negative one");
    refused("{'name': {'max_len': 1.0}}", 1, NPYDT_E_VALUE, 21, "name",
            "'max_len' takes a length (an integer >= 0), found a number");
}

static void test_rules_compile_refuses_an_unknown_order(void **state)
{
    (void)state;
    refused("{'id': {'sorted': 'up'}}", 1, NPYDT_E_VALUE, 18, "id",
            "'sorted' takes 'ascending', 'descending', 'strictly_ascending' or "
            "'strictly_descending', found another string");
}

static void test_rules_compile_refuses_values_that_are_no_list(void **state)
{
    (void)state;
    refused("{'id': {'values': {1: 2}}}", 1, NPYDT_E_VALUE, 18, "id",
            "'values' takes a list or a tuple, found a dict");
}

static void test_rules_compile_refuses_values_of_another_type(void **state)
{
    (void)state;
    refused("{'id': {'values': [1, [2]]}}", 1, NPYDT_E_VALUE, 22, "id",
            "'values' holds a list: numbers, str or bytes only");
    refused("{'name': {'values': [b'a', 'b']}}", 1, NPYDT_E_VALUE, 27, "name",
            "'values' of a bytes (S) field: bytes only holds a string");
    refused("{'u': {'values': [b'a']}}", 1, NPYDT_E_VALUE, 18, "u",
            "'values' of a str (U) field: str only holds bytes");
    refused("{'id': {'values': ['1']}}", 1, NPYDT_E_VALUE, 19, "id",
            "'values' of a number field holds a string: numbers only");
    refused("{'t': {'values': [1.5]}}", 1, NPYDT_E_VALUE, 18, "t",
            "'values' of a datetime64 field holds a number");
}

static void test_rules_compile_refuses_more_values_than_max_values(void **state)
{
    (void)state;
    npydt_rules_options o;
    npydt_rules_options_init(&o);
    o.max_values = 3;
    npydt_error err;
    assert_int_equal(compile("{'id': {'values': [1, 2]}, 'm': {'values': [1, 2]}}", 1, &o, &err),
                     NPYDT_E_LIMIT);
    assert_int_equal(err.offset, 43);
    assert_string_equal(err.message, "more than 3 elements in 'values' lists (max_values)");
    assert_int_equal(compile("{'id': {'values': [1, 2]}, 'm': {'values': [1]}}", 1, &o, &err),
                     NPYDT_OK);
}

static void test_rules_compile_refuses_nesting_past_the_depth_limit(void **state)
{
    (void)state;
    npydt_rules_options o;
    npydt_rules_options_init(&o);
    o.base.limits.max_depth = 4;
    npydt_error err;
    assert_int_equal(compile("{'id': {'values': [[[1]]]}}", 1, &o, &err), NPYDT_E_LIMIT);
    assert_int_equal(err.offset, 20);
    /* the default limit stops deep text too, long before the C stack */
    char *deep = malloc(100000 + 40);
    assert_non_null(deep);
    strcpy(deep, "{'id': {'values': ");
    size_t k = strlen(deep);
    for (int i = 0; i < 50000; i++)
        deep[k++] = '[';
    for (int i = 0; i < 50000; i++)
        deep[k++] = ']';
    strcpy(deep + k, "}}");
    assert_int_equal(compile(deep, 1, NULL, &err), NPYDT_E_LIMIT);
    free(deep);
}

static void test_rules_compile_refuses_options_with_reserved_room(void **state)
{
    (void)state;
    npydt_rules_options o;
    npydt_rules_options_init(&o);
    o.reserved[1] = 1;
    npydt_error err;
    assert_int_equal(compile("{}", 1, &o, &err), NPYDT_E_ARG);
}

static void test_rules_compile_refuses_null_arguments(void **state)
{
    (void)state;
    TEST_ERROR(err);
    assert_int_equal(npydt_rules_compile("{}", 2, NULL, NULL, NULL, &err), NPYDT_E_ARG);
    npydt_rules *r;
    assert_int_equal(npydt_rules_compile(NULL, 2, NULL, NULL, &r, &err), NPYDT_E_ARG);
    assert_null(r);
    npydt_rules_free(NULL);
    assert_int_equal(npydt_rules_count(NULL), 0);
}

static void test_rules_check_needs_rules_placed_on_a_dtype(void **state)
{
    (void)state;
    npydt_rules *r;
    npydt_rules_check *c;
    TEST_ERROR(err);
    assert_int_equal(npydt_rules_compile("{}", 2, NULL, NULL, &r, &err), NPYDT_OK);
    assert_fails(NPYDT_E_ARG, &err, npydt_rules_check_new(r, &c, &err));
    assert_null(c);
    npydt_rules_free(r);
}

static void test_rules_compile_dates_bound_datetime_fields(void **state)
{
    (void)state;
    accepted("{'t': {'min': '2024-01-01T00:00:00.123456789', 'exclusive_max': '2025',"
             " 'values': ['2024-01-01', '2024-01-01 12:00:00.0000000001']}}");
    npydt_error err;
    assert_int_equal(compile("{'t': {'min': '2024-01-31T23:59'}}", 0, NULL, &err), NPYDT_OK);
}

static void test_rules_compile_a_date_that_does_not_exist_is_refused_at_its_offset(void **state)
{
    (void)state;
    refused("{'t': {'min': '2024-02-30'}}", 1, NPYDT_E_VALUE, 14, "t", "ISO 8601");
    refused("{'t': {'max': '2024-01-01Z'}}", 0, NPYDT_E_VALUE, 14, "t", "a string that is no date");
    refused("{'t': {'values': [1, '2024-1-1']}}", 1, NPYDT_E_VALUE, 21, "t", "ISO 8601");
}

static void test_rules_compile_a_date_beyond_the_fields_unit_is_refused(void **state)
{
    (void)state;
    refused("{'t': {'min': '2263-01-01'}}", 1, NPYDT_E_VALUE, 14, "t", "beyond");
}

static void test_rules_compile_a_date_bounds_only_datetime_fields(void **state)
{
    (void)state;
    refused("{'id': {'min': '2024'}}", 1, NPYDT_E_VALUE, 15, "id", "takes a number, found a str");
}

TEST_LIST("rules_compile",
    cmocka_unit_test(test_rules_compile_dates_bound_datetime_fields),
    cmocka_unit_test(test_rules_compile_a_date_that_does_not_exist_is_refused_at_its_offset),
    cmocka_unit_test(test_rules_compile_a_date_beyond_the_fields_unit_is_refused),
    cmocka_unit_test(test_rules_compile_a_date_bounds_only_datetime_fields),
    cmocka_unit_test(test_rules_compile_every_rule_on_a_field_it_applies_to),
    cmocka_unit_test(test_rules_compile_counts_rules_in_text_order),
    cmocka_unit_test(test_rules_compile_without_dtype_reads_keys_and_values_only),
    cmocka_unit_test(test_rules_compile_refuses_text_that_is_no_literal),
    cmocka_unit_test(test_rules_compile_refuses_rules_that_are_no_dict),
    cmocka_unit_test(test_rules_compile_refuses_a_key_that_is_no_string),
    cmocka_unit_test(test_rules_compile_refuses_a_path_given_twice),
    cmocka_unit_test(test_rules_compile_refuses_rules_of_a_field_that_are_no_dict),
    cmocka_unit_test(test_rules_compile_refuses_an_unknown_rule),
    cmocka_unit_test(test_rules_compile_refuses_a_rule_name_that_is_no_string),
    cmocka_unit_test(test_rules_compile_refuses_a_rule_given_twice),
    cmocka_unit_test(test_rules_compile_refuses_a_path_the_dtype_lacks),
    cmocka_unit_test(test_rules_compile_refuses_a_bound_on_a_struct),
    cmocka_unit_test(test_rules_compile_refuses_nan_on_an_integer),
    cmocka_unit_test(test_rules_compile_refuses_nat_on_a_float),
    cmocka_unit_test(test_rules_compile_refuses_a_bound_on_complex_bool_and_strings),
    cmocka_unit_test(test_rules_compile_refuses_lengths_on_numbers),
    cmocka_unit_test(test_rules_compile_refuses_utf8_on_str),
    cmocka_unit_test(test_rules_compile_names_a_subarray_by_its_elements),
    cmocka_unit_test(test_rules_compile_refuses_a_bound_that_is_no_number),
    cmocka_unit_test(test_rules_compile_refuses_a_float_bound_on_a_datetime),
    cmocka_unit_test(test_rules_compile_refuses_flags_that_are_no_bool),
    cmocka_unit_test(test_rules_compile_refuses_a_length_that_is_no_count),
    cmocka_unit_test(test_rules_compile_refuses_an_unknown_order),
    cmocka_unit_test(test_rules_compile_refuses_values_that_are_no_list),
    cmocka_unit_test(test_rules_compile_refuses_values_of_another_type),
    cmocka_unit_test(test_rules_compile_refuses_more_values_than_max_values),
    cmocka_unit_test(test_rules_compile_refuses_nesting_past_the_depth_limit),
    cmocka_unit_test(test_rules_compile_refuses_options_with_reserved_room),
    cmocka_unit_test(test_rules_compile_refuses_null_arguments),
    cmocka_unit_test(test_rules_check_needs_rules_placed_on_a_dtype),
);

#!/bin/sh
# `npydt check --rules`: exit statuses, stderr lines and --json reports on
# the committed fixtures, rules errors as usage errors, then (when
# /usr/bin/python3 imports NumPy) the differential test of verdicts,
# counts and first indices against NumPy (tests/rules_differential.py).
# Prints `rules: N passed, M failed`.
set -u
NPYDT=${NPYDT:-build/npydt}
PYTHON=${PYTHON:-/usr/bin/python3}
F=${FIXTURES:-tests/fixtures}
RULES_COUNT=${RULES_COUNT:-1000}
# a fixed seed, so that a run is repeatable (RULES_SEED=N for another)
RULES_SEED=${RULES_SEED:-1}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL rules: $*"; }

# expect NAME STATUS STDOUT STDERR -- ARGS...: exact stdout and stderr
expect() {
    name=$1 status=$2 want_out=$3 want_err=$4
    shift 5
    "$NPYDT" check "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    printf '%s' "$want_out" >"$tmp/want_out"
    printf '%s' "$want_err" >"$tmp/want_err"
    if [ "$rc" -ne "$status" ]; then
        bad "$name: exit $rc, expected $status; stderr: $(cat "$tmp/err")"
    elif ! cmp -s "$tmp/out" "$tmp/want_out"; then
        bad "$name: stdout differs:"; diff "$tmp/want_out" "$tmp/out"
    elif ! cmp -s "$tmp/err" "$tmp/want_err"; then
        bad "$name: stderr differs:"; diff "$tmp/want_err" "$tmp/err"
    else
        ok
    fi
}

if [ ! -x "$NPYDT" ]; then
    echo "rules: 0 passed, 1 failed"
    echo "FAIL rules: $NPYDT is not built"
    exit 1
fi

S="$F/struct_simple.npy"    # [('x', '<f8'), ('y', '<i4'), ('name', '|S5')], shape (3,)
BE="$F/scalar_f8_be.npy"    # '>f8': 0.0 -0.0 1.5 -2.25 nan inf -inf max -max tiny 5e-324 0.1 1/3
FO="$F/fortran_2d.npy"      # '<i4', fortran_order True, shape (2, 3): 0..5 in C order
NL='
'

expect values_that_keep_the_rules_exit_0 0 '' '' -- \
    --rules "{'': {'min': 0, 'max': 5, 'sorted': 'strictly_ascending', 'unique': True}}" "$FO"
expect each_failing_rule_is_a_line_with_its_first_elements 1 '' \
"$BE: rule failed: dtype: sorted 'ascending': 4 elements break it, first [3] -2.25, [6] -inf, [8] -1.7976931348623157e+308, [10] 5e-324$NL$BE: rule failed: dtype: nan False: 1 element breaks it, first [4] nan$NL" -- \
    --rules "{'': {'sorted': 'ascending', 'nan': False, 'inf': True}}" "$BE"
expect fortran_order_is_checked_in_c_order 1 '' \
"$FO: rule failed: dtype: sorted 'descending': 5 elements break it, first [1] 1, [2] 2, [3] 3, [4] 4, [5] 5$NL" -- \
    --rules "{'': {'sorted': 'descending'}}" "$FO"
expect json_lists_the_failing_rules 1 \
"{\"file\":\"$S\",\"match\":false,\"mismatches\":[],\"mismatches_total\":0,\"rules\":[{\"path\":\"y\",\"rule\":\"max\",\"expected\":\"1\",\"violations\":1,\"first\":[{\"index\":2,\"value\":\"1350637475\"}]}],\"verified\":\"size\",\"trailing_bytes\":0}$NL" \
"$S: rule failed: field y: max 1: 1 element breaks it, first [2] 1350637475$NL" -- \
    --json --rules "{'y': {'max': 1}, 'x': {'nan': False}}" "$S"
expect json_of_values_that_pass_has_an_empty_list 0 \
"{\"file\":\"$FO\",\"match\":true,\"mismatches\":[],\"mismatches_total\":0,\"rules\":[],\"verified\":\"size\",\"trailing_bytes\":0}$NL" '' -- \
    --json --rules "{'': {'max': 5}}" "$FO"
expect rules_combine_with_schema_in_one_run 1 '' \
"$S: schema mismatch: field x: size: expected <f4, found <f8$NL$S: rule failed: field y: min 0: 2 elements break it, first [0] -1201197172, [1] -2058525270$NL" -- \
    --schema "[('x', '<f4'), ('y', '<i4'), ('name', 'S5')]" --rules "{'y': {'min': 0}}" "$S"
expect a_field_the_file_lacks_does_not_match 1 '' \
"$FO: rules do not fit: rules offset 1: field pos: the dtype is not a struct$NL" -- \
    --rules "{'pos': {'min': 0}}" "$FO"
expect json_of_rules_that_do_not_fit 1 \
"{\"file\":\"$S\",\"match\":false,\"mismatches\":[],\"mismatches_total\":0,\"rules\":[],\"rules_error\":{\"status\":\"bad value\",\"message\":\"rule 'nan' cannot apply to '<i4': it is for floats and complex numbers\",\"path\":\"y\",\"offset\":7},\"verified\":\"size\",\"trailing_bytes\":0}$NL" \
"$S: rules do not fit: rules offset 7: field y: rule 'nan' cannot apply to '<i4': it is for floats and complex numbers$NL" -- \
    --json --rules "{'y': {'nan': False}}" "$S"
printf "{'x': {'min': 0.0}}\n" >"$tmp/rules.txt"
expect rules_from_a_file 1 '' \
"$S: rule failed: field x: min 0.0: 3 elements break it, first [0] -1.2894362275456961e+305, [1] -8.045533886627629e+53, [2] -5.78023954328928e-306$NL" -- \
    --rules "@$tmp/rules.txt" "$S"

# usage errors: the rules are read once, before any file
expect unknown_rule_is_a_usage_error 2 '' \
"npydt: check: --rules: rules offset 7: field x: unknown rule 'mni' (rules: min, max, exclusive_min, exclusive_max, nan, inf, nat, sorted, unique, values, min_len, max_len, utf8, ascii)${NL}Try 'npydt check --help'.$NL" -- \
    --rules "{'x': {'mni': 0}}" "$S"
expect wrong_value_type_is_a_usage_error 2 '' \
"npydt: check: --rules: rules offset 14: field x: 'min' takes a number, or for a datetime64 field a date as ISO 8601 text ('2024-01-31T12:30'), found a string that is no date${NL}Try 'npydt check --help'.$NL" -- \
    --rules "{'x': {'min': '0'}}" "$S"
expect a_rule_the_schema_type_refuses_is_a_usage_error 2 '' \
"npydt: check: --rules: rules offset 6: rule 'nan' cannot apply to '<i4': it is for floats and complex numbers${NL}Try 'npydt check --help'.$NL" -- \
    --schema "'<i4'" --rules "{'': {'nan': False}}" "$FO"
expect syntax_error_is_a_usage_error 2 '' \
"npydt: check: --rules: rules offset 8: expected '}' or ',', found end of header${NL}Try 'npydt check --help'.$NL" -- \
    --rules "{'x': {}" "$S"
expect schema_or_rules_is_required 2 '' \
"npydt: check: --schema SPEC or --rules RULES is required${NL}Try 'npydt check --help'.$NL" -- "$S"

# ---- dates as bounds of datetime64 fields (compared exactly: NumPy's
# comparison overflows when it converts [4] and [5] to milliseconds),
# strings in order, the unique limit
D="$F/scalar_M8_25s_be.npy"   # '>M8[25s]': 0 1 -1 1700000000 2**62 -(2**63-1) NaT
expect a_date_bounds_a_datetime_field_as_numpy_compares 1 '' \
"$D: rule failed: dtype: min '1970-01-01T00:00:00.5': 3 elements break it, first [0] 1970-01-01T00:00:00, [2] 1969-12-31T23:59:35, [5] -9223372036854775807 [25s]$NL$D: rule failed: dtype: max '9999': 1 element breaks it, first [4] 4611686018427387904 [25s]$NL" -- \
    --rules "{'': {'min': '1970-01-01T00:00:00.5', 'max': '9999'}}" "$D"
expect a_date_that_does_not_exist_is_a_usage_error 2 '' \
"npydt: check: --rules: rules offset 13: 'max' takes a number, or for a datetime64 field a date as ISO 8601 text ('2024-01-31T12:30'), found a string that is no date${NL}Try 'npydt check --help'.$NL" -- \
    --rules "{'': {'max': '2023-02-29'}}" "$D"
expect strings_are_sorted_as_numpy_orders_them 1 '' \
"$S: rule failed: field name: sorted 'descending': 1 element breaks it, first [2] b'\\x86e\\xcc\\xbf\\xae'$NL" -- \
    --rules "{'name': {'sorted': 'descending'}}" "$S"
expect unique_beyond_its_memory_is_a_limit 3 '' \
"$FO: limit exceeded: 'unique': 0 distinct values so far need more than 1024 bytes (max_unique_bytes)$NL" -- \
    --rules "{'': {'unique': True}}" --max-unique-bytes 1K "$FO"
expect max_unique_bytes_needs_rules 2 '' \
"npydt: check: --max-unique-bytes is for --rules${NL}Try 'npydt check --help'.$NL" -- \
    --schema '<i4' --max-unique-bytes 1M "$FO"
expect values_lists_beyond_max_values_are_a_usage_error 2 '' \
"npydt: check: --rules: rules offset 16: more than 5 elements in 'values' lists (max_values)${NL}Try 'npydt check --help'.$NL" -- \
    --rules "{'': {'values': [0, 1, 2, 3, 4, 5]}}" --max-values 5 "$FO"
expect max_values_raises_the_limit_of_values_lists 0 '' '' -- \
    --rules "{'': {'values': [0, 1, 2, 3, 4, 5]}}" --max-values 6 "$FO"
expect max_values_needs_rules 2 '' \
"npydt: check: --max-values is for --rules${NL}Try 'npydt check --help'.$NL" -- \
    --schema '<i4' --max-values 6 "$FO"
expect max_values_of_zero_is_a_usage_error 2 '' \
"npydt: check: --max-values takes a count of at least 1, not '0'${NL}Try 'npydt check --help'.$NL" -- \
    --rules "{'': {'values': [0]}}" --max-values 0 "$FO"

# half floats are compared exactly: 0.0999755859375 (float16(0.1)) breaks
# 'min': 0.1, which NumPy, rounding the bound to float16, lets pass; a
# bound that is a half float gets NumPy's verdict (7 of the 12 numbers
# below it, as np.sum(a < np.float16(0.1)) counts)
H="$F/scalar_f2_le.npy"     # '<f2': 0.0 -0.0 1.5 -2.25 nan inf -inf max -max tiny 6e-08 0.1 1/3
expect half_floats_are_compared_with_the_bound_exactly 1 '' \
"$H: rule failed: dtype: min 0.1: 8 elements break it, first [0] 0.0, [1] -0.0, [3] -2.25, [6] -inf, [8] -65504.0$NL" -- \
    --rules "{'': {'min': 0.1}}" "$H"
expect a_half_float_bound_gets_the_verdict_of_numpy 1 '' \
"$H: rule failed: dtype: min 0.0999755859375: 7 elements break it, first [0] 0.0, [1] -0.0, [3] -2.25, [6] -inf, [8] -65504.0$NL" -- \
    --rules "{'': {'min': 0.0999755859375}}" "$H"

# ---- the differential test against NumPy
if "$PYTHON" -c 'import numpy' >/dev/null 2>&1; then
    "$PYTHON" tests/rules_differential.py "$NPYDT" --count "$RULES_COUNT" --seed "$RULES_SEED" \
        >"$tmp/diff" 2>&1
    grep -v ' passed, ' "$tmp/diff" | head -n 40
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/diff" | tail -n 1)
    if [ -n "$line" ]; then
        echo "rules differential: $line"
        passed=$((passed + $(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')))
        failed=$((failed + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
    else
        bad "differential test produced no result"; tail -n 20 "$tmp/diff"
    fi
else
    echo "SKIP: rules differential test (NumPy not importable by $PYTHON)"
fi

echo "rules: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

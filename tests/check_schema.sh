#!/bin/sh
# `npydt check`: exit statuses, stderr lines and --json reports on the
# committed fixtures, then (when /usr/bin/python3 imports NumPy) the
# differential test against NumPy's own verdicts
# (tests/schema_differential.py). Prints `schema: N passed, M failed`.
set -u
NPYDT=${NPYDT:-build/npydt}
PYTHON=${PYTHON:-/usr/bin/python3}
F=${FIXTURES:-tests/fixtures}
SCHEMA_COUNT=${SCHEMA_COUNT:-300}
# a fixed seed, so that a run is repeatable and CI cannot fail by chance;
# campaigns over many seeds are run by hand (SCHEMA_SEED=random for a new one)
SCHEMA_SEED=${SCHEMA_SEED:-1}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL schema: $*"; }

# run ARGS...: the command's status, stdout and stderr in $rc, $tmp/out, $tmp/err
run() {   # with tty=1, standard input a terminal (tests/tools/on_tty.py)
    if [ -n "${tty:-}" ]; then
        "${PYTHON:-/usr/bin/python3}" tests/tools/on_tty.py "$NPYDT" check "$@"
    else
        "$NPYDT" check "$@"
    fi >"$tmp/out" 2>"$tmp/err"
    rc=$?
}

# expect NAME STATUS STDOUT STDERR -- ARGS...: exact stdout and stderr
# (empty strings for none; a newline ends each line)
expect() {
    name=$1 status=$2 want_out=$3 want_err=$4
    shift 5
    run "$@"
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

# expect_usage NAME STDERR-PREFIX -- ARGS...: exit 2, nothing on stdout,
# first stderr line starting with the prefix
expect_usage() {
    name=$1 prefix=$2
    shift 3
    run "$@"
    first=$(head -n 1 "$tmp/err")
    case $first in
    "$prefix"*)
        if [ "$rc" -ne 2 ]; then
            bad "$name: exit $rc, expected 2"
        elif [ -s "$tmp/out" ]; then
            bad "$name: wrote to stdout"
        else
            ok
        fi ;;
    *) bad "$name: exit $rc, stderr '$first', expected a line starting '$prefix'" ;;
    esac
}

if [ ! -x "$NPYDT" ]; then
    echo "schema: 0 passed, 1 failed"
    echo "FAIL schema: $NPYDT is not built"
    exit 1
fi

S="$F/struct_simple.npy"    # [('x', '<f8'), ('y', '<i4'), ('name', '|S5')], shape (3,)
T="$F/struct_titles.npy"    # [('T', '<i4'), (('Title A', 'a'), '<i4'), ('b', '<f8'), (('t\xe9', 'c'), '|u1')]
BE="$F/scalar_f8_be.npy"    # '>f8', shape (13,)
FO="$F/fortran_2d.npy"      # '<i4', fortran_order True, shape (2, 3)
SIMPLE="[('x', '<f8'), ('y', '<i4'), ('name', '|S5')]"

# ---- matches: exit 0, nothing printed
expect "exact descriptor matches" 0 "" "" -- --schema "$SIMPLE" "$S"
expect "options after FILE" 0 "" "" -- "$S" --schema "$SIMPLE"
expect "--schema=SPEC" 0 "" "" -- "--schema=$SIMPLE" "$S"
expect "byte order alone matches by default" 0 "" "" -- --schema "'<f8'" "$BE"
expect "type string spec" 0 "" "" -- --schema "<f8" "$BE"
expect "titles do not hide names" 0 "" "" -- \
    --schema "[('T', '<i4'), ('a', '<i4'), ('b', '<f8'), ('c', '|u1')]" "$T"
expect "dict spec with wildcard shape" 0 "" "" -- \
    --schema "{'descr': '<i4', 'shape': (-1, 3), 'fortran_order': True}" "$FO"
expect "dict spec without descr" 0 "" "" -- --schema "{'shape': (-1,)}" "$S" "$BE"
expect "allow-extra" 0 "" "" -- --allow-extra --schema "[('a', '<i4'), ('b', '<f8')]" "$T"
AN="$F/struct_aligned_nested.npy"   # align=True: [('a', '|i1'), ('', '|V3'), ('s', [('x', '|u1'), ('', '|V3'), ('y', '<f4')]), ('c', '|u1'), ('', '|V3')]
expect "allow-extra: offsets and struct sizes free at every level" 0 "" "" -- \
    --allow-extra --schema "[('a', '|i1'), ('s', [('y', '<f4')]), ('c', '|u1')]" "$AN"
expect "safe-cast widening" 0 "" "" -- --safe-cast \
    --schema "[('x', '<f8'), ('y', '<i8'), ('name', '|S8')]" "$S"

# ---- mismatches: exit 1, one stderr line each, nothing on stdout
expect "strict refuses the byte order" 1 "" \
    "$BE: schema mismatch: dtype: byteorder: expected <f8, found >f8
" -- --strict --schema "'<f8'" "$BE"
expect "size mismatch names field and both sides" 1 "" \
    "$S: schema mismatch: field x: size: expected <f4, found <f8
" -- --schema "[('x', '<f4'), ('y', '<i4'), ('name', '|S5')]" "$S"
expect "every mismatch is listed" 1 "" \
    "$S: schema mismatch: field x: kind: expected <i8, found <f8
$S: schema mismatch: field z: missing_field: expected <u2, found (none)
$S: schema mismatch: field name: extra_field: expected (none), found |S5
" -- --schema "[('x', '<i8'), ('y', '<i4'), ('z', '<u2')]" "$S"
expect "field order" 1 "" \
    "$S: schema mismatch: dtype: order: expected y, x, name, found x, y, name
" -- --schema "[('y', '<i4'), ('x', '<f8'), ('name', '|S5')]" "$S"
expect "shape and fortran_order" 1 "" \
    "$FO: schema mismatch: array: dimension: expected (-1,), found (2, 3)
$FO: schema mismatch: array: fortran_order: expected False, found True
" -- --schema "{'descr': '<i4', 'shape': (-1,), 'fortran_order': False}" "$FO"
expect "extra fields without --allow-extra" 1 "" \
    "$T: schema mismatch: field T: extra_field: expected (none), found <i4
$T: schema mismatch: field b: extra_field: expected (none), found <f8
$T: schema mismatch: field c: extra_field: expected (none), found |u1
" -- --schema "[('a', '<i4')]" "$T"
expect "allow-extra keeps the order of the named fields" 1 "" \
    "$AN: schema mismatch: dtype: order: expected c, s, found s, c
" -- --allow-extra --schema "[('c', '|u1'), ('s', [('y', '<f4')])]" "$AN"
expect "a title is not a name" 1 "" \
    "$T: schema mismatch: field Title A: missing_field: expected <i4, found (none)
$T: schema mismatch: field a: extra_field: expected (none), found <i4
" -- --schema "[('T', '<i4'), ('Title A', '<i4'), ('b', '<f8'), ('c', '|u1')]" "$T"
expect "safe-cast never narrows" 1 "" \
    "$S: schema mismatch: field x: size: expected <f4, found <f8
" -- --safe-cast --schema "[('x', '<f4'), ('y', '<i8'), ('name', '|S8')]" "$S"
expect "mixed files: worst status" 1 "" \
    "$BE: schema mismatch: dtype: kind: expected [('x', '<f8'), ('y', '<i4'), ('name', '|S5')], found >f8
" -- --schema "$SIMPLE" "$S" "$BE"

# ---- --json: one object per file on stdout, also when the status is 1
expect "json match" 0 \
    "{\"file\":\"$S\",\"match\":true,\"mismatches\":[],\"mismatches_total\":0,\"verified\":\"size\",\"trailing_bytes\":0}
" "" -- --json --schema "$SIMPLE" "$S"
expect "json mismatch" 1 \
    "{\"file\":\"$BE\",\"match\":false,\"mismatches\":[{\"code\":\"byteorder\",\"path\":\"\",\"expected\":\"<f8\",\"found\":\">f8\"}],\"mismatches_total\":1,\"verified\":\"size\",\"trailing_bytes\":0}
" "$BE: schema mismatch: dtype: byteorder: expected <f8, found >f8
" -- --json --strict --schema "<f8" "$BE"
expect "json many files" 1 \
    "{\"file\":\"$S\",\"match\":false,\"mismatches\":[{\"code\":\"missing_field\",\"path\":\"b\",\"expected\":\"<f8\",\"found\":\"\"}],\"mismatches_total\":1,\"verified\":\"size\",\"trailing_bytes\":0}
{\"file\":\"$T\",\"match\":true,\"mismatches\":[],\"mismatches_total\":0,\"verified\":\"size\",\"trailing_bytes\":0}
" "$S: schema mismatch: field b: missing_field: expected <f8, found (none)
" -- --json --allow-extra --schema "[('b', '<f8')]" "$S" "$T"

# ---- past 1000 mismatches (NPYDT_CHECK_MISMATCH_MAX) a file gets the first
# 1000 lines and one that counts the rest; --json lists the first 1000 and
# gives the count of all in "mismatches_total"
seq 0 1004 | awk 'BEGIN { printf "[" } { printf "%s(\047a%d\047, \047<f8\047)", (NR > 1 ? ", " : ""), $1 }
    END { print "]" }' >"$tmp/wide.txt"
run --allow-extra --schema "@$tmp/wide.txt" "$S"
if [ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1001 ] &&
    [ "$(sed -n 1000p "$tmp/err")" = "$S: schema mismatch: field a999: missing_field: expected <f8, found (none)" ] &&
    [ "$(sed -n 1001p "$tmp/err")" = "$S: schema mismatch: 5 more mismatches not shown (1005 in all)" ]; then
    ok
else
    bad "1005 mismatches: exit $rc, $(wc -l <"$tmp/err") lines, the last: $(tail -n 1 "$tmp/err" | head -c 200)"
fi
run --json --allow-extra --schema "@$tmp/wide.txt" "$S"
if [ "$rc" -eq 1 ] && [ "$(grep -o '"code":' "$tmp/out" | wc -l)" -eq 1000 ] &&
    grep -q '"path":"a999","expected":"<f8","found":""}],"mismatches_total":1005,"verified":"size","trailing_bytes":0}$' "$tmp/out"; then
    ok
else
    bad "1005 mismatches in --json: exit $rc, $(grep -o '"code":' "$tmp/out" | wc -l) listed, ends $(tail -c 80 "$tmp/out")"
fi

# ---- a schema reads Python 2 'L' suffixes as a 1.0 header does
PY2="$F/quirks/hdr_py2_long_suffix.npy"   # {'descr': [('a', '<i2', (2L,))], ..., 'shape': (1L, 3L)}
expect "L suffixes in a schema dict" 0 "" "" -- \
    --schema "{'descr': [('a', '<i2', (2L,))], 'fortran_order': False, 'shape': (1L, 3L)}" "$PY2"
expect "L suffixes in a schema's shape mismatch" 1 "" \
    "$PY2: schema mismatch: array: dimension: expected (-1, 4), found (1, 3)
" -- --schema "{'shape': (-1, 4L)}" "$PY2"
expect_usage "L after something other than an integer" "npydt: check: --schema: spec offset 10: name 'L'" -- \
    --schema "{'shape': L}" "$PY2"

# ---- --schema @path
printf '%s\n' "$SIMPLE" >"$tmp/spec.txt"
expect "spec from a file" 0 "" "" -- --schema "@$tmp/spec.txt" "$S"
expect_usage "unreadable spec file" "$tmp/none.txt: i/o error: --schema: cannot read: " -- \
    --schema "@$tmp/none.txt" "$S"

# ---- usage errors: exit 2, nothing on stdout
expect_usage "a bad item of a type string is pointed at" \
    "npydt: check: --schema: spec offset 8: data type 'S5x' not understood" -- --schema "f8, i4, S5x" "$S"
expect_usage "malformed spec reports the offset" "npydt: check: --schema: spec offset 14: " -- \
    --schema "[('x', '<f8') ('y', '<i4')]" "$S"
expect_usage "unknown type in spec" "npydt: check: --schema: spec offset 7: field x: " -- \
    --schema "[('x', '<q9')]" "$S"
expect_usage "a bool is not a dimension of a schema shape" \
    "npydt: check: --schema: spec offset 14: shape dimensions must be integers" -- \
    --schema "{'shape': (2, True)}" "$S"
expect_usage "a bool is not a subarray dimension in a schema" \
    "npydt: check: --schema: spec offset 14: field x: invalid shape in fixed-type tuple" -- \
    --schema "[('x', '<f8', (True,))]" "$S"
expect_usage "empty spec" "npydt: check: --schema: " -- --schema "  " "$S"
expect_usage "missing --schema and --rules" "npydt: check: --schema SPEC or --rules RULES is required" -- "$S"
expect_usage "--schema without SPEC" "npydt: check: option '--schema' needs a value (SPEC)" -- "$S" --schema
expect_usage "strict and safe-cast" "npydt: check: --strict and --safe-cast" -- \
    --strict --safe-cast --schema "'<f8'" "$BE"
expect_usage "unknown option" "npydt: check: unknown option '--bogus'" -- \
    --bogus --schema "'<f8'" "$BE"
tty=1
expect_usage "no FILE on a terminal" "npydt: check: no FILE" -- --schema "'<f8'"
tty=
# an unreadable FILE is exit 2 too, and --json reports it
expect "unreadable FILE" 2 \
    "{\"file\":\"$tmp/missing.npy\",\"error\":{\"status\":\"i/o error\",\"message\":\"cannot open: No such file or directory\",\"offset\":null}}
" "$tmp/missing.npy: i/o error: cannot open: No such file or directory
" -- --json --schema "'<f8'" "$tmp/missing.npy"

# ---- invalid input files: exit 3, only the error object on stdout
expect "invalid file" 3 \
    "{\"file\":\"$F/bad/empty_file.npy\",\"error\":{\"status\":\"truncated\",\"message\":\"the preamble needs at least 10 bytes, 0 given: the input ends inside the magic string and version\",\"offset\":null}}
" "$F/bad/empty_file.npy: truncated: the preamble needs at least 10 bytes, 0 given: the input ends inside the magic string and version
" -- --json --schema "'<f8'" "$F/bad/empty_file.npy"
expect "invalid file without --json" 3 "" \
    "$F/bad/empty_file.npy: truncated: the preamble needs at least 10 bytes, 0 given: the input ends inside the magic string and version
" -- --schema "'<f8'" "$F/bad/empty_file.npy"

# ---- the differential test against NumPy
if "$PYTHON" -c 'import numpy' >/dev/null 2>&1; then
    if [ "$SCHEMA_SEED" = random ]; then seed=; else seed="--seed $SCHEMA_SEED"; fi
    # shellcheck disable=SC2086
    "$PYTHON" tests/schema_differential.py "$NPYDT" --count "$SCHEMA_COUNT" $seed >"$tmp/diff" 2>&1
    grep -v '^random pairs:' "$tmp/diff" | grep -v ' passed, ' | head -n 40
    grep '^random pairs:' "$tmp/diff"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/diff" | tail -n 1)
    if [ -n "$line" ]; then
        passed=$((passed + $(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')))
        failed=$((failed + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
    else
        bad "differential test produced no result"; cat "$tmp/diff" | tail -n 20
    fi
else
    echo "SKIP: schema differential test (NumPy not importable by $PYTHON)"
fi

echo "schema: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

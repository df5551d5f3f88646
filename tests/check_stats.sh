#!/bin/sh
# npydt stats: command-line behaviour (exit statuses, error objects, pipes,
# field and element selection), then tests/stats_check.py, which compares
# `npydt stats --json` with NumPy on every fixture and on random files.
# Prints "stats: N passed, M failed" (the NumPy part prints a SKIP line
# when NumPy is missing).
set -u
NPYDT=${NPYDT:-build/npydt}
FIXTURES=${FIXTURES:-tests/fixtures}
PYTHON=${PYTHON:-/usr/bin/python3}
here=$(dirname "$0")
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL stats: $*"; }

# expect STATUS WHAT CMD...: exit status STATUS
expect() {
    want=$1 what=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        bad "$what: exit $got, want $want ($(head -c 300 "$tmp/err"))"
    else
        ok
    fi
}
# has WHAT TEXT: the last command's stdout contains TEXT (fixed string)
has() {
    if grep -qF -- "$2" "$tmp/out"; then ok; else bad "$1: output lacks '$2'"; fi
}
# err_has WHAT TEXT: its stderr does
err_has() {
    if grep -qF -- "$2" "$tmp/err"; then ok; else bad "$1: stderr lacks '$2'"; fi
}
# lines WHAT N: its stdout has N lines
lines() {
    n=$(wc -l <"$tmp/out")
    if [ "$n" -eq "$2" ]; then ok; else bad "$1: $n lines on stdout, want $2"; fi
}


expect 0 "a table" "$NPYDT" stats "$FIXTURES/scalar_f8_le.npy"
has "a table" "field"
has "a table" "elements"
expect 0 "one JSON line per file" "$NPYDT" stats --json "$FIXTURES/scalar_f8_le.npy" "$FIXTURES/scalar_i4_le.npy"
lines "one JSON line per file" 2
has "JSON columns" '"columns":[{"path":""'
expect 2 "a missing file" "$NPYDT" stats --json "$tmp/missing.npy"
has "a missing file's error object" '"error":{"status":"i/o error"'
err_has "a missing file's error line" "missing.npy: i/o error:"
expect 3 "an object array" "$NPYDT" stats --json "$FIXTURES/object_O.npy"
has "an object array's error object" '"status":"object dtype"'
expect 3 "a truncated file" "$NPYDT" stats "$FIXTURES/bad/data_short_2d.npy"
expect 3 "the highest status wins" "$NPYDT" stats --json "$tmp/missing.npy" "$FIXTURES/object_O.npy" "$FIXTURES/scalar_f8_le.npy"
lines "every input gets its object" 3
expect 2 "an unknown field" "$NPYDT" stats --fields nope "$FIXTURES/scalar_f8_le.npy"
err_has "an unknown field's error line" "field nope: no such field"
expect 2 "an unknown option" "$NPYDT" stats --jsn "$FIXTURES/scalar_f8_le.npy"
expect 2 "--tail and --range together" "$NPYDT" stats --tail 2 --range 1:2 "$FIXTURES/scalar_f8_le.npy"
expect 2 "--head without a count" "$NPYDT" stats --head x "$FIXTURES/scalar_f8_le.npy"

# the same statistics from a mapped file, a pipe and a file that is not
# mapped; the selected elements only with --range and --head
"$PYTHON" -c 'import numpy' >/dev/null 2>&1 && have_numpy=1 || have_numpy=0
if [ "$have_numpy" -eq 1 ]; then
    "$PYTHON" - "$tmp/r.npy" <<'PY'
import sys
import numpy as np
a = np.zeros(100, [("t", "<M8[s]"), ("x", ">f8"), ("n", "S4"), ("m", "<i2", (2, 3))])
a["t"] = np.arange(100).astype("M8[s]")
a["x"] = np.arange(100) * 0.5
a["x"][7] = np.nan
a["n"] = [b"ab", b"c"] * 50
a["m"] = np.arange(600).reshape(100, 2, 3)
np.save(sys.argv[1], a)
PY
    expect 0 "a mapped file" "$NPYDT" stats --json "$tmp/r.npy"
    sed 's/"file":"[^"]*"//' "$tmp/out" >"$tmp/mapped"
    "$NPYDT" stats --json - <"$tmp/r.npy" | sed 's/"file":"[^"]*"//' >"$tmp/piped"
    if cmp -s "$tmp/mapped" "$tmp/piped"; then ok; else bad "a pipe gives other statistics than the file"; fi
    "$NPYDT" stats --json --no-mmap "$tmp/r.npy" 2>/dev/null | sed 's/"file":"[^"]*"//' >"$tmp/read"
    if [ ! -s "$tmp/read" ] || cmp -s "$tmp/mapped" "$tmp/read"; then ok; else bad "--no-mmap gives other statistics"; fi
    expect 0 "the statistics of x" "$NPYDT" stats --json --fields x "$tmp/r.npy"
    has "NaN counted" '"nan":1'
    has "NaN skipped in the order" '"sorted":["ascending","strictly_ascending"]'
    has "min" '"min":0.0,"max":49.5'
    expect 0 "datetimes as ISO text" "$NPYDT" stats --json --fields t "$tmp/r.npy"
    has "min as text" '"min":"1970-01-01T00:00:00","max":"1970-01-01T00:01:39"'
    expect 0 "--range" "$NPYDT" stats --json --fields x --range 10:20 "$tmp/r.npy"
    has "--range's elements" '"count":10'
    has "--range's min" '"min":5.0,"max":9.5'
    expect 0 "--head" "$NPYDT" stats --json --fields x --head 5 "$tmp/r.npy"
    has "--head's max" '"max":2.0'
    expect 0 "--tail" "$NPYDT" stats --json --fields n --tail 1 "$tmp/r.npy"
    has "--tail's length" '"min_len":1,"max_len":1'
    expect 0 "strings" "$NPYDT" stats --json --fields n "$tmp/r.npy"
    has "distinct strings" '"distinct":2}'
    expect 0 "pooled subarray" "$NPYDT" stats --json --fields m "$tmp/r.npy"
    has "pooled subarray's count" '"count":600'
    expect 0 "--per-element" "$NPYDT" stats --json --per-element --fields m "$tmp/r.npy"
    has "an element's column" '"path":"m.flat[5]","element":5'
    has "an element's min" '"min":5,"max":599'
fi

if [ "$have_numpy" -eq 0 ]; then
    echo "SKIP: stats differential checks: $PYTHON cannot import numpy"
else
    "$PYTHON" "$here/stats_check.py" "$NPYDT" "$FIXTURES"/*.npy "$FIXTURES"/quirks/*.npy >"$tmp/py" 2>&1
    grep -v '^stats: [0-9]* passed' "$tmp/py"
    line=$(grep -E '^stats: [0-9]+ passed, [0-9]+ failed' "$tmp/py" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/^[^0-9]*([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
        passed=$((passed + p))
        failed=$((failed + f))
    else
        bad "tests/stats_check.py gave no result line"
    fi
fi

echo "stats: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

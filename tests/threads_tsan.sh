#!/bin/sh
# The command's threads under ThreadSanitizer: every command with -j
# (check, inspect and stats over many files; dump in every format, load
# of JSON Lines, CSV and Arrow, swap) runs with 2 and 3 threads on inputs
# large enough for many tasks, and must end with the status of -j 1 and
# no report of a data race (TSan's exit code 66). NPYDT is a command
# built with SANITIZE=thread (make check-tsan). Prints
#   threads-tsan: N passed, M failed
NPYDT=${NPYDT:?NPYDT: a command built with SANITIZE=thread}
PY=${PYTHON:-/usr/bin/python3}
F=${FIXTURES:-tests/fixtures}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"

# run NAME WANT ARGS...: the command's status must be WANT
run() {
    name=$1 want=$2
    shift 2
    "$NPYDT" "$@" >"$dir/out" 2>"$dir/err"
    rc=$?
    if [ "$rc" -eq "$want" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "threads-tsan: $name: exit $rc, expected $want"
        grep -m 12 -E 'WARNING|#[0-9]|SUMMARY' "$dir/err"
    fi
}

files=$(ls "$F"/*.npy | head -n 80)
for j in 2 3; do
    # shellcheck disable=SC2086
    run "check -j $j" 1 check -j "$j" --schema '<f8' $files
    # shellcheck disable=SC2086
    run "inspect -j $j" 0 inspect -j "$j" $files
    # shellcheck disable=SC2086
    run "stats -j $j" 3 stats -j "$j" $files
done

if "$PY" -c 'import numpy' >/dev/null 2>&1; then
    "$PY" - "$dir/big.npy" <<'PY'
import sys
import numpy as np
dt = np.dtype([('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('s', 'S6')])
a = np.zeros(60000, dt)
a['t'] = np.arange(60000).astype('M8[ns]')
a['id'] = np.arange(60000)
a['a'] = np.arange(60000) / 7
a['s'] = b'abc'
np.save(sys.argv[1], a)
PY
    B=$dir/big.npy
    for j in 2 3; do
        for fmt in --jsonl --csv --tsv --vertical; do
            run "dump $fmt -j $j" 0 dump "$fmt" -j "$j" "$B"
        done
        run "dump --arrow -j $j" 0 dump --arrow -j "$j" -o "$dir/big.arrow" "$B"
        run "swap -j $j" 0 swap -j "$j" --to big -o "$dir/swapped.npy" "$B"
    done
    "$NPYDT" dump --jsonl "$B" >"$dir/big.jsonl"
    "$NPYDT" dump --csv "$B" >"$dir/big.csv"
    for j in 2 3; do
        run "load --jsonl -j $j" 0 load --jsonl -j "$j" --dtype @"$B" -o "$dir/l.npy" "$dir/big.jsonl"
        run "load --csv -j $j" 0 load --csv -j "$j" --dtype @"$B" -o "$dir/l.npy" "$dir/big.csv"
        run "load --arrow -j $j" 0 load --arrow -j "$j" -o "$dir/l.npy" "$dir/big.arrow"
    done
else
    echo "threads-tsan: NumPy not found by $PY: the arrays to dump and load are skipped"
fi

echo "threads-tsan: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# Runs every test binary given as arguments, then every check script
# $CHECKS_DIR/check_*.sh (CHECKS_DIR: tests), which need the command and
# (when importable) NumPy. Prints one closing line:
#   total: N passed, M failed
# and exits non-zero if anything failed. A check script that exits
# non-zero counts as at least one failure, whatever its result line says.
set -u
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() {  # count cmocka's "[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s)."
    p=$(sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
}

for t in "$@"; do
    if "$t" >"$log" 2>&1; then
        count
    else
        cat "$log"
        count
        # a crash before cmocka's summary still counts as a failure
        grep -q '^\[  FAILED  \]' "$log" || failed=$((failed + 1))
    fi
done

# Script-level checks: each prints "NAME: N passed, M failed" or "SKIP: ...".
for s in "${CHECKS_DIR:-tests}"/check_*.sh; do
    [ -e "$s" ] || continue
    rc=0
    sh "$s" >"$log" 2>&1 || rc=$?
    cat "$log"
    lines=$(grep -E '^[A-Za-z_-]*:? ?[0-9]+ passed, [0-9]+ failed' "$log")
    p=0
    f=0
    if [ -n "$lines" ]; then
        p=$(echo "$lines" | sed -E 's/^[^0-9]*([0-9]+) passed.*/\1/' | paste -sd+ | bc)
        f=$(echo "$lines" | sed -E 's/.* ([0-9]+) failed.*/\1/' | paste -sd+ | bc)
    elif ! grep -q '^SKIP' "$log"; then
        echo "$s: produced no result line"
        f=1
    fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$s: exited with status $rc"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
done

echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

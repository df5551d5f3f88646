#!/bin/sh
# tests/run_tests.sh counts what it runs: a check script that exits
# non-zero is a failure even when its result line says none failed, a
# script without a result line is a failure, and SKIP is not; with JOBS=2
# two scripts run at once and are still reported in order.
# Prints "runner: N passed, M failed".
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0

# expect_total WANT_RC 'total: ...' SCRIPT_BODY...: each body becomes one
# check script of a fresh checks folder
expect_total() {
    want_rc=$1
    want=$2
    shift 2
    rm -rf "$dir/checks"
    mkdir "$dir/checks"
    i=0
    for body in "$@"; do
        i=$((i + 1))
        printf '%s\n' "$body" > "$dir/checks/check_$i.sh"
    done
    rc=0
    # a runner of its own: no emulator, no check list, nothing written into
    # the build directory of the run that started this script
    CHECKS_DIR="$dir/checks" CHECKS= EXEC= O="$dir/o" NPYDT= \
        sh tests/run_tests.sh >"$dir/out" 2>&1 || rc=$?
    got=$(tail -n 1 "$dir/out")
    if [ "$rc" -eq "$want_rc" ] && [ "$got" = "$want" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "runner: $* -> exit $rc, '$got' (want exit $want_rc, '$want')"
    fi
}

expect_total 0 "total: 3 passed, 0 failed" 'echo "a: 3 passed, 0 failed"'
expect_total 1 "total: 2 passed, 1 failed" 'echo "a: 2 passed, 1 failed"; exit 1'
expect_total 1 "total: 3 passed, 1 failed" 'echo "a: 3 passed, 0 failed"; exit 3'
expect_total 1 "total: 0 passed, 1 failed" 'echo "no result line"'
expect_total 1 "total: 0 passed, 1 failed" 'exit 2'
expect_total 0 "total: 0 passed, 0 failed" 'echo "SKIP: nothing to check"'
expect_total 1 "total: 5 passed, 1 failed" 'echo "a: 5 passed, 0 failed"' 'kill -SEGV $$'

# with JOBS=2 the scripts run at once (the first waits up to 10 s for a
# file the second makes), and their outputs are reported in the scripts'
# order, not the order they finished in
rm -rf "$dir/checks" "$dir/made"
mkdir "$dir/checks"
printf 'i=0\nwhile [ ! -e "%s/made" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done\n[ -e "%s/made" ] && echo "a: 1 passed, 0 failed"\n' \
    "$dir" "$dir" >"$dir/checks/check_1.sh"
printf 'touch "%s/made"; echo "b: 2 passed, 0 failed"\n' "$dir" >"$dir/checks/check_2.sh"
JOBS=2 CHECKS_DIR="$dir/checks" CHECKS= EXEC= O="$dir/o" NPYDT= \
    sh tests/run_tests.sh >"$dir/out" 2>&1
want=$(printf 'a: 1 passed, 0 failed\nb: 2 passed, 0 failed\ntotal: 3 passed, 0 failed')
if [ "$(cat "$dir/out")" = "$want" ]; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "runner: with JOBS=2:"
    cat "$dir/out"
fi

echo "runner: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

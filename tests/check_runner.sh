#!/bin/sh
# tests/run_tests.sh counts what it runs: a check script that exits
# non-zero is a failure even when its result line says none failed, a
# script without a result line is a failure, and SKIP is not.
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

echo "runner: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

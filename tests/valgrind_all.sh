#!/bin/sh
# `make check-valgrind`: every test binary, every corpus replay (on its
# harness's seed and regression corpora) and the command on the fixtures
# (tests/valgrind_cli.sh, which honours VALGRIND_CLI_EVERY) under the
# valgrind command given. Prints one line per program; exits 1 when any
# reported an error or a leak.
#   usage: tests/valgrind_all.sh O NPYDT "TEST_BINS" "REPLAY_BINS" VALGRIND...
set -u
o=$1
npydt=$2
tests=$3
replays=$4
shift 4
log="$o/valgrind.log"
fail=0
for t in $tests; do
    if "$@" "$t" >"$log" 2>&1; then echo "valgrind: $t clean"
    else echo "valgrind: $t FAILED"; tail -n 30 "$log"; fail=1; fi
done
for b in $replays; do
    n=${b##*/fuzz_}
    dirs=
    for d in "fuzz/corpus/$n" "fuzz/regressions/$n"; do [ -d "$d" ] && dirs="$dirs $d"; done
    # shellcheck disable=SC2086 # dirs is a list of directories without spaces
    if "$@" "$b" $dirs >"$log" 2>&1; then echo "valgrind: $b $(tail -n 1 "$log")"
    else echo "valgrind: $b FAILED"; tail -n 30 "$log"; fail=1; fi
done
tests/valgrind_cli.sh "$npydt" "$@" || fail=1
exit $fail

#!/bin/sh
# `make check-valgrind`: every test binary, every corpus replay (on its
# harness's seed and regression corpora) and the command on the fixtures
# (tests/valgrind_cli.sh, which honours VALGRIND_CLI_EVERY) under the
# valgrind command given, JOBS at a time (tests/run_parallel.sh). Prints
# one line per program; exits 1 when any reported an error or a leak.
#   usage: tests/valgrind_all.sh NPYDT "TEST_BINS" "REPLAY_BINS" VALGRIND...
set -u
npydt=$1
tests=$2
replays=$3
shift 3
units=$(mktemp -d)
trap 'rm -rf "$units"' EXIT
# one command line per program, the longest (the command's runs) first
{
    printf 'tests/valgrind_cli.sh "%s" %s\n' "$npydt" "$*"
    for t in $tests; do printf '%s "%s"\n' "$*" "$t"; done
    for b in $replays; do
        n=${b##*/fuzz_}
        dirs=
        for d in "fuzz/corpus/$n" "fuzz/regressions/$n"; do [ -d "$d" ] && dirs="$dirs $d"; done
        printf '%s "%s"%s\n' "$*" "$b" "$dirs"
    done
} | sh tests/run_parallel.sh "$units"

fail=0
i=1
if [ "$(cat "$units/1.rc")" -eq 0 ]; then tail -n 1 "$units/1.out"; else cat "$units/1.out"; fail=1; fi
for t in $tests $replays; do
    i=$((i + 1))
    case $t in */fuzz_*) ok="$t $(tail -n 1 "$units/$i.out")" ;; *) ok="$t clean" ;; esac
    if [ "$(cat "$units/$i.rc")" -eq 0 ]; then echo "valgrind: $ok"
    else echo "valgrind: $t FAILED"; tail -n 30 "$units/$i.out"; fail=1; fi
done
exit $fail

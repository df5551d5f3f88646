#!/bin/sh
# Runs each line of standard input as a shell command, JOBS of them at a
# time (default: the number of processors), and waits for all of them. The
# output (standard output and error) of line N goes to DIR/N.out and its
# exit status to DIR/N.rc, so that the caller can report them in input
# order whatever order they finished in. Used by tests/run_tests.sh and
# tests/valgrind_all.sh: most of the suite's time is single-threaded
# programs (NumPy scripts, emulators, valgrind) that gain from both cores.
#   usage: COMMANDS | tests/run_parallel.sh DIR
set -u
dir=${1:?usage: tests/run_parallel.sh DIR}
jobs=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
n=0
while IFS= read -r line; do
    n=$((n + 1))
    printf '%s\n' "$line" >"$dir/$n.cmd"
done
[ "$n" -gt 0 ] || exit 0
# each command runs in a shell of its own; the wrapper always exits 0, so
# that xargs runs every command whatever the others returned
seq 1 "$n" | xargs -P "$jobs" -I{} \
    sh -c 'sh "$1/$2.cmd" >"$1/$2.out" 2>&1 </dev/null; echo $? >"$1/$2.rc"' sh "$dir" {}

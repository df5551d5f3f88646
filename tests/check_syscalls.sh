#!/bin/sh
# The system calls `npydt check` and `npydt inspect` make per .npy file,
# counted with strace over 10 and over 40 small files: the difference per
# file is the cost of one more file, whatever the start-up costs. A file
# is an open and its fstat (pipe, file or archive), one pread of its
# first 4 KiB (the archive probe's, and the preamble and a header under 4
# KiB), a close: at most 4, as a loop that opens, reads, fstats and
# closes each file (tests/bench/open_loop.c). Writes of the
# output to standard output are the output's, not counted. With -j 1: the
# calling thread alone, as workers add their wake-ups. Counts calls,
# never time.
# Prints `syscalls: N passed, M failed`; skipped without strace, under an
# emulator and for instrumented builds.
set -u
NPYDT=${NPYDT:-build/npydt}
PYTHON=${PYTHON:-/usr/bin/python3}
LIMIT=${LIMIT:-4}
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL syscalls: $*"; }
if ! command -v strace >/dev/null 2>&1 || [ -n "${EXEC:-}" ]; then
    echo "SKIP: syscalls: no strace (or run through an emulator)"
    echo "syscalls: $passed passed, $failed failed"
    exit 0
fi
if nm "$NPYDT" 2>/dev/null | grep -q '__[at]san_init\|__llvm_profile\|__gcov'; then
    echo "SKIP: syscalls: instrumented build (its runtime makes calls of its own)"
    echo "syscalls: $passed passed, $failed failed"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# np.save's bytes of np.arange(10.0), written without NumPy
printf "\223NUMPY\001\000v\000{'descr': '<f8', 'fortran_order': False, 'shape': (10,), }" >"$tmp/h"
pad=$((128 - $(wc -c <"$tmp/h") - 1))
{ cat "$tmp/h"; printf "%${pad}s\n" ""; head -c 80 /dev/zero; } >"$tmp/one.npy"
i=0
while [ $i -lt 40 ]; do cp "$tmp/one.npy" "$tmp/f$i.npy"; i=$((i + 1)); done
# calls N ARGS...: the system calls of the command over the first N files
calls() {
    n=$1
    shift
    set -- "$@" -j 1 $(i=0; while [ $i -lt "$n" ]; do printf '%s ' "$tmp/f$i.npy"; i=$((i + 1)); done)
    strace -f -qq -o "$tmp/trace" "$NPYDT" "$@" >/dev/null 2>&1 || { echo -1; return; }
    grep -vc '^[0-9]* *+++\|^[0-9]* *---\|^[0-9]* *write(1,' "$tmp/trace"
}
for cmd in "check --schema <f8" "inspect"; do
    # shellcheck disable=SC2086
    a=$(calls 10 $cmd) b=$(calls 40 $cmd)
    if [ "$a" -lt 0 ] || [ "$b" -lt 0 ]; then
        bad "$cmd failed on the small files"
        continue
    fi
    per=$(( (b - a) / 30 ))
    echo "syscalls: $cmd: $per system calls a file ($a for 10 files, $b for 40)"
    if [ $((b - a)) -le $((LIMIT * 30)) ]; then ok; else bad "$cmd: $per a file, above $LIMIT"; fi
done
echo "syscalls: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

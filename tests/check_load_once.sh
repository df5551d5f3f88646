#!/bin/sh
# `npydt load` and `npydt append` write every record once: the bytes the
# command hands to write(2) and pwrite(2) (the kernel's count "wchar" of
# /proc/PID/io, which a shell gathers from the children it waits for) are
# the output's size and no more than a little over it, for JSON Lines and
# CSV input, and for the records append adds. A copy of the records kept
# elsewhere first (a spool file) would double them. Counts bytes, never
# time. Prints `load-once: N passed, M failed`; skipped where /proc/PID/io
# is missing.
set -u
NPYDT=${NPYDT:-build/npydt}
case $NPYDT in /*) ;; *) NPYDT=$(pwd)/$NPYDT ;; esac
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL load-once: $*"; }

if ! sh -c 'grep -q "^wchar: " /proc/$$/io' 2>/dev/null; then
    echo "SKIP: load-once: /proc/PID/io is not readable here"
    echo "load-once: $passed passed, $failed failed"
    exit 0
fi

# written ARGS...: the bytes the command wrote (its own shell's count
# before and after it, the command waited for in between)
written() {
    sh -c 'a=$(sed -n "s/^wchar: //p" /proc/$$/io)
           "$@" >/dev/null 2>&1 || exit 1
           b=$(sed -n "s/^wchar: //p" /proc/$$/io)
           echo $((b - a))' sh "$@"
}

# once NAME BYTES WROTE: the command wrote at least BYTES (what the output
# grew by) and less than BYTES plus a quarter of them (room for a coverage
# build's counter files; a second copy of the records is twice BYTES)
once() {
    if [ -z "$3" ]; then
        bad "$1: the command failed"
    elif [ "$3" -ge "$2" ] && [ "$3" -lt $(($2 + $2 / 4)) ]; then
        ok
    else
        bad "$1: $3 bytes written for $2 bytes of output"
    fi
}

size() { wc -c <"$1" | tr -d ' '; }

# 200,000 records of 16 bytes: 3.2 MB, more than the writer's buffer
seq 1 200000 | sed 's/.*/{"a":&,"b":-&}/' >in.jsonl
{ echo a,b; seq 1 200000 | sed 's/.*/&,-&/'; } >in.csv
D="[('a','<i8'),('b','<f8')]"

w=$(written "$NPYDT" load --no-sync --dtype "$D" -o out.npy in.jsonl)
once "load --jsonl" "$(size out.npy)" "$w"
w=$(written "$NPYDT" load --no-sync --dtype "$D" -o csv.npy in.csv)
once "load --csv" "$(size csv.npy)" "$w"
cmp -s out.npy csv.npy && ok || bad "load --csv: not the bytes load --jsonl writes"

before=$(size out.npy)
w=$(written "$NPYDT" append --no-sync out.npy in.jsonl)
once "append" $(($(size out.npy) - before)) "$w"

echo "load-once: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

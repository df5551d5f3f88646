#!/bin/sh
# Crash safety of the record writer. tests/tools/writer_kill forks runs
# that append records (record i holds i) and flush every few records,
# acknowledging each count they saw a flush complete; each run is killed
# with SIGKILL at a random moment, WRITER_KILLS times in all (1000), in
# chains of WRITER_KILL_CHAIN runs on one file (each run after the first
# appends to what the killed one left), and the file is saved after every
# kill. Each chain ends with a run that closes its writer. Then
# tests/writer_kill_check.py checks the saved files with NumPy, one process
# per 100 files: each loads, holds at least the acknowledged records and
# only records that were written; a closed chain equals np.save's file.
# The killing stops after WRITER_KILL_SECONDS (60). Prints
# `writer_kill: N passed, M failed`; skipped without NumPy and under an
# emulator (where a kill lands says little about the writer there).
set -u
O=${O:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
DRIVER=${WRITER_KILL:-$O/tests/tools/writer_kill}
KILLS=${WRITER_KILLS:-1000}
CHAIN=${WRITER_KILL_CHAIN:-10}
SECONDS_MAX=${WRITER_KILL_SECONDS:-60}
# a fixed seed, so that a run is repeatable; WRITER_KILL_SEED=N for another
SEED=${WRITER_KILL_SEED:-1}
if ! "$PYTHON" -c 'import numpy' >/dev/null 2>&1; then
    echo "SKIP: writer kill test (NumPy not importable by $PYTHON)"
    exit 0
fi
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: writer kill test (not under an emulator)"
    exit 0
fi
if [ ! -x "$DRIVER" ]; then
    echo "FAIL writer_kill: $DRIVER is not built"
    echo "writer_kill: 0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

if ! "$DRIVER" campaign "$tmp" "$KILLS" "$CHAIN" "$SEED" "$SECONDS_MAX" \
        >"$tmp/list" 2>"$tmp/log"; then
    echo "FAIL writer_kill: the campaign failed:"
    head -n 10 "$tmp/log"
    failed=$((failed + 1))
fi
tail -n 1 "$tmp/log"

split -l 100 "$tmp/list" "$tmp/batch."
for b in "$tmp"/batch.*; do
    [ -s "$b" ] || continue
    out=$("$PYTHON" tests/writer_kill_check.py "$b" 2>&1)
    echo "$out" | grep -v ' passed, ' | head -n 20
    line=$(echo "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -z "$line" ]; then
        echo "$out" | tail -n 5
        failed=$((failed + 1))
        continue
    fi
    passed=$((passed + ${line%% passed*}))
    rest=${line#*passed, }
    failed=$((failed + ${rest%% failed*}))
done
echo "writer_kill: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

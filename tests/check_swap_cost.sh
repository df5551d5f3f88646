#!/bin/sh
# npydt swap of an array whose records are units of one size ('<f8',
# '<c16') swaps them in one pass from the input into the output buffer
# (16 bytes a pshufb where the CPU has it), not copied first and swapped
# where they landed: at most 8 instructions an '<f8' and 12 a '<c16'
# (about 3.5 and 7 with gcc -O2 on x86-64; the copy-then-swap passes took
# 15 and 23). The 68-byte mixed record of make bench ('>' fields of every
# unit size, bytes that are not swapped between them) is swapped by its
# five pshufb windows one record at a time (one pass over the records,
# not one per window): at most 95 instructions a record for the whole
# command (87 with gcc -O2 on x86-64; 103 one window at a time).
# Instructions of `swap -j 1 -o` over 300,000 records less
# those over 100,000, counted by valgrind's callgrind: deterministic where
# time is not. Prints `swap-cost: N passed, M failed`, or SKIP without
# valgrind, under an emulator and for instrumented builds.
set -u
NPYDT=${NPYDT:-build/npydt}
PYTHON=${PYTHON:-/usr/bin/python3}
passed=0
failed=0
if [ -n "${EXEC:-}" ] || ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: swap-cost: no valgrind (or run through an emulator)"
    exit 0
fi
if nm "$NPYDT" 2>/dev/null | grep -q '__[at]san_init\|__llvm_profile\|__gcov'; then
    echo "SKIP: swap-cost: instrumented build (its counts are not the command's)"
    exit 0
fi
if ! "$PYTHON" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: swap-cost: no NumPy in $PYTHON"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PYTHON" - "$tmp" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
for t in ('<f8', '<c16'):
    for n in (100000, 300000):
        np.save(f'{d}/{t[1:]}-{n}.npy', np.arange(n).astype(t))
mixed = np.dtype([('t', '>M8[ns]'), ('id', '>u4'), ('flag', '|b1'),
                  ('pos', [('x', '>f8'), ('y', '>f8'), ('z', '>f8')]), ('name', '|S7'),
                  ('samples', '>i2', (8,)), ('c', '>c8')])
for n in (100000, 300000):
    a = np.zeros(n, mixed)
    a['id'] = np.arange(n)
    np.save(f'{d}/mixed-{n}.npy', a)
PY
# instr FILE ORDER: instructions of swapping FILE to ORDER into a new file
instr() {
    rm -f "$tmp/out.npy"
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$NPYDT" swap -q -j 1 "$1" --to "$2" -o "$tmp/out.npy" 2>&1 |
        sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
for case in f8:8:big c16:12:big mixed:95:little; do
    t=${case%%:*} rest=${case#*:}
    limit=${rest%:*} to=${rest#*:}
    label="<$t"
    [ "$t" = mixed ] && label="mixed record"
    a=$(instr "$tmp/$t-100000.npy" "$to") b=$(instr "$tmp/$t-300000.npy" "$to")
    if [ -z "$a" ] || [ -z "$b" ]; then
        failed=$((failed + 1))
        echo "FAIL swap-cost: $label: callgrind gave no count"
        continue
    fi
    per=$(( (b - a) / 200000 ))
    echo "swap-cost: $label: $per instructions a record (limit $limit)"
    if [ "$per" -le "$limit" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL swap-cost: $label: $per instructions a record, above $limit"
    fi
done
echo "swap-cost: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# npydt dump --arrow of the 56-byte mixed struct reads each cache line of
# the records from memory about once: valgrind's cachegrind, simulating a
# 32 KiB first-level data cache, counts at most 2 read misses per 64 bytes
# of records over the whole run (every leaf is gathered from a tile of
# records while it is in that cache; gathering one column at a time over
# a batch larger than the cache misses about once per line per column,
# 10 times as many). Cachegrind's counts are deterministic, where time
# is not. Prints
#   arrow-export-cache: N passed, M failed
# or SKIP when valgrind or NumPy is missing or the build is instrumented.
O=${O:-build}
PY=${PYTHON:-/usr/bin/python3}
NPYDT=${NPYDT:-$O/npydt}
N=50000
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: Arrow export cache check (valgrind cannot run the target's programs under $EXEC)"
    exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: Arrow export cache check (valgrind not installed)"
    exit 0
fi
if ! "$PY" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: Arrow export cache check (NumPy not installed)"
    exit 0
fi
if nm "$NPYDT" 2>/dev/null | grep -q '__[at]san_init\|__llvm_profile\|__gcov'; then
    echo "SKIP: Arrow export cache check (instrumented build: its counts are not the command's)"
    exit 0
fi
if valgrind --tool=none "$NPYDT" --version 2>&1 | grep -q "Giving up"; then
    echo "SKIP: Arrow export cache check (valgrind cannot read this build's debug info)"
    exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/npydt-arrow-cache.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM HUP
"$PY" - "$dir/mixed.npy" "$N" <<'PY'
import sys
import numpy as np
path, n = sys.argv[1], int(sys.argv[2])
dt = np.dtype([('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('b', '<f8'), ('c', '<f4'),
               ('d', '<f4'), ('e', '<i8'), ('f', '<i2'), ('s', 'S10')])
rng = np.random.default_rng(7)
a = np.frombuffer(rng.integers(0, 256, n * dt.itemsize, dtype=np.uint8).tobytes(), dt).copy()
a['t'] = np.datetime64('2024-01-01', 'ns') + rng.integers(0, 10**15, n).astype('m8[ns]')
np.save(path, a)
PY
valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=1048576,16,64 \
    --cachegrind-out-file="$dir/cg" "$NPYDT" dump --arrow "$dir/mixed.npy" \
    >/dev/null 2>"$dir/log" || { cat "$dir/log"; echo "arrow-export-cache: 0 passed, 1 failed"; exit 1; }
misses=$(sed -n 's/.*D1  misses:.*( *\([0-9,]*\) rd.*/\1/p' "$dir/log" | tr -d ,)
lines=$((N * 56 / 64))
if [ -n "$misses" ] && [ "$misses" -le $((2 * lines)) ]; then
    echo "arrow-export-cache: 1 passed, 0 failed ($misses first-level read misses for $lines lines of records)"
else
    echo "FAIL: dump --arrow: ${misses:-?} first-level read misses for $lines lines of records (at most $((2 * lines)))"
    echo "arrow-export-cache: 0 passed, 1 failed"
    exit 1
fi

#!/bin/sh
# Reading a mapped file front to back keeps a bounded part of it resident:
# dump (every format) and swap give back the pages behind what they read
# (src/cli/common/mapped.c), so their peak resident memory on a 160 MiB
# file stays below 64 MiB (it was the file's size and more). A
# Fortran-order file is read in C order by bands (src/access/band.c)
# without touching its mapping: dump, stats and check --rules stay below
# 64 MiB too (they kept the whole file resident). Peak memory
# is what /usr/bin/time reports (the kernel's maxrss), not a time. The
# file is sparse: its zeros take no disk, and pages read from it are
# resident like any other file's.
NPYDT=${NPYDT:-build/npydt}
PY=${PYTHON:-/usr/bin/python3}
BOUND_KB=65536
if [ -n "${SANITIZE:-}" ] || [ -n "${EXEC:-}" ]; then
    echo "SKIP: mapped-memory: a sanitizer's shadow memory or an emulator is resident too"
    exit 0
fi
if [ ! -x /usr/bin/time ]; then
    echo "SKIP: mapped-memory: /usr/bin/time not installed"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
"$PY" - "$dir/big.npy" <<'PYEOF'
import sys
from numpy.lib import format
n = 160 << 17   # 160 MiB of <u8
with open(sys.argv[1], 'wb') as f:
    format.write_array_header_1_0(f, {'descr': '<u8', 'fortran_order': False, 'shape': (n,)})
    f.truncate(f.tell() + 8 * n)
PYEOF
# the same 160 MiB in Fortran order, 4 columns: read in C order by the
# reader's bands (pread into a bounded buffer), never through the mapping
"$PY" - "$dir/fortran.npy" <<'PYEOF'
import sys
from numpy.lib import format
n = 160 << 15
with open(sys.argv[1], 'wb') as f:
    format.write_array_header_1_0(f, {'descr': '<u8', 'fortran_order': True, 'shape': (n, 4)})
    f.truncate(f.tell() + 8 * 4 * n)
PYEOF
# peak CMD...: CMD's peak resident memory in KiB (its output dropped)
check() {
    /usr/bin/time -f '%M' -o "$dir/rss" "$NPYDT" "$@" >/dev/null 2>"$dir/err"
    rc=$?
    kb=$(tail -n 1 "$dir/rss")
    if [ "$rc" = 0 ] && [ "$kb" -lt "$BOUND_KB" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "mapped-memory: $* on 160 MiB: exit $rc, peak $kb KiB (at most $BOUND_KB): $(head -c 200 "$dir/err")"
    fi
    rm -f "$dir/out.npy"
}
check dump --csv "$dir/big.npy"
check dump --tsv "$dir/big.npy"
check dump --jsonl "$dir/big.npy"
check dump --jsonl --range 1000: "$dir/big.npy"
check swap --to big -o "$dir/out.npy" "$dir/big.npy"
check dump --jsonl "$dir/fortran.npy"
check dump --csv "$dir/fortran.npy"
check dump --jsonl --range 1000: "$dir/fortran.npy"
check dump --arrow "$dir/fortran.npy"
check stats "$dir/fortran.npy"
check check --verify --rules "{'': {'min': 0}}" "$dir/fortran.npy"
echo "mapped-memory: $passed passed, $failed failed"
[ "$failed" = 0 ]

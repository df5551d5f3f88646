#!/bin/sh
# A .npy file on a pipe is read in sequence, not held in memory: inspect
# and check read its header and count the rest, dump and pack stream its
# data, so their peak resident memory on a 160 MiB file through a pipe
# stays below 32 MiB (it was the file's size and more, and 1 GiB refused).
# An order that goes back (Fortran order, a negative step) and an archive
# still read the pipe whole, and give what the same file gives. Peak
# memory is what /usr/bin/time reports (the kernel's maxrss), not a time.
# Prints `pipe-memory: N passed, M failed`.
NPYDT=${NPYDT:-build/npydt}
PY=${PYTHON:-/usr/bin/python3}
BOUND_KB=32768
if [ -n "${SANITIZE:-}" ] || [ -n "${EXEC:-}" ]; then
    echo "SKIP: pipe-memory: a sanitizer's shadow memory or an emulator is resident too"
    exit 0
fi
if [ ! -x /usr/bin/time ]; then
    echo "SKIP: pipe-memory: /usr/bin/time not installed"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL pipe-memory: $*"; }
"$PY" - "$dir" <<'PYEOF'
import sys
import numpy as np
from numpy.lib import format
d = sys.argv[1]
n = 160 << 17   # 160 MiB of <u8
with open(d + '/big.npy', 'wb') as f:
    format.write_array_header_1_0(f, {'descr': '<u8', 'fortran_order': False, 'shape': (n,)})
    f.truncate(f.tell() + 8 * n)
np.save(d + '/fortran.npy', np.asfortranarray(np.arange(12, dtype='<i4').reshape(3, 4)))
np.save(d + '/text.npy', np.array(['ab', 'c']))
np.savez(d + '/two.npz', a=np.arange(3), b=np.arange(2.0))
PYEOF

# peak NAME CMD...: CMD reads big.npy from a pipe; exit 0 and its peak
# resident memory in KiB below the bound (its output dropped)
peak() {
    name=$1
    shift
    cat "$dir/big.npy" | /usr/bin/time -f '%M' -o "$dir/rss" "$NPYDT" "$@" >/dev/null 2>"$dir/err"
    rc=$?
    kb=$(tail -n 1 "$dir/rss")
    if [ "$rc" = 0 ] && [ "$kb" -lt "$BOUND_KB" ]; then
        ok
    else
        bad "$name: exit $rc, peak $kb KiB (at most $BOUND_KB): $(head -c 200 "$dir/err")"
    fi
}
peak "inspect reads the header of a pipe and counts the rest" inspect -
peak "check counts the data of a pipe" check --schema "'<u8'" -
peak "check --verify counts the data of a pipe" check --verify --schema "'<u8'" -
peak "dump --jsonl streams a pipe" dump --jsonl -
peak "dump --csv streams a pipe" dump --csv --range 1000: -
peak "dump --head stops early on a pipe" dump --jsonl --head 3 -
peak "pack streams a pipe into an archive" pack "$dir/out.npz" a=-

# same NAME FILE CMD...: CMD on FILE through a pipe prints what it prints
# for FILE by path (the name '-' in place of the path)
same() {
    name=$1 file=$2
    shift 2
    "$NPYDT" "$@" "$file" 2>&1 | sed "s|$file|-|g" >"$dir/want"
    cat "$file" | "$NPYDT" "$@" - >"$dir/got" 2>&1
    if cmp -s "$dir/want" "$dir/got"; then
        ok
    else
        bad "$name: $(head -c 300 "$dir/got"), want $(head -c 300 "$dir/want")"
    fi
}
same "a Fortran-order array on a pipe is dumped in C order" "$dir/fortran.npy" dump --jsonl
same "a negative step reads a pipe whole" "$dir/fortran.npy" dump --range ::-1
same "text checked before printing reads a pipe whole" "$dir/text.npy" dump --jsonl
same "an archive on a pipe is read whole" "$dir/two.npz" inspect

# a short file on a pipe says what a short file says
head -c 1000 "$dir/big.npy" | "$NPYDT" inspect - >/dev/null 2>"$dir/err"
rc=$?
want="-: data too short: the data needs 167772160 bytes (count 20971520 * itemsize 8) but 872 are present"
if [ "$rc" = 3 ] && [ "$(cat "$dir/err")" = "$want" ]; then
    ok
else
    bad "a short pipe: exit $rc, '$(cat "$dir/err")', want 3, '$want'"
fi
echo "pipe-memory: $passed passed, $failed failed"
[ "$failed" = 0 ]

#!/bin/sh
# swap -j N: the records of a .npy file are swapped in chunks by N
# threads and written in order, so the output is the same for every N.
# Over every .npy fixture (valid or not), to big and to little, to a new
# file and in place, -j 2 and -j 4 give the bytes, the exit status and the
# messages of -j 1; so do arrays of many chunks (odd record sizes,
# Fortran order, a file read without mmap). And --in-place takes the
# input's pages out of the page cache as it reads them: the replaced
# file, kept alive by a second link, has at most a few MiB cached
# afterwards (it was all cached before the run).
# Prints "swap-jobs: N passed, M failed".
NPYDT=${NPYDT:-build/npydt}
PY=${PYTHON:-/usr/bin/python3}
FIXTURES=${FIXTURES:-tests/fixtures}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "swap-jobs: $*"; }

case $NPYDT in /*) ;; *) NPYDT=$(pwd)/$NPYDT ;; esac
mkdir "$dir/j1" "$dir/j2" "$dir/j4"

# one FILE TO [OPTION]: in $dir/jN, swap a copy of FILE to TO with -j N
# (N = 1, 2, 4) to a new file, then in place; the folders must end up the
# same: outputs, exit statuses and messages (which name the files as
# given: relative to the folder)
one() {
    file=$1 to=$2 extra=${3:-}
    name=$(basename "$file")
    for j in 1 2 4; do
        (
            cd "$dir/j$j" || exit 1
            rm -f ./*
            cp "$file" "$name"
            # shellcheck disable=SC2086
            "$NPYDT" swap $extra -j $j "$name" --to "$to" -o out.npy >/dev/null 2>err.out
            echo $? >rc.out
            # shellcheck disable=SC2086
            "$NPYDT" swap $extra -j $j "$name" --to "$to" --in-place >/dev/null 2>err.in
            echo $? >rc.in
        )
    done
    for j in 2 4; do
        if ! diff -r "$dir/j1" "$dir/j$j" >"$dir/diff"; then
            fail "$name --to $to $extra: -j $j is not -j 1: $(head -c 300 "$dir/diff")"
            return
        fi
    done
    pass
}

fixtures=$(cd "$FIXTURES" && pwd)
for file in "$fixtures"/*.npy "$fixtures"/bad/*.npy; do
    one "$file" big
    one "$file" little
done

# arrays of many chunks (a chunk is at most 4 MiB of whole records)
"$PY" - "$dir" <<'PYEOF'
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(7)
odd = np.dtype([('a', '<u2'), ('b', '>f8'), ('c', 'S3')])   # 13 bytes
a = np.zeros(1500000, odd)
a['a'] = rng.integers(0, 2**16, a.size)
a['b'] = rng.normal(size=a.size)
a['c'] = b'xyz'
np.save(f'{d}/odd.npy', a)
np.save(f'{d}/fortran.npy', np.asfortranarray(rng.normal(size=(1000, 1700))))
np.save(f'{d}/big_endian.npy', rng.integers(-2**31, 2**31, 3000000).astype('>i4'))
PYEOF
mkdir "$dir/gen"
mv "$dir/odd.npy" "$dir/fortran.npy" "$dir/big_endian.npy" "$dir/gen/"
for file in "$dir"/gen/*.npy; do
    one "$file" big
    one "$file" little
    one "$file" big --no-mmap
done

# -j 0 is one thread a processor; -j past the most is a usage error
"$NPYDT" swap -j 0 "$dir/gen/odd.npy" --to big -o "$dir/j0.npy"
"$NPYDT" swap -j 1 "$dir/gen/odd.npy" --to big -o "$dir/j1.npy"
if cmp -s "$dir/j0.npy" "$dir/j1.npy"; then pass; else fail "-j 0: not the output of -j 1"; fi
"$NPYDT" swap -j 257 "$dir/gen/odd.npy" --to big -o "$dir/x.npy" 2>"$dir/err"
rc=$?
if [ $rc = 2 ] && grep -q "jobs" "$dir/err" && [ ! -e "$dir/x.npy" ]; then pass; else
    fail "-j 257: exit $rc: $(head -c 200 "$dir/err")"; fi

# --in-place drops the input's cached pages behind it: where the
# filesystem lets posix_fadvise drop them (not tmpfs), the replaced file
# (a second link keeps it) is left with at most 16 MiB cached of 48 MiB
if command -v fincore >/dev/null 2>&1; then
    w=$dir/cache
    mkdir "$w"
    "$PY" -c "import numpy as np; np.save('$w/a.npy', np.arange(6 << 20, dtype='<f8'))"
    cached() { fincore -b -n -o RES "$1" 2>/dev/null | tr -d ' '; }
    sync "$w/a.npy"   # dirty pages are not dropped
    "$PY" -c "import os, sys; f = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(f, 0, 0, os.POSIX_FADV_DONTNEED)" "$w/a.npy"
    dropped=$(cached "$w/a.npy")
    cat "$w/a.npy" >/dev/null
    full=$(cached "$w/a.npy")
    if [ -z "$dropped" ] || [ -z "$full" ] || [ "$dropped" -gt 1048576 ] ||
        [ "$full" -lt 50000000 ]; then
        echo "swap-jobs: the page cache of $w cannot be dropped here (tmpfs?); case skipped"
    else
        ln "$w/a.npy" "$w/old.npy"
        "$NPYDT" swap -j 2 "$w/a.npy" --to big --in-place 2>"$dir/err"
        rc=$?
        left=$(cached "$w/old.npy")
        if [ $rc = 0 ] && [ "$left" -le 16777216 ]; then pass; else
            fail "--in-place: exit $rc, $left bytes of the replaced file still cached" \
                 "(at most 16 MiB of $full): $(head -c 200 "$dir/err")"
        fi
    fi
fi

echo "swap-jobs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

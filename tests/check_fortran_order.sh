#!/bin/sh
# A Fortran-order array is read in C order by bands (src/access/band.c):
# what the command prints of it must be byte for byte what it prints of
# the same array saved in C order. NumPy makes arrays of random shapes
# (1-d, 2-d, 3-d, 4-d, size-1 and empty axes) and dtypes (numbers, bytes,
# str, datetime, records with a subarray), plus three large enough for
# several bands: tall, wide (runs read together) and one whose rows do
# not fit a band. Each is saved both ways under one name in two folders;
# dump (--jsonl mapped, --no-mmap and -j 2; --csv; a --range; --arrow),
# stats and check --rules must print the same bytes and exit alike (0,
# or 1 for a rule that breaks or does not apply).
# Prints "fortran-order: N passed, M failed".
NPYDT=$(realpath "${NPYDT:-build/npydt}")
PY=${PYTHON:-/usr/bin/python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
mkdir "$dir/f" "$dir/c"
"$PY" - "$dir" <<'PYEOF' || { echo "fortran-order: numpy could not make the arrays"; exit 1; }
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(24)
dtypes = ['<f8', '>i2', 'u1', '<c16', 'S5', '<U3', '<M8[ns]', '?', '>f4',
          [('a', '<i4'), ('b', 'S3'), ('c', '<f4', (2,))]]
def fill(shape, dt):
    dt = np.dtype(dt)
    n = int(np.prod(shape))
    raw = rng.integers(0, 256, n * dt.itemsize, dtype=np.uint8)
    if dt.kind in 'fc':
        a = rng.standard_normal(n * (2 if dt.kind == 'c' else 1)).astype('<f8')
        a = a.view('<c16') if dt.kind == 'c' else a
        return a.astype(dt).reshape(shape)
    if dt.kind == 'U':
        return np.array([''.join(chr(97 + int(x) % 26) for x in rng.integers(0, 99, 3))
                         for _ in range(n)], dtype=dt).reshape(shape)
    if dt.kind == 'M':
        return (np.datetime64('2001-01-01', 'ns') +
                rng.integers(0, 10**17, n).astype('m8[ns]')).reshape(shape)
    if dt.kind == 'b':
        return (raw[:n] & 1).astype('?').reshape(shape)
    if dt.kind == 'V':
        a = np.zeros(n, dt)
        a['a'] = rng.integers(-2**31, 2**31, n)
        a['b'] = [bytes([97 + int(x) % 26]) * 3 for x in rng.integers(0, 99, n)]
        a['c'] = rng.standard_normal((n, 2))
        return a.reshape(shape)
    return raw.view(dt).reshape(shape)
k = 0
def save(a):
    global k
    np.save('%s/f/a%03d.npy' % (d, k), np.asfortranarray(a))
    np.save('%s/c/a%03d.npy' % (d, k), np.ascontiguousarray(a))
    k += 1
for t in range(40):
    nd = 1 + t % 4
    shape = tuple(int(x) for x in rng.integers(1, 9, nd))
    if t % 11 == 5:
        shape = shape[:-1] + (0,)
    if t % 7 == 3 and nd > 1:
        shape = (1,) + shape[1:]
    save(fill(shape, dtypes[t % len(dtypes)]))
save(fill((300000, 5), '<f8'))     # tall: bands of whole rows
save(fill((3, 400000), '<i4'))     # wide: short runs read together
save(fill((2, 1100000), '<f8'))    # a row larger than a band: parts of rows
PYEOF

# same ARGS...: the command's stdout, stderr and exit status on each
# file of f/ and of c/ (run in that folder) are the same
same() {
    for f in $(cd "$dir/f" && ls); do
        (cd "$dir/f" && "$NPYDT" "$@" "$f" >"$dir/f.out" 2>"$dir/f.err"; echo $? >"$dir/f.rc")
        (cd "$dir/c" && "$NPYDT" "$@" "$f" >"$dir/c.out" 2>"$dir/c.err"; echo $? >"$dir/c.rc")
        if cmp -s "$dir/f.out" "$dir/c.out" && cmp -s "$dir/f.err" "$dir/c.err" &&
            cmp -s "$dir/f.rc" "$dir/c.rc" && [ "$(cat "$dir/f.rc")" -le 1 ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "fortran-order: $* $f: Fortran order prints otherwise than C order" \
                "(exit $(cat "$dir/f.rc") vs $(cat "$dir/c.rc")): $(head -c 200 "$dir/f.err")"
        fi
    done
}
same dump --jsonl
same dump --no-mmap --jsonl
same dump -j 2 --jsonl
same dump --csv
same dump --jsonl --range 2:
same dump --arrow
same dump --no-mmap --arrow
same stats
same check --rules "{'': {'nan': False}}"
echo "fortran-order: $passed passed, $failed failed"
[ "$failed" = 0 ]

#!/bin/sh
# dump -j N writes the bytes, messages and exit status of dump -j 1: for
# every format (the table, --vertical, --jsonl, --csv, --tsv and their row
# options, --arrow) and selection (--head, --tail, --index, --range
# forwards and backwards, --sample, --fields) over arrays large enough
# for many tasks (a struct of every kind, Fortran order, 3-d, an archive
# member, a pipe, --no-mmap), and for every fixture; errors as -j 1
# reports them (a U value that is no text, a pipe whose data ends early,
# a full device, a reader gone). Then: dump's output goes out with
# write(2) from its buffer, never through stdio's (callgrind counts no
# instruction in fwrite), and rows read backwards from a mapped file keep
# resident memory bounded (ulimit cannot bound resident memory: the peak
# is read from /usr/bin/time). Prints
#   dump-jobs: N passed, M failed
O=${O:-build}
NPYDT=${NPYDT:-$O/npydt}
PY=${PYTHON:-/usr/bin/python3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "dump-jobs: $*"
}

"$PY" - "$dir" <<'EOF' || { echo "dump-jobs: cannot write the arrays"; exit 1; }
import sys
import numpy as np
d = sys.argv[1]
n = 20000
rng = np.random.default_rng(7)
dt = np.dtype([('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('c', '<f4'), ('h', '<f2'),
               ('z', '<c8'), ('s', 'S6'), ('u', '<U5'), ('b', '?'), ('sub', '<i2', (2, 3)),
               ('pt', [('x', '>f8'), ('y', '<i8')]), ('v', 'V3'), ('m', '<m8[s]')])
a = np.zeros(n, dt)
a['t'] = np.datetime64('2020-01-01', 'ns') + rng.integers(0, 10**15, n).astype('m8[ns]')
a['t'][::97] = np.datetime64('NaT')
a['id'] = rng.integers(0, 2**32, n, dtype=np.uint64)
a['a'] = rng.normal(size=n) * 1e3
a['a'][::101] = np.nan
a['a'][::103] = np.inf
a['c'] = rng.normal(size=n).astype('f4')
a['h'] = rng.normal(size=n).astype('f2')
a['z'] = (rng.normal(size=n) + 1j * rng.normal(size=n)).astype('c8')
a['s'] = np.array([b'ab', b'c,d', b'e"f', b'\\\x01', b'', b'tab\t'], 'S6')[rng.integers(0, 6, n)]
a['u'] = np.array(['x', 'héllo', 'a\tb', 'c\nd', '日本', ''])[rng.integers(0, 6, n)]
a['b'] = rng.integers(0, 2, n).astype(bool)
a['sub'] = rng.integers(-300, 300, (n, 2, 3))
a['pt']['x'] = rng.random(n)
a['pt']['y'] = rng.integers(-2**62, 2**62, n)
a['v'] = np.frombuffer(rng.bytes(3 * n), 'V3')
a['m'] = rng.integers(-10**6, 10**6, n).astype('m8[s]')
np.save(f'{d}/mixed.npy', a)
np.save(f'{d}/fort.npy', np.asfortranarray(rng.normal(size=(300, 500))))
np.save(f'{d}/c3d.npy', rng.integers(-2**31, 2**31, (40, 50, 30), dtype='<i4'))
np.savez_compressed(f'{d}/arch.npz', a=a, b=np.arange(5))
u = np.array(['ok'] * 60000, '<U2')
raw = bytearray(u.tobytes())
raw[50000 * 8: 50000 * 8 + 4] = (0x110000).to_bytes(4, 'little')   # no code point
np.save(f'{d}/badu.npy', np.frombuffer(bytes(raw), '<U2'))
EOF

# run ARGS... with -j 1, 2 and 4 (the input on stdin when STDIN is set):
# stdout, stderr and status alike
same() {
    for j in 1 2 4; do
        if [ -n "${STDIN:-}" ]; then
            "$NPYDT" dump -j $j "$@" <"$STDIN" >"$dir/out$j" 2>"$dir/err$j"
        else
            "$NPYDT" dump -j $j "$@" >"$dir/out$j" 2>"$dir/err$j"
        fi
        echo $? >>"$dir/err$j"
    done
    if cmp -s "$dir/out1" "$dir/out2" && cmp -s "$dir/out1" "$dir/out4" &&
        cmp -s "$dir/err1" "$dir/err2" && cmp -s "$dir/err1" "$dir/err4"; then
        ok
    else
        bad "dump -j N $* ${STDIN:+<$STDIN }differs from -j 1"
    fi
}

formats='--table --vertical --jsonl --csv --tsv --arrow
--jsonl --index-column
--csv --index-column --no-header
--jsonl --float native --datetime iso --nan null --big-int string
--tsv --nan null --datetime iso'
each_format() {
    echo "$formats" | while read -r f; do
        [ "$f" = "--table" ] && f="--head 100000"
        [ "$f" = "--vertical" ] && f="--vertical --head 3000"
        # shellcheck disable=SC2086
        same $f "$@"
        echo "$passed $failed" >"$dir/counts"
    done
    read -r passed failed <"$dir/counts"
}

for input in "$dir/mixed.npy" "$dir/fort.npy" "$dir/c3d.npy" "$dir/arch.npz:a"; do
    each_format "$input"
done
each_format --no-mmap "$dir/mixed.npy"
STDIN=$dir/mixed.npy each_format -
STDIN=$dir/fort.npy each_format -
for sel in "--head 12345" "--tail 777" "--range 5:-3:7" "--range ::-3" "--index 7" \
    "--sample 5000 --seed 3"; do
    for f in "--head 100000" --jsonl --csv; do
        # shellcheck disable=SC2086
        same $f $sel "$dir/mixed.npy"
        # shellcheck disable=SC2086
        same $f $sel "$dir/fort.npy"
    done
done
same --jsonl --fields pt.y,u,sub "$dir/mixed.npy"
same --csv --fields a,s,sub "$dir/mixed.npy"
same --head 100000 --fields t,u "$dir/mixed.npy"
same --jsonl --index 3,4 "$dir/c3d.npy"
same --csv --range ::-1 "$dir/c3d.npy"

# every fixture
for f in tests/fixtures/*.npy; do
    for fmt in --jsonl --csv --tsv --vertical ""; do
        # shellcheck disable=SC2086
        same $fmt "$f"
    done
done

# errors: a U value that is no text (found before anything is printed)
same --jsonl "$dir/badu.npy"
same --csv "$dir/badu.npy"
if [ "$(tail -n 1 "$dir/err4")" = 3 ] && [ ! -s "$dir/out4" ]; then
    ok
else
    bad "dump -j 4 --csv of a U value that is no text: no error"
fi
# a pipe whose data ends early (found before anything is printed)
size=$(wc -c <"$dir/mixed.npy")
head -c $((size - 100000)) "$dir/mixed.npy" >"$dir/short.npy"
STDIN=$dir/short.npy same --jsonl -
if [ "$(tail -n 1 "$dir/err4")" = 3 ] && [ ! -s "$dir/out4" ]; then
    ok
else
    bad "dump -j 4 --jsonl - of data that ends early: exit $(tail -n 1 "$dir/err4")"
fi
STDIN=$dir/short.npy same --csv -
# a full device, a reader gone
for j in 1 4; do
    "$NPYDT" dump -j $j --jsonl "$dir/mixed.npy" >/dev/full 2>"$dir/err"
    got=$?
    if [ $got = 2 ] &&
        [ "$(cat "$dir/err")" = "npydt: error writing output: No space left on device" ]; then
        ok
    else
        bad "dump -j $j --jsonl >/dev/full -> exit $got: $(head -c 200 "$dir/err")"
    fi
    ("$NPYDT" dump -j $j --csv "$dir/mixed.npy" 2>"$dir/err"; echo $? >"$dir/status") |
        head -c 100 >/dev/null
    if [ "$(cat "$dir/status")" = 0 ] && [ ! -s "$dir/err" ]; then
        ok
    else
        bad "dump -j $j --csv | head -> exit $(cat "$dir/status"): $(head -c 200 "$dir/err")"
    fi
done
# -j takes 1 to 256, or 0
for v in x -1 257; do
    "$NPYDT" dump -j "$v" --jsonl "$dir/fort.npy" >/dev/null 2>"$dir/err"
    if [ $? = 2 ] && grep -q "jobs" "$dir/err"; then ok; else bad "dump -j $v: not a usage error"; fi
done
"$NPYDT" dump --jobs 0 --jsonl "$dir/fort.npy" >"$dir/out0" 2>/dev/null &&
    "$NPYDT" dump -j 1 --jsonl "$dir/fort.npy" >"$dir/out1" 2>/dev/null &&
    cmp -s "$dir/out0" "$dir/out1" && ok || bad "dump --jobs 0 differs from -j 1"

# one copy of the output: no instruction in fwrite (stdio would copy the
# sink's buffer into its own)
if command -v valgrind >/dev/null 2>&1 && [ -z "${EXEC:-}" ] &&
    ! nm "$NPYDT" 2>/dev/null | grep -q '__[at]san_init'; then
    for fmt in --jsonl --csv --vertical ""; do
        # shellcheck disable=SC2086
        valgrind --tool=callgrind --toggle-collect='fwrite*' \
            --callgrind-out-file="$dir/cg.out" "$NPYDT" dump -j 1 $fmt --head 300 \
            "$dir/mixed.npy" >/dev/null 2>"$dir/vg.log"
        n=$(sed -n 's/^summary: *//p' "$dir/cg.out")
        if [ "$n" = 0 ]; then ok; else bad "dump $fmt: $n instructions in fwrite"; fi
    done
fi

# rows backwards from a mapped file: pages given back as they go (256 MiB
# of data, at most 64 MiB resident, not the whole file)
if [ -x /usr/bin/time ] && [ "${DUMP_JOBS_BIG:-1}" = 1 ]; then
    "$PY" -c "
import numpy as np, sys
dt = np.dtype({'names': ['a'], 'formats': ['u1'], 'itemsize': 256})
a = np.lib.format.open_memmap(sys.argv[1], 'w+', dt, (1 << 20,))
a.view('u1').reshape(-1)[:] = 7
a.flush()" "$dir/big.npy"
    for j in 1 2; do
        /usr/bin/time -f %M -o "$dir/rss" "$NPYDT" dump -j $j --csv --range ::-1 \
            "$dir/big.npy" >/dev/null 2>&1
        kb=$(tail -n 1 "$dir/rss")
        if [ "$kb" -le 65536 ]; then
            ok
        else
            bad "dump -j $j --range ::-1 of 256 MiB: $kb KiB resident"
        fi
    done
    rm -f "$dir/big.npy"
fi

echo "dump-jobs: $passed passed, $failed failed"
[ $failed = 0 ]

#!/bin/sh
# `npydt check --rules` with five range and NaN rules over a file of the
# 56-byte mixed struct
#   t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
# (about 200 MB, a few NaNs in a), next to a read-only pass over the same
# mapped bytes (tests/bench/read_pass.c): wall times of whole processes
# with the file in the page cache, the best of ROUNDS each, interleaved.
# Prints both, the throughput ratio (target: at least 0.8) and each
# one's peak resident memory (/usr/bin/time -v: the mapped file's pages
# that were read count in both). Exits 1 when the rules do not report the
# NaNs the file holds.
#   tests/bench/rules.sh [-n RECORDS] [-r ROUNDS] READ_PASS NPYDT
set -eu
n=3600000
rounds=5
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 2 ] || { echo "usage: rules.sh [-n RECORDS] [-r ROUNDS] READ_PASS NPYDT" >&2; exit 2; }
anchor=$1
npydt=$2
PY=${PYTHON:-/usr/bin/python3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/npydt-rules.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM HUP
"$PY" - "$dir/mixed.npy" "$n" <<'PYEOF'
import sys
import numpy as np
path, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(26)
a = np.zeros(n, [('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('b', '<f8'), ('c', '<f4'),
                 ('d', '<f4'), ('e', '<i8'), ('f', '<i2'), ('s', 'S10')])
a['t'] = np.datetime64('2024-01-01', 'ns') + rng.integers(0, 10**15, n).astype('m8[ns]')
a['id'] = rng.integers(0, 2**32, n, dtype=np.uint64)
a['a'] = rng.normal(size=n) * 1000
a['a'][rng.integers(0, n, 7)] = np.nan
a['b'] = rng.random(n)
a['c'] = rng.normal(size=n).astype('f4')
a['d'] = (rng.random(n) * 100).astype('f4')
a['e'] = rng.integers(-2**62, 2**62, n)
a['f'] = rng.integers(-30000, 30000, n)
np.save(path, a)
PYEOF
rules="{'a': {'min': -1e9, 'max': 1e9, 'nan': False}, 'c': {'nan': False}, 'e': {'min': -4611686018427387904}}"

# wall nanoseconds of one run of PROGRAM ARGS... (output dropped)
wall() {
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    echo $((t1 - t0))
}
peak_kb() {
    /usr/bin/time -v "$@" 2>&1 >/dev/null | sed -n 's/.*Maximum resident set size (kbytes): //p'
}

"$npydt" check --rules "$rules" "$dir/mixed.npy" 2>"$dir/err" >/dev/null && rc=0 || rc=$?
if [ "$rc" -ne 1 ] || ! grep -q "field a: nan False: 7 elements break it" "$dir/err"; then
    echo "rules bench: npydt check --rules did not find the 7 NaNs (exit $rc):" >&2
    cat "$dir/err" >&2
    exit 1
fi
"$anchor" "$dir/mixed.npy" >/dev/null   # into the page cache
best_a=
best_n=
i=0
while [ $i -lt "$rounds" ]; do
    ta=$(wall "$anchor" "$dir/mixed.npy")
    tn=$(wall "$npydt" check --rules "$rules" "$dir/mixed.npy")
    [ -z "$best_a" ] || [ "$ta" -lt "$best_a" ] && best_a=$ta
    [ -z "$best_n" ] || [ "$tn" -lt "$best_n" ] && best_n=$tn
    i=$((i + 1))
done
bytes=$(wc -c <"$dir/mixed.npy")
pa=$(peak_kb "$anchor" "$dir/mixed.npy")
pn=$(peak_kb "$npydt" check --rules "$rules" "$dir/mixed.npy")
awk -v a="$best_a" -v b="$best_n" -v bytes="$bytes" -v n="$n" -v pa="$pa" -v pn="$pn" 'BEGIN {
    printf "check --rules (5 range/NaN rules), %d records of 56 bytes (%.0f MB), best of runs:\n", n, bytes / 1e6
    printf "  read-only pass (C)      %8.1f ms  %7.0f MB/s  peak RSS %7.1f MB\n", a / 1e6, bytes / (a / 1e9) / 1e6, pa / 1024
    printf "  npydt check --rules     %8.1f ms  %7.0f MB/s  peak RSS %7.1f MB\n", b / 1e6, bytes / (b / 1e9) / 1e6, pn / 1024
    printf "  throughput ratio %.2fx (target >= 0.8x)\n", a / b
}'

#!/bin/sh
# npydt dump --arrow against cp of the same bytes, in one run: a file of
# MB megabytes (200 by default) of the 56-byte mixed struct of
# dump_csv.sh, written as an Arrow IPC stream to a file, and the .npy
# copied by cp to the same folder. Prints the best wall time of three
# runs of each, the throughput ratio (the file's bytes over dump's time,
# against cp's) and the peak resident memory of dump (GNU time), which
# stays a batch's whatever the file's size; then the same to standard
# output redirected to a file (the durable output's fsync and rename left
# out). For information: nothing is
# compared to a bound (the machine's load moves wall time).
#   tests/bench/dump_arrow.sh [-m MB] NPYDT
set -eu
mb=200
[ "${1:-}" = -m ] && { mb=$2; shift 2; }
[ $# -eq 1 ] || { echo "usage: dump_arrow.sh [-m MB] NPYDT" >&2; exit 2; }
npydt=$1
PY=${PYTHON:-/usr/bin/python3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/npydt-arrow.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM HUP
"$PY" - "$dir/mixed.npy" "$mb" <<'PY'
import sys
import numpy as np
path, mb = sys.argv[1], int(sys.argv[2])
dt = np.dtype([('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('b', '<f8'), ('c', '<f4'),
               ('d', '<f4'), ('e', '<i8'), ('f', '<i2'), ('s', 'S10')])
n = mb * 1000000 // dt.itemsize
rng = np.random.default_rng(24)
a = np.zeros(n, dt)
a['t'] = np.datetime64('2024-01-01', 'ns') + rng.integers(0, 10**15, n).astype('m8[ns]')
a['id'] = rng.integers(0, 2**32, n, dtype=np.uint64)
a['a'] = rng.normal(size=n)
a['b'] = rng.random(n)
a['c'] = rng.normal(size=n).astype('f4')
a['d'] = rng.random(n).astype('f4')
a['e'] = rng.integers(-2**62, 2**62, n)
a['f'] = rng.integers(-30000, 30000, n)
a['s'] = np.array([b'alpha', b'beta', b'gamma', b'epsilon123'], 'S10')[rng.integers(0, 4, n)]
np.save(path, a)
PY
bytes=$(wc -c <"$dir/mixed.npy")
# best of three wall times (seconds) of a command, from GNU time's lines;
# the peak RSS (kB) of the last run in $dir/rss
best() {
    b=
    for i in 1 2 3; do
        rm -f "$dir/out"
        /usr/bin/time -f '%e %M' -o "$dir/time" "$@" >/dev/null
        read -r t rss <"$dir/time"
        echo "$rss" >"$dir/rss"
        b=$("$PY" -c 'import sys; a, b = sys.argv[1:]; print(min(float(a), float(b)) if b else a)' "$t" "$b")
    done
    echo "$b"
}
cp_s=$(best cp "$dir/mixed.npy" "$dir/out")
arrow_s=$(best "$npydt" dump --arrow -o "$dir/out" "$dir/mixed.npy")
arrow_rss=$(cat "$dir/rss")
out=$(wc -c <"$dir/out")
# the same to standard output redirected to a file: no fsync, no rename
pipe_s=$(best sh -c '"$1" dump --arrow "$2" >"$3"' sh "$npydt" "$dir/mixed.npy" "$dir/out")
"$PY" - "$bytes" "$out" "$cp_s" "$arrow_s" "$arrow_rss" "$pipe_s" <<'PY'
import sys
b, out, c, a, rss, p = (int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]),
                        float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]))
mbps = lambda s: b / max(s, 1e-3) / 1e6
print(f"dump --arrow -o of {b / 1e6:.0f} MB (56-byte mixed struct, {out / 1e6:.0f} MB of stream): "
      f"{a:.2f} s ({mbps(a):.0f} MB/s), cp {c:.2f} s ({mbps(c):.0f} MB/s): "
      f"{c / max(a, 1e-3):.2f}x cp's throughput; peak RSS {rss / 1024:.1f} MiB")
print(f"dump --arrow > file (no fsync): {p:.2f} s ({mbps(p):.0f} MB/s): "
      f"{c / max(p, 1e-3):.2f}x cp's throughput")
PY

#!/bin/sh
# npydt load --arrow against cp of the same bytes, in one run: a stream of
# about MB megabytes (300 by default) of the 56-byte mixed struct of
# dump_arrow.sh (t <M8[ns], id <u4, a b <f8, c d <f4, e <i8, f <i2, s S10),
# written by dump --arrow, then
#   - cp STREAM OUT                      (no fsync: cp does none)
#   - load --arrow --no-sync -o OUT STREAM: like with like against cp: a
#     temporary file beside OUT renamed over it, no fsync
#   - load --arrow -o OUT STREAM: the default, the file and its folder
#     fsynced before the rename (the page cache's flush of OUT included)
#   - load --arrow --no-sync -o OUT - < STREAM: from standard input
# Each: the best of three wall times and the user + system CPU time of that
# run; throughput is the stream's bytes over the time; ratios are cp's time
# over load's (1.0: as fast as cp). Peak resident memory of load (GNU time),
# which stays about a batch's whatever the stream's size (dump --arrow
# writes batches of about 1 MiB). For information: nothing is compared to a
# bound (the machine's load moves wall time).
#   tests/bench/load_arrow.sh [-m MB] NPYDT
set -eu
. "$(dirname "$0")/common.sh"
mb=300
[ "${1:-}" = -m ] && { mb=$2; shift 2; }
[ $# -eq 1 ] || { echo "usage: load_arrow.sh [-m MB] NPYDT" >&2; exit 2; }
npydt=$1
bench_start arrowload
bench_py - "$dir/mixed.npy" "$mb" <<'PY'
import sys
import numpy as np
import mixed_table
path, mb = sys.argv[1], int(sys.argv[2])
n = mb * 1000000 // mixed_table.MIXED.itemsize
rng = np.random.default_rng(24)
a = mixed_table.mixed(n, rng, scaled=False, words=[b'alpha', b'beta', b'gamma', b'epsilon123'])
np.save(path, a)
PY
"$npydt" dump --arrow -o "$dir/mixed.arrow" "$dir/mixed.npy"
rm -f "$dir/mixed.npy"
bytes=$(wc -c <"$dir/mixed.arrow")
# best of three wall times of a command: "wall cpu rss" (seconds, seconds,
# kB) of the best run
best() {
    b=
    for i in 1 2 3; do
        rm -f "$dir/out"
        /usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$@" >/dev/null
        read -r t u s rss <"$dir/time"
        b=$("$PY" -c 'import sys
t, u, s, rss, b = sys.argv[1:]
cur = (float(t), float(u) + float(s), int(rss))
if b:
    w, c, r = b.split(); old = (float(w), float(c), int(r))
    cur = min(cur, old)
print("%.3f %.3f %d" % cur)' "$t" "$u" "$s" "$rss" "$b")
    done
    echo "$b"
}
cp_r=$(best cp "$dir/mixed.arrow" "$dir/out")
nosync_r=$(best "$npydt" load --arrow --no-sync -o "$dir/out" "$dir/mixed.arrow")
sync_r=$(best "$npydt" load --arrow -o "$dir/out" "$dir/mixed.arrow")
pipe_r=$(best sh -c '"$1" load --arrow --no-sync -o "$2" - <"$3"' sh "$npydt" "$dir/out" \
    "$dir/mixed.arrow")
"$PY" - "$bytes" "$cp_r" "$nosync_r" "$sync_r" "$pipe_r" <<'PY'
import sys
b = int(sys.argv[1])
cp, *runs = [tuple(float(x) for x in r.split()) for r in sys.argv[2:]]
mbps = lambda s: b / max(s, 1e-3) / 1e6
print(f"load --arrow of a {b / 1e6:.0f} MB stream (56-byte mixed struct): "
      f"cp {cp[0]:.2f} s wall ({mbps(cp[0]):.0f} MB/s), {cp[1]:.2f} s CPU")
names = ["load --arrow --no-sync -o OUT FILE", "load --arrow -o OUT FILE (fsync)",
         "load --arrow --no-sync -o OUT - <FILE"]
for name, (w, c, rss) in zip(names, runs):
    print(f"  {name}: {w:.2f} s wall ({mbps(w):.0f} MB/s, {cp[0] / max(w, 1e-3):.2f}x cp's), "
          f"{c:.2f} s CPU ({cp[1] / max(c, 1e-3):.2f}x cp's); peak RSS {rss / 1024:.1f} MiB")
PY

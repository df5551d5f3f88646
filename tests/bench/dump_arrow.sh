#!/bin/sh
# npydt dump --arrow against cp of the same bytes, in one run: a file of
# MB megabytes (200 by default) of the 56-byte mixed struct of
# dump_csv.sh, and like against like, in one folder:
#   dump --arrow FILE > OUT (no fsync)        against  cp FILE OUT
#   dump --arrow -o OUT FILE (fsync, rename)  against  cp FILE OUT + fsync of OUT
# For each, the best wall time of ROUNDS runs (3 by default), the
# throughput ratio (cp's time over dump's: the file's bytes per second,
# against cp's) and the CPU time (user + system) of the best run; then
# the peak resident memory of dump (GNU time), which stays a batch's and
# a few mapped megabytes whatever the file's size. For information:
# nothing is compared to a bound (the machine's load moves wall time).
#   tests/bench/dump_arrow.sh [-m MB] [-r ROUNDS] NPYDT
set -eu
. "$(dirname "$0")/common.sh"
mb=200
rounds=3
while [ $# -gt 0 ]; do
    case $1 in
    -m) mb=$2; shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 1 ] || { echo "usage: dump_arrow.sh [-m MB] [-r ROUNDS] NPYDT" >&2; exit 2; }
npydt=$1
bench_start arrow
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
bytes=$(wc -c <"$dir/mixed.npy")
# one run of a command: "wall cpu rss" (seconds, seconds of user +
# system, kB)
run() {
    rm -f "$dir/out"
    /usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$@" >/dev/null
    awk '{ printf "%s %.2f %s", $1, $2 + $3, $4 }' "$dir/time"
}
# the run of the two with the lower wall time
better() {
    if [ -z "$1" ]; then echo "$2"; return; fi
    echo "$1" "$2" | awk '{ if ($4 < $1) print $4, $5, $6; else print $1, $2, $3 }'
}
# the four commands, as sh -c scripts of $1 NPYDT, $2 the file, $3 the
# output, $4 Python (cp_sync: the copy's data fsynced by os.fsync, no
# other tool to rely on, as dump -o syncs its temporary file)
cp_plain='cp "$2" "$3"'
dump_plain='"$1" dump --arrow "$2" >"$3"'
cp_sync='cp "$2" "$3" && "$4" -c "import os, sys; os.fsync(os.open(sys.argv[1], os.O_RDONLY))" "$3"'
dump_sync='"$1" dump --arrow -o "$3" "$2"'
each() { run sh -c "$1" sh "$npydt" "$dir/mixed.npy" "$dir/out" "$PY"; }
# rounds interleaved, so that each pair meets the same load: the best of each
a= b= c= d=
for i in $(seq "$rounds"); do
    a=$(better "$a" "$(each "$cp_plain")")
    b=$(better "$b" "$(each "$dump_plain")")
    c=$(better "$c" "$(each "$cp_sync")")
    d=$(better "$d" "$(each "$dump_sync")")
done
"$npydt" dump --arrow "$dir/mixed.npy" >"$dir/out"
out=$(wc -c <"$dir/out")
"$PY" - "$bytes" "$out" "$a" "$b" "$c" "$d" <<'PY'
import sys
b, out = int(sys.argv[1]), int(sys.argv[2])
cp_plain, dump_plain, cp_sync, dump_sync = ([float(x) for x in a.split()] for a in sys.argv[3:7])
mbps = lambda s: b / max(s, 1e-3) / 1e6
print(f"dump --arrow of {b / 1e6:.0f} MB (56-byte mixed struct, {out / 1e6:.0f} MB of stream), "
      f"best wall time, CPU (user+sys) of that run:")
for name, d, c in (("> file (no fsync)   vs cp        ", dump_plain, cp_plain),
                   ("-o file (fsync)     vs cp + fsync", dump_sync, cp_sync)):
    print(f"  {name}: {d[0]:.2f} s ({mbps(d[0]):.0f} MB/s, cpu {d[1]:.2f} s) vs "
          f"{c[0]:.2f} s ({mbps(c[0]):.0f} MB/s, cpu {c[1]:.2f} s): "
          f"{c[0] / max(d[0], 1e-3):.2f}x cp's throughput (target >= 0.8x)")
print(f"  peak RSS of dump: {dump_plain[2] / 1024:.1f} MiB (> file), {dump_sync[2] / 1024:.1f} MiB (-o)")
PY

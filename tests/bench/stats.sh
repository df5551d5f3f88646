#!/bin/sh
# npydt stats over every leaf of the 56-byte mixed struct
#   t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
# next to a read-only pass over the same bytes (tests/bench/read_floor.c)
# and to NumPy's way (per field: nanmin, nanmax, nanmean, nanstd and
# isnan().sum() of the numbers, NaT counted, min/max of the datetimes;
# lengths of the strings), all on the same file in this run, its pages in
# the page cache (a first read-only pass puts them there). Wall seconds
# and CPU seconds (user + system: on a shared machine the CPU time is the
# measure) are the best of five runs; throughput ratios are the floor's
# time over the program's; peak memory is the maximum resident set
# (of a mapped file's pages too: the command gives them back behind it).
# Prints a line per program: seconds, MB/s, ratio to the floor's
# throughput, peak MB.
#   tests/bench/stats.sh [-m MB] FLOOR NPYDT
set -eu
. "$(dirname "$0")/common.sh"
mb=200
while [ $# -gt 0 ]; do
    case $1 in
    -m) mb=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 2 ] || { echo "usage: stats.sh [-m MB] FLOOR NPYDT" >&2; exit 2; }
floor=$1 npydt=$2
bench_start stats
bench_py - "$dir/mixed.npy" "$mb" <<'PY'
import sys
import numpy as np
import mixed_table
path, mb = sys.argv[1], int(sys.argv[2])
dt = mixed_table.MIXED
n = mb * 10**6 // dt.itemsize
rng = np.random.default_rng(26)
a = np.lib.format.open_memmap(path, mode='w+', dtype=dt, shape=(n,))
step = 1 << 20
for i in range(0, n, step):
    k = min(step, n - i)
    mixed_table.fill(a[i:i + k], rng, rising_from=i, nans=lambda rng, n: rng.random(n) < 0.01,
                     words=[b'alpha', b'beta', b'gamma', b'delta', b'epsilon123'])
a.flush()
del a
PY
cat >"$dir/numpy_way.py" <<'PY'
import sys
import numpy as np
a = np.load(sys.argv[1], mmap_mode='r')
out = []
for name in a.dtype.names:
    v = a[name]
    k = v.dtype.kind
    if k in 'fc':
        out += [np.nanmin(v), np.nanmax(v), np.nanmean(v), np.nanstd(v), np.isnan(v).sum()]
    elif k in 'iub':
        out += [v.min(), v.max(), v.mean(), v.std()]
    elif k == 'M':
        out += [np.nanmin(v), np.nanmax(v), np.isnat(v).sum()]
    else:
        lens = np.char.str_len(v)
        out += [lens.min(), lens.max()]
print(len(out))
PY
size=$(wc -c <"$dir/mixed.npy")
"$floor" "$dir/mixed.npy" >/dev/null   # into the page cache

# best wall seconds and CPU seconds (user + system, from wait4's rusage:
# finer than time(1)'s hundredths) and peak KB of five runs: NAME CMD...
cat >"$dir/timer.py" <<'PY'
import os, subprocess, sys, time
name, cmd = sys.argv[1], sys.argv[2:]
wall = cpu = None
peak = 0
for _ in range(5):
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    w = time.perf_counter() - t
    if status != 0:
        sys.exit("%s: exit status %d" % (name, status))
    c = ru.ru_utime + ru.ru_stime
    wall = w if wall is None else min(wall, w)
    cpu = c if cpu is None else min(cpu, c)
    peak = max(peak, ru.ru_maxrss)
print(name, "%.4f" % wall, "%.4f" % cpu, peak)
PY
best() {
    "$PY" "$dir/timer.py" "$@" >>"$dir/results"
}
: >"$dir/results"
best read-only "$floor" "$dir/mixed.npy"
best npydt-stats "$npydt" stats --json "$dir/mixed.npy"
best numpy "$PY" "$dir/numpy_way.py" "$dir/mixed.npy"
echo "stats bench: $((size / 1000000)) MB, $((size / 56)) records of 56 bytes, all 9 leaves"
awk -v size="$size" '
    NR == 1 { floor = $2 }
    NR == 1 { floorc = $3 }
    { printf "%-12s wall %7.4f s %6.0f MB/s %5.2fx read-only   cpu %7.4f s %5.2fx read-only   peak %6.1f MB\n",
             $1, $2, ($2 > 0 ? size / $2 / 1e6 : 0), ($2 > 0 ? floor / $2 : 0), $3,
             ($3 > 0 ? floorc / $3 : 0), $4 / 1024 }
    NR == 2 { st = $2; stc = $3 } NR == 3 { np = $2; npc = $3 }
    END { if (st > 0 && stc > 0)
              printf "npydt stats: %.1fx faster than NumPy'"'"'s way (wall), %.1fx (cpu)\n",
                     np / st, npc / stc }' "$dir/results"

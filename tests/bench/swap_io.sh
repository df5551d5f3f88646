#!/bin/sh
# npydt swap on a large file, in one run: --in-place against cp of the
# same file followed by an fsync of the copy (target: at most 1.3 times
# its wall time), the peak resident memory of swap -o and of dump --arrow
# (target: at most 64 MiB, whatever the file's size), and swap -j 2
# against -j 1 (targets: CPU time at most 1.1 times, wall time at most 0.6
# times when the load average is below 1). The file holds MB megabytes
# (1000 by default) of '<f8'; the file and its copies are in the page
# cache, so what is measured is the command and the page cache, not the
# disk's reads (each output is fsynced, as the command does). Times are
# the median of ROUNDS interleaved rounds (3 by default); each --in-place
# round swaps to the other byte order, so that every run rewrites the
# file. Prints the load average at the start and the end.
#   tests/bench/swap_io.sh [-m MB] [-r ROUNDS] NPYDT
set -eu
. "$(dirname "$0")/common.sh"
mb=1000
rounds=3
while [ $# -gt 0 ]; do
    case $1 in
    -m) mb=$2; shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 1 ] || { echo "usage: swap_io.sh [-m MB] [-r ROUNDS] NPYDT" >&2; exit 2; }
npydt=$1
bench_start swap
"$PY" - "$dir/a.npy" "$mb" <<'PY'
import sys
import numpy as np
path, mb = sys.argv[1], int(sys.argv[2])
n = mb * 1000000 // 8
a = np.lib.format.open_memmap(path, mode='w+', dtype='<f8', shape=(n,))
step = 1 << 22
for i in range(0, n, step):
    a[i:i + step] = np.arange(i, min(i + step, n), dtype='<f8')
a.flush()
del a
PY
"$PY" - "$npydt" "$dir" "$rounds" <<'PY'
import os, subprocess, sys
npydt, d, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
a, copy, out = f'{d}/a.npy', f'{d}/copy.npy', f'{d}/out.npy'

def load():
    with open('/proc/loadavg') as f:
        return ' '.join(f.read().split()[:3])

def run(*cmd):
    """wall seconds, CPU seconds (user + system), peak KiB of one process"""
    t = os.times().elapsed
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"swap_io: {' '.join(cmd)}: exit status {status}")
    return os.times().elapsed - t, ru.ru_utime + ru.ru_stime, ru.ru_maxrss

def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2

start = load()
size = os.path.getsize(a)
subprocess.run(['cat', a], stdout=subprocess.DEVNULL, check=True)   # into the page cache
cp_w, cp_c, in_w, in_c, in_rss, j1_w, j1_c, j2_w, j2_c = ([] for _ in range(9))
out_rss = dump_rss = 0
to = ['big', 'little']
for r in range(rounds):
    for f in (copy, out):
        if os.path.exists(f):
            os.unlink(f)
    w1, c1, _ = run('cp', a, copy)
    w2, c2, _ = run('sync', copy)
    cp_w.append(w1 + w2)
    cp_c.append(c1 + c2)
    w, c, k = run(npydt, 'swap', '-q', a, '--to', to[r % 2], '--in-place')
    in_w.append(w)
    in_c.append(c)
    in_rss.append(k)
    os.unlink(copy)
    w, c, k = run(npydt, 'swap', '-q', '-j', '1', a, '--to', to[r % 2], '-o', out)
    j1_w.append(w)
    j1_c.append(c)
    out_rss = max(out_rss, k)
    os.unlink(out)
    w, c, k = run(npydt, 'swap', '-q', '-j', '2', a, '--to', to[r % 2], '-o', out)
    j2_w.append(w)
    j2_c.append(c)
    out_rss = max(out_rss, k)
    os.unlink(out)
_, _, dump_rss = run(npydt, 'dump', '--arrow', a)
end = load()

def verdict(ok):
    return 'PASS' if ok else 'MISS'

print(f"swap of a {size / 1e6:.0f} MB file ('<f8', in the page cache), median of {rounds} rounds;"
      f" load average {start} at the start, {end} at the end")
cpw, inw = median(cp_w), median(in_w)
print(f"  swap --in-place     {inw:6.2f} s wall {median(in_c):6.2f} s cpu   "
      f"cp + fsync {cpw:6.2f} s wall {median(cp_c):6.2f} s cpu   "
      f"{inw / cpw:5.2f}x cp's wall time   target <= 1.3x  {verdict(inw / cpw <= 1.3)}")
for name, kib in (('swap --in-place', max(in_rss)), ('swap -o', out_rss),
                  ('dump --arrow', dump_rss)):
    print(f"  {name:<19} peak RSS {kib / 1024:6.1f} MiB"
          f"{'':37}target <= 64 MiB {verdict(kib <= 65536)}")
cr = median(j2_c) / median(j1_c)
wr = median(j2_w) / median(j1_w)
idle = float(start.split()[0]) < 1 and float(end.split()[0]) < 1
print(f"  swap -o -j 2        {median(j2_w):6.2f} s wall {median(j2_c):6.2f} s cpu   "
      f"-j 1 {median(j1_w):6.2f} s wall {median(j1_c):6.2f} s cpu")
print(f"  swap -o -j 2 / -j 1 cpu {cr:5.2f}x (target <= 1.1x {verdict(cr <= 1.1)}), "
      f"wall {wr:5.2f}x (target <= 0.6x at a load average below 1: "
      f"{verdict(wr <= 0.6) if idle else 'n/a, the machine is loaded'}; "
      f"{os.cpu_count()} processors)")
PY

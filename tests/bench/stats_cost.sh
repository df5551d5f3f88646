#!/bin/sh
# Instructions a record of npydt stats takes over every leaf of the
# 56-byte mixed struct
#   t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
# (the data of tests/bench/stats.sh), next to the read-only pass over the
# same bytes (tests/bench/read_floor.c), counted by callgrind
# (deterministic, where CPU time moves with the machine's load). A
# record's count is the difference between N and N/10 records over the
# records between, so that start-up costs drop out. Prints a line per
# program: instructions per record and the ratio to the floor's, and the
# CPU seconds of a plain run (for information: not compared).
#   tests/bench/stats_cost.sh [-n N] [--max-ratio R] FLOOR NPYDT
# With --max-ratio, exits 1 when npydt's ratio is above R.
set -eu
n=1000000
max=
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    --max-ratio) max=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 2 ] || { echo "usage: stats_cost.sh [-n N] [--max-ratio R] FLOOR NPYDT" >&2; exit 2; }
floor=$1 npydt=$2
PY=${PYTHON:-/usr/bin/python3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/npydt-stats-cost.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM HUP
small=$((n / 10))
"$PY" - "$dir" "$n" "$small" <<'PY'
import sys
import numpy as np
d, n, small = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
dt = np.dtype([('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('b', '<f8'), ('c', '<f4'),
               ('d', '<f4'), ('e', '<i8'), ('f', '<i2'), ('s', 'S10')])
rng = np.random.default_rng(26)
b = np.zeros(n, dt)
b['t'] = np.datetime64('2024-01-01', 'ns') + (np.arange(n) * 1000).astype('m8[ns]')
b['id'] = rng.integers(0, 2**32, n, dtype=np.uint64)
x = rng.normal(size=n) * 1000
x[rng.random(n) < 0.01] = np.nan
b['a'] = x
b['b'] = rng.random(n)
b['c'] = rng.normal(size=n).astype('f4')
b['d'] = (rng.random(n) * 100).astype('f4')
b['e'] = rng.integers(-2**62, 2**62, n)
b['f'] = rng.integers(-30000, 30000, n)
words = np.array([b'alpha', b'beta', b'gamma', b'delta', b'epsilon123'], 'S10')
b['s'] = words[rng.integers(0, len(words), n)]
np.save(f'{d}/mixed.npy', b)
np.save(f'{d}/mixed_small.npy', b[:small])
PY

# instructions of a whole run: PROGRAM ARGS...
count() {
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg" "$@" >/dev/null 2>"$dir/log" ||
        { cat "$dir/log" >&2; exit 1; }
    sed -n 's/^summary: *//p' "$dir/cg"
}
# instructions of the records between N/10 and N: PROGRAM-AND-ARGS-BEFORE-FILE
between() {
    big=$(count $1 "$dir/mixed.npy")
    little=$(count $1 "$dir/mixed_small.npy")
    echo $((big - little))
}
cpu() {
    /usr/bin/time -f '%U %S' -o "$dir/time" $1 "$dir/mixed.npy" >/dev/null
    awk '{ printf "%.2f", $1 + $2 }' "$dir/time"
}
f=$(between "$floor")
s=$(between "$npydt stats --json")
r=$(awk -v s="$s" -v f="$f" 'BEGIN { printf "%.2f", s / f }')
per() { awk -v i="$1" -v k=$((n - small)) 'BEGIN { printf "%.1f", i / k }'; }
printf '%-34s %12s %7s %8s\n' program instr/record ratio cpu_s
printf '%-34s %12s %7s %8s\n' read-only "$(per "$f")" 1.00 "$(cpu "$floor")"
printf '%-34s %12s %7s %8s\n' "$npydt stats" "$(per "$s")" "$r" "$(cpu "$npydt stats --json")"
if [ -n "$max" ] && awk -v r="$r" -v m="$max" 'BEGIN { exit !(r > m) }'; then
    echo "stats_cost: $npydt stats: $r times the floor's instructions (at most $max)" >&2
    exit 1
fi

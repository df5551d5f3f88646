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
. "$(dirname "$0")/common.sh"
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
bench_start stats-cost
small=$((n / 10))
bench_py - "$dir" "$n" "$small" <<'PY'
import sys
import numpy as np
import mixed_table
d, n, small = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(26)
b = mixed_table.mixed(n, rng, rising_from=0, nans=lambda rng, n: rng.random(n) < 0.01,
                      words=[b'alpha', b'beta', b'gamma', b'delta', b'epsilon123'])
np.save(f'{d}/mixed.npy', b)
np.save(f'{d}/mixed_small.npy', b[:small])
PY

# instructions of the records between N/10 and N: PROGRAM-AND-ARGS-BEFORE-FILE
between() { bench_between "$1" "$dir/mixed.npy" "$dir/mixed_small.npy"; }
cpu() { bench_cpu $1 "$dir/mixed.npy"; }
f=$(between "$floor")
s=$(between "$npydt stats --json")
r=$(bench_ratio "$s" "$f")
per() { awk -v i="$1" -v k=$((n - small)) 'BEGIN { printf "%.1f", i / k }'; }
printf '%-34s %12s %7s %8s\n' program instr/record ratio cpu_s
printf '%-34s %12s %7s %8s\n' read-only "$(per "$f")" 1.00 "$(cpu "$floor")"
printf '%-34s %12s %7s %8s\n' "$npydt stats" "$(per "$s")" "$r" "$(cpu "$npydt stats --json")"
if bench_above "$r" "$max"; then
    echo "stats_cost: $npydt stats: $r times the floor's instructions (at most $max)" >&2
    exit 1
fi

#!/bin/sh
# npydt dump -j 2 next to -j 1: N records of the 56-byte mixed struct
#   t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
# as --jsonl and --csv, to /dev/null, the best of R rounds each. Prints,
# per format, the CPU time (user + system) and the wall time of both and
# their ratios, with the load average of the machine when the run
# started and ended: the targets (CPU of -j 2 at most 1.1 times that of
# -j 1, wall at most 0.6 times) hold where the load average is below 1,
# since on a busy machine two threads do not get two processors. The
# outputs of -j 1 and -j 2 are compared byte for byte first.
#   tests/bench/dump_jobs.sh [-n N] [-r R] NPYDT
set -eu
. "$(dirname "$0")/common.sh"
n=1000000
rounds=3
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 1 ] || { echo "usage: dump_jobs.sh [-n N] [-r R] NPYDT" >&2; exit 2; }
npydt=$1
bench_start jobs
bench_py - "$dir" "$n" <<'EOF'
import sys
import numpy as np
import mixed_table
d, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(24)
a = mixed_table.mixed(n, rng, words=[b'alpha', b'beta', b'gamma,x', b'de"lta'])
np.save(f'{d}/mixed.npy', a)
EOF
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "?"; }
before=$(load)
printf 'dump -j (%s records of 56 bytes, best of %s; load average %s at the start)\n' \
    "$n" "$rounds" "$before"
printf '  %-8s %10s %10s %10s %10s %9s %9s\n' format "cpu -j1" "cpu -j2" "wall -j1" "wall -j2" \
    "cpu ratio" "wall ratio"
for fmt in jsonl csv; do
    "$npydt" dump -j 1 --$fmt "$dir/mixed.npy" >"$dir/one"
    "$npydt" dump -j 2 --$fmt "$dir/mixed.npy" >"$dir/two"
    cmp -s "$dir/one" "$dir/two" || { echo "dump -j 2 --$fmt differs from -j 1" >&2; exit 1; }
    rm -f "$dir/one" "$dir/two"
    for j in 1 2; do
        best_cpu=
        best_wall=
        r=0
        while [ $r -lt "$rounds" ]; do
            /usr/bin/time -f '%U %S %e' -o "$dir/t" "$npydt" dump -j $j --$fmt \
                "$dir/mixed.npy" >/dev/null
            set -- $(tail -n 1 "$dir/t")
            cpu=$(awk -v u="$1" -v s="$2" 'BEGIN { printf "%.2f", u + s }')
            wall=$3
            if [ -z "$best_cpu" ] || awk -v a="$cpu" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then
                best_cpu=$cpu
            fi
            if [ -z "$best_wall" ] || awk -v a="$wall" -v b="$best_wall" 'BEGIN { exit !(a < b) }'; then
                best_wall=$wall
            fi
            r=$((r + 1))
        done
        eval "cpu$j=$best_cpu wall$j=$best_wall"
    done
    # shellcheck disable=SC2154
    printf '  %-8s %10s %10s %10s %10s %9s %9s\n' "--$fmt" "$cpu1" "$cpu2" "$wall1" "$wall2" \
        "$(awk -v a="$cpu2" -v b="$cpu1" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" \
        "$(awk -v a="$wall2" -v b="$wall1" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
done
printf '  targets: cpu ratio <= 1.1, wall ratio <= 0.6 when the load average is below 1 '
printf '(it was %s at the start, %s at the end)\n' "$before" "$(load)"

#!/bin/sh
# `npydt check --rules` with five range and NaN rules over a file of the
# 56-byte mixed struct
#   t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
# (about 200 MB, a few NaNs in a), next to a read-only pass over the same
# mapped bytes, in one process (tests/bench/rules_bench.c: the median CPU time of
# ROUNDS rounds, interleaved); then the command's wall time and peak
# resident memory (/usr/bin/time -v) on that file and on one half its
# size: the peak grows by the mapped pages read, not by the rules. Exits 1
# when the command does not report the NaNs the file holds.
#   tests/bench/rules.sh [-n RECORDS] [-r ROUNDS] RULES_BENCH NPYDT
set -eu
. "$(dirname "$0")/common.sh"
n=3600000
rounds=9
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 2 ] || { echo "usage: rules.sh [-n RECORDS] [-r ROUNDS] RULES_BENCH NPYDT" >&2; exit 2; }
bench=$1
npydt=$2
bench_start rules
bench_py - "$dir/mixed.npy" "$n" "$dir/half.npy" <<'PYEOF'
import sys
import numpy as np
import mixed_table
path, n, half = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(26)
a = mixed_table.mixed(n, rng, nans=lambda rng, n: rng.integers(0, n, 7))
np.save(path, a)
np.save(half, a[:n // 2])
PYEOF
rules="{'a': {'min': -1e9, 'max': 1e9, 'nan': False}, 'c': {'nan': False}, 'e': {'min': -4611686018427387904}}"

"$npydt" check --rules "$rules" "$dir/mixed.npy" 2>"$dir/err" >/dev/null && rc=0 || rc=$?
if [ "$rc" -ne 1 ] || ! grep -q "field a: nan False: 7 elements break it" "$dir/err"; then
    echo "rules bench: npydt check --rules did not find the 7 NaNs (exit $rc):" >&2
    cat "$dir/err" >&2
    exit 1
fi
echo "check --rules, 5 range/NaN rules ($rules)"
echo "over $n records of 56 bytes:"
"$bench" "$dir/mixed.npy" "$rules" "$rounds"
# the whole command: wall seconds and peak resident memory
for f in half mixed; do
    /usr/bin/time -f '%e %M' -o "$dir/time" "$npydt" check --rules "$rules" "$dir/$f.npy" \
        >/dev/null 2>&1 || true
    tail -n 1 "$dir/time" | awk -v f="$f" -v bytes="$(wc -c <"$dir/$f.npy")" '{
        printf "  npydt check --rules, %-5s file (%4.0f MB): %.2f s, peak RSS %.1f MB (%.1f MB besides the mapped file)\n",
               f, bytes / 1e6, $1, $2 / 1024, $2 / 1024 - bytes / 1048576 }'
done

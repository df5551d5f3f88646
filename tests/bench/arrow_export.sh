#!/bin/sh
# The Arrow export in the library (tests/bench/arrow_export.c):
# 1. a native-order <f8 array of 1 MB and of 100 MB exported as one
#    record batch: its column points into the mapping, so callgrind's
#    instruction count of the export (export_pass, inclusive) does not
#    grow with the size; prints both counts and their ratio;
# 2. the 56-byte mixed struct
#      t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
#    exported with every leaf gathered, next to a read-only pass over the
#    same mapped bytes: the instructions of each in one callgrind run
#    (N records) and the median CPU-time ratio of ROUNDS interleaved
#    rounds in one process (MB megabytes). Target: at most 1.3x.
# For information: nothing is compared to a bound.
#   tests/bench/arrow_export.sh [-n N] [-m MB] [-r ROUNDS] ARROW_EXPORT
set -eu
. "$(dirname "$0")/common.sh"
n=1000000
mb=200
rounds=9
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    -m) mb=$2; shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 1 ] || { echo "usage: arrow_export.sh [-n N] [-m MB] [-r ROUNDS] ARROW_EXPORT" >&2; exit 2; }
bench=$1
bench_start arrow-export
bench_py - "$dir" "$n" "$mb" <<'PY'
import sys
import numpy as np
import mixed_table
d, n, mb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for size in (1, 100):
    np.save(f'{d}/f8_{size}mb.npy', np.arange(size * 1000000 // 8, dtype='=f8'))
rng = np.random.default_rng(24)
def mixed(path, n):
    np.save(path, mixed_table.mixed(n, rng, scaled=False,
                                    words=[b'alpha', b'beta', b'gamma', b'epsilon123']))
mixed(f'{d}/mixed_n.npy', n)
mixed(f'{d}/mixed_mb.npy', mb * 1000000 // mixed_table.MIXED.itemsize)
PY
# inclusive instructions of each function named after the program's
# arguments, in one callgrind run: ARGS... -- FUNCTIONS...
count() {
    args=
    while [ "$1" != -- ]; do args="$args $1"; shift; done
    shift
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg" $args >/dev/null 2>"$dir/log" ||
        { cat "$dir/log" >&2; exit 1; }
    for f in "$@"; do
        callgrind_annotate --inclusive=yes "$dir/cg" 2>/dev/null |
            awk -v f="$f" '$0 ~ (":" f " ") || $0 ~ (":" f "$") { gsub(",", "", $1); print $1; exit }'
    done
}
small=$(count "$bench" -1 "$dir/f8_1mb.npy" -- export_pass)
big=$(count "$bench" -1 "$dir/f8_100mb.npy" -- export_pass)
echo "Arrow export of a native <f8 array as one batch (zero-copy), callgrind instructions:"
awk -v s="$small" -v b="$big" 'BEGIN {
    printf "  1 MB: %d, 100 MB: %d: ratio %.3f (target: equal within a few %%)\n", s, b, b / s }'
set -- $(count "$bench" "$dir/mixed_n.npy" -- read_pass export_pass)
echo "Arrow export of the 56-byte mixed struct, every leaf ($n records), callgrind instructions:"
awk -v r="$1" -v e="$2" -v n="$n" 'BEGIN {
    printf "  read-only pass %.1f/record, export %.1f/record: ratio %.2f\n", r / n, e / n, e / r }'
echo "the same, $mb MB:"
"$bench" "$dir/mixed_mb.npy" "$rounds"

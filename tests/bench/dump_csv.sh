#!/bin/sh
# Instructions a record of npydt dump --csv / --tsv takes, next to the
# writer made for the same bytes (tests/bench/csv_anchor.c), counted by
# callgrind (deterministic, where CPU time moves with the machine's load).
# Two tables of N records: the 56-byte mixed struct
#   t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
# and a float-only one (x <f8, y <f8, z <f4, w <f4). A record's count is
# the difference between N and N/10 records over the records between, so
# that start-up costs drop out. The outputs are compared byte for byte
# first. Prints a line per table, format and program, the ratio to the
# anchor against its target (at most 1.3 times the anchor's
# instructions: PASS or MISS), and the CPU seconds of a plain run of the N
# records (for information: not compared).
#   tests/bench/dump_csv.sh [-n N] [--max-ratio R] ANCHOR NPYDT [NPYDT...]
# With --max-ratio, exits 1 when a ratio of the first NPYDT is above R.
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
[ $# -ge 2 ] || { echo "usage: dump_csv.sh [-n N] [--max-ratio R] ANCHOR NPYDT [NPYDT...]" >&2; exit 2; }
anchor=$1
shift
bench_start csv
small=$((n / 10))
bench_py - "$dir" "$n" "$small" <<'EOF'
import sys
import numpy as np
import mixed_table
d, n, small = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(24)
mixed = mixed_table.mixed(n, rng, words=[b'alpha', b'beta', b'gamma,x', b'de"lta', b'epsilon123',
                                         b'z\\\x01'])
floats = mixed_table.floats(n, rng)
for name, a in (('mixed', mixed), ('floats', floats)):
    np.save(f'{d}/{name}.npy', a)
    np.save(f'{d}/{name}_small.npy', a[:small])
EOF

# instructions per record: PROGRAM-AND-ARGS-BEFORE-FILE TABLE
per_record() { bench_per_record "$1" "$dir/$2.npy" "$dir/${2}_small.npy"; }
cpu() { bench_cpu $1 "$dir/$2.npy"; }

status=0
target=1.3
printf '%-7s %-4s %-34s %12s %7s %8s  %s\n' table fmt program instr/record ratio cpu_s target
for table in mixed floats; do
    for fmt in csv tsv; do
        "$anchor" $fmt "$dir/$table.npy" >"$dir/anchor.out"
        a=$(per_record "$anchor $fmt" $table)
        printf '%-7s %-4s %-34s %12d %7s %8s\n' $table $fmt anchor "$a" 1.00 "$(cpu "$anchor $fmt" $table)"
        first=1
        for npydt in "$@"; do
            "$npydt" dump --$fmt "$dir/$table.npy" >"$dir/npydt.out"
            bench_same "$dir/anchor.out" "$dir/npydt.out" \
                "dump_csv: $npydt dump --$fmt $table: not the anchor's bytes"
            c=$(per_record "$npydt dump --$fmt" $table)
            r=$(bench_ratio "$c" "$a")
            verdict=$(bench_verdict "$r" "$target")
            printf '%-7s %-4s %-34s %12d %7s %8s  <= %sx %s\n' $table $fmt "$npydt" "$c" "$r" \
                "$(cpu "$npydt dump --$fmt" $table)" "$target" "$verdict"
            if [ $first = 1 ] && bench_above "$r" "$max"; then
                echo "dump_csv: $npydt dump --$fmt $table: $r times the anchor's instructions" \
                     "(at most $max)" >&2
                status=1
            fi
            first=0
        done
    done
done
exit $status

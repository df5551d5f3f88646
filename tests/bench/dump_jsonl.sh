#!/bin/sh
# Instructions a record of npydt dump --jsonl takes, next to the writer
# made for the same bytes (tests/bench/jsonl_anchor.c, whose floats come
# from the text stage's shortest round-trip printer as the command's do),
# counted by callgrind (deterministic, where CPU time moves with the
# machine's load).
# Two tables of N records: the 56-byte mixed struct
#   t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
# and a float-only one (x <f8, y <f8, z <f4, w <f4). A record's count is
# the difference between N and N/10 records over the records between, so
# that start-up costs drop out. The outputs are compared byte for byte
# first (a NaT, NaNs and infinities among the values, and bytes that JSON
# escapes among the strings). Prints a line per table and program, the
# ratio to the anchor against its target (at most 1.1 times the anchor's
# instructions: PASS or MISS), and the CPU seconds of a plain run of the N
# records (for information: not compared).
#   tests/bench/dump_jsonl.sh [-n N] [--max-ratio R] ANCHOR NPYDT [NPYDT...]
# With --max-ratio, exits 1 when a ratio of the first NPYDT is above R.
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
[ $# -ge 2 ] || { echo "usage: dump_jsonl.sh [-n N] [--max-ratio R] ANCHOR NPYDT [NPYDT...]" >&2; exit 2; }
anchor=$1
shift
PY=${PYTHON:-/usr/bin/python3}
dir=$(mktemp -d "${TMPDIR:-/tmp}/npydt-jsonl.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM HUP
small=$((n / 10))
"$PY" - "$dir" "$n" "$small" <<'EOF'
import sys
import numpy as np
d, n, small = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(24)
mixed = np.zeros(n, [('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('b', '<f8'), ('c', '<f4'),
                     ('d', '<f4'), ('e', '<i8'), ('f', '<i2'), ('s', 'S10')])
mixed['t'] = (np.datetime64('2024-01-01', 'ns') +
              rng.integers(0, 10**15, n).astype('m8[ns]'))
mixed['id'] = rng.integers(0, 2**32, n, dtype=np.uint64)
mixed['a'] = rng.normal(size=n) * 1000
mixed['b'] = rng.random(n)
mixed['c'] = rng.normal(size=n).astype('f4')
mixed['d'] = (rng.random(n) * 100).astype('f4')
mixed['e'] = rng.integers(-2**62, 2**62, n)
mixed['f'] = rng.integers(-30000, 30000, n)
words = np.array([b'alpha', b'beta', b'gamma,x', b'de"lta', b'epsilon123', b'z\\\x01'], 'S10')
mixed['s'] = words[rng.integers(0, len(words), n)]
mixed['t'][::997] = np.datetime64('NaT')
mixed['a'][5::1009] = np.nan
mixed['c'][7::1013] = np.inf
mixed['d'][9::1019] = -np.inf
mixed['s'][11::1021] = b'\xff\xc3\xa9\t\n/'
floats = np.zeros(n, [('x', '<f8'), ('y', '<f8'), ('z', '<f4'), ('w', '<f4')])
floats['x'] = rng.normal(size=n)
floats['y'] = rng.random(n) * 1e6
floats['z'] = rng.normal(size=n).astype('f4')
floats['w'] = rng.random(n).astype('f4')
for name, a in (('mixed', mixed), ('floats', floats)):
    np.save(f'{d}/{name}.npy', a)
    np.save(f'{d}/{name}_small.npy', a[:small])
EOF

# instructions of a whole run: PROGRAM ARGS...
count() {
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg" "$@" >/dev/null 2>"$dir/log" ||
        { cat "$dir/log" >&2; exit 1; }
    sed -n 's/^summary: *//p' "$dir/cg"
}
# instructions per record: PROGRAM-AND-ARGS-BEFORE-FILE TABLE
per_record() {
    big=$(count $1 "$dir/$2.npy")
    little=$(count $1 "$dir/${2}_small.npy")
    echo $(((big - little) / (n - small)))
}
cpu() {
    /usr/bin/time -f '%U %S' -o "$dir/time" $1 "$dir/$2.npy" >/dev/null
    awk '{ printf "%.2f", $1 + $2 }' "$dir/time"
}

status=0
target=1.1
printf '%-7s %-34s %12s %7s %8s  %s\n' table program instr/record ratio cpu_s target
for table in mixed floats; do
    "$anchor" "$dir/$table.npy" >"$dir/anchor.out"
    a=$(per_record "$anchor" $table)
    printf '%-7s %-34s %12d %7s %8s\n' $table anchor "$a" 1.00 "$(cpu "$anchor" $table)"
    first=1
    for npydt in "$@"; do
        "$npydt" dump --jsonl "$dir/$table.npy" >"$dir/npydt.out"
        cmp -s "$dir/anchor.out" "$dir/npydt.out" ||
            { echo "dump_jsonl: $npydt dump --jsonl $table: not the anchor's bytes" >&2; exit 1; }
        c=$(per_record "$npydt dump --jsonl" $table)
        r=$(awk -v c="$c" -v a="$a" 'BEGIN { printf "%.2f", c / a }')
        verdict=$(awk -v r="$r" -v t="$target" 'BEGIN { print (r <= t ? "PASS" : "MISS") }')
        printf '%-7s %-34s %12d %7s %8s  <= %sx %s\n' $table "$npydt" "$c" "$r" \
            "$(cpu "$npydt dump --jsonl" $table)" "$target" "$verdict"
        if [ $first = 1 ] && [ -n "$max" ] &&
            awk -v r="$r" -v m="$max" 'BEGIN { exit !(r > m) }'; then
            echo "dump_jsonl: $npydt dump --jsonl $table: $r times the anchor's instructions" \
                 "(at most $max)" >&2
            status=1
        fi
        first=0
    done
done
exit $status

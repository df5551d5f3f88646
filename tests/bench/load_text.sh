#!/bin/sh
# Instructions a record of npydt load --jsonl / --csv takes, next to the
# readers made for the same records: simdjson's ondemand API for JSON
# Lines (tests/bench/load_anchor_simdjson.cpp, Debian's libsimdjson-dev)
# and a memchr splitter with a number reader for CSV
# (tests/bench/load_anchor.c), counted by callgrind (deterministic, where
# CPU time moves with the machine's load). The table: N records of the
# 56-byte mixed struct
#   t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
# written by the first NPYDT's dump --jsonl / --csv. A record's count is
# the difference between N and N/10 records over the records between, so
# that start-up costs drop out. Every program's records are compared byte
# for byte first. Prints a line per format and program, the ratio to the
# anchor against its target (instructions: JSON Lines at most the
# anchor's, CSV at most 1.5 times; PASS or MISS), and the CPU seconds of a
# plain run of the N records (for information: not compared). NPYDT's rows
# are load -j 1 when it has -j; then the first NPYDT's load -j 2 next to
# its -j 1 in time, on the N records and on JOBS_N (-j-n, default
# 1,000,000: a run long next to the start of a process and the fsync at
# its end): CPU seconds (user + system, the median of three runs)
# and wall seconds (the best of the three), and their ratios (targets:
# CPU at most 1.1 times, wall at most 0.6 times -j 1's on two idle
# cores), with the load
# average of the machine before and after (the ratios mean little when it
# is above 1).
#   tests/bench/load_text.sh [-n N] [--jobs-n N] [--max-jsonl R] [--max-csv R] CSV_ANCHOR JSONL_ANCHOR NPYDT [NPYDT...]
# JSONL_ANCHOR may be - (not built: libsimdjson-dev missing): the JSON
# Lines rows then have no anchor and no ratio. With --max-jsonl /
# --max-csv, exits 1 when a ratio of the first NPYDT is above R.
set -eu
. "$(dirname "$0")/common.sh"
n=1000000
jobs_n=1000000
max_jsonl=
max_csv=
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    --jobs-n) jobs_n=$2; shift 2 ;;
    --max-jsonl) max_jsonl=$2; shift 2 ;;
    --max-csv) max_csv=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -ge 3 ] || { echo "usage: load_text.sh [-n N] [--max-jsonl R] [--max-csv R] CSV_ANCHOR JSONL_ANCHOR NPYDT..." >&2; exit 2; }
csv_anchor=$1
jsonl_anchor=$2
shift 2
bench_start load
small=$((n / 10))
bench_py - "$dir" "$n" "$small" "$jobs_n" <<'PYEOF'
import sys
import numpy as np
import mixed_table
d, n, small, jobs_n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = np.random.default_rng(24)
words = [b'alpha', b'beta', b'gamma,x', b'de"lta', b'epsilon123', b'z\\\x01']
mixed = mixed_table.mixed(n, rng, words=words)
np.save(f'{d}/mixed.npy', mixed)
np.save(f'{d}/mixed_small.npy', mixed[:small])
mixed.tofile(f'{d}/mixed.raw')
if jobs_n != n:
    np.save(f'{d}/mixed_jobs.npy', mixed_table.mixed(jobs_n, rng, words=words))
PYEOF
first_npydt=$1
for fmt in jsonl csv; do
    "$first_npydt" dump --$fmt "$dir/mixed.npy" >"$dir/mixed.$fmt"
    "$first_npydt" dump --$fmt "$dir/mixed_small.npy" >"$dir/mixed_small.$fmt"
done

# a run's command line for TABLE (mixed or mixed_small) and FORMAT
anchor_run() { echo "$1 $dir/$2.$3"; }
# -j 1 where NPYDT has -j (JOBS: another count)
jobs_of() { "$1" load --help 2>/dev/null | grep -q -- --jobs && echo "-j ${JOBS:-1}"; }
npydt_run() { echo "$1 load $(jobs_of "$1") --dtype @$dir/mixed.npy --$3 -o $dir/out.npy $dir/$2.$3"; }
# instructions per record: RUN-FUNCTION PROGRAM FORMAT
per_record() {
    big=$(bench_count $($1 "$2" mixed "$3"))
    little=$(bench_count $($1 "$2" mixed_small "$3"))
    echo $(((big - little) / (n - small)))
}
cpu() { bench_cpu $($1 "$2" mixed "$3"); }

status=0
printf '%-5s %-44s %12s %7s %8s  %s\n' fmt program instr/record ratio cpu_s target
for fmt in jsonl csv; do
    if [ $fmt = jsonl ]; then anchor=$jsonl_anchor; max=$max_jsonl; else anchor=$csv_anchor; max=$max_csv; fi
    a=
    if [ "$anchor" != - ]; then
        $(anchor_run "$anchor" mixed $fmt) >"$dir/anchor.out"
        bench_same "$dir/anchor.out" "$dir/mixed.raw" \
            "load_text: $anchor $fmt: not the table's records"
        a=$(per_record anchor_run "$anchor" $fmt)
        printf '%-5s %-44s %12d %7s %8s\n' $fmt "$anchor" "$a" 1.00 "$(cpu anchor_run "$anchor" $fmt)"
    fi
    first=1
    for npydt in "$@"; do
        rm -f "$dir/out.npy"
        $(npydt_run "$npydt" mixed $fmt)
        tail -c "$((n * 56))" "$dir/out.npy" | cmp -s - "$dir/mixed.raw" ||
            { echo "load_text: $npydt load --$fmt: not the table's records" >&2; exit 1; }
        c=$(per_record npydt_run "$npydt" $fmt)
        r=-
        [ -z "$a" ] || r=$(bench_ratio "$c" "$a")
        if [ $fmt = jsonl ]; then target=1.0; else target=1.5; fi
        verdict=n/a
        [ "$r" = - ] || verdict=$(bench_verdict "$r" "$target")
        printf '%-5s %-44s %12d %7s %8s  <= %sx %s\n' $fmt "$npydt" "$c" "$r" \
            "$(cpu npydt_run "$npydt" $fmt)" "$target" "$verdict"
        if [ $first = 1 ] && [ "$r" != - ] && bench_above "$r" "$max"; then
            echo "load_text: $npydt load --$fmt: $r times the anchor's instructions (at most $max)" >&2
            status=1
        fi
        first=0
    done
done

# load -j 2 against -j 1 in time
if [ -n "$(jobs_of "$first_npydt")" ]; then
    tables="mixed:$n"
    if [ -e "$dir/mixed_jobs.npy" ]; then
        tables="$tables mixed_jobs:$jobs_n"
        for fmt in jsonl csv; do
            "$first_npydt" dump --$fmt "$dir/mixed_jobs.npy" >"$dir/mixed_jobs.$fmt"
        done
    fi
    # TIME TABLE FORMAT JOBS: "cpu wall", the median CPU and the best wall
    # of three runs; CPU to the millisecond (wait4's rusage, where time(1)
    # rounds to 10 ms, a sixth of a run of 200,000 records)
    timed() {
        "$PY" - "$dir/out.npy" $(JOBS=$4 npydt_run "$1" "$2" "$3") <<'PYEOF'
import os, subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
runs = []
for _ in range(3):
    if os.path.exists(out):
        os.unlink(out)
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    ru = os.wait4(p.pid, 0)[2]
    p.returncode = 0
    runs.append((ru.ru_utime + ru.ru_stime, time.perf_counter() - start))
print('%.3f %.3f' % (sorted(r[0] for r in runs)[1], min(r[1] for r in runs)))
PYEOF
    }
    load1() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo 9; }
    echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
    printf '%-8s %-5s %-6s %8s %8s %9s %10s  %s\n' records fmt jobs cpu_s wall_s cpu_ratio wall_ratio \
        "targets: cpu <= 1.1, wall <= 0.6 (load average below 1)"
    for t in $tables; do
        for fmt in jsonl csv; do
            la=$(load1)
            one=$(timed "$first_npydt" ${t%:*} $fmt 1)
            two=$(timed "$first_npydt" ${t%:*} $fmt 2)
            rc=$(awk -v a="${two% *}" -v b="${one% *}" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
            rw=$(awk -v a="${two#* }" -v b="${one#* }" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
            vc=$(bench_verdict "$rc" 1.1)
            if awk -v l="$la" 'BEGIN { exit !(l < 1) }'; then
                vw=$(bench_verdict "$rw" 0.6)
            else
                vw="n/a (load average $la)"
            fi
            printf '%-8s %-5s %-6s %8s %8s %9s %10s\n' ${t#*:} $fmt "-j 1" ${one% *} ${one#* } 1.00 1.00
            printf '%-8s %-5s %-6s %8s %8s %9s %10s  cpu %s, wall %s\n' ${t#*:} $fmt "-j 2" ${two% *} \
                ${two#* } "$rc" "$rw" "$vc" "$vw"
        done
    done
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
fi
exit $status

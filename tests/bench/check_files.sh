#!/bin/sh
# The CPU time (user + system) of `npydt check --schema '<f8'` over N
# small .npy files (np.save's bytes of a 10-element float64 array, 208
# bytes each), next to the floor tests/bench/open_loop.c: an open, read,
# fstat and close of each file. Each program runs ROUNDS times on the
# same files (warm page cache); the least CPU time of each counts. Prints
# a line per program, the ratio to the floor's, and the system calls a
# file of each when strace is there (tests/check_syscalls.sh holds the
# command to its bound).
#   tests/bench/check_files.sh [-n N] [--rounds R] [--max-ratio X] FLOOR NPYDT
# With --max-ratio, exits 1 when npydt's ratio is above X.
set -eu
. "$(dirname "$0")/common.sh"
n=10000
rounds=5
max=
while [ $# -gt 0 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --max-ratio) max=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 2 ] || { echo "usage: check_files.sh [-n N] [--rounds R] [--max-ratio X] FLOOR NPYDT" >&2; exit 2; }
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
floor=$(abs "$1") npydt=$(abs "$2")
bench_start check-files
# np.save's bytes of np.arange(10.0), written without NumPy
printf "\223NUMPY\001\000v\000{'descr': '<f8', 'fortran_order': False, 'shape': (10,), }" >"$dir/h"
pad=$((128 - $(wc -c <"$dir/h") - 1))
{ cat "$dir/h"; printf "%${pad}s\n" ""; head -c 80 /dev/zero; } >"$dir/one.npy"
mkdir "$dir/f"
i=0
while [ $i -lt "$n" ]; do
    cp "$dir/one.npy" "$dir/f/$i.npy"
    i=$((i + 1))
done
cd "$dir/f"
ls >"$dir/list"
# least CPU seconds over the rounds, to the tenth of a millisecond (wait4's
# rusage; time(1) rounds to 10 ms, a third of the floor's run): PROGRAM
# ARGS... (the files appended)
cpu() {
    best=
    k=0
    while [ $k -lt "$rounds" ]; do
        # shellcheck disable=SC2046
        t=$("$PY" -c '
import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
print("%.4f" % (ru.ru_utime + ru.ru_stime) if status == 0 else "failed")
' "$@" $(cat "$dir/list"))
        [ "$t" != failed ] || { echo "check_files: $* failed" >&2; exit 1; }
        best=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
        k=$((k + 1))
    done
    echo "$best"
}
# system calls a file: PROGRAM ARGS... over all files, less over none
calls() {
    if ! command -v strace >/dev/null 2>&1; then
        echo -
        return
    fi
    # shellcheck disable=SC2046
    strace -f -qq -o "$dir/trace" "$@" $(cat "$dir/list") >/dev/null 2>&1 || true
    all=$(grep -vc '^[0-9]* *+++\|^[0-9]* *---' "$dir/trace")
    strace -f -qq -o "$dir/trace" "$@" >/dev/null 2>&1 || true
    none=$(grep -vc '^[0-9]* *+++\|^[0-9]* *---' "$dir/trace")
    awk -v a="$all" -v b="$none" -v n="$n" 'BEGIN { printf "%.1f", (a - b) / n }'
}
f=$(cpu "$floor")
c=$(cpu "$npydt" check --schema '<f8')
r=$(awk -v c="$c" -v f="$f" 'BEGIN { printf "%.2f", (f > 0 ? c / f : 0) }')
us() { awk -v t="$1" -v n="$n" 'BEGIN { printf "%.2f", t * 1e6 / n }'; }
printf '%-34s %10s %8s %7s %10s\n' "check of $n small files" cpu_s us/file ratio calls/file
printf '%-34s %10s %8s %7s %10s\n' "open/read/fstat/close" "$f" "$(us "$f")" 1.00 "$(calls "$floor")"
printf '%-34s %10s %8s %7s %10s\n' "npydt check" "$c" "$(us "$c")" "$r" \
    "$(calls "$npydt" check --schema '<f8')"
echo "(target: npydt check at most 1.3 times the floor's CPU; load average $(cut -d' ' -f1-3 /proc/loadavg))"
if [ -n "$max" ] && awk -v r="$r" -v m="$max" 'BEGIN { exit !(r > m) }'; then
    echo "check_files: npydt check: $r times the floor's CPU time (at most $max)" >&2
    exit 1
fi

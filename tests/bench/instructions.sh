#!/bin/sh
# Instructions of one header parse + free per make bench family, counted by
# callgrind (deterministic where wall time moves with the machine's load),
# each against its target (at most the count below, PASS or MISS),
# next to a floor: a non-validating scan that finds 'descr' and 'shape' with
# strstr and reads the shape's integers. Then the memory a parse keeps and
# its peak, per leaf, and minor page faults per parse in a steady loop.
#   tests/bench/instructions.sh [BENCH_BINARY]   (default build/bench/npydt_bench)
set -eu
. "$(dirname "$0")/common.sh"
bench=${1:-build/bench/npydt_bench}
command -v valgrind >/dev/null 2>&1 || { echo "instructions.sh: valgrind not found; skipped"; exit 0; }
bench_start instr
out=$dir

# instructions per call of FUNCTION over ITERS calls
count() {   # FUNCTION ITERS ARGS...
    fn=$1 iters=$2
    shift 2
    valgrind --tool=callgrind --toggle-collect="$fn" --callgrind-out-file="$out/cg" \
        "$bench" --parse-loop "$@" >/dev/null 2>"$out/log" || { cat "$out/log" >&2; exit 1; }
    total=$(sed -n 's/^summary: //p' "$out/cg")
    echo $((total / iters))
}

names="'<f8' one line|10 flat fields|3-level nested, 40 leaves|2,000 fields|20,000 fields"
# The targets: the parse is at the best-known cost and must not regress;
# each bound is the family's count when that was measured (2026-11-27:
# 3,976, 10,439, 70,457, 1,253,039, 11,173,749) plus 3 %, room for what
# another compiler or libc moves.
bounds="4095 10752 72570 1290630 11508962"
printf '%-28s %14s  %-14s\n' "family" "instructions" "target"
fam=0
for iters in 200 100 100 4 2; do
    name=$(echo "$names" | cut -d'|' -f$((fam + 1)))
    bound=$(echo "$bounds" | cut -d' ' -f$((fam + 1)))
    n=$(count parse_loop "$iters" "$fam" "$iters")
    verdict=PASS
    [ "$n" -le "$bound" ] || verdict=MISS
    printf '%-28s %14s  <= %-11s %s\n' "$name" "$n" "$bound" "$verdict"
    fam=$((fam + 1))
done
f=$(count floor_loop 200 0 200 floor)
printf '%-28s %14s\n' "floor ('<f8', strstr scan)" "$f"
echo
for fam in 0 1 2 3 4; do
    "$bench" --parse-loop "$fam" 1 | sed 's/^/  /'
done

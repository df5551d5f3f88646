#!/bin/sh
# Instructions of one header parse + free per make bench family, counted by
# callgrind (deterministic where wall time moves with the machine's load),
# next to a floor: a non-validating scan that finds 'descr' and 'shape' with
# strstr and reads the shape's integers. Then the memory a parse keeps and
# its peak, per leaf, and minor page faults per parse in a steady loop.
#   tests/bench/instructions.sh [BENCH_BINARY]   (default build/bench/npydt_bench)
set -eu
bench=${1:-build/bench/npydt_bench}
command -v valgrind >/dev/null 2>&1 || { echo "instructions.sh: valgrind not found; skipped"; exit 0; }
out=$(mktemp -d "${TMPDIR:-/tmp}/npydt-instr.XXXXXX")
trap 'rm -rf "$out"' EXIT
trap 'exit 130' INT TERM HUP

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
printf '%-28s %14s\n' "family" "instructions"
fam=0
for iters in 200 100 100 4 2; do
    name=$(echo "$names" | cut -d'|' -f$((fam + 1)))
    n=$(count parse_loop "$iters" "$fam" "$iters")
    printf '%-28s %14s\n' "$name" "$n"
    fam=$((fam + 1))
done
f=$(count floor_loop 200 0 200 floor)
printf '%-28s %14s\n' "floor ('<f8', strstr scan)" "$f"
echo
for fam in 0 1 2 3 4; do
    "$bench" --parse-loop "$fam" 1 | sed 's/^/  /'
done

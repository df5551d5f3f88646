#!/bin/sh
# Time linear in header length: for each family of pathological headers
# (tests/tools/pathological.py), the instructions npydt_parse_buffer runs
# for a header of 8n bytes, per byte, stay within 1.5x of those for n
# bytes. The same for one long input line of `npydt load` (deep nesting,
# many keys for either JSON reader, many CSV columns:
# tests/tools/long_lines.py), counting the instructions of load -j 1's reader
# (load_text_jobs). Instruction counts come from valgrind's callgrind, which is
# deterministic (wall time is not). Prints
#   linear: N passed, M failed
# or SKIP when valgrind is missing or the build is sanitized.
O=${O:-build}
PY=${PYTHON:-/usr/bin/python3}
BIN=$O/tests/tools/parse_once
NPYDT=${NPYDT:-$O/npydt}
SMALL=${LINEAR_SMALL:-16384}
LOAD_SMALL=${LINEAR_LOAD_SMALL:-16384}
if [ -n "${EXEC:-}" ]; then
    # valgrind runs programs of the host's architecture only; the check
    # counts the parser's instructions, which the host run covers
    echo "SKIP: linear-time check (valgrind cannot run the target's programs under $EXEC)"
    exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: linear-time check (valgrind not installed)"
    exit 0
fi
if [ ! -x "$BIN" ]; then
    echo "SKIP: linear-time check ($BIN not built)"
    exit 0
fi
if nm "$BIN" 2>/dev/null | grep -q '__[at]san_init'; then
    echo "SKIP: linear-time check (sanitized build: valgrind cannot run it)"
    exit 0
fi
if valgrind --tool=none "$BIN" 2>&1 | grep -q "Giving up"; then
    # valgrind 3.19 cannot read clang 14's DWARF 5 debug info
    echo "SKIP: linear-time check (valgrind cannot read this build's debug info)"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# instructions of npydt_parse_buffer for one file
count() {
    valgrind --tool=callgrind --toggle-collect=npydt_parse_buffer \
        --callgrind-out-file="$dir/cg.out" "$BIN" "$1" >"$dir/status" 2>"$dir/vg.log" || return 1
    sed -n 's/^summary: *//p' "$dir/cg.out"
}
passed=0
failed=0
for fam in $("$PY" tests/tools/pathological.py --list); do
    big=$((SMALL * 8))
    "$PY" tests/tools/pathological.py "$fam" "$SMALL" "$dir/small.npy" &&
        "$PY" tests/tools/pathological.py "$fam" "$big" "$dir/big.npy" || {
        echo "linear: cannot write family $fam"
        failed=$((failed + 1))
        continue
    }
    a=$(count "$dir/small.npy")
    sa=$(sed 's/.*: //' "$dir/status")
    b=$(count "$dir/big.npy")
    sb=$(sed 's/.*: //' "$dir/status")
    if [ -z "$a" ] || [ -z "$b" ] || [ "$a" -eq 0 ]; then
        echo "linear: $fam: no instruction count"
        failed=$((failed + 1))
        continue
    fi
    la=$(wc -c <"$dir/small.npy")
    lb=$(wc -c <"$dir/big.npy")
    # per-byte cost ratio, in hundredths: (b / lb) / (a / la)
    r=$(( (b * la * 100) / (a * lb) ))
    line=$(printf '%-18s %8d bytes %7d instr/byte (%s) -> %8d bytes %7d instr/byte (%s): ratio %d.%02d' \
        "$fam" "$la" $((a / la)) "$sa" "$lb" $((b / lb)) "$sb" $((r / 100)) $((r % 100)))
    if [ "$r" -le 150 ] && [ "$sa" = "$sb" ]; then
        passed=$((passed + 1))
        echo "  $line"
    else
        failed=$((failed + 1))
        echo "linear: not linear: $line"
    fi
done
# instructions of FUNCTION in `npydt load` of DIR/IN with DIR/ref.npy's dtype
count_load() {
    valgrind --tool=callgrind --toggle-collect="$1" --callgrind-out-file="$dir/cg.out" \
        "$NPYDT" load -j 1 --dtype "@$2/ref.npy" -o "$2/out.npy" "$2/$3" >/dev/null 2>"$dir/vg.log"
    echo "exit $?" >"$dir/status"
    sed -n 's/^summary: *//p' "$dir/cg.out"
}
mkdir "$dir/a" "$dir/b"
for fam in $("$PY" tests/tools/long_lines.py --list); do
    big=$((LOAD_SMALL * 8))
    ina=$("$PY" tests/tools/long_lines.py "$fam" "$LOAD_SMALL" "$dir/a") &&
        inb=$("$PY" tests/tools/long_lines.py "$fam" "$big" "$dir/b") || {
        echo "linear: cannot write line family $fam"
        failed=$((failed + 1))
        continue
    }
    fn=load_text_jobs
    a=$(count_load "$fn" "$dir/a" "$ina")
    sa=$(cat "$dir/status")
    b=$(count_load "$fn" "$dir/b" "$inb")
    sb=$(cat "$dir/status")
    if [ -z "$a" ] || [ -z "$b" ] || [ "$a" -eq 0 ]; then
        echo "linear: load $fam: no instruction count"
        failed=$((failed + 1))
        continue
    fi
    la=$(wc -c <"$dir/a/$ina")
    lb=$(wc -c <"$dir/b/$inb")
    r=$(( (b * la * 100) / (a * lb) ))
    line=$(printf 'load %-13s %8d bytes %7d instr/byte (%s) -> %8d bytes %7d instr/byte (%s): ratio %d.%02d' \
        "$fam" "$la" $((a / la)) "$sa" "$lb" $((b / lb)) "$sb" $((r / 100)) $((r % 100)))
    if [ "$r" -le 150 ] && [ "$sa" = "$sb" ]; then
        passed=$((passed + 1))
        echo "  $line"
    else
        failed=$((failed + 1))
        echo "linear: not linear: $line"
    fi
done
echo "linear: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# npydt load -j 2 does the work of load -j 1 once, split over two threads:
# each run of lines is converted from the buffer it was read into (the
# input is not copied again), and the calling thread converts runs too
# instead of being woken for each. Counted, never timed:
#   - the instructions of a whole load -j 2 (valgrind's callgrind, every
#     thread) are at most 1 % more than load -j 1's, for JSON Lines and
#     for CSV (a copy of the input's bytes adds about 4 %);
#   - load -j 2 --no-sync of an input of B bytes waits (voluntary context
#     switches of all its threads) fewer than B / 128 KiB times, where a
#     thread woken for each run of 64 KiB waited more than twice as often
#     (the other thread then waits only when the machine's other work
#     keeps one from running).
# Prints `load-jobs-cost: N passed, M failed`; the instruction counts are
# skipped (SKIP) without valgrind, under an emulator or in a sanitized
# build, the waits without a /proc of Linux's kind.
set -u
NPYDT=${NPYDT:-build/npydt}
PY=${PYTHON:-/usr/bin/python3}
passed=0
failed=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ok() { passed=$((passed + 1)); echo "  $*"; }
bad() { failed=$((failed + 1)); echo "FAIL load-jobs-cost: $*"; }

# 40,000 records of a mixed struct, as JSON Lines and as CSV (about 6 and 4
# MiB: runs enough for both threads; the CSV's last cells quoted, with a
# quote in them: a run of a file that begins after a line end does not
# take the quotes before it for an open cell, and is read once)
D='[("t","<M8[us]"),("id","<u4"),("a","<f8"),("b","<f8"),("e","<i8"),("f","<i2"),("s","S10")]'
awk 'BEGIN { for (i = 1; i <= 40000; i++)
        printf "{\"t\": %.0f, \"id\": %.0f, \"a\": %.17g, \"b\": %.9g, \"e\": %.0f, \"f\": %d, \"s\": \"w%d\"}\n",
            1709251200000000 + i * 1000003, i * 2654435761 % 4294967296,
            (i * 0.7311) - 9000.25, 1 / (i + 0.5), i * 92821 - 1000000000, i % 60000 - 30000, i % 1000 }' \
    >"$dir/in.jsonl"
awk 'BEGIN { print "t,id,a,b,e,f,s"; for (i = 1; i <= 40000; i++)
        printf "%.0f,%.0f,%.17g,%.9g,%.0f,%d,\"w\"\"%d\"\n",
            1709251200000000 + i * 1000003, i * 2654435761 % 4294967296,
            (i * 0.7311) - 9000.25, 1 / (i + 0.5), i * 92821 - 1000000000, i % 60000 - 30000, i % 1000 }' \
    >"$dir/in.csv"

# the output of -j 1 and -j 2 first: the same bytes
for fmt in jsonl csv; do
    for j in 1 2; do
        "$NPYDT" load --dtype "$D" --$fmt -j $j --no-sync -o "$dir/out$j.npy" "$dir/in.$fmt" ||
            bad "$fmt -j $j: exit $?"
    done
    cmp -s "$dir/out1.npy" "$dir/out2.npy" && ok "$fmt: -j 2 writes the bytes of -j 1" ||
        bad "$fmt: -j 2 does not write the bytes of -j 1"
    rm -f "$dir/out1.npy" "$dir/out2.npy"
done

# ---- instructions ----------------------------------------------------------------

skip=
if [ -n "${EXEC:-}" ]; then
    skip="valgrind cannot run the target's programs under $EXEC"
elif ! command -v valgrind >/dev/null 2>&1; then
    skip="valgrind not installed"
elif nm "$NPYDT" 2>/dev/null | grep -q '__[at]san_init'; then
    skip="sanitized build: valgrind cannot run it"
elif valgrind --tool=none "$NPYDT" --version 2>&1 | grep -q "Giving up"; then
    skip="valgrind cannot read this build's debug info"
fi
# instructions of the whole of load -j J --FORMAT
count() {
    rm -f "$dir/out.npy"
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$NPYDT" load --dtype "$D" \
        --$2 -j "$1" --no-sync -o "$dir/out.npy" "$dir/in.$2" >/dev/null 2>"$dir/vg.log" || return 1
    sed -n 's/^summary: *//p' "$dir/cg.out"
}
if [ -n "$skip" ]; then
    echo "SKIP: load -j instructions ($skip)"
else
    for fmt in jsonl csv; do
        one=$(count 1 $fmt)
        two=$(count 2 $fmt)
        if [ -z "$one" ] || [ -z "$two" ]; then
            bad "$fmt: no instruction count: $(tail -3 "$dir/vg.log")"
            continue
        fi
        # in thousandths
        r=$((two * 1000 / one))
        line=$(printf '%s: -j 1 %d instructions, -j 2 %d: ratio %d.%03d (at most 1.010)' \
            $fmt "$one" "$two" $((r / 1000)) $((r % 1000)))
        [ "$r" -le 1010 ] && ok "$line" || bad "$line"
    done
fi

# ---- waits -----------------------------------------------------------------------

if [ ! -r /proc/self/status ] || ! grep -q voluntary_ctxt_switches /proc/self/status ||
    ! "$PY" -c 'import resource' 2>/dev/null; then
    echo "SKIP: load -j waits (no voluntary context switches counted here)"
else
    # the inputs four times over (about 20 and 13 MiB)
    for k in 1 2 3 4; do cat "$dir/in.jsonl"; done >"$dir/big.jsonl"
    { cat "$dir/in.csv"; for k in 1 2 3; do sed 1d "$dir/in.csv"; done; } >"$dir/big.csv"
    for fmt in jsonl csv; do
        bytes=$(wc -c <"$dir/big.$fmt")
        waits=$("$PY" - "$NPYDT" "$D" $fmt "$dir" <<'PYEOF'
import resource, subprocess, sys
npydt, d, fmt, dir = sys.argv[1:]
before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_nvcsw
subprocess.run([npydt, 'load', '--dtype', d, '--' + fmt, '-j', '2', '--no-sync',
                '-o', dir + '/out.npy', dir + '/big.' + fmt], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_nvcsw - before)
PYEOF
        )
        rm -f "$dir/out.npy"
        most=$((bytes / 131072))
        line="$fmt: load -j 2 of $bytes bytes waits $waits times (fewer than $most)"
        [ -n "$waits" ] && [ "$waits" -lt "$most" ] && ok "$line" || bad "$line"
    done
fi

echo "load-jobs-cost: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

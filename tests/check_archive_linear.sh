#!/bin/sh
# Archives of many members cost the same per member: for inspect, inspect
# --json, check with a mismatch line per member and check of one member by
# name, the instructions the command runs on an archive of 5,000 stored
# members, per member, stay within 1.5x of those on 500 members (an
# archive of 10^6 members then takes seconds). Instruction counts come from
# valgrind's callgrind, which is deterministic (wall time is not). Prints
#   archive-linear: N passed, M failed
# or SKIP when valgrind is missing or the build is sanitized.
set -u
NPYDT=${NPYDT:-build/npydt}
PY=${PYTHON:-/usr/bin/python3}
SMALL=${ARCHIVE_SMALL:-500}
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: archive linear-time check (valgrind cannot run the target's programs under $EXEC)"
    exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: archive linear-time check (valgrind not installed)"
    exit 0
fi
if nm "$NPYDT" 2>/dev/null | grep -q '__[at]san_init'; then
    echo "SKIP: archive linear-time check (sanitized build: valgrind cannot run it)"
    exit 0
fi
if valgrind --tool=none "$NPYDT" --version 2>&1 | grep -q "Giving up"; then
    echo "SKIP: archive linear-time check (valgrind cannot read this build's debug info)"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# archive N PATH: N stored members a0.npy, a1.npy, ..., each an '<i4' array
# of two elements, as Python's zipfile writes them
archive() {
    "$PY" - "$1" "$2" <<'EOF'
import struct, sys, zipfile
n, out = int(sys.argv[1]), sys.argv[2]
h = "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }"
h += " " * (63 - (10 + len(h)) % 64) + "\n"
data = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + b"\0" * 8
with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
    for i in range(n):
        z.writestr("a%d.npy" % i, data)
EOF
}
big=$((SMALL * 10))
archive "$SMALL" "$dir/small.npz" && archive "$big" "$dir/big.npz" || {
    echo "archive-linear: 0 passed, 1 failed (cannot write the archives)"
    exit 1
}
# count FILE ARGS...: the instructions of npydt ARGS... FILE
count() {
    f=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$NPYDT" "$@" "$f" \
        >/dev/null 2>"$dir/vg.log"
    sed -n 's/^summary: *//p' "$dir/cg.out"
}
passed=0
failed=0
# case NAME ARGS...
case_() {
    name=$1
    shift
    a=$(count "$dir/small.npz" "$@")
    b=$(count "$dir/big.npz" "$@")
    if [ -z "$a" ] || [ -z "$b" ] || [ "$a" -eq 0 ]; then
        echo "archive-linear: $name: no instruction count"
        failed=$((failed + 1))
        return
    fi
    # per-member cost ratio, in hundredths: (b / big) / (a / SMALL)
    r=$(( (b * SMALL * 100) / (a * big) ))
    line=$(printf '%-26s %6d members %6d instr/member -> %6d members %6d instr/member: ratio %d.%02d' \
        "$name" "$SMALL" $((a / SMALL)) "$big" $((b / big)) $((r / 100)) $((r % 100)))
    if [ "$r" -le 150 ]; then
        passed=$((passed + 1))
        echo "  $line"
    else
        failed=$((failed + 1))
        echo "archive-linear: not linear: $line"
    fi
}
case_ "inspect" inspect
case_ "inspect --json" inspect --json
case_ "check, a mismatch each" check --schema "'<f8'"
# one member by name: the last, so a scan from the start would show
a=$(count "$dir/small.npz:a$((SMALL - 1))" check --schema "'<i4'")
b=$(count "$dir/big.npz:a$((big - 1))" check --schema "'<i4'")
if [ -n "$a" ] && [ -n "$b" ] && [ "$a" -gt 0 ] && [ $(( (b * SMALL * 100) / (a * big) )) -le 150 ]; then
    passed=$((passed + 1))
    echo "  check ARCHIVE:NAME (the last member): $a -> $b instructions"
else
    failed=$((failed + 1))
    echo "archive-linear: not linear: check ARCHIVE:NAME (the last member): $a -> $b instructions"
fi
echo "archive-linear: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

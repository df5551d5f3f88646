#!/bin/sh
# The record writer against NumPy: the README's logger example, compiled
# and run twice, leaves a file NumPy loads with the records of both runs;
# then (tests/writer_differential.py) random arrays written through
# npydt_writer by tests/tools/writer_drive must give np.save's and
# np.savez's files byte for byte. Prints `writer: N passed, M failed`;
# skipped when /usr/bin/python3 has no NumPy.
set -u
O=${O:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
DRIVE=${WRITER_DRIVE:-$O/tests/tools/writer_drive}
WRITER_COUNT=${WRITER_COUNT:-300}
# a fixed seed, so that a run is repeatable; WRITER_SEED=N for another
WRITER_SEED=${WRITER_SEED:-1}
if ! "$PYTHON" -c 'import numpy' >/dev/null 2>&1; then
    echo "SKIP: writer differential test (NumPy not importable by $PYTHON)"
    exit 0
fi
if [ ! -x "$DRIVE" ]; then
    echo "FAIL writer: $DRIVE is not built"
    echo "writer: 0 passed, 1 failed"
    exit 1
fi
tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
# the driver runs through $EXEC (an emulator) like every target program
if [ -n "${EXEC:-}" ]; then
    wrap=$tmp.drive
    printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$EXEC" "$(cd "$(dirname "$DRIVE")" && pwd)/$(basename "$DRIVE")" >"$wrap"
    chmod +x "$wrap"
    DRIVE=$wrap
fi
# the README's example: the C block after "### Writing records in C"
passed=0
failed=0
ex=$(mktemp -d) || exit 2
trap 'rm -f "$tmp" ${wrap:+"$wrap"}; rm -rf "$ex"' EXIT
awk '/^### Writing records in C/ {found = 1} found && /^```c$/ {on = 1; next}
     on && /^```$/ {exit} on' README.md >"$ex/logger.c"
libs="$O/libnpydt.a ${LDFLAGS:-} -lz -lm"
[ -n "${SANITIZE:-}" ] && libs="$libs -fsanitize=$SANITIZE"
[ -n "${COVERAGE:-}" ] && libs="$libs --coverage"
# shellcheck disable=SC2086
if ${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude -o "$ex/logger" "$ex/logger.c" \
        $libs 2>"$ex/cc.log" &&
    (cd "$ex" && ${EXEC:-} ./logger && ${EXEC:-} ./logger) >"$ex/run.log" 2>&1 &&
    "$PYTHON" -c '
import sys, numpy as np
a = np.load(sys.argv[1])
assert a.dtype == np.dtype([("t", "<u8"), ("temp", "<f4")]), a.dtype
assert (a["t"] == np.arange(5000)).all(), a["t"]
assert (a["temp"] == 20 + (np.arange(5000) % 100) / 8).all(), a["temp"]
' "$ex/log.npy" >>"$ex/run.log" 2>&1; then
    passed=1
else
    failed=1
    echo "FAIL writer: the README example:"
    cat "$ex/cc.log" "$ex/run.log" | head -n 20
fi

"$PYTHON" tests/writer_differential.py "$DRIVE" --count "$WRITER_COUNT" --seed "$WRITER_SEED" >"$tmp" 2>&1
rc=$?
grep -v ' passed, ' "$tmp" | head -n 40
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp" | tail -n 1)
if [ -z "$line" ]; then
    tail -n 20 "$tmp"
    failed=$((failed + 1))
else
    passed=$((passed + ${line%% passed*}))
    rest=${line#*passed, }
    failed=$((failed + ${rest%% failed*}))
fi
echo "writer: $passed passed, $failed failed"
[ "$rc" -eq 0 ] && [ "$failed" -eq 0 ]

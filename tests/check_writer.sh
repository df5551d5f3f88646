#!/bin/sh
# The record writer against NumPy (tests/writer_differential.py): random
# arrays written through npydt_writer by tests/tools/writer_drive must give
# np.save's and np.savez's files byte for byte. Prints
# `writer: N passed, M failed`; skipped when /usr/bin/python3 has no NumPy.
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
    trap 'rm -f "$tmp" "$wrap"' EXIT
    DRIVE=$wrap
fi
"$PYTHON" tests/writer_differential.py "$DRIVE" --count "$WRITER_COUNT" --seed "$WRITER_SEED" >"$tmp" 2>&1
rc=$?
grep -v ' passed, ' "$tmp" | head -n 40
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp" | tail -n 1)
if [ -z "$line" ]; then
    tail -n 20 "$tmp"
    echo "writer: 0 passed, 1 failed"
    exit 1
fi
echo "writer: $line"
[ "$rc" -eq 0 ]

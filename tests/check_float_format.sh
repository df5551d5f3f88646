#!/bin/sh
# The shortest float text of the text stage (src/text/float_shortest.c), through
# tests/tools/float_check: a strided eighth of a million float32 patterns
# against strtof (round trip and shortness), 300,000 random doubles
# against strtod and the shortest "%.Ne" that reads back, all 65,536
# float16 values and 100,000 random float32 values against NumPy's repr,
# 100,000 random doubles against Python's repr. `make check-floats` runs
# the whole float32 range and 10^7 doubles. Prints
#   float_format: N passed, M failed
O=${O:-build}
PY=${PYTHON:-/usr/bin/python3}
BIN=$O/tests/tools/float_check
if [ ! -x "$BIN" ]; then
    echo "SKIP: float_format ($BIN not built)"
    exit 0
fi
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
result() {
    if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $2"; fi
}
$EXEC "$BIN" f32 32771 >"$tmp/out" 2>&1
result $? "float32 round trip and shortness: $(cat "$tmp/out" | head -5)"
$EXEC "$BIN" f64 300000 7 >"$tmp/out" 2>&1
result $? "double round trip, shortness and closeness: $(cat "$tmp/out" | head -5)"
$EXEC "$BIN" decimal 200000 5 >"$tmp/out" 2>&1
result $? "integer digits against printf: $(cat "$tmp/out" | head -5)"
if "$PY" -c 'import numpy' 2>/dev/null; then
    $EXEC "$BIN" print16 >"$tmp/f16" && $EXEC "$BIN" print32 100000 11 >"$tmp/f32" &&
        $EXEC "$BIN" print64 100000 13 >"$tmp/f64" &&
        $EXEC "$BIN" print64near 100000 17 >"$tmp/f64near"
    result $? "float_check print modes"
    "$PY" - "$tmp" <<'PYEOF'
import struct
import sys

import numpy as np

tmp = sys.argv[1]
bad = 0
got = open(tmp + "/f16").read().split("\n")[:-1]
values = np.arange(65536, dtype=np.uint16).view(np.float16)
diff = [(i, g, str(v)) for i, (g, v) in enumerate(zip(got, values)) if g != str(v)]
if len(got) != 65536 or diff:
    print("FAIL: float16 text differs from NumPy's repr: %d lines, %s" % (len(got), diff[:5]))
    bad += 1
for name, fmt, conv in (("f32", ">I", lambda b: str(np.uint32(b).view(np.float32))),
                        ("f64", ">Q", lambda b: repr(struct.unpack(">d", struct.pack(">Q", b))[0])),
                        ("f64near", ">Q",
                         lambda b: repr(struct.unpack(">d", struct.pack(">Q", b))[0]))):
    diff = []
    n = 0
    for line in open("%s/%s" % (tmp, name)):
        bits, text = line.split()
        n += 1
        want = conv(int(bits, 16))
        if text != want:
            diff.append((bits, text, want))
    if n != 100000 or diff:
        print("FAIL: %s text differs from %s: %d lines, %s" %
              (name, "NumPy's repr" if name == "f32" else "Python's repr", n, diff[:5]))
        bad += 1
sys.exit(1 if bad else 0)
PYEOF
    result $? "text against NumPy and Python"
else
    echo "note: $PY has no NumPy: float16/float32 text not compared"
fi
echo "float_format: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

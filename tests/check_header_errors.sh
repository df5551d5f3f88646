#!/bin/sh
# The malformed headers of test_header_errors.c, asked of NumPy as well:
# every case npydt rejects must be rejected by NumPy's reader or np.load
# (except the documented cases where npydt is stricter), every case it
# accepts must load in NumPy.
PY=${PYTHON:-/usr/bin/python3}
BIN=${O:-build}/tests/test_header_errors
if ! "$PY" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: header error cases vs NumPy (NumPy not importable)"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
DUMP_CASES_DIR=$dir ${EXEC:-} "$BIN" >/dev/null 2>&1
"$PY" - "$dir" <<'PYEOF'
import glob, os, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
# Cases where npydt is stricter than NumPy by design (doc/compatibility.md, "Differences
# from NumPy"): duplicate keys and negative dimensions (issue 2 makes them
# errors; np.load fails on them later anyway), \N{...} escapes and NUL in
# names, non-string titles and None as a subarray shape (not supported), and
# datetime divisors where NumPy computes garbage (W/100) or overflows.
STRICTER = [b"'descr': '<f8'}", b"(-1,)", b"(2, -3)", b"\\N{", b"\\x00'", b"W/100",
            b"2000000000s/2", b"((1, 'a')", b"('<f8', None)"]
# NumPy dies with SIGFPE on a zero datetime divisor: never load it here.
CRASHES_NUMPY = [b"/0]"]
passed = failed = 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], "case_*.npy"))):
    want_ok = path.endswith("_ok.npy")
    text = open(path, "rb").read()
    if any(c in text for c in CRASHES_NUMPY):
        numpy_ok = False
    else:
        try:
            np.load(path, allow_pickle=False)
            numpy_ok = True
        except Exception:
            numpy_ok = False
    stricter = any(c in text for c in STRICTER)
    if numpy_ok == want_ok or (numpy_ok and not want_ok and stricter):
        passed += 1
    else:
        failed += 1
        print("disagree with NumPy:", os.path.basename(path), text[10:90])
print("header_errors: %d passed, %d failed" % (passed, failed))
PYEOF

#!/bin/sh
# `npydt inspect --json` against NumPy: the committed fixtures (expectations
# written by tests/gen_fixtures.py from NumPy's own view), the committed
# files NumPy rejects, and, when NumPy is importable, the text table of the
# fixtures (tests/inspect_text_check.py) and a few hundred random dtypes
# written by NumPy on the spot (tests/differential.py).
PY=${PYTHON:-/usr/bin/python3}
NPYDT=${NPYDT:-build/npydt}
FIX=${FIXTURES:-tests/fixtures}
"$PY" - "$NPYDT" "$FIX" <<'PYEOF'
import glob, json, os, subprocess, sys
npydt, fix = sys.argv[1], sys.argv[2]
passed = failed = 0
for exp in sorted(glob.glob(os.path.join(fix, "*.inspect.json")) +
                  glob.glob(os.path.join(fix, "quirks", "*.inspect.json"))):
    npy = exp[:-len(".inspect.json")] + ".npy"
    r = subprocess.run([npydt, "inspect", "--json", npy], capture_output=True)
    got = json.loads(r.stdout) if r.returncode == 0 else {}
    # the keys that name the input and give the descriptor back are
    # checked by tests/inspect_text_check.py against NumPy's own descr
    ok = (r.returncode == 0 and got.pop("file", None) == npy
          and isinstance(got.pop("descr", None), str) and got == json.load(open(exp)))
    passed += ok
    failed += not ok
    if not ok:
        print("inspect differs from NumPy:", npy, r.stderr.decode()[:200])
# a file NumPy rejects: exit 3, its error line on stderr, and its error
# object on stdout saying the same (status name, header offset)
for npy in sorted(glob.glob(os.path.join(fix, "bad", "*.npy"))):
    r = subprocess.run([npydt, "inspect", "--json", npy], capture_output=True)
    err = r.stderr.decode()
    try:
        obj = json.loads(r.stdout)
    except ValueError:
        obj = {}
    e = obj.get("error", {})
    detail = err[len(npy) + 2:].split(": ", 1)
    at = detail[1].split(": ", 1)[0] if len(detail) > 1 else ""
    offset = int(at[len("header offset "):]) if at.startswith("header offset ") else None
    ok = bool(r.returncode == 3 and len(r.stdout.splitlines()) == 1 and err.startswith(npy + ": ")
              and err.count(": ") >= 2 and obj.get("file") == npy and set(obj) == {"file", "error"}
              and set(e) == {"status", "message", "offset"} and e["status"] == detail[0]
              and e["offset"] == offset and isinstance(e["message"], str) and e["message"])
    passed += ok
    failed += not ok
    if not ok:
        print("rejected file not refused properly:", npy, r.returncode, err[:200])
print("inspect-fixtures: %d passed, %d failed" % (passed, failed))
PYEOF
if "$PY" -c 'import numpy' 2>/dev/null; then
    # the text table of the same fixtures and of archive members, built from NumPy
    "$PY" tests/inspect_text_check.py "$NPYDT" "$FIX" "${NPZ_FIXTURES:-tests/fixtures_npz}"
    "$PY" tests/differential.py "$NPYDT" --count "${DIFF_COUNT:-300}" --seed "${DIFF_SEED:-1}" |
        sed 's/^\([0-9]* passed, [0-9]* failed\)$/inspect-differential: \1/'
else
    echo "SKIP: differential test against NumPy (NumPy not importable)"
fi

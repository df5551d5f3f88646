#!/bin/sh
# The README's DuckDB example (the C block after "### DuckDB, Polars and
# Parquet"), compiled against DuckDB's C library and run on a tracks.npy
# NumPy writes: the count and mean it prints are NumPy's, and the
# tracks.parquet it writes, read back by DuckDB (tests/tools/arrow_duckdb),
# holds every record with its values. DuckDB's library comes from the npm
# package @duckdb/node-api (`npm ci` in tests/consumers); its header is not
# shipped, so tests/consumers/duckdb.h declares what the example uses.
# Without the library or NumPy, or when the programs run through an
# emulator, the check prints a SKIP line.
# Prints "readme_duckdb: N passed, M failed".
set -u
O=${O:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
consumers=$(cd "$(dirname "$0")/consumers" && pwd)
libdir=$consumers/node_modules/@duckdb/node-bindings-linux-x64
tool=$O/tests/tools/arrow_duckdb
if [ ! -f "$libdir/libduckdb.so" ]; then
    echo "SKIP: readme_duckdb: no $libdir/libduckdb.so (run npm ci in tests/consumers)"
    exit 0
fi
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: readme_duckdb: DuckDB's library is the build machine's, the programs run through $EXEC"
    exit 0
fi
if ! "$PYTHON" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: readme_duckdb: $PYTHON cannot import numpy"
    exit 0
fi
if [ ! -x "$tool" ]; then
    echo "FAIL readme_duckdb: $tool is not built (make check builds it)"
    echo "readme_duckdb: 0 passed, 1 failed"
    exit 1
fi
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
ex=$(mktemp -d) || exit 2
trap 'rm -rf "$ex"' EXIT
# under LeakSanitizer, the schemas DuckDB drops are its own (duckdb.lsan)
LSAN_OPTIONS="suppressions=$consumers/duckdb.lsan${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

awk '/^### DuckDB, Polars and Parquet/ {found = 1} found && /^```c$/ {on = 1; next}
     on && /^```$/ {exit} on' README.md >"$ex/tracks.c"
libs="$O/libnpydt.a ${LDFLAGS:-} -lz -lm -L$libdir -lduckdb -Wl,-rpath,$libdir"
[ -n "${SANITIZE:-}" ] && libs="$libs -fsanitize=$SANITIZE"
[ -n "${COVERAGE:-}" ] && libs="$libs --coverage"
fail() {
    echo "FAIL readme_duckdb: $1"
    [ -s "$ex/log" ] && head -n 20 "$ex/log"
    echo "readme_duckdb: 0 passed, 1 failed"
    exit 1
}
# shellcheck disable=SC2086
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude -I"$consumers" \
    -o "$ex/tracks" "$ex/tracks.c" $libs >"$ex/log" 2>&1 ||
    fail "the README's DuckDB example does not compile"
"$PYTHON" - "$ex/tracks.npy" >"$ex/log" 2>&1 <<'PY' || fail "NumPy could not write tracks.npy"
import sys, numpy as np
dt = np.dtype([("id", "<u4"), ("pos", [("x", "<f8"), ("y", ">f8")]),
               ("t", "<M8[us]"), ("samples", "<f4", (3,))])
rng = np.random.default_rng(7)
a = np.zeros(1000, dt)
a["id"] = np.arange(1000)
a["pos"]["x"] = rng.normal(size=1000)
a["pos"]["y"] = rng.normal(size=1000)
a["t"] = np.datetime64("2024-05-01T00:00:00", "us") + np.arange(1000) * 1500
a["t"][10] = np.datetime64("NaT")
a["samples"] = rng.normal(size=(1000, 3)).astype("<f4")
np.save(sys.argv[1], a)
PY
(cd "$ex" && ./tracks tracks.npy) >"$ex/out" 2>"$ex/log" || fail "the README's DuckDB example failed"
"$tool" "$libdir/libduckdb.so" "$ex/tracks.npy" \
    "SELECT count(*), sum(id), sum(pos.y), count(t), max(samples[3]) FROM '$ex/tracks.parquet'" \
    >"$ex/back" 2>"$ex/log" || fail "DuckDB could not read tracks.parquet back"
"$PYTHON" - "$ex/tracks.npy" "$ex/out" "$ex/back" >"$ex/log" 2>&1 <<'PY' || fail "wrong values"
import sys, numpy as np
a = np.load(sys.argv[1])
out = open(sys.argv[2]).read().split()
sel = a["samples"][:, 0] > 0
assert int(out[0]) == sel.sum(), ("count", out, sel.sum())
assert abs(float(out[-1]) - a["pos"]["x"][sel].mean()) < 1e-12, ("mean", out)
back = open(sys.argv[3]).read().split("\n")[0].split("\t")
assert int(back[0]) == len(a), ("rows", back)
assert int(back[1]) == int(a["id"].sum()), ("sum(id)", back)
assert abs(float(back[2]) - a["pos"]["y"].sum()) < 1e-9, ("sum(pos.y)", back)
assert int(back[3]) == len(a) - 1, ("count(t): NaT is NULL", back)
assert np.float32(back[4]) == a["samples"][:, 2].max(), ("max(samples[3])", back)
PY
echo "readme_duckdb: 1 passed, 0 failed"

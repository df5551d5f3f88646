#!/bin/sh
# DuckDB reads npydt's Arrow streams: tests/tools/arrow_duckdb hands the
# stream of every fixture to DuckDB's C library (duckdb_arrow_scan), and
# tests/arrow_duckdb_check.py compares the types DuckDB sees and the values
# it gives with NumPy's, and the answers of SQL filters and aggregates
# over a table of records (arrow_query_records.npy) with NumPy's.
# DuckDB's library comes from the npm package @duckdb/node-api
# (tests/consumers/package.json; `npm ci` in
# tests/consumers installs it): without it, or without NumPy, or when the
# programs run through an emulator, the check prints a SKIP line.
# Prints "arrow_duckdb: N passed, M failed".
set -u
O=${O:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
FIXTURES=${FIXTURES:-tests/fixtures}
lib=$(dirname "$0")/consumers/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so
tool=$O/tests/tools/arrow_duckdb
if [ ! -f "$lib" ]; then
    echo "SKIP: arrow_duckdb: no $lib (run npm ci in tests/consumers)"
    exit 0
fi
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: arrow_duckdb: DuckDB's library is the build machine's, the programs run through $EXEC"
    exit 0
fi
if ! "$PYTHON" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: arrow_duckdb: $PYTHON cannot import numpy"
    exit 0
fi
if [ ! -x "$tool" ]; then
    echo "arrow_duckdb: 0 passed, 1 failed"
    echo "FAIL arrow_duckdb: $tool is not built (make check builds it)"
    exit 1
fi
# under LeakSanitizer, the schemas DuckDB drops are its own (duckdb.lsan)
LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/consumers/duckdb.lsan${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
exec "$PYTHON" "$(dirname "$0")/arrow_duckdb_check.py" "$tool" "$lib" "$FIXTURES"

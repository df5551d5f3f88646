#!/bin/sh
# npydt's Arrow import reads DuckDB's query results: tests/tools/
# arrow_import_duckdb takes a result as Arrow arrays (duckdb_query_arrow)
# into a .npy through npydt_arrow_write_stream, and
# tests/arrow_duckdb_import_check.py loads it with NumPy and compares the
# values with NumPy's own; the types NumPy has not are refused naming the
# column and the Arrow type. DuckDB's library comes from the npm package
# @duckdb/node-api (tests/consumers; `npm ci` there installs it): without
# it, or without NumPy, or when the programs run through an emulator, the
# check prints a SKIP line.
# Prints "arrow_duckdb_import: N passed, M failed".
set -u
O=${O:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
lib=$(dirname "$0")/consumers/node_modules/@duckdb/node-bindings-linux-x64/libduckdb.so
tool=$O/tests/tools/arrow_import_duckdb
if [ ! -f "$lib" ]; then
    echo "SKIP: arrow_duckdb_import: no $lib (run npm ci in tests/consumers)"
    exit 0
fi
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: arrow_duckdb_import: DuckDB's library is the build machine's, the programs run through $EXEC"
    exit 0
fi
if ! "$PYTHON" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: arrow_duckdb_import: $PYTHON cannot import numpy"
    exit 0
fi
if [ ! -x "$tool" ]; then
    echo "arrow_duckdb_import: 0 passed, 1 failed"
    echo "FAIL arrow_duckdb_import: $tool is not built (make check builds it)"
    exit 1
fi
LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/consumers/duckdb.lsan${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
exec "$PYTHON" "$(dirname "$0")/arrow_duckdb_import_check.py" "$tool" "$lib"

#!/bin/sh
# `npydt dump --jsonl` against the fixtures' expectations, and (when
# $PYTHON has NumPy) against NumPy on random files, plus `npydt swap`
# output loaded back by NumPy. Prints "dump: N passed, M failed" or SKIP.
NPYDT=${NPYDT:-build/npydt}
FIXTURES=${FIXTURES:-tests/fixtures}
PY=${PYTHON:-/usr/bin/python3}
if [ ! -x "$NPYDT" ]; then
    echo "SKIP: dump: $NPYDT is not built"
    exit 0
fi
if [ ! -x "$PY" ]; then
    PY=$(command -v python3 || true)
fi
if [ -z "$PY" ]; then
    echo "SKIP: dump: no python3 to read JSON"
    exit 0
fi
exec "$PY" tests/dump_check.py --npydt "$NPYDT" --fixtures "$FIXTURES" \
    --random "${DUMP_RANDOM:-60}" --seed "${DUMP_SEED:-12345}"

#!/bin/sh
# load --csv costs at most 1.5 times the instructions a record of a
# memchr splitter with a number reader takes (tests/bench/load_anchor.c),
# and load --jsonl at most the instructions of simdjson's ondemand API
# over the same lines (tests/bench/load_anchor_simdjson.cpp, where
# libsimdjson-dev is installed), on the 56-byte mixed struct: the usual
# line is read in one pass by the dtype's plan, the usual row split in
# memory and converted by its columns' steps. Instructions come from
# valgrind's callgrind (tests/bench/load_text.sh, which also checks the
# records are the table's), which is deterministic where time is not.
# Prints
#   load-cost: N passed, M failed
# or SKIP when valgrind is missing or the build is sanitized.
O=${O:-build}
NPYDT=${NPYDT:-$O/npydt}
ANCHOR=$O/tests/bench/load_anchor
JSONL_ANCHOR=$O/tests/bench/load_anchor_simdjson
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: load cost check (valgrind cannot run the target's programs under $EXEC)"
    exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: load cost check (valgrind not installed)"
    exit 0
fi
if [ ! -x "$ANCHOR" ]; then
    echo "SKIP: load cost check ($ANCHOR not built)"
    exit 0
fi
if nm "$NPYDT" 2>/dev/null | grep -q '__[at]san_init\|__llvm_profile\|__gcov'; then
    echo "SKIP: load cost check (instrumented build: its counts are not the command's)"
    exit 0
fi
if valgrind --tool=none "$NPYDT" --version 2>&1 | grep -q "Giving up"; then
    echo "SKIP: load cost check (valgrind cannot read this build's debug info)"
    exit 0
fi
if [ ! -x "$JSONL_ANCHOR" ]; then
    echo "load cost check: no simdjson anchor (libsimdjson-dev missing): JSON Lines not compared"
    JSONL_ANCHOR=-
fi
if sh tests/bench/load_text.sh -n 10000 --max-jsonl 1.0 --max-csv 1.5 "$ANCHOR" "$JSONL_ANCHOR" \
    "$NPYDT"; then
    echo "load-cost: 1 passed, 0 failed"
else
    echo "load-cost: 0 passed, 1 failed"
    exit 1
fi

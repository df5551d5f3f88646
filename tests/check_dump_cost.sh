#!/bin/sh
# dump --csv and --tsv cost at most 1.3 times the instructions a record of
# a writer made for the same bytes takes (tests/bench/csv_anchor.c), on
# the 56-byte mixed struct and a float-only table: the cells are written
# by the column plan, not formatted, scanned and copied one by one.
# dump --jsonl costs at most 1.1 times its own anchor's
# (tests/bench/jsonl_anchor.c) on the same tables: the JSON plan settles
# each value's writer when it is built, copies fixed text in fixed-size
# blocks and writes a task's elements in one loop.
# Instructions come from valgrind's callgrind (tests/bench/dump_csv.sh and
# dump_jsonl.sh, which also check the bytes are the anchor's), which is
# deterministic where time is not. Prints
#   dump-cost: N passed, M failed
# or SKIP when valgrind is missing or the build is sanitized.
O=${O:-build}
NPYDT=${NPYDT:-$O/npydt}
ANCHOR=$O/tests/bench/csv_anchor
JSONL_ANCHOR=$O/tests/bench/jsonl_anchor
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: dump cost check (valgrind cannot run the target's programs under $EXEC)"
    exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: dump cost check (valgrind not installed)"
    exit 0
fi
if [ ! -x "$ANCHOR" ] || [ ! -x "$JSONL_ANCHOR" ]; then
    echo "SKIP: dump cost check ($ANCHOR or $JSONL_ANCHOR not built)"
    exit 0
fi
if nm "$NPYDT" 2>/dev/null | grep -q '__[at]san_init\|__llvm_profile\|__gcov'; then
    echo "SKIP: dump cost check (instrumented build: its counts are not the command's)"
    exit 0
fi
if valgrind --tool=none "$NPYDT" --version 2>&1 | grep -q "Giving up"; then
    echo "SKIP: dump cost check (valgrind cannot read this build's debug info)"
    exit 0
fi
pass=0
fail=0
if sh tests/bench/dump_csv.sh -n 10000 --max-ratio 1.3 "$ANCHOR" "$NPYDT"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
fi
if sh tests/bench/dump_jsonl.sh -n 50000 --max-ratio 1.1 "$JSONL_ANCHOR" "$NPYDT"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
fi
echo "dump-cost: $pass passed, $fail failed"
[ $fail = 0 ]

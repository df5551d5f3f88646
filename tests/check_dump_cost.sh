#!/bin/sh
# dump --csv and --tsv cost at most 1.3 times the instructions a record of
# a writer made for the same bytes takes (tests/bench/csv_anchor.c), on
# the 56-byte mixed struct and a float-only table: the cells are written
# by the column plan, not formatted, scanned and copied one by one.
# Instructions come from valgrind's callgrind (tests/bench/dump_csv.sh,
# which also checks the bytes are the anchor's), which is deterministic
# where time is not. Prints
#   dump-cost: N passed, M failed
# or SKIP when valgrind is missing or the build is sanitized.
O=${O:-build}
NPYDT=${NPYDT:-$O/npydt}
ANCHOR=$O/tests/bench/csv_anchor
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: dump cost check (valgrind cannot run the target's programs under $EXEC)"
    exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: dump cost check (valgrind not installed)"
    exit 0
fi
if [ ! -x "$ANCHOR" ]; then
    echo "SKIP: dump cost check ($ANCHOR not built)"
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
if sh tests/bench/dump_csv.sh -n 10000 --max-ratio 1.3 "$ANCHOR" "$NPYDT"; then
    echo "dump-cost: 1 passed, 0 failed"
else
    echo "dump-cost: 0 passed, 1 failed"
    exit 1
fi

#!/bin/sh
# npydt stats over every leaf of the 56-byte mixed struct costs at most 9
# times the instructions a record of a read-only pass over the same bytes
# takes (tests/bench/read_floor.c) on an x86-64 processor with AVX2, where
# the command runs the AVX2 instances of its kernels (about 8.2 with
# gcc 12 -O2 at this N), and at most 12 times with the portable kernels
# (about 11.1): each leaf is read where it is and folded in one pass
# (floats and small integers as doubles, int64, S bytes), not gathered
# value by value. Instructions come from valgrind's callgrind
# (tests/bench/stats_cost.sh), which is deterministic where time is not.
# Prints
#   stats-cost: N passed, M failed
# or SKIP when valgrind is missing or the build is sanitized.
O=${O:-build}
NPYDT=${NPYDT:-$O/npydt}
FLOOR=$O/tests/bench/read_floor
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: stats cost check (valgrind cannot run the target's programs under $EXEC)"
    exit 0
fi
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: stats cost check (valgrind not installed)"
    exit 0
fi
if [ ! -x "$FLOOR" ]; then
    echo "SKIP: stats cost check ($FLOOR not built)"
    exit 0
fi
if nm "$NPYDT" 2>/dev/null | grep -q '__[at]san_init\|__llvm_profile\|__gcov'; then
    echo "SKIP: stats cost check (instrumented build: its counts are not the command's)"
    exit 0
fi
if valgrind --tool=none "$NPYDT" --version 2>&1 | grep -q "Giving up"; then
    echo "SKIP: stats cost check (valgrind cannot read this build's debug info)"
    exit 0
fi
max=12
if [ "$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
    max=9
fi
if sh tests/bench/stats_cost.sh -n 20000 --max-ratio $max "$FLOOR" "$NPYDT"; then
    echo "stats-cost: 1 passed, 0 failed"
else
    echo "stats-cost: 0 passed, 1 failed"
    exit 1
fi

#!/bin/sh
# check --rules with five range and NaN rules over the 56-byte mixed
# struct (tests/bench/rules.sh's file, 100000 records) costs at most 1.2
# times the instructions of a read-only pass over the same bytes
# (tests/bench/rules_bench.c, which runs both in one process): each
# field's rules are counted in one fused pass where the records are, not
# gathered and checked one rule at a time (that cost about 3.1 times).
# Instructions come from valgrind's callgrind, deterministic where time
# is not. Prints
#   rules-cost: N passed, M failed
# or SKIP when valgrind or NumPy is missing or the build is instrumented.
O=${O:-build}
BENCH=$O/tests/bench/rules_bench
PYTHON=${PYTHON:-/usr/bin/python3}
MAX_RATIO=1.2
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: rules cost check (valgrind cannot run the target's programs under $EXEC)"
    exit 0
fi
for tool in valgrind callgrind_annotate; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "SKIP: rules cost check ($tool not installed)"
        exit 0
    fi
done
if [ ! -x "$BENCH" ]; then
    echo "SKIP: rules cost check ($BENCH not built)"
    exit 0
fi
if nm "$BENCH" 2>/dev/null | grep -q '__[at]san_init\|__llvm_profile\|__gcov'; then
    echo "SKIP: rules cost check (instrumented build: its counts are not the library's)"
    exit 0
fi
if ! "$PYTHON" -c 'import numpy' >/dev/null 2>&1; then
    echo "SKIP: rules cost check ($PYTHON cannot import numpy)"
    exit 0
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/npydt-rules-cost.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM HUP
"$PYTHON" - "$dir/mixed.npy" <<'PYEOF'
import sys
import numpy as np
n = 100000
rng = np.random.default_rng(26)
a = np.zeros(n, [('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('b', '<f8'), ('c', '<f4'),
                 ('d', '<f4'), ('e', '<i8'), ('f', '<i2'), ('s', 'S10')])
a['t'] = np.datetime64('2024-01-01', 'ns') + rng.integers(0, 10**15, n).astype('m8[ns]')
a['a'] = rng.normal(size=n) * 1000
a['a'][rng.integers(0, n, 7)] = np.nan
a['c'] = rng.normal(size=n).astype('f4')
a['e'] = rng.integers(-2**62, 2**62, n)
np.save(sys.argv[1], a)
PYEOF
rules="{'a': {'min': -1e9, 'max': 1e9, 'nan': False}, 'c': {'nan': False}, 'e': {'min': -4611686018427387904}}"
if ! valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$BENCH" "$dir/mixed.npy" \
        "$rules" 1 >"$dir/out" 2>"$dir/err"; then
    echo "FAIL rules cost: $BENCH under callgrind failed:"
    cat "$dir/err"
    echo "rules-cost: 0 passed, 1 failed"
    exit 1
fi
callgrind_annotate --inclusive=yes "$dir/cg.out" >"$dir/ann" 2>/dev/null
# the inclusive instructions of a function: the first line naming it
count() {
    grep -E "[:]$1 \[" "$dir/ann" | head -n 1 | awk '{ gsub(",", "", $1); print $1 }'
}
check=$(count npydt_rules_check_reader)
read=$(count read_pass)
if [ -z "$check" ] || [ -z "$read" ]; then
    echo "FAIL rules cost: no counts for npydt_rules_check_reader or read_pass in callgrind's output"
    echo "rules-cost: 0 passed, 1 failed"
    exit 1
fi
# both ran twice (a warm-up round and one measured)
if awk -v c="$check" -v r="$read" -v m="$MAX_RATIO" 'BEGIN {
        printf "rules cost: %.1f instructions a record, read-only pass %.1f: %.2fx (at most %.1fx)\n",
               c / 200000, r / 200000, c / r, m
        exit !(c <= m * r) }'; then
    echo "rules-cost: 1 passed, 0 failed"
else
    echo "FAIL rules cost: npydt_rules_check_reader takes more than $MAX_RATIO times the read-only pass"
    echo "rules-cost: 0 passed, 1 failed"
    exit 1
fi

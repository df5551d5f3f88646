#!/bin/sh
# `npydt dump --arrow` and `npydt load --arrow` (and `append --arrow`) with
# -j 2, where a worker gathers or converts the next batch while the last
# one is written, against -j 1, where one thread does both: the same
# bytes written, and for a refused input the same exit status, the same
# message and no OUT. The arrays span several batches (of about a MiB):
# a struct gathered per leaf, a native column exported without a copy,
# selected fields and rows, a stream from a file and from a pipe.
# Prints `arrow_jobs: N passed, M failed`.
set -u
NPYDT=${NPYDT:-build/npydt}
PYTHON=${PYTHON:-/usr/bin/python3}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL arrow_jobs: $*"; }

if ! "$PYTHON" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: arrow_jobs: $PYTHON cannot import numpy"
    exit 0
fi

"$PYTHON" - "$tmp" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
dt = np.dtype([('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('b', '<f8'), ('c', '<f4'),
               ('d', '<f4'), ('e', '<i8'), ('f', '<i2'), ('s', 'S10')])
n = 100000   # 5.6 MB: five batches and more
rng = np.random.default_rng(7)
a = np.zeros(n, dt)
a['t'] = np.datetime64('2024-01-01', 'ns') + rng.integers(0, 10**15, n).astype('m8[ns]')
a['id'] = rng.integers(0, 2**32, n, dtype=np.uint64)
a['a'] = rng.normal(size=n)
a['e'] = rng.integers(-2**62, 2**62, n)
a['f'] = rng.integers(-30000, 30000, n)
a['s'] = np.array([b'alpha', b'beta', b'gamma', b'epsilon123'], 'S10')[rng.integers(0, 4, n)]
np.save(d + '/mixed.npy', a)
np.save(d + '/f8.npy', rng.normal(size=700000))
u = np.array(['ab'] * 300000, 'U10')
u[250000] = 'abcdefg'   # longer than U5, in a late batch
np.save(d + '/u.npy', u)
PY

# standard input of the runs below
stdin=/dev/null

# same_dump NAME ARGS...: dump --arrow ARGS with -j 1 and -j 2, to stdout
# and through -o: the same bytes, exit 0
same_dump() {
    name=$1
    shift
    for j in 1 2; do
        "$NPYDT" dump --arrow -j $j "$@" <"$stdin" >"$tmp/d$j.arrow" 2>"$tmp/err$j"
        echo $? >"$tmp/rc$j"
        rm -f "$tmp/o$j.arrow"
        "$NPYDT" dump --arrow -j $j -o "$tmp/o$j.arrow" "$@" <"$stdin" 2>>"$tmp/err$j"
        echo $? >>"$tmp/rc$j"
    done
    if [ "$(cat "$tmp/rc1")" != "$(printf '0\n0')" ] || [ -s "$tmp/err1" ]; then
        bad "$name: -j 1: $(cat "$tmp/rc1" "$tmp/err1")"
    elif ! cmp -s "$tmp/rc1" "$tmp/rc2" || ! cmp -s "$tmp/err1" "$tmp/err2"; then
        bad "$name: -j 2 exits or says otherwise: $(cat "$tmp/rc2" "$tmp/err2")"
    elif ! cmp -s "$tmp/d1.arrow" "$tmp/d2.arrow" || ! cmp -s "$tmp/o1.arrow" "$tmp/o2.arrow" ||
        ! cmp -s "$tmp/d1.arrow" "$tmp/o1.arrow"; then
        bad "$name: -j 2 writes other bytes"
    else
        ok
    fi
}
same_dump "dump --arrow of a struct gathered per leaf" "$tmp/mixed.npy"
same_dump "dump --arrow of a native column" "$tmp/f8.npy"
same_dump "dump --arrow --fields" --fields s,a,id "$tmp/mixed.npy"
same_dump "dump --arrow --range" --range 7:99000:3 "$tmp/mixed.npy"
stdin=$tmp/mixed.npy
same_dump "dump --arrow of standard input" -
stdin=/dev/null

# same_load NAME STATUS ARGS...: load --arrow ARGS -o OUT with -j 1 and
# -j 2: the same exit status (STATUS) and stderr; the same OUT, or none
# and no temporary file when refused
same_load() {
    name=$1 want=$2
    shift 2
    for j in 1 2; do
        mkdir -p "$tmp/l$j"
        rm -f "$tmp/l$j"/*
        "$NPYDT" load --arrow -j $j -o "$tmp/l$j/out.npy" "$@" <"$stdin" >/dev/null \
            2>"$tmp/lerr$j"
        echo $? >"$tmp/lrc$j"
        sed -i "s|$tmp/l$j/|OUT/|g" "$tmp/lerr$j"
    done
    if [ "$(cat "$tmp/lrc1")" != "$want" ]; then
        bad "$name: -j 1 exits $(cat "$tmp/lrc1") (want $want): $(cat "$tmp/lerr1")"
    elif ! cmp -s "$tmp/lrc1" "$tmp/lrc2" || ! cmp -s "$tmp/lerr1" "$tmp/lerr2"; then
        bad "$name: -j 2 exits $(cat "$tmp/lrc2"): '$(cat "$tmp/lerr2")' where -j 1 says '$(cat "$tmp/lerr1")'"
    elif [ "$want" = 0 ] && ! cmp -s "$tmp/l1/out.npy" "$tmp/l2/out.npy"; then
        bad "$name: -j 2 writes another file"
    elif [ "$want" != 0 ] && [ -n "$(ls -A "$tmp/l1")$(ls -A "$tmp/l2")" ]; then
        bad "$name: a refused load left $(ls -A "$tmp/l1") $(ls -A "$tmp/l2")"
    else
        ok
    fi
}
"$NPYDT" dump --arrow -o "$tmp/mixed.arrow" "$tmp/mixed.npy"
"$NPYDT" dump --arrow -o "$tmp/u.arrow" "$tmp/u.npy"
same_load "load --arrow of a file" 0 "$tmp/mixed.arrow"
stdin=$tmp/mixed.arrow
same_load "load --arrow of a pipe" 0 -
stdin=/dev/null
same_load "load --arrow of a U column" 0 "$tmp/u.arrow"
same_load "load --arrow: a value too long in a late batch" 3 --dtype '<U5' "$tmp/u.arrow"
size=$(wc -c <"$tmp/mixed.arrow")
head -c $((size * 3 / 4)) "$tmp/mixed.arrow" >"$tmp/cut.arrow"
same_load "load --arrow of a stream cut in a late batch" 3 "$tmp/cut.arrow"
stdin=$tmp/cut.arrow
same_load "load --arrow of a stream cut, from a pipe" 3 -
stdin=/dev/null
"$NPYDT" load --arrow -j 2 -o "$tmp/back.npy" "$tmp/mixed.arrow" &&
    cmp -s "$tmp/back.npy" "$tmp/mixed.npy" && ok ||
    bad "load --arrow -j 2 does not give back the file dump --arrow read"

# append --arrow: the same file with -j 1 and -j 2
for j in 1 2; do
    cp "$tmp/mixed.npy" "$tmp/app$j.npy"
    "$NPYDT" append "$tmp/app$j.npy" --arrow -j $j "$tmp/mixed.arrow" 2>"$tmp/aerr$j" ||
        bad "append --arrow -j $j: $(cat "$tmp/aerr$j")"
done
cmp -s "$tmp/app1.npy" "$tmp/app2.npy" && ok || bad "append --arrow -j 2 writes another file"

echo "arrow_jobs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

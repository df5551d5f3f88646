#!/bin/sh
# `npydt load --arrow` and `npydt append --arrow`: every fixture that
# `dump --arrow` takes comes back through an Arrow IPC stream (a file and
# a pipe) as the same dtype and the same records in C order, NumPy says;
# refused streams (truncated, corrupt, of a type NumPy has not, not the
# --dtype given, rows that do not make the shape of its metadata) leave no OUT, and an existing OUT as it was; Arrow JS's
# tableToIPC writes a stream load --arrow reads (skipped without node and
# tests/consumers/node_modules). Prints `arrow_load: N passed, M failed`.
set -u
NPYDT=${NPYDT:-build/npydt}
PYTHON=${PYTHON:-/usr/bin/python3}
F=${FIXTURES:-tests/fixtures}
here=$(dirname "$0")
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL arrow_load: $*"; }

# expect NAME STATUS STDERR_PATTERN -- ARGS...: the exit status, and a
# line of stderr matching the grep pattern ('' for an empty stderr)
expect() {
    name=$1 status=$2 pattern=$3
    shift 4
    "$NPYDT" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$status" ]; then
        bad "$name: exit $rc, expected $status; stderr: $(cat "$tmp/err")"
    elif [ -z "$pattern" ] && [ -s "$tmp/err" ]; then
        bad "$name: stderr: $(cat "$tmp/err")"
    elif [ -n "$pattern" ] && ! grep -q -- "$pattern" "$tmp/err"; then
        bad "$name: stderr lacks '$pattern': $(cat "$tmp/err")"
    else
        ok
    fi
}

if ! "$PYTHON" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: arrow_load: $PYTHON cannot import numpy"
    exit 0
fi

# ---- every fixture dump --arrow writes, back through load --arrow ----
# What dump --arrow refuses is not here (object dtypes, days beyond
# Arrow's 32-bit dates, names with NUL). What comes back otherwise: the
# records' bytes, but for padding (zero on the way back: the fields
# compare) and f16 / c32 (rounded to double on the way out: compared as
# doubles).
: >"$tmp/list"
for f in "$F"/*.npy; do
    n=$(basename "$f" .npy)
    "$NPYDT" dump --arrow -o "$tmp/$n.arrow" "$f" 2>/dev/null || continue
    if "$NPYDT" load --arrow -o "$tmp/$n.out.npy" "$tmp/$n.arrow" 2>"$tmp/err"; then
        echo "$n" >>"$tmp/list"
    else
        bad "load --arrow $n: $(cat "$tmp/err")"
    fi
done
"$PYTHON" - "$F" "$tmp" <<'PY' || failed=$((failed + 1))
import sys, numpy as np
fix, tmp = sys.argv[1], sys.argv[2]
bad = 0
names = open(tmp + "/list").read().split()
for n in names:
    a = np.load(f"{fix}/{n}.npy", max_header_size=10**7)
    # the shape comes back (npydt.shape), in C order; one without elements
    # grows from 0 rows, as the writer grows it
    shape = a.shape
    if a.size == 0 and a.ndim > 1:
        shape = (0,) + shape[1:]
    a = a.reshape(-1)
    b = np.load(f"{tmp}/{n}.out.npy", max_header_size=10**7)
    why = None
    c_order = b.flags.c_contiguous
    got, b = b.shape, b.reshape(-1)
    if got != shape or not c_order:
        why = f"shape {got}, expected {shape} in C order"
    elif a.dtype != b.dtype or a.dtype.descr != b.dtype.descr:
        why = f"dtype {b.dtype}, expected {a.dtype}"
    elif a.tobytes() != b.tobytes():
        if a.dtype.kind in "fc" and a.dtype.itemsize in (16, 32):
            same = np.array_equal(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64),
                                  b.astype(np.complex128 if b.dtype.kind == "c" else np.float64),
                                  equal_nan=True)
        elif a.dtype.names:
            same = a.tolist() == b.tolist()
        else:
            same = False
        if not same:
            why = "other records"
    if why:
        bad += 1
        print(f"FAIL arrow_load: round trip {n}: {why}")
if len(names) < 80:
    bad += 1
    print(f"FAIL arrow_load: round trip of {len(names)} fixtures only")
sys.exit(1 if bad else 0)
PY
ok

# ---- the shape of npydt.shape, and rows that do not make it ----------
# fortran_3d is (2, 3, 4): its stream's schema says so, and editing the
# text in place (the same length) makes other shapes and misspellings
"$NPYDT" dump --arrow -o "$tmp/3d.arrow" "$F/fortran_3d.npy"
edit() {
    "$PYTHON" -c "import sys; d = open(sys.argv[1], 'rb').read(); assert d.count(b'(2, 3, 4)') == 1
open(sys.argv[2], 'wb').write(d.replace(b'(2, 3, 4)', sys.argv[3].encode()))" "$tmp/3d.arrow" "$1" "$2"
}
edit "$tmp/235.arrow" "(2, 3, 5)"
expect "fewer rows than the shape" 3 \
    "the stream's 24 rows do not make the shape (2, 3, 5) of its schema (npydt.shape), which holds 30" -- \
    load --arrow -o "$tmp/235.npy" "$tmp/235.arrow"
[ ! -e "$tmp/235.npy" ] && ok || bad "rows short of the shape left OUT"
edit "$tmp/233.arrow" "(2, 3, 3)"
expect "more rows than the shape" 3 \
    "the stream has more rows than the 18 of the shape (2, 3, 3) of its schema (npydt.shape)" -- \
    load --arrow -o "$tmp/233.npy" "$tmp/233.arrow"
[ ! -e "$tmp/233.npy" ] && ok || bad "rows past the shape left OUT"
edit "$tmp/bad.arrow" "(2,3 , 4)"
expect "a shape misspelled" 3 "metadata npydt.shape '(2,3 , 4)' is not a shape" -- \
    load --arrow -o "$tmp/bad.npy" "$tmp/bad.arrow"
cp "$F/scalar_f8_be.npy" "$tmp/app3.npy"
expect "append --arrow takes the rows, not the shape" 0 '' -- append "$tmp/app3.npy" --arrow "$tmp/3d.arrow"
"$PYTHON" -c "
import numpy as np, sys
a, b = np.load('$F/scalar_f8_be.npy'), np.load('$tmp/app3.npy')
sys.exit(0 if b.shape == (a.size + 24,) else 1)" && ok || bad "append --arrow of a (2, 3, 4) stream: other rows"

# ---- standard input, -, --dtype, append ------------------------------
S=$F/struct_simple.npy
"$NPYDT" dump --arrow -o "$tmp/s.arrow" "$S"
if "$NPYDT" dump --arrow "$S" | "$NPYDT" load --arrow -o "$tmp/pipe.npy" &&
    cmp -s "$tmp/pipe.npy" "$tmp/struct_simple.out.npy"; then ok; else bad "a pipe into load --arrow"; fi
if "$NPYDT" load --arrow -o "$tmp/dash.npy" - <"$tmp/s.arrow" &&
    cmp -s "$tmp/dash.npy" "$tmp/struct_simple.out.npy"; then ok; else bad "load --arrow -"; fi
expect "--dtype @FILE that the columns fit" 0 '' -- load --arrow --dtype "@$S" -o "$tmp/d.npy" "$tmp/s.arrow"
cmp -s "$tmp/d.npy" "$tmp/struct_simple.out.npy" && ok || bad "--dtype @FILE: other bytes"
"$PYTHON" -c "import numpy as np; print(np.load('$S').dtype.newbyteorder('>').descr)" >"$tmp/be.txt"
expect "--dtype of the other byte order" 0 '' -- load --arrow --dtype "@$tmp/be.txt" -o "$tmp/be.npy" "$tmp/s.arrow"
"$PYTHON" -c "
import numpy as np, sys
a, b = np.load('$S'), np.load('$tmp/be.npy')
sys.exit(0 if b.dtype == a.dtype.newbyteorder('>') and a.tolist() == b.tolist() else 1)" && ok ||
    bad "--dtype of the other byte order: other values"
expect "--dtype that the columns do not fit" 3 "MISMATCH\|mismatch" -- \
    load --arrow --dtype '<f8' -o "$tmp/mm.npy" "$tmp/s.arrow"
[ ! -e "$tmp/mm.npy" ] && ok || bad "a --dtype mismatch left OUT"
# a column inside a struct: the line names it once, as the field, and the
# message says only what is wrong with it
"$PYTHON" -c "
import numpy as np
a = np.zeros(2, dtype=[('a', [('b', '<i4'), ('s', '<U3')])])
a['a']['s'] = ['abc', 'xy']
np.save('$tmp/nest.npy', a)"
"$NPYDT" dump --arrow -o "$tmp/nest.arrow" "$tmp/nest.npy" && ok || bad "dump --arrow of a nested struct"
line_is() {
    name=$1 status=$2 line=$3
    shift 3
    "$NPYDT" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq "$status" ] && [ "$(cat "$tmp/err")" = "$line" ] && ok ||
        bad "$name: exit $rc, expected $status; stderr: $(cat "$tmp/err"), not: $line"
}
line_is "a struct's column of another type names the field once" 3 \
    "$tmp/nest.arrow: schema mismatch: field a.b: Arrow type 'i' where the dtype has <f8" \
    load --arrow --dtype "[('a', [('b', '<f8'), ('s', '<U3')])]" -o "$tmp/mm.npy" "$tmp/nest.arrow"
line_is "a struct's column of another name names the field once" 3 \
    "$tmp/nest.arrow: schema mismatch: field a.b: an Arrow column where the dtype has field 'c'" \
    load --arrow --dtype "[('a', [('c', '<i4'), ('s', '<U3')])]" -o "$tmp/mm.npy" "$tmp/nest.arrow"
line_is "a struct's value too long names the field once" 3 \
    "$tmp/nest.arrow: out of range: field a.s: row 0: 'abc' is longer than U2 (3 characters)" \
    load --arrow --dtype "[('a', [('b', '<i4'), ('s', '<U2')])]" -o "$tmp/mm.npy" "$tmp/nest.arrow"
[ ! -e "$tmp/mm.npy" ] && ok || bad "a nested --dtype mismatch left OUT"
cp "$tmp/struct_simple.out.npy" "$tmp/app.npy"
expect "append --arrow" 0 '' -- append "$tmp/app.npy" --arrow "$tmp/s.arrow"
"$PYTHON" -c "
import numpy as np, sys
a, b = np.load('$S'), np.load('$tmp/app.npy')
sys.exit(0 if b.tolist() == a.tolist() * 2 else 1)" && ok || bad "append --arrow: other records"
"$NPYDT" dump --arrow -o "$tmp/f8.arrow" "$F/scalar_f8_le.npy"
cp "$tmp/app.npy" "$tmp/app.before"
expect "append --arrow of other columns" 3 "mismatch" -- append "$tmp/app.npy" --arrow "$tmp/f8.arrow"
cmp -s "$tmp/app.npy" "$tmp/app.before" && ok || bad "a refused append changed the file"
expect "append --arrow to a 2-d array" 3 "1-d arrays only" -- append "$F/fortran_2d.npy" --arrow "$tmp/f8.arrow"

# ---- refusals: exit 3, a message naming what, no OUT ------------------
size=$(wc -c <"$tmp/s.arrow")
head -c $((size / 2)) "$tmp/s.arrow" >"$tmp/trunc.arrow"
expect "a truncated stream" 3 "<stdin>: .*stream offset [0-9]*: " -- \
    load --arrow -o "$tmp/t.npy" - <"$tmp/trunc.arrow"
[ ! -e "$tmp/t.npy" ] && ok || bad "a truncated stream left OUT"
ls "$tmp" | grep -q '^\.t\.npy\|t\.npy\.' && bad "a truncated stream left a temporary file" || ok
# a corrupt Schema message: its metadata length far past the bytes
printf '\377\377\377\377\020\000\000\000garbage!garbage!' >"$tmp/corrupt.arrow"
expect "a corrupt stream" 3 "corrupt.arrow: DATA\|corrupt.arrow: .*stream offset" -- \
    load --arrow -o "$tmp/c.npy" "$tmp/corrupt.arrow"
[ ! -e "$tmp/c.npy" ] && ok || bad "a corrupt stream left OUT"
expect "a .npy file given as a stream" 3 "bad magic: stream offset 0: .*a .npy file, not an Arrow IPC stream" -- \
    load --arrow -o "$tmp/c.npy" "$S"
expect "a .npy file given on standard input" 3 \
    "<stdin>: bad magic: stream offset 0: .*a .npy file, not an Arrow IPC stream" -- \
    load --arrow -o "$tmp/c.npy" - <"$S"
cat "$S" | "$NPYDT" load --arrow -o "$tmp/c.npy" - 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] && grep -q "<stdin>: bad magic: stream offset 0: .*a .npy file, not an Arrow IPC stream" "$tmp/err" &&
    ok || bad "a .npy file from a pipe: exit $rc: $(cat "$tmp/err")"
# a .npy file after the messages of a stream that lacks its end marker
# (8 bytes), in a file and through a pipe: named at the message's place
size=$(wc -c <"$tmp/s.arrow")
{ head -c $((size - 8)) "$tmp/s.arrow"; cat "$S"; } >"$tmp/then_npy.arrow"
expect "a .npy file after a stream's messages" 3 \
    "bad magic: stream offset $((size - 8)): .*where a message belongs: a .npy file, not an Arrow IPC stream" -- \
    load --arrow -o "$tmp/c.npy" "$tmp/then_npy.arrow"
cat "$tmp/then_npy.arrow" | "$NPYDT" load --arrow -o "$tmp/c.npy" - 2>"$tmp/err"
rc=$?
[ "$rc" -eq 3 ] && grep -q "stream offset $((size - 8)): .*a .npy file, not an Arrow IPC stream" "$tmp/err" &&
    ok || bad "a .npy file after a stream's messages, from a pipe: exit $rc: $(cat "$tmp/err")"
[ ! -e "$tmp/c.npy" ] && ok || bad "a .npy file given as a stream left OUT"
# variable-length text without a width: the message names the option
# (the stream Arrow JS wrote, committed: tests/consumers/arrow_js_stream.arrows)
expect "utf8 without --string-width names the option" 3 \
    "field s: Arrow type 'u' .* give a string width to read it as U with --string-width N" -- \
    load --arrow -o "$tmp/c.npy" "$here/consumers/arrow_js_stream.arrows"
[ ! -e "$tmp/c.npy" ] && ok || bad "utf8 without --string-width left OUT"
expect "utf8 with --string-width" 0 '' -- \
    load --arrow --string-width 5 --nulls-as-zero -o "$tmp/c.npy" "$here/consumers/arrow_js_stream.arrows"
rm -f "$tmp/c.npy"
printf 'PK\005\006' >"$tmp/empty.npz"
expect "an archive given as a stream" 3 "bad magic: stream offset 0: .*a zip archive (.npz), not" -- \
    load --arrow -o "$tmp/c.npy" "$tmp/empty.npz"
# a record wider than a message can hold: refused before any buffer of its size
"$PYTHON" -c "import numpy as np; np.save('$tmp/wide.npy', np.zeros(0, dtype=[('a', 'V300000000')]))"
"$NPYDT" dump --arrow -o "$tmp/wide.arrows" "$tmp/wide.npy" && ok || bad "dump --arrow of a wide empty array"
expect "a record wider than a message" 3 "limit exceeded: a record of 300000000 bytes" -- \
    load --arrow -o "$tmp/w.npy" "$tmp/wide.arrows"
[ ! -e "$tmp/w.npy" ] && ok || bad "a too wide record left OUT"
expect "no such input" 2 "cannot open" -- load --arrow -o "$tmp/c.npy" "$tmp/none.arrow"
# an existing OUT is left as it was
cp "$S" "$tmp/keep.npy"
expect "a truncated stream over an existing OUT" 3 "stream offset" -- load --arrow -o "$tmp/keep.npy" "$tmp/trunc.arrow"
cmp -s "$tmp/keep.npy" "$S" && ok || bad "a refused load changed an existing OUT"
expect "usage: --shape with --arrow" 2 "1-d array" -- load --arrow --shape 2 -o "$tmp/u.npy" "$tmp/s.arrow"
expect "usage: --string-width without --arrow" 2 "go with --arrow" -- \
    load --dtype '<f8' --string-width 4 -o "$tmp/u.npy" "$tmp/s.arrow"
expect "usage: --string-width 0" 2 "string-width '0'" -- load --arrow --string-width 0 -o "$tmp/u.npy" "$tmp/s.arrow"
expect "usage: --arrow with --csv" 2 "--arrow excludes --jsonl, --csv and --tsv" -- load --arrow --csv -o "$tmp/u.npy" "$tmp/s.arrow"
[ ! -e "$tmp/u.npy" ] && ok || bad "a usage error left OUT"

# ---- Arrow JS writes, load --arrow reads -------------------------------
if ! command -v node >/dev/null 2>&1; then
    echo "SKIP: arrow_load: no node (the Arrow JS cases)"
elif [ ! -d "$here/consumers/node_modules/apache-arrow" ]; then
    echo "SKIP: arrow_load: no $here/consumers/node_modules/apache-arrow (run npm ci in tests/consumers)"
else
    node "$here/consumers/arrow_js_load.mjs" "$tmp/js.arrow" "$tmp/js_null.arrow" "$tmp/js_list.arrow" \
        "$tmp/js_file.arrow" ||
        bad "arrow_js_load.mjs failed"
    # a variable-length utf8 column needs a width
    expect "utf8 without --string-width" 3 'field s: ' -- load --arrow -o "$tmp/js.npy" "$tmp/js.arrow"
    [ ! -e "$tmp/js.npy" ] && ok || bad "utf8 without --string-width left OUT"
    expect "Arrow JS table" 0 '' -- load --arrow --string-width 8 -o "$tmp/js.npy" "$tmp/js.arrow"
    "$PYTHON" "$here/consumers/arrow_js_load_check.py" "$tmp/js.npy" && ok || bad "Arrow JS table: other values"
    # the IPC file format is refused by name, with the way to a stream
    expect "Arrow JS table, IPC file format" 3 "bad magic: stream offset 0: .*an Arrow IPC file" -- \
        load --arrow --string-width 8 -o "$tmp/jsf.npy" "$tmp/js_file.arrow"
    expect "utf8 longer than --string-width" 3 "field s: row 2: " -- \
        load --arrow --string-width 3 -o "$tmp/js3.npy" "$tmp/js.arrow"
    [ ! -e "$tmp/js3.npy" ] && ok || bad "a too long string left OUT"
    expect "a null integer" 3 "field n: row 1: a null" -- load --arrow -o "$tmp/jn.npy" "$tmp/js_null.arrow"
    expect "a null integer as zero" 0 '' -- load --arrow --nulls-as-zero -o "$tmp/jn.npy" "$tmp/js_null.arrow"
    "$PYTHON" -c "
import numpy as np, sys
sys.exit(0 if np.load('$tmp/jn.npy')['n'].tolist() == [1, 0, 3] else 1)" && ok || bad "--nulls-as-zero: other values"
    expect "an unsupported type (a list)" 3 "field l: .*+l\|field l: .*List" -- \
        load --arrow -o "$tmp/jl.npy" "$tmp/js_list.arrow"
    [ ! -e "$tmp/jl.npy" ] && ok || bad "an unsupported type left OUT"
fi

# ---- records of no bytes: a stream of 2^56 rows (a few hundred bytes)
# loads at once with one thread and two, as the library's import does it
# (they were converted a MiB of rows at a time: a loop without end)
Z=fuzz/regressions/arrow_ipc/rows_of_no_bytes_beyond_counting
for j in 1 2; do
    rm -f "$tmp/z.npy"
    if timeout 60 "$NPYDT" load --arrow -j "$j" -o "$tmp/z.npy" "$Z" 2>"$tmp/err" &&
        "$NPYDT" inspect "$tmp/z.npy" | grep -q 'shape      (70650219154374656,)'; then
        ok
    else
        bad "rows of no bytes, -j $j: $(cat "$tmp/err")"
    fi
done

echo "arrow_load: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# `npydt load`, `npydt append` and `npydt pack`: dump --jsonl | load
# --dtype @FILE rewrites every committed fixture without object fields
# byte for byte (the exceptions below keep their values); every input
# error with its exact message, exit status and no output file; CSV and
# TSV input; appending to files NumPy wrote, a bad line leaving the file
# as it was; pack against np.savez and np.savez_compressed
# (tests/load_check.py). Prints `load: N passed, M failed`.
set -u
NPYDT=${NPYDT:-build/npydt}
PYTHON=${PYTHON:-/usr/bin/python3}
F=${FIXTURES:-tests/fixtures}
case $NPYDT in /*) ;; *) NPYDT=$(pwd)/$NPYDT ;; esac
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL load: $*"; }

# Fixtures whose bytes cannot come back from their values alone, and why:
#   *_f16_*              long double (x87) values beyond a double's precision
#                        (dump prints the nearest double)
#   struct_aligned*,     padding bytes, which NumPy leaves as whatever memory
#   struct_offsets*      held and dump does not print; load writes zeros
#   version2_small,      written with a 2.0 / 3.0 header on purpose; np.save
#   version3_small       (and load) write 1.0 when the header fits it
#   empty_3x0            shape (3, 0): no element tells the growth axis's
#                        length, so load writes (0, 0)
# For these the values must still survive: dump of the copy equals dump of
# the fixture (except empty_3x0, whose shape differs).
exception() {
    case $1 in
    scalar_f16_be | scalar_f16_le | shape0d_f16_be | struct_aligned | struct_aligned_nested | \
        struct_offsets | struct_offsets_nested | version2_small | version3_small | empty_3x0)
        return 0 ;;
    esac
    return 1
}

for f in "$F"/*.npy; do
    name=$(basename "$f" .npy)
    "$NPYDT" dump --jsonl "$f" >"$tmp/in.jsonl" 2>/dev/null || continue   # object arrays
    rm -f "$tmp/out.npy"
    if ! "$NPYDT" load --dtype "@$f" -o "$tmp/out.npy" "$tmp/in.jsonl" 2>"$tmp/err"; then
        bad "round trip $name: $(cat "$tmp/err")"
    elif cmp -s "$f" "$tmp/out.npy"; then
        if exception "$name"; then bad "round trip $name: now identical, drop it from the exceptions"; else ok; fi
    elif ! exception "$name"; then
        bad "round trip $name: bytes differ"
    elif [ "$name" = empty_3x0 ]; then
        ok
    elif "$NPYDT" dump --jsonl "$tmp/out.npy" | cmp -s - "$tmp/in.jsonl"; then
        ok
    else
        bad "round trip $name: values differ"
    fi
done

D="[('id', '<u1'), ('pos', [('x', '<f4'), ('y', '<f4')]), ('s', '<i2', (2,)), ('name', 'S3'), ('c', '<c8')]"
GOOD='{"id":1,"pos":{"x":1.5,"y":2},"s":[1,2],"name":"ab","c":[1,2]}'

# err NAME STATUS STDERR INPUT [ARGS...]: load INPUT (one line after the
# good one) with dtype D; the exact stderr, the status, no output file
err() {
    name=$1 status=$2 want=$3 line=$4
    shift 4
    printf '%s\n%s\n' "$GOOD" "$line" >"$tmp/in.jsonl"
    rm -f "$tmp/out.npy"
    (cd "$tmp" && "$NPYDT" load --dtype "$D" -o out.npy "$@" in.jsonl) 2>"$tmp/err"
    rc=$?
    printf '%s\n' "$want" >"$tmp/want"
    if [ "$rc" -ne "$status" ]; then
        bad "$name: exit $rc, expected $status: $(cat "$tmp/err")"
    elif ! cmp -s "$tmp/err" "$tmp/want"; then
        bad "$name: stderr '$(cat "$tmp/err")', expected '$want'"
    elif [ -e "$tmp/out.npy" ] || [ -n "$(ls -A "$tmp" | grep npydt)" ]; then
        bad "$name: an output file was left"
    else
        ok
    fi
}

err "bad JSON" 3 "in.jsonl:2: syntax error: the JSON text ends early at byte 62" \
    '{"id":1,"pos":{"x":1.5,"y":2},"s":[1,2],"name":"ab","c":[1,2]'
err "text after the value" 3 "in.jsonl:2: syntax error: text after the JSON value at byte 5" '[1] [2]'
# the tokens (jsmn's) take a key without a value and a ':' after any
# value; the reader refuses both before it reads past the line's tokens
err "key without a value" 3 "in.jsonl:2: syntax error: not valid JSON at byte 53: a key without a value" \
    '{"id":1,"pos":{"x":1.5,"y":2},"s":[1,2],"name":"ab","c"}'
err "key without a value, last" 3 "in.jsonl:2: syntax error: not valid JSON at byte 53: a key without a value" \
    '{"id":1,"pos":{"x":1.5,"y":2},"s":[1,2],"name":"ab","c":}'
err "a colon after a number" 3 "in.jsonl:2: syntax error: field c: not valid JSON at byte 58: ':' after a value" \
    '{"id":1,"pos":{"x":1.5,"y":2},"s":[1,2],"name":"ab","c":[1 :2, 3]}'
err "a colon after a string value" 3 "in.jsonl:2: syntax error: field name: not valid JSON at byte 48: ':' after a value" \
    '{"id":1,"pos":{"x":1.5,"y":2},"s":[1,2],"name":"ab": 5,"c":[1,2]}'
err "wrong type" 3 'in.jsonl:2: bad value: field id: "a" is not a value of |u1' \
    '{"id":"a","pos":{"x":1.5,"y":2},"s":[1,2],"name":"ab","c":[1,2]}'
err "out of range" 3 "in.jsonl:2: out of range: field id: 300 does not fit u1 (0 to 255)" \
    '{"id":300,"pos":{"x":1.5,"y":2},"s":[1,2],"name":"ab","c":[1,2]}'
err "not an integer" 3 "in.jsonl:2: out of range: field s[1]: 2.5 is not an integer (i2)" \
    '{"id":1,"pos":{"x":1.5,"y":2},"s":[1,2.5],"name":"ab","c":[1,2]}'
err "string too long" 3 "in.jsonl:2: out of range: field name: 'abcd' is longer than S3 (4 bytes)" \
    '{"id":1,"pos":{"x":1.5,"y":2},"s":[1,2],"name":"abcd","c":[1,2]}'
err "not a byte" 3 'in.jsonl:2: bad value: field name: \u0101 in a bytes string: only \u0000 to \u00ff are bytes' \
    '{"id":1,"pos":{"x":1.5,"y":2},"s":[1,2],"name":"a\u0101","c":[1,2]}'
err "unknown field" 3 "in.jsonl:2: bad key: unknown field 'idx' (did you mean 'id'?)" \
    '{"idx":1,"pos":{"x":1.5,"y":2},"s":[1,2],"name":"ab","c":[1,2]}'
err "unknown nested field" 3 "in.jsonl:2: bad key: field pos: unknown field 'z'" \
    '{"id":1,"pos":{"x":1.5,"z":2},"s":[1,2],"name":"ab","c":[1,2]}'
err "missing field" 3 "in.jsonl:2: bad key: field pos.y: missing field" \
    '{"id":1,"pos":{"x":1.5},"s":[1,2],"name":"ab","c":[1,2]}'
err "too many fields" 3 "in.jsonl:2: bad value: too many values: 6 values for 5 fields" \
    '[1,[1.5,2],[1,2],"ab",[1,2],7]'
err "too few fields" 3 "in.jsonl:2: bad key: too few values: 4 values for 5 fields" '[1,[1.5,2],[1,2],"ab"]'
err "field given twice" 3 "in.jsonl:2: bad key: field pos.x: given twice" \
    '{"id":1,"pos.x":1.5,"pos.x":2,"s":[1,2],"name":"ab","c":[1,2]}'
err "subarray length" 3 "in.jsonl:2: bad value: field s: expected a list of 2 values" \
    '{"id":1,"pos":{"x":1.5,"y":2},"s":[1,2,3],"name":"ab","c":[1,2]}'
err "float overflow" 3 "in.jsonl:2: out of range: field pos.x: 1e+300 does not fit f4 (-3.4028234663852886e+38 to 3.4028234663852886e+38)" \
    '{"id":1,"pos":{"x":1e300,"y":2},"s":[1,2],"name":"ab","c":[1,2]}'

# the caps on one JSON line, for the plan's dtype D and for one the plan
# does not take (U): the limit, the line and the byte where it is passed
deep=$(awk 'BEGIN { for (i = 0; i < 1025; i++) printf "["; for (i = 0; i < 1025; i++) printf "]" }')
wide=$(awk 'BEGIN { printf "["; for (i = 0; i < 5000; i++) printf "1,"; printf "1]" }')
err "line nested too deep" 3 "in.jsonl:2: limit exceeded: nested more than 1024 levels deep at byte 1025" "$deep"
err "line of too many tokens" 3 \
    "in.jsonl:2: limit exceeded: more than 4134 JSON values and keys on one line at byte 8268" "$wide"
printf '"ab"\n%s\n' "$deep" >"$tmp/deep_u.jsonl"
"$NPYDT" load --dtype '<U3' -o "$tmp/u.npy" "$tmp/deep_u.jsonl" 2>"$tmp/err"
case $?:$(cat "$tmp/err") in
    "3:$tmp/deep_u.jsonl:2: limit exceeded: nested more than 1024 levels deep at byte 1025") ok ;;
    *) bad "line nested too deep, general walk: $(cat "$tmp/err")" ;;
esac

# paths as keys, lists in field order, NaN as null: NumPy reads the values
printf '%s\n' '{"id":7,"pos.x":0.5,"pos.y":"-inf","s[1]":-2,"s[0]":3,"name":"a\u0000b","c":["nan",null]}' \
    '[255,[1e-45,null],[-32768,32767],"",[1.5,-0.0]]' >"$tmp/mixed.jsonl"
if "$NPYDT" load --dtype "$D" -o "$tmp/mixed.npy" "$tmp/mixed.jsonl" 2>"$tmp/err"; then ok; else bad "mixed forms: $(cat "$tmp/err")"; fi

# a CSV with quoting, a bad quote, a short row; TSV escapes
printf 'id,pos.x,pos.y,s[0],s[1],name,c\n1,1.5,2,3,4,a\\x01b,1+2j\n2,1,nan,1,1,"x,""",(1-2.5e-05j)\n' >"$tmp/in.csv"
if "$NPYDT" load --dtype "$D" -o "$tmp/csv.npy" "$tmp/in.csv" 2>"$tmp/err"; then ok; else bad "csv: $(cat "$tmp/err")"; fi
printf 'id,pos.x,pos.y,s[0],s[1],name,c\n1,1.5,2,3,4,"a"b,1+2j\n' >"$tmp/bad.csv"
"$NPYDT" load --dtype "$D" -o "$tmp/bad.npy" "$tmp/bad.csv" 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -e "$tmp/bad.npy" ] &&
    [ "$(cat "$tmp/err")" = "$tmp/bad.csv:2: syntax error: CSV: a quote inside an unquoted cell, or text after a closing quote" ] &&
    ok || bad "bad CSV quoting: $(cat "$tmp/err")"
printf 'id,pos.x,pos.y,s[0],s[1],name,c\n1,1.5,2,3,4,ab\n' >"$tmp/short.csv"
"$NPYDT" load --dtype "$D" -o "$tmp/bad.npy" "$tmp/short.csv" 2>"$tmp/err"
[ $? -eq 3 ] && [ "$(cat "$tmp/err")" = "$tmp/short.csv:2: bad key: field c: missing field (6 cells for 7 columns)" ] &&
    ok || bad "short CSV row: $(cat "$tmp/err")"
printf 'id\tpos.x\tpos.y\ts[0]\ts[1]\tname\tc\n9\t1\t2\t3\t4\ta\\tb\t0+1j\n' >"$tmp/in.tsv"
if "$NPYDT" load --dtype "$D" -o "$tmp/tsv.npy" "$tmp/in.tsv" 2>"$tmp/err"; then ok; else bad "tsv: $(cat "$tmp/err")"; fi

# CSV over many input blocks: quoted cells holding commas, quotes, LF and
# CR, rows ended by LF, CRLF or CR alone, read back to np.save's bytes
"$PYTHON" - "$tmp" <<'EOF' || bad "CSV over blocks: the inputs could not be made"
import random, sys
import numpy as np
d = sys.argv[1]
rng = random.Random(24)
words = [b'a"b', b'x,y', b'li\nne', b'cr\rx', b'plain', b'', b'q""', b'  sp ']
a = np.zeros(30000, [('i', '<i4'), ('s', 'S8'), ('f', '<f8')])
a['i'] = np.arange(len(a)) - 15000
a['f'] = np.arange(len(a)) * 0.25
a['s'] = [rng.choice(words) for _ in range(len(a))]
np.save(f'{d}/blocks.npy', a)
def cell(b):
    t = b.decode('latin-1')
    return '"' + t.replace('"', '""') + '"' if any(c in t for c in ',"\n\r ') else t
for name, ends in (('lf', ['\n']), ('cr', ['\r']), ('mixed', ['\n', '\r\n', '\r'])):
    rows = ['i,s,f'] + ['%d,%s,%r' % (r['i'], cell(bytes(r['s'])), float(r['f'])) for r in a]
    with open(f'{d}/blocks_{name}.csv', 'w', newline='') as out:
        out.write(''.join(row + rng.choice(ends) for row in rows))
EOF
for ends in lf cr mixed; do
    rm -f "$tmp/blocks_out.npy"
    if "$NPYDT" load --dtype "@$tmp/blocks.npy" -o "$tmp/blocks_out.npy" "$tmp/blocks_$ends.csv" \
        2>"$tmp/err" && cmp -s "$tmp/blocks.npy" "$tmp/blocks_out.npy"; then
        ok
    else
        bad "CSV over blocks, $ends row ends: $(cat "$tmp/err")"
    fi
done

# --shape and --fortran
seq 1 6 | "$NPYDT" load --dtype '<i8' --shape 3 --fortran -o "$tmp/f23.npy" - 2>"$tmp/err" && ok ||
    bad "--shape 3 --fortran: $(cat "$tmp/err")"
seq 1 7 | "$NPYDT" load --dtype '<i8' --shape 3 -o "$tmp/f7.npy" - 2>"$tmp/err"
[ $? -eq 3 ] && [ ! -e "$tmp/f7.npy" ] && ok || bad "7 elements in rows of 3: $(cat "$tmp/err")"

if ! "$PYTHON" -c 'import numpy' >/dev/null 2>&1; then
    echo "SKIP: load checks against NumPy (NumPy not importable by $PYTHON)"
else
    out=$("$PYTHON" tests/load_check.py --npydt "$NPYDT" --tmp "$tmp" 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -v '^load_check:' || true
    p=$(printf '%s\n' "$out" | sed -n 's/^load_check: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(printf '%s\n' "$out" | sed -n 's/^load_check: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-1}))
    [ "$rc" -eq 0 ] || [ "${f:-1}" -gt 0 ] || failed=$((failed + 1))
fi

echo "load: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

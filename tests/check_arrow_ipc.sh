#!/bin/sh
# `npydt dump --arrow` and `npydt schema --arrow`: the stream's framing,
# -o OUT against standard output, the options --arrow refuses, errors
# (no OUT left behind), and the schema's text. Values are checked by
# consumers (check_arrow_js.sh, and the library's round trip in
# tests/test_arrow_ipc.c). Prints `arrow_ipc: N passed, M failed`.
set -u
NPYDT=${NPYDT:-build/npydt}
PYTHON=${PYTHON:-/usr/bin/python3}
F=${FIXTURES:-tests/fixtures}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL arrow_ipc: $*"; }

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

hex() { od -A n -t x1 "$@" | tr -d ' \n'; }

# the stream: a continuation marker first, the end-of-stream marker last,
# a multiple of 8 bytes; -o OUT holds the bytes standard output gets
M=$F/arrow_time_struct.npy
expect "dump --arrow to stdout" 0 '' -- dump --arrow "$M"
cp "$tmp/out" "$tmp/stdout.arrow"
case $(hex -N 4 "$tmp/stdout.arrow") in
ffffffff) ok ;;
*) bad "the stream does not start with 0xFFFFFFFF" ;;
esac
size=$(wc -c <"$tmp/stdout.arrow")
[ $((size % 8)) -eq 0 ] && ok || bad "the stream is $size bytes, not a multiple of 8"
case $(tail -c 8 "$tmp/stdout.arrow" | hex) in
ffffffff00000000) ok ;;
*) bad "the stream does not end with the end-of-stream marker" ;;
esac
expect "dump --arrow -o" 0 '' -- dump --arrow -o "$tmp/o.arrow" "$M"
cmp -s "$tmp/o.arrow" "$tmp/stdout.arrow" && ok || bad "-o OUT differs from standard output"
[ ! -s "$tmp/out" ] && ok || bad "-o OUT also wrote to standard output"

# --head 0: the schema and the end marker, no batch
expect "dump --arrow --head 0" 0 '' -- dump --arrow --head 0 -o "$tmp/h0.arrow" "$M"
h0=$(wc -c <"$tmp/h0.arrow")
schema_len=$(( $(printf '%d' "0x$(hex -j 4 -N 4 "$tmp/h0.arrow" | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/')") ))
[ "$h0" -eq $((8 + schema_len + 8)) ] && ok || bad "--head 0 gives $h0 bytes, not the schema's $((8 + schema_len)) and 8"

# refusals
expect "-o without --arrow" 2 "-o OUT is for --arrow" -- dump -o "$tmp/x" "$M"
expect "--arrow --jsonl" 2 "exclude each other" -- dump --arrow --jsonl "$M"
expect "--arrow --fields of an unknown field" 2 "did you mean" -- dump --arrow --fields fla -o "$tmp/f.arrow" "$M"
[ ! -e "$tmp/f.arrow" ] && ok || bad "an unknown field left OUT behind"
expect "--arrow --fields" 0 '' -- dump --arrow --fields flag -o "$tmp/f.arrow" "$M"
[ -s "$tmp/f.arrow" ] && ok || bad "--fields wrote no stream"
expect "--arrow --nan null" 2 "keeps the values' types" -- dump --arrow --nan null "$M"
expect "--arrow of object data" 3 "cannot be dumped" -- dump --arrow -o "$tmp/obj.arrow" "$F/object_O.npy"
[ ! -e "$tmp/obj.arrow" ] && ok || bad "a refused dump left OUT behind"
# >m8[25s] goes as seconds: a count past int64 then is refused
expect "--arrow of a count past Arrow's int64" 3 \
    ": field d: record 1: 8160439180865277621 of >m8\[25s\] is beyond Arrow's int64 seconds$" -- \
    dump --arrow -o "$tmp/big.arrow" "$F/struct_mixed_kinds.npy"
[ ! -e "$tmp/big.arrow" ] && ok || bad "a count past int64 left OUT behind"

if "$PYTHON" -c 'import numpy' 2>/dev/null; then
    "$PYTHON" - "$tmp" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
np.save(d + "/surrogate.npy", np.frombuffer(b"a\0\0\0\0\xd8\0\0", dtype="<U2").reshape(1))
np.savez(d + "/two.npz", a=np.arange(3), b=np.arange(4.0))
PY
    expect "an invalid code point" 3 "record 0, field value: code point U+D800" -- \
        dump --arrow -o "$tmp/s.arrow" "$tmp/surrogate.npy"
    [ ! -e "$tmp/s.arrow" ] && ok || bad "a failed dump left OUT behind"
    expect "an archive of two" 2 "name one as" -- dump --arrow "$tmp/two.npz"
    expect "an archive member" 0 '' -- dump --arrow -o "$tmp/b.arrow" "$tmp/two.npz:b"
    expect "schema --arrow of an archive of two" 2 "name one as" -- schema --arrow "$tmp/two.npz"
fi

# schema --arrow: a line per field
expect "schema --arrow" 0 '' -- schema --arrow "$F/struct_mixed_kinds.npy"
cat >"$tmp/want" <<'TXT'
"flag" b {"npydt.dtype": "|b1"}
"t" tsm: nullable {"npydt.dtype": "<M8[ms]"}
"d" tDs nullable {"npydt.dtype": ">m8[25s]"}
"u" u {"npydt.dtype": "<U2"}
"ub" u {"npydt.dtype": ">U2"}
"v" w:3 {"npydt.dtype": "|V3"}
"s" w:3 {"npydt.dtype": "|S3"}
TXT
cmp -s "$tmp/out" "$tmp/want" && ok || { bad "schema --arrow differs:"; diff "$tmp/want" "$tmp/out"; }
expect "schema --arrow nested" 0 '' -- schema --arrow "$F/struct_nested_subarray.npy"
printf '%s\n' '"x" +w:3 {"npydt.shape": "(3,)"}' '  "item" +w:2 {"npydt.shape": "(2,)"}' \
    '    "item" g {"npydt.dtype": "<f8"}' >"$tmp/want"
cmp -s "$tmp/out" "$tmp/want" && ok || { bad "schema --arrow nested differs:"; diff "$tmp/want" "$tmp/out"; }
expect "schema --arrow --exact-shape" 2 "exclude each other" -- schema --arrow --exact-shape "$F/struct_mixed_kinds.npy"
expect "schema --arrow of object data" 3 "Arrow cannot hold it" -- schema --arrow "$F/object_O.npy"

echo "arrow_ipc: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

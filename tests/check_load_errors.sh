#!/bin/sh
# `npydt load` and `npydt append`, the input side: every way an argument,
# a --dtype SPEC, a JSON line, a CSV or TSV row or a value is refused, with
# the exact message (naming the line), the exit status (2 for usage and
# I/O, 3 for invalid input) and no output file; and the forms each format
# accepts (CSV quoting and escapes, TSV escapes, NumPy's spellings of
# booleans, specials and complex values, \r\n line ends, blank lines,
# standard input, --csv / --tsv on a pipe), checked by the values dump
# --jsonl prints back. Prints `load-errors: N passed, M failed`.
set -u
NPYDT=${NPYDT:-build/npydt}
case $NPYDT in /*) ;; *) NPYDT=$(pwd)/$NPYDT ;; esac
F=$(pwd)/tests/fixtures
Z=$(pwd)/tests/fixtures_npz
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL load-errors: $*"; }

# put FILE LINE...: FILE holds the lines
put() {
    f=$1
    shift
    printf '%s\n' "$@" >"$f"
}

# refuse NAME STATUS 'STDERR' ARGS...: npydt ARGS exits STATUS with exactly
# STDERR, prints nothing on stdout and leaves no out.npy (nor a temporary
# file) behind
refuse() {
    name=$1 status=$2 want=$3
    shift 3
    rm -f out.npy
    "$NPYDT" "$@" >stdout 2>stderr
    rc=$?
    printf '%s\n' "$want" >want
    if [ "$rc" -ne "$status" ]; then
        bad "$name: exit $rc, expected $status: $(cat stderr)"
    elif ! cmp -s stderr want; then
        bad "$name: stderr '$(cat stderr)', expected '$want'"
    elif [ -s stdout ] || [ -e out.npy ] || ls -A | grep -q npydt; then
        bad "$name: output written"
    else
        ok
    fi
}

# loads NAME 'JSONL' ARGS...: npydt ARGS (a load to out.npy) succeeds
# silently, and dump --jsonl prints JSONL (lines separated by \n) for it
loads() {
    name=$1 want=$2
    shift 2
    rm -f out.npy
    if ! "$NPYDT" "$@" >stdout 2>stderr || [ -s stderr ] || [ -s stdout ]; then
        bad "$name: $(cat stderr)"
        return
    fi
    if [ -n "$want" ]; then printf '%s\n' "$want" >want; else : >want; fi
    if "$NPYDT" dump --jsonl out.npy | cmp -s - want; then ok; else
        bad "$name: dump gives '$("$NPYDT" dump --jsonl out.npy)', expected '$want'"
    fi
}

# shape_is NAME 'SHAPE': inspect's shape line of out.npy
shape_is() {
    got=$("$NPYDT" inspect out.npy | sed -n 's/^  shape  *//p')
    [ "$got" = "$2" ] && ok || bad "$1: shape $got, expected $2"
}

# ---- arguments ------------------------------------------------------------------

put one.jsonl 1
put two.jsonl 1 2
put in2.csv value 1 2
refuse "two inputs" 2 "npydt: load: one input at most
Try 'npydt load --help'." load --dtype '<i4' -o out.npy one.jsonl two.jsonl
refuse "no -o" 2 "npydt: load: -o OUT is required
Try 'npydt load --help'." load --dtype '<i4' one.jsonl
refuse "no --dtype" 2 "npydt: load: --dtype SPEC is required
Try 'npydt load --help'." load -o out.npy one.jsonl
refuse "two formats" 2 "npydt: load: --jsonl, --csv and --tsv exclude each other
Try 'npydt load --help'." load --dtype '<i4' -o out.npy --jsonl --csv one.jsonl
refuse "unknown option" 2 "npydt: load: unknown option '--bogus'
Try 'npydt load --help'." load --dtype '<i4' -o out.npy --bogus one.jsonl
refuse "missing input" 2 "missing.jsonl: i/o error: cannot open: No such file or directory" \
    load --dtype '<i4' -o out.npy missing.jsonl
refuse "--shape with a letter" 2 "npydt: load: --shape '3,x': give dimensions as 3,4
Try 'npydt load --help'." \
    load --dtype '<i4' -o out.npy --shape 3,x one.jsonl
loads "--csv given twice" "1
2" load --csv --csv --dtype '<i4' -o out.npy in2.csv
refuse "--shape not digits" 2 "npydt: load: --shape 'x': give dimensions as 3,4
Try 'npydt load --help'." \
    load --dtype '<i4' -o out.npy --shape x one.jsonl
refuse "--shape of 65 dimensions" 2 \
    "npydt: load: --shape '$(seq -s, 1 65 | sed 's/[0-9]*/1/g')': give dimensions as 3,4
Try 'npydt load --help'." \
    load --dtype '<i4' -o out.npy --shape "$(seq -s, 1 65 | sed 's/[0-9]*/1/g')" one.jsonl
refuse "--shape too large" 2 "npydt: load: --shape '99999999999999999999999': a dimension too large
Try 'npydt load --help'." \
    load --dtype '<i4' -o out.npy --shape 99999999999999999999999 one.jsonl
refuse "--shape product overflows" 3 "out.npy: overflow: the dimensions' product overflows" \
    load --dtype '<i4' -o out.npy --shape 4294967296,4294967296 one.jsonl
refuse "--shape () of two elements" 3 "out.npy: bad shape: a 0-d array holds one element; the input has 2" \
    load --dtype '<i4' -o out.npy --shape '()' two.jsonl
loads "--shape () of one element" 1 load --dtype '<i4' -o out.npy --shape '()' one.jsonl
loads "--shape ' (1, 2)'" "1
2" load --dtype '<i4' -o out.npy --shape ' (1, 2)' two.jsonl
shape_is "--shape ' (1, 2)'" "(1, 1, 2), C order, 2 elements, 8 data bytes"
loads "--fortran of a 1-d array" "1
2" load --dtype '<i4' -o out.npy --fortran two.jsonl
: >empty.jsonl
loads "--shape 0 --fortran of no elements" "" load --dtype '<i4' -o out.npy --shape 0 --fortran empty.jsonl
shape_is "--shape 0 --fortran of no elements" "(0, 0), Fortran order, 0 elements, 0 data bytes"
loads "--no-sync" "1" load --no-sync --dtype '<i4' -o out.npy one.jsonl

# ---- --dtype SPEC -----------------------------------------------------------------

refuse "object dtype" 3 "one.jsonl: object dtype: object fields cannot be loaded" \
    load --dtype 'O' -o out.npy one.jsonl
refuse "a record of too many scalars" 3 \
    "one.jsonl: limit exceeded: a record of more than 67108864 scalar elements" \
    load --dtype "('u1', (100000000,))" -o out.npy one.jsonl
# refused before anything is allocated for the record: in 100 MB of
# address space (no sanitizer or emulator, which need more), not after
# taking a GB for its slots
limited() {
    if [ -n "${SANITIZE:-}" ] || [ -n "${EXEC:-}" ]; then
        "$NPYDT" "$@"
    else
        (ulimit -v 100000; exec "$NPYDT" "$@")
    fi
}
rm -f out.npy
limited load --dtype "[('a', [('x', 'u1', (9000,))], (9000,))]" -o out.npy one.jsonl >stdout 2>stderr
case $?:$(cat stderr) in
"3:one.jsonl: limit exceeded: a record of more than 67108864 scalar elements") ok ;;
*) bad "81 million scalars in nested subarrays, in 100 MB: $(cat stderr)" ;;
esac
refuse "a spec with no dtype" 2 "npydt: load: --dtype: the spec gives no dtype
Try 'npydt load --help'." \
    load --dtype "{'shape': (3,)}" -o out.npy one.jsonl
refuse "a spec that does not parse" 3 "--dtype: syntax error: spec offset 7: unexpected character '<'" \
    load --dtype "[('a', <i4)]" -o out.npy one.jsonl
refuse "@PATH missing" 2 "missing.txt: i/o error: --dtype: cannot read: No such file or directory" \
    load --dtype @missing.txt -o out.npy one.jsonl
refuse "@ARCHIVE of several arrays" 2 \
    "npydt: load: --dtype: '$Z/savez.npz' holds 11 arrays: name one as '$Z/savez.npz:NAME'
Try 'npydt load --help'." \
    load --dtype "@$Z/savez.npz" -o out.npy one.jsonl
refuse "like:FILE missing" 2 "nothere.npy: i/o error: cannot open: No such file or directory" \
    load --dtype like:nothere.npy -o out.npy one.jsonl
printf '\223NUMPY\001\000\010\000{bad}   \n' >broken.npy
refuse "like:FILE not a .npy" 3 "broken.npy: syntax error: header offset 1: name 'bad' is not a literal" \
    load --dtype like:broken.npy -o out.npy one.jsonl

# ---- JSON Lines -------------------------------------------------------------------

# json NAME DTYPE 'STDERR' LINE: the line refused, as line 2 of in.jsonl
# after a blank line (blank lines count, and are skipped)
json() {
    put in.jsonl "" "$4"
    refuse "$1" 3 "in.jsonl:2: $3" load --dtype "$2" -o out.npy in.jsonl
}
S='[("p", [("x", "u1")]), ("q", "u1")]'
json "a list for an integer" '<i4' 'bad value: a list is not a value of <i4' '[1]'
json "not a JSON value" '<i4' "syntax error: 'nul' is not a JSON value" 'nul'
json "not a JSON value in a complex" '<c16' "syntax error: 'nul' is not a JSON value" '[1,nul]'
json "a CR before a bare number" '<u4' "syntax error: '\\r\\r0' is not a JSON value" "$(printf '\r\r0')"
json "a CR before an object" '[("a", "<u4")]' \
    "bad value: expected an object or a list of the fields' values" "$(printf '\r{"a":1}')"
json "a list inside a complex" '<c16' 'bad value: a list is not a value of <c16' '[1,[2]]'
json "an object for a complex" '<c16' 'bad value: an object is not a value of <c16' '{"a":1}'
json "a word for a complex part" '<c16' 'bad value: "abc" is not a value of <c16' '[1,"abc"]'
json "a malformed number in a complex" '<c16' 'syntax error: 1.2.3 is not a JSON number, for <c16' '[1.2.3,1]'
json "true for a complex part" '<c16' 'bad value: true is not a value of <c16' '[true,1]'
json "a malformed number" '<f8' 'syntax error: 1.2.3 is not a JSON number, for <f8' '1.2.3'
json "a number past 800 digits" '<f8' \
    'out of range: 1000000000000000000000000000000000000000... is too long a number for <f8' \
    "1$(printf '%0900d' 0).5"
json "a long word for a float" '<f8' \
    'bad value: "0000000000000000000000000000000000000000..." is not a value of <f8' \
    "\"$(printf '%050d' 0)\""
json "a number for bytes" 'S3' 'bad value: 12 is a number, not a string for |S3' '12'
json "a leading zero" 'S3' 'syntax error: 012 is not a JSON number, for |S3' '012'
json "true for a datetime" '<M8[s]' 'bad value: true is not a value of <M8[s]' 'true'
json "a fraction for a datetime" '<M8[s]' 'bad value: 1.5 is not an integer count of <M8[s]' '1.5'
json "null for bytes" 'S3' 'bad value: null is not a value of |S3' 'null'
json "false for bytes" 'S3' 'bad value: false is not a value of |S3' 'false'
json "an int64 too small" '<i8' 'out of range: -9223372036854775809 does not fit <i8' '-9223372036854775809'
json "a uint64 too large" '<u8' 'out of range: 99999999999999999999 does not fit <u8' '99999999999999999999'
json "V not hex" 'V300' \
    'bad value: "0000000000000000000000000000000000000000..." is not hex text for |V300' \
    "\"$(printf '%0598d' 0)zz\""
json "an unknown key of a nested struct at offset 0" "$S" "bad key: field p: unknown field 'z'" \
    '{"p":{"z":1},"q":1}'
json "a number for a struct" "$S" "bad value: field p: expected an object or a list of the fields' values" \
    '{"p":5,"q":1}'
json "a bad value in a list of fields" "$S" 'out of range: field p.x: 300 does not fit u1 (0 to 255)' \
    '[[300],1]'
json "a number for a subarray" '[("g", "<i2", (2,))]' 'bad value: field g: expected a list of 2 values' \
    '{"g":5}'
json "a 2-d subarray element named" '[("g", "<i2", (2, 2))]' \
    'bad value: field g[1,1]: "x" is not a value of <i2' '{"g":[[1,2],[3,"x"]]}'

json "a bad primitive" '<i4' "syntax error: '+1' is not a JSON value" '+1'
json "a long bad primitive" '<i4' \
    "syntax error: 'nullnullnullnullnullnullnullnullnullnull' is not a JSON value" \
    'nullnullnullnullnullnullnullnullnullnullnullnull'
json "not a JSON value as the real part" '<c16' "syntax error: 'nul' is not a JSON value" '[nul,1]'
json "an object inside a complex" '<c16' 'bad value: a list is not a value of <c16' '[{},1]'
json "an object as the imaginary part" '<c16' 'bad value: a list is not a value of <c16' '[1,{}]'
json "a complex given twice" '[("c", "<c8")]' 'bad key: field c: given twice' '{"c":[1,2],"c":[3,4]}'
json "a leading zero for an integer" '<i4' 'syntax error: -01 is not a JSON number, for <i4' '-01'
json "a fraction for a timedelta" '<m8[s]' 'bad value: 1.5 is not an integer count of <m8[s]' '1.5'
json "true for a timedelta" '<m8[s]' 'bad value: true is not a value of <m8[s]' 'true'
json "true for unicode" '<U2' 'bad value: true is not a value of <U2' 'true'
json "false for void" 'V2' 'bad value: false is not a value of |V2' 'false'
json "a number for unicode" '<U3' 'bad value: 12 is a number, not a string for <U3' '12'
json "a number for void" 'V2' 'bad value: 12 is a number, not a string for |V2' '12'
json "NaX for a datetime" '<M8[s]' 'bad value: "NaX" is not a count or "NaT" for <M8[s]' '"NaX"'
json "V not hex, upper case" 'V2' 'bad value: "0G0g" is not hex text for |V2' '"0G0g"'
json "V far too long" 'V2' \
    "out of range: \"$(printf '%040d' 0)...\" is not 4 hex digits for |V2" "\"$(printf '%050d' 0)\""
json "an empty list for a subarray of 300,000" '[("big", "<i4", (300000,))]' \
    'bad value: field big: expected a list of 300000 values' '{"big":[]}'
json "a NUL in a field's name, escaped in its path" "[('a\\x00b', 'u1'), ('b', 'u1')]" \
    'bad key: field a\x00b: missing field' '{"b":1}'
json "a path cut at 255 bytes" "[('$(printf 'n%.0s' $(seq 300))', [('x', 'u1')])]" \
    "bad key: field $(printf 'n%.0s' $(seq 255)): missing field" "{\"$(printf 'n%.0s' $(seq 300))\":{}}"
json "an empty field left out" "[('z', 'S0'), ('s', 'u1', (1,)), ('w', 'V0')]" \
    'bad key: field z: missing field' '{"s":[1]}'
json "a long unknown key" '[("a", "u1")]' \
    "bad key: unknown field '$(printf 'k%.0s' $(seq 100))'" "{\"$(printf 'k%.0s' $(seq 120))\":1}"
json "a key with a NUL: no suggestion" '[("ab", "u1")]' "bad key: unknown field 'a'" '{"a\u0000":1}'

put in.jsonl '"-nan"' '1e2' '1E2' 'false' null
loads "-nan, exponents for integers, false" '"nan"
100.0
100.0
0.0
"nan"' load --dtype '<f8' -o out.npy in.jsonl
put in.jsonl '1e2' '1E2' 'false' 'true'
loads "exponents for integers, booleans" '100
100
0
1' load --dtype '<i4' -o out.npy in.jsonl
put in.jsonl null
loads "null for a timedelta" '"NaT"' load --dtype '<m8[s]' -o out.npy in.jsonl
put in.jsonl '{"s":[1],"z":"","w":""}'
loads "empty fields given" '{"z":"","s":[1],"w":""}' \
    load --dtype "[('z', 'S0'), ('s', 'u1', (1,)), ('w', 'V0')]" -o out.npy in.jsonl
put in.jsonl '{"T":1}' '{"a":2}'
loads "a field by its title" '{"a":1}
{"a":2}' load --dtype "[(('T', 'a'), 'u1')]" -o out.npy in.jsonl
put in.jsonl '""' '"ab"'
loads "records of more than the 1 MiB block" '""
"ab"' load --dtype S1100000 -o out.npy in.jsonl
seq 1 150000 >many.jsonl
"$NPYDT" load --dtype '<i8' -o out.npy many.jsonl 2>stderr && [ ! -s stderr ] &&
    [ "$("$NPYDT" dump --jsonl out.npy | sed -n '1p;131072p;131073p;150000p' | tr '\n' ' ')" = "1 131072 131073 150000 " ] &&
    ok || bad "records in several blocks: $(cat stderr)"

put in.jsonl '{"p":{"x":1},"q":1}' '   ' '' '	 {"p":{"x":2},"q":2}'
loads "blank lines and indented lines" '{"p":{"x":1},"q":1}
{"p":{"x":2},"q":2}' load --dtype "$S" -o out.npy in.jsonl
printf '1\r\n2\r\n' >crlf.jsonl
loads "CR LF line ends" "1
2" load --dtype '<i4' -o out.npy crlf.jsonl
put in.jsonl '"\ud83d\ude00\b\t"' '"\ud83dx"' '"\ud83d\u0041"'
loads "surrogate pairs, lone surrogates, \\b and \\t" '"😀\b\t"
"\ud83dx"
"\ud83dA"' load --dtype '<U4' -o out.npy in.jsonl
put in.jsonl '"\u00AB\u00cd"'
loads "byte escapes in either case" '"\u00ab\u00cd"' load --dtype S2 -o out.npy in.jsonl
put in.jsonl '"NaN"' '"-INF"' '"+Infinity"'
loads "float names in any case" '"nan"
"-inf"
"inf"' load --dtype '<f4' -o out.npy in.jsonl
put in.jsonl null '"NaT"'
loads "null and NaT for a datetime" '"NaT"
"NaT"' load --dtype '<M8[s]' -o out.npy in.jsonl
put in.jsonl '{"g":[[],[]]}'
loads "an empty subarray" '{"g":[[],[]]}' load --dtype '[("g", "<i2", (2, 0))]' -o out.npy in.jsonl
put in.jsonl "\"$(printf '%0600d' 0)\"" "\"$(printf '%0598d' 0)AB\""
loads "V of 300 bytes, hex in either case" "\"$(printf '%0600d' 0)\"
\"$(printf '%0598d' 0)ab\"" load --dtype V300 -o out.npy in.jsonl
printf '1\n2' | "$NPYDT" load --dtype '<i4' -o out.npy 2>stderr && [ ! -s stderr ] &&
    [ "$("$NPYDT" dump --jsonl out.npy | tr '\n' ' ')" = "1 2 " ] && ok ||
    bad "no input: standard input, a last line without LF: $(cat stderr)"

# ---- CSV and TSV -------------------------------------------------------------------

D="[('b', '?'), ('f', '<f8'), ('c', '<c16'), ('s', 'S4'), ('v', 'V2'), ('t', '<M8[s]'), ('i', '<i8'), ('u', '<u8')]"
# csv NAME 'STDERR' ROW: the row refused, as row 2 of in.csv
csv() {
    put in.csv 'b,f,c,s,v,t,i,u' "$3"
    refuse "CSV $1" 3 "in.csv:2: $2" load --dtype "$D" -o out.npy in.csv
}
csv "not a boolean" 'bad value: field b: "Tru" is not a value of |b1' 'Tru,1,1,a,abcd,1,1,1'
csv "an imaginary part alone" 'bad value: field c: "1j" is not a value of <c16' 'true,1,1j,a,abcd,1,1,1'
csv "j alone" 'bad value: field c: "j" is not a value of <c16' 'true,1,j,a,abcd,1,1,1'
csv "a word as the real part" 'bad value: field c: "abc" is not a value of <c16' 'true,1,abc+1j,a,abcd,1,1,1'
csv "a word as the imaginary part" 'bad value: field c: "abc" is not a value of <c16' \
    'true,1,1+abcj,a,abcd,1,1,1'
csv "more cells than columns" 'bad value: more cells than the 8 columns of the header' \
    'true,1,1,a,abcd,1,1,1,9'
csv "V not hex" 'bad value: field v: "abzz" is not hex text for |V2' 'true,1,1,a,abzz,1,1,1'
csv "V too short" 'out of range: field v: "abc" is not 4 hex digits for |V2' 'true,1,1,a,abc,1,1,1'
csv "a word for a datetime" 'bad value: field t: "xyz" is not a count or "NaT" for <M8[s]' \
    'true,1,1,a,abcd,xyz,1,1'
csv "a leading zero" 'bad value: field i: "012" is not a value of <i8' 'true,1,1,a,abcd,1,012,1'
csv "an empty integer cell" 'bad value: field i: null is not a value of <i8' 'true,1,1,a,abcd,1,,1'
csv "a word for a float" 'bad value: field f: "abc" is not a value of <f8' 'true,abc,1,a,abcd,1,1,1'
csv "an escaped S too long" "out of range: field s: '\\xab\\\\xzz\\x09\\x0a\\x0d\\\\' is longer than S4 (9 bytes)" \
    'True,NaN,1e+05+2j,\xAB\xzz\t\n\r\\,ABcd,NaT,1,1'
csv "a quote not closed" 'syntax error: CSV: a quoted cell is not closed' 'true,1,1,a,abcd,1,1,"1'

put in.csv 'b,f,c,s,v,t,i,u' 'True,NaN,1e+05+2j,\xAB\t\\,ABcd,NaT,-9223372036854775808,18446744073709551615' \
    'true,-Infinity,+1.5,a,abcd,,1,1' 'false,INF,(1-infj),"x,""y",abcd,1,1,1' 'False,,,,abcd,1,1,1' \
    '1,1,1,a,abcd,1,1,1'
loads "CSV: NumPy's spellings" '{"b":true,"f":"nan","c":[100000.0,2.0],"s":"\u00ab\t\\","v":"abcd","t":"NaT","i":-9223372036854775808,"u":18446744073709551615}
{"b":true,"f":"-inf","c":[1.5,0.0],"s":"a","v":"abcd","t":"NaT","i":1,"u":1}
{"b":false,"f":"inf","c":[1.0,"-inf"],"s":"x,\"y","v":"abcd","t":1,"i":1,"u":1}
{"b":false,"f":"nan","c":["nan",0.0],"s":"","v":"abcd","t":1,"i":1,"u":1}
{"b":true,"f":1.0,"c":[1.0,0.0],"s":"a","v":"abcd","t":1,"i":1,"u":1}' load --dtype "$D" -o out.npy in.csv

put in.csv 'c,s' '1E+05+2j,\x4G\q\' '"(1+2j",a'
refuse "CSV: an open parenthesis alone, after an earlier row" 3 \
    'in.csv:3: bad value: field c: "(1" is not a value of <c16' \
    load --dtype "[('c', '<c16'), ('s', 'S8')]" -o out.npy in.csv
put in.csv 'c,s' '1E+05+2j,\x4G\q\'
loads "CSV: E+ in a complex, escapes not taken" '{"c":[100000.0,2.0],"s":"\\x4G\\q\\"}' \
    load --dtype "[('c', '<c16'), ('s', 'S8')]" -o out.npy in.csv
put in.csv b Fa
refuse "CSV: the start of False" 3 'in.csv:2: bad value: field b: "Fa" is not a value of |b1' \
    load --dtype "[('b', '?')]" -o out.npy in.csv
put in.csv a 1 x '"'
refuse "CSV: a bad value, then a stray quote in the same block" 3 \
    'in.csv:3: bad value: field a: "x" is not a value of |u1' load --dtype "[('a', 'u1')]" -o out.npy in.csv
put in.csv ',a' 1
refuse "CSV: an empty first header cell (the whole record)" 3 \
    "in.csv:1: bad value: column '' holds more than one value: name its elements" \
    load --dtype "[('a', 'u1')]" -o out.npy in.csv
L=$(printf 'n%.0s' $(seq 101))
put in.csv "$L" 1
refuse "CSV: a long name of a subarray column" 3 \
    "in.csv:1: bad value: column '$(printf 'n%.0s' $(seq 100))' holds more than one value: name its elements" \
    load --dtype "[('$L', 'u1', (2,))]" -o out.npy in.csv
put v.csv valuf 1
refuse "CSV: a column almost named value" 3 "v.csv:1: bad key: unknown field 'valuf'" \
    load --dtype '<i4' -o out.npy v.csv
printf 'a\tb\nx\\\t\\q\n' >in.tsv
loads "TSV: a backslash ending a cell, an unknown escape" '{"a":"x\\","b":"\\q"}' \
    load --dtype "[('a', 'S4'), ('b', 'S4')]" -o out.npy in.tsv
put v.csv value 1 2
loads "CSV: value, the column of an array without fields" "1
2" load --dtype '<i4' -o out.npy v.csv
put v.csv x 1
refuse "CSV: an unknown column of an array without fields" 3 "v.csv:1: bad key: unknown field 'x'" \
    load --dtype '<i4' -o out.npy v.csv
put v.csv a,a 1,2
refuse "CSV: a column twice" 3 "v.csv:2: bad key: field a: given twice" \
    load --dtype "[('a', 'u1')]" -o out.npy v.csv
put v.csv a 1
refuse "CSV: a field without a column" 3 "v.csv:2: bad key: field b: missing field" \
    load --dtype "[('a', 'u1'), ('b', 'u1')]" -o out.npy v.csv
put v.csv s,zz,a 1
refuse "CSV: a column of a subarray" 3 \
    "v.csv:1: bad value: column 's' holds more than one value: name its elements" \
    load --dtype "[('a', 'u1'), ('s', 'u1', (2,))]" -o out.npy v.csv
put v.csv 'a[x]' 1
refuse "CSV: a column path that does not parse" 3 "v.csv:1: bad key: unknown field 'a[x]'" \
    load --dtype "[('a', 'u1', (2,))]" -o out.npy v.csv
: >e.csv
refuse "CSV: no header row" 3 "e.csv:1: bad value: no header row" load --dtype "[('a', 'u1')]" -o out.npy e.csv
printf '\r\n\n' >e.csv
refuse "CSV: only empty lines" 3 "e.csv:1: bad value: no header row" \
    load --dtype "[('a', 'u1')]" -o out.npy e.csv
: >e.tsv
refuse "TSV: no header row" 3 "e.tsv: bad value: no header row" load --dtype "[('a', 'u1')]" -o out.npy e.tsv

printf 'a\tb\r\n\r\n1\t\\t\\n\\r\\\\\\x\r\n' >x.tab
loads "TSV (.tab): escapes, CR LF, blank lines" '{"a":1,"b":"\t\n\r\\x"}' \
    load --dtype "[('a', 'u1'), ('b', 'S8')]" -o out.npy x.tab
printf 'a,b\n1,2\n' | "$NPYDT" load --csv --dtype "[('a', 'u1'), ('b', 'u1')]" -o out.npy - 2>stderr &&
    [ "$("$NPYDT" dump --jsonl out.npy)" = '{"a":1,"b":2}' ] && ok || bad "--csv on a pipe: $(cat stderr)"
printf 'a\tb\n1\t2\n' | "$NPYDT" load --tsv --dtype "[('a', 'u1'), ('b', 'u1')]" -o out.npy 2>stderr &&
    [ "$("$NPYDT" dump --jsonl out.npy)" = '{"a":1,"b":2}' ] && ok || bad "--tsv on a pipe: $(cat stderr)"
rm -f out.npy
printf 'a\tb\n1\t2\n' | "$NPYDT" load --jsonl --dtype "[('a', 'u1'), ('b', 'u1')]" -o out.npy - 2>stderr
[ $? -eq 3 ] && [ ! -e out.npy ] &&
    [ "$(cat stderr)" = "<stdin>:1: bad value: expected an object or a list of the fields' values" ] && ok ||
    bad "--jsonl on TSV: $(cat stderr)"

# a suggestion looks at every field, not only the first ones
W=$(awk 'BEGIN { printf "["; for (i = 0; i < 70; i++) printf "%s(\"f%d\", \"u1\")", i ? ", " : "", i; printf "]" }')
awk 'BEGIN { for (i = 0; i < 70; i++) printf "f%d,", i; print "f69x" }' >w.csv
refuse "CSV: the nearest of 70 field names" 3 "w.csv:1: bad key: unknown field 'f69x' (did you mean 'f69'?)" \
    load --dtype "$W" -o out.npy w.csv

# ---- append ---------------------------------------------------------------------

cp "$F/struct_simple.npy" app.npy 2>/dev/null || "$NPYDT" load --dtype '<i4' -o app.npy two.jsonl
cp app.npy app.ref
# refuse_append NAME STATUS 'STDERR' ARGS...: as refuse, and app.npy as it was
refuse_append() {
    refuse "$@"
    cmp -s app.npy app.ref && ok || bad "append $1: app.npy changed"
}
refuse_append "append: unknown option" 2 "npydt: append: unknown option '--bogus'
Try 'npydt append --help'." append --bogus app.npy one.jsonl
refuse_append "append: no FILE" 2 "npydt: append: FILE.npy is required
Try 'npydt append --help'." append
refuse_append "append: two inputs" 2 "npydt: append: one input at most
Try 'npydt append --help'." append app.npy one.jsonl two.jsonl
refuse_append "append: two formats" 2 "npydt: append: --jsonl, --csv and --tsv exclude each other
Try 'npydt append --help'." append --csv --tsv app.npy one.jsonl
refuse "append: FILE missing" 2 "nothere.npy: i/o error: cannot open: No such file or directory" \
    append nothere.npy one.jsonl
"$NPYDT" load --dtype '<i4' --shape '()' -o zero.npy one.jsonl
refuse "append: a 0-d array" 3 "zero.npy: bad shape: a 0-d array cannot grow" append zero.npy one.jsonl
"$NPYDT" load --dtype '<i4' --shape 2 -o rows.npy two.jsonl
cp rows.npy rows.ref
put three.jsonl 1 2 3
refuse "append: not whole rows" 3 \
    "rows.npy: bad shape: 3 elements do not fill whole steps of 2 along the growth axis" \
    append rows.npy three.jsonl
cmp -s rows.npy rows.ref && ok || bad "append: not whole rows: rows.npy changed"
"$NPYDT" load --dtype '<i4' --shape 2 --fortran -o frows.npy two.jsonl
printf 'value\n5\n6\n' | "$NPYDT" append --no-sync --csv frows.npy - 2>stderr &&
    [ "$("$NPYDT" dump --jsonl frows.npy | tr '\n' ' ')" = "1 5 2 6 " ] && ok ||
    bad "append --csv to a Fortran-order file from a pipe: $(cat stderr)"

"$NPYDT" load --dtype '<i4' -o std.npy one.jsonl
"$NPYDT" append std.npy <two.jsonl 2>stderr &&
    [ "$("$NPYDT" dump --jsonl std.npy | tr '\n' ' ')" = "1 1 2 " ] && ok ||
    bad "append from standard input: $(cat stderr)"

echo "load-errors: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# npydt cstruct: command-line behaviour (exit statuses, options, --descr),
# then tests/cstruct_check.py, which compiles the output for every fixture
# with gcc and clang at -Werror and reads the records through a cast.
# Prints "cstruct: N passed, M failed" (the compile part prints a SKIP line
# when NumPy or the compilers are missing).
set -u
NPYDT=${NPYDT:-build/npydt}
FIXTURES=${FIXTURES:-tests/fixtures}
PYTHON=${PYTHON:-/usr/bin/python3}
here=$(dirname "$0")
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL cstruct: $*"; }

# expect STATUS WHAT CMD...: exit status STATUS; on failure nothing on
# stdout and a "PATH: WHAT: DETAIL" line on stderr.
expect() {
    want=$1 what=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        bad "$what: exit $got, want $want ($(head -c 300 "$tmp/err"))"
    elif [ "$want" -ne 0 ] && [ -s "$tmp/out" ]; then
        bad "$what: wrote to stdout on failure"
    elif [ "$want" -ne 0 ] && ! grep -q ': ' "$tmp/err"; then
        bad "$what: no 'PATH: WHAT: DETAIL' line on stderr"
    else
        ok
    fi
}

# has WHAT TEXT: the last command's stdout contains TEXT (fixed string)
has() {
    if grep -qF -- "$2" "$tmp/out"; then ok; else bad "$1: output lacks '$2'"; fi
}

# the compilers for the machine the command runs on: the cross compiler
# under an emulator (EXEC, see tests/run_tests.sh; $CC may hold options, as
# in "clang --target=s390x-linux-gnu"), else gcc and clang
if [ -n "${EXEC:-}" ]; then compilers=cross; else compilers="gcc clang"; fi
compiler() {  # compiler NAME: the command line of one of $compilers
    if [ "$1" = cross ]; then echo "$CC"; else echo "$1"; fi
}
# and C++ compilers for the same machine ($CXX under an emulator, if set)
if [ -n "${EXEC:-}" ]; then cxx_compilers=${CXX:-}; else cxx_compilers="g++ clang++"; fi

# compiles WHAT: the last command's stdout compiles cleanly, as C11 and as
# C++11
compiles() {
    cp "$tmp/out" "$tmp/decl.h"
    printf '#include "decl.h"\nint main(void) { return 0; }\n' >"$tmp/decl.c"
    cp "$tmp/decl.c" "$tmp/decl.cc"
    for c in $compilers; do
        cc=$(compiler "$c")
        command -v "${cc%% *}" >/dev/null 2>&1 || continue
        if $cc -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only "$tmp/decl.c" 2>"$tmp/cc"; then
            ok
        else
            bad "$1: $cc: $(head -c 400 "$tmp/cc")"
        fi
    done
    for cxx in $cxx_compilers; do
        command -v "${cxx%% *}" >/dev/null 2>&1 || continue
        if $cxx -std=c++11 -Wall -Wextra -Werror -pedantic -fsyntax-only "$tmp/decl.cc" 2>"$tmp/cc"; then
            ok
        else
            bad "$1 as C++: $cxx: $(head -c 400 "$tmp/cc")"
        fi
    done
}

# --- errors --------------------------------------------------------------
expect 3 "object dtype" "$NPYDT" cstruct "$FIXTURES/object_O.npy"
expect 3 "object field in a struct" "$NPYDT" cstruct "$FIXTURES/object_in_struct.npy"
if grep -q 'field o' "$tmp/err"; then ok; else bad "object field: error does not name field o"; fi
expect 3 "object field in --descr" "$NPYDT" cstruct --descr "[('a', '<i4'), ('o', '|O')]"
expect 2 "missing file" "$NPYDT" cstruct "$tmp/no-such-file.npy"
expect 2 "directory as FILE" "$NPYDT" cstruct "$tmp"
expect 2 "no FILE on a terminal" "${PYTHON:-/usr/bin/python3}" tests/tools/on_tty.py "$NPYDT" cstruct
expect 2 "unknown option" "$NPYDT" cstruct --frobnicate "$FIXTURES/struct_simple.npy"
expect 2 "--name without value" "$NPYDT" cstruct "$FIXTURES/struct_simple.npy" --name
expect 2 "--name keyword" "$NPYDT" cstruct --name int "$FIXTURES/struct_simple.npy"
expect 2 "--name not an identifier" "$NPYDT" cstruct --name 1rec "$FIXTURES/struct_simple.npy"
expect 2 "--name reserved" "$NPYDT" cstruct --name __rec "$FIXTURES/struct_simple.npy"
expect 2 "FILE and --descr" "$NPYDT" cstruct --descr "<f8" "$FIXTURES/struct_simple.npy"
expect 2 "two FILEs" "$NPYDT" cstruct "$FIXTURES/struct_simple.npy" "$FIXTURES/struct_simple.npy"
expect 3 "truncated --descr" "$NPYDT" cstruct --descr "[('x',"
expect 3 "bad type string" "$NPYDT" cstruct --descr "i4, q9"
nbad=0
for f in "$FIXTURES"/bad/*.npy; do
    [ -e "$f" ] || continue
    "$NPYDT" cstruct "$f" >"$tmp/out" 2>"$tmp/err"
    s=$?
    if [ "$s" -ne 3 ] || [ -s "$tmp/out" ]; then
        bad "$f: exit $s (want 3, nothing on stdout)"
        nbad=$((nbad + 1))
    fi
done
[ "$nbad" -eq 0 ] && ok

# --- output ----------------------------------------------------------------
expect 0 "--help" "$NPYDT" cstruct --help
has "--help" "usage: npydt cstruct"
expect 0 "--descr literal" "$NPYDT" cstruct --descr "[('x', '<f8'), ('n', '<i4')]"
# packed where C aligns double to 8, as x86-64 does; i386 aligns it to 4
# inside structs, and there the natural layout is NumPy's
cc=$(compiler "${compilers%% *}")
if printf 'struct s { double x; int n; };\n_Static_assert(sizeof(struct s) == 12, "");\n' |
    $cc -std=c11 -fsyntax-only -x c - 2>/dev/null; then
    if grep -q '#pragma pack' "$tmp/out"; then bad "--descr literal: packed needlessly"; else ok; fi
else
    has "--descr literal" "#pragma pack(push, 1)"
fi
has "--descr literal" "static_assert(sizeof(struct npy_record) == 12,"
has "--descr literal" "static_assert(offsetof(struct npy_record, n) == 8,"
compiles "--descr literal"
expect 0 "--descr type string" "$NPYDT" cstruct --descr "i4, (2,3)f8"
has "--descr type string" "double f1[2][3];"
compiles "--descr type string"
expect 0 "--descr subarray" "$NPYDT" cstruct "--descr=('<f8', (2, 3))"
has "--descr subarray" "double value[2][3];"
expect 0 "--descr padded" "$NPYDT" cstruct --descr "[('a', 'u1'), ('', '|V7'), ('b', '<f8')]"
has "--descr padded" "uint8_t _pad0[7];"
compiles "--descr padded"
expect 0 "--descr nested" "$NPYDT" cstruct --descr "[('pos', [('x', '<f4'), ('y', '<f4')]), ('id', '<u8')]"
has "--descr nested" "struct npy_record_pos pos;"
has "--descr nested" "uint64_t id;"
compiles "--descr nested"
# f16 and c32 are x87 extended precision in a file, whatever C's long
# double is here: bytes, the same declaration on every machine
expect 0 "--descr x87" "$NPYDT" cstruct --descr "[('a', '<f16'), ('c', '>c32')]"
has "--descr x87" "uint8_t a[16]; /* <f16; x87 80-bit extended precision in 16 bytes"
has "--descr x87" "uint8_t c[32]; /* >c32; complex of two x87 80-bit extended precision"
compiles "--descr x87"
# a file name in the opening comment: bytes that are not UTF-8 (a bad
# lead byte, a bad continuation, a surrogate, an overlong form) as \xNN,
# format characters and bidirectional controls as \uXXXX, other
# characters as they are, a '?' that ends the name as it is
n=$(printf 'a\377b\303(c\355\240\200d\340\200\200e\302\205\302\255\330\234\341\240\216\342\200\213\342\200\252\342\201\246\357\273\277\357\277\272\363\240\200\201f\303\251\360\237\231\202g?')
cp "$FIXTURES/scalar_i1.npy" "$tmp/$n.npy"
expect 0 "a file name that is not all UTF-8" "$NPYDT" cstruct "$tmp/$n.npy"
has "a file name that is not all UTF-8" "records of \"$tmp/a\\xffb\\xc3(c\\xed\\xa0\\x80d\\xe0\\x80\\x80e\\u0085\\u00ad\\u061c\\u180e\\u200b\\u202a\\u2066\\ufeff\\ufffa\\ue0001f$(printf '\303\251\360\237\231\202')g?.npy\","
compiles "a file name that is not all UTF-8"
# said WHAT LINE: the last command's stderr is exactly LINE
said() {
    if [ "$(cat "$tmp/err")" = "$2" ]; then ok; else bad "$1: stderr '$(head -c 300 "$tmp/err")', want '$2'"; fi
}
# an operand that is not a file: a descriptor literal (whatever space
# leads it; one that starts like a literal is reported as one) or a type
# string; a name that looks like a path is a file
expect 3 "--descr a literal after blanks" "$NPYDT" cstruct --descr "$(printf '\t\n [(1,')"
said "--descr a literal after blanks" "descr: syntax error: spec offset 2: unexpected indent"
expect 3 "--descr a dict literal" "$NPYDT" cstruct --descr "{x"
said "--descr a dict literal" "descr: syntax error: spec offset 1: name 'x' is not a literal"
expect 3 "--descr a string literal" "$NPYDT" cstruct --descr '"x'
said "--descr a string literal" "descr: syntax error: spec offset 0: unterminated string"
expect 3 "--descr a type string" "$NPYDT" cstruct --descr "q8"
said "--descr a type string" "descr: bad type: spec offset 0: data type 'q8' not understood"
expect 3 "an operand neither file nor descriptor" "$NPYDT" cstruct ":x"
said "an operand neither file nor descriptor" "descr: bad type: spec offset 0: data type ':x' not understood"
expect 2 "a missing .npy" "$NPYDT" cstruct "$tmp/nope.npy"
said "a missing .npy" "$tmp/nope.npy: i/o error: cannot open: No such file or directory"
expect 2 "a missing member of an archive" "$NPYDT" cstruct "tests/fixtures_npz/savez.npz:nope"
said "a missing member of an archive" "tests/fixtures_npz/savez.npz:nope: not found: no member 'nope'; members: ints, fortran, big_endian, records, aligned, empty, empty_records, scalar, ... (11 in all)"
expect 0 "--descr zero size" "$NPYDT" cstruct --descr "|S0"
has "--descr zero size" "#define NPY_RECORD_ITEMSIZE 0"
compiles "--descr zero size"
# a zero-size field below nested subarrays: one shape tuple, outermost first
expect 0 "--descr zero-size nested subarray" "$NPYDT" cstruct \
    --descr "[('a', '<i4'), ('z', (('<f8', (2,)), (0, 3))), ('b', '<i2')]"
has "--descr zero-size nested subarray" '"z" (<f8, shape (0, 3, 2) at offset 4) has no bytes'
# a DESCR as the operand is --descr DESCR (the usage line's FILE|DESCR)
for d in "i4, (2,3)f8" "[('x', '<f8'), ('pos', [('a', '<i2')])]" "'>u2'"; do
    "$NPYDT" cstruct --descr "$d" >"$tmp/want" 2>&1
    "$NPYDT" cstruct "$d" >"$tmp/out" 2>"$tmp/err"
    if [ $? -eq 0 ] && [ -s "$tmp/out" ] && cmp -s "$tmp/out" "$tmp/want"; then ok; else
        bad "cstruct '$d' differs from cstruct --descr '$d': $(head -c 200 "$tmp/err")"
    fi
done
expect 3 "bad DESCR operand" "$NPYDT" cstruct "f8, q9"
if grep -qx "descr: bad type: spec offset 4: data type 'q9' not understood" "$tmp/err"; then ok; else
    bad "bad DESCR operand: $(cat "$tmp/err")"
fi
expect 2 "missing FILE that looks like a path" "$NPYDT" cstruct "no-such.npy"
# complex members: C's _Complex, std::complex in C++ (the same layout)
expect 0 "--descr complex" "$NPYDT" cstruct --descr "[('z', '<c16'), ('w', '<c8'), ('n', 'u1')]"
has "--descr complex" "npydt_cdouble_t z;"
has "--descr complex" "typedef std::complex<float> npydt_cfloat_t;"
compiles "--descr complex"
# C++ keywords and the member types' names are not member names
expect 0 "--descr C++ keywords" "$NPYDT" cstruct --descr "[('class', '<i4'), ('new', '<f8'), ('int32_t', '<i4')]"
has "--descr C++ keywords" "int32_t class_;"
has "--descr C++ keywords" "double new_;"
has "--descr C++ keywords" "int32_t int32_t_;"
compiles "--descr C++ keywords"
# packed where NumPy's offsets are not C's: still C++
expect 0 "--descr packed" "$NPYDT" cstruct --descr "[('a', 'u1'), ('b', '<f8'), ('c', [('d', '<i2'), ('e', '<c16')])]"
has "--descr packed" "#pragma pack(push, 1)"
compiles "--descr packed"
expect 0 "--name" "$NPYDT" cstruct --name my_rec "$FIXTURES/struct_simple.npy"
has "--name" "struct my_rec {"
has "--name" "#define MY_REC_ITEMSIZE 17"
has "--name" "#ifndef MY_REC_H"
expect 0 "nested names" "$NPYDT" cstruct --name rec "$FIXTURES/struct_nested3.npy"
has "nested names" "struct rec_a_b {"
has "nested names" "struct rec_a_b b;"
expect 0 "padding" "$NPYDT" cstruct "$FIXTURES/struct_offsets.npy"
has "padding" "uint8_t _pad0[2];"
compiles "padding"
# exactly one of the two files needs swapping on any machine
"$NPYDT" cstruct "$FIXTURES/scalar_f8_be.npy" >"$tmp/be.h" 2>/dev/null
"$NPYDT" cstruct "$FIXTURES/scalar_f8_le.npy" >"$tmp/le.h" 2>/dev/null
n=0
grep -q 'swap before use, or run npydt swap --to native' "$tmp/be.h" && n=$((n + 1))
grep -q 'swap before use, or run npydt swap --to native' "$tmp/le.h" && n=$((n + 1))
if [ "$n" -eq 1 ]; then ok; else bad "byte-order comments: $n of <f8/>f8 need a swap, want 1"; fi
"$NPYDT" cstruct "$FIXTURES/struct_mixed_kinds.npy" >"$tmp/a.h" 2>&1
"$NPYDT" cstruct "$FIXTURES/struct_mixed_kinds.npy" >"$tmp/b.h" 2>&1
if cmp -s "$tmp/a.h" "$tmp/b.h"; then ok; else bad "output differs between two runs"; fi

# field names shaped like the macros the output defines get a trailing '_'
"$NPYDT" cstruct --descr "[('NPY_RECORD_ITEMSIZE', '<i4'), ('NPY_RECORD_H', '<f8')]" >"$tmp/m.h" 2>&1
if grep -q 'NPY_RECORD_ITEMSIZE_;' "$tmp/m.h" && grep -q 'NPY_RECORD_H_;' "$tmp/m.h" &&
    { cc=$(compiler "${compilers%% *}"); ! command -v "${cc%% *}" >/dev/null 2>&1 ||
      $cc -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -x c "$tmp/m.h"; }; then ok; else
    bad "members named like the generated macros"
fi

# archive members with long names (600 bytes, past any fixed buffer):
# identifiers as long as the names, in bounded time, and a root that would
# take a long nested tag of an earlier member gets _2
long=$(printf '%0600d' 0 | tr 0 b)
"$NPYDT" load --dtype "[('$long', [('x', '<f8')])]" -o "$tmp/nested.npy" </dev/null >/dev/null 2>&1
"$NPYDT" pack "$tmp/long.npz" "a=$tmp/nested.npy" "a_$long=$FIXTURES/struct_simple.npy" \
    "c$long=$FIXTURES/struct_simple.npy" >/dev/null 2>&1
expect 0 "archive of long member names" timeout 60 "$NPYDT" cstruct "$tmp/long.npz"
has "archive of long member names" "struct npy_record_a_$long {"
has "archive of long member names" "struct npy_record_a_${long}_2 {"
has "archive of long member names" "#define NPY_RECORD_C$(echo "$long" | tr b B)_ITEMSIZE 17"
compiles "archive of long member names"
# a root that is a reserved name gets _2, also in an archive of one member
"$NPYDT" pack "$tmp/min.npz" "MIN=$FIXTURES/struct_simple.npy" >/dev/null 2>&1
expect 0 "a reserved root name" "$NPYDT" cstruct --name INT8 "$tmp/min.npz"
has "a reserved root name" "struct INT8_MIN_2 {"

# --- compile and read every fixture ------------------------------------------
if ! "$PYTHON" -c 'import numpy' >/dev/null 2>&1; then
    echo "SKIP: cstruct compile checks: $PYTHON cannot import numpy"
elif ! command -v gcc >/dev/null 2>&1 && ! command -v clang >/dev/null 2>&1; then
    echo "SKIP: cstruct compile checks: no gcc or clang"
else
    "$PYTHON" "$here/cstruct_check.py" "$NPYDT" "$FIXTURES"/*.npy "$FIXTURES"/quirks/*.npy >"$tmp/py" 2>&1
    cat "$tmp/py"
    line=$(grep -E '^cstruct compile: [0-9]+ passed, [0-9]+ failed' "$tmp/py" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/^[^0-9]*([0-9]+) passed.*/\1/')
        f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
        passed=$((passed + p))
        failed=$((failed + f))
    elif ! grep -q '^SKIP' "$tmp/py"; then
        bad "tests/cstruct_check.py gave no result line"
    fi
fi

echo "cstruct: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

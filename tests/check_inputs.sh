#!/bin/sh
# What a FILE argument names, and specs taken from files: ARCHIVE:NAME when
# the archive's path holds a ':', an archive without members, a broken
# archive by path, by ARCHIVE:NAME and on a pipe, many archives at once;
# --schema like:FILE refusals, a text spec longer than a read block; and
# every allocation failing in turn while a pipe is read whole and a spec
# is taken from a file (the fault injector tests/tools/failinject.c, as in
# check_cli_faults.sh; skipped in sanitizer builds). Each asserts the exit
# status and the exact message. Prints `inputs: N passed, M failed`.
set -u
NPYDT=${NPYDT:-build/npydt}
O=${O:-build}
case $NPYDT in /*) ;; *) NPYDT=$(pwd)/$NPYDT ;; esac
F=$(pwd)/tests/fixtures
Z=$(pwd)/tests/fixtures_npz
so=$O/tests/tools/failinject.so
[ -f "$so" ] && so=$(cd "$(dirname "$so")" && pwd)/failinject.so
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL inputs: $*"; }

# says NAME STATUS 'STDERR' ARGS...: exit status and the whole of stderr
says() {
    name=$1 status=$2 want=$3
    shift 3
    "$NPYDT" "$@" >stdout 2>stderr
    rc=$?
    if [ "$rc" -ne "$status" ] || [ "$(cat stderr)" != "$want" ]; then
        bad "$name: exit $rc, '$(head -c 300 stderr)', want $status, '$want'"
    else
        ok
    fi
}

printf 'PK\005\006\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >empty.npz
says "a member of an empty archive" 2 "empty.npz:x: not found: no member 'x'; the archive is empty" \
    inspect empty.npz:x
mkdir 'c:d'
cp "$Z/savez.npz" 'c:d/s.npz'
says "an archive under a path with ':'" 2 \
    "c:d/s.npz:nope: not found: no member 'nope'; members: ints, fortran, big_endian, records, aligned, empty, empty_records, scalar, ... (11 in all)" \
    inspect 'c:d/s.npz:nope'
"$NPYDT" inspect 'c:d/s.npz:ints' >stdout 2>stderr && grep -q "^c:d/s.npz:ints" stdout && ok ||
    bad "a member of an archive under a path with ':': $(cat stderr)"
printf 'PK\003\004garbage-garbage-garbage-garbage' >bad.npz
msg="bad archive: no end of central directory record in the last 65557 bytes: not a zip archive, or truncated"
says "a broken archive's member" 3 "bad.npz: $msg" inspect bad.npz:x
says "a broken archive on a pipe" 3 "-: $msg" inspect - <bad.npz
"$NPYDT" inspect --json "$Z/savez.npz" >one.json
"$NPYDT" inspect --json "$Z/savez.npz" "$Z/savez.npz" "$Z/savez.npz" "$Z/savez.npz" "$Z/savez.npz" >five.json &&
    [ "$(wc -l <five.json)" -eq $(($(wc -l <one.json) * 5)) ] && ok || bad "five archives at once"

says "--schema like:ARCHIVE of several arrays" 2 \
    "npydt: check: --schema: '$Z/savez.npz' holds 11 arrays, and a spec describes one: name a member as '$Z/savez.npz:NAME'
Try 'npydt check --help'." \
    check --schema "like:$Z/savez.npz" "$F/struct_simple.npy"
printf '\223NUMPY\001\000\010\000{bad}   \n' >broken.npy
says "--schema like:FILE not a .npy" 3 "broken.npy: syntax error: header offset 1: name 'bad' is not a literal" \
    check --schema like:broken.npy "$F/struct_simple.npy"
says "--schema like:FILE missing" 2 "missing.npy: i/o error: cannot open: No such file or directory" \
    check --schema like:missing.npy "$F/struct_simple.npy"
{ printf "'<i4'"; printf ' %.0s' $(seq 5000); } >long.txt
printf '1\n2\n' >in.jsonl
"$NPYDT" load --dtype @long.txt -o out.npy in.jsonl 2>stderr &&
    [ "$("$NPYDT" dump --jsonl out.npy | tr '\n' ' ')" = "1 2 " ] && ok || bad "a spec file of 5 KB: $(cat stderr)"

# ---- allocations failing in turn ------------------------------------------------

if [ -n "${SANITIZE:-}" ] || [ -n "${EXEC:-}" ] || [ ! -f "$so" ]; then
    echo "SKIP: inputs: allocation sweeps (sanitizer, emulator or no $so)"
    echo "inputs: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi
# sweep STDIN ARGS...: alloc:1, alloc:2, ... with standard input from
# STDIN: each run prints what an unhindered run prints, or one line saying
# "out of memory" (exit 2) and nothing on stdout
sweep() {
    in=$1
    shift
    "$NPYDT" "$@" <"$in" >ref.out 2>ref.err
    refrc=$?
    n=1
    while [ "$n" -le 5000 ]; do
        rm -f log
        env NPYDT_FAIL="alloc:$n" NPYDT_FAIL_LOG=log LD_PRELOAD="$so" "$NPYDT" "$@" <"$in" >stdout 2>stderr
        rc=$?
        [ -f log ] && grep -qx "alloc $n" log || break
        if [ "$rc" -eq "$refrc" ] && cmp -s stdout ref.out && cmp -s stderr ref.err; then
            :
        elif [ "$rc" -eq 2 ] && [ ! -s stdout ] && [ "$(wc -l <stderr)" -eq 1 ] &&
            grep -q -e "out of memory" -e ": Cannot allocate memory$" stderr; then
            :
        else
            bad "sweep $*: alloc:$n: exit $rc: $(head -c 300 stderr)"
            return
        fi
        n=$((n + 1))
    done
    [ "$n" -gt 1 ] && [ "$rc" -eq "$refrc" ] && ok || bad "sweep $*: ended at alloc:$n with exit $rc"
}
sweep "$F/struct_simple.npy" inspect -
sweep /dev/null inspect -
sweep /dev/null check --schema "@$F/struct_simple.npy" "$F/struct_simple.npy"
sweep /dev/null inspect "$Z/savez.npz:nope"
sweep /dev/null load --dtype @long.txt -o out.npy in.jsonl

# ---- standard input: "-", no FILE, -:NAME ----------------------------------
# fed NAME FILE ARGS...: stdout and status of the command given FILE on a
# pipe are those it gives for FILE named as "-"; nothing on stderr
fed() {
    name=$1 file=$2
    shift 2
    "$NPYDT" "$@" - <"$file" >want 2>/dev/null
    want_rc=$?
    cat "$file" | "$NPYDT" "$@" >stdout 2>stderr
    rc=$?
    if [ "$rc" -ne "$want_rc" ] || ! cmp -s stdout want || [ -s stderr ]; then
        bad "$name: exit $rc (want $want_rc), stderr '$(head -c 300 stderr)'"
    else
        ok
    fi
}
fed "inspect with no FILE reads a pipe" "$F/struct_simple.npy" inspect
fed "dump with no FILE reads a pipe" "$F/struct_simple.npy" dump --jsonl
fed "schema with no FILE reads a pipe" "$F/struct_simple.npy" schema
fed "check with no FILE reads a pipe" "$F/struct_simple.npy" check --schema "like:$F/struct_simple.npy"
fed "cstruct with no FILE reads a pipe" "$F/struct_simple.npy" cstruct
fed "inspect with no FILE reads an archive on a pipe" "$Z/savez.npz" inspect
printf '1\n2\n' >two.jsonl
fed "load with no FILE reads a pipe" two.jsonl load --dtype "'<i4'" -o loaded.npy
"$NPYDT" load --dtype "'<i4'" -o grown.npy two.jsonl
cat two.jsonl | "$NPYDT" append grown.npy 2>stderr
if [ $? -eq 0 ] && [ "$("$NPYDT" dump --jsonl grown.npy | tr '\n' ,)" = "1,2,1,2," ]; then
    ok
else
    bad "append with no INPUT reads a pipe: $(cat stderr)"
fi
# on a terminal nothing arrives until typed: no FILE is a usage error
# there (tests/tools/on_tty.py; a command waiting on it is stopped: 124)
for c in "load --dtype '<i4' -o out.npy" "append grown.npy"; do
    eval "set -- $c"
    what=FILE
    [ "$1" = append ] && what=INPUT
    "${PYTHON:-/usr/bin/python3}" "$OLDPWD/tests/tools/on_tty.py" "$NPYDT" "$@" >stdout 2>stderr
    rc=$?
    want="npydt: $1: no $what given (standard input is a terminal; give - to read it)
Try 'npydt $1 --help'."
    if [ "$rc" -eq 2 ] && [ "$(cat stderr)" = "$want" ]; then
        ok
    else
        bad "$1 with no $what on a terminal: exit $rc, '$(head -c 300 stderr)'"
    fi
done
# -:NAME, a member of the archive on standard input, is an operand
"$NPYDT" dump --jsonl "$Z/savez.npz:ints" >want
cat "$Z/savez.npz" | "$NPYDT" dump --jsonl -:ints >stdout 2>stderr
if [ $? -eq 0 ] && cmp -s stdout want && [ ! -s stderr ]; then
    ok
else
    bad "-:NAME is a member of the archive on standard input: '$(head -c 300 stderr)'"
fi
cat "$Z/savez.npz" | "$NPYDT" inspect -:ints -:records >stdout 2>stderr
if [ $? -eq 0 ] && [ "$(grep '^-:' stdout | tr '\n' ,)" = "-:ints.npy,-:records.npy," ]; then
    ok
else
    bad "-:A -:B take both members from one reading of standard input: '$(head -c 300 stderr)'"
fi
cat "$Z/savez.npz" | says "-:NAME not in the archive" 2 \
    "-:nope: not found: no member 'nope'; members: ints, fortran, big_endian, records, aligned, empty, empty_records, scalar, ... (11 in all)" \
    inspect -:nope
cat "$F/struct_simple.npy" | says "-:NAME with a .npy file on standard input" 2 \
    "-:x: invalid argument: the part before ':' is not a zip (.npz) archive, so it has no members" \
    inspect -:x
cat "$Z/savez.npz" | says "-: with no member name" 2 \
    "-:: invalid argument: no member name after ':'" inspect -:

echo "inputs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

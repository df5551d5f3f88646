#!/bin/sh
# npydt dump builds nothing in proportion to the scalars of an element:
# a CSV or TSV row of more than 67108864 cells (the record limit load
# shares) is refused before anything is written, a wide row is printed by
# walking the dtype, a table cell stops at the bytes it shows, and the
# JSON plan of an element with much fixed text gives way to the tree walk.
# The files are crafted here, tiny headers with huge elements; the
# command runs with about 300 MB of address space, so that a regression
# fails (out of memory) instead of taking the machine.
NPYDT=${NPYDT:-build/npydt}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "dump-bounds: $*"; }

limited() {  # the command with about 300 MB of address space
    if [ -n "${SANITIZE:-}" ] || [ -n "${EXEC:-}" ]; then
        # a sanitizer's shadow memory and an emulator need more than that
        timeout 60 "$NPYDT" "$@"
    else
        (ulimit -v 300000; exec timeout 60 "$NPYDT" "$@")
    fi
}
npy_v1() {  # npy_v1 FILE HEADER-TEXT: a version 1.0 file of that header, no data
    len=$((${#2} + 1))
    { printf '\223NUMPY\001\000'
      printf "\\$(printf %03o $((len % 256)))\\$(printf %03o $((len / 256)))"
      printf '%s\n' "$2"; } > "$1"
}

# 82 bytes that NumPy loads: no element of one field of 2147483647 u1
npy_v1 "$dir/huge.npy" "{'descr':[('a','u1',(2147483647,))],'fortran_order':False,'shape':(0,)}"
[ "$(wc -c < "$dir/huge.npy")" = 82 ] || fail "the crafted file is not 82 bytes"

# csv/tsv: refused with the limit named, exit 3, nothing on stdout
for fmt in csv tsv; do
    for fields in "" "--fields a"; do
        limited dump --$fmt $fields "$dir/huge.npy" >"$dir/out" 2>"$dir/err"
        got=$?
        FMT=$(echo $fmt | tr a-z A-Z)
        want="$dir/huge.npy: limit exceeded: an element of 2147483647 scalars, more than the 67108864 cells a $FMT row holds (--fields selects fewer; --jsonl streams any element)"
        if [ "$got" = 3 ] && [ ! -s "$dir/out" ] && [ "$(cat "$dir/err")" = "$want" ]; then
            pass
        else
            fail "dump --$fmt $fields of a 2147483647-scalar element -> exit $got: $(head -c 300 "$dir/err")"
        fi
    done
done

# an element of more scalars than 64 bits count (2147483647^3 empty
# strings): refused the same way, the count said to be beyond 2^64 - 1
npy_v1 "$dir/over.npy" "{'descr':[('a',[('b',[('c',[('d','S0')],(2147483647,))],(2147483647,))],(2147483647,))],'fortran_order':False,'shape':(0,)}"
limited dump --csv "$dir/over.npy" >"$dir/out" 2>"$dir/err"
got=$?
want="$dir/over.npy: limit exceeded: an element of over 18446744073709551615 scalars, more than the 67108864 cells a CSV row holds (--fields selects fewer; --jsonl streams any element)"
if [ "$got" = 3 ] && [ ! -s "$dir/out" ] && [ "$(cat "$dir/err")" = "$want" ]; then
    pass
else
    fail "dump --csv of an element past 2^64 scalars -> exit $got: $(head -c 300 "$dir/err")"
fi

# the formats that stream, and inspect, print the empty array
for cmd in "dump --jsonl" "dump" "inspect" "inspect --json"; do
    if limited $cmd "$dir/huge.npy" >"$dir/out" 2>"$dir/err" && [ ! -s "$dir/err" ]; then
        pass
    else
        fail "$cmd of a 2147483647-scalar element: $(head -c 300 "$dir/err")"
    fi
done

# a row of 70000 cells, past the column table: the header names each
# cell, the row holds each value (the same as --jsonl's list)
npy_v1 "$dir/wide.npy" "{'descr':[('a','<u2',(70000,))],'fortran_order':False,'shape':(2,)}"
head -c 280000 /dev/urandom >> "$dir/wide.npy"
limited dump --csv "$dir/wide.npy" >"$dir/csv" 2>"$dir/err"
got=$?
limited dump --jsonl "$dir/wide.npy" | sed 's/^{"a":\[//; s/\]}$//' >"$dir/jsonl"
header=$(head -n 1 "$dir/csv")
if [ "$got" = 0 ] && [ "$(echo "$header" | tr ',' '\n' | wc -l)" = 70000 ] &&
    [ "${header%%,*}" = "a[0]" ] && [ "${header##*,}" = "a[69999]" ] &&
    tail -n +2 "$dir/csv" | cmp -s - "$dir/jsonl"; then
    pass
else
    fail "dump --csv of a 70000-cell row -> exit $got: $(head -c 300 "$dir/err")"
fi
if limited dump --tsv --fields a "$dir/wide.npy" | tr '\t' ',' | cmp -s - "$dir/csv"; then
    pass
else
    fail "dump --tsv --fields a of a 70000-cell row differs from --csv"
fi

# a 60000-byte key repeated 100000 times: the table cell shows its first
# bytes and stops (it would be 6 GB); --jsonl of no element plans nothing
# that large (it held 2 GB)
key=$(head -c 60000 /dev/zero | tr '\0' k)
npy_v1 "$dir/keys.npy" "{'descr':[('p',[('$key','u1')],(100000,))],'fortran_order':False,'shape':(1,)}"
head -c 100000 /dev/zero >> "$dir/keys.npy"
limited dump "$dir/keys.npy" >"$dir/out" 2>"$dir/err"
got=$?
row=$(sed -n 3p "$dir/out")
if [ "$got" = 0 ] && [ "$row" = '0      [{"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...' ]; then
    pass
else
    fail "dump (table) of an element of 6 GB of text -> exit $got: '$row' $(head -c 300 "$dir/err")"
fi
npy_v1 "$dir/keys0.npy" "{'descr':[('p',[('$key','u1')],(100000,))],'fortran_order':False,'shape':(0,)}"
if [ -z "${SANITIZE:-}" ] && [ -z "${EXEC:-}" ] && [ -x /usr/bin/time ]; then
    # peak resident memory in KiB: the plan gave up at 4 MiB of text
    (ulimit -v 300000; exec /usr/bin/time -f %M -o "$dir/rss" "$NPYDT" dump --jsonl "$dir/keys0.npy") \
        >"$dir/out" 2>"$dir/err"
    got=$?
    rss=$(tail -n 1 "$dir/rss")
    if [ "$got" = 0 ] && [ ! -s "$dir/out" ] && [ "$rss" -lt 40000 ]; then
        pass
    else
        fail "dump --jsonl of no element with 6 GB of key text -> exit $got, peak $rss KiB"
    fi
fi
echo "dump-bounds: $passed passed, $failed failed"

#!/bin/sh
# The commands hold at most a bound per header byte, whatever the shape:
# what the parse holds (128 bytes per header byte + 64 KiB) and, for
# inspect and dump, rows or records of bounded size; for cstruct, the
# member names of the struct it writes (4 bytes of index each besides).
# The file: 100,000 one-byte fields below 33 levels of 12-character names
# (a 200 KB header; every field's path is 429 bytes, its row in inspect
# 470). Each command runs with its address space limited to the bound
# plus what the same command needs for a tiny file and the file's size,
# so that a regression fails (out of memory) instead of being timed.
NPYDT=${NPYDT:-build/npydt}
if [ -n "${SANITIZE:-}" ] || [ -n "${EXEC:-}" ]; then
    # a sanitizer's shadow memory and an emulator take more than the bound
    echo "SKIP: command-memory: address space limits under a sanitizer or an emulator"
    exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "command-memory: $*"; }
tools=$(dirname "$0")/tools

python3 "$tools/deep_names.py" 100000 "$dir/deep.npy"
python3 "$tools/deep_names.py" 1 "$dir/tiny.npy"
size=$(wc -c < "$dir/deep.npy")
header=$("$NPYDT" inspect --json "$dir/deep.npy" | sed 's/.*"header_len":\([0-9]*\).*/\1/')
[ "$header" -gt 200000 ] || fail "the header is $header bytes, not 200 KB"

# ok KB CMD...: CMD runs within KB kilobytes of address space
ok() {
    kb=$1
    shift
    (ulimit -v "$kb"; exec "$NPYDT" "$@") >/dev/null 2>&1
}
# the least address space (to 256 KB) in which CMD runs on the tiny file
base() {
    lo=0 hi=262144
    ok $hi "$@" "$dir/tiny.npy" || { echo $hi; return; }
    while [ $((hi - lo)) -gt 256 ]; do
        mid=$(((lo + hi) / 2))
        if ok $mid "$@" "$dir/tiny.npy"; then hi=$mid; else lo=$mid; fi
    done
    echo $hi
}

# check PER-BYTE CMD...: CMD on the deep file within its tiny-file need +
# the file + PER-BYTE * header bytes + 64 KiB, with the same output as
# without a limit
check() {
    per=$1
    shift
    kb=$(($(base "$@") + (size + per * header + 65536) / 1024))
    "$NPYDT" "$@" "$dir/deep.npy" >"$dir/want" 2>&1
    (ulimit -v "$kb"; exec "$NPYDT" "$@" "$dir/deep.npy") >"$dir/got" 2>&1
    rc=$?
    if [ "$rc" = 0 ] && cmp -s "$dir/got" "$dir/want"; then
        pass
    else
        fail "$* of a $header-byte header within $kb KB: exit $rc: $(head -c 200 "$dir/got")"
    fi
}
check 128 inspect
check 128 inspect --json
check 128 dump
check 128 dump --jsonl
check 128 dump --csv
check 128 cstruct

echo "command-memory: $passed passed, $failed failed"
[ "$failed" = 0 ]

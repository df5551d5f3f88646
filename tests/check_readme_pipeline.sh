#!/bin/sh
# The README's pipeline script (the sh block after "### A pipeline: sorting
# incoming files"), extracted and run over a folder built here with npydt
# load and pack: good arrays of other lengths and a good archive are
# accepted, an array of another type rejected, and a truncated array, a
# corrupt header, a text file and an archive with a flipped data byte (bad
# CRC-32) quarantined, each with its check --json report beside it; the
# script's exit status says whether all were accepted, and an unreadable
# reference stops it before anything moves.
# Prints "readme_pipeline: N passed, M failed".
set -u
NPYDT=${NPYDT:-build/npydt}
case $NPYDT in /*) ;; *) NPYDT=$(pwd)/$NPYDT ;; esac
bindir=$(dirname "$NPYDT")
[ "$(basename "$NPYDT")" = npydt ] || { echo "SKIP: readme_pipeline: $NPYDT is not named npydt"; exit 0; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL readme_pipeline: $*"; }

awk '/^### A pipeline: sorting incoming files$/ {sect = 1}
     sect && /^```sh$/ {on = 1; next}
     on && /^```$/ {exit} on' README.md >"$tmp/sort-incoming"
if grep -q '^exit "$result"$' "$tmp/sort-incoming"; then ok; else bad "no script found in README.md"; fi

# the arrays: records of the reference's type, of other lengths
cd "$tmp" || exit 2
dt="[('id', '<i4'), ('x', '<f8')]"
rows() {
    i=0
    while [ "$i" -lt "$1" ]; do printf '{"id":%d,"x":%d.5}\n' "$i" "$i"; i=$((i + 1)); done
}
mk() {   # mk NAME N [DTYPE]
    rows "$2" | npydt_ load --dtype "${3:-$dt}" --jsonl -o "$1" - || bad "load $1"
}
npydt_() { "$NPYDT" "$@"; }
mkdir incoming
mk ref.npy 3
mk incoming/good1.npy 10
mk incoming/good2.npy 1000
mk big.npy 200
npydt_ pack incoming/good3.npz a=ref.npy b=incoming/good1.npy || bad "pack good3"
mk incoming/other.npy 5 "[('id', '<i8'), ('x', '<f8')]"
# truncated: the header and half the data
head -c $(( $(wc -c <big.npy) / 2 )) big.npy >incoming/truncated.npy
# a corrupt header: its closing brace replaced
sed 's/}/]/' ref.npy >incoming/badheader.npy
printf 'id,x\n1,2.5\n' >incoming/text.npy
# an archive whose stored member has one data byte flipped: the sizes hold,
# the CRC-32 does not (the member's data ends 22 + 46 + 11 bytes before the
# end: the central directory entry of x.npy and the end record)
npydt_ pack incoming/badcrc.npz x=big.npy || bad "pack badcrc"
size=$(wc -c <incoming/badcrc.npz)
printf '\377' | dd of=incoming/badcrc.npz bs=1 seek=$((size - 22 - 46 - 5 - 200)) \
    conv=notrunc 2>/dev/null
npydt_ check --schema like:ref.npy incoming/badcrc.npz >/dev/null 2>&1
[ $? -eq 3 ] && ok || bad "the flipped byte of badcrc.npz is not caught by check"

PATH=$bindir:$PATH sh ./sort-incoming incoming ref.npy 2>"$tmp/stderr"
status=$?
[ "$status" -eq 1 ] && ok || bad "exit $status with rejected files (want 1): $(cat "$tmp/stderr")"
[ -s "$tmp/stderr" ] && bad "the script wrote to stderr: $(cat "$tmp/stderr")" || ok
placed() {   # placed DIR FILE... : each FILE and its report in DIR
    d=$1
    shift
    for f in "$@"; do
        if [ -f "$d/$f" ] && [ -s "$d/$f.json" ] && [ ! -e "incoming/$f" ]; then ok
        else bad "$f is not in $d/ with its report"; fi
    done
}
placed accepted good1.npy good2.npy good3.npz
placed rejected other.npy
placed quarantine truncated.npy badheader.npy text.npy badcrc.npz
[ -z "$(ls incoming)" ] && ok || bad "left in incoming: $(ls incoming)"
# the reports are check --json's: a match, a mismatch, an error object
grep -q '"match":true' accepted/good1.npy.json && ok || bad "accepted report: $(cat accepted/good1.npy.json)"
[ "$(grep -c '"match":true' accepted/good3.npz.json)" -eq 2 ] && ok ||
    bad "archive report: $(cat accepted/good3.npz.json)"
grep -q '"match":false' rejected/other.npy.json && ok || bad "rejected report: $(cat rejected/other.npy.json)"
for f in truncated.npy badheader.npy text.npy badcrc.npz; do
    grep -q '"error":{"status":' quarantine/$f.json && ok || bad "$f report: $(cat quarantine/$f.json)"
done
grep -q 'CRC-32 mismatch' quarantine/badcrc.npz.json && ok ||
    bad "badcrc.npz report: $(cat quarantine/badcrc.npz.json)"

# all good: exit 0
mk incoming/good4.npy 7
PATH=$bindir:$PATH sh ./sort-incoming incoming ref.npy 2>"$tmp/stderr"
status=$?
[ "$status" -eq 0 ] && ok || bad "exit $status when every file is good (want 0)"
placed accepted good4.npy

# npydt cannot do its job (the reference is missing): exit 2, nothing moves
mk incoming/good5.npy 2
PATH=$bindir:$PATH sh ./sort-incoming incoming missing.npy 2>"$tmp/stderr"
status=$?
[ "$status" -eq 2 ] && ok || bad "exit $status with no reference (want 2)"
[ -f incoming/good5.npy ] && [ ! -e accepted/good5.npy.json ] && [ ! -e rejected/good5.npy.json ] &&
    [ ! -e quarantine/good5.npy.json ] && ok || bad "good5.npy moved although it was not checked"
grep -q 'could not be checked' "$tmp/stderr" && ok || bad "no message on stderr: $(cat "$tmp/stderr")"

echo "readme_pipeline: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

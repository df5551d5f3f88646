#!/bin/sh
# The record writer when the system says no: every file operation of
# npydt_writer (creating the temporary file, writing, syncing, linking,
# renaming, giving a mode, truncating, reading the file it appends to)
# made to fail for real by the fault injector tests/tools/failinject.c
# (LD_PRELOAD, NPYDT_FAIL=RULE) under tests/tools/writer_fault, which runs
# one writer scenario and prints the first failing call's status and
# message. Each case asserts that message, and what is on disk afterwards:
# no temporary file, and the destination as it was (a new file absent, an
# existing one byte for byte), or, after a failed flush, a file whose
# header counts the records of the last flush that succeeded. Interrupted
# and short writes and interrupted syncs are made again: the file is then
# the one an unhindered run writes.
# Skipped in sanitizer builds and where LD_PRELOAD does not work, as
# tests/check_cli_faults.sh is.
O=${O:-build}
DRIVE=$O/tests/tools/writer_fault
FX=tests/fixtures_writer
if [ -n "${SANITIZE:-}" ]; then
    echo "SKIP: writer-faults: a sanitizer build (SANITIZE=$SANITIZE) cannot take the fault injector"
    exit 0
fi
so=$O/tests/tools/failinject.so
if [ ! -f "$so" ] || [ ! -x "$DRIVE" ]; then
    echo "SKIP: writer-faults: $so or $DRIVE not built"
    exit 0
fi
so=$(cd "$(dirname "$so")" && pwd)/failinject.so
if [ -n "${EXEC:-}" ]; then
    preloaded="$EXEC -E LD_PRELOAD=$so $DRIVE"
else
    preloaded="env LD_PRELOAD=$so $DRIVE"
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
w=$dir/w
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "writer-faults: $*"; }

# run SPEC SCENARIO: the driver on $w/out.npy with NPYDT_FAIL=SPEC; sets rc
# and $out (its output, the temporary file's random part shown as XXXXXXXX)
run() {
    rm -f "$dir/log"
    # shellcheck disable=SC2086
    NPYDT_FAIL="$1" NPYDT_FAIL_LOG="$dir/log" timeout 60 $preloaded "$2" "$w/out.npy" \
        >"$dir/out" 2>&1
    rc=$?
    out=$(sed 's/\.[0-9a-f]\{8\}\.tmp/.XXXXXXXX.tmp/g' "$dir/out")
}
fired() { [ -f "$dir/log" ] && grep -qx "$1" "$dir/log"; }

run "open:1000000" create
if ! fired armed; then
    echo "SKIP: writer-faults: LD_PRELOAD of the fault injector does not work here"
    exit 0
fi

# fresh [FILE]: an empty $w, or one holding a copy of FILE as out.npy (kept
# as $dir/before to compare with)
fresh() {
    rm -rf "$w" "$dir/before"
    mkdir "$w"
    if [ -n "${1:-}" ]; then
        cp "$1" "$w/out.npy"
        cp "$1" "$dir/before"
    fi
}

# case NAME SPEC FIRED SCENARIO 'OUTPUT' CHECK...: the rule fired (FIRED is a
# line of the injector's log, e.g. "rename 1"), the driver printed OUTPUT
# (exit 1 for an error line, 0 for OK), then each CHECK holds:
#   empty      $w holds nothing
#   unchanged  $w holds out.npy only, byte for byte as before
#   counts N   $w holds out.npy only, its header's first axis is N
#   as REF     $w holds out.npy only, byte for byte as the file REF
case_() {
    name=$1 spec=$2 what=$3 scenario=$4 want=$5
    shift 5
    run "$spec" "$scenario"
    want_rc=1
    [ "$want" = OK ] && want_rc=0
    if ! fired "$what"; then
        fail "$name: $spec did not fire"
        return
    fi
    if [ "$rc" != "$want_rc" ] || [ "$out" != "$want" ]; then
        fail "$name: exit $rc (want $want_rc): '$out' (want '$want')"
        return
    fi
    while [ $# -gt 0 ]; do
        check=$1
        shift
        got=$(ls -A "$w" | tr '\n' ' ')
        case $check in
        empty)
            [ -z "$got" ] || { fail "$name: $w holds '$got', want nothing"; return; } ;;
        unchanged | counts | as)
            [ "$got" = "out.npy " ] || { fail "$name: $w holds '$got', want out.npy"; return; }
            case $check in
            unchanged)
                cmp -s "$w/out.npy" "$dir/before" || { fail "$name: out.npy changed"; return; } ;;
            counts)
                head -c 128 "$w/out.npy" | grep -aq "'shape': ($1," ||
                    { fail "$name: the header of out.npy does not count $1"; return; }
                shift ;;
            as)
                cmp -s "$w/out.npy" "$1" || { fail "$name: out.npy is not $1"; return; }
                shift ;;
            esac ;;
        esac
    done
    pass
}

# the files unhindered runs write
for s in create scalar block; do
    fresh
    run "open:1000000" $s
    [ "$out" = OK ] || fail "reference run $s: $out"
    cp "$w/out.npy" "$dir/ref.$s.npy"
done
fresh "$FX/v1.npy"
run "open:1000000" append
[ "$out" = OK ] || fail "reference run append: $out"
cp "$w/out.npy" "$dir/ref.append.npy"
P=$w/out.npy
T=$w/out.npy.XXXXXXXX.tmp
ENOSPC="No space left on device"

# ---- a new file: nothing appears unless it is whole ---------------------------
# (calls: open (the temporary file), pwrite (its header), fsync, link, open
# and fsync of the folder; then per flush pwrite (records), fsync, pwrite
# (the header's count), fsync)

fresh; case_ "temporary file refused" open=EACCES "open 1" create \
    "create i/o error: $P: cannot create a temporary file beside it: Permission denied" empty
fresh; case_ "no free temporary name" "open:1+=EEXIST" "open 64" create \
    "create i/o error: $P: cannot create a temporary file beside it: File exists" empty
fresh; case_ "header write fails" pwrite=ENOSPC "pwrite 1" create \
    "create i/o error: $T: write failed: $ENOSPC" empty
fresh; case_ "header write makes no progress" pwrite=eof "pwrite 1" create \
    "create i/o error: $T: write failed: Input/output error" empty
fresh; case_ "header sync fails" fsync=EIO "fsync 1" create \
    "create i/o error: $T: fsync failed: Input/output error" empty
fresh; case_ "the path appeared meanwhile" link=EEXIST "link 1" create \
    "create i/o error: $P: the file exists (not replaced)" empty
fresh; case_ "no hard links here" link=EPERM "link 1" create \
    "create i/o error: $P: cannot create it: Operation not permitted" empty
fresh; case_ "folder cannot be opened" open:2=EACCES "open 2" create \
    "create i/o error: $P: cannot open its folder to sync it: Permission denied" empty
fresh; case_ "folder sync fails" fsync:2=EIO "fsync 2" create \
    "create i/o error: $P: fsync of its folder failed: Input/output error" empty
# file systems that cannot sync a folder: the name is as safe as they make it
fresh; case_ "folder sync unsupported" fsync:2=EINVAL "fsync 2" create OK as "$dir/ref.create.npy"
fresh; case_ "folder on a read-only mount" fsync:2=EROFS "fsync 2" create OK as "$dir/ref.create.npy"
fresh; case_ "folder not syncable by descriptor" fsync:2=EBADF "fsync 2" create OK \
    as "$dir/ref.create.npy"
fresh; case_ "interrupted write" pwrite:2=EINTR "pwrite 2" create OK as "$dir/ref.create.npy"
fresh; case_ "short writes" "pwrite:1+=short" "pwrite 2" create OK as "$dir/ref.create.npy"
fresh; case_ "interrupted sync" fsync:3=EINTR "fsync 3" create OK as "$dir/ref.create.npy"
fresh; case_ "interrupted folder sync" fsync:2=EINTR "fsync 2" create OK as "$dir/ref.create.npy"
# a flush that fails leaves the count of the last one that succeeded
fresh; case_ "records write fails at flush" pwrite:2=ENOSPC "pwrite 2" create \
    "flush i/o error: $P: write failed: $ENOSPC" counts 0
fresh; case_ "records sync fails at flush" fsync:3=EIO "fsync 3" create \
    "flush i/o error: $P: fsync failed: Input/output error" counts 0
fresh; case_ "count write fails at flush" pwrite:3=EIO "pwrite 3" create \
    "flush i/o error: $P: write failed: Input/output error" counts 0
fresh; case_ "records write fails at close" pwrite:4=ENOSPC "pwrite 4" create \
    "close i/o error: $P: write failed: $ENOSPC" counts 3
fresh; case_ "count write fails at close" pwrite:5=ENOSPC "pwrite 5" create \
    "close i/o error: $P: write failed: $ENOSPC" counts 3
# a buffer of 16 bytes: 4 records fill it, the 5th drains it, then a block
# of 8 goes past it
fresh; case_ "a full buffer fails to drain" pwrite:2=ENOSPC "pwrite 2" block \
    "write i/o error: $P: write failed: $ENOSPC" counts 0
fresh; case_ "buffered records fail before a block" pwrite:3=ENOSPC "pwrite 3" block \
    "write i/o error: $P: write failed: $ENOSPC" counts 0
fresh; case_ "a block written past the buffer fails" pwrite:4=ENOSPC "pwrite 4" block \
    "write i/o error: $P: write failed: $ENOSPC" counts 0
fresh; case_ "block scenario unhindered" "open:1000000" armed block OK as "$dir/ref.block.npy"
# an incomplete last row is cut off at close
fresh; case_ "the cut of a half row fails" ftruncate=EIO "ftruncate 1" rows \
    "close i/o error: $P: truncate failed: Input/output error" counts 0

# ---- a 0-d array: written whole at close --------------------------------------
fresh; case_ "0-d: temporary file refused" open=EACCES "open 1" scalar \
    "close i/o error: $P: cannot create a temporary file beside it: Permission denied" empty
fresh; case_ "0-d: record write fails" pwrite:2=ENOSPC "pwrite 2" scalar \
    "close i/o error: $T: write failed: $ENOSPC" empty
fresh; case_ "0-d: sync fails" fsync=EIO "fsync 1" scalar \
    "close i/o error: $T: fsync failed: Input/output error" empty
fresh; case_ "0-d: the path appeared meanwhile" link=EEXIST "link 1" scalar \
    "close i/o error: $P: the file exists (not replaced)" empty
fresh; case_ "0-d: folder sync fails" fsync:2=EIO "fsync 2" scalar \
    "close i/o error: $P: fsync of its folder failed: Input/output error" empty

# ---- replacing: the old file stays whole until the first flush ----------------
# (the temporary file is synced first at the flush: its records' fsync is
# fsync 1, the header count's fsync 2, the folder's fsync 3)
old=$FX/v2.npy
fresh; case_ "replace: no old file" "open:1000000" armed replace OK as "$dir/ref.create.npy"
fresh "$old"; case_ "replace: temporary file refused" open=EACCES "open 1" replace \
    "create i/o error: $P: cannot create a temporary file beside it: Permission denied" unchanged
fresh "$old"; case_ "replace: records write fails" pwrite:2=ENOSPC "pwrite 2" replace \
    "flush i/o error: $T: write failed: $ENOSPC" unchanged
fresh "$old"; case_ "replace: mode cannot be given" fchmod=EPERM "fchmod 1" replace \
    "flush i/o error: $P: cannot give $T its mode: Operation not permitted" unchanged
fresh "$old"; case_ "replace: rename fails" rename=EXDEV "rename 1" replace \
    "flush i/o error: $P: cannot rename $T to it: Invalid cross-device link" unchanged
# a folder sync that fails after the rename is an error; the rename stays
# (the old file is gone): out.npy is the new file, whole
fresh "$old"; case_ "replace: folder sync fails after the rename" fsync:3=EIO "fsync 3" replace \
    "flush i/o error: $P: the new file is in place, but fsync of its folder failed: Input/output error" \
    counts 3

# ---- appending in place: the header keeps its count until a flush -------------
# (calls: open, fstat, pread of the preamble and header (the parse's, pread
# 1), pread of the header to rewrite (pread 2), fstat, [ftruncate])
fresh "$FX/v1.npy"; case_ "append: open fails" open=EACCES "open 1" append \
    "append i/o error: $P: open failed: Permission denied" unchanged
fresh "$FX/v1.npy"; case_ "append: stat fails" fstat:2=EIO "fstat 2" append \
    "append i/o error: $P: stat failed: Input/output error" unchanged
fresh "$FX/v1.npy"; case_ "append: header read fails" pread:2=EIO "pread 2" append \
    "append i/o error: $P: read failed: Input/output error" unchanged
fresh "$FX/v1.npy"; case_ "append: file shrank under the header read" pread:2=eof "pread 2" append \
    "append i/o error: $P: the file shrank while it was read" unchanged
fresh "$FX/v1.npy"; case_ "append: records write fails" pwrite=ENOSPC "pwrite 1" append \
    "flush i/o error: $P: write failed: $ENOSPC" unchanged
fresh "$FX/v1.npy"; case_ "append: unhindered" "open:1000000" armed append OK as "$dir/ref.append.npy"
# records past the count (never flushed) are cut off first
cp "$FX/v1.npy" "$dir/tail.npy"
printf 'tail' >>"$dir/tail.npy"
fresh "$dir/tail.npy"; case_ "append: the cut of an unflushed tail fails" ftruncate=EIO \
    "ftruncate 1" append "append i/o error: $P: truncate failed: Input/output error" unchanged

# ---- appending to a header without room: a copy renamed over the file ---------
# (calls: open, fstat, preads of the header at offset 0, fstat, open (the
# copy), fchmod, pwrite (its header), pread (the records, at offset 128 and
# on: pread^128) and pwrite; at the first flush: fsync, fchmod, rename;
# until then the file is as it was)
nr=$FX/noroom.npy
fresh "$nr"; case_ "copy: stat fails" fstat:2=EIO "fstat 2" append \
    "append i/o error: $P: stat failed: Input/output error" unchanged
fresh "$nr"; case_ "copy: temporary file refused" open:2=EACCES "open 2" append \
    "append i/o error: $P: cannot create a temporary file beside it: Permission denied" unchanged
fresh "$nr"; case_ "copy: mode cannot be given" fchmod=EPERM "fchmod 1" append \
    "append i/o error: $T: chmod failed: Operation not permitted" unchanged
fresh "$nr"; case_ "copy: header write fails" pwrite=ENOSPC "pwrite 1" append \
    "append i/o error: $T: write failed: $ENOSPC" unchanged
fresh "$nr"; case_ "copy: records read fails" "pread^128=EIO" "pread 1" append \
    "append i/o error: $P: read failed: Input/output error" unchanged
fresh "$nr"; case_ "copy: file shrank while copied" "pread^128=eof" "pread 1" append \
    "append i/o error: $P: the file shrank while it was read" unchanged
fresh "$nr"; case_ "copy: records write fails" pwrite:2=ENOSPC "pwrite 2" append \
    "append i/o error: $T: write failed: $ENOSPC" unchanged
fresh "$nr"; case_ "copy: sync fails" fsync=EIO "fsync 1" append \
    "flush i/o error: $T: fsync failed: Input/output error" unchanged
fresh "$nr"; case_ "copy: rename fails" rename=EXDEV "rename 1" append \
    "flush i/o error: $P: cannot rename $T to it: Invalid cross-device link" unchanged

echo "writer-faults: $passed passed, $failed failed"
[ "$failed" = 0 ]

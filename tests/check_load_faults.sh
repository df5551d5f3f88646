#!/bin/sh
# `npydt load` and `npydt append` when the system says no: reads that fail
# (a directory given as the input, a pipe whose read fails), the output's
# writes refused by a file size limit (RLIMIT_FSIZE), the output's
# creation, writes, fsync and rename failing and every allocation failing
# in turn, the last two through the fault injector tests/tools/failinject.c
# (LD_PRELOAD, NPYDT_FAIL=RULE). Each asserts the exit status (2), the
# exact message, and what is on disk: no OUT and no temporary file after a
# failed load, FILE.npy still loading its old elements after a failed
# append. Prints `load-faults: N passed, M failed`; the injector's part is
# skipped in sanitizer builds and where LD_PRELOAD does not work.
set -u
NPYDT=${NPYDT:-build/npydt}
O=${O:-build}
case $NPYDT in /*) ;; *) NPYDT=$(pwd)/$NPYDT ;; esac
F=$(pwd)/tests/fixtures
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
so=$O/tests/tools/failinject.so
[ -f "$so" ] && so=$(cd "$(dirname "$so")" && pwd)/failinject.so
cd "$tmp" || exit 1

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL load-faults: $*"; }

# only NAME ENTRY...: the directory holds exactly these entries besides
# the test's own files (no temporary file, no OUT)
only() {
    name=$1
    shift
    got=$(ls -A | grep -v -x -e stdout -e stderr -e log -e 'in.*' -e 'ref.*' | tr '\n' ' ')
    want=
    for e in "$@"; do want="$want$e "; done
    [ "$got" = "$want" ] && ok || bad "$name: the directory holds '$got', want '$want'"
}

# status NAME STATUS 'STDERR': the last run's exit status and stderr, and
# nothing on stdout
status() {
    if [ "$rc" -ne "$2" ] || [ "$(cat stderr)" != "$3" ] || [ -s stdout ]; then
        bad "$1: exit $rc, '$(head -c 300 stderr)', want $2, '$3'"
    else
        ok
    fi
}

printf '1\n2\n' >in.jsonl
printf 'value\n1\n2\n' >in2.csv
seq 1 5000 >in5000.jsonl
seq 1 100000 >inbig.jsonl
mkdir indir.jsonl

# ---- read failures and the temporary file ---------------------------------------

"$NPYDT" load --dtype '<i4' -o out.npy indir.jsonl >stdout 2>stderr
rc=$?
status "JSON Lines read fails" 2 "indir.jsonl: i/o error: read failed: Is a directory"
"$NPYDT" load --tsv --dtype '<i4' -o out.npy indir.jsonl >stdout 2>stderr
rc=$?
status "TSV read fails" 2 "indir.jsonl: i/o error: read failed: Is a directory"
"$NPYDT" load --csv --dtype '<i4' -o out.npy indir.jsonl >stdout 2>stderr
rc=$?
status "CSV read fails" 2 "indir.jsonl:1: i/o error: read failed: Is a directory"
only "read failures"

# the records go straight into the output's temporary file, in writes of
# 1 MiB: a file size limit of 32 KiB refuses one while the input is read
# (1.6 MB of records), or the last one at the close (40,000 bytes); the
# limit leaves room for a coverage build's counter files. No OUT and no
# temporary file are left.
# status_tmp NAME HEAD TAIL: exit 2 and a message naming the temporary file
status_tmp() {
    case $(cat stderr) in
    "$2"*"$3") [ "$rc" -eq 2 ] && [ ! -s stdout ] && ok || bad "$1: exit $rc" ;;
    *) bad "$1: '$(head -c 300 stderr)', want '$2*$3'" ;;
    esac
}
seq 1 200000 >inhuge.jsonl
sh -c "trap '' XFSZ; ulimit -f 64; exec \"\$0\" load --dtype '<i8' -o out.npy inhuge.jsonl" \
    "$NPYDT" >stdout 2>stderr
rc=$?
status_tmp "a write of the output refused while the input is read" "out.npy: i/o error: out.npy." \
    ".tmp: write failed: File too large"
sh -c "trap '' XFSZ; ulimit -f 64; exec \"\$0\" load --dtype '<i8' -o out.npy in5000.jsonl" \
    "$NPYDT" >stdout 2>stderr
rc=$?
status_tmp "the last write of the output refused at the close" "out.npy: i/o error: out.npy." \
    ".tmp: write failed: File too large"
{ echo value; cat inhuge.jsonl; } >inhuge.csv
sh -c "trap '' XFSZ; ulimit -f 64; exec \"\$0\" load --dtype '<i8' -o out.npy inhuge.csv" \
    "$NPYDT" >stdout 2>stderr
rc=$?
status_tmp "a write of the output refused while the input is read, CSV" \
    "out.npy: i/o error: out.npy." ".tmp: write failed: File too large"
rm -f inhuge.jsonl inhuge.csv
# append writes after the old records: refused, FILE.npy is cut back to
# them, byte for byte
"$NPYDT" load --dtype '<i8' -o app.npy in.jsonl
cp app.npy ref.app
sh -c "trap '' XFSZ; ulimit -f 64; exec \"\$0\" append app.npy in5000.jsonl" \
    "$NPYDT" >stdout 2>stderr
rc=$?
status "append: the write of the new records refused" 2 \
    "app.npy: i/o error: app.npy: write failed: File too large"
cmp -s app.npy ref.app && ok || bad "append: the write refused: app.npy changed"
rm -f app.npy ref.app
only "output refused by a file size limit"

if [ -n "${SANITIZE:-}" ]; then
    echo "SKIP: load-faults: the fault injector in a sanitizer build (SANITIZE=$SANITIZE)"
    echo "load-faults: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi
if [ ! -f "$so" ]; then
    echo "SKIP: load-faults: $so not built"
    echo "load-faults: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi
if [ -n "${EXEC:-}" ]; then
    preloaded="$EXEC -E LD_PRELOAD=$so ${NPYDT_TARGET:?}"
else
    preloaded="env LD_PRELOAD=$so $NPYDT"
fi

# run SPEC ARGS...: the command with NPYDT_FAIL=SPEC, standard input from
# the file $stdin; sets rc
stdin=/dev/null
run() {
    spec=$1
    shift
    rm -f log
    # shellcheck disable=SC2086
    timeout 60 env NPYDT_FAIL="$spec" NPYDT_FAIL_LOG=log $preloaded "$@" <"$stdin" >stdout 2>stderr
    rc=$?
}
fired() { [ -f log ] && grep -qx "$1" log; }

run "open:1000000" --version
if ! fired armed; then
    echo "SKIP: load-faults: LD_PRELOAD of the fault injector does not work here"
    echo "load-faults: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

# expect NAME SPEC FIRED STATUS 'STDERR' ARGS...
expect() {
    name=$1 spec=$2 what=$3 want=$4 msg=$5
    shift 5
    run "$spec" "$@"
    if fired "$what"; then status "$name ($spec)" "$want" "$msg"; else bad "$name: $spec did not fire"; fi
}

# ---- the output of load -----------------------------------------------------------

# the temporary file's name is random: the message up to it and after it
expect_tmp() {
    name=$1 spec=$2 what=$3 head=$4 tail=$5
    shift 5
    run "$spec" "$@"
    case $(cat stderr) in
    "$head"*"$tail") [ "$rc" -eq 2 ] && fired "$what" && ok || bad "$name: exit $rc: $(cat stderr)" ;;
    *) bad "$name: '$(cat stderr)'" ;;
    esac
}
expect_tmp "load: the header write fails" "pwrite:1=ENOSPC" "pwrite 1" "out.npy: i/o error: out.npy." \
    ".tmp: write failed: No space left on device" load --dtype '<i4' -o out.npy in.jsonl
expect_tmp "load: the data write fails" "pwrite:2=ENOSPC" "pwrite 2" "out.npy: i/o error: out.npy." \
    ".tmp: write failed: No space left on device" load --dtype '<i4' -o out.npy in.jsonl
expect_tmp "load --fortran: the data write fails" "pwrite:2=ENOSPC" "pwrite 2" \
    "out.npy: i/o error: out.npy." ".tmp: write failed: No space left on device" \
    load --dtype '<i4' --shape 1 --fortran -o out.npy in.jsonl
expect_tmp "load: fsync fails" "fsync=EIO" "fsync 1" "out.npy: i/o error: out.npy." \
    ".tmp: fsync failed: Input/output error" load --dtype '<i4' -o out.npy in.jsonl
expect_tmp "load: rename fails" "rename=EXDEV" "rename 1" "out.npy: i/o error: out.npy: cannot rename out.npy." \
    ".tmp to it: Invalid cross-device link" load --dtype '<i4' -o out.npy in.jsonl
expect "load: the temporary file cannot be created" "open=EACCES" "open 1" 2 \
    "out.npy: i/o error: out.npy: cannot create a temporary file beside it: Permission denied" \
    load --dtype '<i4' -o out.npy in.jsonl
# 1.2 MB of records: the writer writes its first MiB while they are read back
seq 1 150000 >inmany.jsonl
expect_tmp "load: a write while the records are read back fails" "pwrite:2=ENOSPC" "pwrite 2" \
    "out.npy: i/o error: out.npy." ".tmp: write failed: No space left on device" \
    load --dtype '<i8' -o out.npy inmany.jsonl
only "load's output failures"

# ---- a signal that ends load or append: the temporary file goes with it ----------

"$NPYDT" load --dtype '<i8' -o ref.5000.npy in5000.jsonl &&
    "$NPYDT" dump --arrow -o in5000.arrow ref.5000.npy || bad "the Arrow stream of 5000 rows"
# signal NAME SIGNAL SPEC FIRED ARGS...: the rule fired (FIRED a line of
# the log), the process ended by the signal, nothing left beside the inputs
signal() {
    name=$1 sig=$2 spec=$3 what=$4
    shift 4
    run "$spec" "$@"
    case $sig in INT) want=130 ;; TERM) want=143 ;; *) want=129 ;; esac
    if ! fired "$what"; then
        bad "$name: $spec did not fire"
    elif [ "$rc" -ne "$want" ] || [ -s stdout ]; then
        bad "$name: exit $rc (want $want): $(head -c 300 stderr)"
    else
        ok
    fi
    only "$name"
}
for sig in INT TERM HUP; do
    signal "load --arrow ended by SIG$sig as it writes" "$sig" "pwrite@tmp:2!$sig" "pwrite 2" \
        load --arrow -o out.npy in5000.arrow
    signal "load --arrow -j 2 ended by SIG$sig as it writes" "$sig" "pwrite@tmp:2!$sig" \
        "pwrite 2" load --arrow -j 2 -o out.npy in5000.arrow
    signal "load --arrow ended by SIG$sig as its temporary file is created" "$sig" \
        "open@tmp!$sig" "open 1" load --arrow -o out.npy in5000.arrow
    signal "load --jsonl ended by SIG$sig as it writes" "$sig" "pwrite@tmp:2!$sig" "pwrite 2" \
        load --dtype '<i8' -o out.npy in5000.jsonl
    signal "load --jsonl ended by SIG$sig as its temporary file is created" "$sig" \
        "open@tmp!$sig" "open 1" load --dtype '<i8' -o out.npy in5000.jsonl
done

# ---- append: FILE.npy loads its old elements after each failure ------------------

"$NPYDT" load --dtype '<i4' -o app.npy in.jsonl
"$NPYDT" dump --jsonl app.npy >ref.dump
# append_fails NAME SPEC FIRED 'STDERR'
append_fails() {
    expect "append: $1" "$2" "$3" 2 "$4" append app.npy in.jsonl
    "$NPYDT" dump --jsonl app.npy | cmp -s - ref.dump && ok || bad "append: $1: app.npy changed"
}
append_fails "open fails" "open=EACCES" "open 1" "app.npy: i/o error: cannot open: Permission denied"
append_fails "the data write fails" "pwrite:1=EIO" "pwrite 1" "app.npy: i/o error: app.npy: write failed: Input/output error"
append_fails "the count's write fails" "pwrite:2=EIO" "pwrite 2" "app.npy: i/o error: app.npy: write failed: Input/output error"
append_fails "the data's fsync fails" "fsync:1=EIO" "fsync 1" "app.npy: i/o error: app.npy: fsync failed: Input/output error"
# the count is written when the data is durable: its fsync failing is
# reported, and the file counts the new elements or the old ones (NumPy
# loads it either way)
expect "append: the count's fsync fails" "fsync:2=EIO" "fsync 2" 2 \
    "app.npy: i/o error: app.npy: fsync failed: Input/output error" append app.npy in.jsonl
case $("$NPYDT" dump --jsonl app.npy | tr '\n' ' ') in
"1 2 " | "1 2 1 2 ") ok ;;
*) bad "append: the count's fsync fails: app.npy holds $("$NPYDT" dump --jsonl app.npy | tr '\n' ' ')" ;;
esac
"$NPYDT" load --dtype '<i8' -o bapp.npy in.jsonl
expect "append: a write while the records are read back fails" "pwrite:1=EIO" "pwrite 1" 2 \
    "bapp.npy: i/o error: bapp.npy: write failed: Input/output error" append bapp.npy inmany.jsonl
[ "$("$NPYDT" dump --jsonl bapp.npy | tr '\n' ' ')" = "1 2 " ] && ok || bad "append: bapp.npy changed"
rm -f bapp.npy
"$NPYDT" load --dtype '<i4' --shape 1 --fortran -o fapp.npy in.jsonl
"$NPYDT" dump --jsonl fapp.npy >ref.fdump
expect "append --fortran: the data write fails" "pwrite:1=EIO" "pwrite 1" 2 \
    "fapp.npy: i/o error: fapp.npy: write failed: Input/output error" append fapp.npy in.jsonl
"$NPYDT" dump --jsonl fapp.npy | cmp -s - ref.fdump && ok || bad "append --fortran: fapp.npy changed"
only "append failures" app.npy fapp.npy

# ---- a pipe whose read fails ------------------------------------------------------

stdin=$F/struct_simple.npy
expect "a pipe's read fails" "read=EIO" "read 1" 2 "-: i/o error: cannot read: Input/output error" \
    inspect -
run "read=EINTR" inspect -
stdin=/dev/null
"$NPYDT" inspect - <"$F/struct_simple.npy" >ref.inspect
fired "read 1" && [ "$rc" -eq 0 ] && cmp -s stdout ref.inspect && ok ||
    bad "a pipe's read interrupted is made again: exit $rc: $(cat stderr)"
mkfifo fifo
expect "a FIFO that cannot be opened" "open=EACCES" "open 1" 2 \
    "fifo: i/o error: cannot open: Permission denied" inspect fifo
rm -f fifo

# ---- every allocation failing in turn ---------------------------------------------

# oom: stderr says "out of memory" (or, from a stdio call, strerror's
# "Cannot allocate memory")
oom() { grep -q -e "out of memory" -e ": Cannot allocate memory$" stderr; }
# sweep NAME ARGS...: the command (which writes out.npy) with alloc:1,
# alloc:2, ... until a run has none left to fail: each run writes what an
# unhindered one writes, or says "out of memory" (one line, exit 2) and
# leaves no out.npy and no temporary file
sweep() {
    name=$1
    shift
    rm -f out.npy
    "$NPYDT" "$@" <"$stdin" >ref.stdout 2>ref.stderr
    refrc=$?
    if [ -e out.npy ]; then mv out.npy ref.npy; else rm -f ref.npy; fi
    n=1
    while [ "$n" -le 5000 ]; do
        rm -f out.npy
        run "alloc:$n" "$@"
        fired "alloc $n" || break
        if [ "$rc" -eq "$refrc" ] && cmp -s stderr ref.stderr && cmp -s stdout ref.stdout &&
            { [ ! -e ref.npy ] || cmp -s out.npy ref.npy; }; then
            :
        elif [ "$rc" -eq 2 ] && [ "$(wc -l <stderr)" -eq 1 ] && oom &&
            [ ! -e out.npy ] && [ -z "$(ls -A | grep '\.tmp$')" ]; then
            :
        else
            bad "sweep $name: alloc:$n: exit $rc: $(head -c 300 stderr)"
            return
        fi
        n=$((n + 1))
    done
    [ "$n" -gt 1 ] && [ "$rc" -eq "$refrc" ] && ok || bad "sweep $name: ended at alloc:$n with exit $rc"
}
S="[('id', '<u2'), ('pos', [('x', '<f4'), ('y', '<f4')]), ('s', 'S3'), ('v', 'V300'), ('u', '<U2', (2,))]"
V=$(printf '%0600d' 0)
printf '{"id":1,"pos":{"x":1.5,"y":2},"s":"a\\u0001","v":"%s","u":["x","y"]}\n' "$V" >in3.jsonl
printf '{"u":["\\u00e9",""],"v":"%s","s":"b","pos.y":1,"pos.x":0,"id":2}\n' "$V" >>in3.jsonl
printf 'id,pos.x,pos.y,s,v,u[0],u[1]\n1,1.5,2,a\\x01,%s,x,y\n2,0,1,b,%s,é,\n' "$V" "$V" >in3.csv
printf 'id\tpos.x\tpos.y\ts\tv\tu[0]\tu[1]\n1\t1.5\t2\ta\\t\t%s\tx\ty\n' "$V" >in3.tsv
sweep "JSON Lines" load --dtype "$S" -o out.npy in3.jsonl
sweep "CSV" load --dtype "$S" -o out.npy in3.csv
sweep "TSV" load --dtype "$S" -o out.npy in3.tsv
sweep "--fortran" load --dtype '<i4' --shape 2 --fortran -o out.npy in.jsonl
sweep "an unknown key" load --dtype "$S" -o out.npy in2.csv
stdin=in3.jsonl
sweep "a pipe" load --dtype "$S" -o out.npy -
stdin=/dev/null
sweep "--dtype @FILE" load --dtype "@$F/struct_simple.npy" -o out.npy in.jsonl
cp "$F/struct_simple.npy" out.npy 2>/dev/null
"$NPYDT" load --dtype '<i4' -o out.npy in.jsonl
cp out.npy app0.npy
# append: rebuilt before each run (the sweep's runs that succeed append);
# a run out of memory leaves the elements as they were (records written
# past the count, if any, are not counted, and cut off by the next append)
sweep_append() {
    n=1
    while [ "$n" -le 5000 ]; do
        cp app0.npy app1.npy
        run "alloc:$n" append app1.npy in2.csv
        fired "alloc $n" || break
        if [ "$rc" -eq 0 ] && [ "$("$NPYDT" dump --jsonl app1.npy | tr '\n' ' ')" = "1 2 1 2 " ]; then
            :
        elif [ "$rc" -eq 2 ] && oom && [ "$("$NPYDT" dump --jsonl app1.npy | tr '\n' ' ')" = "1 2 " ]; then
            :
        else
            bad "sweep append: alloc:$n: exit $rc: $(head -c 300 stderr)"
            return
        fi
        n=$((n + 1))
    done
    [ "$n" -gt 1 ] && [ "$rc" -eq 0 ] && ok || bad "sweep append: ended at alloc:$n with exit $rc"
}
sweep_append
rm -f out.npy app0.npy app1.npy

echo "load-faults: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# The command when the system says no: allocations, file creation, writes,
# flushes, renames and reads that fail for real, through the fault injector
# tests/tools/failinject.c loaded with LD_PRELOAD (NPYDT_FAIL=RULE, see
# there). Each test asserts the exact exit status and stderr, and what is on
# disk afterwards: a failed swap leaves no temporary file and OUT (or the
# --in-place FILE) as it was (but after a folder fsync that fails once OUT
# was renamed: OUT is then the new file, and the error says so). The
# allocation sweeps fail the 1st, 2nd, ... allocation of a run in turn,
# until a run has none left to fail: every run
# either prints exactly what an unhindered run prints, or says "out of
# memory" (exit 2) and prints nothing else.
# Skipped in sanitizer builds (the sanitizers' allocator and an allocation
# interposer exclude each other) and where LD_PRELOAD does not work.
NPYDT=${NPYDT:-build/npydt}
O=${O:-build}
F=tests/fixtures
Z=tests/fixtures_npz
if [ -n "${SANITIZE:-}" ]; then
    echo "SKIP: cli-faults: a sanitizer build (SANITIZE=$SANITIZE) cannot take the fault injector"
    exit 0
fi
so=$O/tests/tools/failinject.so
if [ ! -f "$so" ]; then
    echo "SKIP: cli-faults: $so not built"
    exit 0
fi
so=$(cd "$(dirname "$so")" && pwd)/failinject.so
# the command with the injector preloaded; under an emulator (EXEC, see
# tests/run_tests.sh) the target's loader must get LD_PRELOAD, not the host's
if [ -n "${EXEC:-}" ]; then
    preloaded="$EXEC -E LD_PRELOAD=$so ${NPYDT_TARGET:?}"
else
    preloaded="env LD_PRELOAD=$so $NPYDT"
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "cli-faults: $*"; }

# run SPEC ARGS...: the command with NPYDT_FAIL=SPEC; sets rc, fills
# $dir/out, $dir/err (the random part of a temporary file's name shown as
# XXXXXXXX) and $dir/log (the injector's: "armed", "FUNC N")
run() {
    spec=$1
    shift
    rm -f "$dir/log"
    # shellcheck disable=SC2086
    timeout 60 env NPYDT_FAIL="$spec" NPYDT_FAIL_LOG="$dir/log" $preloaded "$@" >"$dir/out" 2>"$dir/err"
    rc=$?
    sed -i 's/\.[0-9a-f]\{8\}\.tmp/.XXXXXXXX.tmp/g' "$dir/err"
}
fired() { [ -f "$dir/log" ] && grep -qx "$1" "$dir/log"; }

run "open:1000000" --version
if ! fired armed; then
    echo "SKIP: cli-faults: LD_PRELOAD of the fault injector does not work here"
    exit 0
fi

# expect NAME SPEC FIRED STATUS 'STDERR' ARGS...: the rule fired (FIRED is
# a line of the log, e.g. "rename 1"), the exit status, the whole of stderr,
# nothing on stdout
expect() {
    name=$1 spec=$2 what=$3 want=$4 msg=$5
    shift 5
    run "$spec" "$@"
    if ! fired "$what"; then
        fail "$name: $spec did not fire"
    elif [ "$rc" != "$want" ] || [ -s "$dir/out" ] || [ "$(cat "$dir/err")" != "$msg" ]; then
        fail "$name: exit $rc (want $want): '$(head -c 300 "$dir/err")' (want '$msg')"
    else
        pass
    fi
}

# only DIR NAME...: DIR holds exactly these entries (no temporary file)
only() {
    d=$1
    shift
    got=$(ls -A "$d" | tr '\n' ' ')
    want=
    for e in "$@"; do want="$want$e "; done
    if [ "$got" = "$want" ]; then pass; else fail "$d holds '$got', want '$want'"; fi
}

# ---- swap of a .npy: every step of the atomic replacement ----------------------
# (through the library's npydt_output: the temporary file OUT.XXXXXXXX.tmp,
# named in the messages of the steps on it)

in=$F/fortran_struct.npy
w=$dir/w
"$NPYDT" swap "$in" --to big -o "$dir/ref.new.npy" || fail "swap reference"
cp "$in" "$dir/ref.old.npy"
fresh() {  # an output directory holding out.npy (an older file) and nothing else
    rm -rf "$w"
    mkdir "$w"
    cp "$dir/ref.old.npy" "$w/out.npy"
    cp "$dir/ref.old.npy" "$dir/ref.out.npy"
}
# swap_fails NAME SPEC FIRED 'DETAIL': exit 2, "OUT: i/o error: DETAIL" ($T
# in DETAIL: the temporary file),
# out.npy as it was, nothing else in its directory
swap_fails() {
    fresh
    T=$w/out.npy.XXXXXXXX.tmp
    expect "swap $1" "$2" "$3" 2 "$w/out.npy: i/o error: $(eval "echo \"$4\"")" \
        swap "$in" --to big -o "$w/out.npy"
    same "swap $1" "$2" out.npy
    only "$w" out.npy
}
# same NAME SPEC FILE: $w/FILE holds exactly what $dir/ref.FILE holds
same() {
    if cmp -s "$w/$3" "$dir/ref.$3"; then pass; else fail "$1: $2: $3 changed or wrong"; fi
}
swap_fails "temporary file" open@tmp=EACCES "open 1" \
    '$w/out.npy: cannot create a temporary file beside it: Permission denied'
swap_fails "header write" "write@tmp=ENOSPC" "write 1" '$T: write failed: No space left on device'
swap_fails "data write" "write@tmp:2=ENOSPC" "write 2" '$T: write failed: No space left on device'
# a write that takes no byte is an error, not made again
swap_fails "write of no byte" "write@tmp:2=eof" "write 2" '$T: write failed: Input/output error'
swap_fails fchmod "fchmod@tmp=EPERM" "fchmod 1" \
    '$w/out.npy: cannot give $T its mode: Operation not permitted'
swap_fails fsync "fsync@tmp=EIO" "fsync 1" '$T: fsync failed: Input/output error'
swap_fails close "close@tmp=EIO" "close 1" '$T: close failed: Input/output error'
swap_fails rename "rename=EXDEV" "rename 1" \
    '$w/out.npy: cannot rename $T to it: Invalid cross-device link'

# a write interrupted by a signal is made again: the same file as without
fresh
run "write@tmp:2=EINTR" swap "$in" --to big -o "$w/out.npy"
if fired "write 2" && [ "$rc" = 0 ] && [ ! -s "$dir/err" ] && [ ! -s "$dir/out" ]; then pass; else
    fail "swap with an interrupted write: exit $rc: $(head -c 200 "$dir/err")"; fi
cp "$dir/ref.new.npy" "$dir/ref.out.npy"
same "swap EINTR" "write@tmp:2=EINTR" out.npy
only "$w" out.npy

# short writes are made again
fresh
run "write@tmp:1+=short" swap "$in" --to big -o "$w/out.npy"
if fired "write 2" && [ "$rc" = 0 ] && [ ! -s "$dir/err" ]; then pass; else
    fail "swap with short writes: exit $rc: $(head -c 200 "$dir/err")"; fi
cp "$dir/ref.new.npy" "$dir/ref.out.npy"
same "swap short writes" "write@tmp:1+=short" out.npy
only "$w" out.npy

# the folder's fsync after the rename (the second fsync) failing is an
# error; the rename cannot be taken back: OUT is the new file, whole
fresh
expect "swap folder fsync" "fsync:2=EIO" "fsync 2" 2 \
    "$w/out.npy: i/o error: $w/out.npy: the new file is in place, but fsync of its folder failed: Input/output error" \
    swap "$in" --to big -o "$w/out.npy"
cp "$dir/ref.new.npy" "$dir/ref.out.npy"
same "swap folder fsync" "fsync:2=EIO" out.npy
only "$w" out.npy
# a file system that cannot sync a folder: the swap succeeds
fresh
run "fsync:2=EINVAL" swap "$in" --to big -o "$w/out.npy"
if fired "fsync 2" && [ "$rc" = 0 ] && [ ! -s "$dir/err" ]; then pass; else
    fail "swap where folders cannot be synced: exit $rc: $(head -c 200 "$dir/err")"; fi
cp "$dir/ref.new.npy" "$dir/ref.out.npy"
same "swap folder fsync unsupported" "fsync:2=EINVAL" out.npy

# --in-place whose rename fails: FILE unchanged, no temporary file
rm -rf "$w"
mkdir "$w"
cp "$in" "$w/in.npy"
cp "$in" "$dir/ref.in.npy"
real=$(cd "$w" && pwd -P)/in.npy
expect "swap --in-place rename" "rename=EACCES" "rename 1" 2 \
    "$real: i/o error: $real: cannot rename $real.XXXXXXXX.tmp to it: Permission denied" \
    swap "$w/in.npy" --to big --in-place
same "swap --in-place" "rename=EACCES" in.npy
only "$w" in.npy

# SIGTERM while the temporary file exists: the handler removes it and the
# process ends by that signal (status 143); OUT is untouched
fresh
env NPYDT_FAIL='fsync@tmp!TERM' $preloaded swap "$in" --to big -o "$w/out.npy" \
    >"$dir/out" 2>"$dir/err"
rc=$?
if [ "$rc" = 143 ] && [ ! -s "$dir/out" ] && ! grep -q npydt "$dir/err"; then pass; else
    fail "swap killed by SIGTERM: exit $rc (want 143): $(head -c 200 "$dir/err")"; fi
same "swap SIGTERM" "fsync@tmp!TERM" out.npy
only "$w" out.npy
# SIGINT while the temporary file is created (the injector raises it, then
# the open is made): the signal waits until its name is known, then the
# handler removes it
rm -rf "$w"
mkdir "$w"
env NPYDT_FAIL='open@tmp!INT' $preloaded swap "$in" --to big -o "$w/new.npy" \
    >"$dir/out" 2>"$dir/err"
rc=$?
if [ "$rc" = 130 ] && ! grep -q npydt "$dir/err"; then pass; else
    fail "swap killed by SIGINT as its temporary file is created: exit $rc (want 130): $(head -c 200 "$dir/err")"; fi
only "$w"

# ---- swap of an archive: the zip writer's writes and patches -------------------

zin=$Z/savez_compressed.npz
"$NPYDT" swap "$zin" --to big -o "$dir/ref.new.npz" || fail "swap archive reference"
zfresh() {
    rm -rf "$w"
    mkdir "$w"
    cp "$dir/ref.old.npy" "$w/out.npz"
    cp "$dir/ref.old.npy" "$dir/ref.out.npz"
}
zswap_fails() {  # zswap_fails NAME SPEC FIRED 'DETAIL'
    zfresh
    T=$w/out.npz.XXXXXXXX.tmp
    expect "swap archive $1" "$2" "$3" 2 "$w/out.npz: i/o error: $(eval "echo \"$4\"")" \
        swap "$zin" --to big -o "$w/out.npz"
    same "swap archive $1" "$2" out.npz
    only "$w" out.npz
}
zswap_fails "first write" "write@tmp=ENOSPC" "write 1" '$T: write failed: No space left on device'
zswap_fails "a member's data" "write@tmp:2=EDQUOT" "write 2" '$T: write failed: Disk quota exceeded'
zswap_fails "the central directory" "write@tmp>=46:6+=ENOSPC" "write 6" \
    '$T: write failed: No space left on device'
# the 23rd write is the first of the central directory (11 members of two
# writes each, local header and data, before it)
zswap_fails "the central directory's first entry" "write@tmp:23=ENOSPC" "write 23" \
    '$T: write failed: No space left on device'
zswap_fails "a patched local header" "pwrite@tmp=EIO" "pwrite 1" '$T: write failed: Input/output error'
zswap_fails "a patch of no byte" "pwrite@tmp=eof" "pwrite 1" '$T: write failed: Input/output error'
zswap_fails rename "rename=EXDEV" "rename 1" \
    '$w/out.npz: cannot rename $T to it: Invalid cross-device link'
# interrupted writes and patches are made again
zfresh
run "write@tmp:3=EINTR,pwrite@tmp:2=EINTR" swap "$zin" --to big -o "$w/out.npz"
if fired "write 3" && fired "pwrite 2" && [ "$rc" = 0 ] && [ ! -s "$dir/err" ]; then pass; else
    fail "swap archive with interrupted writes: exit $rc: $(head -c 200 "$dir/err")"; fi
cp "$dir/ref.new.npz" "$dir/ref.out.npz"
same "swap archive EINTR" "write@tmp:3=EINTR,pwrite@tmp:2=EINTR" out.npz

# ---- pack: the same atomic output ----------------------------------------------

"$NPYDT" pack "$dir/ref.new.npz" "a=$in" || fail "pack reference"
pfresh() {  # an output directory holding out.npz (an older file) and nothing else
    rm -rf "$w"
    mkdir "$w"
    cp "$dir/ref.old.npy" "$w/out.npz"
    cp "$dir/ref.old.npy" "$dir/ref.out.npz"
}
pack_fails() {  # pack_fails NAME SPEC FIRED 'DETAIL': OUT as it was, no temporary file
    pfresh
    T=$w/out.npz.XXXXXXXX.tmp
    expect "pack $1" "$2" "$3" 2 "$w/out.npz: i/o error: $(eval "echo \"$4\"")" \
        pack "$w/out.npz" "a=$in"
    same "pack $1" "$2" out.npz
    only "$w" out.npz
}
pack_fails "temporary file" open@tmp=EACCES "open 1" \
    '$w/out.npz: cannot create a temporary file beside it: Permission denied'
pack_fails "a member's header" "write@tmp:2=ENOSPC" "write 2" '$T: write failed: No space left on device'
pack_fails "a member's data" "write@tmp:3=EIO" "write 3" '$T: write failed: Input/output error'
pack_fails "the central directory" "write@tmp:4=ENOSPC" "write 4" \
    '$T: write failed: No space left on device'
pack_fails "a patched local header" "pwrite@tmp=EIO" "pwrite 1" '$T: write failed: Input/output error'
pack_fails fsync "fsync@tmp=EIO" "fsync 1" '$T: fsync failed: Input/output error'
pack_fails rename "rename=EXDEV" "rename 1" \
    '$w/out.npz: cannot rename $T to it: Invalid cross-device link'
# SIGTERM while the temporary file exists: removed, OUT untouched
pfresh
env NPYDT_FAIL='fsync@tmp!TERM' $preloaded pack "$w/out.npz" "a=$in" >"$dir/out" 2>"$dir/err"
rc=$?
if [ "$rc" = 143 ] && [ ! -s "$dir/out" ] && ! grep -q npydt "$dir/err"; then pass; else
    fail "pack killed by SIGTERM: exit $rc (want 143): $(head -c 200 "$dir/err")"; fi
same "pack SIGTERM" "fsync@tmp!TERM" out.npz
only "$w" out.npz

# ---- reading a .npy without mmap: pread, short reads, failures ------------------

# 256 data bytes after a 128-byte header: reads at offset 128 and on
# (pread^128) are the data's, whatever reads the header took
pf=$F/scalar_f16_le.npy
"$NPYDT" dump --jsonl "$pf" >"$dir/ref.dump" || fail "dump reference"
# dump_same NAME SPEC FIRED: exit 0, nothing on stderr, the same records
dump_same() {
    run "$2" dump --jsonl "$pf"
    if fired "$3" && [ "$rc" = 0 ] && [ ! -s "$dir/err" ] && cmp -s "$dir/out" "$dir/ref.dump"; then
        pass
    else
        fail "dump $1 ($2): exit $rc: $(head -c 200 "$dir/err")"
    fi
}
dump_same "with no mmap" "mmap:*=ENODEV" "mmap 1"
dump_same "one byte per pread" "mmap:*=ENODEV,pread:*=short" "pread 300"
dump_same "an interrupted pread" "mmap:*=ENODEV,pread^128:1=EINTR" "pread 1"
expect "dump pread fails" "mmap:*=ENODEV,pread^128:1=EIO" "pread 1" 2 \
    "$pf: i/o error: read failed: Input/output error" dump --jsonl "$pf"
expect "dump file shrinks" "mmap:*=ENODEV,pread^128:1=eof" "pread 1" 2 \
    "$pf: i/o error: the file shrank while it was read" dump --jsonl "$pf"
# the file is opened once for its header and data (open 2: after the
# archive probe)
expect "dump open fails" "open:2=EMFILE" "open 2" 2 \
    "$pf: i/o error: cannot open: Too many open files" dump --jsonl "$pf"
# the archive probe's open failing means "not an archive": a .npy still reads
run "open:1=EACCES" dump --jsonl "$pf"
if fired "open 1" && [ "$rc" = 0 ] && cmp -s "$dir/out" "$dir/ref.dump"; then pass; else
    fail "dump with the archive probe failing: exit $rc: $(head -c 200 "$dir/err")"; fi
# fstat 2: the data's (1 is the header parse's, which says the same)
expect "dump fstat fails" "fstat:2=EIO" "fstat 2" 2 \
    "$pf: i/o error: cannot stat: Input/output error" dump --jsonl "$pf"

# ---- cstruct: declarations past 1 MiB go on in a temporary file ----------------

# 3000 fields below 33 levels of names: 3.4 MB of declarations
python3 "$(dirname "$0")/tools/deep_names.py" 3000 "$dir/deep.npy"
expect "cstruct temporary file" "tmpfile" "tmpfile 1" 2 \
    "$dir/deep.npy: i/o error: cannot write a temporary file: Input/output error" \
    cstruct "$dir/deep.npy"

# ---- allocation sweeps ----------------------------------------------------------

# oom_ok LABEL...: stderr has a line "npydt: out of memory" (or "npydt:
# --schema: out of memory") or "LABEL: out of memory: ..." for one of the
# labels; every other line is one an unhindered run prints too (inspect and
# check go on with the next input after one fails)
oom_ok() {
    oom=0
    while IFS= read -r line; do
        case $line in
        "npydt: out of memory") oom=1; continue ;;
        esac
        for l in "$@"; do
            case $line in "$l: out of memory: "*) oom=1; continue 2 ;; esac
        done
        [ -f "$dir/referr" ] && grep -qxF -- "$line" "$dir/referr" || return 1
    done <"$dir/err"
    [ "$oom" = 1 ]
}
# partial COMMAND: inspect prints each array it could read when another
# ran out of memory (each input on its own, as the contract has it): what
# it printed is whole blocks of the unhindered output, in order, and
# (--json) the error objects of the arrays it could not print
partial() {
    [ "$1" = inspect ] || return 1
    "${PYTHON:-/usr/bin/python3}" - "$dir/out" "$dir/ref" <<'PYEOF'
import sys
out, ref = (open(p, "rb").read() for p in sys.argv[1:3])
# blocks: one JSON line, or a text block starting at a line without indent
def blocks(t):
    b = []
    for line in t.splitlines(keepends=True):
        if not line.startswith(b" ") or not b:
            b.append(line)
        else:
            b[-1] += line
    return b
want = blocks(ref)
it = iter(want)
# --json: an array that could not be printed has its error object instead
oom = b'"error":{"status":"out of memory",'
sys.exit(0 if all(oom in b or any(b == w for w in it) for b in blocks(out)) else 1)
PYEOF
}
# sweep 'LABELS' ARGS...: alloc:1, alloc:2, ... on the command; LABELS are
# the names an error may be reported under (space separated)
sweep() {
    labels=$1
    shift
    "$NPYDT" "$@" >"$dir/ref" 2>"$dir/referr"
    refrc=$?
    n=1
    ok=1
    while [ "$n" -le 5000 ]; do
        run "alloc:$n" "$@"
        fired "alloc $n" || break
        if [ "$rc" = "$refrc" ] && cmp -s "$dir/err" "$dir/referr" && cmp -s "$dir/out" "$dir/ref"; then
            :   # an allocation the run does without (stdio's buffers)
        elif [ "$rc" = 2 ] && oom_ok $labels && { [ ! -s "$dir/out" ] || partial "$1"; }; then
            :
        else
            fail "npydt $* with alloc:$n: exit $rc, $(wc -c <"$dir/out") bytes out: $(head -c 300 "$dir/err")"
            ok=0
            break
        fi
        n=$((n + 1))
    done
    # the run with nothing left to fail is the unhindered one
    if [ "$ok" = 1 ] && [ "$n" -gt 1 ] && [ "$rc" = "$refrc" ] && cmp -s "$dir/out" "$dir/ref"; then
        pass
    elif [ "$ok" = 1 ]; then
        fail "npydt $*: the sweep ended at alloc:$n with exit $rc"
    fi
}
sweep "$F/fortran_struct.npy" inspect "$F/fortran_struct.npy"
sweep "$F/fortran_struct.npy" inspect --json "$F/fortran_struct.npy"
members() {  # members ARCHIVE: ARCHIVE and ARCHIVE:MEMBER for each member
    printf '%s' "$1"
    "$NPYDT" inspect --json "$1" | sed -n "s|^.*,\"member\":\"\\([^\"]*\\)\".*| $1:\\1|p" | tr -d '\n'
}
sweep "$(members "$Z/savez.npz") $Z/savez.npz:records.npy" inspect "$Z/savez.npz" \
    "$Z/savez.npz:records.npy"
sweep "$(members "$Z/savez_compressed.npz")" inspect --json "$Z/savez_compressed.npz"
sweep "$F/fortran_struct.npy" dump "$F/fortran_struct.npy"
sweep "$F/fortran_struct.npy" dump --jsonl --fields a --head 3 "$F/fortran_struct.npy"
sweep "$Z/savez_compressed.npz $Z/savez_compressed.npz:records.npy" dump --jsonl "$Z/savez_compressed.npz:records.npy"
sweep "$Z/savez_compressed.npz $Z/savez_compressed.npz:records.npy" dump "$Z/savez_compressed.npz:records.npy"
sweep "$F/struct_subarray_of_struct.npy" dump --csv "$F/struct_subarray_of_struct.npy"
sweep "$F/struct_subarray_of_struct.npy" dump --tsv --fields pts.y,n "$F/struct_subarray_of_struct.npy"
sweep "$F/struct_subarray_of_struct.npy" dump --fields pts.y "$F/struct_subarray_of_struct.npy"
sweep "$F/struct_nested3.npy" inspect "$F/struct_nested3.npy"
sweep "$dir/packed.npz $F/fortran_struct.npy" pack "$dir/packed.npz" "a=$F/fortran_struct.npy"
sweep "$(members "$Z/savez.npz")" cstruct "$Z/savez.npz"
sweep "$F/fortran_struct.npy" cstruct "$F/fortran_struct.npy"
sweep "descr" cstruct --descr "[('a', '<i4'), ('b', [('c', '>f8', (2,))])]"
sweep "$F/fortran_struct.npy" check --schema "[('a', '<i2'), ('b', '|S2')]" "$F/fortran_struct.npy"
sweep "$(members "$Z/savez.npz")" check --schema "'<i8'" "$Z/savez.npz"

# check --json -j 2 when a task's output cannot be held in memory (the
# memory stream of every task, or of all tasks but the first, cannot be
# made): every FILE still gets its objects, in order, each the one an
# unhindered run prints or an error object saying out of memory (a
# FILE's stderr line says so too), and the exit status is 2
jfiles="$F/fortran_struct.npy $Z/savez.npz $dir/nope.npy $F/struct_nested3.npy"
# shellcheck disable=SC2086
"$NPYDT" check --json -j 2 --schema "'<i8'" $jfiles >"$dir/ref" 2>/dev/null
for spec in "open_memstream:*" "open_memstream:2+"; do
    # shellcheck disable=SC2086
    run "$spec" check --json -j 2 --schema "'<i8'" $jfiles
    named=$(sed 's/^{"file":"\([^"]*\)".*/\1/' "$dir/out" | uniq | tr '\n' ' ')
    others=$(grep -vxF -f "$dir/ref" "$dir/out" | grep -vc '"error":{"status":"out of memory","message":"out of memory","offset":null}}$')
    if fired "open_memstream 2" && [ "$rc" = 2 ] && [ "$named" = "$jfiles " ] && [ "$others" = 0 ] &&
        grep -q ': out of memory: out of memory$' "$dir/err"; then
        pass
    else
        fail "check --json -j 2 with $spec: exit $rc, objects of '$named' ($others unexpected): $(head -c 300 "$dir/err")"
    fi
done

# swap_sweep FILE EXT: swap FILE --to big into an empty directory with every
# allocation failed in turn: the right file, or nothing at all
swap_sweep() {
    src=$1 ext=$2
    rm -f "$dir/referr"
    "$NPYDT" swap "$src" --to big -o "$dir/ref.out.$ext" || fail "swap reference of $src"
    n=1
    ok=1
    while [ "$n" -le 5000 ]; do
        rm -rf "$w"
        mkdir "$w"
        run "alloc:$n" swap "$src" --to big -o "$w/out.$ext"
        fired "alloc $n" || break
        if [ "$rc" = 0 ] && [ ! -s "$dir/err" ] && cmp -s "$w/out.$ext" "$dir/ref.out.$ext" &&
            [ "$(ls -A "$w")" = "out.$ext" ]; then
            :
        elif [ "$rc" = 2 ] && [ -z "$(ls -A "$w")" ] && oom_ok $(members "$src") "$w/out.$ext"; then
            :
        else
            fail "swap $src with alloc:$n: exit $rc, left '$(ls -A "$w" | tr '\n' ' ')': $(head -c 300 "$dir/err")"
            ok=0
            break
        fi
        n=$((n + 1))
    done
    if [ "$ok" = 1 ] && [ "$n" -gt 1 ] && [ "$rc" = 0 ] && cmp -s "$w/out.$ext" "$dir/ref.out.$ext"; then
        pass
    elif [ "$ok" = 1 ]; then
        fail "swap $src: the sweep ended at alloc:$n with exit $rc"
    fi
}
swap_sweep "$F/fortran_struct.npy" npy
swap_sweep "$Z/savez_compressed.npz" npz
swap_sweep "$Z/savez.npz" npz

echo "cli-faults: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

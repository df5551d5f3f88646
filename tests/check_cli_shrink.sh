#!/bin/sh
# An input that another process truncates while the command reads it.
# Mapped (the default), a page past the new end raises SIGBUS; with
# --no-mmap, a read comes up short. Either way the command says
# "FILE: i/o error: the file shrank while it was read" on stderr, exits 2
# (an unreadable input) and leaves no temporary file next to OUT.
# The file shrinks at a chosen call through the fault injector
# (tests/tools/failinject.c, =shrink), and once without it: a reader of
# dump's output that truncates the file after the first 100 kB.
# Prints "cli-shrink: N passed, M failed".
NPYDT=${NPYDT:-build/npydt}
O=${O:-build}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "cli-shrink: $*"; }

# 4 MiB of data (more than one 1 MiB chunk of a reader without mmap), as a
# .npy file, a stored archive and a deflated one (640 kB)
src=$dir/src
mkdir "$src"
seq 0 524287 | "$NPYDT" load --dtype "'<f8'" -o "$src/big.npy" || fail "load big.npy"
"$NPYDT" pack "$src/big.npz" a="$src/big.npy" || fail "pack big.npz"
"$NPYDT" pack --compress "$src/bigc.npz" a="$src/big.npy" || fail "pack bigc.npz"
"$NPYDT" dump --jsonl "$src/big.npy" >"$dir/all.jsonl" || fail "dump big.npy"
w=$dir/w

# fresh FILE: the directory $w holding only a copy of FILE
fresh() {
    rm -rf "$w"
    mkdir "$w"
    cp "$src/$1" "$w/$1"
}

# only NAME...: $w holds exactly these entries (no temporary file)
only() {
    got=$(ls -A "$w" | tr '\n' ' ')
    want=
    for e in "$@"; do want="$want$e "; done
    if [ "$got" = "$want" ]; then pass; else fail "$label: $w holds '$got', want '$want'"; fi
}

# shrank FILE: exit 2 and the one line for $w/FILE on stderr
shrank() {
    msg="$w/$1: i/o error: the file shrank while it was read"
    if [ "$rc" = 2 ] && [ "$(cat "$dir/err")" = "$msg" ]; then pass; else
        fail "$label: exit $rc (want 2): '$(head -c 300 "$dir/err")' (want '$msg')"; fi
}

# ---- a reader of the output that truncates the input: no injector -----------

# dump_piped FILE ARGS...: dump ARGS... $w/FILE into a reader that takes
# 100 kB, truncates FILE to 500,000 bytes and reads the rest; sets rc
dump_piped() {
    f=$1
    shift
    { "$NPYDT" dump "$@" "$w/$f" 2>"$dir/err"; echo $? >"$dir/rc"; } |
        { head -c 100000 >/dev/null; truncate -s 500000 "$w/$f"; cat >/dev/null; }
    rc=$(cat "$dir/rc")
}
for mode in mapped --no-mmap --jobs=1 --jobs=2; do
    label="dump --jsonl ($mode), the file truncated by the reader of its output"
    fresh big.npy
    if [ "$mode" = mapped ]; then dump_piped big.npy --jsonl; else dump_piped big.npy --jsonl "$mode"; fi
    shrank big.npy
done

# ---- the file shrinks at a chosen call: the fault injector ---------------------

if [ -n "${SANITIZE:-}" ]; then
    echo "cli-shrink: the fault injector is skipped in a sanitizer build (SANITIZE=$SANITIZE)"
    echo "cli-shrink: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi
so=$O/tests/tools/failinject.so
if [ -f "$so" ]; then
    so=$(cd "$(dirname "$so")" && pwd)/failinject.so
    if [ -n "${EXEC:-}" ]; then
        preloaded="$EXEC -E LD_PRELOAD=$so ${NPYDT_TARGET:?}"
    else
        preloaded="env LD_PRELOAD=$so $NPYDT"
    fi
    # shellcheck disable=SC2086
    NPYDT_FAIL=open:1000000 NPYDT_FAIL_LOG="$dir/log" $preloaded --version >/dev/null 2>&1
    grep -qx armed "$dir/log" 2>/dev/null || so=
else
    so=
fi
if [ -z "$so" ]; then
    echo "cli-shrink: the fault injector does not work here; its cases are skipped"
    echo "cli-shrink: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi

# run SPEC FILE SIZE ARGS...: the command with NPYDT_FAIL=SPEC, where
# =shrink truncates $w/FILE to SIZE bytes; sets rc, fills $dir/out,
# $dir/err and $dir/log (the injector's: "armed", "FUNC N")
run() {
    spec=$1 file=$2 size=$3
    shift 3
    rm -f "$dir/log"
    # shellcheck disable=SC2086
    timeout 60 env NPYDT_FAIL="$spec" NPYDT_FAIL_LOG="$dir/log" NPYDT_FAIL_SHRINK="$w/$file" \
        NPYDT_FAIL_SHRINK_TO="$size" $preloaded "$@" >"$dir/out" 2>"$dir/err"
    rc=$?
}
fired() { grep -qx "$1" "$dir/log" 2>/dev/null; }

# shrinks NAME SPEC FIRED FILE SIZE ARGS...: the rule fired, and the run
# said the file shrank
shrinks() {
    label=$1 spec=$2 what=$3 file=$4 size=$5
    shift 5
    fresh "$file"
    run "$spec" "$file" "$size" "$@"
    if fired "$what"; then shrank "$file"; else fail "$label: $spec did not fire"; fi
}

# dump: the file is cut right after it is mapped; a .npy file's records
# are read (and printed) up to the new end, an archive's directory (at
# its end) is read from the mapping first
shrinks "dump --jsonl FILE.npy" mmap=shrink "mmap 1" big.npy 500000 dump --jsonl "$w/big.npy"
if [ "$(wc -c <"$dir/out")" -lt "$(wc -c <"$dir/all.jsonl")" ]; then pass; else
    fail "dump --jsonl FILE.npy: the whole output after the file shrank"; fi
shrinks "dump --jsonl ARCHIVE:NAME (stored)" mmap=shrink "mmap 1" big.npz 500000 \
    dump --jsonl "$w/big.npz:a"
shrinks "dump ARCHIVE (deflated)" mmap=shrink "mmap 1" bigc.npz 300000 dump "$w/bigc.npz"

# check, inspect: the file is cut as its first bytes are read, after its
# size was taken
shrinks "inspect FILE.npy" pread=shrink "pread 1" big.npy 200 inspect "$w/big.npy"
shrinks "check FILE.npy" pread=shrink "pread 1" big.npy 200 check --schema '<f8' "$w/big.npy"

# swap, pack: the file is cut once the temporary output file is written
# to; the temporary file is removed, OUT is not written
for f in big.npy big.npz bigc.npz; do
    ext=${f##*.}
    shrinks "swap $f" "write@tmp=shrink" "write 1" "$f" 300000 swap "$w/$f" --to big -o "$w/out.$ext"
    only "$f"
done
shrinks "swap --in-place big.npy" "write@tmp=shrink" "write 1" big.npy 300000 \
    swap "$w/big.npy" --to big --in-place
only big.npy
if [ "$(wc -c <"$w/big.npy")" = 300000 ]; then pass; else fail "swap --in-place replaced FILE"; fi
shrinks "pack" "write@tmp=shrink" "write 1" big.npy 300000 pack "$w/out.npz" a="$w/big.npy"
only big.npy

# --no-mmap: nothing is mapped (every mmap would fail and be logged), and a
# read that comes up short says the same
label="dump --no-mmap --jsonl FILE.npy"
fresh big.npy
run "pread>=4096=shrink,mmap:*=ENODEV" big.npy 300000 dump --no-mmap --jsonl "$w/big.npy"
if fired "pread 1" && ! fired "mmap 1"; then shrank big.npy; else fail "$label: the rules fired wrong"; fi
label="swap --no-mmap FILE.npy"
fresh big.npy
run "write@tmp=shrink,mmap:*=ENODEV" big.npy 300000 swap --no-mmap "$w/big.npy" --to big -o "$w/out.npy"
if fired "write 1" && ! fired "mmap 1"; then shrank big.npy; else fail "$label: the rules fired wrong"; fi
only big.npy
label="dump --no-mmap --jsonl ARCHIVE:NAME"
fresh bigc.npz
run "pread>=4096=shrink,mmap:*=ENODEV" bigc.npz 300000 dump --no-mmap --jsonl "$w/bigc.npz:a"
if fired "pread 1" && ! fired "mmap 1"; then shrank bigc.npz; else fail "$label: the rules fired wrong"; fi
# an archive is read whole before anything is written: cut afterwards,
# the swap is made of what was read
label="swap --no-mmap ARCHIVE, cut once the output is begun"
"$NPYDT" swap "$src/big.npz" --to big -o "$dir/ref.npz" || fail "swap reference"
fresh big.npz
run "write@tmp=shrink,mmap:*=ENODEV" big.npz 300000 swap --no-mmap "$w/big.npz" --to big -o "$w/out.npz"
if fired "write 1" && ! fired "mmap 1" && [ "$rc" = 0 ] && [ ! -s "$dir/err" ] &&
    cmp -s "$w/out.npz" "$dir/ref.npz"; then pass; else
    fail "$label: exit $rc: $(head -c 300 "$dir/err")"; fi

echo "cli-shrink: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

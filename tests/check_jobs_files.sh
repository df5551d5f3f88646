#!/bin/sh
# check, inspect and stats over many FILE arguments with -j N: each FILE
# is a task whose output is made by a worker and written in FILE order, so
# standard output, standard error (each alone and the two on one stream)
# and the exit status of -j 2, -j 4 and the default (one per processor)
# are byte for byte those of -j 1: over every fixture, the bad files and
# the archives, in text and --json, with '-' and '-:NAME' (a pipe) among
# them, usage errors of a selection in a worker included. And -j's value:
# 1 to 256, 0 for the default; anything else is a usage error. Prints
# "jobs-files: N passed, M failed".
NPYDT=${NPYDT:-build/npydt}
if [ ! -x "$NPYDT" ]; then
    echo "SKIP: jobs-files: $NPYDT is not built"
    exit 0
fi
F=tests/fixtures
Z=tests/fixtures_npz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL jobs-files: $*"; }

# the fixtures, the bad files and the archives: text, mismatches and errors
files=$(ls "$F"/*.npy "$F"/bad/*.npy "$Z"/*.npz | tr '\n' ' ')

# run TAG STDIN ARGS...: the command with STDIN on standard input; its
# stdout, stderr, both on one stream and status in $tmp/TAG.*
run() {
    tag=$1 in=$2
    shift 2
    # shellcheck disable=SC2086
    "$NPYDT" "$@" <"$in" >"$tmp/$tag.out" 2>"$tmp/$tag.err"
    echo $? >"$tmp/$tag.rc"
    # shellcheck disable=SC2086
    "$NPYDT" "$@" <"$in" >"$tmp/$tag.both" 2>&1
}
# same NAME STDIN ARGS...: -j 2, -j 4 and no -j give -j 1's bytes and status
same() {
    name=$1 in=$2
    shift 2
    run j1 "$in" "$@" -j 1
    if [ ! -s "$tmp/j1.out" ] && [ ! -s "$tmp/j1.err" ]; then
        fail "$name: -j 1 printed nothing"
        return
    fi
    if grep -q "unknown option" "$tmp/j1.err"; then
        fail "$name: -j refused: $(head -n 1 "$tmp/j1.err")"
        return
    fi
    for j in "-j 2" "-j 4" "--jobs=3" ""; do
        # shellcheck disable=SC2086
        run jn "$in" "$@" $j
        for part in out err both rc; do
            if ! cmp -s "$tmp/j1.$part" "$tmp/jn.$part"; then
                fail "$name: ${j:-no -j}: its $part differs from -j 1's"
                continue 2
            fi
        done
        pass
    done
}

# shellcheck disable=SC2086
{
same "check text" /dev/null check --schema "'<f8'" $files
same "check --json" /dev/null check --schema "'<f8'" --json $files
same "check --rules" /dev/null check --rules "{'': {'min': 0}}" --json $files
same "check with a pipe" "$F/fortran_2d.npy" check --schema "'<i4'" --json \
    "$F/fortran_2d.npy" - "$F/bad/data_short_2d.npy" "$Z/savez.npz"
same "check of an archive's members on a pipe" "$Z/savez.npz" check --schema "'<i8'" \
    --json "$F/fortran_2d.npy" -:ints "$F/bad/data_short_2d.npy" -:nope -:fortran "$Z/savez.npz"
same "inspect" /dev/null inspect $files
# refused archives (reported when the calling thread names their
# arrays) and missing members among many files, a task taking several:
# each report keeps its place, after the reports of the files before it
bad=$(ls "$Z"/bad/*.npz | tr '\n' ' ')
# shellcheck disable=SC2086
same "check of refused archives among files" /dev/null check --schema "'<f8'" --json \
    $files $bad $files "$Z/savez.npz:nope" $files
# shellcheck disable=SC2086
same "inspect of refused archives among files" /dev/null inspect $bad $files $bad
# NPYDT_JOBS=1 in the environment is the default -j: no thread is started
if command -v strace >/dev/null 2>&1; then
    # threads ENV [ARG]: threads started (a sanitizer may start its own:
    # -j 1's count is the baseline)
    threads() {
        # shellcheck disable=SC2086
        env "$1" strace -f -e trace=clone,clone3 -o "$tmp/trace" "$NPYDT" check ${2:-} \
            --schema "'<f8'" $files >/dev/null 2>&1
        grep -c 'clone' "$tmp/trace"
    }
    base=$(threads NPYDT_JOBS= "-j 1")
    one=$(threads NPYDT_JOBS=1)
    two=$(threads NPYDT_JOBS=2)
    if [ "$one" -eq "$base" ] && [ "$two" -gt "$base" ]; then pass; else
        fail "NPYDT_JOBS: $one threads started with 1, $two with 2, $base with -j 1"; fi
fi
cat "$F/fortran_2d.npy" "$F/fortran_2d.npy" >"$tmp/twice.npy"
same "stats of standard input named twice" "$tmp/twice.npy" stats - -
same "inspect of standard input named twice" "$F/fortran_2d.npy" inspect - -
same "inspect --json" /dev/null inspect --json $files
same "inspect --list" "$Z/savez_compressed.npz" inspect --list $files -
same "stats" /dev/null stats $files
same "stats --json" /dev/null stats --json $files
same "stats --index" /dev/null stats --index 1 $files
same "stats with a usage error in each task" /dev/null stats --range x $files
}

# -j's value
for j in 0 1 256; do
    if "$NPYDT" check --schema "'<f8'" -j "$j" "$F/fortran_2d.npy" >/dev/null 2>&1 ||
        [ $? = 1 ]; then pass; else fail "check -j $j refused"; fi
done
for cmd in check inspect stats; do
    for j in 257 -1 x ""; do
        "$NPYDT" $cmd -j "$j" "$F/fortran_2d.npy" >/dev/null 2>"$tmp/err"
        rc=$?
        if [ "$rc" = 2 ] && grep -q "^npydt: $cmd: " "$tmp/err"; then pass; else
            fail "$cmd -j '$j': exit $rc: $(head -c 200 "$tmp/err")"; fi
    done
done

echo "jobs-files: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

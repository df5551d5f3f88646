#!/bin/sh
# The command under valgrind's memcheck on every fixture: inspect, dump,
# check, cstruct, swap and schema on each .npy (valid, quirky and damaged)
# and each archive, and inspect and dump reading each from a pipe. Exit
# statuses 0 to 3 are the command's own; valgrind's 99
# (an error or a definite/indirect leak) fails the run. VALGRIND_CLI_EVERY=N
# takes every Nth file only (CI's sample); the default is every file.
#   usage: tests/valgrind_cli.sh NPYDT VALGRIND...
set -u
npydt=$1
shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
every=${VALGRIND_CLI_EVERY:-1}
runs=0
bad=0
i=0
vg() {  # vg ARGS...: one command under valgrind
    runs=$((runs + 1))
    "$@" >/dev/null 2>"$out/log"
    if [ $? -eq 99 ]; then
        bad=$((bad + 1))
        echo "valgrind-cli: errors in: $*" | cut -c1-300
        head -n 30 "$out/log"
    fi
}
vg_stdin() {  # vg_stdin FILE ARGS...: one command reading FILE from a pipe
    f=$1
    shift
    runs=$((runs + 1))
    cat "$f" | "$@" >/dev/null 2>"$out/log"
    if [ $? -eq 99 ]; then
        bad=$((bad + 1))
        echo "valgrind-cli: errors in: $* < $f" | cut -c1-300
        head -n 30 "$out/log"
    fi
}
for f in tests/fixtures/*.npy tests/fixtures/quirks/*.npy tests/fixtures/bad/*.npy \
         tests/fixtures_npz/*.npz tests/fixtures_npz/bad/*.npz; do
    [ -e "$f" ] || continue
    i=$((i + 1))
    [ $((i % every)) -eq 0 ] || continue
    vg "$@" "$npydt" inspect --json "$f"
    vg "$@" "$npydt" inspect "$f"
    vg "$@" "$npydt" dump --jsonl --head 3 "$f"
    vg "$@" "$npydt" dump --head 3 "$f"
    vg "$@" "$npydt" check --schema "[('a', '<f8')]" "$f"
    vg "$@" "$npydt" cstruct "$f"
    vg "$@" "$npydt" swap "$f" --to big -o "$out/swapped${f##*.}"
    vg "$@" "$npydt" schema "$f"
    vg "$@" "$npydt" check --schema "like:$f" "$f"
    vg_stdin "$f" "$@" "$npydt" inspect --json -
    vg_stdin "$f" "$@" "$npydt" dump --head 3 -
done
# the command line itself: help, unknown options and commands, missing
# values, type strings and descriptors as operands
vg "$@" "$npydt" --help
vg "$@" "$npydt" help dump
vg "$@" "$npydt" dump --jsnol tests/fixtures/struct_simple.npy
vg "$@" "$npydt" inspekt
vg "$@" "$npydt" swap tests/fixtures/struct_simple.npy --to
vg "$@" "$npydt" cstruct "f8, (2,3)i4, [('a', '<c16')]"
vg "$@" "$npydt" cstruct "[('z', '<c16'), ('class', '<i4')]"
vg "$@" "$npydt" check --schema "f8, i4, S5x" tests/fixtures/struct_simple.npy
echo "valgrind-cli: $runs runs, $bad with errors"
[ "$bad" -eq 0 ]

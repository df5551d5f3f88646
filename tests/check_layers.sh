#!/bin/sh
# The library's stages may only use earlier ones, each through its one
# private header (README, "Architecture"). This reads every quoted
# #include of src/ and grammar/ and fails, naming file and line, when a
# file includes
#   - a header of a later stage,
#   - a header of another stage that is not that stage's private header
#     (src/STAGE/STAGE.h), or
#   - anything of the library from src/cli/ (the command uses only the
#     public header, like any program).
# Includes that name no file of the tree (the generated parser.h) and the
# public include/npydt.h are allowed everywhere.
# Prints "check_layers: N passed, M failed": files whose includes all keep
# the order, and includes that break it.
# Usage: tests/check_layers.sh [ROOT]   (ROOT: the source tree, default .)
set -u
root=${1:-.}
# the library's stages in order, as the Makefile builds them, then the command
stages="$(sed -n 's/^LIB_STAGES := //p' "$root/Makefile") cli"
case $stages in
" cli") echo "check_layers: no LIB_STAGES line in $root/Makefile"; exit 2 ;;
esac

# rank STAGE: its position in $stages (0 when it is none of them)
rank() {
    i=1
    for s in $stages; do
        [ "$s" = "$1" ] && { echo "$i"; return; }
        i=$((i + 1))
    done
    echo 0
}

# stage_of PATH (relative to root): the stage a file belongs to, or nothing
stage_of() {
    case $1 in
    grammar/*) echo literal ;;
    src/*/*) p=${1#src/}; echo "${p%%/*}" ;;
    esac
}

fail=0
passed=0
list=$(mktemp) || exit 2
trap 'rm -f "$list"' EXIT
files=$(cd "$root" && find src grammar -type f \( -name '*.c' -o -name '*.h' -o -name '*.y' -o -name '*.re' \) | sort)
for f in $files; do
    from=$(stage_of "$f")
    if [ -z "$from" ]; then
        echo "check_layers: $f: in no stage folder (src/STAGE/)"
        fail=$((fail + 1)); bad=1
        continue
    fi
    from_rank=$(rank "$from")
    if [ "$from_rank" = 0 ]; then
        echo "check_layers: $f: src/$from/ is not a stage ($stages)"
        fail=$((fail + 1)); bad=1
        continue
    fi
    bad=0
    dir=${f%/*}
    # "LINE NAME" for every #include "NAME"
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$root/$f" |
        sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' > "$list"
    while read -r line name; do
        # resolve as the compiler does: the file's folder, then -Isrc, then -Iinclude
        if [ -f "$root/$dir/$name" ]; then
            target=$dir/$name
        elif [ -f "$root/src/$name" ]; then
            target=src/$name
        else
            continue    # include/npydt.h or a generated header
        fi
        to=$(stage_of "$target")
        [ "$to" = "$from" ] && continue
        where="$f:$line: #include \"$name\""
        if [ "$from" = cli ]; then
            echo "check_layers: $where: the command uses only the public header include/npydt.h"
            fail=$((fail + 1)); bad=1
        elif [ "$(rank "$to")" -gt "$from_rank" ]; then
            echo "check_layers: $where: stage $from includes later stage $to"
            fail=$((fail + 1)); bad=1
        elif [ "$target" != "src/$to/$to.h" ]; then
            echo "check_layers: $where: stage $from may use stage $to only through src/$to/$to.h"
            fail=$((fail + 1)); bad=1
        fi
    done < "$list"
    [ "$bad" = 0 ] && passed=$((passed + 1))
done
echo "check_layers: $passed passed, $fail failed"
[ "$fail" = 0 ]

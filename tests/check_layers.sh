#!/bin/sh
# The library's stages may only use earlier ones, each through its one
# private header (doc/architecture.md). This reads every #include of
# src/ and grammar/, quoted or in angle brackets, resolves it as the
# compiler does (a quoted name in the file's folder first, then -Isrc;
# "./" and "../" followed), and fails, naming file and line, when a file
# includes
#   - a header of a later stage,
#   - a header of another stage that is not that stage's private header
#     (src/STAGE/STAGE.h), or
#   - anything of the library from src/cli/ other than the text stage's
#     header src/text/text.h (the command uses the public header, like
#     any program, and the text stage's spelling of values), or
#   - a file of the tree outside src/ other than include/npydt.h.
# Includes that name no file of the tree (system headers, the generated
# parser.h) and the public include/npydt.h are allowed everywhere.
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

# normalize PATH: the path with "." and "NAME/.." parts taken out (a
# leading ".." that climbs out of the tree stays)
normalize() {
    echo "$1" | awk -F/ '{
        n = 0
        for (i = 1; i <= NF; i++) {
            if ($i == "" || $i == ".") continue
            if ($i == ".." && n > 0 && part[n] != "..") { n--; continue }
            part[++n] = $i
        }
        out = part[1]
        for (i = 2; i <= n; i++) out = out "/" part[i]
        print out
    }'
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
    # "LINE Q NAME" for every #include "NAME" (Q is ") and #include <NAME> (Q is <)
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]' "$root/$f" |
        sed -n 's/^\([0-9]*\):[^"<]*\(["<]\)\([^">]*\)[">].*/\1 \2 \3/p' > "$list"
    while read -r line quote name; do
        # resolve as the compiler does: a quoted name in the file's folder,
        # then -Isrc, then -Iinclude
        if [ "$quote" = '"' ] && [ -f "$root/$dir/$name" ]; then
            target=$(normalize "$dir/$name")
        elif [ -f "$root/src/$name" ]; then
            target=$(normalize "src/$name")
        elif [ -f "$root/include/$name" ]; then
            target=$(normalize "include/$name")
        else
            continue    # a system or generated header
        fi
        if [ "$quote" = '"' ]; then
            where="$f:$line: #include \"$name\""
        else
            where="$f:$line: #include <$name>"
        fi
        [ "$target" = include/npydt.h ] && continue
        to=$(stage_of "$target")
        if [ -z "$to" ]; then
            echo "check_layers: $where: $target is in no stage (only include/npydt.h is shared)"
            fail=$((fail + 1)); bad=1
            continue
        fi
        [ "$to" = "$from" ] && continue
        if [ "$from" = cli ]; then
            [ "$target" = src/text/text.h ] && continue
            echo "check_layers: $where: the command uses only include/npydt.h and src/text/text.h"
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

#!/bin/sh
# doc/npydt.bash-completion, sourced in bash: COMP_WORDS and COMP_CWORD are
# set as bash sets them for a word being completed, the completion function
# is called, and COMPREPLY must hold the expected words (sorted, joined by
# spaces).
# Prints "completion: N passed, M failed".
set -u
if ! command -v bash >/dev/null 2>&1; then
    echo "SKIP: completion check (no bash)"
    exit 0
fi
NPYDT=${NPYDT:-build/npydt}
case $NPYDT in /*) ;; *) NPYDT=$(pwd)/$NPYDT ;; esac
script=$(pwd)/doc/npydt.bash-completion
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# operands complete to arrays, archives and directories
mkdir "$tmp/sub"
: >"$tmp/a.npy"
: >"$tmp/b.npz"
: >"$tmp/c.txt"
passed=0
failed=0

# expect 'WANT' WORD...: complete the last WORD of "npydt WORD..." (the
# program is $NPYDT, as typed on a command line)
expect() {
    want=$1
    shift
    got=$(cd "$tmp" && bash -c '
        script=$1 prog=$2
        shift 2
        . "$script"
        COMP_WORDS=("$prog" "$@")
        COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
        _npydt
        printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd" " -
    ' sh "$script" "$NPYDT" "$@" 2>&1)
    if [ "$got" = "$want" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "completion: npydt $* -> '$got' (want '$want')"
    fi
}
commands=$("$NPYDT" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' | sort | paste -sd" " -)
expect "$(printf '%s\n' $commands help | sort | paste -sd" " -)" ""
expect "dump" du
expect "check cstruct" c
expect "schema stats swap" s
expect "--per-element" stats --per
expect "--json" stats --js
expect "--help --version" --
expect "inspect" help ins
expect "--json" inspect --js
expect "--jsonl" dump --js
expect "--in-place" swap x --in
expect "--help --in-place --limits --max-header-bytes --max-inflated --no-mmap --output --quiet --to -h -o -q" swap x -
# the input limits of every command that reads input, and the preset's name
expect "--max-header-bytes --max-inflated" inspect --max
expect "default untrusted" dump --limits ""
expect "--limits=untrusted" check --limits=u
expect "" dump --max-inflated ""
expect "--name" cstruct --na
expect "--allow-extra" check --all
expect "little" swap x --to l
expect "big" swap x --to = b
expect "--to=native" swap x --to=n
expect "a.npy b.npz sub" inspect ""
expect "a.npy" dump --jsonl a
expect "a.npy b.npz c.txt sub" swap a.npy --to big -o ""
expect "" dump --head ""
# after "--" a word that starts with '-' is a file
: >"$tmp/-d.npy"
expect "-d.npy" dump -- -
# every option of every command is offered after "--" is typed... as an option
for cmd in $commands; do
    opts=$("$NPYDT" "$cmd" --help | sed -n '/^Options:$/,$p' |
        sed -n 's/^  \(-[A-Za-z0-9]\)\{0,1\}[, ]*\(--[a-z0-9-]*\).*/\2/p' | sort | paste -sd" " -)
    expect "$opts" "$cmd" --
done
echo "completion: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

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
# (with AT=N set, complete the word N of them instead, as when the cursor
# is back inside the line)
expect() {
    want=$1
    shift
    got=$(cd "$tmp" && bash -c '
        script=$1 prog=$2 at=$3
        shift 3
        . "$script"
        COMP_WORDS=("$prog" "$@")
        COMP_CWORD=${at:-$(( ${#COMP_WORDS[@]} - 1 ))}
        _npydt
        printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd" " -
    ' sh "$script" "$NPYDT" "${AT:-}" "$@" 2>&1)
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
expect "--help --in-place --jobs --limits --max-header-bytes --max-inflated --no-mmap --output --quiet --to -h -j -o -q" swap x -
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
# the new options of dump and inspect are offered
expect "--sample --seed" dump --s
expect "--index --index-column" dump --ind
expect "--limits --list" inspect --li
# --fields completes to the field paths of the FILE on the command line,
# after the paths already typed; the names leading to a leaf too
printf '{"id":1,"pos":{"x":1.5,"y":2.5},"m":[[1,2],[3,4]]}\n' >"$tmp/r.jsonl"
"$NPYDT" load --dtype "[('id','<i4'),('pos',[('x','<f8'),('y','<f8')]),('m','<i2',(2,2))]" \
    --jsonl -o "$tmp/r.npy" "$tmp/r.jsonl" >/dev/null 2>&1
"$NPYDT" pack "$tmp/arc.npz" recs="$tmp/r.npy" other="$tmp/r.npy" >/dev/null 2>&1
if [ -s "$tmp/r.npy" ] && [ -s "$tmp/arc.npz" ]; then
    expect "id m m[0,0] m[0,1] m[1,0] m[1,1] pos pos.x pos.y" dump r.npy --fields ""
    expect "pos pos.x pos.y" dump r.npy --fields p
    expect "--fields=pos.x --fields=pos.y" dump r.npy --fields=pos.
    # the FILE may come after the word being completed
    AT=3 expect "id,pos id,pos.x id,pos.y" dump --fields id,p --jsonl -- r.npy
    AT=5 expect "pos.x pos.y" dump --head 2 --fields pos. arc.npz:recs.npy
    # bash splits at ':' (COMP_WORDBREAKS): the archive is three words
    expect "pos.x pos.y" dump arc.npz : recs.npy --fields pos.
    # a plain array has no fields to offer
    "$NPYDT" load --dtype '<f8' --jsonl -o "$tmp/p.npy" "$tmp/r.jsonl" >/dev/null 2>&1 ||
        printf '1.5\n' | "$NPYDT" load --dtype '<f8' --jsonl -o "$tmp/p.npy" - >/dev/null 2>&1
    expect "" dump p.npy --fields ""
    # standard input and FIFOs are not read while completing
    expect "" dump - --fields ""
    mkfifo "$tmp/fifo.npy" 2>/dev/null && expect "" dump fifo.npy --fields ""
    mkfifo "$tmp/fifo.npz" 2>/dev/null && expect "" dump fifo.npz:
    # members after ARCHIVE.npz:, the word whole or split at ':'
    expect "arc.npz:other.npy arc.npz:recs.npy" dump arc.npz:
    expect "arc.npz:recs.npy" inspect arc.npz:r
    expect ":other.npy :recs.npy" check arc.npz :
    expect "recs.npy" dump --jsonl arc.npz : r
else
    failed=$((failed + 1))
    echo "completion: could not build the record fixtures with npydt load and pack"
fi
echo "completion: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

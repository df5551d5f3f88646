#!/bin/sh
# Every command, on inputs that are not regular .npy files: a directory, a
# FIFO nobody writes to (must not hang), a missing path, an empty file.
# Exit 2 for unreadable paths, 1 for invalid content, never a signal or a
# hang, nothing on stdout.
NPYDT=${NPYDT:-build/npydt}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/fifo"
: > "$dir/empty.npy"
passed=0
failed=0
expect() {  # expect STATUS ARGS...
    want=$1
    shift
    timeout 10 "$NPYDT" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" = "$want" ] && [ ! -s "$dir/out" ] && [ -s "$dir/err" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "cli-errors: npydt $* -> exit $got (want $want): $(head -c 200 "$dir/err")"
    fi
}
for input in "$dir" "$dir/fifo" "$dir/missing.npy"; do
    expect 2 inspect "$input"
    expect 2 inspect --json "$input"
    expect 2 dump --jsonl "$input"
    expect 2 check --schema "'<f8'" "$input"
    expect 2 cstruct "$input"
    expect 2 swap "$input" --to big -o "$dir/out.npy"
done
expect 1 inspect "$dir/empty.npy"
expect 1 dump --jsonl "$dir/empty.npy"
expect 1 check --schema "'<f8'" "$dir/empty.npy"
expect 1 cstruct "$dir/empty.npy"
expect 1 swap "$dir/empty.npy" --to big -o "$dir/out.npy"
expect 2 nosuchcommand
expect 2 inspect --nosuchoption x
[ ! -e "$dir/out.npy" ] || { failed=$((failed + 1)); echo "cli-errors: swap left an output behind"; }
# swap --in-place through a symbolic link rewrites the target, keeps the link
cp tests/fixtures/struct_nested3.npy "$dir/real.npy"
ln -s real.npy "$dir/link.npy"
if "$NPYDT" swap "$dir/link.npy" --to big --in-place 2>"$dir/err" && [ -L "$dir/link.npy" ] &&
    "$NPYDT" inspect --json "$dir/real.npy" | grep -q '"str":">i2"'; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "cli-errors: swap --in-place through a symlink: $(head -c 200 "$dir/err")"
fi
echo "cli-errors: $passed passed, $failed failed"

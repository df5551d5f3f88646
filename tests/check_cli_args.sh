#!/bin/sh
# The command line every command shares: options from the command's table
# as --opt=value and --opt value, "--" ends options, "-" is an operand,
# operands kept in order; --help from the table on stdout; one line and a
# hint for an unknown option (with the nearest name), a missing value, a
# value given to a flag; "did you mean" for commands; help COMMAND and
# --version / -V.
NPYDT=${NPYDT:-build/npydt}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "cli-args: $*"; }
S=tests/fixtures/struct_simple.npy
B=tests/fixtures/fortran_2d.npy

# usage_error 'LINE' ARGS...: exit 2, nothing on stdout, stderr exactly
# LINE then the hint naming the command (the first word of ARGS), standard input a
# terminal (tests/tools/on_tty.py)
usage_error() {
    want=$1
    shift
    "${PYTHON:-/usr/bin/python3}" tests/tools/on_tty.py "$NPYDT" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    printf '%s\n%s\n' "$want" "Try 'npydt $1 --help'." >"$dir/want"
    if [ "$got" = 2 ] && [ ! -s "$dir/out" ] && cmp -s "$dir/err" "$dir/want"; then
        ok
    else
        bad "npydt $* -> exit $got, stderr '$(cat "$dir/err")' (want '$want' and the hint)"
    fi
}
usage_error "npydt: dump: unknown option '--jsnol' (did you mean '--jsonl'?)" dump --jsnol $S
usage_error "npydt: dump: unknown option '--jsnol' (did you mean '--jsonl'?)" dump --jsnol=1 $S
usage_error "npydt: dump: unknown option '-jsonl' (did you mean '--jsonl'?)" dump -jsonl $S
usage_error "npydt: check: unknown option '--sch' (did you mean '--schema'?)" check --sch x $S
usage_error "npydt: check: unknown option '--strcit' (did you mean '--strict'?)" \
    check --strcit --schema "'<f8'" $S
usage_error "npydt: swap: unknown option '--inplace' (did you mean '--in-place'?)" \
    swap $S --to big --inplace
usage_error "npydt: inspect: unknown option '--frobnicate'" inspect --frobnicate $S
usage_error "npydt: inspect: unknown option '-x'" inspect -x $S
usage_error "npydt: dump: option '--head' needs a value (N)" dump $S --head
usage_error "npydt: swap: option '-o' needs a value (OUT)" swap $S --to big -o
usage_error "npydt: dump: option '--jsonl' takes no value" dump --jsonl=yes $S
usage_error "npydt: inspect: option '--json' takes no value" inspect --json= $S
usage_error "npydt: schema: no FILE given (standard input is a terminal; give - to read it)" schema
usage_error "npydt: schema: more than one FILE ('$S' and '$B')" schema $S $B
# the word after an option that takes a value is its value, whatever it starts with
"$NPYDT" dump --head -1 $S >"$dir/out" 2>"$dir/err"
if [ "$(head -n 1 "$dir/err")" = "npydt: dump: --head needs a count (0 or more)" ]; then
    ok
else
    bad "dump --head -1: $(cat "$dir/err")"
fi

# the same command line spelled in each way gives the same output
same() {  # same 'WHAT' 'ARGS A' 'ARGS B'
    # shellcheck disable=SC2086
    "$NPYDT" $2 >"$dir/a" 2>&1
    a=$?
    # shellcheck disable=SC2086
    "$NPYDT" $3 >"$dir/b" 2>&1
    b=$?
    if [ "$a" = 0 ] && [ "$b" = 0 ] && [ -s "$dir/a" ] && cmp -s "$dir/a" "$dir/b"; then
        ok
    else
        bad "$1: 'npydt $2' (exit $a) and 'npydt $3' (exit $b) differ"
    fi
}
same "--opt=value and --opt value" "dump --jsonl --head=2 $S" "dump --jsonl --head 2 $S"
same "options after operands" "dump --jsonl --head 2 $S" "dump $S --head 2 --jsonl"
same "operands in order, options anywhere" "inspect --json $S $B" "inspect $S --json $B"
same "help COMMAND is COMMAND --help" "help dump" "dump --help"
same "-h is --help" "swap -h" "swap --help"
same "-V is --version" "-V" "--version"
# the operands keep their order
"$NPYDT" inspect $B --json $S >"$dir/out" 2>&1
if [ "$(sed -n 1p "$dir/out")" = "$("$NPYDT" inspect --json $B)" ] &&
    [ "$(sed -n 2p "$dir/out")" = "$("$NPYDT" inspect --json $S)" ]; then
    ok
else
    bad "inspect B --json S: the arrays are not printed in the order given"
fi
# -oOUT and --output=OUT are -o OUT
for form in "-o$dir/a.npy" "--output=$dir/a.npy"; do
    rm -f "$dir/a.npy"
    if "$NPYDT" swap $S --to big "$form" 2>"$dir/err" && [ -s "$dir/a.npy" ]; then
        ok
    else
        bad "swap $form: $(cat "$dir/err")"
    fi
done
# "-" is an operand, not an option: standard input (here empty, too short
# to be a file)
"$NPYDT" inspect - </dev/null >"$dir/out" 2>"$dir/err"
got=$?
if [ "$got" = 3 ] && grep -q "^-: truncated: " "$dir/err"; then ok; else bad "inspect - -> exit $got: $(cat "$dir/err")"; fi
# after "--" everything is an operand, --help too
"$NPYDT" inspect -- --help >"$dir/out" 2>"$dir/err"
got=$?
if [ "$got" = 2 ] && grep -q "^--help: " "$dir/err"; then ok; else bad "inspect -- --help -> exit $got: $(cat "$dir/err")"; fi

# --help of every command: the synopsis first, every option of the table
# in an Options list, -h/--help among them; stdout only, exit 0
for cmd in $("$NPYDT" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
    "$NPYDT" "$cmd" --help >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" = 0 ] && [ ! -s "$dir/err" ] && head -n 1 "$dir/out" | grep -q "^usage: npydt $cmd" &&
        grep -q '^Options:$' "$dir/out" && grep -q '^  -h, --help  *print this help and exit$' "$dir/out"; then
        ok
    else
        bad "$cmd --help -> exit $got: $(head -n 3 "$dir/out")"
    fi
done
"$NPYDT" dump --help >"$dir/out"
for opt in "--jsonl" "--fields A,B.C" "--head N"; do
    if grep -q -- "^      $opt  " "$dir/out"; then ok; else bad "dump --help lacks '$opt'"; fi
done
"$NPYDT" swap --help >"$dir/out"
if grep -q -- "^  -o, --output OUT  " "$dir/out"; then ok; else bad "swap --help lacks '-o, --output OUT'"; fi

# npydt --help lists every command, each one a line; help COMMAND works for each
"$NPYDT" --help >"$dir/out" 2>"$dir/err"
for cmd in inspect dump swap cstruct check; do
    if grep -q "^  $cmd  " "$dir/out"; then ok; else bad "npydt --help does not list $cmd"; fi
    if "$NPYDT" help "$cmd" >/dev/null 2>&1; then ok; else bad "npydt help $cmd fails"; fi
done

# unknown commands: one line (with the nearest command) and a hint
cmd_error() {  # cmd_error 'LINE' ARGS...
    want=$1
    shift
    "$NPYDT" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    printf '%s\n%s\n' "$want" "Try 'npydt --help'." >"$dir/want"
    if [ "$got" = 2 ] && [ ! -s "$dir/out" ] && cmp -s "$dir/err" "$dir/want"; then
        ok
    else
        bad "npydt $* -> exit $got, stderr '$(cat "$dir/err")' (want '$want' and the hint)"
    fi
}
cmd_error "npydt: unknown command 'inspekt' (did you mean 'inspect'?)" inspekt $S
cmd_error "npydt: unknown command 'chekc' (did you mean 'check'?)" chekc $S
cmd_error "npydt: unknown command 'hlep' (did you mean 'help'?)" hlep
cmd_error "npydt: unknown command 'frobnicate'" frobnicate
cmd_error "npydt: unknown command 'dupm' (did you mean 'dump'?)" help dupm
cmd_error "npydt: help: give one COMMAND" help dump swap

# ---- one format for every usage error of every command ----------------------
# usage_format ARGS...: exit 2, nothing on stdout, and stderr exactly two
# lines: "npydt: CMD: MESSAGE" and "Try 'npydt CMD --help'.", CMD the
# first word of ARGS; whatever found the error (the shared option reader,
# the input limits, the command itself, its spec or output checks)
Z=tests/fixtures_npz
printf '1\n' >"$dir/one.jsonl"
# (with tty=1: standard input a terminal, tests/tools/on_tty.py, where a
# command given no FILE does not read it)
usage_format() {
    if [ -n "${tty:-}" ]; then
        "${PYTHON:-/usr/bin/python3}" tests/tools/on_tty.py "$NPYDT" "$@"
    else
        "$NPYDT" "$@"
    fi >"$dir/out" 2>"$dir/err"
    got=$?
    first=$(sed -n 1p "$dir/err")
    if [ "$got" = 2 ] && [ ! -s "$dir/out" ] && [ "$(wc -l <"$dir/err")" -eq 2 ] &&
        [ "${first#"npydt: $1: "}" != "$first" ] &&
        [ "$(sed -n 2p "$dir/err")" = "Try 'npydt $1 --help'." ]; then
        ok
    else
        bad "usage format: npydt $* -> exit $got, stderr '$(cat "$dir/err")'"
    fi
}
for c in inspect dump swap cstruct check schema load append pack; do
    usage_format $c --bogus
    tty=1; usage_format $c; tty=
done
usage_format inspect --json=1 $S
usage_format inspect --max-inflated 0 $S
usage_format inspect --limits strict $S
usage_format dump $S tests/fixtures/shape0d_f8.npy
usage_format dump --jsonl --seed 1 $S
usage_format dump --jsonl --no-header $S
usage_format dump --index-column $S
usage_format dump --jsonl --sample 1x $S
usage_format inspect --json --list $S
usage_format dump --head x $S
usage_format dump --jsonl --csv $S
usage_format dump --fields x,,y $S
usage_format dump --index 1 --tail 2 $S
usage_format dump --index x $S
usage_format dump --range 1:2:0 $S
usage_format dump --jsonl $Z/savez.npz
usage_format swap $S --to big
usage_format swap $S --to sideways -o "$dir/o.npy"
usage_format swap $S x --to big -o "$dir/o.npy"
usage_format swap $S --to big --output=
usage_format swap $S --to big -o $S
usage_format swap "$Z/savez.npz:ints" --to big -o "$dir/o.npy"
usage_format cstruct $S --descr '<f8'
usage_format cstruct --name int $S
usage_format cstruct $S $S
usage_format check $S
usage_format check --schema "'<f8'" --schema "'<f8'" $S
usage_format check --strict --safe-cast --schema "'<f8'" $S
tty=1; usage_format check --schema "'<f8'"; tty=
usage_format check --schema "f8, i4, S5x" $S
usage_format check --schema "like:$Z/savez.npz" $S
usage_format schema $S $B
usage_format schema $Z/savez.npz
usage_format load --dtype '<i4' "$dir/one.jsonl"
usage_format load -o "$dir/o.npy" "$dir/one.jsonl"
usage_format load --dtype '<i4' -o "$dir/o.npy" --jsonl --csv "$dir/one.jsonl"
usage_format load --dtype '<i4' -o "$dir/o.npy" --shape x "$dir/one.jsonl"
usage_format load --dtype "{'shape': (3,)}" -o "$dir/o.npy" "$dir/one.jsonl"
usage_format load --dtype "@$Z/savez.npz" -o "$dir/o.npy" "$dir/one.jsonl"
usage_format append "$dir/o.npy" "$dir/one.jsonl" "$dir/one.jsonl"
usage_format pack "$dir/o.npz" $Z/savez.npz

# ---- one format for every error that names a file ---------------------------
# file_format FILE ARGS...: exit 2 or 3, nothing on stdout, and stderr one
# line "FILE: WHAT: DETAIL" (never "npydt: CMD: FILE: ..."), FILE as typed
file_format() {
    file=$1
    shift
    "$NPYDT" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    first=$(sed -n 1p "$dir/err")
    if [ "$got" -ge 2 ] && [ ! -s "$dir/out" ] && [ "$(wc -l <"$dir/err")" -eq 1 ] &&
        [ "${first#"$file: "}" != "$first" ]; then
        ok
    else
        bad "file format: npydt $* -> exit $got, stderr '$(cat "$dir/err")'"
    fi
}
file_format tests/fixtures/shape0d_f8.npy dump --index 0 tests/fixtures/shape0d_f8.npy
file_format tests/fixtures/shape0d_f8.npy dump --range 1: tests/fixtures/shape0d_f8.npy
file_format $S dump --index 99 $S
file_format $S dump --index 0,0,0,0,0,0 $S
file_format "$dir/none.txt" check --schema "@$dir/none.txt" $S
file_format "$dir/none.txt" load --dtype "@$dir/none.txt" -o "$dir/o.npy" "$dir/one.jsonl"
file_format $S dump --fields nope $S
file_format "$dir/missing.npy" inspect "$dir/missing.npy"
# a member of an archive is named ARCHIVE:NAME, also when the archive is
# refused for it, and the message does not name it again
file_format $Z/bad/crc_stored.npz:ints.npy check --verify --schema "'<i4'" $Z/bad/crc_stored.npz:ints
file_format $Z/bad/duplicate.npz:a.npy inspect $Z/bad/duplicate.npz
file_format $Z/bad/short_member.npz:a.npy inspect $Z/bad/short_member.npz
for f in crc_stored duplicate short_member encrypted overlap; do
    "$NPYDT" inspect $Z/bad/$f.npz >/dev/null 2>"$dir/err"
    if grep -q "member '" "$dir/err" && ! grep -q "overlaps member '" "$dir/err"; then
        bad "member named twice: $(cat "$dir/err")"
    else
        ok
    fi
done
[ ! -e "$dir/o.npy" ] && [ ! -e "$dir/o.npz" ] && ok || bad "usage errors wrote output"

echo "cli-args: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# Every command, on inputs that are not regular .npy files: a directory, a
# FIFO nobody writes to (must not hang), a missing path, an empty file.
# Exit 2 for unreadable paths, 3 for invalid content, never a signal or a
# hang, nothing on stdout but the error object of a --json mode.
NPYDT=${NPYDT:-build/npydt}
# absolute, for the tests that run it from another directory
case $NPYDT in /*) ;; *) NPYDT=$(pwd)/$NPYDT ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/fifo"
: > "$dir/empty.npy"
passed=0
failed=0
# seconds a run may take: programs run through an emulator ($EXEC) are slower
if [ -n "${EXEC:-}" ]; then limit=120; else limit=10; fi
expect() {  # expect STATUS ARGS...
    want=$1
    shift
    timeout $limit "$NPYDT" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" = "$want" ] && [ ! -s "$dir/out" ] && [ -s "$dir/err" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "cli-errors: npydt $* -> exit $got (want $want): $(head -c 200 "$dir/err")"
    fi
}
expect_json() {  # expect_json STATUS STATUS-NAME ARGS...: stdout is one error object
    want=$1
    name=$2
    shift 2
    timeout $limit "$NPYDT" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" = "$want" ] && [ "$(wc -l <"$dir/out")" = 1 ] &&
        grep -q "^{\"file\":.*,\"error\":{\"status\":\"$name\",\"message\":\".*\",\"offset\":[0-9a-z]*}}\$" "$dir/out" &&
        [ -s "$dir/err" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "cli-errors: npydt $* -> exit $got (want $want, $name): $(head -c 200 "$dir/out") $(head -c 200 "$dir/err")"
    fi
}
for input in "$dir" "$dir/fifo" "$dir/missing.npy"; do
    expect 2 inspect "$input"
    expect_json 2 "i/o error" inspect --json "$input"
    expect_json 2 "i/o error" check --json --schema "'<f8'" "$input"
    expect 2 dump --jsonl "$input"
    expect 2 check --schema "'<f8'" "$input"
    expect 2 cstruct "$input"
    expect 2 swap "$input" --to big -o "$dir/out.npy"
done
expect 3 inspect "$dir/empty.npy"
expect_json 3 truncated inspect --json "$dir/empty.npy"
expect 3 dump --jsonl "$dir/empty.npy"
expect 3 check --schema "'<f8'" "$dir/empty.npy"
expect_json 3 truncated check --json --schema "'<f8'" "$dir/empty.npy"
expect 3 cstruct "$dir/empty.npy"
expect 3 swap "$dir/empty.npy" --to big -o "$dir/out.npy"
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

# Usage errors and help: the exact first line of stderr (the command's usage
# text may follow it), nothing on stdout, the exit status.
expect_msg() {  # expect_msg STATUS 'FIRST STDERR LINE' ARGS...
    want=$1
    msg=$2
    shift 2
    timeout $limit "$NPYDT" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" = "$want" ] && [ ! -s "$dir/out" ] && [ "$(head -n 1 "$dir/err")" = "$msg" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "cli-errors: npydt $* -> exit $got (want $want): '$(head -n 1 "$dir/err")' (want '$msg')"
    fi
}
expect_stdout() {  # expect_stdout 'FIRST STDOUT LINE' ARGS...: exit 0, nothing on stderr
    msg=$1
    shift
    timeout $limit "$NPYDT" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" = 0 ] && [ ! -s "$dir/err" ] && [ "$(head -n 1 "$dir/out")" = "$msg" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "cli-errors: npydt $* -> exit $got: '$(head -n 1 "$dir/out")' (want '$msg')"
    fi
}
F=tests/fixtures
Z=tests/fixtures_npz
S=$F/struct_simple.npy
expect_msg 2 "usage: npydt COMMAND [OPTIONS] FILE..."
for h in --help -h help; do
    expect_stdout "usage: npydt COMMAND [OPTIONS] FILE..." $h
done
version=$(sed -n 's/^#define NPYDT_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' include/npydt.h | paste -sd.)
expect_stdout "npydt $version" --version
expect_stdout "usage: npydt inspect [--json|--list] [-j N] FILE..." inspect --help
expect_stdout "usage: npydt dump [--jsonl|--csv|--tsv|--vertical|--arrow [-o OUT]] [--fields A,B.C] [--head N]" dump -h
expect_stdout "usage: npydt check [--schema SPEC [--strict|--safe-cast] [--allow-extra]] [--rules RULES]" check --help
# no FILE on a terminal (tests/tools/on_tty.py): nothing to read there
N=$NPYDT
NPYDT=$dir/npydt-on-tty
printf '#!/bin/sh\nexec "%s" "%s" "%s" "$@"\n' "${PYTHON:-/usr/bin/python3}" \
    "$(pwd)/tests/tools/on_tty.py" "$N" >"$NPYDT"
chmod +x "$NPYDT"
expect_msg 2 "npydt: inspect: no FILE given (standard input is a terminal; give - to read it)" inspect
expect_msg 2 "npydt: inspect: no FILE given (standard input is a terminal; give - to read it)" inspect --json --
expect_msg 2 "npydt: dump: no FILE given (standard input is a terminal; give - to read it)" dump --jsonl
NPYDT=$N
expect_msg 2 "npydt: inspect: unknown option '-x'" inspect -x $S
expect_msg 2 "$S:x: invalid argument: the part before ':' is not a zip (.npz) archive, so it has no members" inspect $S:x
expect_msg 2 "$Z/savez.npz:: invalid argument: no member name after ':'" inspect $Z/savez.npz:
# several FILEs are one stream of one dtype: the first of another is named
expect_msg 2 "npydt: dump: $F/shape0d_f8.npy: dtype '<f8' differs from [('x', '<f8'), ('y', '<i4'), ('name', '|S5')] of $S (several FILEs are dumped as one stream of one dtype)" dump $S $S $F/shape0d_f8.npy
expect_msg 2 "npydt: dump: unknown option '--bogus'" dump --bogus $S
expect_msg 2 "npydt: dump: option '--fields' needs a value (A,B.C)" dump $S --fields
expect_msg 2 "npydt: dump: empty field name in --fields 'x,,y'" dump --fields x,,y $S
expect_msg 2 "npydt: dump: field 'x' given twice" dump --fields x,y,x $S
for n in x "" -1 1x; do
    expect_msg 2 "npydt: dump: --head needs a count (0 or more)" dump --head "$n" $S
done
# a count past 64 bits means every element
if "$NPYDT" dump --jsonl --head 99999999999999999999999 $S >"$dir/out" 2>"$dir/err" &&
    "$NPYDT" dump --jsonl $S | cmp -s - "$dir/out"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "cli-errors: dump --head 99999999999999999999999: $(head -c 200 "$dir/err")"
fi
expect_msg 2 "npydt: dump: the table shows at most 100000 rows (--head); use --jsonl for more" \
    dump --head 100001 $Z/zeros_100m.npz
expect_msg 2 "npydt: check: --schema given twice" check --schema "'<f8'" --schema "'<f8'" $S
expect_msg 2 "npydt: check: option '--schema' needs a value (SPEC)" check $S --schema
expect_msg 2 "npydt: check: unknown option '--bogus'" check --bogus $S
expect_msg 2 "$dir: i/o error: --schema: cannot read: Is a directory" check --schema "@$dir" $S
expect_stdout "usage: npydt swap [-j N] FILE --to ORDER -o OUT" swap --help
expect_msg 2 "npydt: swap: more than one FILE ('$S' and 'x')" swap $S x --to big -o "$dir/o.npy"
expect_msg 2 "npydt: swap: no FILE given" swap --to big -o "$dir/o.npy"
for sel in "--index 0" "--range 1:"; do
    # shellcheck disable=SC2086
    expect_msg 2 "$F/shape0d_f8.npy: invalid argument: an array of shape () has no axis to index or slice" \
        dump $sel $F/shape0d_f8.npy
done
# an OUT whose temporary name ("OUT.XXXXXXXX.tmp") would pass
# PATH_MAX, by a long name or a long folder: refused before anything is
# read or written
long_base=$(awk 'BEGIN { for (i = 0; i < 4080; i++) printf "a" }')
long_dir=$(awk 'BEGIN { for (i = 0; i < 2100; i++) printf "d/" }')
for out in "$dir/$long_base.npy" "$long_dir/x.npy"; do
    timeout $limit "$NPYDT" swap $S --to big -o "$out" >"$dir/out" 2>"$dir/err"
    got=$?
    case $(sed -n 1p "$dir/err") in
    "npydt: swap: '"*" bytes)..."*"': path too long")
        if [ "$got" = 2 ] && [ ! -s "$dir/out" ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "cli-errors: swap -o (${#out}-byte path) -> exit $got (want 2)"
        fi ;;
    *)
        failed=$((failed + 1))
        echo "cli-errors: swap -o (${#out}-byte path): '$(head -c 200 "$dir/err")'" ;;
    esac
done
ls -A "$dir" | grep -q '\.tmp$' && { failed=$((failed + 1)); echo "cli-errors: a temporary file was left"; }
expect_msg 2 "npydt: swap: option '--to' needs a value (ORDER)" swap $S -o "$dir/o.npy" --to
expect_msg 2 "npydt: swap: --to ORDER is required" swap $S -o "$dir/o.npy"
expect_msg 2 "npydt: swap: --to must be little (<, le), big (>, be) or native (=), not 'sideways'" \
    swap $S --to sideways -o "$dir/o.npy"
expect_msg 2 "npydt: swap: option '-o' needs a value (OUT)" swap $S --to big -o
expect_msg 2 "npydt: swap: -o needs an output path" swap $S --to big --output=
expect_msg 2 "npydt: swap: give exactly one of -o OUT and --in-place" swap $S --to big
expect_msg 2 "npydt: swap: give exactly one of -o OUT and --in-place" \
    swap $S --to=big --output="$dir/o.npy" --in-place
expect_msg 2 "npydt: swap: unknown option '--bogus'" swap $S --bogus
expect_msg 2 "npydt: swap: '$Z/savez.npz:ints' names one member of an archive; swap writes whole files, so swap the whole archive (every member), or extract the member first" \
    swap $Z/savez.npz:ints --to big -o "$dir/o.npy"
expect_msg 2 "npydt: swap: cannot resolve '$dir/missing.npy': No such file or directory" \
    swap "$dir/missing.npy" --to big --in-place
# a dump after "--" takes a FILE that starts with '-'
cp $S "$dir/-s.npy"
if (cd "$dir" && "$NPYDT" dump --jsonl --head 1 -- -s.npy) >"$dir/out" 2>"$dir/err" &&
    [ "$(cat "$dir/out")" = "$("$NPYDT" dump --jsonl --head 1 $S)" ]; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "cli-errors: dump -- -s.npy: $(head -c 200 "$dir/err")"
fi

# "--" ends the options of swap, check and cstruct too: a FILE that
# starts with '-' is read, and gives what the same file does under its name
dashed() {  # dashed 'WHAT' STATUS CMD...: run in $dir on -s.npy, compare with $S
    what=$1
    want=$2
    shift 2
    (cd "$dir" && "$NPYDT" "$@" -- -s.npy) >"$dir/out" 2>"$dir/err"
    got=$?
    "$NPYDT" "$@" -- "$S" 2>&1 >"$dir/want" | sed "s|^$S|-s.npy|" >"$dir/want.err"
    sed "s|$S|-s.npy|g" "$dir/want" >"$dir/want.out"
    if [ "$got" = "$want" ] && cmp -s "$dir/out" "$dir/want.out" && cmp -s "$dir/err" "$dir/want.err"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "cli-errors: $what with -- -s.npy -> exit $got: $(head -c 200 "$dir/err")"
    fi
}
dashed "check (match)" 0 check --schema "[('x', '<f8'), ('y', '<i4'), ('name', '|S5')]"
dashed "check (mismatch)" 1 check --schema "'<f8'"
dashed "cstruct" 0 cstruct --name rec
rm -f "$dir/swapped.npy"
if (cd "$dir" && "$NPYDT" swap --to=big --output=swapped.npy -- -s.npy) 2>"$dir/err" &&
    "$NPYDT" swap $S --to big -o "$dir/want.npy" && cmp -s "$dir/swapped.npy" "$dir/want.npy"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "cli-errors: swap --to=big --output=OUT -- -s.npy: $(head -c 200 "$dir/err")"
fi
rm -f "$dir/swapped.npy" "$dir/want.npy" "$dir/want" "$dir/want.out" "$dir/want.err"
expect_stdout "usage: npydt check [--schema SPEC [--strict|--safe-cast] [--allow-extra]] [--rules RULES]" check -h
expect_stdout "usage: npydt cstruct [--name NAME] FILE|DESCR" cstruct -h
expect_stdout "usage: npydt swap [-j N] FILE --to ORDER -o OUT" swap -h
# an option that only starts as --name does is unknown, not --name
expect_msg 2 "npydt: cstruct: unknown option '--namex' (did you mean '--name'?)" cstruct --namex $S
# a descriptor literal after blanks is reported as one
expect_msg 3 "descr: syntax error: spec offset 14: expected ')' or ',', found end of header" \
    cstruct --descr "  [('a', '<i4'"

# Field names with control characters (NumPy writes them escaped in the
# header): inspect --json and dump --jsonl give them back as JSON escapes
# (\n \r \t \u0001 \u007f) that decode to NumPy's own names
if [ -x "${PYTHON:-/usr/bin/python3}" ] && "${PYTHON:-/usr/bin/python3}" -c 'import numpy' 2>/dev/null; then
    "${PYTHON:-/usr/bin/python3}" - "$dir/ctl.npy" "$NPYDT" <<'PYEOF'
import json, subprocess, sys
import numpy as np
names = ["a\nb", "c\rd", "e\tf", "g\x01h", "i\x7fj"]
a = np.zeros(2, dtype=[(n, "<i4") for n in names])
for k, n in enumerate(names):
    a[n] = [k, -k]
np.save(sys.argv[1], a)
out = subprocess.run([sys.argv[2], "inspect", "--json", sys.argv[1]], capture_output=True, text=True).stdout
got = [f["name"] for f in json.loads(out)["dtype"]["fields"]]
escaped = all(e in out for e in ('"a\\nb"', '"c\\rd"', '"e\\tf"', '"g\\u0001h"', '"i\\u007fj"'))
lines = subprocess.run([sys.argv[2], "dump", "--jsonl", sys.argv[1]], capture_output=True, text=True).stdout
rows = [json.loads(l) for l in lines.splitlines()]
want = np.load(sys.argv[1])
ok = got == names and escaped and rows == [{n: int(r[n]) for n in names} for r in want]
sys.exit(0 if ok else 1)
PYEOF
    if [ $? = 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "cli-errors: control characters in field names are not escaped as JSON wants"
    fi
    rm -f "$dir/ctl.npy"
fi

# cstruct on names that are no C identifiers (control characters, UTF-8,
# an invisible U+200B, an emoji, a reserved _Z..., a keyword): sanitised
# members, the NumPy name escaped in the comment, and the header compiles
if [ -x "${PYTHON:-/usr/bin/python3}" ] && "${PYTHON:-/usr/bin/python3}" -c 'import numpy' 2>/dev/null; then
    "${PYTHON:-/usr/bin/python3}" -W ignore -c '
import sys, numpy as np
names = ["a\nb", "c\rd", "e\tf", "g\x01h", "i\x7fj", "\u00e9t\u00e9", "x\u200by", "\U0001F600", "_Za", "int"]
np.save(sys.argv[1], np.zeros(2, dtype=[(n, "<i4") for n in names]))' "$dir/names.npy"
    "$NPYDT" cstruct "$dir/names.npy" >"$dir/names.h" 2>"$dir/err"
    got=$?
    grep 'int32_t' "$dir/names.h" >"$dir/members"
    cat >"$dir/members.want" <<'EOF2'
    int32_t a_b; /* <i4; little-endian (native); NumPy name "a\x0ab" */
    int32_t c_d; /* <i4; little-endian (native); NumPy name "c\x0dd" */
    int32_t e_f; /* <i4; little-endian (native); NumPy name "e\x09f" */
    int32_t g_h; /* <i4; little-endian (native); NumPy name "g\x01h" */
    int32_t i_j; /* <i4; little-endian (native); NumPy name "i\x7fj" */
    int32_t _u00e9t_u00e9; /* <i4; little-endian (native); NumPy name "été" */
    int32_t x_u200by; /* <i4; little-endian (native); NumPy name "x\u200by" */
    int32_t _u1f600; /* <i4; little-endian (native); NumPy name "😀" */
    int32_t f_Za; /* <i4; little-endian (native); NumPy name "_Za" */
    int32_t int_; /* <i4; little-endian (native); NumPy name "int" */
EOF2
    if [ "${TARGET_ENDIAN:-little}" != little ]; then
        sed -i 's/little-endian (native)/little-endian: swap before use, or run npydt swap --to native/' \
            "$dir/members.want"
    fi
    if [ "$got" = 0 ] && cmp -s "$dir/members" "$dir/members.want" &&
        ${CC:-cc} -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only -x c "$dir/names.h"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "cli-errors: cstruct of names that are not C identifiers -> exit $got:"
        diff "$dir/members.want" "$dir/members" | head -n 10
    fi
    rm -f "$dir/names.npy" "$dir/names.h" "$dir/members" "$dir/members.want"
fi

# Output that cannot be written (a full device) is an error of its own,
# exit 2, whatever the command; a long dump stops at the first failed
# flush instead of formatting 13 million elements for nothing.
for args in "inspect $S" "inspect --json $S" "dump $S" "dump --jsonl $S" "cstruct $S" \
    "check --json --schema '<f8' $F/scalar_f8_le.npy" "inspect --help" "--version" "--help"; do
    eval "timeout 10 \"\$NPYDT\" $args" >/dev/full 2>"$dir/err"
    got=$?
    if [ "$got" = 2 ] && [ "$(cat "$dir/err")" = "npydt: error writing output: No space left on device" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "cli-errors: npydt $args >/dev/full -> exit $got: $(head -c 200 "$dir/err")"
    fi
done
# (the member is inflated and checked first: 100 MB, slow under an emulator)
timeout $limit "$NPYDT" dump --jsonl $Z/zeros_100m.npz >/dev/full 2>"$dir/err"
got=$?
if [ "$got" = 2 ] && [ "$(cat "$dir/err")" = "npydt: error writing output: No space left on device" ]; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "cli-errors: dump of 13M elements to /dev/full -> exit $got: $(head -c 200 "$dir/err")"
fi

# swap when the output cannot grow (file size limit, SIGXFSZ ignored so
# write() fails with EFBIG): "OUT: i/o error: write failed: ...", exit 2,
# neither OUT nor a temporary file left, and --in-place leaves FILE as it
# was. The limit (32 blocks) still lets a coverage build write its counters.
swap_full() {  # swap_full OUT LEFT ARGS...: LEFT is what $dir/full must then hold
    out=$1
    keep=$2
    shift 2
    (trap '' XFSZ; ulimit -f 32; exec "$NPYDT" swap "$@") >"$dir/out" 2>"$dir/err"
    got=$?
    left=$(ls -A "$dir/full")
    if [ "$got" = 2 ] && [ "$left" = "$keep" ] && [ ! -s "$dir/out" ] &&
        [ "$(head -n 1 "$dir/err" | sed 's/\.[0-9a-f]\{8\}\.tmp:/.XXXXXXXX.tmp:/')" = \
            "$out: i/o error: $out.XXXXXXXX.tmp: write failed: File too large" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "cli-errors: swap $* under ulimit -f -> exit $got, left '$left': $(head -c 200 "$dir/err")"
    fi
}
mkdir "$dir/full"
swap_full "$dir/full/out.npy" "" $F/version2_big_header.npy --to big -o "$dir/full/out.npy"
swap_full "$dir/full/out.npz" "" $Z/zeros_100m.npz --to big -o "$dir/full/out.npz"
cp $F/version2_big_header.npy "$dir/full/in.npy"
swap_full "$dir/full/in.npy" in.npy "$dir/full/in.npy" --to big --in-place
if cmp -s $F/version2_big_header.npy "$dir/full/in.npy"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "cli-errors: a failed swap --in-place changed its FILE"
fi

# A file too large to map (address space limit) is read with pread
# instead: the same values, C and Fortran order. Not under a sanitizer,
# whose shadow memory needs more address space than the limit allows.
limited() {  # the command with about 40 MB of address space
    if [ -n "${EXEC:-}" ]; then
        # ulimit -v would stop the emulator itself (its code buffer alone
        # needs 128 MB): the emulator reserves that little for the target
        $EXEC -R 64M "$NPYDT_TARGET" "$@"
    else
        (ulimit -v 40000; exec "$NPYDT" "$@")
    fi
}
if [ -z "${SANITIZE:-}" ] && [ -x "${PYTHON:-/usr/bin/python3}" ]; then
    "${PYTHON:-/usr/bin/python3}" - "$dir" <<'PYEOF'
import struct, sys
for name, shape, fortran in (("big.npy", (33554432,), False), ("bigf.npy", (2, 16777216), True)):
    n = shape[0] * (shape[1] if len(shape) > 1 else 1)
    h = "{'descr': '<u2', 'fortran_order': %s, 'shape': %r, }" % (fortran, shape)
    h += " " * ((-(10 + len(h) + 1)) % 64) + "\n"
    with open(sys.argv[1] + "/" + name, "wb") as f:   # 64 MiB, sparse
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode())
        f.write(struct.pack("<6H", 1, 2, 3, 4, 5, 6))
        f.truncate(10 + len(h) + 2 * n)
PYEOF
    for c in "big.npy|1 2 3 4 5 6 0|--jsonl --head 7" "bigf.npy|(0,0)  1 (0,1)  3 (0,2)  5 (0,3)  0|--head 4"; do
        f=${c%%|*}
        rest=${c#*|}
        want=${rest%%|*}
        opts=${rest#*|}
        got=$(limited dump $opts "$dir/$f" 2>"$dir/err" |
            grep -v -e '^index' -e "^$dir" -e '^(4 of' | tr '\n' ' ')
        if [ "$got" = "$want " ] && [ ! -s "$dir/err" ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
            echo "cli-errors: pread fallback for $f: '$got' (want '$want'): $(head -c 200 "$dir/err")"
        fi
    done
    rm -f "$dir/big.npy" "$dir/bigf.npy"
fi
# A name or key holding a line break or a terminal control (escaped in the
# header text; NumPy writes field names like that) must not break the error
# line or reach the terminal: one line on stderr, no raw control byte.
npy_v1() {  # npy_v1 FILE HEADER-TEXT (printf escapes allowed)
    printf "$2" > "$dir/hdr"
    len=$(($(wc -c < "$dir/hdr") + 1))
    { printf '\223NUMPY\001\000'; printf "\\$(printf %03o $((len % 256)))\\$(printf %03o $((len / 256)))";
      cat "$dir/hdr"; printf '\n'; } > "$1"
}
one_error_line() {  # one_error_line STATUS ARGS...
    want=$1
    shift
    timeout $limit "$NPYDT" "$@" >"$dir/out" 2>"$dir/err"
    got=$?
    if [ "$got" = "$want" ] && [ "$(wc -l < "$dir/err")" = 1 ] &&
        ! LC_ALL=C grep -q "$(printf '[\001-\011\013-\037\177]')" "$dir/err"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "cli-errors: npydt $* -> exit $got (want $want), stderr not one clean line:"
        od -c "$dir/err" | head -5
    fi
}
npy_v1 "$dir/key.npy" "{'descr': '<f8', 'fortran_order': False, 'shape': (0,), 'x\\\\ny\\\\x1b[31m': 1}"
npy_v1 "$dir/name.npy" "{'descr': [('a\\\\nb', '<f8'), ('a\\\\nb', '<i4')], 'fortran_order': False, 'shape': (0,), }"
npy_v1 "$dir/u2028.npy" "{'descr': [('a\\\\u2028b', '<f8')], 'fortran_order': False, 'shape': (0,), }"
for cmd in inspect "dump --jsonl" cstruct "check --schema '<f8'"; do
    eval one_error_line 3 "$cmd" '"$dir/key.npy"'
    eval one_error_line 3 "$cmd" '"$dir/name.npy"'
done
one_error_line 1 check --schema "'<f8'" "$dir/u2028.npy"
if grep -q 'a\\u2028b' "$dir/err"; then passed=$((passed + 1)); else
    failed=$((failed + 1)); echo "cli-errors: U+2028 not escaped: $(cat "$dir/err")"; fi

# A file larger than 4 GiB (sparse: 2^31 + 1 u2 after the header) reads on
# every machine, a 32-bit one too: its size is checked (stat with 64-bit
# sizes) and its first elements print (read with pread where the file
# cannot be mapped)
npy_v1 "$dir/huge.npy" "$(printf '%-117s' "{'descr': '<u2', 'fortran_order': False, 'shape': (2147483649,), }")"
printf '\007\000' | dd of="$dir/huge.npy" bs=1 seek=130 conv=notrunc 2>/dev/null
truncate -s $((128 + 4294967298)) "$dir/huge.npy"
if timeout 60 "$NPYDT" inspect --json "$dir/huge.npy" >"$dir/out" 2>"$dir/err" &&
    grep -q '"data_bytes":4294967298' "$dir/out" &&
    [ "$(timeout 60 "$NPYDT" dump --jsonl --head 2 "$dir/huge.npy" 2>"$dir/err" | tr '\n' ' ')" = "0 7 " ]; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "cli-errors: a file over 4 GiB: $(head -c 300 "$dir/out") $(head -c 200 "$dir/err")"
fi
rm -f "$dir/huge.npy"
echo "cli-errors: $passed passed, $failed failed"

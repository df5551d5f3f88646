#!/bin/sh
# Lines on stderr: a name, path or descriptor longer than 512 bytes is cut
# in the middle, its first and last 256 bytes (to whole UTF-8 characters)
# joined by "...(N bytes)..."; and each line is one write(2), counted with
# strace where it is installed. Prints `messages: N passed, M failed`.
set -u
NPYDT=${NPYDT:-build/npydt}
PYTHON=${PYTHON:-/usr/bin/python3}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL messages: $*"; }

# same NAME GOT WANT
same() {
    if [ "$2" = "$3" ]; then
        ok
    else
        bad "$1: got '$(printf '%s' "$2" | head -c 300)', expected '$(printf '%s' "$3" | head -c 300)'"
    fi
}

# npy PATH NAME...: a .npy file of no elements whose dtype has one '<f8'
# field per NAME (UTF-8), written without NumPy
npy() {
    "$PYTHON" - "$@" <<'EOF'
import struct, sys
path, names = sys.argv[1], sys.argv[2:]
descr = "[" + ", ".join("(%r, '<f8')" % n for n in names) + "]"
h = "{'descr': %s, 'fortran_order': False, 'shape': (0,), }" % descr
h += " " * (63 - (12 + len(h.encode())) % 64) + "\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x03\x00" + struct.pack("<I", len(h.encode())) + h.encode())
EOF
}

# rep N TEXT: TEXT N times
rep() { awk -v n="$1" -v t="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", t }'; }

a600=$(rep 600 a)
b300=$(rep 300 b)
npy "$tmp/long.npy" "$a600$b300" || { echo "messages: 0 passed, 1 failed"; exit 1; }

# ---- a long name is cut in the middle; a short one is whole
"$NPYDT" check --schema "[('x', '<f8')]" "$tmp/long.npy" 2>"$tmp/err"
same "a 900-byte field name: its ends and its length" "$(sed -n 1p "$tmp/err")" \
    "$tmp/long.npy: schema mismatch: field x: missing_field: expected <f8, found (none)"
same "a 900-byte field name: its ends and its length" "$(sed -n 2p "$tmp/err")" \
    "$tmp/long.npy: schema mismatch: field $(rep 256 a)...(900 bytes)...$(rep 256 b): extra_field: expected (none), found <f8"
# 512 bytes: whole
npy "$tmp/edge.npy" "$(rep 512 c)"
"$NPYDT" check --schema "[('x', '<f8')]" "$tmp/edge.npy" 2>"$tmp/err"
same "a name of 512 bytes is whole" "$(sed -n 2p "$tmp/err")" \
    "$tmp/edge.npy: schema mismatch: field $(rep 512 c): extra_field: expected (none), found <f8"

# ---- the cut falls between characters: 'a' and 300 two-byte characters
# (601 bytes) keep 'a' and 127 of them in front, 128 at the end
e=$(printf '\303\251')
npy "$tmp/utf8.npy" "a$(rep 300 "$e")"
"$NPYDT" check --schema "[('x', '<f8')]" "$tmp/utf8.npy" 2>"$tmp/err"
same "a cut keeps whole UTF-8 characters" "$(sed -n 2p "$tmp/err")" \
    "$tmp/utf8.npy: schema mismatch: field a$(rep 127 "$e")...(601 bytes)...$(rep 128 "$e"): extra_field: expected (none), found <f8"

# ---- escapes still apply, on both sides of the cut
npy "$tmp/ctl.npy" "$(printf '\033')$a600$(printf '\a')"
"$NPYDT" check --schema "[('x', '<f8')]" "$tmp/ctl.npy" 2>"$tmp/err"
same "a cut name is escaped" "$(sed -n 2p "$tmp/err")" \
    "$tmp/ctl.npy: schema mismatch: field \\x1b$(rep 255 a)...(602 bytes)...$(rep 255 a)\\a: extra_field: expected (none), found <f8"

# ---- in an error line, C1 controls and U+2028/U+2029 are escaped (they
# break lines for Python's splitlines()); their neighbours are kept as
# they are, and a byte that does not start UTF-8 (a lone lead byte at the
# end) is \xNN
p=$(printf '/nonexistent/a\302\205b\302\240c\342\200\250d\342\200\251e\342\200\252f\342\201\200g\342\200')
"$NPYDT" inspect "$p" 2>"$tmp/err"
same "C1 controls and line separators escaped in a path" "$(cat "$tmp/err")" \
    "$(printf '/nonexistent/a\\u0085b\302\240c\\u2028d\\u2029e\342\200\252f\342\201\200g\\xe2\\x80'): i/o error: cannot open: No such file or directory"
p=$(printf '/nonexistent/a\302')
"$NPYDT" inspect "$p" 2>"$tmp/err"
same "a lead byte of C1 at the end of a path" "$(cat "$tmp/err")" \
    "/nonexistent/a\\xc2: i/o error: cannot open: No such file or directory"

# ---- a long path in an error line, and in a line made from a format
long=$tmp/$(rep 700 d).npy
"$NPYDT" inspect "$long" 2>"$tmp/err"
line=$(cat "$tmp/err")
case $line in
"$tmp/$(rep $((256 - ${#tmp} - 1)) d)...(${#long} bytes)...$(rep 252 d).npy: i/o error: "*) ok ;;
*) bad "a 700-byte path in an error line: $(printf '%s' "$line" | head -c 300)" ;;
esac
"$NPYDT" inspect --bogus-$a600 2>"$tmp/err"
same "a long option in a usage line" "$(sed -n 1p "$tmp/err")" \
    "npydt: inspect: unknown option '--bogus-$(rep 248 a)...(608 bytes)...$(rep 256 a)'"

# ---- the conversions of the line formatter (src/cli/report.c), each in a
# real message: %lld (negative), %zu and %llu; %u; %.*s
F=tests/fixtures
"$NPYDT" dump --index -99 $F/empty_3x0.npy >/dev/null 2>"$tmp/err"
same "%lld, %zu and %llu in a message" "$(sed -n 1p "$tmp/err")" \
    "$F/empty_3x0.npy: invalid argument: --index -99: index -99 is out of bounds for axis 0 with size 3"
"$PYTHON" -c '
import sys
h = "{\x27descr\x27: \x27|u1\x27, \x27fortran_order\x27: False, \x27shape\x27: (100001,), }"
h += " " * (63 - (10 + len(h)) % 64) + "\n"
sys.stdout.buffer.write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h.encode() + bytes(100001))
' >"$tmp/many.npy"
"$NPYDT" dump --head 100001 "$tmp/many.npy" >/dev/null 2>"$tmp/err"
same "%u in a message" "$(sed -n 1p "$tmp/err")" \
    "npydt: dump: the table shows at most 100000 rows (--head); use --jsonl for more"
"$NPYDT" dump --hea=1 $F/empty_3x0.npy >/dev/null 2>"$tmp/err"
same "%.*s in a message" "$(sed -n 1p "$tmp/err")" \
    "npydt: dump: unknown option '--hea' (did you mean '--head'?)"

# every format given to the functions that format through it uses only
# those conversions (and no %%): any other would print a wrong number
if [ -d src/cli ]; then
    "$PYTHON" - src/cli/*.c >"$tmp/formats" <<'EOF'
import re, sys
call = re.compile(r'\b(cli_line_format\s*\(\s*[^,()]+,|cli_message\s*\(|cli_usage_error\s*\(|'
                  r'cli_command_error\s*\(\s*[^,()]+,|usage_fail\s*\()\s*((?:"(?:[^"\\]|\\.)*"\s*)+)')
known = {"%s", "%.*s", "%u", "%zu", "%lld", "%llu"}
for path in sys.argv[1:]:
    text = open(path, encoding="utf-8").read()
    for m in call.finditer(text):
        for conv in re.findall(r'%[-+ #0-9]*(?:\.(?:\*|[0-9]+))?[hlzjtL]*[a-zA-Z%]', m.group(2)):
            if conv not in known:
                print("%s: %s in %s" % (path, conv, m.group(2).strip()[:80]))
EOF
    same "message formats use only %s %.*s %u %zu %lld %llu" "$(cat "$tmp/formats")" ""
fi

# ---- one write(2) per line (strace counts them)
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: write counts (strace would trace the emulator)"
elif ! command -v strace >/dev/null 2>&1; then
    echo "SKIP: write counts (strace not installed)"
elif ! strace -o /dev/null true 2>/dev/null; then
    echo "SKIP: write counts (strace cannot trace here)"
else
    # writes NAME WANT ARGS...: the number of write(2) calls to stderr
    writes() {
        name=$1 want=$2
        shift 2
        # LeakSanitizer cannot run under ptrace, and would say so on stderr
        ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
            strace -f -e trace=write -o "$tmp/trace" "$NPYDT" "$@" >/dev/null 2>"$tmp/err"
        got=$(grep -c '^[0-9]* *write(2,' "$tmp/trace")
        lines=$(wc -l <"$tmp/err")
        if [ "$got" -eq "$want" ] && [ "$lines" -eq "$want" ]; then
            ok
        else
            bad "$name: $got writes to stderr for $lines lines, expected $want"
        fi
    }
    writes "an error line with a long path" 1 check --schema "'<f8'" "$long"
    writes "an error line from the library" 1 inspect tests/fixtures/bad/empty_file.npy
    writes "a usage line and its hint" 2 inspect --bogus-$a600
    names=
    for i in 0 1 2 3 4 5 6 7 8 9; do names="$names $i$a600"; done
    # shellcheck disable=SC2086
    npy "$tmp/ten.npy" $names
    writes "eleven mismatch lines" 11 check --schema "[('$a600', '<f8')]" "$tmp/ten.npy"
fi

echo "messages: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

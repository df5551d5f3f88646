#!/bin/sh
# Headers that a rewrite would take past the limit readers take (HEADER_LEN
# 16 MiB): a 1.7 MB header of a comma type string, 'B,B,...,<u2' with
# 850,000 fields, becomes np.save's list of ('f0', '|u1') pairs, 16.9 MB.
# Every command that writes a header (swap of a .npy file or an archive,
# to OUT or in place; pack; load; append) refuses it with the limit's exit
# status (3, as the reader's refusal of such a header) before writing:
# no output, no temporary file, the input untouched; the header fuzzer's
# oracle expects that refusal. The input is made here, not stored.
NPYDT=${NPYDT:-build/npydt}
PY=${PYTHON:-/usr/bin/python3}
command -v "$PY" >/dev/null 2>&1 || PY=python3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
# the file, a one-member archive of it, one JSON line for it, and the
# HEADER_LEN np.save would give it (with room for the growth axis)
hlen=$("$PY" - "$dir" <<'PYEOF'
import sys, zipfile
d = sys.argv[1]
n = 850000
descr = ','.join(['B'] * (n - 1) + ['<u2'])
text = "{'descr': '%s', 'fortran_order': False, 'shape': (1,), }" % descr
text += ' ' * (-(12 + len(text) + 1) % 64) + '\n'
with open(d + '/comma.npy', 'wb') as f:
    f.write(b'\x93NUMPY\x02\x00' + len(text).to_bytes(4, 'little') + text.encode('latin-1'))
    f.write(bytes(n + 1))
with zipfile.ZipFile(d + '/comma.npz', 'w') as z:
    z.write(d + '/comma.npy', 'comma.npy')
with open(d + '/one.jsonl', 'w') as f:
    f.write('[' + ','.join(['0'] * n) + ']\n')
fields = ["('f%d', '|u1')" % i for i in range(n - 1)] + ["('f%d', '<u2')" % (n - 1)]
saved = "{'descr': [%s], 'fortran_order': False, 'shape': (1,), }" % ', '.join(fields)
saved += ' ' * 20 + '\n'   # room for 21 digits of the growth axis
print(len(saved) + 64 - (12 + len(saved)) % 64)
PYEOF
) || { echo "header-limit: cannot make the input"; exit 1; }
limit=16777216
mkdir "$dir/out"
cp "$dir/comma.npy" "$dir/comma.npz" "$dir/out/"
# expect 'WHERE' ARGS...: exit 1, exactly the limit's line on stderr
# naming WHERE, nothing on stdout, and the folder out/ as it was
expect() {
    where=$1
    shift
    (cd "$dir/out" && ls -A) >"$dir/before"
    "$NPYDT" "$@" >"$dir/stdout" 2>"$dir/stderr"
    got=$?
    (cd "$dir/out" && ls -A) >"$dir/after"
    want="$where: limit exceeded: the header would have length $hlen, above the limit of $limit bytes that readers take"
    if [ "$got" -ne 3 ]; then
        echo "header-limit: npydt $1: exit $got, want 3: $(head -c 300 "$dir/stderr")"
    elif [ "$(cat "$dir/stderr")" != "$want" ] || [ -s "$dir/stdout" ]; then
        echo "header-limit: npydt $1: stderr $(head -c 300 "$dir/stderr"), want $want"
    elif ! cmp -s "$dir/before" "$dir/after"; then
        echo "header-limit: npydt $1 left files behind: $(tr '\n' ' ' <"$dir/after")"
    elif ! cmp -s "$dir/comma.npy" "$dir/out/comma.npy" ||
        ! cmp -s "$dir/comma.npz" "$dir/out/comma.npz"; then
        echo "header-limit: npydt $1 changed its input"
    else
        passed=$((passed + 1))
        return
    fi
    failed=$((failed + 1))
}
o=$dir/out
expect "$o/comma.npy" swap "$o/comma.npy" --to big -o "$o/swapped.npy"
expect "$o/comma.npy" swap "$o/comma.npy" --to big --in-place
expect "$o/comma.npz:comma.npy" swap "$o/comma.npz" --to big -o "$o/swapped.npz"
expect "$o/comma.npz:comma.npy" swap "$o/comma.npz" --to big --in-place
expect "$o/comma.npy" pack "$o/packed.npz" "a=$o/comma.npy"
expect "$o/loaded.npy" load --dtype "@$o/comma.npy" -o "$o/loaded.npy" "$dir/one.jsonl"
expect "$o/comma.npy" append "$o/comma.npy" "$dir/one.jsonl"
# the header harness's oracle expects the refusal of the header written
# back (its replay build, when there is one)
replay=${O:-build}/fuzz-replay/fuzz_header
if [ -x "$replay" ]; then
    if ${EXEC:-} "$replay" "$dir/comma.npy" >"$dir/stdout" 2>&1; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "header-limit: fuzz_header's oracle fails: $(tail -n 3 "$dir/stdout")"
    fi
fi
echo "header-limit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# The input limits every command that reads .npy and .npz input takes:
# --max-inflated refuses a deflate bomb (made here, tests/make_bomb.py)
# when its archive is opened, before anything is inflated;
# --max-header-bytes refuses a long header; --limits untrusted sets the
# preset (its 4 MiB a parse refuses a header the others let through), and
# an explicit limit wins over it in either order. Prints
# "limits: N passed, M failed".
set -u
NPYDT=${NPYDT:-build/npydt}
PY=${PYTHON:-/usr/bin/python3}
[ -x "$PY" ] || PY=$(command -v python3 || true)
S=tests/fixtures/struct_simple.npy
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "limits: $*"; }

# refused STATUS 'LINE' ARGS...: exit STATUS, nothing on stdout, stderr
# exactly LINE
refused() {
    want=$1 line=$2
    shift 2
    "$NPYDT" "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" = "$want" ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$line" ]; then
        ok
    else
        bad "npydt $* -> exit $got, stderr '$(head -c 300 "$tmp/err")' (want $want, '$line')"
    fi
}

# accepted ARGS...: exit 0
accepted() {
    if "$NPYDT" "$@" >"$tmp/out" 2>"$tmp/err"; then ok; else
        bad "npydt $* -> exit $?, stderr '$(head -c 300 "$tmp/err")'"
    fi
}

# --- header length: every command that reads input ---------------------------------
long="$S: limit exceeded: header length 182 is above the limit of 100 bytes"
refused 3 "$long" inspect --max-header-bytes 100 "$S"
refused 3 "$long" inspect --max-header-bytes=100 "$S"
refused 3 "$long" dump --max-header-bytes 100 "$S"
refused 3 "$long" check --max-header-bytes 100 --schema "'<f8'" "$S"
refused 3 "$long" cstruct --max-header-bytes 100 "$S"
refused 3 "$long" schema --max-header-bytes 100 "$S"
refused 3 "$long" swap --max-header-bytes 100 "$S" --to big -o "$tmp/x.npy"
refused 3 "$long" pack --max-header-bytes 100 "$tmp/x.npz" "a=$S"
refused 3 "$long" load --max-header-bytes 100 --dtype "@$S" -o "$tmp/x.npy" /dev/null
if [ ! -e "$tmp/x.npy" ] && [ ! -e "$tmp/x.npz" ]; then ok; else bad "a refused input wrote OUT"; fi
accepted inspect --max-header-bytes 182 "$S"
accepted inspect --max-header-bytes 1K "$S"
refused 3 "tests/fixtures_npz/savez.npz:ints.npy: limit exceeded: header length 118 is above \
the limit of 100 bytes" inspect --max-header-bytes 100 tests/fixtures_npz/savez.npz:ints

# --- values -------------------------------------------------------------------------
hint="Try 'npydt inspect --help'."
for v in 0 12X 1KB -5 "" 99999999999999999999 20000000T; do
    refused 2 "npydt: inspect: --max-inflated needs a size of 1 or more bytes (digits, then K, M, \
G or T for KiB..TiB), not '$v'
$hint" inspect --max-inflated "$v" "$S"
done
refused 2 "npydt: inspect: --limits takes default or untrusted, not 'strict'
$hint" inspect --limits strict "$S"
refused 2 "npydt: append: unknown option '--max-inflated'
Try 'npydt append --help'." append "$tmp/none.npy" --max-inflated 1G
"$NPYDT" dump --help >"$tmp/help"
for o in "--limits default|untrusted" "--max-header-bytes BYTES" "--max-inflated BYTES"; do
    if grep -qF -- "$o" "$tmp/help"; then ok; else bad "dump --help lacks '$o'"; fi
done

# --- a header past the untrusted preset (64 KiB), within the default ----------------
wide=$tmp/wide.npy
d="{'descr': '<f8', 'fortran_order': False, 'shape': (0,), }"
n=$((70000 - ${#d} - 1))
# format 2.0: a 4-byte little-endian HEADER_LEN, 70000 = 0x00011170
{ printf '\223NUMPY\002\000\160\021\001\000'
  printf '%s' "$d"; printf "%${n}s\n" ''; } >"$wide"
accepted inspect "$wide"
refused 3 "$wide: limit exceeded: header length 70000 is above the limit of 65536 bytes" \
    inspect --limits untrusted "$wide"
accepted inspect --limits untrusted --max-header-bytes 1M "$wide"
accepted inspect --max-header-bytes 1M --limits untrusted "$wide"
accepted inspect --limits untrusted --limits default "$wide"

# --- a header the untrusted preset's 4 MiB a parse refuses --------------------------
# 9,999 fields of 90-byte names: 1 MB of header, 4.5 MB to parse; with
# HEADER_LEN let through to 1M, max_alloc_bytes is what refuses it
if [ -n "$PY" ]; then
    names=$tmp/names.npy
    "$PY" - "$names" <<'PYEOF'
import struct, sys
d = "[" + "".join("('%090d', '<f8'), " % i for i in range(9999)) + "]"
h = "{'descr': %s, 'fortran_order': False, 'shape': (0,), }" % d
h += " " * (63 - (12 + len(h)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x02\x00" + struct.pack("<I", len(h)) + h.encode())
PYEOF
    accepted inspect --max-header-bytes 1M "$names"
    refused 3 "$names: limit exceeded: the parse would hold more than 4194304 bytes \
(limits.max_alloc_bytes)" inspect --limits untrusted --max-header-bytes 1M "$names"
fi

# --- a deflate bomb: 1,040 MiB declared in a 1 MB archive ---------------------------
if [ -z "$PY" ]; then
    echo "SKIP: limits: no python3 to make the deflate bomb"
else
    bomb=$tmp/bomb.npz
    "$PY" tests/make_bomb.py "$bomb" bomb.npy 65
    size=$(wc -c <"$bomb")
    if [ "$size" -lt 2000000 ]; then ok; else bad "the bomb is $size bytes"; fi
    accepted inspect "$bomb"
    refused 3 "$bomb:bomb.npy: bad archive: brings the declared inflated size of \
the archive above the limit of 536870912 bytes (max_inflated_bytes): a zip bomb?" \
        dump --max-inflated 512M "$bomb"
    refused 3 "$bomb:bomb.npy: bad archive: brings the declared inflated size of \
the archive above the limit of 1073741824 bytes (max_inflated_bytes): a zip bomb?" \
        dump --limits untrusted "$bomb"
    refused 3 "$bomb:bomb.npy: bad archive: brings the declared inflated size of \
the archive above the limit of 1073741824 bytes (max_inflated_bytes): a zip bomb?" \
        swap --limits untrusted "$bomb" --to big -o "$tmp/swapped.npz"
    if [ ! -e "$tmp/swapped.npz" ]; then ok; else bad "swap of a refused bomb wrote OUT"; fi
    accepted inspect --limits untrusted --max-inflated 2G "$bomb"
    accepted inspect --max-inflated 2G --limits untrusted "$bomb"
fi

echo "limits: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# Type strings and descriptor literals against np.dtype(): thousands of
# strings (every one-letter code and kind+size with every byte-order prefix,
# NumPy's type names, datetime units, multipliers and divisors, comma
# strings, odd spellings NumPy's parser happens to take) must be accepted
# or refused exactly as NumPy does, with the same canonical descriptor.
PY=${PYTHON:-/usr/bin/python3}
PROBE=${O:-build}/tests/tools/descr_probe
if ! "$PY" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: type strings vs np.dtype (NumPy not importable)"
    exit 0
fi
# shellcheck disable=SC2086
"$PY" - ${EXEC:-} "$PROBE" <<'PYEOF'
import random, subprocess, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
probe = sys.argv[1:]  # the program, after an emulator when there is one

def canon(d):
    if d.names is not None:
        return repr(d.descr)
    if d.subdtype is not None:
        base, shape = d.subdtype
        return "(%s, %r)" % (canon(base), shape)
    return repr(d.str)

cands = set()
orders = ["", "<", ">", "=", "|"]
for o in orders:
    for c in map(chr, range(33, 127)):
        if c in "\n'\\":
            continue
        cands.add(o + c)
        for n in [0, 1, 2, 3, 4, 5, 8, 10, 12, 16, 32, 64]:
            cands.add("%s%s%d" % (o, c, n))
for name in [k for k in np.sctypeDict if isinstance(k, str)] + ["float", "int", "str", "bytes", "object", "a", "Bytes0", "Int32", "datetime64", "timedelta64"]:
    for o in orders:
        cands.add(o + name)
units = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as", "generic", "B", "x", "", "μs", "µs"]
for o in orders:
    for k in ["M8", "m8", "datetime64", "timedelta64", "M", "m"]:
        for u in units:
            for num in ["", "1", "25", "0", "-1", "+2", " 3", "2147483647", "2147483648"]:
                cands.add("%s%s[%s%s]" % (o, k, num, u))
        for u in ["Y", "M", "W", "D", "h", "m", "s", "ms", "ns", "as"]:
            for den in ["2", "3", "5", "7", "10", "12", "24", "60", "100", "1000", "1", " 2", "x"]:
                cands.add("%s%s[%s/%s]" % (o, k, u, den))
        cands.update([o + k + "[s", o + k + "[s]]", o + k + "s]", o + k + "[]", o + k + "[s]x"])
odd = ["f+8", "f 8", "f\t8", "S005", "U-0", "i-4", "S+5", "f08", "f8 ", " f8", "f 8 ", "S2147483647",
       "S2147483648", "U536870911", "U536870912", "V2147483647", "a5", "c", "(3)f4", "()f8", "<()f8",
       "<(2)f8", "(2,3)f4", "2f8", "1f8", "0f8", "i4,", "i4, f8", "i4,f8,", ",i4", "i4,,f8", "f8, f4, S5",
       "i4, (2,3)f8, S5", "<i4, >f8", ">i4, <(2)f8", "<>f8, i4", "(2)<f8, i4", "<(2)>f8, i4",
       "(2)>f8, i4", " (2)f8, i4", "(2) f8, i4", "(2 )f8, i4", "( 2)f8, i4", "(,)f8, i4", "3 f8, i4",
       "(2,)f8,i4", "((2))f8, i4", "f8 , i4", "f8 ,i4", "f8,\ti4", "M8[ns], m8[25s]", "M8[ns],(2)m8",
       "float64, int32", "f8, float64", "f8, <float64", "i4, ?", "b1, ?1", "(3)S, i4", "3S, i4",
       "(0)f8, i4", "(1,)f8, i4", "(1)f8, i4", "(2,3,)f8, i4", "(02)f8, i4", "(0x2)f8, i4",
       "S, U", "V3, (2)V", "f2.0, i4", "f8[ns], i4", "i4, M8[2s/4]", "O, i4", "O8,O4", "p, P", "i8, l"]
cands.update(odd)
rnd = random.Random(5)
pieces = ["<", ">", "|", "=", "f", "i", "u", "S", "U", "V", "M8", "m8", "[", "]", "s", "ns", "8", "4", "2",
          "1", "0", "(", ")", ",", " ", "float", "int", "64", "?", "b", "c", "O", "/", "D", "10"]
for _ in range(3000):
    cands.add("".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 7))))
cands = sorted(c for c in cands if "\n" not in c)

import re
# NumPy computes garbage for some inputs instead of refusing them (weeks
# divided by what its table does not hold, sizes that overflow a C int);
# npydt refuses those.
GARBAGE = re.compile(r"[SUV]-\d")
want = []
for c in cands:
    try:
        w = canon(np.dtype(c))
        want.append(None if GARBAGE.search(w) or ("W/" in c and "[0Y]" in w) else w)
    except BaseException:
        want.append(None)

out = subprocess.run(probe, input="\n".join(cands) + "\n", capture_output=True, text=True).stdout.split("\n")
passed = failed = 0
for c, w, g in zip(cands, want, out):
    ok = (w is None and g.startswith("ERROR")) or (w is not None and g == w)
    passed += ok
    failed += not ok
    if not ok and failed <= 40:
        print("type string %r: numpy %s, npydt %s" % (c, w, g))
print("typestr: %d passed, %d failed" % (passed, failed))
PYEOF

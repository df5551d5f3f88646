#!/bin/sh
# The typed writers against NumPy: random values of every sort written
# into every kind and byte order must give the bytes NumPy stores for the
# same value, or be refused exactly where NumPy's cast would lose or
# change the value (overflow to infinity, a fraction into an integer, a
# truncated string, an inexact datetime unit). Doubles include random bit
# patterns, subnormals and the halfway points between neighbouring f2 / f4
# values, where rounding must go to even as NumPy's cast does.
PY=${PYTHON:-/usr/bin/python3}
PROBE=${O:-build}/tests/tools/write_probe
if ! "$PY" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: typed writers vs NumPy (NumPy not importable)"
    exit 0
fi
# shellcheck disable=SC2086
"$PY" - ${EXEC:-} "$PROBE" <<'PYEOF'
import math, random, struct, subprocess, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
probe = sys.argv[1:]  # the program, after an emulator when there is one
rnd = random.Random(20261124)
RANGE, VALUE, ENCODING = "ERROR out of range", "ERROR bad value", "ERROR bad encoding"
cases = []  # (probe line, expected hex / error, or a function of the output)

def hexbits(x):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]

def expect_nan(t):
    def check(out):
        return not out.startswith("ERROR") and bool(np.isnan(np.frombuffer(bytes.fromhex(out), t)).all())
    return check

# x87 long double in 16 bytes: only comparable on a host whose NumPy has it
X87 = np.dtype(np.longdouble).itemsize == 16 and np.finfo(np.longdouble).nmant == 63

def value_bytes(arr, t):
    """Bytes of one element, the 6 padding bytes of f16 / c32 halves dropped."""
    b = arr.tobytes()
    if np.dtype(t).kind in "fc" and np.dtype(t).itemsize in (16, 32):
        half = 16
        keep = slice(0, 10) if t[0] == "<" else slice(6, 16)
        b = b"".join(b[i:i + half][keep] for i in range(0, len(b), half))
    return b.hex()

def masked(t, want):
    """A check of the probe's output against value_bytes for f16 and c32."""
    def check(out):
        if out.startswith("ERROR"):
            return False
        return value_bytes(np.frombuffer(bytes.fromhex(out), np.uint8), t) == want
    return check

# ---- doubles into floats -----------------------------------------------------
def doubles_for(size):
    """Random bit patterns, values near the format's ties, subnormals, limits."""
    vals = [struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0] for _ in range(1500)]
    if size in (2, 4):
        ft = np.float16 if size == 2 else np.float32
        ut = np.uint16 if size == 2 else np.uint32
        for _ in range(1500):
            bits = rnd.getrandbits(size * 8 - 1)  # a positive pattern
            a = np.array([bits], ut).view(ft)[0]
            b = np.array([bits + 1], ut).view(ft)[0]
            if not (np.isfinite(a) and np.isfinite(b)):
                continue
            mid = (float(a) + float(b)) / 2  # exact in double
            sign = rnd.choice([1.0, -1.0])
            vals += [sign * mid, sign * math.nextafter(mid, 0), sign * math.nextafter(mid, math.inf)]
        top = float(np.finfo(ft).max)
        ulp = top - float(np.nextafter(ft(top), ft(0)))
        for x in [top, top + ulp / 2, math.nextafter(top + ulp / 2, 0), top + ulp, 1e300]:
            vals += [x, -x]
        tiny = float(np.finfo(ft).smallest_subnormal)
        vals += [rnd.random() * tiny * 2048 for _ in range(300)]
        vals += [k * tiny / 2 for k in range(0, 40)]
    vals += [0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, -2.2250738585072014e-308]
    return vals

float_types = ["<f2", ">f2", "<f4", ">f4", "<f8", ">f8"] + (["<f16", ">f16"] if X87 else [])
for t in float_types:
    size = np.dtype(t).itemsize
    xs = doubles_for(min(size, 8))
    with np.errstate(all="ignore"):
        got = np.array(xs, np.float64).astype(t)
    for i, x in enumerate(xs):
        g = got[i:i + 1]  # keeps the byte order, as a scalar would not
        line = "%s d %s" % (t, hexbits(x))
        if math.isnan(x):
            cases.append((line, expect_nan(t)))
        elif math.isfinite(x) and not np.isfinite(g[0]):
            cases.append((line, RANGE))
        elif size == 16:
            cases.append((line, masked(t, value_bytes(g, t))))
        else:
            cases.append((line, g.tobytes().hex()))

# ---- complex numbers -----------------------------------------------------------
for t in ["<c8", ">c8", "<c16", ">c16"] + (["<c32"] if X87 else []):
    part = np.dtype(t).itemsize // 2
    xs = doubles_for(min(part, 8))
    for _ in range(800):
        re, im = rnd.choice(xs), rnd.choice(xs)
        if math.isnan(re) or math.isnan(im):
            continue
        with np.errstate(all="ignore"):
            g = np.array([complex(re, im)]).astype(t)
        line = "%s c %s %s" % (t, hexbits(re), hexbits(im))
        if (math.isfinite(re) and not np.isfinite(g.real[0])) or \
           (math.isfinite(im) and not np.isfinite(g.imag[0])):
            cases.append((line, RANGE))
        elif part == 16:
            cases.append((line, masked(t, value_bytes(g, t))))
        else:
            cases.append((line, g.tobytes().hex()))

# ---- integers into integers, bools and floats ---------------------------------------
def random_ints():
    out = [0, 1, -1, 2**63 - 1, -2**63, 2**64 - 1]
    for bits in (8, 16, 32, 64):
        out += [2**(bits - 1) - 1, 2**(bits - 1), -2**(bits - 1), -2**(bits - 1) - 1, 2**bits - 1, 2**bits]
    for _ in range(600):
        n = rnd.randint(1, 64)
        out.append(rnd.getrandbits(n) * rnd.choice([1, -1]))
    return [v for v in out if -2**63 <= v < 2**64]

ints = random_ints()
for t in ["|i1", "<i2", ">i2", "<i4", ">i4", "<i8", ">i8", "|u1", "<u2", ">u2", "<u4", ">u4", "<u8", ">u8", "|b1"]:
    if t == "|b1":
        lo, hi = 0, 1
    else:
        info = np.iinfo(t)
        lo, hi = int(info.min), int(info.max)
    for v in ints:
        line = "%s %s %d" % (t, "i" if v < 2**63 else "u", v)
        cases.append((line, np.array([v], t).tobytes().hex() if lo <= v <= hi else RANGE))

def reads_back_as(t, v):
    def check(out):
        if out.startswith("ERROR"):
            return False
        x = np.frombuffer(bytes.fromhex(out), t)[0]
        return bool(np.isfinite(x)) and int(x) == v
    return check

for t in ["<f2", ">f4", "<f8", ">f8"] + (["<f16", ">f16"] if X87 else []):
    ft = np.dtype(t).type
    for v in ints:
        line = "%s %s %d" % (t, "i" if v < 2**63 else "u", v)
        with np.errstate(all="ignore"):
            near = ft(float(v))  # exact whenever v is representable
        exact = bool(np.isfinite(near)) and int(near) == v
        cases.append((line, reads_back_as(t, v) if exact or np.dtype(t).itemsize == 16 else RANGE))

# ---- doubles into integers ------------------------------------------------------
for t in ["|i1", ">i2", "<i4", "<i8", "|u1", ">u4", "<u8", "|b1"]:
    lo, hi = (0, 1) if t == "|b1" else (int(np.iinfo(t).min), int(np.iinfo(t).max))
    xs = [float(v) for v in ints] + [v + rnd.choice([0.5, 0.25, -0.75]) for v in range(-300, 300, 7)]
    xs += [math.nan, math.inf, -math.inf, -0.0, 2.0**64, 2.0**63, -2.0**63, 1e300]
    for x in xs:
        ok = math.isfinite(x) and x.is_integer() and lo <= int(x) <= hi
        cases.append(("%s d %s" % (t, hexbits(x)), np.array([int(x)], t).tobytes().hex() if ok else RANGE))

# ---- datetimes ------------------------------------------------------------------
UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"]
# unit lengths in attoseconds; a year and a month as NumPy's timedelta
# averages (365.2425 days and a twelfth of it), exact integers
AS = {"Y": 31556952 * 10**18, "M": 2629746 * 10**18, "W": 7 * 86400 * 10**18,
      "D": 86400 * 10**18, "h": 3600 * 10**18, "m": 60 * 10**18, "s": 10**18, "ms": 10**15,
      "us": 10**12, "ns": 10**9, "ps": 10**6, "fs": 10**3, "as": 1}

def exact_ratio(count, fu, fm, tu, tm):
    num, den = count * fm * AS[fu], tm * AS[tu]
    if num % den:
        return RANGE
    r = num // den
    return struct.pack("<q", r).hex() if -2**63 < r < 2**63 else RANGE

def numpy_cast(count, src, dst):
    try:
        return int(np.array([count], "<" + src).astype("<" + dst).view("<i8")[0])
    except OverflowError:  # NumPy cannot form the factor (e.g. s to [7as])
        return None

# datetimes in years or months are the first day of that month of the
# proleptic Gregorian calendar (NumPy's rule), counted here by leap years
def leaps_before(y):  # leap years in [1970, y)
    f = lambda a: a // 4 - a // 100 + a // 400
    return f(y - 1) - f(1969)

def month_start_days(months):
    y, m = 1970 + months // 12, months % 12
    lengths = [31, 29 if (y % 4 == 0 and y % 100 != 0) or y % 400 == 0 else 28] + [31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return 365 * (y - 1970) + leaps_before(y) + sum(lengths[:m])

def day_month(days):
    """The month a day falls in and whether the day starts it."""
    y = 1970 + days * 400 // 146097
    while month_start_days((y - 1970) * 12) > days:
        y -= 1
    while month_start_days((y + 1 - 1970) * 12) <= days:
        y += 1
    months = (y - 1970) * 12
    while month_start_days(months + 1) <= days:
        months += 1
    return months, month_start_days(months) == days

def calendar_expected(count, fu, fm, tu, tm):
    if fu in "YM":
        days = month_start_days(count * fm * (12 if fu == "Y" else 1))
        return exact_ratio(days, "D", 1, tu, tm)
    total = count * fm * AS[fu]
    if total % AS["D"]:
        return RANGE
    months, first = day_month(total // AS["D"])
    return exact_ratio(months, "M", 1, tu, tm) if first else RANGE

for _ in range(5000):
    kind = rnd.choice("Mm")
    fu, tu = rnd.choice(UNITS), rnd.choice(UNITS)
    fm, tm = rnd.choice([1, 1, 1, 2, 3, 7, 10, 25, 1000]), rnd.choice([1, 1, 1, 2, 3, 7, 10, 25, 1000])
    count = rnd.choice([0, -2**63, rnd.randint(-10**6, 10**6), rnd.getrandbits(rnd.randint(1, 63)) * rnd.choice([1, -1])])
    src, dst = "%s8[%d%s]" % (kind, fm, fu), "%s8[%d%s]" % (kind, tm, tu)
    line = "<%s T %d %s %d" % (dst, count, fu, fm)
    if count == -2**63:
        cases.append((line, "0000000000000080"))
        continue
    calendar = kind == "M" and (fu in "YM") != (tu in "YM")
    want = (calendar_expected if calendar else exact_ratio)(count, fu, fm, tu, tm)
    finest = AS[tu] if AS[tu] < AS[fu] else AS[fu]
    if not want.startswith("ERROR") and abs(count) * fm * AS[fu] < 2**62 * finest:
        r = numpy_cast(count, src, dst)  # NumPy's own cast agrees where the value is kept
        if r is not None and struct.pack("<q", r).hex() != want:
            print("NumPy casts %d [%s] to %s as %d, expected %s" % (count, src, dst, r, want))
            sys.exit(1)
    cases.append((line, want))
for _ in range(600):  # month starts, written in days or seconds into months or years
    months = rnd.choice([rnd.randint(-10**5, 10**5), rnd.randint(-3 * 10**17, 3 * 10**17)])
    days = month_start_days(months)
    for dst, count, unit in [("M8[M]", days, "D"), ("M8[Y]", days, "D"), ("M8[M]", days * 86400, "s")]:
        if abs(count) >= 2**63:
            continue
        want = calendar_expected(count, unit, 1, dst[3], 1)
        if abs(months) <= 10**5:
            r = numpy_cast(count, "M8[%s]" % unit, dst)
            if struct.pack("<q", r).hex() != want and not (want == RANGE and dst == "M8[Y]"):
                print("NumPy casts %d [%s] to %s as %d, expected %s" % (count, unit, dst, r, want))
                sys.exit(1)
        cases.append(("<%s T %d %s 1" % (dst, count, unit), want))
cases += [("<m8 T 5 generic 1", struct.pack("<q", 5).hex()), ("<m8 T 5 s 1", VALUE),
          ("<M8[s] T 5 generic 1", VALUE), (">M8[D] T 3 W 1", struct.pack(">q", 21).hex())]

# ---- bytes, void and text -----------------------------------------------------------
for t in ["|S5", "|S1"]:
    for _ in range(300):
        b = bytes(rnd.choice([0, 1, 65, 97, 200, 255]) for _ in range(rnd.randint(0, 7)))
        ok = len(b) <= np.dtype(t).itemsize
        cases.append(("%s s %s" % (t, b.hex() or "-"), np.array([b], t).tobytes().hex() if ok else RANGE))
for _ in range(100):
    b = bytes(rnd.getrandbits(8) for _ in range(rnd.randint(3, 5)))
    cases.append(("|V4 s %s" % b.hex(), b.hex() if len(b) == 4 else RANGE))
points = [0, 0x41, 0x7f, 0xe9, 0x20ac, 0xd800, 0xdc00, 0xdfff, 0xfffd, 0x1f600, 0x10ffff]
for t in ["<U4", ">U4", "<U1"]:
    for _ in range(300):
        s = "".join(chr(rnd.choice(points)) for _ in range(rnd.randint(0, 6)))
        ok = len(s) <= np.dtype(t).itemsize // 4
        cases.append(("%s t %s" % (t, s.encode("utf-8", "surrogatepass").hex() or "-"),
                      np.array([s], t).tobytes().hex() if ok else RANGE))
for _ in range(300):
    b = bytes(rnd.choice([0x41, 0x80, 0xbf, 0xc0, 0xc3, 0xa9, 0xed, 0xa0, 0xe2, 0x82, 0xac, 0xf0, 0xf4, 0x90, 0xff]) for _ in range(rnd.randint(1, 6)))
    try:
        s = b.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        cases.append(("<U8 t %s" % b.hex(), ENCODING))
        continue
    cases.append(("<U8 t %s" % b.hex(), np.array([s], "<U8").tobytes().hex()))

out = subprocess.run(probe, input="\n".join(c[0] for c in cases) + "\n",
                     capture_output=True, text=True).stdout.split("\n")
passed = failed = 0
for (line, want), got in zip(cases, out + [""] * len(cases)):
    ok = want(got) if callable(want) else got == want
    passed += ok
    failed += not ok
    if not ok and failed <= 40:
        print("write %s: numpy %s, npydt %s" % (line, "(a check)" if callable(want) else want, got))
print("write: %d passed, %d failed" % (passed, failed))
PYEOF

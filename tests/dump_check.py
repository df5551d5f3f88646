#!/usr/bin/python3
"""Checks of `npydt dump --jsonl` and `npydt swap` against NumPy.

    python3 tests/dump_check.py --npydt build/npydt [--fixtures DIR]
                                [--random N] [--seed S] [--keep DIR]

1. Every FIXTURES/*.npy (and quirks/*.npy) with a .dump.jsonl: the dump's
   lines, parsed, equal the expectation (same JSON types; floats by value,
   -0.0 keeps its sign). Files without one (object arrays) must exit 3 with
   nothing on stdout.
2. When this interpreter has NumPy: N random files (random nested dtypes,
   byte orders, subarrays, shapes, fortran order, raw random bytes in every
   field) are dumped and compared with npy_reference.dump_lines; each is
   swapped to little, big and native, and NumPy must load the result with
   the swapped dtype, the same values (bytes after astype back), and the
   header np.save writes for it; swapping back restores the data bytes.

3. When NumPy is importable: the text table (no --jsonl) of every fixture
   with a .dump.jsonl, whole and with --head 1, equals a table built here
   from that expectation and NumPy's descriptor (column per top-level
   field, cells the compact JSON of each value cut to 40 bytes, float16
   and float32 as NumPy's repr of them, columns
   padded to the widest cell in characters, "(N of M elements; ...)" when
   rows are left out).

4. When NumPy is importable: dump's CSV/TSV, selections, value options
   and field paths against NumPy (tests/dump_modes.py).

Prints "dump: N passed, M failed" (failures listed above it).
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

from text_escape import text_escaped

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


class Result:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def ok(self):
        self.passed += 1

    def fail(self, msg):
        self.failed += 1
        print("FAIL: " + msg)


def same(a, b):
    """Strict JSON equality: bool is not int, float compares by value and
    sign of zero, int and float are not mixed, key order matters."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, float) and isinstance(b, float)):
            return False
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, int) or isinstance(b, int):
        return type(a) is type(b) and a == b
    if isinstance(a, str) or isinstance(b, str):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a.keys()) == list(b.keys()) and \
            all(same(a[k], b[k]) for k in a)
    return False


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def check_dump(res, npydt, path, expected):
    """expected: list of values, or None for 'must refuse with exit 3'."""
    rc, out, err = run([npydt, "dump", "--jsonl", path])
    if rc < 0:
        res.fail("%s: killed by signal %d" % (path, -rc))
        return
    if expected is None:
        if rc == 3 and out == b"" and err:
            res.ok()
        else:
            res.fail("%s: expected exit 3 and no output, got %d, %d bytes" %
                     (path, rc, len(out)))
        return
    if rc != 0:
        res.fail("%s: exit %d: %s" % (path, rc, err.decode(errors="replace").strip()))
        return
    try:
        got = [json.loads(line) for line in out.decode("utf-8").splitlines()]
    except (ValueError, UnicodeDecodeError) as e:
        res.fail("%s: output is not JSON lines: %s" % (path, e))
        return
    if len(got) != len(expected):
        res.fail("%s: %d lines, expected %d" % (path, len(got), len(expected)))
        return
    for i, (g, e) in enumerate(zip(got, expected)):
        if not same(g, e):
            res.fail("%s: line %d: got %s expected %s" %
                     (path, i + 1, json.dumps(g)[:300], json.dumps(e)[:300]))
            return
    res.ok()


def fixture_checks(res, npydt, fixtures):
    dirs = [fixtures, os.path.join(fixtures, "quirks")]
    n = 0
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not name.endswith(".npy"):
                continue
            path = os.path.join(d, name)
            exp = path[:-4] + ".dump.jsonl"
            insp = path[:-4] + ".inspect.json"
            if os.path.exists(exp):
                with open(exp, encoding="utf-8") as f:
                    expected = [json.loads(line) for line in f if line.strip()]
                check_dump(res, npydt, path, expected)
                n += 1
            elif os.path.exists(insp):
                with open(insp) as f:
                    obj = json.load(f)
                if '"O"' in json.dumps(obj["dtype"]):
                    check_dump(res, npydt, path, None)
                    n += 1
    return n


# ------------------------------------------------------------ float text --

def write_npy_f8(path, values):
    """A '<f8' .npy file written by hand (no NumPy needed)."""
    import struct
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    total = 10 + len(header) + 1
    header += " " * ((-total) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%dd" % len(values), *values))


def float_text_checks(res, npydt):
    """Floats print exactly as json.dumps (Python's repr) prints them:
    powers of two, subnormals, random bit patterns, float32 values, decimal
    boundaries."""
    import random
    import struct
    rnd = random.Random(20240607)
    groups = {}
    groups["powers of two"] = [s * 2.0 ** k for k in range(-1074, 1024) for s in (1, -1)]
    groups["subnormals"] = [struct.unpack("<d", struct.pack("<Q", rnd.randrange(1, 1 << 52)))[0]
                            for _ in range(5000)] + [5e-324, 2.2250738585072009e-308]
    bits = []
    while len(bits) < 100000:
        v = struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0]
        if math.isfinite(v):
            bits.append(v)
    groups["random bits"] = bits
    groups["float32 values"] = [struct.unpack("<f", struct.pack("<I", rnd.getrandbits(32)))[0]
                                for _ in range(20000)]
    groups["float32 values"] = [v for v in groups["float32 values"] if math.isfinite(v)]
    edges = []
    for k in range(-30, 31):
        x = 10.0 ** k
        edges += [x, math.nextafter(x, 0), math.nextafter(x, math.inf)] \
            if hasattr(math, "nextafter") else [x]
    edges += [1e16, 9999999999999998.0, 1e-4, 1e-5, 0.1, 0.2, 0.3, 1 / 3, 2.0 ** 53 + 2,
              1.7976931348623157e308, 123456789012345678.0, 0.5, 1.5, 100.0, 1e22, 1e23]
    groups["decimal edges"] = edges
    tmp = tempfile.mkdtemp(prefix="npydt-float-")
    try:
        for name, values in groups.items():
            path = os.path.join(tmp, "f.npy")
            write_npy_f8(path, values)
            rc, out, err = run([npydt, "dump", "--jsonl", path])
            lines = out.decode().splitlines()
            want = [json.dumps(v) for v in values]
            bad = [(g, w) for g, w in zip(lines, want) if g != w]
            if rc != 0 or len(lines) != len(want) or bad:
                res.fail("float text (%s): exit %d, %d lines, first differences %s" %
                         (name, rc, len(lines), bad[:3]))
            else:
                res.ok()
    finally:
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)


# ------------------------------------------------------------ text table --

CELL_MAX = 40        # bytes of a cell's text before it is cut with "..."
TEXT_HEAD = 20       # rows of the table without --head


def _esc(cp):
    return "\\u%04x" % cp


def _breaks_lines(cp):
    """C1 controls, U+2028 and U+2029: JSON may hold them raw, but
    splitlines() breaks lines at them, so the command escapes them."""
    return 0x80 <= cp <= 0x9f or cp in (0x2028, 0x2029)


# the escapes json.dumps writes short; every string of the command uses them
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
          "\t": "\\t"}


def _key(s):
    """A field name as the command's JSON keys spell it."""
    return '"' + "".join(_SHORT.get(c) or (_esc(ord(c)) if ord(c) < 0x20 or ord(c) == 0x7f or
                                           _breaks_lines(ord(c)) else c)
                         for c in s) + '"'


def _string(kind, s):
    """S: every byte outside printable ASCII escaped; U: controls and lone
    surrogates escaped, the rest as UTF-8."""
    out = []
    for c in s:
        cp = ord(c)
        if c in _SHORT:
            out.append(_SHORT[c])
        elif (cp < 0x20 or cp == 0x7f or (kind == "S" and cp >= 0x80) or 0xD800 <= cp < 0xE000
              or _breaks_lines(cp)):
            out.append(_esc(cp))
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def cell_json(dt, v):
    """The compact JSON of value v (as parsed from .dump.jsonl) of dtype dt."""
    if dt.subdtype is not None:
        base, shape = dt.subdtype

        def nest(x, level):
            if level == len(shape):
                return cell_json(base, x)
            return "[" + ",".join(nest(e, level + 1) for e in x) + "]"
        return nest(v, 0)
    if dt.names is not None:
        return "{" + ",".join(_key(n) + ":" + cell_json(dt.fields[n][0], v[n]) for n in dt.names) + "}"
    if isinstance(v, str):
        return _string(dt.kind, v) if dt.kind in "SU" else '"' + v + '"'
    if dt.kind in "fc" and dt.itemsize // (2 if dt.kind == "c" else 1) in (2, 4):
        # the table writes float16 and float32 as NumPy's repr of them
        import numpy as np
        own = {2: np.float16, 4: np.float32}[dt.itemsize // (2 if dt.kind == "c" else 1)]
        parts = v if dt.kind == "c" else [v]
        text = ['"%s"' % p if isinstance(p, str) else str(own(p)) for p in parts]
        return "[" + ",".join(text) + "]" if dt.kind == "c" else text[0]
    return json.dumps(v, separators=(",", ":"))   # numbers, booleans, complex pairs


def cell_str(dt, v):
    """A scalar cell of the table: NumPy's str() of value v (as parsed
    from .dump.jsonl) of dtype dt, as dump --csv writes a cell before
    quoting it (dump_modes.cell): True/False, floats as their own type's
    shortest text, complex as REAL+IMAGj, S bytes outside printable ASCII
    as \\xNN, U as it is, datetime64 as ISO 8601, NaT as NaT."""
    import numpy as np
    from dump_modes import cell
    if dt.kind in "fc":
        def num(p):
            return float(p) if isinstance(p, str) else p
        v = complex(num(v[0]), num(v[1])) if dt.kind == "c" else num(v)
        return cell(dt, v)
    if dt.kind == "S":
        return cell(dt, v.encode("latin-1"))
    if dt.kind == "V":
        return v
    if dt.kind in "Mm":
        if v == "NaT":
            return "NaT"
        x = np.array(v, dtype=np.dtype(dt.str[1:]))[()]
        text = cell(dt, x, iso=True)
        try:   # NumPy's text of a date beyond its range wraps around: the count
            same = np.datetime64(text, np.datetime_data(dt)) == x
        except (ValueError, OverflowError):
            same = False
        unit, mult = np.datetime_data(dt)
        if same and unit in "DW" and (v < 0) != (text[0] == "-"):
            # NumPy's year wraps where the calendar does not: the proleptic
            # Gregorian date of the day count
            z = v * mult * (7 if unit == "W" else 1) + 719468
            era, doe = divmod(z, 146097)
            yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
            doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
            mp = (5 * doy + 2) // 153
            m = mp + 3 if mp < 10 else mp - 9
            y = yoe + era * 400 + (m <= 2)
            text = "%s%04d-%02d-%02d" % ("-" if y < 0 else "", abs(y), m, doy - (153 * mp + 2) // 5 + 1)
        return text if dt.kind == "m" or same else str(v)
    return cell(dt, v)


def cell_text(dt, v):
    """A cell as the table shows it: cut, then escaped for the terminal."""
    scalar = dt.subdtype is None and dt.names is None
    return text_escaped(cut(cell_str(dt, v) if scalar else cell_json(dt, v)))


def cut(text):
    b = text.encode("utf-8")
    if len(b) <= CELL_MAX:
        return text
    k = CELL_MAX - 3
    while k > 0 and (b[k] & 0xC0) == 0x80:
        k -= 1
    return b[:k].decode("utf-8") + "..."


def expected_table(path, expected, head=None):
    import numpy as np
    with open(path, "rb") as f:
        version = np.lib.format.read_magic(f)
        shape, fortran, dt = np.lib.format._read_array_header(f, version, max_header_size=1 << 20)
    count = len(expected)
    rows = min(count, TEXT_HEAD if head is None else head)
    descr = repr(np.lib.format.dtype_to_descr(dt))
    if len(descr.encode("utf-8")) > 199:
        descr = descr.encode("utf-8")[:199].decode("utf-8", "ignore") + "..."
    title = "%s: shape %r, %s order, dtype %s\n" % (text_escaped(path), tuple(shape),
                                                    "Fortran" if fortran else "C", descr)
    if dt.names:
        # names as the command's text writes them: controls escaped
        cols = [(text_escaped(n) or "''", dt.fields[n][0], n) for n in dt.names]
    else:
        cols = [("value", dt, None)]
    table = [["index"] + [c[0] for c in cols]]
    for r in range(rows):
        if len(shape) == 1:
            index = str(r)
        else:
            index = "(" + ",".join(str(i) for i in np.unravel_index(r, shape)) + ")"
        value = expected[r]
        table.append([index] + [cell_text(cdt, value if key is None else value[key])
                                for _, cdt, key in cols])
    # terminal columns: wide characters take two
    from inspect_text_check import width as columns
    width = [max(columns(row[c]) for row in table) for c in range(len(cols) + 1)]
    text = title + "".join("  ".join(cell + " " * (width[c] - columns(cell)) if c < len(cols)
                                     else cell for c, cell in enumerate(row)) + "\n"
                           for row in table)
    if rows < count:
        text += "(%d of %d elements; --head N or --jsonl for more)\n" % (rows, count)
    return text


def text_table_checks(res, npydt, fixtures):
    for d in [fixtures, os.path.join(fixtures, "quirks")]:
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name)
            exp = path[:-4] + ".dump.jsonl"
            if not name.endswith(".npy") or not os.path.exists(exp):
                continue
            with open(exp, encoding="utf-8") as f:
                expected = [json.loads(line) for line in f if line.strip()]
            for args, head in (([], None), (["--head", "1"], 1)):
                rc, out, err = run([npydt, "dump"] + args + [path])
                want = expected_table(path, expected, head)
                got = out.decode("utf-8", "replace")
                if rc == 0 and err == b"" and got == want:
                    res.ok()
                    continue
                diff = [(w, g) for w, g in zip(want.splitlines(), got.splitlines()) if w != g][:1]
                res.fail("table of %s %s: exit %d %r, first difference %r" %
                         (path, " ".join(args), rc, err[:100], diff))


# ------------------------------------------------------------ random files --

def random_checks(res, npydt, count, seed, keep):
    import numpy as np
    sys.path.insert(0, HERE)
    import npy_reference as ref

    rng = np.random.RandomState(seed)
    units = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs",
             "as"]

    def scalar():
        bo = "<>"[rng.randint(0, 2)]
        c = rng.randint(0, 12)
        if c == 0:
            return "|b1"
        if c == 1:
            return "|" + "iu"[rng.randint(0, 2)] + "1"
        if c == 2:
            return bo + "iu"[rng.randint(0, 2)] + "248"[rng.randint(0, 3)]
        if c == 3:
            return bo + "f" + ["2", "4", "8", "16"][rng.randint(0, 4)]
        if c == 4:
            return bo + "c" + ["8", "16", "32"][rng.randint(0, 3)]
        if c == 5:
            return "|S%d" % rng.randint(1, 8)
        if c == 6:
            return bo + "U%d" % rng.randint(1, 4)
        if c == 7:
            return "|V%d" % rng.randint(1, 6)
        if c in (8, 9):
            mult = "" if rng.randint(0, 4) else "%d" % rng.randint(2, 30)
            return bo + "Mm"[c - 8] + "8[%s%s]" % (mult, units[rng.randint(0, len(units))])
        return bo + "f8"

    def dtype(depth):
        if depth > 2 or rng.randint(0, 3) == 0:
            t = scalar()
            if rng.randint(0, 4) == 0:
                shape = tuple(int(rng.randint(0, 4)) for _ in range(rng.randint(1, 3)))
                return (t, shape)
            return t
        n = rng.randint(1, 5)
        fields = []
        for i in range(n):
            sub = dtype(depth + 1)
            name = "f%d" % i if rng.randint(0, 6) else "n\xe9%d" % i
            if isinstance(sub, tuple):
                fields.append((name,) + sub)
            elif rng.randint(0, 6) == 0:
                fields.append((name, sub, (int(rng.randint(1, 3)),)))
            else:
                fields.append((name, sub))
        return fields

    def make_dtype():
        d = dtype(0)
        if isinstance(d, tuple):
            d = [("a",) + d]
        dt = np.dtype(d, align=bool(rng.randint(0, 4) == 0))
        return dt

    def patch(raw, dt, n):
        """Make random bytes loadable: U code points valid (NumPy cannot
        turn anything above U+10FFFF into a str), some NaTs."""
        leaves = list(ref.iter_leaves(dt))
        for e in range(n):
            for off, ld in leaves:
                pos = e * dt.itemsize + off
                bo = "<" if ld.byteorder in "<=|" else ">"
                if ld.kind == "U":
                    for i in range(ld.itemsize // 4):
                        r = rng.randint(0, 8)
                        cp = [0, 0x41, 0xe9, 0x7f, 0xd800 + int(rng.randint(0, 0x800)),
                              int(rng.randint(0, 0x110000)), 0x22, 0x1f600][r]
                        raw[pos + 4 * i:pos + 4 * i + 4] = \
                            int(cp).to_bytes(4, "little" if bo == "<" else "big")
                elif ld.kind in "Mm" and rng.randint(0, 4) == 0:
                    raw[pos:pos + 8] = (2 ** 63).to_bytes(8, "little" if bo == "<" else "big")
                elif ld.kind == "f" and rng.randint(0, 3) == 0:
                    v = [0.0, -0.0, float("nan"), float("inf"), float("-inf"), 1e-310,
                         0.1][rng.randint(0, 7)]
                    raw[pos:pos + ld.itemsize] = np.array([v], ld).tobytes()

    workdir = keep or tempfile.mkdtemp(prefix="npydt-dump-")
    os.makedirs(workdir, exist_ok=True)
    for k in range(count):
        dt = make_dtype()
        nd = rng.randint(0, 4)
        shape = tuple(int(rng.randint(0, 4) if rng.randint(0, 8) == 0 else rng.randint(1, 5))
                      for _ in range(nd))
        n = int(np.prod(shape)) if nd else 1
        raw = bytearray(rng.randint(0, 256, size=n * dt.itemsize, dtype=np.uint8).tobytes())
        patch(raw, dt, n)
        arr = np.frombuffer(bytes(raw), dtype=dt).reshape(shape) if dt.itemsize \
            else np.zeros(shape, dt)
        if nd >= 2 and rng.randint(0, 2):
            arr = np.asfortranarray(arr)
        path = os.path.join(workdir, "r%03d.npy" % k)
        np.save(path, arr)
        try:
            expected = ref.dump_lines(path)
        except Exception as e:   # NumPy itself cannot show these values
            print("note: %s: reference failed (%s), skipped" % (path, e))
            continue
        # as a JSON reader sees them (a surrogate pair of escapes is one
        # astral character)
        expected = json.loads(json.dumps(expected))
        check_dump(res, npydt, path, expected)
        swap_checks(res, npydt, path, np, workdir)
    if not keep:
        for name in os.listdir(workdir):
            os.unlink(os.path.join(workdir, name))
        os.rmdir(workdir)


def swap_checks(res, npydt, path, np, workdir):
    import io
    a = np.load(path)
    with open(path, "rb") as f:
        orig = f.read()
    data = orig[len(orig) - a.nbytes:] if a.nbytes else b""
    # native is the order of the machine the command runs on, which under an
    # emulator is not this one's (run_tests.sh exports it)
    native = {"little": "<", "big": ">"}[os.environ.get("TARGET_ENDIAN", sys.byteorder)]
    for order, code in (("little", "<"), ("big", ">"), ("native", native)):
        out = os.path.join(workdir, "swapped_%s.npy" % order)
        rc, _o, err = run([npydt, "swap", path, "--to", order, "-o", out])
        if rc != 0:
            res.fail("%s: swap --to %s: exit %d: %s" % (path, order, rc, err.decode().strip()))
            continue
        b = np.load(out)
        problems = []
        if b.dtype != a.dtype.newbyteorder(code):
            problems.append("dtype %s, expected %s" % (b.dtype, a.dtype.newbyteorder(code)))
        elif b.shape != a.shape:
            problems.append("shape %s" % (b.shape,))
        elif not same_leaf_bytes(a, b.astype(a.dtype)):
            problems.append("values differ")
        buf = io.BytesIO()
        np.save(buf, b)
        with open(out, "rb") as f:
            got = f.read()
        want = buf.getvalue()
        hl = len(want) - b.nbytes
        if got[:hl] != want[:hl]:
            problems.append("header differs from np.save's: %r" % got[:hl])
        # back to the original order restores the bytes (one order only)
        orders = {d.byteorder for _o, d in _leaves(a.dtype) if d.byteorder in "<>="}
        if not problems and len(orders) == 1:
            back = "big" if orders == {">"} else "little"
            out2 = out + ".back.npy"
            rc, _o, err = run([npydt, "swap", out, "--to", back, "-o", out2])
            with open(out2, "rb") as f:
                again = f.read()
            if rc != 0 or (a.nbytes and again[len(again) - a.nbytes:] != data):
                problems.append("swapping back does not restore the data bytes")
            os.unlink(out2)
        if problems:
            res.fail("%s: swap --to %s: %s" % (path, order, "; ".join(problems)))
        else:
            res.ok()
        os.unlink(out)


def same_leaf_bytes(a, b):
    """a and b (same dtype and shape) hold the same bytes in every scalar
    (struct padding is not compared: astype does not copy it)."""
    x, y = a.tobytes(), b.tobytes()
    size = a.dtype.itemsize
    spans = [(off, d.itemsize) for off, d in _leaves(a.dtype)]
    for e in range(a.size):
        for off, n in spans:
            p = e * size + off
            if x[p:p + n] != y[p:p + n]:
                return False
    return True


def _leaves(dt):
    sys.path.insert(0, HERE)
    import npy_reference as ref
    return list(ref.iter_leaves(dt))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npydt", default="build/npydt")
    ap.add_argument("--fixtures", default=os.path.join(HERE, "fixtures"))
    ap.add_argument("--random", type=int, default=60)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--keep", default=None)
    args = ap.parse_args()
    res = Result()
    nfix = fixture_checks(res, args.npydt, args.fixtures)
    float_text_checks(res, args.npydt)
    if nfix == 0:
        print("note: no fixtures with expectations under %s" % args.fixtures)
    try:
        import numpy  # noqa: F401
        have_numpy = True
    except ImportError:
        have_numpy = False
    if have_numpy:
        text_table_checks(res, args.npydt, args.fixtures)
        import dump_modes
        tmp = tempfile.mkdtemp(prefix="npydt-modes-")
        try:
            dump_modes.run_all(res, args.npydt, args.fixtures, tmp)
            import dump_views
            dump_views.run_all(res, args.npydt, tmp)
        finally:
            for name in os.listdir(tmp):
                os.unlink(os.path.join(tmp, name))
            os.rmdir(tmp)
        random_checks(res, args.npydt, args.random, args.seed, args.keep)
    else:
        print("note: %s has no NumPy: random files and swap checks skipped" % sys.executable)
    print("dump: %d passed, %d failed" % (res.passed, res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())

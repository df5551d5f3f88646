"""Checks of npydt dump's output modes and options against NumPy (run by
tests/dump_check.py when NumPy is importable):

* --csv and --tsv of every fixture NumPy loads, byte for byte against a
  table built here from np.load: a header row of leaf paths (pos.x,
  samples[3], m[0,1]), cells as NumPy's str() (float16/float32 as their
  own repr), RFC 4180 quoting, TSV backslash escapes;
* --index, --range and --tail against NumPy's indexing and slicing of the
  same arrays in C and Fortran order (which elements, in which order);
  the last record of a 2 GiB file reached with the instructions of a
  small one's (callgrind);
* --float native, --datetime iso, --nan null, --big-int string against
  str() of NumPy's scalars;
* --fields with m[1,1] and pts.y (a field of an array of structs), in JSON,
  the table and the CSV header, against
  a['m'][..., 1, 1] and a['pts']['y']; "did you mean" for an unknown path;
* JSON strings escaped as json.dumps escapes them.
"""

import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import npy_reference as ref  # noqa: E402


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


# ------------------------------------------------------------------ CSV --

def leaves(dt, path, steps):
    """(path, steps to reach it) of every scalar leaf, as dump --csv names
    them."""
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        for idx in np.ndindex(*shape):
            yield from leaves(base, path + "[" + ",".join(map(str, idx)) + "]",
                              steps + [idx])
    elif dt.names is not None:
        for name in dt.names:
            yield from leaves(dt.fields[name][0], (path + "." if path else "") + name,
                              steps + [name])
    else:
        yield path, steps, dt


def float_text(dt, v):
    size = dt.itemsize // (2 if dt.kind == "c" else 1)
    if size == 2:
        return str(np.float16(v))
    if size == 4:
        return str(np.float32(v))
    return repr(float(v))


def cell(dt, x, iso=False):
    k = dt.kind
    if k == "b":
        return str(bool(x))
    if k in "iu":
        return str(int(x))
    if k == "f":
        return float_text(dt, x)
    if k == "c":
        re_, im = float_text(dt, x.real), float_text(dt, x.imag)
        return re_ + ("" if im.startswith("-") else "+") + im + "j"
    if k == "S":
        return "".join(chr(b) if 0x20 <= b < 0x7f and b != 0x5c else
                       "\\\\" if b == 0x5c else "\\x%02x" % b for b in bytes(x).rstrip(b"\0"))
    if k == "U":
        return str(x).rstrip("\0")
    if k == "V":
        return bytes(np.asarray(x).tobytes()).hex()
    if k in "Mm":
        if np.isnat(x):
            return "NaT"
        if k == "M" and iso:
            return str(x)
        return str(int(np.asarray(x).view(np.int64)[()]))
    raise ValueError(k)


def csv_quote(s):
    if any(c in s for c in ',"\r\n'):
        return '"' + s.replace('"', '""') + '"'
    return s


def tsv_escape(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def expected_table(a, sep):
    flat = a.reshape(-1)
    # a plain array's one column is "value", as in the table
    cols = list(leaves(a.dtype, "" if a.dtype.names is not None else "value", []))
    esc = csv_quote if sep == "," else tsv_escape
    lines = [sep.join(esc(p) for p, _s, _d in cols)]
    for i in range(flat.shape[0]):
        row = []
        for _p, steps, dt in cols:
            x = flat[i]
            for s in steps:
                x = x[s]
            row.append(esc(cell(dt, x)))
        lines.append(sep.join(row))
    return "".join(line + "\n" for line in lines)


def csv_checks(res, npydt, fixtures):
    n = 0
    for d in [fixtures, os.path.join(fixtures, "quirks")]:
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name)
            if not name.endswith(".npy") or not os.path.exists(path[:-4] + ".dump.jsonl"):
                continue
            try:
                a = ref.load_array(path)
                want = {fmt: expected_table(a, sep) for fmt, sep in (("csv", ","), ("tsv", "\t"))}
            except Exception as e:  # NumPy cannot show these values
                print("note: %s: no CSV reference (%s)" % (path, e))
                continue
            for fmt in ("csv", "tsv"):
                rc, out, err = run([npydt, "dump", "--" + fmt, path])
                got = out.decode("utf-8", "surrogatepass")
                if rc == 0 and got == want[fmt]:
                    res.ok()
                else:
                    diff = [(w, g) for w, g in zip(want[fmt].splitlines(), got.splitlines())
                            if w != g][:1]
                    res.fail("--%s of %s: exit %d %r, first difference %r" %
                             (fmt, path, rc, err[:200], diff))
            n += 1
    return n


# ------------------------------------------------------------ selection --

SELECTIONS = [
    # (options, NumPy's index of np.arange(size).reshape(shape))
    (["--index", "0"], lambda i: i[0]),
    (["--index", "-1"], lambda i: i[-1]),
    (["--range", "1:3"], lambda i: i[1:3]),
    (["--range", "::-1"], lambda i: i[::-1]),
    (["--range", "-2:"], lambda i: i[-2:]),
    (["--range", "5:1:-2"], lambda i: i[5:1:-2]),
    (["--range", "-100:100:3"], lambda i: i[-100:100:3]),
    (["--range", "3:1"], lambda i: i[3:1]),
    (["--tail", "3"], lambda i: i.reshape(-1)[max(i.size - 3, 0):]),
    (["--tail", "0"], lambda i: i.reshape(-1)[:0]),
    (["--tail", "3", "--head", "2"], lambda i: i.reshape(-1)[max(i.size - 3, 0):][:2]),
    (["--range", "::-1", "--head", "4"], lambda i: i[::-1].reshape(-1)[:4]),
]
SELECTIONS_2D = [
    (["--index", "1,2"], lambda i: i[1, 2]),
    (["--index", "-1,-1"], lambda i: i[-1, -1]),
    (["--index", "2"], lambda i: i[2]),
]


def selection_checks(res, npydt, tmp):
    rng = np.random.RandomState(5)
    arrays = {
        "sel_1d": np.arange(7, dtype="<i4") * 3,
        "sel_2d_c": rng.randint(0, 1000, size=(4, 5)).astype(">i8"),
        "sel_2d_f": np.asfortranarray(rng.randint(0, 1000, size=(4, 5)).astype("<u2")),
        "sel_3d_f": np.asfortranarray(np.arange(60, dtype="<f8").reshape(3, 4, 5)),
        "sel_struct_f": np.asfortranarray(np.zeros((3, 4), dtype=[("a", "<i4"), ("b", "S3")])),
    }
    arrays["sel_struct_f"]["a"] = np.arange(12).reshape(3, 4)
    arrays["sel_struct_f"]["b"] = [[b"x%d" % (i * 4 + j) for j in range(4)] for i in range(3)]
    for name, a in arrays.items():
        path = os.path.join(tmp, name + ".npy")
        np.save(path, a)
        rc, out, err = run([npydt, "dump", "--jsonl", path])
        every = out.decode().splitlines()
        if rc != 0 or len(every) != a.size:
            res.fail("%s: whole dump: exit %d" % (path, rc))
            continue
        idx = np.arange(a.size).reshape(a.shape)
        for opts, pick in SELECTIONS + (SELECTIONS_2D if a.ndim >= 2 else []):
            want = [every[i] for i in np.asarray(pick(idx)).reshape(-1)]
            # --no-mmap: read(2) in batches, back to the start for a
            # selection that goes backwards
            for fmt in (["--jsonl"], [], ["--jsonl", "--no-mmap"]):
                rc, out, err = run([npydt, "dump"] + fmt + opts + [path])
                if fmt:
                    got = out.decode().splitlines()
                    ok = rc == 0 and got == want
                else:
                    # the table: its index column names the elements
                    rows = out.decode().splitlines()[2:2 + min(len(want), 20)]
                    flat = [np.ravel_multi_index(tuple(int(x) for x in r.split()[0].strip("()")
                                                       .split(",")), a.shape) for r in rows]
                    got = flat
                    ok = rc == 0 and flat == list(np.asarray(pick(idx)).reshape(-1))[:20]
                if ok:
                    res.ok()
                else:
                    res.fail("%s %s %s: exit %d %r: got %s, expected %s" %
                             (path, " ".join(fmt), " ".join(opts), rc, err[:200], got[:8],
                              want[:8]))
    # out of bounds and malformed selections: exit 2, nothing on stdout
    path = os.path.join(tmp, "sel_2d_c.npy")
    for opts in (["--index", "4"], ["--index", "0,5"], ["--index", "1,1,1"], ["--range", "1:2:0"],
                 ["--range", "x"], ["--tail", "-1"], ["--index", "1", "--tail", "1"],
                 ["--index", "-5"], ["--index", "-"], ["--index", "1x"],
                 ["--index", "99999999999999999999"], ["--range", "a:2"], ["--range", "1:b"],
                 ["--range", "1:2:c"], ["--tail", "x"]):
        rc, out, err = run([npydt, "dump", "--jsonl"] + opts + [path])
        if rc == 2 and out == b"" and err:
            res.ok()
        else:
            res.fail("%s %s: expected exit 2 and no output, got %d" % (path, " ".join(opts), rc))


# -------------------------------------------------------------- options --

def lines_of(npydt, opts, path):
    rc, out, err = run([npydt, "dump", "--jsonl"] + opts + [path])
    return rc, out.decode().splitlines(), err


def option_checks(res, npydt, tmp):
    def expect(what, path, opts, want):
        rc, got, err = lines_of(npydt, opts, path)
        if rc == 0 and got == want:
            res.ok()
        else:
            bad = [(g, w) for g, w in zip(got, want) if g != w][:3]
            res.fail("%s: exit %d %r, %d lines, first differences %s" %
                     (what, rc, err[:200], len(got), bad))

    rng = np.random.RandomState(9)
    # --float native: float16/float32 (and complex64 parts) as NumPy's repr
    for t in ("<f2", ">f4", "<f4"):
        bits = rng.randint(0, 2 ** (8 * int(t[2])), size=3000, dtype=np.uint64)
        a = bits.astype("<u%s" % t[2]).view("<" + t[1:]).astype(t)
        path = os.path.join(tmp, "native%s.npy" % t[1:])
        np.save(path, a)
        want = ['"%s"' % str(v) if not np.isfinite(v) else str(v) for v in a]
        expect("--float native of %s" % t, path, ["--float", "native"], want)
        want = ["null" if not np.isfinite(v) else str(v) for v in a]
        expect("--float native --nan null of %s" % t, path,
               ["--float", "native", "--nan", "null"], want)
        expect("default float text of %s" % t, path, [],
               [json.dumps(ref._float_value(v)) for v in a])
    c = (rng.standard_normal(50) + 1j * rng.standard_normal(50)).astype("<c8")
    path = os.path.join(tmp, "native_c8.npy")
    np.save(path, c)
    expect("--float native of <c8", path, ["--float", "native"],
           ["[%s,%s]" % (np.float32(v.real), np.float32(v.imag)) for v in c])
    # --nan null for doubles
    d = np.array([1.5, np.nan, np.inf, -np.inf, -0.0], "<f8")
    path = os.path.join(tmp, "nan_f8.npy")
    np.save(path, d)
    expect("--nan null of <f8", path, ["--nan", "null"], ["1.5", "null", "null", "null", "-0.0"])
    # --datetime iso: every unit, random counts within NumPy's calendar
    for unit in ("Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as", "25s", "3D"):
        # within the calendar NumPy prints (and count * multiplier within 64 bits)
        span = {"Y": 10 ** 4, "M": 10 ** 5, "W": 10 ** 6, "D": 10 ** 7, "3D": 10 ** 7,
                "25s": 2 ** 62 // 25}.get(unit, 2 ** 62)
        counts = rng.randint(-span, span, size=500, dtype=np.int64)
        counts[:4] = [0, -1, 1, -2 ** 63]   # -2**63 is NaT
        a = counts.view("<M8[%s]" % unit)
        path = os.path.join(tmp, "iso_%s.npy" % unit)
        np.save(path, a)
        want = ['"NaT"' if np.isnat(v) else json.dumps(str(v)) for v in a]
        expect("--datetime iso of M8[%s]" % unit, path, ["--datetime", "iso"], want)
        want = ["null" if np.isnat(v) else json.dumps(str(v)) for v in a]
        expect("--datetime iso --nan null of M8[%s]" % unit, path,
               ["--datetime", "iso", "--nan", "null"], want)
    td = np.array([5, -2 ** 63, -7], "<i8").view("<m8[s]")
    path = os.path.join(tmp, "td.npy")
    np.save(path, td)
    expect("--datetime iso of m8 (counts)", path, ["--datetime", "iso"], ["5", '"NaT"', "-7"])
    # --big-int string: beyond +-(2^53-1)
    ints = np.array([0, 2 ** 53 - 1, 2 ** 53, -(2 ** 53 - 1), -(2 ** 53), 2 ** 63 - 1, -2 ** 63],
                    "<i8")
    uints = np.array([2 ** 53 - 1, 2 ** 53, 2 ** 64 - 1], ">u8")
    for a, tag in ((ints, "i8"), (uints, "u8")):
        path = os.path.join(tmp, "big_%s.npy" % tag)
        np.save(path, a)
        want = [json.dumps(str(int(v))) if abs(int(v)) > 2 ** 53 - 1 else str(int(v)) for v in a]
        expect("--big-int string of %s" % tag, path, ["--big-int", "string"], want)
        expect("default integers of %s" % tag, path, [], [str(int(v)) for v in a])
    # CSV and TSV cells: --nan null empties the cells of NaN, the
    # infinities (a complex with either part not finite) and NaT; --datetime
    # iso writes M as NumPy's str(), a generic M (no unit, no calendar) as
    # its count; CSV quotes a cell with a line break, TSV escapes tab, CR,
    # LF and backslash
    dt = np.dtype([("f", "<f8"), ("c", "<c16"), ("t", "<M8[s]"), ("g", "<M8"), ("u", "<U3")])
    a = np.zeros(3, dt)
    a["f"] = [np.nan, -np.inf, 1.5]
    a["c"] = [complex(1, np.nan), complex(np.inf, 0), 1 - 2j]
    a["t"] = np.array([-2 ** 63, 0, 86400], "<i8").view("<M8[s]")
    a["g"] = np.array([-2 ** 63, 7, 0], "<i8").view("<M8")
    a["u"] = ["a\tb", "\r\n", "\\"]
    path = os.path.join(tmp, "cells.npy")
    np.save(path, a)
    for fmt, opts, want in (
            ("--csv", ["--nan", "null", "--datetime", "iso"],
             'f,c,t,g,u\n,,,,a\tb\n,,1970-01-01T00:00:00,7,"\r\n"\n'
             "1.5,1.0-2.0j,1970-01-02T00:00:00,0,\\\n"),
            ("--csv", [],
             'f,c,t,g,u\nnan,1.0+nanj,NaT,NaT,a\tb\n-inf,inf+0.0j,0,7,"\r\n"\n'
             "1.5,1.0-2.0j,86400,0,\\\n"),
            ("--tsv", ["--nan", "null"],
             "f\tc\tt\tg\tu\n\t\t\t\ta\\tb\n\t\t0\t7\t\\r\\n\n"
             "1.5\t1.0-2.0j\t86400\t0\t\\\\\n")):
        rc, out, err = run([npydt, "dump", fmt] + opts + [path])
        if rc == 0 and out.decode() == want:
            res.ok()
        else:
            res.fail("dump %s %s: exit %d %r: got %r, expected %r" %
                     (fmt, " ".join(opts), rc, err[:200], out.decode(), want))
    # bad option values
    for opts in (["--float", "half"], ["--nan", "none"], ["--datetime", "ISO"],
                 ["--big-int", "str"], ["--csv", "--jsonl"]):
        rc, out, err = run([npydt, "dump"] + opts + [path])
        if rc == 2 and out == b"":
            res.ok()
        else:
            res.fail("dump %s: expected exit 2 and no output, got %d" % (" ".join(opts), rc))


# --------------------------------------------------------------- fields --

def field_checks(res, npydt, tmp):
    dt = np.dtype([("id", "<u2"), ("m", "<i4", (2, 3)),
                   ("pts", [("x", "<f4"), ("y", "<f8"), ("q", [("r", "<i2")])], (2, 2)),
                   ("s", "U3")])
    a = np.zeros((2, 3), dt)
    rng = np.random.RandomState(3)
    a["id"] = np.arange(6).reshape(2, 3)
    a["m"] = rng.randint(-100, 100, size=(2, 3, 2, 3))
    a["pts"]["x"] = rng.standard_normal((2, 3, 2, 2))
    a["pts"]["y"] = rng.standard_normal((2, 3, 2, 2))
    a["pts"]["q"]["r"] = rng.randint(-100, 100, size=(2, 3, 2, 2))
    a["s"] = [["a\n", "\x08\x0c\"", "\\é"], ["", "\u2028", "\x7f"]]
    path = os.path.join(tmp, "fields.npy")
    np.save(path, a)
    flat = a.reshape(-1)
    cases = [
        ("m[1,1],pts.y", lambda e: {"m[1,1]": int(e["m"][1, 1]),
                                    "pts.y": e["pts"]["y"].tolist()}),
        ("pts.q.r,m[0,2]", lambda e: {"pts.q.r": e["pts"]["q"]["r"].tolist(),
                                      "m[0,2]": int(e["m"][0, 2])}),
        ("pts[1,0].x,id", lambda e: {"pts[1,0].x": float(e["pts"][1, 0]["x"]), "id": int(e["id"])}),
    ]
    for spec, value in cases:
        rc, got, err = lines_of(npydt, ["--fields", spec], path)
        want = [value(e) for e in flat]
        try:
            parsed = [json.loads(g) for g in got]
        except ValueError:
            parsed = None
        if rc == 0 and parsed == want:
            res.ok()
        else:
            res.fail("--fields %s: exit %d %r: got %s expected %s" %
                     (spec, rc, err[:200], got[:2], want[:2]))
    # the table: a column per path, headed by it; pts.q.r as nested lists
    rc, out, err = run([npydt, "dump", "--fields", "pts.q.r,m[1,1]", path])
    rows = [line.split() for line in out.decode().splitlines()[1:]]
    want = [["index", "pts.q.r", "m[1,1]"]] + \
        [["(%d,%d)" % divmod(i, 3), json.dumps(e["pts"]["q"]["r"].tolist()).replace(" ", ""),
          str(e["m"][1, 1])] for i, e in enumerate(flat)]
    if rc == 0 and err == b"" and rows == want:
        res.ok()
    else:
        res.fail("table --fields pts.q.r,m[1,1]: exit %d %r: got %s expected %s" %
                 (rc, err[:200], rows[:2], want[:2]))
    # the CSV columns of pts.y name each element's field
    rc, out, err = run([npydt, "dump", "--csv", "--fields", "pts.y,m[1,2]", path])
    head = out.decode().splitlines()[:1]
    want = ['"pts[0,0].y","pts[0,1].y","pts[1,0].y","pts[1,1].y","m[1,2]"']
    if rc == 0 and head == want:
        res.ok()
    else:
        res.fail("--csv --fields pts.y,m[1,2]: exit %d, header %s, expected %s" % (rc, head, want))
    # an unknown path: exit, nothing printed, the nearest path suggested
    for spec, near in (("pts.z", "pts.x"), ("idd", "id"), ("pts.q.s", "pts.q.r")):
        rc, out, err = run([npydt, "dump", "--jsonl", "--fields", spec, path])
        if rc != 0 and out == b"" and ("did you mean '%s'" % near).encode() in err:
            res.ok()
        else:
            res.fail("--fields %s: expected a suggestion of %s, got exit %d %r" %
                     (spec, near, rc, err))
    # a path through a field that is no struct (nor an array of structs);
    # a long path below an array of structs is named by its first 255 bytes
    long = "pts." + "z" * 300
    for spec, want in (("s.x", "field s.x: the field is not a struct (after 's')\n"),
                       ("m.x", "field m.x: the field is not a struct (after 'm')\n"),
                       (long, "field %s: no field '%s'" % (long[:255], "z" * 100))):
        rc, out, err = run([npydt, "dump", "--jsonl", "--fields", spec, path])
        if rc == 2 and out == b"" and err.decode().startswith("%s: not found: %s" % (path, want)):
            res.ok()
        else:
            res.fail("--fields %s: exit %d, stderr %r" % (spec[:20], rc, err[:300]))
    # JSON strings are escaped as json.dumps escapes them (\b \f \n short)
    rc, got, err = lines_of(npydt, ["--fields", "s"], path)
    want = ['{"s":%s}' % json.dumps(str(e["s"]), ensure_ascii=False)
            .replace("\u2028", "\\u2028").replace("\x7f", "\\u007f") for e in flat]
    if rc == 0 and got == want:
        res.ok()
    else:
        res.fail("JSON string escapes: got %s expected %s" % (got, want))


def instructions(npydt, args):
    """callgrind's instruction count of one run of the command."""
    out = os.path.join(os.path.dirname(args[-1]), "callgrind.out")
    rc, _o, err = run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, npydt] + args)
    total = None
    with open(out) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                total = int(line.split()[1])
    os.unlink(out)
    return rc, total


def direct_access_checks(res, npydt, tmp):
    """The last record of a 2 GiB (sparse) Fortran-order file costs no more
    instructions to reach than that of a 1 MiB one: it is reached by its
    offset, not by gathering the C order from the start."""
    import shutil
    rc, nm_out, _e = run(["nm", npydt]) if shutil.which("nm") else (1, b"", b"")
    if not shutil.which("valgrind") or os.environ.get("EXEC") or b"__asan_init" in nm_out:
        print("note: direct access not measured (needs valgrind and an unsanitized host build)")
        return
    counts = {}
    for n in (1 << 17, 1 << 28):
        path = os.path.join(tmp, "sparse%d.npy" % n)
        # the last element in C order, (n/2 - 1, 1), is stored last
        h = "{'descr': '<u8', 'fortran_order': True, 'shape': (%d, 2), }" % (n // 2)
        h += " " * ((-(10 + len(h) + 1)) % 64) + "\n"
        with open(path, "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h.encode())
            f.truncate(10 + len(h) + 8 * n - 8)
            f.seek(0, 2)
            f.write((n + 7).to_bytes(8, "little"))
        for opts in (["--index", "-1,-1"], ["--tail", "1"]):
            rc, out, err = run([npydt, "dump", "--jsonl"] + opts + [path])
            if rc == 0 and out == b"%d\n" % (n + 7):
                res.ok()
            else:
                res.fail("%s %s: exit %d, %r" % (path, " ".join(opts), rc, out[:100]))
        rc, counts[n] = instructions(npydt, ["dump", "--jsonl", "--index", "-1,-1", path])
        os.unlink(path)
    small, big = counts[1 << 17], counts[1 << 28]
    if small and big and big < 1.5 * small:
        res.ok()
    else:
        res.fail("--index -1,-1: %s instructions for 2 GiB, %s for 1 MiB" % (big, small))


def run_all(res, npydt, fixtures, tmp):
    csv_checks(res, npydt, fixtures)
    selection_checks(res, npydt, tmp)
    direct_access_checks(res, npydt, tmp)
    option_checks(res, npydt, tmp)
    field_checks(res, npydt, tmp)
    table_checks(res, npydt, tmp)


def table_checks(res, npydt, tmp):
    """The table for people: scalar cells as NumPy's str() (ISO dates,
    NaT, strings as plain text), control characters escaped so that a
    file cannot send escape sequences to the terminal, columns aligned by
    terminal width."""
    def expect(what, path, want):
        p = subprocess.run([npydt, "dump", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        got = p.stdout.decode("utf-8", "replace").split("\n", 1)[1]
        if p.returncode == 0 and p.stderr == b"" and got == want:
            res.ok()
        else:
            res.fail("table %s: exit %d %r, got %r, want %r" % (what, p.returncode, p.stderr[:200],
                                                                 got, want))

    t = np.array(["2024-01-02T03:04:05.123456789", "NaT", "1969-12-31T23:59:59"], "<M8[ns]")
    path = os.path.join(tmp, "table_dates.npy")
    np.save(path, t)
    expect("of datetime64 as ISO 8601 and NaT", path,
           "index  value\n"
           "0      2024-01-02T03:04:05.123456789\n"
           "1      NaT\n"
           "2      1969-12-31T23:59:59.000000000\n")
    a = np.zeros(3, [("u", "U8"), ("s", "S8"), ("d", ">M8[D]"), ("g", "<m8[s]")])
    a["u"] = ['r,"0', "a\x1b[31mb", "\u65e5\u672c\n"]
    a["s"] = [b'r,"0', b"a\x1b\\", b"it's"]
    a["d"] = ["2000-02-29", "NaT", "-0001-12-31"]   # NumPy writes year -1 as -001
    a["g"] = [5, np.timedelta64("NaT"), -1]
    path = os.path.join(tmp, "table_text.npy")
    np.save(path, a)
    expect("of strings as plain text with controls escaped", path,
           "index  u           s        d           g\n"
           '0      r,"0        r,"0     2000-02-29  5\n'
           "1      a\\x1b[31mb  a\\x1b\\\\  NaT         NaT\n"
           "2      \u65e5\u672c\\n      it's     -001-12-31  -1\n")

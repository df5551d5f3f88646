#!/usr/bin/python3
"""Compare `npydt stats --json` with NumPy.

For every .npy file given (the fixtures, from tests/check_stats.sh) and for
random files generated here (random dtypes with nested structs, subarrays,
big-endian fields, NaN, infinities and NaT, C and Fortran order), this runs
`npydt stats --json FILE` (and `--per-element` on the random files) and
compares every column with what NumPy computes from np.load's array, each
leaf's values taken in C order:

  - count, valid, nan, posinf, neginf, nat, zeros, min, max, min_len,
    max_len and sorted exactly (min/max of floats compared as float64,
    of integers as Python ints, of datetime64 as NumPy's str());
  - mean and std within TOL relative to np.nanmean / np.nanstd of the
    values as float64 (or TOL times the largest magnitude, for means near
    zero), and the mean against math.fsum(values) / count too;
  - distinct within 5 % (three standard errors) or 2 of the true number.

Prints one line per failure, the worst relative differences of mean and
std, and `stats: N passed, M failed`.
Usage: /usr/bin/python3 tests/stats_check.py NPYDT FILE...
"""

import json
import math
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np

TOL = 1e-9
RANDOM_FILES = int(os.environ.get("STATS_RANDOM_FILES", "60"))
passed = 0
failed = 0
worst = {"mean": 0.0, "std": 0.0, "fsum": 0.0}


def fail(what):
    global failed
    failed += 1
    print("FAIL stats: " + what)


def leaves(view, dt, path):
    """(path, values in C order) of every leaf below view, pre-order."""
    if dt.names is not None:
        for name in dt.names:
            sub = view[name]
            yield from leaves(sub, sub.dtype, path + [name])
    else:
        yield ".".join(path), view


def sortedness(seq):
    asc = sasc = desc = sdesc = True
    for a, b in zip(seq, seq[1:]):
        if b < a:
            asc = sasc = False
        elif b > a:
            desc = sdesc = False
        else:
            sasc = sdesc = False
    names = []
    for flag, name in ((asc, "ascending"), (sasc, "strictly_ascending"),
                       (desc, "descending"), (sdesc, "strictly_descending")):
        if flag:
            names.append(name)
    return names


def as_float(v):
    if isinstance(v, str):
        return float(v)
    return v


def close(got, want, scale):
    got = as_float(got)
    if want is None or (isinstance(want, float) and math.isnan(want)):
        return got is None or (isinstance(got, float) and math.isnan(got))
    if got is None:
        return False
    if math.isinf(want) or math.isinf(got):
        return got == want
    diff = abs(got - want)
    return diff <= TOL * max(abs(want), 0) or diff <= TOL * scale


def rel(got, want):
    got = as_float(got)
    if got is None or want is None or not math.isfinite(want) or not math.isfinite(got):
        return 0.0
    return abs(got - want) / abs(want) if want else abs(got - want)


def expect_number_column(v, kind):
    """What the column of the values v (1-D) must say."""
    e = {"count": len(v), "nan": 0, "posinf": 0, "neginf": 0, "nat": 0}
    if kind in "fc":
        x = v.astype(np.float64)
        nan = np.isnan(x)
        e["nan"] = int(nan.sum())
        e["posinf"] = int((x == np.inf).sum())
        e["neginf"] = int((x == -np.inf).sum())
    else:
        x = v.astype(np.float64)
        nan = np.zeros(len(v), bool)
    e["valid"] = len(v) - e["nan"]
    # long doubles are taken as their nearest double: 1e-4000 is a zero
    e["zeros"] = int((x == 0).sum()) if kind in "fc" else int((v == 0).sum())
    w = x[~nan]
    if kind in "fc":
        e["min"] = float(w.min()) if len(w) else None
        e["max"] = float(w.max()) if len(w) else None
    elif kind == "b":
        e["min"] = bool(v.min()) if len(v) else None
        e["max"] = bool(v.max()) if len(v) else None
    else:
        e["min"] = int(v.min()) if len(v) else None
        e["max"] = int(v.max()) if len(v) else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e["mean"] = float(np.nanmean(x)) if len(w) else None
        e["std"] = float(np.nanstd(x)) if len(w) else None
    fin = w[np.isfinite(w)]
    e["_scale"] = float(np.abs(fin).max()) if len(fin) else 0.0
    e["_fsum"] = math.fsum(fin.tolist()) / len(fin) if len(fin) and len(fin) == len(w) else None
    seq = (v[~nan] if kind in "biu" else w).tolist()
    if kind in "biu":
        seq = [int(a) for a in seq]
    e["sorted"] = None if kind == "c" else sortedness(seq)
    return e


def expect_column(v):
    kind = v.dtype.kind
    if kind in "biuf":
        return [expect_number_column(v, kind)]
    if kind == "c":
        re_ = expect_number_column(v.real.copy(), "c")
        im_ = expect_number_column(v.imag.copy(), "c")
        return [re_, im_]
    e = {"count": len(v), "nan": 0, "posinf": 0, "neginf": 0, "nat": 0, "mean": None,
         "std": None}
    if kind in "Mm":
        nat = np.isnat(v)
        e["nat"] = int(nat.sum())
        e["valid"] = len(v) - e["nat"]
        w = v[~nat]
        ints = w.view(np.int64) if w.dtype.byteorder in "=|<" and sys.byteorder == "little" \
            else w.astype(w.dtype.newbyteorder("=")).view(np.int64)
        e["zeros"] = int((ints == 0).sum()) if kind == "m" else 0
        if len(w) == 0:
            e["min"] = e["max"] = None
        elif kind == "M":
            # NumPy's str() of a count far beyond the calendar's years wraps
            # around: the text is compared for counts within +-10^12
            unit = np.datetime_data(v.dtype)[0]
            for key, x in (("min", w.min()), ("max", w.max())):
                count = int(x.astype(np.int64))
                sane = unit != "generic" and abs(count) <= 10 ** 12
                e[key] = str(x) if sane else None
        else:
            e["min"], e["max"] = int(ints.min()), int(ints.max())
        e["sorted"] = sortedness([int(a) for a in ints])
        return [e]
    # S U V
    e["valid"] = len(v)
    e["zeros"] = 0
    e["min"] = e["max"] = None
    if kind == "V":
        vals = [bytes(a) for a in v.tolist()] if v.dtype.itemsize else [b""] * len(v)
        vals = [bytes(x) if not isinstance(x, bytes) else x for x in vals]
        lens = [v.dtype.itemsize] * len(v)
        e["sorted"] = None
    else:
        vals = v.tolist()
        lens = [len(a) for a in vals]
        e["sorted"] = sortedness(vals)
    e["min_len"] = min(lens) if lens else None
    e["max_len"] = max(lens) if lens else None
    e["_distinct"] = len(set(vals))
    return [e]


def compare(name, got_cols, want):
    """want: list of (path, element, expectations)."""
    global passed
    if len(got_cols) != len(want):
        fail("%s: %d columns, want %d" % (name, len(got_cols), len(want)))
        return
    for g, (path, elem, e) in zip(got_cols, want):
        where = "%s: %s%s" % (name, path, "" if elem is None else ".flat[%d]" % elem)
        ok = True
        if g["element"] != elem:
            fail("%s: element %r, want %r" % (where, g["element"], elem))
            ok = False
        for key in ("count", "valid", "nan", "posinf", "neginf", "nat", "zeros", "sorted"):
            if g[key] != e[key]:
                fail("%s: %s %r, want %r" % (where, key, g[key], e[key]))
                ok = False
        for key in ("min", "max"):
            gv = g[key]
            if isinstance(e[key], float) and isinstance(gv, str):
                gv = float(gv)
            if isinstance(e[key], float) and isinstance(gv, int) and not isinstance(gv, bool):
                gv = float(gv)
            if gv != e[key] and not (e[key] is None and isinstance(gv, str)):
                fail("%s: %s %r, want %r" % (where, key, g[key], e[key]))
                ok = False
        if "min_len" in e:
            for key in ("min_len", "max_len"):
                if g[key] != e[key]:
                    fail("%s: %s %r, want %r" % (where, key, g[key], e[key]))
                    ok = False
            d = e["_distinct"]
            if abs(g["distinct"] - d) > max(2, 0.05 * d):
                fail("%s: distinct %r, want about %d" % (where, g["distinct"], d))
                ok = False
        for key in ("mean", "std"):
            if not close(g[key], e[key], e.get("_scale", 0.0)):
                fail("%s: %s %r, want %r" % (where, key, g[key], e[key]))
                ok = False
            worst[key] = max(worst[key], rel(g[key], e[key]))
        if e.get("_fsum") is not None:
            worst["fsum"] = max(worst["fsum"], rel(g["mean"], e["_fsum"]))
        if ok:
            passed += 1


def expectations(a, per_element):
    out = []
    flat = a.reshape(-1)  # C order of the logical array
    for path, view in leaves(flat, a.dtype, []):
        if view.dtype.kind == "O":
            return None
        n = len(flat)
        inner = view.shape[1:]
        per = int(np.prod(inner)) if inner else 1
        vals = np.ascontiguousarray(view).reshape(n, per) if n else np.zeros((0, per), view.dtype)
        if per_element and inner:
            for k in range(per):
                for e in expect_column(vals[:, k]):
                    out.append((path, k, e))
        else:
            for e in expect_column(vals.reshape(-1)):
                out.append((path, None, e))
    return out


def run(npydt, path, per_element=False):
    args = [npydt, "stats", "--json"] + (["--per-element"] if per_element else []) + [path]
    p = subprocess.run(args, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def check_file(npydt, path, per_element=False):
    try:
        a = np.load(path, allow_pickle=False)
    except Exception:
        return
    if isinstance(a, np.lib.npyio.NpzFile):
        return
    want = expectations(a, per_element)
    code, out, err = run(npydt, path, per_element)
    if want is None:
        return
    if code != 0:
        fail("%s: exit %d: %s" % (path, code, err.decode(errors="replace")[:300]))
        return
    doc = json.loads(out)
    if doc["count"] != a.size:
        fail("%s: count %r, want %d" % (path, doc["count"], a.size))
    compare(os.path.basename(path) + (" (per element)" if per_element else ""), doc["columns"],
            want)


# ---------------------------------------------------------------- random --

SCALARS = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16",
           "M8[ns]", "M8[D]", "M8[s]", "m8[s]", "S5", "U3", "V4"]


def random_dtype(rng, depth=0):
    n = int(rng.integers(1, 5))
    fields = []
    for k in range(n):
        name = "f%d" % k
        if depth < 2 and rng.random() < 0.2:
            sub = random_dtype(rng, depth + 1)
        else:
            s = SCALARS[int(rng.integers(len(SCALARS)))]
            if s[0] in "iufcMm" and rng.random() < 0.4:
                s = ">" + s
            elif s[0] in "iufcMm":
                s = "<" + s
            sub = np.dtype(s)
        if rng.random() < 0.25:
            shape = tuple(int(d) for d in rng.integers(1, 4, size=int(rng.integers(1, 3))))
            fields.append((name, sub, shape))
        else:
            fields.append((name, sub))
    return np.dtype(fields)


def fill(rng, view):
    """Random values of view's (scalar or struct) dtype, in place."""
    dt = view.dtype
    if dt.names is not None:
        for name in dt.names:
            fill(rng, view[name])
        return
    if view.size == 0:
        return
    flat = view.reshape(-1)
    n = flat.size
    k = dt.kind
    mode = rng.random()
    if k == "b":
        flat[...] = rng.random(n) < 0.5 if mode > 0.2 else np.sort(rng.random(n) < 0.5)
    elif k in "iu":
        info = np.iinfo(dt)
        lo, hi = (info.min, info.max) if mode < 0.5 else (-5 if k == "i" else 0, 5)
        vals = rng.integers(lo, hi, size=n, endpoint=True, dtype=np.int64 if k == "i" else np.uint64)
        if mode > 0.85:
            vals = np.sort(vals)
        flat[...] = vals
    elif k in "fc":
        vals = rng.normal(size=n) * (10.0 ** rng.integers(-3, 4))
        if k == "c":
            vals = vals + 1j * rng.normal(size=n)
        if mode < 0.3:
            vals[rng.random(n) < 0.1] = np.nan
        if mode < 0.15:
            vals[rng.random(n) < 0.05] = np.inf
            vals[rng.random(n) < 0.05] = -np.inf
        if 0.3 < mode < 0.4:
            vals[rng.random(n) < 0.2] = 0
        if mode > 0.85 and k == "f":
            vals = np.sort(vals)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            flat[...] = vals
    elif k in "Mm":
        base = rng.integers(-10 ** 6, 10 ** 6, size=n)
        if mode > 0.7:
            base = np.sort(base)
        flat[...] = base.astype("m8[s]" if k == "m" else "M8[s]").astype(dt)
        if mode < 0.4:
            flat[rng.random(n) < 0.1] = np.datetime64("NaT") if k == "M" else np.timedelta64("NaT")
    elif k == "S":
        words = [b"", b"a", b"ab", b"abc", b"abcde", b"zz", b"a\x00b", b"q"]
        flat[...] = [words[int(i)] for i in rng.integers(len(words), size=n)]
    elif k == "U":
        words = ["", "a", "\u00e9", "\U0001f600x", "abc", "zz"]
        flat[...] = [words[int(i)] for i in rng.integers(len(words), size=n)]
    elif k == "V":
        raw = rng.integers(0, 3, size=n * dt.itemsize).astype(np.uint8).tobytes()
        flat[...] = np.frombuffer(raw, dtype=dt)


def random_file(rng, path):
    dt = random_dtype(rng)
    shape = (int(rng.integers(0, 3000)),) if rng.random() < 0.6 else \
        (int(rng.integers(1, 50)), int(rng.integers(1, 40)))
    order = "F" if len(shape) > 1 and rng.random() < 0.5 else "C"
    a = np.zeros(shape, dt, order=order)
    fill(rng, a)
    np.save(path, a)


def main():
    warnings.simplefilter("ignore")   # NumPy's own, on NaN, overflow and empty arrays
    npydt = sys.argv[1]
    for path in sys.argv[2:]:
        check_file(npydt, path)
    rng = np.random.default_rng(26)
    with tempfile.TemporaryDirectory() as tmp:
        # subarrays larger than a tile (32 KiB) per record, pooled: read
        # along their innermost dimension
        big = np.zeros((3, 2), [("m", ">f8", (70, 70)), ("s", "S40000"),
                                ("pts", [("x", ">f4"), ("y", "U2")], (3000, 2))], order="F")
        fill(rng, big)
        big["m"][1, 1, 5, 7] = np.nan
        big["s"][0, 1] = b"x" * 39999
        path = os.path.join(tmp, "big.npy")
        np.save(path, big)
        check_file(npydt, path)
        check_file(npydt, path, per_element=True)
        for i in range(RANDOM_FILES):
            path = os.path.join(tmp, "r%d.npy" % i)
            random_file(rng, path)
            check_file(npydt, path)
            if i % 3 == 0:
                check_file(npydt, path, per_element=True)
    print("stats: worst relative difference: mean %.3g, std %.3g (to np.nanmean, np.nanstd); "
          "mean %.3g to math.fsum" % (worst["mean"], worst["std"], worst["fsum"]))
    print("stats: %d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

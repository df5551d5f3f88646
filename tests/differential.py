#!/usr/bin/python3
"""Differential test: npydt against NumPy.

    /usr/bin/python3 tests/differential.py NPYDT_BINARY [--count N] [--seed S]
    /usr/bin/python3 tests/differential.py NPYDT_BINARY --bad [--bad-dir DIR]

Random mode (default): writes N random arrays with np.save (random dtypes
nested up to depth 3, both byte orders, subarrays, titles, align=True,
explicit offsets with gaps, datetime units; shapes incl. (), 0-length and
fortran order), runs `NPYDT_BINARY inspect --json FILE` and compares it with
npy_reference.inspect_obj; if the binary supports `dump --jsonl` (probed on a
tiny file) the dump lines are compared with npy_reference.dump_lines too.

--bad mode: for each file listed in tests/fixtures/bad/MANIFEST.txt, the
binary (inspect --json, and dump --jsonl when supported) must exit 3, print
a `PATH: WHAT: DETAIL` line on stderr and on stdout nothing but, for
inspect --json, the file's error object.

Prints one line per mismatch and ends with the line `N passed, M failed`.
Exit status 1 if anything failed, 0 otherwise.  Without NumPy it prints
`SKIP: differential test (NumPy not importable)` and exits 0.
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

try:
    import numpy as np
except Exception:                                   # noqa: BLE001
    print("SKIP: differential test (NumPy not importable)")
    sys.exit(0)

sys.dont_write_bytecode = True     # keep tests/ free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import npy_reference as ref        # noqa: E402
from gen_fixtures import fill_bytes  # noqa: E402

warnings.simplefilter("ignore")

TIMEOUT = 30


# ------------------------------------------------------- random dtypes --

NAMES = ["a", "b", "x", "y", "val", "f0", "data", "\xe9", "na\xefve",
         "with space", "it's", 'dq"', "back\\slash", "\u6f22\u5b57",
         "\U0001f600", "N" * 40, "_", "T", "a\x00", "\x00", "nul\x00in"]
TITLES = ["Title", "t\xedtulo", "\u6a19\u984c", "title with space", "T2", "t\x00"]
UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs",
         "as"]


def rand_scalar(r):
    k = r.choice("biiuuffffccSSUUVMMmm")
    bo = r.choice("<>")
    if k == "b":
        return "|b1"
    if k in "iu":
        n = r.choice([1, 2, 4, 8])
        return ("|" if n == 1 else bo) + k + str(n)
    if k == "f":
        return bo + "f" + str(r.choice([2, 4, 8, 16]))
    if k == "c":
        return bo + "c" + str(r.choice([8, 16, 32]))
    if k == "S":
        return "|S%d" % r.randint(0, 6)
    if k == "U":
        return bo + "U%d" % r.randint(0, 4)
    if k == "V":
        return "|V%d" % r.randint(0, 5)
    # M / m
    if r.random() < 0.15:
        return bo + k + "8"                       # generic
    mult = r.choice([1, 1, 1, 2, 25, 1000])
    unit = r.choice(UNITS)
    return bo + k + "8[%s%s]" % ("" if mult == 1 else mult, unit)


def rand_subshape(r):
    nd = r.choice([1, 1, 1, 2, 2, 3])
    return tuple(r.choice([0, 1, 1, 2, 2, 3]) for _ in range(nd))


def rand_field_type(r, depth):
    if depth < 3 and r.random() < 0.3:
        t = rand_struct(r, depth + 1)
    else:
        t = np.dtype(rand_scalar(r))
    if r.random() < 0.25:
        t = np.dtype((t, rand_subshape(r)))
        if r.random() < 0.2:                         # subarray of subarray
            t = np.dtype((t, rand_subshape(r)))
    return t


def rand_struct(r, depth):
    nf = r.choice([0, 1, 1, 2, 2, 3, 3, 4, 5])
    used = set()
    names, titles, formats = [], [], []
    for _ in range(nf):
        name = r.choice(NAMES)
        if name in used:
            name = name + str(len(used))
        if name in used:
            continue
        used.add(name)
        title = None
        if r.random() < 0.15:
            t = r.choice(TITLES) + str(depth)
            if t not in used:
                title = t
                used.add(t)
        names.append(name)
        titles.append(title)
        formats.append(rand_field_type(r, depth))
    layout = r.choice(["packed", "packed", "aligned", "offsets"])
    if layout == "offsets":
        offsets, cur = [], 0
        for f in formats:
            cur += r.choice([0, 0, 1, 3, 8])
            offsets.append(cur)
            cur += f.itemsize
        spec = {"names": names, "formats": formats, "offsets": offsets,
                "itemsize": cur + r.choice([0, 0, 1, 5])}
        if any(t is not None for t in titles):
            spec["titles"] = titles
        return np.dtype(spec)
    spec = {"names": names, "formats": formats}
    if any(t is not None for t in titles):
        spec["titles"] = titles
    return np.dtype(spec, align=(layout == "aligned"))


def rand_case(r):
    """-> (dtype, shape, fortran)"""
    while True:
        try:
            dt = rand_struct(r, 1) if r.random() < 0.6 else \
                np.dtype(rand_scalar(r))
            dt.descr                         # np.save needs a valid descr
        except (ValueError, TypeError):
            continue
        if dt.itemsize <= 4096:
            break
    nd = r.choice([0, 1, 1, 1, 2, 2, 3])
    shape = tuple(r.choice([0, 1, 2, 3, 4]) if r.random() < 0.15
                  else r.choice([1, 2, 3, 4]) for _ in range(nd))
    fortran = nd >= 2 and r.random() < 0.4
    return dt, shape, fortran


def write_case(path, dt, shape, fortran, seed):
    arr = fill_bytes(shape, dt, seed)
    if fortran:
        arr = np.asfortranarray(arr)
    np.save(path, arr)
    return arr


# ------------------------------------------------------ JSON comparing --

class Num(str):
    """Raw text of a JSON number (keeps '-0', exact big integers...)."""


class DupKey(ValueError):
    pass


def _pairs(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise DupKey("duplicate key %r" % (k,))
        d[k] = v
    return d


def parse_json(text):
    return json.loads(text, parse_int=Num, parse_float=Num,
                      parse_constant=lambda c: Num(c),
                      object_pairs_hook=_pairs)


INT_RE = re.compile(r"-?(0|[1-9][0-9]*)\Z")


def _short(v, n=80):
    s = json.dumps(v, ensure_ascii=True) if not isinstance(v, Num) else \
        str(v)
    return s if len(s) <= n else s[:n - 3] + "..."


def compare(exp, act, where, ordered):
    """None if equal, else a message naming the first difference."""
    def bad(why=""):
        return "%s: expected %s, got %s%s" % (where or "$", _short(exp),
                                             _short(act), why)
    if isinstance(exp, bool):
        return None if (isinstance(act, bool) and act == exp) else bad()
    if isinstance(exp, int):
        if not isinstance(act, Num) or not INT_RE.match(act):
            return bad()
        return None if int(act) == exp else bad()
    if isinstance(exp, float):
        if not isinstance(act, Num):
            return bad()
        try:
            v = float(act)
        except ValueError:
            return bad()
        if math.isnan(v) or math.isinf(v):
            return bad(" (non-finite must be a string)")
        if v != exp or math.copysign(1.0, v) != math.copysign(1.0, exp):
            return bad()
        return None
    if exp is None:
        return None if act is None else bad()
    if isinstance(exp, str):
        if isinstance(act, Num) or not isinstance(act, str) or act != exp:
            return bad()
        return None
    if isinstance(exp, list):
        if not isinstance(act, list):
            return bad()
        if len(act) != len(exp):
            return bad(" (length %d != %d)" % (len(act), len(exp)))
        for i, (e, a) in enumerate(zip(exp, act)):
            m = compare(e, a, "%s[%d]" % (where, i), ordered)
            if m:
                return m
        return None
    if isinstance(exp, dict):
        if not isinstance(act, dict):
            return bad()
        ek, ak = list(exp.keys()), list(act.keys())
        if (ek != ak) if ordered else (set(ek) != set(ak)):
            return "%s: keys expected %s, got %s" % (
                where or "$", _short(ek), _short(ak))
        for k in ek:
            m = compare(exp[k], act[k], "%s.%s" % (where, k), ordered)
            if m:
                return m
        return None
    return bad(" (reference produced %s)" % type(exp).__name__)


# ------------------------------------------------------ running npydt --

def run(binary, args):
    try:
        p = subprocess.run([binary] + args, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, b"", b"timeout after %ds" % TIMEOUT
    return p.returncode, p.stdout, p.stderr


def describe_rc(rc, err):
    if rc is None:
        return "timed out"
    first = err.decode("utf-8", "replace").strip().splitlines()
    first = first[0] if first else ""
    if rc < 0:
        return "killed by signal %d %s" % (-rc, first)
    return "exit %d %s" % (rc, first)


def check_inspect(binary, path):
    rc, out, err = run(binary, ["inspect", "--json", path])
    if rc != 0:
        return "inspect: " + describe_rc(rc, err)
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError as e:
        return "inspect: stdout is not UTF-8 (%s)" % e
    if not text.endswith("\n") or text.count("\n") != 1:
        return "inspect: expected exactly one line on stdout, got %d" % \
            text.count("\n")
    try:
        act = parse_json(text)
    except ValueError as e:
        return "inspect: invalid JSON (%s): %s" % (e, text[:80])
    # the optional keys: the path as given, and the descriptor literal as
    # np.save writes it (NumPy's dtype_to_descr, printed by repr)
    if act.pop("file", None) != path:
        return "inspect: \"file\" is not the path given"
    descr = repr(ref.npformat.dtype_to_descr(ref.read_header(path)[5]))
    if act.pop("descr", None) != descr:
        return "inspect: \"descr\" is not NumPy's %s" % _short(descr)
    m = compare(ref.inspect_obj(path), act, "", ordered=False)
    return "inspect: " + m if m else None


def check_dump(binary, path):
    rc, out, err = run(binary, ["dump", "--jsonl", path])
    if rc != 0:
        return "dump: " + describe_rc(rc, err)
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError as e:
        return "dump: stdout is not UTF-8 (%s)" % e
    if text and not text.endswith("\n"):
        return "dump: last line not newline-terminated"
    lines = text.split("\n")[:-1] if text else []
    exp = ref.dump_lines(path)
    if len(lines) != len(exp):
        return "dump: expected %d lines, got %d" % (len(exp), len(lines))
    for i, (e, line) in enumerate(zip(exp, lines)):
        try:
            a = parse_json(line)
        except ValueError as ex:
            return "dump: line %d invalid JSON (%s): %s" % (i + 1, ex,
                                                          line[:80])
        m = compare(e, a, "line%d" % (i + 1), ordered=True)
        if m:
            return "dump: " + m
    return None


def dump_supported(binary, tmpdir):
    p = os.path.join(tmpdir, "probe.npy")
    np.save(p, np.arange(2, dtype="<i4"))
    rc, _out, _err = run(binary, ["dump", "--jsonl", p])
    return rc == 0


# ---------------------------------------------------------------- modes --

def random_mode(binary, count, seed, keep_dir):
    r = random.Random(seed)
    tmpdir = tempfile.mkdtemp(prefix="npydt-diff-")
    passed = failed = 0
    try:
        do_dump = dump_supported(binary, tmpdir)
        if not do_dump:
            print("note: `dump --jsonl` not supported by %s, comparing "
                  "inspect only" % binary)
        for i in range(count):
            path = os.path.join(tmpdir, "case%05d.npy" % i)
            for attempt in range(20):
                dt, shape, fortran = rand_case(r)
                try:
                    write_case(path, dt, shape, fortran,
                               (seed * 1000003 + i * 31 + attempt) % 2 ** 32)
                    break
                except Exception as e:         # noqa: BLE001
                    # a generator limitation, not an npydt failure
                    print("note: case %d: NumPy cannot write dtype %r "
                          "(%s: %s), drawing another" % (i, dt,
                                                         type(e).__name__, e))
            else:
                raise SystemExit("generator keeps producing unwritable cases")
            msgs = [check_inspect(binary, path)]
            if do_dump:
                msgs.append(check_dump(binary, path))
            msgs = [m for m in msgs if m]
            if msgs:
                failed += 1
                kept = ""
                if keep_dir:
                    os.makedirs(keep_dir, exist_ok=True)
                    dst = os.path.join(keep_dir, os.path.basename(path))
                    shutil.copyfile(path, dst)
                    kept = " [kept %s]" % dst
                for m in msgs:
                    print("MISMATCH case %d: %s | shape=%r fortran=%s "
                          "dtype=%r%s" % (i, m, shape, fortran, dt, kept))
            else:
                passed += 1
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    return passed, failed


def bad_mode(binary, bad_dir):
    manifest = os.path.join(bad_dir, "MANIFEST.txt")
    with open(manifest, encoding="utf-8") as f:
        entries = [ln.split("\t", 1) for ln in f.read().splitlines()
                   if ln.strip()]
    tmpdir = tempfile.mkdtemp(prefix="npydt-bad-")
    try:
        do_dump = dump_supported(binary, tmpdir)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    subcommands = [["inspect", "--json"]]
    if do_dump:
        subcommands.append(["dump", "--jsonl"])
    passed = failed = 0
    for entry in entries:
        name = entry[0]
        reason = entry[1] if len(entry) > 1 else ""
        path = os.path.join(bad_dir, name)
        problems = []
        for sub in subcommands:
            rc, out, err = run(binary, sub + [path])
            what = " ".join(sub)
            if rc != 3:
                problems.append("%s: expected exit 3, got %s"
                                % (what, describe_rc(rc, err)))
            if sub[0] == "inspect":
                try:
                    obj = json.loads(out)
                except ValueError:
                    obj = {}
                if obj.get("file") != path or "status" not in obj.get("error", {}):
                    problems.append("%s: no error object on stdout: %r" % (what, out[:60]))
            elif out:
                problems.append("%s: stdout not empty: %r" % (what, out[:60]))
            lines = err.decode("utf-8", "replace").splitlines()
            prefix = path + ": "
            ok = any(ln.startswith(prefix) and
                     len([p for p in ln[len(prefix):].split(": ", 1)
                          if p.strip()]) == 2
                     for ln in lines)
            if not ok:
                problems.append("%s: no `PATH: WHAT: DETAIL` line on stderr "
                                "(got %r)" % (what, err[:100]))
        if problems:
            failed += 1
            for p in problems:
                print("BAD-FILE %s (NumPy: %s): %s" % (name, reason, p))
        else:
            passed += 1
    return passed, failed


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--bad", action="store_true",
                    help="check the rejected files of tests/fixtures/bad")
    ap.add_argument("--bad-dir", default=os.path.join(HERE, "fixtures", "bad"))
    ap.add_argument("--keep-failures", metavar="DIR",
                    help="copy failing random cases into DIR")
    a = ap.parse_args(argv[1:])
    binary = a.binary
    if os.sep not in binary:
        binary = os.path.abspath(binary) if os.path.exists(binary) else binary
    if a.bad:
        passed, failed = bad_mode(binary, a.bad_dir)
    else:
        passed, failed = random_mode(binary, a.count, a.seed, a.keep_failures)
    sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

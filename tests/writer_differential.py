#!/usr/bin/python3
"""Differential test of the record writer against np.save and np.savez.

    /usr/bin/python3 tests/writer_differential.py WRITER_DRIVE [--count N] [--seed S]

For N random arrays (the dtypes, shapes and orders of tests/differential.py:
nested structs, subarrays, titles, both byte orders, every kind but O, C and
Fortran order, 0-d and empty arrays) saved with np.save, WRITER_DRIVE
(tests/tools/writer_drive.c) writes the same records through npydt_writer
in chunks of random sizes with random flushes, in one writer or split
between a writer and a second one that appends. The file must equal
np.save's byte for byte and np.load must read the same array from it. An
array whose rows hold no element (shape (3, 0), growth axis first) cannot
tell its growth axis from its records: the writer's file must then equal
np.save's of the same array with 0 on that axis.

Every tenth case also writes an archive of three arrays with
npydt_writer_create_member, compared with np.savez (stored) or
np.savez_compressed (deflated) byte for byte.

Prints one line per mismatch and ends with `N passed, M failed`.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import warnings

try:
    import numpy as np
except Exception:                                   # noqa: BLE001
    print("SKIP: writer differential test (NumPy not importable)")
    sys.exit(0)

sys.dont_write_bytecode = True     # keep tests/ free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from differential import rand_case, write_case  # noqa: E402

warnings.simplefilter("ignore")
TIMEOUT = 30


def growth_axis(shape, fortran):
    return len(shape) - 1 if fortran else 0


def row_size(shape, fortran):
    g = growth_axis(shape, fortran)
    n = 1
    for k, d in enumerate(shape):
        if k != g:
            n *= d
    return n


def run(args):
    r = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
    return r.returncode, (r.stdout + r.stderr).strip()


def same_array(got, arr):
    """Same dtype, shape and element bytes in C order (the flags of arrays
    without bytes say nothing)."""
    return (got.dtype == arr.dtype and got.shape == arr.shape and
            got.tobytes(order="C") == arr.tobytes(order="C"))


def check_npy(drive, tmp, r, case, seed):
    dt, shape, fortran = rand_case(r)
    ref_path = os.path.join(tmp, "ref.npy")
    out_path = os.path.join(tmp, "out.npy")
    arr = write_case(ref_path, dt, shape, fortran, seed)
    if os.path.exists(out_path):
        os.unlink(out_path)
    args = [drive, "npy", ref_path, out_path, str(seed)]
    if shape and r.random() < 0.5:
        args.append(str(r.randint(0, shape[growth_axis(shape, fortran)])))
    rc, out = run(args)
    what = "case %d (%s, shape %s, %s)" % (case, dt.descr if dt.names else dt.str, shape,
                                           "fortran" if fortran else "C")
    if rc != 0:
        return "%s: writer_drive exited %d: %s" % (what, rc, out)
    expected = arr
    if shape and row_size(shape, fortran) == 0:
        empty = list(shape)
        empty[growth_axis(shape, fortran)] = 0
        expected = np.ndarray(tuple(empty), dtype=dt, order="F" if fortran else "C")
        np.save(ref_path, expected)
    with open(ref_path, "rb") as f:
        want = f.read()
    with open(out_path, "rb") as f:
        got = f.read()
    if got != want:
        return "%s: file differs from np.save's (%d vs %d bytes; header %r vs %r)" % (
            what, len(got), len(want), got[:200], want[:200])
    if not same_array(np.load(out_path, allow_pickle=False), expected):
        return "%s: np.load reads another array" % what
    return None


def check_npz(drive, tmp, r, case, seed):
    arrays, args = {}, []
    for k in range(3):
        dt, shape, fortran = rand_case(r)
        path = os.path.join(tmp, "m%d.npy" % k)
        arrays["m%d" % k] = write_case(path, dt, shape, fortran, seed + k)
        args += ["m%d.npy" % k, path]
    compressed = r.random() < 0.5
    ref_path = os.path.join(tmp, "ref.npz")
    out_path = os.path.join(tmp, "out.npz")
    (np.savez_compressed if compressed else np.savez)(ref_path, **arrays)
    rc, out = run([drive, "npz", out_path, "deflated" if compressed else "stored", str(seed)]
                  + args)
    what = "archive %d (%s)" % (case, "compressed" if compressed else "stored")
    if rc != 0:
        return "%s: writer_drive exited %d: %s" % (what, rc, out)
    with open(ref_path, "rb") as f:
        want = f.read()
    with open(out_path, "rb") as f:
        got = f.read()
    if got != want:
        return "%s: differs from np.savez's (%d vs %d bytes)" % (what, len(got), len(want))
    # the bytes equal np.savez's; np.load must read every member (its
    # element bytes are not compared: reading a member, NumPy copies the
    # fields of each record into fresh memory and leaves gaps between them
    # as they were)
    with np.load(out_path) as z:
        for key, arr in arrays.items():
            got = z[key]
            if got.dtype != arr.dtype or got.shape != arr.shape:
                return "%s: member %s reads as %s %s" % (what, key, got.dtype, got.shape)
    return None


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("drive")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv[1:])
    r = random.Random(a.seed)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in range(a.count):
            seed = r.randint(0, 2 ** 31)
            problem = check_npy(a.drive, tmp, r, case, seed)
            if problem is None and case % 10 == 0:
                problem = check_npz(a.drive, tmp, r, case, seed)
            if problem:
                failed += 1
                print("FAIL writer: " + problem)
            else:
                passed += 1
    print("random cases: seed %d, %d cases" % (a.seed, a.count))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

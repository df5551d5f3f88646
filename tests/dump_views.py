"""Checks of npydt dump's views and streams against NumPy (run by
tests/dump_check.py when NumPy is importable), and of inspect --list:

* --vertical: a "-[ RECORD I ]-" line per element and a "PATH: VALUE"
  line per leaf, values as NumPy's str() (the table's cells, never cut);
* --sample N --seed S: the elements Floyd's algorithm over splitmix64
  picks (both written out again here), in element order, for C and
  Fortran arrays and under --range;
* several FILEs of one dtype as one stream (one CSV header row), refused
  with exit 2 naming the first file of another dtype, nothing printed;
* --no-header, --index-column (a column, a JSON key, a refused clash);
* inspect --list: one line per array against np.load of the archive.
"""

import json
import os
import subprocess

import numpy as np

from dump_modes import expected_table, leaves, cell

M64 = (1 << 64) - 1


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


def sample_positions(total, n, seed):
    """Floyd's algorithm: for j in total-n .. total-1 draw t in [0, j],
    take t or (when taken) j; t is the first splitmix64 output r >= 2^64
    mod k, reduced mod k (k = j + 1)."""
    if n >= total:
        return list(range(total))
    state, taken = seed, set()
    for j in range(total - n, total):
        k = j + 1
        skip = (1 << 64) % k
        while True:
            state, r = splitmix64(state)
            if r >= skip:
                break
        t = r % k
        taken.add(j if t in taken else t)
    return sorted(taken)


def vertical_text(name, a, idx):
    """What --vertical prints for the elements idx (flat C order)."""
    flat = a.reshape(-1)
    shape = "(" + ", ".join(str(d) for d in a.shape) + ("," if a.ndim == 1 else "") + ")"
    order = "Fortran" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    descr = repr(np.lib.format.dtype_to_descr(a.dtype))
    lines = ["%s: shape %s, %s order, dtype %s" % (name, shape, order, descr)]
    cols = list(leaves(a.dtype, "" if a.dtype.names is not None else "value", []))
    for i in idx:
        where = str(i) if a.ndim == 1 else "(" + ",".join(map(str, np.unravel_index(i, a.shape))) + ")"
        lines.append("-[ RECORD %s ]-" % where)
        for p, steps, dt in cols:
            x = flat[i]
            for s in steps:
                x = x[s]
            lines.append("%s: %s" % (p, cell(dt, x, iso=True)))
    return "".join(line + "\n" for line in lines)


def records(n, offset=0):
    a = np.zeros(n, [("id", "<i4"), ("pos", [("x", "<f8"), ("y", ">f4")]),
                     ("name", "U12"), ("m", "<i2", (2, 2))])
    a["id"] = np.arange(n) + offset
    a["pos"]["x"] = np.arange(n) / 4 + offset
    a["pos"]["y"] = -np.arange(n, dtype="f4") / 3
    a["name"] = ["n%d, \"q\"" % (i + offset) for i in range(n)]
    a["m"] = np.arange(4 * n).reshape(n, 2, 2)
    return a


def run_all(res, npydt, tmp):
    def expect(what, cmd, want_rc, want_out, err_has=None):
        rc, out, err = run([npydt] + cmd)
        if rc == want_rc and out == want_out and (err_has is None and err == "" or
                                                  err_has is not None and err_has in err):
            res.ok()
        else:
            res.fail("%s: %s: exit %d (want %d), stdout %r (want %r), stderr %r"
                     % (what, " ".join(cmd), rc, want_rc, out[:300], want_out[:300], err[:300]))

    a = records(30)
    pa = os.path.join(tmp, "views_a.npy")
    np.save(pa, a)
    b = records(4, offset=100)
    pb = os.path.join(tmp, "views_b.npy")
    np.save(pb, b)
    other = np.zeros(3, [("id", "<i8")])
    po = os.path.join(tmp, "views_other.npy")
    np.save(po, other)
    f2 = np.asfortranarray(np.arange(24, dtype="<f4").reshape(4, 6) / 7)
    pf = os.path.join(tmp, "views_f.npy")
    np.save(pf, f2)

    # --vertical: 20 elements by default, then the table's footer line
    expect("--vertical shows the first 20 elements", ["dump", "--vertical", pa], 0,
           vertical_text(pa, a, range(20)) + "(20 of 30 elements; --head N or --jsonl for more)\n")
    expect("--vertical with --head of a Fortran 2-d array", ["dump", "--vertical", "--head", "24", pf],
           0, vertical_text(pf, f2, range(24)))
    expect("--vertical with --fields", ["dump", "--vertical", "--fields", "pos.y,id", "--head", "1", pa],
           0, "%s: shape (30,), C order, dtype %s\n-[ RECORD 0 ]-\npos.y: -0.0\nid: 0\n"
           "(1 of 30 elements; --head N or --jsonl for more)\n" % (pa, repr(np.lib.format.dtype_to_descr(a.dtype))))
    long = np.array(["x" * 60 + "\x1b[1m"], "U70")
    pl = os.path.join(tmp, "views_long.npy")
    np.save(pl, long)
    expect("--vertical never cuts a value, and escapes controls", ["dump", "--vertical", pl], 0,
           "%s: shape (1,), C order, dtype '<U70'\n-[ RECORD 0 ]-\nvalue: %s\\x1b[1m\n"
           % (pl, "x" * 60))

    # --sample: Floyd over splitmix64, in element order
    for n, seed in [(5, 0), (5, 1), (12, 123456789), (1, M64), (0, 3), (30, 9), (31, 9)]:
        picks = sample_positions(30, n, seed)
        want = "index," + expected_table(a[picks], ",").split("\n", 1)[0] + "\n" + "".join(
            "%d,%s" % (i, line + "\n") for i, line in
            zip(picks, expected_table(a[picks], ",").splitlines()[1:]))
        expect("--sample %d --seed %d" % (n, seed),
               ["dump", "--csv", "--index-column", "--sample", str(n), "--seed", str(seed), pa], 0, want)
    picks = sample_positions(24, 7, 42)
    flat = f2.reshape(-1)
    expect("--sample of a Fortran array picks by flat C-order index",
           ["dump", "--jsonl", "--index-column", "--sample", "7", "--seed", "42", pf], 0,
           "".join('{"index":%d,"value":%s}\n' % (i, repr(float(flat[i]))) for i in picks))
    # among the selection: rows 10..29 step 2 are positions 0..9
    rows = list(range(10, 30, 2))
    picks = [rows[p] for p in sample_positions(len(rows), 4, 5)]
    rc, out, err = run([npydt, "dump", "--jsonl", "--range", "10::2", "--sample", "4", "--seed", "5",
                        "--fields", "id", pa])
    got = [json.loads(line)["id"] for line in out.splitlines()]
    if rc == 0 and got == [int(a["id"][p]) for p in picks]:
        res.ok()
    else:
        res.fail("--sample under --range: got %r, want %r (%s)" % (got, picks, err))
    # 10^12 records of no bytes: the sample's work and memory are of N, not
    # of the array (a pass or a table over the elements would not finish)
    pz0 = os.path.join(tmp, "views_zero.npy")
    with open(pz0, "wb") as f:
        np.lib.format.write_array_header_1_0(f, {"descr": [], "fortran_order": False,
                                                 "shape": (10 ** 12,)})
    expect("--sample of 10^12 elements", ["dump", "--jsonl", "--index-column", "--sample", "3",
                                          "--seed", "2", pz0], 0,
           "".join('{"index":%d}\n' % i for i in sample_positions(10 ** 12, 3, 2)))
    expect("--sample beyond 4194304 of a larger selection", ["dump", "--jsonl", "--sample", "4194305",
                                                             pz0], 2, "",
           "--sample takes at most 4194304 elements of the 1000000000000 selected")
    expect("--seed without --sample", ["dump", "--jsonl", "--seed", "1", pa], 2, "",
           "--seed is the seed of --sample")
    expect("--seed beyond 64 bits", ["dump", "--jsonl", "--sample", "1", "--seed",
                                     "18446744073709551616", pa], 2, "", "--seed needs an integer")

    # several FILEs of one dtype: one stream, one header row
    both = np.concatenate([a, b])
    body = expected_table(both, ",")
    expect("--csv of two files: one header row", ["dump", "--csv", pa, pb], 0, body)
    expect("--csv --no-header", ["dump", "--csv", "--no-header", pa, pb], 0, body.split("\n", 1)[1])
    expect("--tsv --no-header", ["dump", "--tsv", "--no-header", pb], 0,
           expected_table(b, "\t").split("\n", 1)[1])
    rc1, one, _ = run([npydt, "dump", "--jsonl", pa])
    rc2, two, _ = run([npydt, "dump", "--jsonl", pb])
    expect("--jsonl of two files is the one of each after the other", ["dump", "--jsonl", pa, pb], 0,
           one + two)
    expect("--jsonl of files of two dtypes is refused, naming the first of another",
           ["dump", "--jsonl", pa, pb, po, pa], 2, "",
           "%s: dtype [('id', '<i8')] differs from" % po)
    bad = os.path.join(tmp, "views_bad.npy")
    with open(pa, "rb") as src, open(bad, "wb") as dst:
        dst.write(src.read()[:200])
    expect("a truncated FILE among several: exit 3, nothing printed", ["dump", "--csv", pa, bad, pb],
           3, "", bad)
    expect("the table of two files: a table each",
           ["dump", "--head", "1", "--fields", "id", pa, pb], 0,
           "%s: shape (30,), C order, dtype %s\nindex  id\n0      0\n(1 of 30 elements; --head N or "
           "--jsonl for more)\n\n%s: shape (4,), C order, dtype %s\nindex  id\n0      100\n(1 of 4 "
           "elements; --head N or --jsonl for more)\n"
           % (pa, repr(np.lib.format.dtype_to_descr(a.dtype)), pb,
              repr(np.lib.format.dtype_to_descr(b.dtype))))

    # --index-column
    expect("--index-column in JSON: the first key", ["dump", "--jsonl", "--index-column",
                                                      "--fields", "id", "--tail", "2", pa], 0,
           '{"index":28,"id":28}\n{"index":29,"id":29}\n')
    clash = np.zeros(2, [("index", "<i4"), ("v", "<f8")])
    pc = os.path.join(tmp, "views_clash.npy")
    np.save(pc, clash)
    for fmt in ("--jsonl", "--csv", "--tsv"):
        expect("--index-column %s refuses a field named index" % fmt,
               ["dump", fmt, "--index-column", pc], 2, "", "a field is named so")
    expect("--index-column with --fields leaving index out",
           ["dump", "--csv", "--index-column", "--fields", "v", pc], 0, "index,v\n0,0.0\n1,0.0\n")
    expect("--no-header is for CSV and TSV", ["dump", "--jsonl", "--no-header", pa], 2, "",
           "--no-header is for --csv and --tsv")
    expect("--index-column is not for the table", ["dump", "--index-column", pa], 2, "",
           "--index-column is for")

    # inspect --list of an archive np.savez writes
    pz = os.path.join(tmp, "views.npz")
    np.savez(pz, recs=a, f=f2, s=np.float64(1.5))
    want = ""
    with np.load(pz) as z:
        for name in z.files:
            x = z[name]
            order = "F" if x.ndim > 1 and x.flags.f_contiguous and not x.flags.c_contiguous else "C"
            want += "%s:%s.npy\t%s\t%s\t%s\t%d\n" % (pz, name, repr(np.lib.format.dtype_to_descr(x.dtype)),
                                                   str(x.shape), order, x.nbytes)
    expect("inspect --list of an archive: a line per member", ["inspect", "--list", pz], 0, want)
    expect("inspect --list of a .npy", ["inspect", "--list", pb], 0,
           "%s\t%s\t(4,)\tC\t%d\n" % (pb, repr(np.lib.format.dtype_to_descr(b.dtype)), b.nbytes))
    expect("inspect --list and --json exclude each other", ["inspect", "--list", "--json", pb], 2, "",
           "--json and --list exclude each other")

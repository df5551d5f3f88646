#!/usr/bin/python3
"""Differential test of `npydt check` against NumPy's own verdicts.

    /usr/bin/python3 tests/schema_differential.py NPYDT_BINARY [--count N] [--seed S]

1. The safe-cast table: every pair (from, to) of a universe of scalar types
   (all kinds and sizes, both byte orders, strings of the lengths where
   NumPy's answer changes, datetime units and multipliers) is packed as
   field pK of one struct per side; `check --safe-cast --json` must report
   a mismatch at pK exactly when np.can_cast(struct(from), struct(to),
   'safe') is False, and `check --json` (default level) exactly when the
   two differ other than in byte order, and `check --strict --json` when
   they differ at all (np.dtype equality). The same universe is also checked
   at the top level against the unsized targets S0, U0, V0 and against O,
   where NumPy reads them as whole type classes.
2. Random pairs: a random file dtype (nested structs, subarrays, titles,
   padding, both byte orders) and a schema made from it by one mutation
   (none, byte-order flips, a leaf widened, narrowed or replaced, a field
   renamed, dropped, added or moved, a shape or padding changed). The
   default verdict (exit status) must equal NumPy's dtype equality after
   normalising byte order, the --strict verdict plain dtype equality, and
   the --safe-cast verdict must equal
   np.can_cast(file, schema, 'safe') with the same field names at every
   level. Specs are given as descriptor literals, header-like dicts (with
   shape wildcards and fortran_order) or, for packed f0..fN structs, comma
   type strings.

3. Own headers: every .npy file NumPy reads among the fixtures, the
   quirks and NumPy's own test data, checked against its own header dict.

4. Deep --allow-extra: files of structs three levels deep (subarrays of
   structs, padding as align=True leaves it) against schemas that name
   some of their fields at every level, sometimes with one more random
   change; the verdict must be that of a reader finding the named fields by
   name (found_by_name).

Prints one line per disagreement and ends with `N passed, M failed`.
Without NumPy it prints `SKIP: ...` and exits 0.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import warnings

try:
    import numpy as np
except Exception:                                   # noqa: BLE001
    print("SKIP: schema differential test (NumPy not importable)")
    sys.exit(0)

warnings.simplefilter("ignore")
TIMEOUT = 60

# ----------------------------------------------------------- file writing --


def write_npy(path, dt, shape=(0,), fortran=False):
    """A header for dt plus zero data bytes, without pickling objects."""
    d = {"descr": np.lib.format.dtype_to_descr(dt), "fortran_order": fortran,
         "shape": shape}
    count = 1
    for n in shape:
        count *= n
    with open(path, "wb") as f:
        try:
            np.lib.format.write_array_header_1_0(f, d)
        except ValueError:
            f.seek(0)
            f.truncate()
            np.lib.format.write_array_header_2_0(f, d)
        f.write(b"\0" * (count * dt.itemsize))


def run_check(npydt, spec_path, files, flags):
    cmd = [npydt, "check", "--json", "--schema", "@" + spec_path] + flags + files
    p = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT)
    if p.returncode not in (0, 1):
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode,
                                                 p.stderr.decode(errors="replace")[:500]))
    reports = [json.loads(line) for line in p.stdout.decode().splitlines()]
    if len(reports) != len(files):
        raise RuntimeError("%s: %d reports for %d files" % (cmd, len(reports), len(files)))
    return p.returncode, reports

# --------------------------------------------------------------- verdicts --


def normalise(dt):
    return dt.newbyteorder("<")


def numpy_equal(f, s):
    return normalise(f) == normalise(s)


def numpy_identical(f, s):
    return f == s


def same_names(f, s):
    """Names equal, in order, at every level where both sides are structs."""
    f, s = innermost(f), innermost(s)
    if f.names is None or s.names is None:
        return True
    if f.names != s.names:
        return False
    return all(same_names(f.fields[n][0], s.fields[n][0]) for n in f.names)


def innermost(dt):
    while dt.subdtype:
        dt = dt.subdtype[0]
    return dt


def no_extra_fields(f, s):
    """The file has no field the schema does not name, at any level: then
    --allow-extra must change nothing."""
    f, s = innermost(f), innermost(s)
    if f.names is None or s.names is None:
        return True
    if not set(f.names) <= set(s.names):
        return False
    return all(no_extra_fields(f.fields[n][0], s.fields[n][0]) for n in f.names)


def found_by_name(f, s, leaf_equal):
    """The --allow-extra verdict, as a reader that looks fields up by name
    sees it: every field the schema names is in the file, in the same order
    among the named ones, with the schema's title if it gives one;
    subarray shapes and leaves (by leaf_equal) match. Offsets, struct
    sizes and the file's other fields do not matter at any level."""
    if f.subdtype or s.subdtype:
        if not (f.subdtype and s.subdtype) or f.subdtype[1] != s.subdtype[1]:
            return False
        return found_by_name(f.subdtype[0], s.subdtype[0], leaf_equal)
    if f.names is None or s.names is None:
        return f.names is None and s.names is None and leaf_equal(f, s)
    where = []
    for n in s.names:
        if n not in f.fields:
            return False
        ff, sf = f.fields[n], s.fields[n]
        if len(sf) > 2 and (len(ff) < 3 or ff[2] != sf[2]):
            return False
        if not found_by_name(ff[0], sf[0], leaf_equal):
            return False
        where.append(f.names.index(n))
    return where == sorted(where)


def extra_equal(f, s):
    return found_by_name(f, s, numpy_equal)


def extra_identical(f, s):
    return found_by_name(f, s, numpy_identical)


def numpy_safe(f, s):
    return same_names(f, s) and bool(np.can_cast(f, s, "safe"))

# ------------------------------------------------------------ cast table --


def universe(r):
    bo = lambda: r.choice("<>")                     # noqa: E731
    types = ["|b1", "|i1", "|u1"]
    for k in "iu":
        for n in (2, 4, 8):
            types.append(bo() + k + str(n))
    for n in (2, 4, 8, 16):
        types.append(bo() + "f" + str(n))
    for n in (8, 16, 32):
        types.append(bo() + "c" + str(n))
    lengths = [0, 1, 2, 3, 4, 5, 6, 10, 11, 20, 21, 22, 32, 33, 48, 49, 64, 65, 95, 96]
    types += ["|S%d" % n for n in lengths]
    types += [bo() + "U%d" % n for n in lengths]
    types += ["|V%d" % n for n in (0, 1, 2, 3, 4, 7, 8, 9, 16, 17, 32, 33)]
    types.append("|O")
    units = ["", "[Y]", "[M]", "[W]", "[D]", "[h]", "[m]", "[s]", "[ms]", "[us]",
             "[ns]", "[ps]", "[fs]", "[as]", "[2s]", "[7D]", "[25s]", "[3h]",
             "[1000ms]", "[12M]", "[2Y]", "[3W]", "[1000000000s]", "[100000as]",
             "[2000000000ns]"]
    for k in "Mm":
        types += [bo() + k + "8" + u for u in units]
    return [np.dtype(t) for t in types]


def table_check(npydt, tmp, r, results):
    types = universe(r)
    pairs = [(a, b) for a in types for b in types]
    r.shuffle(pairs)
    # the report lists at most 1,000 mismatches (NPYDT_CHECK_MISMATCH_MAX)
    # and a field gives at most three: every one is listed
    batch = 300
    for start in range(0, len(pairs), batch):
        chunk = pairs[start:start + batch]
        names = ["p%d" % k for k in range(len(chunk))]
        fdt = np.dtype([(n, a) for n, (a, _) in zip(names, chunk)])
        sdt = np.dtype([(n, b) for n, (_, b) in zip(names, chunk)])
        fpath = os.path.join(tmp, "table.npy")
        spath = os.path.join(tmp, "table.spec")
        write_npy(fpath, fdt)
        with open(spath, "w") as f:
            f.write(repr(np.lib.format.dtype_to_descr(sdt)))
        for level, flags, ref in (("safe-cast", ["--safe-cast"], numpy_safe),
                                  ("default", [], numpy_equal),
                                  ("strict", ["--strict"], numpy_identical)):
            _, (rep,) = run_check(npydt, spath, [fpath], flags)
            if rep["mismatches_total"] != len(rep["mismatches"]):
                results["failed"] += 1
                print("FAIL table %s: %d of %d mismatches listed"
                      % (level, len(rep["mismatches"]), rep["mismatches_total"]))
            bad = {m["path"] for m in rep["mismatches"] if m["path"]}
            for n, (a, b) in zip(names, chunk):
                want = ref(np.dtype([("a", a)]), np.dtype([("a", b)]))
                got = n not in bad
                if want == got:
                    results["passed"] += 1
                else:
                    results["failed"] += 1
                    print("FAIL table %s: field %s -> %s: numpy %s, npydt %s"
                          % (level, a.str, b.str, want, got))
    # the top level, where S0, U0 and V0 name whole type classes
    files = []
    for k, a in enumerate(types):
        p = os.path.join(tmp, "top%d.npy" % k)
        write_npy(p, a)
        files.append(p)
    for target in ("'|S0'", "'|U0'", "'|V0'", "'|O'", "('<i8', (2,))",
                   "('|S5', (3,))", "[('a', '<f8')]"):
        spath = os.path.join(tmp, "top.spec")
        with open(spath, "w") as f:
            f.write(target)
        sdt = np.lib.format.descr_to_dtype(eval(target))
        _, reps = run_check(npydt, spath, files, ["--safe-cast"])
        for a, rep in zip(types, reps):
            want = bool(np.can_cast(a, sdt, "safe"))
            if want == rep["match"]:
                results["passed"] += 1
            else:
                results["failed"] += 1
                print("FAIL top safe-cast: %s -> %s: numpy %s, npydt %s"
                      % (a.str, target, want, rep["match"]))

# ---------------------------------------------------------- random pairs --

LEAVES = ["|b1", "|i1", "|u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4",
          "f8", "f16", "c8", "c16", "c32", "|S1", "|S3", "|S8", "U1", "U4",
          "|V4", "M8[s]", "M8[ms]", "M8[D]", "M8", "m8[s]", "m8[us]", "m8", "|O"]
WIDER = {"|i1": "i2", "i2": "i4", "i4": "i8", "|u1": "u2", "u2": "u4",
         "u4": "u8", "f2": "f4", "f4": "f8", "f8": "f16", "c8": "c16",
         "c16": "c32", "|S1": "|S3", "|S3": "|S8", "U1": "U4", "M8[s]": "M8[ms]",
         "m8[s]": "m8[us]", "M8[D]": "M8[s]", "|b1": "|i1", "i8": "f8",
         "u8": "f8", "f16": "c32"}
NAMES = ["a", "b", "c", "x", "y", "pos", "val", "t", "\xe9t\xe9", "a\x00", "\x00"]

# A node is ("leaf", str) | ("sub", node, shape) | ["struct", [field], tail]
# with field = [name, title, node, pad_before].


def leaf(r):
    t = r.choice(LEAVES)
    if t[0] not in "|":
        t = r.choice("<>") + t
    return ("leaf", t)


def rand_node(r, depth=0):
    x = r.random()
    if depth < 3 and x < 0.35:
        node = rand_struct(r, depth + 1)
    else:
        node = leaf(r)
    if r.random() < 0.2:
        node = ("sub", node, r.choice([(2,), (3,), (2, 3), (1,)]))
        if r.random() < 0.25:   # NumPy keeps a subarray of subarrays apart
            node = ("sub", node, r.choice([(2,), (3,)]))
    return node


def rand_struct(r, depth=0):
    n = r.choice([1, 2, 2, 3, 3, 4])
    names = r.sample(NAMES, n)
    fields = []
    for name in names:
        title = "T_" + name if r.random() < 0.1 else None
        pad = r.choice([0, 0, 0, 0, 1, 4])
        fields.append([name, title, rand_node(r, depth), pad])
    return ["struct", fields, r.choice([0, 0, 0, 2])]


def to_dtype(node):
    if node[0] == "leaf":
        return np.dtype(node[1])
    if node[0] == "sub":
        return np.dtype((to_dtype(node[1]), node[2]))
    names, formats, offsets, titles = [], [], [], []
    off = 0
    for name, title, sub, pad in node[1]:
        dt = to_dtype(sub)
        off += pad
        names.append(name)
        formats.append(dt)
        offsets.append(off)
        titles.append(title)
        off += dt.itemsize
    spec = {"names": names, "formats": formats, "offsets": offsets,
            "itemsize": off + node[2]}
    if any(t is not None for t in titles):
        spec["titles"] = titles
    return np.dtype(spec)


def copy(node):
    if node[0] == "leaf":
        return ("leaf", node[1])
    if node[0] == "sub":
        return ("sub", copy(node[1]), node[2])
    return ["struct", [[n, t, copy(s), p] for n, t, s, p in node[1]], node[2]]


def all_nodes(node, out=None):
    """(container, index) slots holding nodes, for mutation in place."""
    out = [] if out is None else out
    if node[0] == "struct":
        for f in node[1]:
            out.append(f)
            all_nodes(f[2], out)
    elif node[0] == "sub":
        all_nodes(node[1], out)
    return out


def leaf_slots(node):
    return [f for f in all_nodes(node) if f[2][0] == "leaf"]


def structs(node, out=None):
    out = [] if out is None else out
    if node[0] == "struct":
        out.append(node)
        for f in node[1]:
            structs(f[2], out)
    elif node[0] == "sub":
        structs(node[1], out)
    return out


def flip(t):
    if t[0] == "<":
        return ">" + t[1:]
    if t[0] == ">":
        return "<" + t[1:]
    return t


def mutate(r, root):
    """A schema node made from the file's by one random change."""
    s = copy(root)
    kind = r.choice(["same", "same", "flip", "widen", "widen", "narrow",
                     "replace", "rename", "drop", "add", "move", "shape",
                     "pad", "root"])
    if root[0] != "struct":
        if kind == "flip":
            return ("leaf", flip(root[1])) if root[0] == "leaf" else s, kind
        if kind in ("same",):
            return s, kind
        return rand_node(r, 3), "root"
    leaves = leaf_slots(s)
    fields = all_nodes(s)
    sts = structs(s)
    if kind == "flip":
        for f in leaves:
            if r.random() < 0.5:
                f[2] = ("leaf", flip(f[2][1]))
    elif kind in ("widen", "narrow") and leaves:
        f = r.choice(leaves)
        t = f[2][1]
        bo = t[0] if t[0] in "<>" else ""
        key = t if t[0] == "|" else t[1:]
        if kind == "widen" and key in WIDER:
            w = WIDER[key]
            f[2] = ("leaf", w if w[0] == "|" else (bo or "<") + w)
        elif kind == "narrow":
            back = [k for k, v in WIDER.items() if v == key]
            if back:
                w = back[0]
                f[2] = ("leaf", w if w[0] == "|" else (bo or "<") + w)
    elif kind == "replace" and fields:
        r.choice(fields)[2] = rand_node(r, 3)
    elif kind == "rename" and fields:
        f = r.choice(fields)
        f[0] = f[0] + "_"
    elif kind == "drop":
        st = r.choice(sts)
        if len(st[1]) > 1:
            st[1].pop(r.randrange(len(st[1])))
    elif kind == "add":
        st = r.choice(sts)
        name = "new%d" % r.randrange(100)
        st[1].insert(r.randrange(len(st[1]) + 1), [name, None, leaf(r), 0])
    elif kind == "move":
        st = r.choice(sts)
        if len(st[1]) > 1:
            i, j = r.sample(range(len(st[1])), 2)
            st[1][i], st[1][j] = st[1][j], st[1][i]
    elif kind == "shape" and fields:
        f = r.choice(fields)
        if f[2][0] == "sub" and f[2][1][0] == "sub":   # merged into one shape
            f[2] = ("sub", f[2][1][1], f[2][2] + f[2][1][2])
        elif f[2][0] == "sub" and len(f[2][2]) == 2:     # split into two
            f[2] = ("sub", ("sub", f[2][1], f[2][2][1:]), f[2][2][:1])
        elif f[2][0] == "sub":
            f[2] = r.choice([f[2][1], ("sub", f[2][1], (4,))])
        else:
            f[2] = ("sub", f[2], (2,))
    elif kind == "pad":
        st = r.choice(sts)
        if r.random() < 0.5:
            st[1][r.randrange(len(st[1]))][3] += 2
        else:
            st[2] += 3
    elif kind == "root":
        return rand_node(r), kind
    return s, kind


def deep_struct(r, depth=0):
    """Structs three levels deep, each below the top repeated in a subarray
    half of the time, with padding as align=True leaves it."""
    n = r.choice([2, 3, 4])
    fields = [[name, None, leaf(r), r.choice([0, 0, 3])] for name in r.sample(NAMES, n)]
    if depth < 2:
        sub = deep_struct(r, depth + 1)
        if r.random() < 0.5:
            sub = ("sub", sub, r.choice([(2,), (3,), (2, 2)]))
        fields[r.randrange(n)][2] = sub
    return ["struct", fields, r.choice([0, 5])]


def drop_some(r, node):
    """The schema's view: some fields of every struct left out (never all),
    and the padding gone."""
    if node[0] == "sub":
        return ("sub", drop_some(r, node[1]), node[2])
    if node[0] == "leaf":
        return node
    keep = [f for f in node[1] if f[2][0] != "leaf" or r.random() < 0.6] or node[1][:1]
    return ["struct", [[n, t, drop_some(r, sub), 0] for n, t, sub, _ in keep], 0]


def extra_pairs(npydt, tmp, r, count, results):
    """4. --allow-extra with extra fields at every level of nesting: a file
    of structs three levels deep (subarrays of structs, padding), a schema
    naming some of its fields, sometimes with one more change."""
    for k in range(count):
        froot = deep_struct(r)
        sroot = drop_some(r, froot)
        how = "drop"
        if r.random() < 0.6:
            sroot, how = mutate(r, sroot)
            how = "drop+" + how
        try:
            fdt, sdt = to_dtype(froot), to_dtype(sroot)
        except (ValueError, TypeError):
            continue
        fpath = os.path.join(tmp, "extra%d.npy" % k)
        spath = os.path.join(tmp, "extra%d.spec" % k)
        write_npy(fpath, fdt, (2,))
        spec = repr(np.lib.format.dtype_to_descr(sdt))
        with open(spath, "w") as f:
            f.write(spec)
        for level, flags, ref in (("deep allow-extra", ["--allow-extra"], extra_equal),
                                  ("deep allow-extra strict", ["--allow-extra", "--strict"],
                                   extra_identical)):
            rc, (rep,) = run_check(npydt, spath, [fpath], flags)
            want, got = ref(fdt, sdt), rc == 0
            key = "%s %s" % (level, "match" if want else "mismatch")
            results[key] = results.get(key, 0) + 1
            if want == got and rep["match"] == got:
                results["passed"] += 1
            else:
                results["failed"] += 1
                print("FAIL %s (%s): file %r schema %r: numpy %s, npydt %s %s"
                      % (level, how, np.lib.format.dtype_to_descr(fdt), spec, want, got,
                         rep["mismatches"][:4]))


def comma_string(dt):
    """A comma type string for a packed struct of plain fields f0..fN."""
    if dt.names is None or len(dt.names) < 2:
        return None
    if list(dt.names) != ["f%d" % i for i in range(len(dt.names))]:
        return None
    parts, off = [], 0
    for n in dt.names:
        sub, o = dt.fields[n][:2]
        if o != off or sub.names is not None or sub.subdtype or sub.kind == "O":
            return None
        parts.append(sub.str)
        off += sub.itemsize
    return ", ".join(parts) if off == dt.itemsize else None


def random_pairs(npydt, tmp, r, count, results):
    for k in range(count):
        if r.random() < 0.1:
            n = r.choice([2, 3])
            froot = ["struct", [["f%d" % i, None, leaf(r), 0] for i in range(n)], 0]
        else:
            froot = rand_struct(r) if r.random() < 0.85 else rand_node(r)
        sroot, how = mutate(r, froot)
        try:
            fdt, sdt = to_dtype(froot), to_dtype(sroot)
        except (ValueError, TypeError):
            continue
        # what a header can say: a top-level subarray becomes '|V<n>'
        fdt = np.lib.format.descr_to_dtype(np.lib.format.dtype_to_descr(fdt))
        sdt = np.lib.format.descr_to_dtype(np.lib.format.dtype_to_descr(sdt))
        shape = r.choice([(0,), (3,), (2, 3), ()])
        fortran = len(shape) > 1 and r.random() < 0.3
        fpath = os.path.join(tmp, "pair%d.npy" % k)
        spath = os.path.join(tmp, "pair%d.spec" % k)
        write_npy(fpath, fdt, shape, fortran)
        form = r.choice(["literal", "literal", "dict"])
        spec_shape_ok, spec_fortran_ok = True, True
        comma = comma_string(sdt)
        if comma and r.random() < 0.7:
            spec, form = comma, "comma"
        elif form == "dict":
            sshape = list(shape)
            for i in range(len(sshape)):
                if r.random() < 0.4:
                    sshape[i] = -1
            if sshape and r.random() < 0.15:
                sshape[0] = shape[0] + 1
            if r.random() < 0.1:
                sshape.append(-1)
            sfortran = fortran if r.random() < 0.85 else not fortran
            spec_shape_ok = len(sshape) == len(shape) and all(
                a == -1 or a == b for a, b in zip(sshape, shape))
            spec_fortran_ok = sfortran == fortran
            spec = "{'descr': %r, 'fortran_order': %r, 'shape': %r}" % (
                np.lib.format.dtype_to_descr(sdt), sfortran, tuple(sshape))
        else:
            spec = repr(np.lib.format.dtype_to_descr(sdt))
        with open(spath, "w") as f:
            f.write(spec)
        array_ok = spec_shape_ok and spec_fortran_ok
        levels = [("default", [], numpy_equal), ("strict", ["--strict"], numpy_identical),
                  ("safe-cast", ["--safe-cast"], numpy_safe)]
        levels += [("allow-extra", ["--allow-extra"], extra_equal),
                   ("allow-extra strict", ["--allow-extra", "--strict"], extra_identical)]
        if no_extra_fields(fdt, sdt):
            levels += [("allow-extra safe-cast", ["--allow-extra", "--safe-cast"], numpy_safe)]
        for level, flags, ref in levels:
            rc, (rep,) = run_check(npydt, spath, [fpath], flags)
            want = ref(fdt, sdt) and array_ok
            got = rc == 0
            results.setdefault("%s %s" % (level, "match" if want else "mismatch"), 0)
            results["%s %s" % (level, "match" if want else "mismatch")] += 1
            if want == got and rep["match"] == got:
                results["passed"] += 1
            else:
                results["failed"] += 1
                print("FAIL random %s (%s, %s): file %r schema %r: numpy %s, npydt %s %s"
                      % (level, how, form, np.lib.format.dtype_to_descr(fdt), spec,
                         want, got, rep["mismatches"][:4]))


HERE = os.path.dirname(os.path.abspath(__file__))
HEADER_DIRS = [os.path.join(HERE, "fixtures"), os.path.join(HERE, "fixtures", "quirks"),
               os.path.join(os.path.dirname(np.__file__), "lib", "tests", "data")]


def own_headers(npydt, tmp, results):
    """3. Every file NumPy reads, checked (--strict) against its own header
    dict as the schema: a schema reads as a header does (Python 2 'L'
    suffixes, names with NUL, every spelling NumPy accepts), so each must
    match. The header text goes in as UTF-8, as a schema is typed."""
    for d in HEADER_DIRS:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name)
            if not name.endswith(".npy"):
                continue
            with open(path, "rb") as f:
                try:
                    version = np.lib.format.read_magic(f)
                    np.lib.format._read_array_header(f, version)
                except Exception:                   # noqa: BLE001
                    continue                        # not a file NumPy reads
                f.seek(0)
                raw = f.read(12)
                if version == (1, 0):
                    hlen, start = raw[8] | raw[9] << 8, 10
                else:
                    hlen, start = int.from_bytes(raw[8:12], "little"), 12
                f.seek(start)
                text = f.read(hlen).decode("utf8" if version == (3, 0) else "latin1")
            spath = os.path.join(tmp, "own.spec")
            with open(spath, "w", encoding="utf8") as f:
                f.write(text)
            try:
                rc, (rep,) = run_check(npydt, spath, [path], ["--strict"])
            except RuntimeError as e:
                rc, rep = 2, {"match": False, "mismatches": [str(e)[:300]]}
            results.setdefault("own header", 0)
            results["own header"] += 1
            if rc == 0 and rep["match"]:
                results["passed"] += 1
            else:
                results["failed"] += 1
                print("FAIL own header of %s (%r): %s" % (path, text.strip()[:120],
                                                         rep["mismatches"][:4]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("npydt")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    r = random.Random(seed)
    results = {"passed": 0, "failed": 0}
    with tempfile.TemporaryDirectory() as tmp:
        table_check(a.npydt, tmp, r, results)
        random_pairs(a.npydt, tmp, r, a.count, results)
        own_headers(a.npydt, tmp, results)
        extra_pairs(a.npydt, tmp, r, a.count, results)
    print("random pairs: " + ", ".join("%s %d" % (k, v) for k, v in sorted(results.items())
                                       if k not in ("passed", "failed")))
    if results["failed"]:
        print("seed %d" % seed)
    print("%d passed, %d failed" % (results["passed"], results["failed"]))
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())

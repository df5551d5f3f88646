#!/usr/bin/python3
"""`npydt inspect` without --json (the text table) against NumPy.

    python3 tests/inspect_text_check.py NPYDT FIXTURES NPZ_FIXTURES

For every fixture that NumPy reads (FIXTURES/*.npy and quirks/*.npy with an
.inspect.json, and every member of NPZ_FIXTURES/savez*.npz), the expected
text is built from NumPy's own reading of the file: the version and data
offset from np.lib.format's header readers, the descriptor from
dtype_to_descr, and the table of leaves from a walk of the NumPy dtype
(field paths joined with '.', offsets summed, one repeat per subarray level,
a level whose scalar elements exactly fill the enclosing repeat's stride
folded into it, as doc/command.md's leaf table describes). The whole stdout must
be equal, byte for byte, exit status 0, nothing on stderr. Several files in
one call print their blocks in argument order.

Prints "inspect-text: N passed, M failed".
"""

import glob
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import zipfile

import numpy as np

from text_escape import text_escaped

DESCR_SHOWN = 159   # the command prints at most this much of the descriptor


def leaves(dt, path="", offset=0, reps=None, out=None, field=None, title=None):
    """(path, offset, str, byteorder, count, repeats, field type, title) in
    record order; field type is the type of the field as NumPy writes a
    subarray ("(2, 2)<f8"), title its title or None."""
    reps = [] if reps is None else reps
    out = [] if out is None else out
    field = dt if field is None else field
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        items = int(np.prod(shape, dtype=np.int64))
        if reps and base.subdtype is None and base.names is None and reps[-1][1] == dt.itemsize:
            count = reps[-1][0]
            leaves(base, path, offset, reps[:-1] + [(count * items, base.itemsize)], out,
                   field, title)
        else:
            leaves(base, path, offset, reps + [(items, base.itemsize)], out, field, title)
    elif dt.names is not None:
        for name in dt.names:
            sub, off = dt.fields[name][:2]
            leaves(sub, path + "." + name if path else name, offset + off, reps, out, sub,
                   dt.fields[name][2] if len(dt.fields[name]) > 2 else None)
    else:
        count = 1
        for c, _ in reps:
            count *= c
        # one shape per subarray level (NumPy keeps nested levels apart)
        ftype = ""
        while field.subdtype is not None:
            ftype += repr(field.subdtype[1])
            field = field.subdtype[0]
        ftype += dt.str
        out.append((path, offset, dt.str, dt.str[0], count, list(reps), ftype, title))
    return out


def width(s):
    """Terminal columns: East Asian wide 2, combining and format 0 (not the
    soft hyphen), control characters 0, the rest 1."""
    w = 0
    for ch in s:
        cat = unicodedata.category(ch)
        if ord(ch) < 0x20 or ord(ch) == 0x7F or (cat in ("Mn", "Me", "Cf") and ch != "\xad"):
            continue
        w += 2 if cat != "Cn" and unicodedata.east_asian_width(ch) in "WF" else 1
    return w


def ljust(s, n):
    """Pads to n terminal columns."""
    return s + " " * max(0, n - width(s))


def expected_text(label, f):
    major, minor = np.lib.format.read_magic(f)
    start = f.tell()
    # version 3 headers are UTF-8, the others latin-1: the reader that
    # np.load itself calls knows which (the big-header fixture needs the
    # size limit raised)
    shape, fortran, dt = np.lib.format._read_array_header(
        f, (major, minor), max_header_size=1 << 20)
    data_offset = f.tell()
    header_len = data_offset - start - (2 if major == 1 else 4)
    count = int(np.prod(shape, dtype=np.int64))
    descr = repr(np.lib.format.dtype_to_descr(dt))
    if len(descr.encode()) > DESCR_SHOWN:
        # cut in bytes, before a whole character
        b = descr.encode()
        k = DESCR_SHOWN
        while k > 0 and (b[k] & 0xC0) == 0x80:
            k -= 1
        descr = b[:k].decode() + "..."
    t = io.StringIO()
    t.write("%s\n" % text_escaped(label))
    t.write("  format     %d.%d (header %d bytes, data at offset %d)\n"
            % (major, minor, header_len, data_offset))
    t.write("  shape      %r, %s order, %d elements, %d data bytes\n"
            % (tuple(shape), "Fortran" if fortran else "C", count, count * dt.itemsize))
    t.write("  dtype      %s\n" % descr)
    t.write("  itemsize   %d\n" % dt.itemsize)
    if dt.names is None and dt.subdtype is None:
        return t.getvalue()
    t.write("  %-24s %8s  %-12s %5s  %s\n" % ("field", "offset", "type", "order", "elements"))
    for path, off, s, order, n, reps, ftype, title in leaves(dt):
        # controls in names escaped; the last name as NumPy writes a
        # titled field
        if title is not None:
            name = path.rsplit(".", 1)[-1] if "." in path else path
            path = text_escaped(path[:len(path) - len(name)]) + "(%r, %r)" % (title, name)
        else:
            path = text_escaped(path)
        t.write("  %s %8d  %s %5s  %d" % (ljust(path or "''", 24), off, ljust(ftype, 12), order, n))
        if reps:
            t.write("  [" + " ".join("%dx%dB" % r for r in reps) + "]")
        t.write("\n")
    return t.getvalue()


def main():
    npydt, fix, npz = sys.argv[1], sys.argv[2], sys.argv[3]
    passed = failed = 0

    def check(args, want, what):
        nonlocal passed, failed
        r = subprocess.run([npydt, "inspect"] + args, capture_output=True)
        got = r.stdout.decode("utf-8", "replace")
        ok = r.returncode == 0 and r.stderr == b"" and got == want
        passed += ok
        failed += not ok
        if not ok:
            print("inspect-text: %s: exit %d, stderr %r" % (what, r.returncode, r.stderr[:200]))
            for w, g in zip(want.splitlines(), got.splitlines() + [""] * len(want.splitlines())):
                if w != g:
                    print("  want %r\n  got  %r" % (w[:200], g[:200]))
                    break

    files = sorted(glob.glob(os.path.join(fix, "*.inspect.json")) +
                   glob.glob(os.path.join(fix, "quirks", "*.inspect.json")))
    npys = [e[:-len(".inspect.json")] + ".npy" for e in files]
    texts = {}
    for npy in npys:
        with open(npy, "rb") as f:
            texts[npy] = expected_text(npy, f)
        check([npy], texts[npy], npy)
    # files made here: titles and names quoted as repr() quotes them
    # (backslash, quotes, line breaks, tab and controls), a long UTF-8 name,
    # structs nested 20 deep, and a descriptor that is a subarray (one leaf, no field)
    tmp = tempfile.mkdtemp(prefix="npydt-inspect-")
    try:
        deep = "<i2"
        for k in range(20):
            deep = [("n%d" % k, deep)]
        made = {
            "titles.npy": np.zeros(1, [(("a'b\\c\n\r\t\x01\x7f", "x"), "<f8"),
                                       (("q'\"", "it's"), "<i4"),
                                       (("plain", 'say "hi"'), "u1")]),
            "deep.npy": np.zeros(1, [("top", deep), ("end", "u1")]),
            # written in chunks of at most 256 bytes, never inside a character
            "long_name.npy": np.zeros(1, [("a" + "\u00e9" * 300 + "\u2028", "<i2")]),
        }
        for name, a in made.items():
            np.save(os.path.join(tmp, name), a)
        h = "{'descr': ('<f8', (2,)), 'fortran_order': False, 'shape': (1,), }"
        h += " " * (63 - (10 + len(h)) % 64) + "\n"
        with open(os.path.join(tmp, "subarray.npy"), "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h.encode() + bytes(16))
        for name in sorted(made) + ["subarray.npy"]:
            path = os.path.join(tmp, name)
            with open(path, "rb") as f:
                want = expected_text(path, f)
            # dtype_to_descr writes a subarray dtype as '|V16'; the command
            # shows the descriptor the file holds
            check([path], want.replace("'|V16'", "('<f8', (2,))"), name)
    finally:
        shutil.rmtree(tmp)

    # several files: the blocks in argument order, "--" ends the options
    some = [p for p in npys if "struct_nested3" in p or "shape0d_f8" in p or "fortran_3d" in p]
    check(["--"] + some[::-1], "".join(texts[p] for p in some[::-1]), "three files after --")

    # inspect --json names each file and gives its descriptor as np.save
    # writes it: repr(dtype_to_descr(dtype)), whole, however long
    def descr_of(f):
        version = np.lib.format.read_magic(f)
        dt = np.lib.format._read_array_header(f, version, max_header_size=1 << 20)[2]
        return repr(np.lib.format.dtype_to_descr(dt))

    def check_json(args, want, what):
        nonlocal passed, failed
        r = subprocess.run([npydt, "inspect", "--json"] + args, capture_output=True)
        got = [json.loads(l) for l in r.stdout.splitlines()] if r.returncode == 0 else []
        got = [(o.get("file"), o.get("archive"), o.get("member"), o.get("descr")) for o in got]
        ok = got == want
        passed += ok
        failed += not ok
        if not ok:
            print("inspect-json: %s: want %r, got %r" % (what, want[:2], got[:2]))

    for npy in npys:
        with open(npy, "rb") as f:
            check_json([npy], [(npy, None, None, descr_of(f))], npy + " --json")

    for arc in sorted(glob.glob(os.path.join(npz, "savez*.npz"))):
        with zipfile.ZipFile(arc) as z:
            check_json([arc], [(arc, arc, i.filename, descr_of(io.BytesIO(z.read(i))))
                               for i in z.infolist()], arc + " --json")
        want = []
        with zipfile.ZipFile(arc) as z:
            for info in z.infolist():
                with z.open(info) as m:
                    want.append(expected_text(arc + ":" + info.filename, io.BytesIO(m.read())))
        check([arc], "".join(want), arc)
    print("inspect-text: %d passed, %d failed" % (passed, failed))


if __name__ == "__main__":
    main()

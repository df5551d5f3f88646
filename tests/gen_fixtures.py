#!/usr/bin/python3
"""Generate the .npy conformance fixtures (NumPy is the reference).

    /usr/bin/python3 tests/gen_fixtures.py [OUTDIR]      (default tests/fixtures)

Writes, deterministically:

  OUTDIR/NAME.npy              small files written by NumPy itself
  OUTDIR/NAME.inspect.json     json.dumps(npy_reference.inspect_obj(NAME.npy))
  OUTDIR/NAME.dump.jsonl       one json line per element (not for object dtypes)
  OUTDIR/MANIFEST.txt          NAME.npy<TAB>description, one per line

  OUTDIR/quirks/...            hand-written headers that NumPy ACCEPTS although
                               np.save never writes them (same three files each,
                               own MANIFEST.txt)

  OUTDIR/bad/NAME.npy          files NumPy's reader rejects
  OUTDIR/bad/MANIFEST.txt      NAME.npy<TAB>NumPy's exception, shortened

Only stdlib + numpy.  Uses /usr/bin/python3 (Debian python3-numpy).
"""

import json
import os
import re
import shutil
import struct
import sys
import warnings

import numpy as np
import numpy.lib.format as npformat

sys.dont_write_bytecode = True     # keep tests/ free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import npy_reference as ref  # noqa: E402

warnings.simplefilter("ignore")

NAT = -2 ** 63


# ------------------------------------------------------------ utilities --

def mkarr(values, dtype):
    return ref.zero_longdouble_padding(np.array(values, dtype=dtype))


def ints_as(values, dtype):
    """datetime/timedelta array from raw int64 counts (NaT = -2**63)."""
    dt = np.dtype(dtype)
    return np.array(values, dtype=dt.byteorder.replace("=", "<") + "i8") \
        .view(dt)


def fill_bytes(shape, dtype, seed):
    """Deterministic array of dtype whose bytes are pseudo-random, with
    bools 0/1, valid U code points and normal long doubles."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64)) if shape != () else 1
    if n == 0 or dt.itemsize == 0:
        return np.ndarray(shape, dtype=dt)     # np.zeros turns S0 into S1
    rng = np.random.RandomState(seed)
    raw = bytearray(rng.randint(0, 256, size=n * dt.itemsize, dtype=np.uint8)
                    .tobytes())
    leaves = list(ref.iter_leaves(dt))
    for e in range(n):
        for off, ld in leaves:
            pos = e * dt.itemsize + off
            patch_leaf(raw, pos, ld, rng)
    arr = np.frombuffer(bytes(raw), dtype=dt).reshape(shape)
    return ref.zero_longdouble_padding(arr)


def patch_leaf(raw, pos, ld, rng):
    bo = "<" if ld.byteorder in "<=|" else ">"
    k = ld.kind
    if k == "b":
        raw[pos] = int(rng.randint(0, 2))
    elif k == "U":
        pool = [0x41, 0x7a, 0xe9, 0x6f22, 0x1f600, 0x20, 0x7f, 0x10ffff]
        n = ld.itemsize // 4
        used = int(rng.randint(0, n + 1))
        for i in range(n):
            cp = int(pool[rng.randint(0, len(pool))]) if i < used else 0
            raw[pos + 4 * i:pos + 4 * i + 4] = struct.pack(bo + "I", cp)
    elif k in "fc" and ld.itemsize in (16, 32):
        for part in range(ld.itemsize // 16):
            v = float(rng.standard_normal()) * 10.0 ** int(rng.randint(-30, 30))
            b = np.array([v], dtype=bo + "f16").tobytes()
            raw[pos + 16 * part:pos + 16 * part + 16] = b
    elif k in "Mm":
        if rng.randint(0, 5) == 0:
            raw[pos:pos + 8] = struct.pack(bo + "q", NAT)


# ------------------------------------------------------------- fixtures --

def good_fixtures():
    """List of (name, description, writer) where writer(path) writes it."""
    out = []

    def add(name, desc, arr, **kw):
        out.append((name, desc, ("save", arr, kw)))

    def add_ver(name, desc, arr, version):
        out.append((name, desc, ("version", arr, version)))

    # --- scalars -------------------------------------------------------
    add("scalar_b1", "bool", mkarr([True, False, True, False], "|b1"))
    ii8 = np.iinfo(np.int8)
    add("scalar_i1", "int8 min/max", mkarr([ii8.min, -1, 0, 1, ii8.max], "|i1"))
    add("scalar_u1", "uint8", mkarr([0, 1, 127, 128, 255], "|u1"))
    for bits in (16, 32, 64):
        nb = bits // 8
        si, ui = np.iinfo("i%d" % nb), np.iinfo("u%d" % nb)
        for bo, tag in (("<", "le"), (">", "be")):
            add("scalar_i%d_%s" % (nb, tag), "int%d min/max" % bits,
                mkarr([si.min, si.min + 1, -1, 0, 1, si.max], bo + "i%d" % nb))
            add("scalar_u%d_%s" % (nb, tag), "uint%d max" % bits,
                mkarr([0, 1, ui.max // 2 + 1, ui.max], bo + "u%d" % nb))
    inf, nan = float("inf"), float("nan")
    for code in ("f2", "f4", "f8"):
        fi = np.finfo(code)
        vals = [0.0, -0.0, 1.5, -2.25, nan, inf, -inf, float(fi.max),
                float(fi.min), float(fi.tiny), float(fi.smallest_subnormal)
                if hasattr(fi, "smallest_subnormal") else 0.0, 0.1, 1.0 / 3]
        for bo, tag in (("<", "le"), (">", "be")):
            add("scalar_%s_%s" % (code, tag), "float specials", mkarr(vals,
                bo + code))
    ld = np.longdouble
    ldvals = [ld(0), -ld(0), ld(1) / 3, ld(2) / 3, ld("1e4000"),
              -ld("1e4000"), ld("1e-4000"), ld(2) ** -1075,
              ld(1) + ld(2) ** -53, ld(1) + 3 * ld(2) ** -53, ld("nan"), ld("inf"), -ld("inf"),
              ld(1) + ld(2) ** -60, ld(2) ** -1074 * 3 / 4,
              ld(np.finfo(np.float64).max) * (1 + ld(2) ** -54)]
    for bo, tag in (("<", "le"), (">", "be")):
        add("scalar_f16_%s" % tag, "long double -> nearest double "
            "(1e4000 -> inf, 1e-4000 -> 0, ties to even)", mkarr(ldvals, bo + "f16"))
    cvals = [complex(1, 2), complex(-0.0, -0.0), complex(inf, -inf),
             complex(nan, 1), complex(0.1, 1e300)]
    for code in ("c8", "c16", "c32"):
        for bo, tag in (("<", "le"), (">", "be")):
            add("scalar_%s_%s" % (code, tag), "complex", mkarr(cvals,
                bo + code))
    ndarr = np.ndarray((3,), dtype="S0")
    add("scalar_S0", "zero-size bytes", ndarr)
    add("scalar_S1", "1-byte strings",
        mkarr([b"a", b"\x00", b"\xff", b"~", b"\x7f", b" "], "|S1"))
    add("scalar_S5", "bytes: trailing NULs cut, inner NUL and non-ASCII kept",
        mkarr([b"abc", b"\xff\x00a", b"", b"hello", b"a\x00\x00",
               b"\x7f\x1f~ \x80", b"\x00\x00\x00\x00z", b'q"\\/\n'], "|S5"))
    for bo, tag in (("<", "le"), (">", "be")):
        add("scalar_U1_%s" % tag, "1-char unicode",
            mkarr(["a", "", "\xe9", "\u6f22", "\U0001f600"], bo + "U1"))
        add("scalar_U3_%s" % tag, "unicode incl. astral, inner NUL",
            mkarr(["\xe9t\xe9", "\u6f22\u5b57", "\U0001f600!", "", "a\x00b",
                   '"\\\n'], bo + "U3"))
    add("scalar_U3_line_breaks", "unicode line breaks that JSON keeps raw but splitlines() splits at",
        mkarr(["a\u2028b", "c\x85d", "e\u2029", "\x1c\x1d\x1e", "\x0b\x0c\r"], "<U3"))
    add("struct_name_line_break", "a field name with U+2028",
        np.zeros(2, [("a\u2028b", "<i4"), ("c\x85", "|u1")]))
    add("struct_name_nul", "field names with NUL: 'nul\\x00', and 'a' beside 'a\\x00'",
        fill_bytes((3,), [("nul\x00", "<i4"), ("a", "<f8"), ("a\x00", "|u1")], 41))
    add("struct_title_nul", "titles and nested names with NUL, in a subarray of structs",
        fill_bytes((2,), [(("t\x00", "n"), "<i2"),
                          ("\x00", [(("\x00\x00", "x\x00"), "<i2"), ("x", "|u1")], (2,)),
                          ("z\x00z", ">u2")], 42))
    add("struct_name_nul_utf8", "a NUL and a non-latin-1 letter in one name -> version 3.0",
        fill_bytes((2,), [("\u6f22\x00", "<f4"), ("\u6f22", "<f4")], 43))
    add("scalar_V8", "raw void",
        np.frombuffer(bytes(range(8)) + b"\xff" * 8 + bytes(8), "|V8"))
    add("scalar_V0", "zero-size void", np.zeros(2, "|V0"))
    units = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs",
             "as"]
    dvals = [0, 1, -1, 1700000000, 2 ** 62, -2 ** 63 + 1, NAT]
    for u in units:
        add("scalar_M8_%s" % u, "datetime64[%s]" % u,
            ints_as(dvals, "<M8[%s]" % u))
    for u in ("D", "s", "ns"):
        add("scalar_M8_%s_be" % u, "big-endian datetime64[%s]" % u,
            ints_as(dvals, ">M8[%s]" % u))
        add("scalar_m8_%s" % u, "timedelta64[%s]" % u,
            ints_as(dvals, "<m8[%s]" % u))
        add("scalar_m8_%s_be" % u, "big-endian timedelta64[%s]" % u,
            ints_as(dvals, ">m8[%s]" % u))
    add("scalar_M8_generic", "generic datetime", ints_as([NAT, NAT], "<M8"))
    add("scalar_m8_generic", "generic timedelta", ints_as([0, 5, NAT], "<m8"))
    add("scalar_m8_25s", "multiplier [25s]", ints_as(dvals, "<m8[25s]"))
    add("scalar_M8_25s_be", "multiplier [25s] big-endian",
        ints_as(dvals, ">M8[25s]"))
    add("scalar_M8_7D", "multiplier [7D]", ints_as([3, NAT], "<M8[7D]"))
    add("scalar_m8_1000ms", "multiplier [1000ms]", ints_as([2], "<m8[1000ms]"))
    # units Arrow has not, whose counts convert exactly to one it has
    # (Arrow's timestamps, dates and durations), with values that fit
    for ts, v in (("<M8[m]", 28000000), ("<M8[h]", 480000), (">M8[W]", 2800),
                  ("<M8[25s]", 67000000), ("<M8[10ms]", 170000000000),
                  ("<m8[D]", 20000), (">m8[h]", 480000), ("<m8[W]", 2800),
                  ("<m8[10ms]", 170000000000)):
        tag = ts[1:].replace("[", "_").replace("]", "") + ("_be" if ts[0] == ">" else "")
        add("arrow_time_%s" % tag, "%s: Arrow converts it exactly" % ts,
            ints_as([0, 1, -1, v, -v, NAT], ts))
    rows = []
    for i in range(24):
        rows.append((i, (i * 0.5 - 3, (i * 7) % 11 - 5), [(i * 3) % 7 - 3, i % 5, -i],
                     NAT if i % 9 == 4 else 1700000000000 + i * 25200000,
                     NAT if i % 10 == 7 else 472000 + i * 13, b"t%d" % (i % 4)))
    fields = [("id", "<i4"), ("pos", [("x", "<f8"), ("y", ">i2")]),
              ("samples", "<i2", (3,)), ("t", "<i8"), ("h", ">i8"), ("tag", "S4")]
    times = fields[:3] + [("t", "<M8[ms]"), ("h", ">M8[h]"), ("tag", "S4")]
    add("arrow_query_records", "records SQL filters and aggregates query through Arrow",
        np.array(rows, fields).view(times))   # times from raw counts, NaT included
    add("arrow_time_struct", "times of converted units beside other fields",
        mkarr([(True, 480000, 2800, 21, b"ab"), (False, NAT, -1, NAT, b""),
               (True, -5, NAT, 86400, b"xyz")],
              [("flag", "?"), ("h", "<M8[h]"), ("w", ">M8[W]"), ("d", "<m8[25s]"),
               ("s", "S3")]))
    obj = np.empty(3, dtype=object)
    obj[:] = [1, "two", None]
    add("object_O", "object array (pickle): inspect only, dump must fail",
        obj, allow_pickle=True)
    add("object_in_struct", "object field in a struct: inspect only",
        np.zeros(2, [("a", "<i4"), ("o", "O")]), allow_pickle=True)

    # --- structs -------------------------------------------------------
    dt = np.dtype([("x", "<f8"), ("y", "<i4"), ("name", "S5")])
    add("struct_simple", "flat struct", fill_bytes((3,), dt, 1))
    dt = np.dtype([("a", [("b", [("c", "<i2"), ("d", ">f4")]), ("e", "u1")]),
                   ("f", "<c8"), ("g", ">f16")])
    add("struct_nested3", "3 levels of nesting", fill_bytes((2,), dt, 2))
    dt = np.dtype([("v", "<f4", (3,)), ("m", ">i2", (2, 3)), ("s", "S2", (2,)),
                   ("one", "<u2", (1,))])
    add("struct_subarray_fields", "subarray fields incl. shape (1,)",
        fill_bytes((2,), dt, 3))
    dt = np.dtype([("pts", [("x", "<f4"), ("y", ">i8")], (2,)),
                   ("n", "u1")])
    add("struct_subarray_of_struct", "subarray of struct",
        fill_bytes((2,), dt, 4))
    dt = np.dtype([("x", ("<f8", (2,)), (3,))])
    add("struct_nested_subarray", "subarray of a subarray (not collapsed)",
        mkarr([(np.arange(6.0).reshape(3, 2),), (-np.arange(6.0).reshape(3, 2),)],
              dt))
    dt = np.dtype([("x", (("<i2", (2,)), (2,)), (3,))])
    add("struct_nested_subarray3", "subarray of subarray of subarray",
        np.arange(24, dtype="<i2").view(dt))
    dt = np.dtype([("T", "<i4"), (("Title A", "a"), "<i4"), ("b", "<f8"),
                   (("t\xe9", "c"), "u1")])
    add("struct_titles", "titles ((title, name), type)",
        fill_bytes((2,), dt, 5))
    dt = np.dtype([("a", "i1"), ("b", "<f8"), ("c", "<i2")], align=True)
    add("struct_aligned", "align=True: padding entries in descr",
        fill_bytes((2,), dt, 6))
    dt = np.dtype([("a", "i1"), ("s", [("x", "u1"), ("y", "<f4")]),
                   ("c", "u1")], align=True)
    add("struct_aligned_nested", "align=True nested struct",
        fill_bytes((2,), dt, 7))
    dt = np.dtype({"names": ["a", "b", "c"], "formats": ["<i4", ">f8", "u1"],
                   "offsets": [2, 8, 17], "itemsize": 24})
    add("struct_offsets", "explicit offsets: leading gap, gaps, trailing pad",
        fill_bytes((2,), dt, 8))
    inner = np.dtype({"names": ["p"], "formats": ["<i2"], "offsets": [1],
                      "itemsize": 5})
    dt = np.dtype({"names": ["in", "z"], "formats": [inner, "<u2"],
                   "offsets": [3, 10], "itemsize": 16})
    add("struct_offsets_nested", "gaps inside and around a nested struct",
        fill_bytes((2,), dt, 9))
    dt = np.dtype([("x", []), ("y", "<i4"), ("z", [])])
    add("struct_empty_field", "empty struct fields ('x', [])",
        mkarr([((), 7, ()), ((), -7, ())], dt))
    add("struct_empty", "empty struct dtype [] (itemsize 0)",
        np.zeros(3, np.dtype([])))
    add("struct_empty_name", "field named '' with a non-void type is kept",
        mkarr([(1, 2)], npformat.descr_to_dtype([("", "<i4"), ("b", "<i2")])))
    add("struct_S0_field", "zero-size bytes field",
        mkarr([(b"", 5)], [("a", "S0"), ("b", "<i2")]))
    add("struct_zero_subarray", "subarray field with a 0 dimension",
        mkarr([(np.zeros((2, 0)), 3)], [("z", "<i4", (2, 0)), ("a", "<i2")]))
    dt = np.dtype([("flag", "?"), ("t", "<M8[ms]"), ("d", ">m8[25s]"),
                   ("u", "<U2"), ("ub", ">U2"), ("v", "V3"), ("s", "S3")])
    add("struct_mixed_kinds", "bool/datetime/unicode/void/bytes fields",
        fill_bytes((3,), dt, 10))
    add("struct_latin1_name", "latin-1 field name stays version 1.0",
        mkarr([(1.5, 2)], [("\xe9", "<f8"), ("na\xefve", "<i2")]))
    add("struct_utf8_name", "non-latin-1 field name -> version 3.0",
        mkarr([(1.5, 2)], [("\u6f22", "<f8"), ("\U0001f600", "<i2")]))
    add("struct_wide_names", "names of East Asian wide and combining characters, "
        "a title, subarray fields (inspect's table aligns them by display width)",
        fill_bytes((2,), [("\u540d\u524d", "<i4"), ("e\u0301te\u0301", "<f8"),
                          (("\u30bf\u30a4\u30c8\u30eb", "t"), ">f4"),
                          ("m", "<f8", (2, 2)), ("s", [("x", "<i2", (3,))], (2,))], 44))
    add("struct_long_double", "long double/complex fields, both orders",
        fill_bytes((2,), [("a", "<f16"), ("b", ">f16"), ("c", ">c32")], 11))

    # --- shapes --------------------------------------------------------
    add("shape0d_f8", "0-d array (shape ())", np.array(2.5, "<f8"))
    add("shape0d_struct", "0-d struct array",
        np.array((1, 2.0), [("a", ">i2"), ("b", "<f4")]))
    add("shape0d_U", "0-d unicode", np.array("\u6f22x", "<U4"))
    add("shape0d_f16_be", "0-d big-endian long double",
        mkarr(np.longdouble(1) / 3, ">f16"))
    add("empty_f8", "shape (0,)", np.zeros((0,), "<f8"))
    add("empty_3x0", "shape (3, 0)", np.zeros((3, 0), ">i4"))
    add("empty_struct", "shape (0,) struct", np.zeros((0,), [("a", "<f8")]))
    add("shape_2x2x2", "C order 3-D", np.arange(8, dtype="<i2").reshape(2, 2, 2))
    add("shape_1x1x1x1", "4-D single element", np.ones((1, 1, 1, 1), "u1"))
    add("fortran_2d", "fortran_order 2-D",
        np.asfortranarray(np.arange(6, dtype="<i4").reshape(2, 3)))
    add("fortran_3d", "fortran_order 3-D",
        np.asfortranarray(np.arange(24, dtype=">f8").reshape(2, 3, 4)))
    add("fortran_struct", "fortran_order 2-D struct",
        np.asfortranarray(fill_bytes((3, 2), [("a", "<i2"), ("b", "S2")], 12)))

    # --- versions ------------------------------------------------------
    add_ver("version2_small", "write_array(version=(2,0))",
            np.arange(3, dtype="<f8"), (2, 0))
    add_ver("version3_small", "write_array(version=(3,0)), ASCII header",
            np.arange(3, dtype="<i4"), (3, 0))
    names = ["f%03d_" % i + "n" * 1000 for i in range(66)]
    formats = ["<f8", "|u1", ">i2"] * 22
    dt = np.dtype({"names": names, "formats": formats})
    add("version2_big_header", "header > 65535 bytes -> version 2.0 "
        "(66 fields with 1005-char names)", fill_bytes((1,), dt, 13))
    return out


def write_good(outdir, name, writer):
    path = os.path.join(outdir, name + ".npy")
    kind, arr, extra = writer
    if kind == "save":
        np.save(path, arr, **extra)
    else:
        with open(path, "wb") as f:
            npformat.write_array(f, arr, version=extra)
    return path


def write_expected(path):
    """Write PATH.inspect.json and (unless object) PATH.dump.jsonl."""
    stem = path[:-4]
    insp = ref.inspect_obj(path)
    with open(stem + ".inspect.json", "w") as f:
        f.write(json.dumps(insp, ensure_ascii=True) + "\n")
    _v, _hl, _off, _shape, _fo, dtype = ref.read_header(path)
    if dtype.hasobject:
        return insp, False
    lines = ref.dump_lines(path)
    with open(stem + ".dump.jsonl", "w") as f:
        for v in lines:
            f.write(json.dumps(v, ensure_ascii=True) + "\n")
    return insp, True


# ------------------------------------------------- hand-written headers --

def npy_bytes(header, version=(1, 0), data=b"", pad=True, hlen=None,
              encoding=None):
    """Build raw .npy bytes around a header text (str or bytes)."""
    if isinstance(header, str):
        if encoding is None:
            encoding = "utf8" if version == (3, 0) else "latin1"
        hb = header.encode(encoding)
    else:
        hb = header
    pre = 10 if version == (1, 0) else 12
    if pad:
        total = pre + len(hb) + 1
        hb = hb + b" " * ((-total) % 64) + b"\n"
    n = len(hb) if hlen is None else hlen
    fmt = "<H" if version == (1, 0) else "<I"
    return b"\x93NUMPY" + bytes(version) + struct.pack(fmt, n) + hb + data


def H(descr, shape, fortran=False):
    return "{'descr': %s, 'fortran_order': %r, 'shape': %r, }" % (
        descr, fortran, shape)


F8x3 = np.array([1.0, -2.0, 3.5], "<f8").tobytes()


def quirk_fixtures():
    """Headers np.save never writes but NumPy's reader accepts."""
    q = []
    add = lambda name, desc, raw: q.append((name, desc, raw))  # noqa: E731
    add("hdr_no_padding", "no space padding, no newline, not 64-aligned",
        npy_bytes(H("'<f8'", (3,)), pad=False, data=F8x3))
    add("hdr_newline_only", "no space padding, only the final newline",
        npy_bytes(H("'<f8'", (3,)) + "\n", pad=False, data=F8x3))
    add("hdr_key_order", "keys in another order, no trailing comma",
        npy_bytes("{'shape': (3,), 'fortran_order': False, 'descr': '<f8'}",
                  data=F8x3))
    add("hdr_double_quotes", "double-quoted strings",
        npy_bytes('{"descr": "<f8", "fortran_order": False, "shape": (3,)}',
                  data=F8x3))
    add("hdr_whitespace", "newlines/tabs inside the dict",
        npy_bytes("{\n\t'descr' :\t'<f8' ,\n 'fortran_order':False,"
                  "'shape':( 3 , ) }", data=F8x3))
    add("hdr_no_blanks", "no blanks at all, 2-D shape (1,3)",
        npy_bytes(H("'<f8'", (1, 3)).replace(" ", ""), data=F8x3))
    add("hdr_descr_list_struct", "descr as list of tuples written by hand "
        "with a padding entry ('', '|V4')",
        npy_bytes(H("[('', '|V4'), ('a', '<i4')]", (1,)),
                  data=b"\xaa" * 4 + struct.pack("<i", -5)))
    add("hdr_empty_name_subarray_is_padding",
        "('', '<i4', (2,)) is treated as PADDING by NumPy (subarray type is "
        "void)", npy_bytes(H("[('', '<i4', (2,)), ('a', '<i2')]", (1,)),
                           data=bytes(8) + struct.pack("<h", 9)))
    add("hdr_subarray_int_shape", "field shape written as a bare int 3",
        npy_bytes(H("[('a', '<i2', 3)]", (1,)), data=struct.pack("<3h", 1, 2, 3)))
    add("hdr_descr_short_codes", "'f8' without byte order (native '<')",
        npy_bytes(H("'f8'", (3,)), data=F8x3))
    add("hdr_big_endian_bool", "'>b1' is accepted, becomes '|b1'",
        npy_bytes(H("'>b1'", (2,)), data=b"\x00\x01"))
    add("hdr_extra_data", "trailing bytes after the data are ignored",
        npy_bytes(H("'<f8'", (3,)), data=F8x3 + b"trailing"))
    add("hdr_py2_long_suffix", "Python 2 'L' suffixes in the shape and a "
        "subarray shape, as NumPy under Python 2 wrote them",
        npy_bytes("{'descr': [('a', '<i2', (2L,))], 'fortran_order': False, "
                  "'shape': (1L, 3L), }", data=struct.pack("<6h", *range(6))))
    add("hdr_v2_padded_ascii", "version 2.0 written by hand",
        npy_bytes(H("'<i2'", (2,)), version=(2, 0),
                  data=struct.pack("<2h", -1, 1)))
    return q


# ------------------------------------------------------------ bad files --

def bad_fixtures():
    b = []
    add = lambda name, raw: b.append((name, raw))  # noqa: E731
    good = npy_bytes(H("'<f8'", (3,)), data=F8x3)
    good_v2 = npy_bytes(H("'<f8'", (3,)), version=(2, 0), data=F8x3)
    add("empty_file", b"")
    add("magic_wrong_byte", b"\x93NUMPX" + good[6:])
    add("magic_lowercase", b"\x93numpy" + good[6:])
    add("magic_no_x93", b"NUMPY\x01\x00" + good[8:])
    add("trunc_in_magic", good[:4])
    add("trunc_after_magic", good[:6])
    add("trunc_in_version", good[:7])
    add("trunc_in_hlen_v1", good[:9])
    add("trunc_no_hlen_v2", good_v2[:8])
    add("trunc_in_hlen_v2", good_v2[:11])
    add("trunc_header_start", good[:10])
    add("trunc_header_middle", good[:40])
    add("trunc_header_before_newline", good[:127])
    add("trunc_no_data", good[:128])
    add("trunc_data_partial", good[:128 + 20])
    add("trunc_data_one_byte_short", good[:-1])
    add("data_short_struct", npy_bytes(H("[('a', '<i4'), ('b', 'S3')]", (2,)),
                                       data=bytes(13)))
    add("data_short_2d", npy_bytes(H("'<i2'", (3, 4)), data=bytes(22)))
    add("version_4_0", good[:6] + b"\x04\x00" + good[8:])
    add("version_0_0", good[:6] + b"\x00\x00" + good[8:])
    add("version_1_1", good[:6] + b"\x01\x01" + good[8:])
    add("version_2_1", good_v2[:6] + b"\x02\x01" + good_v2[8:])
    add("version_255_0", good[:6] + b"\xff\x00" + good[8:])
    add("hlen_past_eof_v1", npy_bytes(H("'<f8'", (3,)), data=F8x3, hlen=1000))
    add("hlen_past_eof_v2", npy_bytes(H("'<f8'", (3,)), version=(2, 0),
                                      data=F8x3, hlen=0xFFFFFFFF))
    add("hlen_zero", npy_bytes(b"", pad=False, data=F8x3))
    add("header_not_dict", npy_bytes("[('descr', '<f8')]", data=F8x3))
    add("header_tuple", npy_bytes("('<f8', False, (3,))", data=F8x3))
    add("header_not_literal", npy_bytes(H("float64", (3,)), data=F8x3))
    add("header_trailing_garbage", npy_bytes(H("'<f8'", (3,)) + " x",
                                             data=F8x3))
    add("header_only_spaces", npy_bytes("   ", data=F8x3))
    add("key_missing_fortran", npy_bytes("{'descr': '<f8', 'shape': (3,), }",
                                         data=F8x3))
    add("key_extra", npy_bytes("{'descr': '<f8', 'fortran_order': False, "
                               "'shape': (3,), 'extra': 1, }", data=F8x3))
    add("key_bytes", npy_bytes("{b'descr': '<f8', 'fortran_order': False, "
                               "'shape': (3,), }", data=F8x3))
    add("key_misspelled", npy_bytes("{'desc': '<f8', 'fortran_order': False, "
                                    "'shape': (3,), }", data=F8x3))
    add("shape_list", npy_bytes(H("'<f8'", [3]), data=F8x3))
    add("shape_float", npy_bytes(H("'<f8'", (3.0,)), data=F8x3))
    add("shape_int_not_tuple", npy_bytes(H("'<f8'", 3), data=F8x3))
    add("shape_bool_true", npy_bytes(H("'<f8'", (True,)), data=F8x3))
    add("shape_bool_false", npy_bytes(H("'<f8'", (False, 3)), data=F8x3))
    add("shape_nested_tuple", npy_bytes(H("'<f8'", ((3,),)), data=F8x3))
    add("shape_string", npy_bytes(H("'<f8'", ("3",)), data=F8x3))
    add("fortran_order_int", npy_bytes(
        "{'descr': '<f8', 'fortran_order': 0, 'shape': (3,), }", data=F8x3))
    add("fortran_order_string", npy_bytes(
        "{'descr': '<f8', 'fortran_order': 'False', 'shape': (3,), }",
        data=F8x3))
    add("fortran_order_none", npy_bytes(
        "{'descr': '<f8', 'fortran_order': None, 'shape': (3,), }", data=F8x3))
    add("descr_f3", npy_bytes(H("'<f3'", (3,)), data=F8x3))
    add("descr_x8", npy_bytes(H("'<x8'", (3,)), data=F8x3))
    add("descr_i16", npy_bytes(H("'<i16'", (1,)), data=bytes(16)))
    add("descr_empty_string", npy_bytes(H("''", (3,)), data=F8x3))
    add("descr_bytes_literal", npy_bytes(H("b'<f8'", (3,)), data=F8x3))
    add("descr_int", npy_bytes(H("8", (3,)), data=F8x3))
    add("descr_space", npy_bytes(H("' <f8'", (3,)), data=F8x3))
    add("datetime_bad_unit", npy_bytes(H("'<M8[xs]'", (3,)), data=F8x3))
    add("datetime_empty_unit", npy_bytes(H("'<M8[]'", (3,)), data=F8x3))
    add("datetime_no_unit_number", npy_bytes(H("'<M8[2]'", (3,)), data=F8x3))
    add("datetime_M4", npy_bytes(H("'<M4'", (3,)), data=F8x3))
    add("unterminated_string", npy_bytes(
        "{'descr': '<f8, 'fortran_order': False, 'shape': (3,), }", data=F8x3))
    add("unterminated_dict", npy_bytes(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), ", data=F8x3))
    add("unbalanced_list", npy_bytes(H("[('a', '<f8')", (3,)), data=F8x3))
    add("unbalanced_paren", npy_bytes(
        "{'descr': '<f8', 'fortran_order': False, 'shape': (3,, }", data=F8x3))
    add("struct_duplicate_names", npy_bytes(
        H("[('a', '<f8'), ('a', '<i4')]", (1,)), data=bytes(12)))
    add("struct_duplicate_empty_names", npy_bytes(
        H("[('', '<i4'), ('', '<i4')]", (1,)), data=bytes(8)))
    add("struct_title_equals_name", npy_bytes(
        H("[(('a', 'a'), '<f8')]", (1,)), data=bytes(8)))
    add("struct_title_equals_other_name", npy_bytes(
        H("[(('b', 'a'), '<i4'), ('b', '<i2')]", (1,)), data=bytes(6)))
    add("struct_field_one_elem", npy_bytes(H("[('a',)]", (1,)), data=bytes(8)))
    add("struct_field_four_elems", npy_bytes(
        H("[('a', '<i4', (2,), 5)]", (1,)), data=bytes(8)))
    add("struct_name_int", npy_bytes(H("[(1, '<i4')]", (1,)), data=bytes(4)))
    add("struct_negative_subarray_dim", npy_bytes(
        H("[('a', '<i4', (-1,))]", (1,)), data=bytes(4)))
    add("struct_bool_subarray_dim", npy_bytes(
        H("[('a', '<i4', (2, True))]", (1,)), data=bytes(8)))
    add("struct_bool_subarray_shape", npy_bytes(
        H("[('a', '<i4', True)]", (1,)), data=bytes(4)))
    add("descr_bool_subarray_shape", npy_bytes(H("('<i4', (False,))", (1,)), data=bytes(4)))
    add("descr_bool_itemsize", npy_bytes(H("[('a', 'S', True)]", (1,)), data=bytes(4)))
    add("struct_float_subarray_dim", npy_bytes(
        H("[('a', '<i4', 2.0)]", (1,)), data=bytes(8)))
    add("struct_list_of_strings", npy_bytes(H("['<f8']", (1,)),
                                            data=bytes(8)))
    add("nul_in_header", npy_bytes(
        "{'descr': '<f8', 'fortran_order': False,\x00 'shape': (3,), }",
        data=F8x3))
    add("invalid_utf8_v3", npy_bytes(
        H("[('\xff', '<f8')]", (3,)).encode("latin1"), version=(3, 0),
        data=F8x3))
    add("truncated_utf8_v3", npy_bytes(
        H("[('X', '<f8')]", (3,)).encode("utf8").replace(b"X", b"\xe6\xbc"),
        version=(3, 0), data=F8x3))
    return b


def numpy_rejects(path):
    """Return None if NumPy reads the file fine, else 'Type: message'."""
    try:
        with open(path, "rb") as fp:
            version = npformat.read_magic(fp)
            npformat._check_version(version)
            npformat._read_array_header(fp, version,
                                        max_header_size=ref.BIG_HEADER)
        ref.load_array(path)
    except Exception as e:       # noqa: BLE001 -- any NumPy error counts
        msg = " ".join(str(e).split())
        msg = re.sub(r" at 0x[0-9a-f]+", "", msg)     # repr addresses
        if len(msg) > 110:
            msg = msg[:107] + "..."
        return "%s: %s" % (type(e).__name__, msg)
    return None


# ----------------------------------------------------------------- main --

def clean_dir(d):
    if os.path.isdir(d):
        for name in os.listdir(d):
            p = os.path.join(d, name)
            if os.path.isdir(p):
                if name in ("bad", "quirks"):
                    shutil.rmtree(p)
            elif name.endswith((".npy", ".json", ".jsonl", ".txt")):
                os.remove(p)
    os.makedirs(d, exist_ok=True)


def main(argv):
    outdir = argv[1] if len(argv) > 1 else os.path.join(HERE, "fixtures")
    clean_dir(outdir)
    manifest = []
    for name, desc, writer in good_fixtures():
        path = write_good(outdir, name, writer)
        insp, dumped = write_expected(path)
        if numpy_rejects(path) and dumped:
            raise SystemExit("NumPy cannot read its own fixture " + path)
        manifest.append("%s.npy\t%s" % (name, desc))
    with open(os.path.join(outdir, "MANIFEST.txt"), "w") as f:
        f.write("\n".join(manifest) + "\n")

    qdir = os.path.join(outdir, "quirks")
    os.makedirs(qdir, exist_ok=True)
    qman = []
    for name, desc, raw in quirk_fixtures():
        path = os.path.join(qdir, name + ".npy")
        with open(path, "wb") as f:
            f.write(raw)
        why = numpy_rejects(path)
        if why:
            raise SystemExit("quirk fixture %s rejected by NumPy: %s"
                             % (name, why))
        write_expected(path)
        qman.append("%s.npy\t%s" % (name, desc))
    with open(os.path.join(qdir, "MANIFEST.txt"), "w") as f:
        f.write("\n".join(qman) + "\n")

    bdir = os.path.join(outdir, "bad")
    os.makedirs(bdir, exist_ok=True)
    bman = []
    for name, raw in bad_fixtures():
        path = os.path.join(bdir, name + ".npy")
        with open(path, "wb") as f:
            f.write(raw)
        why = numpy_rejects(path)
        if why is None:
            raise SystemExit("bad fixture %s is ACCEPTED by NumPy" % name)
        bman.append("%s.npy\t%s" % (name, why))
    with open(os.path.join(bdir, "MANIFEST.txt"), "w") as f:
        f.write("\n".join(bman) + "\n")

    print("%d fixtures, %d quirks, %d bad files in %s"
          % (len(manifest), len(qman), len(bman), outdir))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

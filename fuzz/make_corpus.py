#!/usr/bin/env python3
"""Write the seed corpora and dictionaries of the fuzz harnesses.

    python3 fuzz/make_corpus.py [FIXTURES] [OUTDIR]   (tests/fixtures, fuzz/corpus)

The dictionaries go to fuzz/NAME.dict, next to this script.

Only the standard library: the descriptor texts are cut out of the fixture
headers with Python's own parser (ast), so they are exactly what NumPy wrote.

  header/  every fixture .npy (good, quirks, bad) of at most MAX_FILE bytes
  descr/   the 'descr' value of each fixture header, as UTF-8 text, and a
           list of type strings worth starting from
  alloc/   a selection of both, behind the harness's 3-byte prefix
           (entry point and mode, then which allocation fails)

Deterministic; replaces the files it writes, leaves others alone.
"""
import ast
import hashlib
import os
import struct
import sys

MAX_FILE = 4096

TYPESTRS = [
    "<f8", ">i4", "|b1", "?", "b", "B", "h", "H", "i", "I", "l", "L", "q", "Q", "p", "P",
    "e", "f", "d", "g", "F", "D", "G", "S", "a", "c", "U", "V", "O", "M", "m",
    "S0", "S5", "a7", "U3", ">U3", "V8", "O8", "O4", "c8", "c16", "<c32", "f2", "f16",
    "M8", "m8", "M8[ns]", ">M8[25s]", "<m8[1000ms]", "M8[7D]", "M8[generic]",
    "datetime64[us]", "timedelta64[Y]", "M8[10s/4]", "M8[1D/24]", "m8[\u03bcs]",
    "M8[Y/12]", "M8[W/7]", "M8[h/60]",
    "float64", "float16", "float128", "complex256", "int8", "uint64", "bool", "bool_",
    "object", "str", "unicode", "bytes", "void", "void0", "longdouble", "clongdouble",
    "intp", "uintp", "half", "single", "double",
    "i4, f8", "i4,(2,3)f8,S5", "(2,3)f4", "3i4", "(2,)>f8, <i2", "()f8", "(3)u1",
    " i4 ,  f8 ", "i4, (2, 3)f8", ">(2)i4", "(2,3)>u2,|S4", "<f8, >f8, =i8, |b1",
    "M8[ns],m8[s]", "i1," * 20 + "i1", "f8,", "1", "3", "(2,3)", "i4,,f8",
]

DESCRS = [
    "'<f8'", '"<f8"', "('<i4', (2, 3))", "('<i4', 3)", "('S', 5)", "('U', 3)", "('V', 4)",
    "[('x', '<f8'), ('y', '<f8')]", "[('a', '<i4', (2,))]", "[(('title', 'name'), '<f8')]",
    "[('', '|V4'), ('x', '<i2')]", "[('a', [('b', [('c', '<f8')])])]",
    "[['x', '<f8'], ['y', '<i4', 3]]", "[('x', ('<f8', (2,)), (3,))]", "[]",
    "[('s', '|S0'), ('u', '<U0')]", "[('\\u00e9t\\xe9', '<f8')]", "[('\\U0001f600', 'u1')]",
    "('<f8', ())", "[('x', 'i4, f8')]", "(('<f8', 2), 3)", "[('a', '<M8[ns]')]",
    "r'<f8'", "b'<f8'", "u'<f8'", "'''<f8'''", "'<' 'f8'", "# c\n'<f8'",
]

# ---- dictionaries ---------------------------------------------------------------

LITERAL_TOKENS = [
    "'", '"', "'''", '"""', "[", "]", "(", ")", "{", "}", ",", ":", ", ", "()", "[]", "{}",
    "(,)", "#", "\n", "\\\n", " ", "\t", "\r\n", "\f", "u'", "r'", "b'", "rb'", "br'", 'U"',
    'R"', "True", "False", "None", "L", "-", "+", "0x", "0o", "0b", "_", "1_000", "0", "1",
    "-1", "2", "1.5", "1e3", "1j", ".5", "00", "9223372036854775807", "9223372036854775808",
    "18446744073709551616", "2147483647", "2147483648",
    "\\x41", "\\xe9", "\\u00e9", "\\U0001f600", "\\ud800", "\\N{DASH}", "\\0", "\\377", "\\n",
    "\\t", "\\\\", "\\'", '\\"', "\\a", "\\v", "\\q", "\\x", "\\u12",
    "\u00e9", "\U0001f600", "\xa0", "\u2028",
    "'descr'", "'fortran_order'", "'shape'", "'descr': ", "'fortran_order': False",
    "'shape': ()", "'shape': (3,)", "('', '|V4')", "('x', '<f8')", "(('t', 'n'), '<f8')",
    "('a', '<i4', (2,))",
]
TYPE_TOKENS = [
    "<f8", ">f8", "|b1", "<i4", ">i2", "|u1", "<c16", "<f16", "|S5", "|S0", "<U3", ">U1",
    "<U0", "|V8", "|V0", "|O", "O8", "<M8", "<m8", "M8[ns]", "m8[25s]", "M8[10s/4]",
    "M8[generic]", "datetime64", "timedelta64", "float64", "int", "bool", "object", "str",
    "bytes", "void", "longdouble", "complex256", "intp", "?", "b", "B", "h", "H", "i", "I",
    "l", "L", "q", "Q", "e", "f", "d", "g", "F", "D", "G", "S", "a", "c", "U", "V", "O", "M",
    "m", "p", "P", "<", ">", "|", "=", "8", "16", "(2,3)", "3", ",",
]
UNIT_TOKENS = [
    "[Y]", "[M]", "[W]", "[D]", "[h]", "[m]", "[s]", "[ms]", "[us]", "[ns]", "[ps]", "[fs]",
    "[as]", "[generic]", "[\u03bcs]", "[25s]", "[7D]", "[1000ms]", "/4]", "/24]", "/60]", "[",
]
# raw bytes, not text
PREAMBLE_TOKENS = [
    b"\x93NUMPY", b"\x93NUMPY\x01\x00", b"\x93NUMPY\x02\x00", b"\x93NUMPY\x03\x00",
    b"\x76\x00", b"\x00\x01\x00\x00",
    b"{'descr': '<f8', 'fortran_order': False, 'shape': (), }",
]


def dict_entry(raw):
    out = ""
    for b in raw:
        out += "\\x%02x" % b if b in (0x22, 0x5C) or b < 0x20 or b > 0x7E else chr(b)
    return '"' + out + '"'


def write_dict(path, tokens):
    seen = set()
    with open(path, "w") as f:
        f.write("# libFuzzer dictionary, written by fuzz/make_corpus.py\n")
        for t in tokens:
            raw = t if isinstance(t, bytes) else t.encode("utf-8")
            if raw not in seen:
                seen.add(raw)
                f.write(dict_entry(raw) + "\n")


def write_dicts(where):
    quoted = ["'" + t + "'" for t in TYPE_TOKENS]
    write_dict(os.path.join(where, "header.dict"),
               PREAMBLE_TOKENS + LITERAL_TOKENS + quoted + UNIT_TOKENS)
    write_dict(os.path.join(where, "descr.dict"),
               LITERAL_TOKENS + TYPE_TOKENS + quoted[:30] + UNIT_TOKENS)
    write_dict(os.path.join(where, "alloc.dict"),
               PREAMBLE_TOKENS + LITERAL_TOKENS[:60] + quoted[:30] + TYPE_TOKENS[:40])


def header_text(data):
    """The header text and version of a .npy byte string, or None."""
    if len(data) < 10 or data[:6] != b"\x93NUMPY":
        return None
    major = data[6]
    if major == 1:
        (hlen,) = struct.unpack("<H", data[8:10])
        start = 10
    elif major in (2, 3):
        if len(data) < 12:
            return None
        (hlen,) = struct.unpack("<I", data[8:12])
        start = 12
    else:
        return None
    raw = data[start:start + hlen]
    if len(raw) != hlen:
        return None
    try:
        return raw.decode("utf-8" if major == 3 else "latin-1"), major
    except UnicodeDecodeError:
        return None


def descr_source(text):
    """The source text of the 'descr' value in a header dict, or None."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return None
    if not isinstance(tree.body, ast.Dict):
        return None
    for k, v in zip(tree.body.keys, tree.body.values):
        if isinstance(k, ast.Constant) and k.value == "descr":
            return ast.get_source_segment(text.strip(), v)
    return None


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main():
    fix = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures"
    out = sys.argv[2] if len(sys.argv) > 2 else "fuzz/corpus"
    for d in ("header", "descr", "alloc"):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    npys = []
    for sub in ("", "quirks", "bad"):
        d = os.path.join(fix, sub)
        for name in sorted(os.listdir(d)):
            if name.endswith(".npy"):
                npys.append((sub, name, os.path.join(d, name)))
    descrs = {}
    alloc_n = 0
    for sub, name, path in npys:
        with open(path, "rb") as f:
            data = f.read()
        tag = (sub + "_" if sub else "") + name[:-4]
        if len(data) <= MAX_FILE:
            write(os.path.join(out, "header", tag + ".npy"), data)
        ht = header_text(data)
        src = descr_source(ht[0]) if ht else None
        if src is not None and src not in descrs:
            descrs[src] = tag
        # a few whole files through each header entry point and mode
        if len(data) <= MAX_FILE and (sub != "bad" or alloc_n % 4 == 0):
            mode = alloc_n % 4
            prefix = bytes([(mode & 1) | (0x80 if mode & 2 else 0), alloc_n % 7, 0])
            write(os.path.join(out, "alloc", "file_" + tag), prefix + data)
        alloc_n += 1
    for i, d in enumerate(DESCRS):
        descrs.setdefault(d, "extra%02d" % i)
    for src, tag in sorted(descrs.items(), key=lambda kv: kv[1]):
        text = src.encode("utf-8")
        write(os.path.join(out, "descr", "descr_" + tag), text)
        h = hashlib.sha1(text).hexdigest()[:8]
        write(os.path.join(out, "alloc", "descr_" + h), bytes([2 | (len(text) & 0x80), 1, 0]) + text)
    # the other layers' entry points of fuzz_alloc (see its table): 4 swap
    # plan, 5 newbyteorder, 6 schema compile on descriptors; 7 file from
    # buffer on whole files; 8 npz open on the archive fixtures
    for i, (src, tag) in enumerate(sorted(descrs.items(), key=lambda kv: kv[1])):
        if i % 6 == 0:
            entry = 4 + (i // 6) % 3
            write(os.path.join(out, "alloc", "e%d_%s" % (entry, tag)),
                  bytes([entry | (0x80 if i % 12 == 0 else 0), i % 5, 0]) + src.encode("utf-8"))
    for i, (sub, name, path) in enumerate(npys):
        if i % 8 == 0 and os.path.getsize(path) <= MAX_FILE:
            with open(path, "rb") as f:
                write(os.path.join(out, "alloc", "e7_" + name[:-4]), bytes([7, i % 3, 0]) + f.read())
    npz_dir = os.path.join(os.path.dirname(fix.rstrip("/")), "fixtures_npz")
    if os.path.isdir(npz_dir):
        for sub in ("", "bad"):
            d = os.path.join(npz_dir, sub)
            for i, name in enumerate(sorted(os.listdir(d))):
                p = os.path.join(d, name)
                if name.endswith(".npz") and os.path.getsize(p) <= MAX_FILE and i % 2 == 0:
                    with open(p, "rb") as f:
                        write(os.path.join(out, "alloc", "e8_" + sub + name[:-4]),
                              bytes([8 | (0x80 if i % 4 == 0 else 0), i % 4, 0]) + f.read())
    # fuzz_schema's header mode (SPEC NUL FILE): a spec of the file's own
    # descr, of its descr and any one-dimensional shape, or of the order alone
    os.makedirs(os.path.join(out, "schema"), exist_ok=True)
    for i, (sub, name, path) in enumerate(npys):
        if sub or i % 4 or os.path.getsize(path) > MAX_FILE:
            continue
        with open(path, "rb") as f:
            data = f.read()
        ht = header_text(data)
        src = descr_source(ht[0]) if ht else None
        if src is None:
            continue
        spec = (src, "{'descr': %s, 'shape': (-1,)}" % src, "{'fortran_order': True}")[(i // 4) % 3]
        write(os.path.join(out, "schema", "file_" + name[:-4]), spec.encode("utf-8") + b"\0" + data)
    for i, t in enumerate(TYPESTRS):
        text = t.encode("utf-8")
        write(os.path.join(out, "descr", "typestr_%03d" % i), text)
        if i % 3 == 0:
            write(os.path.join(out, "alloc", "typestr_%03d" % i), bytes([3, i % 5, 0]) + text)
    write_dicts(os.path.dirname(os.path.abspath(__file__)))


if __name__ == "__main__":
    main()

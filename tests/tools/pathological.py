#!/usr/bin/env python3
"""Write pathological .npy headers of a given size, for the resource tests.

    pathological.py FAMILY SIZE OUT.npy     one file, header text about SIZE bytes
    pathological.py --list                  the family names

Every file is a version 2.0 header with shape (0,), so no data is needed;
most are valid, some end in a clean error after the whole text is read.
Standard library only.
"""
import struct
import sys

# Pairs of 4-byte blocks whose FNV-1a hashes collide in the low 32 bits,
# each from the state the previous pair leaves: any choice of one block per
# pair gives the same low 32 bits (a hash table of names probed by those
# bits would degrade to a list).
FNV_PAIRS = [(b"ulWq", b"Abaa"), (b"al3q", b"Ujaa"), (b"ulSq", b"Afaa"), (b"uq3q", b"Acaa"),
             (b"vp3q", b"Bbaa"), (b"apZq", b"Ubda"), (b"al3q", b"Ujaa"), (b"ulSq", b"Afaa"),
             (b"uq3q", b"Acaa"), (b"vp3q", b"Bbaa"), (b"apZq", b"Ubda"), (b"al3q", b"Ujaa"),
             (b"ulSq", b"Afaa"), (b"uq3q", b"Acaa"), (b"vp3q", b"Bbaa"), (b"apZq", b"Ubda")]


def fields(size, one):
    out, i, n = [], 0, 0
    while n < size:
        f = one(i)
        out.append(f)
        n += len(f) + 2
        i += 1
    return "[" + ", ".join(out) + "]"


def colliding_names(size):
    out, n, i = [], 0, 0
    while n < size:
        name = b"".join(FNV_PAIRS[k][(i >> k) & 1] for k in range(16)).decode()
        f = "('%s', 'u1')" % name
        out.append(f)
        n += len(f) + 2
        i += 1
    return "[" + ", ".join(out) + "]"


def deep_nesting(size):
    def one(i):
        return "('f%d', " % i + "[('a', " * 30 + "'<f8'" + ")]" * 30 + ")"
    return fields(size, one)


FAMILIES = {
    "many_fields": lambda n: fields(n, lambda i: "('f%d', '<f8')" % i),
    "titles": lambda n: fields(n, lambda i: "(('t%d', 'f%d'), '<i4', (2, 3))" % (i, i)),
    "escapes": lambda n: "[('%s', '<f8')]" % ("\\x41\\n\\u00e9\\U0001f600\\\\\\101" * (n // 30)),
    "adjacent_strings": lambda n: "[('a'" + " 'b' \"c\"" * (n // 8) + ", '<f8')]",
    "deep_nesting": deep_nesting,
    "comments": lambda n: fields(n, lambda i: "# comment %d\n('f%d', # more\n '<f8')\\\n" % (i, i)),
    "comma_typestr": lambda n: "'" + "?," * (n // 2) + "?'",
    "colliding_names": colliding_names,
    "long_paths": lambda n: "".join("[('%s%d', " % ("x" * (n // 80), d) for d in range(20))
    + fields(n // 2, lambda i: "('f%d', 'i1')" % i) + ")]" * 20,
}

# families whose text is not all in the descr
SPECIAL = {
    "long_int": lambda n: ("{'descr': '<f8', 'fortran_order': False, 'shape': (0x"
                           + "0_" * (n // 2) + "0,), }"),
    "junk_values": lambda n: ("{'descr': '<f8', 'fortran_order': False, 'shape': (0,), 'x': ["
                              + "1.5e3, 2j, None, True, (), [1, -2], {'a': b'b'}, " * (n // 48)
                              + "]}"),
}


def header(family, size):
    if family in SPECIAL:
        return SPECIAL[family](size)
    return "{'descr': %s, 'fortran_order': False, 'shape': (0,), }" % FAMILIES[family](size)


def main():
    if sys.argv[1:] == ["--list"]:
        print(" ".join(sorted(list(FAMILIES) + list(SPECIAL))))
        return
    family, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    text = (header(family, size) + "\n").encode("utf-8")
    with open(out, "wb") as f:
        f.write(b"\x93NUMPY\x02\x00" + struct.pack("<I", len(text)) + text)


if __name__ == "__main__":
    main()

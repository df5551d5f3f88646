#!/usr/bin/env python3
"""Write a .npy file whose fields sit deep below long names, for the
memory bounds of the commands.

    deep_names.py ITEMS OUT.npy [LEVELS [NAME_LEN [COUNT]]]

The dtype is LEVELS nested structs (33 by default), each of one field
named by NAME_LEN characters (12 by default), around a comma type string
of ITEMS one-byte fields 'b,b,...': every two bytes of header text make a
field whose path is LEVELS * (NAME_LEN + 1) bytes long. The file is a
version 2.0 header and COUNT elements of zero bytes (1 by default), so
the commands that read data have one record to print. Standard library
only.
"""
import struct
import sys


def header(items, levels, name_len):
    opens = "".join("[('%s', " % str(d).zfill(name_len) for d in range(levels))
    typestr = "'" + ",".join(["b"] * items) + "'"
    return ("{'descr': %s%s%s, 'fortran_order': False, 'shape': (%%d,), }"
            % (opens, typestr, ")]" * levels))


def main():
    args = sys.argv[1:]
    if len(args) < 2 or len(args) > 5:
        sys.exit(__doc__)
    items, out = int(args[0]), args[1]
    levels = int(args[2]) if len(args) > 2 else 33
    name_len = int(args[3]) if len(args) > 3 else 12
    count = int(args[4]) if len(args) > 4 else 1
    text = (header(items, levels, name_len) % count + "\n").encode("ascii")
    pad = -(12 + len(text)) % 64
    text = text[:-1] + b" " * pad + b"\n"
    with open(out, "wb") as f:
        f.write(b"\x93NUMPY\x02\x00" + struct.pack("<I", len(text)) + text)
        f.write(bytes(items * count))


if __name__ == "__main__":
    main()

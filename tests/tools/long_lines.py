#!/usr/bin/env python3
"""Write one long input line for `npydt load` and the file whose dtype it
is read with, for the linear-time check (tests/check_linear.sh).

    long_lines.py FAMILY SIZE DIR    DIR/ref.npy and DIR/in.jsonl or DIR/in.csv
    long_lines.py --list             the family names

The line is about SIZE bytes. Families whose line passes a cap (nesting,
tokens) end in that error; the others load. Standard library only.
"""
import struct
import sys


def npy(path, descr):
    """An empty .npy file (version 2.0, shape (0,)) of the dtype descr."""
    head = "{'descr': %s, 'fortran_order': False, 'shape': (0,), }" % descr
    head += " " * (-(len(head) + 13) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x02\x00" + struct.pack("<I", len(head)) + head.encode())


def fields_for(size):
    return max(1, size // 12)


def many_fields(n):
    return "[" + ", ".join("('f%d', '<i4')" % i for i in range(n)) + "]"


def keys(order):
    return "{" + ",".join('"f%d":%d' % (i, i) for i in order) + "}"


def deep(size, d):
    npy(d + "/ref.npy", "'<i8'")
    return "in.jsonl", "[" * (size // 2) + "]" * (size // 2)


def deep_list(size, d):
    # within the caps: a list of many lists of 1,000 levels each, for a
    # dtype of as many tokens (the walk then refuses the first)
    one = "[" * 1000 + "1" + "]" * 1000
    k = max(1, size // len(one))
    npy(d + "/ref.npy", "[('a', '<i8', (%d,))]" % (1001 * k))
    return "in.jsonl", "{\"a\":[" + ",".join([one] * k) + "]}"


def keys_capped(size, d):
    # more keys than the dtype's cap on tokens: refused where it is passed
    npy(d + "/ref.npy", "'<i8'")
    return "in.jsonl", keys(range(fields_for(size)))


def keys_in_order(size, d):
    # the plan's reader: keys in field order
    n = fields_for(size)
    npy(d + "/ref.npy", many_fields(n))
    return "in.jsonl", keys(range(n))


def keys_reversed(size, d):
    # the general walk: keys in another order
    n = fields_for(size)
    npy(d + "/ref.npy", many_fields(n))
    return "in.jsonl", keys(reversed(range(n)))


def csv_columns(size, d):
    n = fields_for(size) // 2
    npy(d + "/ref.npy", many_fields(n))
    order = list(reversed(range(n)))
    return "in.csv", (",".join("f%d" % i for i in order) + "\n" +
                      ",".join(str(i) for i in order))


FAMILIES = {f.__name__: f for f in (deep, deep_list, keys_capped, keys_in_order,
                                     keys_reversed, csv_columns)}

if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print("\n".join(FAMILIES))
        sys.exit(0)
    fam, size, d = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    name, text = FAMILIES[fam](size, d)
    with open(d + "/" + name, "w") as f:
        f.write(text + "\n")
    print(name)

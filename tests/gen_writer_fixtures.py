#!/usr/bin/python3
"""Generate the record writer's fixtures (NumPy is the reference).

    /usr/bin/python3 tests/gen_writer_fixtures.py [OUTDIR]   (default tests/fixtures_writer)

Every array holds records whose values follow their index i, so that
tests/test_writer.c can make the same records: '<i4' arrays hold i, the
struct ST = [('x', '<i4'), ('y', '>f8')] holds (i, i / 2). Writes:

  OUTDIR/NAME.npy        the first 5 records (or rows), as NumPy writes them
  OUTDIR/NAME.grown.npy  all 12 of them, written the same way: what the file
                         must be once the writer has appended records 5 to 11
  for NAME in
    v1         '<i4', format 1.0 (np.save's choice)
    v2         ST, format 2.0 (write_array's version=(2, 0))
    v3         ST, format 3.0 (version=(3, 0): latin-1 names in UTF-8)
    v3_names   [('x\u2713', '<i4'), ('y', '>f8')]: np.save chooses 3.0
    fortran    '<i4' of shape (3, 2), then (3, 4), Fortran order: grows along
               its last axis, storage position p holding p
    noroom     [('nnn...', '<i4')] with the header NumPy wrote before 1.23 (no
               spaces for the shape to grow) one 64-byte step shorter than
               np.save's; its .grown.npy is np.save's, header and all
  OUTDIR/members.npz     np.savez(a=<i4 records 0..11, s=ST records 0..11,
                         z=0-d '<f8' 2.5)
  OUTDIR/members_compressed.npz   np.savez_compressed of the same

Only stdlib + numpy. Uses /usr/bin/python3 (Debian python3-numpy).
"""

import io
import os
import sys
import warnings

import numpy as np
import numpy.lib.format as npformat

warnings.simplefilter("ignore")
ST = np.dtype([("x", "<i4"), ("y", ">f8")])
FIRST, ALL = 5, 12


def records(dtype, n):
    a = np.zeros(n, dtype=dtype)
    if dtype.names:
        a[dtype.names[0]] = np.arange(n)
        if "y" in dtype.names:
            a["y"] = np.arange(n) / 2
    else:
        a[...] = np.arange(n)
    return a


def write(path, arr, version=None):
    with open(path, "wb") as f:
        npformat.write_array(f, arr, version=version, allow_pickle=False)


def write_without_room(path, arr):
    """The header NumPy before 1.23 wrote: no spaces kept for the shape."""
    d = npformat.header_data_from_array_1_0(arr)
    text = "{" + "".join("'%s': %s, " % (k, repr(v)) for k, v in sorted(d.items())) + "}"
    with open(path, "wb") as f:
        f.write(npformat._wrap_header(text, (1, 0)))
        f.write(arr.tobytes(order="A"))


def noroom_dtype():
    """[('n...', '<i4')] with the shortest name whose header without room
    is shorter than np.save's (elsewhere the padding to 64 bytes hides the
    difference, and the writer grows such a header in place)."""
    for k in range(1, 64):
        dt = np.dtype([("n" * k, "<i4")])
        with_room, without = io.BytesIO(), io.BytesIO()
        npformat.write_array(with_room, records(dt, FIRST))
        d = npformat.header_data_from_array_1_0(records(dt, FIRST))
        without.write(npformat._wrap_header(
            "{" + "".join("'%s': %s, " % (k, repr(v)) for k, v in sorted(d.items())) + "}",
            (1, 0)))
        if len(without.getvalue()) < len(with_room.getvalue()) - 4 * FIRST:
            return dt
    raise SystemExit("no name length gives a header without room")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__),
                                                              "fixtures_writer")
    os.makedirs(out, exist_ok=True)
    names_dt = np.dtype([("x\u2713", "<i4"), ("y", ">f8")])
    for name, dtype, version in [("v1", np.dtype("<i4"), None), ("v2", ST, (2, 0)),
                                 ("v3", ST, (3, 0)), ("v3_names", names_dt, None)]:
        write(os.path.join(out, name + ".npy"), records(dtype, FIRST), version)
        write(os.path.join(out, name + ".grown.npy"), records(dtype, ALL), version)
    for n, suffix in [(2, ".npy"), (4, ".grown.npy")]:
        arr = np.arange(3 * n, dtype="<i4").reshape((3, n), order="F")
        write(os.path.join(out, "fortran" + suffix), arr)
    noroom = noroom_dtype()
    write_without_room(os.path.join(out, "noroom.npy"), records(noroom, FIRST))
    write(os.path.join(out, "noroom.grown.npy"), records(noroom, ALL))
    arrays = dict(a=records(np.dtype("<i4"), ALL), s=records(ST, ALL), z=np.array(2.5))
    np.savez(os.path.join(out, "members.npz"), **arrays)
    np.savez_compressed(os.path.join(out, "members_compressed.npz"), **arrays)


if __name__ == "__main__":
    main()

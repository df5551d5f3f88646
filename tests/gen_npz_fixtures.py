#!/usr/bin/python3
"""Generate the .npz fixtures (NumPy and Python's zipfile are the reference).

    /usr/bin/python3 tests/gen_npz_fixtures.py [OUTDIR]   (default tests/fixtures_npz)

Writes, deterministically (np.savez stamps every member 1980-01-01):

  OUTDIR/alone/KEY.npy        each array saved alone with np.save
  OUTDIR/savez.npz            np.savez of all of them (stored, Zip64 extras in
                              the local headers, as NumPy >= 1.17 writes)
  OUTDIR/savez_compressed.npz np.savez_compressed of the same arrays
  OUTDIR/savez_stream.npz     np.savez_compressed to an unseekable file: data
                              descriptors (flag bit 3) after each member
  OUTDIR/savez_zip64.npz      savez.npz rewritten with Zip64 everywhere it may
                              be: sentinel sizes and offsets in the central
                              directory, Zip64 end record and locator
  OUTDIR/comment.npz          savez.npz with an archive comment
  OUTDIR/names.npz            non-ASCII names: one flagged UTF-8 (as Python
                              writes 'café'), one CP437 ('\x82' is 'é')
  OUTDIR/empty.npz            np.savez with no arrays
  OUTDIR/mixed.npz            np.savez of two arrays, then a text file and a
                              pickle added with zipfile: members that are not
                              arrays, next to ones that are
  OUTDIR/zeros_100m.npz       np.savez_compressed of 100 MiB of zeros (about
                              100 KiB): honest, but over a lowered cap
  OUTDIR/bad/NAME.npz         hand-damaged archives every reader must refuse
  OUTDIR/MANIFEST.txt         FILE<TAB>description, one per line

Only stdlib + numpy.  Uses /usr/bin/python3 (Debian python3-numpy).
"""

import io
import os
import pickle
import shutil
import struct
import sys
import warnings
import zipfile
import zlib

import numpy as np

sys.dont_write_bytecode = True
warnings.simplefilter("ignore")   # the format 3.0 notice of np.save

LOCAL_SIG, CENTRAL_SIG, EOCD_SIG = 0x04034B50, 0x02014B50, 0x06054B50
EOCD64_SIG, LOCATOR64_SIG = 0x06064B50, 0x07064B50


# ------------------------------------------------------------ the arrays --

def arrays():
    rec = np.dtype([("id", "<u4"), ("pos", [("x", "<f8"), ("y", "<f8")]),
                    ("name", "S5"), ("samples", "<i2", (3,)),
                    (("Title", "t"), ">f4")])
    r = np.zeros(3, dtype=rec)
    r["id"] = [1, 2, 3]
    r["pos"]["x"] = [0.5, 1.5, 2.5]
    r["name"] = [b"ab", b"cde", b""]
    r["samples"] = [[1, 2, 3], [4, 5, 6], [-1, -2, -3]]
    r["t"] = [1.0, 2.0, 3.0]
    aligned = np.zeros(2, dtype=np.dtype([("a", "u1"), ("b", "<f8")], align=True))
    aligned["a"] = [7, 8]
    return {
        "ints": np.arange(5, dtype="<i8"),
        "fortran": np.asfortranarray(np.arange(6.0).reshape(2, 3)),
        "big_endian": np.arange(4, dtype=">i4"),
        "records": r,
        "aligned": aligned,
        "empty": np.zeros((0, 3), dtype="<f4"),
        "empty_records": np.zeros(0, dtype=rec),
        "scalar": np.array(3.25),
        "text": np.array(["ab", "c\u00e9"], dtype="<U2"),
        "dates": np.array(["2020-01-01", "NaT"], dtype="<M8[D]"),
        # a field name outside latin-1: np.save writes format version 3.0
        "v3": np.zeros(2, dtype=[("\u03c0", "<f8"), ("x", "<i2")]),
    }


def npy_bytes(a):
    buf = io.BytesIO()
    np.save(buf, a, allow_pickle=False)
    return buf.getvalue()


# ------------------------------------------------- a small zip writer --
# Only for the hand-made archives below: every field is spelled out so that
# each damaged archive differs from a valid one in exactly the field named.

class Member:
    def __init__(self, name, payload, method=0, usize=None, crc=None, flags=0,
                 local_name=None, local_sizes=None, lho=None, extra=b"",
                 central_extra=None, method_field=None):
        self.name = name if isinstance(name, bytes) else name.encode()
        self.method = method                    # 0 stored, 8 deflate
        self.raw = payload                      # uncompressed bytes
        if method == 8:
            c = zlib.compressobj(6, zlib.DEFLATED, -15)
            self.data = c.compress(payload) + c.flush()
        else:
            self.data = payload
        self.usize = len(payload) if usize is None else usize
        self.csize = len(self.data)
        self.crc = zlib.crc32(payload) if crc is None else crc
        self.flags = flags
        self.local_name = self.name if local_name is None else local_name
        self.local_sizes = local_sizes          # (crc, csize, usize) override
        self.lho = lho                          # central offset override
        self.extra = extra                      # local extra field
        self.central_extra = central_extra      # central extra field
        self.method_field = method if method_field is None else method_field


def local_header(m):
    crc, csize, usize = m.local_sizes or (m.crc, m.csize, m.usize)
    return struct.pack("<IHHHHHIIIHH", LOCAL_SIG, 20, m.flags, m.method_field, 0,
                       0x21, crc, csize, usize, len(m.local_name),
                       len(m.extra)) + m.local_name + m.extra


def central_entry(m, lho, zip64=False):
    usize, csize, off, extra = m.usize, m.csize, lho, m.central_extra or b""
    if zip64:
        extra = struct.pack("<HHQQQ", 1, 24, usize, csize, off) + extra
        usize = csize = off = 0xFFFFFFFF
    return struct.pack("<IHHHHHHIIIHHHHHII", CENTRAL_SIG, 45 if zip64 else 20,
                       45 if zip64 else 20, m.flags, m.method_field, 0, 0x21,
                       m.crc, csize, usize, len(m.name), len(extra), 0, 0, 0,
                       0, off) + m.name + extra


def build(members, zip64=False, count=None, cd_size_delta=0, comment=b"",
          prefix=b"", tail_data=None):
    """members in order; returns the archive bytes. tail_data(member, local
    offset) may return bytes to write after a member's data."""
    out = bytearray(prefix)
    offsets = []
    for m in members:
        offsets.append(len(out))
        out += local_header(m) + m.data
        if tail_data:
            out += tail_data(m, offsets[-1])
    cd_off = len(out)
    for m, off in zip(members, offsets):
        out += central_entry(m, m.lho if m.lho is not None else off, zip64)
    cd_size = len(out) - cd_off + cd_size_delta
    n = len(members) if count is None else count
    if zip64:
        rec = len(out)
        out += struct.pack("<IQHHIIQQQQ", EOCD64_SIG, 44, 45, 45, 0, 0, n, n,
                           cd_size, cd_off)
        out += struct.pack("<IIQI", LOCATOR64_SIG, 0, rec, 1)
        out += struct.pack("<IHHHHIIH", EOCD_SIG, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF,
                           0xFFFFFFFF, 0xFFFFFFFF, len(comment)) + comment
    else:
        out += struct.pack("<IHHHHIIH", EOCD_SIG, 0, 0, n, n, cd_size, cd_off,
                           len(comment)) + comment
    return bytes(out)


def rewrite_zip64(data):
    """Re-emit every member of a NumPy archive with our writer, Zip64 style."""
    members = []
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for info in z.infolist():
            members.append(Member(info.filename, z.read(info.filename), method=info.compress_type))
    return build(members, zip64=True)


class Unseekable(io.RawIOBase):
    """A write-only file without seek or tell, like a pipe."""

    def __init__(self):
        self.buf = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.buf += b
        return len(b)

    def seekable(self):
        return False

    def tell(self):
        raise OSError("unseekable")

    def seek(self, *args):
        raise OSError("unseekable")


# ---------------------------------------------------------------- main --

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "fixtures_npz")
    if os.path.isdir(outdir):
        shutil.rmtree(outdir)
    os.makedirs(os.path.join(outdir, "alone"))
    os.makedirs(os.path.join(outdir, "bad"))
    manifest = []

    def put(name, data, what):
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)
        manifest.append((name, what))

    arrs = arrays()
    for key, a in arrs.items():
        put("alone/%s.npy" % key, npy_bytes(a), "np.save of member %s" % key)

    path = os.path.join(outdir, "savez.npz")
    np.savez(path, **arrs)
    manifest.append(("savez.npz", "np.savez of every array in alone/"))
    savez = open(path, "rb").read()
    path = os.path.join(outdir, "savez_compressed.npz")
    np.savez_compressed(path, **arrs)
    manifest.append(("savez_compressed.npz", "np.savez_compressed of every array in alone/"))

    sink = Unseekable()
    np.savez_compressed(sink, **arrs)
    put("savez_stream.npz", bytes(sink.buf),
        "np.savez_compressed to an unseekable file: data descriptors")
    put("savez_zip64.npz", rewrite_zip64(savez),
        "savez.npz with Zip64 central entries, end record and locator")

    with zipfile.ZipFile(io.BytesIO(savez)) as z:
        assert z.comment == b""
    note = b"written by gen_npz_fixtures.py"
    put("comment.npz", savez[:-2] + struct.pack("<H", len(note)) + note,
        "savez.npz with an archive comment")

    ints = npy_bytes(arrs["ints"])
    scalar = npy_bytes(arrs["scalar"])
    put("names.npz", build([Member("caf\u00e9.npy", ints, flags=0x800),
                            Member(b"\x94l.npy", scalar)]),
        "non-ASCII names: 'caf\\u00e9.npy' flagged UTF-8, b'\\x94l.npy' in CP437 ('\\u00f6l.npy')")
    # Python decodes both of these to 'caf\u00e9.npy': a duplicate
    put("bad/duplicate_decoded.npz",
        build([Member("caf\u00e9.npy", ints, flags=0x800), Member(b"caf\x82.npy", scalar)]),
        "two names that decode to the same text: 'caf\\u00e9.npy' (UTF-8) and b'caf\\x82.npy' (CP437)")

    buf = io.BytesIO()
    np.savez(buf)
    put("empty.npz", buf.getvalue(), "np.savez with no arrays")
    buf = io.BytesIO()
    np.savez(buf, ints=arrs["ints"], scalar=arrs["scalar"])
    with zipfile.ZipFile(buf, "a") as z:
        # dated as np.savez dates its members, so the bytes are the same
        # on every run
        z.writestr(zipfile.ZipInfo("notes.txt", (1980, 1, 1, 0, 0, 0)), "not an array\n")
        z.writestr(zipfile.ZipInfo("pickled.pkl", (1980, 1, 1, 0, 0, 0)),
                   pickle.dumps({"a": [1, 2]}, protocol=2))
    put("mixed.npz", buf.getvalue(),
        "np.savez of ints and scalar, then notes.txt (text) and pickled.pkl (a pickle) added")
    path = os.path.join(outdir, "zeros_100m.npz")
    np.savez_compressed(path, zeros=np.zeros(100 * 2 ** 20 // 8))
    manifest.append(("zeros_100m.npz", "100 MiB of zeros, deflated, declared honestly"))

    # ---------------------------------------------------- damaged ones --
    def bad(name, data, what):
        put("bad/" + name, data, what)

    with zipfile.ZipFile(io.BytesIO(savez)) as z:
        infos = z.infolist()
    eocd = len(savez) - 22
    cd_off = struct.unpack_from("<I", savez, eocd + 16)[0]
    bad("truncated_cd.npz", savez[:cd_off + 60],
        "savez.npz cut inside the central directory (no end record)")
    bad("cd_count.npz", savez[:eocd + 8] + struct.pack("<HH", len(infos) + 1, len(infos) + 1)
        + savez[eocd + 12:], "the end record counts one entry more than the directory holds")
    bad("cd_size.npz", savez[:eocd + 12] + struct.pack("<I", struct.unpack_from("<I", savez, eocd + 12)[0] - 20)
        + savez[eocd + 16:], "the end record declares a central directory 20 bytes short")

    # stored member with a data byte flipped: CRC mismatch
    first = infos[0]
    data_at = first.header_offset + 30 + len(first.filename) + len(first.extra)
    flipped = bytearray(savez)
    flipped[data_at + first.file_size - 1] ^= 0xFF
    bad("crc_stored.npz", bytes(flipped), "savez.npz with the last data byte of a member flipped")

    small = npy_bytes(np.arange(4, dtype="<i4"))
    m = Member("a.npy", small, method=8)
    m.crc ^= 0x1
    bad("crc_deflated.npz", build([m]), "deflated member whose declared CRC is off by one bit")

    bad("size_long.npz", build([Member("a.npy", small, method=8, usize=len(small) + 16)]),
        "deflated member declaring 16 bytes more than its stream inflates to")
    bomb_payload = small + bytes(100 * 2 ** 20)
    m = Member("a.npy", bomb_payload, method=8, usize=len(small), crc=zlib.crc32(small))
    bad("size_short_bomb.npz", build([m]),
        "a small declared size whose stream inflates 100 MiB more (CRC of the declared bytes)")
    m = Member("a.npy", small, method=8)
    m.usize = 2 ** 40
    m.central_extra = struct.pack("<HHQ", 1, 8, 2 ** 40)
    m.usize = 0xFFFFFFFF
    m.local_sizes = (m.crc, m.csize, 0xFFFFFFFF)
    m.extra = struct.pack("<HHQQ", 1, 16, 2 ** 40, m.csize)
    bad("ratio.npz", build([m]), "declares 1 TiB inflated from a few dozen bytes")
    m = Member("a.npy", small, method=8)
    m.csize -= 4
    m.data = m.data[:-4]
    bad("deflate_cut.npz", build([m]), "deflate stream cut short (sizes agree with the cut)")

    raw = npy_bytes(np.arange(64, dtype="<i8"))
    hlen = 10 + struct.unpack_from("<H", raw, 8)[0]
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    head = c.compress(raw[:hlen]) + c.flush(zlib.Z_FULL_FLUSH)
    body = c.compress(raw[hlen:]) + c.flush()
    m = Member("a.npy", raw, method=8)
    m.data = head + b"\xff" * len(body)        # block type 3: invalid
    m.csize = len(m.data)
    bad("corrupt_data.npz", build([m]),
        "deflated member: the header is in a block of its own, the data's block is garbage")
    bad("duplicate.npz", build([Member("a.npy", small), Member("a.npy", scalar)]),
        "two members named a.npy")
    # Fifield's overlap: member outer's stored data holds a whole local
    # header and data of member inner, whose central entry points inside it
    inner = Member("inner.npy", small)
    inner_local = local_header(inner) + inner.data
    outer = Member("outer.npy", scalar + inner_local)
    inner.lho = 30 + len(outer.name) + len(scalar)
    bad("overlap.npz", build([outer, inner]),
        "a member's local header and data lie inside another member's data")
    fake = b"PK\x05\x06 is not the end here"
    bad("comment_signature.npz", savez[:-2] + struct.pack("<H", len(fake)) + fake,
        "an end record signature inside the comment (np.load refuses it too)")
    bad("trailing.npz", savez + b"JUNK", "4 bytes after the end record")
    bad("duplicate_long.npz", build([Member("n" * 200 + ".npy", small), Member("n" * 200 + ".npy", scalar)]),
        "two members with the same 204-byte name (messages cut it short)")
    bad("prefixed.npz", b"JUNK" + savez,
        "savez.npz after 4 bytes of other data: every offset is 4 short")
    m = Member("a.npy", small)
    m.csize = m.usize = len(small) + 40
    m.local_sizes = (m.crc, m.csize, m.usize)
    bad("into_cd.npz", build([m]), "stored sizes that run into the central directory")
    bad("offset.npz", build([Member("a.npy", small, lho=0x7FFFFF00)]),
        "local header offset far past the end of the file")
    bad("encrypted.npz", build([Member("a.npy", small, flags=1)]), "encryption flag set")
    bad("method.npz", build([Member("a.npy", small, method_field=12)]),
        "compression method 12 (bzip2)")
    bad("name_dotdot.npz", build([Member("../a.npy", small)]), "a '..' component in a name")
    bad("name_dotdot_backslash.npz", build([Member("x\\..\\a.npy", small)]),
        "a '..' component between backslashes")
    bad("name_nul.npz", build([Member(b"a\x00b.npy", small)]), "a NUL byte in a name")
    bad("name_empty.npz", build([Member(b"", small)]), "an empty name")
    bad("name_utf8.npz", build([Member(b"a\xff.npy", small, flags=0x800)]),
        "flagged UTF-8, but the name is not UTF-8")
    bad("local_name.npz", build([Member("a.npy", small, local_name=b"b.npy")]),
        "the local header names another file")
    m = Member("a.npy", small)
    m.local_sizes = (m.crc, m.csize, m.usize - 1)
    bad("local_size.npz", build([m]), "the local header declares another size")
    good = Member("a.npy", small)
    hidden = Member("b.npy", scalar)
    bad("cd_trailing.npz", build([good, hidden], count=1),
        "the end record counts 1 entry; a second one follows it in the directory")
    z64 = bytearray(rewrite_zip64(savez))
    rec = struct.unpack_from("<Q", z64, len(z64) - 22 - 20 + 8)[0]
    struct.pack_into("<H", z64, len(z64) - 22 + 10, 3)   # classic count 3, not a sentinel
    bad("zip64_disagree.npz", bytes(z64), "classic end record and Zip64 end record disagree")
    z64 = bytearray(rewrite_zip64(savez))
    struct.pack_into("<Q", z64, len(z64) - 22 - 20 + 8, rec + 8)
    bad("zip64_locator.npz", bytes(z64), "the Zip64 locator points 8 bytes past the record")
    m = Member("a.npy", small)
    m.central_extra = struct.pack("<HHQ", 1, 8, 0)
    m.usize = 0xFFFFFFFF
    m.csize = 0xFFFFFFFF
    m.local_sizes = (m.crc, len(small), len(small))
    bad("zip64_short_extra.npz", build([m]),
        "sentinel sizes in the central entry but a Zip64 extra with one value")
    bad("short_member.npz", build([Member("a.npy", small[:-4])]),
        "a stored member 4 bytes shorter than its header needs (NPYDT_E_DATA)")

    with open(os.path.join(outdir, "MANIFEST.txt"), "w") as f:
        for name, what in manifest:
            f.write("%s\t%s\n" % (name, what))


if __name__ == "__main__":
    main()

"""make_bomb.py ARCHIVE NAME CHUNKS: a deflate bomb made at test time, the
archive ARCHIVE holding one member NAME, a .npy of CHUNKS x 16 MiB bytes
(dtype u1, all zero) deflated about 1000:1, which NumPy loads. After a full
flush the compressor starts afresh, so each 16 MiB block of zeros deflates
to the same bytes: one block is compressed and repeated."""
import struct, sys, zlib

def bomb(path, name, chunks):
    size = chunks << 24
    d = "{'descr': '|u1', 'fortran_order': False, 'shape': (%d,), }" % (size - 128)
    h = d + " " * (128 - 10 - len(d) - 1) + "\n"
    head = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode()
    assert len(head) == 128
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    zeros = bytes(1 << 24)
    first = c.compress(head + zeros[128:]) + c.flush(zlib.Z_FULL_FLUSH)
    block = c.compress(zeros) + c.flush(zlib.Z_FULL_FLUSH)
    data = first + block * (chunks - 1) + c.flush()
    crc = zlib.crc32(head + zeros[128:])
    for _ in range(chunks - 1):
        crc = zlib.crc32(zeros, crc)
    n = name.encode()
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0x21, crc, len(data), size, len(n), 0) + n
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 8, 0, 0x21, crc, len(data),
                          size, len(n), 0, 0, 0, 0, 0, 0) + n
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), len(local) + len(data), 0)
    with open(path, "wb") as f:
        f.write(local + data + central + end)

bomb(sys.argv[1], sys.argv[2], int(sys.argv[3]))

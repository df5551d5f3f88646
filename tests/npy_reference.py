#!/usr/bin/python3
"""Reference implementation of the npydt JSON contract, computed by NumPy.

Everything here is derived from NumPy's own reader (numpy.lib.format and
np.load), so the output is "what NumPy says" about a .npy file.  See
/work/shared/spec/cli-json.md for the contract.

Importable (stdlib + numpy only):

    inspect_obj(path) -> dict        # what `npydt inspect --json` must print
    dump_lines(path)  -> list        # one value per `npydt dump --jsonl` line

Command line (must be run with /usr/bin/python3, which has NumPy):

    /usr/bin/python3 tests/npy_reference.py inspect FILE
    /usr/bin/python3 tests/npy_reference.py dump FILE
"""

import json
import math
import os
import struct
import sys
import warnings

import numpy as np
import numpy.lib.format as npformat

# No header-size limit: version 2.0/3.0 files may have headers > 64 KiB.
BIG_HEADER = 2 ** 62

__all__ = ["inspect_obj", "dump_lines", "dtype_obj", "element_value",
           "read_header", "load_array", "NotDumpable", "iter_leaves",
           "zero_longdouble_padding"]


class NotDumpable(ValueError):
    """Raised by dump_lines for object dtypes (the CLI must exit 1)."""


# ---------------------------------------------------------------- header --

def read_header(path):
    """Return (version, header_len, data_offset, shape, fortran_order, dtype)
    exactly as NumPy's reader sees them.  Raises whatever NumPy raises."""
    with open(path, "rb") as fp:
        version = npformat.read_magic(fp)
        npformat._check_version(version)
        here = fp.tell()
        # header_len as stored (NumPy does not expose it; read the raw field
        # and let NumPy re-read it right after).
        if version == (1, 0):
            raw = fp.read(2)
            header_len = struct.unpack("<H", raw)[0] if len(raw) == 2 else None
        else:
            raw = fp.read(4)
            header_len = struct.unpack("<I", raw)[0] if len(raw) == 4 else None
        fp.seek(here)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            shape, fortran_order, dtype = npformat._read_array_header(
                fp, version, max_header_size=BIG_HEADER)
        data_offset = fp.tell()
    return version, header_len, data_offset, shape, fortran_order, dtype


def _byteorder(dt):
    bo = dt.byteorder
    if bo == "=":
        # this reference runs on little-endian x86-64
        bo = "<" if sys.byteorder == "little" else ">"
    return bo


def _title_json(title):
    if title is None or isinstance(title, str):
        return title
    # NumPy allows non-str titles (ints, bytes...); npydt cannot represent
    # those faithfully, use repr so the mismatch is at least readable.
    return repr(title)


def dtype_obj(dt):
    """The DTYPE JSON object of the contract for a numpy dtype."""
    dt = np.dtype(dt)
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        return {"type": "subarray", "shape": [int(n) for n in shape],
                "itemsize": int(dt.itemsize), "base": dtype_obj(base)}
    if dt.names is not None:
        fields = []
        for name in dt.names:
            entry = dt.fields[name]
            fdt, off = entry[0], entry[1]
            title = entry[2] if len(entry) > 2 else None
            fields.append({"name": name, "title": _title_json(title),
                           "offset": int(off), "dtype": dtype_obj(fdt)})
        return {"type": "struct", "itemsize": int(dt.itemsize),
                "fields": fields}
    obj = {"type": "scalar", "kind": dt.kind, "byteorder": _byteorder(dt),
           "itemsize": int(dt.itemsize), "str": dt.str}
    if dt.kind in "Mm":
        unit, count = np.datetime_data(dt)
        obj["unit"] = unit
        obj["count"] = int(count)
    return obj


def inspect_obj(path, check_data=True):
    """The object `npydt inspect --json PATH` must print.

    With check_data (the default) a file whose data is shorter than
    count * itemsize raises ValueError, as np.load would (object arrays
    excepted: their data is a pickle of unknown length)."""
    version, header_len, data_offset, shape, fortran_order, dtype = \
        read_header(path)
    count = 1
    for n in shape:
        count *= int(n)
    if check_data and not dtype.hasobject:
        have = os.path.getsize(path) - data_offset
        need = count * int(dtype.itemsize)
        if have < need:
            raise ValueError("EOF: reading array data, expected %d bytes "
                             "got %d" % (need, have))
    return {
        "format_version": [int(version[0]), int(version[1])],
        "header_len": int(header_len),
        "data_offset": int(data_offset),
        "fortran_order": bool(fortran_order),
        "shape": [int(n) for n in shape],
        "count": count,
        "data_bytes": count * int(dtype.itemsize),
        "dtype": dtype_obj(dtype),
    }


# ------------------------------------------------------------------ data --

def load_array(path):
    """np.load the file (no pickles, no header size limit)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.load(path, allow_pickle=False, mmap_mode=None,
                       max_header_size=BIG_HEADER)


def _float_value(x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # long double overflow -> inf
        v = float(x)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _subarray_value(base, shape, x):
    """x is an ndarray whose leading dims are `shape` (NumPy flattens nested
    subarray dtypes into extra trailing dims); build nested lists."""
    x = np.asarray(x)
    if len(shape) == 0:
        return element_value(base, x[()] if x.ndim == 0 else x)

    def rec(sub, dims):
        if not dims:
            if isinstance(sub, np.ndarray) and sub.ndim == 0 and \
                    base.subdtype is None:
                sub = sub[()]
            return element_value(base, sub)
        return [rec(sub[i], dims[1:]) for i in range(dims[0])]
    return rec(x, list(shape))


def element_value(dt, x):
    """JSON value (per the contract) of one element x of dtype dt."""
    dt = np.dtype(dt)
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        return _subarray_value(base, shape, x)
    if dt.names is not None:
        return {name: element_value(dt.fields[name][0], x[name])
                for name in dt.names}
    k = dt.kind
    if k == "b":
        return bool(x)
    if k in "iu":
        return int(x)
    if k == "f":
        return _float_value(x)
    if k == "c":
        return [_float_value(x.real), _float_value(x.imag)]
    if k == "S":
        return bytes(x).rstrip(b"\0").decode("latin-1")
    if k == "U":
        return str(x).rstrip("\0")
    if k == "V":
        return bytes(np.asarray(x).tobytes()).hex()
    if k in "Mm":
        if np.isnat(x):
            return "NaT"
        return int(np.asarray(x).view(np.int64)[()])
    if k == "O":
        raise NotDumpable("object dtype is not dumpable")
    raise ValueError("unhandled dtype kind %r" % (k,))


def dump_lines(path):
    """List of per-element values, C order of the logical array."""
    _v, _hl, _off, _shape, _f, dtype = read_header(path)
    if dtype.hasobject:
        raise NotDumpable("object dtype is not dumpable")
    arr = load_array(path)
    flat = arr.reshape(-1)          # C order of the logical array
    dt = arr.dtype
    return [element_value(dt, flat[i]) for i in range(flat.shape[0])]


# --------------------------------------------------------------- helpers --

def iter_leaves(dt, offset=0):
    """Yield (byte offset, scalar dtype) for every scalar leaf of one element
    of dtype dt (subarrays expanded, struct fields in order)."""
    dt = np.dtype(dt)
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        n = 1
        for d in shape:
            n *= int(d)
        for i in range(n):
            yield from iter_leaves(base, offset + i * base.itemsize)
    elif dt.names is not None:
        for name in dt.names:
            fdt, foff = dt.fields[name][:2]
            yield from iter_leaves(fdt, offset + foff)
    else:
        yield offset, dt


def zero_longdouble_padding(arr):
    """Return a C-contiguous copy of arr whose long double (f16/c32) padding
    bytes are zero.  NumPy leaves them uninitialised (np.save output would
    not be deterministic otherwise)."""
    arr = np.array(arr, order="C", copy=True)  # keeps 0-d shape ()
    leaves = [(o, d) for o, d in iter_leaves(arr.dtype)
              if d.kind in "fc" and d.itemsize in (16, 32)]
    if not leaves or arr.size == 0 or arr.dtype.itemsize == 0:
        return arr
    raw = bytearray(arr.tobytes())
    isz = arr.dtype.itemsize
    for e in range(arr.size):
        for off, d in leaves:
            for part in range(d.itemsize // 16):
                start = e * isz + off + 16 * part
                if _byteorder(d) == "<":
                    raw[start + 10:start + 16] = bytes(6)
                else:
                    raw[start:start + 6] = bytes(6)
    return np.frombuffer(bytes(raw), dtype=arr.dtype).reshape(arr.shape).copy()


# ------------------------------------------------------------------- cli --

def main(argv):
    if len(argv) != 3 or argv[1] not in ("inspect", "dump"):
        sys.stderr.write("usage: npy_reference.py inspect|dump FILE\n")
        return 2
    cmd, path = argv[1], argv[2]
    try:
        if cmd == "inspect":
            out = [json.dumps(inspect_obj(path))]
        else:
            out = [json.dumps(v) for v in dump_lines(path)]
    except OSError as e:
        sys.stderr.write("%s: cannot read: %s\n" % (path, e))
        return 2
    except Exception as e:                      # NumPy rejects the file
        msg = str(e).splitlines()[0] if str(e) else ""
        sys.stderr.write("%s: %s: %s\n" % (path, type(e).__name__, msg))
        return 1
    sys.stdout.write("".join(line + "\n" for line in out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

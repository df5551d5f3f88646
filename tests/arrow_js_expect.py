"""The values Arrow JS must find in `npydt dump --arrow` of each fixture,
from NumPy, as JSON: {"FILE.npy": {"names": [...], "rows": [...]}}.

    arrow_js_expect.py FIXTURES_DIR OUT.json

Keys FILE@OPTION=VALUE are selections: dump --arrow OPTION=VALUE FILE
(--fields too: records of the fields, named by their paths).
Each row is the list of its columns (a record's fields in order, or the
one value of another dtype), each value in the canonical form
tests/arrow_js_check.mjs gives Arrow's: integers and time counts as
decimal strings (NaT null), floats as numbers ("nan", "inf", "-inf"),
complex as [real, imag], S and V bytes as hex without trailing zero
bytes, U as text, structs as lists of their fields, subarrays as nested
lists."""
import json
import math
import os
import sys

import numpy as np

FIXTURES, OUT = sys.argv[1:3]

# fixtures npydt does not export (doc/api.md says why)
REFUSED = {"object_O.npy", "object_in_struct.npy", "struct_name_nul.npy",
           "struct_name_nul_utf8.npy", "struct_title_nul.npy",
           "scalar_M8_D.npy", "scalar_M8_D_be.npy", "scalar_M8_W.npy",
           "scalar_M8_h.npy", "scalar_M8_m.npy", "scalar_M8_25s_be.npy",
           "scalar_m8_25s.npy", "scalar_m8_D.npy", "scalar_m8_D_be.npy",
           "struct_mixed_kinds.npy"}


def arrow_unit(dt):
    """The unit of npydt's Arrow column of datetime dt ("D": dates), or
    None for the raw count (doc/api.md's table)."""
    unit = np.datetime_data(dt)[0]
    if unit in ("W", "D"):
        return "D" if dt.kind == "M" else "s"
    if unit in ("h", "m"):
        return "s"
    return unit if unit in ("s", "ms", "us", "ns") else None


def num(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def canon(dt, v):
    """v: a NumPy scalar or 0-d value of dtype dt."""
    if dt.names is not None:
        return [canon(dt.fields[n][0], v[n]) for n in dt.names]
    if dt.subdtype:
        base = dt
        while base.subdtype:
            base = base.subdtype[0]
        return nest(base, np.asarray(v))
    k = dt.kind
    if k == "b":
        return bool(v)
    if k in "iu":
        return str(int(v))
    if k == "f":
        return num(v)
    if k == "c":
        return [num(np.real(v)), num(np.imag(v))]
    if k in "SV":
        return bytes(np.asarray(v).tobytes()).rstrip(b"\0").hex()
    if k == "U":
        return str(v)
    if k in "Mm":
        if np.isnat(v):
            return None
        v = np.asarray(v)
        u = arrow_unit(dt)
        if u:   # NumPy converts the count to the column's unit
            v = v.astype("%s8[%s]" % (k, u))
        return str(int(v.astype(np.int64)))
    raise ValueError(dt)


def nest(base, a):
    if np.ndim(a) == 0:
        return canon(base, a[()] if isinstance(a, np.ndarray) else a)
    return [nest(base, a[i]) for i in range(a.shape[0])]


# selections of dump --arrow: "FILE@OPTION=VALUE" and NumPy's elements
SELECTIONS = {
    "fortran_2d.npy@--range=1:3": lambda a: a[1:3],
    "fortran_3d.npy@--index=1": lambda a: a[1],
    "arrow_time_struct.npy@--tail=2": lambda a: a.reshape(-1)[-2:],
    "fortran_struct.npy@--range=::-1": lambda a: a[::-1],
    "scalar_M8_ns.npy@--head=3": lambda a: a.reshape(-1)[:3],
    "struct_subarray_of_struct.npy@--fields=pts.y,n":
        lambda a: packed([("pts.y", a["pts"]["y"]), ("n", a["n"])]),
    "struct_nested_subarray.npy@--fields=x": lambda a: packed([("x", a["x"])]),
    "struct_mixed_kinds.npy@--fields=s,t": lambda a: packed([("s", a["s"]), ("t", a["t"])]),
}


def packed(columns):
    """Records of the named columns, as dump --arrow --fields makes them."""
    n = len(columns[0][1])
    out = np.zeros(n, [(name, c.dtype, c.shape[1:]) for name, c in columns])
    for name, c in columns:
        out[name] = c
    return out


def load(name):
    return np.load(os.path.join(FIXTURES, name), allow_pickle=False,
                   max_header_size=1 << 30)


out = {}
names = [n for n in sorted(os.listdir(FIXTURES)) if n.endswith(".npy") and n not in REFUSED]
for name in names + sorted(SELECTIONS):
    if "@" in name:
        a = np.asarray(SELECTIONS[name](load(name.split("@")[0])))
    else:
        a = load(name)
    flat = a.reshape(-1) if a.ndim else a.reshape(1)
    dt = a.dtype
    if dt.names is not None:
        names = list(dt.names)
        rows = [canon(dt, flat[i]) for i in range(flat.shape[0])]
    else:
        names = ["value"]
        rows = [[canon(dt, flat[i])] for i in range(flat.shape[0])]
    out[name] = {"names": names, "rows": rows}
with open(OUT, "w") as f:
    json.dump(out, f)

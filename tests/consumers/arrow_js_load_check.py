"""The .npy file `npydt load --arrow --string-width 8` writes from
arrow_js_load.mjs's TABLE stream: its dtype and values, by NumPy.
    /usr/bin/python3 arrow_js_load_check.py OUT.npy"""
import sys

import numpy as np

a = np.load(sys.argv[1])
want = np.dtype([
    ("i8", "i1"), ("i64", "<i8"), ("u16", "<u2"), ("f32", "<f4"), ("f64", "<f8"), ("b", "?"),
    ("ms", "<M8[ms]"), ("ns", "<M8[ns]"),
    ("p", [("x", "<i4"), ("y", "<f8")]), ("l", "<i2", (3,)), ("s", "<U8"),
])
expect = np.array([
    (-128, -9007199254740993, 0, 1.5, 0.1, True, 0, 0, (1, 0.5), (1, 2, 3), "a"),
    (0, 0, 1, -0.25, -1e300, False, 1700000000123, 1700000123000000, (-2, 1.5), (4, 5, 6), ""),
    (127, 9223372036854775807, 65535, 3.0e38, np.inf, True, -1000, -1000000, (3, -2.5), (-7, -8, -9),
     "héllo!"),
], dtype=want)
if a.dtype != want:
    print(f"FAIL arrow_load: Arrow JS table: dtype {a.dtype}, expected {want}")
    sys.exit(1)
for name in want.names:
    if not np.array_equal(a[name], expect[name]):
        print(f"FAIL arrow_load: Arrow JS table: {name} is {a[name]!r}, expected {expect[name]!r}")
        sys.exit(1)

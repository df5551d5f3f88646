"""DuckDB's query results, as Arrow arrays, written into .npy files by
npydt's Arrow import (tests/tools/arrow_import_duckdb), then loaded by
NumPy and compared with the values NumPy computes for the same query; and
the types NumPy has not, refused naming the column and the Arrow type.

Usage: arrow_duckdb_import_check.py TOOL LIBDUCKDB
Prints "arrow_duckdb_import: N passed, M failed".
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

TOOL, LIB = sys.argv[1], sys.argv[2]
N = 5000  # rows: DuckDB gives them in batches of 2048

i = np.arange(N)
day0 = np.datetime64("2020-01-01", "D")

# (name, SQL, string width, {field: expected values}, expected descriptor)
CASES = [
    ("integers, floats, bools",
     "SELECT (i %% 100)::TINYINT a, i::SMALLINT b, i::INTEGER c, i::BIGINT d, "
     "(i %% 200)::UTINYINT e, i::USMALLINT f, i::UINTEGER g, i::UBIGINT h, "
     "i::FLOAT x, i::DOUBLE y, i %% 2 = 0 AS z FROM range(%d) t(i)" % N, 0,
     {"a": (i % 100).astype("i1"), "b": i.astype("i2"), "c": i.astype("i4"),
      "d": i.astype("i8"), "e": (i % 200).astype("u1"), "f": i.astype("u2"),
      "g": i.astype("u4"), "h": i.astype("u8"), "x": i.astype("f4"),
      "y": i.astype("f8"), "z": i % 2 == 0},
     "[('a', '|i1'), ('b', '<i2'), ('c', '<i4'), ('d', '<i8'), ('e', '|u1'), "
     "('f', '<u2'), ('g', '<u4'), ('h', '<u8'), ('x', '<f4'), ('y', '<f8'), "
     "('z', '|b1')]"),
    ("dates and timestamps",
     "SELECT DATE '2020-01-01' + i::INTEGER AS dt, "
     "TIMESTAMP '2020-01-01' + to_seconds(i) ts, "
     "(TIMESTAMP '2020-01-01' + to_seconds(i))::TIMESTAMP_S tss, "
     "(TIMESTAMP '2020-01-01' + to_seconds(i))::TIMESTAMP_MS tsm, "
     "(TIMESTAMP '2020-01-01' + to_seconds(i))::TIMESTAMP_NS tsn "
     "FROM range(%d) t(i)" % N, 0,
     {"dt": day0 + i,
      "ts": day0.astype("M8[us]") + i.astype("m8[s]"),
      "tss": day0.astype("M8[s]") + i.astype("m8[s]"),
      "tsm": day0.astype("M8[ms]") + i.astype("m8[s]"),
      "tsn": day0.astype("M8[ns]") + i.astype("m8[s]")},
     "[('dt', '<M8[D]'), ('ts', '<M8[us]'), ('tss', '<M8[s]'), ('tsm', '<M8[ms]'), "
     "('tsn', '<M8[ns]')]"),
    ("a time zone is dropped: the values are UTC",
     "SELECT TIMESTAMPTZ '2020-01-01 00:00:00+00' + to_seconds(i) tz FROM range(3) t(i)", 0,
     {"tz": day0.astype("M8[us]") + np.arange(3).astype("m8[s]")},
     "[('tz', '<M8[us]')]"),
    ("null timestamps are NaT",
     "SELECT CASE WHEN i % 2 = 0 THEN TIMESTAMP '2020-01-01' END ts FROM range(4) t(i)", 0,
     {"ts": np.array(["2020-01-01", "NaT", "2020-01-01", "NaT"], "M8[us]")},
     "[('ts', '<M8[us]')]"),
    ("structs and fixed-size arrays",
     "SELECT {'p': i, 'q': i / 2} st, [i, i + 1, i + 2]::INTEGER[3] arr, "
     "[[i, -i], [i, -i], [i, -i]]::SMALLINT[2][3] arr2 FROM range(%d) t(i)" % N, 0,
     {"st": None, "st.p": i.astype("i8"), "st.q": i / 2,
      "arr": np.stack([i, i + 1, i + 2], axis=1).astype("i4"),
      "arr2": np.stack([np.stack([i, -i], axis=1)] * 3, axis=1).astype("i2")},
     "[('st', [('p', '<i8'), ('q', '<f8')]), ('arr', '<i4', (3,)), "
     "('arr2', '<i2', (3, 2))]"),
    ("text and bytes of a width given",
     "SELECT 'x' || i::VARCHAR s, ('b' || i::VARCHAR)::BLOB b, 'é' u "
     "FROM range(%d) t(i)" % N, 6,
     {"s": np.array(["x%d" % v for v in range(N)], "U6"),
      "b": np.array([b"b%d" % v for v in range(N)], "S6"),
      "u": np.array(["é"] * N, "U6")},
     "[('s', '<U6'), ('b', '|S6'), ('u', '<U6')]"),
]

# (name, SQL, string width, part of the message)
REFUSED = [
    ("a list", "SELECT [1, 2] l", 0, "field l: Arrow type '+l' (a list) has no NumPy type"),
    ("a decimal", "SELECT 1.5 d", 0, "field d: Arrow type 'd:"),
    ("an interval", "SELECT INTERVAL 1 DAY iv", 0, "field iv: Arrow type 'ti"),
    ("a map", "SELECT MAP {'a': 1} m", 0, "field m: Arrow type '+m' (a map)"),
    ("text without a width", "SELECT 'abc' s", 0, "give a string width"),
    ("text longer than the width", "SELECT 'abcdef' s", 3,
     "field s: row 0: "),
    ("a null integer", "SELECT CASE WHEN i = 1 THEN NULL ELSE i END v FROM range(3) t(i)",
     0, "field v: row 1: a null"),
]

passed = failed = 0


def fail(name, why):
    global failed
    failed += 1
    print("FAIL arrow_duckdb_import: %s: %s" % (name, why))


def host(descr):
    return descr if sys.byteorder == "little" else descr.replace("<", ">")


with tempfile.TemporaryDirectory() as tmp:
    for k, (name, sql, width, want, descr) in enumerate(CASES):
        out = os.path.join(tmp, "case%d.npy" % k)
        p = subprocess.run([TOOL, LIB, out, str(width), sql], capture_output=True, text=True)
        if p.returncode != 0:
            fail(name, "exit %d: %s" % (p.returncode, p.stderr.strip()))
            continue
        if p.stdout.strip() != host(descr):
            fail(name, "dtype %s, expected %s" % (p.stdout.strip(), host(descr)))
            continue
        a = np.load(out)
        bad = []
        for field, values in want.items():
            if values is None:
                continue
            got = a
            for part in field.split("."):
                got = got[part]
            if got.shape != values.shape or not np.array_equal(got, values,
                                                                equal_nan=got.dtype.kind == "f"):
                if not (got.dtype.kind == "M" and got.shape == values.shape and
                        np.array_equal(got.astype("i8"), values.astype(got.dtype).astype("i8"))):
                    bad.append(field)
        if bad:
            fail(name, "fields %s differ" % ", ".join(bad))
        else:
            passed += 1
    for name, sql, width, part in REFUSED:
        out = os.path.join(tmp, "refused.npy")
        p = subprocess.run([TOOL, LIB, out, str(width), sql], capture_output=True, text=True)
        if p.returncode != 1 or part not in p.stderr:
            fail(name, "exit %d, message %r lacks %r" % (p.returncode, p.stderr.strip(), part))
        elif os.path.exists(out):
            fail(name, "a refused import left %s" % out)
        else:
            passed += 1

print("arrow_duckdb_import: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)

"""DuckDB reads npydt's Arrow streams: for every fixture, the types DuckDB
sees (DESCRIBE) follow the mapping table of doc/api.md, and the values it
gives (to_json of each row, or the text of a datetime) are NumPy's.

    arrow_duckdb_check.py TOOL LIBDUCKDB FIXTURES_DIR

TOOL is tests/tools/arrow_duckdb built; prints "arrow_duckdb: N passed,
M failed" and a FAIL line per difference."""
import json
import math
import os
import subprocess
import sys

import numpy as np

TOOL, LIB, FIXTURES = sys.argv[1:4]

# fixtures npydt does not export (doc/api.md says why), and the one kind
# DuckDB 1.5 refuses: half floats ("e")
REFUSED = {"object_O.npy", "object_in_struct.npy", "struct_name_nul.npy",
           "struct_name_nul_utf8.npy", "struct_title_nul.npy",
           "scalar_M8_D.npy", "scalar_M8_D_be.npy", "scalar_M8_W.npy",
           "scalar_M8_h.npy", "scalar_M8_m.npy", "scalar_M8_25s_be.npy",
           "scalar_m8_25s.npy", "scalar_m8_D.npy", "scalar_m8_D_be.npy",
           "struct_mixed_kinds.npy"}

INTS = {("i", 1): "TINYINT", ("i", 2): "SMALLINT", ("i", 4): "INTEGER",
        ("i", 8): "BIGINT", ("u", 1): "UTINYINT", ("u", 2): "USMALLINT",
        ("u", 4): "UINTEGER", ("u", 8): "UBIGINT"}
TIMESTAMPS = {"s": "TIMESTAMP_S", "ms": "TIMESTAMP_MS", "us": "TIMESTAMP",
              "ns": "TIMESTAMP_NS"}


def time_unit(dt):
    """The unit of npydt's Arrow column of datetime dt ("D" for dates), or
    None for the raw count: the unit's own, or the one whose whole
    numbers its counts are (seconds for m and h, days or seconds for D and
    W), whatever the multiplier."""
    unit = np.datetime_data(dt)[0]
    if unit in ("W", "D"):
        return "D" if dt.kind == "M" else "s"
    if unit in ("h", "m"):
        return "s"
    return unit if unit in TIMESTAMPS else None


def in_arrow_unit(a):
    """Datetime array a in its Arrow column's unit, NumPy converting."""
    u = time_unit(a.dtype)
    return a.astype("%s8[%s]" % (a.dtype.kind, u)) if u else a


def mapped_time(dt):
    """True for a datetime column Arrow types (not the raw count)."""
    return time_unit(dt) is not None


def has(dt, pred):
    if dt.names:
        return any(has(dt.fields[n][0], pred) for n in dt.names)
    if dt.subdtype:
        return has(dt.subdtype[0], pred)
    return pred(dt)


def has_empty_struct(dt):
    if dt.names is not None:
        return not dt.names or any(has_empty_struct(dt.fields[n][0]) for n in dt.names)
    return bool(dt.subdtype) and has_empty_struct(dt.subdtype[0])


def beyond_microseconds(a):
    """True when a datetime array holds a value DuckDB's microseconds
    cannot (DuckDB then refuses the whole column: a Conversion Error)."""
    if a.dtype.kind not in "Mm" or time_unit(a.dtype) not in ("s", "ms"):
        return False
    a = in_arrow_unit(a)
    v = a.ravel().astype(np.int64)
    v = v[~np.isnat(a.ravel())].astype(object)
    scale = 10**6 if time_unit(a.dtype) == "s" else 10**3
    return any(abs(x * scale) >= 2**63 for x in v)


def duck_type(dt):
    """DuckDB's name of the type of npydt's column for dt."""
    if dt.names:
        inner = ", ".join('%s %s' % (quote(n), duck_type(dt.fields[n][0]))
                          for n in dt.names)
        return "STRUCT(%s)" % inner
    if dt.subdtype:
        base, shape = dt.subdtype
        # DuckDB spells ARRAY(ARRAY(T, 3), 2) T[3][2], and a size 0 ANY
        return duck_type(base) + "".join("[%s]" % (d or "ANY") for d in reversed(shape))
    k, size = dt.kind, dt.itemsize
    if k == "b":
        return "BOOLEAN"
    if (k, size) in INTS:
        return INTS[(k, size)]
    if k == "f":
        return "FLOAT" if size == 4 else "DOUBLE"
    if k == "c":
        return "FLOAT[2]" if size == 8 else "DOUBLE[2]"
    if k in "SV":
        return "BLOB"
    if k == "U":
        return "VARCHAR"
    if k in "Mm":
        u = time_unit(dt)
        if k == "M" and u == "D":
            return "DATE"
        if u in TIMESTAMPS:
            return TIMESTAMPS[u] if k == "M" else "INTERVAL"
        return "BIGINT"
    raise ValueError(dt)


def quote(name):
    plain = name.replace("_", "a").isalnum() and name.isascii() and name[:1].isalpha()
    return name if plain else '"%s"' % name.replace('"', '""')


def blob_text(b):
    """DuckDB's text of a BLOB."""
    return "".join(chr(c) if 32 <= c <= 126 and chr(c) not in "\\'\"" else "\\x%02X" % c
                   for c in b)


def expect(dt, v):
    """NumPy's value v of dt as DuckDB's to_json gives it (parsed)."""
    if dt.names:
        return {n: expect(dt.fields[n][0], v[n]) for n in dt.names}
    if dt.subdtype:
        base = dt.subdtype[0]

        def nest(x):
            x = np.asarray(x)
            return expect(base, x[()]) if x.ndim == 0 else [nest(y) for y in x]
        return nest(np.asarray(v))
    k = dt.kind
    if k == "b":
        return bool(v)
    if k in "iu":
        return int(v)
    if k == "f":
        return float(v)
    if k == "c":
        return [float(np.real(v)), float(np.imag(v))]
    if k == "S":
        return blob_text(bytes(v).ljust(dt.itemsize, b"\0"))
    if k == "V":
        return blob_text(bytes(v))
    if k == "U":
        return str(v)
    if k in "Mm":
        return None if np.isnat(v) else int(v.astype(np.int64))
    raise ValueError(dt)


def same(a, b):
    if isinstance(a, float) and isinstance(b, (int, float)):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def unescape(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s):
            out.append({"t": "\t", "n": "\n", "\\": "\\"}.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(s[i])
            i += 1
    return "".join(out)


def query(path, *sql):
    p = subprocess.run([TOOL, LIB, path] + list(sql), capture_output=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.decode(errors="replace").strip())
    results, rows = [], []
    for line in p.stdout.decode().split("\n")[:-1]:
        if line == "--":
            results.append(rows)
            rows = []
        else:
            rows.append([unescape(f) for f in line.split("\t")])
    return results


def iso(v):
    """NumPy's text of a datetime as DuckDB writes it: a space for the T,
    no trailing zeros in the fraction, a date alone for a DATE."""
    v = in_arrow_unit(np.asarray(v))[()]
    s = np.datetime_as_string(v).replace("T", " ")
    if time_unit(v.dtype) == "D":
        return s
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s if " " in s else s + " 00:00:00"


def check(name):
    path = os.path.join(FIXTURES, name)
    a = np.load(path, max_header_size=1 << 30)
    dt = a.dtype
    flat = a.ravel(order="C")
    cols = [(n, dt.fields[n][0]) for n in dt.names] if dt.names else [("value", dt)]
    if has(dt, lambda d: d.kind == "f" and d.itemsize == 2):
        try:
            query(path, "DESCRIBE t")
        except RuntimeError:
            return []   # DuckDB 1.5 reads no Arrow half floats
        return ["%s: DuckDB now reads half floats: update the check" % name]
    if has_empty_struct(dt):
        try:
            query(path, "DESCRIBE t")
        except RuntimeError:
            return []   # DuckDB has no struct without fields
        return ["%s: DuckDB now reads empty structs: update the check" % name]
    times = has(dt, lambda d: d.kind in "Mm" and mapped_time(d))
    sql = ["DESCRIBE t"]
    if not times:
        sql.append("SELECT to_json(npydt_row_) FROM t AS npydt_row_")
    elif dt.names:
        sql.append("SELECT count(*) FROM t")   # the types are checked
    elif dt.kind == "m":
        sql.append("SELECT value IS NULL, '' FROM t")   # intervals: NULLs only
    else:
        sql.append("SELECT value IS NULL, value::VARCHAR FROM t")
    try:
        desc, rows = query(path, *sql)
    except RuntimeError as e:
        if "Conversion Error" in str(e) and beyond_microseconds(a):
            return []   # DuckDB's range, not npydt's
        return ["%s: %s" % (name, e)]
    fails = []
    # DuckDB names a column without a name v0, v1...
    got_types = [(r[0], r[1]) for r in desc]
    want_types = [(n or got[0], duck_type(d)) for (n, d), got in zip(cols, got_types)]
    if got_types != want_types:
        fails.append("%s: DuckDB types %s, want %s" % (name, got_types, want_types))
    if times and dt.names:
        if rows != [[str(flat.size)]]:
            fails.append("%s: count %s, want %d" % (name, rows, flat.size))
        return fails
    if len(rows) != flat.size:
        return fails + ["%s: %d rows, want %d" % (name, len(rows), flat.size)]
    for i, row in enumerate(rows):
        v = flat[i]
        if times:
            nat = bool(np.isnat(v))
            if (row[0] == "true") != nat:
                fails.append("%s: row %d: NULL is %s, NaT is %s" % (name, i, row[0], nat))
            elif (not nat and dt.kind == "M" and abs(int(v.astype(np.int64))) < 2**63 - 1 and
                  1 <= v.astype("M8[Y]").astype(int) + 1970 <= 9999):
                # DuckDB reads INT64_MAX and INT64_MIN + 1 as infinities
                if row[1] != iso(v):
                    fails.append("%s: row %d: %r, NumPy %r" % (name, i, row[1], iso(v)))
            continue
        got = json.loads(row[0])
        want = expect(dt, v) if dt.names else {"value": expect(dt, v)}
        if dt.names and "" in want:
            want = {k or "v%d" % dt.names.index(k): x for k, x in want.items()}
        if not same(got, want):
            fails.append("%s: row %d: DuckDB %r, NumPy %r" % (name, i, got, want))
    return fails


# SQL over records DuckDB holds as a table: filters on a nested field, on
# timestamps (of a unit Arrow has and of one converted), on fixed-size
# list elements (DuckDB counts from 1), and aggregates, each against
# NumPy's answer. The view is read whole first (CREATE TABLE ... AS FROM
# t): DuckDB leaves the filters of a query on the view to the stream,
# which a C stream cannot apply (doc/api.md).
QUERY_FIXTURE = "arrow_query_records.npy"


def query_cases(a):
    pos, s, t, h, ids = a["pos"], a["samples"], a["t"], a["h"], a["id"]

    def count_sum(m, v):
        return [int(m.sum()), int(v[m].astype(object).sum()) if m.any() else None]

    def ts(v):
        return np.datetime64(v)
    after = t >= ts("2023-11-16T00:00:00")
    window = (h >= ts("2023-11-06T00")) & (h <= ts("2023-11-10T00"))
    live_t, live_h = t[~np.isnat(t)], h[~np.isnat(h)]
    groups = sorted(set(a["tag"].tolist()))
    return [
        ("a nested field", "SELECT count(*), sum(id) FROM x WHERE pos.y > 0",
         [count_sum(pos["y"] > 0, ids)]),
        ("two nested fields", "SELECT count(*) FROM x WHERE pos.x < 0 AND pos.y <= 0",
         [[int(((pos["x"] < 0) & (pos["y"] <= 0)).sum())]]),
        ("a timestamp in ms", "SELECT count(*), min(id) FROM x "
         "WHERE t >= TIMESTAMP '2023-11-16 00:00:00'",
         [[int(after.sum()), int(ids[after].min())]]),
        ("a timestamp of hours, as seconds", "SELECT count(*), sum(id) FROM x WHERE h "
         "BETWEEN TIMESTAMP '2023-11-06 00:00:00' AND TIMESTAMP '2023-11-10 00:00:00'",
         [count_sum(window, ids)]),
        ("NaT as NULL", "SELECT count(*) FROM x WHERE t IS NULL OR h IS NULL",
         [[int((np.isnat(t) | np.isnat(h)).sum())]]),
        ("a list element", "SELECT count(*), sum(samples[3]) FROM x WHERE samples[2] = 0",
         [count_sum(s[:, 1] == 0, s[:, 2])]),
        ("two list elements", "SELECT id FROM x WHERE samples[1] > samples[2] ORDER BY id",
         [[int(i)] for i in ids[s[:, 0] > s[:, 1]]]),
        ("aggregates", "SELECT min(pos.x), max(pos.x), sum(pos.y), count(t), count(h), "
         "min(t)::VARCHAR, max(h)::VARCHAR FROM x",
         [[float(pos["x"].min()), float(pos["x"].max()), int(pos["y"].astype(int).sum()),
           int(live_t.size), int(live_h.size), iso(live_t.min()), iso(live_h.max())]]),
        ("a group by bytes", "SELECT tag, count(*), sum(id) FROM x GROUP BY tag ORDER BY tag",
         [[blob_text(g.ljust(4, b"\0"))] + count_sum(a["tag"] == g, ids) for g in groups]),
    ]


def same_text(got, want):
    if want is None:
        return got == "N"   # the tool's NULL, \\N, unescaped
    if isinstance(want, float):
        return float(got) == want
    return got == str(want)


def check_queries():
    path = os.path.join(FIXTURES, QUERY_FIXTURE)
    cases = query_cases(np.load(path))
    sql = [c[1] for c in cases]
    sql[0] = "CREATE OR REPLACE TABLE x AS FROM t; " + sql[0]
    try:
        results = query(path, *sql)
    except RuntimeError as e:
        return ["queries: %s" % e]
    fails = []
    for (what, q, want), got in zip(cases, results):
        ok = len(got) == len(want) and all(
            len(g) == len(w) and all(same_text(x, y) for x, y in zip(g, w))
            for g, w in zip(got, want))
        if not ok:
            fails.append("query on %s (%s): DuckDB %r, NumPy %r" % (what, q, got, want))
    return fails


passed = failed = 0
for f in check_queries():
    print("FAIL arrow_duckdb: " + f)
    failed += 1
passed += 1 if not failed else 0
for name in sorted(os.listdir(FIXTURES)):
    if not name.endswith(".npy") or name in REFUSED:
        continue
    fails = check(name)
    for f in fails[:5]:
        print("FAIL arrow_duckdb: " + f)
    if fails:
        failed += 1
    else:
        passed += 1
print("arrow_duckdb: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)

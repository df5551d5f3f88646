#!/bin/sh
# `npydt check` verifies the bytes, so that "match" means that NumPy can
# load the file: a stored member of an np.savez archive with one data byte
# flipped is refused (exit 3, an error object naming the CRC-32) where
# np.load says "Bad CRC-32"; --verify, --no-verify and the default (members
# of at most 64 MiB); bytes after the data counted, not refused. And the
# spec of a reference file (npydt schema, @FILE, like:FILE) leaves the
# first dimension free: the man page's pipeline accepts files of another
# length. The NumPy parts print a SKIP line when NumPy is missing. Prints
# "verify: N passed, M failed".
NPYDT=${NPYDT:-build/npydt}
PY=${PYTHON:-/usr/bin/python3}
if [ ! -x "$NPYDT" ]; then
    echo "SKIP: verify: $NPYDT is not built"
    exit 0
fi
if [ ! -x "$PY" ]; then
    PY=$(command -v python3 || true)
fi
if [ -z "$PY" ]; then
    echo "SKIP: verify: no python3"
    exit 0
fi
"$PY" - "$NPYDT" tests/fixtures tests/fixtures_npz <<'PYEOF'
import json, os, shutil, subprocess, sys, tempfile, zipfile
npydt, fix, npz = sys.argv[1:4]
passed = failed = 0
try:
    import warnings
    warnings.simplefilter("ignore")
    import numpy as np
except ImportError:
    np = None


def check(ok, what):
    global passed, failed
    passed += bool(ok)
    failed += not ok
    if not ok:
        print("FAIL verify:", what)


def run(*args):
    return subprocess.run([npydt] + list(args), capture_output=True)


def objects(r):
    """The JSON objects on stdout; {} stands for a line that is not one."""
    out = []
    for l in r.stdout.splitlines():
        try:
            out.append(json.loads(l))
        except ValueError:
            out.append({})
    return out


def first(r):
    o = objects(r)
    return o[0] if o else {}


def error(o):
    """The error object's message and status ("" when there is none)."""
    e = o.get("error") or {}
    return e.get("status", ""), e.get("message", "")


tmp = tempfile.mkdtemp()
I8 = "'<i8'"

# ---- a stored member with one data byte flipped (committed fixture) ------------
bad = os.path.join(npz, "bad", "crc_stored.npz")
for opts in ([], ["--verify"]):
    r = run("check", "--json", *opts, "--schema", I8, bad + ":ints")
    o = objects(r)
    check(r.returncode == 3 and len(o) == 1 and o[0].get("member") == "ints.npy"
          and error(o[0])[0] == "bad archive" and "CRC-32 mismatch" in error(o[0])[1],
          "check %s of a flipped data byte: exit %d, %r" % (opts, r.returncode, r.stdout))
    check(r.stderr.startswith(bad.encode() + b":ints.npy: bad archive: CRC-32 mismatch"),
          "check %s of a flipped data byte: stderr %r" % (opts, r.stderr))
# --no-verify reads the headers only, and says so
r = run("check", "--json", "--no-verify", "--schema", I8, bad + ":ints")
o = first(r)
check(r.returncode == 0 and o.get("match") is True and o.get("verified") == "header",
      "check --no-verify of a flipped data byte: exit %d, %r" % (r.returncode, r.stdout))
# every member of a sound archive is read whole by default
for arc in ("savez.npz", "savez_compressed.npz"):
    r = run("check", "--json", "--allow-extra", "--schema", "[]", os.path.join(npz, arc))
    o = objects(r)
    check(len(o) == 11 and all(x.get("verified") == "crc32" and x.get("trailing_bytes") == 0
                               for x in o),
          "check of %s: %r" % (arc, [(x.get("member"), x.get("verified")) for x in o]))
# a member above 64 MiB (100 MiB of zeros, deflated) is verified only on request
z100 = os.path.join(npz, "zeros_100m.npz")
r = run("check", "--json", "--schema", "'<f8'", z100)
check(r.returncode == 0 and first(r).get("verified") == "header",
      "check of a 100 MiB member: %d %r" % (r.returncode, r.stdout))
r = run("check", "--json", "--verify", "--schema", "'<f8'", z100)
check(r.returncode == 0 and first(r).get("verified") == "crc32",
      "check --verify of a 100 MiB member: %d %r" % (r.returncode, r.stdout))
# a deflated member whose CRC-32 is off, and one shorter than declared
for name, want in (("crc_deflated.npz", "CRC-32 mismatch"), ("size_long.npz", "declares")):
    r = run("check", "--json", "--schema", "'<i4'", os.path.join(npz, "bad", name))
    o = objects(r)
    check(r.returncode == 3 and len(o) == 1 and want in error(o[0])[1],
          "check of %s: %d %r" % (name, r.returncode, r.stdout))
r = run("check", "--verify", "--no-verify", "--schema", I8, bad)
check(r.returncode == 2 and b"--verify and --no-verify exclude each other" in r.stderr,
      "--verify --no-verify: %d %r" % (r.returncode, r.stderr))

# ---- .npy files: the size; bytes after the data counted, not refused -----------
extra = os.path.join(fix, "quirks", "hdr_extra_data.npy")
for opts in ([], ["--strict"], ["--no-verify"]):
    r = run("check", "--json", *opts, "--schema", "like:" + extra, extra)
    o = first(r)
    check(r.returncode == 0 and r.stderr == b"" and o.get("match") is True
          and o.get("verified") == "size" and o.get("trailing_bytes") == 8,
          "check %s of 8 bytes after the data: %d %r %r" % (opts, r.returncode, r.stdout, r.stderr))
short = os.path.join(fix, "bad", "data_short_2d.npy")
r = run("check", "--json", "--schema", "'<f8'", short)
check(r.returncode == 3 and error(first(r))[0] == "data too short",
      "check of short data: %d %r" % (r.returncode, r.stdout))

# ---- reference schemas leave the first dimension free ----------------------------
def save(name, a):
    p = os.path.join(tmp, name)
    np.save(p, a)
    return p


if np is None:
    print("SKIP: verify: NumPy parts (no NumPy in %s)" % sys.executable)
else:
    # the exact scenario: np.savez, one data byte of a stored member flipped
    p = os.path.join(tmp, "flip.npz")
    np.savez(p, a=np.arange(100, dtype="<f8"), b=np.arange(3, dtype="<i4"))
    with zipfile.ZipFile(p) as zf:
        info = zf.getinfo("a.npy")
    raw = bytearray(open(p, "rb").read())
    name_len = int.from_bytes(raw[info.header_offset + 26:info.header_offset + 28], "little")
    extra_len = int.from_bytes(raw[info.header_offset + 28:info.header_offset + 30], "little")
    at = info.header_offset + 30 + name_len + extra_len + info.file_size - 3   # in the data
    raw[at] ^= 0x01
    open(p, "wb").write(bytes(raw))
    try:
        np.load(p)["a"]
        numpy_says = None
    except Exception as e:                       # noqa: BLE001
        numpy_says = str(e)
    check(numpy_says is not None and "CRC" in numpy_says, "NumPy loads the flipped member: %r" % numpy_says)
    r = run("check", "--json", "--schema", "'<f8'", p + ":a")
    check(r.returncode == 3 and "CRC-32 mismatch" in error(first(r))[1],
          "check of np.savez with a flipped data byte: %d %r" % (r.returncode, r.stdout))
    # the other member is sound; the archive as a whole exits 3
    r = run("check", "--json", "--allow-extra", "--schema", "[]", p)
    o = objects(r)
    check(r.returncode == 3 and len(o) == 2 and "error" in o[0] and o[1].get("verified") == "crc32",
          "check of the whole archive: %d %r" % (r.returncode, r.stdout))
    # NumPy loads a .npy with bytes after its data: so does check
    a = np.arange(6, dtype="<f8").reshape(3, 2)
    t = save("trail.npy", a)
    with open(t, "ab") as f:
        f.write(b"\0" * 5)
    check((np.load(t) == a).all(), "NumPy refuses trailing bytes")
    r = run("check", "--json", "--schema", "like:" + t, t)
    check(r.returncode == 0 and first(r).get("trailing_bytes") == 5,
          "check of 5 trailing bytes: %d %r" % (r.returncode, r.stdout))

    ref = save("ref.npy", np.zeros(100, dtype=[("x", "<f8"), ("id", "<i4")]))
    new = [save("new%d.npy" % n, np.zeros(n, dtype=[("x", "<f8"), ("id", "<i4")]))
           for n in (106, 0, 1)]
    spec = run("schema", ref).stdout.decode().rstrip("\n")
    check(spec == "{'descr': [('x', '<f8'), ('id', '<i4')], 'fortran_order': False, 'shape': (-1,), }",
          "schema ref.npy: %r" % spec)
    # the man page's pipeline, in its three forms
    for arg in (spec, "@" + ref, "like:" + ref):
        r = run("check", "--schema", arg, *new)
        check(r.returncode == 0 and r.stderr == b"",
              "check --schema %s new/*.npy: %d %r" % (arg[:30], r.returncode, r.stderr))
    r = subprocess.run(["sh", "-c", 'npydt() { "$NPYDT" "$@"; }; cd "$1" && '
                        'npydt check --schema "$(npydt schema ref.npy)" new*.npy', "sh", tmp],
                       capture_output=True, env=dict(os.environ, NPYDT=os.path.abspath(npydt)))
    check(r.returncode == 0 and r.stderr == b"", "the man page's example: %d %r" % (r.returncode, r.stderr))
    # --exact-shape pins the length
    exact = run("schema", "--exact-shape", ref).stdout.decode().rstrip("\n")
    r = run("check", "--schema", exact, new[0])
    check(r.returncode == 1 and r.stderr.endswith(b"array: dimension: expected (100,), found (106,)\n"),
          "check --schema (exact) of another length: %d %r" % (r.returncode, r.stderr))
    # only the first dimension is free: the others, the dtype and the order still count
    ref2 = save("ref2.npy", np.zeros((10, 3), dtype="<f4"))
    for a, want in ((np.zeros((7, 3), "<f4"), 0), (np.zeros((10, 4), "<f4"), 1),
                    (np.zeros((10, 3), "<f8"), 1), (np.zeros(10, "<f4"), 1),
                    (np.asfortranarray(np.zeros((10, 3), "<f4")), 1)):
        p = save("other.npy", a)
        r = run("check", "--schema", "like:" + ref2, p)
        check(r.returncode == want, "like:ref2 of %s %s fortran=%s: %d %r"
              % (a.shape, a.dtype, np.isfortran(a), r.returncode, r.stderr))
    # a 0-d reference has no first dimension
    s0 = save("s0.npy", np.float64(1.5))
    spec0 = run("schema", s0).stdout.decode().rstrip("\n")
    check(spec0 == "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", "schema of a 0-d array: %r" % spec0)

shutil.rmtree(tmp)
print("verify: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PYEOF

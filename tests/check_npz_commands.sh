#!/bin/sh
# dump, check, cstruct and swap on .npz archives (tests/fixtures_npz):
# every member dumps byte for byte as the same array saved alone; damaged
# archives are refused with exit 3 and nothing on stdout; check reports
# members with a "member" key, and damaged ones with an error object; cstruct on a whole archive compiles; swap
# writes archives that round-trip, that NumPy loads as the original values
# and that are byte for byte what np.savez / np.savez_compressed write for
# the swapped arrays. The NumPy parts print a SKIP line when NumPy is
# missing. Prints "npz-commands: N passed, M failed".
NPYDT=${NPYDT:-build/npydt}
PY=${PYTHON:-/usr/bin/python3}
D=tests/fixtures_npz
if [ ! -x "$NPYDT" ]; then
    echo "SKIP: npz-commands: $NPYDT is not built"
    exit 0
fi
if [ ! -x "$PY" ]; then
    PY=$(command -v python3 || true)
fi
if [ -z "$PY" ]; then
    echo "SKIP: npz-commands: no python3"
    exit 0
fi
"$PY" - "$NPYDT" "$D" <<'PYEOF'
import glob, hashlib, io, json, os, re, resource, shlex, shutil, subprocess, sys, tempfile, zipfile
npydt, d = sys.argv[1], sys.argv[2]
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
        print("npz commands:", what)

def run(*args):
    return subprocess.run([npydt] + list(args), capture_output=True)

def refused(r, status, what, path=None):
    ok = r.returncode == status and r.stdout == b"" and r.stderr != b""
    if ok and path is not None:
        ok = r.stderr.startswith(path.encode())
    check(ok, "%s: exit %d (want %d), %d bytes on stdout, stderr %r"
          % (what, r.returncode, status, len(r.stdout), r.stderr[:200]))

tmp = tempfile.mkdtemp()
alone = sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "alone", "*.npy")))
ARCHIVES = ["savez.npz", "savez_compressed.npz", "savez_zip64.npz", "savez_stream.npz", "comment.npz"]

# ---- dump ----------------------------------------------------------------------
for arc in ARCHIVES:
    a = os.path.join(d, arc)
    for m in alone:
        single = os.path.join(d, "alone", m)
        for opts in (["--head", "2"], ["--head", "0"], []):
            r = run("dump", "--jsonl", *opts, a + ":" + m)
            s = run("dump", "--jsonl", *opts, single)
            check(r.returncode == 0 and r.stdout == s.stdout and s.returncode == 0,
                  "dump --jsonl %s %s:%s differs from %s" % (" ".join(opts), arc, m, single))
        # the name without .npy (s: all of the member); a table naming the member
        r = run("dump", "--jsonl", a + ":" + m[:-4])
        check(r.returncode == 0 and r.stdout == s.stdout, "dump --jsonl %s:%s" % (arc, m[:-4]))
        r = run("dump", a + ":" + m)
        s = run("dump", single)
        want = s.stdout.replace(single.encode() + b": ", (a + ":" + m).encode() + b": ", 1)
        check(r.returncode == 0 and r.stdout == want, "dump (table) %s:%s" % (arc, m))
    # the whole archive: each member's table in turn, a blank line between
    r = run("dump", a)
    tables = []
    with zipfile.ZipFile(a) as z:
        order = [i.filename for i in z.infolist()]
    for m in order:
        single = os.path.join(d, "alone", m)
        s = run("dump", single).stdout
        tables.append(s.replace(single.encode() + b": ", (a + ":" + m).encode() + b": ", 1))
    check(r.returncode == 0 and r.stdout == b"\n".join(tables), "dump %s: not the tables of its members" % arc)
    # --jsonl needs one array
    r = run("dump", "--jsonl", a)
    refused(r, 2, "dump --jsonl on a whole archive")
    check(b":NAME" in r.stderr, "dump --jsonl on a whole archive: the message does not say ARCHIVE:NAME")
r = run("dump", "--jsonl", os.path.join(d, "empty.npz"))
refused(r, 2, "dump --jsonl on an empty archive")
r = run("dump", os.path.join(d, "empty.npz"))
check(r.returncode == 0 and r.stdout == b"", "dump of an empty archive prints nothing, exit 0")
r = run("dump", os.path.join(d, "savez.npz") + ":nosuch")
refused(r, 2, "dump of a missing member")
r = run("dump", "--fields", "id", os.path.join(d, "savez.npz"))
refused(r, 2, "dump --fields of a field some members lack (a usage error, as for a .npy)")
r = run("dump", "--fields", "pos.x,id", "--jsonl", os.path.join(d, "savez_compressed.npz") + ":records")
s = run("dump", "--fields", "pos.x,id", "--jsonl", os.path.join(d, "alone", "records.npy"))
check(r.returncode == 0 and r.stdout == s.stdout, "dump --fields of a member")

bad = sorted(glob.glob(os.path.join(d, "bad", "*.npz")))
for b in bad:
    refused(run("dump", b), 3, "dump of damaged %s" % b, b)
    refused(run("dump", "--head", "1", b), 3, "dump --head 1 of damaged %s" % b, b)
# data damage behind a valid directory is found before anything is printed
for b, m in [("crc_stored.npz", "ints.npy"), ("crc_deflated.npz", "a.npy"), ("size_long.npz", "a.npy"),
             ("size_short_bomb.npz", "a.npy"), ("deflate_cut.npz", "a.npy"), ("corrupt_data.npz", "a.npy")]:
    p = os.path.join(d, "bad", b)
    refused(run("dump", "--jsonl", "--head", "1", p + ":" + m), 3, "dump --head 1 %s:%s" % (b, m), p)

# --head on a 100 MiB deflated member: streamed, never held whole
def max_rss_kib(args):
    """Run args; its exit status, stdout and peak resident set (KiB)."""
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen(args, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return p.returncode, out.read(), usage.ru_maxrss
z100 = os.path.join(d, "zeros_100m.npz")
rc, out, rss = max_rss_kib([npydt, "dump", "--jsonl", "--head", "3", z100 + ":zeros"])
check(rc == 0 and out == b"0.0\n0.0\n0.0\n", "dump --head 3 of zeros_100m")
check(rss < 64 * 1024, "dump --head 3 of a 100 MiB member used %d KiB" % rss)

# ---- check ------------------------------------------------------------------------
for arc in ["savez.npz", "savez_compressed.npz"]:
    a = os.path.join(d, arc)
    r = run("check", "--schema", "'<i8'", "--json", a)
    objs = [json.loads(l) for l in r.stdout.splitlines()]
    check(r.returncode == 1 and len(objs) == len(alone), "check --json %s: exit %d, %d objects" % (arc, r.returncode, len(objs)))
    for o in objs:
        m = o.get("member")
        check(o.get("file") == a and m in alone and list(o)[:2] == ["file", "member"],
              "check --json %s: file/member keys %r" % (arc, list(o)[:3]))
        s = run("check", "--schema", "'<i8'", "--json", os.path.join(d, "alone", m))
        so = json.loads(s.stdout)
        check(o["match"] == so["match"] and o["mismatches"] == so["mismatches"],
              "check %s:%s differs from the member saved alone" % (arc, m))
        # stderr lines name ARCHIVE:MEMBER
    check(all(l.startswith(a.encode() + b":") for l in r.stderr.splitlines()), "check: stderr lines name the member")
    r = run("check", "--schema", "'<i8'", "--json", a + ":ints")
    check(r.returncode == 0 and json.loads(r.stdout) == {"file": a, "member": "ints.npy", "match": True, "mismatches": [], "mismatches_total": 0, "verified": "crc32", "trailing_bytes": 0},
          "check ARCHIVE:ints: %r" % r.stdout)
    r = run("check", "--schema", "'<i8'", a + ":ints", os.path.join(d, "alone", "ints.npy"))
    check(r.returncode == 0 and r.stdout == b"", "check of a member and a file")
for b in bad:
    r = run("check", "--schema", "'<i8'", "--json", b)
    # damage check does not read (data, CRCs) leaves a mismatch (1); one in
    # the directory or a header is 3, with its error object in the report
    if r.returncode != 0:
        objs = [json.loads(l) for l in r.stdout.splitlines()]
        check((r.returncode == 3) == any("error" in o for o in objs) and r.returncode in (1, 3)
              and objs and all(o["file"] == b for o in objs), "check %s: exit %d %r" % (b, r.returncode, objs))

# ---- cstruct ---------------------------------------------------------------------
# the declarations are for the machine the command runs on: under an
# emulator (EXEC) that is $CC's target, else the host's gcc and clang
if os.environ.get("EXEC"):
    ccs = [os.environ["CC"]]
else:
    ccs = [c for c in ("gcc", "clang") if shutil.which(c)]
def compiles(text, what):
    h = os.path.join(tmp, "decl.h")
    with open(h, "wb") as f:
        f.write(text)
    c = os.path.join(tmp, "decl.c")
    with open(c, "w") as f:
        f.write('#include "decl.h"\nint main(void) { return 0; }\n')
    for cc in ccs:
        r = subprocess.run(shlex.split(cc) + ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-fsyntax-only", c],
                           capture_output=True)
        check(r.returncode == 0, "%s: %s: %s" % (what, cc, r.stderr[:400]))
for arc in ["savez.npz", "savez_compressed.npz", "names.npz"]:
    a = os.path.join(d, arc)
    r = run("cstruct", a)
    check(r.returncode == 0, "cstruct %s: exit %d %r" % (arc, r.returncode, r.stderr[:200]))
    tags = re.findall(rb"^struct (\w+) \{$", r.stdout, re.M)
    check(len(tags) == len(set(tags)), "cstruct %s: a struct tag twice" % arc)
    with zipfile.ZipFile(a) as z:
        n = len(z.infolist())
    check(len(re.findall(rb"^#define \w+_ITEMSIZE ", r.stdout, re.M)) == n, "cstruct %s: not one root per member" % arc)
    compiles(r.stdout, "cstruct " + arc)
r = run("cstruct", "--name", "rec", os.path.join(d, "savez.npz"))
check(b"struct rec_records {" in r.stdout and b"struct rec_records_pos {" in r.stdout, "cstruct --name on an archive")
r = run("cstruct", os.path.join(d, "savez_compressed.npz") + ":records")
s = run("cstruct", os.path.join(d, "alone", "records.npy"))
body = lambda t: t[t.index(b" */\n") :]
check(r.returncode == 0 and body(r.stdout) == body(s.stdout) and b"of the member" in r.stdout,
      "cstruct ARCHIVE:NAME differs from the member saved alone")
for b in bad:
    r = run("cstruct", b)
    if r.returncode != 0:
        check(r.stdout == b"", "cstruct %s printed on failure" % b)

# ---- swap --------------------------------------------------------------------------
def members(path):
    with zipfile.ZipFile(path) as z:
        return [(i.filename, i.compress_type, z.read(i.filename)) for i in z.infolist()]

def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()

def little_only(npy_bytes):
    """True when no scalar of the header's descr is big-endian."""
    hl = npy_bytes[8] | npy_bytes[9] << 8 if npy_bytes[6] == 1 else int.from_bytes(npy_bytes[8:12], "little")
    start = 10 if npy_bytes[6] == 1 else 12
    return b"'>" not in npy_bytes[start:start + hl]

for arc in ["savez.npz", "savez_compressed.npz", "savez_stream.npz", "savez_zip64.npz", "names.npz", "empty.npz", "comment.npz"]:
    a = os.path.join(d, arc)
    before = sha(a)
    orig = members(a)
    for order in ["big", "little"]:
        out = os.path.join(tmp, "%s.%s.npz" % (arc, order))
        r = run("swap", a, "--to", order, "-o", out)
        check(r.returncode == 0 and r.stdout == b"", "swap %s --to %s: exit %d %r" % (arc, order, r.returncode, r.stderr[:200]))
        got = members(out)
        check([(n, c) for n, c, _ in got] == [(n, c) for n, c, _ in orig], "swap %s --to %s: names or methods changed" % (arc, order))
        # each member is what swapping the array saved alone gives
        for n, _, data in got:
            single = os.path.join(d, "alone", n)
            if not os.path.exists(single):
                continue
            o1 = os.path.join(tmp, "one.npy")
            run("swap", single, "--to", order, "-o", o1)
            with open(o1, "rb") as f:
                check(f.read() == data, "swap %s --to %s: member %s differs from the .npy swap" % (arc, order, n))
    # big, then back to little: little-endian members come back byte for byte
    big = os.path.join(tmp, "%s.big.npz" % arc)
    back = os.path.join(tmp, "%s.back.npz" % arc)
    r = run("swap", big, "--to", "little", "-o", back)
    check(r.returncode == 0, "swap back %s" % arc)
    for (n, c, data), (n2, c2, data2) in zip(orig, members(back)):
        if little_only(data):
            check(data == data2, "swap %s big then little: %s changed" % (arc, n))
    check(sha(a) == before, "swap modified its input %s" % arc)

# refusals: a member, OUT == FILE, damaged input, nothing left behind
out = os.path.join(tmp, "refused.npz")
refused(run("swap", os.path.join(d, "savez.npz") + ":ints", "--to", "big", "-o", out), 2, "swap ARCHIVE:NAME")
check(not os.path.exists(out), "swap ARCHIVE:NAME wrote OUT")
cp = os.path.join(tmp, "copy.npz")
shutil.copy(os.path.join(d, "savez_compressed.npz"), cp)
refused(run("swap", cp, "--to", "big", "-o", cp), 2, "swap OUT == FILE")
for b in ["crc_stored.npz", "crc_deflated.npz", "size_long.npz", "corrupt_data.npz", "short_member.npz", "duplicate.npz", "truncated_cd.npz"]:
    p = os.path.join(d, "bad", b)
    with open(out, "wb") as f:
        f.write(b"keep me")
    refused(run("swap", p, "--to", "big", "-o", out), 3, "swap of damaged %s" % b, p)
    with open(out, "rb") as f:
        check(f.read() == b"keep me", "swap of damaged %s touched OUT" % b)
check([f for f in os.listdir(tmp) if f.endswith(".tmp")] == [], "swap left temporary files: %r" % os.listdir(tmp))
# --in-place replaces the archive atomically: a new inode, the new content
ino = os.stat(cp).st_ino
r = run("swap", cp, "--to", "big", "--in-place")
check(r.returncode == 0 and os.stat(cp).st_ino != ino, "swap --in-place of an archive")
with open(os.path.join(tmp, "savez_compressed.npz.big.npz"), "rb") as f, open(cp, "rb") as g:
    check(f.read() == g.read(), "swap --in-place differs from swap -o")
# a 100 MiB deflated member is streamed through a bounded buffer
rc, _, rss = max_rss_kib([npydt, "swap", z100, "--to", "big", "-o", os.path.join(tmp, "z.npz")])
check(rc == 0 and rss < 64 * 1024, "swap of zeros_100m: exit %d, %d KiB" % (rc, rss))

# ---- against NumPy -------------------------------------------------------------------
if np is None:
    print("SKIP: npz-commands: NumPy parts (no NumPy in %s)" % sys.executable)
else:
    def swapped(x, order):
        """x with every scalar in order, padding zero (as np.zeros)."""
        y = np.zeros(x.shape, dtype=x.dtype.newbyteorder(order),
                     order="F" if x.flags.f_contiguous and not x.flags.c_contiguous else "C")
        y[...] = x
        return y
    def equal(x, y):
        if x.dtype.names:
            return x.shape == y.shape and all(equal(x[n], y[n]) for n in x.dtype.names)
        if x.dtype.kind in "Mm":
            return x.shape == y.shape and np.array_equal(x.astype("<i8"), y.astype("<i8"))
        return x.shape == y.shape and np.array_equal(x, y, equal_nan=x.dtype.kind in "fc")
    for arc, save in [("savez.npz", np.savez), ("savez_compressed.npz", np.savez_compressed),
                      ("savez_stream.npz", np.savez_compressed), ("savez_zip64.npz", np.savez),
                      ("names.npz", np.savez), ("empty.npz", np.savez)]:
        src = np.load(os.path.join(d, arc))
        for order, bo in [("big", ">"), ("little", "<")]:
            out = os.path.join(tmp, "%s.%s.npz" % (arc, order))
            got = np.load(out)
            check(got.files == src.files, "NumPy: %s --to %s: keys" % (arc, order))
            arrays = {}
            for k in src.files:
                x, y = src[k], got[k]
                arrays[k] = swapped(x, bo)
                check(y.dtype == arrays[k].dtype, "NumPy: %s --to %s: %s dtype %s" % (arc, order, k, y.dtype))
                check(equal(x, y), "NumPy: %s --to %s: %s values differ" % (arc, order, k))
            buf = io.BytesIO()
            save(buf, **arrays)
            with open(out, "rb") as f:
                check(f.read() == buf.getvalue(), "NumPy: swap %s --to %s is not byte for byte what %s writes"
                      % (arc, order, save.__name__))
    # an object member: nothing is written, OUT is left alone
    obj = os.path.join(tmp, "object.npz")
    np.savez(obj, a=np.arange(3), o=np.array([1, "x", None], dtype=object))
    with open(out, "wb") as f:
        f.write(b"keep me")
    refused(run("swap", obj, "--to", "big", "-o", out), 3, "swap of an archive with an object member", obj)
    with open(out, "rb") as f:
        check(f.read() == b"keep me", "swap with an object member touched OUT")
    refused(run("dump", obj), 3, "dump of an archive with an object member")
    r = run("dump", "--jsonl", obj + ":a")
    check(r.returncode == 0 and r.stdout == b"0\n1\n2\n", "dump of the plain member next to an object one")
    # Fortran order in a deflated member, dumped in C order
    f3 = np.asfortranarray(np.arange(60, dtype=">i4").reshape(3, 4, 5))
    fz = os.path.join(tmp, "fortran.npz")
    np.savez_compressed(fz, f=f3)
    r = run("dump", "--jsonl", fz + ":f")
    check(r.returncode == 0 and [int(v) for v in r.stdout.split()] == list(range(60)), "dump of a deflated Fortran member")
    # cstruct names that would clash are made distinct, and compile
    dt = np.dtype([("b", [("c", "<i4")]), ("z", "<f8")])
    cz = os.path.join(tmp, "clash.npz")
    np.savez(cz, **{"a": np.zeros(2, dt), "a_b": np.zeros(2, "<i4"), "X": np.zeros(1, "<i2"),
                    "x": np.zeros(1, "<i8"), "a-b": np.zeros(1, "u1"), "MAX": np.zeros(1, "u1")})
    r = run("cstruct", "--name", "INT8", cz)
    check(r.returncode == 0, "cstruct of clashing names: exit %d" % r.returncode)
    compiles(r.stdout, "cstruct of clashing names")

# ---- pack: an array of empty elements, an archive given whole, no OUT ---------------
if np is not None:
    e0 = os.path.join(tmp, "empty_elements.npy")
    np.save(e0, np.zeros(3, dtype=[]))
    ref = os.path.join(tmp, "empty_elements_ref.npz")
    np.savez(ref, e=np.zeros(3, dtype=[]))
    out = os.path.join(tmp, "empty_elements.npz")
    r = run("pack", out, "e=" + e0)
    check(r.returncode == 0 and open(out, "rb").read() == open(ref, "rb").read(),
          "pack of 3 elements of 0 bytes is np.savez's archive: exit %d %r" % (r.returncode, r.stderr))
many = os.path.join(d, "savez.npz")
out = os.path.join(tmp, "whole.npz")
r = run("pack", out, many)
check(r.returncode == 2 and r.stdout == b"" and not os.path.exists(out) and r.stderr ==
      ("npydt: pack: '%s' holds 11 arrays: name one as '%s:NAME'\nTry 'npydt pack --help'.\n" % (many, many)).encode(),
      "pack of a whole archive: exit %d %r" % (r.returncode, r.stderr))
r = run("pack")
check(r.returncode == 2 and r.stdout == b"" and
      r.stderr == b"npydt: pack: OUT.npz is required\nTry 'npydt pack --help'.\n",
      "pack without OUT: exit %d %r" % (r.returncode, r.stderr))

# ---- member names the writers refuse ----------------------------------------------
# pack (and swap) refuse absolute names, drives, directories and control
# characters, naming the member; the readers read archives holding them,
# as NumPy does, and the text output shows control characters escaped
one = os.path.join(d, "alone", alone[0])
out = os.path.join(tmp, "names_out.npz")
for name, why in [("/etc/x", "absolute"), ("/", "absolute"), ("C:\\x", "a drive"),
                  ("a\x1b]0;t\x07", "a control character"), ("a\nb", "a control character")]:
    r = run("pack", out, name + "=" + one)
    refused(r, 2, "pack of the member name %r" % name, one)
    shown = (name + ".npy").encode().replace(b"\\", b"\\x5c").replace(b"\x1b", b"\\x1b")
    shown = shown.replace(b"\x07", b"\\x07").replace(b"\n", b"\\x0a")
    check(b"member '" + shown + b"': the name " in r.stderr and why.encode() in r.stderr,
          "pack of the member name %r: %r" % (name, r.stderr))
    check(not os.path.exists(out), "pack of the member name %r wrote OUT" % name)
hostile = os.path.join(tmp, "hostile.npz")
with open(one, "rb") as f:
    payload = f.read()
names = ["/etc/x.npy", "C:\\x.npy", "a\x1b]0;t\x07.npy", "b\nforged.npy", "/"]
with zipfile.ZipFile(hostile, "w") as z:
    for n in names:
        z.writestr(n, payload)
r = run("inspect", hostile)
heads = [l for l in r.stdout.split(b"\n") if l.startswith(hostile.encode() + b":")]
check(r.returncode == 0 and heads == [hostile.encode() + b":" + n for n in
      [b"/etc/x.npy", b"C:\\x.npy", b"a\\x1b]0;t\\a.npy", b"b\\nforged.npy", b"/"]],
      "inspect of unsafe member names: exit %d, %r" % (r.returncode, heads))
r = run("dump", hostile)
check(r.returncode == 0 and b"\x1b" not in r.stdout and b"\x07" not in r.stdout and
      b"a\\x1b]0;t\\a.npy: shape (" in r.stdout and b"b\\nforged.npy: shape (" in r.stdout,
      "dump of unsafe member names: exit %d" % r.returncode)
r = run("inspect", "--json", hostile)
check(r.returncode == 0 and [json.loads(l)["member"] for l in r.stdout.splitlines()] == names,
      "inspect --json of unsafe member names keeps them whole")
r = run("swap", hostile, "--to", "big", "-o", out)
refused(r, 3, "swap of an archive with an absolute member name", hostile)
check(b"member '/etc/x.npy': the name is absolute" in r.stderr and not os.path.exists(out),
      "swap of an archive with an absolute member name: %r" % r.stderr)

shutil.rmtree(tmp)
print("npz-commands: %d passed, %d failed" % (passed, failed))
PYEOF

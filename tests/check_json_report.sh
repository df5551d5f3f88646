#!/bin/sh
# The --json report covers every input, and the exit status tells what the
# worst input was (doc/cli-json.md): inspect --json and check --json give
# each input one object, in argument order, an error object with the
# library's status name and header offset for each that cannot be read or
# is not valid (an empty file, a truncated header, truncated data, a
# corrupt header, a text file, a truncated archive, a missing path, a
# member that is not an array, a missing member); the status is 0 success,
# 1 a check mismatch, 2 an unreadable path, 3 an invalid input, the
# highest winning. The inputs are written here byte by byte: no NumPy.
# Prints "json-report: N passed, M failed".
PY=${PYTHON:-/usr/bin/python3}
NPYDT=${NPYDT:-build/npydt}
exec "$PY" - "$NPYDT" <<'PYEOF'
import json, os, shutil, struct, subprocess, sys, tempfile, zipfile

npydt = sys.argv[1]
passed = failed = 0


def check(ok, what):
    global passed, failed
    passed += bool(ok)
    failed += not ok
    if not ok:
        print("json-report:", what)


def npy(header, data=b""):
    """A version 1.0 file: magic, header padded as np.save pads it, data."""
    h = header.encode() + b" "
    h += b" " * ((-(10 + len(h) + 1)) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + data


def run(*args):
    return subprocess.run([npydt] + list(args), capture_output=True, timeout=60)


tmp = tempfile.mkdtemp()
try:
    def put(name, data):
        p = os.path.join(tmp, name)
        with open(p, "wb") as f:
            f.write(data)
        return p

    F8 = "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }"
    good = put("good.npy", npy(F8, struct.pack("<3d", 1, 2, 3)))
    other = put("other.npy", npy(F8.replace("<f8", "<i4"), struct.pack("<3i", 1, 2, 3)))
    full = npy(F8, struct.pack("<3d", 1, 2, 3))
    corrupt_at = full.index(b"'descr':") + 7 - 10      # the ':' after 'descr', in the header
    corrupt = bytearray(full)
    corrupt[10 + corrupt_at] = ord("?")
    objects = npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", b"\0" * 8)
    member_ok = npy(F8, struct.pack("<3d", 4, 5, 6))
    arc = os.path.join(tmp, "mixed.npz")
    with zipfile.ZipFile(arc, "w") as z:
        z.writestr("a.npy", member_ok)
        z.writestr("notes.txt", b"not an array\n")
    whole = os.path.join(tmp, "whole.npz")
    with zipfile.ZipFile(whole, "w") as z:
        z.writestr("a.npy", member_ok)
    with open(whole, "rb") as f:
        zbytes = f.read()
    bad = {   # name: (path, status name, offset)
        "empty": (put("empty.npy", b""), "truncated", None),
        "truncated header": (put("short_header.npy", full[:40]), "truncated", 30),
        "truncated data": (put("short_data.npy", full[:-4]), "data too short", None),
        "corrupt header": (put("corrupt.npy", bytes(corrupt)), "syntax error", corrupt_at),
        "text file": (put("text.npy", b"id,x\n1,2.5\n"), "bad magic", None),
        "truncated archive": (put("cut.npz", zbytes[:-30]), "bad archive", None),
    }
    missing = os.path.join(tmp, "missing.npy")
    SPEC = "'<f8'"

    def error_of(o):
        e = o.get("error")
        return None if e is None else (e["status"], e["offset"])

    # each kind of bad input, alone and between good files: one error object
    # with its status and offset, in its place; the others unchanged
    for what, (path, status, offset) in bad.items():
        for cmd in (["inspect", "--json"], ["check", "--json", "--schema", SPEC]):
            r = run(*cmd, path)
            lines = r.stdout.decode().splitlines()
            o = json.loads(lines[0]) if len(lines) == 1 else {}
            e = o.get("error", {})
            check(r.returncode == 3 and o.get("file") == path and set(o) == {"file", "error"}
                  and set(e) == {"status", "message", "offset"} and e["status"] == status
                  and e["offset"] == offset and e["message"]
                  and r.stderr.decode().startswith(path + ": " + status + ": "),
                  "%s: %s alone: exit %d, %r" % (what, cmd[0], r.returncode, r.stdout[:300]))
            r = run(*cmd, good, path, good)
            objs = [json.loads(l) for l in r.stdout.splitlines()]
            check(r.returncode == 3 and [o["file"] for o in objs] == [good, path, good]
                  and [error_of(o) for o in objs] == [None, (status, offset), None]
                  and len(r.stderr.splitlines()) == 1,
                  "%s: %s between good files: exit %d, %r" % (what, cmd[0], r.returncode, objs))

    # a missing path: its error object too, and status 2
    for cmd in (["inspect", "--json"], ["check", "--json", "--schema", SPEC]):
        r = run(*cmd, good, missing)
        objs = [json.loads(l) for l in r.stdout.splitlines()]
        check(r.returncode == 2 and [o["file"] for o in objs] == [good, missing]
              and [error_of(o) for o in objs] == [None, ("i/o error", None)],
              "missing path: %s: exit %d, %r" % (cmd[0], r.returncode, objs))

    # every kind at once, in argument order: one object each
    paths = [good] + [p for p, _, _ in bad.values()] + [missing, other]
    want = [None] + [(s, o) for _, s, o in bad.values()] + [("i/o error", None), None]
    for cmd in (["inspect", "--json"], ["check", "--json", "--schema", SPEC]):
        r = run(*cmd, *paths)
        objs = [json.loads(l) for l in r.stdout.splitlines()]
        check(r.returncode == 3 and [o["file"] for o in objs] == paths
              and [error_of(o) for o in objs] == want
              and len(r.stderr.splitlines()) == len(bad) + 1 + (cmd[0] == "check"),
              "all inputs: %s: exit %d, %r" % (cmd[0], r.returncode, objs))

    # archive members: an error object naming archive and member, in the
    # archive's order; a missing member is a usage error with its object
    for cmd in (["inspect", "--json"], ["check", "--json", "--schema", SPEC]):
        r = run(*cmd, arc, arc + ":nosuch")
        objs = [json.loads(l) for l in r.stdout.splitlines()]
        keys = [(o["file"], o.get("archive"), o.get("member"), error_of(o)) for o in objs]
        check(r.returncode == 3 and keys[1:] == [(arc, arc, "notes.txt", ("bad magic", None)),
                                                 (arc + ":nosuch", None, None, ("not found", None))]
              and keys[0][2] == "a.npy" and keys[0][3] is None,
              "archive members: %s: exit %d, %r" % (cmd[0], r.returncode, keys))

    # the status is the highest: 3 over 2 over 1 over 0
    for files, status in (([good], 0), ([good, other], 1), ([good, missing], 2),
                          ([good, other, missing], 2), ([good, other, bad["corrupt header"][0]], 3),
                          ([missing, bad["empty"][0]], 3), ([bad["empty"][0], missing, other], 3)):
        for json_flag in ([], ["--json"]):
            r = run("check", *json_flag, "--schema", SPEC, *files)
            n = len(r.stdout.splitlines())
            check(r.returncode == status and n == (len(files) if json_flag else 0),
                  "check %s %s: exit %d (want %d), %d objects"
                  % (" ".join(json_flag), [os.path.basename(f) for f in files], r.returncode, status, n))
    for files, status in (([good], 0), ([good, other], 0), ([good, missing], 2),
                          ([good, bad["text file"][0]], 3), ([bad["text file"][0], missing], 3)):
        r = run("inspect", "--json", *files)
        check(r.returncode == status and len(r.stdout.splitlines()) == len(files),
              "inspect --json %s: exit %d (want %d)" % ([os.path.basename(f) for f in files],
                                                        r.returncode, status))

    # an object array is a valid file (inspect, check) that cannot be dumped (3)
    objpath = put("objects.npy", objects)
    r = run("inspect", "--json", objpath)
    check(r.returncode == 0 and json.loads(r.stdout)["dtype"]["kind"] == "O", "inspect of an object array")
    r = run("check", "--json", "--schema", SPEC, objpath)
    check(r.returncode == 1 and json.loads(r.stdout)["match"] is False, "check of an object array")
    r = run("dump", "--jsonl", objpath)
    check(r.returncode == 3 and r.stdout == b"" and b": object dtype: " in r.stderr,
          "dump of an object array: exit %d %r" % (r.returncode, r.stderr))
    # the other commands: an invalid input is 3 for them too
    out = os.path.join(tmp, "out.npy")
    for cmd in (["dump", "--jsonl"], ["cstruct"], ["schema"], ["swap", "--to", "big", "-o", out]):
        r = run(*cmd[:1], bad["corrupt header"][0], *cmd[1:])
        check(r.returncode == 3 and r.stdout == b"" and not os.path.exists(out),
              "%s of a corrupt file: exit %d" % (cmd[0], r.returncode))
finally:
    shutil.rmtree(tmp)
print("json-report: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PYEOF

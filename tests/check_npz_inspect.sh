#!/bin/sh
# Archive members inspect exactly as the same arrays saved alone with
# np.save (tests/fixtures_npz/alone), apart from the added "member" key;
# archives damaged in their container are refused with exit 3, and --json
# reports each with an error object.
NPYDT=${NPYDT:-build/npydt}
PY=${PYTHON:-/usr/bin/python3}
D=tests/fixtures_npz
"$PY" - "$NPYDT" "$D" <<'PYEOF'
import glob, json, os, subprocess, sys
npydt, d = sys.argv[1], sys.argv[2]
passed = failed = 0
def check(ok, what):
    global passed, failed
    passed += ok
    failed += not ok
    if not ok:
        print("npz inspect:", what)
for arc in ["savez.npz", "savez_compressed.npz", "savez_stream.npz", "savez_zip64.npz", "comment.npz"]:
    r = subprocess.run([npydt, "inspect", "--json", os.path.join(d, arc)], capture_output=True)
    check(r.returncode == 0, "%s: exit %d %s" % (arc, r.returncode, r.stderr[:200]))
    objs = [json.loads(l) for l in r.stdout.splitlines()]
    check(len(objs) == len(glob.glob(os.path.join(d, "alone", "*.npy"))), "%s: member count" % arc)
    for o in objs:
        member = o.pop("member")
        check(o.pop("file") == o.pop("archive") == os.path.join(d, arc), "%s:%s: file and archive" % (arc, member))
        alone = os.path.join(d, "alone", member)
        a = subprocess.run([npydt, "inspect", "--json", alone], capture_output=True)
        a = json.loads(a.stdout) if a.returncode == 0 else {}
        check(a.pop("file", None) == alone and a == o, "%s:%s differs from %s" % (arc, member, alone))
    # one member by name, with and without .npy
    for name in ["records", "records.npy"]:
        r = subprocess.run([npydt, "inspect", "--json", os.path.join(d, arc) + ":" + name], capture_output=True)
        check(r.returncode == 0 and len(r.stdout.splitlines()) == 1 and json.loads(r.stdout)["member"] == "records.npy",
              "%s:%s" % (arc, name))
r = subprocess.run([npydt, "inspect", os.path.join(d, "savez.npz") + ":nosuch"], capture_output=True)
check(r.returncode == 2 and r.stdout == b"", "missing member must be a usage error")
r = subprocess.run([npydt, "inspect", "--json", os.path.join(d, "savez.npz") + ":nosuch"], capture_output=True)
check(r.returncode == 2 and json.loads(r.stdout)["error"]["status"] == "not found",
      "missing member: its error object")
refused = 0
for bad in sorted(glob.glob(os.path.join(d, "bad", "*.npz"))):
    r = subprocess.run([npydt, "inspect", "--json", bad], capture_output=True)
    # container damage is refused at open; data damage (CRC, lying data
    # sizes) needs the data and is refused by dump, not by inspect
    if r.returncode != 0:
        refused += 1
        objs = [json.loads(l) for l in r.stdout.splitlines()]
        errors = [o["error"]["status"] for o in objs if "error" in o]
        lines = r.stderr.decode().splitlines()
        check(r.returncode == 3 and r.stderr.startswith(bad.encode()) and all(o["file"] == bad for o in objs)
              and errors == [l[len(bad):].split(": ")[1] for l in lines],
              "bad %s: %d %r %r" % (bad, r.returncode, r.stderr[:100], objs))
check(refused >= 20, "only %d damaged archives refused" % refused)
# members that are not arrays (a text file, a pickle) get an error line
# each (and with --json an error object naming the member, in member
# order); the arrays next to them are still shown, and the status is 3
mixed = os.path.join(d, "mixed.npz")
for args in (["--json"], []):
    r = subprocess.run([npydt, "inspect"] + args + [mixed], capture_output=True)
    err = r.stderr.decode().splitlines()
    shown = ([(o["member"], o["archive"], o.get("error", {}).get("status"))
              for o in map(json.loads, r.stdout.splitlines())] if args
             else [l.split(":")[-1] for l in r.stdout.decode().splitlines() if l.startswith(mixed)])
    want = ([("ints.npy", mixed, None), ("scalar.npy", mixed, None), ("notes.txt", mixed, "bad magic"),
             ("pickled.pkl", mixed, "bad magic")] if args else ["ints.npy", "scalar.npy"])
    check(r.returncode == 3 and shown == want and len(err) == 2
          and err[0].startswith(mixed + ":notes.txt: bad magic: ")
          and err[1].startswith(mixed + ":pickled.pkl: bad magic: "),
          "mixed.npz %s: %d %r %r" % (args, r.returncode, shown, err))
print("npz-inspect: %d passed, %d failed" % (passed, failed))
PYEOF

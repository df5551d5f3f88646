#!/bin/sh
# Field and member names holding ESC, BEL, a line break (NumPy writes them
# as given) reach the text of inspect and of the dump table escaped as in
# error lines (\x1b, \a, \n): no terminal control, no forged line. The
# machine formats keep their contract: JSON, CSV and TSV give the names
# back exactly; an error's message, the library's text, is escaped in the
# JSON report as in the error line.
NPYDT=${NPYDT:-build/npydt}
PY=${PYTHON:-/usr/bin/python3}
if ! "$PY" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: text-escapes: NumPy not importable"
    exit 0
fi
exec "$PY" - "$NPYDT" <<'PYEOF'
import csv, io, json, os, shutil, subprocess, sys, tempfile
import numpy as np

npydt = sys.argv[1]
passed = failed = 0


def check(ok, what):
    global passed, failed
    passed += ok
    failed += not ok
    if not ok:
        print("text-escapes:", what)


def run(*args):
    r = subprocess.run([npydt] + list(args), capture_output=True, timeout=60)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode()


def no_controls(text):
    return not any(ord(c) < 0x20 and c != "\n" or ord(c) == 0x7f for c in text)


TITLE = "a\x1b]0;pwned\x07b"     # sets the terminal's title
LINE = "x\nindex  0"              # a line of its own
CLEAR = "t\x1b[2J"                # clears the screen
INNER = "in\x07ner"
d = tempfile.mkdtemp()
npy = os.path.join(d, "names.npy")
dt = np.dtype([(TITLE, "<i4"), (LINE, "u1"), (CLEAR, [(INNER, "u1")])])
np.save(npy, np.array([(1, 2, (3,)), (4, 5, (6,))], dt))
member = "m\x1b]0;T\x07\nfake line"
npz = os.path.join(d, "names.npz")
np.savez(npz, **{member: np.arange(2)})

# inspect: each leaf one row, names escaped
st, out, err = run("inspect", npy)
rows = out.split("\n")[6:-1]
check(st == 0 and no_controls(out) and len(rows) == 3 and
      rows[0].startswith("  a\\x1b]0;pwned\\ab ") and rows[1].startswith("  x\\nindex  0 ") and
      rows[2].startswith("  t\\x1b[2J.in\\aner "),
      "inspect of control-character field names: %r %r" % (out, err))

# dump's table: the header row one line, names escaped and aligned
st, out, err = run("dump", npy)
lines = out.split("\n")
check(st == 0 and no_controls(out) and len(lines) == 5 and
      lines[1] == "index  a\\x1b]0;pwned\\ab  x\\nindex  0  t\\x1b[2J" and
      lines[2] == '0      1                 2            {"in\\u0007ner":3}',
      "dump table of control-character field names: %r %r" % (out, err))

# an archive member's name, in inspect's and the table's first line
want = npz + ":m\\x1b]0;T\\a\\nfake line.npy"
for cmd in ("inspect", "dump"):
    st, out, err = run(cmd, npz)
    first = out.split("\n")[0]
    check(st == 0 and no_controls(out) and
          (first == want if cmd == "inspect" else first.startswith(want + ": shape (2,)")),
          "%s of a control-character member name: %r %r" % (cmd, out, err))

# the machine formats give the names back as they are
st, out, err = run("dump", "--jsonl", npy)
check(st == 0 and list(json.loads(out.split("\n")[0])) == [TITLE, LINE, CLEAR],
      "dump --jsonl keys: %r" % out)
st, out, err = run("inspect", "--json", npy)
check(st == 0 and [f["name"] for f in json.loads(out)["dtype"]["fields"]] == [TITLE, LINE, CLEAR],
      "inspect --json names: %r" % out)
st, out, err = run("inspect", "--json", npz)
check(st == 0 and json.loads(out)["member"] == member + ".npy", "inspect --json member: %r" % out)
st, out, err = run("dump", "--csv", npy)
check(st == 0 and next(csv.reader(io.StringIO(out))) == [TITLE, LINE, CLEAR + "." + INNER],
      "dump --csv header: %r" % out)
st, out, err = run("dump", "--tsv", npy)
check(st == 0 and out.split("\n")[0] == "\t".join([TITLE, "x\\nindex  0", CLEAR + "." + INNER]),
      "dump --tsv header: %r" % out)
# an error's message quotes a hostile type string escaped, in the error
# line and in the JSON report's error object alike (the library's text)
text = b"{'descr': [('x', '<f8\\x1b[2J\\n')], 'fortran_order': False, 'shape': (1,), }"
text += b" " * (117 - len(text)) + b"\n"
bad = os.path.join(d, "bad_type.npy")
with open(bad, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text)
st, out, err = run("inspect", "--json", bad)
message = json.loads(out)["error"]["message"] if out else None
check(st == 3 and message == "field x: data type '<f8\\x1b[2J\\n' not understood" and
      no_controls(err) and "<f8\\x1b[2J\\n" in err,
      "a hostile type string in an error: %r %r" % (out, err))
shutil.rmtree(d)
print("text-escapes: %d passed, %d failed" % (passed, failed))
PYEOF

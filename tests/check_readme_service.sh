#!/bin/sh
# The README's upload service (the C block after "### Serving uploads in
# C"), compiled with -Werror and fed through a pipe every file of the
# hostile corpus tests/fixtures/bad, and uploads made here: names with ESC
# sequences, BEL, line breaks and C1 controls, a type string holding a
# terminal escape, a header above the untrusted limit, an object dtype, a
# good file. Each upload gives exactly one log line, "accepted: ..." or
# "refused: ...", with no control byte, no C1 control or Unicode line
# break, and nothing that is not UTF-8; a hostile name appears escaped.
# A header refused while the sender still holds the pipe open is refused
# before any data arrives. Without NumPy the check prints a SKIP line.
# Prints "readme_service: N passed, M failed".
set -u
O=${O:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
if ! "$PYTHON" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: readme_service: $PYTHON cannot import numpy"
    exit 0
fi
ex=$(mktemp -d) || exit 2
trap 'rm -rf "$ex"' EXIT
awk '/^### Serving uploads in C/ {found = 1} found && /^```c$/ {on = 1; next}
     on && /^```$/ {exit} on' README.md >"$ex/service.c"
libs="$O/libnpydt.a ${LDFLAGS:-} -lz -lm"
[ -n "${SANITIZE:-}" ] && libs="$libs -fsanitize=$SANITIZE"
[ -n "${COVERAGE:-}" ] && libs="$libs --coverage"
# shellcheck disable=SC2086
if ! ${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude -o "$ex/service" \
        "$ex/service.c" $libs 2>"$ex/cc.log"; then
    echo "FAIL readme_service: the README's service example does not compile:"
    head -n 20 "$ex/cc.log"
    echo "readme_service: 0 passed, 1 failed"
    exit 1
fi
exec "$PYTHON" - "$ex" "${EXEC:-}" <<'PYEOF'
import glob, os, select, shlex, struct, subprocess, sys, warnings
import numpy as np

warnings.simplefilter("ignore")   # np.save's note on format 2.0

ex, run = sys.argv[1], shlex.split(sys.argv[2])
service = run + [os.path.join(ex, "service")]
passed = failed = 0


def check(ok, what):
    global passed, failed
    passed += ok
    failed += not ok
    if not ok:
        print("FAIL readme_service:", what)


def npy(header_text, data=b"", version=1):
    """A .npy of this header text (padded as np.save pads it) and data."""
    raw = header_text.encode("latin1" if version < 3 else "utf-8")
    pre = 10 if version == 1 else 12
    total = (pre + len(raw) + 1 + 63) // 64 * 64
    raw += b" " * (total - pre - len(raw) - 1) + b"\n"
    size = struct.pack("<H" if version == 1 else "<I", len(raw))
    return b"\x93NUMPY" + bytes([version, 0]) + size + raw + data


def saved(arr):
    path = os.path.join(ex, "saved.npy")
    np.save(path, arr, allow_pickle=True)
    with open(path, "rb") as f:
        return f.read()


def safe(line):
    """One line of UTF-8 text with no control, C1 control or line break."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any(ord(c) < 0x20 or ord(c) == 0x7f or 0x80 <= ord(c) <= 0x9f
                   or c in "\u2028\u2029" for c in text)


def serve(upload, name):
    r = subprocess.run(service, input=upload, capture_output=True, timeout=60)
    lines = r.stdout.split(b"\n")
    ok = (len(lines) == 2 and lines[1] == b"" and safe(lines[0]) and
          lines[0].startswith((b"accepted: ", b"refused: ")) and
          r.returncode == (0 if lines[0].startswith(b"accepted") else 1))
    check(ok, "%s: log %r, status %d, stderr %r" % (name, r.stdout[:300], r.returncode,
                                                     r.stderr[:300]))
    return lines[0].decode("utf-8", "replace")


# the hostile corpus
corpus = sorted(glob.glob("tests/fixtures/bad/*.npy"))
check(len(corpus) >= 50, "the corpus tests/fixtures/bad holds %d files" % len(corpus))
for path in corpus:
    with open(path, "rb") as f:
        serve(f.read(), path)

# names that set a terminal's title, ring, break lines, carry C1 controls
title = "a\x1b]0;pwned\x07b"
dt = np.dtype([(title, "<i4"), ("x\nfake line", "u1"), ("c1\x9b2J", "u1")])
log = serve(saved(np.zeros(3, dt)), "hostile names")
check(log == "accepted: 18 data bytes, 3 leaves, the first 'a\\x1b]0;pwned\\ab'", log)
# the same names in a header that fails: the message quotes them escaped
bad = "{'descr': [('%s', '<i4'), ('%s', '<i4')], 'fortran_order': False, 'shape': (1,), }"
log = serve(npy(bad % ("a\\x1b[2J\\n", "a\\x1b[2J\\n")), "a duplicate hostile name")
check(log == "refused: field name 'a\\x1b[2J\\n' already used as a name or title", log)
log = serve(npy("{'descr': [('x', '<f8\\x1b[2J\\n')], 'fortran_order': False, 'shape': (1,), }"),
            "a hostile type string")
check(log == "refused: x: data type '<f8\\x1b[2J\\n' not understood", log)
log = serve(npy("{'descr': [('y\\u2028', [('z\\x9b', 'q8')])], 'fortran_order': False, "
                "'shape': (1,), }", version=3), "hostile names in a path")
check(log == "refused: y\\u2028.z\\u009b: data type 'q8' not understood", log)
# limits and policy
big = np.dtype([("f%05d" % i, "u1") for i in range(20000)])
log = serve(saved(np.zeros(1, big)), "20,000 fields")
check(log.startswith("refused: header length ") and "above the limit of 65536" in log, log)
log = serve(saved(np.array([None, 1], dtype=object)), "an object dtype")
check(log == "refused: an object dtype (its data is a pickle)", log)
log = serve(npy("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000,), }"),
            "more data than the service takes")
check(log == "refused: more data than this service takes", log)
good = saved(np.arange(100000, dtype="<f8"))
log = serve(good, "a good upload")
check(log == "accepted: 800000 data bytes, 1 leaves, the first ''", log)
log = serve(good[:-1], "a good upload cut short")
check(log == "refused: the upload ends in its data", log)

# refused on its header while the sender holds the pipe open: no data read
sender = subprocess.Popen(service, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
sender.stdin.write(npy(bad % ("n", "n")))
sender.stdin.flush()
ready, _, _ = select.select([sender.stdout], [], [], 60)
out = sender.stdout.readline() if ready else b"(nothing: it waits for the data)"
check(out == b"refused: field name 'n' already used as a name or title\n",
      "a header refused before its data: %r" % out)
sender.stdin.close()
sender.kill()
sender.wait()

print("readme_service: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PYEOF

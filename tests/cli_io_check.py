#!/usr/bin/python3
"""The command's inputs and outputs beyond one plain file.

    python3 tests/cli_io_check.py NPYDT

- several FILEs: each readable one printed, an error line for each other,
  the status the highest of theirs;
- '-', /dev/stdin on a pipe, a FIFO (mkfifo) and a process substitution
  read .npy and .npz input for inspect, dump, check and cstruct exactly as
  the same file on disk; past the in-memory cap a clear error;
- a reader that closes the pipe early ends the output quietly (status 0,
  nothing on stderr);
- `npydt schema FILE` round trips through `check --schema` for every
  fixture, and `@FILE.npy` / `like:FILE` take a file's header as the spec;
- swap refuses destinations it cannot write before writing anything, and
  leaves a file already in the asked order untouched;
- swap and pack keep the mode of the file they replace (--in-place, -o,
  through a symbolic link), give a new file 0666 less the umask, and leave
  no temporary file;
- the progress line appears on a terminal (a pty) for large inputs, is
  erased, and never appears when stderr is a file or with --quiet.

Prints "cli-io: N passed, M failed".
"""

import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

NPYDT = sys.argv[1]
FIX = "tests/fixtures"
NPZ = "tests/fixtures_npz"
passed = failed = 0


def check(ok, what):
    global passed, failed
    passed += bool(ok)
    failed += not ok
    if not ok:
        print("cli-io:", what)


def run(args, stdin=None, **kw):
    return subprocess.run([NPYDT] + args, input=stdin, capture_output=True, timeout=120, **kw)


def without_file(out):
    """inspect --json lines with the keys naming the input removed."""
    objs = []
    for line in out.splitlines():
        o = json.loads(line)
        for k in ("file", "archive"):
            o.pop(k, None)
        objs.append(o)
    return objs


# ------------------------------------------------------------ many FILEs --

def test_many_files(tmp):
    good = os.path.join(FIX, "scalar_S5.npy")
    other = os.path.join(FIX, "struct_nested3.npy")
    missing = os.path.join(tmp, "missing.npy")
    bad = os.path.join(tmp, "bad.npy")
    with open(bad, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00\x04\x00{}  ")
    alone = {p: run(["inspect", p]).stdout for p in (good, other)}
    # a missing path (2) and an invalid file (3): both readable files are
    # still printed, in argument order, and the status is the highest, 3
    r = run(["inspect", good, missing, bad, other])
    err = r.stderr.decode().splitlines()
    check(r.returncode == 3 and r.stdout == alone[good] + alone[other] and len(err) == 2
          and err[0].startswith(missing + ": i/o error: ") and err[1].startswith(bad + ": "),
          "inspect good missing bad good: %d %r" % (r.returncode, err))
    r = run(["inspect", "--json", bad, good])
    rep = [json.loads(l) for l in r.stdout.splitlines()]
    check(r.returncode == 3 and [(o["file"], "error" in o) for o in rep] ==
          [(bad, True), (good, False)], "inspect --json bad good: %d" % r.returncode)
    # check: the same rule, and --json reports every file, the missing one
    # with its error
    r = run(["check", "--json", "--schema", "'|S5'", good, missing, other])
    rep = [json.loads(l) for l in r.stdout.splitlines()]
    check(r.returncode == 2 and [(o["file"], o.get("match"), o.get("error", {}).get("status"))
                                 for o in rep] ==
          [(good, True, None), (missing, None, "i/o error"), (other, False, None)],
          "check good missing other: %d %r" % (r.returncode, rep))


def test_member_suggestion():
    arc = os.path.join(NPZ, "savez.npz")
    for cmd in (["dump"], ["inspect", "--json"], ["check", "--schema", "'<f8'"], ["cstruct"]):
        r = run(cmd + [arc + ":record"])
        out = b"" if "--json" not in cmd else (
            b'{"file":"%s:record","error":{"status":"not found","message":"no member \'record\'",'
            b'"offset":null}}\n' % arc.encode())
        check(r.returncode == 2 and r.stdout == out and r.stderr.decode() ==
              "%s:record: not found: no member 'record' (did you mean 'records'?); members: ints, "
              "fortran, big_endian, records, aligned, empty, empty_records, scalar, ... (11 in all)\n"
              % arc, "%s ARCHIVE:record: %d %r" % (cmd, r.returncode, r.stderr))
    r = run(["dump", os.path.join(NPZ, "mixed.npz") + ":zzz"])
    check(r.returncode == 2 and r.stderr.decode().endswith(
        ":zzz: not found: no member 'zzz'; members: ints, scalar, notes.txt, pickled.pkl\n"),
        "no suggestion: %r" % r.stderr)


# -------------------------------------------------------------- pipes --

def feed_fifo(path, data):
    def writer():
        with open(path, "wb") as f:
            f.write(data)
    t = threading.Thread(target=writer)
    t.start()
    return t


def test_pipes(tmp):
    cases = [(os.path.join(FIX, "fortran_struct.npy"), "'<f8'"),
             (os.path.join(NPZ, "savez_compressed.npz"), "'<i8'")]
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    # the path bash gives a process substitution
    procsub = subprocess.run(["bash", "-c", "echo <(true)"], capture_output=True,
                             text=True).stdout.strip()
    for path, spec in cases:
        data = open(path, "rb").read()
        commands = [["inspect", "--json"], ["inspect"], ["cstruct"], ["dump"],
                    ["check", "--json", "--schema", spec]]
        if path.endswith(".npy"):
            commands.append(["dump", "--jsonl"])
        for cmd in commands:
            want = run(cmd + [path])
            for how in ("-", "/dev/stdin", fifo, procsub):
                if how == fifo:
                    t = feed_fifo(fifo, data)
                    got = run(cmd + [fifo])
                    t.join()
                elif how == procsub:
                    got = subprocess.run(
                        ["bash", "-c", 'n=$1; shift; exec "$n" "$@" <(cat "$0")', path, NPYDT]
                        + cmd, capture_output=True, timeout=120)
                else:
                    got = run(cmd + [how], stdin=data)
                ok = (got.returncode == want.returncode and
                      got.stdout == want.stdout.replace(path.encode(), how.encode()) and
                      got.stderr == want.stderr.replace(path.encode(), how.encode()))
                check(ok, "%s %s through %s: exit %d (want %d) %r" %
                      (" ".join(cmd), path, how, got.returncode, want.returncode, got.stderr[:200]))
    # ARCHIVE:NAME's member read from a pipe holding the whole archive
    data = open(os.path.join(NPZ, "savez.npz"), "rb").read()
    got = run(["dump", "--jsonl", "-"], stdin=data)
    check(got.returncode == 2 and b"holds 11" in got.stderr, "dump --jsonl of a piped archive")
    # an empty stream is a file too short to be one
    r = run(["inspect", "-"], stdin=b"")
    check(r.returncode == 3 and r.stderr.decode().startswith("-: truncated: "),
          "empty standard input: %d %r" % (r.returncode, r.stderr))
    # the in-memory cap of what a pipe gives that is read whole (an
    # archive, by its first bytes): a clear error, exit 2, nothing on stdout
    over = subprocess.Popen(["sh", "-c", "printf 'PK\\003\\004'; head -c %d /dev/zero" % (1 << 30)],
                            stdout=subprocess.PIPE)
    r = subprocess.run([NPYDT, "inspect", "-"], stdin=over.stdout, capture_output=True, timeout=300)
    over.stdout.close()
    over.wait()
    check(r.returncode == 2 and r.stdout == b"" and r.stderr.decode().startswith(
        "-: limit exceeded: an archive or an array read out of order on a pipe is read into "
        "memory, at most 1024 MiB"),
        "pipe over the cap: %d %r" % (r.returncode, r.stderr[:200]))
    # bytes that cannot start a .npy file are refused from the first ones,
    # however many follow
    zeros = subprocess.Popen(["head", "-c", str((1 << 30) + 1), "/dev/zero"], stdout=subprocess.PIPE)
    r = subprocess.run([NPYDT, "inspect", "-"], stdin=zeros.stdout, capture_output=True, timeout=300)
    zeros.stdout.close()
    zeros.wait()
    check(r.returncode == 3 and r.stderr.decode().startswith("-: bad magic: "),
          "a pipe of zeros: %d %r" % (r.returncode, r.stderr[:200]))
    # a FIFO nobody opens for writing is an error after a short wait, not a hang
    r = run(["inspect", fifo])
    check(r.returncode == 2 and r.stderr.decode() ==
          "%s: i/o error: no writer opened the FIFO within 2 seconds\n" % fifo,
          "unopened FIFO: %d %r" % (r.returncode, r.stderr))


# ------------------------------------------------------- closed pipes --

def test_closed_pipe():
    # the reader takes two lines and goes: no message, status 0
    for cmd in (["dump", "--jsonl", os.path.join(NPZ, "zeros_100m.npz")],
                ["dump", os.path.join(NPZ, "savez.npz")]):
        p = subprocess.Popen([NPYDT] + cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdout.readline()
        p.stdout.readline()
        p.stdout.close()
        err = p.stderr.read()
        rc = p.wait(timeout=120)
        check(rc == 0 and err == b"", "%s | head -2: exit %d, stderr %r" % (cmd, rc, err[:200]))
    # the same through a shell pipeline with pipefail
    r = subprocess.run(["bash", "-c", 'set -o pipefail; "$0" dump --jsonl "$1" | head -2 >/dev/null',
                        NPYDT, os.path.join(NPZ, "zeros_100m.npz")], capture_output=True, timeout=120)
    check(r.returncode == 0 and r.stderr == b"", "pipefail pipeline: %d %r" % (r.returncode, r.stderr))


# ------------------------------------------------------------- schema --

def numpy_dict(path, any_length=False):
    """The header dict as np.save writes it, from NumPy's reading of path;
    with any_length its first dimension -1 (npydt schema's default)."""
    import numpy as np
    with open(path, "rb") as f:
        version = np.lib.format.read_magic(f)
        shape, fortran, dt = np.lib.format._read_array_header(f, version, max_header_size=1 << 20)
    shape = tuple(shape)
    if any_length and shape:
        shape = (-1,) + shape[1:]
    return "{'descr': %s, 'fortran_order': %r, 'shape': %r, }" % (
        repr(np.lib.format.dtype_to_descr(dt)), fortran, shape)


def test_schema():
    files = sorted(e[:-len(".inspect.json")] + ".npy" for e in
                   glob.glob(os.path.join(FIX, "*.inspect.json")) +
                   glob.glob(os.path.join(FIX, "quirks", "*.inspect.json")))
    files += sorted(glob.glob(os.path.join(NPZ, "alone", "*.npy")))
    check(len(files) > 120, "only %d fixtures" % len(files))
    for f in files:
        r = run(["schema", f])
        spec = r.stdout.decode().rstrip("\n")
        check(r.returncode == 0 and spec == numpy_dict(f, any_length=True),
              "schema %s: %r, NumPy %r" % (f, spec[:120], numpy_dict(f, True)[:120]))
        r = run(["schema", "--exact-shape", f])
        exact = r.stdout.decode().rstrip("\n")
        check(r.returncode == 0 and exact == numpy_dict(f),
              "schema --exact-shape %s: %r, NumPy %r" % (f, exact[:120], numpy_dict(f)[:120]))
        for arg, strict in ((spec, []), (spec, ["--strict"]), (exact, ["--strict"]),
                            ("@" + f, []), ("like:" + f, ["--strict"])):
            c = run(["check"] + strict + ["--schema", arg, f])
            check(c.returncode == 0 and c.stderr == b"",
                  "check %s --schema %s %s: %d %r" % (strict, arg[:60], f, c.returncode, c.stderr[:200]))
    # the spec names the shape: another length is a mismatch
    a, b = os.path.join(FIX, "scalar_S5.npy"), os.path.join(NPZ, "alone", "ints.npy")
    c = run(["check", "--schema", "like:" + b, a])
    check(c.returncode == 1 and b"schema mismatch" in c.stderr, "like:other: %d" % c.returncode)
    # an archive member, standard input, a whole archive of several arrays
    member = os.path.join(NPZ, "savez.npz") + ":records"
    r = run(["schema", member])
    check(r.returncode == 0 and r.stdout.decode().rstrip("\n") ==
          numpy_dict(os.path.join(NPZ, "alone", "records.npy"), True), "schema of a member")
    c = run(["check", "--schema", "like:" + member, os.path.join(NPZ, "alone", "records.npy")])
    check(c.returncode == 0, "like:ARCHIVE:NAME: %d %r" % (c.returncode, c.stderr))
    r = run(["schema", "-"], stdin=open(a, "rb").read())
    check(r.returncode == 0 and r.stdout.decode().rstrip("\n") == numpy_dict(a, True), "schema -")
    r = run(["schema", os.path.join(NPZ, "savez.npz")])
    check(r.returncode == 2 and r.stdout == b"" and b"holds 11 arrays" in r.stderr,
          "schema of a whole archive: %d %r" % (r.returncode, r.stderr))
    # @PATH of a text file is still the text
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as t:
        t.write("{'descr': '|S5', 'shape': (-1,)}")
        t.flush()
        c = run(["check", "--schema", "@" + t.name, a])
        check(c.returncode == 0, "@TEXT: %d %r" % (c.returncode, c.stderr))


# --------------------------------------------------------------- swap --

def big_npy(path, nbytes, descr="'<f8'"):
    """A sparse .npy file of about nbytes of zeros, as np.save writes one."""
    n = nbytes // 8
    h = "{'descr': %s, 'fortran_order': False, 'shape': (%d,), }" % (descr, n)
    h += " " * ((-(10 + len(h) + 1)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h.encode())
        f.truncate(10 + len(h) + 8 * n)


def in_mount_ns(script, *args):
    """Run a shell script in a private mount namespace (as root), so that
    the filesystems it mounts vanish with it; None when that is refused."""
    if os.geteuid() != 0:
        return None
    probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=1m none /mnt"],
                           capture_output=True)
    if probe.returncode != 0:
        return None
    return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh"] + list(args),
                          capture_output=True, timeout=120)


def test_swap(tmp):
    src = os.path.join(FIX, "struct_nested3.npy")
    # the spellings of --to write the same files
    for names in (("little", "<", "le"), ("big", ">", "be"), ("native", "=")):
        outs = []
        for n in names:
            out = os.path.join(tmp, "to_%d.npy" % len(outs))
            r = run(["swap", src, "--to", n, "-o", out])
            outs.append(open(out, "rb").read() if r.returncode == 0 else None)
            os.unlink(out) if r.returncode == 0 else None
        check(outs[0] is not None and all(o == outs[0] for o in outs), "--to %s" % (names,))
    # OUT is a directory: refused, nothing in it
    d = os.path.join(tmp, "outdir")
    os.mkdir(d)
    r = run(["swap", src, "--to", "big", "-o", d])
    check(r.returncode == 2 and os.listdir(d) == [] and r.stderr.decode() ==
          "%s: i/o error: is a directory; give the path of the file to write\n" % d,
          "OUT a directory: %d %r" % (r.returncode, r.stderr))
    # --in-place on a file already in the asked order: nothing changes
    for f, order in ((src, "big"), (os.path.join(NPZ, "savez.npz"), "big")):
        mine = os.path.join(tmp, "inplace" + os.path.splitext(f)[1])
        subprocess.run([NPYDT, "swap", f, "--to", order, "-o", mine], check=True)
        os.utime(mine, (1000000000, 1000000000))
        before = open(mine, "rb").read()
        for spelling in (order, ">"):
            r = run(["swap", mine, "--to", spelling, "--in-place"])
            check(r.returncode == 0 and os.stat(mine).st_mtime == 1000000000
                  and open(mine, "rb").read() == before
                  and r.stderr.decode() == "%s: %salready big-endian; nothing to do, the file is unchanged\n"
                  % (mine, "every member is " if mine.endswith(".npz") else ""),
                  "--in-place, already %s: %d %r" % (order, r.returncode, r.stderr))
        r = run(["swap", mine, "--to", "little", "--in-place"])
        check(r.returncode == 0 and os.stat(mine).st_mtime != 1000000000,
              "--in-place to the other order rewrites: %d" % r.returncode)
    # --to native names the order of the machine the command runs on
    mine = os.path.join(tmp, "native.npy")
    subprocess.run([NPYDT, "swap", src, "--to", "native", "-o", mine], check=True)
    with open(mine, "rb") as f:
        f.seek(10)
        native = "big" if b"'>" in f.read(118) else "little"
    r = run(["swap", mine, "--to", "native", "--in-place"])
    check(r.returncode == 0 and r.stderr.decode() ==
          "%s: already %s-endian; nothing to do, the file is unchanged\n" % (mine, native),
          "--in-place --to native of a native file: %d %r" % (r.returncode, r.stderr))
    # a folder that cannot be written in, and a filesystem with too little
    # room: refused before anything is written, the folder left empty
    big = os.path.join(tmp, "two_mib.npy")
    big_npy(big, 2 << 20)
    script = """
mount -t tmpfs -o size=1m none /mnt || exit 99
"$1" swap "$2" --to big -o /mnt/out.npy; echo "rc=$?"; ls -A /mnt
mkdir /mnt/ro && mount --bind /mnt/ro /mnt/ro && mount -o remount,bind,ro /mnt/ro || exit 98
"$1" swap "$3" --to big -o /mnt/ro/out.npy; echo "rc=$?"; ls -A /mnt/ro
"""
    r = in_mount_ns(script, NPYDT, big, src)
    if r is None:
        print("note: cli-io: the space and read-only folder checks need root and mount "
              "namespaces (unshare -m); not run")
    else:
        out, err = r.stdout.decode().splitlines(), r.stderr.decode().splitlines()
        check(out == ["rc=2", "rc=2"] and len(err) == 2
              and err[0].startswith("/mnt/out.npy: i/o error: not enough space in '/mnt/': "
                                    "2097280 bytes needed, ")
              and err[0].endswith("available; nothing was written")
              and err[1] == "/mnt/ro/out.npy: i/o error: cannot write in its folder "
                            "'/mnt/ro/': Read-only file system",
              "space / read-only folder: %r %r" % (out, err))
    if os.geteuid() != 0:
        ro = os.path.join(tmp, "ro")
        os.mkdir(ro, 0o555)
        r = run(["swap", src, "--to", "big", "-o", os.path.join(ro, "out.npy")])
        check(r.returncode == 2 and os.listdir(ro) == [] and b"Permission denied" in r.stderr,
              "unwritable folder: %d %r" % (r.returncode, r.stderr))


# ----------------------------------------------------------- progress --

def on_pty(args, stdin=None):
    """Run the command with stderr on a terminal (a pty) and stdout to
    /dev/null; (status, what the terminal got, seconds)."""
    import pty
    import time
    master, slave = pty.openpty()
    t0 = time.monotonic()
    p = subprocess.Popen([NPYDT] + args, stdin=subprocess.PIPE if stdin else None,
                         stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    if stdin:
        def feed():
            # 1 MiB at a time, slowly enough that reading takes about a second
            for i in range(0, len(stdin), 1 << 20):
                p.stdin.write(stdin[i:i + (1 << 20)])
                time.sleep(0.012)
            p.stdin.close()
        t = threading.Thread(target=feed)
        t.start()
    got = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        got += chunk
    rc = p.wait(timeout=300)
    if stdin:
        t.join()
    os.close(master)
    return rc, got, time.monotonic() - t0


def test_progress(tmp):
    big = os.path.join(tmp, "big.npy")
    big_npy(big, 72 << 20)
    small = os.path.join(FIX, "struct_nested3.npy")
    out = os.path.join(tmp, "swapped.npy")
    # 70 MB of JSON lines of 1000-byte strings, for load and append
    text = os.path.join(tmp, "strings.jsonl")
    with open(text, "w") as f:
        f.write(('"' + "a" * 1000 + '"\n') * 70000)
    loaded = os.path.join(tmp, "loaded.npy")
    # an archive on a pipe is read whole: 72 MiB of it
    packed = os.path.join(tmp, "packed.npz")
    r = run(["pack", packed, "a=" + big])
    check(r.returncode == 0, "pack for the progress runs: %r" % r.stderr[:200])
    archive = open(packed, "rb").read()
    # many files: 600 names of one small file
    many = []
    for i in range(600):
        many.append(os.path.join(tmp, "many%03d.npy" % i))
        os.link(small, many[-1])
    runs = [("swap", ["swap", big, "--to", "big", "-o", out], None, b"npydt: swapping "),
            ("dump --jsonl", ["dump", "--jsonl", big], None, b"npydt: dumping "),
            ("dump --csv", ["dump", "--csv", big], None, b"npydt: dumping "),
            ("dump --tsv", ["dump", "--tsv", big], None, b"npydt: dumping "),
            ("load", ["load", "--dtype", "'S1000'", "-o", loaded, text], None, b"npydt: loading "),
            ("append", ["append", loaded, text], None, b"npydt: loading "),
            ("pack", ["pack", packed, "a=" + big], None, b"npydt: packing "),
            ("an archive on a pipe", ["inspect", "-"], archive, b"npydt: reading "),
            ("check of many files", ["check", "--schema", "like:" + small] + many, None,
             b"npydt: checking "),
            ("inspect of many files", ["inspect"] + many, None, b"npydt: inspecting ")]
    for what, args, stdin, label in runs:
        rc, got, secs = on_pty(args, stdin)
        draws = got.count(b"\r") - 1   # the last one erases
        check(rc == 0 and got.startswith(b"\r" + label) and got.endswith(b"\r\x1b[K")
              and 1 <= draws <= 1 + secs * 4.5,
              "%s: progress on a terminal: exit %d, %d draws in %.1f s, %r" %
              (what, rc, draws, secs, got[:60]))
        # -q and --quiet: nothing; stderr a file: nothing
        for quiet in ("-q", "--quiet"):
            rc, got, _ = on_pty(args[:1] + [quiet] + args[1:], stdin)
            check(rc == 0 and got == b"", "%s %s on a terminal: %d %r" % (what, quiet, rc, got[:60]))
        r = run(args, stdin)
        check(r.returncode == 0 and r.stderr == b"", "%s, stderr a file: %r" % (what, r.stderr[:60]))
    # a line drawn after the first interval has the rate, and the time
    # left of a known total: fed through a pipe 1 MiB every 12 ms, the 72
    # MiB take longer than that interval however fast the machine
    with open(big, "rb") as f:
        rc, got, _ = on_pty(["dump", "--csv", "-"], f.read())
    check(re.search(rb"npydt: dumping +\d+% \(\d+ of 72 MiB, [0-9.]+ MiB/s, [0-9]+ (s|min)", got),
          "dump --csv: rate and time left: %r" % got[-200:])
    # an error line erases the progress line first: it starts a clean line
    bad = os.path.join(tmp, "bad.npy")
    with open(bad, "wb") as f:
        f.write(b"not numpy")
    rc, got, _ = on_pty(["inspect"] + many[:300] + [bad] + many[300:])
    check(rc == 3 and b"\r\x1b[K" + bad.encode() + b": bad magic: " in got,
          "an error line among progress: %d %r" % (rc, got[-300:]))
    # inputs under 64 MiB, fewer than 500 files: no line
    rc, got, _ = on_pty(["swap", small, "--to", "big", "-o", out])
    check(rc == 0 and got == b"", "small swap on a terminal: %r" % got[:60])
    rc, got, _ = on_pty(["check", "--schema", "like:" + small] + many[:100])
    check(rc == 0 and got == b"", "check of 100 files on a terminal: %r" % got[:60])


# --------------------------------------------------------- output modes --

def test_output_modes(tmp):
    src = os.path.join(FIX, "struct_nested3.npy")
    d = os.path.join(tmp, "modes")
    os.mkdir(d)

    def mode(path):
        return os.stat(path).st_mode & 0o7777

    def older(path, m):  # a file of mode m that OUT replaces
        with open(path, "wb") as f:
            f.write(b"older")
        os.chmod(path, m)

    out = os.path.join(d, "out.npy")
    older(out, 0o640)
    r = run(["swap", src, "--to", "big", "-o", out])
    check(r.returncode == 0 and mode(out) == 0o640 and open(out, "rb").read() != b"older",
          "swap -o over a 0640 file: %d, mode %o" % (r.returncode, mode(out)))
    inplace = os.path.join(d, "inplace.npy")
    subprocess.run([NPYDT, "swap", src, "--to", "little", "-o", inplace], check=True)
    os.chmod(inplace, 0o604)
    r = run(["swap", inplace, "--to", "big", "--in-place"])
    check(r.returncode == 0 and mode(inplace) == 0o604,
          "swap --in-place of a 0604 file: %d, mode %o" % (r.returncode, mode(inplace)))
    # -o through a symbolic link: the link is replaced by the new file,
    # which takes the mode of the file the link named
    target = os.path.join(d, "target.npy")
    older(target, 0o600)
    link = os.path.join(d, "link.npy")
    os.symlink("target.npy", link)
    r = run(["swap", src, "--to", "big", "-o", link])
    check(r.returncode == 0 and not os.path.islink(link) and mode(link) == 0o600 and
          open(target, "rb").read() == b"older",
          "swap -o through a symbolic link: %d, mode %o" % (r.returncode, mode(link)))
    # a new file: 0666 less the umask
    new = os.path.join(d, "new.npy")
    r = run(["swap", src, "--to", "big", "-o", new], preexec_fn=lambda: os.umask(0o027))
    check(r.returncode == 0 and mode(new) == 0o640,
          "swap -o to a new file under umask 027: %d, mode %o" % (r.returncode, mode(new)))
    packed = os.path.join(d, "packed.npz")
    older(packed, 0o604)
    r = run(["pack", packed, "a=" + src])
    check(r.returncode == 0 and mode(packed) == 0o604,
          "pack over a 0604 file: %d, mode %o" % (r.returncode, mode(packed)))
    left = sorted(f for f in os.listdir(d) if f.endswith(".tmp"))
    check(left == [], "temporary files left: %r" % left)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_many_files(tmp)
        test_member_suggestion()
        test_pipes(tmp)
        test_closed_pipe()
        test_schema()
        test_swap(tmp)
        test_output_modes(tmp)
        test_progress(tmp)
    print("cli-io: %d passed, %d failed" % (passed, failed))


if __name__ == "__main__":
    main()

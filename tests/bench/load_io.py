#!/usr/bin/python3
"""What `npydt load` costs in I/O: bytes written, peak temporary disk
space, wall and CPU time and peak memory, for N records (default
1,000,000) of a 56-byte struct (<M8[ns] <u4 <f8 <f8 <f4 <f4 <i8 <i2 S10)
from JSON Lines and from CSV.

    /usr/bin/python3 tests/bench/load_io.py [--records N] NPYDT [NPYDT...]

Each binary loads the same inputs (made once with NumPy and `npydt dump`
in a scratch folder under $TMPDIR) with --no-sync, once per format, and
must write the bytes np.save writes. Columns:
  written   bytes the process handed to write(2)/pwrite(2) ("wchar" of
            /proc/PID/io, gathered by this process when it waits for it)
  temp      the most bytes its open files other than the input held at
            once, sampled every 2 ms through /proc/PID/fd (deleted
            files such as tmpfile()'s included): the output's own
            temporary file counts, so "once" means temp == output size
  wall      from start to wait4
  cpu       user + system time from wait4's rusage
  maxrss    the last VmHWM sampled (the peak resident memory, in KiB)
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

DT = np.dtype("<M8[ns],<u4,<f8,<f8,<f4,<f4,<i8,<i2,S10")


def make_inputs(npydt, n, folder):
    rng = np.random.default_rng(24)
    a = np.zeros(n, DT)
    a["f0"] = rng.integers(0, 2**62, n).astype("<M8[ns]")
    a["f1"] = rng.integers(0, 2**32, n, dtype=np.uint64)
    a["f2"] = rng.standard_normal(n) * 1e6
    a["f3"] = rng.random(n)
    a["f4"] = rng.standard_normal(n).astype("<f4")
    a["f5"] = rng.random(n).astype("<f4")
    a["f6"] = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64)
    a["f7"] = rng.integers(-2**15, 2**15, n).astype("<i2")
    a["f8"] = np.char.add(b"id", rng.integers(0, 10**8, n).astype("S8"))
    ref = os.path.join(folder, "ref.npy")
    np.save(ref, a)
    for fmt in ("jsonl", "csv"):
        with open(os.path.join(folder, "in." + fmt), "wb") as f:
            subprocess.run([npydt, "dump", "--" + fmt, ref], stdout=f, check=True)
    return ref


def wchar():
    with open("/proc/self/io") as f:
        for line in f:
            if line.startswith("wchar:"):
                return int(line.split()[1])
    raise RuntimeError("no wchar in /proc/self/io")


def open_bytes(pid, skip):
    total = 0
    try:
        fds = os.listdir("/proc/%d/fd" % pid)
    except OSError:
        return 0
    for fd in fds:
        p = "/proc/%d/fd/%s" % (pid, fd)
        try:
            if os.readlink(p) == skip:
                continue
            st = os.stat(p)
        except OSError:
            continue
        if (st.st_mode & 0o170000) == 0o100000:
            total += st.st_size
    return total


def peak_rss(pid):
    """VmHWM of the process in KiB (wait4's ru_maxrss would count the
    forked Python before the exec)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run(argv, skip):
    w0 = wchar()
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    peak = hwm = 0
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, open_bytes(p.pid, skip))
        hwm = max(hwm, peak_rss(p.pid))
        time.sleep(0.002)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d" % (" ".join(argv), p.returncode))
    return wchar() - w0, peak, wall, ru.ru_utime + ru.ru_stime, hwm


def main():
    args = sys.argv[1:]
    n = 1000000
    if args[:1] == ["--records"]:
        n = int(args[1])
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as folder:
        ref = make_inputs(args[0], n, folder)
        want = open(ref, "rb").read()
        print("%d records of %d bytes; output %d bytes; load average %s" %
              (n, DT.itemsize, len(want), open("/proc/loadavg").read().split()[0]))
        print("%-40s %-5s %14s %14s %8s %9s %9s" %
              ("binary", "input", "written", "temp", "wall s", "cpu s", "maxrss KB"))
        for npydt in args:
            for fmt in ("jsonl", "csv"):
                src = os.path.join(folder, "in." + fmt)
                out = os.path.join(folder, "out.npy")
                r = run([npydt, "load", "--no-sync", "--dtype", "@" + ref, "-o", out, src], src)
                if open(out, "rb").read() != want:
                    raise RuntimeError("%s: not np.save's bytes" % npydt)
                os.unlink(out)
                print("%-40s %-5s %14d %14d %8.2f %9.2f %9d" % ((npydt, fmt) + r))


if __name__ == "__main__":
    main()

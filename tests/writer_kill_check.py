#!/usr/bin/python3
"""Checks the files tests/check_writer_kill.sh saved after killing
tests/tools/writer_kill: one NumPy process for a whole batch.

    /usr/bin/python3 tests/writer_kill_check.py LIST

LIST holds one line per file: PATH ACK COMPLETE. Every file must load with
np.load, hold at least ACK records (the count of the last flush the killed
process saw complete) and only records it wrote: record i is (i, -i). A
COMPLETE file (its writer closed after exactly ACK records) must hold ACK
records and equal np.save's file of them byte for byte.

Prints one line per bad file and ends with `N passed, M failed`.
"""

import io
import sys

import numpy as np

DTYPE = np.dtype([("i", "<u8"), ("neg", "<i8")])


def records(n):
    a = np.zeros(n, dtype=DTYPE)
    a["i"] = np.arange(n, dtype=np.uint64)
    a["neg"] = -np.arange(n, dtype=np.int64)
    return a


def problem(path, ack, complete):
    try:
        a = np.load(path, allow_pickle=False)
    except Exception as e:                        # noqa: BLE001
        return "np.load fails: %s" % e
    if a.dtype != DTYPE or a.ndim != 1:
        return "dtype %s, shape %s" % (a.dtype, a.shape)
    if len(a) < ack:
        return "%d records, but a flush of %d completed" % (len(a), ack)
    want = records(len(a))
    if not np.array_equal(a, want):
        bad = int(np.nonzero(a != want)[0][0])
        return "record %d is %s" % (bad, a[bad])
    if complete:
        buf = io.BytesIO()
        np.save(buf, records(ack))
        with open(path, "rb") as f:
            if f.read() != buf.getvalue():
                return "differs from np.save's file of %d records" % ack
    return None


def main():
    passed = failed = 0
    with open(sys.argv[1]) as f:
        for line in f:
            path, ack, complete = line.split()
            why = problem(path, int(ack), complete == "1")
            if why:
                failed += 1
                print("FAIL writer_kill: %s: %s" % (path, why))
            else:
                passed += 1
    print("%d passed, %d failed" % (passed, failed))


if __name__ == "__main__":
    main()

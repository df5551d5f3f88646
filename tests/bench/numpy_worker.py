"""NumPy's side of `make bench`: a worker that times NumPy on request.

tests/bench/bench.c starts this script through /usr/bin/python3 (Debian's
NumPy) and sends it one command per line on stdin; every answer is one line
on stdout. The C program runs its own measurements between the commands, so
npydt, its C baselines and NumPy take turns on the same data in one run.

    hello                       -> "ok NUMPY_VERSION" or "nonumpy REASON"
    hdr ITERS PATH              -> "NS ITEMSIZE": ITERS header reads of the
                                   .npy header in PATH (read_magic, then
                                   read_array_header_1_0 / _2_0 by version)
    data FD BYTES DESCR         -> "ok": map BYTES of the inherited memory
                                   file FD as records of DESCR (a literal)
    swap_inplace ITERS          -> "NS": a.byteswap(inplace=True)
    swap_copy ITERS             -> "NS": a.astype(a.dtype.newbyteorder('='))
    gather ITERS FIELD          -> "NS": a[f1][f2]... into a preallocated
                                   native float64 array (np.copyto)
    drop                        -> "ok": unmap the records
    load ITERS PATH             -> "NS": np.load(PATH, mmap_mode='r')
    dump_jsonl ITERS PATH       -> "NS": the records of PATH as JSON lines
                                   the plain way: json.dumps(rec.tolist())
                                   per record (bytes, complex and subarrays
                                   through json.dumps's default), to /dev/null
    dump_csv ITERS PATH         -> "NS": np.savetxt(f, a, fmt='%s',
                                   delimiter=',') to /dev/null
    load_jsonl ITERS IN OUT DESCR
                                -> "NS": the JSON Lines of IN (as dump
                                   --jsonl writes them) read as NumPy users
                                   do: json.loads per line, each object made
                                   a tuple ([re, im] a complex), np.array
                                   (rows, DESCR), np.save(OUT); then
                                   " CPU_NS", the process's CPU time

NS is the total of ITERS runs in nanoseconds (time.perf_counter_ns), with
the garbage collector off while timing, as timeit does. Any failure is
answered "error MESSAGE" (or "n/a" when NumPy is missing).
"""
import ast
import gc
import io
import json
import mmap
import sys
import time

try:
    import numpy as np
    from numpy.lib import format as npf
    NUMPY_ERROR = None
except Exception as e:  # NumPy missing or broken: the C side prints n/a
    np = None
    NUMPY_ERROR = "%s: %s" % (type(e).__name__, e)

# Large enough for every header the benchmark writes (NumPy 1.24 refuses
# headers above 10,000 bytes unless told otherwise).
MAX_HEADER = 1 << 30

headers = {}   # path -> [bytes, itemsize NumPy reads]
state = {}     # records mapped from the C side


def timed(fn, iters):
    gc.collect()
    gc.disable()
    try:
        t0 = time.perf_counter_ns()
        for _ in range(iters):
            fn()
        return time.perf_counter_ns() - t0
    finally:
        gc.enable()


def cmd_hdr(path, iters):
    if path not in headers:
        with open(path, "rb") as f:
            headers[path] = [f.read(), None]
    entry = headers[path]
    buf = entry[0]
    reader = {1: npf.read_array_header_1_0, 2: npf.read_array_header_2_0}[buf[6]]
    f = io.BytesIO(buf)

    def one():
        f.seek(0)
        npf.read_magic(f)
        return reader(f, max_header_size=MAX_HEADER)

    if entry[1] is None:
        entry[1] = one()[2].itemsize  # NumPy accepts it; the C side compares
    return "%d %d" % (timed(one, iters), entry[1])


def cmd_data(fd, nbytes, descr):
    m = mmap.mmap(fd, nbytes)
    dt = np.dtype(ast.literal_eval(descr))
    a = np.frombuffer(m, dtype=dt)
    a.view(np.uint8).sum()   # fault the pages into this process
    state.update(map=m, a=a, out=None)
    return "ok"


def cmd_drop():
    a = state.pop("a", None)
    state.pop("out", None)
    m = state.pop("map", None)
    del a
    gc.collect()
    if m is not None:
        m.close()
    return "ok"


def cmd_swap_inplace(iters):
    a = state["a"]
    return "%d" % timed(lambda: a.byteswap(inplace=True), iters)


def cmd_swap_copy(iters):
    a = state["a"]
    native = a.dtype.newbyteorder("=")
    return "%d" % timed(lambda: a.astype(native), iters)


def cmd_gather(field, iters):
    a = state["a"]
    col = a
    for name in field.split("."):
        col = col[name]
    out = state.get("out")
    if out is None or out.shape != col.shape:
        out = np.empty(col.shape, dtype="=f8")
        out[...] = 0
        state["out"] = out
    return "%d" % timed(lambda: np.copyto(out, col), iters)


def cmd_load(path, iters):
    def one():
        m = np.load(path, mmap_mode="r")
        del m

    return "%d" % timed(one, iters)


def _json_default(x):
    if isinstance(x, bytes):
        return x.decode("latin-1")
    if isinstance(x, complex):
        return [x.real, x.imag]
    if isinstance(x, np.ndarray):   # a subarray field of a record
        return x.tolist()
    raise TypeError(type(x).__name__)


def cmd_dump_jsonl(path, iters):
    def one():
        a = np.load(path, mmap_mode="r")
        with open("/dev/null", "w") as f:
            for rec in a:
                f.write(json.dumps(rec.tolist(), default=_json_default))
                f.write("\n")

    return "%d" % timed(one, iters)


def cmd_dump_csv(path, iters):
    def one():
        a = np.load(path, mmap_mode="r")
        with open("/dev/null", "w") as f:
            np.savetxt(f, a, fmt="%s", delimiter=",")

    return "%d" % timed(one, iters)


def as_row(v, dt):
    """A dump --jsonl value as np.array takes it for dtype dt."""
    if dt.names is not None:
        return tuple(as_row(v[name], dt.fields[name][0]) for name in dt.names)
    if dt.kind == "c":
        return complex(v[0], v[1])
    return v


def cmd_load_jsonl(iters, src, out, descr):
    import json
    dt = np.dtype(ast.literal_eval(descr))

    def one():
        with open(src) as f:
            rows = [as_row(json.loads(line), dt) for line in f]
        np.save(out, np.array(rows, dtype=dt))

    cpu = time.process_time_ns()
    wall = timed(one, iters)
    return "%d %d" % (wall, time.process_time_ns() - cpu)


def handle(line, words):
    cmd = words[0]
    # a path is the rest of the line after the iteration count
    rest = line.split(None, 2)[2] if len(words) > 2 else ""
    if cmd == "hello":
        if np is None:
            return "nonumpy " + NUMPY_ERROR
        return "ok " + np.__version__
    if np is None:
        return "n/a"
    if cmd == "hdr":
        return cmd_hdr(rest, int(words[1]))
    if cmd == "data":
        return cmd_data(int(words[1]), int(words[2]), " ".join(words[3:]))
    if cmd == "drop":
        return cmd_drop()
    if cmd == "swap_inplace":
        return cmd_swap_inplace(int(words[1]))
    if cmd == "swap_copy":
        return cmd_swap_copy(int(words[1]))
    if cmd == "gather":
        return cmd_gather(words[2], int(words[1]))
    if cmd == "load":
        return cmd_load(rest, int(words[1]))
    if cmd == "dump_jsonl":
        return cmd_dump_jsonl(rest, int(words[1]))
    if cmd == "dump_csv":
        return cmd_dump_csv(rest, int(words[1]))
    if cmd == "load_jsonl":
        return cmd_load_jsonl(int(words[1]), words[2], words[3], " ".join(words[4:]))
    return "error unknown command " + cmd


def main():
    for line in sys.stdin:
        line = line.rstrip("\n")
        words = line.split()
        if not words:
            continue
        try:
            reply = handle(line, words)
        except Exception as e:
            reply = "error %s: %s" % (type(e).__name__, str(e).replace("\n", " "))
        sys.stdout.write(reply + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    try:
        main()
    except (KeyboardInterrupt, BrokenPipeError):
        sys.exit(130)  # interrupted with the benchmark: no traceback

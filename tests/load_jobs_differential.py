"""npydt load -j N against load -j 1 on generated inputs: random arrays
of a few dtypes dumped as JSON Lines, CSV and TSV (strings with commas,
quotes, line breaks, tabs and backslashes, so that quoted cells carry
line breaks over the runs' edges), some lines then broken (a character
changed, a quote added, a line cut short or doubled, blank lines and CRs
put in). Each input is loaded from a file with -j 1, -j 2 and -j 3 (read
at offsets by each run's thread) and from a pipe with -j 4 (read by the
calling thread): the same exit status, the same messages (the pipe's
<stdin> read as the file's name) and the same output bytes. Prints
`load_jobs_differential: N passed, M failed`.
    load_jobs_differential.py NPYDT DIR [CASES] [SEED]"""
import os
import random
import subprocess
import sys

import numpy as np

DTYPES = [
    '<i4', '<f8', '|b1', '<U3', '<M8[s]',
    [('a', '<i2'), ('b', '<f4'), ('s', 'S6')],
    [('x', '<u1', (3,)), ('c', '<c16'), ('t', '<U5')],
    [('id', '<u8'), ('p', [('x', '>f8'), ('y', '<i8')]), ('name', 'S4')],
]
TEXT = 'ab,"\n\t\\ x'


def strings(rng, n, width):
    return [''.join(rng.choice(TEXT) for _ in range(rng.randrange(width + 1))) for _ in range(n)]


def fill(a, rng, nprng):
    if a.dtype.names:
        for name in a.dtype.names:
            fill(a[name], rng, nprng)
        return
    k, n = a.dtype.kind, a.size
    if k in 'iu':
        info = np.iinfo(a.dtype)
        v = nprng.integers(info.min, info.max, n, dtype=a.dtype.newbyteorder('='), endpoint=True)
    elif k == 'f':
        v = nprng.normal(size=n) * 10.0 ** nprng.integers(-5, 6, n)
    elif k == 'c':
        v = nprng.normal(size=n) + 1j * nprng.normal(size=n)
    elif k == 'b':
        v = nprng.integers(0, 2, n).astype(bool)
    elif k == 'M':
        v = nprng.integers(0, 2 * 10 ** 9, n).astype('M8[s]')
    elif k == 'U':
        v = np.array(strings(rng, n, a.dtype.itemsize // 4), a.dtype)
    else:
        v = np.array([s.encode() for s in strings(rng, n, a.dtype.itemsize)], a.dtype)
    a[...] = v.reshape(a.shape)


def mutate(text, rng):
    lines = text.split(b'\n')
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(lines))
        line = lines[i]
        how = rng.randrange(7)
        if how == 0 and line:
            j = rng.randrange(len(line))
            lines[i] = line[:j] + bytes([rng.choice(b'x"9,{[\t')]) + line[j + 1:]
        elif how == 1:
            j = rng.randrange(len(line) + 1)
            lines[i] = line[:j] + b'"' + line[j:]
        elif how == 2:
            lines[i] = line[:rng.randrange(len(line) + 1)]
        elif how == 3:
            lines.insert(i, b'')
        elif how == 4:
            lines[i] = line + b'\r'
        elif how == 5:
            lines.insert(i, line)
        else:
            lines.insert(i, b'  \t')
    return b'\n'.join(lines)


def run(npydt, args, stdin_path=None):
    if stdin_path:
        with open(stdin_path, 'rb') as f:
            p = subprocess.run([npydt] + args, input=f.read(), capture_output=True)
    else:
        p = subprocess.run([npydt] + args, stdin=subprocess.DEVNULL, capture_output=True)
    return p.returncode, p.stderr


def main():
    npydt, d = sys.argv[1], sys.argv[2]
    cases = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 24
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    passed = failed = 0
    ref = os.path.join(d, 'ref.npy')
    inp = os.path.join(d, 'in.txt')
    for case in range(cases):
        dt = np.dtype(DTYPES[rng.randrange(len(DTYPES))])
        fmt = rng.choice(['jsonl', 'csv', 'tsv'])
        n = rng.choice([rng.randrange(1, 50), rng.randrange(1, 20000)])
        a = np.zeros(n, dt)
        fill(a, rng, nprng)
        np.save(ref, a)
        text = subprocess.run([npydt, 'dump', '--' + fmt, ref], capture_output=True).stdout
        if rng.random() < 0.7:
            text = mutate(text, rng)
        with open(inp, 'wb') as f:
            f.write(text)
        got = []
        for jobs, pipe in (('1', False), ('2', False), ('3', False), ('4', True)):
            out = os.path.join(d, 'out.npy')
            if os.path.exists(out):
                os.remove(out)
            args = ['load', '--dtype', '@' + ref, '--' + fmt, '-j', jobs, '-o', out]
            rc, err = run(npydt, args + ([] if pipe else [inp]), inp if pipe else None)
            err = err.replace(b'<stdin>', inp.encode())
            data = None
            if os.path.exists(out):
                with open(out, 'rb') as f:
                    data = f.read()
            got.append((rc, err, data))
        if os.environ.get("DIFF_TRACE"):
            print(case, fmt, len(text), got[0][0], got[0][1][:90])
        if got[0] == got[1] == got[2] == got[3]:
            passed += 1
        else:
            failed += 1
            keep = os.path.join(d, f'case{case}.{fmt}')
            os.rename(inp, keep)
            print(f'FAIL load_jobs_differential: case {case} ({dt}, {fmt}, kept as {keep}): '
                  + '; '.join(f'rc {g[0]} {g[1][:200]!r} {len(g[2] or b"")} bytes' for g in got))
    print(f'load_jobs_differential: {passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

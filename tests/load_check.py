"""npydt load / append / pack against NumPy: the values load stored from
JSON Lines, CSV and TSV (files check_load.sh made in --tmp); files made
with --shape / --fortran and appended to are np.save's bytes for the same
arrays; a bad line leaves an appended file as it was; pack writes
np.savez's and np.savez_compressed's archives byte for byte. Prints
`load_check: N passed, M failed`."""
import argparse
import os
import random
import subprocess
import sys

import numpy as np

D = [('id', '<u1'), ('pos', [('x', '<f4'), ('y', '<f4')]), ('s', '<i2', (2,)),
     ('name', 'S3'), ('c', '<c8')]
passed = failed = 0


def check(name, cond, detail=''):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f'FAIL load: {name} {detail}')


def same_values(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and \
        a.tobytes() == b.tobytes()


def saved(path, arr):
    np.save(path, arr)
    with open(path, 'rb') as f:
        return f.read()


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--npydt', required=True)
    ap.add_argument('--tmp', required=True)
    a = ap.parse_args()
    t = a.tmp
    # under an emulator --npydt is already the wrapper that starts it
    # (tests/run_tests.sh): never put EXEC in front of it
    exe = [a.npydt]

    def run(*args, stdin=None):
        return subprocess.run(exe + list(args), input=stdin, capture_output=True)

    want = np.array([(7, (0.5, -np.inf), (3, -2), b'a\x00b', complex(np.nan, np.nan)),
                     (255, (1e-45, np.nan), (-32768, 32767), b'', complex(1.5, -0.0))], dtype=D)
    check('mixed forms', same_values(np.load(f'{t}/mixed.npy'), want))
    want = np.array([(1, (1.5, 2), (3, 4), b'a\x01b', 1 + 2j),
                     (2, (1, np.nan), (1, 1), b'x,"', 1 - 2.5e-05j)], dtype=D)
    check('csv', same_values(np.load(f'{t}/csv.npy'), want))
    want = np.array([(9, (1, 2), (3, 4), b'a\tb', 1j)], dtype=D)
    check('tsv', same_values(np.load(f'{t}/tsv.npy'), want))
    fo = np.asfortranarray(np.arange(1, 7, dtype='<i8').reshape(3, 2))
    check('--shape 3 --fortran is np.save', read(f'{t}/f23.npy') == saved(f'{t}/ref.npy', fo))

    # number texts read as Python's float() reads them: the exact 128-bit
    # path (up to 19 digits, exponents within 10^+-19), the fast path and
    # strtod, halfway cases included
    rnd = random.Random(3)
    texts = []
    for _ in range(20000):
        k = rnd.random()
        if k < 0.3:
            texts.append(repr(rnd.uniform(-1e6, 1e6)))
        elif k < 0.5:
            texts.append(repr(1.0 / rnd.randint(1, 10**9)))
        elif k < 0.7:
            texts.append('%de%d' % (rnd.randint(0, 10**19 - 1), rnd.randint(-25, 25)))
        elif k < 0.85:
            texts.append(repr(rnd.uniform(-1, 1) * 10.0**rnd.randint(-300, 300)))
        else:
            # an odd 54-bit integer lies halfway between two doubles
            texts.append(str((rnd.randint(2**53, 2**54 - 1) | 1) * 2**rnd.randint(0, 9)))
    with open(f'{t}/floats.jsonl', 'w') as f:
        f.write('\n'.join(texts) + '\n')
    r = run('load', '--dtype', '<f8', '-o', f'{t}/floats.npy', f'{t}/floats.jsonl')
    got = np.load(f'{t}/floats.npy') if r.returncode == 0 else np.zeros(0)
    want = np.array([float(x) for x in texts])
    check('numbers read as float() reads them',
          got.shape == want.shape and (got.view('u8') == want.view('u8')).all(),
          r.stderr.decode())

    # append to files NumPy wrote: C order, Fortran order, a struct
    cases = [
        (np.arange(6, dtype='>i2').reshape(2, 3), np.arange(10, 16, dtype='>i2').reshape(2, 3)),
        (np.asfortranarray(np.arange(6.).reshape(2, 3)),
         np.asfortranarray(np.arange(10., 16.).reshape(2, 3))),
        (np.array([(1, 2.5)], dtype=[('a', '<i4'), ('b', '<f8')]),
         np.array([(3, 4.5), (5, -1)], dtype=[('a', '<i4'), ('b', '<f8')])),
    ]
    for k, (first, more) in enumerate(cases):
        path = f'{t}/app{k}.npy'
        np.save(path, first)
        np.save(f'{t}/more{k}.npy', more)
        lines = run('dump', '--jsonl', f'{t}/more{k}.npy').stdout
        r = run('append', path, '-', stdin=lines)
        axis = 1 if first.flags.f_contiguous and first.ndim > 1 else 0
        both = np.concatenate([first, more], axis=axis).astype(first.dtype)
        if first.flags.f_contiguous and first.ndim > 1:
            both = np.asfortranarray(both)
        check(f'append case {k}', r.returncode == 0 and read(path) == saved(f'{t}/ref.npy', both),
              r.stderr.decode())
        before = read(path)
        bad = lines + b'{"nope": 1}\n'
        r = run('append', path, '-', stdin=bad)
        check(f'append case {k}: a bad line changes nothing',
              r.returncode == 3 and read(path) == before, r.stderr.decode())

    # pack against np.savez and np.savez_compressed
    x = np.array([(1, 2.5), (3, 4.5)], dtype=[('a', '<i4'), ('b', '<f8')])
    y = np.arange(6, dtype='>i2').reshape(2, 3)
    z = np.asfortranarray(np.arange(6.).reshape(2, 3))
    e = np.zeros((0, 3), dtype='<U2')
    for name, arr in (('x', x), ('y', y), ('z', z), ('e', e)):
        np.save(f'{t}/{name}.npy', arr)
    np.savez(f'{t}/ref.npz', z, x=x, y=y, e=e)
    r = run('pack', f'{t}/out.npz', f'x={t}/x.npy', f'{t}/z.npy', f'y={t}/y.npy', f'e={t}/e.npy')
    check('pack is np.savez', r.returncode == 0 and read(f'{t}/out.npz') == read(f'{t}/ref.npz'),
          r.stderr.decode())
    np.savez_compressed(f'{t}/refz.npz', z, x=x, y=y, e=e)
    r = run('pack', '--compress', f'{t}/outz.npz', f'x={t}/x.npy', f'{t}/z.npy', f'y={t}/y.npy',
            f'e={t}/e.npy')
    check('pack --compress is np.savez_compressed',
          r.returncode == 0 and read(f'{t}/outz.npz') == read(f'{t}/refz.npz'), r.stderr.decode())
    before = read(f'{t}/out.npz')
    r = run('pack', f'{t}/out.npz', f'x={t}/x.npy', f'y={t}/missing.npy')
    check('pack: a missing input leaves OUT as it was',
          r.returncode == 2 and read(f'{t}/out.npz') == before
          and not [n for n in os.listdir(t) if 'npydt-' in n], r.stderr.decode())

    # a file replaced keeps its permission bits, as one np.save writes over
    os.chmod(f'{t}/out.npz', 0o640)
    r = run('pack', f'{t}/out.npz', f'x={t}/x.npy')
    check('pack: a replaced OUT keeps its mode',
          r.returncode == 0 and os.stat(f'{t}/out.npz').st_mode & 0o7777 == 0o640,
          r.stderr.decode())
    os.chmod(f'{t}/floats.npy', 0o604)
    r = run('load', '--dtype', '<f8', '-o', f'{t}/floats.npy', f'{t}/floats.jsonl')
    check('load: a replaced OUT keeps its mode',
          r.returncode == 0 and os.stat(f'{t}/floats.npy').st_mode & 0o7777 == 0o604,
          r.stderr.decode())

    print(f'load_check: {passed} passed, {failed} failed')
    return 0 if failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main())

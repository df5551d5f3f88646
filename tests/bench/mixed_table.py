"""The tables the benchmark scripts of tests/bench build (imported through
bench_py of tests/bench/common.sh): the 56-byte mixed struct

    t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10

filled field by field from a NumPy generator, and a float-only table.
Each script keeps its own seed and its own variant, so that its figures
stay comparable from run to run."""
import numpy as np

MIXED = np.dtype([('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('b', '<f8'), ('c', '<f4'),
                  ('d', '<f4'), ('e', '<i8'), ('f', '<i2'), ('s', 'S10')])

T0 = np.datetime64('2024-01-01', 'ns')


def fill(a, rng, scaled=True, words=None, rising_from=None, nans=None):
    """Fill the records a (of MIXED) from rng, in this order: t (random
    after T0, or a microsecond apart from record rising_from on), id, a
    (normal, times 1000 when scaled; then NaN where nans(rng, n) says),
    b, c, d (uniform, times 100 when scaled), e, f, s (one of words, or
    left empty when words is None)."""
    n = len(a)
    if rising_from is None:
        a['t'] = T0 + rng.integers(0, 10**15, n).astype('m8[ns]')
    else:
        a['t'] = T0 + (np.arange(rising_from, rising_from + n) * 1000).astype('m8[ns]')
    a['id'] = rng.integers(0, 2**32, n, dtype=np.uint64)
    x = rng.normal(size=n) * (1000 if scaled else 1)
    if nans is not None:
        x[nans(rng, n)] = np.nan
    a['a'] = x
    a['b'] = rng.random(n)
    a['c'] = rng.normal(size=n).astype('f4')
    a['d'] = (rng.random(n) * (100 if scaled else 1)).astype('f4')
    a['e'] = rng.integers(-2**62, 2**62, n)
    a['f'] = rng.integers(-30000, 30000, n)
    if words is not None:
        w = np.array(words, 'S10')
        a['s'] = w[rng.integers(0, len(w), n)]
    return a


def mixed(n, rng, **how):
    """n records of MIXED, filled as fill says."""
    return fill(np.zeros(n, MIXED), rng, **how)


def floats(n, rng):
    """n records of x <f8, y <f8, z <f4, w <f4."""
    a = np.zeros(n, [('x', '<f8'), ('y', '<f8'), ('z', '<f4'), ('w', '<f4')])
    a['x'] = rng.normal(size=n)
    a['y'] = rng.random(n) * 1e6
    a['z'] = rng.normal(size=n).astype('f4')
    a['w'] = rng.random(n).astype('f4')
    return a

#!/usr/bin/python3
"""Differential test of `npydt check --rules` against NumPy.

    /usr/bin/python3 tests/rules_differential.py NPYDT_BINARY [--count N] [--seed S]

Each case is a random dtype (nested structs, subarrays, both byte orders,
bools, integers, floats, complex, datetimes, bytes and str), random rules
for some of its fields (every rule that applies to a field's type, with
bounds drawn from the data, between its values, beyond its type's range
and infinite), and several files of that dtype: 1-d or 2-d, C or Fortran
order, with NaN, infinities, NaT, repeated values and sorted runs. One
`check --rules --json` runs over the files of a case; for every rule of
every file the verdict, the number of violating elements and the first
five indices must be those computed here from the array NumPy loads
(a[path].ravel(), elements compared exactly as Python numbers).

Prints one line per disagreement and ends with `N passed, M failed`
(N, M: rules of files). Without NumPy it prints `SKIP: ...` and exits 0.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
from fractions import Fraction

try:
    import numpy as np
except ImportError:
    print("SKIP: NumPy is not importable")
    sys.exit(0)

NAT = -(2 ** 63)
SCALARS = ['b1', 'i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8', 'f2', 'f4', 'f8',
           'c8', 'c16', 'M8[ns]', 'M8[D]', 'm8[s]', 'S4', 'U3']


def rand_scalar(rng):
    t = rng.choice(SCALARS)
    if t[0] in 'bSi' and t[0] != 'i' or t in ('i1', 'u1'):
        return '|' + t if t[0] in 'bSu' and t in ('b1', 'S4', 'u1') else t
    return rng.choice('<>') + t


def rand_dtype(rng, depth=0):
    n = rng.randint(1, 4)
    fields = []
    for i in range(n):
        if depth < 2 and rng.random() < 0.2:
            sub = rand_dtype(rng, depth + 1)
        else:
            sub = np.dtype(rand_scalar(rng))
        if rng.random() < 0.25:
            shape = tuple(rng.randint(1, 3) for _ in range(rng.randint(1, 2)))
            fields.append(('f%d' % i, sub, shape))
        else:
            fields.append(('f%d' % i, sub))
    return np.dtype(fields)


def leaves(dt, prefix=''):
    """(path, field dtype, scalar dtype) of every field path that ends in
    scalars (a struct's fields, through subarrays of scalars only)."""
    out = []
    for name in dt.names:
        f = dt.fields[name][0]
        path = prefix + name
        base = f.base if f.subdtype else f
        if base.names:
            if not f.subdtype:
                out.extend(leaves(base, path + '.'))
        else:
            out.append((path, f, base))
    return out


def rand_values(rng, sc, n):
    """n values of scalar dtype sc, with the specials of its kind."""
    k = sc.kind
    if k == 'b':
        return np.array([rng.random() < 0.5 for _ in range(n)], dtype=sc)
    if k in 'iu':
        info = np.iinfo(sc)
        pool = [info.min, info.max, 0, 1, 2, 3, 5, 7, 100]
        pool += [rng.randint(info.min, info.max) for _ in range(4)]
        pool = [p for p in pool if info.min <= p <= info.max]
        vals = [rng.choice(pool) for _ in range(n)]
    elif k in 'fc':
        pool = [0.0, -0.0, 1.5, -2.25, 3.0, 100.0, 1e30, float('nan'), float('inf'),
                -float('inf'), 7.0, 0.1]
        if sc.itemsize in (2, 4) and k == 'f':
            pool = [p for p in pool if p != 1e30]
        vals = [rng.choice(pool) for _ in range(n)]
        if k == 'c':
            vals = [complex(v, rng.choice(pool)) for v in vals]
    elif k in 'Mm':
        pool = [NAT, 0, 1, 2, 10, 1000, -5, 86400, 1600000000]
        vals = [rng.choice(pool) for _ in range(n)]
        arr = np.array(vals, dtype='<i8')
        if rng.random() < 0.3:
            arr.sort()
        return arr.view('<' + sc.str[1:]).astype(sc)
    elif k == 'S':
        pool = [b'', b'a', b'ab', b'abc', b'abcd', b'\xff', b'\xc3\xa9', b'a\x00b', b'zz']
        vals = [rng.choice(pool) for _ in range(n)]
    else:
        pool = ['', 'a', 'ab', 'abc', '\xe9', '\u4e2d', 'zz', 'a\x00b']
        vals = [rng.choice(pool) for _ in range(n)]
    arr = np.array(vals, dtype=sc)
    if rng.random() < 0.3 and k != 'c':
        arr.sort()
        if rng.random() < 0.5:
            arr = arr[::-1].copy()
    return arr


def fill(rng, a, dt, prefix=()):
    for path, f, sc in leaves(dt):
        v = a
        for p in path.split('.'):
            v = v[p]
        v[...] = rand_values(rng, sc, v.size).reshape(v.shape)


def py_values(v, sc):
    """The elements of field array v (C order) as Python values."""
    flat = v.reshape(-1)
    if sc.kind in 'Mm':
        return [int(x) for x in flat.astype(sc.newbyteorder('=')).view('i8')]
    if sc.kind == 'c':
        return [complex(x) for x in flat]
    return flat.tolist()


def lit(x):
    """x as a Python literal the rules reader takes."""
    if isinstance(x, float):
        if x != x:
            raise ValueError
        if x in (float('inf'), -float('inf')):
            return '1e999' if x > 0 else '-1e999'
        return repr(x)
    return repr(x)


def iso_text(rng, sc, count):
    """A date near `count` units of datetime64 scalar sc, as ISO text; a
    second or a millisecond off the unit at times."""
    unit, mult = np.datetime_data(sc)
    if unit == 'generic' or not isinstance(count, int) or abs(count) > 2 ** 40:
        count = 3
    d = np.datetime64(count * mult, unit)
    if unit in ('Y', 'M', 'W', 'D', 'h', 'm', 's') and rng.random() < 0.5:
        d = d.astype('M8[ms]') + rng.choice([-1, 1, 1000, -1000])
    return str(d)


def as_instant(x, sc):
    """The element count x of datetime64 scalar sc as a datetime64."""
    unit, mult = np.datetime_data(sc)
    return np.datetime64(x * mult, unit)


def rand_rules(rng, sc, vals):
    k = sc.kind
    rules = {}
    num = [x for x in vals if not isinstance(x, complex) and x == x and x != NAT] \
        if k not in 'SUc' else []
    if k in 'iufMm' and rng.random() < 0.6:
        for op in rng.sample(['min', 'max', 'exclusive_min', 'exclusive_max'], rng.randint(1, 2)):
            if num and rng.random() < 0.6:
                b = rng.choice(num)
            else:
                b = rng.choice([0, -1, 2, 2 ** 63, -2 ** 63 - 1, 2 ** 64, 1.5, -0.5, 2.5e9,
                                float('inf'), -float('inf'), 1e300])
            if k in 'Mm' and isinstance(b, float):
                b = int(b) if b == b and abs(b) != float('inf') and abs(b) < 2 ** 62 else 3
            if isinstance(b, float) and k in 'iuMm' and rng.random() < 0.5:
                b = b + 0.5 if abs(b) < 1e15 else b
            if isinstance(b, bool):
                b = int(b)
            if k == 'M' and rng.random() < 0.4:
                b = iso_text(rng, sc, b)
            rules[op] = b
    if k in 'fc' and rng.random() < 0.5:
        rules['nan'] = rng.random() < 0.2
    if k in 'fc' and rng.random() < 0.5:
        rules['inf'] = rng.random() < 0.2
    if k in 'Mm' and rng.random() < 0.5:
        rules['nat'] = rng.random() < 0.2
    if k in 'biufMmSU' and rng.random() < 0.4:
        rules['sorted'] = rng.choice(['ascending', 'descending', 'strictly_ascending',
                                      'strictly_descending'])
    if k != 'c' and rng.random() < 0.3:
        rules['unique'] = rng.random() < 0.8
    if k != 'c' and rng.random() < 0.4:
        pool = [x for x in vals if x == x and x != NAT] if k not in 'SU' else list(vals)
        if k == 'b':
            pool = [True, False, 0, 1]
        chosen = rng.sample(pool, min(len(pool), rng.randint(0, 3))) if pool else []
        if k in 'iuf' and rng.random() < 0.3:
            chosen.append(rng.choice([0.5, 2 ** 70, -3]))
        rules['values'] = [c for c in chosen if not (isinstance(c, float) and c != c)]
        if k == 'M' and rng.random() < 0.4:
            rules['values'] = [iso_text(rng, sc, c) for c in rules['values']]
    if k in 'SU':
        if rng.random() < 0.4:
            rules['min_len'] = rng.randint(0, 3)
        if rng.random() < 0.4:
            rules['max_len'] = rng.randint(0, 3)
        if rng.random() < 0.3:
            rules['ascii'] = rng.random() < 0.8
        if k == 'S' and rng.random() < 0.3:
            rules['utf8'] = rng.random() < 0.8
    return rules


def breaks(op, arg, vals, sc):
    """The indices of the elements that break rule op."""
    k = sc.kind
    time = k in 'Mm'
    bad = []
    seen = set()
    prev = None
    for i, x in enumerate(vals):
        b = False
        if op in ('min', 'max', 'exclusive_min', 'exclusive_max'):
            if isinstance(arg, str) and x != NAT:   # a date: NumPy compares
                xv, av = as_instant(x, sc), np.datetime64(arg)
                b = {'min': xv < av, 'max': xv > av, 'exclusive_min': xv <= av,
                     'exclusive_max': xv >= av}[op]
            elif not ((isinstance(x, float) and x != x) or (time and x == NAT)):
                inf = float('inf')
                fx = Fraction(x) if abs(x) != inf else x
                fb = Fraction(arg) if abs(arg) != inf else arg
                b = {'min': fx < fb, 'max': fx > fb, 'exclusive_min': fx <= fb,
                     'exclusive_max': fx >= fb}[op]
        elif op == 'nan':
            b = not arg and (x != x if not isinstance(x, complex)
                             else (x.real != x.real or x.imag != x.imag))
        elif op == 'inf':
            b = not arg and any(abs(p) == float('inf') for p in
                                ((x.real, x.imag) if isinstance(x, complex) else (x,)))
        elif op == 'nat':
            b = not arg and x == NAT
        elif op == 'sorted':
            if i and not (time and (x == NAT or prev == NAT)):
                b = {'ascending': x < prev, 'descending': x > prev,
                     'strictly_ascending': x <= prev, 'strictly_descending': x >= prev}[arg]
            prev = x
        elif op == 'unique':
            key = ('nan',) if isinstance(x, float) and x != x else x
            b = arg and key in seen
            seen.add(key)
        elif op == 'values' and time and any(isinstance(v, str) for v in arg):
            b = x == NAT or not any(as_instant(x, sc) == np.datetime64(v) for v in arg)
        elif op == 'values':
            b = not any(x == v and type(v) is not bytes or x == v for v in arg) \
                if k not in 'SU' else x not in arg
        elif op == 'min_len':
            b = len(x) < arg
        elif op == 'max_len':
            b = len(x) > arg
        elif op == 'ascii':
            b = arg and any((c if k == 'S' else ord(c)) >= 128 for c in x)
        elif op == 'utf8':
            if arg:
                try:
                    x.decode('utf-8')
                except UnicodeDecodeError:
                    b = True
        if b:
            bad.append(i)
    return bad


def run_case(npydt, rng, tmp, case):
    dt = rand_dtype(rng)
    if rng.random() < 0.2:
        dt = dt.newbyteorder('>') if rng.random() < 0.5 else dt
    fields = leaves(dt)
    chosen = rng.sample(fields, min(len(fields), rng.randint(1, 4)))
    files = []
    for j in range(3):
        n = rng.randint(0, 12)
        if rng.random() < 0.4:
            shape = (rng.randint(1, 4), rng.randint(1, 4))
        else:
            shape = (n,)
        a = np.zeros(shape, dtype=dt)
        fill(rng, a, dt)
        if len(shape) == 2 and rng.random() < 0.6:
            a = np.asfortranarray(a)
        path = os.path.join(tmp, 'c%d_%d.npy' % (case, j))
        np.save(path, a)
        files.append((path, np.load(path)))
    # rules from the first file's values (the others break them more)
    sample = files[0][1]
    texts, rules = [], []
    for path, f, sc in chosen:
        v = sample
        for p in path.split('.'):
            v = v[p]
        rs = rand_rules(rng, sc, py_values(v, sc) or py_values(rand_values(rng, sc, 4), sc))
        if not rs:
            continue
        rules.append((path, sc, rs))
        texts.append('%r: {%s}' % (path, ', '.join(
            '%r: %s' % (op, '[%s]' % ', '.join(lit(x) for x in val) if isinstance(val, list)
                        else lit(val)) for op, val in rs.items())))
    if not rules:
        return 0, 0
    text = '{' + ', '.join(texts) + '}'
    p = subprocess.run([npydt, 'check', '--json', '--rules', text] + [f for f, _ in files],
                       capture_output=True, text=True)
    objs = [json.loads(line) for line in p.stdout.splitlines()]
    passed = failed = 0
    if len(objs) != len(files) or p.returncode not in (0, 1):
        print('FAIL case %d: status %d, %d objects for %d files: %s\n%s' %
              (case, p.returncode, len(objs), len(files), text, p.stderr[-2000:]))
        return 0, 1
    any_bad = False
    for (fname, a), obj in zip(files, objs):
        got = {(r['path'], r['rule']): r for r in obj.get('rules', [])}
        for path, sc, rs in rules:
            v = a
            for part in path.split('.'):
                v = v[part]
            vals = py_values(v, sc)
            for op, arg in rs.items():
                want = breaks(op, arg, vals, sc)
                r = got.get((path, op))
                have = (r['violations'], [e['index'] for e in r['first']]) if r else (0, [])
                if have != (len(want), want[:5]):
                    failed += 1
                    print('FAIL %s %s %s=%r (%s): npydt %r, NumPy %r; rules %s' %
                          (fname, path, op, arg, sc.str, have, (len(want), want[:5]), text))
                else:
                    passed += 1
                any_bad |= bool(want)
    want_status = 1 if any_bad else 0
    if p.returncode != want_status:
        print('FAIL case %d: exit %d, expected %d' % (case, p.returncode, want_status))
        failed += 1
    return passed, failed


def main():
    args = sys.argv[1:]
    npydt = args[0]
    count, seed = 200, 1
    if '--count' in args:
        count = int(args[args.index('--count') + 1])
    if '--seed' in args:
        seed = int(args[args.index('--seed') + 1])
    rng = random.Random(seed)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in range(count):
            p, f = run_case(npydt, rng, tmp, case)
            passed += p
            failed += f
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

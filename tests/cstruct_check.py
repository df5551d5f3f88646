#!/usr/bin/python3
"""Compile `npydt cstruct` output and read records through it.

For every .npy file given (tests/fixtures/*.npy from the caller) plus a set of
hard record dtypes generated here into a temporary directory, this

  1. runs `npydt cstruct FILE` and compiles the declarations together with a
     generated C program under every compiler found (gcc, clang) with
     -std=c11 -Wall -Wextra -Werror -pedantic (and UBSan when it links);
  2. the program reads the records of a native-order copy of FILE through a
     cast (`(const struct npy_record *)data`) and prints every leaf value of
     the first records, which are compared with NumPy's values;
  3. compiles the same declarations as C++11 (g++, clang++: $CXX under an
     emulator), whose static_asserts check the layout there too;
  4. checks that the layout (every static_assert line) does not depend on
     the file's byte order.

The C member names are predicted from the sanitising rule in doc/command.md, so the
test also pins that rule down.

Prints one line per failure and a closing `cstruct-compile: N passed, M failed`.
Usage: /usr/bin/python3 tests/cstruct_check.py NPYDT FILE...
"""

import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import numpy.lib.format as npformat

CFLAGS = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"]
CXXFLAGS = ["-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic"]
MAX_RECORDS = 4
# The machine the command runs on (run_tests.sh says, from its ELF header),
# which is not the host's when it runs under an emulator (EXEC): the C
# programs are then built with $CC and run through EXEC.
TARGET_LITTLE = os.environ.get("TARGET_ENDIAN", sys.byteorder) == "little"
NATIVE = "<" if TARGET_LITTLE else ">"
EXEC = shlex.split(os.environ.get("EXEC", ""))

# -------------------------------------------------------------- naming --

RESERVED = set("""
auto break case char const continue default do double else enum extern float
for goto if inline int long register restrict return short signed sizeof
static struct switch typedef union unsigned void volatile while
alignas alignof bool constexpr false nullptr static_assert thread_local true
typeof typeof_unqual noreturn
NULL offsetof complex imaginary I errno EOF stdin stdout stderr NAN INFINITY
HUGE_VAL unix linux i386
INTPTR_MIN INTPTR_MAX UINTPTR_MAX INTMAX_MIN INTMAX_MAX UINTMAX_MAX
PTRDIFF_MIN PTRDIFF_MAX SIG_ATOMIC_MIN SIG_ATOMIC_MAX SIZE_MAX
WCHAR_MIN WCHAR_MAX WINT_MIN WINT_MAX
and and_eq asm bitand bitor catch char8_t char16_t char32_t class co_await
co_return co_yield compl concept const_cast consteval constinit decltype delete
dynamic_cast explicit export friend mutable namespace new noexcept not not_eq
operator or or_eq private protected public reinterpret_cast requires
static_cast template this throw try typeid typename using virtual wchar_t xor
xor_eq
int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
npydt_cfloat_t npydt_cdouble_t
""".split())
STDINT_LIMIT = re.compile(r"^U?INT(_LEAST|_FAST)?(8|16|32|64)_(MIN|MAX)$")


def sanitize(name):
    """The documented rule (doc/command.md) for one field name."""
    out = []
    for ch in name:
        if ord(ch) < 128:
            out.append(ch if (ch.isalnum() or ch == "_") else "_")
        else:
            out.append("_u%04x" % ord(ch))
    s = "".join(out) or "unnamed"
    if s[0].isdigit():
        s = "f_" + s
    elif s[0] == "_" and len(s) > 1 and (s[1] == "_" or "A" <= s[1] <= "Z"):
        s = "f" + s
    if s in RESERVED or STDINT_LIMIT.match(s):
        s += "_"
    return s


def member_names(names):
    used, res = set(), []
    for n in names:
        base = sanitize(n)
        c, k = base, 2
        while c in used:
            c = "%s_%d" % (base, k)
            k += 1
        used.add(c)
        res.append(c)
    return res


# -------------------------------------------------------------- leaves --

def strip_subarrays(dt):
    dims = []
    while dt.subdtype is not None:
        dt, shape = dt.subdtype
        dims.extend(shape)
    return dt, tuple(dims)


def leaves(dt, expr, getter):
    """Yield (C expression, scalar dtype, numpy getter, dims) for every leaf.

    getter(arr) takes the 1-d record array to the field's array."""
    base, dims = strip_subarrays(dt)
    if base.itemsize == 0 or 0 in dims:
        return
    if base.names is not None:
        cnames = member_names(base.names)
        for name, cname in zip(base.names, cnames):
            fdt = base.fields[name][0]
            if fdt.itemsize == 0:
                continue
            # C: expr[i][j].cname; NumPy: getter(a)[name] carries the dims
            sub_getter = (lambda g, n: (lambda a: g(a)[n]))(getter, name)
            yield from leaves_under(fdt, expr, dims, cname, sub_getter)
    else:
        yield expr, base, getter, dims


def leaves_under(fdt, expr, outer_dims, cname, getter):
    """Leaves of field cname of a struct that is itself repeated outer_dims."""
    for idx in np.ndindex(*outer_dims) if outer_dims else [()]:
        prefix = expr + "".join("[%d]" % i for i in idx) + "." + cname
        sel = (lambda g, ix: (lambda a: g(a)[(slice(None),) + ix]))(getter, idx)
        yield from leaves(fdt, prefix, sel)


def print_stmt(expr, dt):
    """C statement printing the value at expr (one line), and a function
    giving the expected line's comparison key from NumPy's scalar."""
    k, n = dt.kind, dt.itemsize
    if k == "b":
        return 'printf("%%u\\n", (unsigned)%s);' % expr, lambda v: str(int(v))
    if k in "iMm":
        if k in "Mm":
            return ('printf("%%lld\\n", (long long)%s);' % expr,
                    lambda v: str(int(np.array(v).view("i8"))))
        return 'printf("%%lld\\n", (long long)%s);' % expr, lambda v: str(int(v))
    if k == "u":
        return 'printf("%%llu\\n", (unsigned long long)%s);' % expr, lambda v: str(int(v))
    if k == "f" and n == 2:
        return ('printf("%%u\\n", (unsigned)%s);' % expr,
                lambda v: str(int(np.array(v, dtype=np.float16).view(np.uint16))))
    if k == "f" and n in (4, 8):
        return 'printf("%%.17g\\n", (double)%s);' % expr, lambda v: fkey(float(v))
    if k == "c" and n in (8, 16):
        return ('printf("%%.17g %%.17g\\n", creal(%s), cimag(%s));' % (expr, expr),
                lambda v: fkey(float(v.real)) + " " + fkey(float(v.imag)))
    if (k == "f" and n == 16) or (k == "c" and n == 32):
        # x87 extended precision: bytes on every machine, compared without
        # the 6 bytes of padding per number (NumPy's scalars do not keep them)
        return ('{ for (size_t k_ = 0; k_ < %d; k_++) printf("%%02x", (unsigned)%s[k_]);'
                ' printf("\\n"); }' % (n, expr),
                lambda v: ext80_bytes(np.asarray(v, dtype=dt).tobytes().hex(), dt))
    if k in "SV":
        return ('{ for (size_t k_ = 0; k_ < %d; k_++) printf("%%02x", (unsigned)(unsigned char)%s[k_]);'
                ' printf("\\n"); }' % (n, expr),
                lambda v: bytes(v).ljust(n, b"\0").hex() if k == "S" else v.tobytes().hex())
    if k == "U":
        m = n // 4
        return ('{ for (size_t k_ = 0; k_ < %d; k_++) printf("%%lu,", (unsigned long)%s[k_]);'
                ' printf("\\n"); }' % (m, expr),
                lambda v: "".join("%d," % c for c in [ord(ch) for ch in str(v)] + [0] * (m - len(str(v)))))
    raise ValueError("no printer for %s" % dt)


def ext80_bytes(hexstr, dt):
    """The 10 significant bytes of each 16-byte x87 number in hexstr."""
    order = dt.byteorder
    if order == "=":
        order = "<" if sys.byteorder == "little" else ">"
    keep = slice(0, 20) if order == "<" else slice(12, 32)   # hex digits
    return "".join(hexstr[i:i + 32][keep] for i in range(0, len(hexstr), 32))


def fkey(x):
    return "nan" if math.isnan(x) else repr(x)


def c_key(line_part, kind_dt):
    """Normalise one printed C value to the key form above."""
    k, n = kind_dt.kind, kind_dt.itemsize
    if (k == "f" and n in (4, 8)) or (k == "c" and n in (8, 16)):
        return " ".join(fkey(float(p)) for p in line_part.split())
    if (k == "f" and n == 16) or (k == "c" and n == 32):
        return ext80_bytes(line_part, kind_dt)
    return line_part


# ------------------------------------------------------------ fixtures --

def read_file(path):
    with open(path, "rb") as fp:
        version = npformat.read_magic(fp)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            shape, fortran, dtype = npformat._read_array_header(fp, version, max_header_size=2 ** 40)
        offset = fp.tell()
    count = int(np.prod(shape, dtype=np.int64)) if shape else 1
    return offset, count, dtype


def is_native(dt):
    base, _ = strip_subarrays(dt)
    if base.names is not None:
        return all(is_native(base.fields[n][0]) for n in base.names)
    order = base.byteorder
    if order == "=":
        order = "<" if sys.byteorder == "little" else ">"
    return order == "|" or (order == "<") == TARGET_LITTLE


def to_native(arr, dtype):
    """arr in the byte order of the machine the command runs on."""
    target = dtype.newbyteorder(NATIVE)
    if dtype.names is None and dtype.subdtype is None and dtype.kind in "Mm":
        # NumPy 1.24 leaves the bytes of a unitless datetime as they are
        # when casting it to the other byte order
        return arr.view(dtype.str[0] + "i8").astype(NATIVE + "i8").view(target)
    return arr.astype(target)


def fill(arr, rng):
    """Random but valid values in every leaf; garbage in the padding."""
    raw = arr.view(np.uint8).reshape(-1) if arr.dtype.itemsize else None
    if raw is not None and raw.size:
        raw[:] = rng.integers(0, 256, raw.size, dtype=np.uint8)
    fill_field(arr, arr.dtype, rng)


def fill_field(a, dt, rng):
    base, _ = strip_subarrays(dt)
    if base.names is not None:
        for name in base.names:
            sub = a[name]
            fill_field(sub, base.fields[name][0], rng)
        return
    shape = a.shape
    size = int(np.prod(shape, dtype=np.int64))
    if size == 0 or base.itemsize == 0:
        return
    k = base.kind
    if k == "b":
        vals = rng.integers(0, 2, size).astype(bool)
    elif k in "iu":
        info = np.iinfo(base)
        vals = rng.integers(int(info.min), int(info.max), size, endpoint=True, dtype=base.newbyteorder("="))
        vals.flat[0] = info.min
        if size > 1:
            vals.flat[1] = info.max
    elif k == "f":
        vals = (rng.standard_normal(size) * 10.0 ** rng.integers(-8, 8, size)).astype(base.newbyteorder("="))
        specials = [np.nan, np.inf, -np.inf, -0.0, 1.0 / 3.0]
        for j in range(min(size, len(specials))):
            if rng.integers(0, 2):
                vals.flat[j] = specials[j]
    elif k == "c":
        re_ = rng.standard_normal(size) * 1e3
        im = rng.standard_normal(size) * 1e-3
        vals = (re_ + 1j * im).astype(base.newbyteorder("="))
        if size > 1:
            vals.flat[1] = complex(-0.0, np.inf)
    elif k == "S":
        vals = np.array([bytes(rng.integers(1, 256, rng.integers(0, base.itemsize + 1)).astype(np.uint8))
                         for _ in range(size)], dtype=base)
    elif k == "U":
        m = base.itemsize // 4
        pool = [0x41, 0x7A, 0xE9, 0x4E2D, 0x1F600, 0x10FFFF, 0x20]
        vals = np.array(["".join(chr(pool[j]) for j in rng.integers(0, len(pool), rng.integers(0, m + 1)))
                         for _ in range(size)], dtype=base)
    elif k == "V":
        vals = np.frombuffer(rng.integers(0, 256, size * base.itemsize, dtype=np.uint8).tobytes(),
                             dtype=base)
    elif k in "Mm":
        ints = rng.integers(-(2 ** 40), 2 ** 40, size)
        ints[0] = np.iinfo(np.int64).min  # NaT
        vals = ints.astype("i8").view(base.newbyteorder("="))
    else:
        raise ValueError("cannot fill %s" % base)
    a[...] = vals.reshape(shape)


def generated_dtypes():
    """Hard record types that the committed fixtures may not cover."""
    d = {}
    d["names_hostile"] = np.dtype([
        ("int", "<i4"), ("NULL", "<i2"), ("_Bool", "u1"), ("__x", "u1"), ("1st", "<f4"),
        ("a b", "<i8"), ("a-b", "<i2"), ("a_b", "<u2"), ("x*/y", "u1"), ("q??/", "u1"),
        ("\u202eevil", "u1"), ("INT8_MAX", "i1"), ("unnamed", "u1"), ("_pad0", "u1"),
        ("int8_t", "i1"), ("I", "<f8"), ("\u6f22\u5b57", "<i2"), ("na\u00efve \U0001F600", "u1"),
        ("struct", [("if", "<i4"), ("else", "<f4")]), ("bool", "?"), ("offsetof", "<u4"),
        ("UINT_LEAST16_MAX", "<u2"), ("value", "<i2"), ("linux", "u1"),
    ])
    d["gaps_unaligned"] = np.dtype({"names": ["a", "b", "c", "d"],
                                    "formats": ["<i2", "<f8", "u1", ">i4"],
                                    "offsets": [1, 3, 20, 26], "itemsize": 33})
    d["aligned_nested"] = np.dtype([
        ("hdr", [("id", "<u4"), ("t", "<f8")]),
        ("pts", [("x", "<f4"), ("y", "<f4"), ("c", "u1")], (3,)),
        ("flag", "?"), ("grid", "<f8", (2, 3)), ("tail", "u1")], align=True)
    d["subarray_of_struct_nested"] = np.dtype([
        ("m", ([("a", "<i2"), ("b", "u1"), ("s", [("q", ">u4")])], (2,)), (3,)),
        ("k", "u1")])
    kinds = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "g",
             "c8", "c16", "G", "S7", "U3", "V5", "M8[ns]", "m8[D]", "M8[25s]", "m8"]
    d["all_kinds_packed"] = np.dtype([("k%d" % i, "<" + t if t not in "?gG" and t[0] not in "SV" else t)
                                      for i, t in enumerate(kinds)])
    d["all_kinds_aligned"] = np.dtype([("k%d" % i, t) for i, t in enumerate(kinds)], align=True)
    d["all_kinds_big"] = np.dtype([("k%d" % i, ">" + t if t[0] not in "?SV" else t)
                                   for i, t in enumerate(kinds)])
    d["all_kinds_subarrays"] = np.dtype([("k%d" % i, t, (2, 2)) for i, t in enumerate(kinds)])
    d["zero_size_middle"] = np.dtype({"names": ["a", "e", "z", "es", "b", "s0", "zs"],
                                      "formats": ["<i4", "S0", ("<i4", (0,)), [], "<f8",
                                                  ([("x", "<i8")], (0, 3)), ("S5", (4, 0))],
                                      "offsets": [0, 4, 4, 8, 8, 16, 16], "itemsize": 24})
    d["tag_collision"] = np.dtype([("a_b", [("x", "<i4")]), ("a", [("b", [("y", "<i2")])]),
                                   ("A", [("z", "u1")])])
    d["deep"] = np.dtype([("l1", [("l2", [("l3", [("l4", [("l5", "<i8", (2,))]), ("w", "u1")])])])])
    d["long_double_packed"] = np.dtype({"names": ["a", "ld", "z"], "formats": ["u1", ("g", (2,)), "G"],
                                        "offsets": [0, 1, 33], "itemsize": 70})
    d["trailing_pad_only"] = np.dtype({"names": ["a"], "formats": ["<i8"], "offsets": [8],
                                       "itemsize": 40})
    d["titles_unicode"] = np.dtype({"names": ["t\u00e9", "x"], "formats": ["<i4", "<f8"],
                                    "titles": ["*/ sneaky ??/", "\u00e9t\u00e9"]})
    d["big_nested_struct_subarray"] = np.dtype([("p", [("x", ">f8"), ("y", ">f8")], (2,)),
                                                ("n", ">u2"), ("u", ">U3"), ("c", ">c16")])
    return d


# --------------------------------------------------------------- check --

LOADER = r"""#include <complex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *load(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, got;
    unsigned char *buf = malloc(cap);
    *len = 0;
    while (buf && (got = fread(buf + *len, 1, cap - *len, f)) > 0) {
        *len += got;
        if (*len == cap) {
            unsigned char *p = realloc(buf, cap * 2);
            if (!p) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = p;
            cap *= 2;
        }
    }
    fclose(f);
    return buf;
}
"""

READER = r"""
static int read_%(n)d(const char *path)
{
    size_t len;
    unsigned char *buf = load(path, &len);
    if (!buf || len < %(offset)d + %(nrec)d * (size_t)REC_%(n)d_ITEMSIZE) {
        free(buf);
        return 3;
    }
    if (sizeof(struct rec_%(n)d) != REC_%(n)d_ITEMSIZE) {
        free(buf);
        return 4;
    }
    unsigned char *data = buf + %(offset)d;
    size_t misaligned = (uintptr_t)data %% _Alignof(struct rec_%(n)d);
    if (misaligned != 0) {
        /* a header np.save would have padded: move the records down to an
         * aligned place of the same buffer */
        data -= misaligned;
        memmove(data, data + misaligned, len - %(offset)d);
    }
    const struct rec_%(n)d *recs = (const struct rec_%(n)d *)(const void *)data;
    for (size_t i = 0; i < %(nrec)d; i++) {
        const struct rec_%(n)d *r = &recs[i];
%(body)s
    }
    free(buf);
    return 0;
}
"""

EMPTY_READER = r"""
static int read_%(n)d(const char *path)
{
    _Static_assert(REC_%(n)d_ITEMSIZE == %(itemsize)d, "itemsize");
    (void)path;
    return 0;
}
"""


class Case:
    """One file: its declarations, the C statements printing its leaves and
    NumPy's values for them."""

    def __init__(self, name, path):
        self.name = name
        self.path = path
        self.native_path = path
        self.header = None       # declarations for the native-order file
        self.orig_header = None  # declarations for the file itself, if different
        self.stmts = []
        self.labels = []
        self.kinds = []
        self.expected = []       # per statement, per record
        self.offset = 0
        self.nrec = 0
        self.itemsize = 0
        self.error = None


class Checker:
    def __init__(self, npydt, tmp):
        self.npydt = npydt
        self.tmp = tmp
        self.passed = 0
        self.failed = 0
        # under an emulator, $CC (which may hold options: "clang --target=...")
        wanted = [os.environ["CC"]] if EXEC else ["gcc", "clang"]
        self.compilers = [c for c in wanted if shutil.which(shlex.split(c)[0])]
        self.extra = {c: self.probe_ubsan(c) for c in self.compilers}
        cxx = ([os.environ["CXX"]] if os.environ.get("CXX") else []) if EXEC else ["g++", "clang++"]
        self.cxx_compilers = [c for c in cxx if shutil.which(shlex.split(c)[0])]

    def probe_ubsan(self, cc):
        src = os.path.join(self.tmp, "probe.c")
        with open(src, "w") as f:
            f.write("int main(void) { return 0; }\n")
        flags = ["-fsanitize=undefined", "-fno-sanitize-recover=all"]
        r = subprocess.run(shlex.split(cc) + flags + [src, "-o", os.path.join(self.tmp, "probe")],
                           capture_output=True)
        return flags if r.returncode == 0 else []

    def fail(self, name, msg):
        self.failed += 1
        print("FAIL cstruct %s: %s" % (name, msg))

    def cstruct(self, path, tag):
        r = subprocess.run([self.npydt, "cstruct", "--name", tag, path], capture_output=True)
        if r.returncode != 0:
            raise RuntimeError("npydt cstruct exit %d: %s"
                               % (r.returncode, r.stderr.decode("utf-8", "replace").strip()))
        return r.stdout.decode("utf-8")

    def prepare(self, case, n, work):
        """Generate declarations and expectations; None for object dtypes."""
        offset, count, dtype = read_file(case.path)
        if dtype.hasobject:
            return None
        case.header = case.orig_header = self.cstruct(case.path, "rec_%d" % n)
        if not is_native(dtype):
            with open(case.path, "rb") as fp:
                fp.seek(offset)
                raw = fp.read(count * dtype.itemsize)
            arr = (np.frombuffer(raw, dtype=dtype, count=count) if dtype.itemsize
                   else np.zeros(count, dtype))
            case.native_path = os.path.join(work, "native_%d.npy" % n)
            np.save(case.native_path, to_native(arr, dtype))
            case.header = self.cstruct(case.native_path, "rec_%d" % n)
            layout = [l for l in case.orig_header.splitlines() if l.startswith("static_assert")]
            nlayout = [l for l in case.header.splitlines() if l.startswith("static_assert")]
            if layout != nlayout:
                raise RuntimeError("layout differs between the file and its native-order copy")
            case.orig_header = case.orig_header.replace("rec_%d" % n, "orig_%d" % n).replace(
                "REC_%d_" % n, "ORIG_%d_" % n)

        offset, count, dtype = read_file(case.native_path)
        with open(case.native_path, "rb") as fp:
            fp.seek(offset)
            raw = fp.read(count * dtype.itemsize)
        case.offset, case.itemsize = offset, dtype.itemsize
        case.nrec = nrec = min(count, MAX_RECORDS)
        root = dtype if dtype.names is not None else np.dtype([("value", dtype)])
        if dtype.itemsize == 0 or nrec == 0:
            return case
        arr = np.frombuffer(raw, dtype=root, count=count)[:nrec]
        for expr, dt, getter, dims in leaves(root, "(*r)", lambda a: a):
            values = getter(arr)
            for idx in np.ndindex(*dims) if dims else [()]:
                sub = "".join("[%d]" % i for i in idx)
                stmt, key = print_stmt(expr + sub, dt)
                case.stmts.append(stmt)
                case.kinds.append(dt)
                case.labels.append(expr + sub)
                case.expected.append([key(values[(j,) + idx]) for j in range(nrec)])
        return case

    def program(self, cases, work):
        """One program reading every case; returns the path of its source."""
        parts = [LOADER]
        for n, c in cases:
            hname = os.path.join(work, "rec_%d.h" % n)
            with open(hname, "w") as f:
                f.write(c.header)
            parts.append('#include "rec_%d.h"\n' % n)
            if c.orig_header is not c.header:
                with open(os.path.join(work, "orig_%d.h" % n), "w") as f:
                    f.write(c.orig_header)
                parts.append('#include "orig_%d.h"\n' % n)
            if c.itemsize == 0 or c.nrec == 0:
                parts.append(EMPTY_READER % {"n": n, "itemsize": c.itemsize})
            else:
                body = "\n".join("        " + s for s in c.stmts)
                parts.append(READER % {"n": n, "offset": c.offset, "nrec": c.nrec, "body": body})
        parts.append("\nint main(int argc, char **argv)\n{\n"
                     "    static int (*const readers[])(const char *) = {\n")
        parts.append("".join("        read_%d,\n" % n for n, _ in cases))
        parts.append("    };\n"
                     "    (void)load;\n"
                     "    if (argc - 1 != (int)(sizeof readers / sizeof readers[0]))\n"
                     "        return 2;\n"
                     "    for (int i = 1; i < argc; i++) {\n"
                     "        printf(\"== %d\\n\", i - 1);\n"
                     "        int s = readers[i - 1](argv[i]);\n"
                     "        if (s != 0)\n"
                     "            printf(\"!! status %d\\n\", s);\n"
                     "    }\n"
                     "    return 0;\n}\n")
        src = os.path.join(work, "main_%d.c" % cases[0][0])
        with open(src, "w") as f:
            f.write("".join(parts))
        return src

    def run(self, cases, work, cc):
        """Compile and run cases with cc. Returns {n: error or None}, or None
        when the program does not compile."""
        src = self.program(cases, work)
        exe = src[:-2] + "_" + re.sub(r"[^A-Za-z0-9]+", "_", cc)
        r = subprocess.run(shlex.split(cc) + CFLAGS + self.extra[cc] + ["-I", work, src, "-o", exe, "-lm"],
                           capture_output=True)
        if r.returncode != 0:
            return None, r.stderr.decode("utf-8", "replace")
        r = subprocess.run(EXEC + [exe] + [c.native_path for _, c in cases], capture_output=True)
        if r.returncode != 0:
            return None, "program exit %d: %s" % (r.returncode, r.stderr.decode())
        out = r.stdout.decode().splitlines()
        chunks, cur = {}, None
        for line in out:
            if line.startswith("== "):
                cur = int(line[3:])
                chunks[cur] = []
            elif cur is not None:
                chunks[cur].append(line)
        results = {}
        for k, (n, c) in enumerate(cases):
            results[n] = self.compare(c, chunks.get(k), cc)
        return results, None

    def compile_cxx(self, cases, work, cxx):
        """Compile the declarations of cases as C++; None or the error."""
        src = os.path.join(work, "decls_%d.cc" % cases[0][0])
        with open(src, "w") as f:
            for n, c in cases:
                f.write('#include "rec_%d.h"\n' % n)
                if c.orig_header is not c.header:
                    f.write('#include "orig_%d.h"\n' % n)
            f.write("int main() { return 0; }\n")
        r = subprocess.run(shlex.split(cxx) + CXXFLAGS + ["-fsyntax-only", "-I", work, src],
                           capture_output=True)
        return None if r.returncode == 0 else r.stderr.decode("utf-8", "replace")[:600]

    @staticmethod
    def compare(c, lines, cc):
        if lines is None:
            return "%s: no output" % cc
        if lines and lines[-1].startswith("!!"):
            return "%s: reader %s" % (cc, lines[-1][3:])
        want = c.nrec * len(c.stmts)
        if len(lines) != want:
            return "%s: printed %d lines, want %d" % (cc, len(lines), want)
        for j in range(c.nrec):
            for s in range(len(c.stmts)):
                got = c_key(lines[j * len(c.stmts) + s], c.kinds[s])
                if got != c.expected[s][j]:
                    return ("%s: record %d %s: C read %r, NumPy has %r"
                            % (cc, j, c.labels[s], got, c.expected[s][j]))
        return None

    def check_all(self, files):
        work = os.path.join(self.tmp, "w")
        os.makedirs(work, exist_ok=True)
        cases = []
        for n, (name, path) in enumerate(files):
            case = Case(name, path)
            try:
                if self.prepare(case, n, work) is None:
                    continue
            except Exception as e:  # a generator or checker error counts
                self.fail(name, str(e))
                continue
            cases.append((n, case))
        if not cases:
            return
        errors = {n: None for n, _ in cases}
        for cc in self.compilers:
            results, err = self.run(cases, work, cc)
            if results is None:
                # find the culprits one by one
                for n, c in cases:
                    res, err1 = self.run([(n, c)], work, cc)
                    if res is None:
                        errors[n] = errors[n] or "%s: %s" % (cc, err1)
                    elif res[n] and not errors[n]:
                        errors[n] = res[n]
                continue
            for n, e in results.items():
                if e and not errors[n]:
                    errors[n] = e
        for cxx in self.cxx_compilers:
            # self.run wrote every header; one translation unit holds them all
            if self.compile_cxx(cases, work, cxx) is None:
                continue
            for n, c in cases:
                err = self.compile_cxx([(n, c)], work, cxx)
                if err and not errors[n]:
                    errors[n] = "%s (C++): %s" % (cxx, err)
        for n, c in cases:
            if errors[n]:
                self.fail(c.name, errors[n])
            else:
                self.passed += 1


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    npydt = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="npydt-cstruct-") as tmp:
        ck = Checker(npydt, tmp)
        if not ck.compilers:
            print("SKIP: cstruct compile checks: neither gcc nor clang found")
            return 0
        print("cstruct compile checks with %s%s" % (
            ", ".join(ck.compilers + ck.cxx_compilers),
            "" if all(ck.extra.values()) else " (no UBSan for some)"))
        files = [(os.path.basename(p), p) for p in sys.argv[2:]]
        gen = os.path.join(tmp, "gen")
        os.makedirs(gen)
        rng = np.random.default_rng(20240517)
        for name, dt in generated_dtypes().items():
            arr = np.zeros(3, dt)
            fill(arr, rng)
            path = os.path.join(gen, name + ".npy")
            np.save(path, arr)
            files.append(("gen/" + name, path))
        ck.check_all(files)
        print("cstruct compile: %d passed, %d failed" % (ck.passed, ck.failed))
    return 0 if ck.failed == 0 else 1


warnings.simplefilter("ignore")

if __name__ == "__main__":
    sys.exit(main())

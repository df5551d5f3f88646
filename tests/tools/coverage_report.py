#!/usr/bin/env python3
"""Line and branch coverage of the hand-written sources, from a build made
with COVERAGE=1 (gcc --coverage) after its tests ran.

    coverage_report.py O [--quiet]

Runs gcov (JSON format, gcc 9 or later) on every .gcda under O/lib and
O/cli and keeps src/STAGE/*.c, grammar/*.re and grammar/*.y (the
generated parser and lexer map their action code back to grammar/ through
#line; the rest of them is Bison's and re2c's, not ours). Prints a table per
file, one per folder (each src/STAGE/ and grammar/), the library's and the
command's, the total, and the uncovered line numbers of each file. A branch
counts as covered when it was taken at least once.
Standard library only.
"""
import glob
import json
import os
import re
import subprocess
import sys

OURS = re.compile(r"^(src/[^/]+/[^/]+\.c|grammar/[^/]+\.(re|y))$")


def gcov_json(gcda, cwd):
    objdir = os.path.dirname(os.path.abspath(gcda))
    r = subprocess.run(["gcov", "-b", "-j", "-t", "-o", objdir, os.path.abspath(gcda)],
                       cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        sys.stderr.write("gcov failed on %s: %s\n" % (gcda, r.stderr.strip()[:200]))
        return []
    # one JSON document per line (gcov may print several)
    docs = []
    for line in r.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            docs.append(json.loads(line))
    return docs


def ranges(nums):
    out, start, prev = [], None, None
    for n in sorted(nums):
        if start is None:
            start = prev = n
        elif n == prev + 1:
            prev = n
        else:
            out.append(str(start) if start == prev else "%d-%d" % (start, prev))
            start = prev = n
    if start is not None:
        out.append(str(start) if start == prev else "%d-%d" % (start, prev))
    return ", ".join(out)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = sys.argv[1]
    quiet = "--quiet" in sys.argv[2:]
    root = os.getcwd()
    gcdas = sorted(glob.glob(os.path.join(build, "lib", "*", "*.gcda")) +
                   glob.glob(os.path.join(build, "cli", "*.gcda")))
    if not gcdas:
        sys.exit("coverage: no .gcda files under %s/lib or %s/cli (build with COVERAGE=1 "
                 "and run the tests first)" % (build, build))
    lines = {}      # file -> {line: count}
    branches = {}   # file -> {(line, i): taken}
    for gcda in gcdas:
        for doc in gcov_json(gcda, root):
            for f in doc.get("files", []):
                name = os.path.relpath(os.path.join(root, f["file"]), root) \
                    if not os.path.isabs(f["file"]) else os.path.relpath(f["file"], root)
                if not OURS.match(name):
                    continue
                fl = lines.setdefault(name, {})
                fb = branches.setdefault(name, {})
                for ln in f["lines"]:
                    n = ln["line_number"]
                    fl[n] = max(fl.get(n, 0), ln["count"])
                    real = [b for b in ln["branches"] if not b.get("throw")]
                    for i, b in enumerate(real):
                        key = (n, i)
                        fb[key] = fb.get(key, False) or b["count"] > 0
    total_l = total_lc = total_b = total_bc = 0
    print("coverage of the hand-written sources (%s):" % build)
    print("  %-28s %17s %19s" % ("file", "lines", "branches"))
    for name in sorted(lines):
        fl, fb = lines[name], branches[name]
        lc = sum(1 for c in fl.values() if c > 0)
        bc = sum(1 for t in fb.values() if t)
        total_l += len(fl)
        total_lc += lc
        total_b += len(fb)
        total_bc += bc
        print("  %-28s %6d/%-5d %5.1f%% %7d/%-5d %5.1f%%" % (
            name, lc, len(fl), 100.0 * lc / max(len(fl), 1),
            bc, len(fb), 100.0 * bc / max(len(fb), 1)))
    def group_row(label, names):
        gl = sum(len(lines[n]) for n in names)
        glc = sum(1 for n in names for c in lines[n].values() if c > 0)
        gb = sum(len(branches[n]) for n in names)
        gbc = sum(1 for n in names for t in branches[n].values() if t)
        print("  %-28s %6d/%-5d %5.1f%% %7d/%-5d %5.1f%%" % (
            label, glc, gl, 100.0 * glc / max(gl, 1), gbc, gb, 100.0 * gbc / max(gb, 1)))

    # the goal holds per folder: each src/STAGE/ and grammar/
    print("  %-28s %17s %19s" % ("folder", "lines", "branches"))
    for folder in sorted({os.path.dirname(n) for n in lines}):
        group_row(folder + "/", [n for n in lines if os.path.dirname(n) == folder])
    groups = (("library (src/, grammar/)", lambda n: not n.startswith("src/cli/")),
              ("command (src/cli/)", lambda n: n.startswith("src/cli/")))
    for label, member in groups:
        group_row(label, [n for n in lines if member(n)])
    print("  %-28s %6d/%-5d %5.1f%% %7d/%-5d %5.1f%%" % (
        "total", total_lc, total_l, 100.0 * total_lc / max(total_l, 1),
        total_bc, total_b, 100.0 * total_bc / max(total_b, 1)))
    if not quiet:
        print("uncovered lines:")
        for name in sorted(lines):
            missed = [n for n, c in lines[name].items() if c == 0]
            if missed:
                print("  %s: %s" % (name, ranges(missed)))


if __name__ == "__main__":
    main()

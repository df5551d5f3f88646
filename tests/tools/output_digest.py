#!/usr/bin/python3
"""Digest of the command's output over every fixture and corpus file.

Runs inspect, inspect --json, dump (table, --jsonl, --csv, --tsv and the
JSON value options), schema, check (against the file itself, text and
--json), cstruct and swap (both orders, the written bytes included) on
every fixture and fuzz corpus input, and prints one line per run:
COMMAND<TAB>INPUT<TAB>EXIT<TAB>SHA-256 of stdout, stderr and written file.
Two trees whose digests are equal print the same bytes, messages and
exit statuses for all of them: the proof that a change of structure
changed no behaviour.

Usage: tests/tools/output_digest.py [NPYDT] > digest.txt
  NPYDT: the command to run (default build/npydt); run from the root of
  the source tree, so that input paths in messages are the same.
  With USAGE_LINES=drop in the environment, stderr lines that start with
  "npydt" or "Try 'npydt" (usage errors and command-level failures) are
  left out of the digest: two trees that differ only in how those lines
  are worded then digest alike.
"""
import hashlib
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

NPYDT = sys.argv[1] if len(sys.argv) > 1 else "build/npydt"

FILE_DIRS = ["tests/fixtures", "tests/fixtures/bad", "tests/fixtures_npz",
             "tests/fixtures_writer", "fuzz/corpus/header",
             "fuzz/corpus/records", "fuzz/corpus/npz",
             "fuzz/regressions/header", "fuzz/regressions/records",
             "fuzz/regressions/npz"]
SPEC_DIRS = ["fuzz/corpus/descr", "fuzz/corpus/schema",
             "fuzz/regressions/descr", "fuzz/regressions/schema"]
SPEC_TARGET = "tests/fixtures/struct_nested_subarray.npy"

FILE_RUNS = [
    ["inspect"], ["inspect", "--json"],
    ["dump"], ["dump", "--jsonl"], ["dump", "--csv"], ["dump", "--tsv"],
    ["dump", "--jsonl", "--float", "native", "--datetime", "iso",
     "--nan", "null", "--big-int", "string"],
    ["schema"], ["cstruct"],
    ["check", "--schema", "@{f}"], ["check", "--json", "--schema", "@{f}"],
    ["swap", "--to", "big", "-o", "{out}"],
    ["swap", "--to", "little", "-o", "{out}"],
]


def files(dirs):
    out = []
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            if os.path.isfile(p) and not name.endswith((".txt", ".json",
                                                        ".jsonl", ".csv",
                                                        ".py", ".md")):
                out.append(p)
    return out


def run(job):
    label, argv, key = job
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.npy")
        argv = [a.replace("{out}", out) for a in argv]
        try:
            r = subprocess.run([NPYDT] + argv, capture_output=True,
                               timeout=60)
            rc, so, se = r.returncode, r.stdout, r.stderr
        except subprocess.TimeoutExpired:
            rc, so, se = "timeout", b"", b""
        h = hashlib.sha256()
        h.update(so)
        h.update(b"\0stderr\0")
        se = se.replace(out.encode(), b"OUT")
        if os.environ.get("USAGE_LINES") == "drop":
            se = b"".join(l for l in se.splitlines(True)
                          if not l.startswith((b"npydt", b"Try 'npydt")))
        h.update(se)
        if os.path.exists(out):
            with open(out, "rb") as f:
                h.update(b"\0file\0" + f.read())
    return "%s\t%s\t%s\t%s" % (label, key, rc, h.hexdigest()[:16])


def jobs():
    for f in files(FILE_DIRS):
        for r in FILE_RUNS:
            argv = [a.replace("{f}", f) for a in r]
            if r[0] == "swap":
                argv = ["swap", f] + argv[1:]
            else:
                argv = argv + [f]
            yield (" ".join(r), argv, f)
    for f in files(SPEC_DIRS):
        with open(f, "rb") as fh:
            spec = fh.read()
        if b"\0" in spec:
            continue
        spec = spec.decode("utf-8", "surrogateescape")
        yield ("cstruct --descr", ["cstruct", "--descr", spec], f)
        yield ("check --schema", ["check", "--schema", spec,
                                  SPEC_TARGET], f)


def main():
    workers = int(os.environ.get("JOBS", os.cpu_count() or 2))
    with ThreadPoolExecutor(max_workers=workers) as ex:
        for line in ex.map(run, jobs(), chunksize=16):
            print(line)


if __name__ == "__main__":
    main()

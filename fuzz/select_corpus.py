#!/usr/bin/env python3
"""Add to a seed corpus the few fuzzer-found inputs that reach new code.

    select_corpus.py HARNESS_BINARY SEED_DIR FOUND_DIR... [--max N] [--max-len L]

Runs libFuzzer's merge once over the seeds and the found inputs to learn
which coverage edges each input reaches (its control file), then picks
greedily, among the found inputs, the one that reaches most edges the
seeds and earlier picks do not, until nothing new is reached or N inputs
(default 150) are picked. Copies them into SEED_DIR as found_<sha1 prefix>.
Keeps the committed corpora small while the replay in `make check` still
walks what the fuzzer discovered. Standard library only.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    args = sys.argv[1:]
    max_n, max_len = 150, 4096
    for flag in ("--max", "--max-len"):
        if flag in args:
            i = args.index(flag)
            if flag == "--max":
                max_n = int(args[i + 1])
            else:
                max_len = int(args[i + 1])
            del args[i:i + 2]
    if len(args) < 3:
        sys.exit(__doc__)
    binary, seeds, found = args[0], args[1], args[2:]
    with tempfile.TemporaryDirectory() as tmp:
        ctl = os.path.join(tmp, "control")
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        subprocess.run([binary, "-merge=1", "-merge_control_file=" + ctl, "-timeout=10",
                        "-rss_limit_mb=2048",
                        "-max_len=%d" % max_len, out, seeds] + found,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(ctl) as f:
            lines = f.read().splitlines()
    nfiles = int(lines[0])
    paths = lines[2:2 + nfiles]
    cov = {}
    for line in lines[2 + nfiles:]:
        parts = line.split()
        if parts and parts[0] == "COV":
            cov[int(parts[1])] = set(int(x) for x in parts[2:])
    seed_abs = os.path.abspath(seeds)
    covered = set()
    candidates = []
    for i, p in enumerate(paths):
        edges = cov.get(i, set())
        if os.path.abspath(p).startswith(seed_abs + os.sep):
            covered |= edges
        else:
            candidates.append((p, edges))
    picked = []
    while len(picked) < max_n:
        best, best_new = None, set()
        for p, edges in candidates:
            new = edges - covered
            if len(new) > len(best_new) or (
                    new and len(new) == len(best_new) and os.path.getsize(p) < os.path.getsize(best)):
                best, best_new = p, new
        if not best:
            break
        picked.append(best)
        covered |= best_new
        candidates = [(p, e) for p, e in candidates if p != best]
    for p in picked:
        with open(p, "rb") as f:
            data = f.read()
        name = "found_" + hashlib.sha1(data).hexdigest()[:12]
        shutil.copyfile(p, os.path.join(seeds, name))
    print("%s: %d inputs added, %d edges covered" % (seeds, len(picked), len(covered)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Add to a seed corpus the few fuzzer-found inputs that reach new code.

    select_corpus.py HARNESS_BINARY SEED_DIR FOUND_DIR... [--max N] [--max-len L]
                     [--step S]

libFuzzer's merge writes, in its control file, for each input only the
coverage edges no input before it reached, the inputs of its first
directory first and the others by size. So each round runs the merge with
the seeds and the inputs picked so far as that first directory: what it
credits to a found input is then exactly the edges it adds to them. The
round picks the S found inputs (default 25) that add most edges (the
smaller first on a tie), until nothing new is reached or N inputs (default
150) are picked. Copies them into SEED_DIR as found_<sha1 prefix>. Keeps
the committed corpora small while the replay in `make check` still walks
what the fuzzer discovered. Standard library only.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile


def merge_round(binary, max_len, base, found, tmp):
    """The edges of the base inputs, and {found input: edges it adds}."""
    first = os.path.join(tmp, "first")
    shutil.rmtree(first, ignore_errors=True)
    os.mkdir(first)
    for i, p in enumerate(base):
        shutil.copyfile(p, os.path.join(first, "%06d" % i))
    empty = os.path.join(tmp, "empty")   # the merge wants a second directory
    os.makedirs(empty, exist_ok=True)
    ctl = os.path.join(tmp, "control")
    if os.path.exists(ctl):
        os.remove(ctl)
    subprocess.run([binary, "-merge=1", "-merge_control_file=" + ctl, "-timeout=10",
                    "-rss_limit_mb=2048", "-max_len=%d" % max_len, first, empty] + found,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(ctl) as f:
        lines = f.read().splitlines()
    nfiles, nfirst = int(lines[0]), int(lines[1])
    paths = lines[2:2 + nfiles]
    cov = {}
    for line in lines[2 + nfiles:]:
        parts = line.split()
        if parts and parts[0] == "COV":
            cov[int(parts[1])] = len(parts) - 2
    base_edges = sum(cov.get(i, 0) for i in range(nfirst))
    gains = {paths[i]: cov.get(i, 0) for i in range(nfirst, nfiles)}
    return base_edges, gains


def main():
    args = sys.argv[1:]
    opts = {"--max": 150, "--max-len": 4096, "--step": 25}
    for flag in opts:
        if flag in args:
            i = args.index(flag)
            opts[flag] = int(args[i + 1])
            del args[i:i + 2]
    if len(args) < 3:
        sys.exit(__doc__)
    binary, seeds, found = args[0], args[1], args[2:]
    max_n, max_len, step = opts["--max"], opts["--max-len"], opts["--step"]
    base = sorted(os.path.join(seeds, n) for n in os.listdir(seeds)
                  if os.path.isfile(os.path.join(seeds, n)))
    picked = []
    with tempfile.TemporaryDirectory() as tmp:
        seed_edges, _ = merge_round(binary, max_len, base, [], tmp)
        edges = seed_edges
        while len(picked) < max_n:
            edges, gains = merge_round(binary, max_len, base + picked, found, tmp)
            best = sorted((p for p in gains if gains[p] > 0),
                          key=lambda p: (-gains[p], os.path.getsize(p)))
            if not best:
                break
            picked += best[:min(step, max_n - len(picked))]
        if len(picked) == max_n:
            edges, _ = merge_round(binary, max_len, base + picked, [], tmp)
    for p in picked:
        with open(p, "rb") as f:
            data = f.read()
        name = "found_" + hashlib.sha1(data).hexdigest()[:12]
        shutil.copyfile(p, os.path.join(seeds, name))
    print("%s: %d inputs added, %d edges covered (the seeds: %d)"
          % (seeds, len(picked), edges, seed_edges))


if __name__ == "__main__":
    main()

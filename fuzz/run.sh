#!/bin/sh
# `make fuzz-run`: each harness for SECONDS seconds on its seed and
# regression corpora with its dictionary, JOBS harnesses at a time
# (tests/run_parallel.sh; default: the number of processors). libFuzzer
# writes new inputs into SCRATCH/NAME (the first corpus directory), its log
# to SCRATCH/NAME.log and a crashing input as SCRATCH/NAME-*.
# FUZZ_MAX_LEN_NAME in the environment caps a harness's input length (4096
# otherwise). Reports every harness in the order given; exits 1 if any
# failed.
#   usage: fuzz/run.sh BINDIR SCRATCH SECONDS "LIBFUZZER FLAGS" NAME...
set -u
bindir=$1
scratch=$2
seconds=$3
flags=$4
shift 4
units=$(mktemp -d)
trap 'rm -rf "$units"' EXIT
for f in "$@"; do
    mkdir -p "$scratch/$f" "fuzz/regressions/$f"
    dict=
    [ -f "fuzz/$f.dict" ] && dict="-dict=fuzz/$f.dict"
    ml=$(printenv "FUZZ_MAX_LEN_$f") || ml=4096
    printf '"%s/fuzz_%s" %s -max_total_time=%s %s -max_len=%s -artifact_prefix="%s/%s-" "%s/%s" "fuzz/corpus/%s" "fuzz/regressions/%s" >"%s/%s.log" 2>&1\n' \
        "$bindir" "$f" "$flags" "$seconds" "$dict" "$ml" "$scratch" "$f" "$scratch" "$f" "$f" "$f" "$scratch" "$f"
done | sh tests/run_parallel.sh "$units"

fail=0
i=0
for f in "$@"; do
    i=$((i + 1))
    ml=$(printenv "FUZZ_MAX_LEN_$f") || ml=4096
    echo "fuzz-run: $f for $seconds s (max_len $ml)"
    grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb|INFO: seed corpus)' \
        "$scratch/$f.log"
    rc=$(cat "$units/$i.rc")
    if [ "$rc" -ne 0 ]; then
        tail -n 40 "$scratch/$f.log"
        echo "fuzz-run: $f failed (exit $rc); input saved as $scratch/$f-*"
        fail=1
    fi
done
exit $fail

#!/bin/sh
# `make fuzz-run`: each harness in turn for SECONDS seconds on its seed and
# regression corpora with its dictionary; libFuzzer writes new inputs into
# SCRATCH/NAME (the first corpus directory) and a crashing input as
# SCRATCH/NAME-*. FUZZ_MAX_LEN_NAME in the environment caps a harness's
# input length (4096 otherwise). Stops at the first harness that fails.
#   usage: fuzz/run.sh BINDIR SCRATCH SECONDS "LIBFUZZER FLAGS" NAME...
set -u
bindir=$1
scratch=$2
seconds=$3
flags=$4
shift 4
for f in "$@"; do
    mkdir -p "$scratch/$f" "fuzz/regressions/$f"
    dict=
    [ -f "fuzz/$f.dict" ] && dict="-dict=fuzz/$f.dict"
    eval "ml=\${FUZZ_MAX_LEN_$f:-4096}"
    echo "fuzz-run: $f for $seconds s (max_len $ml)"
    rc=0
    # shellcheck disable=SC2086 # flags and dict are lists of options
    "$bindir/fuzz_$f" $flags -max_total_time="$seconds" $dict -max_len="$ml" \
        -artifact_prefix="$scratch/$f-" "$scratch/$f" "fuzz/corpus/$f" "fuzz/regressions/$f" \
        >"$scratch/$f.log" 2>&1 || rc=$?
    grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb|INFO: seed corpus)' \
        "$scratch/$f.log"
    if [ "$rc" -ne 0 ]; then
        tail -n 40 "$scratch/$f.log"
        echo "fuzz-run: $f failed (exit $rc); input saved as $scratch/$f-*"
        exit 1
    fi
done

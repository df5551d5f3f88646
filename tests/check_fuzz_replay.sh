#!/bin/sh
# Replays every seed corpus and regression corpus through every harness,
# built without libFuzzer ($O/fuzz-replay/fuzz_NAME, see the Makefile), so
# the harnesses and their oracles run on every `make check`, under the
# sanitizers in a SANITIZE= build. Counts inputs:
#   fuzz-replay: N passed, M failed
O=${O:-build}
passed=0
failed=0
found=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for bin in "$O"/fuzz-replay/fuzz_*; do
    [ -x "$bin" ] || continue
    name=${bin##*/fuzz_}
    # fuzz_load reads each input with -j 2 too (see tests/run_tests.sh)
    if [ -n "${NO_THREADS:-}" ] && [ "$name" = load ]; then
        echo "SKIP: fuzz_load replay (NO_THREADS)"
        continue
    fi
    dirs=
    for d in fuzz/corpus/$name fuzz/regressions/$name; do
        [ -d "$d" ] && dirs="$dirs $d"
    done
    [ -n "$dirs" ] || continue
    found=1
    # shellcheck disable=SC2086
    if ${EXEC:-} "$bin" $dirs >"$log" 2>&1; then
        n=$(sed -n 's/^replayed \([0-9]*\) inputs$/\1/p' "$log")
        passed=$((passed + ${n:-0}))
    else
        # find the failing inputs one by one
        for f in $(find $dirs -type f ! -name '.*' | sort); do
            if ${EXEC:-} "$bin" "$f" >"$log" 2>&1; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1))
                echo "fuzz-replay: $name fails on $f:"
                tail -n 5 "$log" | sed 's/^/    /'
            fi
        done
    fi
done
if [ "$found" -eq 0 ]; then
    echo "SKIP: no fuzz replay binaries in $O/fuzz-replay"
    exit 0
fi
# a replay over no input at all proves nothing (an unreadable corpus)
if [ "$passed" -eq 0 ] && [ "$failed" -eq 0 ]; then
    echo "fuzz-replay: no input replayed"
    failed=1
fi
echo "fuzz-replay: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# Runs every test binary given as arguments and every check script
# $CHECKS_DIR/check_*.sh (CHECKS_DIR: tests), which need the command and
# (when importable) NumPy, JOBS at a time (default: the number of
# processors), and reports their outputs in that order. Prints one closing
# line:
#   total: N passed, M failed
# and exits non-zero if anything failed. A check script that exits
# non-zero counts as at least one failure, whatever its result line says.
#   EXEC=PREFIX   runs the target programs through PREFIX (an emulator such
#                 as "qemu-s390x -L /usr/s390x-linux-gnu", see
#                 tests/cross/run.sh); the checks get NPYDT as a wrapper that
#                 does so, NPYDT_TARGET as the program itself and EXEC
#   CHECKS=LIST   runs only these check scripts (names such as check_dump),
#                 all of $CHECKS_DIR/check_*.sh when unset
set -u
EXEC=${EXEC:-}
export EXEC
# the byte order of the machine the command runs on, which need not be the
# host's: the data encoding byte of its ELF header (1 little, 2 big endian)
if [ -z "${TARGET_ENDIAN:-}" ] && [ -f "${NPYDT:-}" ]; then
    case $(od -An -tu1 -j5 -N1 "$NPYDT" | tr -d ' ') in
        2) TARGET_ENDIAN=big ;;
        *) TARGET_ENDIAN=little ;;
    esac
    export TARGET_ENDIAN
fi
if [ -n "$EXEC" ]; then
    # a script that runs the target command through the emulator, for the
    # checks and the Python programs they start
    O=${O:-build}
    # NPYDT_TARGET already set: NPYDT is the wrapper of an outer run
    [ -n "${NPYDT_TARGET:-}" ] ||
        NPYDT_TARGET=$(cd "$(dirname "$NPYDT")" && pwd)/$(basename "$NPYDT")
    mkdir -p "$O/exec"
    printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$EXEC" "$NPYDT_TARGET" >"$O/exec/npydt"
    chmod +x "$O/exec/npydt"
    NPYDT=$O/exec/npydt
    export NPYDT NPYDT_TARGET
fi
passed=0
failed=0
units=$(mktemp -d)
trap 'rm -rf "$units"' EXIT

# Script-level checks: each prints "NAME: N passed, M failed" or "SKIP: ...".
scripts=
if [ -n "${CHECKS:-}" ]; then
    for c in $CHECKS; do scripts="$scripts ${CHECKS_DIR:-tests}/$c.sh"; done
else
    scripts=$(echo "${CHECKS_DIR:-tests}"/check_*.sh)
fi

# Every test binary and every check script runs through
# tests/run_parallel.sh (JOBS at a time); their outputs are reported below
# in this order.
# NO_THREADS=1 (tests/cross/run.sh for i386: qemu-i386 7.2 spins for ever
# in programs that start threads) leaves out the tests of the command's
# thread pool, which run natively, under ThreadSanitizer and on s390x.
if [ -n "${NO_THREADS:-}" ]; then
    kept=
    for t in "$@"; do
        case ${t##*/} in test_cli_jobs) echo "SKIP: $t (NO_THREADS)" ;; *) kept="$kept $t" ;; esac
    done
    # shellcheck disable=SC2086
    set -- $kept
fi
{
    for t in "$@"; do printf '%s "%s"\n' "$EXEC" "$t"; done
    for s in $scripts; do [ -e "$s" ] && printf 'sh "%s"\n' "$s"; done
} | sh "$(dirname "$0")/run_parallel.sh" "$units"

count() {  # count cmocka's "[  PASSED  ] N test(s)." / "[  FAILED  ] N test(s)."
    p=$(sed -n 's/.*\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    f=$(sed -n 's/.*\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
}

i=0
for t in "$@"; do
    i=$((i + 1))
    log=$units/$i.out
    if [ "$(cat "$units/$i.rc")" -eq 0 ]; then
        count
    else
        cat "$log"
        count
        # a crash before cmocka's summary still counts as a failure
        grep -q '^\[  FAILED  \]' "$log" || failed=$((failed + 1))
    fi
done

for s in $scripts; do
    [ -e "$s" ] || { echo "$s: no such check"; failed=$((failed + 1)); continue; }
    i=$((i + 1))
    log=$units/$i.out
    rc=$(cat "$units/$i.rc")
    cat "$log"
    lines=$(grep -E '^[A-Za-z_-]*:? ?[0-9]+ passed, [0-9]+ failed' "$log")
    p=0
    f=0
    if [ -n "$lines" ]; then
        p=$(echo "$lines" | sed -E 's/^[^0-9]*([0-9]+) passed.*/\1/' | paste -sd+ | bc)
        f=$(echo "$lines" | sed -E 's/.* ([0-9]+) failed.*/\1/' | paste -sd+ | bc)
    elif ! grep -q '^SKIP' "$log"; then
        echo "$s: produced no result line"
        f=1
    fi
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "$s: exited with status $rc"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
done

echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# A test binary runs the tests its first argument matches and, in a
# table-driven test, the cases its second argument matches. Runs the
# example lines of tests/test_util.h's opening comment as they are written
# (build/ read as $O), and checks that a case pattern picks its case alone
# and that one matching no case fails.
# Prints "case_filter: N passed, M failed".
set -u
O=${O:-build}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
ko() { failed=$((failed + 1)); echo "case_filter: $*"; }

# the documented lines: " *   build/tests/NAME ARGS..."
sed -n 's|^ \*   build/\(tests/test_[a-z_]* .*\)$|\1|p' tests/test_util.h > "$dir/examples"
[ "$(wc -l < "$dir/examples")" -ge 2 ] || ko "tests/test_util.h shows no example lines"
while read -r line; do
    # the arguments are single-quoted words, as a shell reads them
    if eval "${EXEC:-} \"\$O\"/$line" > "$dir/out" 2>&1 &&
        grep -q '^\[  PASSED  \] [1-9]' "$dir/out"; then
        ok
    else
        ko "documented 'build/$line' does not pass:"; cat "$dir/out"
    fi
done < "$dir/examples"

# a case pattern runs the one case it names (the dumped case files count them)
mkdir "$dir/cases"
if DUMP_CASES_DIR=$dir/cases ${EXEC:-} "$O/tests/test_header_errors" '*' case_017 > "$dir/out" 2>&1 &&
    [ "$(ls "$dir/cases")" = "$(cd "$dir/cases" && ls case_017_*.npy)" ]; then
    ok
else
    ko "'*' case_017 did not run case_017 alone: $(ls "$dir/cases" | head -3)"; cat "$dir/out"
fi

# a case pattern that matches no case is a failure, not an empty pass
if ${EXEC:-} "$O/tests/test_header_errors" '*' no_such_case > "$dir/out" 2>&1; then
    ko "a case pattern matching nothing passed"
elif grep -q 'no table case matches' "$dir/out"; then
    ok
else
    ko "a case pattern matching nothing failed without saying so:"; cat "$dir/out"
fi

echo "case_filter: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

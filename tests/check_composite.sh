#!/bin/sh
# Composite tokens change how the header literal is lexed, never what it
# means: every fuzz corpus input of the literal's harnesses (header, descr,
# schema, alloc; seeds and regressions) is parsed by the literal parser
# built with composite tokens ($O/tests/tools/literal_replay) and without
# them (literal_replay_plain, the lexer compiled with NPYDT_COMPOSITE=0),
# and the two must print the same trees, errors, codes and offsets.
# Prints
#   composite: N passed, M failed
O=${O:-build}
ON=$O/tests/tools/literal_replay
OFF=$O/tests/tools/literal_replay_plain
for b in "$ON" "$OFF"; do
    if [ ! -x "$b" ]; then
        echo "SKIP: composite tokens check ($b not built)"
        exit 0
    fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
for name in header descr schema alloc; do
    files=$(find fuzz/corpus/$name fuzz/regressions/$name -type f ! -name '.*' 2>/dev/null | sort)
    n=$(printf '%s\n' "$files" | grep -c .)
    if [ "$n" -eq 0 ]; then
        echo "composite: no inputs in fuzz/corpus/$name"
        failed=$((failed + 1))
        continue
    fi
    # shellcheck disable=SC2086
    ${EXEC:-} "$ON" $files >"$tmp/on" 2>&1 || { echo "composite: $ON failed on $name"; failed=$((failed + 1)); continue; }
    # shellcheck disable=SC2086
    ${EXEC:-} "$OFF" $files >"$tmp/off" 2>&1 || { echo "composite: $OFF failed on $name"; failed=$((failed + 1)); continue; }
    if cmp -s "$tmp/on" "$tmp/off"; then
        passed=$((passed + n))
    else
        # one failure per input whose parses differ
        for f in $files; do
            "$ON" "$f" >"$tmp/f_on" 2>&1
            "$OFF" "$f" >"$tmp/f_off" 2>&1
            if cmp -s "$tmp/f_on" "$tmp/f_off"; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1))
                echo "composite: $f parses differently without composite tokens:"
                diff "$tmp/f_on" "$tmp/f_off" | head -10 | sed 's/^/    /'
            fi
        done
    fi
done
echo "composite: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

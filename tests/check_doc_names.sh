#!/bin/sh
# README.md and doc/*.md name only what include/npydt.h declares: every
# npydt_NAME and NPYDT_NAME in them appears in the header's code (its
# comments stripped by the C preprocessor), and a prefix written as
# `npydt_dtype_*` begins at least one declared name. A name that is not
# the library's (a program, a type the command's output declares) is
# listed below with the reason. Each other name is reported with its file
# and line. And every ```c block of those pages compiles against the
# header (-std=c11 -Wall -Wextra -Wpedantic -Werror, unused names
# allowed): a block that defines functions as a file, any other as the
# body of a function. tests/consumers/ is on the include path for the
# README's DuckDB example (its duckdb.h declares what the example uses).
# Prints "doc-names: N passed, M failed".
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# names that the pages may use although npydt.h does not declare them
exceptions='
npydt_bench       tests/bench: the benchmark program
npydt_cfloat_t    npydt cstruct output: the complex types it declares
npydt_cdouble_t   npydt cstruct output: the complex types it declares
NPYDT_JOBS        environment: the default of the command -j
'

if ! ${CC:-cc} -fpreprocessed -dD -E -P include/npydt.h 2>/dev/null >"$tmp/header" ||
    ! [ -s "$tmp/header" ]; then
    echo "doc-names: ${CC:-cc} could not strip the comments of include/npydt.h"
    echo "doc-names: 0 passed, 1 failed"
    exit 1
fi
grep -oE '\b(npydt|NPYDT)_[A-Za-z_0-9]+' "$tmp/header" | sort -u >"$tmp/declared"
echo "$exceptions" | awk 'NF { print $1 }' >>"$tmp/declared"

# FILE:LINE:NAME for every name in the pages
grep -noE '\b(npydt_[a-z_0-9]+|NPYDT_[A-Z_0-9]+)' README.md doc/*.md >"$tmp/used"

awk -F: -v declared="$tmp/declared" -v out="$tmp/names" '
    BEGIN { while ((getline n < declared) > 0) { have[n] = 1; names[++count] = n } }
    {
        name = $3
        ok = (name in have)
        if (!ok && name ~ /_$/)   # a prefix: npydt_dtype_* and the like
            for (i = 1; i <= count && !ok; i++)
                ok = (index(names[i], name) == 1)
        if (ok) passed++
        else { failed++; printf "doc-names: %s:%s: %s is not declared in include/npydt.h\n", $1, $2, name }
    }
    END { print passed + 0, failed + 0 > out }
' "$tmp/used"
read -r passed failed <"$tmp/names"

# the C blocks: FILE.LINE.c for the block that starts at LINE of FILE
for page in README.md doc/*.md; do
    awk -v dir="$tmp" -v page="$(echo "$page" | tr / _)" '
        /^```c$/ { on = 1; f = dir "/" page "." NR ".c"; next }
        on && /^```$/ { on = 0; close(f); next }
        on { print > f }
    ' "$page"
done
prelude='#include <npydt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>'
for block in "$tmp"/*.c; do
    [ -e "$block" ] || continue
    name=$(basename "$block" .c | sed 's/_/\//; s/\.\([0-9]*\)$/:\1/')
    cc_block() {
        ${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic -Werror -Wno-unused \
            -Iinclude -Itests/consumers -c -o "$tmp/block.o" -x c - 2>"$tmp/cc.log"
    }
    # a block that defines a function (a '{' alone at the start of a line)
    # stands as a file; any other is statements
    if grep -q '^{$' "$block"; then
        { echo "$prelude"; cat "$block"; } | cc_block
    else
        { echo "$prelude"; echo 'void block(void);'; echo 'void block(void) {';
          cat "$block"; echo '}'; } | cc_block
    fi
    if [ $? -eq 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "doc-names: the C block at $name does not compile:"
        head -n 5 "$tmp/cc.log"
    fi
done
echo "doc-names: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

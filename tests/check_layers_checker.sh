#!/bin/sh
# tests/check_layers.sh itself: small source trees, each with one include
# that breaks the stage order, must fail it in every way the include can be
# written (quoted, in angle brackets, through "./" and "../"), and the same
# tree without it must pass.
# Prints "layers_checker: N passed, M failed".
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
failed=0

# tree NAME: a tree with stages base and write, each with its private
# header and one source file that includes only what it may
tree() {
    t=$dir/$1
    mkdir -p "$t/src/text" "$t/src/base" "$t/src/write" "$t/src/cli/dump" "$t/include" "$t/tests"
    echo 'LIB_STAGES := text base write' > "$t/Makefile"
    printf '#include <stddef.h>\n' > "$t/src/text/text.h"
    printf '#include "text.h"\n' > "$t/src/text/digits.c"
    printf '/* private */\n' > "$t/src/text/float_tables.h"
    printf '#include "npydt.h"\n' > "$t/src/base/base.h"
    printf '#include "base.h"\n#include <stdio.h>\n' > "$t/src/base/io.c"
    printf '#include "base/base.h"\n#include "write/helper.h"\n' > "$t/src/write/write.h"
    printf '/* helper */\n' > "$t/src/write/helper.h"
    printf '#include "write.h"\n' > "$t/src/write/write.c"
    printf '#include <npydt.h>\n#include "../../include/npydt.h"\n' > "$t/src/cli/main.c"
    printf '/* the dump command */\n' > "$t/src/cli/dump/dump.h"
    printf '#include "dump.h"\n#include "../../../include/npydt.h"\n' > "$t/src/cli/dump/dump.c"
    printf '/* public */\n' > "$t/include/npydt.h"
    printf '/* tests */\n' > "$t/tests/test_util.h"
}

# expect WANT NAME FILE LINE: a tree NAME whose FILE gets LINE appended
# must pass (WANT 0) or fail (WANT 1) the check
expect() {
    tree "$2"
    [ -n "$4" ] && printf '%s\n' "$4" >> "$dir/$2/$3"
    rc=0
    sh tests/check_layers.sh "$dir/$2" > "$dir/out" 2>&1 || rc=$?
    if [ "$1" = 0 ] && [ "$rc" = 0 ]; then
        passed=$((passed + 1))
    elif [ "$1" = 1 ] && [ "$rc" = 1 ] && grep -q "^check_layers: $3:" "$dir/out"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "layers_checker: $3 with '$4': exit $rc, want $1:"
        cat "$dir/out"
    fi
}

expect 0 clean src/base/io.c ''
expect 0 same_stage src/base/io.c '#include "./base.h"'
expect 0 public_angle src/base/io.c '#include <npydt.h>'
# a later stage, in every spelling
expect 1 quoted src/base/io.c '#include "write/write.h"'
expect 1 angle src/base/io.c '#include <write/write.h>'
expect 1 angle_spaced src/base/io.c '  #  include   <write/write.h>'
expect 1 parent src/base/io.c '#include "../write/write.h"'
expect 1 dot_parent src/base/io.c '#include "./../write/write.h"'
expect 1 angle_parent src/base/io.c '#include <base/../write/write.h>'
expect 1 roundabout src/base/io.c '#include "../../src/write/write.h"'
# an earlier stage past its private header
expect 1 private src/write/write.c '#include "../base/io.c"'
expect 1 private_angle src/write/write.c '#include <base/io.c>'
# the command, through any path, uses only the public header
expect 1 cli_angle src/cli/main.c '#include <base/base.h>'
expect 1 cli_parent src/cli/main.c '#include "../base/base.h"'
expect 1 cli_folder_angle src/cli/dump/dump.c '#include <base/base.h>'
# ... and the text stage's header, not its other files
expect 0 cli_text src/cli/main.c '#include "text/text.h"'
expect 0 cli_folder_text src/cli/dump/dump.c '#include "../../text/text.h"'
expect 1 cli_text_private src/cli/main.c '#include "text/float_tables.h"'
# the lowest stage uses no other
expect 1 text_up src/text/digits.c '#include "base/base.h"'
# nothing of the tree outside src/ but the public header
expect 1 outside src/base/io.c '#include "../../tests/test_util.h"'

echo "layers_checker: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

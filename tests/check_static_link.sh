#!/bin/sh
# A static link pays only for what it uses: the README's first C example
# (a header walker) links against libnpydt.a with -Wl,--gc-sections and
# WITHOUT -lz (zlib is needed only by programs that touch archives), runs,
# and the library adds at most LIMIT bytes of text to it (size's text:
# code and constants; the whole library is about 300 KB). A program that
# opens an archive links with -lz. Prints "static-link: N passed, M failed".
O=${O:-build}
CC=${CC:-cc}
LIMIT=${STATIC_TEXT_LIMIT:-131072}
if [ -n "${SANITIZE:-}" ] || [ -n "${COVERAGE:-}" ]; then
    echo "SKIP: static-link: the sanitizer and coverage runtimes keep their own code"
    exit 0
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
ko() { failed=$((failed + 1)); echo "static-link: $1"; }
text_of() { size "$1" | awk 'NR == 2 {print $1}'; }

awk '/^```c$/ && !done {on = 1; next} on && /^```$/ {on = 0; done = 1} on' README.md >"$tmp/walk.c"
printf 'int main(void) { return 0; }\n' >"$tmp/empty.c"
cflags="-std=c11 -Wall -Wextra -Werror -Iinclude"
# shellcheck disable=SC2086
if $CC $cflags -o "$tmp/walk" "$tmp/walk.c" "$O/libnpydt.a" ${LDFLAGS:-} -Wl,--gc-sections \
        2>"$tmp/cc.log"; then
    ok
else
    ko "the header walker does not link without -lz under --gc-sections:"
    grep -o "undefined reference to [^ ]*" "$tmp/cc.log" | sort -u | head -n 5
fi
# shellcheck disable=SC2086
$CC $cflags -o "$tmp/empty" "$tmp/empty.c" ${LDFLAGS:-} -Wl,--gc-sections 2>>"$tmp/cc.log"
if [ -x "$tmp/walk" ]; then
    out=$(${EXEC:-} "$tmp/walk" tests/fixtures/struct_nested3.npy 2>&1)
    # shellcheck disable=SC2086
    $CC $cflags -o "$tmp/walk_all" "$tmp/walk.c" "$O/libnpydt.a" ${LDFLAGS:-} -lz -lm 2>>"$tmp/cc.log"
    all=$(${EXEC:-} "$tmp/walk_all" tests/fixtures/struct_nested3.npy 2>&1)
    if [ -n "$out" ] && [ "$out" = "$all" ]; then ok; else ko "the walker's output differs: $out"; fi
    lib=$(($(text_of "$tmp/walk") - $(text_of "$tmp/empty")))
    whole=$(($(text_of "$tmp/walk_all") - $(text_of "$tmp/empty")))
    echo "static-link: the header walker takes $lib bytes of the library's text" \
        "($whole without --gc-sections, with -lz)"
    if [ "$lib" -le "$LIMIT" ]; then ok; else ko "$lib bytes of text, above $LIMIT"; fi
fi

# a program that opens an archive needs zlib, and links with it
cat >"$tmp/npz.c" <<'CEOF'
#include <npydt.h>
int main(int argc, char **argv)
{
    npydt_npz *z;
    npydt_error err;
    if (argc < 2 || npydt_npz_open_path(argv[1], NULL, &z, &err) != NPYDT_OK)
        return 1;
    npydt_npz_close(z);
    return 0;
}
CEOF
# shellcheck disable=SC2086
if $CC $cflags -o "$tmp/npz" "$tmp/npz.c" "$O/libnpydt.a" ${LDFLAGS:-} -Wl,--gc-sections -lz \
        2>>"$tmp/cc.log" && ${EXEC:-} "$tmp/npz" tests/fixtures_npz/savez_compressed.npz; then
    ok
else
    ko "a program that opens an archive does not link or run with -lz"
fi
echo "static-link: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

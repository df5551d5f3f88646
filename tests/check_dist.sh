#!/bin/sh
# make dist: the tarball holds every file git tracks and the generated
# parser and lexer, and the release it unpacks to builds without re2c and
# bison (RE2C=false BISON=false stand for their absence). By default the
# generated sources and the objects made from them are built, which is
# what the generators would otherwise be needed for; DIST_FULL=1 (make
# check-dist, run by make check-all) builds and runs the whole release.
# Prints "dist: N passed, M failed".
set -u
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "SKIP: dist check (not a git checkout: make dist packs what git tracks)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "dist: $*"; }
version=$(sed -n 's/^#define NPYDT_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' include/npydt.h | paste -sd.)
name=npydt-$version

if make -s O="$tmp/o" dist >"$tmp/log" 2>&1 && [ -f "$tmp/o/$name.tar.gz" ]; then ok; else
    bad "make dist failed: $(tail -n 5 "$tmp/log")"
    echo "dist: $passed passed, $failed failed"
    exit 1
fi
mkdir "$tmp/x"
tar -xzf "$tmp/o/$name.tar.gz" -C "$tmp/x"
rel=$tmp/x/$name
# every tracked file, and the generated sources
missing=$(git ls-files | while read -r f; do [ -e "$rel/$f" ] || echo "$f"; done | head -n 5)
if [ -z "$missing" ]; then ok; else bad "tarball lacks $missing"; fi
for f in gen/parser.c gen/parser.h gen/lexer.c doc/npydt.1 doc/cli-json.md doc/npydt.bash-completion; do
    if [ -s "$rel/$f" ]; then ok; else bad "tarball lacks $f"; fi
done
# nothing of a build comes along
if [ -z "$(cd "$rel" && find . -name '*.o' -o -name '*.a' | head -n 1)" ]; then ok; else bad "tarball holds build products"; fi

# the generated sources come from gen/ without re2c or bison, and compile
if (cd "$rel" && make -s O=b RE2C=false BISON=false b/lib/literal/parser.o b/lib/literal/lexer.o) \
    >"$tmp/log" 2>&1 && cmp -s "$rel/gen/lexer.c" "$rel/b/gen/lexer.c" &&
    cmp -s "$rel/gen/parser.c" "$rel/b/gen/parser.c"; then
    ok
else
    bad "the release needs re2c or bison: $(tail -n 5 "$tmp/log")"
fi
# the whole release builds and runs (before the grammar is touched below)
if [ "${DIST_FULL:-0}" = 1 ]; then
    if (cd "$rel" && make -s -j2 O=full RE2C=false BISON=false) >"$tmp/log" 2>&1 &&
        "$rel/full/npydt" inspect --json tests/fixtures/struct_simple.npy >"$tmp/out" 2>&1 &&
        build_out=$("${NPYDT:-build/npydt}" inspect --json tests/fixtures/struct_simple.npy) &&
        [ "$(cat "$tmp/out")" = "$build_out" ]; then
        ok
    else
        bad "the release does not build or run: $(tail -n 5 "$tmp/log") $(cat "$tmp/out")"
    fi
fi

# a grammar edited after the release is generated again (and fails here,
# where the generators are "false")
sleep 1
touch "$rel/grammar/parser.y"
if (cd "$rel" && make -s O=c RE2C=false BISON=false c/gen/parser.c) >/dev/null 2>&1; then
    bad "an edited grammar did not run the parser generator"
else
    ok
fi
echo "dist: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

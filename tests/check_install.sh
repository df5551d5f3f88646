#!/bin/sh
# `make install` into a staging DESTDIR: the README's C example builds
# against the installed header, pkg-config file and library, and runs; the
# shared library exports exactly the functions the public header declares.
O=${O:-build}
if [ -n "${COVERAGE:-}" ]; then
    # gcov's runtime adds its own exported symbols and link needs
    echo "SKIP: install check (coverage build)"
    exit 0
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
ko() { failed=$((failed + 1)); echo "install: $1"; }

# installing what the suite built must not build it again: other checks
# run the same programs at the same time (make check passes its WERROR so
# that the compile flags agree)
touch "$stage/before"
if make -s O="$O" install DESTDIR="$stage" PREFIX=/usr/local >"$stage/log" 2>&1; then ok; else ko "make install failed"; cat "$stage/log"; fi
rebuilt=$(find "$O/npydt" "$O/libnpydt.a" "$O"/libnpydt.so.* -newer "$stage/before" 2>/dev/null)
if [ -z "$rebuilt" ]; then ok; else ko "make install built again: $(echo $rebuilt)"; fi
for f in include/npydt.h lib/libnpydt.a lib/libnpydt.so lib/libnpydt.so.0 lib/pkgconfig/npydt.pc bin/npydt \
    share/man/man1/npydt.1 share/bash-completion/completions/npydt share/doc/npydt/cli-json.md; do
    if [ -e "$stage/usr/local/$f" ]; then ok; else ko "missing $f"; fi
done

# the README example, extracted from README.md
awk '/^```c$/ && !done {on = 1; next} on && /^```$/ {on = 0; done = 1} on' README.md > "$stage/demo.c"   # the first C block
pc="$stage/usr/local/lib/pkgconfig/npydt.pc"
cflags="-I$stage/usr/local/include"
libs="$stage/usr/local/lib/libnpydt.a ${LDFLAGS:-} -lz -lm"
# a sanitized build's library needs the sanitizer runtime at link time
[ -n "${SANITIZE:-}" ] && libs="$libs -fsanitize=$SANITIZE"
if grep -q 'Cflags: -I${includedir}' "$pc" && grep -q 'Libs: -L${libdir} -lnpydt' "$pc"; then ok; else ko "npydt.pc content"; fi
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror $cflags -o "$stage/demo" "$stage/demo.c" $libs 2>"$stage/cc.log"; then
    ok
    out=$(${EXEC:-} "$stage/demo" tests/fixtures/struct_nested3.npy)
    case "$out" in *"a.b.c at byte 0, kind i, 2 bytes, order <, x1"*) ok ;; *) ko "demo output: $out" ;; esac
else
    ko "README example does not compile"; cat "$stage/cc.log"
fi

# exported symbols == NPYDT_API declarations == the linker version script
so="$O/libnpydt.so"
exported=$(nm -D --defined-only "$so" | awk '$2 == "T" {sub(/@.*/, "", $3); print $3}' | sort)
declared=$(grep -v '^#' include/npydt.h | grep -o 'NPYDT_API [^(]*(' | sed -E 's/.*[ *]([a-z_0-9]+)\($/\1/' | sort)
listed=$(sed -n 's/^ *\(npydt_[a-z_0-9]*\);$/\1/p' npydt.map | sort)
if [ "$exported" = "$declared" ]; then ok; else
    ko "exports differ from declarations:"; echo "$exported" > "$stage/e"; echo "$declared" > "$stage/d"; diff "$stage/e" "$stage/d"
fi
if [ "$listed" = "$declared" ]; then ok; else
    ko "npydt.map differs from declarations:"; echo "$listed" > "$stage/l"; echo "$declared" > "$stage/d"; diff "$stage/l" "$stage/d"
fi
# every export carries the version node of npydt.map
if nm -D --defined-only "$so" | awk '$2 == "T"' | grep -qv '@@NPYDT_0$'; then
    ko "an exported function has no NPYDT_0 version"; nm -D --defined-only "$so" | awk '$2 == "T"' | grep -v '@@NPYDT_0$'
else ok; fi
# the static library defines no global name the header does not declare
# (names the compiler makes, such as i386's __x86.get_pc_thunk.bx, are not
# a program's to use): a program may define any of the library's internal
# names (the list the Makefile localizes, $O/lib/internal-names; a name
# missing from it fails the check above) and still links and runs with it
static=$(nm -g --defined-only "$stage/usr/local/lib/libnpydt.a" | awk 'NF == 3 && $3 ~ /^[A-Za-z]/ {print $3}' | sort)
if [ "$static" = "$declared" ]; then ok; else
    ko "libnpydt.a defines names the header does not declare:"; echo "$static" > "$stage/s"; echo "$declared" > "$stage/d"; diff "$stage/s" "$stage/d"
fi
# (the list also holds ASan's __odr_asan.NAME and __odr_asan_gen_NAME
# indicators, names no program may define)
awk '$1 ~ /^[A-Za-z][A-Za-z_0-9]*$/ {print "int " $1 "(void);\nint " $1 "(void) { return 0; }"}' \
    "$O/lib/internal-names" > "$stage/clash.c"
if [ "$(grep -c '{' "$stage/clash.c")" -gt 50 ]; then ok; else ko "too few internal names to try: $(grep -c '{' "$stage/clash.c")"; fi
if ${CC:-cc} -std=c11 $cflags -o "$stage/demo_clash" "$stage/demo.c" "$stage/clash.c" $libs 2>"$stage/clash.log"; then
    out=$(${EXEC:-} "$stage/demo_clash" tests/fixtures/struct_nested3.npy)
    case "$out" in *"a.b.c at byte 0, kind i, 2 bytes, order <, x1"*) ok ;; *) ko "demo with the internal names output: $out" ;; esac
else
    ko "a program defining the library's internal names does not link:"; head -n 5 "$stage/clash.log"
fi
if make -s O="$O" uninstall DESTDIR="$stage" PREFIX=/usr/local >/dev/null 2>&1 && [ ! -e "$stage/usr/local/lib/libnpydt.a" ] &&
    [ ! -e "$stage/usr/local/share/man/man1/npydt.1" ]; then ok; else ko "uninstall"; fi
echo "install: $passed passed, $failed failed"

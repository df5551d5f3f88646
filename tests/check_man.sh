#!/bin/sh
# doc/npydt.1: renders without a warning (groff -man -ww, and man-db's
# man --warnings, which runs groff), carries the version of the public
# header, and documents every command that 'npydt --help' lists and every
# option that 'npydt COMMAND --help' lists.
# Prints "man: N passed, M failed".
set -u
NPYDT=${NPYDT:-build/npydt}
page=doc/npydt.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "man: $*"; }

if command -v groff >/dev/null 2>&1; then
    if groff -man -ww -z "$page" >"$tmp/out" 2>&1 && [ ! -s "$tmp/out" ]; then ok; else
        bad "groff -man -ww warns: $(head -n 5 "$tmp/out")"
    fi
else
    echo "man: groff not installed, rendering not checked"
fi
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
    if LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>"$tmp/err" >"$tmp/out" &&
        [ ! -s "$tmp/err" ] && grep -q 'EXIT STATUS' "$tmp/out"; then
        ok
    else
        bad "man --warnings -l: $(head -n 5 "$tmp/err")"
    fi
fi

version=$(sed -n 's/^#define NPYDT_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' include/npydt.h | paste -sd.)
if grep -q "^\.TH NPYDT 1 .* \"npydt $version\" " "$page"; then ok; else
    bad ".TH does not carry version $version"
fi

# the page's text with roff's escaped minus signs as plain ones
sed 's/\\-/-/g' "$page" >"$tmp/page"
commands=$("$NPYDT" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
[ -n "$commands" ] || bad "npydt --help lists no command"
for cmd in $commands; do
    if grep -q "^\.SS \"$cmd[ \"]" "$tmp/page"; then ok; else bad "no section for command $cmd"; fi
    # every option of the command's table, as --name and as -x
    "$NPYDT" "$cmd" --help | sed -n '/^Options:$/,$p' |
        sed -n 's/^  \(-[A-Za-z0-9]\)\{0,1\}[, ]*\(--[a-z0-9-]*\).*/\1 \2/p' >"$tmp/opts"
    while read -r a b; do
        for o in $a $b; do
            if grep -q -- "$o\\b" "$tmp/page"; then ok; else bad "$cmd: option $o is not in the page"; fi
        done
    done <"$tmp/opts"
done
echo "man: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

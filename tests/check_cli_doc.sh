#!/bin/sh
# doc/cli-json.md, the JSON output written for users, covers what the
# command writes: every key inspect --json, check --json and stats --json print for the
# fixtures, every mismatch code, each value option of dump with its
# choices, CSV/TSV when dump has them, the four exit statuses; and the
# command's help and the README point to it.
# Prints "cli-doc: N passed, M failed".
set -u
NPYDT=${NPYDT:-build/npydt}
doc=doc/cli-json.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "cli-doc: $*"; }
documented() {  # documented WHAT WORD: WORD appears in the page as `WORD` or "WORD"
    if grep -qF -e "\`$2\`" -e "\"$2\"" "$doc"; then ok; else bad "$1 '$2' is not in $doc"; fi
}
[ -s "$doc" ] || { bad "$doc is missing"; echo "cli-doc: $passed passed, $failed failed"; exit 1; }

# every key of every object inspect --json writes for the fixtures
for f in tests/fixtures/*.npy tests/fixtures_npz/*.npz; do
    "$NPYDT" inspect --json "$f" 2>/dev/null
done | grep -o '"[a-z_]*":' | sort -u | tr -d '":' >"$tmp/keys"
[ -s "$tmp/keys" ] || bad "inspect --json printed no keys"
while read -r k; do documented "inspect --json key" "$k"; done <"$tmp/keys"

# check --json: its keys and every mismatch code the library names
"$NPYDT" check --json --schema "[('x', '<f4')]" tests/fixtures/struct_simple.npy 2>/dev/null |
    grep -o '"[a-z_]*":' | sort -u | tr -d '":' >"$tmp/keys"
while read -r k; do documented "check --json key" "$k"; done <"$tmp/keys"
sed -n 's/^ *case NPYDT_MISMATCH_[A-Z_]*: return "\([a-z_]*\)";/\1/p' src/schema/*.c >"$tmp/codes"
[ -s "$tmp/codes" ] || bad "no mismatch code names found in src/schema"
while read -r c; do documented "mismatch code" "$c"; done <"$tmp/codes"

# stats --json: every key of its objects for the fixtures
for f in tests/fixtures/*.npy; do
    "$NPYDT" stats --json "$f" 2>/dev/null
done | grep -o '"[a-z_]*":' | sort -u | tr -d '":' >"$tmp/keys"
[ -s "$tmp/keys" ] || bad "stats --json printed no keys"
while read -r k; do documented "stats --json key" "$k"; done <"$tmp/keys"

# dump's options that choose how values are written: each choice
"$NPYDT" dump --help | sed -n '/^Options:$/,$p' |
    sed -n 's/^ *\(--[a-z-]*\) \([a-z]*|[a-z|]*\) .*/\1 \2/p' >"$tmp/choices"
while read -r opt choices; do
    for c in $(echo "$choices" | tr '|' ' '); do
        if grep -qF -- "$opt $c" "$doc" || grep -qF -- "$opt=$c" "$doc" ||
            grep -qF -- "\`$c\`" "$doc"; then ok; else bad "dump $opt $c is not in $doc"; fi
    done
done <"$tmp/choices"
for opt in --csv --tsv; do
    if "$NPYDT" dump --help | grep -q -- "^ *$opt "; then
        if grep -qF -- "$opt" "$doc"; then ok; else bad "dump $opt is not in $doc"; fi
    fi
done

for s in 0 1 2 3; do
    if grep -q "^| $s |" "$doc"; then ok; else bad "exit status $s is not in $doc"; fi
done
if "$NPYDT" --help | grep -q 'cli-json.md'; then ok; else bad "npydt --help does not point to cli-json.md"; fi
if grep -q 'doc/cli-json.md' README.md; then ok; else bad "README does not point to doc/cli-json.md"; fi
echo "cli-doc: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# Arrow's own JavaScript implementation reads `npydt dump --arrow`: every
# fixture's stream goes through tableFromIPC (tests/consumers/
# arrow_js_check.mjs), whose column names and values must be NumPy's
# (tests/arrow_js_expect.py writes them); so must those of a few
# selections (--range, --index, --tail, --head, --fields). apache-arrow comes from
# tests/consumers (`npm ci` there): without it, node or NumPy the check
# prints a SKIP line. Prints "arrow_js: N passed, M failed".
set -u
O=${O:-build}
PYTHON=${PYTHON:-/usr/bin/python3}
FIXTURES=${FIXTURES:-tests/fixtures}
here=$(dirname "$0")
cli=$O/npydt
if ! command -v node >/dev/null 2>&1; then
    echo "SKIP: arrow_js: no node"
    exit 0
fi
if [ ! -d "$here/consumers/node_modules/apache-arrow" ]; then
    echo "SKIP: arrow_js: no $here/consumers/node_modules/apache-arrow (run npm ci in tests/consumers)"
    exit 0
fi
if [ -n "${EXEC:-}" ]; then
    echo "SKIP: arrow_js: the command runs through $EXEC"
    exit 0
fi
if ! "$PYTHON" -c 'import numpy' 2>/dev/null; then
    echo "SKIP: arrow_js: $PYTHON cannot import numpy"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$PYTHON" "$here/arrow_js_expect.py" "$FIXTURES" "$tmp/expect.json" || {
    echo "arrow_js: 0 passed, 1 failed"
    echo "FAIL arrow_js: arrow_js_expect.py failed"
    exit 1
}
fail=0
for name in $("$PYTHON" -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))))' "$tmp/expect.json"); do
    file=${name%%@*}
    opt=
    case $name in *@*) opt=${name#*@} ;; esac
    if ! "$cli" dump --arrow ${opt:+"$opt"} -o "$tmp/$name.arrow" "$FIXTURES/$file" 2>"$tmp/err"; then
        echo "FAIL arrow_js: dump --arrow $name: $(cat "$tmp/err")"
        fail=1
    fi
done
node "$here/consumers/arrow_js_check.mjs" "$tmp/expect.json" "$tmp" || fail=1
exit $fail

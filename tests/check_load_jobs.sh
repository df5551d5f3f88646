#!/bin/sh
# npydt load -j N and append -j N read JSON Lines, CSV and TSV in runs of
# lines on N threads: the output, the messages and the exit status are
# those of -j 1. Compared for -j 1, -j 2, -j 3 (files) and -j 4 (a pipe): every
# fixture dumped in the three formats and repeated to span many runs;
# inputs with a bad line (or two) at lines in every part of the input,
# around the runs' edges and in the first and last run, for each format;
# CSV rows whose quoted cells carry line breaks over the runs' edges; a
# record too large for a worker to keep a run of (the run's rest read by
# the calling thread); append. Then tests/load_jobs_differential.py on
# generated inputs (LOAD_JOBS_CASES of them, default 300; LOAD_JOBS_FIXTURES
# names the fixtures, default all). Prints `load-jobs: N passed, M failed`.
set -u
NPYDT=${NPYDT:-build/npydt}
case $NPYDT in /*) ;; *) NPYDT=$(pwd)/$NPYDT ;; esac
F=$(pwd)/tests/fixtures
DIFF=$(pwd)/tests/load_jobs_differential.py
PY=${PYTHON:-/usr/bin/python3}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL load-jobs: $*"; }

# same NAME INPUT ARGS...: npydt load ARGS -o out.npy INPUT with -j 1, -j 2
# and -j 3 (a file, read at offsets by each run's thread) and -j 4 (a
# pipe, read by the calling thread): the same status, messages and output
same() {
    name=$1 input=$2
    shift 2
    for j in 1 2 3 4; do
        rm -f out.npy out$j.npy
        if [ $j = 4 ]; then
            cat "$input" | "$NPYDT" load "$@" -j $j -o out.npy 2>err$j
            echo "rc $?" >>err$j
            sed "s|<stdin>|$input|" err$j >err$j.tmp && mv err$j.tmp err$j
        else
            "$NPYDT" load "$@" -j $j -o out.npy "$input" 2>err$j
            echo "rc $?" >>err$j
        fi
        if [ -e out.npy ]; then mv out.npy out$j.npy; else : >out$j.npy; fi
    done
    if cmp -s err1 err2 && cmp -s err1 err3 && cmp -s err1 err4 && cmp -s out1.npy out2.npy &&
        cmp -s out1.npy out3.npy && cmp -s out1.npy out4.npy; then
        ok
    else
        bad "$name: -j 1: $(tr '\n' ' ' <err1); -j 2: $(tr '\n' ' ' <err2); -j 3: $(tr '\n' ' ' <err3); -j 4: $(tr '\n' ' ' <err4)"
    fi
}

# says NAME 'STDERR': the -j 1 run of the last `same` printed exactly STDERR
says() {
    printf '%s\n' "$2" >want
    sed '$d' err1 | cmp -s - want && ok || bad "$1: '$(cat err1)', expected '$2'"
}

# repeat FILE HEADER_LINES BYTES: FILE's lines after its header repeated
# until they make at least BYTES
repeat() {
    awk -v h="$2" -v want="$3" 'NR <= h { print; next } { b = b $0 "\n" }
        END { if (b == "") exit; k = int(want / length(b)) + 1
              for (i = 0; i < k; i++) printf "%s", b }' "$1"
}

# ---- every fixture, in every format, over many runs ---------------------------------

for f in ${LOAD_JOBS_FIXTURES:-"$F"/*.npy}; do
    base=$(basename "$f" .npy)
    for fmt in jsonl csv tsv; do
        "$NPYDT" dump --$fmt "$f" >one.$fmt 2>/dev/null || continue
        h=0
        [ $fmt = jsonl ] || h=1
        repeat one.$fmt $h 200000 >in.$fmt
        [ -s in.$fmt ] || continue
        same "$base --$fmt" in.$fmt --dtype "@$f" --$fmt
    done
done

# ---- bad lines at every part of the input -----------------------------------------

# JSON Lines of about 35 bytes, 20000 of them (runs of 64 KiB, 128 KiB and
# 256 KiB: their edges at lines 1936, 5681 and 13000)
awk 'BEGIN { for (i = 1; i <= 20000; i++) printf "{\"a\": %d, \"b\": %d.5, \"s\": \"x\"}\n", i, i }' >good.jsonl
D='[("a","<i4"),("b","<f8"),("s","S5")]'
same "good JSON Lines" good.jsonl --dtype "$D"
for at in 1 2 1000 1936 1937 2100 2180 2190 2200 2250 4400 4450 5681 5682 10000 13000 19999 20000; do
    awk -v at="$at" 'NR == at { print "{\"a\": 1.5, \"b\": 1, \"s\": \"x\"}"; next } { print }' \
        good.jsonl >bad.jsonl
    same "bad JSON line $at" bad.jsonl --dtype "$D"
    awk -v at="$at" 'NR == at { print "{\"a\": 1, \"b\": 1, \"s\": \"x\""; next }
        NR == at + 3000 { print "{\"a\": 1, \"b\": 1, \"s\": 2}"; next } { print }' \
        good.jsonl >bad.jsonl
    same "two bad JSON lines from $at" bad.jsonl --dtype "$D"
done
awk 'NR == 15000 { print "{\"a\": 1.5, \"b\": 1, \"s\": \"x\"}"; next } { print }' good.jsonl >bad.jsonl
same "bad JSON line's message" bad.jsonl --dtype "$D"
says "bad JSON line's message" "bad.jsonl:15000: out of range: field a: 1.5 is not an integer (i4)"

# lines longer than a run (1 MiB of blanks inside the object) among short
# ones: a run as long as its line, the next runs as before
awk 'BEGIN { pad = " "; while (length(pad) < 1048576) pad = pad pad }
    NR == 3 || NR == 5000 || NR == 5001 || NR == 19990 { sub(/, "b"/, "," pad "\"b\"") } { print }' \
    good.jsonl >long.jsonl
D='[("a","<i4"),("b","<f8"),("s","S5")]'
same "lines longer than a run" long.jsonl --dtype "$D"
awk 'NR == 7000 { print "{\"a\": 1.5, \"b\": 1, \"s\": \"x\"}"; next } { print }' long.jsonl >bad.jsonl
same "bad line after lines longer than a run" bad.jsonl --dtype "$D"
says "bad line after lines longer than a run" "bad.jsonl:7000: out of range: field a: 1.5 is not an integer (i4)"

# CSV rows, each over two lines (a quoted cell holds a line break), blank
# rows among them: a row's number counts rows, not lines
awk 'BEGIN { print "a,b,s"; for (i = 1; i <= 20000; i++) {
        printf "%d,%d.5,\"x\n%d\"\n", i, i, i % 10; if (i % 777 == 0) print "" } }' >good.csv
D='[("a","<i4"),("b","<f8"),("s","U5")]'
same "good CSV, line breaks in quotes" good.csv --dtype "$D" --csv
"$NPYDT" load --dtype "$D" -j 2 -o out.npy good.csv 2>/dev/null &&
    "$NPYDT" dump --jsonl out.npy | sed -n '20000p' | grep -qx '{"a":20000,"b":20000.5,"s":"x\\n0"}' &&
    ok || bad "CSV with line breaks in quotes: not the rows' values"
# the line after a quoted line break reads as the start of a row that
# breaks some cells later: a run that begins there (a file's run assumes
# no quote is open at its start) is read again from the true row start
awk 'BEGIN { print "a,s,b"; for (i = 1; i <= 20000; i++) printf "%d,\"x\n%d,y\",%d.5\n", i, i % 10, i }' >cells.csv
D2='[("a","<i4"),("s","U5"),("b","<f8")]'
same "CSV rows whose second line starts like a row" cells.csv --dtype "$D2" --csv
# quoted cells of 140 KB with quotes and line breaks in them, longer than
# what a run reads past its range at first: the quotes are counted from
# the same place each time a run reads further for its last row's end
awk 'BEGIN { pad = "ab\"\"c"; while (length(pad) < 140000) pad = pad "x\"\"\n" pad
        print "a,s,b"; for (i = 1; i <= 300; i++)
        if (i % 10 == 7) printf "%d,\"%s\",%d.5\n", i, pad, i
        else printf "%d,\"q\"\"%d\",%d.5\n", i, i % 10, i }' >longq.csv
same "CSV quoted cells longer than a run's margin" longq.csv --dtype '[("a","<i4"),("s","S300000"),("b","<f8")]' --csv
same "CSV quoted cells longer than a run's margin, too long for U5" longq.csv --dtype "$D2" --csv
for at in 2 3 1000 2100 2150 2200 4400 7528 7529 10000 19999 20001 21881 21882; do
    awk -v at="$at" 'BEGIN { r = 0 } /^[0-9]/ { r++ } r == at - 1 && /^[0-9]/ { sub(/^[0-9]+/, "x") } { print }' \
        good.csv >bad.csv
    same "bad CSV row $at" bad.csv --dtype "$D" --csv
    awk -v at="$at" 'BEGIN { r = 0 } /^[0-9]/ { r++ } r == at - 1 && /^[0-9]/ { sub(/,/, ",\"") } { print }' \
        good.csv >bad.csv
    same "stray quote in CSV row $at" bad.csv --dtype "$D" --csv
done
awk '/^5000,/ { sub(/^5000/, "x") } { print }' good.csv >bad5000.csv
cp bad5000.csv bad.csv
same "bad CSV row's message" bad.csv --dtype "$D" --csv
says "bad CSV row's message" 'bad.csv:5001: bad value: field a: "x" is not a value of <i4'
{ cat good.csv; printf '1,2,"never closed\n'; } >bad.csv
same "CSV quote not closed at the end" bad.csv --dtype "$D" --csv
printf 'a,b,s\n' >head.csv
same "CSV header alone" head.csv --dtype "$D" --csv
awk 'BEGIN { for (i = 0; i < 30000; i++) print "" }' >blank.csv
cat good.csv >>blank.csv
same "CSV header after a run of blank lines" blank.csv --dtype "$D" --csv

# TSV with blank lines: lines count every line
awk 'BEGIN { print "a\tb\ts"; for (i = 1; i <= 20000; i++) {
        printf "%d\t%d.5\tx\\ty\n", i, i; if (i % 500 == 0) print "" } }' >good.tsv
same "good TSV" good.tsv --dtype "$D" --tsv
for at in 2 1000 2300 2350 10000 20040; do
    awk -v at="$at" 'NR == at { $0 = "1\t2" } { print }' good.tsv >bad.tsv
    same "bad TSV line $at" bad.tsv --dtype "$D" --tsv
done
awk 'NR == 12000 { $0 = "1\t2" } { print }' good.tsv >bad.tsv
same "bad TSV line's message" bad.tsv --dtype "$D" --tsv
says "bad TSV line's message" "bad.tsv:12000: bad key: field s: missing field (2 cells for 3 columns)"

# records of 1 MiB: a worker keeps 4 of a run, the calling thread reads the rest
awk 'BEGIN { for (i = 0; i < 10; i++) print "\"ab\"" }' >wide.jsonl
same "records too wide to keep a run of" wide.jsonl --dtype S1048576
for at in 2 8; do
    awk -v at="$at" 'NR == at { print "3"; next } { print }' wide.jsonl >bad.jsonl
    same "wide record, bad line $at" bad.jsonl --dtype S1048576
done

# ---- append -------------------------------------------------------------------

for j in 1 2 4; do
    "$NPYDT" load --dtype "$D" -j 1 -o app$j.npy good.tsv 2>/dev/null
    "$NPYDT" append app$j.npy -j $j good.csv 2>err$j
    echo "rc $?" >>err$j
done
cmp -s app1.npy app2.npy && cmp -s app1.npy app4.npy && cmp -s err1 err2 && cmp -s err1 err4 &&
    ok || bad "append -j: $(cat err1 err2 err4)"
cp app1.npy before.npy
"$NPYDT" append app1.npy -j 4 bad5000.csv 2>err
cmp -s app1.npy before.npy && grep -q 'bad5000.csv:5001:' err && ok ||
    bad "append -j 4 of a bad row: the file changed or '$(cat err)'"

# ---- usage ----------------------------------------------------------------------

"$NPYDT" load --dtype "$D" -j x -o out.npy good.tsv 2>err
[ $? = 2 ] && ok || bad "-j x: not a usage error: $(cat err)"

# ---- generated inputs -----------------------------------------------------------

if "$PY" -c 'import numpy' 2>/dev/null; then
    mkdir diff
    out=$("$PY" "$DIFF" "$NPYDT" diff "${LOAD_JOBS_CASES:-300}")
    echo "$out" | grep FAIL
    p=$(echo "$out" | sed -n 's/^load_jobs_differential: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
    if [ -n "$p" ]; then
        passed=$((passed + ${p% *}))
        failed=$((failed + ${p#* }))
    else
        bad "load_jobs_differential did not finish: $out"
    fi
else
    echo "load-jobs: no NumPy: the generated inputs skipped"
fi

echo "load-jobs: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

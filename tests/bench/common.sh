# What the benchmark scripts of tests/bench share, sourced by each
# (. "$(dirname "$0")/common.sh"): a temporary folder, the Python that has
# NumPy and the tables it builds (tests/bench/mixed_table.py), callgrind's
# instruction counts, CPU seconds, and ratios against an anchor.

bench_here=$(dirname "$0")

# bench_start NAME: $dir, a new folder npydt-NAME.XXXXXX under $TMPDIR (or
# /tmp), removed on exit and on interrupt; $PY, the Python that has NumPy
# ($PYTHON, else /usr/bin/python3).
bench_start() {
    PY=${PYTHON:-/usr/bin/python3}
    dir=$(mktemp -d "${TMPDIR:-/tmp}/npydt-$1.XXXXXX")
    trap 'rm -rf "$dir"' EXIT
    trap 'exit 130' INT TERM HUP
}

# bench_py ARGS...: $PY, able to import mixed_table (the 56-byte mixed
# struct and the other tables the scripts build).
bench_py() {
    PYTHONPATH="$bench_here${PYTHONPATH:+:$PYTHONPATH}" "$PY" "$@"
}

# bench_count PROGRAM ARGS...: the instructions of a whole run, counted by
# callgrind (deterministic, where CPU time moves with the machine's load).
bench_count() {
    valgrind --tool=callgrind --callgrind-out-file="$dir/cg" "$@" >/dev/null 2>"$dir/log" ||
        { cat "$dir/log" >&2; exit 1; }
    sed -n 's/^summary: *//p' "$dir/cg"
}

# bench_between COMMAND BIG SMALL: the instructions of the records between
# two tables, the difference of the counts of COMMAND (split into words)
# run on file BIG and on file SMALL, so that start-up costs drop out.
bench_between() {
    big=$(bench_count $1 "$2")
    little=$(bench_count $1 "$3")
    echo $((big - little))
}

# bench_per_record COMMAND BIG SMALL: bench_between per record, the tables
# being of $n and $small records.
bench_per_record() {
    instr=$(bench_between "$1" "$2" "$3")
    echo $((instr / (n - small)))
}

# bench_cpu PROGRAM ARGS...: the CPU seconds (user + system) of one run,
# its output thrown away.
bench_cpu() {
    /usr/bin/time -f '%U %S' -o "$dir/time" "$@" >/dev/null
    awk '{ printf "%.2f", $1 + $2 }' "$dir/time"
}

# bench_same FILE1 FILE2 WHAT: exits 1 saying WHAT unless the two files
# hold the same bytes (FILE1 may be - for standard input).
bench_same() {
    cmp -s "$1" "$2" || { echo "$3" >&2; exit 1; }
}

# bench_ratio C A: C / A with two decimals.
bench_ratio() {
    awk -v c="$1" -v a="$2" 'BEGIN { printf "%.2f", c / a }'
}

# bench_verdict R TARGET: PASS when ratio R is at most TARGET, else MISS.
bench_verdict() {
    awk -v r="$1" -v t="$2" 'BEGIN { print (r <= t ? "PASS" : "MISS") }'
}

# bench_above R MAX: true when MAX is given and ratio R is above it.
bench_above() {
    [ -n "$2" ] && awk -v r="$1" -v m="$2" 'BEGIN { exit !(r > m) }'
}

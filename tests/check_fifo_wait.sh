#!/bin/sh
# A FIFO given to check and inspect, however its writer comes: opened
# before the command starts, after it (the command waits for it, at most
# 2 seconds), open but silent for longer than that (the command waits for
# its bytes, as any reader of a pipe does), or gone without a byte (a
# truncated file, exit 3). Its data are read, and the output is the one
# of the same bytes in a regular file. The sleeps only order the writer's
# steps: each case passes whichever comes first. Prints "fifo-wait: N
# passed, M failed".
set -u
NPYDT=${NPYDT:-build/npydt}
case $NPYDT in /*) ;; *) NPYDT=$(pwd)/$NPYDT ;; esac
# seconds a run may take: programs run through an emulator ($EXEC) are slower
if [ -n "${EXEC:-}" ]; then limit=120; else limit=20; fi
passed=0
failed=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
# np.save's bytes of np.arange(10.0), written without NumPy
printf "\223NUMPY\001\000v\000{'descr': '<f8', 'fortran_order': False, 'shape': (10,), }" >h
pad=$((128 - $(wc -c <h) - 1))
{ cat h; printf "%${pad}s\n" ""; head -c 80 /dev/zero; } >a.npy
cp a.npy b.npy
mkfifo ff
# same NAME ARGS...: the command on the FIFO ff (its writer started by
# the caller) prints and exits as on the file a.npy
same() {
    name=$1
    shift
    timeout $limit "$NPYDT" "$@" >out 2>err
    got=$?
    wait
    sed 's/\bff\b/a.npy/g' out >out.a
    sed 's/\bff\b/a.npy/g' err >err.a
    # shellcheck disable=SC2046
    "$NPYDT" $(echo "$@" | sed 's/\bff\b/a.npy/g') >want.out 2>want.err
    want=$?
    if [ "$got" = "$want" ] && cmp -s out.a want.out && cmp -s err.a want.err; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "fifo-wait: $name: exit $got (want $want): $(head -c 300 out) $(head -c 300 err)"
    fi
}
# fails NAME STATUS MESSAGE ARGS...: exit STATUS, MESSAGE the stderr line
fails() {
    name=$1 want=$2 msg=$3
    shift 3
    timeout $limit "$NPYDT" "$@" >out 2>err
    got=$?
    wait
    if [ "$got" = "$want" ] && [ "$(cat err)" = "$msg" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "fifo-wait: $name: exit $got (want $want): $(head -c 300 err)"
    fi
}
for cmd in "check --json --schema <f8" "inspect"; do
    # shellcheck disable=SC2086
    {
        (cat a.npy >ff) &
        sleep 0.3
        same "$cmd: a writer waiting when the command starts" $cmd ff
        (sleep 1; cat a.npy >ff) &
        same "$cmd: a writer that comes after the command starts" $cmd ff
        (exec 3>ff; sleep 3; cat a.npy >&3) &
        sleep 0.2
        same "$cmd: a writer that opens the FIFO, then writes after 3 seconds" $cmd ff
        (cat a.npy >ff) &
        same "$cmd: a FIFO among files, -j 2" $cmd -j 2 b.npy ff b.npy
    }
done
# a FIFO named twice, -j 2: read in turn, as -j 1 reads it (the first
# argument to its end, then the second from the next writer, which here
# does not come), never by two readers at once: the writer holds the FIFO
# open a second after its bytes, while the first reader waits for the end
for j in 1 2; do
    (exec 3>ff; cat a.npy >&3; sleep 1) &
    sleep 0.3
    timeout $limit "$NPYDT" check --json --schema '<f8' -j $j ff ff >out.$j 2>err.$j
    echo "exit $?" >>out.$j
    wait
done
if cmp -s out.1 out.2 && cmp -s err.1 err.2 && grep -qx 'exit 2' out.2 &&
    [ "$(cat err.2)" = "ff: i/o error: no writer opened the FIFO within 2 seconds" ]; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "fifo-wait: a FIFO named twice, -j 2: $(head -c 300 out.2) $(head -c 300 err.2)"
fi
# a spec read from a FIFO (--schema @ff): the probe for an archive opens
# regular files only, so the writer waiting is not let through early and
# left without its reader
(printf "'<f8'" >ff) &
sleep 0.3
timeout $limit "$NPYDT" check --schema @ff a.npy >out 2>err
got=$?
wait
"$NPYDT" check --schema '<f8' a.npy >want.out 2>want.err
if [ "$got" = 0 ] && cmp -s out want.out && cmp -s err want.err; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
    echo "fifo-wait: a spec from a FIFO whose writer waits: exit $got: $(head -c 300 err)"
fi
(exec 3>ff; sleep 0.5) &
sleep 0.1
fails "a writer that goes without a byte" 3 "ff: truncated: the preamble needs at least 10 bytes, 0 given: the input ends inside the magic string and version" \
    check --schema '<f8' ff
fails "no writer" 2 "ff: i/o error: no writer opened the FIFO within 2 seconds" \
    check --schema '<f8' ff
echo "fifo-wait: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/bin/sh
# The command's inputs and outputs beyond one plain file: several FILEs,
# pipes, FIFOs and standard input, a reader that closes the pipe early,
# schemas taken from files, swap's checks of its destination, and the
# progress line on a terminal (tests/cli_io_check.py).
PY=${PYTHON:-/usr/bin/python3}
NPYDT=${NPYDT:-build/npydt}
exec "$PY" tests/cli_io_check.py "$NPYDT"

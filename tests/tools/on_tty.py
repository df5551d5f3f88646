"""Run a command with standard input a terminal nobody types on (a
pseudo-terminal) and standard output and error as given:
on_tty.py CMD ARGS...; exits with the command's status, 124 when it was
still waiting for input after 10 seconds (a guard against a hang, not a
measurement)."""
import os
import subprocess
import sys

master, slave = os.openpty()
try:
    r = subprocess.run(sys.argv[1:], stdin=slave, timeout=10)
except subprocess.TimeoutExpired:
    sys.exit(124)
finally:
    os.close(slave)
    os.close(master)
sys.exit(r.returncode if r.returncode >= 0 else 128 - r.returncode)

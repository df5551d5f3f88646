/* Inputs that cannot seek: standard input, FIFOs, terminals. */
#ifndef NPYDT_CLI_COMMON_PIPE_H
#define NPYDT_CLI_COMMON_PIPE_H

#include "npydt.h"

#include <stddef.h>
#include <stdint.h>

/* The most read into memory from a pipe: np.save streams of up to 1 GiB
 * fit, and a command given a larger stream says to save it to a file
 * instead of taking the machine's memory. */
#define CLI_PIPE_MAX_BYTES ((size_t)1 << 30)

/* How long opening a FIFO waits for a writer before it is an error. */
#define CLI_FIFO_WAIT_SECONDS 2u

/* 1 when arg is '-' or names something that is neither a regular file, a
 * directory nor a block device (a FIFO, a terminal, a socket). */
int cli_is_pipe_arg(const char *arg);
/* Read all of arg ('-': standard input) into *buf (malloc'd, *len bytes);
 * 0, or an exit status (2) after reporting "ARG: WHAT: DETAIL" (past
 * CLI_PIPE_MAX_BYTES or on a read error), the error in *err. quiet: no
 * progress line. */
int cli_read_pipe(const char *arg, int quiet, unsigned char **buf, size_t *len,
                  npydt_error *err);

#endif

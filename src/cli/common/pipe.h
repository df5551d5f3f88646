/* Inputs that cannot seek: standard input, FIFOs, terminals. */
#ifndef NPYDT_CLI_COMMON_PIPE_H
#define NPYDT_CLI_COMMON_PIPE_H

#include "npydt.h"

#include <stddef.h>
#include <stdint.h>

struct cli_dest;

/* The most read into memory from a pipe (an archive, or an array whose
 * use needs to go back): np.save streams of up to 1 GiB fit, and a
 * command given a larger stream says to save it to a file instead of
 * taking the machine's memory. */
#define CLI_PIPE_MAX_BYTES ((size_t)1 << 30)

/* How long opening a FIFO waits for a writer before it is an error. */
#define CLI_FIFO_WAIT_SECONDS 2u

/* 1 when arg is '-' or names something that is neither a regular file, a
 * directory nor a block device (a FIFO, a terminal, a socket). */
int cli_is_pipe_arg(const char *arg);
/* The same rule on a file's st_mode (from a stat the caller made). */
int cli_is_pipe_mode(unsigned mode);

/* An input that cannot seek, opened: a .npy file whose header has been
 * read (bytes[0..len) is exactly the preamble and header; the data are
 * still to be read from fd, in sequence), or all its bytes (whole: an
 * archive, whose directory is at its end, or bytes that do not start as
 * a .npy header does, left for the library to refuse). */
struct cli_pipe {
    const char *name;      /* the argument, for messages */
    struct cli_dest *dest; /* where they go (report.h); NULL: stderr */
    int fd;                /* -1 once whole */
    int own_fd;            /* a FIFO opened here (not standard input) */
    int quiet;             /* no progress line while it is read whole */
    int whole;
    int spent;             /* the data were read to the end (counted) */
    unsigned char *bytes;  /* malloc'd */
    size_t len;
};

/* Open arg ('-': standard input) and read its first bytes: an archive,
 * or what is not a .npy header, is read whole (cli_pipe_hold). 0, or an
 * exit status (2) after reporting "ARG: WHAT: DETAIL" to dest (past
 * CLI_PIPE_MAX_BYTES or on a read error), the error in *err. */
int cli_pipe_open(const char *arg, int quiet, struct cli_dest *dest, struct cli_pipe *p,
                  npydt_error *err);
/* The same for arg already open on fd (with O_NONBLOCK, as cli_inputs_add
 * opens it: a FIFO or a device), which p takes over (closed on failure);
 * a FIFO with no writer yet is waited for as cli_pipe_open waits. fd -1:
 * cli_pipe_open. */
int cli_pipe_open_fd(const char *arg, int fd, int quiet, struct cli_dest *dest,
                     struct cli_pipe *p, npydt_error *err);
/* Read the rest of p into memory (at most CLI_PIPE_MAX_BYTES in all):
 * whole from here on. 0, or an exit status after reporting. */
int cli_pipe_hold(struct cli_pipe *p, npydt_error *err);
/* Close what cli_pipe_open opened and free the bytes. */
void cli_pipe_close(struct cli_pipe *p);

/* Read all of arg ('-': standard input) into *buf (malloc'd, *len bytes);
 * 0, or an exit status as cli_pipe_open. */
int cli_read_pipe(const char *arg, int quiet, struct cli_dest *dest, unsigned char **buf,
                  size_t *len, npydt_error *err);

#endif

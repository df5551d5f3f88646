/* Where the output about one input goes: the process's standard output
 * and standard error, or the memory of a task (-j), written out later, in
 * task order, by the thread that made the tasks. A NULL destination is the
 * process's streams; the report helpers of report.h take one (their _to
 * forms). */
#ifndef NPYDT_CLI_COMMON_DEST_H
#define NPYDT_CLI_COMMON_DEST_H

#include "text/text.h"

#include <stdio.h>

struct cli_dest {
    FILE *out;              /* a memory stream over buf (open_memstream) */
    char *buf;
    size_t len;
    /* the lines for standard error, each with where it falls in out:
     * records of (size_t at, size_t len, len bytes) */
    struct text_buf lines;
    int failed;             /* memory ran out: the task's output is lost */
    size_t skip;            /* bytes at the start of the output not to write
                             * (cli_dest_flush: then 0) */
    int direct;             /* the process's streams (cli_dest_direct) */
};

/* Start d empty: 0, or -1 when memory ran out (d is then failed, has no
 * stream to write to, and cli_dest_open may be tried again;
 * cli_dest_close may still be called). */
int cli_dest_open(struct cli_dest *d);
/* d as the process's streams, written at once (tasks one after the
 * other: the output of one is not held in memory). */
void cli_dest_direct(struct cli_dest *d);
/* The stream a report of d writes its output to: stdout when d is NULL. */
static inline FILE *cli_dest_out(struct cli_dest *d)
{
    return d ? d->out : stdout;
}
/* Add a whole line (its newline included) for standard error: at once
 * when d is NULL (erasing a progress line first). */
void cli_dest_line(struct cli_dest *d, const char *line, size_t len);
/* Calling thread: write what d holds to stdout and stderr in the order it
 * came, and empty d for the next task. Returns 0, or -1 when d ran out of
 * memory (nothing of it is written: the caller reports that). */
int cli_dest_flush(struct cli_dest *d);
/* Append what the memory destination from holds to the memory
 * destination to, its lines in their places, and empty from (a failure
 * of either makes to failed). */
void cli_dest_move(struct cli_dest *to, struct cli_dest *from);
void cli_dest_close(struct cli_dest *d);

#endif

/* Mapped input files: --no-mmap, and a file that shrinks while it is
 * read. */
#ifndef NPYDT_CLI_COMMON_MAPPED_H
#define NPYDT_CLI_COMMON_MAPPED_H

#include "npydt.h"

#include <stdint.h>

/* From here on no input file is mapped (--no-mmap). */
void cli_set_no_mmap(void);
/* Whether --no-mmap was given. */
int cli_no_mmap(void);
/* The command reads (mapped) data of the file at path from now on: if the
 * file shrinks, the SIGBUS of a mapped page past its end is reported as
 * "PATH: i/o error: the file shrank while it was read", the temporary
 * output (cli_output_discard) removed and the process ended with status
 * 2. NULL: no file is being read. Per thread: a worker of -j names the
 * input it reads, and names NULL when its task ends. */
void cli_reading(const char *path);

/* Pages of a mapped file read front to back are given back behind the
 * reading position (madvise MADV_DONTNEED, which for a mapping of a file
 * drops them from this process only: touched again, they are read from
 * the file or the page cache again), so that what stays resident is
 * bounded (about CLI_BEHIND_STEP) whatever the size of the file. */
#define CLI_BEHIND_STEP ((uintptr_t)8 << 20)
struct cli_behind {
    uintptr_t from;   /* the lowest position read since pages were last given back; 0: off */
};
/* Start behind the data of r when they are a mapping of its file (else
 * off; also off with a NULL r). */
void cli_behind_start(struct cli_behind *b, const npydt_reader *r);
void cli_behind_drop(struct cli_behind *b, uintptr_t at);
/* at is being read: give back the whole pages between the position
 * reads started from and at, once CLI_BEHIND_STEP bytes lie between them
 * (a position below it starts again from there). */
static inline void cli_behind(struct cli_behind *b, const void *at)
{
    if (b->from && (uintptr_t)at - b->from >= CLI_BEHIND_STEP)
        cli_behind_drop(b, (uintptr_t)at);
}

#endif

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
/* The inputs this thread names are its own (a worker of check -j reads
 * whole files alone): its names stay out of the line of the input named
 * last, which threads that name none (the workers of dump -j) write, so
 * that only one thread ever writes that line. */
void cli_reading_own(void);

/* Pages of a mapped file read front to back are given back behind the
 * reading position (madvise MADV_DONTNEED, which for a mapping of a file
 * drops them from this process only: touched again, they are read from
 * the file or the page cache again), so that what stays resident is
 * bounded (about CLI_BEHIND_STEP) whatever the size of the file. Read in
 * any order (a Fortran-order array in C order, rows backwards), the pages
 * between the lowest and the highest position read are given back each
 * time reads have moved to another page CLI_BEHIND_ANY / page size times:
 * resident pages stay about CLI_BEHIND_ANY, and a page read again later
 * comes back from the page cache. */
/* The unit of moves counted (a page of most systems: only a count). */
#define CLI_BEHIND_PAGE ((uintptr_t)4096)
#define CLI_BEHIND_STEP ((uintptr_t)8 << 20)
#define CLI_BEHIND_ANY ((uintptr_t)32 << 20)
struct cli_behind {
    uintptr_t from;   /* the lowest position read since pages were last given back; 0: off */
    uintptr_t base;   /* the first data byte of the mapping */
    uint64_t offset;  /* its offset in the file */
    int fd;           /* the file, whose cached pages go too (cli_behind_uncache); -1: kept */
    /* in any order (cli_behind_start_any): */
    int any;
    size_t span;      /* bytes read at a position */
    uintptr_t page;   /* the page of the last position read */
    uintptr_t lo, hi; /* positions read since pages were last given back: [lo, hi) */
    uintptr_t moves;  /* pages moved to since then */
};
/* Start behind the data of r when they are a mapping of its file (else
 * off; also off with a NULL r). */
void cli_behind_start(struct cli_behind *b, const npydt_reader *r);
/* After cli_behind_start: the pages given back also leave the page cache
 * (posix_fadvise POSIX_FADV_DONTNEED on fd, the mapped file, whose data
 * begin at offset): for a file about to be replaced, whose pages nobody
 * reads again. They would otherwise stay cached until the file is
 * deleted, which then frees them all at once. */
void cli_behind_uncache(struct cli_behind *b, int fd, uint64_t offset);
/* The same for reads of span bytes at positions in any order. */
void cli_behind_start_any(struct cli_behind *b, const npydt_reader *r, size_t span);
void cli_behind_drop(struct cli_behind *b, uintptr_t at);
void cli_behind_moved(struct cli_behind *b, uintptr_t at);
/* at is being read: give back the whole pages between the position
 * reads started from and at, once CLI_BEHIND_STEP bytes lie between them
 * (a position below it starts again from there); in any order, count a
 * move to another page. */
static inline void cli_behind(struct cli_behind *b, const void *at)
{
    if (b->any) {
        if ((uintptr_t)at / CLI_BEHIND_PAGE != b->page)
            cli_behind_moved(b, (uintptr_t)at);
        return;
    }
    if (b->from && (uintptr_t)at - b->from >= CLI_BEHIND_STEP)
        cli_behind_drop(b, (uintptr_t)at);
}

#endif

/* What the files of npydt swap share: the atomic output (swap_output.c),
 * the swapped header and plan (swap_npy.c), and the two writers of a
 * .npy file (swap_npy.c) and of an archive (swap_npz.c). */
#ifndef NPYDT_CLI_SWAP_H
#define NPYDT_CLI_SWAP_H

#include "cli.h"

#include <limits.h>
#include <sys/stat.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* Records are swapped through a buffer of this many bytes of whole
 * records (at least one record). */
#define SWAP_CHUNK_BYTES ((size_t)4 << 20)

/* What the command line asks. */
struct swap_opts {
    npydt_order to;
    int in_place;
    int quiet;           /* no progress line */
};

/* ---- the atomic output (swap_output.c) ---------------------------------- */

/* OUT, written as a temporary file in its folder and renamed over it. */
struct output {
    const char *target;
    int fd;
    int target_exists;
    struct stat target_st;
    char dir[PATH_MAX];  /* the target's folder, "" for the current one */
};

/* Checks before anything is read or written: OUT is not FILE (without
 * --in-place), not a directory, and its folder can be written in. 0 or an
 * exit status after reporting. */
int output_check(struct output *o, const char *file, const char *target, int in_place);
/* Refuse to start when statvfs says OUT's filesystem has fewer than
 * bytes free for an unprivileged writer; 0 or an exit status. */
int output_check_space(const struct output *o, uint64_t bytes);
/* Create the temporary file next to the target. */
int output_open(struct output *o);
/* After writing (status says how it went): give the file the target's mode
 * (or the umask's), flush it, rename it over the target and flush the
 * folder; on any failure remove it. Returns the final status. */
int output_close(struct output *o, int status);

/* write()/pwrite() all of buf, through EINTR; -1 with errno. */
int write_all(int fd, const void *buf, size_t n);
int pwrite_all(int fd, const void *buf, size_t n, uint64_t offset);
/* "PATH: i/o error: WHAT: strerror(errno)" on stderr; EXIT_USAGE. */
int io_error(const char *path, const char *what);

/* ---- one array (swap_npy.c) ----------------------------------------------- */

/* What swapping one array needs: the plan and the new header's bytes. */
struct swapper {
    npydt_dtype *newdt;
    npydt_swap_plan *plan;
    unsigned char *hdr;
    size_t hlen;
    int unchanged;       /* the dtype is already in the asked order */
};

/* 0 or an exit status (reported under name). */
int swapper_init(struct swapper *s, const char *name, const npydt_header *h, npydt_order to);
void swapper_free(struct swapper *s);

/* Swap the .npy FILE into target. */
int swap_npy(const char *file, const char *target, const struct swap_opts *opts);
/* Swap every member of the archive FILE into the archive target. */
int swap_npz(const char *file, const char *target, const struct swap_opts *opts);

/* The name of the order asked for, for messages ("little-endian"). */
const char *swap_order_name(npydt_order to);

#endif

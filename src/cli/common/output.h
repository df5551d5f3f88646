/* The atomic output of swap and pack: a temporary file in the target's
 * folder, renamed over it. */
#ifndef NPYDT_CLI_COMMON_OUTPUT_H
#define NPYDT_CLI_COMMON_OUTPUT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* OUT, written as a temporary file in its folder and renamed over it. */
struct cli_output {
    const char *target;
    int fd;
    int target_exists;
    struct stat target_st;
    char dir[PATH_MAX];  /* the target's folder, "" for the current one */
};

/* Checks before anything is read or written: OUT is not FILE (without
 * --in-place; file NULL when there is no one input), not a directory, and
 * its folder can be written in. 0 or an exit status after reporting. */
struct cli_command;
int cli_output_check(const struct cli_command *cmd, struct cli_output *o, const char *file,
                     const char *target, int in_place);
/* Refuse to start when statvfs says OUT's filesystem has fewer than
 * bytes free for an unprivileged writer; 0 or an exit status. */
int cli_output_check_space(const struct cli_output *o, uint64_t bytes);
/* Create the temporary file next to the target, once, after
 * cli_output_check of it succeeded. */
int cli_output_open(struct cli_output *o);
/* After writing (status says how it went): give the file the target's mode
 * (or the umask's), flush it, rename it over the target and flush the
 * folder; on any failure remove it. Returns the final status. */
int cli_output_close(struct cli_output *o, int status);

/* Remove the temporary file of an output being written, if there is one;
 * async-signal-safe, for a handler that ends the process. */
void cli_output_discard(void);

/* write()/pwrite() all of buf, through EINTR; -1 with errno. */
int cli_write_all(int fd, const void *buf, size_t n);
int cli_pwrite_all(int fd, const void *buf, size_t n, uint64_t offset);
/* "PATH: i/o error: WHAT: strerror(errno)" on stderr; EXIT_USAGE. */
int cli_io_error(const char *path, const char *what);

#endif

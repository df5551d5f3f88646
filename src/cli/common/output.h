/* The output of swap and pack: the library's npydt_output, and the
 * checks made before anything is written. */
#ifndef NPYDT_CLI_COMMON_OUTPUT_H
#define NPYDT_CLI_COMMON_OUTPUT_H

#include "npydt.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* OUT, written through the library's npydt_output (a temporary file beside
 * it, renamed over it at the end); this side checks OUT before anything is
 * written and removes the temporary file when a signal ends the process. */
struct cli_output {
    const char *target;
    npydt_output *out;
    char dir[PATH_MAX];  /* the target's folder, "" for the current one */
};

/* Checks before anything is read or written: OUT is not FILE (without
 * --in-place; file NULL when there is no one input), not a directory, its
 * path leaves room for the temporary file's name, and its folder can be
 * written in. 0 or an exit status after reporting. */
struct cli_command;
int cli_output_check(const struct cli_command *cmd, struct cli_output *o, const char *file,
                     const char *target, int in_place);
/* Refuse to start when statvfs says OUT's filesystem has fewer than
 * bytes free for an unprivileged writer; 0 or an exit status. */
int cli_output_check_space(const struct cli_output *o, uint64_t bytes);
/* Create the temporary file next to the target (o->out), once, after
 * cli_output_check of it succeeded; 0 or an exit status. */
int cli_output_open(struct cli_output *o);
/* Report a failure met while writing OUT: the output's own I/O error under
 * OUT when it has one (an archive writer only says its sink failed), else
 * err under name. Returns the exit status. */
int cli_output_failed(const struct cli_output *o, const char *name, const npydt_error *err);
/* After writing (status says how it went): commit the output (mode, fsync,
 * rename, folder fsync) or, on a failure, discard it. Returns the final
 * status. */
int cli_output_close(struct cli_output *o, int status);

/* A writer's temporary file (npydt_writer_temp_path), removed like an
 * output's when a signal (INT, TERM, HUP) ends the process: call
 * cli_output_hold before the writer is created (the signals wait), then
 * cli_output_guard with its temporary file (NULL when there is none: the
 * signals are let through, nothing to remove), and cli_output_guard(NULL)
 * once the writer is closed or discarded. */
void cli_output_hold(void);
void cli_output_guard(const char *temp);

/* Remove the temporary file of an output being written, if there is one;
 * async-signal-safe, for a handler that ends the process. */
void cli_output_discard(void);

#endif

/* The FILE arguments of check, inspect and stats as tasks of the thread
 * pool (jobs.h): argument i is task i. The calling thread names its arrays
 * (cli_inputs_add: an archive opened, a pipe read), a worker reads and
 * reports them into the task's memory (dest.h), and the calling thread
 * writes that out in argument order: the output and the exit status of
 * -j N are those of -j 1. */
#ifndef NPYDT_CLI_COMMON_FILE_TASKS_H
#define NPYDT_CLI_COMMON_FILE_TASKS_H

#include "cli/common/dest.h"
#include "cli/common/input.h"

#include <stddef.h>

/* A few consecutive arguments' arrays (one argument with -j 1; more with
 * several workers, so that a small file does not cost a hand-over of its
 * own), and what is said about them. */
struct cli_task_item;
struct cli_file_task {
    struct cli_dest dest;
    struct cli_task_item *items; /* each array, its probe's descriptor and argument */
    struct cli_dest early;      /* what naming argument early_arg said (several workers) */
    size_t early_arg;           /* SIZE_MAX: none */
    struct text_buf heads;      /* the bytes each argument's probe read (item.head) */
    size_t nitems, cap;
    size_t first, nargs;        /* the arguments it takes: files[first .. first + nargs) */
    int status;                 /* of naming them */
    size_t blocks;              /* blocks the task printed */
    size_t before;              /* blocks printed before the task (known with -j 1) */
};
/* Whether a block t prints now goes after a blank line: one is printed
 * before (with several workers a task does not know: each block gets
 * one, and the first of the whole output has it dropped). */
static inline int cli_file_task_blank(const struct cli_file_task *t)
{
    return !t->dest.direct || t->before + t->blocks > 0;
}

struct cli_file_tasks {
    char **files;
    size_t nfiles;
    int json;                   /* an argument that names nothing gets its error object */
    int hold;                   /* the items read their header through the probe's descriptor */
    const char *progress;       /* the progress line's label ("checking"); NULL: none */
    /* A worker: one array of a task, fd its probe's descriptor (to
     * cli_input_verify_fd) or -1, its reports to t->dest. Reads ctx only.
     * Returns the exit status. */
    int (*one)(const void *ctx, struct cli_file_task *t, const struct cli_input *in, int fd);
    const void *ctx;
    /* private */
    struct cli_inputs inputs;
    size_t per_task;            /* arguments a task takes (at most) */
    size_t next;                /* the first argument not taken yet */
    size_t held_max;            /* probe descriptors a task may hold */
    int pooled;                 /* several workers: a task copies its probes' bytes and
                                 * holds what naming its last argument said */
    int status;
    size_t blocks;
};

/* Run every argument with jobs workers (0: one per processor); the
 * highest exit status (status, the one before the run, included). With
 * one worker the output goes out as it is made (no task's output is held:
 * memory stays what -j 1 takes); with more each task's is held in memory
 * until its turn. */
int cli_file_tasks_run(struct cli_file_tasks *ft, unsigned jobs, int status);

#endif

/* FILE arguments as tasks (file_tasks.h). */
#include "cli/common/file_tasks.h"
#include "cli/common/jobs.h"
#include "cli/common/mapped.h"
#include "cli/common/progress.h"
#include "cli/common/report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct run {
    struct cli_file_tasks *ft;
    struct cli_progress progress;
};

/* Calling thread: name the arrays of argument i, its reports into the
 * task's memory. */
static int take(void *ctx, size_t i, void *slot)
{
    struct run *r = ctx;
    struct cli_file_tasks *ft = r->ft;
    struct cli_file_task *t = slot;
    if (i >= ft->nfiles)
        return 0;
    t->nitems = 0;
    t->blocks = 0;
    t->fd = -1;
    t->status = EXIT_OK;
    if (!t->dest.out && cli_dest_open(&t->dest) != 0)
        return 1;   /* no memory for its output: finish says so */
    struct cli_inputs *list = &ft->inputs;
    size_t from = list->count;
    list->dest = &t->dest;
    t->status = cli_inputs_add(list, ft->files[i]);
    t->fd = cli_inputs_held(list);
    if (t->status != EXIT_OK && ft->json)
        cli_json_error(cli_dest_out(&t->dest), ft->files[i], NULL, &list->error);
    size_t n = list->count - from;
    if (n > t->cap) {
        struct cli_input *items = n <= SIZE_MAX / sizeof *items
                                      ? realloc(t->items, n * sizeof *items)
                                      : NULL;
        if (!items) {
            if (t->fd >= 0)
                close(t->fd);
            t->fd = -1;
            int s = cli_failure_to(&t->dest, "out of memory");
            t->status = s > t->status ? s : t->status;
            return 1;
        }
        t->items = items;
        t->cap = n;
    }
    if (n)
        memcpy(t->items, list->items + from, n * sizeof *t->items);
    t->nitems = n;
    return 1;
}

/* A worker: the arrays of a task. */
static int work(void *ctx, void *slot)
{
    const struct run *r = ctx;
    const struct cli_file_tasks *ft = r->ft;
    struct cli_file_task *t = slot;
    int status = t->status, fd = t->fd;
    t->fd = -1;
    for (size_t k = 0; k < t->nitems; k++, fd = -1) {
        int s = ft->one(ft->ctx, t, &t->items[k], fd);
        if (s > status)
            status = s;
    }
    cli_reading(NULL);   /* this thread reads no file now */
    return status;
}

/* Calling thread: write what a task said, in argument order. */
static int finish(void *ctx, size_t i, void *slot, int status)
{
    struct run *r = ctx;
    struct cli_file_tasks *ft = r->ft;
    struct cli_file_task *t = slot;
    if (t->blocks) {
        t->dest.skip = ft->blocks == 0;   /* the first block's blank line */
        ft->blocks += t->blocks;
    }
    if (cli_dest_flush(&t->dest) != 0)
        status = cli_failure("out of memory");
    if (status > ft->status)
        ft->status = status;
    cli_progress_update(&r->progress, (uint64_t)i + 1);
    return 0;
}

int cli_file_tasks_run(struct cli_file_tasks *ft, unsigned jobs, int status)
{
    jobs = cli_jobs_count(jobs, ft->nfiles);
    size_t nslots = jobs > 1 ? 2 * (size_t)jobs : 1;
    struct cli_file_task *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return cli_failure("out of memory");
    for (size_t k = 0; k < nslots; k++) {
        cli_dest_open(&slots[k].dest);   /* a failed one says so for each task */
        slots[k].fd = -1;
    }
    ft->status = status;
    ft->blocks = 0;
    cli_inputs_init(&ft->inputs, NULL);
    ft->inputs.hold = ft->hold;
    struct run r = {ft, {0}};
    /* over many files, a progress line (not torn by a report on the
     * terminal) */
    cli_progress_start_files(&r.progress, ft->progress ? ft->progress : "",
                             (uint64_t)ft->nfiles, !ft->progress || isatty(STDOUT_FILENO));
    static const struct cli_jobs_ops ops = {take, work, finish};
    cli_jobs_run(jobs, slots, nslots, sizeof *slots, &ops, &r);
    cli_progress_end(&r.progress);
    for (size_t k = 0; k < nslots; k++) {
        cli_dest_close(&slots[k].dest);
        free(slots[k].items);
    }
    free(slots);
    cli_inputs_free(&ft->inputs);
    return ft->status;
}

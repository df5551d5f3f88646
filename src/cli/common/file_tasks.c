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

/* The most arguments a task takes. */
#define TASK_FILES_MAX 32

struct run {
    struct cli_file_tasks *ft;
    struct cli_progress progress;
};

/* Room for n items in t: 0, or -1 out of memory. */
static int reserve(struct cli_file_task *t, size_t n)
{
    if (n <= t->cap)
        return 0;
    size_t cap = t->cap * 2 > n ? t->cap * 2 : n;
    if (cap > SIZE_MAX / sizeof *t->items)
        return -1;
    struct cli_input *items = realloc(t->items, cap * sizeof *items);
    if (items)
        t->items = items;
    int *fds = items ? realloc(t->fds, cap * sizeof *fds) : NULL;
    if (fds)
        t->fds = fds;
    if (!items || !fds)
        return -1;
    t->cap = cap;
    return 0;
}

/* Name the arrays of argument `file` into t, its reports into t's
 * memory; the bytes its probe read, if any, into head (room for
 * NPYDT_VERIFY_HEAD_BYTES). */
static void take_one(struct cli_file_tasks *ft, struct cli_file_task *t, char *file,
                     unsigned char *head)
{
    struct cli_inputs *list = &ft->inputs;
    size_t from = list->count;
    list->dest = &t->dest;
    int status = cli_inputs_add(list, file), fd = cli_inputs_held(list);
    if (status != EXIT_OK && ft->json)
        cli_json_error(cli_dest_out(&t->dest), file, NULL, &list->error);
    size_t n = list->count - from;
    if (n > SIZE_MAX - t->nitems || reserve(t, t->nitems + n) != 0) {
        if (fd >= 0)
            close(fd);
        status = cli_failure_to(&t->dest, "out of memory");
        n = 0;
    }
    for (size_t k = 0; k < n; k++, fd = -1) {
        struct cli_input *in = &t->items[t->nitems];
        *in = list->items[from + k];
        if (in->head) {   /* the list's, until its next item */
            memcpy(head, in->head, in->head_len);
            in->head = head;
        }
        t->fds[t->nitems++] = fd;
    }
    if (status > t->status)
        t->status = status;
}

/* Calling thread: task i, the arguments from i * per_task on. */
static int take(void *ctx, size_t i, void *slot)
{
    struct run *r = ctx;
    struct cli_file_tasks *ft = r->ft;
    struct cli_file_task *t = slot;
    size_t first = i * ft->per_task;
    if (first >= ft->nfiles)
        return 0;
    t->nitems = 0;
    t->blocks = 0;
    t->before = ft->blocks;
    t->status = EXIT_OK;
    if (!t->dest.out && cli_dest_open(&t->dest) != 0)
        return 1;   /* no memory for its output: finish says so */
    if (ft->hold && !t->heads &&
        !(t->heads = malloc(ft->per_task * (size_t)NPYDT_VERIFY_HEAD_BYTES)))
        ft->inputs.hold = 0;   /* no room to keep the probe's bytes: read by path */
    for (size_t k = first; k < ft->nfiles && k - first < ft->per_task; k++)
        take_one(ft, t, ft->files[k],
                 t->heads ? t->heads + (k - first) * NPYDT_VERIFY_HEAD_BYTES : NULL);
    return 1;
}

/* A worker: the arrays of a task. */
static int work(void *ctx, void *slot)
{
    const struct run *r = ctx;
    const struct cli_file_tasks *ft = r->ft;
    struct cli_file_task *t = slot;
    int status = t->status;
    for (size_t k = 0; k < t->nitems; k++) {
        int s = ft->one(ft->ctx, t, &t->items[k], t->fds[k]);
        t->fds[k] = -1;
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
        t->dest.skip = !t->dest.direct && ft->blocks == 0;   /* the first block's blank line */
        ft->blocks += t->blocks;
    }
    if (cli_dest_flush(&t->dest) != 0)
        status = cli_failure("out of memory");
    if (status > ft->status)
        ft->status = status;
    uint64_t done = ((uint64_t)i + 1) * ft->per_task;
    cli_progress_update(&r->progress, done < ft->nfiles ? done : ft->nfiles);
    return 0;
}

int cli_file_tasks_run(struct cli_file_tasks *ft, unsigned jobs, int status)
{
    /* standard input named twice is read in turn: one thread, so that no
     * array's reading starts before the one before it has ended */
    size_t stdin_args = 0;
    for (size_t i = 0; i < ft->nfiles; i++)
        stdin_args += strcmp(ft->files[i], "-") == 0 || strncmp(ft->files[i], "-:", 2) == 0;
    jobs = stdin_args > 1 ? 1 : cli_jobs_count(jobs, ft->nfiles);
    size_t nslots = jobs > 1 ? 2 * (size_t)jobs : 1;
    struct cli_file_task *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return cli_failure("out of memory");
    for (size_t k = 0; k < nslots; k++) {
        if (jobs == 1)
            cli_dest_direct(&slots[k].dest);
        else
            cli_dest_open(&slots[k].dest);   /* a failed one is tried again */
    }
    /* a task of several small files when there are many: a few tasks per
     * worker and slot still, and few descriptors held in all */
    ft->per_task = 1;
    if (jobs > 1) {
        size_t per = ft->nfiles / (nslots * 4);
        size_t most = TASK_FILES_MAX < 256 / nslots ? TASK_FILES_MAX : 256 / nslots;
        ft->per_task = per < 1 ? 1 : per > most ? (most ? most : 1) : per;
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
        free(slots[k].fds);
        free(slots[k].heads);
    }
    free(slots);
    cli_inputs_free(&ft->inputs);
    return ft->status;
}

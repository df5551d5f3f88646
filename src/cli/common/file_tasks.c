/* FILE arguments as tasks (file_tasks.h). */
#include "cli/common/file_tasks.h"
#include "cli/common/jobs.h"
#include "cli/common/mapped.h"
#include "cli/common/pipe.h"
#include "cli/common/progress.h"
#include "cli/common/report.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

/* The most arguments a task takes: small files are handed over by the
 * hundred, so that a worker wakes up a few times a run, not once a
 * file. */
#define TASK_FILES_MAX 1024
/* The most probe descriptors (a header past the probe's bytes) the
 * tasks of a run hold at once. */
#define TASK_HELD_FDS 256

/* An array of a task, and where it comes from. */
struct cli_task_item {
    struct cli_input in;   /* a copy of the list's (which moves as it grows) */
    int fd;                /* its probe's descriptor (cli_inputs_held), or -1 */
    size_t arg;            /* the argument that names it */
    size_t head_at;        /* its probe's bytes in the task's heads; SIZE_MAX: none */
};

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
    struct cli_task_item *items = realloc(t->items, cap * sizeof *items);
    if (!items)
        return -1;
    t->items = items;
    t->cap = cap;
    return 0;
}

/* The report of an array (in, or the argument file when in is NULL)
 * whose output memory could not hold: "out of memory", and its error
 * object with json. Returns the exit status. */
static int report_nomem(struct cli_dest *d, const char *file, const struct cli_input *in,
                        int json)
{
    npydt_error err;
    cli_error(&err, NPYDT_E_NOMEM, "%s", "out of memory");
    if (in)
        return cli_report_input_to(d, in, &err, json);
    int status = cli_report_to(d, file, &err);
    if (json)
        cli_json_error(cli_dest_out(d), file, NULL, &err);
    return status;
}

/* Name the arrays of argument k into t, what naming them says into d.
 * Returns 1 when an array holds its probe's descriptor. */
static int take_one(struct cli_file_tasks *ft, struct cli_file_task *t, size_t k,
                    struct cli_dest *d)
{
    struct cli_inputs *list = &ft->inputs;
    char *file = ft->files[k];
    size_t from = list->count;
    list->dest = d;
    int status = cli_inputs_add(list, file), fd = cli_inputs_held(list), held = 0;
    if (status != EXIT_OK && ft->json)
        cli_json_error(cli_dest_out(d), file, NULL, &list->error);
    size_t n = list->count - from;
    if (n > SIZE_MAX - t->nitems || reserve(t, t->nitems + n) != 0) {
        if (fd >= 0)
            close(fd);
        int s = report_nomem(d, file, NULL, ft->json);
        status = s > status ? s : status;
        n = 0;
    }
    for (size_t j = 0; j < n; j++, fd = -1) {
        struct cli_task_item *it = &t->items[t->nitems++];
        it->in = list->items[from + j];
        it->fd = fd;
        it->arg = k;
        it->head_at = SIZE_MAX;
        held |= fd >= 0;
        if (it->in.pipe)   /* what reading it says: in the task's order */
            it->in.pipe->dest = &t->dest;
        if (!it->in.head || !ft->pooled)
            continue;   /* with one worker the list's head is read before its next item */
        char *room = text_buf_room(&t->heads, it->in.head_len);
        if (room) {   /* the list's, until its next item: kept in t */
            memcpy(room, it->in.head, it->in.head_len);
            it->head_at = t->heads.len;
            t->heads.len += it->in.head_len;
        }
        it->in.head = NULL;   /* the bytes are in heads (set when t is taken), or read again */
    }
    cli_inputs_forget(list, from);
    if (status > t->status)
        t->status = status;
    return held;
}

/* Calling thread: task i, the next arguments. */
static int take(void *ctx, size_t i, void *slot)
{
    struct run *r = ctx;
    struct cli_file_tasks *ft = r->ft;
    struct cli_file_task *t = slot;
    (void)i;
    if (ft->next >= ft->nfiles)
        return 0;
    t->nitems = 0;
    if (t->heads.failed) {
        text_buf_free(&t->heads);
        t->heads = text_buf_growing(text_libc_realloc, NULL, 0);
    }
    t->heads.len = 0;
    t->first = ft->next;
    t->nargs = 0;
    t->blocks = 0;
    t->before = ft->blocks;
    t->status = EXIT_OK;
    t->early_arg = SIZE_MAX;
    if (!t->dest.out && cli_dest_open(&t->dest) != 0) {
        /* no memory for its output: finish reports each argument */
        size_t left = ft->nfiles - ft->next;
        t->nargs = left < ft->per_task ? left : ft->per_task;
        ft->next += t->nargs;
        return 1;
    }
    /* What naming an argument says (a refused archive, a missing member)
     * comes before its arrays' reports and after those of the arguments
     * before it, which the worker has not made yet: it is held in early,
     * and the task ends with that argument. Without memory for early,
     * the task takes one argument. */
    struct cli_dest *early = ft->pooled ? &t->early : &t->dest;
    size_t most = ft->per_task;
    if (ft->pooled && !t->early.out && cli_dest_open(&t->early) != 0) {
        early = &t->dest;
        most = 1;
    }
    for (size_t held = 0; ft->next < ft->nfiles && t->nargs < most && held < ft->held_max;) {
        size_t k = ft->next++;
        t->nargs++;
        held += (size_t)take_one(ft, t, k, early);
        /* naming says something only when it fails (a line, and the
         * error object with --json) */
        if (early != &t->dest && (t->status != EXIT_OK || early->lines.len || early->failed)) {
            t->early_arg = k;
            break;
        }
    }
    for (size_t k = 0; k < t->nitems; k++)   /* heads no longer moves */
        if (t->items[k].head_at != SIZE_MAX)
            t->items[k].in.head = (const unsigned char *)t->heads.buf + t->items[k].head_at;
    return 1;
}

/* A worker: the arrays of a task. */
static int work(void *ctx, void *slot)
{
    const struct run *r = ctx;
    const struct cli_file_tasks *ft = r->ft;
    struct cli_file_task *t = slot;
    int status = t->status;
    cli_reading_own();   /* no other thread reads this task's files */
    for (size_t k = 0; k <= t->nitems; k++) {
        if (t->early_arg != SIZE_MAX && (k == t->nitems || t->items[k].arg == t->early_arg)) {
            cli_dest_move(&t->dest, &t->early);   /* in its place */
            t->early_arg = SIZE_MAX;
        }
        if (k == t->nitems)
            break;
        int s = ft->one(ft->ctx, t, &t->items[k].in, t->items[k].fd);
        t->items[k].fd = -1;
        if (s > status)
            status = s;
    }
    cli_reading(NULL);   /* this thread reads no file now */
    return status;
}

/* Calling thread: the output of task t could not be held (memory ran
 * out): each of its arrays, and each of its arguments that names none,
 * gets "out of memory" and its --json error object, written at once in
 * argument order. Returns the exit status. */
static int report_lost(const struct cli_file_tasks *ft, const struct cli_file_task *t)
{
    int status = EXIT_OK, s;
    size_t j = 0;
    for (size_t k = t->first; k < t->first + t->nargs; k++) {
        size_t from = j;
        for (; j < t->nitems && t->items[j].arg == k; j++)
            if ((s = report_nomem(NULL, NULL, &t->items[j].in, ft->json)) > status)
                status = s;
        if (j == from && (s = report_nomem(NULL, ft->files[k], NULL, ft->json)) > status)
            status = s;
    }
    return status;
}

/* Calling thread: write what a task said, in argument order. */
static int finish(void *ctx, size_t i, void *slot, int status)
{
    struct run *r = ctx;
    struct cli_file_tasks *ft = r->ft;
    struct cli_file_task *t = slot;
    (void)i;
    if (t->blocks) {
        t->dest.skip = !t->dest.direct && ft->blocks == 0;   /* the first block's blank line */
        ft->blocks += t->blocks;
    }
    if (cli_dest_flush(&t->dest) != 0) {
        int s = report_lost(ft, t);
        status = s > status ? s : status;
    }
    if (status > ft->status)
        ft->status = status;
    cli_progress_update(&r->progress, (uint64_t)(t->first + t->nargs));
    return 0;
}

/* 1 when an argument that names no regular file (a FIFO, a device) is
 * given more than once: -j 1 reads it in turn, once per argument, each
 * read starting when the one before has ended. Equal arguments are found
 * by their text (no system call for each argument), and only a repeated
 * one is looked up (stat). Without memory for the table: 1. */
static int repeats_a_stream(char *const *files, size_t n)
{
    size_t size = 16;
    while (size < n * 2 && size <= SIZE_MAX / 4)
        size *= 2;
    size_t *slot = n > SIZE_MAX / 4 ? NULL : calloc(size, sizeof *slot);   /* index + 1 */
    if (!slot)
        return 1;
    int found = 0;
    for (size_t i = 0; i < n && !found; i++) {
        size_t len = strlen(files[i]);
        size_t h = (size_t)npydt_name_hash(files[i], len) & (size - 1);
        for (; slot[h]; h = (h + 1) & (size - 1)) {
            if (strcmp(files[slot[h] - 1], files[i]) == 0)
                break;
        }
        struct stat st;
        if (!slot[h])
            slot[h] = i + 1;
        else if (stat(files[i], &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
            found = 1;
    }
    free(slot);
    return found;
}

int cli_file_tasks_run(struct cli_file_tasks *ft, unsigned jobs, int status)
{
    /* standard input named twice is read in turn: one thread, so that no
     * array's reading starts before the one before it has ended; so is a
     * FIFO */
    size_t stdin_args = 0;
    for (size_t i = 0; i < ft->nfiles; i++)
        stdin_args += strcmp(ft->files[i], "-") == 0 || strncmp(ft->files[i], "-:", 2) == 0;
    jobs = stdin_args > 1 ? 1 : cli_jobs_count(jobs, ft->nfiles);
    if (jobs > 1 && repeats_a_stream(ft->files, ft->nfiles))
        jobs = 1;
    size_t nslots = jobs > 1 ? 2 * (size_t)jobs : 1;
    struct cli_file_task *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return cli_failure("out of memory");
    for (size_t k = 0; k < nslots; k++) {
        slots[k].heads = text_buf_growing(text_libc_realloc, NULL, 0);
        if (jobs == 1)
            cli_dest_direct(&slots[k].dest);
        else
            cli_dest_open(&slots[k].dest);   /* a failed one is tried again */
    }
    /* a task of many small files when there are many: a few tasks per
     * slot still (the workers' share evens out), and few descriptors held
     * in all */
    ft->per_task = 1;
    ft->held_max = SIZE_MAX;
    if (jobs > 1) {
        size_t per = ft->nfiles / (nslots * 4);
        ft->per_task = per < 1 ? 1 : per > TASK_FILES_MAX ? TASK_FILES_MAX : per;
        ft->held_max = TASK_HELD_FDS / nslots ? TASK_HELD_FDS / nslots : 1;
    }
    ft->pooled = jobs > 1;
    ft->next = 0;
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
        cli_dest_close(&slots[k].early);
        free(slots[k].items);
        text_buf_free(&slots[k].heads);
    }
    free(slots);
    cli_inputs_free(&ft->inputs);
    return ft->status;
}

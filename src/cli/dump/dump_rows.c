/* The selected elements of npydt dump, written by a format's row writer
 * in tasks of whole elements: with -j N, workers turn tasks into text in
 * parallel while the calling thread reads the elements and writes the
 * text in order (cli_jobs_run). A task's elements are reached through the
 * one cursor by the calling thread: in place in a mapping, or copied from
 * the cursor's batch (a file read with pread, an archive member, a pipe),
 * so any input goes in parallel. A task's text is written from where the
 * worker made it (sink_flush_with): one copy of every byte. The output is
 * the same bytes for any N, and an error is the one of the first element
 * at fault, reported after the text of the elements before it (and what
 * its own row wrote before the fault), as one thread writes them. */
#include "cli/dump/dump.h"
#include "cli/common/jobs.h"

#include <stdlib.h>

/* Bytes of elements a task takes (at least one element), and the most
 * elements it takes. */
#define ROWS_TASK_BYTES ((size_t)256 << 10)
#define ROWS_TASK_MAX 16384u
/* Bytes of copied elements all slots hold at most (beyond one task a
 * worker). */
#define ROWS_COPY_MAX ((size_t)64 << 20)

struct rows_slot {
    uint64_t first, n;              /* positions [first, first + n) of the selection */
    const unsigned char **recs;     /* their bytes */
    unsigned char *copy;            /* room for them when they are not in place */
    int cut;                        /* the cursor failed after the n elements: err */
    npydt_error err;
    struct dumper d;                /* the worker's: its own U buffer and error */
    struct sink text;               /* the task's text */
    void *state;                    /* the row writer's */
};

struct rows_run {
    struct dumper *d;
    struct sink *out;
    struct cursor *cur;
    const struct selection *s;
    const struct dump_rows *rows;
    uint64_t per_task;
    uint64_t pos;                   /* the next position to take */
    int cut;                        /* the cursor failed: no more tasks */
    /* a selection of neighbours in place, in C order: position i is the
     * element at run + i * itemsize, of flat index flat0 + i; else NULL */
    const unsigned char *run;
    uint64_t flat0;
};

enum { ROWS_STOP = 2 };

static int rows_take(void *ctx, size_t i, void *slot)
{
    struct rows_run *r = ctx;
    struct rows_slot *t = slot;
    (void)i;
    if (r->cut || r->pos >= r->s->total)
        return 0;
    uint64_t n = r->s->total - r->pos < r->per_task ? r->s->total - r->pos : r->per_task;
    size_t is = r->cur->itemsize;
    t->first = r->pos;
    t->n = 0;
    t->cut = 0;
    t->text.bytes.len = 0;
    if (r->run) {   /* no cursor to ask: the elements are where they lie */
        for (uint64_t k = 0; k < n; k++)
            t->recs[k] = r->run + (r->pos + k) * is;
        t->n = n;
        r->pos += n;
        return 1;
    }
    for (uint64_t k = 0; k < n; k++) {
        const unsigned char *rec = cursor_at(r->cur, selection_flat(r->s, r->pos + k), &t->err);
        if (!rec) {
            t->cut = r->cut = 1;
            break;
        }
        if (t->copy) {
            memcpy(t->copy + k * is, rec, is);
            rec = t->copy + k * is;
        }
        t->recs[k] = rec;
        t->n++;
    }
    r->pos += n;
    return 1;
}

static int rows_work(void *ctx, void *slot)
{
    const struct rows_run *r = ctx;
    struct rows_slot *t = slot;
    if (r->rows->put_run) {
        /* n is at most ROWS_TASK_MAX: a size_t */
        if (r->rows->put_run(r->rows->ctx, t->state, &t->d, &t->text, t->first, t->recs,
                             (size_t)t->n) != 0)
            return -1;
        return t->text.bytes.failed ? -1 : 0;
    }
    for (uint64_t k = 0; k < t->n; k++) {
        uint64_t i = t->first + k;
        uint64_t flat = r->run ? r->flat0 + i : selection_flat(r->s, i);
        if (r->rows->put(r->rows->ctx, t->state, &t->d, &t->text, i, flat, t->recs[k]) != 0)
            return -1;
    }
    return t->text.bytes.failed ? -1 : 0;
}

static int rows_finish(void *ctx, size_t i, void *slot, int result)
{
    struct rows_run *r = ctx;
    struct rows_slot *t = slot;
    (void)i;
    /* out of memory: the text of the task goes no further (what was
     * written before stays, as when one thread's buffer had gone out) */
    int nomem = (result != 0 && !t->d.failed) || t->text.bytes.failed;
    if (!nomem)
        sink_flush_with(r->out, t->text.bytes.buf, t->text.bytes.len);
    if (r->run && t->n)   /* read front to back: the last is as far as any */
        cursor_seen(r->cur, t->recs + (t->n - 1), 1);
    else if (!t->copy)
        cursor_seen(r->cur, t->recs, (size_t)t->n);
    if (r->d->progress)
        cli_progress_update(r->d->progress, (t->first + t->n) * r->d->itemsize);
    if (result != 0 || t->text.bytes.failed) {
        if (t->d.failed) {
            r->d->err = t->d.err;
            r->d->failed = 1;
        }
        return -1;
    }
    if (t->cut) {
        r->d->err = t->err;
        r->d->failed = 1;
        return -1;
    }
    return r->out->error ? ROWS_STOP : 0;   /* the write error is reported at exit */
}

static void slots_free(struct rows_slot *slots, size_t n, const struct dump_rows *rows)
{
    for (size_t k = 0; slots && k < n; k++) {
        if (slots[k].state && rows->close)
            rows->close(slots[k].state);
        free(slots[k].state);
        free(slots[k].recs);
        free(slots[k].copy);
        free(slots[k].d.ubuf);
        sink_free(&slots[k].text);
    }
    free(slots);
}

int dump_rows_run(struct dumper *d, struct sink *out, struct cursor *cur,
                  const struct selection *s, unsigned jobs, const struct dump_rows *rows)
{
    if (s->total == 0)
        return 0;
    size_t is = cur->itemsize;
    uint64_t per_task = is > ROWS_TASK_BYTES / ROWS_TASK_MAX ? ROWS_TASK_BYTES / is : ROWS_TASK_MAX;
    if (per_task == 0)
        per_task = 1;
    uint64_t tasks = (s->total - 1) / per_task + 1;
    jobs = cli_jobs_count(jobs, tasks > SIZE_MAX ? SIZE_MAX : (size_t)tasks);
    int copied = cur->bytes == NULL;
    size_t nslots = jobs == 1 ? 1 : 2 * (size_t)jobs;
    /* per_task * is is at most ROWS_TASK_BYTES, or one element's size */
    size_t task_copy = (size_t)per_task * is;
    while (copied && nslots > jobs && nslots > 1 && nslots * task_copy > ROWS_COPY_MAX)
        nslots--;
    struct rows_slot *slots = calloc(nslots, sizeof *slots);
    int rc = slots ? 0 : -1;
    for (size_t k = 0; k < nslots && rc == 0; k++) {
        struct rows_slot *t = &slots[k];
        sink_init(&t->text, SINK_MEMORY);
        t->d = *d;
        t->d.progress = NULL;
        t->d.ubuf = malloc(d->ubuf_size);
        t->recs = malloc((size_t)per_task * sizeof *t->recs);
        t->copy = copied ? malloc(task_copy ? task_copy : 1) : NULL;
        t->state = rows->state_size ? calloc(1, rows->state_size) : NULL;
        /* the first block of the text now: a small output allocates
         * nothing once the caller's first line (a header) is written */
        if (!t->d.ubuf || !t->recs || (copied && !t->copy) || (rows->state_size && !t->state) ||
            !sink_room(&t->text, 1))
            rc = -1;
        else if (rows->open && rows->open(rows->ctx, t->state) != 0)
            rc = -1;
    }
    if (rc == 0) {
        struct rows_run run = {d, out, cur, s, rows, per_task, 0, 0, NULL, 0};
        if (cur->bytes && !cur->fortran && !s->pick && s->row_step == 1) {
            run.flat0 = s->row_first * s->row_len;   /* selection_flat(s, 0) */
            run.run = cur->bytes + run.flat0 * is;
        }
        static const struct cli_jobs_ops ops = {rows_take, rows_work, rows_finish};
        rc = cli_jobs_run(jobs, slots, nslots, sizeof *slots, &ops, &run);
        rc = rc == ROWS_STOP ? 0 : rc;
    }
    slots_free(slots, nslots, rows);
    return rc;
}

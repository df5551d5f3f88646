/* The command's one thread pool: tasks made and finished in order by the
 * calling thread, worked by jobs threads. The calling thread does the
 * input and the output, so what the command writes is in task order and
 * the first error it reports is the one a single thread reports. */
#include "cli/common/jobs.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

int cli_jobs_parse(const struct cli_command *cmd, const char *text, unsigned *jobs)
{
    uint64_t n;
    if (cli_parse_count(text, &n, 1) != 0 || n > CLI_JOBS_MAX)
        return cli_usage(cmd, "-j/--jobs: '%s' is not a number of jobs from 1 to %d (0: one per processor)",
                         text, CLI_JOBS_MAX);
    *jobs = (unsigned)n;
    return 0;
}

unsigned cli_jobs_count(unsigned jobs, size_t tasks)
{
    const char *env = jobs == 0 ? getenv("NPYDT_JOBS") : NULL;
    uint64_t n;
    if (env && cli_parse_count(env, &n, 1) == 0 && n >= 1)
        jobs = n > CLI_JOBS_MAX ? CLI_JOBS_MAX : (unsigned)n;
    if (jobs == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        jobs = online < 1 ? 1 : online > CLI_JOBS_MAX ? CLI_JOBS_MAX : (unsigned)online;
    }
    if (jobs > CLI_JOBS_MAX)
        jobs = CLI_JOBS_MAX;
    if (tasks != 0 && jobs > tasks)
        jobs = (unsigned)tasks;
    return jobs ? jobs : 1;
}

/* A run shared by the calling thread and the workers; every field below
 * the ops is guarded by lock. */
/* Stack bytes of a worker: what a process's main thread has by default. */
#define CLI_JOBS_STACK ((size_t)8 << 20)

struct run {
    const struct cli_jobs_ops *ops;
    void *ctx;
    unsigned char *slots;
    size_t nslots, slot_size;
    pthread_mutex_t lock;
    pthread_cond_t has_work;   /* a task was taken, or the run ends */
    pthread_cond_t has_done;   /* a task was worked */
    size_t taken;              /* tasks taken so far */
    size_t started;            /* tasks a worker has started */
    size_t worked;             /* tasks worked */
    int quit;
    int caller_works;          /* the calling thread works tasks too */
    unsigned char *done;       /* per slot: its task is worked */
    int *result;               /* per slot: what work returned */
};

static void *slot_at(const struct run *r, size_t i)
{
    return r->slots + (i % r->nslots) * r->slot_size;
}

/* Task i worked by this thread (a worker, or the calling thread); called
 * and returns with the lock held. */
static void work_here(struct run *r, size_t i)
{
    pthread_mutex_unlock(&r->lock);
    int res = r->ops->work(r->ctx, slot_at(r, i));
    pthread_mutex_lock(&r->lock);
    r->result[i % r->nslots] = res;
    r->done[i % r->nslots] = 1;
    r->worked++;
}

static void *worker(void *arg)
{
    struct run *r = arg;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        while (!r->quit && r->started == r->taken)
            pthread_cond_wait(&r->has_work, &r->lock);
        if (r->started == r->taken)
            break;
        work_here(r, r->started++);
        pthread_cond_signal(&r->has_done);
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

static int run_alone(const struct cli_jobs_ops *ops, void *slot, void *ctx)
{
    for (size_t i = 0;; i++) {
        int t = ops->take(ctx, i, slot);
        if (t == 0)
            return 0;
        if (t != 1)
            return t;
        int f = ops->finish(ctx, i, slot, ops->work(ctx, slot));
        if (f != 0)
            return f;
    }
}

/* The calling thread's part: take while a slot is free, finish in order;
 * when the next to finish is not worked yet, work a task no worker has
 * started (caller_works) or wait. Returns with every task taken also
 * worked. */
static int run_in_order(struct run *r)
{
    int stop = 0, no_more = 0;
    size_t finished = 0;
    for (;;) {
        while (!stop && !no_more && r->taken - finished < r->nslots) {
            size_t i = r->taken;   /* only this thread changes taken */
            int t = r->ops->take(r->ctx, i, slot_at(r, i));
            if (t == 1) {
                pthread_mutex_lock(&r->lock);
                r->done[i % r->nslots] = 0;
                r->taken++;
                pthread_cond_signal(&r->has_work);
                pthread_mutex_unlock(&r->lock);
            } else if (t == 0) {
                no_more = 1;
            } else {
                stop = t;
            }
        }
        pthread_mutex_lock(&r->lock);
        if (stop || finished == r->taken) {
            while (r->caller_works && r->started != r->taken)
                work_here(r, r->started++);
            while (r->worked != r->taken)
                pthread_cond_wait(&r->has_done, &r->lock);
            pthread_mutex_unlock(&r->lock);
            return stop;
        }
        if (!r->done[finished % r->nslots] && r->caller_works && r->started != r->taken) {
            /* then back to take and finish: the task's slot is free after it */
            work_here(r, r->started++);
            pthread_mutex_unlock(&r->lock);
            continue;
        }
        while (!r->done[finished % r->nslots])
            pthread_cond_wait(&r->has_done, &r->lock);
        int res = r->result[finished % r->nslots];
        pthread_mutex_unlock(&r->lock);
        stop = r->ops->finish(r->ctx, finished, slot_at(r, finished), res);
        finished++;
    }
}

static int run_jobs(unsigned jobs, int caller_works, void *slots, size_t nslots,
                    size_t slot_size, const struct cli_jobs_ops *ops, void *ctx)
{
    if (jobs <= 1 || nslots == 0)
        return run_alone(ops, slots, ctx);
    struct run r = {.ops = ops, .ctx = ctx, .slots = slots, .nslots = nslots,
                    .slot_size = slot_size, .caller_works = caller_works};
    if (caller_works)
        jobs--;   /* the calling thread is one of them */
    pthread_t *threads = calloc(jobs, sizeof *threads);
    r.done = calloc(nslots, 1);
    r.result = calloc(nslots, sizeof *r.result);
    if (!threads || !r.done || !r.result) {
        free(threads);
        free(r.done);
        free(r.result);
        return run_alone(ops, slots, ctx);
    }
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.has_work, NULL);
    pthread_cond_init(&r.has_done, NULL);
    /* the calling thread's stack room for each worker (a default thread
     * stack is 128 KiB on some C libraries) */
    pthread_attr_t attr;
    bool attr_ok = pthread_attr_init(&attr) == 0;
    if (attr_ok)
        (void)pthread_attr_setstacksize(&attr, CLI_JOBS_STACK);
    unsigned started = 0;
    while (started < jobs &&
           pthread_create(&threads[started], attr_ok ? &attr : NULL, worker, &r) == 0)
        started++;
    if (attr_ok)
        pthread_attr_destroy(&attr);
    int status = started ? run_in_order(&r) : run_alone(ops, slots, ctx);
    pthread_mutex_lock(&r.lock);
    r.quit = 1;
    pthread_cond_broadcast(&r.has_work);
    pthread_mutex_unlock(&r.lock);
    for (unsigned k = 0; k < started; k++)
        pthread_join(threads[k], NULL);
    pthread_cond_destroy(&r.has_done);
    pthread_cond_destroy(&r.has_work);
    pthread_mutex_destroy(&r.lock);
    free(threads);
    free(r.done);
    free(r.result);
    return status;
}

int cli_jobs_run(unsigned jobs, void *slots, size_t nslots, size_t slot_size,
                 const struct cli_jobs_ops *ops, void *ctx)
{
    return run_jobs(jobs, 0, slots, nslots, slot_size, ops, ctx);
}

int cli_jobs_run_shared(unsigned jobs, void *slots, size_t nslots, size_t slot_size,
                        const struct cli_jobs_ops *ops, void *ctx)
{
    return run_jobs(jobs, 1, slots, nslots, slot_size, ops, ctx);
}

/* ---- work made ahead ------------------------------------------------------ */

/* The worker's side of a run; the counts are guarded by lock. */
struct cli_ahead_state {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t room;    /* a slot was given back, or the run ends */
    pthread_cond_t made;    /* a task was made, or the making ended */
    size_t nmade;           /* tasks made */
    size_t given;           /* tasks whose slot came back */
    int ended, end, quit;
};

static void *ahead_worker(void *arg)
{
    struct cli_ahead *a = arg;
    struct cli_ahead_state *w = a->state;
    pthread_mutex_lock(&w->lock);
    while (!w->quit && !w->ended) {
        if (w->nmade - w->given >= a->nslots) {
            pthread_cond_wait(&w->room, &w->lock);
            continue;
        }
        size_t i = w->nmade;
        pthread_mutex_unlock(&w->lock);
        int r = a->make(a->ctx, a->slots + (i % a->nslots) * a->slot_size);
        pthread_mutex_lock(&w->lock);
        if (r == 1) {
            w->nmade++;
        } else {
            w->ended = 1;
            w->end = r;
        }
        pthread_cond_signal(&w->made);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

void cli_ahead_start(struct cli_ahead *a, unsigned jobs, int (*make)(void *ctx, void *slot),
                     void *ctx, void *slots, size_t nslots, size_t slot_size)
{
    *a = (struct cli_ahead){make, ctx, slots, nslots, slot_size, 0, -1, NULL};
    if (jobs < 2 || nslots < 2)
        return;
    struct cli_ahead_state *w = calloc(1, sizeof *w);
    if (!w)
        return;   /* made here, in turn */
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->room, NULL);
    pthread_cond_init(&w->made, NULL);
    a->state = w;
    pthread_attr_t attr;
    bool attr_ok = pthread_attr_init(&attr) == 0;
    if (attr_ok)
        (void)pthread_attr_setstacksize(&attr, CLI_JOBS_STACK);
    int rc = pthread_create(&w->thread, attr_ok ? &attr : NULL, ahead_worker, a);
    if (attr_ok)
        pthread_attr_destroy(&attr);
    if (rc != 0) {
        a->state = NULL;
        pthread_cond_destroy(&w->made);
        pthread_cond_destroy(&w->room);
        pthread_mutex_destroy(&w->lock);
        free(w);
    }
}

int cli_ahead_next(struct cli_ahead *a, void **slot)
{
    struct cli_ahead_state *w = a->state;
    if (!w) {
        if (a->end != -1)
            return a->end;
        void *s = a->slots + (a->taken % a->nslots) * a->slot_size;
        int r = a->make(a->ctx, s);
        if (r != 1) {
            a->end = r;
            return r;
        }
        a->taken++;
        *slot = s;
        return 1;
    }
    pthread_mutex_lock(&w->lock);
    if (a->taken > 0) {
        w->given = a->taken;   /* the slot returned last comes back */
        pthread_cond_signal(&w->room);
    }
    while (w->nmade == a->taken && !w->ended)
        pthread_cond_wait(&w->made, &w->lock);
    int r = 1;
    if (w->nmade > a->taken)
        *slot = a->slots + (a->taken++ % a->nslots) * a->slot_size;
    else
        r = w->end;
    pthread_mutex_unlock(&w->lock);
    return r;
}

void cli_ahead_stop(struct cli_ahead *a)
{
    struct cli_ahead_state *w = a->state;
    if (!w)
        return;
    pthread_mutex_lock(&w->lock);
    w->quit = 1;
    pthread_cond_signal(&w->room);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->made);
    pthread_cond_destroy(&w->room);
    pthread_mutex_destroy(&w->lock);
    free(w);
    a->state = NULL;
    a->end = 0;   /* nothing more is made */
}

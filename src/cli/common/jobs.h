/* -j N, and work split into numbered tasks: made and finished in order in
 * the calling thread, done in parallel by workers. The one thread pool of
 * the command; the library has no threads. */
#ifndef NPYDT_CLI_COMMON_JOBS_H
#define NPYDT_CLI_COMMON_JOBS_H

#include <stddef.h>

#include "cli/common/args.h"

/* The most workers -j takes. */
#define CLI_JOBS_MAX 256

/* Reads the value of -j/--jobs for cmd into *jobs: a count from 1 to
 * CLI_JOBS_MAX, or 0 for "the number of online processors". Returns 0, or
 * the exit status of the usage error it reported (cli_usage). */
int cli_jobs_parse(const struct cli_command *cmd, const char *text, unsigned *jobs);

/* The workers to use: jobs (0: NPYDT_JOBS from the environment when it
 * is a count, else the online processors), capped by tasks when tasks is
 * not 0, and by CLI_JOBS_MAX; at least 1. */
unsigned cli_jobs_count(unsigned jobs, size_t tasks);

/* What the tasks of a run do; ctx is cli_jobs_run's. */
struct cli_jobs_ops {
    /* Calling thread, in task order: fill slot for task i. 1: a task was
     * made; 0: there are no more; anything else stops the run, which
     * returns it. */
    int (*take)(void *ctx, size_t i, void *slot);
    /* A worker: do the task, touching only its slot and state that stays
     * read-only while tasks run. The value goes to finish. */
    int (*work)(void *ctx, void *slot);
    /* Calling thread, in task order: use the result (write the output,
     * report the error). 0 goes on; anything else stops the run, which
     * returns it. */
    int (*finish)(void *ctx, size_t i, void *slot, int work_result);
};

/* Runs tasks 0, 1, 2, ... until take has no more or take or finish stops.
 * Task i uses slot i % nslots of the caller's nslots slots of slot_size
 * bytes each, so at most nslots tasks are in flight and memory is bounded
 * by the slots (2 * jobs slots keep every worker busy). With jobs 1 each
 * task is taken, worked and finished in turn in the calling thread, and no
 * thread is started. Otherwise jobs threads work while the calling thread
 * takes and finishes; if they cannot start, the calling thread works alone.
 * After a stop the tasks already taken are worked but not finished: their
 * slots are the caller's to clean. Returns 0 or the stopping value. */
int cli_jobs_run(unsigned jobs, void *slots, size_t nslots, size_t slot_size,
                 const struct cli_jobs_ops *ops, void *ctx);

/* Work made ahead, a pipeline of two stages: a worker makes tasks in
 * order into the caller's nslots slots while the calling thread uses
 * them in order (gathers or converts the next batch while the last one
 * is written). The slot cli_ahead_next returned stays the caller's until
 * its next call, so at most nslots tasks are made and one is used at a
 * time. Without a worker (jobs 1, or a thread that cannot start)
 * cli_ahead_next makes each task itself: the same tasks in the same
 * order. */
struct cli_ahead_state;
struct cli_ahead {
    /* Fill slot: 1 a task was made; 0 there are no more; anything else
     * stops (the value cli_ahead_next returns after the tasks made). */
    int (*make)(void *ctx, void *slot);
    void *ctx;
    unsigned char *slots;
    size_t nslots, slot_size;
    size_t taken;                   /* tasks cli_ahead_next returned */
    int end;                        /* made none more: what make said */
    struct cli_ahead_state *state;  /* the worker's, or NULL */
};

/* Start a run: a worker thread when jobs (cli_jobs_count's) is 2 or more
 * and nslots 2 or more. */
void cli_ahead_start(struct cli_ahead *a, unsigned jobs, int (*make)(void *ctx, void *slot),
                     void *ctx, void *slots, size_t nslots, size_t slot_size);
/* The next task's slot into *slot: 1, or what ended the making (0, or a
 * stop value) once every task made was taken. */
int cli_ahead_next(struct cli_ahead *a, void **slot);
/* End the run: a make under way finishes, the worker stops. Slots made
 * and not taken are the caller's to clean, as are all the others. */
void cli_ahead_stop(struct cli_ahead *a);
/* cli_jobs_run with the calling thread as one of the jobs: jobs - 1
 * threads are started, and the calling thread works the tasks no worker
 * has started whenever the next to finish is not worked yet, instead of
 * waiting for it. For tasks whose taking and finishing are short next to
 * their work: jobs threads stay busy on jobs processors, with no thread
 * woken or preempted for each task. */
int cli_jobs_run_shared(unsigned jobs, void *slots, size_t nslots, size_t slot_size,
                        const struct cli_jobs_ops *ops, void *ctx);

#endif

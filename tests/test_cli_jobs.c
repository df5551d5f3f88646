/* The command's thread pool (src/cli/common/jobs.c): every task is taken,
 * worked and finished exactly once, finished in task order whatever the
 * order workers end in, a stop ends the run with its value, and -j's
 * value is read as documented. Tasks of uneven cost make workers end out
 * of order. */
#include "test_util.h"

#include "cli/common/jobs.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct slot {
    size_t task;
    uint64_t value;
    int worked_by_caller;
};

struct tally {
    size_t ntasks;          /* take makes this many */
    size_t stop_take_at;    /* take stops with 7 at this task (SIZE_MAX: never) */
    size_t stop_finish_at;  /* finish stops with 9 at this task */
    pthread_t caller;
    atomic_size_t works;
    size_t takes, finishes;
    int out_of_order, wrong_value, wrong_thread;
    size_t caller_works;
};

/* A value that costs its task a number of steps that varies a lot from
 * task to task. */
static uint64_t cost(size_t task)
{
    uint64_t x = task + 1;
    size_t steps = (task * 7919u) % 257u;
    for (size_t k = 0; k < steps; k++)
        x = x * 6364136223846793005u + 1442695040888963407u;
    return x;
}

static int take(void *ctx, size_t i, void *slot)
{
    struct tally *t = ctx;
    if (!pthread_equal(pthread_self(), t->caller))
        t->wrong_thread = 1;
    if (i == t->stop_take_at)
        return 7;
    if (i == t->ntasks)
        return 0;
    struct slot *s = slot;
    s->task = i;
    s->value = 0;
    t->takes++;
    return 1;
}

static int work(void *ctx, void *slot)
{
    struct tally *t = ctx;
    struct slot *s = slot;
    s->value = cost(s->task);
    s->worked_by_caller = pthread_equal(pthread_self(), t->caller);
    atomic_fetch_add(&t->works, 1);
    return (int)(s->task % 3);
}

static int finish(void *ctx, size_t i, void *slot, int work_result)
{
    struct tally *t = ctx;
    const struct slot *s = slot;
    if (!pthread_equal(pthread_self(), t->caller))
        t->wrong_thread = 1;
    if (s->task != i || i != t->finishes)
        t->out_of_order = 1;
    if (s->value != cost(i) || work_result != (int)(i % 3))
        t->wrong_value = 1;
    t->caller_works += (size_t)s->worked_by_caller;
    t->finishes++;
    return i == t->stop_finish_at ? 9 : 0;
}

static const struct cli_jobs_ops ops = {take, work, finish};

static int run(struct tally *t, unsigned jobs, size_t nslots)
{
    struct slot slots[16];
    t->caller = pthread_self();
    atomic_init(&t->works, 0);
    return cli_jobs_run(jobs, slots, nslots, sizeof slots[0], &ops, t);
}

static void test_cli_jobs_finishes_every_task_once_in_task_order(void **state)
{
    (void)state;
    const unsigned jobs[] = {1, 2, 3, 8};
    const size_t nslots[] = {1, 2, 5, 16};
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++)
        for (size_t n = 0; n < sizeof nslots / sizeof nslots[0]; n++) {
            struct tally t = {.ntasks = 300, .stop_take_at = SIZE_MAX, .stop_finish_at = SIZE_MAX};
            assert_int_equal(run(&t, jobs[j], nslots[n]), 0);
            assert_int_equal(t.takes, 300);
            assert_int_equal(atomic_load(&t.works), 300);
            assert_int_equal(t.finishes, 300);
            assert_false(t.out_of_order);
            assert_false(t.wrong_value);
            assert_false(t.wrong_thread);
        }
}

static void test_cli_jobs_with_one_job_works_in_the_calling_thread(void **state)
{
    (void)state;
    struct tally t = {.ntasks = 20, .stop_take_at = SIZE_MAX, .stop_finish_at = SIZE_MAX};
    assert_int_equal(run(&t, 1, 4), 0);
    assert_int_equal(t.caller_works, 20);
}

static void test_cli_jobs_with_several_jobs_works_in_other_threads(void **state)
{
    (void)state;
    struct tally t = {.ntasks = 20, .stop_take_at = SIZE_MAX, .stop_finish_at = SIZE_MAX};
    assert_int_equal(run(&t, 2, 4), 0);
    assert_int_equal(t.caller_works, 0);
}

static void test_cli_jobs_of_no_tasks_finishes_nothing(void **state)
{
    (void)state;
    for (unsigned jobs = 1; jobs <= 4; jobs++) {
        struct tally t = {.ntasks = 0, .stop_take_at = SIZE_MAX, .stop_finish_at = SIZE_MAX};
        assert_int_equal(run(&t, jobs, 3), 0);
        assert_int_equal(t.finishes, 0);
        assert_int_equal(atomic_load(&t.works), 0);
    }
}

static void test_cli_jobs_stop_in_finish_ends_the_run_after_that_task(void **state)
{
    (void)state;
    for (unsigned jobs = 1; jobs <= 4; jobs++) {
        struct tally t = {.ntasks = 100, .stop_take_at = SIZE_MAX, .stop_finish_at = 40};
        assert_int_equal(run(&t, jobs, 6), 9);
        assert_int_equal(t.finishes, 41);
        assert_false(t.out_of_order);
        /* what was taken was worked, and no more than the slots hold */
        assert_int_equal(atomic_load(&t.works), t.takes);
        assert_true(t.takes >= 41 && t.takes <= 41 + 6);
    }
}

static void test_cli_jobs_stop_in_take_finishes_the_tasks_before_it(void **state)
{
    (void)state;
    for (unsigned jobs = 1; jobs <= 4; jobs++) {
        struct tally t = {.ntasks = 100, .stop_take_at = 30, .stop_finish_at = SIZE_MAX};
        assert_int_equal(run(&t, jobs, 6), 7);
        assert_int_equal(t.takes, 30);
        assert_int_equal(atomic_load(&t.works), 30);
        /* one job finishes each task before taking the next; more jobs
         * stop with some taken tasks not finished */
        assert_true(t.finishes <= 30 && t.finishes >= (jobs == 1 ? 30u : 30u - 6u));
        assert_false(t.out_of_order);
    }
}

static void test_cli_jobs_count_is_capped_by_the_work_and_the_maximum(void **state)
{
    (void)state;
    assert_int_equal(cli_jobs_count(4, 2), 2);
    assert_int_equal(cli_jobs_count(4, 0), 4);
    assert_int_equal(cli_jobs_count(1, 100), 1);
    assert_int_equal(cli_jobs_count(1000, 0), CLI_JOBS_MAX);
    unsigned online = cli_jobs_count(0, 0);
    assert_true(online >= 1 && online <= CLI_JOBS_MAX);
    assert_int_equal(cli_jobs_count(0, 1), 1);
}

static void test_cli_jobs_parse_takes_counts_up_to_the_maximum(void **state)
{
    (void)state;
    unsigned jobs = 99;
    assert_int_equal(cli_jobs_parse(NULL, "0", &jobs), 0);
    assert_int_equal(jobs, 0);
    assert_int_equal(cli_jobs_parse(NULL, "256", &jobs), 0);
    assert_int_equal(jobs, 256);
    assert_int_equal(cli_jobs_parse(NULL, "257", &jobs), 2);
    assert_int_equal(cli_jobs_parse(NULL, "-1", &jobs), 2);
    assert_int_equal(cli_jobs_parse(NULL, "2x", &jobs), 2);
    assert_int_equal(cli_jobs_parse(NULL, "", &jobs), 2);
    assert_int_equal(jobs, 256);
}

TEST_LIST("cli_jobs",
    cmocka_unit_test(test_cli_jobs_finishes_every_task_once_in_task_order),
    cmocka_unit_test(test_cli_jobs_with_one_job_works_in_the_calling_thread),
    cmocka_unit_test(test_cli_jobs_with_several_jobs_works_in_other_threads),
    cmocka_unit_test(test_cli_jobs_of_no_tasks_finishes_nothing),
    cmocka_unit_test(test_cli_jobs_stop_in_finish_ends_the_run_after_that_task),
    cmocka_unit_test(test_cli_jobs_stop_in_take_finishes_the_tasks_before_it),
    cmocka_unit_test(test_cli_jobs_count_is_capped_by_the_work_and_the_maximum),
    cmocka_unit_test(test_cli_jobs_parse_takes_counts_up_to_the_maximum));

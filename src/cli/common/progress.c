/* A progress line on standard error for long runs over large inputs.
 *
 * It is drawn only when standard error is a terminal (never into a log
 * file or a pipe, where carriage returns would be noise), only for inputs
 * of CLI_PROGRESS_MIN_BYTES or more (smaller ones finish before a line
 * would be worth reading), at most every CLI_PROGRESS_INTERVAL_MS, and it
 * is erased when the work ends, so that what follows on the terminal
 * starts on a clean line. */
#include "cli/common/progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ms(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void cli_progress_start(struct cli_progress *p, const char *label, uint64_t total, int quiet)
{
    memset(p, 0, sizeof *p);
    p->label = label;
    p->total = total;
    /* an unknown total (a pipe) may still grow past the threshold */
    p->enabled = !quiet && isatty(STDERR_FILENO) &&
                 (total == 0 || total >= CLI_PROGRESS_MIN_BYTES);
    p->last_ms = now_ms();
}

void cli_progress_update(struct cli_progress *p, uint64_t done)
{
    if (!p->enabled || (p->total == 0 && done < CLI_PROGRESS_MIN_BYTES))
        return;
    uint64_t t = now_ms();
    /* the first line at once (the input is large: the work will take a
     * while), then at most one per interval */
    if (p->drawn && t - p->last_ms < CLI_PROGRESS_INTERVAL_MS)
        return;
    p->last_ms = t;
    p->drawn = 1;
    if (p->total)
        fprintf(stderr, "\rnpydt: %s %3u%% (%llu of %llu MiB)\033[K", p->label,
                (unsigned)(done >= p->total ? 100 : done * 100.0 / (double)p->total),
                (unsigned long long)(done >> 20), (unsigned long long)(p->total >> 20));
    else
        fprintf(stderr, "\rnpydt: %s %llu MiB\033[K", p->label,
                (unsigned long long)(done >> 20));
    fflush(stderr);
}

void cli_progress_end(struct cli_progress *p)
{
    if (p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->drawn = 0;
    p->enabled = 0;
}

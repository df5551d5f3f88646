/* A progress line on standard error for long runs over large inputs or
 * many files, with its rate and the time left; and -q, which silences it.
 *
 * It is drawn only when standard error is a terminal (never into a log
 * file or a pipe, where carriage returns would be noise), only for inputs
 * of CLI_PROGRESS_MIN_BYTES or more or CLI_PROGRESS_MIN_FILES files or
 * more (smaller work ends before a line would be worth reading), never
 * with -q, at most every CLI_PROGRESS_INTERVAL_MS, and it
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

static int quiet_all;
/* The progress whose line is on the terminal. */
static struct cli_progress *shown;

void cli_set_quiet(void)
{
    quiet_all = 1;
}

int cli_quiet(void)
{
    return quiet_all;
}

void cli_progress_start(struct cli_progress *p, const char *label, uint64_t total, int quiet)
{
    memset(p, 0, sizeof *p);
    p->label = label;
    p->total = total;
    /* an unknown total (a pipe) may still grow past the threshold */
    p->enabled = !quiet && !quiet_all && isatty(STDERR_FILENO) &&
                 (total == 0 || total >= CLI_PROGRESS_MIN_BYTES);
    p->start_ms = p->last_ms = now_ms();
}

void cli_progress_start_files(struct cli_progress *p, const char *label, uint64_t total,
                              int quiet)
{
    cli_progress_start(p, label, 0, quiet);
    p->unit = "files";
    p->total = total;
    p->enabled = p->enabled && total >= CLI_PROGRESS_MIN_FILES;
}

/* " 2 s left", " 3 min 05 s left", " 2 h 10 min left" for ms. */
static void put_left(char *out, size_t size, uint64_t ms)
{
    uint64_t s = (ms + 999) / 1000;
    if (s < 60)
        snprintf(out, size, ", %llu s left", (unsigned long long)s);
    else if (s < 3600)
        snprintf(out, size, ", %llu min %02llu s left", (unsigned long long)(s / 60),
                 (unsigned long long)(s % 60));
    else
        snprintf(out, size, ", %llu h %02llu min left", (unsigned long long)(s / 3600),
                 (unsigned long long)(s / 60 % 60));
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
    shown = p;
    /* amounts in MiB, or files; the rate once a first interval has passed */
    int files = p->unit != NULL;
    double scale = files ? 1.0 : 1.0 / (1 << 20);
    const char *unit = files ? "files" : "MiB";
    uint64_t ms = t - p->start_ms;
    char rate[64] = "", left[48] = "";
    if (ms >= CLI_PROGRESS_INTERVAL_MS && done > 0) {
        double per_s = (double)done * 1000.0 / (double)ms;
        snprintf(rate, sizeof rate, ", %.1f %s/s", per_s * scale, unit);
        if (p->total > done)
            put_left(left, sizeof left, (uint64_t)((double)(p->total - done) * 1000.0 / per_s));
    }
    if (p->total)
        fprintf(stderr, "\rnpydt: %s %3u%% (%llu of %llu %s%s%s)\033[K", p->label,
                (unsigned)(done >= p->total ? 100 : done * 100.0 / (double)p->total),
                (unsigned long long)(done * scale), (unsigned long long)(p->total * scale), unit,
                rate, left);
    else
        fprintf(stderr, "\rnpydt: %s %llu %s%s\033[K", p->label,
                (unsigned long long)(done * scale), unit, rate);
    fflush(stderr);
}

void cli_progress_clear(void)
{
    if (shown && shown->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        shown->drawn = 0;
    }
}

void cli_progress_end(struct cli_progress *p)
{
    if (p->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    if (shown == p)
        shown = NULL;
    p->drawn = 0;
    p->enabled = 0;
}

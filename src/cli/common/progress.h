/* A progress line on standard error. */
#ifndef NPYDT_CLI_COMMON_PROGRESS_H
#define NPYDT_CLI_COMMON_PROGRESS_H

#include <stdint.h>

/* Inputs smaller than this finish too soon for a progress line. */
#define CLI_PROGRESS_MIN_BYTES ((uint64_t)64 << 20)
/* At most one redraw per interval. */
#define CLI_PROGRESS_INTERVAL_MS 250u

struct cli_progress {
    const char *label;     /* "swapping", "reading", ... */
    uint64_t total;        /* bytes of the whole work; 0 when unknown */
    uint64_t last_ms;      /* of the start or the last redraw */
    int enabled;           /* stderr is a terminal, not quiet, large enough */
    int drawn;             /* a line is on the terminal, to erase */
};

/* Start p for total bytes (0: unknown, drawn once past the threshold). */
void cli_progress_start(struct cli_progress *p, const char *label, uint64_t total, int quiet);
/* done bytes so far: redraws the line when it is time to. */
void cli_progress_update(struct cli_progress *p, uint64_t done);
/* Erase the line, if one was drawn. */
void cli_progress_end(struct cli_progress *p);

#endif

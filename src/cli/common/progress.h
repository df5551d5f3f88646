/* A progress line on standard error, and -q (--quiet), which silences it
 * and the command's other lines that are no errors. */
#ifndef NPYDT_CLI_COMMON_PROGRESS_H
#define NPYDT_CLI_COMMON_PROGRESS_H

#include <stdint.h>

/* Inputs smaller than this finish too soon for a progress line. */
#define CLI_PROGRESS_MIN_BYTES ((uint64_t)64 << 20)
/* Fewer files than this are read too soon for a progress line. */
#define CLI_PROGRESS_MIN_FILES 500u
/* At most one redraw per interval. */
#define CLI_PROGRESS_INTERVAL_MS 250u

struct cli_progress {
    const char *label;     /* "swapping", "reading", ... */
    const char *unit;      /* "files" for a count of files; NULL: bytes */
    uint64_t total;        /* of the whole work; 0 when unknown */
    uint64_t start_ms;     /* of the start: the rate */
    uint64_t last_ms;      /* of the start or the last redraw */
    int enabled;           /* stderr is a terminal, not quiet, large enough */
    int drawn;             /* a line is on the terminal, to erase */
};

/* -q: no progress line, no line that is no error. */
void cli_set_quiet(void);
int cli_quiet(void);

/* Start p for total bytes (0: unknown, drawn once past the threshold);
 * quiet (or -q) draws nothing. */
void cli_progress_start(struct cli_progress *p, const char *label, uint64_t total, int quiet);
/* Start p for a count of total files (drawn from CLI_PROGRESS_MIN_FILES). */
void cli_progress_start_files(struct cli_progress *p, const char *label, uint64_t total,
                              int quiet);
/* done bytes (or files) so far: redraws the line when it is time to, with
 * the rate and, when the total is known, the time left. */
void cli_progress_update(struct cli_progress *p, uint64_t done);
/* Erase the line, if one was drawn. */
void cli_progress_end(struct cli_progress *p);
/* Erase the line drawn, if any, before another line goes to stderr (it
 * is drawn again at its next update). */
void cli_progress_clear(void);

#endif

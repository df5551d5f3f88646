/* Lines of an input read in large blocks: one fread per block, handed on
 * as runs of whole lines (no copy of a line that lies within a block),
 * memchr for the ends of each. CSV reads its rows (which a quoted cell
 * may carry over a line's end) from the same blocks. */
#include "cli/load/load.h"
#include "cli/common/report.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

void load_lines_init(struct load_lines *r, FILE *in)
{
    memset(r, 0, sizeof *r);
    r->in = in;
    /* the size of a file, for the progress line; a pipe's is unknown */
    struct stat st;
    uint64_t total = fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0
                         ? (uint64_t)st.st_size
                         : 0;
    cli_progress_start(&r->progress, "loading", total, 0);
}

void load_lines_free(struct load_lines *r)
{
    cli_progress_end(&r->progress);
    free(r->buf);
    memset(r, 0, sizeof *r);
}

int load_lines_fill(struct load_lines *r, npydt_error *err)
{
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    if (r->cap - r->end < LOAD_LINES_BLOCK / 2) {
        if (r->cap >= LOAD_MAX_LINE) {
            cli_error(err, NPYDT_E_LIMIT, "a line longer than %zu bytes", LOAD_MAX_LINE);
            return -1;
        }
        size_t cap = r->cap ? r->cap * 2 : LOAD_LINES_BLOCK;
        char *buf = realloc(r->buf, cap);
        if (!buf) {
            cli_error(err, NPYDT_E_NOMEM, "out of memory");
            return -1;
        }
        r->buf = buf;
        r->cap = cap;
    }
    size_t got = fread(r->buf + r->end, 1, r->cap - r->end, r->in);
    r->end += got;
    r->read += got;
    cli_progress_update(&r->progress, r->read);
    if (got == 0) {
        if (ferror(r->in)) {
            cli_error(err, NPYDT_E_IO, "read failed: %s", TEXT_ERRNO(errno));
            return -1;
        }
        r->eof = 1;
        return 0;
    }
    return 1;
}

int load_lines_whole(struct load_lines *r, size_t *n, npydt_error *err)
{
    size_t scanned = 0;
    for (;;) {
        const char *b = r->buf ? r->buf + r->start : "";
        size_t avail = r->end - r->start, end = avail;
        while (end > scanned && b[end - 1] != '\n')
            end--;
        if (end > scanned) {
            *n = end;
            return 1;
        }
        scanned = avail;
        if (r->eof) {
            *n = avail;
            return avail > 0;
        }
        if (load_lines_fill(r, err) < 0)
            return -1;
    }
}

int load_lines_hand(struct load_lines *r, size_t n, size_t room, char **buf, size_t *cap)
{
    size_t tail = r->end - r->start - n;
    if (room < tail)
        room = tail;
    if (*cap < room) {
        /* not realloc: the old bytes are not kept */
        char *b = malloc(room);
        if (!b)
            return -1;
        free(*buf);
        *buf = b;
        *cap = room;
    }
    if (tail)
        memcpy(*buf, r->buf + r->start + n, tail);
    char *held = r->buf;
    size_t held_cap = r->cap;
    r->buf = *buf;
    r->cap = *cap;
    r->start = 0;
    r->end = tail;
    *buf = held;
    *cap = held_cap;
    return 0;
}

size_t load_line_cut(const char *s, size_t n, size_t *at)
{
    const char *line = s + *at, *nl = memchr(line, '\n', n - *at);
    size_t len = nl ? (size_t)(nl - line) : n - *at;
    *at += len + (nl != NULL);
    if (len && line[len - 1] == '\r')
        len--;
    return len;
}

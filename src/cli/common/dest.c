/* A task's output in memory, written out in order (dest.h). Standard
 * output's bytes go to a memory stream, so that every printer that takes
 * a FILE writes into it unchanged; standard error's lines go to a list
 * that notes where in the output each came, so the two streams are
 * written with their lines in the order of a run without tasks. */
#include "cli/common/dest.h"
#include "cli/common/progress.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int cli_dest_open(struct cli_dest *d)
{
    memset(d, 0, sizeof *d);
    d->lines = text_buf_growing(text_libc_realloc, NULL, 256);
    d->out = open_memstream(&d->buf, &d->len);
    d->failed = d->out == NULL;
    return d->failed ? -1 : 0;
}

void cli_dest_direct(struct cli_dest *d)
{
    memset(d, 0, sizeof *d);
    d->out = stdout;
    d->direct = 1;
}

/* The bytes of the output so far (the stream flushed into buf). */
static size_t out_len(struct cli_dest *d)
{
    if (fflush(d->out) != 0)
        d->failed = 1;
    return d->len;
}

void cli_dest_line(struct cli_dest *d, const char *line, size_t len)
{
    if (!d || d->direct) {
        cli_progress_clear();   /* the line starts on a clean line */
        fwrite(line, 1, len, stderr);
        return;
    }
    if (d->failed)
        return;
    size_t head[2] = {out_len(d), len};
    text_buf_write(&d->lines, head, sizeof head);
    text_buf_write(&d->lines, line, len);
    d->failed |= d->lines.failed;
}

int cli_dest_flush(struct cli_dest *d)
{
    if (!d->out) {   /* never opened */
        d->skip = 0;
        return -1;
    }
    if (d->direct)
        return 0;
    size_t end = d->failed ? 0 : out_len(d);
    int failed = d->failed || ferror(d->out);
    size_t done = d->skip < end ? d->skip : end;
    d->skip = 0;
    for (size_t at = 0; !failed && at < d->lines.len;) {
        size_t head[2];
        memcpy(head, d->lines.buf + at, sizeof head);
        at += sizeof head;
        if (head[0] > done) {
            fwrite(d->buf + done, 1, head[0] - done, stdout);
            done = head[0];
        }
        cli_progress_clear();
        fwrite(d->lines.buf + at, 1, head[1], stderr);
        at += head[1];
    }
    if (!failed)
        fwrite(d->buf + done, 1, end - done, stdout);
    /* empty for the next task: the stream's position back to 0 */
    if (d->lines.failed) {
        text_buf_free(&d->lines);
        d->lines = text_buf_growing(text_libc_realloc, NULL, 256);
    }
    d->lines.len = 0;
    if (d->out) {
        rewind(d->out);
        clearerr(d->out);
        d->failed = fflush(d->out) != 0;
    }
    return failed ? -1 : 0;
}

void cli_dest_move(struct cli_dest *to, struct cli_dest *from)
{
    size_t end = from->failed ? 0 : out_len(from), done = 0;
    if (from->failed || ferror(from->out))
        to->failed = 1;
    for (size_t at = 0; !to->failed && at < from->lines.len;) {
        size_t head[2];
        memcpy(head, from->lines.buf + at, sizeof head);
        at += sizeof head;
        if (head[0] > done) {
            fwrite(from->buf + done, 1, head[0] - done, to->out);
            done = head[0];
        }
        cli_dest_line(to, from->lines.buf + at, head[1]);
        at += head[1];
    }
    if (!to->failed && end > done)
        fwrite(from->buf + done, 1, end - done, to->out);
    from->lines.len = 0;
    rewind(from->out);
    clearerr(from->out);
    from->failed = fflush(from->out) != 0;
}

void cli_dest_close(struct cli_dest *d)
{
    if (d->direct) {
        memset(d, 0, sizeof *d);
        return;
    }
    if (d->out)
        fclose(d->out);
    free(d->buf);
    text_buf_free(&d->lines);
    memset(d, 0, sizeof *d);
}

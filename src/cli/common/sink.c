/* The output buffer of npydt dump: values are formatted straight into it
 * (no stdio call per character), and it goes to its descriptor in large
 * write(2)s from where it is, so that every byte of output is copied once
 * (stdio would copy it again into its own buffer); without a descriptor
 * it grows in memory (the table's cells, a task's text). Its memory is
 * the text stage's growing buffer. */
#include "cli/common/sink.h"

#include "cli/common/json.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#define SINK_FLUSH_AT ((size_t)1 << 16)

/* The first failed write's errno (command state, not the library's). */
static int write_error;

int sink_write_error(void)
{
    return write_error;
}

void sink_init(struct sink *s, int fd)
{
    s->bytes = text_buf_growing(text_libc_realloc, NULL, SINK_FLUSH_AT);
    s->fd = fd;
    s->error = 0;
    s->limit = 0;
}

/* iov[0..n) to the descriptor, all of it, or the sink's error set. */
static void write_all(struct sink *s, struct iovec *iov, int n)
{
    while (n > 0 && !s->error) {
        ssize_t w = writev(s->fd, iov, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            s->error = w < 0 && errno ? errno : EIO;
            if (!write_error)
                write_error = s->error;
            return;
        }
        size_t k = (size_t)w;
        for (; n > 0 && k >= iov->iov_len; iov++, n--)
            k -= iov->iov_len;
        if (n > 0) {
            iov->iov_base = (char *)iov->iov_base + k;
            iov->iov_len -= k;
        }
    }
}

/* Bytes a write is given at most (a writev's total must fit ssize_t). */
#define SINK_WRITE_MAX ((size_t)1 << 30)

void sink_flush_with(struct sink *s, const void *b, size_t n)
{
    if (s->fd == SINK_MEMORY) {
        sink_write(s, b, n);
        return;
    }
    const char *p = b;
    do {
        size_t part = n < SINK_WRITE_MAX ? n : SINK_WRITE_MAX;
        struct iovec iov[2] = {{s->bytes.buf, s->bytes.len}, {(void *)(uintptr_t)p, part}};
        int first = s->bytes.len ? 0 : 1, count = 2 - first - (part == 0);
        if (count > 0)
            write_all(s, iov + first, count);
        s->bytes.len = 0;   /* written, or dropped after a failed write */
        p += part;
        n -= part;
    } while (n > 0 && !s->error);
}

void sink_flush(struct sink *s)
{
    if (s->fd != SINK_MEMORY && s->bytes.len)
        sink_flush_with(s, NULL, 0);
}

char *sink_grow(struct sink *s, size_t n)
{
    int memory = s->fd == SINK_MEMORY;
    if (s->bytes.failed || (memory && sink_full(s)))
        return NULL;
    if (!memory && s->bytes.len + n > SINK_FLUSH_AT)
        sink_flush(s);
    if (memory && s->limit && !s->bytes.cap)
        s->bytes.first = s->limit;   /* a cell: its limit is all it takes */
    return text_buf_reserve(&s->bytes, n);
}

void sink_free(struct sink *s)
{
    text_buf_free(&s->bytes);
}

void sink_json(struct sink *s, const char *str, size_t len, enum text_json_mode mode)
{
    if (len > (SIZE_MAX - 2) / 6) {
        s->bytes.failed = true;
        return;
    }
    char *p = sink_room(s, TEXT_JSON_ESCAPED_MAX(len) + 2);
    if (!p)
        return;
    p[0] = '"';
    size_t n = 1 + text_json_escape_into(p + 1, str, len, mode);
    p[n++] = '"';
    s->bytes.len += n;
}

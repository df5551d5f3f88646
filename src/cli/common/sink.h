/* The command's output buffer (sink.c): values are formatted straight
 * into it and it goes to its file descriptor in large write(2)s (each
 * byte copied once: no stdio buffer behind it), or grows in memory (a
 * table's cells, a report's lines, a task's text). */
#ifndef NPYDT_CLI_COMMON_SINK_H
#define NPYDT_CLI_COMMON_SINK_H

#include "text/text.h"

#include <stdio.h>
#include <string.h>

/* A sink that grows in memory (sink_init's fd). */
#define SINK_MEMORY (-1)

/* Bytes on their way to fd (written in large writes), or growing in
 * memory when fd is SINK_MEMORY: a growing text_buf over libc's
 * allocator. After a failed allocation, bytes.failed is set and further
 * output is dropped. After a failed write, error holds its errno and
 * further output is dropped too (sink_write_error reports it at exit). In
 * memory, a nonzero limit drops what comes once len has reached it
 * (sink_full; len may pass it by one write). */
struct sink {
    struct text_buf bytes;
    int fd;
    int error;
    size_t limit;
};
void sink_init(struct sink *s, int fd);
static inline int sink_full(const struct sink *s)
{
    return s->limit && s->bytes.len >= s->limit;
}
/* Room for n more bytes at the end (writing out first if it goes to a
 * descriptor): write them, then add to bytes.len. NULL after a failed
 * allocation. */
char *sink_grow(struct sink *s, size_t n);
static inline char *sink_room(struct sink *s, size_t n)
{
    struct text_buf *b = &s->bytes;
    return !b->failed && b->cap - b->len >= n ? b->buf + b->len : sink_grow(s, n);
}
static inline void sink_putc(struct sink *s, char c)
{
    char *p = sink_room(s, 1);
    if (p) {
        *p = c;
        s->bytes.len++;
    }
}
static inline void sink_write(struct sink *s, const void *b, size_t n)
{
    if (n == 0)
        return;   /* b may be NULL then */
    char *p = sink_room(s, n);
    if (p) {
        memcpy(p, b, n);
        s->bytes.len += n;
    }
}
static inline void sink_puts(struct sink *s, const char *str)
{
    sink_write(s, str, strlen(str));
}
/* len bytes of str as a JSON string (text_json_escape_into). */
void sink_json(struct sink *s, const char *str, size_t len, enum text_json_mode mode);
/* Write what is buffered to the descriptor. */
void sink_flush(struct sink *s);
/* What is buffered, then the n bytes at b, to the descriptor, b written
 * from where it is (one writev: text made elsewhere, a task's, is not
 * copied into the sink first). */
void sink_flush_with(struct sink *s, const void *b, size_t n);
void sink_free(struct sink *s);
/* The errno of the first failed write of any sink (0: none): main
 * reports it as it reports a failed write of stdio (a reader gone is
 * quiet, anything else "error writing output"). */
int sink_write_error(void);

#endif

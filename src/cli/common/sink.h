/* The command's output buffer (sink.c): values are formatted straight
 * into it and it goes to its FILE in large writes, or grows in memory
 * (a table's cells, a report's lines). */
#ifndef NPYDT_CLI_COMMON_SINK_H
#define NPYDT_CLI_COMMON_SINK_H

#include "text/text.h"

#include <stdio.h>
#include <string.h>

/* Bytes on their way to out (flushed in large writes), or growing in
 * memory when out is NULL: a growing text_buf over libc's allocator. After
 * a failed allocation, bytes.failed is set and further output is dropped.
 * In memory, a nonzero limit drops what comes once len has reached it
 * (sink_full; len may pass it by one write). */
struct sink {
    struct text_buf bytes;
    FILE *out;
    size_t limit;
};
void sink_init(struct sink *s, FILE *out);
static inline int sink_full(const struct sink *s)
{
    return s->limit && s->bytes.len >= s->limit;
}
/* Room for n more bytes at the end (flushing first if it goes to a FILE):
 * write them, then add to bytes.len. NULL after a failed allocation. */
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
/* Write what is buffered to the FILE. */
void sink_flush(struct sink *s);
void sink_free(struct sink *s);

#endif

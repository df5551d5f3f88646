/* The output buffer of npydt dump: values are formatted straight into it
 * (no stdio call per character), and it goes to its FILE in large writes;
 * without a FILE it grows in memory (the table's cells). */
#include "cli/dump/dump.h"

#include <stdlib.h>

#define SINK_FLUSH_AT ((size_t)1 << 16)

void sink_init(struct sink *s, FILE *out)
{
    s->buf = NULL;
    s->len = s->cap = 0;
    s->out = out;
    s->failed = 0;
    s->limit = 0;
}

void sink_flush(struct sink *s)
{
    if (s->out && s->len) {
        fwrite(s->buf, 1, s->len, s->out);
        s->len = 0;
    }
}

char *sink_grow(struct sink *s, size_t n)
{
    if (s->failed || (!s->out && sink_full(s)))
        return NULL;
    if (s->out && s->len + n > SINK_FLUSH_AT)
        sink_flush(s);
    if (s->len + n > s->cap) {
        size_t cap = s->cap ? s->cap : !s->out && s->limit ? s->limit : SINK_FLUSH_AT;
        while (cap < s->len + n) {
            if (cap > SIZE_MAX / 2) {
                s->failed = 1;
                return NULL;
            }
            cap *= 2;
        }
        char *b = realloc(s->buf, cap);
        if (!b) {
            s->failed = 1;
            return NULL;
        }
        s->buf = b;
        s->cap = cap;
    }
    return s->buf + s->len;
}

void sink_free(struct sink *s)
{
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = 0;
}

void sink_json(struct sink *s, const char *str, size_t len, enum json_mode mode)
{
    if (len > (SIZE_MAX - 2) / 6) {
        s->failed = 1;
        return;
    }
    char *p = sink_room(s, JSON_ESCAPED_MAX(len) + 2);
    if (!p)
        return;
    p[0] = '"';
    size_t n = 1 + json_escape_into(p + 1, str, len, mode);
    p[n++] = '"';
    s->len += n;
}

/* The output buffer of npydt dump: values are formatted straight into it
 * (no stdio call per character), and it goes to its FILE in large writes;
 * without a FILE it grows in memory (the table's cells). Its memory is the
 * text stage's growing buffer. */
#include "cli/common/sink.h"

#include "cli/common/json.h"

#include <stdlib.h>

#define SINK_FLUSH_AT ((size_t)1 << 16)

void sink_init(struct sink *s, FILE *out)
{
    s->bytes = text_buf_growing(text_libc_realloc, NULL, SINK_FLUSH_AT);
    s->out = out;
    s->limit = 0;
}

void sink_flush(struct sink *s)
{
    if (s->out && s->bytes.len) {
        fwrite(s->bytes.buf, 1, s->bytes.len, s->out);
        s->bytes.len = 0;
    }
}

char *sink_grow(struct sink *s, size_t n)
{
    if (s->bytes.failed || (!s->out && sink_full(s)))
        return NULL;
    if (s->out && s->bytes.len + n > SINK_FLUSH_AT)
        sink_flush(s);
    if (!s->out && s->limit && !s->bytes.cap)
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

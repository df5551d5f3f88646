/* The string builder behind every printed name, type and header: the
 * text stage's measuring buffer over the outbuf's three fields. */
#include "base/base.h"

#include <stdio.h>

static struct text_buf view(const struct outbuf *o)
{
    struct text_buf b = text_buf_fixed(o->buf, o->size);
    b.len = o->len;
    return b;
}

void out_putc(struct outbuf *o, char c)
{
    struct text_buf b = view(o);
    text_buf_putc(&b, c);
    o->len = b.len;
}

void out_puts(struct outbuf *o, const char *s)
{
    struct text_buf b = view(o);
    text_buf_puts(&b, s);
    o->len = b.len;
}

void out_u64(struct outbuf *o, uint64_t v)
{
    char num[24];
    struct text_buf b = view(o);
    text_buf_write(&b, num, text_decimal_u64(v, num));
    o->len = b.len;
}

void out_i64(struct outbuf *o, int64_t v)
{
    char num[24];
    struct text_buf b = view(o);
    text_buf_write(&b, num, text_decimal_i64(v, num));
    o->len = b.len;
}

void out_printf(struct outbuf *o, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    out_puts(o, tmp);
}

void out_finish(struct outbuf *o)
{
    if (o->size)
        o->buf[o->len < o->size ? o->len : o->size - 1] = '\0';
}

void out_shape(struct outbuf *o, const uint64_t *dims, size_t ndim)
{
    struct text_buf b = view(o);
    text_shape_tuple(&b, dims, ndim);
    o->len = b.len;
}

void out_shape_signed(struct outbuf *o, const int64_t *dims, size_t ndim)
{
    struct text_buf b = view(o);
    text_shape_tuple_signed(&b, dims, ndim);
    o->len = b.len;
}

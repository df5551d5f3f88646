/* The string builder behind every printed name, type and header. */
#include "base/base.h"

#include <stdio.h>

void out_putc(struct outbuf *o, char c)
{
    if (o->len + 1 < o->size)
        o->buf[o->len] = c;
    o->len++;
}

void out_puts(struct outbuf *o, const char *s)
{
    while (*s)
        out_putc(o, *s++);
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

/* The one byte buffer: growing through a caller's allocator, or measuring
 * over a caller's array. Growth and its overflow checks live here alone. */
#include "text/text.h"

#include <stdlib.h>
#include <string.h>

void *text_libc_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    (void)ctx;
    (void)old_size;
    if (new_size == 0) {
        free(ptr);
        return NULL;
    }
    return realloc(ptr, new_size);
}

struct text_buf text_buf_growing(text_realloc_fn *grow, void *ctx, size_t first)
{
    return (struct text_buf){.grow = grow, .ctx = ctx, .first = first ? first : 64};
}

struct text_buf text_buf_fixed(char *buf, size_t size)
{
    return (struct text_buf){.buf = buf, .cap = size};
}

char *text_buf_reserve(struct text_buf *b, size_t n)
{
    if (b->failed)
        return NULL;
    if (!b->grow) {
        if (b->len <= b->cap && n <= b->cap - b->len)
            return b->buf + b->len;
        b->failed = true;
        return NULL;
    }
    if (n <= b->cap - b->len)
        return b->buf + b->len;
    if (n > SIZE_MAX - b->len) {
        b->failed = true;
        return NULL;
    }
    size_t need = b->len + n;
    size_t cap = b->cap ? b->cap : b->first;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;   /* no doubling left: exactly what is needed */
            break;
        }
        cap *= 2;
    }
    char *p = b->grow(b->ctx, b->buf, b->cap, cap);
    if (!p) {
        b->failed = true;
        return NULL;
    }
    b->buf = p;
    b->cap = cap;
    return b->buf + b->len;
}

void text_buf_write(struct text_buf *b, const void *s, size_t n)
{
    if (n == 0)
        return;
    if (!b->grow) {
        /* measuring: keep what fits before the NUL's byte, count it all */
        size_t keep = b->cap && b->len < b->cap - 1 ? b->cap - 1 - b->len : 0;
        if (keep > n)
            keep = n;
        if (keep)
            memcpy(b->buf + b->len, s, keep);
        b->len = n > SIZE_MAX - b->len ? SIZE_MAX : b->len + n;
        return;
    }
    char *p = text_buf_room(b, n);
    if (p) {
        memcpy(p, s, n);
        b->len += n;
    }
}

void text_buf_puts(struct text_buf *b, const char *s)
{
    text_buf_write(b, s, strlen(s));
}

void text_buf_putc(struct text_buf *b, char c)
{
    if (b->grow && !b->failed && b->cap > b->len) {
        b->buf[b->len++] = c;
        return;
    }
    text_buf_write(b, &c, 1);
}

void text_buf_terminate(struct text_buf *b)
{
    if (!b->grow && b->cap > 0)
        b->buf[b->len < b->cap ? b->len : b->cap - 1] = '\0';
}

void text_buf_free(struct text_buf *b)
{
    if (b->grow && b->buf)
        b->grow(b->ctx, b->buf, b->cap, 0);
    b->buf = NULL;
    b->len = b->cap = 0;
}

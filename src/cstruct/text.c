/* The text the generator writes, in a growable buffer, and names and
 * paths quoted for a C comment. */
#include "cstruct/cstruct.h"
#include "base/base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>


struct sbuf sb_new(const npydt_allocator *a)
{
    /* the allocator is only read through ctx (alloc_text_realloc) */
    return (struct sbuf){.t = text_buf_growing(alloc_text_realloc, (void *)a, 256)};
}

static void sb_spill(struct sbuf *b)
{
    if (!b->spill)
        b->spill = tmpfile();
    if (!b->spill || fwrite(b->t.buf, 1, b->t.len, b->spill) != b->t.len) {
        b->spill_errno = errno;
        b->t.failed = true;
        b->spill_failed = 1;
        return;
    }
    b->t.len = 0;
}

int sb_drain(struct sbuf *b, void (*put)(void *ctx, const char *s, size_t n), void *ctx)
{
    if (b->spill) {
        if (fflush(b->spill) != 0 || fseek(b->spill, 0, SEEK_SET) != 0)
            return -1;
        char buf[1 << 14];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, b->spill)) > 0)
            put(ctx, buf, n);
        if (ferror(b->spill))
            return -1;
    }
    if (b->t.len)
        put(ctx, b->t.buf, b->t.len);
    return 0;
}

void sb_free(struct sbuf *b)
{
    text_buf_free(&b->t);
    if (b->spill)
        fclose(b->spill);
    *b = sb_new(b->t.ctx);
}

/* Room for extra bytes and a NUL after the text (spilling first when the
 * text held would pass SBUF_SPILL_AT), or NULL when b has failed. */
static char *sb_reserve(struct sbuf *b, size_t extra)
{
    if (b->t.failed)
        return NULL;
    if (b->spills && b->t.len && (b->t.len >= SBUF_SPILL_AT || extra >= SBUF_SPILL_AT - b->t.len))
        sb_spill(b);
    if (b->t.failed)
        return NULL;
    if (extra == SIZE_MAX) {
        b->t.failed = true;
        return NULL;
    }
    return text_buf_room(&b->t, extra + 1);
}

/* The NUL after text written into b->t directly. */
static void sb_terminate(struct sbuf *b)
{
    char *p = sb_reserve(b, 0);
    if (p)
        *p = '\0';
}

void sb_putn(struct sbuf *b, const char *s, size_t n)
{
    char *p = sb_reserve(b, n);
    if (!p)
        return;
    memcpy(p, s, n);
    p[n] = '\0';
    b->t.len += n;
}

void sb_puts(struct sbuf *b, const char *s)
{
    sb_putn(b, s, strlen(s));
}

void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->t.failed = true;
        return;
    }
    char *p = sb_reserve(b, (size_t)n);
    if (!p)
        return;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->t.len += (size_t)n;
}

void sb_put_shape(struct sbuf *b, const uint64_t *shape, size_t ndim)
{
    text_shape_tuple(&b->t, shape, ndim);
    sb_terminate(b);
}


/* Unicode characters that must not appear raw in a comment: controls,
 * format characters and bidirectional overrides (gcc's -Wbidi-chars). */
static int unsafe_code_point(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0xAD || cp == 0x061C || cp == 0x180E ||
           (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
           (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB) ||
           (cp >= 0xE0000 && cp <= 0xE007F);
}

/* Writes s[0..len) quoted for a comment: never "*" "/", never a trigraph,
 * never a control character (a NUL in a name included) or invalid UTF-8,
 * at most max bytes of s. s is NUL-terminated after len bytes. */
void put_quoted_n(struct sbuf *b, const char *s, size_t len, size_t max)
{
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *start = p, *end = p + len;
    sb_putn(b, "\"", 1);
    while (p < end) {
        if ((size_t)(p - start) >= max) {
            sb_puts(b, "...");
            break;
        }
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            sb_printf(b, "\\%c", c);
            p++;
        } else if (c == '/' && p > start && p[-1] == '*') {
            sb_puts(b, "\\/");
            p++;
        } else if (c == '?' && p + 1 < end && p[1] == '?') {
            sb_puts(b, "?\\");
            p++;
        } else if (c >= 0x20 && c < 0x7F) {
            sb_putn(b, (const char *)p, 1);
            p++;
        } else if (c < 0x80) {
            sb_printf(b, "\\x%02x", c);
            p++;
        } else {
            uint32_t cp;
            size_t n = text_utf8_decode(p, (size_t)(end - p), &cp);
            if (n == 0) {
                sb_printf(b, "\\x%02x", c);
                p++;
            } else if (unsafe_code_point(cp)) {
                sb_printf(b, "\\u%04lx", (unsigned long)cp);
                p += n;
            } else {
                sb_putn(b, (const char *)p, n);
                p += n;
            }
        }
    }
    sb_putn(b, "\"", 1);
}

void put_quoted(struct sbuf *b, const char *s, size_t max)
{
    put_quoted_n(b, s, strlen(s), max);
}


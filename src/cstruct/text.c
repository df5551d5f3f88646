/* The text the generator writes, in a growable buffer, and names and
 * paths quoted for a C comment. */
#include "cstruct/cstruct.h"
#include "base/base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void sb_spill(struct sbuf *b)
{
    if (!b->spill)
        b->spill = tmpfile();
    if (!b->spill || fwrite(b->data, 1, b->len, b->spill) != b->len) {
        b->spill_errno = errno;
        b->nomem = 1;
        b->spill_failed = 1;
        return;
    }
    b->len = 0;
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
    if (b->len)
        put(ctx, b->data, b->len);
    return 0;
}

void sb_free(struct sbuf *b)
{
    if (b->data)
        free_bytes(b->alloc, b->data, b->cap);
    if (b->spill)
        fclose(b->spill);
    const npydt_allocator *a = b->alloc;
    memset(b, 0, sizeof *b);
    b->alloc = a;
}

static void sb_reserve(struct sbuf *b, size_t extra)
{
    if (b->nomem)
        return;
    if (b->spills && b->len && (b->len >= SBUF_SPILL_AT || extra >= SBUF_SPILL_AT - b->len))
        sb_spill(b);
    if (b->nomem)
        return;
    if (extra > SIZE_MAX - b->len - 1) {
        b->nomem = 1;
        return;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *p = realloc_bytes(b->alloc, b->data, b->cap, cap);
    if (!p) {
        b->nomem = 1;
        return;
    }
    b->data = p;
    b->cap = cap;
}

void sb_putn(struct sbuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    if (b->nomem)
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
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
        b->nomem = 1;
        return;
    }
    sb_reserve(b, (size_t)n);
    if (b->nomem)
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}


/* Decodes one UTF-8 sequence at p, whose first byte is not ASCII (the
 * callers write ASCII their own way); returns its length and sets *cp, or
 * 0 when the bytes are not valid UTF-8. */
size_t cstruct_utf8_decode(const unsigned char *p, uint32_t *cp)
{
    uint32_t c = p[0];
    size_t n;
    uint32_t min;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2, c &= 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3, c &= 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4, c &= 0x07, min = 0x10000;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
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
            size_t n = cstruct_utf8_decode(p, &cp);
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


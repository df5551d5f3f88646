/* Text safe to show and to log: the one rule by which names, type strings
 * and messages from a file reach a terminal, a log line or an error
 * struct. Locale independent. */
#include "text/text.h"

#include <string.h>

static const char hex[] = "0123456789abcdef";

/* \xNN for the byte c. */
static size_t x_escape(char esc[TEXT_ESCAPE_MAX + 1], unsigned char c)
{
    esc[0] = '\\';
    esc[1] = 'x';
    esc[2] = hex[c >> 4];
    esc[3] = hex[c & 15];
    esc[4] = '\0';
    return 1;
}

size_t text_escape_at(const unsigned char *p, size_t n, char esc[TEXT_ESCAPE_MAX + 1])
{
    esc[0] = '\0';
    if (*p >= 0x20 && *p < 0x7f)
        return 1;
    if (*p >= '\a' && *p <= '\r') {
        esc[0] = '\\';
        esc[1] = "abtnvfr"[*p - '\a'];
        esc[2] = '\0';
        return 1;
    }
    if (*p < 0x20 || *p == 0x7f)
        return x_escape(esc, *p);
    if (text_breaks_lines(p, n)) {   /* a C1 control, U+2028, U+2029 */
        unsigned cp = p[0] == 0xc2 ? p[1] : 0x2000u + p[2] - 0x80u;
        esc[0] = '\\';
        esc[1] = 'u';
        for (int k = 0; k < 4; k++)
            esc[2 + k] = hex[(cp >> (12 - 4 * k)) & 15];
        esc[6] = '\0';
        return p[0] == 0xc2 ? 2 : 3;
    }
    uint32_t cp;
    size_t k = text_utf8_decode(p, n, &cp);
    return k ? k : x_escape(esc, *p);   /* a byte that does not start UTF-8 */
}

size_t text_escape_into(char *dst, const char *s, size_t len)
{
    char *o = dst;
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        char esc[TEXT_ESCAPE_MAX + 1];
        size_t n = text_escape_at(p, (size_t)(end - p), esc);
        size_t e = esc[0] ? strlen(esc) : n;
        memcpy(o, esc[0] ? esc : (const char *)p, e);
        o += e;
        p += n;
    }
    return (size_t)(o - dst);
}

size_t text_escape_fit(char *dst, size_t size, const char *s, size_t len)
{
    if (size == 0)
        return 0;
    size_t at = 0;
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        char esc[TEXT_ESCAPE_MAX + 1];
        size_t n = text_escape_at(p, (size_t)(end - p), esc);
        size_t k = esc[0] ? strlen(esc) : n;
        if (k > size - 1 - at)
            break;   /* whole characters and whole escapes only */
        memcpy(dst + at, esc[0] ? esc : (const char *)p, k);
        at += k;
        p += n;
    }
    dst[at] = '\0';
    return at;
}

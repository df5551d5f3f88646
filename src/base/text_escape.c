/* npydt_text_escape: a name or text from a file as the library's error
 * paths and messages spell it, for a program's own logs. */
#include "base/base.h"

size_t npydt_text_escape(const char *s, size_t len, char *buf, size_t size)
{
    size_t whole = 0;
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end) {
        char esc[TEXT_ESCAPE_MAX + 1];
        size_t n = text_escape_at(p, (size_t)(end - p), esc);
        whole += esc[0] ? strlen(esc) : n;
        p += n;
    }
    if (size > 0)
        text_escape_fit(buf, size, s, len);
    return whole;
}

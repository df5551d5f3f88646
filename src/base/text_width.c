/* npydt_text_width: the terminal columns of a name, for tables. */
#include "base/base.h"

size_t npydt_text_width(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t width = 0;
    while (len > 0) {
        uint32_t cp;
        size_t n = text_utf8_decode(p, len, &cp);
        if (n == 0) {
            width++;   /* a byte that is not UTF-8: shown as one replacement */
            n = 1;
        } else if (cp >= 0x20 && cp != 0x7F) {
            width += unicode_width(cp);
        }
        p += n;
        len -= n;
    }
    return width;
}

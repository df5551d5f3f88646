/* Strict UTF-8, as Python's decoder: no overlongs, no surrogates,
 * nothing above U+10FFFF; and the one relaxation npydt_read_unicode's
 * output needs (surrogates as 3-byte sequences, WTF-8). */
#include "text/text.h"

#include <stdbool.h>

static size_t decode(const unsigned char *s, size_t len, uint32_t *cp, bool surrogates)
{
    if (len == 0)
        return 0;
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t n;
    uint32_t v, min;
    if (c >= 0xC2 && c <= 0xDF) { n = 2; v = c & 0x1Fu; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { n = 3; v = c & 0x0Fu; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { n = 4; v = c & 0x07u; min = 0x10000; }
    else return 0;
    if (len < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (s[i] & 0x3Fu);
    }
    if (v < min || v > 0x10FFFF || (!surrogates && v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return n;
}

size_t text_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    return decode(s, len, cp, false);
}

size_t text_wtf8_decode(const unsigned char *s, size_t len, uint32_t *cp)
{
    return decode(s, len, cp, true);
}

size_t text_utf8_encode(uint32_t cp, char out[4])
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t text_utf8_cut(const char *s, size_t len, size_t max)
{
    if (len <= max)
        return len;
    size_t n = max;
    for (int k = 0; k < 3 && n > 1 && ((unsigned char)s[n] & 0xC0) == 0x80; k++)
        n--;
    return n;
}

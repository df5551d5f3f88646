/* JSON strings as json.dumps(ensure_ascii=False) writes them, for every
 * JSON the command prints. Locale independent. */
#include "text/text.h"

#include <string.h>

bool text_breaks_lines(const unsigned char *s, size_t n)
{
    return (n >= 2 && s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) ||
           (n >= 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9));
}

/* \u00XX or \uXXXX for a code unit. */
static size_t u_escape(char *dst, unsigned cp)
{
    static const char hex[] = "0123456789abcdef";
    dst[0] = '\\';
    dst[1] = 'u';
    dst[2] = hex[(cp >> 12) & 15];
    dst[3] = hex[(cp >> 8) & 15];
    dst[4] = hex[(cp >> 4) & 15];
    dst[5] = hex[cp & 15];
    return 6;
}

/* The TEXT_JSON_BYTES text of each byte value, as a table built by the
 * compiler: printable ASCII as itself, '"' '\\' and \b \f \n \r \t in
 * their short forms, every other byte (controls, 0x7f and up) \u00XX. */
#define BYTE_PLAIN(c) ((c) >= 0x20 && (c) < 0x7f && (c) != '"' && (c) != '\\')
#define BYTE_SHORT(c) ((c) == '"' ? '"' : (c) == '\\' ? '\\' : (c) == '\b' ? 'b' \
                       : (c) == '\f' ? 'f' : (c) == '\n' ? 'n' : (c) == '\r' ? 'r' \
                       : (c) == '\t' ? 't' : 0)
#define HEX_DIGIT(n) ((n) < 10 ? '0' + (n) : 'a' + (n) - 10)
#define BYTE_TEXT(c)                                                                          \
    {{BYTE_PLAIN(c) ? (c) : '\\', BYTE_PLAIN(c) ? 0 : BYTE_SHORT(c) ? BYTE_SHORT(c) : 'u', '0', \
      '0', HEX_DIGIT((c) >> 4), HEX_DIGIT((c) & 15)},                                        \
     BYTE_PLAIN(c) ? 1 : BYTE_SHORT(c) ? 2 : 6}
#define BYTE_TEXT4(c) BYTE_TEXT(c), BYTE_TEXT(c + 1), BYTE_TEXT(c + 2), BYTE_TEXT(c + 3)
#define BYTE_TEXT16(c) BYTE_TEXT4(c), BYTE_TEXT4(c + 4), BYTE_TEXT4(c + 8), BYTE_TEXT4(c + 12)
#define BYTE_TEXT64(c) \
    BYTE_TEXT16(c), BYTE_TEXT16(c + 16), BYTE_TEXT16(c + 32), BYTE_TEXT16(c + 48)

static const struct {
    char text[6];
    unsigned char len;
} byte_text[256] = {BYTE_TEXT64(0), BYTE_TEXT64(64), BYTE_TEXT64(128), BYTE_TEXT64(192)};

/* Are the eight bytes of w all printable ASCII other than '"' and '\\'?
 * Each test below is exact about whether some byte is of its kind (a
 * borrow or carry between bytes only makes a plain word look otherwise,
 * which then goes byte by byte). */
static bool plain8(uint64_t w)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), high = ones << 7;
    uint64_t control = (w - ones * 0x20) & ~w & high;   /* a byte below 0x20 */
    uint64_t del_up = ((w + ones) | w) & high;           /* a byte of 0x7f or above */
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    uint64_t quote = (q - ones) & ~q & high, backslash = (b - ones) & ~b & high;
    return !(control | del_up | quote | backslash);
}

/* Bytes in TEXT_JSON_BYTES mode, eight at a time: copied as they are
 * when all are plain (most text), else a fixed 6-byte copy and a length
 * per byte, no branch on its class (binary data mixes them at random). */
static size_t escape_bytes(char *dst, const unsigned char *s, size_t len)
{
    size_t o = 0, i = 0;
    for (; len - i >= 8; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (plain8(w)) {
            memcpy(dst + o, s + i, 8);
            o += 8;
            continue;
        }
        for (size_t k = i; k < i + 8; k++) {
            memcpy(dst + o, byte_text[s[k]].text, 6);
            o += byte_text[s[k]].len;
        }
    }
    for (; i < len; i++) {
        memcpy(dst + o, byte_text[s[i]].text, 6);
        o += byte_text[s[i]].len;
    }
    return o;
}

size_t text_json_escape_into(char *dst, const char *str, size_t len, enum text_json_mode mode)
{
    const unsigned char *s = (const unsigned char *)str;
    if (mode == TEXT_JSON_BYTES)
        return escape_bytes(dst, s, len);
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            dst[o++] = (char)c;   /* most bytes: printable ASCII */
            i++;
            continue;
        }
        char shortform = 0;
        switch (c) {
        case '"': shortform = '"'; break;
        case '\\': shortform = '\\'; break;
        case '\b': shortform = 'b'; break;
        case '\f': shortform = 'f'; break;
        case '\n': shortform = 'n'; break;
        case '\r': shortform = 'r'; break;
        case '\t': shortform = 't'; break;
        default: break;
        }
        if (shortform) {
            dst[o++] = '\\';
            dst[o++] = shortform;
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            o += u_escape(dst + o, c);
            i++;
        } else {
            size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            if (n > len - i)
                n = len - i;
            int surrogate = n == 3 && c == 0xED && (s[i + 1] & 0xE0) == 0xA0;
            if (surrogate || text_breaks_lines(s + i, n)) {
                o += u_escape(dst + o, n == 2 ? ((c & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu)
                                              : ((c & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) |
                                                    (s[i + 2] & 0x3Fu));
            } else {
                memcpy(dst + o, s + i, n);   /* UTF-8 passes through */
                o += n;
            }
            i += n;
        }
    }
    return o;
}

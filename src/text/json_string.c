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

/* The bytes of w that are not printable ASCII or are '"' or '\\', as the
 * high bit of each such byte (w loaded lowest byte first: the first byte
 * in memory is the lowest). Per byte x, the high bit of: x - 0x20 (x below
 * 0x20, when x itself has it clear), x + 1 (x = 0x7f), x (0x80 and up),
 * (x ^ '"') - 1 and (x ^ '\\') - 1 (x is the quote or the backslash, when
 * x has the high bit clear): the terms that need x's high bit clear need
 * no mask, x's own term covering the bytes that have it. A byte's bit may
 * be set wrongly only by a borrow or carry from a lower byte that is
 * special itself (they go from lower bytes to higher ones only): whether
 * any of the lowest k bytes is special is exact whatever the bytes above
 * them hold. */
static uint64_t special8(uint64_t w)
{
    const uint64_t ones = UINT64_C(0x0101010101010101);
    return ((w - ones * 0x20) | (w + ones) | w | ((w ^ (ones * '"')) - ones) |
            ((w ^ (ones * '\\')) - ones)) &
           (ones << 7);
}

/* Bytes in TEXT_JSON_BYTES mode one by one: a fixed 6-byte copy and a
 * length per byte, no branch on its class (binary data mixes them at
 * random). */
static size_t escape_each(char *dst, const unsigned char *s, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        memcpy(dst + o, byte_text[s[i]].text, 6);
        o += byte_text[s[i]].len;
    }
    return o;
}

/* Bytes in TEXT_JSON_BYTES mode, eight at a time: copied as they are
 * when all are plain (most text), else one by one.
 * The last 1 to 7 bytes go as one word too when 8 bytes can be read
 * there (readable: the bytes at s that may be read, len or more) and
 * written (room: the bytes dst holds): the word's other bytes are read
 * but not judged, and written past the text. */
static size_t escape_bytes(char *dst, size_t room, const unsigned char *s, size_t len,
                           size_t readable)
{
    size_t o = 0, i = 0;
    for (; len - i >= 8; i += 8) {
        uint64_t w = text_load64(s + i, TEXT_HOST_BIG);
        if (!special8(w)) {
            text_store64(dst + o, TEXT_HOST_BIG, w);
            o += 8;
            continue;
        }
        o += escape_each(dst + o, s + i, 8);
    }
    size_t left = len - i;
    if (left > 0 && readable >= 8 && room - o >= 8) {
        /* the left bytes as the lowest of a word: read from s + i, or
         * from the last readable word, shifted down */
        uint64_t w = readable - i >= 8
                         ? text_load64(s + i, TEXT_HOST_BIG)
                         : text_load64(s + readable - 8, TEXT_HOST_BIG) >> (8 * (i + 8 - readable));
        if (!(special8(w) & ((UINT64_C(1) << (8 * left)) - 1))) {
            text_store64(dst + o, TEXT_HOST_BIG, w);
            return o + left;
        }
    }
    return o + escape_each(dst + o, s + i, len - i);
}

size_t text_json_escape_field(char *dst, const unsigned char *s, size_t size)
{
    /* trailing NULs a word at a time: those of the last nonzero word are
     * its high zero bytes (loaded lowest byte first) */
    size_t n = size;
    for (; n >= 8; n -= 8) {
        uint64_t w = text_load64(s + n - 8, TEXT_HOST_BIG);
        if (w) {
            n -= (size_t)__builtin_clzll(w) / 8;
            break;
        }
    }
    if (n < 8) {
        while (n > 0 && s[n - 1] == 0)
            n--;
        if (n == 0)
            return 0;
    }
    if (size >= 8 && n <= 16) {
        /* the usual short text: one word (its first n bytes judged) or
         * two overlapping ones, copied whole when plain (dst holds
         * 6 * size >= max(8, n) bytes); else byte by byte */
        uint64_t w = text_load64(s, TEXT_HOST_BIG);
        if (n <= 8) {
            if (!(special8(w) & (~UINT64_C(0) >> (8 * (8 - n))))) {
                text_store64(dst, TEXT_HOST_BIG, w);
                return n;
            }
        } else {
            uint64_t last = text_load64(s + n - 8, TEXT_HOST_BIG);
            if (!(special8(w) | special8(last))) {
                text_store64(dst, TEXT_HOST_BIG, w);
                text_store64(dst + n - 8, TEXT_HOST_BIG, last);
                return n;
            }
        }
        return escape_each(dst, s, n);
    }
    return escape_bytes(dst, TEXT_JSON_ESCAPED_MAX(size), s, n, size);
}

size_t text_json_escape_into(char *dst, const char *str, size_t len, enum text_json_mode mode)
{
    const unsigned char *s = (const unsigned char *)str;
    if (mode == TEXT_JSON_BYTES)
        return escape_bytes(dst, TEXT_JSON_ESCAPED_MAX(len), s, len, len);
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

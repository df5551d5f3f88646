/* JSON writing for the command's machine-readable output. */
#include "cli/common/json.h"

#include <stdlib.h>
#include <string.h>

bool json_breaks_lines(const unsigned char *s, size_t n)
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

/* The JSON_BYTES text of each byte value, as a table built by the
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

/* Bytes in JSON_BYTES mode: a fixed 6-byte copy and a length per byte, no
 * branch on its class (binary data mixes them at random). */
static size_t escape_bytes(char *dst, const unsigned char *s, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        memcpy(dst + o, byte_text[s[i]].text, 6);
        o += byte_text[s[i]].len;
    }
    return o;
}

size_t json_escape_into(char *dst, const char *str, size_t len, enum json_mode mode)
{
    const unsigned char *s = (const unsigned char *)str;
    if (mode == JSON_BYTES)
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
            if (surrogate || json_breaks_lines(s + i, n)) {
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

void json_escaped(FILE *out, const char *s, size_t len, enum json_mode mode)
{
    /* through a small buffer, cut between UTF-8 sequences */
    char buf[JSON_ESCAPED_MAX(40)];
    putc('"', out);
    for (size_t i = 0; i < len;) {
        size_t end = len - i > 40 ? i + 40 : len;
        while (end < len && end > i + 1 && ((unsigned char)s[end] & 0xC0) == 0x80)
            end--;
        fwrite(buf, 1, json_escape_into(buf, s + i, end - i, mode), out);
        i = end;
    }
    putc('"', out);
}

void json_string_n(FILE *out, const char *s, size_t len)
{
    json_escaped(out, s, len, JSON_TEXT);
}

void json_string(FILE *out, const char *s)
{
    json_string_n(out, s, strlen(s));
}

void json_dtype(FILE *out, const npydt_dtype *dt)
{
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR: {
        char str[64];
        npydt_dtype_str(dt, str, sizeof str);
        fprintf(out, "{\"type\":\"scalar\",\"kind\":\"%c\",\"byteorder\":\"%c\",\"itemsize\":%zu,\"str\":",
                npydt_dtype_kind(dt), npydt_dtype_byteorder(dt), npydt_dtype_itemsize(dt));
        json_string(out, str);
        if (npydt_dtype_unit(dt) != NPYDT_UNIT_NONE)
            fprintf(out, ",\"unit\":\"%s\",\"count\":%ld", npydt_unit_name(npydt_dtype_unit(dt)),
                    (long)npydt_dtype_unit_count(dt));
        putc('}', out);
        return;
    }
    case NPYDT_SUBARRAY: {
        fputs("{\"type\":\"subarray\",\"shape\":[", out);
        const uint64_t *shape = npydt_dtype_shape(dt);
        for (size_t i = 0; i < npydt_dtype_ndim(dt); i++)
            fprintf(out, "%s%llu", i ? "," : "", (unsigned long long)shape[i]);
        fprintf(out, "],\"itemsize\":%zu,\"base\":", npydt_dtype_itemsize(dt));
        json_dtype(out, npydt_dtype_base(dt));
        putc('}', out);
        return;
    }
    case NPYDT_STRUCT:
        fprintf(out, "{\"type\":\"struct\",\"itemsize\":%zu,\"fields\":[", npydt_dtype_itemsize(dt));
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++) {
            if (i)
                putc(',', out);
            fputs("{\"name\":", out);
            json_string_n(out, npydt_dtype_field_name(dt, i), npydt_dtype_field_name_len(dt, i));
            fputs(",\"title\":", out);
            const char *title = npydt_dtype_field_title(dt, i);
            if (title)
                json_string_n(out, title, npydt_dtype_field_title_len(dt, i));
            else
                fputs("null", out);
            fprintf(out, ",\"offset\":%zu,\"dtype\":", npydt_dtype_field_offset(dt, i));
            json_dtype(out, npydt_dtype_field_dtype(dt, i));
            putc('}', out);
        }
        fputs("]}", out);
        return;
    }
}

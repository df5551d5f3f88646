/* .npz archives, member names: raw names decoded (CP437 or flagged UTF-8)
 * and checked, '..' components refused, and names quoted for messages. */
#include "npz/zip.h"

#include <stdio.h>
#include <string.h>

/* ---- quoting for messages ------------------------------------------------ */

void zip_quote_name(char *buf, size_t size, const char *name)
{
    struct outbuf o = {buf, size, 0};
    const unsigned char *s = (const unsigned char *)name;
    out_putc(&o, '\'');
    for (size_t i = 0; s[i];) {
        if (o.len > 80) {
            out_puts(&o, "...");
            break;
        }
        unsigned char c = s[i];
        if (c < 0x20 || c == 0x7f || c == '\'' || c == '\\') {
            out_printf(&o, "\\x%02x", c);
            i++;
        } else if (c < 0x80) {
            out_putc(&o, (char)c);
            i++;
        } else {
            /* names are valid UTF-8 here: copy a whole sequence at once */
            size_t n = 1;
            while (s[i + n] && (s[i + n] & 0xC0) == 0x80)
                n++;
            for (size_t k = 0; k < n; k++)
                out_putc(&o, (char)s[i + k]);
            i += n;
        }
    }
    out_putc(&o, '\'');
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
}

void zip_quote_raw(char *buf, size_t size, const unsigned char *s, size_t len)
{
    struct outbuf o = {buf, size, 0};
    out_putc(&o, '\'');
    for (size_t i = 0; i < len; i++) {
        if (o.len > 80) {
            out_puts(&o, "...");
            break;
        }
        if (s[i] < 0x20 || s[i] >= 0x7f || s[i] == '\'' || s[i] == '\\')
            out_printf(&o, "\\x%02x", s[i]);
        else
            out_putc(&o, (char)s[i]);
    }
    out_putc(&o, '\'');
    if (size)
        buf[o.len < size ? o.len : size - 1] = '\0';
}

npydt_status zip_member_error(npydt_error *err, const char *name, const char *fmt, ...)
{
    char quoted[128], text[256];
    zip_quote_name(quoted, sizeof quoted, name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return set_error(err, NPYDT_E_ARCHIVE, NPYDT_NO_OFFSET, NULL, "member %s: %s", quoted, text);
}

/* ---- decoding and checking ------------------------------------------------ */

/* Code points of CP437 bytes 0x80..0xFF, the encoding zip names have unless
 * flagged UTF-8 (Python's zipfile, hence np.load, decodes them so). */
static const uint16_t cp437_high[128] = {
    0x00C7, 0x00FC, 0x00E9, 0x00E2, 0x00E4, 0x00E0, 0x00E5, 0x00E7, 0x00EA, 0x00EB, 0x00E8,
    0x00EF, 0x00EE, 0x00EC, 0x00C4, 0x00C5, 0x00C9, 0x00E6, 0x00C6, 0x00F4, 0x00F6, 0x00F2,
    0x00FB, 0x00F9, 0x00FF, 0x00D6, 0x00DC, 0x00A2, 0x00A3, 0x00A5, 0x20A7, 0x0192, 0x00E1,
    0x00ED, 0x00F3, 0x00FA, 0x00F1, 0x00D1, 0x00AA, 0x00BA, 0x00BF, 0x2310, 0x00AC, 0x00BD,
    0x00BC, 0x00A1, 0x00AB, 0x00BB, 0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x2561, 0x2562,
    0x2556, 0x2555, 0x2563, 0x2551, 0x2557, 0x255D, 0x255C, 0x255B, 0x2510, 0x2514, 0x2534,
    0x252C, 0x251C, 0x2500, 0x253C, 0x255E, 0x255F, 0x255A, 0x2554, 0x2569, 0x2566, 0x2560,
    0x2550, 0x256C, 0x2567, 0x2568, 0x2564, 0x2565, 0x2559, 0x2558, 0x2552, 0x2553, 0x256B,
    0x256A, 0x2518, 0x250C, 0x2588, 0x2584, 0x258C, 0x2590, 0x2580, 0x03B1, 0x00DF, 0x0393,
    0x03C0, 0x03A3, 0x03C3, 0x00B5, 0x03C4, 0x03A6, 0x0398, 0x03A9, 0x03B4, 0x221E, 0x03C6,
    0x03B5, 0x2229, 0x2261, 0x00B1, 0x2265, 0x2264, 0x2320, 0x2321, 0x00F7, 0x2248, 0x00B0,
    0x2219, 0x00B7, 0x221A, 0x207F, 0x00B2, 0x25A0, 0x00A0,
};

const char *zip_decode_name(const unsigned char *raw, size_t len, bool utf8, char *out,
                            size_t *out_len)
{
    if (len == 0)
        return "has an empty name";
    if (memchr(raw, '\0', len))
        return "has a NUL byte in its name";
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        if (raw[i] < 0x80) {
            out[n++] = (char)raw[i++];
        } else if (utf8) {
            uint32_t cp;
            size_t k = text_utf8_decode(raw + i, len - i, &cp);
            if (k == 0)
                return "is flagged UTF-8 but its name is not valid UTF-8";
            memcpy(out + n, raw + i, k);
            n += k;
            i += k;
        } else {
            n += text_utf8_encode(cp437_high[raw[i++] - 0x80], out + n);
        }
    }
    out[n] = '\0';
    *out_len = n;
    if (zip_name_has_dotdot(out, n))
        return "has a '..' component in its name";
    return NULL;
}

bool zip_name_has_dotdot(const char *name, size_t len)
{
    /* '..' as a path component, with either separator */
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && name[j] != '/' && name[j] != '\\')
            j++;
        if (j - i == 2 && name[i] == '.' && name[i + 1] == '.')
            return true;
        i = j + 1;
    }
    return false;
}

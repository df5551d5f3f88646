/* How the typed writers' messages spell a value and a field's type
 * (records.h says what each function gives). */
#include "records/records.h"

#include <stdio.h>

void value_type_name(const npydt_dtype *dt, char *buf, size_t size)
{
    char s[64];
    npydt_dtype_str(dt, s, sizeof s);
    snprintf(buf, size, "%s", s + 1);
}

void format_double(char *buf, size_t size, double v)
{
    char t[TEXT_FLOAT_MAX];
    text_float_f64(v, t);
    snprintf(buf, size, "%s", t);
}

void format_complex(char *buf, size_t size, const double v[2])
{
    char re[TEXT_FLOAT_MAX], im[TEXT_FLOAT_MAX];
    text_float_f64(v[0], re);
    text_float_f64(v[1], im);
    snprintf(buf, size, "(%s%s%sj)", re, im[0] == '-' ? "" : "+", im);
}

void quote_value(char *buf, size_t size, const unsigned char *s, size_t len, bool text)
{
    struct outbuf o = {buf, size, 0};
    out_putc(&o, '\'');
    size_t shown = 0;
    for (size_t i = 0; i < len; shown++) {
        if (shown == 32) {
            out_puts(&o, "...");
            break;
        }
        uint32_t cp = s[i];
        size_t n = 1;
        if (text && cp >= 0x80)
            n = text_wtf8_decode(s + i, len - i, &cp);
        if (cp == '\'' || cp == '\\') {
            out_putc(&o, '\\');
            out_putc(&o, (char)cp);
        } else if (cp >= 0x20 && cp < 0x7f) {
            out_putc(&o, (char)cp);
        } else if (cp < 0x80 || !text) {
            out_printf(&o, "\\x%02x", (unsigned)cp);
        } else if (cp >= 0xD800 && cp <= 0xDFFF) {
            out_printf(&o, "\\u%04lx", (unsigned long)cp);
        } else {
            for (size_t k = 0; k < n; k++)
                out_putc(&o, (char)s[i + k]);
        }
        i += n;
    }
    out_putc(&o, '\'');
    if (size > 0)
        buf[o.len < size ? o.len : size - 1] = '\0';
}

void format_datetime(char *buf, size_t size, const npydt_datetime *v)
{
    if (v->unit == NPYDT_UNIT_GENERIC)
        snprintf(buf, size, "%lld [generic]", (long long)v->count);
    else if (v->unit_count == 1)
        snprintf(buf, size, "%lld [%s]", (long long)v->count, npydt_unit_name(v->unit));
    else
        snprintf(buf, size, "%lld [%d%s]", (long long)v->count, (int)v->unit_count,
                 npydt_unit_name(v->unit));
}

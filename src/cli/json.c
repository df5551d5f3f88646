/* JSON writing for the command's machine-readable output. */
#include "cli.h"

#include <string.h>

bool json_breaks_lines(const unsigned char *s, size_t n)
{
    return (n >= 2 && s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) ||
           (n >= 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9));
}

void json_string_n(FILE *out, const char *s, size_t len)
{
    putc('"', out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (c < 0x20 || c == 0x7f) {
                fprintf(out, "\\u%04x", c);
            } else if (json_breaks_lines((const unsigned char *)s + i, len - i)) {
                unsigned cp = c == 0xc2 ? (unsigned char)s[i + 1]
                                        : 0x2000u + ((unsigned char)s[i + 2] - 0x80u);
                fprintf(out, "\\u%04x", cp);
                i += c == 0xc2 ? 1 : 2;
            } else {
                putc(c, out);   /* UTF-8 passes through */
            }
        }
    }
    putc('"', out);
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

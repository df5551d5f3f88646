/* JSON writing for the command's machine-readable output. */
#include "cli/common/json.h"

#include <stdlib.h>
#include <string.h>

void json_escaped(FILE *out, const char *s, size_t len, enum text_json_mode mode)
{
    /* through a small buffer, cut between UTF-8 sequences */
    char buf[TEXT_JSON_ESCAPED_MAX(40)];
    putc('"', out);
    for (size_t i = 0, n; i < len; i += n) {
        n = text_utf8_cut(s + i, len - i, 40);
        fwrite(buf, 1, text_json_escape_into(buf, s + i, n, mode), out);
    }
    putc('"', out);
}

void json_string_n(FILE *out, const char *s, size_t len)
{
    json_escaped(out, s, len, TEXT_JSON_TEXT);
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

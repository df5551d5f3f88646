/* The column types of the IPC writer and reader: C Data format strings
 * to and from the Flatbuffers Type tables, the buffers each lays out, and
 * the options of both. */
#include "arrow/ipc.h"

#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_MAX_MESSAGE ((size_t)256 << 20)

void npydt_arrow_ipc_options_init(npydt_arrow_ipc_options *opts)
{
    memset(opts, 0, sizeof *opts);
    npydt_options_init(&opts->base);
    opts->max_message_bytes = DEFAULT_MAX_MESSAGE;
}

npydt_status ipc_options_resolve(const npydt_arrow_ipc_options *opts,
                                 npydt_arrow_ipc_options *out, npydt_error *err)
{
    npydt_arrow_ipc_options_init(out);
    if (!opts)
        return NPYDT_OK;
    if (!reserved_is_zero(opts->reserved, sizeof opts->reserved / sizeof opts->reserved[0]))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "Arrow IPC options have nonzero reserved room: fill them with "
                         "npydt_arrow_ipc_options_init");
    npydt_status st = options_check(&opts->base, err);
    if (st != NPYDT_OK)
        return st;
    *out = *opts;
    options_resolve_limits(&out->base.limits);
    if (out->max_message_bytes == 0)
        out->max_message_bytes = DEFAULT_MAX_MESSAGE;
    return NPYDT_OK;
}

static const char *const type_names[] = {
    "NONE", "Null", "Int", "FloatingPoint", "Binary", "Utf8", "Bool", "Decimal", "Date",
    "Time", "Timestamp", "Interval", "List", "Struct_", "Union", "FixedSizeBinary",
    "FixedSizeList", "Map", "Duration", "LargeBinary", "LargeUtf8", "LargeList",
    "RunEndEncoded", "BinaryView", "Utf8View", "ListView", "LargeListView"};

const char *ipc_type_name(unsigned n)
{
    return n < sizeof type_names / sizeof type_names[0] ? type_names[n] : "an unknown type";
}

bool ipc_type_complete(struct ipc_type *t)
{
    t->width = 0;
    switch (t->fb) {
    case FB_TYPE_INT:
        if (t->bits != 8 && t->bits != 16 && t->bits != 32 && t->bits != 64)
            return false;
        t->width = (size_t)t->bits / 8;
        t->buffers = 2;
        return true;
    case FB_TYPE_FLOAT:
        if (t->unit < 0 || t->unit > 2)
            return false;
        t->width = (size_t)2 << t->unit;
        t->buffers = 2;
        return true;
    case FB_TYPE_BINARY:
    case FB_TYPE_UTF8:
        t->buffers = 3;
        return true;
    case FB_TYPE_BOOL:
        t->buffers = 2;
        return true;
    case FB_TYPE_DATE:
        if (t->unit != 0 && t->unit != 1)
            return false;
        t->width = t->unit == 0 ? 4 : 8;
        t->buffers = 2;
        return true;
    case FB_TYPE_TIMESTAMP:
    case FB_TYPE_DURATION:
        if (t->unit < 0 || t->unit > 3)
            return false;
        t->width = 8;
        t->buffers = 2;
        return true;
    case FB_TYPE_STRUCT:
        t->buffers = 1;
        return true;
    case FB_TYPE_FIXED_BINARY:
        /* 0 too: NumPy's S0 and V0 */
        if (t->size < 0)
            return false;
        t->width = (size_t)t->size;
        t->buffers = 2;
        return true;
    case FB_TYPE_FIXED_LIST:
        if (t->size < 0)
            return false;
        t->buffers = 1;
        return true;
    default:
        return false;
    }
}

/* A decimal int32 of at least 0 that is all of s; false otherwise. */
static bool size_of(const char *s, int32_t *out)
{
    if (*s < '0' || *s > '9')
        return false;
    int64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        v = v * 10 + (*s - '0');
        if (v > INT32_MAX)
            return false;
    }
    *out = (int32_t)v;
    return true;
}

static const char int_formats[] = "cCsSiIlL";
static const char time_units[] = "smun";

bool ipc_type_of_format(const char *f, struct ipc_type *t)
{
    memset(t, 0, sizeof *t);
    const char *p;
    if (f[0] && !f[1] && (p = strchr(int_formats, f[0])) != NULL) {
        t->fb = FB_TYPE_INT;
        t->bits = 8 << ((p - int_formats) / 2);
        t->is_signed = (p - int_formats) % 2 == 0;
    } else if (f[0] && !f[1] && (p = strchr("efg", f[0])) != NULL) {
        t->fb = FB_TYPE_FLOAT;
        t->unit = (int16_t)(p - "efg");
    } else if (!strcmp(f, "b")) {
        t->fb = FB_TYPE_BOOL;
    } else if (!strcmp(f, "z")) {
        t->fb = FB_TYPE_BINARY;
    } else if (!strcmp(f, "u")) {
        t->fb = FB_TYPE_UTF8;
    } else if (!strcmp(f, "+s")) {
        t->fb = FB_TYPE_STRUCT;
    } else if (!strncmp(f, "w:", 2)) {
        t->fb = FB_TYPE_FIXED_BINARY;
        if (!size_of(f + 2, &t->size))
            return false;
    } else if (!strncmp(f, "+w:", 3)) {
        t->fb = FB_TYPE_FIXED_LIST;
        if (!size_of(f + 3, &t->size))
            return false;
    } else if (!strcmp(f, "tdD") || !strcmp(f, "tdm")) {
        t->fb = FB_TYPE_DATE;
        t->unit = f[2] == 'm';
    } else if (!strncmp(f, "ts", 2) && f[2] && (p = strchr(time_units, f[2])) != NULL &&
               f[3] == ':') {
        t->fb = FB_TYPE_TIMESTAMP;
        t->unit = (int16_t)(p - time_units);
        if (f[4]) {
            t->tz = f + 4;
            t->tzlen = strlen(f + 4);
        }
    } else if (!strncmp(f, "tD", 2) && f[2] && !f[3] &&
               (p = strchr(time_units, f[2])) != NULL) {
        t->fb = FB_TYPE_DURATION;
        t->unit = (int16_t)(p - time_units);
    } else {
        return false;
    }
    return ipc_type_complete(t);
}

bool ipc_format_of_type(const struct ipc_type *t, char *buf, size_t size)
{
    int n = 0;
    switch (t->fb) {
    case FB_TYPE_INT:
        n = snprintf(buf, size, "%c",
                     int_formats[2 * (t->bits == 16 ? 1 : t->bits == 32 ? 2 : t->bits == 64 ? 3 : 0) +
                                 !t->is_signed]);
        break;
    case FB_TYPE_FLOAT:
        n = snprintf(buf, size, "%c", "efg"[t->unit]);
        break;
    case FB_TYPE_BOOL: n = snprintf(buf, size, "b"); break;
    case FB_TYPE_BINARY: n = snprintf(buf, size, "z"); break;
    case FB_TYPE_UTF8: n = snprintf(buf, size, "u"); break;
    case FB_TYPE_STRUCT: n = snprintf(buf, size, "+s"); break;
    case FB_TYPE_FIXED_BINARY: n = snprintf(buf, size, "w:%ld", (long)t->size); break;
    case FB_TYPE_FIXED_LIST: n = snprintf(buf, size, "+w:%ld", (long)t->size); break;
    case FB_TYPE_DATE: n = snprintf(buf, size, "td%c", t->unit ? 'm' : 'D'); break;
    case FB_TYPE_DURATION: n = snprintf(buf, size, "tD%c", time_units[t->unit]); break;
    case FB_TYPE_TIMESTAMP:
        if (t->tzlen > INT32_MAX)
            return false;
        n = snprintf(buf, size, "ts%c:%.*s", time_units[t->unit], (int)t->tzlen,
                     t->tz ? t->tz : "");
        break;
    default:
        return false;
    }
    return n >= 0 && (size_t)n < size;
}

/* Error values: filling the caller's struct, and status names. */
#include "base/base.h"

#include <stdio.h>
#include <string.h>

const char *npydt_version(void)
{
    return NPYDT_VERSION_STRING;
}

unsigned long npydt_version_number(void)
{
    return NPYDT_VERSION_NUMBER;
}

const char *npydt_status_name(npydt_status status)
{
    switch (status) {
    case NPYDT_OK: return "ok";
    case NPYDT_E_NOMEM: return "out of memory";
    case NPYDT_E_IO: return "i/o error";
    case NPYDT_E_MAGIC: return "bad magic";
    case NPYDT_E_VERSION: return "unsupported version";
    case NPYDT_E_TRUNCATED: return "truncated";
    case NPYDT_E_ENCODING: return "bad encoding";
    case NPYDT_E_SYNTAX: return "syntax error";
    case NPYDT_E_KEY: return "bad key";
    case NPYDT_E_VALUE: return "bad value";
    case NPYDT_E_TYPE: return "bad type";
    case NPYDT_E_UNIT: return "bad datetime unit";
    case NPYDT_E_NAME: return "bad field name";
    case NPYDT_E_SHAPE: return "bad shape";
    case NPYDT_E_OVERFLOW: return "overflow";
    case NPYDT_E_LIMIT: return "limit exceeded";
    case NPYDT_E_DATA: return "data too short";
    case NPYDT_E_ARG: return "invalid argument";
    case NPYDT_E_NOT_FOUND: return "not found";
    case NPYDT_E_OBJECT: return "object dtype";
    case NPYDT_E_RANGE: return "out of range";
    case NPYDT_E_MISMATCH: return "schema mismatch";
    case NPYDT_E_ARCHIVE: return "bad archive";
    }
    return "unknown error";
}

void error_set_path(npydt_error *err, const char *name, size_t len)
{
    if (err)
        text_escape_fit(err->path, sizeof err->path, name ? name : "", name ? len : 0);
}

npydt_status set_errorv(npydt_error *err, npydt_status code, size_t offset,
                        const char *path, const char *fmt, va_list ap)
{
    if (err) {
        err->code = code;
        err->offset = offset;
        error_set_path(err, path, path ? strlen(path) : 0);
        /* the names a message quotes come from files: the whole message
         * goes through the one escaping rule, cut to whole escapes */
        char raw[4 * sizeof err->message];
        int n = vsnprintf(raw, sizeof raw, fmt, ap);
        size_t len = n < 0 ? 0 : (size_t)n < sizeof raw ? (size_t)n : sizeof raw - 1;
        text_escape_fit(err->message, sizeof err->message, raw, len);
    }
    return code;
}

npydt_status set_error(npydt_error *err, npydt_status code, size_t offset,
                       const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    set_errorv(err, code, offset, path, fmt, ap);
    va_end(ap);
    return code;
}

size_t name_for_message(char *buf, size_t size, const char *s, size_t len)
{
    return text_escape_fit(buf, size, s, len);
}

npydt_status set_nomem(npydt_error *err)
{
    return set_error(err, NPYDT_E_NOMEM, NPYDT_NO_OFFSET, NULL, "out of memory");
}

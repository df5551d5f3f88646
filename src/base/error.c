/* Error values: filling the caller's struct, and status names. */
#include "base/base.h"

#include <stdio.h>
#include <string.h>

const char *npydt_version(void)
{
    return "0.1.0";
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
    case NPYDT_E_FIELD: return "no such field";
    case NPYDT_E_OBJECT: return "object dtype";
    case NPYDT_E_RANGE: return "out of range";
    case NPYDT_E_MISMATCH: return "schema mismatch";
    case NPYDT_E_ARCHIVE: return "bad archive";
    }
    return "unknown error";
}

npydt_status set_errorv(npydt_error *err, npydt_status code, size_t offset,
                        const char *path, const char *fmt, va_list ap)
{
    if (err) {
        err->code = code;
        err->offset = offset;
        snprintf(err->path, sizeof err->path, "%s", path ? path : "");
        vsnprintf(err->message, sizeof err->message, fmt, ap);
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
    size_t at = 0;
    for (size_t i = 0; i < len && size; i++) {
        const char *piece = s[i] ? &s[i] : "\\x00";
        size_t n = s[i] ? 1 : 4;
        if (at + n >= size)
            break;
        memcpy(buf + at, piece, n);
        at += n;
    }
    if (size)
        buf[at] = '\0';
    return at;
}

npydt_status set_nomem(npydt_error *err)
{
    return set_error(err, NPYDT_E_NOMEM, NPYDT_NO_OFFSET, NULL, "out of memory");
}

/* Error messages of errno values without strerror's shared buffer. The
 * build asks for POSIX (not GNU) names, so strerror_r is the XSI one,
 * which fills buf. */
#include "text/text.h"

#include <stdio.h>
#include <string.h>

const char *text_errno(int e, char *buf, size_t size)
{
    buf[0] = '\0';
    /* its status says "unknown value" or "cut short"; either way what it
     * wrote (glibc: "Unknown error E") is the message strerror gives */
    (void)strerror_r(e, buf, size);
    buf[size - 1] = '\0';
    if (buf[0] == '\0')
        snprintf(buf, size, "error %d", e);
    return buf;
}

/* Error lines of the command: PATH: WHAT: DETAIL. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Names, keys and paths come from the file or the user and may hold line
 * breaks or terminal controls: the line stays one line (for splitlines()
 * too: U+0085, U+2028 and U+2029 break lines there) and inert. */
void cli_put_text(FILE *out, const char *s)
{
    cli_put_text_n(out, s, strlen(s));
}

size_t cli_text_escape_into(char *dst, const char *s, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    char *o = dst;
    const unsigned char *end = (const unsigned char *)s + len;
    for (const unsigned char *p = (const unsigned char *)s; p < end; p++) {
        if (*p < 0x20 || *p == 0x7f) {
            static const char names[] = "0000000abtnvfr";
            *o++ = '\\';
            if (*p >= '\a' && *p <= '\r') {
                *o++ = names[*p];
            } else {
                *o++ = 'x';
                *o++ = hex[*p >> 4];
                *o++ = hex[*p & 15];
            }
        } else if ((end - p >= 2 && p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) ||   /* C1 */
                   (end - p >= 3 && p[0] == 0xe2 && p[1] == 0x80 &&
                    (p[2] == 0xa8 || p[2] == 0xa9))) {
            unsigned code = p[0] == 0xc2 ? p[1] : 0x2000u + p[2] - 0x80;
            memcpy(o, "\\u", 2);
            for (int k = 3; k >= 0; k--)
                o[2 + 3 - k] = hex[(code >> (4 * k)) & 15];
            o += 6;
            p += p[0] == 0xc2 ? 1 : 2;
        } else {
            *o++ = (char)*p;
        }
    }
    return (size_t)(o - dst);
}

void cli_put_text_n(FILE *out, const char *s, size_t len)
{
    char buf[CLI_TEXT_ESCAPED_MAX(256)];
    for (size_t at = 0; at < len;) {
        /* a chunk ends after a whole character (a C1 control or line
         * break is 2 or 3 bytes) */
        size_t n = len - at < 256 ? len - at : 256;
        while (at + n < len && n > 0 && ((unsigned char)s[at + n] & 0xC0) == 0x80)
            n--;
        if (n == 0)
            n = len - at < 256 ? len - at : 256;
        fwrite(buf, 1, cli_text_escape_into(buf, s + at, n), out);
        at += n;
    }
}

/* `where` names the text the error's offset counts in. */
static int report(const char *path, const npydt_error *err, const char *where)
{
    cli_put_text(stderr, path);
    fprintf(stderr, ": %s: ", npydt_status_name(err->code));
    if (err->offset != NPYDT_NO_OFFSET)
        fprintf(stderr, "%s offset %zu: ", where, err->offset);
    if (err->path[0]) {
        fputs("field ", stderr);
        cli_put_text(stderr, err->path);
        fputs(": ", stderr);
    }
    cli_put_text(stderr, err->message);
    putc('\n', stderr);
    /* unreadable paths, bad arguments and field paths that the file does
     * not have are the caller's mistakes, and a lack of memory is no fault
     * of the file (status 3 would call a valid file invalid); the rest is
     * the file's */
    return err->code == NPYDT_E_IO || err->code == NPYDT_E_ARG || err->code == NPYDT_E_NOT_FOUND ||
                   err->code == NPYDT_E_NOMEM
               ? EXIT_USAGE
               : EXIT_INVALID;
}

int cli_report(const char *path, const npydt_error *err)
{
    return report(path, err, "header");
}

int cli_report_spec(const char *what, const npydt_error *err)
{
    return report(what, err, "spec");
}

static npydt_status fill(npydt_error *err, npydt_status code, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

static npydt_status fill(npydt_error *err, npydt_status code, const char *fmt, va_list ap)
{
    memset(err, 0, sizeof *err);
    err->code = code;
    err->offset = NPYDT_NO_OFFSET;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    return code;
}

npydt_status cli_error(npydt_error *err, npydt_status code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fill(err, code, fmt, ap);
    va_end(ap);
    return code;
}

int cli_fail(const char *path, npydt_status code, const char *fmt, ...)
{
    npydt_error err;
    va_list ap;
    va_start(ap, fmt);
    fill(&err, code, fmt, ap);
    va_end(ap);
    return cli_report(path, &err);
}

void cli_vmessage(const char *lead, const char *fmt, va_list ap)
{
    char small[512];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0)
        small[0] = '\0';
    char *text = small;
    if (n >= (int)sizeof small && (text = malloc((size_t)n + 1)) != NULL)
        vsnprintf(text, (size_t)n + 1, fmt, again);
    va_end(again);
    fputs(lead, stderr);
    cli_put_text(stderr, text ? text : small);
    putc('\n', stderr);
    if (text != small)
        free(text);
}

void cli_message(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage("", fmt, ap);
    va_end(ap);
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage("npydt: ", fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

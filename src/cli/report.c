/* Error lines of the command: PATH: WHAT: DETAIL. */
#include "cli.h"

#include <stdarg.h>

int cli_report(const char *path, const npydt_error *err)
{
    fprintf(stderr, "%s: %s: ", path, npydt_status_name(err->code));
    if (err->offset != NPYDT_NO_OFFSET)
        fprintf(stderr, "header offset %zu: ", err->offset);
    if (err->path[0])
        fprintf(stderr, "field %s: ", err->path);
    fprintf(stderr, "%s\n", err->message);
    /* unreadable paths, bad arguments and field paths that the file does
     * not have are the caller's mistakes, and a lack of memory is no fault
     * of the file (status 1 would call a valid file invalid, or say for
     * check that it does not match); the rest is the file's */
    return err->code == NPYDT_E_IO || err->code == NPYDT_E_ARG || err->code == NPYDT_E_FIELD ||
                   err->code == NPYDT_E_NOMEM
               ? EXIT_USAGE
               : EXIT_INVALID;
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("npydt: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_USAGE;
}

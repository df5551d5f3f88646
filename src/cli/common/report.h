/* How the npydt command reports: exit statuses, error lines
 * ("PATH: WHAT: DETAIL", built whole and written with one call) and the
 * error objects of the --json modes. */
#ifndef NPYDT_CLI_COMMON_REPORT_H
#define NPYDT_CLI_COMMON_REPORT_H

#include "npydt.h"
#include "text/text.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

struct cli_input;
/* Each function below that writes has a _to form taking the destination
 * of a task (dest.h: its memory, written out in order; NULL: stdout and
 * stderr at once, as the plain form). */
struct cli_dest;

/* Exit statuses of every subcommand (doc/cli-json.md); with several
 * inputs the highest wins. */
enum {
    EXIT_OK = 0,
    EXIT_MISMATCH = 1,   /* check: an input was read and does not match */
    EXIT_USAGE = 2,      /* usage, unreadable path, out of memory, failing output */
    EXIT_INVALID = 3     /* an input is not a valid file, archive or descriptor */
};

/* Print "PATH: WHAT: DETAIL" for a library error to stderr and return the
 * exit status it maps to (cli_error_status). A member of an archive is
 * named one way, as ARCHIVE:NAME in PATH: an error whose message names a
 * member first ("member 'NAME': ...", the library's form) gets
 * PATH:NAME as its PATH (unless PATH names that member already) and the
 * rest of the message as DETAIL. */
int cli_report(const char *path, const npydt_error *err);
int cli_report_to(struct cli_dest *d, const char *path, const npydt_error *err);
/* The member of an archive read that err's message names first (a bad
 * archive or short data): NAME's length (0: none), *name at NAME as the
 * library quotes it, *rest after "member 'NAME': ". */
size_t cli_member_named(const npydt_error *err, const char **name, const char **rest);
/* The object of a --json mode (inspect, check) for an input that cannot
 * be read or is not valid, on one line:
 * {"file":FILE[,"archive":FILE,"member":MEMBER],"error":{"status":NAME,
 * "message":TEXT,"offset":N|null}}; member NULL for a FILE (or the member
 * the message names first, cli_member_named). The message is the DETAIL
 * of the error line (with "field PATH: " when err names one). */
void cli_json_error(FILE *out, const char *file, const char *member, const npydt_error *err);
/* The start of an input's object in a --json mode, up to its own keys:
 * {"file":PATH and, for a member of an archive, ,"archive":PATH,
 * "member":MEMBER. */
void cli_json_input_head(FILE *out, const struct cli_input *in);
/* cli_report for an input, and with json its error object on stdout too:
 * the exit status. */
int cli_report_input(const struct cli_input *in, const npydt_error *err, int json);
int cli_report_input_to(struct cli_dest *d, const struct cli_input *in, const npydt_error *err,
                        int json);
/* The same for an error in a spec the user typed (a descriptor or type
 * string on the command line): "WHAT: WHAT-ERR: spec offset N: DETAIL". */
int cli_report_spec(const char *what, const npydt_error *err);

/* One line for stderr, built whole and written with one call: a growing
 * text_buf whose first block is small, the heap's after (len < cap: room
 * for the newline; failed: out of memory, the line ends where it is). The
 * line refers to itself: it is not copied once started. */
struct cli_line {
    struct text_buf b;
    char small[256];
};
/* A name, path or descriptor longer than this many bytes is shown in a
 * message as its first and last CLI_TEXT_KEEP / 2 bytes (to whole UTF-8
 * characters) joined by "...(N bytes)...", N being its whole length. */
#define CLI_TEXT_KEEP 512
void cli_line_init(struct cli_line *l);
/* s as it is (the command's own words). */
void cli_line_puts(struct cli_line *l, const char *s);
/* len bytes of s escaped by the text stage's rule (text_escape_at: controls,
 * Unicode line breaks and bytes that are not UTF-8; a NUL
 * is written \x00), cut in the middle past CLI_TEXT_KEEP bytes. */
void cli_line_text(struct cli_line *l, const char *s, size_t len);
/* A printf format of the conversions %s, %.*s, %u, %zu, %lld and %llu
 * only, each %s (or %.*s) argument written as by cli_line_text; the
 * literal text is escaped too. */
void cli_line_format(struct cli_line *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Add the newline, write the line to stderr in one call and release it;
 * l is empty again. */
void cli_line_end(struct cli_line *l);
void cli_line_end_to(struct cli_dest *d, struct cli_line *l);
/* Add the newline and hand the line over instead of writing it: malloc'd,
 * its length in *len; NULL when memory ran out. l is empty again. */
char *cli_line_take(struct cli_line *l, size_t *len);
/* Write len bytes of s to out with control characters and Unicode line
 * breaks escaped as cli_line_text does, never cut (text output: tables,
 * inspect). */
void cli_put_text_n(FILE *out, const char *s, size_t len);
/* The escaped text of cli_put_text_n into dst, which holds
 * CLI_TEXT_ESCAPED_MAX(len) bytes; returns the bytes written. */
#define CLI_TEXT_ESCAPED_MAX(len) TEXT_ESCAPED_MAX(len)
size_t cli_text_escape_into(char *dst, const char *s, size_t len);

/* Fill err with an error found by the command itself (no offset, no
 * path) and return code. */
npydt_status cli_error(npydt_error *err, npydt_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* cli_error, then cli_report for path: the exit status. */
int cli_fail(const char *path, npydt_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int cli_fail_to(struct cli_dest *d, const char *path, npydt_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Write lead, then the formatted message (as cli_line_format), then a
 * newline, to stderr as one line. */
void cli_vmessage(const char *lead, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
void cli_vmessage_to(struct cli_dest *d, const char *lead, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* cli_vmessage with no lead: a line to stderr that is not an error. */
void cli_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_message_to(struct cli_dest *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Print "npydt: MESSAGE" to stderr and return EXIT_USAGE: a failure of
 * the command that concerns no input and is no usage error (out of
 * memory, a temporary file, standard output). Usage errors go through
 * cli_usage (args.h). */
int cli_failure(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_failure_to(struct cli_dest *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

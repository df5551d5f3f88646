/* Shared pieces of the npydt command. The command uses only the public
 * header, like any other client of the library. */
#ifndef NPYDT_CLI_H
#define NPYDT_CLI_H

#include "npydt.h"
#include "text/text.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

struct cli_input;

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* Exit statuses of every subcommand (doc/cli-json.md); with several
 * inputs the highest wins. */
enum {
    EXIT_OK = 0,
    EXIT_MISMATCH = 1,   /* check: an input was read and does not match */
    EXIT_USAGE = 2,      /* usage, unreadable path, out of memory, failing output */
    EXIT_INVALID = 3     /* an input is not a valid file, archive or descriptor */
};

/* Print "PATH: WHAT: DETAIL" for a library error to stderr and return the
 * exit status it maps to (cli_error_status). */
int cli_report(const char *path, const npydt_error *err);
/* The object of a --json mode (inspect, check) for an input that cannot
 * be read or is not valid, on one line:
 * {"file":FILE[,"archive":FILE,"member":MEMBER],"error":{"status":NAME,
 * "message":TEXT,"offset":N|null}}; member NULL for a FILE. The message
 * is the DETAIL of the error line (with "field PATH: " when err names one). */
void cli_json_error(FILE *out, const char *file, const char *member, const npydt_error *err);
/* cli_report for an input, and with json its error object on stdout too:
 * the exit status. */
int cli_report_input(const struct cli_input *in, const npydt_error *err, int json);
/* The same for an error in a spec the user typed (a descriptor or type
 * string on the command line): "WHAT: WHAT-ERR: spec offset N: DETAIL". */
int cli_report_spec(const char *what, const npydt_error *err);

/* One line for stderr, built whole and written with one call. */
struct cli_line {
    char *buf;          /* small, or the heap */
    size_t len, cap;    /* len < cap: room for the newline */
    bool full;          /* out of memory: the line ends where it is */
    char small[256];
};
/* A name, path or descriptor longer than this many bytes is shown in a
 * message as its first and last CLI_TEXT_KEEP / 2 bytes (to whole UTF-8
 * characters) joined by "...(N bytes)...", N being its whole length. */
#define CLI_TEXT_KEEP 512
void cli_line_init(struct cli_line *l);
/* s as it is (the command's own words). */
void cli_line_puts(struct cli_line *l, const char *s);
/* len bytes of s, control characters and Unicode line breaks escaped (a NUL
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
/* Add the newline and hand the line over instead of writing it: malloc'd,
 * its length in *len; NULL when memory ran out. l is empty again. */
char *cli_line_take(struct cli_line *l, size_t *len);
/* Write len bytes of s to out with control characters and Unicode line
 * breaks escaped as cli_line_text does, never cut (text output: tables,
 * inspect). */
void cli_put_text_n(FILE *out, const char *s, size_t len);
/* The escaped text of cli_put_text_n into dst, which holds
 * CLI_TEXT_ESCAPED_MAX(len) bytes; returns the bytes written. */
#define CLI_TEXT_ESCAPED_MAX(len) (4 * (len))
size_t cli_text_escape_into(char *dst, const char *s, size_t len);

/* Scalars in one element (a field, or one element of a subarray field,
 * each counts one) beyond which a command refuses to lay the element out
 * one scalar at a time: load's record, dump's CSV and TSV row. */
#define CLI_MAX_RECORD_SCALARS ((size_t)1 << 26)

/* Fill err with an error found by the command itself (no offset, no
 * path) and return code. */
npydt_status cli_error(npydt_error *err, npydt_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* cli_error, then cli_report for path: the exit status. */
int cli_fail(const char *path, npydt_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Write lead, then the formatted message (as cli_line_format), then a
 * newline, to stderr as one line. */
void cli_vmessage(const char *lead, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* cli_vmessage with no lead: a line to stderr that is not an error. */
void cli_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print "npydt: MESSAGE" to stderr and return EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* JSON output helpers (locale independent). */
/* The one JSON string writer to a FILE: len bytes of s in quotes,
 * escaped by text_json_escape_into. */
void json_escaped(FILE *out, const char *s, size_t len, enum text_json_mode mode);
/* json_escaped as TEXT_JSON_TEXT, of a NUL-terminated string or len bytes. */
void json_string(FILE *out, const char *s);
void json_string_n(FILE *out, const char *s, size_t len);
void json_dtype(FILE *out, const npydt_dtype *dt);

/* ---- The command line (args.c) ---------------------------------------- */

/* One option of a command, as --NAME, --NAME=VALUE, --NAME VALUE, and -S,
 * -S VALUE or -SVALUE when it has a short name S. -h and --help are every
 * command's and are not in the tables. */
struct cli_option {
    int id;                /* what cli_args_next returns for it: > 0 */
    const char *name;      /* long name without the dashes: "head" */
    char short_name;       /* 'o' for -o; 0 for none */
    const char *value;     /* the value's name in the help ("N"); NULL for a flag */
    const char *help;      /* one line for the help */
};

/* What a command accepts and what its --help prints. */
struct cli_command {
    const char *name;                    /* "dump" */
    const char *usage;                   /* synopsis after "npydt ", forms separated by '\n'
                                          * (a line starting with ' ' continues one) */
    const char *description;             /* paragraphs printed after the synopsis */
    const struct cli_option *options;
    size_t noptions;
    int reads_input;                     /* takes the input limit options too */
};

/* A command line being read. */
struct cli_args {
    const struct cli_command *cmd;
    const struct cli_option *option;   /* the option cli_args_next returned */
    const char *value;                 /* its value; NULL for a flag */
    char **operands;                   /* the operands, in order ("-" is one) */
    int noperands;                     /* complete once cli_args_next returned 0 */
    int status;                        /* the exit status when it returned -1 */
    /* private */
    int argc, next;
    char **argv;
    bool options_done;
};

/* Start reading argv[1..argc) (argv[0] is the command's name) for cmd.
 * Operands are moved to the front of argv as they are read. */
void cli_args_init(struct cli_args *a, const struct cli_command *cmd, int argc, char **argv);
/* The id of the next option (its value in a->value); 0 when the line is
 * read, every operand then in a->operands; -1 when the command must end
 * with a->status: after --help (the help printed on stdout, status 0) or
 * after a usage error (one line and a hint on stderr, status 2). "--"
 * ends the options. */
int cli_args_next(struct cli_args *a);
/* Print the help of cmd: synopsis, description, the table of options. */
void cli_print_help(FILE *out, const struct cli_command *cmd);
/* Print "npydt CMD: MESSAGE" and "Try 'npydt CMD --help'." to stderr;
 * returns EXIT_USAGE. */
int cli_command_error(const struct cli_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Print "Try 'npydt CMD --help'." to stderr. */
void cli_try_help(const struct cli_command *cmd);
/* The candidate nearest to word, for "did you mean": at an edit distance
 * (insertion, deletion, substitution, swap of neighbours) of at most one
 * per three bytes of word (three at most), or one that word starts; NULL
 * when none is near enough (or word is empty or longer than 255 bytes).
 * The first of equally near candidates wins; a candidate equal to word
 * is the nearest ("-jsonl" for "--jsonl"). */
const char *cli_nearest(const char *word, const char *const *candidates, size_t n);

/* ---- Input limits (limits.c) -------------------------------------------- */

/* The options every command with reads_input takes (--limits,
 * --max-header-bytes, --max-inflated, --no-mmap); cli_args_next applies
 * them with cli_limit_option and does not return them. */
enum { CLI_OPT_LIMITS = 1001, CLI_OPT_MAX_HEADER, CLI_OPT_MAX_INFLATED, CLI_OPT_NO_MMAP };
/* (above every command's own ids) */
const struct cli_option *cli_limit_options(size_t *n);
/* Apply limit option id with its value: EXIT_OK, or EXIT_USAGE after a
 * usage error naming cmd. */
int cli_limit_option(const struct cli_command *cmd, int id, const char *value);
/* The options inputs are read with: the library's defaults, the untrusted
 * preset (--limits untrusted), then --max-header-bytes and --max-inflated,
 * in any order on the command line; no_mmap as --no-mmap says. */
void cli_input_limits(npydt_npz_options *o);
/* Reader options with the header limits and no_mmap of cli_input_limits. */
void cli_reader_options(npydt_reader_options *o);

/* inspect's table of the leaves of a struct or subarray dtype
 * (inspect_table.c): laid out first (-1 when out of memory), then printed
 * with nothing allocated, so that it is printed whole or not at all. */
struct inspect_table;
int inspect_table_prepare(const npydt_dtype *dt, struct inspect_table **out);
void inspect_table_print(FILE *out, struct inspect_table *t);
void inspect_table_free(struct inspect_table *t);

int cmd_inspect(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_swap(int argc, char **argv);
int cmd_cstruct(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_schema(int argc, char **argv);

/* ---- Inputs: FILE, ARCHIVE.npz or ARCHIVE.npz:NAME (input.c) ---------- */

/* One array a command reads: a .npy file, or one member of an archive. */
struct cli_input {
    const char *name;      /* for messages and output: FILE, or ARCHIVE:MEMBER */
    const char *path;      /* the file on disk: FILE or ARCHIVE as typed */
    const char *member;    /* the member's name as stored ("a.npy"); NULL for a FILE */
    const npydt_npz *npz;  /* its archive (owned by the list); NULL for a FILE */
    size_t index;          /* the member's index in npz */
    unsigned char *buf;    /* a FILE read from a pipe, whole (owned); else NULL */
    size_t len;
};

/* The inputs named on a command line, and the archives they come from. */
struct cli_archive;
struct cli_inputs {
    struct cli_input *items;
    size_t count;
    /* private */
    size_t cap;
    struct cli_archive *archives;
    size_t narchives, archives_cap;
    npydt_npz_options opts;
    int quiet;             /* no progress line while a pipe is read */
    npydt_error error;     /* why cli_inputs_add last returned a status other than 0 */
};

/* Start an empty list; opts (NULL: defaults) bounds every archive opened. */
void cli_inputs_init(struct cli_inputs *list, const npydt_npz_options *opts);
/* Append what one argument names: '-' (standard input) or another input
 * that cannot seek (a FIFO, /dev/stdin on a pipe), read whole into memory
 * (at most CLI_PIPE_MAX_BYTES) and then taken as a FILE or an archive by
 * its first bytes; an existing FILE; every member of an
 * archive (a file that starts as a zip does, whatever its name); or the
 * member NAME (else NAME.npy) of ARCHIVE:NAME. Items appended by this call
 * are items[old count .. count). A refused archive, a missing member or
 * a lack of memory is reported on stderr ("ARG: WHAT: DETAIL") and gives
 * its exit status (2 or 3), the error kept in list->error for a --json
 * report; 0 otherwise. A path that cannot be opened is added as a FILE:
 * reading its header reports it. */
int cli_inputs_add(struct cli_inputs *list, const char *arg);
/* 1 when path is a regular file that starts as a zip archive does (as
 * np.load decides); never blocks on a FIFO. */
int cli_is_archive(const char *path);
/* Close every archive and release the list. */
void cli_inputs_free(struct cli_inputs *list);

/* Parse the header of an input. For a member only the header bytes are
 * read (inflated), and its declared size must hold the data. */
npydt_status cli_input_header(const struct cli_input *in, npydt_header **out,
                              npydt_error *err);

/* A reader of an input's header and data: the header is the reader's
 * (npydt_reader_header), parsed once from the bytes it reads, so a file
 * replaced since an earlier cli_input_header cannot pass off other data.
 * A member not yet verified (verified == 0) is read in full first
 * (declared size, deflate stream and CRC-32: one extra inflate pass for
 * deflated ones) so that a command can refuse a damaged member before it
 * prints anything. */
npydt_status cli_input_reader(const struct cli_input *in, int verified, npydt_reader **out,
                              npydt_error *err);

/* ---- Mapped input files (mapped.c) ---------------------------------------- */

/* From here on no input file is mapped (--no-mmap). */
void cli_set_no_mmap(void);
/* Whether --no-mmap was given. */
int cli_no_mmap(void);
/* The command reads (mapped) data of the file at path from now on: if the
 * file shrinks, the SIGBUS of a mapped page past its end is reported as
 * "PATH: i/o error: the file shrank while it was read", the temporary
 * output (cli_output_discard) removed and the process ended with status
 * 2. NULL: no file is being read. */
void cli_reading(const char *path);

/* ---- Schema specs from files (spec_file.c) ----------------------------- */

/* The header-like dict literal of h, as np.save writes the dict
 * ("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }"): a spec
 * check --schema reads and h's file matches. malloc'd; NULL when out of
 * memory. */
char *cli_spec_of_header(const npydt_header *h);
/* The spec of the one array arg names (FILE, ARCHIVE:NAME, '-', or an
 * archive of one member) into *out (malloc'd); 0, or an exit status
 * after reporting (what names the option in messages). */
int cli_spec_of_input(const char *arg, const char *what, char **out);
/* The text of a --schema argument into *out (malloc'd, NUL-terminated,
 * *len bytes): the argument itself; @PATH, the text of PATH, or the spec
 * of its header when PATH starts as a .npy file or an archive does; or
 * like:FILE, the spec of the array FILE names. 0, or an exit status after
 * reporting (what names the option in messages). */
int cli_spec_text(const char *what, const char *arg, char **out, size_t *len);
/* The file a spec argument takes its spec from (FILE of like:FILE, or of
 * @FILE when FILE starts as a .npy file or an archive), else NULL. */
const char *cli_spec_file(const char *arg);

/* ---- Inputs that cannot seek (pipe_input.c) --------------------------- */

/* The most read into memory from a pipe: np.save streams of up to 1 GiB
 * fit, and a command given a larger stream says to save it to a file
 * instead of taking the machine's memory. */
#define CLI_PIPE_MAX_BYTES ((size_t)1 << 30)

/* How long opening a FIFO waits for a writer before it is an error. */
#define CLI_FIFO_WAIT_SECONDS 2u

/* 1 when arg is '-' or names something that is neither a regular file, a
 * directory nor a block device (a FIFO, a terminal, a socket). */
int cli_is_pipe_arg(const char *arg);
/* Read all of arg ('-': standard input) into *buf (malloc'd, *len bytes);
 * 0, or an exit status (2) after reporting "ARG: WHAT: DETAIL" (past
 * CLI_PIPE_MAX_BYTES or on a read error), the error in *err. quiet: no
 * progress line. */
int cli_read_pipe(const char *arg, int quiet, unsigned char **buf, size_t *len,
                  npydt_error *err);

/* ---- Progress on standard error (progress.c) --------------------------- */

/* Inputs smaller than this finish too soon for a progress line. */
#define CLI_PROGRESS_MIN_BYTES ((uint64_t)64 << 20)
/* At most one redraw per interval. */
#define CLI_PROGRESS_INTERVAL_MS 250u

struct cli_progress {
    const char *label;     /* "swapping", "reading", ... */
    uint64_t total;        /* bytes of the whole work; 0 when unknown */
    uint64_t last_ms;      /* of the start or the last redraw */
    int enabled;           /* stderr is a terminal, not quiet, large enough */
    int drawn;             /* a line is on the terminal, to erase */
};

/* Start p for total bytes (0: unknown, drawn once past the threshold). */
void cli_progress_start(struct cli_progress *p, const char *label, uint64_t total, int quiet);
/* done bytes so far: redraws the line when it is time to. */
void cli_progress_update(struct cli_progress *p, uint64_t done);
/* Erase the line, if one was drawn. */
void cli_progress_end(struct cli_progress *p);

/* ---- the output of swap and pack (output.c) -------------------------------- */

/* OUT, written through the library's npydt_output (a temporary file beside
 * it, renamed over it at the end); this side checks OUT before anything is
 * written and removes the temporary file when a signal ends the process. */
struct cli_output {
    const char *target;
    npydt_output *out;
    char dir[PATH_MAX];  /* the target's folder, "" for the current one */
};

/* Checks before anything is read or written: OUT is not FILE (without
 * --in-place; file NULL when there is no one input), not a directory, its
 * path leaves room for the temporary file's name, and its folder can be
 * written in. 0 or an exit status after reporting. */
int cli_output_check(struct cli_output *o, const char *file, const char *target, int in_place);
/* Refuse to start when statvfs says OUT's filesystem has fewer than
 * bytes free for an unprivileged writer; 0 or an exit status. */
int cli_output_check_space(const struct cli_output *o, uint64_t bytes);
/* Create the temporary file next to the target (o->out), once, after
 * cli_output_check of it succeeded; 0 or an exit status. */
int cli_output_open(struct cli_output *o);
/* Report a failure met while writing OUT: the output's own I/O error under
 * OUT when it has one (an archive writer only says its sink failed), else
 * err under name. Returns the exit status. */
int cli_output_failed(const struct cli_output *o, const char *name, const npydt_error *err);
/* After writing (status says how it went): commit the output (mode, fsync,
 * rename, folder fsync) or, on a failure, discard it. Returns the final
 * status. */
int cli_output_close(struct cli_output *o, int status);

/* Remove the temporary file of an output being written, if there is one;
 * async-signal-safe, for a handler that ends the process. */
void cli_output_discard(void);

#endif

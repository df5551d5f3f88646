/* Shared pieces of the npydt command. The command uses only the public
 * header, like any other client of the library. */
#ifndef NPYDT_CLI_H
#define NPYDT_CLI_H

#include "npydt.h"

#include <stdbool.h>
#include <stdio.h>

/* Exit statuses of every subcommand (doc/cli-json.md). */
enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

/* Print "PATH: WHAT: DETAIL" for a library error to stderr and return the
 * exit status it maps to (2 for unreadable paths, 1 otherwise). */
int cli_report(const char *path, const npydt_error *err);
/* The same for an error in a spec the user typed (a descriptor or type
 * string on the command line): "WHAT: WHAT-ERR: spec offset N: DETAIL". */
int cli_report_spec(const char *what, const npydt_error *err);
/* Write s with control characters and Unicode line breaks escaped. */
void cli_put_text(FILE *out, const char *s);
/* The same for len bytes (a NUL among them is written \x00). */
void cli_put_text_n(FILE *out, const char *s, size_t len);

/* Fill err with an error found by the command itself (no offset, no
 * path) and return code. */
npydt_status cli_error(npydt_error *err, npydt_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* cli_error, then cli_report for path: the exit status. */
int cli_fail(const char *path, npydt_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Print "npydt: MESSAGE" to stderr and return EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* JSON output helpers (locale independent). */
/* Does s start with a C1 control, U+2028 or U+2029 (in UTF-8)? JSON text
 * may hold them raw, but Python's splitlines() breaks lines at them, so
 * the command's output writes them as \uXXXX. */
bool json_breaks_lines(const unsigned char *s, size_t n);
void json_string(FILE *out, const char *s);
void json_string_n(FILE *out, const char *s, size_t len);
void json_dtype(FILE *out, const npydt_dtype *dt);
/* A double as Python's repr() writes it (float_format.c); NaN and the
 * infinities, which JSON has no number for, as "nan", "inf", "-inf". */
void json_double(FILE *out, double v);

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

int cmd_inspect(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_swap(int argc, char **argv);
int cmd_cstruct(int argc, char **argv);
int cmd_check(int argc, char **argv);

/* ---- Inputs: FILE, ARCHIVE.npz or ARCHIVE.npz:NAME (input.c) ---------- */

/* One array a command reads: a .npy file, or one member of an archive. */
struct cli_input {
    const char *name;      /* for messages and output: FILE, or ARCHIVE:MEMBER */
    const char *path;      /* the file on disk: FILE or ARCHIVE as typed */
    const char *member;    /* the member's name as stored ("a.npy"); NULL for a FILE */
    const npydt_npz *npz;  /* its archive (owned by the list); NULL for a FILE */
    size_t index;          /* the member's index in npz */
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
};

/* Start an empty list; opts (NULL: defaults) bounds every archive opened. */
void cli_inputs_init(struct cli_inputs *list, const npydt_npz_options *opts);
/* Append what one argument names: an existing FILE; every member of an
 * archive (a file that starts as a zip does, whatever its name); or the
 * member NAME (else NAME.npy) of ARCHIVE:NAME. Items appended by this call
 * are items[old count .. count). A refused archive, a missing member or
 * a lack of memory is reported on stderr ("ARG: WHAT: DETAIL") and gives
 * its exit status (1 or 2); 0 otherwise. A path that cannot be opened is
 * added as a FILE: reading its header reports it. */
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

/* A reader of the data of an input whose header h came from
 * cli_input_header. A member not yet verified (verified == 0) is read in
 * full first (declared size, deflate stream and CRC-32: one extra inflate
 * pass for deflated ones) so that a command can refuse a damaged member
 * before it prints anything. A file is opened again and must still have
 * the header h. */
npydt_status cli_input_reader(const struct cli_input *in, const npydt_header *h, int verified,
                              npydt_reader **out, npydt_error *err);

#endif

/* Shared pieces of the npydt command. The command uses only the public
 * header, like any other client of the library. */
#ifndef NPYDT_CLI_H
#define NPYDT_CLI_H

#include "npydt.h"

#include <stdbool.h>
#include <stdio.h>

/* Exit statuses of every subcommand (../shared/spec/cli-json.md). */
enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

/* Print "PATH: WHAT: DETAIL" for a library error to stderr and return the
 * exit status it maps to (2 for unreadable paths, 1 otherwise). */
int cli_report(const char *path, const npydt_error *err);
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

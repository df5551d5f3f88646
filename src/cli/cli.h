/* Shared pieces of the npydt command. The command uses only the public
 * header, like any other client of the library. */
#ifndef NPYDT_CLI_H
#define NPYDT_CLI_H

#include "npydt.h"

#include <stdio.h>

/* Exit statuses of every subcommand (../shared/spec/cli-json.md). */
enum { EXIT_OK = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

/* Print "PATH: WHAT: DETAIL" for a library error to stderr and return the
 * exit status it maps to (2 for unreadable paths, 1 otherwise). */
int cli_report(const char *path, const npydt_error *err);

/* Print "npydt: MESSAGE" to stderr and return EXIT_USAGE. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* JSON output helpers (locale independent). */
void json_string(FILE *out, const char *s);
void json_string_n(FILE *out, const char *s, size_t len);
void json_dtype(FILE *out, const npydt_dtype *dt);

int cmd_inspect(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_swap(int argc, char **argv);
int cmd_cstruct(int argc, char **argv);
int cmd_check(int argc, char **argv);

#endif

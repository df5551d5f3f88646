/* The input limit options every command that reads inputs takes, and
 * the bounds of what a command lays out. */
#ifndef NPYDT_CLI_COMMON_LIMITS_H
#define NPYDT_CLI_COMMON_LIMITS_H

#include "npydt.h"
#include "cli/common/args.h"

#include <stddef.h>

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
/* A size in bytes as the options write it: decimal digits, then K, M, G
 * or T (powers of 1024) or nothing. 0, or -1 when s is no such size, is
 * 0, or is beyond 64 bits. */
int cli_parse_bytes(const char *s, uint64_t *out);
/* Reader options with the header limits and no_mmap of cli_input_limits. */
void cli_reader_options(npydt_reader_options *o);

/* Scalars in one element (a field, or one element of a subarray field,
 * each counts one) beyond which a command refuses to lay the element out
 * one scalar at a time: load's record, dump's CSV and TSV row. */
#define CLI_MAX_RECORD_SCALARS ((size_t)1 << 26)

#endif

/* npydt stats: the statistics of every leaf of an array (the library's
 * npydt_stats accumulator), as a table for people or one JSON object per
 * array. stats.c reads the options and feeds the accumulator;
 * stats_print.c writes what it found. */
#ifndef NPYDT_CLI_STATS_H
#define NPYDT_CLI_STATS_H

#include "cli/common/input.h"

#include <stdio.h>

/* One array's statistics on stdout: a line of JSON (the contract in
 * doc/cli-json.md), or a table under the array's name, a blank line
 * between tables (*printed counts them). 0, or -1 out of memory. */
int stats_print_json(FILE *out, const struct cli_input *in, const npydt_header *h,
                     uint64_t seen, const npydt_stats *s);
int stats_print_table(FILE *out, const struct cli_input *in, const npydt_header *h,
                      uint64_t seen, const npydt_stats *s, size_t *printed);

int cmd_stats(int argc, char **argv);

#endif

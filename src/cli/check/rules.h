/* npydt check --rules: value rules over each array's elements. */
#ifndef NPYDT_CLI_CHECK_RULES_H
#define NPYDT_CLI_CHECK_RULES_H

#include "npydt.h"

#include <stdio.h>

struct cli_command;
struct cli_dest;
struct cli_input;

/* The rules text of --rules, read once and checked for its keys and
 * values (and placed against dt, a schema's dtype, when not NULL), with
 * max_unique_bytes for each 'unique' rule and max_values for the 'values'
 * lists (0: the library's defaults): 0,
 * or the exit status of a usage error after reporting it. */
struct check_rules {
    char *text;
    size_t len;
    npydt_rules_options opts;
};
int check_rules_prepare(const struct cli_command *cmd, const char *arg, const npydt_dtype *dt,
                        uint64_t max_unique_bytes, size_t max_values, struct check_rules *out);
void check_rules_free(struct check_rules *cr);

/* The rules run over one array. */
struct rules_run {
    npydt_rules *rules;
    npydt_rules_check *check;
    npydt_error err;        /* why the rules do not fit the array's dtype */
    int placed;             /* compiled against its dtype */
};
/* Compile the rules against in's dtype and check its elements; print a
 * line per failing rule (to d, report.h). Returns EXIT_OK, EXIT_MISMATCH (a rule fails, or
 * does not fit the dtype), or the status of an error reported (with
 * json: its error object) that ends the input's check. */
int check_rules_input(struct cli_dest *d, const struct check_rules *cr,
                      const struct cli_input *in, int verified, int json, struct rules_run *run);
/* ,"rules":[...] of run, for the input's --json object. */
void check_rules_json(FILE *out, const struct rules_run *run);
void rules_run_free(struct rules_run *run);

#endif

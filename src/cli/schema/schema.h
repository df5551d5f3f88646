/* npydt schema: the schema spec of an array. */
#ifndef NPYDT_CLI_SCHEMA_H
#define NPYDT_CLI_SCHEMA_H

int cmd_schema(int argc, char **argv);

/* schema --arrow FILE (schema_arrow.c): an exit status. */
struct cli_command;
int schema_arrow(const struct cli_command *cmd, const char *file);

#endif

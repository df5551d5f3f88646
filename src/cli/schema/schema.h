/* npydt schema: the schema spec of an array. */
#ifndef NPYDT_CLI_SCHEMA_H
#define NPYDT_CLI_SCHEMA_H

int cmd_schema(int argc, char **argv);

#endif

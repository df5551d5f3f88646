/* npydt check: whether arrays match a schema. */
#ifndef NPYDT_CLI_CHECK_H
#define NPYDT_CLI_CHECK_H

int cmd_check(int argc, char **argv);

#endif

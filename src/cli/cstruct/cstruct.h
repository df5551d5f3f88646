/* npydt cstruct: the command that prints the library's C declarations
 * (npydt_cstruct_*) of a file's or a descriptor's record type. */
#ifndef NPYDT_CLI_CSTRUCT_H
#define NPYDT_CLI_CSTRUCT_H

/* The command (cstruct.c). */
int cmd_cstruct(int argc, char **argv);

#endif

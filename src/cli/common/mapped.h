/* Mapped input files: --no-mmap, and a file that shrinks while it is
 * read. */
#ifndef NPYDT_CLI_COMMON_MAPPED_H
#define NPYDT_CLI_COMMON_MAPPED_H

#include "npydt.h"

/* From here on no input file is mapped (--no-mmap). */
void cli_set_no_mmap(void);
/* Whether --no-mmap was given. */
int cli_no_mmap(void);
/* The command reads (mapped) data of the file at path from now on: if the
 * file shrinks, the SIGBUS of a mapped page past its end is reported as
 * "PATH: i/o error: the file shrank while it was read", the temporary
 * output (cli_output_discard) removed and the process ended with status
 * 2. NULL: no file is being read. */
void cli_reading(const char *path);

#endif

/* npydt inspect: what an array is (inspect.c), and its table of leaves
 * (inspect_table.c). */
#ifndef NPYDT_CLI_INSPECT_H
#define NPYDT_CLI_INSPECT_H

#include "npydt.h"

#include <stdio.h>

/* inspect's table of the leaves of a struct or subarray dtype
 * (inspect_table.c): laid out first (-1 when out of memory), then printed
 * with nothing allocated, so that it is printed whole or not at all. */
struct inspect_table;
int inspect_table_prepare(const npydt_dtype *dt, struct inspect_table **out);
void inspect_table_print(FILE *out, struct inspect_table *t);
void inspect_table_free(struct inspect_table *t);

int cmd_inspect(int argc, char **argv);

#endif

/* npydt schema: the spec of a file, for check --schema. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char schema_usage[] =
    "usage: npydt schema FILE\n"
    "\n"
    "Print the spec of the .npy FILE on one line: the header-like dict of its\n"
    "descriptor, shape and order, as np.save writes the dict\n"
    "(\"{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }\"). It is a\n"
    "SPEC that 'npydt check --schema' reads, and FILE matches it:\n"
    "\n"
    "    npydt check --schema \"$(npydt schema ref.npy)\" new.npy\n"
    "\n"
    "Edit it to loosen it (-1 in a dimension matches any length). FILE may be\n"
    "ARCHIVE.npz:NAME, an archive of one array, or '-' (standard input).\n"
    "Exit 0 on success, 1 for an invalid file, 2 on usage errors or unreadable\n"
    "paths.\n";

int cmd_schema(int argc, char **argv)
{
    const char *file = NULL;
    int opts_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts_done || a[0] != '-' || !a[1]) {
            if (file)
                return cli_usage_error("schema: more than one FILE ('%s' and '%s')", file, a);
            file = a;
        } else if (strcmp(a, "--") == 0) {
            opts_done = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(schema_usage, stdout);
            return EXIT_OK;
        } else {
            cli_usage_error("schema: unknown option '%s'", a);
            fputs(schema_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (!file) {
        cli_usage_error("schema: no FILE given");
        fputs(schema_usage, stderr);
        return EXIT_USAGE;
    }
    char *spec;
    int status = cli_spec_of_input(file, "schema", &spec);
    if (status == EXIT_OK) {
        puts(spec);
        free(spec);
    }
    return status;
}

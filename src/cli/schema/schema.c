/* npydt schema: the spec of a file, for check --schema. */
#include "cli/schema/schema.h"
#include "cli/common/args.h"
#include "cli/common/report.h"
#include "cli/common/spec.h"

#include <stdlib.h>
#include <string.h>

static const struct cli_command schema_command = {
    "schema",
    "schema FILE",
    "Print the spec of the .npy FILE on one line: the header-like dict of its\n"
    "descriptor, shape and order, as np.save writes the dict\n"
    "(\"{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }\"). It is a\n"
    "SPEC that 'npydt check --schema' reads, and FILE matches it:\n"
    "\n"
    "    npydt check --schema \"$(npydt schema ref.npy)\" new.npy\n"
    "\n"
    "Edit it to loosen it (-1 in a dimension matches any length), or give\n"
    "--schema @ref.npy to check against the file itself. FILE may be\n"
    "ARCHIVE.npz:NAME, an archive of one array, or '-' (standard input).\n"
    "Exit 0 on success, 2 on usage errors or unreadable paths, 3 for an\n"
    "invalid file.\n",
    NULL, 0, 1,
};

int cmd_schema(int argc, char **argv)
{
    struct cli_args args;
    cli_args_init(&args, &schema_command, argc, argv);
    for (int opt; (opt = cli_args_next(&args)) != 0;)
        return args.status;   /* --no-mmap is taken by cli_args_next: only --help ends here */
    if (args.noperands != 1) {
        if (args.noperands == 0)
            cli_usage(&schema_command, "no FILE given");
        else
            cli_usage(&schema_command, "more than one FILE ('%s' and '%s')", args.operands[0],
                            args.operands[1]);
        return EXIT_USAGE;
    }
    char *spec;
    int status = cli_spec_of_input(&schema_command, args.operands[0], NULL, &spec);
    if (status == EXIT_OK) {
        puts(spec);
        free(spec);
    }
    return status;
}

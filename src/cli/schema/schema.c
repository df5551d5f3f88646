/* npydt schema: the spec of a file, for check --schema. */
#include "cli/schema/schema.h"
#include "cli/common/args.h"
#include "cli/common/report.h"
#include "cli/common/spec.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_EXACT_SHAPE = 1, OPT_ARROW };

static const struct cli_option schema_options[] = {
    {OPT_EXACT_SHAPE, "exact-shape", 0, NULL,
     "keep the first dimension too (by default it is -1, any length)"},
    {OPT_ARROW, "arrow", 0, NULL, "print the Arrow schema of FILE's dtype instead"},
};

static const struct cli_command schema_command = {
    "schema",
    "schema [--exact-shape | --arrow] FILE",
    "Print the spec of the .npy FILE on one line: the header-like dict of its\n"
    "descriptor, shape and order, as np.save writes the dict, with -1 for the\n"
    "first dimension (\"{'descr': '<f8', 'fortran_order': False, 'shape':\n"
    "(-1, 3), }\"). It is a SPEC that 'npydt check --schema' reads: files of\n"
    "the same dtype, order and trailing dimensions match it, whatever their\n"
    "number of records (their length), as files that grow by records do:\n"
    "\n"
    "    npydt check --schema \"$(npydt schema ref.npy)\" new/*.npy\n"
    "\n"
    "--schema @ref.npy and --schema like:ref.npy take the same spec.\n"
    "--exact-shape keeps the whole shape ('shape': (100, 3)), to match\n"
    "files of that very shape only. Edit the spec to loosen it further\n"
    "(-1 in any dimension matches any length). FILE may be\n"
    "ARCHIVE.npz:NAME, an archive of one array, or '-' (standard input).\n"
    "\n"
    "--arrow prints instead the Arrow schema dump --arrow writes: a line per\n"
    "field, indented two spaces a level, of its name as a JSON string, its\n"
    "Arrow format string, \"nullable\" when it is, and its metadata as a JSON\n"
    "object (\"value\" g {\"npydt.dtype\": \"<f8\"}).\n"
    "Exit 0 on success, 2 on usage errors or unreadable paths, 3 for an\n"
    "invalid file.\n",
    schema_options, sizeof schema_options / sizeof schema_options[0], 1,
};

int cmd_schema(int argc, char **argv)
{
    int exact = 0, arrow = 0;
    struct cli_args args;
    cli_args_init(&args, &schema_command, argc, argv);
    for (int opt; (opt = cli_args_next(&args)) != 0;) {
        if (opt != OPT_EXACT_SHAPE && opt != OPT_ARROW)
            return args.status;   /* --help, or a usage error already reported */
        exact |= opt == OPT_EXACT_SHAPE;
        arrow |= opt == OPT_ARROW;
    }
    if (cli_args_stdin(&args, 0, "FILE") != EXIT_OK)
        return EXIT_USAGE;
    if (args.noperands > 1)
        return cli_usage(&schema_command, "more than one FILE ('%s' and '%s')", args.operands[0],
                         args.operands[1]);
    if (arrow && exact)
        return cli_usage(&schema_command, "--arrow and --exact-shape exclude each other");
    if (arrow)
        return schema_arrow(&schema_command, args.operands[0]);
    char *spec;
    int status = cli_spec_of_input(&schema_command, args.operands[0], NULL, !exact, &spec);
    if (status == EXIT_OK) {
        puts(spec);
        free(spec);
    }
    return status;
}

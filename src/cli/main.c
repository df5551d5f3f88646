/* npydt: inspect, dump, check and rewrite NumPy .npy files. */
#include "cli.h"

#include <signal.h>
#include <string.h>

static const char usage[] =
    "usage: npydt COMMAND [OPTIONS] FILE...\n"
    "\n"
    "Commands:\n"
    "  inspect [--json] FILE...   version, shape, order and fields of each file\n"
    "  dump [--jsonl] FILE        the records, as a table or one JSON value per line\n"
    "  swap FILE --to ORDER -o OUT  rewrite with another byte order\n"
    "  cstruct FILE|DESCR         C declarations for the record type\n"
    "  check --schema SPEC FILE...  validate files against an expected dtype\n"
    "\n"
    "Run 'npydt COMMAND --help' for a command's options. Exit status: 0 success,\n"
    "1 invalid input, 2 usage error, unreadable path or out of memory.\n";

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
    {"inspect", cmd_inspect},
    {"dump", cmd_dump},
    {"swap", cmd_swap},
    {"cstruct", cmd_cstruct},
    {"check", cmd_check},
};

/* Whatever printed to stdout, a write that failed (a full disk, a closed
 * pipe) turns the exit status into a usage-level error. */
static int finish(int status)
{
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_usage_error("error writing output");
    return status;
}

int main(int argc, char **argv)
{
    /* a reader that goes away (| head) makes writes fail with EPIPE, which
     * each command reports, instead of killing the process */
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(usage, stdout);
        return finish(EXIT_OK);
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("npydt %s\n", npydt_version());
        return finish(EXIT_OK);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return finish(commands[i].run(argc - 1, argv + 1));
    cli_usage_error("unknown command '%s'", argv[1]);
    fputs(usage, stderr);
    return EXIT_USAGE;
}

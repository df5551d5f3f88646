/* npydt: inspect, dump, check and rewrite NumPy .npy files. */
#include "cli/check/check.h"
#include "cli/cstruct/cstruct.h"
#include "cli/dump/dump.h"
#include "cli/inspect/inspect.h"
#include "cli/load/load.h"
#include "cli/pack/pack.h"
#include "cli/schema/schema.h"
#include "cli/stats/stats.h"
#include "cli/swap/swap.h"
#include "cli/common/args.h"
#include "cli/common/report.h"
#include "cli/common/sink.h"
#include "cli/load/load.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;   /* one line for the list of commands */
};

/* Every command, in the order the help lists them: one line each. */
static const struct command commands[] = {
    {"inspect", cmd_inspect, "version, shape, order and fields of each file"},
    {"dump", cmd_dump, "the elements, as a table or one JSON value per line"},
    {"swap", cmd_swap, "rewrite a file or an archive with another byte order"},
    {"cstruct", cmd_cstruct, "C declarations for the record type"},
    {"check", cmd_check, "validate files against an expected dtype"},
    {"stats", cmd_stats, "statistics of the values of every field"},
    {"schema", cmd_schema, "the spec of a file (dtype, shape, order) for check --schema"},
    {"load", cmd_load, "write a .npy file from JSON Lines, CSV or TSV"},
    {"append", cmd_append, "append JSON Lines, CSV or TSV records to a .npy file"},
    {"pack", cmd_pack, "write an .npz archive of .npy files, as np.savez does"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *out)
{
    fputs("usage: npydt COMMAND [OPTIONS] FILE...\n"
          "       npydt help COMMAND | --help | --version\n"
          "\n"
          "Commands:\n",
          out);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\n"
          "Run 'npydt help COMMAND' (or 'npydt COMMAND --help') for a command's\n"
          "options. Exit status: 0 success, 1 check mismatch, 2 usage error,\n"
          "unreadable path or out of memory, 3 invalid input; with several\n"
          "inputs the highest. The manual: man npydt. The JSON\n"
          "output of inspect, dump and check: cli-json.md (doc/ in the sources,\n"
          "share/doc/npydt/ where npydt is installed).\n",
          out);
}

/* Is stdout a pipe or socket whose reader has gone (| head)? poll()
 * reports POLLERR (pipe) or POLLHUP (socket) for such a write end,
 * whatever errno the failed write left behind. */
static int reader_gone(void)
{
    struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

/* Whatever printed to stdout: a reader that stopped reading ends the
 * output quietly, keeping the status (as the contract asks: no message,
 * no death by SIGPIPE); any other failed write (a full disk, an I/O
 * error) says why and is a usage-level error, since the output is not
 * what was asked for. */
static int finish(int status)
{
    errno = 0;
    int flushed = fflush(stdout) == 0;
    int e = errno;
    if (flushed && !ferror(stdout)) {
        if (!(e = sink_write_error()))
            return status;
        flushed = 0;   /* a sink's write(2) failed */
    }
    if ((!flushed && e == EPIPE) || reader_gone())
        return status;
    if (!flushed && e)
        return cli_failure("error writing output: %s", TEXT_ERRNO(e));
    return cli_failure("error writing output");
}

static const struct command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0)
            return &commands[i];
    return NULL;
}

/* "unknown command 'X'", with the nearest command's name when one is. */
static int unknown_command(const char *name)
{
    const char *names[NCOMMANDS + 1];
    for (size_t i = 0; i < NCOMMANDS; i++)
        names[i] = commands[i].name;
    names[NCOMMANDS] = "help";
    const char *near = cli_nearest(name, names, NCOMMANDS + 1);
    if (near)
        return cli_usage(NULL, "unknown command '%s' (did you mean '%s'?)", name, near);
    return cli_usage(NULL, "unknown command '%s'", name);
}

int main(int argc, char **argv)
{
    /* a reader that goes away (| head) makes writes fail with EPIPE, which
     * finish() takes as the end of the output, instead of killing the
     * process */
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    const char *word = argv[1];
    if (strcmp(word, "--help") == 0 || strcmp(word, "-h") == 0 ||
        (strcmp(word, "help") == 0 && argc == 2)) {
        print_usage(stdout);
        return finish(EXIT_OK);
    }
    if (strcmp(word, "--version") == 0 || strcmp(word, "-V") == 0) {
        printf("npydt %s\n", npydt_version());
        return finish(EXIT_OK);
    }
    if (strcmp(word, "help") == 0) {
        /* npydt help COMMAND is npydt COMMAND --help */
        if (argc > 3)
            return cli_usage(NULL, "help: give one COMMAND");
        const struct command *c = find_command(argv[2]);
        if (!c)
            return unknown_command(argv[2]);
        char *help_argv[] = {argv[2], (char *)"--help", NULL};
        return finish(c->run(2, help_argv));
    }
    const struct command *c = find_command(word);
    if (!c)
        return unknown_command(word);
    return finish(c->run(argc - 1, argv + 1));
}

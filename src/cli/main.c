/* npydt: inspect, dump, check and rewrite NumPy .npy files. */
#include "cli.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
    "usage: npydt COMMAND [OPTIONS] FILE...\n"
    "\n"
    "Commands:\n"
    "  inspect [--json] FILE...   version, shape, order and fields of each file\n"
    "  dump [--jsonl] FILE        the records, as a table or one JSON value per line\n"
    "  swap FILE --to ORDER -o OUT  rewrite with another byte order\n"
    "  cstruct FILE|DESCR         C declarations for the record type\n"
    "  check --schema SPEC FILE...  validate files against an expected dtype\n"
    "  schema FILE                the spec of a file, for check --schema\n"
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
    {"schema", cmd_schema},
};

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
    if (flushed && !ferror(stdout))
        return status;
    if ((!flushed && e == EPIPE) || reader_gone())
        return status;
    if (!flushed && e)
        return cli_usage_error("error writing output: %s", strerror(e));
    return cli_usage_error("error writing output");
}

int main(int argc, char **argv)
{
    /* a reader that goes away (| head) makes writes fail with EPIPE, which
     * finish() takes as the end of the output, instead of killing the
     * process */
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

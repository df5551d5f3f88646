/* The command line of every command: options from a table, operands,
 * the generated help and the one usage-error format. */
#ifndef NPYDT_CLI_COMMON_ARGS_H
#define NPYDT_CLI_COMMON_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One option of a command, as --NAME, --NAME=VALUE, --NAME VALUE, and -S,
 * -S VALUE or -SVALUE when it has a short name S. -h and --help are every
 * command's and are not in the tables. */
struct cli_option {
    int id;                /* what cli_args_next returns for it: > 0 */
    const char *name;      /* long name without the dashes: "head" */
    char short_name;       /* 'o' for -o; 0 for none */
    const char *value;     /* the value's name in the help ("N"); NULL for a flag */
    const char *help;      /* one line for the help */
};

/* What a command accepts and what its --help prints. */
struct cli_command {
    const char *name;                    /* "dump" */
    const char *usage;                   /* synopsis after "npydt ", forms separated by '\n'
                                          * (a line starting with ' ' continues one) */
    const char *description;             /* paragraphs printed after the synopsis */
    const struct cli_option *options;
    size_t noptions;
    int reads_input;                     /* takes the input limit options too */
};

/* The most operands before a command's input (append's FILE.npy). */
#define CLI_ARGS_STDIN_MAX 1

/* A command line being read. */
struct cli_args {
    const struct cli_command *cmd;
    const struct cli_option *option;   /* the option cli_args_next returned */
    const char *value;                 /* its value; NULL for a flag */
    char **operands;                   /* the operands, in order ("-" is one) */
    int noperands;                     /* complete once cli_args_next returned 0 */
    int status;                        /* the exit status when it returned -1 */
    /* private */
    int argc, next;
    char **argv;
    bool options_done;
    char *stdin_operands[CLI_ARGS_STDIN_MAX + 1];
};

/* Start reading argv[1..argc) (argv[0] is the command's name) for cmd.
 * Operands are moved to the front of argv as they are read. */
void cli_args_init(struct cli_args *a, const struct cli_command *cmd, int argc, char **argv);
/* The id of the next option (its value in a->value); 0 when the line is
 * read, every operand then in a->operands; -1 when the command must end
 * with a->status: after --help (the help printed on stdout, status 0) or
 * after a usage error (one line and a hint on stderr, status 2). "--"
 * ends the options. */
int cli_args_next(struct cli_args *a);
/* The one rule for an input left out: with exactly `first` operands
 * (those before the input, at most CLI_ARGS_STDIN_MAX), the input is
 * standard input, as "-" names it, appended to a->operands; unless
 * standard input is a terminal, where nothing would arrive until typed:
 * then the usage error "no WHAT given (...)" and its status. EXIT_OK
 * otherwise (also when the input was named). */
int cli_args_stdin(struct cli_args *a, int first, const char *what);
/* Print the help of cmd: synopsis, description, the table of options. */
void cli_print_help(FILE *out, const struct cli_command *cmd);
/* The one usage error of every command: "npydt: CMD: MESSAGE" and
 * "Try 'npydt CMD --help'." on stderr, MESSAGE formatted as
 * cli_line_format does; with cmd NULL (the command line before a command
 * is known) "npydt: MESSAGE" and "Try 'npydt --help'.". Returns
 * EXIT_USAGE. */
int cli_usage(const struct cli_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same to a task's destination (report.h, dest.h; NULL: stderr). */
struct cli_dest;
int cli_usage_to(struct cli_dest *d, const struct cli_command *cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Print "Try 'npydt CMD --help'." (cmd NULL: "Try 'npydt --help'.") to
 * stderr. */
void cli_try_help(const struct cli_command *cmd);
/* The candidate nearest to word, for "did you mean": at an edit distance
 * (insertion, deletion, substitution, swap of neighbours) of at most one
 * per three bytes of word (three at most), or one that word starts; NULL
 * when none is near enough (or word is empty or longer than 255 bytes).
 * The first of equally near candidates wins; a candidate equal to word
 * is the nearest ("-jsonl" for "--jsonl"). */
const char *cli_nearest(const char *word, const char *const *candidates, size_t n);
/* An option's count: decimal digits only, no sign. One too large for 64
 * bits is UINT64_MAX ("all") or, with exact set, refused. 0, or -1 when s
 * is no such count. */
int cli_parse_count(const char *s, uint64_t *out, int exact);

#endif

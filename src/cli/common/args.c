/* The command line of a subcommand: options from its table, operands in
 * order, generated help, and one-line usage errors with a suggestion. */
#include "cli/common/args.h"
#include "cli/common/dest.h"
#include "cli/common/limits.h"
#include "cli/common/progress.h"
#include "cli/common/report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Words longer than this get no suggestion: the distance table is
 * quadratic, and a typo worth correcting is short. */
#define NEAREST_MAX_LEN 255

/* The optimal string alignment distance of a and b (insertions, deletions,
 * substitutions and swaps of two adjacent bytes each cost 1), both at most
 * NEAREST_MAX_LEN bytes long. Three rows of the table are kept. */
static size_t osa_distance(const char *a, size_t n, const char *b, size_t m)
{
    size_t rows[3][NEAREST_MAX_LEN + 1];
    size_t *before = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= m; j++)
        prev[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                before[j - 2] + 1 < best)
                best = before[j - 2] + 1;
            cur[j] = best;
        }
        size_t *t = before;
        before = prev;
        prev = cur;
        cur = t;
    }
    return prev[m];
}

const char *cli_nearest(const char *word, const char *const *candidates, size_t n)
{
    size_t len = strlen(word);
    if (len == 0 || len > NEAREST_MAX_LEN)
        return NULL;
    /* one edit in a short word, up to three in a long one */
    size_t allowed = (len + 2) / 3;
    if (allowed > 3)
        allowed = 3;
    const char *best = NULL;
    size_t best_score = allowed + 1;
    for (size_t i = 0; i < n; i++) {
        const char *c = candidates[i];
        size_t clen = strlen(c);
        if (clen == 0 || clen > NEAREST_MAX_LEN)
            continue;
        size_t score;
        if (len >= 2 && clen > len && strncmp(c, word, len) == 0) {
            score = 1;   /* the start of the name: "--sch" for "--schema" */
        } else {
            size_t diff = clen > len ? clen - len : len - clen;
            if (diff > allowed)
                continue;
            score = osa_distance(word, len, c, clen);
            /* a distance as long as a word means nothing in common */
            if (score > 0 && (score >= len || score >= clen))
                continue;
        }
        if (score < best_score) {
            best = c;
            best_score = score;
        }
    }
    return best;
}

/* ---- messages ------------------------------------------------------------ */

static int vusage(struct cli_dest *d, const struct cli_command *cmd, const char *fmt,
                  va_list ap) __attribute__((format(printf, 3, 0)));

static int vusage(struct cli_dest *d, const struct cli_command *cmd, const char *fmt, va_list ap)
{
    char lead[64];
    snprintf(lead, sizeof lead, "npydt: %s%s", cmd ? cmd->name : "", cmd ? ": " : "");
    cli_vmessage_to(d, lead, fmt, ap);
    if (!d) {
        cli_try_help(cmd);
        return EXIT_USAGE;
    }
    char help[64];
    int n = snprintf(help, sizeof help, "Try 'npydt %s%s--help'.\n", cmd ? cmd->name : "",
                     cmd ? " " : "");
    if (n > 0 && (size_t)n < sizeof help)
        cli_dest_line(d, help, (size_t)n);
    return EXIT_USAGE;
}

int cli_usage(const struct cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int status = vusage(NULL, cmd, fmt, ap);
    va_end(ap);
    return status;
}

int cli_usage_to(struct cli_dest *d, const struct cli_command *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int status = vusage(d, cmd, fmt, ap);
    va_end(ap);
    return status;
}

void cli_try_help(const struct cli_command *cmd)
{
    fprintf(stderr, "Try 'npydt %s%s--help'.\n", cmd ? cmd->name : "", cmd ? " " : "");
}

/* "  -o, --output OUT" or "      --jsonl" into buf; its length. */
static size_t option_label(char *buf, size_t size, const char *long_name, char short_name,
                           const char *value)
{
    int n = snprintf(buf, size, "  %c%c%c --%s%s%s", short_name ? '-' : ' ',
                     short_name ? short_name : ' ', short_name ? ',' : ' ', long_name,
                     value ? " " : "", value ? value : "");
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

void cli_print_help(FILE *out, const struct cli_command *cmd)
{
    /* the synopsis: one "npydt ..." line per form; a line that starts with
     * a blank continues the form before it */
    const char *line = cmd->usage;
    for (int first = 1; *line; first = 0) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *lead = first ? "usage: npydt " : line[0] == ' ' ? "             "
                                                                    : "       npydt ";
        fprintf(out, "%s%.*s\n", lead, (int)len, line);
        line += len + (end != NULL);
    }
    if (cmd->description && *cmd->description)
        fprintf(out, "\n%s", cmd->description);
    /* the options, their help aligned in one column: the command's, the
     * input limits, then those of every command (-q, -h) */
    static const struct cli_option every[] = {
        {0, "quiet", 'q', NULL, "no progress line, no message that is no error"},
        {0, "help", 'h', NULL, "print this help and exit"},
    };
    size_t nlimits = 0;
    const struct cli_option *limits = cli_limit_options(&nlimits);
    if (!cmd->reads_input)
        nlimits = 0;
    size_t total = cmd->noptions + nlimits + 2;
    char label[128];
    size_t width = 0;
    for (size_t i = 0; i < total; i++) {
        const struct cli_option *o = i < cmd->noptions ? &cmd->options[i]
                                     : i < cmd->noptions + nlimits ? &limits[i - cmd->noptions]
                                     : &every[i - cmd->noptions - nlimits];
        size_t w = option_label(label, sizeof label, o->name, o->short_name, o->value);
        if (w > width && w <= 30)
            width = w;
    }
    fputs("\nOptions:\n", out);
    for (size_t i = 0; i < total; i++) {
        const struct cli_option *o = i < cmd->noptions ? &cmd->options[i]
                                     : i < cmd->noptions + nlimits ? &limits[i - cmd->noptions]
                                     : &every[i - cmd->noptions - nlimits];
        size_t w = option_label(label, sizeof label, o->name, o->short_name, o->value);
        if (w > width)
            fprintf(out, "%s\n%*s  %s\n", label, (int)width, "", o->help);
        else
            fprintf(out, "%-*s  %s\n", (int)width, label, o->help);
    }
}

/* ---- parsing ---------------------------------------------------------------- */

void cli_args_init(struct cli_args *a, const struct cli_command *cmd, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->argc = argc;
    a->argv = argv;
    a->next = 1;
    a->operands = argv + 1;
}

/* Unknown option `typed` (name_len bytes of it are the option's name):
 * one line, with the nearest option name when there is one. */
static int unknown_option(struct cli_args *a, const char *typed, size_t name_len)
{
    const struct cli_command *cmd = a->cmd;
    char word[NEAREST_MAX_LEN + 1];
    const char *suggestion = NULL;
    /* "--jsnol" and "-jsonl" are compared, without their dashes, with the
     * long names; a single letter after one dash is too short to guess */
    size_t skip = typed[1] == '-' ? 2 : 1;
    if (name_len > skip + 1 && name_len - skip <= NEAREST_MAX_LEN) {
        memcpy(word, typed + skip, name_len - skip);
        word[name_len - skip] = '\0';
        size_t nlimits = 0;
        const struct cli_option *limits = cli_limit_options(&nlimits);
        if (!cmd->reads_input)
            nlimits = 0;
        size_t n = cmd->noptions + nlimits;
        const char **names = malloc((n + 2) * sizeof *names);
        if (names) {
            for (size_t i = 0; i < n; i++)
                names[i] = i < cmd->noptions ? cmd->options[i].name
                                             : limits[i - cmd->noptions].name;
            names[n] = "help";
            names[n + 1] = "quiet";
            suggestion = cli_nearest(word, names, n + 2);
            free(names);
        }
    }
    a->status = EXIT_USAGE;
    if (suggestion)
        return cli_usage(cmd, "unknown option '%.*s' (did you mean '--%s'?)",
                                 (int)name_len, typed, suggestion);
    return cli_usage(cmd, "unknown option '%.*s'", (int)name_len, typed);
}

int cli_args_next(struct cli_args *a)
{
    const struct cli_command *cmd = a->cmd;
    while (a->next < a->argc) {
        char *arg = a->argv[a->next++];
        if (a->options_done || arg[0] != '-' || arg[1] == '\0' || arg[1] == ':') {
            /* operands ("-" and "-:NAME", standard input and a member of
             * the archive on it, too) move to the front, in order: the
             * slot written is never after the one just read */
            a->operands[a->noperands++] = arg;
            continue;
        }
        if (strcmp(arg, "--") == 0) {
            a->options_done = true;
            continue;
        }
        const struct cli_option *opt = NULL;
        const char *value = NULL;
        size_t name_len;
        if (arg[1] == '-') {
            const char *name = arg + 2;
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            name_len = len + 2;
            if (len == 4 && strncmp(name, "help", 4) == 0 && !eq) {
                cli_print_help(stdout, cmd);
                a->status = EXIT_OK;
                return -1;
            }
            if (len == 5 && strncmp(name, "quiet", 5) == 0 && !eq) {
                cli_set_quiet();
                continue;
            }
            for (size_t i = 0; i < cmd->noptions && !opt; i++)
                if (strlen(cmd->options[i].name) == len &&
                    strncmp(cmd->options[i].name, name, len) == 0)
                    opt = &cmd->options[i];
            size_t nlimits = 0;
            const struct cli_option *limits = cli_limit_options(&nlimits);
            for (size_t i = 0; cmd->reads_input && i < nlimits && !opt; i++)
                if (strlen(limits[i].name) == len && strncmp(limits[i].name, name, len) == 0)
                    opt = &limits[i];
            if (eq)
                value = eq + 1;
        } else {
            name_len = strlen(arg);
            if (arg[1] == 'h' && arg[2] == '\0') {
                cli_print_help(stdout, cmd);
                a->status = EXIT_OK;
                return -1;
            }
            if (arg[1] == 'q' && arg[2] == '\0') {
                cli_set_quiet();
                continue;
            }
            for (size_t i = 0; i < cmd->noptions && !opt; i++)
                if (cmd->options[i].short_name == arg[1])
                    opt = &cmd->options[i];
            /* -oOUT: the rest of a short option that takes a value is it,
             * unless the word is a long name typed with one dash (-jsonl) */
            int long_name = 0;
            for (size_t i = 0; opt && arg[2] != '\0' && i < cmd->noptions; i++)
                long_name |= strcmp(cmd->options[i].name, arg + 1) == 0;
            if (opt && arg[2] != '\0') {
                if (opt->value && !long_name) {
                    value = arg + 2;
                    name_len = 2;
                } else {
                    opt = NULL;
                }
            }
        }
        if (!opt)
            return unknown_option(a, arg, name_len), -1;
        if (!opt->value && value) {
            a->status = EXIT_USAGE;
            cli_usage(cmd, "option '--%s' takes no value", opt->name);
            return -1;
        }
        if (opt->value && !value) {
            if (a->next >= a->argc) {
                a->status = EXIT_USAGE;
                cli_usage(cmd, "option '%.*s' needs a value (%s)", (int)name_len, arg,
                                  opt->value);
                return -1;
            }
            value = a->argv[a->next++];
        }
        if (opt->id >= CLI_OPT_LIMITS) {
            if ((a->status = cli_limit_option(cmd, opt->id, value)) != EXIT_OK)
                return -1;
            continue;
        }
        a->option = opt;
        a->value = value;
        return opt->id;
    }
    return 0;
}

int cli_args_stdin(struct cli_args *a, int first, const char *what)
{
    static char dash[] = "-";
    if (a->noperands != first)
        return EXIT_OK;
    if (isatty(STDIN_FILENO))
        return cli_usage(a->cmd, "no %s given (standard input is a terminal; give - to read it)",
                         what);
    for (int i = 0; i < first; i++)
        a->stdin_operands[i] = a->operands[i];
    a->stdin_operands[first] = dash;
    a->operands = a->stdin_operands;
    a->noperands = first + 1;
    return EXIT_OK;
}

int cli_parse_count(const char *s, uint64_t *out, int exact)
{
    if (!*s)
        return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned digit = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - digit) / 10) {
            if (exact)
                return -1;
            v = UINT64_MAX;
        } else {
            v = v * 10 + digit;
        }
    }
    *out = v;
    return 0;
}

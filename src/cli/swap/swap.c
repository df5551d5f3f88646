/* npydt swap: rewrite a file, or every member of an archive, with another
 * byte order. This file reads the command line; the output is checked and
 * opened by output.c (shared with pack) and written through the library's
 * npydt_output, a .npy file by swap_npy.c, an archive by
 * swap_npz.c.
 *
 * Each array gets the header np.save would write for the swapped dtype
 * (same shape and order) and the same values; FILE itself is only read. */
#define _XOPEN_SOURCE 700   /* realpath */
#include "cli/swap/swap.h"
#include "cli/common/args.h"
#include "cli/common/input.h"
#include "cli/common/jobs.h"
#include "cli/common/report.h"
#include "text/text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { OPT_TO = 1, OPT_OUTPUT, OPT_IN_PLACE, OPT_JOBS };

static const struct cli_option swap_options[] = {
    {OPT_TO, "to", 0, "ORDER",
     "the byte order to write: little (<, le), big (>, be) or native (=)"},
    {OPT_OUTPUT, "output", 'o', "OUT", "write the copy to OUT"},
    {OPT_IN_PLACE, "in-place", 0, NULL, "replace FILE itself"},
    {OPT_JOBS, "jobs", 'j', "N",
     "swap a .npy FILE's records with N threads (default 0: one per processor)"},
};

const struct cli_command swap_command = {
    "swap",
    "swap [-j N] FILE --to ORDER -o OUT\n"
    "swap [-j N] FILE --to ORDER --in-place",
    "Write a copy of the .npy FILE whose every multi-byte scalar is stored in\n"
    "the given byte order, with the header NumPy would write for it; the values\n"
    "are unchanged. OUT is written through a temporary file and a rename, so it\n"
    "is never left half-written; FILE is never modified (--in-place replaces it\n"
    "the same way). Object arrays cannot be swapped (exit 3).\n"
    "\n"
    "FILE may be an .npz archive: every member is swapped and OUT is an archive\n"
    "as np.savez (stored members) or np.savez_compressed (deflated members)\n"
    "would write it, names and methods kept. If any member is an object array\n"
    "or not a valid .npy file, nothing is written (exit 3). ARCHIVE.npz:NAME\n"
    "cannot be swapped alone: swap the whole archive.\n"
    "\n"
    "ORDER is little (also <, le), big (>, be) or native (=, this machine's).\n"
    "Before anything is written, OUT is refused when it is a directory, when\n"
    "its folder cannot be written in, or when its filesystem has less free\n"
    "space than the output needs (the stored bytes, for an archive). With\n"
    "--in-place, a FILE already in ORDER is left as it is (said on stderr).\n"
    "On a terminal a progress line is shown for inputs of 64 MiB or more.\n"
    "\n"
    "The records of a .npy FILE are swapped in chunks of whole records by N\n"
    "threads (-j N; 0, the default, is one per online processor, and never\n"
    "more threads than chunks) and written in order: the output is the same\n"
    "for every N. An archive's members are swapped by one thread.\n",
    swap_options, sizeof swap_options / sizeof swap_options[0], 1,
};

/* What --to takes: NumPy's byte-order characters and names. */
static const struct {
    const char *name;
    npydt_order order;
} orders[] = {
    {"little", NPYDT_ORDER_LITTLE}, {"<", NPYDT_ORDER_LITTLE}, {"le", NPYDT_ORDER_LITTLE},
    {"big", NPYDT_ORDER_BIG},       {">", NPYDT_ORDER_BIG},    {"be", NPYDT_ORDER_BIG},
    {"native", NPYDT_ORDER_NATIVE}, {"=", NPYDT_ORDER_NATIVE},
};

const char *swap_order_name(npydt_order to)
{
    if (to == NPYDT_ORDER_NATIVE)
        to = TEXT_HOST_BIG ? NPYDT_ORDER_BIG : NPYDT_ORDER_LITTLE;
    return to == NPYDT_ORDER_BIG ? "big-endian" : "little-endian";
}

/* ---- the command ------------------------------------------------------------------ */

/* 1 when arg does not exist but names ARCHIVE:NAME with an existing archive. */
static int is_member_arg(const char *arg)
{
    struct stat st;
    if (stat(arg, &st) == 0)
        return 0;
    for (const char *colon = strchr(arg, ':'); colon; colon = strchr(colon + 1, ':')) {
        char *prefix = strndup(arg, (size_t)(colon - arg));
        int archive = prefix && cli_is_archive(prefix);
        free(prefix);
        if (archive)
            return 1;
    }
    return 0;
}

int cmd_swap(int argc, char **argv)
{
    const char *out = NULL, *order = NULL;
    int in_place = 0;
    unsigned jobs = 0;
    struct cli_args args;
    cli_args_init(&args, &swap_command, argc, argv);
    for (int opt; (opt = cli_args_next(&args)) != 0;) {
        switch (opt) {
        case OPT_TO:
            order = args.value;
            break;
        case OPT_OUTPUT:
            out = args.value;
            if (!*out)
                return cli_usage(&swap_command, "-o needs an output path");
            break;
        case OPT_IN_PLACE:
            in_place = 1;
            break;
        case OPT_JOBS:
            if (cli_jobs_parse(&swap_command, args.value, &jobs) != 0)
                return EXIT_USAGE;
            break;
        default:
            return args.status;
        }
    }
    if (args.noperands > 1)
        return cli_usage(&swap_command, "more than one FILE ('%s' and '%s')", args.operands[0],
                               args.operands[1]);
    const char *file = args.noperands ? args.operands[0] : NULL;
    if (!file || !order || (!out && !in_place) || (out && in_place)) {
        cli_usage(&swap_command, !file ? "no FILE given"
                        : !order ? "--to ORDER is required"
                                 : "give exactly one of -o OUT and --in-place");
        return EXIT_USAGE;
    }
    struct swap_opts opts = {NPYDT_ORDER_NATIVE, in_place, jobs};
    size_t k = 0;
    while (k < sizeof orders / sizeof orders[0] && strcmp(order, orders[k].name) != 0)
        k++;
    if (k == sizeof orders / sizeof orders[0])
        return cli_usage(&swap_command, "--to must be little (<, le), big (>, be) or native (=), "
                               "not '%s'",
                               order);
    opts.to = orders[k].order;
    const char *target = in_place ? file : out;
    if (is_member_arg(file))
        return cli_usage(&swap_command, "'%s' names one member of an archive; swap writes whole "
                               "files, so swap the whole archive (every member), or extract "
                               "the member first",
                               file);
    /* --in-place through a symbolic link replaces the file it points to,
     * not the link */
    char *resolved = NULL;
    if (in_place && !(target = resolved = realpath(file, NULL)))
        return cli_failure("swap: cannot resolve '%s': %s", file, TEXT_ERRNO(errno));
    int status = cli_is_archive(file) ? swap_npz(file, target, &opts) : swap_npy(file, target, &opts);
    free(resolved);
    return status;
}

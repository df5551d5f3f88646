/* The limits the command reads its inputs under: the library's defaults,
 * the "untrusted" preset, and the options that set them (--limits,
 * --max-header-bytes, --max-inflated), which every command that reads
 * .npy and .npz input takes, with --no-mmap (mapped.c). */
#include "cli/common/limits.h"
#include "cli/common/args.h"
#include "cli/common/mapped.h"
#include "cli/common/report.h"

#include <stdint.h>
#include <string.h>

/* What the command line asked for; applied over the defaults or the
 * preset, whatever the order of the options. */
static struct {
    int untrusted;
    int have_header, have_inflated;
    uint64_t header_bytes, inflated_bytes;
} asked;

static const struct cli_option limit_options[] = {
    {CLI_OPT_LIMITS, "limits", 0, "default|untrusted",
     "input limits: the library's defaults or the preset for untrusted input"},
    {CLI_OPT_MAX_HEADER, "max-header-bytes", 0, "BYTES",
     "refuse a .npy header longer than BYTES (16M; untrusted 64K)"},
    {CLI_OPT_MAX_INFLATED, "max-inflated", 0, "BYTES",
     "refuse an archive whose deflated members declare more (16G; untrusted 1G)"},
    {CLI_OPT_NO_MMAP, "no-mmap", 0, NULL, "read input files with read(2), never map them"},
};

const struct cli_option *cli_limit_options(size_t *n)
{
    *n = sizeof limit_options / sizeof limit_options[0];
    return limit_options;
}

int cli_parse_bytes(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    if (p == s)
        return -1;
    static const char units[] = "KMGT";
    const char *u = *p ? strchr(units, *p) : NULL;
    if (*p && (!u || p[1] != '\0'))
        return -1;
    for (int k = u ? (int)(u - units) + 1 : 0; k > 0; k--) {
        if (v > UINT64_MAX / 1024)
            return -1;
        v *= 1024;
    }
    if (v == 0)
        return -1;
    *out = v;
    return 0;
}

int cli_limit_option(const struct cli_command *cmd, int id, const char *value)
{
    uint64_t v;
    switch (id) {
    case CLI_OPT_NO_MMAP:
        cli_set_no_mmap();
        return EXIT_OK;
    case CLI_OPT_LIMITS:
        if (strcmp(value, "untrusted") != 0 && strcmp(value, "default") != 0)
            return cli_usage(cmd, "--limits takes default or untrusted, not '%s'", value);
        asked.untrusted = strcmp(value, "untrusted") == 0;
        return EXIT_OK;
    default:   /* CLI_OPT_MAX_HEADER or CLI_OPT_MAX_INFLATED: the table holds no other */
        if (cli_parse_bytes(value, &v) != 0)
            return cli_usage(cmd, "--%s needs a size of 1 or more bytes (digits, then "
                                          "K, M, G or T for KiB..TiB), not '%s'",
                                     id == CLI_OPT_MAX_HEADER ? "max-header-bytes"
                                                              : "max-inflated",
                                     value);
        if (id == CLI_OPT_MAX_HEADER) {
            asked.have_header = 1;
            asked.header_bytes = v;
        } else {
            asked.have_inflated = 1;
            asked.inflated_bytes = v;
        }
        return EXIT_OK;
    }
}

void cli_input_limits(npydt_npz_options *o)
{
    /* the untrusted preset is the library's (README, "Limits") */
    if (asked.untrusted)
        npydt_npz_options_init_untrusted(o);
    else
        npydt_npz_options_init(o);
    if (asked.have_header)
        o->base.limits.max_header_bytes =
            asked.header_bytes < SIZE_MAX ? (size_t)asked.header_bytes : SIZE_MAX;
    if (asked.have_inflated)
        o->max_inflated_bytes = asked.inflated_bytes;
    o->no_mmap = cli_no_mmap();
}

void cli_reader_options(npydt_reader_options *o)
{
    npydt_npz_options limits;
    cli_input_limits(&limits);
    npydt_reader_options_init(o);
    o->base = limits.base;
    o->no_mmap = limits.no_mmap;
}

/* npydt check: validate files against an expected schema. */
#include "cli/check/check.h"
#include "cli/check/rules.h"
#include "cli/common/args.h"
#include "cli/common/dest.h"
#include "cli/common/file_tasks.h"
#include "cli/common/input.h"
#include "cli/common/jobs.h"
#include "cli/common/json.h"
#include "cli/common/limits.h"
#include "cli/common/report.h"
#include "cli/common/spec.h"

#include <stdlib.h>
#include <string.h>

enum {
    OPT_SCHEMA = 1, OPT_STRICT, OPT_SAFE_CAST, OPT_ALLOW_EXTRA, OPT_VERIFY, OPT_NO_VERIFY,
    OPT_JSON, OPT_RULES, OPT_MAX_UNIQUE, OPT_MAX_VALUES, OPT_JOBS
};

/* Which archive members are read whole (CRC-32) besides their headers. */
enum verify_mode { VERIFY_SMALL, VERIFY_ALL, VERIFY_NONE };
/* By default, members of at most this many bytes uncompressed (the
 * bytes a verification reads or inflates). */
#define VERIFY_SMALL_BYTES ((uint64_t)64 << 20)

static const struct cli_option check_options[] = {
    {OPT_SCHEMA, "schema", 0, "SPEC", "the expected dtype; @PATH or like:FILE take it from a file"},
    {OPT_RULES, "rules", 0, "RULES", "rules the values must keep (a dict literal); @PATH reads them"},
    {OPT_MAX_UNIQUE, "max-unique-bytes", 0, "SIZE",
     "memory one 'unique' rule may hold (K, M, G, T; default 256M)"},
    {OPT_MAX_VALUES, "max-values", 0, "N",
     "elements the 'values' lists may hold in all (default 65536)"},
    {OPT_STRICT, "strict", 0, NULL, "byte order must match too (by default it may differ)"},
    {OPT_SAFE_CAST, "safe-cast", 0, NULL,
     "each field must cast safely to the schema's type; offsets may differ"},
    {OPT_ALLOW_EXTRA, "allow-extra", 0, NULL, "the file may have fields the schema does not name"},
    {OPT_VERIFY, "verify", 0, NULL,
     "read every archive member whole: its CRC-32 (by default members up to 64 MiB)"},
    {OPT_NO_VERIFY, "no-verify", 0, NULL, "read archive members' headers only"},
    {OPT_JSON, "json", 0, NULL, "one JSON object per file on stdout"},
    {OPT_JOBS, "jobs", 'j', "N", "check N files at a time (default: one per processor)"},
};

static const struct cli_command check_command = {
    "check",
    "check [--schema SPEC [--strict|--safe-cast] [--allow-extra]] [--rules RULES]\n"
    "      [--verify|--no-verify] [--json] [-j N] FILE...",
    "Check that each .npy FILE matches SPEC, compiled once for all files, and\n"
    "that np.load can read it. FILE may also be ARCHIVE.npz (every member is\n"
    "checked) or ARCHIVE.npz:NAME (one member, NAME with or without .npy). SPEC is\n"
    "a descriptor literal as in a header (\"[('x', '<f8'), ('y', '<i4', (3,))]\",\n"
    "\"'<f8'\"), a type string (\"f8, (3,)i4, S5\"), or a header-like dict that may\n"
    "also constrain 'shape' (-1 matches any length) and 'fortran_order'.\n"
    "--schema @PATH reads SPEC from a file; when PATH is a .npy file (or an\n"
    "archive of one array) its header is the spec: its dtype, shape and order,\n"
    "as 'npydt schema PATH' prints them, the first dimension -1 (any length).\n"
    "--schema like:FILE does so for any FILE (ARCHIVE.npz:NAME, '-'\n"
    "included). --safe-cast is NumPy's can_cast(..., 'safe').\n"
    "\n"
    "The bytes are verified too. A .npy file must hold the data its header\n"
    "promises (it has no checksum: its size is compared); an archive member's\n"
    "declared size must hold it, and a member of at most 64 MiB (uncompressed)\n"
    "(any member with --verify, none with --no-verify) is read whole: its\n"
    "deflate stream and CRC-32, as np.load checks them. A failure is an\n"
    "invalid file (exit 3). Bytes after the data are allowed, as NumPy\n"
    "allows them: --json counts them in \"trailing_bytes\".\n"
    "\n"
    "With --json each file gets one line on stdout, whatever the exit status:\n"
    "{\"file\":...,\"match\":true|false,\"mismatches\":[{\"code\":...,\n"
    "\"path\":...,\"expected\":...,\"found\":...}],\"mismatches_total\":N,\n"
    "\"verified\":\"crc32\"|\"size\"|\"header\",\"trailing_bytes\":N}; a file\n"
    "that cannot be read or is not valid gets {\"file\":...,\"error\":{\"status\":\n"
    "...,\"message\":...,\"offset\":N|null}}; an archive member adds \"member\" (its\n"
    "name in the archive) after \"file\" (the archive's path). The list holds the\n"
    "first 1000 mismatches, \"mismatches_total\" counts them all.\n"
    "\n"
    "Each mismatch is one line on stderr, 'FILE: schema mismatch: WHERE: CODE:\n"
    "expected X, found Y', WHERE being 'field PATH', 'dtype' or 'array'; past\n"
    "1000, one line counts the rest. Names and values past 512 bytes are cut\n"
    "in the middle: '...(N bytes)...' stands for the whole N bytes. Exit 0\n"
    "when every file matches, 1 when one does not, 2 on usage errors (a\n"
    "malformed SPEC included) or unreadable paths, 3 when one is not a valid\n"
    ".npy file or archive; the highest of these over the files.\n"
    "\n"
    "Only headers (and verified members) are read. A .npy file on '-' (standard\n"
    "input) or a pipe is counted to its end, not held; an archive on a pipe is\n"
    "read whole into memory (at most 1 GiB). A progress line is shown on a\n"
    "terminal for 500 files or more (-q: none).\n"
    "\n"
    "-j N checks N files at a time (0 or none: one per processor, at most one\n"
    "per FILE); the output and the exit status are those of -j 1, in FILE\n"
    "order.\n"
    "\n"
    "--rules RULES checks the values too, reading every element once in C\n"
    "order: RULES is a dict literal keyed by field path, each value a dict of\n"
    "rules ({'t': {'nat': False, 'sorted': 'ascending'}, 'pos.x': {'min': -180.0,\n"
    "'max': 180.0, 'nan': False}, 'name': {'values': [b'alpha', b'beta']}}):\n"
    "min, max, exclusive_min, exclusive_max, nan, inf, nat, sorted ('ascending',\n"
    "'descending', 'strictly_ascending', 'strictly_descending'), unique, values,\n"
    "min_len, max_len, utf8, ascii. A subarray field's rules hold for each of\n"
    "its elements. Each failing rule is one line, 'FILE: rule failed: field\n"
    "PATH: RULE VALUE: N elements break it, first [I] V, ...' (I the element's\n"
    "index in C order, the first 5); --json adds \"rules\" to each object.\n"
    "A rule that breaks, or that names a field the file lacks or cannot apply\n"
    "to its type, is a mismatch (exit 1). At least one of --schema and --rules\n"
    "is required.\n",
    check_options, sizeof check_options / sizeof check_options[0], 1,
};

/* A value of a mismatch, "(none)" when the side has none. */
static void put_value(struct cli_line *l, const char *s, size_t len)
{
    if (len)
        cli_line_text(l, s, len);
    else
        cli_line_puts(l, "(none)");
}

static void print_mismatch(struct cli_dest *d, const char *file, const npydt_mismatch *m)
{
    struct cli_line l;
    cli_line_init(&l);
    cli_line_format(&l, "%s: schema mismatch: ", file);
    if (m->path_len) {
        cli_line_puts(&l, "field ");
        cli_line_text(&l, m->path, m->path_len);
        cli_line_puts(&l, ": ");
    } else if (m->code == NPYDT_MISMATCH_DIMENSION || m->code == NPYDT_MISMATCH_FORTRAN_ORDER) {
        cli_line_puts(&l, "array: ");
    } else {
        cli_line_puts(&l, "dtype: ");
    }
    cli_line_puts(&l, npydt_mismatch_code_name(m->code));
    cli_line_puts(&l, ": expected ");
    put_value(&l, m->expected, m->expected_len);
    cli_line_puts(&l, ", found ");
    put_value(&l, m->found, m->found_len);
    cli_line_end_to(d, &l);
}

/* {"file":...,["member":...,]"match":...,"mismatches":[...],
 * "mismatches_total":N,"verified":...,"trailing_bytes":N}: "file" is the
 * path as typed (the archive's for a member), "member" the member's name
 * as stored in the archive; "verified" what was verified of the bytes. */
static void json_result(FILE *out, const struct cli_input *in, const npydt_check_result *r,
                        const struct rules_run *run, int match, const char *verified,
                        uint64_t trailing)
{
    size_t n = npydt_check_result_count(r);
    fputs("{\"file\":", out);
    json_string(out, in->path);
    if (in->member) {
        fputs(",\"member\":", out);
        json_string(out, in->member);
    }
    fprintf(out, ",\"match\":%s,\"mismatches\":[", match ? "true" : "false");
    for (size_t i = 0; i < n; i++) {
        const npydt_mismatch *m = npydt_check_result_get(r, i);
        fputs(i ? ",{\"code\":" : "{\"code\":", out);
        json_string(out, npydt_mismatch_code_name(m->code));
        fputs(",\"path\":", out);
        json_string_n(out, m->path, m->path_len);
        fputs(",\"expected\":", out);
        json_string_n(out, m->expected, m->expected_len);
        fputs(",\"found\":", out);
        json_string_n(out, m->found, m->found_len);
        putc('}', out);
    }
    fprintf(out, "],\"mismatches_total\":%zu", npydt_check_result_total(r));
    if (run)
        check_rules_json(out, run);
    fprintf(out, ",\"verified\":\"%s\",\"trailing_bytes\":%llu}\n", verified,
            (unsigned long long)trailing);
}

/* What every check reads: set before the tasks start, read-only while
 * they run. */
struct check_run {
    const npydt_schema *schema;
    const struct check_rules *cr;
    unsigned flags;
    enum verify_mode mode;
    int json;
};

/* Check one array: a .npy file (through fd, its probe's descriptor, when
 * not -1), or an archive member; verify its bytes as mode says (a FILE's
 * size always: it costs nothing). Reports to d. */
static int check_input(struct cli_dest *d, const struct check_run *c, const struct cli_input *in,
                       int fd)
{
    int read_data = 0, json = c->json;
    if (in->npz) {
        const npydt_npz_member *m = npydt_npz_member_at(in->npz, in->index);
        read_data = c->mode == VERIFY_ALL ||
                    (c->mode == VERIFY_SMALL && m->uncompressed_size <= VERIFY_SMALL_BYTES);
    }
    npydt_header *h;
    npydt_verify_report report;
    npydt_error err;
    if (cli_input_verify_fd(in, fd, read_data, &h, &report, &err) != NPYDT_OK)
        return cli_report_input_to(d, in, &err, json);
    npydt_check_result *r = NULL;
    /* a match keeps no result: the mismatches are asked for when there are some */
    npydt_status st = c->schema ? npydt_check(c->schema, h, c->flags, NULL, &err) : NPYDT_OK;
    if (st == NPYDT_E_MISMATCH)
        st = npydt_check(c->schema, h, c->flags, &r, &err);
    npydt_header_free(h);
    if (st != NPYDT_OK && st != NPYDT_E_MISMATCH)
        return cli_report_input_to(d, in, &err, json);
    size_t n = npydt_check_result_count(r), total = npydt_check_result_total(r);
    for (size_t i = 0; i < n; i++)
        print_mismatch(d, in->name, npydt_check_result_get(r, i));
    if (total > n)
        cli_message_to(d, "%s: schema mismatch: %zu more mismatches not shown (%zu in all)",
                       in->name, total - n, total);
    int status = total ? EXIT_MISMATCH : EXIT_OK;
    struct rules_run run;
    if (c->cr) {
        int s = check_rules_input(d, c->cr, in, read_data, json, &run);
        if (s > EXIT_MISMATCH) {   /* reported, with its error object */
            npydt_check_result_free(r);
            return s;
        }
        if (s > status)
            status = s;
    }
    if (json)
        json_result(cli_dest_out(d), in, r, c->cr ? &run : NULL, status == EXIT_OK,
                    in->npz ? (read_data ? "crc32" : "header") : "size", report.trailing);
    if (c->cr)
        rules_run_free(&run);
    npydt_check_result_free(r);
    return status;
}

/* A worker's part of a task (file_tasks.h). */
static int check_one(const void *ctx, struct cli_file_task *t, const struct cli_input *in, int fd)
{
    return check_input(&t->dest, ctx, in, fd);
}

/* The schema of --schema SPEC into *out: 0, or the exit status of a
 * usage error after reporting it. */
static int compile_schema(const char *arg, npydt_schema **out)
{
    char *spec;
    size_t len;
    int status = cli_spec_text(&check_command, "--schema", arg, &spec, &len);
    if (status != EXIT_OK)
        return status;
    npydt_error err;
    npydt_status st = npydt_schema_compile(spec, len, NULL, out, &err);
    free(spec);
    if (st == NPYDT_E_NOMEM)
        return cli_failure("out of memory");
    if (st != NPYDT_OK) {
        char at[64] = "";
        if (err.offset != NPYDT_NO_OFFSET)
            snprintf(at, sizeof at, "spec offset %zu: ", err.offset);
        return cli_usage(&check_command, "--schema: %s%s%s%s%s", at, err.path[0] ? "field " : "",
                         err.path, err.path[0] ? ": " : "", err.message);
    }
    return EXIT_OK;
}

int cmd_check(int argc, char **argv)
{
    const char *spec_arg = NULL, *rules_arg = NULL;
    uint64_t max_unique = 0, max_values = 0;
    unsigned flags = NPYDT_CHECK_DEFAULT;
    int json = 0, status;
    enum verify_mode mode = VERIFY_SMALL;
    const char *mode_option = NULL;
    unsigned jobs = 0;
    struct cli_args args;
    cli_args_init(&args, &check_command, argc, argv);
    for (int opt; (opt = cli_args_next(&args)) != 0;) {
        switch (opt) {
        case OPT_SCHEMA:
            if (spec_arg)
                return cli_usage(&check_command, "--schema given twice");
            spec_arg = args.value;
            break;
        case OPT_RULES:
            if (rules_arg)
                return cli_usage(&check_command, "--rules given twice");
            rules_arg = args.value;
            break;
        case OPT_MAX_UNIQUE:
            if (cli_parse_bytes(args.value, &max_unique) != 0)
                return cli_usage(&check_command, "--max-unique-bytes takes a size (digits, then "
                                 "K, M, G or T for KiB..TiB), not '%s'", args.value);
            break;
        case OPT_MAX_VALUES:
            if (cli_parse_count(args.value, &max_values, 1) != 0 || max_values == 0 ||
                max_values > SIZE_MAX)
                return cli_usage(&check_command, "--max-values takes a count of at least 1, "
                                 "not '%s'", args.value);
            break;
        case OPT_STRICT:
            flags |= NPYDT_CHECK_STRICT;
            break;
        case OPT_SAFE_CAST:
            flags |= NPYDT_CHECK_SAFE_CAST;
            break;
        case OPT_ALLOW_EXTRA:
            flags |= NPYDT_CHECK_ALLOW_EXTRA;
            break;
        case OPT_VERIFY:
        case OPT_NO_VERIFY:
            if (mode_option && strcmp(mode_option, args.option->name) != 0)
                return cli_usage(&check_command, "--verify and --no-verify exclude each other");
            mode_option = args.option->name;
            mode = opt == OPT_VERIFY ? VERIFY_ALL : VERIFY_NONE;
            break;
        case OPT_JSON:
            json = 1;
            break;
        case OPT_JOBS:
            if ((status = cli_jobs_parse(&check_command, args.value, &jobs)) != EXIT_OK)
                return status;
            break;
        default:
            return args.status;
        }
    }
    if (!spec_arg && !rules_arg)
        return cli_usage(&check_command, "--schema SPEC or --rules RULES is required");
    if (max_unique && !rules_arg)
        return cli_usage(&check_command, "--max-unique-bytes is for --rules");
    if (max_values && !rules_arg)
        return cli_usage(&check_command, "--max-values is for --rules");
    if ((flags & NPYDT_CHECK_STRICT) && (flags & NPYDT_CHECK_SAFE_CAST))
        return cli_usage(&check_command, "--strict and --safe-cast exclude each other");
    status = cli_args_stdin(&args, 0, "FILE");
    if (status != EXIT_OK)
        return status;

    npydt_schema *schema = NULL;
    if (spec_arg && (status = compile_schema(spec_arg, &schema)) != EXIT_OK)
        return status;
    struct check_rules rules, *cr = NULL;
    if (rules_arg) {
        status = check_rules_prepare(&check_command, rules_arg, npydt_schema_dtype(schema),
                                     max_unique, (size_t)max_values, &rules);
        if (status != EXIT_OK) {
            npydt_schema_free(schema);
            return status;
        }
        cr = &rules;
    }
    struct check_run run = {schema, cr, flags, mode, json};
    struct cli_file_tasks ft = {.files = args.operands, .nfiles = (size_t)args.noperands,
                                .json = json, .hold = 1, .progress = "checking",
                                .one = check_one, .ctx = &run};
    status = cli_file_tasks_run(&ft, jobs, status);
    npydt_schema_free(schema);
    if (cr)
        check_rules_free(cr);
    return status;
}

/* npydt inspect: what a file holds, for people or as JSON. */
#include "cli/inspect/inspect.h"
#include "cli/common/args.h"
#include "cli/common/file_tasks.h"
#include "cli/common/input.h"
#include "cli/common/jobs.h"
#include "cli/common/json.h"
#include "cli/common/report.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_JSON = 1, OPT_LIST, OPT_JOBS };

static const struct cli_option inspect_options[] = {
    {OPT_JSON, "json", 0, NULL, "one JSON object per array, on one line"},
    {OPT_LIST, "list", 0, NULL, "one line per array: name, dtype, shape, order, data bytes"},
    {OPT_JOBS, "jobs", 'j', "N", "read N files at a time (default: one per processor)"},
};

static const struct cli_command inspect_command = {
    "inspect",
    "inspect [--json|--list] [-j N] FILE...",
    "Print the format version, shape, order, itemsize and the table of fields\n"
    "of each .npy FILE (titles as ('Title', 'name'), subarray fields as\n"
    "(2, 2)<f8, names aligned by terminal columns). FILE may also be\n"
    "ARCHIVE.npz (every member), ARCHIVE.npz:NAME (one member), or '-'\n"
    "(standard input), a FIFO or another pipe (a .npy file on it is read\n"
    "once and counted, an archive read into memory: at most 1 GiB). With\n"
    "--json, print one JSON object per array on one line (the contract in\n"
    "doc/cli-json.md), naming its input (\"file\", and \"archive\" and\n"
    "\"member\" for a member) and giving its descriptor as np.save writes it\n"
    "(\"descr\", usable as check --schema SPEC).\n"
    "\n"
    "With --list, print one line per array, its fields separated by tabs:\n"
    "the name (FILE, or ARCHIVE.npz:MEMBER as dump takes it; control\n"
    "characters escaped), the descriptor, the shape, C or F (Fortran order)\n"
    "and the size of the data in bytes. 'npydt inspect --list ARCHIVE.npz'\n"
    "lists an archive's members.\n"
    "\n"
    "Each array that can be read is printed, each that cannot gets one line\n"
    "'PATH: WHAT: DETAIL' on stderr, and with --json also its object\n"
    "{\"file\":...,\"error\":{\"status\":...,\"message\":...,\"offset\":N|null}}.\n"
    "Exit status, the highest over the arrays: 0 valid, 2 usage error,\n"
    "unreadable path or out of memory, 3 not a valid .npy file or archive.\n"
    "\n"
    "-j N reads N files at a time (0 or none: one per processor, at most one\n"
    "per FILE); the output and the exit status are those of -j 1, in FILE\n"
    "order.\n",
    inspect_options, sizeof inspect_options / sizeof inspect_options[0], 1,
};

/* The descriptor literal np.save writes, malloc'd; NULL when out of
 * memory. */
static char *descr_text(const npydt_dtype *dt)
{
    size_t need = npydt_dtype_descr(dt, NULL, 0);
    char *text = need < SIZE_MAX ? malloc(need + 1) : NULL;
    if (text)
        npydt_dtype_descr(dt, text, need + 1);
    return text;
}

/* One object per array. "file" is the path as typed (the archive's for a
 * member, as in check --json), "archive" and "member" say which member,
 * and "descr" gives the descriptor back, usable as a check --schema SPEC.
 * 1 when out of memory (nothing printed). */
static int print_json(FILE *out, const struct cli_input *in, const npydt_header *h)
{
    char *descr = descr_text(npydt_header_dtype(h));
    if (!descr)
        return 1;
    cli_json_input_head(out, in);
    fputs(",\"descr\":", out);
    json_string(out, descr);
    putc(',', out);
    free(descr);
    fprintf(out, "\"format_version\":[%d,%d],\"header_len\":%lu,\"data_offset\":%llu,",
            npydt_header_version_major(h), npydt_header_version_minor(h),
            (unsigned long)npydt_header_len(h),
            (unsigned long long)npydt_header_data_offset(h));
    fprintf(out, "\"fortran_order\":%s,\"shape\":[",
            npydt_header_fortran_order(h) ? "true" : "false");
    const uint64_t *shape = npydt_header_shape(h);
    for (size_t i = 0; i < npydt_header_ndim(h); i++)
        fprintf(out, "%s%llu", i ? "," : "", (unsigned long long)shape[i]);
    fprintf(out, "],\"count\":%llu,\"data_bytes\":%llu,\"dtype\":",
            (unsigned long long)npydt_header_count(h),
            (unsigned long long)npydt_header_data_bytes(h));
    json_dtype(out, npydt_header_dtype(h));
    fputs("}\n", out);
    return 0;
}

/* The text block of one array, whole or not at all: its table is laid
 * out before anything is printed. 1 when out of memory (nothing
 * printed). */
static int print_text(FILE *out, const char *path, const npydt_header *h)
{
    const npydt_dtype *dt = npydt_header_dtype(h);
    struct inspect_table *table = NULL;
    if (npydt_dtype_get_class(dt) != NPYDT_SCALAR && inspect_table_prepare(dt, &table) != 0)
        return 1;
    struct text_buf shape = text_buf_growing(text_libc_realloc, NULL, 0);
    text_shape_tuple(&shape, npydt_header_shape(h), npydt_header_ndim(h));
    if (shape.failed) {
        inspect_table_free(table);
        return 1;
    }
    cli_put_text_n(out, path, strlen(path));   /* a member's name may hold controls */
    putc('\n', out);
    fprintf(out, "  format     %d.%d (header %lu bytes, data at offset %llu)\n",
            npydt_header_version_major(h), npydt_header_version_minor(h),
            (unsigned long)npydt_header_len(h), (unsigned long long)npydt_header_data_offset(h));
    fputs("  shape      ", out);
    fwrite(shape.buf, 1, shape.len, out);
    text_buf_free(&shape);
    fprintf(out, ", %s order, %llu elements, %llu data bytes\n",
            npydt_header_fortran_order(h) ? "Fortran" : "C",
            (unsigned long long)npydt_header_count(h),
            (unsigned long long)npydt_header_data_bytes(h));
    /* at most 159 bytes of the descriptor, cut before a whole character
     * (the bytes after the cut tell where characters start) */
    size_t need = npydt_dtype_descr(dt, NULL, 0), shown = need;
    char small[160 + 3];
    npydt_dtype_descr(dt, small, sizeof small);
    if (need > 159)
        for (shown = 159; shown > 0 && ((unsigned char)small[shown] & 0xC0) == 0x80; shown--)
            ;
    fprintf(out, "  dtype      %.*s%s\n", (int)shown, small, need > 159 ? "..." : "");
    fprintf(out, "  itemsize   %zu\n", npydt_dtype_itemsize(dt));
    if (table)
        inspect_table_print(out, table);
    inspect_table_free(table);
    return 0;
}

/* One line of --list: NAME, DESCR, SHAPE, C|F and the data bytes,
 * separated by tabs. 1 when out of memory (nothing printed). */
static int print_line(FILE *out, const char *name, const npydt_header *h)
{
    char *descr = descr_text(npydt_header_dtype(h));
    struct text_buf shape = text_buf_growing(text_libc_realloc, NULL, 0);
    text_shape_tuple(&shape, npydt_header_shape(h), npydt_header_ndim(h));
    if (!descr || shape.failed) {
        free(descr);
        text_buf_free(&shape);
        return 1;
    }
    cli_put_text_n(out, name, strlen(name));
    fprintf(out, "\t%s\t%.*s\t%s\t%llu\n", descr, (int)shape.len, shape.buf,
            npydt_header_fortran_order(h) ? "F" : "C",
            (unsigned long long)npydt_header_data_bytes(h));
    free(descr);
    text_buf_free(&shape);
    return 0;
}

/* Print one array to d. The exit status. */
static int print_one(struct cli_dest *d, const struct cli_input *in, const npydt_header *h,
                     int json)
{
    FILE *out = cli_dest_out(d);
    if ((json == 2 ? print_line(out, in->name, h)
         : json ? print_json(out, in, h) : print_text(out, in->name, h)) == 0)
        return EXIT_OK;
    npydt_error err;
    cli_error(&err, NPYDT_E_NOMEM, "%s", "out of memory");
    return cli_report_input_to(d, in, &err, json == OPT_JSON);
}

/* A worker's part of a task (file_tasks.h): one array, its header read
 * through fd when not -1. */
static int inspect_one(const void *ctx, struct cli_file_task *t, const struct cli_input *in,
                       int fd)
{
    int json = *(const int *)ctx;
    npydt_header *h;
    npydt_error err;
    npydt_verify_report report;
    if (cli_input_verify_fd(in, fd, 0, &h, &report, &err) != NPYDT_OK)
        return cli_report_input_to(&t->dest, in, &err, json == OPT_JSON);
    int s = print_one(&t->dest, in, h, json);
    npydt_header_free(h);
    return s;
}

int cmd_inspect(int argc, char **argv)
{
    int json = 0, status = EXIT_OK;
    unsigned jobs = 0;
    struct cli_args args;
    cli_args_init(&args, &inspect_command, argc, argv);
    for (int opt; (opt = cli_args_next(&args)) != 0;) {
        if (opt < 0)
            return args.status;
        if (opt == OPT_JOBS) {
            if ((status = cli_jobs_parse(&inspect_command, args.value, &jobs)) != EXIT_OK)
                return status;
            continue;
        }
        if (json && json != opt)
            return cli_usage(&inspect_command, "--json and --list exclude each other");
        json = opt;   /* 1 for --json, 2 for --list */
    }
    status = cli_args_stdin(&args, 0, "FILE");
    if (status != EXIT_OK)
        return status;
    /* each array that can be read is printed, in argument order, and each
     * that cannot gets its error line: the status is the highest (the
     * contract); a single .npy FILE that cannot be read prints nothing */
    struct cli_file_tasks ft = {.files = args.operands, .nfiles = (size_t)args.noperands,
                                .json = json == OPT_JSON, .hold = 1, .progress = "inspecting",
                                .one = inspect_one, .ctx = &json};
    return cli_file_tasks_run(&ft, jobs, status);
}

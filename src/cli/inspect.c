/* npydt inspect: what a file holds, for people or as JSON. */
#include "cli.h"

#include <stdlib.h>

enum { OPT_JSON = 1 };

static const struct cli_option inspect_options[] = {
    {OPT_JSON, "json", 0, NULL, "one JSON object per array, on one line"},
};

static const struct cli_command inspect_command = {
    "inspect",
    "inspect [--json] FILE...",
    "Print the format version, shape, order, itemsize and the table of fields\n"
    "of each .npy FILE. FILE may also be ARCHIVE.npz (every member) or\n"
    "ARCHIVE.npz:NAME (one member). With --json, print one JSON object per\n"
    "array on one line (the contract in cli-json.md; archive members add\n"
    "\"member\"). Exit 0 when every file is valid, 1 when one is not a valid\n"
    ".npy file or archive, 2 on usage errors or unreadable paths.\n",
    inspect_options, sizeof inspect_options / sizeof inspect_options[0],
};

static void print_json(FILE *out, const struct cli_input *in, const npydt_header *h)
{
    putc('{', out);
    if (in->member) {
        fputs("\"member\":", out);
        json_string(out, in->member);
        putc(',', out);
    }
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
}

static void print_shape(FILE *out, const uint64_t *shape, size_t ndim)
{
    putc('(', out);
    for (size_t i = 0; i < ndim; i++)
        fprintf(out, "%s%llu", i ? ", " : "", (unsigned long long)shape[i]);
    if (ndim == 1)
        putc(',', out);
    putc(')', out);
}

static void print_text(FILE *out, const char *path, const npydt_header *h)
{
    const npydt_dtype *dt = npydt_header_dtype(h);
    fprintf(out, "%s\n", path);
    fprintf(out, "  format     %d.%d (header %lu bytes, data at offset %llu)\n",
            npydt_header_version_major(h), npydt_header_version_minor(h),
            (unsigned long)npydt_header_len(h), (unsigned long long)npydt_header_data_offset(h));
    fputs("  shape      ", out);
    print_shape(out, npydt_header_shape(h), npydt_header_ndim(h));
    fprintf(out, ", %s order, %llu elements, %llu data bytes\n",
            npydt_header_fortran_order(h) ? "Fortran" : "C",
            (unsigned long long)npydt_header_count(h),
            (unsigned long long)npydt_header_data_bytes(h));
    size_t need = npydt_dtype_descr(dt, NULL, 0);
    char small[160];
    npydt_dtype_descr(dt, small, sizeof small);
    fprintf(out, "  dtype      %s%s\n", small, need >= sizeof small ? "..." : "");
    fprintf(out, "  itemsize   %zu\n", npydt_dtype_itemsize(dt));
    size_t n;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &n);
    if (npydt_dtype_get_class(dt) == NPYDT_SCALAR)
        return;
    fprintf(out, "  %-24s %8s  %-12s %5s  %s\n", "field", "offset", "type", "order", "elements");
    for (size_t i = 0; i < n; i++) {
        const npydt_leaf *l = &leaves[i];
        char str[64];
        npydt_dtype_str(l->dtype, str, sizeof str);
        /* the path's bytes as they are (a NUL in a name too), padded like
         * %-24s */
        const char *lpath = l->path_len ? l->path : "''";
        size_t plen = l->path_len ? l->path_len : 2;
        fputs("  ", out);
        fwrite(lpath, 1, plen, out);
        fprintf(out, "%*s %8llu  %-12s %5c  %llu", plen < 24 ? (int)(24 - plen) : 0, "",
                (unsigned long long)l->offset, str, l->byteorder, (unsigned long long)l->count);
        for (uint32_t k = 0; k < l->nrepeats; k++)
            fprintf(out, "%s%llux%lluB", k ? " " : "  [", (unsigned long long)l->repeats[k].count,
                    (unsigned long long)l->repeats[k].stride);
        fputs(l->nrepeats ? "]\n" : "\n", out);
    }
}

int cmd_inspect(int argc, char **argv)
{
    int json = 0, status = EXIT_OK;
    struct cli_args args;
    cli_args_init(&args, &inspect_command, argc, argv);
    for (int opt; (opt = cli_args_next(&args)) != 0;) {
        if (opt < 0)
            return args.status;
        if (opt == OPT_JSON)
            json = 1;
    }
    if (args.noperands == 0) {
        cli_usage_error("inspect: no FILE given");
        cli_try_help(&inspect_command);
        return EXIT_USAGE;
    }
    /* every input is read before anything is printed: on status 1 or 2
     * nothing goes to stdout (the contract), whatever the order of inputs */
    struct cli_inputs inputs;
    cli_inputs_init(&inputs, NULL);
    for (int i = 0; i < args.noperands; i++) {
        int s = cli_inputs_add(&inputs, args.operands[i]);
        if (s > status)
            status = s;
    }
    npydt_header **headers = calloc(inputs.count ? inputs.count : 1, sizeof *headers);
    if (!headers) {
        cli_inputs_free(&inputs);
        return cli_usage_error("out of memory");
    }
    for (size_t k = 0; k < inputs.count; k++) {
        npydt_error err;
        if (cli_input_header(&inputs.items[k], &headers[k], &err) != NPYDT_OK) {
            int s = cli_report(inputs.items[k].name, &err);
            if (s > status)
                status = s;
        }
    }
    for (size_t k = 0; k < inputs.count && status == EXIT_OK; k++) {
        if (json)
            print_json(stdout, &inputs.items[k], headers[k]);
        else
            print_text(stdout, inputs.items[k].name, headers[k]);
    }
    for (size_t k = 0; k < inputs.count; k++)
        npydt_header_free(headers[k]);
    free(headers);
    cli_inputs_free(&inputs);
    return status;
}

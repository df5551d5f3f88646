/* npydt stats: options, inputs, and the one pass that feeds each array's
 * elements in C order to the library's accumulator (npydt_stats). The
 * elements dump would select (--head, --tail, --index, --range) are
 * chosen by dump's selection (cli/dump/dump.h). */
#include "cli/stats/stats.h"
#include "cli/common/args.h"
#include "cli/common/file_tasks.h"
#include "cli/common/jobs.h"
#include "cli/common/report.h"
#include "cli/dump/dump.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_JSON = 1, OPT_FIELDS, OPT_PER_ELEMENT, OPT_HEAD, OPT_TAIL, OPT_INDEX, OPT_RANGE, OPT_JOBS };

static const struct cli_option stats_options[] = {
    {OPT_JSON, "json", 0, NULL, "one JSON object per array on stdout"},
    {OPT_FIELDS, "fields", 0, "A,B.C", "only the leaves at or below these field paths"},
    {OPT_PER_ELEMENT, "per-element", 0, NULL,
     "each element of a subarray field its own column (default: pooled)"},
    {OPT_HEAD, "head", 0, "N", "the first N elements (of those selected) only"},
    {OPT_TAIL, "tail", 0, "N", "select the last N elements"},
    {OPT_INDEX, "index", 0, "I[,J..]", "select a[I,J,..] (negative from the end)"},
    {OPT_RANGE, "range", 0, "A:B[:S]", "select a[A:B:S] along the first axis"},
    {OPT_JOBS, "jobs", 'j', "N", "read N files at a time (default: one per processor)"},
};

const struct cli_command stats_command = {
    "stats",
    "stats [--json] [--fields A,B.C] [--per-element] [--head N] [--tail N|--index I,J|--range A:B:S]\n"
    "      [-j N] FILE...",
    "Statistics of the values of each .npy FILE, per leaf field (pos.x, name),\n"
    "in one pass over the data in C order with memory that does not grow with\n"
    "it: the count; for numbers min, max, mean and standard deviation (NaN\n"
    "skipped, as np.nanmin, np.nanmax, np.nanmean, np.nanstd; integers exact),\n"
    "the numbers of NaN, infinities and zeros; for datetime64 min and max as\n"
    "ISO text and the NaT count; for bytes and strings the shortest and\n"
    "longest length and an estimate of the distinct values (about 1.6 %\n"
    "standard error); and whether the values are sorted (ascending,\n"
    "descending, strictly; NaN and NaT skipped). Complex fields get a row per\n"
    "part (real, imag). The elements of a subarray field are pooled into one\n"
    "row, or with --per-element one row each (m[0,1]).\n"
    "\n"
    "--fields takes field paths (names joined by '.', no indices): each selects\n"
    "the leaves at or below it. --head, --tail, --index and --range select\n"
    "elements as dump does.\n"
    "\n"
    "With --json each array gets one line on stdout (doc/cli-json.md), an\n"
    "input that cannot be read an error object. FILE may be ARCHIVE.npz (every\n"
    "member) or ARCHIVE.npz:NAME, '-' (standard input) or a pipe, read whole\n"
    "into memory first (at most 1 GiB). Exit status: 0 success, 2 usage or an\n"
    "unreadable path, 3 an invalid file or an object array.\n"
    "\n"
    "-j N reads N files at a time (0 or none: one per processor, at most one\n"
    "per FILE); the output and the exit status are those of -j 1, in FILE\n"
    "order.\n",
    stats_options, sizeof stats_options / sizeof stats_options[0], 1,
};

struct stats_opts {
    int json;
    npydt_stats_options lib;
    struct select_args select;
    int have_head;
    uint64_t head;
};

/* The comma-separated paths of spec as an array of strings in one block
 * (*storage), or -1 out of memory. */
static int split_fields(const char *spec, const char ***paths, size_t *n, char **storage)
{
    size_t count = 1, len = strlen(spec);
    for (const char *p = spec; *p; p++)
        count += *p == ',';
    char *copy = malloc(len + 1);
    const char **v = malloc(count * sizeof *v);
    if (!copy || !v) {
        free(copy);
        free(v);
        return -1;
    }
    memcpy(copy, spec, len + 1);
    size_t k = 0;
    for (char *p = copy;;) {
        v[k++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    *paths = v;
    *n = k;
    *storage = copy;
    return 0;
}

/* Feed the selected elements of src to s; *seen counts them. */
static npydt_status feed(npydt_reader *src, const struct stats_opts *o, const npydt_header *h,
                         npydt_stats *s, const struct selection *sl, int whole, uint64_t *seen,
                         npydt_error *err)
{
    size_t itemsize = npydt_dtype_itemsize(npydt_header_dtype(h));
    npydt_status st;
    *seen = 0;
    if (whole) {
        /* batches of about 8 MiB, pages of a mapped file given back behind */
        uint64_t batch = itemsize ? ((uint64_t)8 << 20) / itemsize : UINT64_MAX;
        struct cli_behind behind;
        cli_behind_start(&behind, npydt_header_fortran_order(h) ? NULL : src);
        for (uint64_t left = sl->total; left > 0;) {
            const void *b;
            uint64_t n;
            uint64_t max = batch ? (batch < left ? batch : left) : 1;
            if ((st = npydt_reader_next_c(src, max, &b, &n, err)) != NPYDT_OK)
                return st;
            if (n == 0)
                break;
            cli_behind(&behind, b);
            if ((st = npydt_stats_add(s, b, n, err)) != NPYDT_OK)
                return st;
            *seen += n;
            left -= n;
        }
        return NPYDT_OK;
    }
    (void)o;
    /* a selection: element by element, runs of neighbours at once where
     * the bytes are in place */
    struct cursor cur;
    cursor_init(&cur, src, selection_end(sl));
    cursor_select(&cur, sl);
    int in_place = cur.bytes != NULL;   /* not a batch the next read replaces */
    const unsigned char *run = NULL;
    uint64_t run_n = 0;
    for (uint64_t i = 0; i < sl->total; i++) {
        const unsigned char *rec = cursor_get(&cur, selection_flat(sl, i), err);
        if (!rec)
            return err->code;
        if (in_place && run && rec == run + run_n * itemsize) {
            run_n++;
            continue;
        }
        if (run && (st = npydt_stats_add(s, run, run_n, err)) != NPYDT_OK)
            return st;
        run = rec;
        run_n = 1;
        if (!in_place) {
            if ((st = npydt_stats_add(s, run, 1, err)) != NPYDT_OK)
                return st;
            run = NULL;
        }
    }
    if (run && (st = npydt_stats_add(s, run, run_n, err)) != NPYDT_OK)
        return st;
    *seen = sl->total;
    return NPYDT_OK;
}

/* One array: read, summed up, printed to t's destination (a table after
 * a blank line: one block of file_tasks.h). Returns an exit status. A
 * worker's part of a task. */
static int stats_one(const void *ctx, struct cli_file_task *t, const struct cli_input *in, int fd)
{
    const struct stats_opts *o = ctx;
    struct cli_dest *d = &t->dest;
    npydt_reader *src;
    npydt_error err;
    (void)fd;   /* the reader opens the path itself */
    if (cli_input_reader(in, 0, &src, &err) != NPYDT_OK) {
        if (err.code == NPYDT_E_OBJECT)
            cli_error(&err, NPYDT_E_OBJECT, "%s",
                      "object arrays hold pickled Python objects and have no statistics");
        return cli_report_input_to(d, in, &err, o->json);
    }
    const npydt_header *h = npydt_reader_header(src);
    struct selection sl;
    int status = dump_select_to(d, in->name, h, &o->select, o->have_head, o->head, &sl);
    npydt_stats *s = NULL;
    if (status != EXIT_OK)
        goto out;
    int whole = !o->select.index && !o->select.range && !o->select.tail;
    uint64_t seen = 0;
    npydt_status st = npydt_stats_new(npydt_header_dtype(h), &o->lib, &s, &err);
    if (st == NPYDT_OK)
        st = feed(src, o, h, s, &sl, whole, &seen, &err);
    if (st != NPYDT_OK) {
        status = st == NPYDT_E_NOMEM ? cli_failure_to(d, "out of memory")
                                     : cli_report_input_to(d, in, &err, o->json);
        goto out;
    }
    size_t printed = cli_file_task_blank(t);   /* 1: after a blank line */
    int r = o->json ? stats_print_json(cli_dest_out(d), in, h, seen, s)
                    : stats_print_table(cli_dest_out(d), in, h, seen, s, &printed);
    if (r != 0)
        status = cli_failure_to(d, "out of memory");
    else if (!o->json)
        t->blocks++;
out:
    npydt_stats_free(s);
    npydt_reader_close(src);
    return status;
}

int cmd_stats(int argc, char **argv)
{
    struct stats_opts o = {0};
    npydt_stats_options_init(&o.lib);
    const char *fields = NULL;
    unsigned jobs = 0;
    int status;
    struct cli_args args;
    cli_args_init(&args, &stats_command, argc, argv);
    for (int opt; (opt = cli_args_next(&args)) != 0;) {
        switch (opt) {
        case OPT_JSON: o.json = 1; break;
        case OPT_FIELDS: fields = args.value; break;
        case OPT_PER_ELEMENT: o.lib.per_element = 1; break;
        case OPT_HEAD:
            if (cli_parse_count(args.value, &o.head, 0) != 0)
                return cli_usage(&stats_command, "--head: not a count: '%s'", args.value);
            o.have_head = 1;
            break;
        case OPT_TAIL: o.select.tail = args.value; break;
        case OPT_INDEX: o.select.index = args.value; break;
        case OPT_RANGE: o.select.range = args.value; break;
        case OPT_JOBS:
            if ((status = cli_jobs_parse(&stats_command, args.value, &jobs)) != EXIT_OK)
                return status;
            break;
        default: return args.status;
        }
    }
    if (!!o.select.tail + !!o.select.index + !!o.select.range > 1)
        return cli_usage(&stats_command, "--tail, --index and --range exclude each other");
    status = cli_args_stdin(&args, 0, "FILE");
    if (status != EXIT_OK)
        return status;
    char *storage = NULL;
    const char **paths = NULL;
    if (fields && split_fields(fields, &paths, &o.lib.nfields, &storage) != 0)
        return cli_failure("out of memory");
    o.lib.fields = paths;
    struct cli_file_tasks ft = {.files = args.operands, .nfiles = (size_t)args.noperands,
                                .json = o.json, .one = stats_one, .ctx = &o};
    status = cli_file_tasks_run(&ft, jobs, status);
    free(paths);
    free(storage);
    return status;
}

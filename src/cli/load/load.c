/* npydt load and npydt append: records from JSON Lines, CSV or TSV into
 * a new .npy file, or appended to an existing one.
 *
 * Every record goes through npydt_writer as soon as it is read, written
 * once: load into a temporary file beside OUT (np.save's header for an
 * empty array, whose growth axis has room for any count), renamed over OUT
 * at the end; append after the records FILE.npy holds. The header counts
 * them only at the close, once the whole input was good and the records
 * are durable; a bad line discards the writer instead, which leaves no
 * output file (load) or the file as it was (append). Errors are reported
 * in the order they were when the input was read whole first: the input's,
 * then the command line's and the count's, then the destination's. */
#include "cli/load/load.h"
#include "cli/common/args.h"
#include "cli/common/input.h"
#include "cli/common/jobs.h"
#include "cli/common/output.h"
#include "cli/common/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
    OPT_DTYPE = 1, OPT_SHAPE, OPT_FORTRAN, OPT_OUTPUT, OPT_JSONL, OPT_CSV, OPT_TSV, OPT_NO_SYNC,
    OPT_ARROW, OPT_STRING_WIDTH, OPT_NULLS_AS_ZERO, OPT_JOBS
};

#define FORMAT_OPTIONS                                                                        \
    {OPT_JSONL, "jsonl", 0, NULL, "the input is JSON Lines (the default)"},                   \
        {OPT_CSV, "csv", 0, NULL, "the input is CSV with a header row of field paths"},       \
        {OPT_TSV, "tsv", 0, NULL, "the input is TSV with a header row of field paths"},     \
        {OPT_ARROW, "arrow", 0, NULL, "the input is an Arrow IPC stream (as dump --arrow writes)"}, \
        {OPT_STRING_WIDTH, "string-width", 0, "N",                                            \
         "--arrow: variable-length text as U<N>, bytes as S<N> (default: refused)"},          \
        {OPT_NULLS_AS_ZERO, "nulls-as-zero", 0, NULL,                                         \
         "--arrow: a null (outside M8, m8: NaT) as zeros (default: refused)"},               \
        {OPT_NO_SYNC, "no-sync", 0, NULL,                                                     \
         "skip fsync (as np.save): safe from a killed process, not from a power cut"},        \
        {OPT_JOBS, "jobs", 'j', "N",                                                          \
         "read with N threads (default: one a processor; --arrow: two at most)"}

static const struct cli_option load_options[] = {
    {OPT_DTYPE, "dtype", 0, "SPEC", "the records' dtype (required but with --arrow): as check --schema takes it, "
                                    "or @FILE.npy / like:FILE"},
    {OPT_SHAPE, "shape", 0, "DIMS", "the other dimensions, as 3,4 (default: none, 1-d); () for 0-d"},
    {OPT_FORTRAN, "fortran", 0, NULL, "write Fortran order, growing along the last axis"},
    {OPT_OUTPUT, "output", 'o', "OUT", "the .npy file to write (required)"},
    FORMAT_OPTIONS,
};

#define LOAD_INPUT_HELP                                                                       \
    "Input (FILE, or standard input for - or none): JSON Lines as dump --jsonl\n"             \
    "writes them, one element per line: a struct as an object keyed by field\n"              \
    "names (nested objects) or by field paths (\"pos.x\", \"samples[2]\"), or as a\n"         \
    "list of its fields' values in field order; a subarray as nested lists;\n"                \
    "complex as [re, im]; S as a string whose \\u0000-\\u00ff escapes are bytes;\n"           \
    "V as hex; M and m as integer counts or \"NaT\"; floats as numbers or\n"                  \
    "\"nan\", \"inf\", \"-inf\"; null as NaN or NaT. Or CSV / TSV (--csv, --tsv,\n"            \
    "or a .csv / .tsv name) as dump --csv / --tsv writes them: a header row of\n"            \
    "field paths (subarray elements as name[i] or name[i,j]), a row per element.\n"          \
    "Every value must fit its field exactly (300 does not fit u1, 2.5 no integer):\n"       \
    "the first that does not is reported as INPUT:LINE: WHAT: field PATH: VALUE..\n"        \
    "(exit 3), and nothing is written. Or an Arrow IPC stream (--arrow), its\n"      \
    "dtype the schema's unless --dtype gives one the columns fit; errors name the\n"    \
    "row and column, or the stream offset of bytes that are not Arrow (exit 3).\n"

static const struct cli_command load_command = {
    "load",
    "load --dtype SPEC [--shape DIMS] [--fortran] [--jsonl|--csv|--tsv] [-j N] -o OUT [FILE|-]\n"
    "load --arrow [--dtype SPEC] [--string-width N] [--nulls-as-zero] [-j N] -o OUT [FILE|-]",
    "Write the .npy file OUT holding the elements read from FILE, with the\n"
    "header np.save writes for them. The array grows along its first axis (the\n"
    "last with --fortran), one element per input line; --shape gives the other\n"
    "dimensions, whose product of elements makes one step of the growth axis.\n"
    "A @FILE.npy or like:FILE spec takes the dtype, the other dimensions and the\n"
    "order from that file: dump --jsonl F | load --dtype @F -o G rewrites F.\n"
    "OUT is written through a temporary file renamed over it at the end.\n"
    "\n" LOAD_INPUT_HELP,
    load_options, sizeof load_options / sizeof load_options[0], 1,
};

static const struct cli_option append_options[] = {FORMAT_OPTIONS};

static const struct cli_command append_command = {
    "append",
    "append FILE.npy [--jsonl|--csv|--tsv|--arrow] [-j N] [INPUT|-]",
    "Append the elements read from INPUT to FILE.npy along its growth axis (the\n"
    "first, or the last for Fortran order), through npydt's writer: the records\n"
    "are written and made durable first, and only then counted by the header,\n"
    "so that FILE.npy is a file NumPy loads at every instant. A bad line in the\n"
    "input cuts the new records off again: FILE.npy is left as it was.\n"
    "\n" LOAD_INPUT_HELP,
    append_options, sizeof append_options / sizeof append_options[0], 0,
};

/* ---- the input ----------------------------------------------------------------- */

enum load_format load_format_of(const char *path)
{
    size_t n = strlen(path);
    if (n >= 4 && strcmp(path + n - 4, ".csv") == 0)
        return LOAD_CSV;
    if (n >= 4 && (strcmp(path + n - 4, ".tsv") == 0 || strcmp(path + n - 4, ".tab") == 0))
        return LOAD_TSV;
    return LOAD_JSONL;
}

struct load_input {
    const char *name;   /* in messages */
    enum load_format fmt;
    unsigned jobs;      /* -j: 0 for one a processor */
    FILE *in;
    struct load_record rec;
};

/* Open the input named arg for records of dt. 0, or the exit status
 * after the error is reported (nothing then to close). */
static int input_open(struct load_input *in, const char *arg, int format, unsigned jobs,
                      const npydt_dtype *dt)
{
    in->jobs = jobs;
    in->name = arg && strcmp(arg, "-") != 0 ? arg : "<stdin>";
    in->fmt = format >= 0 ? (enum load_format)format
              : arg       ? load_format_of(arg)
                          : LOAD_JSONL;
    npydt_error err;
    if (load_record_init(&in->rec, dt, &err) != NPYDT_OK)
        return cli_report(in->name, &err);
    in->in = in->name == arg ? fopen(arg, "rb") : stdin;
    if (!in->in) {
        load_record_free(&in->rec);
        return cli_fail(arg, NPYDT_E_IO, "cannot open: %s", TEXT_ERRNO(errno));
    }
    return EXIT_OK;
}

/* Read every record into d, each checked against the dtype. 0, or the
 * exit status after the error is reported: a bad line at its line, a
 * failure of the destination under its name out. */
static int input_read(struct load_input *in, struct load_dest *d, const char *out)
{
    npydt_error err;
    struct load_where where = {0};
    struct load_sink sink = {load_dest_record, d, load_dest_records};
    npydt_status st = load_text_jobs(in->in, in->fmt, in->jobs, 0, &in->rec, &sink, &where, &err);
    if (st == NPYDT_OK)
        return EXIT_OK;
    if (d->failed != NPYDT_OK)
        return cli_report(out, &d->err);
    char at[4200];
    snprintf(at, sizeof at, "%s:%llu", in->name, (unsigned long long)where.line);
    return cli_report(where.line ? at : in->name, &err);
}

static void input_close(struct load_input *in)
{
    if (in->in != stdin)
        fclose(in->in);
    load_record_free(&in->rec);
}

/* ---- the array's shape ----------------------------------------------------------- */

/* Records per step of the growth axis: the product of the nother other
 * dimensions; 0 when it overflows. */
static int row_of(const uint64_t *other, size_t nother, uint64_t *row)
{
    uint64_t r = 1;
    for (size_t k = 0; k < nother; k++) {
        if (other[k] && r > UINT64_MAX / other[k])
            return 0;
        r *= other[k];
    }
    *row = r;
    return 1;
}

/* Records per step of the growth axis; refuses a count that is not whole
 * steps. */
static int whole_rows(const char *out, const uint64_t *other, size_t nother, uint64_t count,
                      uint64_t *row)
{
    if (!row_of(other, nother, row))
        return cli_fail(out, NPYDT_E_OVERFLOW, "the dimensions' product overflows");
    uint64_t r = *row;
    if (r == 0 ? count != 0 : count % r != 0)
        return cli_fail(out, NPYDT_E_SHAPE,
                        "%llu elements do not fill whole steps of %llu along the growth axis",
                        (unsigned long long)count, (unsigned long long)r);
    return EXIT_OK;
}

/* The records the writer takes for an array whose steps hold row records
 * (the rest are only counted, and the count refused). */
static uint64_t records_taken(int zero_d, uint64_t row)
{
    return zero_d ? 1 : row == 0 ? 0 : UINT64_MAX;
}

/* "3,4" (or "(3, 4)", "()"): the dimensions other than the growth axis;
 * *zero_d for "()". NULL, or what is wrong with the text. */
static const char *parse_shape(const char *text, uint64_t *dims, size_t *n, int *zero_d)
{
    const char *p = text;
    *n = 0;
    *zero_d = 0;
    while (*p == ' ' || *p == '(')
        p++;
    if (strchr(text, '(') && *p == ')') {
        *zero_d = 1;
        return NULL;
    }
    while (*p && *p != ')') {
        char *end;
        if (*p < '0' || *p > '9' || *n == 64)
            return "give dimensions as 3,4";
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno)
            return "a dimension too large";
        dims[(*n)++] = v;
        p = end;
        while (*p == ' ' || *p == ',')
            p++;
    }
    return NULL;
}

/* ---- load ---------------------------------------------------------------------- */

struct load_args {
    const char *dtype, *shape, *out, *input;
    int fortran, format, no_sync;
    unsigned jobs;
};

/* The array load writes: the dimensions besides the growth axis, the
 * order, and a usage error to report once the input is read. */
struct load_shape {
    uint64_t other[64];
    size_t nother;
    int zero_d, fortran;
    const char *why;   /* NULL, or what is wrong with the command line */
};

static void shape_of(const struct load_args *a, const struct load_spec *spec, struct load_shape *s)
{
    s->nother = 0;
    s->zero_d = 0;
    s->fortran = a->fortran;
    s->why = NULL;
    if (a->shape) {
        s->why = parse_shape(a->shape, s->other, &s->nother, &s->zero_d);
    } else if (spec->has_shape) {
        s->zero_d = spec->ndim == 0;
        s->fortran |= spec->fortran_order;
        s->nother = spec->ndim ? spec->ndim - 1 : 0;
        if (s->nother > 64)
            s->why = "the reference file has more than 65 dimensions";
        else
            memcpy(s->other, spec->shape + (spec->fortran_order ? 0 : 1),
                   s->nother * sizeof *s->other);
    }
}

/* The writer of OUT: a temporary file beside it with the header of an
 * empty array of that shape. */
static npydt_status create_out(const struct load_args *a, const struct load_spec *spec,
                               const struct load_shape *s, npydt_writer **w, npydt_error *err)
{
    uint64_t shape[65];
    size_t ndim = s->zero_d ? 0 : s->nother + 1;
    if (!s->zero_d) {
        memcpy(shape + (s->fortran ? 0 : 1), s->other, s->nother * sizeof *s->other);
        shape[s->fortran ? s->nother : 0] = 0;
    }
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.fortran_order = s->fortran;
    opts.replace = 1;
    opts.no_sync = a->no_sync;
    /* its temporary file goes if a signal ends the process */
    cli_output_hold();
    npydt_status st = npydt_writer_create_path(a->out, spec->dtype, shape, ndim, &opts, w, err);
    cli_output_guard(st == NPYDT_OK ? npydt_writer_temp_path(*w) : NULL);
    return st;
}

/* The input is read: the checks of the command line and the count, in
 * the order they were made before, then OUT put in place. */
static int finish_new(const struct load_args *a, const struct load_shape *s,
                      struct load_dest *d, npydt_status open_st, const npydt_error *open_err)
{
    if (s->why)
        return a->shape ? cli_usage(&load_command, "--shape '%s': %s", a->shape, s->why)
                        : cli_usage(&load_command, "%s", s->why);
    if (s->zero_d && d->count != 1)
        return cli_fail(a->out, NPYDT_E_SHAPE, "a 0-d array holds one element; the input has %llu",
                        (unsigned long long)d->count);
    uint64_t row = 1;
    int status = s->zero_d ? EXIT_OK : whole_rows(a->out, s->other, s->nother, d->count, &row);
    if (status != EXIT_OK)
        return status;
    if (open_st != NPYDT_OK)
        return cli_report(a->out, open_err);
    uint64_t dims[65];
    memcpy(dims, s->other, s->nother * sizeof *dims);
    dims[s->nother] = row ? d->count / row : 0;
    npydt_error err;
    if (load_dest_close(d, dims, s->nother + 1, &err) != NPYDT_OK)
        return cli_report(a->out, &err);
    return EXIT_OK;
}

static int load_into(const struct load_args *a, const struct load_spec *spec,
                     struct load_input *in)
{
    struct load_shape s;
    shape_of(a, spec, &s);
    uint64_t row = 1;
    int row_ok = s.zero_d || row_of(s.other, s.nother, &row);
    npydt_writer *w = NULL;
    npydt_error open_err;
    npydt_status open_st = NPYDT_OK;
    if (!s.why && row_ok)
        open_st = create_out(a, spec, &s, &w, &open_err);
    struct load_dest d;
    load_dest_init(&d, w, in->rec.itemsize, records_taken(s.zero_d, row),
                   !s.zero_d && s.fortran && s.nother > 0);
    int status = input_read(in, &d, a->out);
    if (status == EXIT_OK)
        status = finish_new(a, &s, &d, open_st, &open_err);
    load_dest_discard(&d);   /* after a close: nothing left */
    cli_output_guard(NULL);
    return status;
}

static int set_format(const struct cli_command *cmd, int *format, int opt)
{
    int f = opt == OPT_JSONL ? LOAD_JSONL
            : opt == OPT_CSV ? LOAD_CSV
            : opt == OPT_TSV ? LOAD_TSV
                             : LOAD_ARROW;
    if (*format >= 0 && *format != f)
        return cli_usage(cmd, f == LOAD_ARROW || *format == LOAD_ARROW
                                  ? "--arrow excludes --jsonl, --csv and --tsv"
                                  : "--jsonl, --csv and --tsv exclude each other");
    *format = f;
    return EXIT_OK;
}

/* --string-width and --nulls-as-zero into o: 0, 1 for another option,
 * or an exit status (2) after a usage error. */
static int arrow_option(const struct cli_command *cmd, int opt, const char *value,
                        struct load_arrow_options *o, int *given)
{
    if (opt == OPT_NULLS_AS_ZERO) {
        o->nulls_as_zero = 1;
    } else if (opt == OPT_STRING_WIDTH) {
        if (load_arrow_width(value, &o->string_width) != 0)
            return cli_usage(cmd, "--string-width '%s': give a count from 1 to 1073741824", value);
    } else {
        return 1;
    }
    *given = 1;
    return 0;
}

/* load --arrow: the other options checked, the dtype read when given. */
static int load_arrow(const struct load_args *a, const struct load_arrow_options *o)
{
    if (a->shape || a->fortran)
        return cli_usage(&load_command, "--arrow writes a 1-d array: no --shape, no --fortran");
    if (!a->out)
        return cli_usage(&load_command, "-o OUT is required");
    if (!a->dtype)
        return load_arrow_new(a->input, a->out, NULL, o);
    struct load_spec spec;
    int status = load_spec_read(&load_command, a->dtype, &spec);
    if (status == EXIT_OK) {
        status = load_arrow_new(a->input, a->out, spec.dtype, o);
        load_spec_free(&spec);
    }
    return status;
}

int cmd_load(int argc, char **argv)
{
    struct load_args a = {NULL, NULL, NULL, NULL, 0, -1, 0, 0};
    struct load_arrow_options ao = {0, 0, 0, 0};
    int arrow_given = 0, r;
    struct cli_args args;
    cli_args_init(&args, &load_command, argc, argv);
    int opt;
    while ((opt = cli_args_next(&args)) != 0) {
        if (opt > 0 && (r = arrow_option(&load_command, opt, args.value, &ao, &arrow_given)) != 1) {
            if (r != 0)
                return r;
            continue;
        }
        switch (opt) {
        case OPT_DTYPE: a.dtype = args.value; break;
        case OPT_SHAPE: a.shape = args.value; break;
        case OPT_FORTRAN: a.fortran = 1; break;
        case OPT_OUTPUT: a.out = args.value; break;
        case OPT_NO_SYNC: a.no_sync = 1; break;
        case OPT_JOBS:
            if ((r = cli_jobs_parse(&load_command, args.value, &a.jobs)) != 0)
                return r;
            break;
        case OPT_JSONL: case OPT_CSV: case OPT_TSV: case OPT_ARROW:
            if (set_format(&load_command, &a.format, opt) != EXIT_OK)
                return EXIT_USAGE;
            break;
        default:
            return args.status;
        }
    }
    if (arrow_given && a.format != LOAD_ARROW)
        return cli_usage(&load_command, "--string-width and --nulls-as-zero go with --arrow");
    if (!a.dtype && a.format != LOAD_ARROW)
        return cli_usage(&load_command, "--dtype SPEC is required");
    if (!a.out)
        return cli_usage(&load_command, "-o OUT is required");
    if (args.noperands > 1)
        return cli_usage(&load_command, "one input at most");
    if (cli_args_stdin(&args, 0, "FILE") != EXIT_OK)
        return EXIT_USAGE;
    a.input = args.operands[0];
    ao.no_sync = a.no_sync;
    ao.jobs = a.jobs;
    if (a.format == LOAD_ARROW)
        return load_arrow(&a, &ao);

    struct load_spec spec;
    int status = load_spec_read(&load_command, a.dtype, &spec);
    if (status != EXIT_OK)
        return status;
    struct load_input in;
    status = input_open(&in, a.input, a.format, a.jobs, spec.dtype);
    if (status == EXIT_OK) {
        status = load_into(&a, &spec, &in);
        input_close(&in);
    }
    load_spec_free(&spec);
    return status;
}

/* ---- append -------------------------------------------------------------------- */

/* Records of input (format, no_sync as the options say) appended to
 * file, whose header is h. */
static int append_into(const char *file, const npydt_header *h, int no_sync,
                       struct load_input *in)
{
    size_t ndim = npydt_header_ndim(h);
    int fortran = npydt_header_fortran_order(h);
    uint64_t other[64];
    size_t nother = ndim ? ndim - 1 : 0;
    int bad = ndim == 0 || nother > 64;
    if (!bad)
        memcpy(other, npydt_header_shape(h) + (fortran ? 0 : 1), nother * sizeof *other);
    uint64_t row = 1;
    int row_ok = !bad && row_of(other, nother, &row);
    npydt_writer *w = NULL;
    npydt_error open_err, err;
    npydt_status open_st = NPYDT_OK;
    if (row_ok) {
        npydt_writer_options opts;
        npydt_writer_options_init(&opts);
        opts.no_sync = no_sync;
        cli_output_hold();
        open_st = npydt_writer_append_path(file, &opts, &w, &open_err);
        cli_output_guard(open_st == NPYDT_OK ? npydt_writer_temp_path(w) : NULL);
    }
    struct load_dest d;
    load_dest_init(&d, w, in->rec.itemsize, records_taken(0, row), fortran && nother > 0);
    int status = input_read(in, &d, file);
    if (status == EXIT_OK && bad)
        status = cli_fail(file, NPYDT_E_SHAPE, ndim ? "more than 65 dimensions"
                                                    : "a 0-d array cannot grow");
    if (status == EXIT_OK)
        status = whole_rows(file, other, nother, d.count, &row);
    if (status == EXIT_OK && open_st != NPYDT_OK)
        status = cli_report(file, &open_err);
    if (status == EXIT_OK) {
        uint64_t dims[65];
        memcpy(dims, other, nother * sizeof *dims);
        dims[nother] = row ? d.count / row : 0;
        if (load_dest_close(&d, dims, nother + 1, &err) != NPYDT_OK)
            status = cli_report(file, &err);
    }
    load_dest_discard(&d);
    cli_output_guard(NULL);
    return status;
}

int cmd_append(int argc, char **argv)
{
    int format = -1, no_sync = 0, arrow_given = 0, r;
    unsigned jobs = 0;
    struct load_arrow_options ao = {0, 0, 0, 0};
    struct cli_args args;
    cli_args_init(&args, &append_command, argc, argv);
    int opt;
    while ((opt = cli_args_next(&args)) != 0) {
        if (opt < 0)
            return args.status;
        if ((r = arrow_option(&append_command, opt, args.value, &ao, &arrow_given)) != 1) {
            if (r != 0)
                return r;
        } else if (opt == OPT_NO_SYNC) {
            no_sync = 1;
        } else if (opt == OPT_JOBS) {
            if ((r = cli_jobs_parse(&append_command, args.value, &jobs)) != 0)
                return r;
        } else if (set_format(&append_command, &format, opt) != EXIT_OK)
            return EXIT_USAGE;
    }
    if (args.noperands < 1)
        return cli_usage(&append_command, "FILE.npy is required");
    if (args.noperands > 2)
        return cli_usage(&append_command, "one input at most");
    const char *file = args.operands[0];
    if (cli_args_stdin(&args, 1, "INPUT") != EXIT_OK)
        return EXIT_USAGE;
    const char *input = args.operands[1];
    if (arrow_given && format != LOAD_ARROW)
        return cli_usage(&append_command, "--string-width and --nulls-as-zero go with --arrow");
    ao.no_sync = no_sync;
    ao.jobs = jobs;

    npydt_header *h;
    npydt_error err;
    struct cli_input cin = {.name = file, .path = file};
    if (cli_input_header(&cin, &h, &err) != NPYDT_OK)
        return cli_report(file, &err);
    if (format == LOAD_ARROW) {
        int st = load_arrow_append(input, file, h, &ao);
        npydt_header_free(h);
        return st;
    }
    struct load_input in;
    int status = input_open(&in, input, format, jobs, npydt_header_dtype(h));
    if (status == EXIT_OK) {
        status = append_into(file, h, no_sync, &in);
        input_close(&in);
    }
    npydt_header_free(h);
    return status;
}

/* npydt load and npydt append: records from JSON Lines, CSV or TSV into
 * a new .npy file, or appended to an existing one.
 *
 * The whole input is read and every value checked (and stored in a
 * temporary file) before the destination is touched: a bad line leaves
 * no output file (load) or the file as it was (append). Then the records
 * go through npydt_writer: load creates OUT through a temporary file
 * renamed over it at the end; append adds them and counts them in the
 * header once, at the close, after they are durable. */
#include "cli/load/load.h"
#include "cli/common/args.h"
#include "cli/common/input.h"
#include "cli/common/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_DTYPE = 1, OPT_SHAPE, OPT_FORTRAN, OPT_OUTPUT, OPT_JSONL, OPT_CSV, OPT_TSV, OPT_NO_SYNC };

#define FORMAT_OPTIONS                                                                        \
    {OPT_JSONL, "jsonl", 0, NULL, "the input is JSON Lines (the default)"},                   \
        {OPT_CSV, "csv", 0, NULL, "the input is CSV with a header row of field paths"},       \
        {OPT_TSV, "tsv", 0, NULL, "the input is TSV with a header row of field paths"},     \
        {OPT_NO_SYNC, "no-sync", 0, NULL,                                                     \
         "skip fsync (as np.save): safe from a killed process, not from a power cut"}

static const struct cli_option load_options[] = {
    {OPT_DTYPE, "dtype", 0, "SPEC", "the records' dtype (required): as check --schema takes it, "
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
    "(exit 3), and nothing is written.\n"

static const struct cli_command load_command = {
    "load",
    "load --dtype SPEC [--shape DIMS] [--fortran] [--jsonl|--csv|--tsv] -o OUT [FILE|-]",
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
    "append FILE.npy [--jsonl|--csv|--tsv] [INPUT|-]",
    "Append the elements read from INPUT to FILE.npy along its growth axis (the\n"
    "first, or the last for Fortran order), through npydt's writer: the records\n"
    "are written and made durable first, and only then counted by the header,\n"
    "so that FILE.npy is a file NumPy loads at every instant. The input is\n"
    "checked in full before FILE.npy is touched: a bad line leaves it as it was.\n"
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

/* Read the input named arg into spool, every record checked against
 * dt. 0, or the exit status after the error is reported. */
static int read_input(const char *arg, int format, const npydt_dtype *dt, struct load_spool *spool)
{
    const char *name = arg && strcmp(arg, "-") != 0 ? arg : "<stdin>";
    enum load_format fmt = format >= 0 ? (enum load_format)format
                           : arg       ? load_format_of(arg)
                                       : LOAD_JSONL;
    npydt_error err;
    struct load_record rec;
    if (load_record_init(&rec, dt, &err) != NPYDT_OK)
        return cli_report(name, &err);
    FILE *in = name == arg ? fopen(arg, "rb") : stdin;
    if (!in) {
        load_record_free(&rec);
        return cli_fail(arg, NPYDT_E_IO, "cannot open: %s", strerror(errno));
    }
    int status = load_spool_open(spool, rec.itemsize);
    if (status == EXIT_OK) {
        struct load_sink sink = {load_spool_record, spool};
        struct load_where where = {0};
        npydt_status st = fmt == LOAD_JSONL
                              ? load_jsonl(in, &rec, &sink, &where, &err)
                              : load_csv(in, fmt == LOAD_CSV ? ',' : '\t', &rec, &sink, &where, &err);
        if (st != NPYDT_OK) {
            char at[4200];
            snprintf(at, sizeof at, "%s:%llu", name, (unsigned long long)where.line);
            status = cli_report(where.line ? at : name, &err);
        }
    }
    if (in != stdin)
        fclose(in);
    load_record_free(&rec);
    return status;
}

/* ---- the records' order --------------------------------------------------------- */

/* spool->block (every record, in C order) reordered into Fortran order
 * for an array of shape dims (ndim of them, the last the growth axis). */
static npydt_status to_fortran(struct load_spool *spool, const uint64_t *dims, size_t ndim,
                               npydt_error *err)
{
    size_t size = spool->itemsize;
    size_t bytes = (size_t)spool->count * size;   /* load_spool_finish checked the product */
    unsigned char *f = malloc(bytes ? bytes : 1);
    uint64_t *idx = calloc(ndim, sizeof *idx);
    if (!f || !idx) {
        free(f);
        free(idx);
        return cli_error(err, NPYDT_E_NOMEM, "out of memory");
    }
    const unsigned char *c = spool->block;
    for (uint64_t i = 0; i < spool->count; i++) {
        uint64_t pos = 0;
        for (size_t k = ndim; k-- > 0;)
            pos = pos * dims[k] + idx[k];
        memcpy(f + pos * size, c + i * size, size);
        for (size_t k = ndim; k-- > 0;) {   /* the next index in C order */
            if (++idx[k] < dims[k])
                break;
            idx[k] = 0;
        }
    }
    free(spool->block);
    spool->block = f;
    free(idx);
    return NPYDT_OK;
}

/* Everything that can fail before the destination is touched: the records
 * flushed to the temporary file, the memory to read them back and, for
 * Fortran order of more than one dimension, all of them read back and
 * reordered (*whole set). other: the nother dimensions besides the growth
 * axis; row: records per step of it. */
static npydt_status prepare(struct load_spool *spool, const uint64_t *other, size_t nother,
                            int fortran, uint64_t row, int *whole, npydt_error *err)
{
    *whole = fortran && nother > 0;
    npydt_status st = load_spool_finish(spool, *whole, err);
    if (st != NPYDT_OK || !*whole)
        return st;
    uint64_t dims[65];
    memcpy(dims, other, nother * sizeof *dims);
    dims[nother] = row ? spool->count / row : 0;
    return to_fortran(spool, dims, nother + 1, err);
}

/* The prepared records into w. */
static npydt_status put_records(npydt_writer *w, struct load_spool *spool, int whole,
                                npydt_error *err)
{
    return whole ? npydt_writer_write(w, spool->block, spool->count, err)
                 : load_spool_drain(spool, w, err);
}

/* Records per step of the growth axis; refuses a count that is not whole
 * steps, before anything is written. */
static int whole_rows(const char *out, const uint64_t *other, size_t nother, uint64_t count,
                      uint64_t *row)
{
    uint64_t r = 1;
    for (size_t k = 0; k < nother; k++) {
        if (other[k] && r > UINT64_MAX / other[k])
            return cli_fail(out, NPYDT_E_OVERFLOW, "the dimensions' product overflows");
        r *= other[k];
    }
    *row = r;
    if (r == 0 ? count != 0 : count % r != 0)
        return cli_fail(out, NPYDT_E_SHAPE,
                        "%llu elements do not fill whole steps of %llu along the growth axis",
                        (unsigned long long)count, (unsigned long long)r);
    return EXIT_OK;
}

/* "3,4" (or "(3, 4)", "()"): the dimensions other than the growth axis;
 * *zero_d for "()". */
static int parse_shape(const char *text, uint64_t *dims, size_t *n, int *zero_d)
{
    const char *p = text;
    *n = 0;
    *zero_d = 0;
    while (*p == ' ' || *p == '(')
        p++;
    if (strchr(text, '(') && *p == ')') {
        *zero_d = 1;
        return EXIT_OK;
    }
    while (*p && *p != ')') {
        char *end;
        if (*p < '0' || *p > '9' || *n == 64)
            return cli_usage(&load_command, "--shape '%s': give dimensions as 3,4", text);
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno)
            return cli_usage(&load_command, "--shape '%s': a dimension too large", text);
        dims[(*n)++] = v;
        p = end;
        while (*p == ' ' || *p == ',')
            p++;
    }
    return EXIT_OK;
}

/* ---- load ---------------------------------------------------------------------- */

struct load_args {
    const char *dtype, *shape, *out, *input;
    int fortran, format, no_sync;
};

static int write_new(const struct load_args *a, const struct load_spec *spec,
                     struct load_spool *spool)
{
    uint64_t other[64];
    size_t nother = 0;
    int zero_d = 0, fortran = a->fortran;
    if (a->shape) {
        int status = parse_shape(a->shape, other, &nother, &zero_d);
        if (status != EXIT_OK)
            return status;
    } else if (spec->has_shape) {
        zero_d = spec->ndim == 0;
        fortran |= spec->fortran_order;
        nother = spec->ndim ? spec->ndim - 1 : 0;
        if (nother > 64)
            return cli_usage(&load_command, "the reference file has more than 65 dimensions");
        memcpy(other, spec->shape + (spec->fortran_order ? 0 : 1), nother * sizeof *other);
    }
    if (zero_d && spool->count != 1)
        return cli_fail(a->out, NPYDT_E_SHAPE, "a 0-d array holds one element; the input has %llu",
                        (unsigned long long)spool->count);
    uint64_t row = 1;
    int status = zero_d ? EXIT_OK : whole_rows(a->out, other, nother, spool->count, &row);
    if (status != EXIT_OK)
        return status;
    uint64_t shape[65];
    size_t ndim = zero_d ? 0 : nother + 1;
    if (!zero_d) {
        memcpy(shape + (fortran ? 0 : 1), other, nother * sizeof *other);
        shape[fortran ? nother : 0] = 0;
    }
    npydt_error err;
    int whole;
    if (prepare(spool, other, nother, fortran, row, &whole, &err) != NPYDT_OK)
        return cli_report(a->out, &err);
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.fortran_order = fortran;
    opts.replace = 1;
    opts.no_sync = a->no_sync;
    npydt_writer *w;
    npydt_status st = npydt_writer_create_path(a->out, spec->dtype, shape, ndim, &opts, &w, &err);
    if (st != NPYDT_OK)
        return cli_report(a->out, &err);
    st = put_records(w, spool, whole, &err);
    npydt_error cerr;
    npydt_status cst = npydt_writer_close(w, &cerr);
    if (st != NPYDT_OK)
        return cli_report(a->out, &err);
    if (cst != NPYDT_OK)
        return cli_report(a->out, &cerr);
    return EXIT_OK;
}

static int set_format(const struct cli_command *cmd, int *format, int opt)
{
    int f = opt == OPT_JSONL ? LOAD_JSONL : opt == OPT_CSV ? LOAD_CSV : LOAD_TSV;
    if (*format >= 0 && *format != f)
        return cli_usage(cmd, "--jsonl, --csv and --tsv exclude each other");
    *format = f;
    return EXIT_OK;
}

int cmd_load(int argc, char **argv)
{
    struct load_args a = {NULL, NULL, NULL, NULL, 0, -1, 0};
    struct cli_args args;
    cli_args_init(&args, &load_command, argc, argv);
    int opt;
    while ((opt = cli_args_next(&args)) != 0) {
        switch (opt) {
        case OPT_DTYPE: a.dtype = args.value; break;
        case OPT_SHAPE: a.shape = args.value; break;
        case OPT_FORTRAN: a.fortran = 1; break;
        case OPT_OUTPUT: a.out = args.value; break;
        case OPT_NO_SYNC: a.no_sync = 1; break;
        case OPT_JSONL: case OPT_CSV: case OPT_TSV:
            if (set_format(&load_command, &a.format, opt) != EXIT_OK)
                return EXIT_USAGE;
            break;
        default:
            return args.status;
        }
    }
    if (!a.dtype)
        return cli_usage(&load_command, "--dtype SPEC is required");
    if (!a.out)
        return cli_usage(&load_command, "-o OUT is required");
    if (args.noperands > 1)
        return cli_usage(&load_command, "one input at most");
    a.input = args.noperands ? args.operands[0] : NULL;

    struct load_spec spec;
    int status = load_spec_read(&load_command, a.dtype, &spec);
    if (status != EXIT_OK)
        return status;
    struct load_spool spool = {0};
    status = read_input(a.input, a.format, spec.dtype, &spool);
    if (status == EXIT_OK)
        status = write_new(&a, &spec, &spool);
    load_spool_close(&spool);
    load_spec_free(&spec);
    return status;
}

/* ---- append -------------------------------------------------------------------- */

int cmd_append(int argc, char **argv)
{
    int format = -1, no_sync = 0;
    struct cli_args args;
    cli_args_init(&args, &append_command, argc, argv);
    int opt;
    while ((opt = cli_args_next(&args)) != 0) {
        if (opt < 0)
            return args.status;
        if (opt == OPT_NO_SYNC)
            no_sync = 1;
        else if (set_format(&append_command, &format, opt) != EXIT_OK)
            return EXIT_USAGE;
    }
    if (args.noperands < 1)
        return cli_usage(&append_command, "FILE.npy is required");
    if (args.noperands > 2)
        return cli_usage(&append_command, "one input at most");
    const char *file = args.operands[0];
    const char *input = args.noperands > 1 ? args.operands[1] : NULL;

    npydt_header *h;
    npydt_error err;
    struct cli_input in = {file, file, NULL, NULL, 0, NULL, 0};
    if (cli_input_header(&in, &h, &err) != NPYDT_OK)
        return cli_report(file, &err);
    struct load_spool spool = {0};
    int status = read_input(input, format, npydt_header_dtype(h), &spool);
    size_t ndim = npydt_header_ndim(h);
    int fortran = npydt_header_fortran_order(h);
    uint64_t other[64];
    size_t nother = ndim ? ndim - 1 : 0;
    uint64_t row = 1;
    if (status == EXIT_OK && (ndim == 0 || nother > 64))
        status = cli_fail(file, NPYDT_E_SHAPE, ndim ? "more than 65 dimensions"
                                                    : "a 0-d array cannot grow");
    if (status == EXIT_OK) {
        memcpy(other, npydt_header_shape(h) + (fortran ? 0 : 1), nother * sizeof *other);
        status = whole_rows(file, other, nother, spool.count, &row);
    }
    int whole = 0;
    if (status == EXIT_OK && prepare(&spool, other, nother, fortran, row, &whole, &err) != NPYDT_OK)
        status = cli_report(file, &err);
    npydt_writer *w = NULL;
    if (status == EXIT_OK) {
        npydt_writer_options opts;
        npydt_writer_options_init(&opts);
        opts.no_sync = no_sync;
        if (npydt_writer_append_path(file, &opts, &w, &err) != NPYDT_OK)
            status = cli_report(file, &err);
    }
    if (status == EXIT_OK) {
        npydt_status st = put_records(w, &spool, whole, &err);
        npydt_error cerr;
        npydt_status cst = npydt_writer_close(w, &cerr);
        if (st != NPYDT_OK)
            status = cli_report(file, &err);
        else if (cst != NPYDT_OK)
            status = cli_report(file, &cerr);
    }
    load_spool_close(&spool);
    npydt_header_free(h);
    return status;
}

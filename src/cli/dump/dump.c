/* npydt dump: the records of a file, as JSON lines (the contract in
 * doc/cli-json.md), CSV or TSV, or as a table for people. This
 * file reads the options and the data; the fields are chosen by
 * dump_fields.c, the elements by dump_select.c, values are written by
 * dump_value.c (JSON) and dump_csv.c (cells), floats by the text stage (text/text.h),
 * the table by dump_table.c.
 *
 * Elements come out in C order of the logical array whatever the file's
 * fortran_order. JSON floats print as Python's repr() prints the double
 * (the shortest digits that read back to it), so the output matches
 * json.dumps of NumPy's values character for character; the table and
 * CSV print float16 and float32 as NumPy's repr() of them. */
#include "cli/dump/dump.h"
#include "cli/common/args.h"
#include "cli/common/input.h"
#include "cli/common/jobs.h"
#include "cli/common/progress.h"
#include "cli/common/report.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    OPT_JSONL = 1, OPT_CSV, OPT_TSV, OPT_FIELDS, OPT_HEAD, OPT_TAIL, OPT_INDEX, OPT_RANGE,
    OPT_FLOAT, OPT_DATETIME, OPT_NAN, OPT_BIG_INT, OPT_VERTICAL, OPT_SAMPLE, OPT_SEED,
    OPT_NO_HEADER, OPT_INDEX_COLUMN, OPT_ARROW, OPT_OUTPUT, OPT_JOBS
};

static const struct cli_option dump_options[] = {
    {OPT_JSONL, "jsonl", 0, NULL, "one JSON value per element and line"},
    {OPT_CSV, "csv", 0, NULL, "CSV: a header row of field paths, a row per element"},
    {OPT_TSV, "tsv", 0, NULL, "the same separated by tabs (\\t \\n \\r \\\\ escaped)"},
    {OPT_VERTICAL, "vertical", 0, NULL, "for people: a line 'PATH: VALUE' per field of each element"},
    {OPT_NO_HEADER, "no-header", 0, NULL, "CSV, TSV: no header row"},
    {OPT_INDEX_COLUMN, "index-column", 0, NULL,
     "CSV, TSV, JSON: first an \"index\" column, the element's flat C-order index"},
    {OPT_ARROW, "arrow", 0, NULL, "an Arrow IPC stream (binary) of the selected elements"},
    {OPT_OUTPUT, "output", 'o', "OUT", "write the Arrow stream to OUT (with --arrow)"},
    {OPT_FIELDS, "fields", 0, "A,B.C", "print only these fields (paths, comma-separated)"},
    {OPT_HEAD, "head", 0, "N", "print the first N elements (of those selected) only"},
    {OPT_TAIL, "tail", 0, "N", "select the last N elements"},
    {OPT_INDEX, "index", 0, "I[,J..]", "select a[I,J,..] (negative from the end)"},
    {OPT_RANGE, "range", 0, "A:B[:S]", "select a[A:B:S] along the first axis"},
    {OPT_SAMPLE, "sample", 0, "N", "N of the selected elements at random, in element order"},
    {OPT_SEED, "seed", 0, "S", "the seed of --sample (0 to 2^64-1; default 0)"},
    {OPT_FLOAT, "float", 0, "double|native",
     "JSON float16/float32 as their double (default) or their own shortest text"},
    {OPT_DATETIME, "datetime", 0, "count|iso", "datetime64 as the count (default) or ISO 8601"},
    {OPT_NAN, "nan", 0, "string|null", "NaN, inf and NaT as strings (default) or null"},
    {OPT_BIG_INT, "big-int", 0, "number|string",
     "integers beyond +-(2^53-1) as numbers (default) or strings"},
    {OPT_JOBS, "jobs", 'j', "N", "format elements with N threads (default: one a processor)"},
};

const struct cli_command dump_command = {
    "dump",
    "dump [--jsonl|--csv|--tsv|--vertical|--arrow [-o OUT]] [--fields A,B.C] [--head N]\n"
    "     [--tail N|--index I,J|--range A:B:S] [--sample N [--seed S]] [--no-header]\n"
    "     [--index-column] [--float native] [--datetime iso] [--nan null] [--big-int string]\n"
    "     [-j N] FILE...",
    "Print the elements of the .npy FILE in C order. By default a table of the\n"
    "first 20 elements (scalar cells as NumPy's str(): ISO dates, NaT, plain\n"
    "text with control characters escaped); with --jsonl one JSON value per element and line, with\n"
    "--csv or --tsv a row of cells (all of them unless --head N is given).\n"
    "--fields selects fields by path (pos.x, samples[2], m[0,1], a title, and\n"
    "pts.y for the field y of every element of an array of structs pts) and\n"
    "prints an object of them per element. Object arrays cannot be dumped\n"
    "(exit 3). A CSV or TSV row holds at most 67108864 cells (exit 3 for a\n"
    "wider element).\n"
    "\n"
    "--arrow writes an Arrow IPC stream (the Arrow mapping of the manual) to\n"
    "standard output (not a terminal) or, with -o OUT, to OUT through a\n"
    "temporary file; selections and --fields apply, the value options do not.\n"
    "\n"
    "Selection: --index I,J,.. prints a[I,J,..] (the elements of the sub-array\n"
    "when fewer indices than dimensions are given); --range A:B:S the rows\n"
    "a[A:B:S] of the first axis (Python's slice rules: each part optional,\n"
    "negative counts from the end, a negative step goes backwards); --tail N\n"
    "the last N elements. A mapped file reaches them directly, without reading\n"
    "what comes before. --head N then prints at most N of them.\n"
    "\n"
    "Values: JSON keeps the contract's defaults (floats as the double's\n"
    "shortest text, NaN and NaT as strings, datetimes as counts). --float\n"
    "native writes float16/float32 as NumPy's repr() of them (19.894575);\n"
    "--datetime iso writes datetime64 as NumPy's str() (\"2020-06-01T07:00\";\n"
    "timedelta64 stays a count of its unit); --nan null writes NaN, the\n"
    "infinities and NaT as null (an empty cell in CSV); --big-int string\n"
    "writes integers outside +-(2^53-1) as strings. The table and CSV always\n"
    "write floats as their own type's shortest text.\n"
    "\n"
    "CSV (RFC 4180, LF line ends): one column per scalar leaf, headed by its\n"
    "path (pos.x, samples[3], m[0,1]); cells holding ',', '\"', CR or LF are\n"
    "quoted with inner quotes doubled. TSV: no quoting; tab, LF, CR and\n"
    "backslash in a cell are written \\t, \\n, \\r and \\\\. Cells are NumPy's\n"
    "str() of the value: True/False, complex as 1.5+2.0j, S bytes outside\n"
    "printable ASCII as \\xNN (and '\\' as \\\\), V as hex.\n"
    "\n"
    "FILE may be ARCHIVE.npz:NAME, one member of an archive (NAME with or\n"
    "without .npy), printed exactly as the member saved alone would be; or\n"
    "ARCHIVE.npz, whose members are printed as tables one after another.\n"
    "--jsonl, --csv and --tsv print the elements of one array: an archive with\n"
    "more than one member must be narrowed to ARCHIVE.npz:NAME (exit 2\n"
    "otherwise). Every member printed is checked in full (sizes, deflate\n"
    "stream, CRC-32) before anything is printed; deflated members are inflated\n"
    "through a bounded buffer, and no further than the selection needs once\n"
    "checked.\n"
    "\n"
    "Several FILEs are one stream of elements: they must all hold the same\n"
    "dtype (else exit 2 naming the first that differs, before anything is\n"
    "printed); CSV and TSV write one header row, the table and --vertical one\n"
    "title per FILE; selections, --sample and --head apply to each FILE.\n"
    "\n"
    "--vertical prints a line '-[ RECORD I ]-' per element, then 'PATH: VALUE'\n"
    "per scalar leaf (20 elements unless --head N). --sample N picks N of the\n"
    "selected elements at random (Floyd's algorithm over splitmix64, --seed S,\n"
    "default 0: the same on every platform), printed in element order.\n"
    "--no-header leaves out the CSV/TSV header row; --index-column adds the flat\n"
    "C-order index first, as a column or key \"index\" (a field so named is\n"
    "refused).\n"
    "\n"
    "-j N turns elements into text in N threads (default: one a processor),\n"
    "written in order: the bytes of -j 1 (--arrow: one thread gathers the next\n"
    "batch while another writes the last).\n"
    "\n"
    "FILE may be '-' (standard input) or a pipe: a .npy file on it is read\n"
    "once, front to back; an archive, an array in Fortran order, a --range\n"
    "with a negative step or U text is read whole into memory first (at most\n"
    "1 GiB). A progress line is shown on a terminal for 64 MiB or more of\n"
    "elements, when stdout is not that terminal (-q: none).\n",
    dump_options, sizeof dump_options / sizeof dump_options[0], 1,
};

#define TEXT_DEFAULT_HEAD 20
/* The table is laid out before it is printed (column widths): its rows are
 * held in memory, so it is for people and has a cap; --jsonl streams. */
#define TEXT_MAX_ROWS 100000u

/* ---- the command --------------------------------------------------------------------- */

/* The largest U scalar of a dtype (the buffer its UTF-8 needs). */
static size_t max_unicode(const npydt_dtype *dt)
{
    size_t n, m = 0;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &n);
    for (size_t i = 0; i < n; i++)
        if (leaves[i].kind == 'U' && leaves[i].itemsize > m)
            m = leaves[i].itemsize;
    return m;
}

/* What the command line asks of every input. */
struct dump_opts {
    enum dump_format format;
    const char *fields;
    uint64_t head;
    int have_head;
    struct select_args select;
    struct value_style style;
    int quiet;           /* no progress line */
    struct row_style rows;
    int have_sample;
    uint64_t sample, seed;
    int several;         /* FILEs after the first: no CSV/TSV header row */
    const char *output;  /* -o OUT of --arrow */
    unsigned jobs;       /* -j N (0: one a processor) */
};

/* How far dump_input goes with an input. */
enum dump_phase {
    DUMP_CHECK,       /* refuse what cannot be printed; print nothing */
    DUMP_ALL,         /* check, then print */
    DUMP_PRINT        /* print what DUMP_CHECK has passed */
};

/* The U scalars among the bytes printed (all, or the selected fields) of
 * the selected elements must be text: look before printing anything (a
 * row writer that writes nothing, run by jobs workers). */
struct text_check {
    const npydt_dtype *dt;
    const struct selected *sel;
    size_t nsel;
};

static int check_row_unicode(const void *ctx, void *state, struct dumper *d, struct sink *out,
                             uint64_t i, uint64_t flat, const unsigned char *rec)
{
    const struct text_check *t = ctx;
    (void)state, (void)out, (void)i, (void)flat;
    if (!t->sel && dump_check_unicode(d, t->dt, rec, 0, UINT64_MAX) != 0) {
        d->failed = 1;
        return -1;
    }
    for (size_t k = 0; t->sel && k < t->nsel; k++) {
        const struct selected *f = &t->sel[k];
        uint64_t n = 1, size = npydt_dtype_itemsize(f->dtype);
        for (size_t j = 0; j < f->ndim; j++)
            n *= f->shape[j];   /* within the itemsize */
        for (uint64_t e = 0; e < n; e++) {
            uint64_t lo = f->offset + e * f->stride;
            if (dump_check_unicode(d, t->dt, rec, lo, lo + size) != 0) {
                d->failed = 1;
                return -1;
            }
        }
    }
    return 0;
}

static int check_rows_unicode(struct dumper *d, struct cursor *cur, const struct selection *s,
                              const npydt_dtype *dt, const struct selected *sel, size_t nsel,
                              unsigned jobs)
{
    struct text_check t = {dt, sel, nsel};
    struct dump_rows rows = {&t, 0, NULL, check_row_unicode, NULL, NULL};
    struct sink none;
    sink_init(&none, SINK_MEMORY);
    int rc = dump_rows_run(d, &none, cur, s, jobs, &rows);
    sink_free(&none);
    if (rc != 0 && !d->failed)
        cli_error(&d->err, NPYDT_E_NOMEM, "%s", "out of memory");
    return rc;
}

/* The table's title line: the name (controls escaped), shape, order and
 * descriptor; size holds CLI_TEXT_ESCAPED_MAX(strlen(name)) + 22 bytes a
 * dimension + 256. */
static void make_title(char *title, size_t size, const char *name, const npydt_header *h)
{
    const npydt_dtype *dt = npydt_header_dtype(h);
    char descr[200];
    size_t need = npydt_dtype_descr(dt, descr, sizeof descr);
    size_t named = cli_text_escape_into(title, name, strlen(name));
    struct text_buf t = text_buf_fixed(title, size);
    t.len = named;
    text_buf_puts(&t, ": shape ");
    text_shape_tuple(&t, npydt_header_shape(h), npydt_header_ndim(h));
    text_buf_puts(&t, npydt_header_fortran_order(h) ? ", Fortran order, dtype " : ", C order, dtype ");
    text_buf_puts(&t, descr);
    text_buf_puts(&t, need >= sizeof descr ? "...\n" : "\n");
    text_buf_terminate(&t);
}

/* A top-level field (or a --fields path) named as the index column. */
static int index_taken(const npydt_dtype *dt, const struct selected *sel, size_t nsel)
{
    const size_t n = sizeof DUMP_INDEX_NAME - 1;
    for (size_t i = 0; sel && i < nsel; i++)
        if (sel[i].path_len == n && memcmp(sel[i].path, DUMP_INDEX_NAME, n) == 0)
            return 1;
    for (size_t i = 0; !sel && npydt_dtype_get_class(dt) == NPYDT_STRUCT &&
                       i < npydt_dtype_nfields(dt); i++)
        if (npydt_dtype_field_name_len(dt, i) == n &&
            memcmp(npydt_dtype_field_name(dt, i), DUMP_INDEX_NAME, n) == 0)
            return 1;
    return 0;
}

/* Check and/or print one input (a .npy file or an archive member).
 * *printed counts the inputs printed so far (text tables are separated by
 * a blank line). Returns an exit status. */
static int dump_input(const struct cli_input *in, const struct dump_opts *o,
                      enum dump_phase phase, size_t *printed)
{
    /* the header is the reader's: one parse, and the data read is the
     * data of the header checked */
    npydt_reader *src;
    npydt_error err;
    if (cli_input_reader(in, phase == DUMP_PRINT, &src, &err) != NPYDT_OK)
        return err.code == NPYDT_E_OBJECT
                   ? cli_fail(in->name, NPYDT_E_OBJECT, "%s",
                              "object arrays hold pickled Python objects and cannot be dumped")
                   : cli_report(in->name, &err);
    const npydt_header *h = npydt_reader_header(src);
    const npydt_dtype *dt = npydt_header_dtype(h);
    struct selected *sel = NULL;
    size_t nsel = 0;
    char *storage = NULL;
    struct dumper d = {0};
    uint64_t *picks = NULL;
    int status = EXIT_OK;
    if (o->fields &&
        (status = dump_select_fields(in->name, o->fields, dt, &sel, &nsel, &storage)) != EXIT_OK)
        goto out;
    if (o->rows.index_column && o->format != FORMAT_TABLE && o->format != FORMAT_VERTICAL &&
        index_taken(dt, sel, nsel)) {
        status = cli_usage(&dump_command, "%s: --index-column adds the key \"" DUMP_INDEX_NAME
                           "\", and a field is named so (--fields can leave it out)", in->name);
        goto out;
    }
    d.ubuf_size = max_unicode(dt) + 1;
    d.ubuf = malloc(d.ubuf_size);
    if (!d.ubuf) {
        status = cli_failure("out of memory");
        goto out;
    }
    uint64_t count = npydt_header_count(h);
    struct selection sl;
    if ((status = dump_select(in->name, h, &o->select, o->have_head && !o->have_sample, o->head,
                              &sl)) != EXIT_OK)
        goto out;
    if (o->have_sample && o->sample < sl.total) {
        if (o->sample > DUMP_SAMPLE_MAX) {
            status = cli_usage(&dump_command, "%s: --sample takes at most %llu elements of the "
                               "%llu selected (or all of them)", in->name,
                               (unsigned long long)DUMP_SAMPLE_MAX, (unsigned long long)sl.total);
            goto out;
        }
        if (dump_sample(sl.total, o->sample, o->seed, &picks) != 0) {
            status = cli_failure("out of memory");
            goto out;
        }
        sl.pick = picks;
        sl.total = o->sample;
    }
    if (o->have_sample && o->have_head && o->head < sl.total)
        sl.total = o->head;
    if (o->format == FORMAT_ARROW) {
        /* invalid text is refused by the export, naming the record */
        bool whole = !o->select.index && !o->select.range && !o->select.tail &&
                     !o->have_sample && (!o->have_head || o->head >= count);
        status = dump_arrow(in->name, src, &sl, whole, sel, nsel, o->output, o->jobs);
        goto out;
    }
    int people = o->format == FORMAT_TABLE || o->format == FORMAT_VERTICAL;
    if (people && !o->have_head && sl.total > TEXT_DEFAULT_HEAD)
        sl.total = TEXT_DEFAULT_HEAD;
    if (o->format == FORMAT_TABLE && sl.total > TEXT_MAX_ROWS) {
        status = cli_usage(&dump_command, "the table shows at most %u rows (--head); use --jsonl for more",
                                 TEXT_MAX_ROWS);
        goto out;
    }
    d.style = o->style;
    if (people) {   /* for people: NumPy's repr of float32, */
        d.style.float_native = true;  /* its str() of datetime64 */
        d.style.datetime_iso = true;
    }
    int check_text = phase != DUMP_PRINT && d.ubuf_size > 1;
    /* a pipe is read once, front to back: an order that goes back (text
     * checked before it is printed, a negative step, Fortran order) reads
     * it into memory first, and the fields are looked up in that header */
    if (cli_input_piped(in) && (check_text || sl.row_step < 0 ||
                                (npydt_header_fortran_order(h) && npydt_header_ndim(h) > 1))) {
        npydt_reader_close(src);
        src = NULL;
        free(sel);
        free(storage);
        sel = NULL;
        storage = NULL;
        if ((status = cli_input_hold(in, &err)) != EXIT_OK)
            goto out;
        if (cli_input_reader(in, 1, &src, &err) != NPYDT_OK) {
            status = cli_report(in->name, &err);
            goto out;
        }
        h = npydt_reader_header(src);
        dt = npydt_header_dtype(h);
        if (o->fields && (status = dump_select_fields(in->name, o->fields, dt, &sel, &nsel,
                                                      &storage)) != EXIT_OK)
            goto out;
    }
    struct cursor cur;
    cursor_init(&cur, src, selection_end(&sl));
    cursor_select(&cur, &sl);
    if (check_text && check_rows_unicode(&d, &cur, &sl, dt, sel, nsel, o->jobs) != 0) {
        status = cli_report(in->name, &d.err);
        goto out;
    }
    if (phase == DUMP_CHECK)
        goto out;

    struct sink sk;
    struct sink *out = &sk;
    sink_init(out, STDOUT_FILENO);
    struct cli_progress progress;
    d.itemsize = npydt_dtype_itemsize(dt);
    cli_progress_start(&progress, "dumping", sl.total * d.itemsize, o->quiet);
    d.progress = &progress;
    if (o->format == FORMAT_JSONL) {
        if (dump_print_jsonl(&d, out, &cur, &sl, sel, nsel, o->rows.index_column, o->jobs) != 0 &&
            !d.failed)
            out->bytes.failed = 1;   /* reported as out of memory below */
    } else if (o->format == FORMAT_CSV || o->format == FORMAT_TSV) {
        struct row_style rows = o->rows;
        rows.no_header |= o->several;
        if (dump_print_csv(&d, out, o->format, &cur, &sl, sel, nsel, &rows, o->jobs) != 0 && !d.failed) {
            out->bytes.len = 0;   /* the header row, unless 64 KiB of it went out */
            status = cli_failure("out of memory");
        }
    } else {
        /* room for the whole title, however long the path: the name, each
         * dimension (20 digits and ", "), the descriptor cut at 199 bytes
         * with "...", and the fixed words */
        size_t tsize = CLI_TEXT_ESCAPED_MAX(strlen(in->name)) + 22 * npydt_header_ndim(h) + 256;
        char *title = malloc(tsize);
        if (title)
            make_title(title, tsize, in->name, h);
        if ((*printed)++)
            sink_putc(out, '\n');
        if (!title || (o->format == FORMAT_VERTICAL
                           ? dump_print_vertical(&d, out, title, &cur, &sl, sel, nsel, o->jobs)
                           : dump_print_table(&d, out, title, &cur, &sl, sel, nsel, o->jobs)) != 0) {
            if (!d.failed)
                status = cli_failure("out of memory");
        } else if (sl.total < count) {
            char more[96];
            sink_write(out, more, (size_t)snprintf(more, sizeof more,
                                                   "(%llu of %llu elements; --head N or --jsonl "
                                                   "for more)\n", (unsigned long long)sl.total,
                                                   (unsigned long long)count));
        }
        free(title);
    }
    cli_progress_end(&progress);
    sink_flush(out);
    if (out->bytes.failed && !d.failed && status == EXIT_OK)
        status = cli_failure("out of memory");
    sink_free(out);
    if (d.failed) {
        /* only reachable for data the checks above let through */
        status = cli_report(in->name, &d.err);
    }
out:
    npydt_reader_close(src);
    free(picks);
    free(d.ubuf);
    free(sel);
    free(storage);
    return status;
}

/* Up to 5 member names for a message, as "a.npy, b.npy, ...": those of
 * the inputs from `from` on. */
static void list_members(char *buf, size_t size, const struct cli_inputs *inputs, size_t from)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = from; i < inputs->count && i < from + 5 && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i > from ? ", " : "",
                                inputs->items[i].member);
    if (inputs->count - from > 5 && len < size)
        snprintf(buf + len, size - len, ", ...");
}

/* --float, --datetime, --nan, --big-int: the default word or the other. */
static int set_style(struct value_style *st, int opt, const char *v)
{
    static const struct {
        int opt;
        const char *off, *on;
    } words[] = {{OPT_FLOAT, "double", "native"}, {OPT_DATETIME, "count", "iso"},
                 {OPT_NAN, "string", "null"}, {OPT_BIG_INT, "number", "string"}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (words[i].opt != opt)
            continue;
        int on = strcmp(v, words[i].on) == 0;
        if (!on && strcmp(v, words[i].off) != 0)
            return -1;
        bool *flag = opt == OPT_FLOAT ? &st->float_native
                     : opt == OPT_DATETIME ? &st->datetime_iso
                     : opt == OPT_NAN ? &st->nan_null : &st->big_int_string;
        *flag = on;
        return 0;
    }
    return -1;
}

/* The inputs of several FILEs must share one dtype: the first that does
 * not is named (exit 2); a header that cannot be read is left to the
 * check that follows. */
static int same_dtype(const struct cli_inputs *inputs)
{
    npydt_header *first = NULL, *h = NULL;
    const char *first_name = NULL;
    npydt_error err;
    int status = EXIT_OK;
    for (size_t i = 0; i < inputs->count && status == EXIT_OK; i++, npydt_header_free(h)) {
        h = NULL;
        if (cli_input_header(&inputs->items[i], &h, &err) != NPYDT_OK)
            continue;
        if (!first) {
            first = h;
            first_name = inputs->items[i].name;
            h = NULL;
            continue;
        }
        const npydt_dtype *a = npydt_header_dtype(first), *b = npydt_header_dtype(h);
        if (npydt_dtype_equal(a, b))
            continue;
        char da[120], db[120];
        size_t na = npydt_dtype_descr(a, da, sizeof da), nb = npydt_dtype_descr(b, db, sizeof db);
        const char *name = inputs->items[i].name;
        status = cli_usage(&dump_command, "%s: dtype %s%s differs from %s%s of %s (several "
                           "FILEs are dumped as one stream of one dtype)",
                           name, db, nb >= sizeof db ? "..." : "", da, na >= sizeof da ? "..." : "",
                           first_name);
    }
    npydt_header_free(first);
    return status;
}

int cmd_dump(int argc, char **argv)
{
    struct dump_opts o = {0};
    uint64_t seed = 0;
    int status;
    int have_seed = 0;
    struct cli_args args;
    cli_args_init(&args, &dump_command, argc, argv);
    for (int opt; (opt = cli_args_next(&args)) != 0;) {
        switch (opt) {
        case OPT_JSONL:
        case OPT_CSV:
        case OPT_TSV:
        case OPT_VERTICAL:
        case OPT_ARROW: {
            enum dump_format f = opt == OPT_JSONL ? FORMAT_JSONL
                                 : opt == OPT_CSV ? FORMAT_CSV
                                 : opt == OPT_TSV    ? FORMAT_TSV
                                 : opt == OPT_VERTICAL ? FORMAT_VERTICAL : FORMAT_ARROW;
            if (o.format != FORMAT_TABLE && o.format != f)
                return cli_usage(&dump_command,
                                 "--jsonl, --csv, --tsv, --vertical and --arrow exclude "
                                 "each other");
            o.format = f;
            break;
        }
        case OPT_TAIL:
            o.select.tail = args.value;
            break;
        case OPT_INDEX:
            o.select.index = args.value;
            break;
        case OPT_RANGE:
            o.select.range = args.value;
            break;
        case OPT_FLOAT:
        case OPT_DATETIME:
        case OPT_NAN:
        case OPT_BIG_INT:
            if (set_style(&o.style, opt, args.value) != 0)
                return cli_usage(&dump_command, "--%s takes %s, not '%s'",
                                         args.option->name, args.option->value, args.value);
            break;
        case OPT_FIELDS:
            o.fields = args.value;
            break;
        case OPT_HEAD:
            if (cli_parse_count(args.value, &o.head, 0) != 0)
                return cli_usage(&dump_command, "--head needs a count (0 or more)");
            o.have_head = 1;
            break;
        case OPT_SAMPLE:
            if (cli_parse_count(args.value, &o.sample, 0) != 0)
                return cli_usage(&dump_command, "--sample needs a count (0 or more)");
            o.have_sample = 1;
            break;
        case OPT_SEED:
            if (cli_parse_count(args.value, &seed, 1) != 0)
                return cli_usage(&dump_command, "--seed needs an integer from 0 to "
                                 "18446744073709551615, not '%s'", args.value);
            have_seed = 1;
            break;
        case OPT_NO_HEADER:
            o.rows.no_header = 1;
            break;
        case OPT_INDEX_COLUMN:
            o.rows.index_column = 1;
            break;
        case OPT_JOBS:
            if ((status = cli_jobs_parse(&dump_command, args.value, &o.jobs)) != 0)
                return status;
            break;
        case OPT_OUTPUT:
            o.output = args.value;
            if (!*o.output)
                return cli_usage(&dump_command, "-o needs an output path");
            break;
        default:
            return args.status;
        }
    }
    if (have_seed && !o.have_sample)
        return cli_usage(&dump_command, "--seed is the seed of --sample, which is not given");
    o.seed = seed;
    if (o.rows.no_header && o.format != FORMAT_CSV && o.format != FORMAT_TSV)
        return cli_usage(&dump_command, "--no-header is for --csv and --tsv");
    if (o.rows.index_column && (o.format == FORMAT_TABLE || o.format == FORMAT_VERTICAL))
        return cli_usage(&dump_command, "--index-column is for --jsonl, --csv and --tsv (the "
                         "table and --vertical show the index)");
    status = cli_args_stdin(&args, 0, "FILE");
    if (status != EXIT_OK)
        return status;
    if (o.output && o.format != FORMAT_ARROW)
        return cli_usage(&dump_command, "-o OUT is for --arrow (text goes to standard output)");
    if (o.format == FORMAT_ARROW &&
        (o.style.float_native || o.style.datetime_iso || o.style.nan_null || o.style.big_int_string))
        return cli_usage(&dump_command, "--float, --datetime, --nan and --big-int shape text; "
                                        "--arrow keeps the values' types");
    if (o.format == FORMAT_ARROW && args.noperands > 1)
        return cli_usage(&dump_command, "--arrow writes one stream of one array: give one FILE");
    if (o.format == FORMAT_ARROW && o.rows.index_column)
        return cli_usage(&dump_command, "--index-column is for --jsonl, --csv and --tsv");
    if (o.format == FORMAT_ARROW && !o.output && isatty(STDOUT_FILENO))
        return cli_usage(&dump_command, "--arrow writes binary: give -o OUT or a pipe, not a "
                                        "terminal");

    struct cli_inputs inputs;
    cli_inputs_init(&inputs, NULL);
    /* records written to the terminal would be torn by a progress line */
    if (isatty(STDOUT_FILENO))
        o.quiet = 1;
    inputs.quiet = o.quiet;
    for (int a = 0; a < args.noperands && status == EXIT_OK; a++) {
        const char *file = args.operands[a];
        size_t from = inputs.count;
        status = cli_inputs_add(&inputs, file);
        size_t got = inputs.count - from;
        if (status != EXIT_OK || o.format == FORMAT_TABLE || o.format == FORMAT_VERTICAL ||
            got == 1)
            continue;
        /* JSON lines are the elements of one array: a member separator
         * would be a line like any record, so the archive must be narrowed */
        static const char *const flag[] = {"", "--jsonl", "--csv", "--tsv", "--vertical",
                                           "--arrow"};
        char names[256];
        list_members(names, sizeof names, &inputs, from);
        status = got == 0
                     ? cli_usage(&dump_command, "%s prints the elements of one array, and "
                                       "'%s' holds none",
                                       flag[o.format], file)
                     : cli_usage(&dump_command, "%s prints the elements of one array, and "
                                       "'%s' holds %zu (%s): name one as '%s:NAME'",
                                       flag[o.format], file, got, names, file);
    }
    if (status != EXIT_OK)
        goto done;
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    size_t printed = 0;
    if (inputs.count == 1) {
        status = dump_input(&inputs.items[0], &o, DUMP_ALL, &printed);
    } else {
        /* every input is checked before the first is printed; of several
         * FILEs each gets its error line, and the highest status wins */
        int several = args.noperands > 1;
        for (size_t i = 0; i < inputs.count && (several || status == EXIT_OK); i++) {
            int s = dump_input(&inputs.items[i], &o, DUMP_CHECK, &printed);
            status = s > status ? s : status;
        }
        if (status == EXIT_OK && several)
            status = same_dtype(&inputs);
        for (size_t i = 0; i < inputs.count && status == EXIT_OK; i++) {
            status = dump_input(&inputs.items[i], &o, DUMP_PRINT, &printed);
            o.several = 1;
        }
    }
done:
    cli_inputs_free(&inputs);
    return status;
}


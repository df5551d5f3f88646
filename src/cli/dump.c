/* npydt dump: the records of a file, as JSON lines (the contract in
 * ../shared/spec/cli-json.md) or as a table for people. This file reads
 * the options and the data; values are written by dump_value.c, doubles
 * by float_format.c, the table by dump_table.c.
 *
 * Elements come out in C order of the logical array whatever the file's
 * fortran_order. Floats print as Python's repr() does (the shortest digits
 * that read back to the same double), so the output matches json.dumps of
 * NumPy's values character for character. The command never calls
 * setlocale: printf and strtod use the "C" locale's '.'. */
#include "dump.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_JSONL = 1, OPT_FIELDS, OPT_HEAD };

static const struct cli_option dump_options[] = {
    {OPT_JSONL, "jsonl", 0, NULL, "one JSON value per element and line"},
    {OPT_FIELDS, "fields", 0, "A,B.C", "print only these fields (paths, comma-separated)"},
    {OPT_HEAD, "head", 0, "N", "print the first N elements only"},
};

static const struct cli_command dump_command = {
    "dump",
    "dump [--jsonl] [--fields A,B.C] [--head N] FILE",
    "Print the elements of the .npy FILE in C order. By default a table of the\n"
    "first 20 elements; with --jsonl one JSON value per element and line (all\n"
    "of them unless --head N is given). --fields selects fields by path\n"
    "(pos.x, samples[2], a title) and prints an object of them per element.\n"
    "Object arrays cannot be dumped (exit 1).\n"
    "\n"
    "FILE may be ARCHIVE.npz:NAME, one member of an archive (NAME with or\n"
    "without .npy), printed exactly as the member saved alone would be; or\n"
    "ARCHIVE.npz, whose members are printed as tables one after another.\n"
    "--jsonl prints the elements of one array: an archive with more than one\n"
    "member must be narrowed to ARCHIVE.npz:NAME (exit 2 otherwise). Every\n"
    "member printed is checked in full (sizes, deflate stream, CRC-32) before\n"
    "anything is printed; deflated members are inflated through a bounded\n"
    "buffer, and no further than --head needs once checked.\n",
    dump_options, sizeof dump_options / sizeof dump_options[0],
};

#define TEXT_DEFAULT_HEAD 20
/* The table is laid out before it is printed (column widths): its rows are
 * held in memory, so it is for people and has a cap; --jsonl streams. */
#define TEXT_MAX_ROWS 100000u

/* ---- the command --------------------------------------------------------------------- */

/* A count of decimal digits; one too large for 64 bits means all. */
static int parse_count(const char *s, uint64_t *out)
{
    if (!*s)
        return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX : v * 10 + (uint64_t)(*s - '0');
    }
    *out = v;
    return 0;
}

/* Split "a,b.c" into the selected fields of dt. */
static int select_fields(const char *file, const char *spec, const npydt_dtype *dt,
                         struct selected **out, size_t *nout, char **storage)
{
    char *copy = strdup(spec);
    if (!copy)
        return cli_usage_error("out of memory");
    size_t n = 1;
    for (const char *c = spec; *c; c++)
        n += *c == ',';
    struct selected *sel = calloc(n, sizeof *sel);
    if (!sel) {
        free(copy);
        return cli_usage_error("out of memory");
    }
    size_t k = 0;
    char *save = copy;
    for (size_t i = 0; i < n; i++) {
        char *comma = strchr(save, ',');
        if (comma)
            *comma = '\0';
        if (!*save) {
            free(sel);
            free(copy);
            return cli_usage_error("dump: empty field name in --fields '%s'", spec);
        }
        for (size_t j = 0; j < k; j++)
            if (strcmp(sel[j].path, save) == 0) {
                int st = cli_usage_error("dump: field '%s' given twice", save);
                free(sel);
                free(copy);
                return st;
            }
        npydt_error err;
        if (npydt_field_lookup(dt, save, &sel[k].offset, &sel[k].dtype, &err) != NPYDT_OK) {
            free(sel);
            free(copy);
            return cli_report(file, &err);
        }
        sel[k].path_len = strlen(save);
        sel[k++].path = save;
        save = comma ? comma + 1 : save + strlen(save);
    }
    *out = sel;
    *nout = k;
    *storage = copy;
    return EXIT_OK;
}

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
    int jsonl;
    const char *fields;
    uint64_t head;
    int have_head;
};

/* How far dump_input goes with an input. */
enum dump_phase {
    DUMP_CHECK,       /* refuse what cannot be printed; print nothing */
    DUMP_ALL,         /* check, then print */
    DUMP_PRINT        /* print what DUMP_CHECK has passed */
};

/* The U scalars among the bytes printed (all, or the selected fields) of
 * the first `rows` elements must be text: look before printing anything. */
static int check_rows_unicode(struct dumper *d, npydt_reader *src, uint64_t rows,
                              const npydt_dtype *dt, const struct selected *sel, size_t nsel)
{
    size_t itemsize = npydt_dtype_itemsize(dt);
    for (uint64_t done = 0; done < rows;) {
        const unsigned char *batch;
        uint64_t n;
        if (dump_next_batch(src, rows - done, &batch, &n, &d->err) != NPYDT_OK)
            return -1;
        if (n == 0)
            return 0;
        for (uint64_t j = 0; j < n; j++) {
            const unsigned char *rec = batch + j * itemsize;
            int bad = 0;
            if (!sel)
                bad = dump_check_unicode(d, dt, rec, 0, UINT64_MAX);
            for (size_t k = 0; sel && k < nsel && !bad; k++)
                bad = dump_check_unicode(d, dt, rec, sel[k].offset,
                                    sel[k].offset + npydt_dtype_itemsize(sel[k].dtype));
            if (bad)
                return -1;
        }
        done += n;
    }
    return 0;
}

static void make_title(char *title, size_t size, const char *name, const npydt_header *h)
{
    const npydt_dtype *dt = npydt_header_dtype(h);
    char descr[200];
    size_t need = npydt_dtype_descr(dt, descr, sizeof descr);
    int t = snprintf(title, size, "%s: shape (", name);
    for (size_t k = 0; k < npydt_header_ndim(h) && t > 0 && (size_t)t < size; k++)
        t += snprintf(title + t, size - (size_t)t, "%s%llu", k ? ", " : "",
                      (unsigned long long)npydt_header_shape(h)[k]);
    if (t > 0 && (size_t)t < size)
        snprintf(title + t, size - (size_t)t, "%s), %s order, dtype %s%s\n",
                 npydt_header_ndim(h) == 1 ? "," : "",
                 npydt_header_fortran_order(h) ? "Fortran" : "C", descr,
                 need >= sizeof descr ? "..." : "");
}

/* Check and/or print one input (a .npy file or an archive member).
 * *printed counts the inputs printed so far (text tables are separated by
 * a blank line). Returns an exit status. */
static int dump_input(const struct cli_input *in, const struct dump_opts *o,
                      enum dump_phase phase, size_t *printed)
{
    npydt_header *h;
    npydt_error err;
    if (cli_input_header(in, &h, &err) != NPYDT_OK)
        return cli_report(in->name, &err);
    const npydt_dtype *dt = npydt_header_dtype(h);
    struct selected *sel = NULL;
    size_t nsel = 0;
    char *storage = NULL;
    struct dumper d = {0};
    npydt_reader *src = NULL;
    int status = EXIT_OK;
    if (npydt_dtype_has_object(dt)) {
        status = cli_fail(in->name, NPYDT_E_OBJECT, "%s",
                          "object arrays hold pickled Python objects and cannot be dumped");
        goto out;
    }
    if (o->fields &&
        (status = select_fields(in->name, o->fields, dt, &sel, &nsel, &storage)) != EXIT_OK)
        goto out;
    d.ubuf_size = max_unicode(dt) + 1;
    d.ubuf = malloc(d.ubuf_size);
    if (!d.ubuf) {
        status = cli_usage_error("out of memory");
        goto out;
    }
    uint64_t count = npydt_header_count(h);
    uint64_t rows = count;
    if (o->have_head && o->head < rows)
        rows = o->head;
    if (!o->jsonl && !o->have_head && rows > TEXT_DEFAULT_HEAD)
        rows = TEXT_DEFAULT_HEAD;
    if (!o->jsonl && rows > TEXT_MAX_ROWS) {
        status = cli_usage_error("dump: the table shows at most %u rows (--head); use --jsonl for more",
                                 TEXT_MAX_ROWS);
        goto out;
    }
    int check_text = phase != DUMP_PRINT && d.ubuf_size > 1;
    /* a .npy file's size was checked with its header; a member's data is
     * checked (CRC included) when it is opened */
    if (phase == DUMP_CHECK && !check_text && !in->npz)
        goto out;
    if (cli_input_reader(in, h, phase == DUMP_PRINT, &src, &err) != NPYDT_OK) {
        status = cli_report(in->name, &err);
        goto out;
    }
    if (check_text) {
        if (check_rows_unicode(&d, src, rows, dt, sel, nsel) != 0) {
            status = cli_report(in->name, &d.err);
            goto out;
        }
        if (npydt_reader_rewind(src, &err) != NPYDT_OK) {
            status = cli_report(in->name, &err);
            goto out;
        }
    }
    if (phase == DUMP_CHECK)
        goto out;

    FILE *out = stdout;
    if (o->jsonl) {
        size_t itemsize = npydt_dtype_itemsize(dt);
        uint64_t done = 0;
        while (done < rows && !d.failed) {
            const unsigned char *batch;
            uint64_t n;
            if (dump_next_batch(src, rows - done, &batch, &n, &d.err) != NPYDT_OK || n == 0) {
                d.failed = 1;
                break;
            }
            for (uint64_t j = 0; j < n; j++, done++) {
                if (dump_put_element(&d, out, dt, batch + j * itemsize, sel, nsel) != 0)
                    break;
                putc('\n', out);
                if ((done & 4095) == 4095 && ferror(out))
                    break;   /* the caller reports the write error */
            }
            if (ferror(out))
                break;
        }
    } else {
        /* room for the whole title, however long the path: the name, each
         * dimension (20 digits and ", "), the descriptor cut at 199 bytes
         * with "...", and the fixed words */
        size_t tsize = strlen(in->name) + 22 * npydt_header_ndim(h) + 256;
        char *title = malloc(tsize);
        if (title)
            make_title(title, tsize, in->name, h);
        if ((*printed)++)
            putc('\n', out);
        if (!title || dump_print_table(&d, out, title, src, sel, nsel, rows) != 0) {
            if (!d.failed)
                status = cli_usage_error("out of memory");
        } else if (rows < count) {
            fprintf(out, "(%llu of %llu elements; --head N or --jsonl for more)\n",
                    (unsigned long long)rows, (unsigned long long)count);
        }
        free(title);
    }
    if (d.failed) {
        /* only reachable for data the checks above let through */
        status = cli_report(in->name, &d.err);
    }
out:
    npydt_reader_close(src);
    free(d.ubuf);
    free(sel);
    free(storage);
    npydt_header_free(h);
    return status;
}

/* Up to 5 member names for a message, as "a.npy, b.npy, ...". */
static void list_members(char *buf, size_t size, const struct cli_inputs *inputs)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < inputs->count && i < 5 && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
                                inputs->items[i].member);
    if (inputs->count > 5 && len < size)
        snprintf(buf + len, size - len, ", ...");
}

int cmd_dump(int argc, char **argv)
{
    struct dump_opts o = {0};
    struct cli_args args;
    cli_args_init(&args, &dump_command, argc, argv);
    for (int opt; (opt = cli_args_next(&args)) != 0;) {
        switch (opt) {
        case OPT_JSONL:
            o.jsonl = 1;
            break;
        case OPT_FIELDS:
            o.fields = args.value;
            break;
        case OPT_HEAD:
            if (parse_count(args.value, &o.head) != 0)
                return cli_usage_error("dump: --head needs a count (0 or more)");
            o.have_head = 1;
            break;
        default:
            return args.status;
        }
    }
    if (args.noperands > 1)
        return cli_usage_error("dump: more than one FILE ('%s' and '%s')", args.operands[0],
                               args.operands[1]);
    if (args.noperands == 0) {
        cli_usage_error("dump: no FILE given");
        cli_try_help(&dump_command);
        return EXIT_USAGE;
    }
    const char *file = args.operands[0];

    struct cli_inputs inputs;
    cli_inputs_init(&inputs, NULL);
    int status = cli_inputs_add(&inputs, file);
    if (status != EXIT_OK)
        goto done;
    if (o.jsonl && inputs.count != 1) {
        /* JSON lines are the elements of one array: a member separator
         * would be a line like any record, so the archive must be narrowed */
        char names[256];
        list_members(names, sizeof names, &inputs);
        status = inputs.count == 0
                     ? cli_usage_error("dump: --jsonl prints the elements of one array, and "
                                       "'%s' holds none",
                                       file)
                     : cli_usage_error("dump: --jsonl prints the elements of one array, and "
                                       "'%s' holds %zu (%s): name one as '%s:NAME'",
                                       file, inputs.count, names, file);
        goto done;
    }
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    size_t printed = 0;
    if (inputs.count == 1) {
        status = dump_input(&inputs.items[0], &o, DUMP_ALL, &printed);
    } else {
        /* every member is checked before the first is printed */
        for (size_t i = 0; i < inputs.count && status == EXIT_OK; i++)
            status = dump_input(&inputs.items[i], &o, DUMP_CHECK, &printed);
        for (size_t i = 0; i < inputs.count && status == EXIT_OK; i++)
            status = dump_input(&inputs.items[i], &o, DUMP_PRINT, &printed);
    }
done:
    cli_inputs_free(&inputs);
    return status;
}


/* npydt dump's table for people: an index column and one column per
 * field, laid out before it is printed. */
#include "cli/dump/dump.h"
#include "cli/common/report.h"

#include <stdlib.h>
#include <string.h>

/* Display bytes of a cell before it is cut. */
#define CELL_MAX 40

/* ---- the table for people ---------------------------------------------------------- */

void dump_put_index(struct sink *out, const npydt_header *h, uint64_t flat)
{
    size_t nd = npydt_header_ndim(h);
    const uint64_t *shape = npydt_header_shape(h);
    if (nd == 1) {
        char buf[24];
        sink_write(out, buf, (size_t)snprintf(buf, sizeof buf, "%llu", (unsigned long long)flat));
        return;
    }
    uint64_t idx[64];
    size_t shown = nd < 64 ? nd : 64;
    for (size_t k = nd; k-- > 0;) {
        if (k < 64)
            idx[k] = flat % shape[k];
        flat /= shape[k];
    }
    sink_putc(out, '(');
    for (size_t k = 0; k < shown; k++)
    {
        char buf[24];
        sink_write(out, buf, (size_t)snprintf(buf, sizeof buf, "%s%llu", k ? "," : "",
                                              (unsigned long long)idx[k]));
    }
    sink_putc(out, ')');
}

/* A cell's text from the n bytes at s, cut to CELL_MAX bytes (text is
 * only written up to a byte past that: the sink's limit), with control
 * characters and line breaks escaped (cli_text_escape_into): a string in
 * the file cannot move the terminal's cursor or change its colours. NULL
 * when out of memory. */
static char *cell_text(const char *s, size_t n, size_t *len)
{
    size_t keep = n > CELL_MAX ? CELL_MAX - 3 : n;
    while (n > CELL_MAX && keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
        keep--;   /* not inside a UTF-8 sequence */
    char *t = malloc(CLI_TEXT_ESCAPED_MAX(keep) + 4);
    if (!t)
        return NULL;
    *len = cli_text_escape_into(t, s, keep);
    memcpy(t + *len, n > CELL_MAX ? "..." : "", n > CELL_MAX ? 4 : 1);
    *len += n > CELL_MAX ? 3 : 0;
    return t;
}

/* A column's name as the header row shows it: control characters and
 * line breaks escaped (cli_text_escape_into). NULL when out of memory. */
static char *name_text(const char *s, size_t n, size_t *len)
{
    char *t = n <= (SIZE_MAX - 1) / 4 ? malloc(CLI_TEXT_ESCAPED_MAX(n) + 1) : NULL;
    if (t) {
        *len = cli_text_escape_into(t, s, n);
        t[*len] = '\0';
    }
    return t;
}

/* A scalar column (not a struct, not an array): its cells are NumPy's
 * str() of the value. */
static bool scalar_column(const struct selected *c)
{
    return c->ndim == 0 && npydt_dtype_get_class(c->dtype) == NPYDT_SCALAR;
}

/* The terminal columns of escaped text (no NUL in it). */
static size_t display_width(const char *s)
{
    return npydt_text_width(s, strlen(s));
}

static void pad(struct sink *out, size_t n)
{
    while (n--)
        sink_putc(out, ' ');
}

/* The cells of the table's rows (read-only while they are made but for
 * each row's own cells): a worker's state is the scratch of
 * dump_put_str. */
struct table_rows {
    const npydt_header *h;
    const struct selected *cols;
    size_t ncols;
    char **cells;   /* ncols + 1 a row */
    size_t tmp_size;
};

static int table_open(const void *ctx, void *state)
{
    const struct table_rows *t = ctx;
    return (*(char **)state = malloc(t->tmp_size)) ? 0 : -1;
}

static void table_close(void *state)
{
    free(*(char **)state);
}

/* The cells of row i: the index, then a cell a column. */
static int table_put(const void *ctx, void *state, struct dumper *d, struct sink *out, uint64_t i,
                     uint64_t flat, const unsigned char *rec)
{
    const struct table_rows *t = ctx;
    char *tmp = *(char **)state;
    (void)out;
    for (size_t c = 0; c <= t->ncols; c++) {
        /* a cell shows its first CELL_MAX bytes: the value is written no
         * further, however many scalars it holds */
        const struct selected *col = c ? &t->cols[c - 1] : NULL;
        struct sink m;
        sink_init(&m, SINK_MEMORY);
        m.limit = CELL_MAX + 1;
        int rc = 0;
        if (c == 0)
            dump_put_index(&m, t->h, flat);
        else
            rc = scalar_column(col) ? dump_put_str(d, &m, col->dtype, rec + col->offset, tmp)
                                    : dump_put_selected(d, &m, col, rec);
        size_t len;
        char *text = rc || m.bytes.failed ? NULL : cell_text(m.bytes.buf, m.bytes.len, &len);
        sink_free(&m);
        if (!text)
            return -1;
        t->cells[i * (t->ncols + 1) + c] = text;
    }
    return 0;
}

/* The selected elements as a table: the selected fields, the top-level
 * fields or the whole value per column. A scalar cell is NumPy's str() of
 * the value (dump_put_str: ISO dates, NaT, strings as plain text), a cell
 * of a struct or an array its JSON; any cell with control characters
 * escaped. */
int dump_print_table(struct dumper *d, struct sink *out, const char *title, struct cursor *cur,
                     const struct selection *s, const struct selected *sel, size_t nsel,
                     unsigned jobs)
{
    const npydt_header *h = cur->h;
    const npydt_dtype *dt = npydt_header_dtype(h);
    uint64_t rows = s->total;
    size_t ncols;
    struct selected *cols;
    struct selected whole = {.path = "value", .dtype = dt, .path_len = 5};
    if (sel) {
        ncols = nsel;
        cols = (struct selected *)sel;
    } else if (npydt_dtype_get_class(dt) == NPYDT_STRUCT && npydt_dtype_nfields(dt) > 0) {
        ncols = npydt_dtype_nfields(dt);
        cols = calloc(ncols, sizeof *cols);
        if (!cols)
            return -1;
        for (size_t i = 0; i < ncols; i++) {
            const char *name = npydt_dtype_field_name(dt, i);
            size_t len = npydt_dtype_field_name_len(dt, i);
            cols[i].path = len ? name : "''";
            cols[i].offset = npydt_dtype_field_offset(dt, i);
            cols[i].dtype = npydt_dtype_field_dtype(dt, i);
            cols[i].path_len = len ? len : 2;
        }
    } else {
        ncols = 1;
        cols = &whole;
    }
    size_t ncells = 0;   /* rows <= TEXT_MAX_ROWS, but a struct may have many fields */
    char **cells = __builtin_mul_overflow((size_t)rows, ncols + 1, &ncells)
                       ? NULL
                       : calloc(ncells ? ncells : 1, sizeof *cells);
    size_t *width = calloc(ncols + 1, sizeof *width);
    char **names = calloc(ncols + 1, sizeof *names);
    size_t *name_len = calloc(ncols + 1, sizeof *name_len);
    int rc = cells && width && names && name_len ? 0 : -1;
    /* the scratch of dump_put_str: for the widest scalar column */
    size_t tmp_size = 64;
    for (size_t c = 0; c < ncols && rc == 0; c++) {
        size_t need;
        if (!scalar_column(&cols[c]))
            continue;
        if (__builtin_mul_overflow(npydt_dtype_itemsize(cols[c].dtype), 5, &need) ||
            __builtin_add_overflow(need, 64, &need))
            rc = -1;
        else if (need > tmp_size)
            tmp_size = need;
    }
    if (rc == 0)
        width[0] = strlen("index");
    for (size_t c = 0; c < ncols && rc == 0; c++) {
        if (!(names[c] = name_text(cols[c].path, cols[c].path_len, &name_len[c])))
            rc = -1;
        else
            width[c + 1] = npydt_text_width(names[c], name_len[c]);
    }
    struct table_rows tab = {h, cols, ncols, cells, tmp_size};
    struct dump_rows tr = {&tab, sizeof(char *), table_open, table_put, table_close, NULL};
    if (rc == 0)
        rc = dump_rows_run(d, out, cur, s, jobs, &tr);
    for (size_t i = 0; rc == 0 && i < ncells; i++) {
        size_t c = i % (ncols + 1), w = display_width(cells[i]);
        if (w > width[c])
            width[c] = w;
    }
    if (rc == 0) {
        sink_puts(out, title);
        sink_puts(out, "index");
        pad(out, width[0] - 5);
        for (size_t c = 0; c < ncols; c++) {
            sink_puts(out, "  ");
            sink_write(out, names[c], name_len[c]);
            if (c + 1 < ncols)
                pad(out, width[c + 1] - npydt_text_width(names[c], name_len[c]));
        }
        sink_putc(out, '\n');
        for (uint64_t i = 0; i < rows; i++) {
            for (size_t c = 0; c <= ncols; c++) {
                const char *t = cells[i * (ncols + 1) + c];
                if (c)
                    sink_puts(out, "  ");
                sink_puts(out, t);
                if (c < ncols)
                    pad(out, width[c] - display_width(t));
            }
            sink_putc(out, '\n');
        }
    }
    for (size_t i = 0; cells && i < ncells; i++)
        free(cells[i]);
    free(cells);
    free(width);
    for (size_t c = 0; names && c < ncols; c++)
        free(names[c]);
    free(names);
    free(name_len);
    if (cols != sel && cols != &whole)
        free(cols);
    return rc;
}

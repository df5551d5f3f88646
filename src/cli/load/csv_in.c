/* CSV and TSV input, as dump --csv / --tsv writes them: a header row of
 * field paths (npydt_field_lookup's syntax: pos.x, samples[3], m[0,1];
 * "value" for an array without fields), then a row per element. CSV is
 * read by libcsv (RFC 4180, strict: a stray quote is an error); TSV has no
 * quoting, its cells' tab, LF, CR and backslash written \t, \n, \r, \\.
 *
 * Cells are NumPy's str() of the values: True / False, numbers, nan, inf,
 * NaT, complex as 1.5+2j (parentheses allowed), S with \xNN for bytes
 * outside printable ASCII and \\ for a backslash, U as UTF-8, V as hex;
 * an empty cell is NaN / NaT (an empty string for S and U). */
#include "cli/load/load.h"
#include "cli/common/report.h"

#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One column: the scalar element it fills. */
struct column {
    uint64_t offset;
    const npydt_dtype *dtype;
};

struct csv_state {
    struct load_record *rec;
    const struct load_sink *sink;
    struct load_where *where;
    npydt_error *err;
    npydt_status st;          /* the first error */
    struct column *cols;
    size_t ncols, cap, cell;  /* columns; the cell of the current row */
    int header_done;
    char *buf;                /* unescaped cell text */
    size_t buf_cap;
};

static int grow(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    char *b = realloc(*buf, need);
    if (!b)
        return -1;
    *buf = b;
    *cap = need;
    return 0;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* S cell: \xNN, \\, \t, \n, \r as bytes; other text as it is. */
static size_t unescape_bytes(const char *s, size_t n, char *o)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n) {
            char c = s[i + 1];
            if (c == 'x' && i + 3 < n && hexval(s[i + 2]) >= 0 && hexval(s[i + 3]) >= 0) {
                o[k++] = (char)(hexval(s[i + 2]) << 4 | hexval(s[i + 3]));
                i += 3;
                continue;
            }
            const char *from = "\\tnr", *to = "\\\t\n\r";
            const char *m = strchr(from, c);
            if (m && c) {
                o[k++] = to[m - from];
                i++;
                continue;
            }
        }
        o[k++] = s[i];
    }
    return k;
}

/* A real part or an imaginary part's text (n > 0) as a value. */
static struct load_value part(const char *s, size_t n)
{
    struct load_value v = {LOAD_STRING, s, n};
    if (s[0] == '+') {
        v.text++;
        v.len--;
    }
    if (text_is_number(v.text, v.len))
        v.kind = LOAD_NUMBER;
    return v;
}

/* "1.5+2j", "(1.5-2e-05j)", "nan+infj", "-inf-infj" into re and im. */
static int split_complex(const char *s, size_t n, struct load_value *re, struct load_value *im)
{
    if (n >= 2 && s[0] == '(' && s[n - 1] == ')') {
        s++;
        n -= 2;
    }
    if (n < 2 || s[n - 1] != 'j')
        return -1;
    n--;
    for (size_t i = n; i-- > 1;) {
        if ((s[i] == '+' || s[i] == '-') && s[i - 1] != 'e' && s[i - 1] != 'E') {
            *re = part(s, i);
            *im = part(s + i, n - i);
            return 0;
        }
    }
    return -1;
}

/* Keep st as the result: called only while no error has been kept (every
 * caller stops at the first one). */
static npydt_status fail(struct csv_state *c, npydt_status st)
{
    c->st = st;
    return st;
}

/* A cell of a data row into its column's element. */
static void data_cell(struct csv_state *c, const char *s, size_t n)
{
    if (c->cell >= c->ncols) {
        cli_error(c->err, NPYDT_E_VALUE, "more cells than the %zu columns of the header",
                  c->ncols);
        fail(c, NPYDT_E_VALUE);
        return;
    }
    const struct column *col = &c->cols[c->cell++];
    char kind = npydt_dtype_kind(col->dtype);
    struct load_value v = {LOAD_STRING, s, n}, im;
    if (kind == 'c' && n) {
        if (split_complex(s, n, &v, &im) == 0) {
            fail(c, load_record_put_complex(c->rec, col->offset, col->dtype, &v, &im, c->err));
            return;
        }
        v = part(s, n);   /* a real number alone */
    } else if (kind == 'S') {
        if (grow(&c->buf, &c->buf_cap, n + 1) != 0) {
            fail(c, cli_error(c->err, NPYDT_E_NOMEM, "out of memory"));
            return;
        }
        v.text = c->buf;
        v.len = unescape_bytes(s, n, c->buf);
    } else if (kind != 'U' && kind != 'V') {
        if (n == 0)
            v.kind = LOAD_NULL;
        else if (kind == 'b' && (strncmp(s, "True", n) == 0 || strncmp(s, "true", n) == 0) &&
                 n == 4)
            v.kind = LOAD_TRUE;
        else if (kind == 'b' && (strncmp(s, "False", n) == 0 || strncmp(s, "false", n) == 0) &&
                 n == 5)
            v.kind = LOAD_FALSE;
        else
            v = part(s, n);
    }
    fail(c, load_record_put(c->rec, col->offset, col->dtype, &v, c->err));
}

static void header_cell(struct csv_state *c, const char *s, size_t n)
{
    if (c->ncols == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        struct column *cols = realloc(c->cols, cap * sizeof *cols);
        if (!cols) {
            fail(c, cli_error(c->err, NPYDT_E_NOMEM, "out of memory"));
            return;
        }
        c->cols = cols;
        c->cap = cap;
    }
    struct column *col = &c->cols[c->ncols++];
    const npydt_dtype *root = c->rec->dtype;
    if (npydt_dtype_get_class(root) == NPYDT_SCALAR && n == 5 && memcmp(s, "value", 5) == 0) {
        *col = (struct column){0, root};
        return;
    }
    if (fail(c, load_record_lookup(c->rec, root, 0, s, n, &col->offset, &col->dtype,
                                   c->err)) != NPYDT_OK)
        return;
    if (npydt_dtype_get_class(col->dtype) != NPYDT_SCALAR) {
        cli_error(c->err, NPYDT_E_VALUE, "column '%.*s' holds more than one value: name its "
                  "elements", (int)(n > 100 ? 100 : n), s);
        fail(c, NPYDT_E_VALUE);
    }
}

static void on_cell(void *data, size_t n, void *ctx)
{
    struct csv_state *c = ctx;
    if (c->st != NPYDT_OK)
        return;
    const char *s = data ? data : "";
    if (!c->header_done)
        header_cell(c, s, n);
    else
        data_cell(c, s, n);
}

static void on_row(int term, void *ctx)
{
    (void)term;
    struct csv_state *c = ctx;
    if (c->st != NPYDT_OK)
        return;
    if (!c->header_done) {
        c->header_done = 1;   /* with a column: libcsv ends no row without a cell */
    } else if (c->cell < c->ncols) {
        /* a short row: the first column left out is missing */
        const struct column *col = &c->cols[c->cell];
        cli_error(c->err, NPYDT_E_KEY, "missing field (%zu cells for %zu columns)", c->cell,
                  c->ncols);
        load_record_path(c->rec, col->offset, col->dtype, c->err);
        fail(c, NPYDT_E_KEY);
        return;
    } else if (fail(c, load_record_complete(c->rec, c->err)) != NPYDT_OK ||
               fail(c, c->sink->record(c->sink->ctx, c->rec->bytes, c->err)) != NPYDT_OK) {
        return;
    }
    c->where->line++;
    c->cell = 0;
    load_record_clear(c->rec);
}

/* TSV: the cells of each line, split at tabs and unescaped. */
static npydt_status read_tsv(FILE *in, struct csv_state *c)
{
    struct load_lines lines;
    load_lines_init(&lines, in);
    const char *line;
    size_t len;
    int got = 0;
    while (c->st == NPYDT_OK && (got = load_lines_next(&lines, &line, &len, c->err)) > 0) {
        if (len == 0)
            continue;
        c->where->line = lines.line;
        if (grow(&c->buf, &c->buf_cap, len + 1) != 0) {
            fail(c, cli_error(c->err, NPYDT_E_NOMEM, "out of memory"));
            break;
        }
        /* cells are unescaped into a copy: S cells unescape again in place */
        char *copy = malloc(len + 1);
        if (!copy) {
            fail(c, cli_error(c->err, NPYDT_E_NOMEM, "out of memory"));
            break;
        }
        size_t start = 0;
        for (size_t i = 0; i <= len && c->st == NPYDT_OK; i++) {
            if (i < len && line[i] != '\t')
                continue;
            size_t k = 0;
            for (size_t j = start; j < i; j++) {
                if (line[j] == '\\' && j + 1 < i && strchr("tnr\\", line[j + 1])) {
                    char e = line[++j];
                    copy[k++] = e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : '\\';
                } else {
                    copy[k++] = line[j];
                }
            }
            on_cell(copy, k, c);
            start = i + 1;
        }
        free(copy);
        uint64_t keep = c->where->line;
        on_row('\n', c);
        c->where->line = keep;
    }
    if (got < 0)
        fail(c, c->err->code);
    load_lines_free(&lines);
    return c->st;
}

npydt_status load_csv(FILE *in, char sep, struct load_record *rec, const struct load_sink *sink,
                      struct load_where *where, npydt_error *err)
{
    struct csv_state c = {rec, sink, where, err, NPYDT_OK, NULL, 0, 0, 0, 0, NULL, 0};
    load_record_clear(rec);
    if (sep == '\t') {
        npydt_status st = read_tsv(in, &c);
        if (st == NPYDT_OK && !c.header_done)
            st = cli_error(err, NPYDT_E_VALUE, "no header row");
        free(c.cols);
        free(c.buf);
        return st;
    }
    where->line = 1;
    struct csv_parser p;
    csv_init(&p, CSV_STRICT | CSV_STRICT_FINI);   /* fails only for a NULL parser */
    char block[1 << 16];
    size_t n;
    while (c.st == NPYDT_OK && (n = fread(block, 1, sizeof block, in)) > 0) {
        if (csv_parse(&p, block, n, on_cell, on_row, &c) != n && c.st == NPYDT_OK)
            fail(&c, cli_error(err, NPYDT_E_SYNTAX, "CSV: %s",
                               csv_error(&p) == CSV_EPARSE ? "a quote inside an unquoted cell, "
                                                             "or text after a closing quote"
                                                           : csv_strerror(csv_error(&p))));
    }
    if (c.st == NPYDT_OK && ferror(in))
        fail(&c, cli_error(err, NPYDT_E_IO, "read failed: %s", strerror(errno)));
    if (c.st == NPYDT_OK && csv_fini(&p, on_cell, on_row, &c) != 0)   /* no callback then */
        fail(&c, cli_error(err, NPYDT_E_SYNTAX, "CSV: a quoted cell is not closed"));
    if (c.st == NPYDT_OK && !c.header_done)
        fail(&c, cli_error(err, NPYDT_E_VALUE, "no header row"));
    csv_free(&p);
    free(c.cols);
    free(c.buf);
    return c.st;
}

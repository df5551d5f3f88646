/* CSV and TSV input, as dump --csv / --tsv writes them: a header row of
 * field paths (npydt_field_lookup's syntax: pos.x, samples[3], m[0,1];
 * "value" for an array without fields), then a row per element. CSV is
 * RFC 4180, strict: a cell may be quoted, "" is a quote inside one, a
 * stray quote is an error; a row ends at LF, CR or CRLF outside quotes;
 * blank rows are skipped; spaces and tabs around a cell (outside its
 * quotes) are dropped. Rows are split in memory, over the blocks the line
 * reader reads: an unquoted cell is found by one scan for the separator,
 * a quote or a line end, a quoted one by memchr for its quotes. TSV has no
 * quoting, its cells' tab, LF, CR and backslash written \t, \n, \r, \\.
 *
 * When the header names every scalar element once, each column has its
 * step (load_step.c): a cell then goes straight into its bytes, read once
 * (a number by the integer reader or text_read_double, which check its
 * form as they convert); a cell the step does not take (nan, an empty
 * cell, a complex, a value out of range or of another form) is read by
 * the general path below, which gives the result or the error.
 *
 * Cells are NumPy's str() of the values: True / False, numbers, nan, inf,
 * NaT, complex as 1.5+2j (parentheses allowed), S with \xNN for bytes
 * outside printable ASCII and \\ for a backslash, U as UTF-8, V as hex;
 * an empty cell is NaN / NaT (an empty string for S and U). */
#include "cli/load/load.h"
#include "cli/common/report.h"

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
    char sep;                 /* ',' CSV, '\t' TSV */
    int shared;               /* cols and steps are the reader's cloned from */
    const struct load_sink *sink;
    struct load_span *sp;     /* of the run being read */
    uint64_t left;            /* records the run may still give (span's max_records) */
    npydt_error *err;
    npydt_status st;          /* the first error */
    struct column *cols;
    size_t ncols, cap, cell;  /* columns; the cell of the current row */
    int header_done;
    char *buf;                /* unescaped cell text */
    size_t buf_cap;
    struct load_step *steps;  /* per column, when planned */
    int planned;              /* the columns are every scalar element, once */
    char *cell_buf;           /* a quoted cell's text without its "" */
    size_t cell_cap;
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
    if (c->planned && c->steps[c->cell].op != LOAD_OP_NONE) {
        const struct load_step *st = &c->steps[c->cell];
        const char *t = s;
        size_t k = n;
        if (st->op == LOAD_OP_BYTES && memchr(s, '\\', n)) {
            if (grow(&c->buf, &c->buf_cap, n + 1) != 0) {
                fail(c, cli_error(c->err, NPYDT_E_NOMEM, "out of memory"));
                return;
            }
            k = unescape_bytes(s, n, c->buf);
            t = c->buf;
        }
        if (load_step_text(st, t, k, c->rec->bytes)) {
            c->cell++;
            return;
        }
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

/* After the header: each column's step when the columns are every
 * scalar element of the record once (rows then need no record of which
 * elements they set); otherwise every cell takes the general path. */
static void plan_columns(struct csv_state *c)
{
    const struct load_record *rec = c->rec;
    if (c->ncols != rec->nslots || !c->ncols || rec->general)
        return;
    unsigned char *taken = calloc(c->ncols, 1);
    c->steps = malloc(c->ncols * sizeof *c->steps);
    int ok = taken && c->steps;
    for (size_t k = 0; k < c->ncols && ok; k++) {
        /* the slot of the column's element: slots are in offset order */
        size_t lo = 0, hi = rec->nslots;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (rec->slots[mid].offset < c->cols[k].offset)
                lo = mid + 1;
            else
                hi = mid;
        }
        ok = lo < rec->nslots && rec->slots[lo].offset == c->cols[k].offset &&
             rec->slots[lo].dtype == c->cols[k].dtype && npydt_dtype_itemsize(c->cols[k].dtype) &&
             !taken[lo];
        if (ok) {
            taken[lo] = 1;
            load_step_of(c->cols[k].dtype, c->cols[k].offset, &c->steps[k]);
        }
    }
    c->planned = ok;
    free(taken);
}

static void on_cell(struct csv_state *c, const char *s, size_t n)
{
    if (!c->header_done)
        header_cell(c, s, n);
    else
        data_cell(c, s, n);
}

/* The end of a row: the header's, or a record's. */
static void on_row(struct csv_state *c)
{
    if (!c->header_done) {
        c->header_done = 1;   /* with a column: a row has at least one cell */
        plan_columns(c);
    } else if (c->cell < c->ncols) {
        /* a short row: the first column left out is missing */
        const struct column *col = &c->cols[c->cell];
        cli_error(c->err, NPYDT_E_KEY, "missing field (%zu cells for %zu columns)", c->cell,
                  c->ncols);
        load_record_path(c->rec, col->offset, col->dtype, c->err);
        fail(c, NPYDT_E_KEY);
        return;
    } else if ((!c->planned && fail(c, load_record_complete(c->rec, c->err)) != NPYDT_OK) ||
               fail(c, c->sink->record(c->sink->ctx, c->rec->bytes, c->err)) != NPYDT_OK) {
        return;
    } else {
        c->left--;
    }
    c->sp->line++;
    c->cell = 0;
    load_record_clear(c->rec);
}

static npydt_status csv_syntax(struct csv_state *c, const char *what)
{
    return fail(c, cli_error(c->err, NPYDT_E_SYNTAX, "CSV: %s", what));
}

#define STRAY_QUOTE "a quote inside an unquoted cell, or text after a closing quote"

/* Bytes that end an unquoted CSV cell, or are an error in one. */
static const unsigned char stops[256] = {[','] = 1, ['"'] = 1, ['\n'] = 1, ['\r'] = 1};

/* Bytes a cell may start with that need a look: spaces, line ends. */
static const unsigned char cell_start[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1};

/* The first of those bytes at or after s[k], or n: eight bytes a step
 * (each compared with ',' and '"' and below 0x20 at once, the lowest
 * match found by its bit; a control byte other than LF and CR goes on
 * byte by byte), then one by one. */
static size_t cell_end(const char *s, size_t k, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, highs = ones << 7;
    for (; n - k >= 8; k += 8) {
        uint64_t w = text_load_le64(s + k), m, x;
        m = (w - ones * 0x20) & ~w;
        x = w ^ (ones * ','), m |= (x - ones) & ~x;
        x = w ^ (ones * '"'), m |= (x - ones) & ~x;
        if ((m &= highs) != 0) {
            k += (size_t)(__builtin_ctzll(m) >> 3);
            break;
        }
    }
    while (k < n && !stops[(unsigned char)s[k]])
        k++;
    return k;
}

/* An integer cell at s[k..n) read by its column's step st straight into
 * the record, when it ends at a separator or line end: the bytes it
 * takes, or 0 (the cell then takes the usual way). */
static size_t integer_cell(const struct load_step *st, const char *s, size_t k, size_t n,
                           unsigned char *rec)
{
    uint64_t mag;
    bool neg;
    size_t took = text_read_integer(s + k, n - k, &mag, &neg);
    if (!took || (k + took < n && (!stops[(unsigned char)s[k + took]] || s[k + took] == '"')) ||
        !load_step_integer(st, mag, neg, rec))
        return 0;
    return took;
}

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t';
}

/* The quoted cell whose opening quote is at s[0], within s[0..n): its
 * text (in place, or without its "" in c->cell_buf) into *t, *len; the
 * bytes it takes up to its closing quote; 0 with c->st set when it is not
 * closed (or no memory). */
static size_t quoted_cell(struct csv_state *c, const char *s, size_t n, const char **t,
                          size_t *len)
{
    size_t at = 1, k = 0;
    int copied = 0;
    for (;;) {
        const char *q = memchr(s + at, '"', n - at);
        if (!q) {
            csv_syntax(c, "a quoted cell is not closed");
            return 0;
        }
        size_t end = (size_t)(q - s);
        int doubled = end + 1 < n && s[end + 1] == '"';
        if (!doubled && !copied) {
            *t = s + 1;
            *len = end - 1;
            return end + 1;
        }
        if (grow(&c->cell_buf, &c->cell_cap, k + (end - at) + 1) != 0) {
            fail(c, cli_error(c->err, NPYDT_E_NOMEM, "out of memory"));
            return 0;
        }
        memcpy(c->cell_buf + k, s + at, end - at + doubled);   /* one quote of "" */
        k += end - at + doubled;
        copied = 1;
        if (!doubled) {
            *t = c->cell_buf;
            *len = k;
            return end + 1;
        }
        at = end + 2;
    }
}

/* The rows in s[0..n), which ends at a line end outside quotes or at the
 * end of the input: each cell to on_cell, each row to on_row; the rows
 * stop at the first error (c->st set). */
static void split_rows(struct csv_state *c, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && c->st == NPYDT_OK) {
        /* a row: blank ones (spaces and tabs at most) are skipped */
        size_t k = i;
        while (k < n && is_space(s[k]))
            k++;
        if (k == n || s[k] == '\n' || s[k] == '\r') {
            i = k + 1;
            continue;
        }
        const struct load_step *plan = c->planned && c->header_done ? c->steps : NULL;
        for (;;) {
            /* a cell: k is past the spaces before it */
            const char *t;
            size_t len;
            if (k < n && s[k] == '"') {
                size_t took = quoted_cell(c, s + k, n - k, &t, &len);
                if (!took)
                    return;
                k += took;
                while (k < n && is_space(s[k]))
                    k++;
                if (k < n && s[k] != ',' && s[k] != '\n' && s[k] != '\r') {
                    csv_syntax(c, STRAY_QUOTE);
                    return;
                }
            } else {
                /* a number by its column's step, where it has one */
                const struct load_step *st = plan && c->cell < c->ncols ? &plan[c->cell] : NULL;
                size_t from = k, took;
                if (st && (st->op == LOAD_OP_INT || st->op == LOAD_OP_UINT) &&
                    (took = integer_cell(st, s, k, n, c->rec->bytes)) != 0) {
                    c->cell++;
                    k += took;
                    goto next;
                }
                k = cell_end(s, k, n);
                if (k < n && s[k] == '"') {
                    csv_syntax(c, STRAY_QUOTE);
                    return;
                }
                t = s + from;
                len = k - from;
                while (len && is_space(t[len - 1]))
                    len--;
                double d;
                if (st && (st->op == LOAD_OP_F8 || st->op == LOAD_OP_F4
                               ? text_read_double(t, len, &d) &&
                                     load_step_float(st, 0, d, c->rec->bytes)
                               : st->op == LOAD_OP_BYTES && len <= st->n &&
                                     !memchr(t, '\\', len) &&
                                     load_step_text(st, t, len, c->rec->bytes))) {
                    c->cell++;
                    goto next;
                }
            }
            on_cell(c, t, len);
            if (c->st != NPYDT_OK)
                return;
        next:
            if (k < n && s[k] == ',') {
                if (++k < n && !cell_start[(unsigned char)s[k]])
                    continue;
                while (k < n && is_space(s[k]))
                    k++;
                if (k == n || s[k] == '\n' || s[k] == '\r') {
                    on_cell(c, "", 0);   /* an empty last cell */
                    if (c->st != NPYDT_OK)
                        return;
                } else {
                    continue;
                }
            }
            break;
        }
        on_row(c);
        /* past the row's end: CR, LF or CRLF */
        if (k < n && s[k] == '\r' && k + 1 < n && s[k + 1] == '\n')
            k++;
        i = k + 1;
        if (c->left == 0)
            break;
    }
    c->sp->used = i < n ? i : n;
}

int csv_odd_quotes(const char *s, size_t n)
{
    int odd = 0;
    for (const char *q = s, *e = s + n; (q = memchr(q, '"', (size_t)(e - q))) != NULL; q++)
        odd ^= 1;
    return odd;
}

/* Bytes from the reader's start up to a line end outside quotes (the
 * quotes before it are even): the last such line end in the buffer, or
 * the end of the input. A row ended by CR before an LF in the next block
 * leaves that LF as a blank row, which is skipped. 1 and *n, 0 at the
 * end, -1 with err set. Each byte is looked at a bounded number of
 * times, however the rows fall. */
int csv_rows(struct load_lines *r, size_t *n, npydt_error *err)
{
    size_t scanned = 0, last = 0;
    int odd = 0;
    for (;;) {
        if (!r->buf) {
            /* nothing read yet */
            int got = load_lines_fill(r, err);
            if (got <= 0)
                return got;
            continue;
        }
        const char *b = r->buf + r->start;
        size_t avail = r->end - r->start;
        /* the usual case: the quotes up to the last line end (LF or CR)
         * are even */
        size_t end = avail;
        while (end > scanned && b[end - 1] != '\n' && b[end - 1] != '\r')
            end--;
        if (end > scanned && !(odd ^ csv_odd_quotes(b + scanned, end - scanned))) {
            *n = end;
            return 1;
        }
        /* else line by line, keeping the last one outside quotes */
        while (scanned < avail) {
            const char *lf = memchr(b + scanned, '\n', avail - scanned);
            size_t stop = lf ? (size_t)(lf - b) : avail;
            odd ^= csv_odd_quotes(b + scanned, stop - scanned);
            scanned = lf ? stop + 1 : avail;
            if (lf && !odd)
                last = scanned;
        }
        if (last) {
            *n = last;
            return 1;
        }
        if (r->eof) {
            *n = avail;
            return avail > 0;
        }
        if (load_lines_fill(r, err) < 0)
            return -1;
    }
}

/* TSV: the cells of each line, split at tabs and unescaped. */
static void split_lines(struct csv_state *c, const char *s, size_t n)
{
    struct load_span *sp = c->sp;
    size_t at = 0;
    while (at < n && c->st == NPYDT_OK && c->left != 0) {
        const char *line = s + at;
        size_t len = load_line_cut(s, n, &at);
        sp->line++;
        if (len == 0)
            continue;
        sp->where = sp->line;
        for (size_t i = 0, start = 0; i <= len && c->st == NPYDT_OK; i++) {
            if (i < len && line[i] != '\t')
                continue;
            const char *cell = line + start;
            size_t k = i - start;
            if (memchr(cell, '\\', k)) {
                if (grow(&c->cell_buf, &c->cell_cap, k + 1) != 0) {
                    fail(c, cli_error(c->err, NPYDT_E_NOMEM, "out of memory"));
                    break;
                }
                k = 0;
                for (size_t j = start; j < i; j++) {
                    if (line[j] == '\\' && j + 1 < i && strchr("tnr\\", line[j + 1])) {
                        char e = line[++j];
                        c->cell_buf[k++] = e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : '\\';
                    } else {
                        c->cell_buf[k++] = line[j];
                    }
                }
                cell = c->cell_buf;
            }
            on_cell(c, cell, k);
            start = i + 1;
        }
        uint64_t keep = sp->line;
        if (c->st == NPYDT_OK)
            on_row(c);
        sp->line = keep;
    }
    sp->used = at;
}

struct csv_state *csv_new(struct load_record *rec, char sep, const struct csv_state *from)
{
    struct csv_state *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (from) {
        /* the header's columns and steps, read-only */
        c->cols = from->cols;
        c->ncols = from->ncols;
        c->steps = from->steps;
        c->planned = from->planned;
        c->header_done = from->header_done;
        c->shared = 1;
    }
    c->rec = rec;
    c->sep = sep;
    load_record_clear(rec);
    return c;
}

void csv_free(struct csv_state *c)
{
    if (!c)
        return;
    if (!c->shared) {
        free(c->cols);
        free(c->steps);
    }
    free(c->buf);
    free(c->cell_buf);
    free(c);
}

int csv_ready(const struct csv_state *c)
{
    return c->header_done;
}

npydt_status csv_read(struct csv_state *c, const char *s, size_t n, const struct load_sink *sink,
                      struct load_span *sp, npydt_error *err)
{
    c->sink = sink;
    c->sp = sp;
    c->err = err;
    c->st = NPYDT_OK;
    uint64_t left = c->left = sp->max_records - sp->records;
    /* the rows are split with the state in a local copy, which no store
     * into the record's bytes can alias */
    struct csv_state local = *c;
    if (local.sep == '\t') {
        split_lines(&local, s, n);
    } else {
        split_rows(&local, s, n);
        sp->where = sp->line;
    }
    *c = local;
    sp->records += left - c->left;
    return c->st;
}

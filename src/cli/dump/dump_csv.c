/* npydt dump --csv / --tsv: one row per element, one column per scalar
 * leaf, headed by the leaf's field path as npydt_field_lookup reads it
 * (pos.x, samples[3], m[0,1], pts[2].y).
 *
 * CSV follows RFC 4180 with LF line ends: a cell holding the separator, a
 * quote, CR or LF is quoted, its quotes doubled. TSV follows the IANA
 * text/tab-separated-values type, whose cells cannot hold tabs or line
 * breaks, with the usual backslash escapes for them: \t, \n, \r and \\.
 *
 * Cells are the values as NumPy's str() prints them: True/False, integers,
 * floats as the shortest text of their own type (float16 and float32 too;
 * nan, inf, -inf), complex as REAL+IMAGj (both parts, Python's complex()
 * reads it), S bytes with those outside printable ASCII as \xNN and '\' as
 * \\, U as UTF-8, V as hex, datetimes as for JSON (counts, or ISO 8601
 * with --datetime iso), NaT as NaT. With --nan null, NaN, infinities and
 * NaT leave the cell empty. */
#include "cli/dump/dump.h"
#include "cli/common/limits.h"
#include "cli/common/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Cells of a row beyond which the row is printed by walking the dtype
 * for every element instead of through a table of its columns (32 bytes
 * a column): the table's memory stays small whatever the dtype. */
#define COLUMN_TABLE_MAX 65536

/* One column: a scalar leaf of the element, and how its cell is written
 * (plan_scalar_op): integers, floats, booleans, datetime counts and S
 * bytes straight into the output, the rest (OP_TYPED) by put_scalar. */
struct column {
    uint64_t offset;
    const npydt_dtype *dtype;
    size_t rest;                  /* bytes the cells after it and the line end may take */
    unsigned char op, swap, kind;
};

/* A growing path: the prefix of the column being named. */
struct path {
    char *s;
    size_t len, cap;
};

/* What a walk of the columns does at each of them: write its path as a
 * header cell, add it to the column table, write its value, or write a
 * line "PATH: VALUE" (the vertical view). */
enum visit { VISIT_HEADER, VISIT_TABLE, VISIT_VALUE, VISIT_LINE };

struct walk {
    enum visit visit;
    struct path path;             /* VISIT_HEADER and VISIT_LINE only */
    struct column *columns;       /* VISIT_TABLE: room for ncolumns */
    size_t ncolumns;
    size_t n;                     /* columns visited */
    struct dumper *d;             /* VISIT_VALUE: the element at rec */
    const unsigned char *rec;
    char *tmp;
    struct sink *out;             /* VISIT_HEADER, VISIT_VALUE, VISIT_LINE */
    enum dump_format format;
    int lead;                     /* a cell (the index) comes before the first column */
    struct sink cell;             /* VISIT_LINE: the value's text before escaping */
};

static void put_cell(struct sink *out, enum dump_format f, const char *s, size_t n);
static char *put_bytes(char *o, const unsigned char *b, size_t n, enum dump_format f);
static int put_scalar(struct dumper *d, struct sink *out, enum dump_format f, const npydt_dtype *dt,
                      const unsigned char *p, char *tmp);

static int path_put(struct walk *w, const char *s, size_t n)
{
    struct path *p = &w->path;
    if (w->visit != VISIT_HEADER && w->visit != VISIT_LINE)
        return 0;
    if (p->len + n + 1 > p->cap) {
        size_t cap = (p->len + n + 1) * 2;
        char *b = realloc(p->s, cap);
        if (!b)
            return -1;
        p->s = b;
        p->cap = cap;
    }
    memcpy(p->s + p->len, s, n);
    p->len += n;
    p->s[p->len] = '\0';
    return 0;
}

/* "[i,j]" for flat position e of a shape. */
static int path_index(struct walk *w, const uint64_t *shape, size_t nd, uint64_t e)
{
    if (w->visit != VISIT_HEADER && w->visit != VISIT_LINE)
        return 0;
    char buf[24 * SELECT_MAX_DIMS + 2];
    uint64_t idx[SELECT_MAX_DIMS];
    for (size_t k = nd; k-- > 0;) {
        idx[k] = e % shape[k];
        e /= shape[k];
    }
    size_t o = 0;
    buf[o++] = '[';
    for (size_t k = 0; k < nd; k++)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%llu", k ? "," : "",
                              (unsigned long long)idx[k]);
    buf[o++] = ']';
    return path_put(w, buf, o);
}

/* "PATH: VALUE" of the scalar dt at p, both with control characters and
 * line breaks escaped (cli_text_escape_into), as the table's cells. */
static int put_line(struct walk *w, const npydt_dtype *dt, const unsigned char *p)
{
    w->cell.bytes.len = 0;
    if (put_scalar(w->d, &w->cell, FORMAT_TABLE, dt, p, w->tmp) != 0)
        return -1;
    size_t plen = w->path.s ? w->path.len : 0, vlen = w->cell.bytes.len, room;
    if (w->cell.bytes.failed || vlen > SIZE_MAX / 4 - 4 || plen > SIZE_MAX / 4 - 4 ||
        __builtin_add_overflow(CLI_TEXT_ESCAPED_MAX(plen), CLI_TEXT_ESCAPED_MAX(vlen) + 3, &room))
        return -1;
    char *o = sink_room(w->out, room);
    if (!o)
        return -1;
    o += plen ? cli_text_escape_into(o, w->path.s, plen) : 0;
    memcpy(o, ": ", 2);
    o += 2;
    o += cli_text_escape_into(o, w->cell.bytes.buf, vlen);
    *o++ = '\n';
    w->out->bytes.len = (size_t)(o - w->out->bytes.buf);
    return 0;
}

/* The column of the scalar dt at offset. */
static int visit_column(struct walk *w, uint64_t offset, const npydt_dtype *dt)
{
    size_t c = w->n++;
    switch (w->visit) {
    case VISIT_HEADER:
        if (c || w->lead)
            sink_putc(w->out, w->format == FORMAT_TSV ? '\t' : ',');
        put_cell(w->out, w->format, w->path.s ? w->path.s : "", w->path.len);
        return w->out->bytes.failed ? -1 : 0;
    case VISIT_TABLE:
        if (c >= w->ncolumns)
            return -1;
        w->columns[c] = (struct column){offset, dt, 0, plan_scalar_op(dt),
                                        npydt_dtype_itemsize(dt) > 1 &&
                                            text_order_swaps(npydt_dtype_byteorder(dt)),
                                        (unsigned char)npydt_dtype_kind(dt)};
        return 0;
    case VISIT_LINE:
        return put_line(w, dt, w->rec + offset);
    default:   /* VISIT_VALUE */
        if (c || w->lead)
            sink_putc(w->out, w->format == FORMAT_TSV ? '\t' : ',');
        return put_scalar(w->d, w->out, w->format, dt, w->rec + offset, w->tmp);
    }
}

/* Every scalar leaf of dt at offset under the path held. */
static int walk_leaves(struct walk *w, uint64_t offset, const npydt_dtype *dt, unsigned depth)
{
    if (depth > 64)
        return -1;   /* the library bounds nesting well below this */
    size_t keep = w->path.len;
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR:
        return visit_column(w, offset, dt);
    case NPYDT_STRUCT:
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++) {
            if ((w->path.len && path_put(w, ".", 1) != 0) ||
                path_put(w, npydt_dtype_field_name(dt, i),
                         npydt_dtype_field_name_len(dt, i)) != 0 ||
                walk_leaves(w, offset + npydt_dtype_field_offset(dt, i),
                            npydt_dtype_field_dtype(dt, i), depth + 1) != 0)
                return -1;
            w->path.len = keep;
        }
        return 0;
    default: {   /* NPYDT_SUBARRAY */
        const npydt_dtype *base = npydt_dtype_base(dt);
        size_t nd = npydt_dtype_ndim(dt);
        if (nd > SELECT_MAX_DIMS)
            return -1;
        uint64_t n = 1;
        for (size_t k = 0; k < nd; k++)
            n *= npydt_dtype_shape(dt)[k];   /* within the itemsize */
        for (uint64_t e = 0; e < n; e++) {
            if (path_index(w, npydt_dtype_shape(dt), nd, e) != 0 ||
                walk_leaves(w, offset + e * npydt_dtype_itemsize(base), base, depth + 1) != 0)
                return -1;
            w->path.len = keep;
        }
        return 0;
    }
    }
}

/* The columns of the selected fields (or of the whole element), in
 * order. */
static int walk_columns(struct walk *w, const npydt_dtype *dt, const struct selected *sel,
                        size_t nsel)
{
    w->n = 0;
    w->path.len = 0;
    if (!sel) {
        /* a plain array's one column is named as in the table */
        int scalar = npydt_dtype_get_class(dt) == NPYDT_SCALAR;
        return path_put(w, scalar ? "value" : "", scalar ? 5 : 0) != 0
                   ? -1
                   : walk_leaves(w, 0, dt, 0);
    }
    for (size_t i = 0; i < nsel; i++) {
        const struct selected *s = &sel[i];
        w->path.len = 0;
        if (s->ndim == 0) {
            if (path_put(w, s->path, s->path_len) != 0 ||
                walk_leaves(w, s->offset, s->dtype, 0) != 0)
                return -1;
            continue;
        }
        /* pts.y of an array of structs: pts[0].y, pts[1].y, ... */
        uint64_t n = 1;
        for (size_t k = 0; k < s->ndim; k++)
            n *= s->shape[k];
        for (uint64_t e = 0; e < n; e++) {
            w->path.len = 0;
            if (path_put(w, s->path, s->prefix_len) != 0 ||
                path_index(w, s->shape, s->ndim, e) != 0 ||
                path_put(w, s->path + s->prefix_len, s->path_len - s->prefix_len) != 0 ||
                walk_leaves(w, s->offset + e * s->stride, s->dtype, 0) != 0)
                return -1;
        }
    }
    return 0;
}

/* Scalars of one element of dt, at most UINT64_MAX. */
static uint64_t count_scalars(const npydt_dtype *dt, unsigned depth)
{
    if (depth > 64)
        return UINT64_MAX;
    uint64_t n = 0, m;
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR:
        return 1;
    case NPYDT_STRUCT:
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++)
            if (__builtin_add_overflow(n, count_scalars(npydt_dtype_field_dtype(dt, i), depth + 1),
                                       &n))
                return UINT64_MAX;
        return n;
    default:   /* NPYDT_SUBARRAY */
        n = count_scalars(npydt_dtype_base(dt), depth + 1);
        for (size_t k = 0; k < npydt_dtype_ndim(dt); k++)
            if (__builtin_mul_overflow(n, npydt_dtype_shape(dt)[k], &m))
                return UINT64_MAX;
            else
                n = m;
        return n;
    }
}

/* Cells of a row: the scalars of the selected fields (or the element). */
static uint64_t row_cells(const npydt_dtype *dt, const struct selected *sel, size_t nsel)
{
    if (!sel)
        return count_scalars(dt, 0);
    uint64_t cells = 0;
    for (size_t i = 0; i < nsel; i++) {
        uint64_t n = count_scalars(sel[i].dtype, 0);
        for (size_t k = 0; k < sel[i].ndim; k++)
            if (__builtin_mul_overflow(n, sel[i].shape[k], &n))
                return UINT64_MAX;
        if (__builtin_add_overflow(cells, n, &cells))
            return UINT64_MAX;
    }
    return cells;
}

/* ---- cells --------------------------------------------------------------------------- */

/* A cell's text, escaped for the format. */
static void put_cell(struct sink *out, enum dump_format f, const char *s, size_t n)
{
    if (f == FORMAT_TABLE) {   /* the table escapes a cell for the terminal itself */
        sink_write(out, s, n);
        return;
    }
    if (f == FORMAT_TSV) {
        size_t run = 0;
        for (size_t i = 0; i < n; i++) {
            const char *e = s[i] == '\t' ? "\\t" : s[i] == '\n' ? "\\n" : s[i] == '\r' ? "\\r"
                            : s[i] == '\\' ? "\\\\" : NULL;
            if (!e)
                continue;
            sink_write(out, s + run, i - run);
            sink_puts(out, e);
            run = i + 1;
        }
        sink_write(out, s + run, n - run);
        return;
    }
    int quote = 0;
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!quote) {
        sink_write(out, s, n);
        return;
    }
    sink_putc(out, '"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '"') {
            sink_write(out, s + run, i + 1 - run);   /* the quote, then its double */
            run = i;
        }
    sink_write(out, s + run, n - run);
    sink_putc(out, '"');
}

/* One scalar cell. tmp holds at least 5 * itemsize + 64 bytes. */
static int put_scalar(struct dumper *d, struct sink *out, enum dump_format f, const npydt_dtype *dt,
                      const unsigned char *p, char *tmp)
{
    /* float text as its own type, whatever --float says for JSON */
    struct dumper native = *d;
    native.style.float_native = true;
    npydt_status st = NPYDT_OK;
    size_t n = 0;
    const char *text = tmp;
    switch (npydt_dtype_kind(dt)) {
    case 'b': {
        int b;
        if ((st = npydt_read_bool(dt, p, &b, &d->err)) == NPYDT_OK)
            text = b ? "True" : "False", n = b ? 4 : 5;
        break;
    }
    case 'i': {
        int64_t v;
        if ((st = npydt_read_i64(dt, p, &v, &d->err)) == NPYDT_OK)
            n = text_decimal_i64(v, tmp);
        break;
    }
    case 'u': {
        uint64_t v;
        if ((st = npydt_read_u64(dt, p, &v, &d->err)) == NPYDT_OK)
            n = text_decimal_u64(v, tmp);
        break;
    }
    case 'f': {
        double v;
        if ((st = npydt_read_double(dt, p, &v, &d->err)) == NPYDT_OK &&
            !(d->style.nan_null && !isfinite(v)))
            n = dump_float_text(&native, npydt_dtype_itemsize(dt), v, tmp);
        break;
    }
    case 'c': {
        double v[2];
        if ((st = npydt_read_complex(dt, p, v, &d->err)) == NPYDT_OK &&
            !(d->style.nan_null && (!isfinite(v[0]) || !isfinite(v[1])))) {
            size_t part = npydt_dtype_itemsize(dt) / 2;
            n = dump_float_text(&native, part, v[0], tmp);
            char im[TEXT_FLOAT_MAX];
            size_t m = dump_float_text(&native, part, v[1], im);
            if (im[0] != '-')
                tmp[n++] = '+';
            memcpy(tmp + n, im, m);
            n += m;
            tmp[n++] = 'j';
        }
        break;
    }
    case 'S':   /* the cell as it is written */
        sink_write(out, tmp, (size_t)(put_bytes(tmp, p, npydt_dtype_itemsize(dt), f) - tmp));
        return 0;
    case 'U':
        st = npydt_read_unicode(dt, p, d->ubuf, d->ubuf_size, &n, &d->err);
        text = d->ubuf;
        break;
    case 'V': {
        static const char hex[] = "0123456789abcdef";
        n = npydt_dtype_itemsize(dt);
        for (size_t i = 0; i < n; i++) {
            tmp[2 * i] = hex[p[i] >> 4];
            tmp[2 * i + 1] = hex[p[i] & 15];
        }
        n *= 2;
        break;
    }
    default: {   /* 'M', 'm': dump refused 'O', and the reader refuses any other kind */
        npydt_datetime t;
        if ((st = npydt_read_datetime(dt, p, &t, &d->err)) != NPYDT_OK)
            break;
        if (t.is_nat) {
            if (!d->style.nan_null)
                text = "NaT", n = 3;
        } else if (npydt_dtype_kind(dt) == 'M' && d->style.datetime_iso &&
                   (n = text_datetime(t.count, (int)t.unit, t.unit_count, tmp)) != 0) {
            /* the ISO text */
        } else {
            n = text_decimal_i64(t.count, tmp);
        }
        break;
    }
    }
    if (st != NPYDT_OK) {
        d->failed = 1;
        return -1;
    }
    put_cell(out, f, text, n);
    return 0;
}

int dump_put_str(struct dumper *d, struct sink *out, const npydt_dtype *dt, const unsigned char *p,
                 char *tmp)
{
    return put_scalar(d, out, FORMAT_TABLE, dt, p, tmp);
}

/* The cell of an S scalar of n bytes at b, at o (5 n + 2 bytes at
 * most); the end. Its text is NumPy's str() of the bytes before trailing
 * NULs: printable ASCII as it is but '\' as \\, other bytes as \xNN.
 * CSV quotes the cell when b holds ',' or '"' (the only bytes of that
 * text that need it: CR and LF are \x0d and \x0a), with '"' doubled;
 * TSV doubles every backslash of the text (put_cell's rules); the table
 * takes the text as it is. */
static char *put_bytes(char *o, const unsigned char *b, size_t n, enum dump_format f)
{
    static const char hex[] = "0123456789abcdef";
    while (n > 0 && b[n - 1] == 0)
        n--;
    int quote = 0, tsv = f == FORMAT_TSV, csv = f == FORMAT_CSV;
    for (size_t i = 0; i < n && csv; i++)
        quote |= (b[i] == ',') | (b[i] == '"');
    *o = '"';
    o += quote;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = b[i];
        if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
            *o++ = (char)c;
        } else if (c == '"') {
            memcpy(o, "\"\"", 2);   /* a cell with '"' is quoted in CSV */
            o += 1 + csv;
        } else {
            memcpy(o, "\\\\", 2);
            o += 1 + tsv;
            if (c == '\\') {
                memcpy(o, "\\\\", 2);
                o += 1 + tsv;
            } else {
                o[0] = 'x', o[1] = hex[c >> 4], o[2] = hex[c & 15];
                o += 3;
            }
        }
    }
    *o = '"';
    return o + quote;
}

/* Room of a column's cell and its separator (0: written by put_scalar,
 * which takes its own). */
static size_t cell_room(const struct column *c)
{
    return c->op == OP_TYPED ? 0
           : c->op == OP_BYTES ? 3 + 5 * npydt_dtype_itemsize(c->dtype) : 1 + DUMP_NUMBER_ROOM;
}

/* A row of the element at rec through its columns; room is what the
 * whole row may take. -1 as put_scalar. */
static int put_row(struct dumper *d, struct sink *out, enum dump_format f,
                   const struct column *cols, size_t n, size_t room, const unsigned char *rec,
                   char *tmp, int lead)
{
    char sep = f == FORMAT_TSV ? '\t' : ',';
    char *o = sink_room(out, room);
    for (size_t i = 0; i < n && o; i++) {
        const struct column *c = &cols[i];
        const unsigned char *v = rec + c->offset;
        *o = sep;
        o += i != 0 || lead;
        int64_t iv;
        switch (c->op) {
        case OP_I1: iv = plan_signed8(v[0]); break;
        case OP_I2: iv = plan_signed16(text_load16(v, c->swap)); break;
        case OP_I4: iv = plan_signed32(text_load32(v, c->swap)); break;
        case OP_I8: iv = plan_signed64(text_load64(v, c->swap)); break;
        case OP_U1: iv = v[0]; break;
        case OP_U2: iv = text_load16(v, c->swap); break;
        case OP_U4: iv = text_load32(v, c->swap); break;
        case OP_U8: o += text_decimal_u64(text_load64(v, c->swap), o); continue;
        case OP_F4: {
            uint32_t bits = text_load32(v, c->swap);
            if (!d->style.nan_null || isfinite(text_f32_of_bits(bits)))
                o += text_float_f32(bits, o);
            continue;
        }
        case OP_F8: {
            double x = text_f64_of_bits(text_load64(v, c->swap));
            if (!d->style.nan_null || isfinite(x))
                o += text_float_f64(x, o);
            continue;
        }
        case OP_BOOL:
            memcpy(o, v[0] ? "True" : "False", 5);
            o += v[0] ? 4 : 5;
            continue;
        case OP_BYTES: o = put_bytes(o, v, npydt_dtype_itemsize(c->dtype), f); continue;
        case OP_TIME:
            iv = plan_signed64(text_load64(v, c->swap));
            if (iv == NPYDT_NAT) {
                memcpy(o, "NaT", 3);
                o += d->style.nan_null ? 0 : 3;
                continue;
            }
            if (c->kind == 'M' && d->style.datetime_iso)
                goto typed;   /* the ISO text */
            break;
        default:
        typed:
            out->bytes.len = (size_t)(o - out->bytes.buf);
            if (put_scalar(d, out, f, c->dtype, v, tmp) != 0)
                return -1;
            o = sink_room(out, c->rest);
            continue;
        }
        o += text_decimal_i64(iv, o);
    }
    if (o) {
        *o++ = '\n';
        out->bytes.len = (size_t)(o - out->bytes.buf);
    }
    return 0;
}

/* What the rows of dump_print_csv share (read-only while they are
 * written): the column table when there is one, else a walk of the
 * dtype for every element (a worker's struct walk). */
struct csv_rows {
    const struct column *columns;
    size_t ncolumns, room, tmp_size;
    enum dump_format format;
    int lead;
    const npydt_dtype *dt;
    const struct selected *sel;
    size_t nsel;
};

static int csv_open(const void *ctx, void *state)
{
    const struct csv_rows *c = ctx;
    struct walk *w = state;
    *w = (struct walk){.visit = VISIT_VALUE, .format = c->format, .lead = c->lead};
    w->tmp = malloc(c->tmp_size ? c->tmp_size : 1);
    return w->tmp ? 0 : -1;
}

static void walk_close(void *state)
{
    struct walk *w = state;
    free(w->tmp);
    free(w->path.s);
    sink_free(&w->cell);
}

static int csv_put(const void *ctx, void *state, struct dumper *d, struct sink *out, uint64_t i,
                   uint64_t flat, const unsigned char *rec)
{
    const struct csv_rows *c = ctx;
    struct walk *w = state;
    (void)i;
    if (c->lead) {
        char *o = sink_room(out, 21);
        if (o)
            out->bytes.len += text_decimal_u64(flat, o);
    }
    if (c->columns)
        return put_row(d, out, c->format, c->columns, c->ncolumns, c->room, rec, w->tmp, c->lead);
    w->d = d;
    w->out = out;
    w->rec = rec;
    int rc = walk_columns(w, c->dt, c->sel, c->nsel);
    sink_putc(out, '\n');
    return rc;
}

int dump_print_csv(struct dumper *d, struct sink *out, enum dump_format format, struct cursor *cur,
                   const struct selection *s, const struct selected *sel, size_t nsel,
                   const struct row_style *rows, unsigned jobs)
{
    const npydt_dtype *dt = npydt_header_dtype(cur->h);
    uint64_t cells = row_cells(dt, sel, nsel);
    if (cells > CLI_MAX_RECORD_SCALARS) {
        cli_error(&d->err, NPYDT_E_LIMIT,
                  "an element of %s%llu scalars, more than the %zu cells a %s row holds "
                  "(--fields selects fewer; --jsonl streams any element)",
                  cells == UINT64_MAX ? "over " : "", (unsigned long long)cells,
                  CLI_MAX_RECORD_SCALARS, format == FORMAT_TSV ? "TSV" : "CSV");
        d->failed = 1;
        return -1;
    }
    struct walk w = {.out = out, .format = format, .d = d, .lead = rows->index_column};
    int rc = 0;
    /* what the rows need is allocated before the header row is written:
     * out of memory prints nothing (the caller drops a header row that a
     * path's buffer could not grow for). The scratch of put_scalar only
     * when a value is printed: an empty array's itemsize is no promise of
     * data. */
    size_t tmp_size = 0, nleaves, room = 1;   /* a row's: its cells and the line end */
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &nleaves);
    for (size_t i = 0; i < nleaves; i++) {
        size_t need;
        if (__builtin_mul_overflow((size_t)leaves[i].itemsize, 5, &need) ||
            __builtin_add_overflow(need, 64, &need))
            rc = -1;
        else if (need > tmp_size)
            tmp_size = need;
    }
    /* the column table, when it is small */
    if (rc == 0 && s->total && cells <= COLUMN_TABLE_MAX) {
        w.visit = VISIT_TABLE;
        w.ncolumns = (size_t)cells;
        w.columns = malloc((cells ? cells : 1) * sizeof *w.columns);
        rc = w.columns && walk_columns(&w, dt, sel, nsel) == 0 && w.n == cells ? 0 : -1;
        for (size_t c = cells; c-- > 0 && rc == 0;) {
            w.columns[c].rest = room;
            rc = __builtin_add_overflow(room, cell_room(&w.columns[c]), &room) ? -1 : 0;
        }
    }
    if (rc == 0 && !rows->no_header) {
        w.visit = VISIT_HEADER;
        if (w.lead)
            sink_puts(out, DUMP_INDEX_NAME);
        rc = walk_columns(&w, dt, sel, nsel);
        sink_putc(out, '\n');
    }
    struct csv_rows c = {w.columns, (size_t)cells, room, tmp_size, format, w.lead, dt, sel, nsel};
    struct dump_rows r = {&c, sizeof(struct walk), csv_open, csv_put, walk_close, NULL};
    if (rc == 0)
        rc = dump_rows_run(d, out, cur, s, jobs, &r);
    free(w.path.s);
    free(w.columns);
    return rc;
}

/* --vertical: a worker's walk writes the lines of an element. */
struct vertical_rows {
    size_t tmp_size;
    const npydt_header *h;
    const struct selected *sel;
    size_t nsel;
};

static int vertical_open(const void *ctx, void *state)
{
    const struct vertical_rows *v = ctx;
    struct walk *w = state;
    *w = (struct walk){.visit = VISIT_LINE, .format = FORMAT_TABLE};
    sink_init(&w->cell, SINK_MEMORY);
    w->tmp = malloc(v->tmp_size);
    return w->tmp ? 0 : -1;
}

static int vertical_put(const void *ctx, void *state, struct dumper *d, struct sink *out,
                        uint64_t i, uint64_t flat, const unsigned char *rec)
{
    const struct vertical_rows *v = ctx;
    struct walk *w = state;
    (void)i;
    sink_puts(out, "-[ RECORD ");
    dump_put_index(out, v->h, flat);
    sink_puts(out, " ]-\n");
    w->d = d;
    w->out = out;
    w->rec = rec;
    int rc = walk_columns(w, npydt_header_dtype(v->h), v->sel, v->nsel);
    return rc == 0 && !out->bytes.failed ? 0 : -1;
}

int dump_print_vertical(struct dumper *d, struct sink *out, const char *title,
                        struct cursor *cur, const struct selection *s,
                        const struct selected *sel, size_t nsel, unsigned jobs)
{
    const npydt_dtype *dt = npydt_header_dtype(cur->h);
    /* the scratch of put_scalar, for the widest leaf */
    size_t tmp_size = 64, nleaves;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &nleaves);
    for (size_t i = 0; i < nleaves; i++) {
        size_t need;
        if (__builtin_mul_overflow((size_t)leaves[i].itemsize, 5, &need) ||
            __builtin_add_overflow(need, 64, &need))
            return -1;
        if (need > tmp_size)
            tmp_size = need;
    }
    sink_puts(out, title);
    struct vertical_rows v = {tmp_size, cur->h, sel, nsel};
    struct dump_rows r = {&v, sizeof(struct walk), vertical_open, vertical_put, walk_close, NULL};
    return dump_rows_run(d, out, cur, s, jobs, &r);
}

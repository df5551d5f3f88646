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
#include "dump.h"
#include "float_shortest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One column: a scalar leaf of the element. */
struct column {
    char *path;
    size_t path_len;     /* a field name may hold a NUL */
    uint64_t offset;
    const npydt_dtype *dtype;
};

struct columns {
    struct column *items;
    size_t n, cap;
};

static int add_column(struct columns *cs, const char *path, size_t len, uint64_t offset,
                      const npydt_dtype *dt)
{
    if (cs->n == cs->cap) {
        size_t cap = cs->cap ? cs->cap * 2 : 16;
        struct column *items = cap > SIZE_MAX / sizeof *items
                                   ? NULL
                                   : realloc(cs->items, cap * sizeof *items);
        if (!items)
            return -1;
        cs->items = items;
        cs->cap = cap;
    }
    char *p = malloc(len + 1);
    if (!p)
        return -1;
    memcpy(p, path, len);
    p[len] = '\0';
    cs->items[cs->n++] = (struct column){p, len, offset, dt};
    return 0;
}

/* A growing path: the prefix of the column being built. */
struct path {
    char *s;
    size_t len, cap;
};

static int path_put(struct path *p, const char *s, size_t n)
{
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
static int path_index(struct path *p, const uint64_t *shape, size_t nd, uint64_t e)
{
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
    return path_put(p, buf, o);
}

/* Every scalar leaf of dt at offset under the path p holds. */
static int add_leaves(struct columns *cs, struct path *p, uint64_t offset, const npydt_dtype *dt,
                      unsigned depth)
{
    if (depth > 64)
        return -1;   /* the library bounds nesting well below this */
    size_t keep = p->len;
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR:
        return add_column(cs, p->s ? p->s : "", p->len, offset, dt);
    case NPYDT_STRUCT:
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++) {
            if ((p->len && path_put(p, ".", 1) != 0) ||
                path_put(p, npydt_dtype_field_name(dt, i), npydt_dtype_field_name_len(dt, i)) != 0 ||
                add_leaves(cs, p, offset + npydt_dtype_field_offset(dt, i),
                           npydt_dtype_field_dtype(dt, i), depth + 1) != 0)
                return -1;
            p->len = keep;
        }
        return 0;
    case NPYDT_SUBARRAY: {
        const npydt_dtype *base = npydt_dtype_base(dt);
        size_t nd = npydt_dtype_ndim(dt);
        if (nd > SELECT_MAX_DIMS)
            return -1;
        uint64_t n = 1;
        for (size_t k = 0; k < nd; k++)
            n *= npydt_dtype_shape(dt)[k];   /* within the itemsize */
        for (uint64_t e = 0; e < n; e++) {
            if (path_index(p, npydt_dtype_shape(dt), nd, e) != 0 ||
                add_leaves(cs, p, offset + e * npydt_dtype_itemsize(base), base, depth + 1) != 0)
                return -1;
            p->len = keep;
        }
        return 0;
    }
    }
    return -1;
}

/* The columns of the selected fields (or of the whole element). */
static int make_columns(struct columns *cs, const npydt_dtype *dt, const struct selected *sel,
                        size_t nsel)
{
    struct path p = {0};
    int rc = 0;
    if (!sel) {
        /* a plain array's one column is named as in the table */
        int scalar = npydt_dtype_get_class(dt) == NPYDT_SCALAR;
        rc = path_put(&p, scalar ? "value" : "", scalar ? 5 : 0) != 0
                 ? -1
                 : add_leaves(cs, &p, 0, dt, 0);
    }
    for (size_t i = 0; sel && i < nsel && rc == 0; i++) {
        const struct selected *s = &sel[i];
        p.len = 0;
        if (s->ndim == 0) {
            rc = path_put(&p, s->path, s->path_len) != 0 ? -1 : add_leaves(cs, &p, s->offset, s->dtype, 0);
            continue;
        }
        /* pts.y of an array of structs: pts[0].y, pts[1].y, ... */
        uint64_t n = 1;
        for (size_t k = 0; k < s->ndim; k++)
            n *= s->shape[k];
        for (uint64_t e = 0; e < n && rc == 0; e++) {
            p.len = 0;
            rc = path_put(&p, s->path, s->prefix_len) != 0 ||
                         path_index(&p, s->shape, s->ndim, e) != 0 ||
                         path_put(&p, s->path + s->prefix_len, s->path_len - s->prefix_len) != 0
                     ? -1
                     : add_leaves(cs, &p, s->offset + e * s->stride, s->dtype, 0);
        }
    }
    free(p.s);
    return rc;
}

/* ---- cells --------------------------------------------------------------------------- */

/* A cell's text, escaped for the format. */
static void put_cell(struct sink *out, enum dump_format f, const char *s, size_t n)
{
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

/* Bytes as text: printable ASCII but '\', others \xNN. */
static size_t bytes_text(const unsigned char *b, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i] >= 0x20 && b[i] < 0x7f && b[i] != '\\') {
            out[o++] = (char)b[i];
        } else if (b[i] == '\\') {
            out[o++] = '\\';
            out[o++] = '\\';
        } else {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[b[i] >> 4];
            out[o++] = hex[b[i] & 15];
        }
    }
    return o;
}

/* One scalar cell. tmp holds at least 4 * itemsize + 64 bytes. */
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
            n = decimal_i64(v, tmp);
        break;
    }
    case 'u': {
        uint64_t v;
        if ((st = npydt_read_u64(dt, p, &v, &d->err)) == NPYDT_OK)
            n = decimal_u64(v, tmp);
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
            char im[FLOAT_TEXT_MAX];
            size_t m = dump_float_text(&native, part, v[1], im);
            if (im[0] != '-')
                tmp[n++] = '+';
            memcpy(tmp + n, im, m);
            n += m;
            tmp[n++] = 'j';
        }
        break;
    }
    case 'S': {
        const void *b;
        size_t len;
        if ((st = npydt_read_bytes(dt, p, &b, &len, &d->err)) == NPYDT_OK)
            n = bytes_text(b, len, tmp);
        break;
    }
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
    case 'M': case 'm': {
        npydt_datetime t;
        if ((st = npydt_read_datetime(dt, p, &t, &d->err)) != NPYDT_OK)
            break;
        if (t.is_nat) {
            if (!d->style.nan_null)
                text = "NaT", n = 3;
        } else if (npydt_dtype_kind(dt) == 'M' && d->style.datetime_iso &&
                   (n = dump_datetime_iso(t.count, t.unit, t.unit_count, tmp)) != 0) {
            /* the ISO text */
        } else {
            n = decimal_i64(t.count, tmp);
        }
        break;
    }
    default:
        st = cli_error(&d->err, NPYDT_E_OBJECT, "kind '%c' cannot be dumped",
                       npydt_dtype_kind(dt));
    }
    if (st != NPYDT_OK) {
        d->failed = 1;
        return -1;
    }
    put_cell(out, f, text, n);
    return 0;
}

int dump_print_csv(struct dumper *d, struct sink *out, enum dump_format format, struct cursor *cur,
                   const struct selection *s, const struct selected *sel, size_t nsel)
{
    struct columns cs = {0};
    const npydt_dtype *dt = npydt_header_dtype(cur->h);
    int rc = make_columns(&cs, dt, sel, nsel);
    size_t tmp_size = 0;
    for (size_t i = 0; i < cs.n; i++) {
        size_t need = 4 * npydt_dtype_itemsize(cs.items[i].dtype) + 64;
        if (need > tmp_size)
            tmp_size = need;
    }
    char *tmp = rc == 0 ? malloc(tmp_size ? tmp_size : 1) : NULL;
    if (!tmp)
        rc = -1;
    char sep = format == FORMAT_TSV ? '\t' : ',';
    for (size_t c = 0; c < cs.n && rc == 0; c++) {
        if (c)
            sink_putc(out, sep);
        put_cell(out, format, cs.items[c].path, cs.items[c].path_len);
    }
    if (rc == 0)
        sink_putc(out, '\n');
    for (uint64_t i = 0; i < s->total && rc == 0; i++) {
        const unsigned char *rec = cursor_get(cur, selection_flat(s, i), &d->err);
        if (!rec) {
            d->failed = 1;
            rc = -1;
            break;
        }
        for (size_t c = 0; c < cs.n && rc == 0; c++) {
            if (c)
                sink_putc(out, sep);
            rc = put_scalar(d, out, format, cs.items[c].dtype, rec + cs.items[c].offset, tmp);
        }
        sink_putc(out, '\n');
        if ((i & 4095) == 4095 && out->out && ferror(out->out))
            break;   /* the caller reports the write error */
    }
    for (size_t i = 0; i < cs.n; i++)
        free(cs.items[i].path);
    free(cs.items);
    free(tmp);
    return rc;
}

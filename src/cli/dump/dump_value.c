/* npydt dump's values: each scalar kind as JSON, the contract in
 * doc/cli-json.md, and the check that U data is text. */
#include "cli/dump/dump.h"
#include "cli/common/json.h"
#include "cli/common/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(DUMP_NUMBER_ROOM >= TEXT_FLOAT_MAX + 2, "a float's text and its quotes");

/* ---- values ------------------------------------------------------------------ */

size_t dump_nonfinite_json(const struct dumper *d, size_t size, double v, char *buf)
{
    if (d->style.nan_null) {
        memcpy(buf, "null", 4);
        return 4;
    }
    buf[0] = '"';
    size_t n = 1 + dump_float_text(d, size, v, buf + 1);
    buf[n++] = '"';
    return n;
}

void dump_put_float(struct dumper *d, struct sink *out, size_t size, double v)
{
    char *p = sink_room(out, DUMP_NUMBER_ROOM);
    if (p)
        out->bytes.len += dump_float_json(d, size, v, p);
}

void dump_put_int(struct dumper *d, struct sink *out, int64_t v)
{
    char *p = sink_room(out, DUMP_NUMBER_ROOM);
    if (p)
        out->bytes.len += dump_int_json(d, v, p);
}

void dump_put_uint(struct dumper *d, struct sink *out, uint64_t v)
{
    char *p = sink_room(out, DUMP_NUMBER_ROOM);
    if (p)
        out->bytes.len += dump_uint_json(d, v, p);
}

static void put_datetime(struct dumper *d, struct sink *out, const npydt_datetime *t, char kind)
{
    if (t->is_nat) {
        sink_puts(out, d->style.nan_null ? "null" : "\"NaT\"");
        return;
    }
    if (kind == 'M' && d->style.datetime_iso) {
        char buf[TEXT_DATETIME_MAX];
        size_t n = text_datetime(t->count, (int)t->unit, t->unit_count, buf);
        if (n) {
            sink_putc(out, '"');
            sink_write(out, buf, n);
            sink_putc(out, '"');
            return;
        }
    }
    dump_put_int(d, out, t->count);
}

static int put_subarray(struct dumper *d, struct sink *out, const npydt_dtype *dt,
                        const unsigned char *p, size_t level, uint64_t stride)
{
    const uint64_t *shape = npydt_dtype_shape(dt);
    const npydt_dtype *base = npydt_dtype_base(dt);
    if (level == npydt_dtype_ndim(dt))
        return dump_put_value(d, out, base, p);
    uint64_t inner = stride / (shape[level] ? shape[level] : 1);
    sink_putc(out, '[');
    for (uint64_t i = 0; i < shape[level] && !sink_full(out); i++) {
        if (i)
            sink_putc(out, ',');
        if (put_subarray(d, out, dt, p + i * inner, level + 1, inner) != 0)
            return -1;
    }
    sink_putc(out, ']');
    return 0;
}

int dump_put_value(struct dumper *d, struct sink *out, const npydt_dtype *dt, const unsigned char *p)
{
    npydt_status st = NPYDT_OK;
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_STRUCT:
        sink_putc(out, '{');
        for (size_t i = 0; i < npydt_dtype_nfields(dt) && !sink_full(out); i++) {
            if (i)
                sink_putc(out, ',');
            sink_json(out, npydt_dtype_field_name(dt, i), npydt_dtype_field_name_len(dt, i), TEXT_JSON_TEXT);
            sink_putc(out, ':');
            if (dump_put_value(d, out, npydt_dtype_field_dtype(dt, i),
                          p + npydt_dtype_field_offset(dt, i)) != 0)
                return -1;
        }
        sink_putc(out, '}');
        return 0;
    case NPYDT_SUBARRAY:
        return put_subarray(d, out, dt, p, 0, npydt_dtype_itemsize(dt));
    case NPYDT_SCALAR:
        break;
    }
    switch (npydt_dtype_kind(dt)) {
    case 'b': {
        int b;
        if ((st = npydt_read_bool(dt, p, &b, &d->err)) == NPYDT_OK)
            sink_puts(out, b ? "true" : "false");
        break;
    }
    case 'i': {
        int64_t v;
        if ((st = npydt_read_i64(dt, p, &v, &d->err)) == NPYDT_OK)
            dump_put_int(d, out, v);
        break;
    }
    case 'u': {
        uint64_t v;
        if ((st = npydt_read_u64(dt, p, &v, &d->err)) == NPYDT_OK)
            dump_put_uint(d, out, v);
        break;
    }
    case 'f': {
        double v;
        if ((st = npydt_read_double(dt, p, &v, &d->err)) == NPYDT_OK)
            dump_put_float(d, out, npydt_dtype_itemsize(dt), v);
        break;
    }
    case 'c': {
        double v[2];
        if ((st = npydt_read_complex(dt, p, v, &d->err)) == NPYDT_OK) {
            size_t part = npydt_dtype_itemsize(dt) / 2;
            sink_putc(out, '[');
            dump_put_float(d, out, part, v[0]);
            sink_putc(out, ',');
            dump_put_float(d, out, part, v[1]);
            sink_putc(out, ']');
        }
        break;
    }
    case 'S': {
        const void *b;
        size_t n;
        if ((st = npydt_read_bytes(dt, p, &b, &n, &d->err)) == NPYDT_OK)
            sink_json(out, b, n, TEXT_JSON_BYTES);
        break;
    }
    case 'U': {
        size_t n;
        if ((st = npydt_read_unicode(dt, p, d->ubuf, d->ubuf_size, &n, &d->err)) == NPYDT_OK)
            sink_json(out, d->ubuf, n, TEXT_JSON_TEXT);
        break;
    }
    case 'V': {
        size_t n = npydt_dtype_itemsize(dt);
        sink_putc(out, '"');
        static const char hex[] = "0123456789abcdef";
        for (size_t i = 0; i < n && !sink_full(out); i++) {
            sink_putc(out, hex[p[i] >> 4]);
            sink_putc(out, hex[p[i] & 15]);
        }
        sink_putc(out, '"');
        break;
    }
    default: {   /* 'M', 'm': dump refused 'O', and the reader refuses any other kind */
        npydt_datetime t;
        if ((st = npydt_read_datetime(dt, p, &t, &d->err)) == NPYDT_OK)
            put_datetime(d, out, &t, npydt_dtype_kind(dt));
        break;
    }
    }
    if (st != NPYDT_OK) {
        d->failed = 1;
        return -1;
    }
    return 0;
}

/* The field of every element of an array of structs, as nested lists. */
static int put_projected(struct dumper *d, struct sink *out, const struct selected *s,
                         const unsigned char *p, size_t level, uint64_t stride)
{
    if (level == s->ndim)
        return dump_put_value(d, out, s->dtype, p);
    uint64_t inner = stride / (s->shape[level] ? s->shape[level] : 1);
    sink_putc(out, '[');
    for (uint64_t i = 0; i < s->shape[level] && !sink_full(out); i++) {
        if (i)
            sink_putc(out, ',');
        if (put_projected(d, out, s, p + i * inner, level + 1, inner) != 0)
            return -1;
    }
    sink_putc(out, ']');
    return 0;
}

int dump_put_selected(struct dumper *d, struct sink *out, const struct selected *s,
                      const unsigned char *rec)
{
    if (s->ndim == 0)
        return dump_put_value(d, out, s->dtype, rec + s->offset);
    uint64_t all = s->stride;
    for (size_t k = 0; k < s->ndim; k++)
        all *= s->shape[k];
    return put_projected(d, out, s, rec + s->offset, 0, all);
}

/* One element: the whole value, or an object of the selected fields. */
int dump_put_element(struct dumper *d, struct sink *out, const npydt_dtype *dt,
                       const unsigned char *p, const struct selected *sel, size_t nsel)
{
    if (!sel)
        return dump_put_value(d, out, dt, p);
    sink_putc(out, '{');
    for (size_t i = 0; i < nsel && !sink_full(out); i++) {
        if (i)
            sink_putc(out, ',');
        sink_json(out, sel[i].path, sel[i].path_len, TEXT_JSON_TEXT);
        sink_putc(out, ':');
        if (dump_put_selected(d, out, &sel[i], p) != 0)
            return -1;
    }
    sink_putc(out, '}');
    return 0;
}

/* ---- checking U data before anything is printed --------------------------------- */

/* Every U scalar of the dumped bytes must hold code points (NumPy cannot
 * make a str of anything else): look before printing, so that a failure
 * leaves stdout empty. */
int dump_check_unicode(struct dumper *d, const npydt_dtype *root, const unsigned char *rec,
                         uint64_t lo, uint64_t hi)
{
    size_t n;
    const npydt_leaf *leaves = npydt_dtype_leaves(root, &n);
    for (size_t i = 0; i < n; i++) {
        const npydt_leaf *l = &leaves[i];
        if (l->kind != 'U' || l->count == 0)
            continue;
        uint64_t small[16] = {0};
        uint64_t *idx = l->nrepeats <= 16 ? small : calloc(l->nrepeats, sizeof *idx);
        if (!idx) {
            cli_error(&d->err, NPYDT_E_NOMEM, "%s", "out of memory");
            return -1;
        }
        int bad = 0;
        for (uint64_t e = 0; e < l->count && !bad; e++) {
            uint64_t off = l->offset;
            for (uint32_t k = 0; k < l->nrepeats; k++)
                off += idx[k] * l->repeats[k].stride;
            if (off >= lo && off < hi) {
                size_t len;
                npydt_status st = npydt_read_unicode(l->dtype, rec + off, d->ubuf, d->ubuf_size,
                                                     &len, &d->err);
                if (st != NPYDT_OK) {
                    npydt_dtype_leaf_path(root, i, d->err.path, sizeof d->err.path);
                    bad = 1;
                }
            }
            for (uint32_t k = l->nrepeats; k-- > 0;) {
                if (++idx[k] < l->repeats[k].count)
                    break;
                idx[k] = 0;
            }
        }
        if (idx != small)
            free(idx);
        if (bad)
            return -1;
    }
    return 0;
}

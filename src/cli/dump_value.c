/* npydt dump's values: each scalar kind as JSON, the contract in
 * ../shared/spec/cli-json.md, and the check that U data is text. */
#include "dump.h"

#include <stdlib.h>
#include <string.h>


static void put_u64(FILE *out, uint64_t v)
{
    char buf[24];
    int i = sizeof buf;
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    fwrite(buf + i, 1, sizeof buf - (size_t)i, out);
}

static void put_i64(FILE *out, int64_t v)
{
    if (v < 0) {
        putc('-', out);
        put_u64(out, (uint64_t)0 - (uint64_t)v);
    } else {
        put_u64(out, (uint64_t)v);
    }
}

/* \u00XX or \uXXXX for a code unit. */
static void put_escape(FILE *out, unsigned cp)
{
    static const char hex[] = "0123456789abcdef";
    char buf[6] = {'\\', 'u', hex[(cp >> 12) & 15], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15],
                   hex[cp & 15]};
    fwrite(buf, 1, sizeof buf, out);
}

/* ---- strings ---------------------------------------------------------------- */

/* S: bytes outside printable ASCII as \u00XX. */
static void put_bytes_string(FILE *out, const unsigned char *s, size_t n)
{
    putc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc(c, out);
        } else if (c >= 0x20 && c < 0x7f) {
            putc(c, out);
        } else {
            put_escape(out, c);
        }
    }
    putc('"', out);
}

/* U: the library's UTF-8, in which a lone surrogate is a 3-byte sequence
 * ED A0..BF xx; JSON gets it as \udXXX, controls and line breaks (which
 * split a line for Python's splitlines()) as \uXXXX. */
static void put_utf8_string(FILE *out, const unsigned char *s, size_t n)
{
    putc('"', out);
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        if (c < 0x80) {
            if (c == '"' || c == '\\') {
                putc('\\', out);
                putc(c, out);
            } else if (c < 0x20 || c == 0x7f) {
                put_escape(out, c);
            } else {
                putc(c, out);
            }
            i++;
            continue;
        }
        size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        if (i + len > n)
            len = n - i;
        if ((len == 3 && c == 0xED && (s[i + 1] & 0xE0) == 0xA0) ||
            json_breaks_lines(s + i, len)) {
            put_escape(out, len == 2 ? ((c & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu)
                                     : ((c & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) |
                                           (s[i + 2] & 0x3Fu));
        } else {
            fwrite(s + i, 1, len, out);
        }
        i += len;
    }
    putc('"', out);
}

/* ---- values ------------------------------------------------------------------ */

static int put_subarray(struct dumper *d, FILE *out, const npydt_dtype *dt,
                        const unsigned char *p, size_t level, uint64_t stride)
{
    const uint64_t *shape = npydt_dtype_shape(dt);
    const npydt_dtype *base = npydt_dtype_base(dt);
    if (level == npydt_dtype_ndim(dt))
        return dump_put_value(d, out, base, p);
    uint64_t inner = stride / (shape[level] ? shape[level] : 1);
    putc('[', out);
    for (uint64_t i = 0; i < shape[level]; i++) {
        if (i)
            putc(',', out);
        if (put_subarray(d, out, dt, p + i * inner, level + 1, inner) != 0)
            return -1;
    }
    putc(']', out);
    return 0;
}

int dump_put_value(struct dumper *d, FILE *out, const npydt_dtype *dt, const unsigned char *p)
{
    npydt_status st = NPYDT_OK;
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_STRUCT:
        putc('{', out);
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++) {
            if (i)
                putc(',', out);
            json_string_n(out, npydt_dtype_field_name(dt, i), npydt_dtype_field_name_len(dt, i));
            putc(':', out);
            if (dump_put_value(d, out, npydt_dtype_field_dtype(dt, i),
                          p + npydt_dtype_field_offset(dt, i)) != 0)
                return -1;
        }
        putc('}', out);
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
            fputs(b ? "true" : "false", out);
        break;
    }
    case 'i': {
        int64_t v;
        if ((st = npydt_read_i64(dt, p, &v, &d->err)) == NPYDT_OK)
            put_i64(out, v);
        break;
    }
    case 'u': {
        uint64_t v;
        if ((st = npydt_read_u64(dt, p, &v, &d->err)) == NPYDT_OK)
            put_u64(out, v);
        break;
    }
    case 'f': {
        double v;
        if ((st = npydt_read_double(dt, p, &v, &d->err)) == NPYDT_OK)
            json_double(out, v);
        break;
    }
    case 'c': {
        double v[2];
        if ((st = npydt_read_complex(dt, p, v, &d->err)) == NPYDT_OK) {
            putc('[', out);
            json_double(out, v[0]);
            putc(',', out);
            json_double(out, v[1]);
            putc(']', out);
        }
        break;
    }
    case 'S': {
        const void *b;
        size_t n;
        if ((st = npydt_read_bytes(dt, p, &b, &n, &d->err)) == NPYDT_OK)
            put_bytes_string(out, b, n);
        break;
    }
    case 'U': {
        size_t n;
        if ((st = npydt_read_unicode(dt, p, d->ubuf, d->ubuf_size, &n, &d->err)) == NPYDT_OK)
            put_utf8_string(out, (const unsigned char *)d->ubuf, n);
        break;
    }
    case 'V': {
        size_t n = npydt_dtype_itemsize(dt);
        putc('"', out);
        static const char hex[] = "0123456789abcdef";
        for (size_t i = 0; i < n; i++) {
            putc(hex[p[i] >> 4], out);
            putc(hex[p[i] & 15], out);
        }
        putc('"', out);
        break;
    }
    case 'M': case 'm': {
        npydt_datetime t;
        if ((st = npydt_read_datetime(dt, p, &t, &d->err)) == NPYDT_OK) {
            if (t.is_nat)
                fputs("\"NaT\"", out);
            else
                put_i64(out, t.count);
        }
        break;
    }
    default:
        st = cli_error(&d->err, NPYDT_E_OBJECT, "kind '%c' cannot be dumped",
                       npydt_dtype_kind(dt));
        break;
    }
    if (st != NPYDT_OK) {
        d->failed = 1;
        return -1;
    }
    return 0;
}

/* One element: the whole value, or an object of the selected fields. */
int dump_put_element(struct dumper *d, FILE *out, const npydt_dtype *dt,
                       const unsigned char *p, const struct selected *sel, size_t nsel)
{
    if (!sel)
        return dump_put_value(d, out, dt, p);
    putc('{', out);
    for (size_t i = 0; i < nsel; i++) {
        if (i)
            putc(',', out);
        json_string_n(out, sel[i].path, sel[i].path_len);
        putc(':', out);
        if (dump_put_value(d, out, sel[i].dtype, p + sel[i].offset) != 0)
            return -1;
    }
    putc('}', out);
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
                    snprintf(d->err.path, sizeof d->err.path, "%s", l->path);
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

/* ---- the elements in C order ------------------------------------------------------- */

/* The next *n (at most max; 0 at the end) elements of src in C order,
 * contiguous at *batch. */
npydt_status dump_next_batch(npydt_reader *src, uint64_t max, const unsigned char **batch,
                               uint64_t *n, npydt_error *err)
{
    const void *b;
    npydt_status st = npydt_reader_next_c(src, max, &b, n, err);
    *batch = b;
    return st;
}

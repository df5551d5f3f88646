/* Printing dtypes back as NumPy writes them: the type string and the
 * descriptor literal (Python repr of dtype.descr). */
#include "dtype/dtype.h"

#include <string.h>

/* A code point, as UTF-8 or (for 1.0/2.0 headers) as one latin-1 byte. */
static void out_cp(struct outbuf *o, uint32_t cp, bool latin1)
{
    if (latin1 && cp <= 0xFF) {
        out_putc(o, (char)cp);
        return;
    }
    char b[4];
    size_t n = text_utf8_encode(cp, b);
    for (size_t i = 0; i < n; i++)
        out_putc(o, b[i]);
}

/* repr(str) exactly as CPython writes it, for len bytes of UTF-8 (a NUL
 * among them is written \x00). */
static void pyrepr(struct outbuf *o, const char *utf8, size_t len, bool latin1)
{
    const unsigned char *s = (const unsigned char *)utf8;
    char q = memchr(utf8, '\'', len) && !memchr(utf8, '"', len) ? '"' : '\'';
    out_putc(o, q);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t k = text_utf8_decode(s + i, len - i, &cp);
        if (k == 0) {           /* cannot happen for parsed names */
            cp = 0xFFFD;
            k = 1;
        }
        i += k;
        if (cp == (uint32_t)q || cp == '\\') {
            out_putc(o, '\\');
            out_putc(o, (char)cp);
        } else if (cp == '\t') {
            out_puts(o, "\\t");
        } else if (cp == '\n') {
            out_puts(o, "\\n");
        } else if (cp == '\r') {
            out_puts(o, "\\r");
        } else if (unicode_is_printable(cp)) {
            out_cp(o, cp, latin1);
        } else if (cp <= 0xFF) {
            out_printf(o, "\\x%02x", cp);
        } else if (cp <= 0xFFFF) {
            out_printf(o, "\\u%04x", cp);
        } else {
            out_printf(o, "\\U%08x", cp);
        }
    }
    out_putc(o, q);
}


static void scalar_repr(struct outbuf *o, const npydt_dtype *dt)
{
    char s[48];
    npydt_dtype_str(dt, s, sizeof s);
    out_putc(o, '\'');
    out_puts(o, s);
    out_putc(o, '\'');
}

static void padding_entry(struct outbuf *o, uint64_t n)
{
    out_puts(o, "('', '|V");
    out_u64(o, n);
    out_puts(o, "')");
}

/* An empty subarray given a size of its own, as (('<i4', (0,)), 2) gives
 * it: NumPy reads its own spelling, ('<i4', (0,)), back without the size. */
static bool sized_apart(const npydt_dtype *dt)
{
    if (dt->cls != NPYDT_SUBARRAY)
        return false;
    uint64_t items = 1;   /* each factor fits a C int, and so does the product or one is 0 */
    for (size_t i = 0; i < dt->ndim; i++)
        items *= dt->shape[i];
    return items * dt->base->itemsize != dt->itemsize;
}

/* numpy.core._internal._array_descr, printed with Python's repr. */
void dtype_descr_repr(struct outbuf *o, const npydt_dtype *dt, bool latin1)
{
    switch (dt->cls) {
    case NPYDT_SCALAR:
        scalar_repr(o, dt);
        return;
    case NPYDT_SUBARRAY:
        out_putc(o, '(');
        if (sized_apart(dt))
            out_putc(o, '(');
        dtype_descr_repr(o, dt->base, latin1);
        out_puts(o, ", ");
        out_shape(o, dt->shape, dt->ndim);
        out_putc(o, ')');
        if (sized_apart(dt)) {
            out_puts(o, ", ");
            out_u64(o, dt->itemsize);
            out_putc(o, ')');
        }
        return;
    case NPYDT_STRUCT: {
        uint64_t offset = 0;
        bool first = true;
        out_putc(o, '[');
        for (size_t i = 0; i < dt->nfields; i++) {
            const struct npydt_field *f = &dt->fields[i];
            if (!first)
                out_puts(o, ", ");
            first = false;
            if (f->offset > offset) {
                padding_entry(o, f->offset - offset);
                out_puts(o, ", ");
                offset = f->offset;
            }
            out_putc(o, '(');
            if (f->title) {
                out_putc(o, '(');
                pyrepr(o, f->title, f->title_len, latin1);
                out_puts(o, ", ");
                pyrepr(o, f->name, f->name_len, latin1);
                out_putc(o, ')');
            } else {
                pyrepr(o, f->name, f->name_len, latin1);
            }
            out_puts(o, ", ");
            if (f->dtype->cls == NPYDT_SUBARRAY && !sized_apart(f->dtype)) {
                dtype_descr_repr(o, f->dtype->base, latin1);
                out_puts(o, ", ");
                out_shape(o, f->dtype->shape, f->dtype->ndim);
            } else {
                dtype_descr_repr(o, f->dtype, latin1);
            }
            out_putc(o, ')');
            offset += f->dtype->itemsize;
        }
        if (dt->itemsize > offset) {
            if (!first)
                out_puts(o, ", ");
            padding_entry(o, dt->itemsize - offset);
        }
        out_putc(o, ']');
        return;
    }
    }
}

size_t npydt_dtype_str(const npydt_dtype *dt, char *buf, size_t size)
{
    struct outbuf o = {buf, size, 0};
    if (dt->cls != NPYDT_SCALAR) {
        out_puts(&o, "|V");
        out_u64(&o, dt->itemsize);
    } else if (dt->kind == 'O') {
        out_puts(&o, "|O");
    } else {
        out_putc(&o, dt->byteorder);
        out_putc(&o, dt->kind);
        if (dt->kind == 'U') {
            out_u64(&o, dt->itemsize / 4);
        } else if (dt->kind == 'M' || dt->kind == 'm') {
            out_putc(&o, '8');
            if (dt->unit != NPYDT_UNIT_GENERIC) {
                out_putc(&o, '[');
                if (dt->unit_count != 1)
                    out_i64(&o, dt->unit_count);
                out_puts(&o, npydt_unit_name((npydt_unit)dt->unit));
                out_putc(&o, ']');
            }
        } else {
            out_u64(&o, dt->itemsize);
        }
    }
    out_finish(&o);
    return o.len;
}

size_t npydt_dtype_descr(const npydt_dtype *dt, char *buf, size_t size)
{
    struct outbuf o = {buf, size, 0};
    dtype_descr_repr(&o, dt, false);
    out_finish(&o);
    return o.len;
}

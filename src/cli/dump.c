/* npydt dump: the records of a file, as JSON lines (the contract in
 * ../shared/spec/cli-json.md) or as a table for people.
 *
 * Elements come out in C order of the logical array whatever the file's
 * fortran_order. Floats print as Python's repr() does (the shortest digits
 * that read back to the same double), so the output matches json.dumps of
 * NumPy's values character for character. The command never calls
 * setlocale: printf and strtod use the "C" locale's '.'. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char dump_usage[] =
    "usage: npydt dump [--jsonl] [--fields A,B.C] [--head N] FILE\n"
    "\n"
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
    "buffer, and no further than --head needs once checked.\n";

#define TEXT_DEFAULT_HEAD 20
/* The table is laid out before it is printed (column widths): its rows are
 * held in memory, so it is for people and has a cap; --jsonl streams. */
#define TEXT_MAX_ROWS 100000u
#define CELL_MAX 40

struct selected {
    const char *path;
    uint64_t offset;
    const npydt_dtype *dtype;
};

struct dumper {
    char *ubuf;          /* room for the UTF-8 of the largest U scalar */
    size_t ubuf_size;
    npydt_error err;
    int failed;
};

/* ---- numbers ---------------------------------------------------------------- */

/* Significant digits and the decimal exponent of the first one. */
struct decimal {
    char d[24];
    int n;
    int exp10;
};

/* Parse printf's "%.*e" of a positive number. */
static void parse_e(const char *buf, struct decimal *dec)
{
    dec->n = 0;
    dec->d[dec->n++] = *buf++;
    if (*buf == '.')
        for (buf++; *buf >= '0' && *buf <= '9'; buf++)
            dec->d[dec->n++] = *buf;
    dec->exp10 = atoi(buf + 1);   /* buf is at 'e' */
}

static void print_e(double v, int digits, struct decimal *dec)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
    parse_e(buf, dec);
}

static int reads_back(const struct decimal *dec, double v)
{
    char buf[48];
    memcpy(buf, dec->d, (size_t)dec->n);
    snprintf(buf + dec->n, sizeof buf - (size_t)dec->n, "e%d", dec->exp10 - (dec->n - 1));
    return strtod(buf, NULL) == v;
}

/* Round the 17 digits of src to k digits. The result is that of rounding
 * the double itself unless the cut-off digits are exactly half a unit
 * (then src may have been rounded up or down to it): -1 then. */
static int round_digits(const struct decimal *src, int k, struct decimal *out)
{
    int tail_half = src->d[k] == '5';
    for (int i = k + 1; i < src->n && tail_half; i++)
        tail_half = src->d[i] == '0';
    if (tail_half)
        return -1;
    *out = *src;
    out->n = k;
    if (src->d[k] < '5')
        return 0;
    int i = k - 1;
    while (i >= 0 && out->d[i] == '9')
        out->d[i--] = '0';
    if (i >= 0) {
        out->d[i]++;
    } else {
        out->d[0] = '1';   /* 99..9 became 100..0 */
        out->exp10++;
    }
    return 0;
}

/* One unit more in the last of k digits. */
static void next_up(struct decimal *dec)
{
    int i = dec->n - 1;
    while (i >= 0 && dec->d[i] == '9')
        dec->d[i--] = '0';
    if (i >= 0) {
        dec->d[i]++;
    } else {
        dec->d[0] = '1';
        dec->exp10++;
    }
}

/* The shortest digits that read back to v > 0, the closest to v among
 * them, as David Gay's dtoa (and so Python's repr) chooses them. For a
 * normal double, when k <= 15 digits read back, the 15-digit rounding is
 * those digits padded with zeros (half an ulp is below a unit of the 15th
 * digit), so 15, 16 and 17 digits are all that need trying. */
static void shortest_digits(double v, struct decimal *dec)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (((bits >> 52) & 0x7ff) == 0) {
        /* subnormal: fewer significant bits, any length may win */
        for (int k = 1; k <= 17; k++) {
            print_e(v, k, dec);
            if (reads_back(dec, v))
                return;
        }
        return;
    }
    struct decimal d17, cand;
    print_e(v, 17, &d17);
    for (int k = 15; k <= 16; k++) {
        if (round_digits(&d17, k, &cand) != 0)
            print_e(v, k, &cand);
        if (reads_back(&cand, v)) {
            *dec = cand;
            return;
        }
        /* at a power of two the gap above is twice the one below: the next
         * k-digit number up may read back when the nearest (below) does not */
        if (k == 16 && (bits & ((UINT64_C(1) << 52) - 1)) == 0) {
            next_up(&cand);
            if (reads_back(&cand, v)) {
                *dec = cand;
                return;
            }
        }
    }
    *dec = d17;
}

/* A finite double as Python's repr(): shortest round-trip digits, fixed
 * notation for decimal exponents -4..15, else d.ddde+XX. */
static void format_double(double v, char *out, size_t size)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (v == 0) {
        snprintf(out, size, "%s", bits >> 63 ? "-0.0" : "0.0");
        return;
    }
    int neg = v < 0;
    struct decimal dec;
    shortest_digits(neg ? -v : v, &dec);
    char *digits = dec.d;
    int nd = dec.n;
    int exp10 = dec.exp10;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    char res[48];
    size_t o = 0;
    if (neg)
        res[o++] = '-';
    int decpt = exp10 + 1;
    if (exp10 >= -4 && exp10 < 16) {
        if (decpt <= 0) {
            res[o++] = '0';
            res[o++] = '.';
            for (int i = 0; i < -decpt; i++)
                res[o++] = '0';
            for (int i = 0; i < nd; i++)
                res[o++] = digits[i];
        } else if (decpt < nd) {
            for (int i = 0; i < nd; i++) {
                if (i == decpt)
                    res[o++] = '.';
                res[o++] = digits[i];
            }
        } else {
            for (int i = 0; i < nd; i++)
                res[o++] = digits[i];
            for (int i = nd; i < decpt; i++)
                res[o++] = '0';
            res[o++] = '.';
            res[o++] = '0';
        }
        res[o] = '\0';
    } else {
        res[o++] = digits[0];
        if (nd > 1) {
            res[o++] = '.';
            for (int i = 1; i < nd; i++)
                res[o++] = digits[i];
        }
        snprintf(res + o, sizeof res - o, "e%c%02d", exp10 < 0 ? '-' : '+',
                 exp10 < 0 ? -exp10 : exp10);
    }
    snprintf(out, size, "%s", res);
}

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

static void put_double(FILE *out, double v)
{
    if (v != v) {
        fputs("\"nan\"", out);
    } else if (isinf(v)) {   /* not a comparison: x87 would make it in long double */
        fputs(v > 0 ? "\"inf\"" : "\"-inf\"", out);
    } else {
        char buf[48];
        format_double(v, buf, sizeof buf);
        fputs(buf, out);
    }
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

static int put_value(struct dumper *d, FILE *out, const npydt_dtype *dt, const unsigned char *p);

static int put_subarray(struct dumper *d, FILE *out, const npydt_dtype *dt,
                        const unsigned char *p, size_t level, uint64_t stride)
{
    const uint64_t *shape = npydt_dtype_shape(dt);
    const npydt_dtype *base = npydt_dtype_base(dt);
    if (level == npydt_dtype_ndim(dt))
        return put_value(d, out, base, p);
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

static int put_value(struct dumper *d, FILE *out, const npydt_dtype *dt, const unsigned char *p)
{
    npydt_status st = NPYDT_OK;
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_STRUCT:
        putc('{', out);
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++) {
            if (i)
                putc(',', out);
            json_string(out, npydt_dtype_field_name(dt, i));
            putc(':', out);
            if (put_value(d, out, npydt_dtype_field_dtype(dt, i),
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
            put_double(out, v);
        break;
    }
    case 'c': {
        double v[2];
        if ((st = npydt_read_complex(dt, p, v, &d->err)) == NPYDT_OK) {
            putc('[', out);
            put_double(out, v[0]);
            putc(',', out);
            put_double(out, v[1]);
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
        st = NPYDT_E_OBJECT;
        snprintf(d->err.message, sizeof d->err.message, "kind '%c' cannot be dumped",
                 npydt_dtype_kind(dt));
        d->err.code = st;
        d->err.offset = NPYDT_NO_OFFSET;
        d->err.path[0] = '\0';
        break;
    }
    if (st != NPYDT_OK) {
        d->failed = 1;
        return -1;
    }
    return 0;
}

/* One element: the whole value, or an object of the selected fields. */
static int put_element(struct dumper *d, FILE *out, const npydt_dtype *dt,
                       const unsigned char *p, const struct selected *sel, size_t nsel)
{
    if (!sel)
        return put_value(d, out, dt, p);
    putc('{', out);
    for (size_t i = 0; i < nsel; i++) {
        if (i)
            putc(',', out);
        json_string(out, sel[i].path);
        putc(':', out);
        if (put_value(d, out, sel[i].dtype, p + sel[i].offset) != 0)
            return -1;
    }
    putc('}', out);
    return 0;
}

/* ---- checking U data before anything is printed --------------------------------- */

/* Every U scalar of the dumped bytes must hold code points (NumPy cannot
 * make a str of anything else): look before printing, so that a failure
 * leaves stdout empty. */
static int check_unicode(struct dumper *d, const npydt_dtype *root, const unsigned char *rec,
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
            d->err.code = NPYDT_E_NOMEM;
            d->err.offset = NPYDT_NO_OFFSET;
            d->err.path[0] = '\0';
            snprintf(d->err.message, sizeof d->err.message, "out of memory");
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

/* Bytes of whole records per batch read from a stream, and per batch
 * gathered from Fortran-order data in place. */
#ifndef BATCH_BYTES
#define BATCH_BYTES ((size_t)1 << 20)
#endif
/* Bytes of C-order elements gathered by one pass over a deflated member
 * stored in Fortran order (it is read start to end once per window). */
#ifndef WINDOW_BYTES
#define WINDOW_BYTES ((size_t)64 << 20)
#endif

/* The first `total` elements of an input in C order, in batches of
 * contiguous records: in place when the data is (a mapped file or a stored
 * member in C order), else copied through a bounded buffer. A deflated
 * member in Fortran order is read once per window of C-order elements. */
struct rows {
    const struct cli_input *in;
    const npydt_header *h;
    size_t itemsize;
    uint64_t count;              /* elements in the array */
    uint64_t total;              /* elements to deliver */
    uint64_t next;               /* C-order index of the next one */
    int c_order;                 /* the stored order is C order */
    const unsigned char *bytes;  /* all the data in place, or NULL */
    struct cli_data d;
    int d_open;
    npydt_npz_stream *stream;    /* a member read again after a rewind */
    uint64_t pos;                /* data bytes read sequentially */
    unsigned char *buf;          /* a batch, or the window of a pass */
    size_t buf_records;
    unsigned char *rbuf;         /* sequential reads of a pass */
    size_t rbuf_records;
    uint64_t *idx, *cstride;     /* a pass's multi-index and C strides */
};

static npydt_status rows_error(npydt_error *err, npydt_status code, const char *msg)
{
    memset(err, 0, sizeof *err);
    err->code = code;
    err->offset = NPYDT_NO_OFFSET;
    snprintf(err->message, sizeof err->message, "%s", msg);
    return code;
}

/* A fresh stream of the member, positioned at its first data byte (the
 * member was verified when it was first opened). */
static npydt_status rows_member_stream(struct rows *r, npydt_error *err)
{
    npydt_npz_stream_close(r->stream);
    r->stream = NULL;
    r->pos = 0;
    npydt_status st = npydt_npz_stream_open(r->in->npz, r->in->index, &r->stream, err);
    unsigned char skip[4096];
    for (uint64_t left = npydt_header_data_offset(r->h); st == NPYDT_OK && left > 0;) {
        size_t got;
        st = npydt_npz_stream_read(r->stream, skip, left < sizeof skip ? (size_t)left : sizeof skip,
                                   &got, err);
        if (st == NPYDT_OK && got == 0)
            st = rows_error(err, NPYDT_E_DATA, "the member ends inside its header");
        left -= got;
    }
    return st;
}

/* Back to the first data byte for a sequential read. */
static npydt_status rows_rewind(struct rows *r, npydt_error *err)
{
    if (r->pos == 0)
        return NPYDT_OK;
    if (r->d_open) {
        cli_data_close(&r->d);
        r->d_open = 0;
    }
    if (r->in->npz)
        return rows_member_stream(r, err);
    r->pos = 0;
    npydt_status st = cli_data_open(r->in, r->h, &r->d, err);
    r->d_open = st == NPYDT_OK;
    return st;
}

/* The next n data bytes, in order. */
static npydt_status rows_read(struct rows *r, unsigned char *buf, size_t n, npydt_error *err)
{
    for (size_t done = 0; done < n;) {
        size_t got;
        npydt_status st = r->stream ? npydt_npz_stream_read(r->stream, buf + done, n - done, &got, err)
                                    : cli_data_read(&r->d, buf + done, n - done, &got, err);
        if (st != NPYDT_OK)
            return st;
        if (got == 0)
            return rows_error(err, NPYDT_E_DATA, "the data ended early");
        done += got;
    }
    r->pos += n;
    return NPYDT_OK;
}

static size_t records_in(size_t bytes, size_t itemsize, uint64_t most)
{
    uint64_t n = itemsize >= bytes ? 1 : bytes / itemsize;
    return (size_t)(n < most ? n : most);
}

/* Open the data of an input for its first `total` elements. verified: a
 * member already checked in full (CRC included) by an earlier open. */
static npydt_status rows_open(struct rows *r, const struct cli_input *in, const npydt_header *h,
                              uint64_t total, int verified, npydt_error *err)
{
    memset(r, 0, sizeof *r);
    r->in = in;
    r->h = h;
    r->itemsize = npydt_dtype_itemsize(npydt_header_dtype(h));
    r->count = npydt_header_count(h);
    r->total = total;
    size_t big = 0;
    for (size_t k = 0; k < npydt_header_ndim(h); k++)
        big += npydt_header_shape(h)[k] > 1;
    r->c_order = !npydt_header_fortran_order(h) || big <= 1;
    npydt_status st;
    if (in->npz && verified) {
        const void *p;
        uint64_t len;
        if (npydt_npz_member_data(in->npz, in->index, &p, &len, NULL) == NPYDT_OK) {
            r->bytes = (const unsigned char *)p + npydt_header_data_offset(h);
            st = NPYDT_OK;
        } else {
            st = rows_member_stream(r, err);
        }
    } else {
        st = cli_data_open(in, h, &r->d, err);
        r->d_open = st == NPYDT_OK;
        r->bytes = r->d.bytes;
    }
    if (st != NPYDT_OK || r->itemsize == 0 || total == 0)
        return st;
    if (r->bytes && r->c_order)
        return NPYDT_OK;
    if (r->bytes || r->c_order) {
        r->buf_records = records_in(BATCH_BYTES, r->itemsize, total);
    } else {
        size_t nd = npydt_header_ndim(h);
        r->buf_records = records_in(WINDOW_BYTES, r->itemsize, total);
        r->rbuf_records = records_in(BATCH_BYTES, r->itemsize, r->count);
        r->rbuf = malloc(r->rbuf_records * r->itemsize);
        r->idx = calloc(nd, sizeof *r->idx);
        r->cstride = calloc(nd, sizeof *r->cstride);
        if (!r->rbuf || !r->idx || !r->cstride)
            return rows_error(err, NPYDT_E_NOMEM, "out of memory");
        const uint64_t *shape = npydt_header_shape(h);
        uint64_t s = 1;
        for (size_t k = nd; k-- > 0;) {
            r->cstride[k] = s;
            s *= shape[k];   /* the header checked that the product fits */
        }
    }
    r->buf = malloc(r->buf_records * r->itemsize);
    if (!r->buf)
        return rows_error(err, NPYDT_E_NOMEM, "out of memory");
    return NPYDT_OK;
}

/* Deliver the elements again from the first. */
static void rows_restart(struct rows *r)
{
    r->next = 0;
}

/* One pass over Fortran-order data read in sequence: the elements whose
 * C-order index is in [lo, lo + k) go to buf in C order. */
static npydt_status rows_pass(struct rows *r, uint64_t lo, size_t k, npydt_error *err)
{
    npydt_status st = rows_rewind(r, err);
    if (st != NPYDT_OK)
        return st;
    size_t nd = npydt_header_ndim(r->h), is = r->itemsize;
    const uint64_t *shape = npydt_header_shape(r->h);
    memset(r->idx, 0, nd * sizeof *r->idx);
    uint64_t c = 0, hi = lo + k, collected = 0;
    for (uint64_t f = 0; f < r->count && collected < k;) {
        size_t m = r->count - f < r->rbuf_records ? (size_t)(r->count - f) : r->rbuf_records;
        if ((st = rows_read(r, r->rbuf, m * is, err)) != NPYDT_OK)
            return st;
        for (size_t j = 0; j < m; j++) {
            if (c >= lo && c < hi) {
                memcpy(r->buf + (c - lo) * is, r->rbuf + j * is, is);
                collected++;
            }
            /* the next element in Fortran order: the first index runs fastest */
            size_t q = 0;
            r->idx[0]++;
            c += r->cstride[0];
            while (q + 1 < nd && r->idx[q] == shape[q]) {
                c -= shape[q] * r->cstride[q];
                r->idx[q] = 0;
                q++;
                r->idx[q]++;
                c += r->cstride[q];
            }
        }
        f += m;
    }
    return collected == k ? NPYDT_OK : rows_error(err, NPYDT_E_DATA, "the data ended early");
}

/* The next *n (0 at the end) elements in C order, contiguous at *batch. */
static npydt_status rows_next(struct rows *r, const unsigned char **batch, uint64_t *n,
                              npydt_error *err)
{
    static const unsigned char nothing[1];
    uint64_t left = r->total - r->next;
    *n = 0;
    *batch = nothing;
    if (left == 0)
        return NPYDT_OK;
    size_t is = r->itemsize;
    npydt_status st = NPYDT_OK;
    uint64_t k = left;
    if (is == 0) {
        /* records without bytes */
    } else if (r->bytes && r->c_order) {
        *batch = r->bytes + r->next * is;
    } else if (r->bytes) {
        k = left < r->buf_records ? left : r->buf_records;
        for (uint64_t j = 0; j < k && st == NPYDT_OK; j++) {
            uint64_t off;
            st = npydt_element_offset_flat(r->h, r->next + j, &off, err);
            if (st == NPYDT_OK)
                memcpy(r->buf + j * is, r->bytes + off, is);
        }
        *batch = r->buf;
    } else if (r->c_order) {
        k = left < r->buf_records ? left : r->buf_records;
        if (r->pos != r->next * is)
            st = rows_rewind(r, err);   /* after rows_restart */
        if (st == NPYDT_OK)
            st = rows_read(r, r->buf, (size_t)k * is, err);
        *batch = r->buf;
    } else {
        k = left < r->buf_records ? left : r->buf_records;
        st = rows_pass(r, r->next, (size_t)k, err);
        *batch = r->buf;
    }
    if (st != NPYDT_OK) {
        *batch = nothing;
        return st;
    }
    r->next += k;
    *n = k;
    return NPYDT_OK;
}

static void rows_close(struct rows *r)
{
    if (r->d_open)
        cli_data_close(&r->d);
    npydt_npz_stream_close(r->stream);
    free(r->buf);
    free(r->rbuf);
    free(r->idx);
    free(r->cstride);
    memset(r, 0, sizeof *r);
}

/* ---- the table for people ---------------------------------------------------------- */

static void put_index(FILE *out, const npydt_header *h, uint64_t flat)
{
    size_t nd = npydt_header_ndim(h);
    const uint64_t *shape = npydt_header_shape(h);
    if (nd == 1) {
        fprintf(out, "%llu", (unsigned long long)flat);
        return;
    }
    uint64_t idx[64];
    size_t shown = nd < 64 ? nd : 64;
    for (size_t k = nd; k-- > 0;) {
        if (k < 64)
            idx[k] = flat % shape[k];
        flat /= shape[k];
    }
    putc('(', out);
    for (size_t k = 0; k < shown; k++)
        fprintf(out, "%s%llu", k ? "," : "", (unsigned long long)idx[k]);
    putc(')', out);
}

/* A cell's text, cut to CELL_MAX display bytes. */
static char *cell_text(char *s)
{
    size_t n = strlen(s);
    if (n > CELL_MAX) {
        size_t cut = CELL_MAX - 3;
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
            cut--;   /* not inside a UTF-8 sequence */
        memcpy(s + cut, "...", 4);
    }
    return s;
}

static size_t display_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

static void pad(FILE *out, size_t n)
{
    while (n--)
        putc(' ', out);
}

/* The first `rows` elements of src as a table: the selected fields, the
 * top-level fields or the whole value per column. */
static int print_table(struct dumper *d, FILE *out, const char *title, struct rows *src,
                       const struct selected *sel, size_t nsel, uint64_t rows)
{
    const npydt_header *h = src->h;
    const npydt_dtype *dt = npydt_header_dtype(h);
    size_t itemsize = npydt_dtype_itemsize(dt);
    size_t ncols;
    struct selected *cols;
    struct selected whole = {"value", 0, dt};
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
            cols[i] = (struct selected){name[0] ? name : "''", npydt_dtype_field_offset(dt, i),
                                        npydt_dtype_field_dtype(dt, i)};
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
    int rc = cells && width ? 0 : -1;
    if (rc == 0)
        width[0] = strlen("index");
    for (size_t c = 0; c < ncols && rc == 0; c++)
        width[c + 1] = display_width(cols[c].path);
    uint64_t r = 0;
    while (rc == 0 && r < rows) {
        const unsigned char *batch;
        uint64_t n;
        if (rows_next(src, &batch, &n, &d->err) != NPYDT_OK || n == 0) {
            d->failed = 1;
            rc = -1;
            break;
        }
        for (uint64_t j = 0; j < n && rc == 0; j++, r++) {
            const unsigned char *rec = batch + j * itemsize;
            for (size_t c = 0; c <= ncols && rc == 0; c++) {
                char *text = NULL;
                size_t len = 0;
                FILE *m = open_memstream(&text, &len);
                if (!m) {
                    rc = -1;
                    break;
                }
                if (c == 0)
                    put_index(m, h, r);
                else if (put_value(d, m, cols[c - 1].dtype, rec + cols[c - 1].offset) != 0)
                    rc = -1;
                fclose(m);
                if (!text) {
                    rc = -1;
                    break;
                }
                cells[r * (ncols + 1) + c] = cell_text(text);
                size_t w = display_width(text);
                if (w > width[c])
                    width[c] = w;
            }
        }
    }
    if (rc == 0) {
        fputs(title, out);
        fprintf(out, "%-*s", (int)width[0], "index");
        for (size_t c = 0; c < ncols; c++) {
            fputs("  ", out);
            fputs(cols[c].path, out);
            if (c + 1 < ncols)
                pad(out, width[c + 1] - display_width(cols[c].path));
        }
        putc('\n', out);
        for (uint64_t i = 0; i < rows; i++) {
            for (size_t c = 0; c <= ncols; c++) {
                const char *t = cells[i * (ncols + 1) + c];
                if (c)
                    fputs("  ", out);
                fputs(t, out);
                if (c < ncols)
                    pad(out, width[c] - display_width(t));
            }
            putc('\n', out);
        }
    }
    for (size_t i = 0; cells && i < ncells; i++)
        free(cells[i]);
    free(cells);
    free(width);
    if (cols != sel && cols != &whole)
        free(cols);
    return rc;
}

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
static int check_rows_unicode(struct dumper *d, struct rows *src, const npydt_dtype *dt,
                              const struct selected *sel, size_t nsel)
{
    size_t itemsize = npydt_dtype_itemsize(dt);
    for (;;) {
        const unsigned char *batch;
        uint64_t n;
        if (rows_next(src, &batch, &n, &d->err) != NPYDT_OK)
            return -1;
        if (n == 0)
            return 0;
        for (uint64_t j = 0; j < n; j++) {
            const unsigned char *rec = batch + j * itemsize;
            int bad = 0;
            if (!sel)
                bad = check_unicode(d, dt, rec, 0, UINT64_MAX);
            for (size_t k = 0; sel && k < nsel && !bad; k++)
                bad = check_unicode(d, dt, rec, sel[k].offset,
                                    sel[k].offset + npydt_dtype_itemsize(sel[k].dtype));
            if (bad)
                return -1;
        }
    }
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
    struct rows src;
    int src_open = 0, status = EXIT_OK;
    memset(&src, 0, sizeof src);
    if (npydt_dtype_has_object(dt)) {
        rows_error(&err, NPYDT_E_OBJECT,
                   "object arrays hold pickled Python objects and cannot be dumped");
        status = cli_report(in->name, &err);
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
    if (rows_open(&src, in, h, rows, phase == DUMP_PRINT, &err) != NPYDT_OK) {
        status = cli_report(in->name, &err);
        goto out;
    }
    src_open = 1;
    if (check_text) {
        if (check_rows_unicode(&d, &src, dt, sel, nsel) != 0) {
            status = cli_report(in->name, &d.err);
            goto out;
        }
        rows_restart(&src);
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
            if (rows_next(&src, &batch, &n, &d.err) != NPYDT_OK || n == 0) {
                d.failed = 1;
                break;
            }
            for (uint64_t j = 0; j < n; j++, done++) {
                if (put_element(&d, out, dt, batch + j * itemsize, sel, nsel) != 0)
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
        if (!title || print_table(&d, out, title, &src, sel, nsel, rows) != 0) {
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
    if (src_open)
        rows_close(&src);
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
    const char *file = NULL;
    int opts_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        if (opts_done || a[0] != '-' || !a[1]) {
            if (file)
                return cli_usage_error("dump: more than one FILE ('%s' and '%s')", file, a);
            file = a;
        } else if (strcmp(a, "--") == 0) {
            opts_done = 1;
        } else if (strcmp(a, "--jsonl") == 0) {
            o.jsonl = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(dump_usage, stdout);
            return EXIT_OK;
        } else if (strncmp(a, "--fields", 8) == 0 && (a[8] == '\0' || a[8] == '=')) {
            val = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!val)
                return cli_usage_error("dump: --fields needs a list of fields");
            o.fields = val;
        } else if (strncmp(a, "--head", 6) == 0 && (a[6] == '\0' || a[6] == '=')) {
            val = a[6] == '=' ? a + 7 : (i + 1 < argc ? argv[++i] : NULL);
            if (!val || parse_count(val, &o.head) != 0)
                return cli_usage_error("dump: --head needs a count (0 or more)");
            o.have_head = 1;
        } else {
            cli_usage_error("dump: unknown option '%s'", a);
            fputs(dump_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (!file) {
        cli_usage_error("dump: no FILE given");
        fputs(dump_usage, stderr);
        return EXIT_USAGE;
    }

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

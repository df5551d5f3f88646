/* The .npy format's bytes around the header dict, read and written here
 * only: the magic string, the version and HEADER_LEN behind it, the dict
 * text np.save writes, the room it leaves for the growth axis and the
 * padding to a multiple of 64 bytes.
 *
 * NumPy's writer (np.lib.format._write_array_header) builds one dict text
 * whatever the version, leaves 21 - len(str(n)) spaces after it for the
 * growth axis's length n, encodes it (latin-1 for 1.0 and 2.0, UTF-8 for
 * 3.0) behind the version's preamble and pads it with spaces and a newline
 * to a multiple of 64 bytes. Since the room shrinks as n gets longer,
 * every count gives a text of the same length: a writer can rewrite the
 * header in place. */
#include "header/header.h"

#include <string.h>

static const unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

#define GROWTH_DIGITS 21u   /* NumPy's GROWTH_AXIS_MAX_DIGITS */
#define ALIGN 64u           /* NumPy's ARRAY_ALIGN */

/* Magic, version and HEADER_LEN: 10 bytes for 1.0, 12 for 2.0 and 3.0. */
static size_t preamble_len(int major) { return major == 1 ? 10u : 12u; }

/* ---- reading the preamble ------------------------------------------------- */

npydt_status header_preamble_read(const unsigned char *b, size_t len, const npydt_limits *lim,
                                  int *major, uint32_t *hlen, size_t *hstart, npydt_error *err)
{
    size_t have = len < 6 ? len : 6;
    if (have && memcmp(b, magic, have) != 0)
        return io_looks_like_zip(b, len)
                   ? set_error(err, NPYDT_E_MAGIC, NPYDT_NO_OFFSET, NULL,
                               "a zip archive (.npz), not a .npy file: open it with "
                               "npydt_npz_open_path (or _fd, _buffer) and read its members")
                   : set_error(err, NPYDT_E_MAGIC, NPYDT_NO_OFFSET, NULL,
                               "not a NumPy file: the magic string \\x93NUMPY is missing");
    *hstart = 10;
    if (len < 8)
        return set_error(err, NPYDT_E_TRUNCATED, NPYDT_NO_OFFSET, NULL,
                         "the preamble needs at least 10 bytes, %zu given: the input ends "
                         "inside the magic string and version", len);
    if ((b[6] != 1 && b[6] != 2 && b[6] != 3) || b[7] != 0)
        return set_error(err, NPYDT_E_VERSION, NPYDT_NO_OFFSET, NULL,
                         "format version %u.%u is not supported (1.0, 2.0 and 3.0 are)", b[6],
                         b[7]);
    *major = b[6];
    size_t lenbytes = *major == 1 ? 2 : 4;
    *hstart = 8 + lenbytes;
    if (len < 8 + lenbytes)
        return set_error(err, NPYDT_E_TRUNCATED, NPYDT_NO_OFFSET, NULL,
                         "the preamble needs %zu bytes, %zu given: the input ends inside the "
                         "header length field", 8 + lenbytes, len);
    uint32_t h = lenbytes == 4 ? text_load_le32(b + 8) : text_load_le16(b + 8);
    *hlen = h;
    if (h > lim->max_header_bytes)
        return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "header length %u is above the limit of %zu bytes", h,
                         lim->max_header_bytes);
    return NPYDT_OK;
}

npydt_status npydt_header_size(const void *prefix, size_t len, const npydt_options *opts,
                               uint64_t *total, npydt_error *err)
{
    error_clear(err);
    npydt_options resolved;
    opts = options_or_default(opts, &resolved);
    if (!total)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "total is NULL");
    *total = 0;
    if (!prefix && len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "prefix is NULL");
    npydt_status st = options_check(opts, err);
    if (st != NPYDT_OK)
        return st;
    int major;
    uint32_t hlen = 0;
    size_t hstart = 0;
    st = header_preamble_read(prefix, len, &opts->limits, &major, &hlen, &hstart, err);
    if (st == NPYDT_OK || st == NPYDT_E_LIMIT)
        *total = (uint64_t)hstart + hlen;
    else if (st == NPYDT_E_TRUNCATED)
        *total = hstart;
    return st;
}

/* ---- the dict text ---------------------------------------------------------- */

/* Does every code point of the descriptor fit latin-1? Non-ASCII only
 * comes from names and titles. */
static bool names_fit_latin1(const npydt_dtype *dt)
{
    switch (dt->cls) {
    case NPYDT_SCALAR:
        return true;
    case NPYDT_SUBARRAY:
        return names_fit_latin1(dt->base);
    case NPYDT_STRUCT:
        for (size_t i = 0; i < dt->nfields; i++) {
            const struct npydt_field *f = &dt->fields[i];
            const char *strs[2] = {f->name, f->title};
            size_t lens[2] = {f->name_len, f->title_len};
            for (int k = 0; k < 2; k++) {
                const unsigned char *s = (const unsigned char *)strs[k];
                if (!s)
                    continue;
                size_t len = lens[k];
                for (size_t j = 0; j < len;) {
                    uint32_t cp;
                    size_t n = text_utf8_decode(s + j, len - j, &cp);
                    /* repr escapes what is not printable: only the rest
                     * must fit latin-1, as NumPy checks its header */
                    if (n == 0 || (cp > 0xFF && unicode_is_printable(cp)))
                        return false;
                    j += n;
                }
            }
            if (!names_fit_latin1(dt->fields[i].dtype))
                return false;
        }
        return true;
    }
    return true;
}

/* np.save's dict: sorted keys, "'key': repr(value), " each. */
static void dict_repr(struct outbuf *o, const npydt_dtype *dt, const uint64_t *shape,
                      size_t ndim, int fortran_order, bool latin1)
{
    out_puts(o, "{'descr': ");
    dtype_descr_repr(o, dt, latin1);
    out_puts(o, ", 'fortran_order': ");
    out_puts(o, fortran_order ? "True" : "False");
    out_puts(o, ", 'shape': ");
    out_shape(o, shape, ndim);
    out_puts(o, ", }");
}

size_t npydt_header_dict(const npydt_dtype *dt, const uint64_t *shape, size_t ndim,
                         int fortran_order, char *buf, size_t size)
{
    if (!dt || (ndim && !shape))
        return 0;
    struct outbuf o = {buf, size, 0};
    dict_repr(&o, dt, shape, ndim, fortran_order, false);
    out_finish(&o);
    return o.len;
}

/* ---- the whole header ------------------------------------------------------- */

/* The spaces np.save leaves after the dict for the growth axis (the first
 * in C order, the last in Fortran order) to take up to 21 digits. */
static size_t growth_room(const uint64_t *shape, size_t ndim, int fortran_order)
{
    if (ndim == 0)
        return 0;
    return GROWTH_DIGITS - (size_t)text_decimal_count(shape[fortran_order ? ndim - 1 : 0]);
}

npydt_status header_encode(const npydt_dtype *dt, const uint64_t *shape, size_t ndim,
                           int fortran_order, int major, void *buf, size_t size, size_t *total,
                           npydt_error *err)
{
    *total = 0;
    bool fits = names_fit_latin1(dt);
    bool chosen = major == 0;
    if (chosen)
        major = fits ? 1 : 3;   /* 2.0 only when 1.0's length field is too small */
    else if (major != 3 && !fits)
        return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "names beyond latin-1 need format version 3.0, not %d.0", major);
    bool latin1 = major != 3;
    struct outbuf measure = {NULL, 0, 0};
    dict_repr(&measure, dt, shape, ndim, fortran_order, latin1);
    size_t room = growth_room(shape, ndim, fortran_order);
    uint64_t hlen = (uint64_t)measure.len + room + 1;   /* + the final newline */
    uint64_t total_hlen = hlen + ALIGN - (preamble_len(major) + hlen) % ALIGN;
    if (major == 1 && total_hlen > 0xFFFF) {
        if (!chosen)
            return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                             "a header of %llu bytes does not fit format version %d.0",
                             (unsigned long long)total_hlen, major);
        major = 2;
        total_hlen = hlen + ALIGN - (preamble_len(major) + hlen) % ALIGN;
    }
    /* the limit is far below what version 2.0's length field holds */
    npydt_status st = header_len_writable(total_hlen, err);
    if (st != NPYDT_OK)
        return st;
    size_t prefix = preamble_len(major);
    *total = prefix + (size_t)total_hlen;
    if (size < *total)
        return NPYDT_OK;
    unsigned char *b = buf;
    memcpy(b, magic, sizeof magic);
    b[6] = (unsigned char)major;
    b[7] = 0;
    if (major == 1)
        text_store_le16(b + 8, (uint16_t)total_hlen);
    else
        text_store_le32(b + 8, (uint32_t)total_hlen);
    struct outbuf o = {(char *)b + prefix, measure.len + 1, 0};
    dict_repr(&o, dt, shape, ndim, fortran_order, latin1);
    memset(b + prefix + measure.len, ' ', *total - 1 - prefix - measure.len);
    b[*total - 1] = '\n';
    return NPYDT_OK;
}

size_t npydt_header_write(const npydt_dtype *dt, const uint64_t *shape, size_t ndim,
                          int fortran_order, void *buf, size_t size, npydt_error *err)
{
    error_clear(err);
    if (!dt || (ndim && !shape) || (!buf && size)) {
        set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "invalid argument");
        return 0;
    }
    size_t total;
    if (header_encode(dt, shape, ndim, fortran_order, 0, buf, size, &total, err) != NPYDT_OK)
        return 0;
    return total;
}

/* The header texts a writer puts in its files: np.save's, in the format
 * version a file already has. NumPy's writer (np.lib.format
 * _write_array_header) builds one dict text whatever the version, leaves
 * 21 - len(str(n)) spaces after it for the growth axis's length n, then
 * encodes it (latin-1 for 1.0 and 2.0, UTF-8 for 3.0) behind the version's
 * preamble and pads it with spaces and a newline to a multiple of 64
 * bytes. Since the room shrinks as n gets longer, every count gives a text
 * of the same length: the header can be rewritten in place. */
#include "write/write.h"

#include <stdio.h>

#define GROWTH_DIGITS 21u   /* NumPy's GROWTH_AXIS_MAX_DIGITS */
#define ALIGN 64u           /* NumPy's ARRAY_ALIGN */

static size_t prefix_len(int major) { return major == 1 ? 10u : 12u; }

npydt_status header_text(const npydt_allocator *a, const npydt_dtype *dt,
                         const uint64_t *shape, size_t ndim, int fortran_order, int major,
                         unsigned char **out, size_t *len, npydt_error *err)
{
    *out = NULL;
    *len = 0;
    size_t n = npydt_header_write(dt, shape, ndim, fortran_order, NULL, 0, err);
    if (n == 0)
        return err ? err->code : NPYDT_E_ARG;
    unsigned char *raw = alloc_bytes(a, n);
    if (!raw)
        return set_nomem(err);
    npydt_header_write(dt, shape, ndim, fortran_order, raw, n, err);
    if (major == 0 || major == raw[6]) {
        *out = raw;
        *len = n;
        return NPYDT_OK;
    }
    /* the dict text: what np.save wrote between its preamble and the
     * spaces that follow the closing brace */
    size_t raw_prefix = prefix_len(raw[6]);
    size_t dict_end = n - 1;
    while (dict_end > raw_prefix && raw[dict_end - 1] == ' ')
        dict_end--;
    const unsigned char *dict = raw + raw_prefix;
    size_t dict_len = dict_end - raw_prefix;
    /* latin-1 text becomes UTF-8 for 3.0: two bytes per byte above 0x7F;
     * UTF-8 text (names beyond latin-1) cannot go into 1.0 or 2.0 */
    size_t text_len = dict_len;
    bool to_utf8 = raw[6] != 3 && major == 3;
    if (raw[6] == 3 && major != 3) {
        free_bytes(a, raw, n);
        return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "names beyond latin-1 need format version 3.0, not %d.0", major);
    }
    if (to_utf8)
        for (size_t i = 0; i < dict_len; i++)
            text_len += dict[i] >= 0x80;
    size_t room = 0;
    if (ndim > 0) {
        char digits[24];
        int d = snprintf(digits, sizeof digits, "%llu",
                         (unsigned long long)shape[fortran_order ? ndim - 1 : 0]);
        room = GROWTH_DIGITS - (size_t)d;
    }
    uint64_t hlen = (uint64_t)text_len + room + 1;
    uint64_t pad = ALIGN - (prefix_len(major) + hlen) % ALIGN;
    uint64_t total_hlen = hlen + pad;
    if (major == 1 && total_hlen > 0xFFFF) {
        free_bytes(a, raw, n);
        return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "a header of %llu bytes does not fit format version %d.0",
                         (unsigned long long)total_hlen, major);
    }
    /* UTF-8 for 3.0 can take a latin-1 text past the limit */
    npydt_status st = header_len_writable(total_hlen, err);
    if (st != NPYDT_OK) {
        free_bytes(a, raw, n);
        return st;
    }
    size_t total = prefix_len(major) + (size_t)total_hlen;
    unsigned char *b = alloc_bytes(a, total);
    if (!b) {
        free_bytes(a, raw, n);
        return set_nomem(err);
    }
    memcpy(b, raw, 6);
    b[6] = (unsigned char)major;
    b[7] = 0;
    for (size_t i = 0; i < prefix_len(major) - 8; i++)
        b[8 + i] = (unsigned char)(total_hlen >> (8 * i));
    unsigned char *p = b + prefix_len(major);
    for (size_t i = 0; i < dict_len; i++) {
        if (to_utf8 && dict[i] >= 0x80) {
            *p++ = (unsigned char)(0xC0 | (dict[i] >> 6));
            *p++ = (unsigned char)(0x80 | (dict[i] & 0x3F));
        } else {
            *p++ = dict[i];
        }
    }
    memset(p, ' ', (size_t)(room + pad));
    b[total - 1] = '\n';
    free_bytes(a, raw, n);
    *out = b;
    *len = total;
    return NPYDT_OK;
}

void header_diff(const unsigned char *a, const unsigned char *b, size_t len, size_t *first,
                 size_t *end)
{
    size_t i = 0, j = len;
    while (i < len && a[i] == b[i])
        i++;
    while (j > i && a[j - 1] == b[j - 1])
        j--;
    *first = i;
    *end = j;
}

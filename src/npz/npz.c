/* .npz members as .npy files: their headers, read without the data, and
 * the declared sizes checked against what the headers need. */
#include "npz/zip.h"

#include <stdio.h>
#include <string.h>

void npydt_npz_options_init_untrusted(npydt_npz_options *opts)
{
    npydt_npz_options_init(opts);
    npydt_options_init_untrusted(&opts->base);
    opts->max_members = 10000;
    opts->max_inflated_bytes = (uint64_t)1 << 30;
}

/* Bytes of a member that hold its preamble and header, from the first
 * 12 (or fewer) bytes; just those bytes when they are not a valid
 * preamble, so that the header parser reports why. Never more than the
 * member declares or than max_header_bytes allows. */
static size_t header_extent(const unsigned char *pre, size_t n, uint64_t member_size,
                            const npydt_options *opts)
{
    uint64_t need;
    if (npydt_header_size(pre, n, opts, &need, NULL) != NPYDT_OK)
        return n;
    if (need > member_size)
        need = member_size;
    return need < n ? n : (size_t)need;
}

/* A deflated member's header: inflate the preamble, then the header, and
 * not one byte of data. */
static npydt_status inflate_header(const npydt_npz *z, size_t i, npydt_header **out,
                                   npydt_error *err)
{
    const npydt_npz_member *m = &z->members[i];
    const npydt_options *opts = &z->opts.base;
    npydt_npz_stream *s;
    npydt_status st = npydt_npz_stream_open(z, i, &s, err);
    if (st != NPYDT_OK)
        return st;
    unsigned char pre[12];
    size_t n = m->uncompressed_size < sizeof pre ? (size_t)m->uncompressed_size : sizeof pre;
    size_t got;
    unsigned char *buf = NULL;
    size_t need = 0, cap = 1; /* the allocator never sees 0 bytes */
    if ((st = npydt_npz_stream_read(s, pre, n, &got, err)) != NPYDT_OK)
        goto out;
    need = header_extent(pre, n, m->uncompressed_size, opts);
    cap = need ? need : 1;
    buf = alloc_bytes(opts->allocator, cap);
    if (!buf) {
        st = set_nomem(err);
        goto out;
    }
    memcpy(buf, pre, n);
    if ((st = npydt_npz_stream_read(s, buf + n, need - n, &got, err)) != NPYDT_OK)
        goto out;
    st = npydt_header_parse(buf, need, opts, out, err);
out:
    free_bytes(opts->allocator, buf, cap);
    npydt_npz_stream_close(s);
    return st;
}

npydt_status npydt_npz_member_header(const npydt_npz *z, size_t i, npydt_header **out,
                                     npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!z || i >= z->count)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "no member %zu", i);
    const npydt_npz_member *m = &z->members[i];
    npydt_status st;
    if (m->method == NPYDT_NPZ_STORED)
        st = npydt_header_parse(z->base + m->data_offset, (size_t)m->uncompressed_size,
                                &z->opts.base, out, err);
    else
        st = inflate_header(z, i, out, err);
    if (st != NPYDT_OK)
        return st;
    /* the header fits in the member, and its sizes do not overflow; an
     * object member holds a pickle, of any length */
    const npydt_header *h = *out;
    uint64_t need = npydt_header_data_offset(h) + npydt_header_data_bytes(h);
    if (!npydt_dtype_has_object(npydt_header_dtype(h)) && m->uncompressed_size < need) {
        char quoted[128];
        zip_quote_name(quoted, sizeof quoted, m->name);
        st = set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, NULL,
                       "member %s: declares %llu bytes, but its header (%llu bytes) and data "
                       "(count %llu * itemsize %zu) need %llu",
                       quoted, (unsigned long long)m->uncompressed_size,
                       (unsigned long long)npydt_header_data_offset(h),
                       (unsigned long long)npydt_header_count(h),
                       npydt_dtype_itemsize(npydt_header_dtype(h)), (unsigned long long)need);
        npydt_header_free(*out);
        *out = NULL;
    }
    return st;
}

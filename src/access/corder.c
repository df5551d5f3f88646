/* The elements of an array in C (row-major) order, in batches: in place
 * where the stored bytes already are in that order, else gathered through
 * bounded buffers from a Fortran-order array: by bands where it can be
 * read anywhere (band.c), by passes from its start where it is read in
 * sequence (a deflated member, a pipe). */
#include "access/access.h"

/* Elements of itemsize 0, or C-order bytes in place: no copy. */
static void next_in_place(npydt_reader *r, uint64_t k, const void **batch)
{
    *batch = r->itemsize ? r->bytes + r->next * r->itemsize : (const unsigned char *)"";
    r->next += k;
}

/* The C strides and multi-index of a pass, allocated once. */
static npydt_status pass_tables(npydt_reader *r, npydt_error *err)
{
    size_t nd = npydt_header_ndim(r->header);
    if (r->index)
        return NPYDT_OK;
    r->index = alloc_bytes(r->alloc, nd * sizeof *r->index);
    r->cstride = alloc_bytes(r->alloc, nd * sizeof *r->cstride);
    if (!r->index || !r->cstride)
        return set_nomem(err);
    const uint64_t *shape = npydt_header_shape(r->header);
    uint64_t s = 1;
    for (size_t k = nd; k-- > 0;) {
        r->cstride[k] = s;
        s *= shape[k];   /* the header checked that the product fits */
    }
    return NPYDT_OK;
}

/* One pass over Fortran-order data read in sequence from its start: the
 * elements whose C-order index is in [lo, lo + k) go to the window in C
 * order. */
static npydt_status gather_pass(npydt_reader *r, uint64_t lo, uint64_t k, npydt_error *err)
{
    size_t nd = npydt_header_ndim(r->header), is = r->itemsize;
    const uint64_t *shape = npydt_header_shape(r->header);
    size_t per_read = (size_t)reader_records_in(r, r->chunk_bytes, r->count);
    npydt_status st;
    if ((st = pass_tables(r, err)) != NPYDT_OK ||
        (st = reader_room(r, &r->window, &r->window_size, (size_t)k * is, err)) != NPYDT_OK ||
        (st = reader_room(r, &r->buf, &r->buf_size, per_read * is, err)) != NPYDT_OK ||
        (st = reader_seek(r, 0, err)) != NPYDT_OK)
        return st;
    memset(r->index, 0, nd * sizeof *r->index);
    uint64_t c = 0, hi = lo + k, collected = 0;
    for (uint64_t f = 0; f < r->count && collected < k;) {
        size_t m = r->count - f < per_read ? (size_t)(r->count - f) : per_read;
        if ((st = reader_read(r, r->buf, m * is, err)) != NPYDT_OK)
            return st;
        for (size_t j = 0; j < m; j++) {
            if (c >= lo && c < hi) {
                memcpy(r->window + (c - lo) * is, r->buf + j * is, is);
                collected++;
            }
            /* the next element in Fortran order: the first index runs fastest */
            size_t q = 0;
            r->index[0]++;
            c += r->cstride[0];
            while (q + 1 < nd && r->index[q] == shape[q]) {
                c -= shape[q] * r->cstride[q];
                r->index[q] = 0;
                q++;
                r->index[q]++;
                c += r->cstride[q];
            }
        }
        f += m;
    }
    return collected == k ? NPYDT_OK
                          : set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, NULL,
                                      "the data ended early");
}

npydt_status npydt_reader_seek_c(npydt_reader *r, uint64_t index, npydt_error *err)
{
    error_clear(err);
    if (!r)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    if (index > r->count)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "element %llu is out of bounds for %llu elements",
                         (unsigned long long)index, (unsigned long long)r->count);
    if (r->piped && index < r->next)
        return reader_no_going_back(err);
    r->next = index;
    return NPYDT_OK;
}

npydt_status npydt_reader_next_c(npydt_reader *r, uint64_t max, const void **batch,
                                 uint64_t *n, npydt_error *err)
{
    error_clear(err);
    if (!r || !batch || !n)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    *batch = "";
    *n = 0;
    uint64_t k = r->count - r->next;
    if (k > max)
        k = max;
    if (k == 0)
        return NPYDT_OK;
    if (r->itemsize == 0 || (r->bytes && r->c_order)) {
        next_in_place(r, k, batch);
        *n = k;
        return NPYDT_OK;
    }
    npydt_status st;
    const unsigned char *at = r->buf;
    if (r->c_order) {
        k = reader_records_in(r, r->chunk_bytes, k);
        if ((st = reader_room(r, &r->buf, &r->buf_size, (size_t)k * r->itemsize, err)) ==
                NPYDT_OK &&
            (st = reader_seek(r, r->next * r->itemsize, err)) == NPYDT_OK)
            st = reader_read(r, r->buf, (size_t)k * r->itemsize, err);
        at = r->buf;
    } else if (r->bytes || (r->fd >= 0 && !r->piped)) {
        st = band_next(r, k, &at, &k, err);
    } else {
        k = reader_records_in(r, r->window_bytes, k);
        st = gather_pass(r, r->next, k, err);
        at = r->window;
    }
    if (st != NPYDT_OK)
        return st;
    *batch = at;
    *n = k;
    r->next += k;
    return NPYDT_OK;
}

/* Element addressing: the byte offset of an element of the array a header
 * describes, by multi-index or by C-order position, in C or Fortran order. */
#include "access/access.h"

/* Offset of a multi-index that is known to be in bounds. */
static uint64_t offset_of(const npydt_header *h, const uint64_t *index)
{
    size_t nd = npydt_header_ndim(h);
    const uint64_t *shape = npydt_header_shape(h);
    uint64_t item = npydt_dtype_itemsize(npydt_header_dtype(h));
    uint64_t off = 0, stride = item;
    /* every partial sum is below data_bytes, which fits */
    if (npydt_header_fortran_order(h)) {
        for (size_t k = 0; k < nd; k++) {
            off += index[k] * stride;
            stride *= shape[k];
        }
    } else {
        for (size_t k = nd; k-- > 0;) {
            off += index[k] * stride;
            stride *= shape[k];
        }
    }
    return off;
}

npydt_status npydt_element_offset(const npydt_header *h, const uint64_t *index, size_t nindex,
                                  uint64_t *offset, npydt_error *err)
{
    error_clear(err);
    if (!h || !offset || (nindex && !index))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    size_t nd = npydt_header_ndim(h);
    if (nindex != nd)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "the array has %zu dimensions but %zu indices were given", nd, nindex);
    const uint64_t *shape = npydt_header_shape(h);
    for (size_t k = 0; k < nd; k++)
        if (index[k] >= shape[k])
            return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                             "index %llu is out of bounds for axis %zu of size %llu",
                             (unsigned long long)index[k], k, (unsigned long long)shape[k]);
    *offset = offset_of(h, index);
    return NPYDT_OK;
}

npydt_status npydt_element_offset_flat(const npydt_header *h, uint64_t i, uint64_t *offset,
                                       npydt_error *err)
{
    error_clear(err);
    if (!h || !offset)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    uint64_t count = npydt_header_count(h);
    if (i >= count)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "element %llu is out of bounds for %llu elements",
                         (unsigned long long)i, (unsigned long long)count);
    uint64_t item = npydt_dtype_itemsize(npydt_header_dtype(h));
    size_t nd = npydt_header_ndim(h);
    if (!npydt_header_fortran_order(h) || nd <= 1) {
        *offset = i * item;
        return NPYDT_OK;
    }
    const uint64_t *shape = npydt_header_shape(h);
    uint64_t off = 0, stride = item;
    /* the C-order digits of i, weighted by Fortran strides */
    uint64_t rest = i;
    uint64_t fstride[64];
    if (nd <= 64) {
        for (size_t k = 0; k < nd; k++) {
            fstride[k] = stride;
            stride *= shape[k];
        }
        for (size_t k = nd; k-- > 0;) {
            off += (rest % shape[k]) * fstride[k];
            rest /= shape[k];
        }
    } else {
        /* more dimensions than the stack table: strides on the fly */
        for (size_t k = nd; k-- > 0;) {
            uint64_t s = item;
            for (size_t j = 0; j < k; j++)
                s *= shape[j];
            off += (rest % shape[k]) * s;
            rest /= shape[k];
        }
    }
    *offset = off;
    return NPYDT_OK;
}

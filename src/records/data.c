/* Opening a file's data: a mapping (read-only or shared read-write), a
 * copy read into memory where mapping is impossible, or the caller's
 * buffer; and element addressing in C or Fortran order. */
#include "records/records.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

struct npydt_file {
    const npydt_allocator *alloc;
    npydt_header *header;
    struct io_region region;   /* the data of an opened file, mapped or read */
    const unsigned char *data;
    bool writable;
    unsigned char empty[1];    /* the data of a file without data bytes */
};

static npydt_status new_handle(const npydt_options *opts, npydt_header *h, npydt_file **out,
                               npydt_error *err)
{
    const npydt_allocator *a = opts ? opts->allocator : NULL;
    if (npydt_dtype_has_object(npydt_header_dtype(h))) {
        npydt_header_free(h);
        return set_error(err, NPYDT_E_OBJECT, NPYDT_NO_OFFSET, NULL,
                         "the data of an object dtype is a pickle; only the header is readable");
    }
    npydt_file *f = alloc_bytes(a, sizeof *f);
    if (!f) {
        npydt_header_free(h);
        return set_nomem(err);
    }
    memset(f, 0, sizeof *f);
    f->alloc = a;
    f->header = h;
    f->data = f->empty;
    *out = f;
    return NPYDT_OK;
}

npydt_status npydt_file_open_fd(int fd, unsigned flags, const npydt_options *opts,
                                npydt_file **out, npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if ((flags & ~(NPYDT_OPEN_WRITE | NPYDT_OPEN_NO_MMAP)) ||
        ((flags & NPYDT_OPEN_WRITE) && (flags & NPYDT_OPEN_NO_MMAP)))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "invalid flags (NPYDT_OPEN_WRITE needs a mapping)");
    npydt_header *h;
    npydt_status st = npydt_parse_fd(fd, opts, &h, err);
    if (st != NPYDT_OK)
        return st;
    npydt_file *f;
    if ((st = new_handle(opts, h, &f, err)) != NPYDT_OK)
        return st;
    f->writable = (flags & NPYDT_OPEN_WRITE) != 0;
    unsigned how = (f->writable ? IO_WRITE : 0) | (flags & NPYDT_OPEN_NO_MMAP ? IO_NO_MAP : 0);
    st = io_map_or_read(fd, npydt_header_data_offset(h), npydt_header_data_bytes(h), how,
                        f->alloc, &f->region, err);
    if (st != NPYDT_OK) {
        npydt_file_close(f);
        return st;
    }
    f->data = f->region.bytes;
    *out = f;
    return NPYDT_OK;
}

npydt_status npydt_file_open(const char *path, unsigned flags, const npydt_options *opts,
                             npydt_file **out, npydt_error *err)
{
    error_clear(err);
    if (out)
        *out = NULL;
    int fd;
    npydt_status st = io_open(path, (flags & NPYDT_OPEN_WRITE) != 0, &fd, err);
    if (st != NPYDT_OK)
        return st;
    st = npydt_file_open_fd(fd, flags, opts, out, err);
    close(fd);   /* a mapping outlives its descriptor */
    return st;
}

npydt_status npydt_file_from_buffer(const void *buf, size_t len, const npydt_options *opts,
                                    npydt_file **out, npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    npydt_header *h;
    npydt_status st = npydt_parse_buffer(buf, len, opts, &h, err);
    if (st != NPYDT_OK)
        return st;
    npydt_file *f;
    if ((st = new_handle(opts, h, &f, err)) != NPYDT_OK)
        return st;
    if (npydt_header_data_bytes(h) > 0)
        f->data = (const unsigned char *)buf + npydt_header_data_offset(h);
    *out = f;
    return NPYDT_OK;
}

const npydt_header *npydt_file_header(const npydt_file *f)
{
    return f->header;
}

const void *npydt_file_data(const npydt_file *f)
{
    return f->data;
}

void *npydt_file_data_mut(npydt_file *f)
{
    if (!f->writable)
        return NULL;
    return f->region.map ? f->region.map + npydt_header_data_offset(f->header) : f->empty;
}

int npydt_file_is_mapped(const npydt_file *f)
{
    return f->region.map != NULL;
}

npydt_status npydt_file_sync(npydt_file *f, npydt_error *err)
{
    error_clear(err);
    if (f->region.map && f->writable && msync(f->region.map, f->region.map_len, MS_SYNC) != 0)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL, "msync failed: %s",
                         strerror(errno));
    return NPYDT_OK;
}

void npydt_file_close(npydt_file *f)
{
    if (!f)
        return;
    io_region_release(&f->region);
    npydt_header_free(f->header);
    free_bytes(f->alloc, f, sizeof *f);
}

/* ---- element addressing --------------------------------------------------- */

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

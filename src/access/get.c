/* The short path on an open array: one field of element i by its path,
 * and a whole column by its path into the caller's array, in C order
 * whatever the stored order. */
#include "access/access.h"
#include "records/records.h"

/* The scalar field at path of element i (its C-order position): its
 * dtype, and its bytes in place or read into the reader's value buffer
 * (with pread, or from the stream of a deflated member). */
static npydt_status field_of(npydt_reader *r, const char *path, uint64_t i,
                             const npydt_dtype **field, const unsigned char **p,
                             npydt_error *err)
{
    if (!r)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    uint64_t off, at;
    npydt_status st = field_lookup_scalar(npydt_header_dtype(r->header), path, &off, field, err);
    if (st != NPYDT_OK || (st = npydt_element_offset_flat(r->header, i, &at, err)) != NPYDT_OK)
        return st;
    at += off;   /* within the element, so within the data */
    if (r->bytes) {
        *p = r->bytes + at;
        return NPYDT_OK;
    }
    size_t size = npydt_dtype_itemsize(*field);
    if ((st = reader_room(r, &r->value, &r->value_size, size ? size : 1, err)) != NPYDT_OK)
        return st;
    *p = r->value;
    if (r->fd >= 0) {   /* pread: the sequential position stays */
        size_t got;
        st = io_pread(r->fd, r->value, size, r->file_offset + at, &got, err);
        return st != NPYDT_OK || got == size
                   ? st
                   : set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                               "the file shrank while it was read");
    }
    if ((st = reader_seek(r, at, err)) != NPYDT_OK)
        return st;
    return reader_read(r, r->value, size, err);
}

/* The typed read's status, with the path in err. */
static npydt_status named(npydt_status st, const char *path, npydt_error *err)
{
    if (st != NPYDT_OK && path)
        error_set_path(err, path, strlen(path));
    return st;
}

npydt_status npydt_reader_get_i64(npydt_reader *r, const char *path, uint64_t i, int64_t *v,
                                  npydt_error *err)
{
    error_clear(err);
    const npydt_dtype *f;
    const unsigned char *p;
    npydt_status st = field_of(r, path, i, &f, &p, err);
    return st != NPYDT_OK ? st : named(npydt_read_i64(f, p, v, err), path, err);
}

npydt_status npydt_reader_get_u64(npydt_reader *r, const char *path, uint64_t i, uint64_t *v,
                                  npydt_error *err)
{
    error_clear(err);
    const npydt_dtype *f;
    const unsigned char *p;
    npydt_status st = field_of(r, path, i, &f, &p, err);
    return st != NPYDT_OK ? st : named(npydt_read_u64(f, p, v, err), path, err);
}

npydt_status npydt_reader_get_double(npydt_reader *r, const char *path, uint64_t i, double *v,
                                     npydt_error *err)
{
    error_clear(err);
    const npydt_dtype *f;
    const unsigned char *p;
    npydt_status st = field_of(r, path, i, &f, &p, err);
    return st != NPYDT_OK ? st : named(npydt_read_double(f, p, v, err), path, err);
}

npydt_status npydt_reader_get_complex(npydt_reader *r, const char *path, uint64_t i,
                                      double v[2], npydt_error *err)
{
    error_clear(err);
    const npydt_dtype *f;
    const unsigned char *p;
    npydt_status st = field_of(r, path, i, &f, &p, err);
    return st != NPYDT_OK ? st : named(npydt_read_complex(f, p, v, err), path, err);
}

npydt_status npydt_reader_get_bool(npydt_reader *r, const char *path, uint64_t i, int *v,
                                   npydt_error *err)
{
    error_clear(err);
    const npydt_dtype *f;
    const unsigned char *p;
    npydt_status st = field_of(r, path, i, &f, &p, err);
    return st != NPYDT_OK ? st : named(npydt_read_bool(f, p, v, err), path, err);
}

npydt_status npydt_reader_get_bytes(npydt_reader *r, const char *path, uint64_t i, void *buf,
                                    size_t size, size_t *len, npydt_error *err)
{
    error_clear(err);
    const npydt_dtype *f;
    const unsigned char *p;
    const void *bytes;
    if (!len || (size && !buf))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    npydt_status st = field_of(r, path, i, &f, &p, err);
    if (st != NPYDT_OK || (st = named(npydt_read_bytes(f, p, &bytes, len, err), path, err)))
        return st;
    if (*len > size)
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, path,
                         "the value takes %zu bytes, the buffer holds %zu", *len, size);
    if (*len)
        memcpy(buf, bytes, *len);
    return NPYDT_OK;
}

npydt_status npydt_reader_get_unicode(npydt_reader *r, const char *path, uint64_t i, char *buf,
                                      size_t size, size_t *len, npydt_error *err)
{
    error_clear(err);
    const npydt_dtype *f;
    const unsigned char *p;
    npydt_status st = field_of(r, path, i, &f, &p, err);
    return st != NPYDT_OK ? st : named(npydt_read_unicode(f, p, buf, size, len, err), path, err);
}

npydt_status npydt_reader_get_datetime(npydt_reader *r, const char *path, uint64_t i,
                                       npydt_datetime *v, npydt_error *err)
{
    error_clear(err);
    const npydt_dtype *f;
    const unsigned char *p;
    npydt_status st = field_of(r, path, i, &f, &p, err);
    return st != NPYDT_OK ? st : named(npydt_read_datetime(f, p, v, err), path, err);
}

npydt_status npydt_reader_gather(npydt_reader *r, const char *path, npydt_convert as, void *out,
                                 size_t cap, npydt_error *err)
{
    error_clear(err);
    if (!r || !path || (cap && !out))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    const npydt_dtype *dt = npydt_header_dtype(r->header), *field;
    uint64_t off;
    npydt_status st = npydt_field_lookup(dt, path, &off, &field, err);
    if (st != NPYDT_OK)
        return st;
    size_t size = npydt_gather_size(field, as);
    if (size == 0 && npydt_dtype_itemsize(field) > 0)   /* npydt_gather says why */
        return named(npydt_gather(r->bytes ? r->bytes : (const unsigned char *)"", r->itemsize, 0,
                                  field, off, as, out, err), path, err);
    uint64_t need;
    if (__builtin_mul_overflow(r->count, (uint64_t)size, &need) || need > cap)
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, path,
                         "the column takes %llu elements of %zu bytes, the buffer holds %zu bytes",
                         (unsigned long long)r->count, size, cap);
    if (r->count == 0)
        return NPYDT_OK;
    if (r->bytes && r->c_order)
        return named(npydt_gather(r->bytes, r->itemsize, r->count, field, off, as, out, err), path,
                     err);
    /* C-order batches from the start, leaving npydt_reader_next_c where it was */
    uint64_t next = r->next, done = 0;
    r->next = 0;
    while (st == NPYDT_OK && done < r->count) {
        const void *batch;
        uint64_t n;
        st = npydt_reader_next_c(r, r->count - done, &batch, &n, err);
        if (st == NPYDT_OK && n == 0)
            st = set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, NULL, "the data ended early");
        if (st == NPYDT_OK)
            st = npydt_gather(batch, r->itemsize, n, field, off, as,
                              (unsigned char *)out + done * size, err);
        done += n;
    }
    r->next = next;
    return named(st, path, err);
}

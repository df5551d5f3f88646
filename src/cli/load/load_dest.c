/* Where the records of npydt load and npydt append go as they are read:
 * straight into the destination through npydt_writer (each byte written
 * once), which is closed when the whole input was good and discarded at
 * the first error, so that the destination gets everything or nothing.
 * Records of a Fortran-order array of more than one dimension are kept in
 * memory instead, as their place in the file depends on how many there
 * are, and written in that order at the end. */
#include "cli/load/load.h"
#include "cli/common/report.h"

#include <string.h>

void load_dest_init(struct load_dest *d, npydt_writer *w, size_t itemsize, uint64_t take,
                    int hold)
{
    memset(d, 0, sizeof *d);
    d->w = w;
    d->itemsize = itemsize;
    d->take = take;
    d->hold = hold && w;
    d->held = text_buf_growing(text_libc_realloc, NULL, (size_t)1 << 16);
}

/* The destination fails: the error is kept (and reported by the command
 * under the destination's name), and the input stops. */
static npydt_status dest_fail(struct load_dest *d, npydt_status st, npydt_error *err)
{
    d->failed = st;
    d->err = *err;
    return st;
}

npydt_status load_dest_record(void *ctx, const unsigned char *bytes, npydt_error *err)
{
    struct load_dest *d = ctx;
    uint64_t n = d->count++;
    if (!d->w || n >= d->take)
        return NPYDT_OK;   /* only counted: the command refuses the count later */
    if (!d->hold) {
        npydt_status st = npydt_writer_write(d->w, bytes, 1, err);
        return st == NPYDT_OK ? st : dest_fail(d, st, err);
    }
    if (d->held.len > SIZE_MAX - d->itemsize)
        return dest_fail(d, cli_error(err, NPYDT_E_OVERFLOW, "too many records to reorder in memory"),
                         err);
    text_buf_write(&d->held, bytes, d->itemsize);
    if (d->held.failed)
        return dest_fail(d, cli_error(err, NPYDT_E_NOMEM, "out of memory"), err);
    return NPYDT_OK;
}

npydt_status load_dest_records(void *ctx, const unsigned char *bytes, uint64_t n,
                               npydt_error *err)
{
    struct load_dest *d = ctx;
    if (d->w && !d->hold && n && d->count < d->take && n <= d->take - d->count) {
        /* the usual case: all of them to the writer at once */
        d->count += n;
        npydt_status st = npydt_writer_write(d->w, bytes, n, err);
        return st == NPYDT_OK ? st : dest_fail(d, st, err);
    }
    for (uint64_t k = 0; k < n; k++) {
        npydt_status st = load_dest_record(d, bytes + k * d->itemsize, err);
        if (st != NPYDT_OK)
            return st;
    }
    return NPYDT_OK;
}

/* The held records (in C order of an array of shape dims, ndim of them,
 * the last the growth axis) to the writer in Fortran order: the first
 * index varies fastest. */
static npydt_status write_fortran(struct load_dest *d, const uint64_t *dims, size_t ndim,
                                  npydt_error *err)
{
    static const unsigned char none[1];
    uint64_t idx[65] = {0};
    npydt_status st = NPYDT_OK;
    for (uint64_t i = 0; i < d->count && st == NPYDT_OK; i++) {
        uint64_t c = 0;   /* the record's place in C order */
        for (size_t k = 0; k < ndim; k++)
            c = c * dims[k] + idx[k];
        const unsigned char *rec =
            d->itemsize ? (const unsigned char *)d->held.buf + c * d->itemsize : none;
        st = npydt_writer_write(d->w, rec, 1, err);
        for (size_t k = 0; k < ndim; k++) {   /* the next index in Fortran order */
            if (++idx[k] < dims[k])
                break;
            idx[k] = 0;
        }
    }
    return st;
}

npydt_status load_dest_close(struct load_dest *d, const uint64_t *dims, size_t ndim,
                             npydt_error *err)
{
    /* a flush that fails (a write, a sync, the rename) leaves the
     * destination as it was once the writer is discarded */
    npydt_status st = d->hold ? write_fortran(d, dims, ndim, err) : NPYDT_OK;
    if (st == NPYDT_OK)
        st = npydt_writer_flush(d->w, err);
    if (st != NPYDT_OK) {
        load_dest_discard(d);
        return st;
    }
    st = npydt_writer_close(d->w, err);
    d->w = NULL;
    text_buf_free(&d->held);
    return st;
}

void load_dest_discard(struct load_dest *d)
{
    /* the destination as it was: a cut that fails leaves records the
     * header does not count, which NumPy ignores and an append cuts off */
    npydt_writer_discard(d->w, NULL);
    d->w = NULL;
    text_buf_free(&d->held);
}

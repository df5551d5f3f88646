/* A writer for one member of an archive being written: np.save's header
 * for the final shape, then exactly that many records, streamed through
 * the archive writer (stored or deflated). */
#include "write/write.h"

#include "npz/npz.h"

#include <string.h>

npydt_status npydt_writer_create_member(npydt_npz_writer *z, const char *name,
                                        npydt_npz_method method, const npydt_dtype *dt,
                                        const uint64_t *shape, size_t ndim,
                                        const npydt_writer_options *opts, npydt_writer **out,
                                        npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!z)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "archive writer is NULL");
    npydt_writer *w;
    int fortran = opts ? opts->fortran_order : 0;
    npydt_status st = writer_new(dt, shape, ndim, fortran, false, opts, WRITER_MEMBER, &w, err);
    if (st != NPYDT_OK)
        return st;
    w->zip = z;
    /* NAME.npy, as np.savez stores a keyword's array: ".npy" added unless
     * the name ends in it */
    size_t len = name ? strlen(name) : 0;
    bool suffixed = len >= 4 && memcmp(name + len - 4, ".npy", 4) == 0;
    char *stored = NULL;
    if (len > 0 && !suffixed) {
        if (len > SIZE_MAX - 5 || !(stored = alloc_bytes(w->alloc, len + 5))) {
            writer_free(w);
            return set_nomem(err);
        }
        memcpy(stored, name, len);
        memcpy(stored + len, ".npy", 5);
    }
    st = npydt_npz_writer_begin(z, stored ? stored : name, method, err);
    free_bytes(w->alloc, stored, len + 5);
    if (st != NPYDT_OK ||
        (st = npydt_npz_writer_write(z, w->text, (size_t)w->data_offset, err)) != NPYDT_OK) {
        writer_free(w);
        return st;
    }
    *out = w;
    return NPYDT_OK;
}

npydt_status member_write(npydt_writer *w, const void *buf, size_t n, npydt_error *err)
{
    return npydt_npz_writer_write(w->zip, buf, n, err);
}

npydt_status member_close(npydt_writer *w, npydt_error *err)
{
    npydt_status st = writer_drain(w, err);
    if (st != NPYDT_OK)
        return st;
    /* a member shorter than its header says fails the archive: what the
     * sink holds is then no archive NumPy would read as complete */
    if (w->count != w->limit) {
        npydt_error e;
        set_error(&e, NPYDT_E_SHAPE, NPYDT_NO_OFFSET, NULL,
                  "the member's shape holds %llu records but %llu were written",
                  (unsigned long long)w->limit, (unsigned long long)w->count);
        npz_writer_fail(w->zip, &e);
        if (err)
            *err = e;
        return NPYDT_E_SHAPE;
    }
    return npydt_npz_writer_end(w->zip, err);
}

void member_discard(npydt_writer *w)
{
    /* what the archive's sink holds of the member cannot be taken back:
     * the archive fails, as for a member cut short */
    npydt_error e;
    set_error(&e, NPYDT_E_SHAPE, NPYDT_NO_OFFSET, NULL,
              "the member was discarded after %llu of its %llu records",
              (unsigned long long)w->count, (unsigned long long)w->limit);
    npz_writer_fail(w->zip, &e);
}

/* Creating a writer for a new .npy file (by path or descriptor), what it
 * tells about itself, and closing it. */
#include "write/write.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

void npydt_writer_options_init(npydt_writer_options *opts)
{
    memset(opts, 0, sizeof *opts);
    npydt_options_init(&opts->base);
    opts->no_room = NPYDT_NO_ROOM_REWRITE;
    opts->buffer_bytes = (size_t)1 << 20;
}

static npydt_status check_options(const npydt_writer_options *opts, npydt_error *err)
{
    if (!reserved_is_zero(opts->reserved, sizeof opts->reserved / sizeof opts->reserved[0]))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "options have nonzero reserved room: fill them with "
                         "npydt_writer_options_init");
    if (opts->no_room != NPYDT_NO_ROOM_REWRITE && opts->no_room != NPYDT_NO_ROOM_FAIL)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "no_room %d is not a policy",
                         (int)opts->no_room);
    return options_check(&opts->base, err);
}

npydt_status writer_new(const npydt_dtype *dt, const uint64_t *shape, size_t ndim,
                        int fortran_order, bool start_empty, const npydt_writer_options *opts,
                        enum writer_kind kind, npydt_writer **out, npydt_error *err)
{
    /* a copy whose limits and sizes that are 0 take their defaults */
    npydt_writer_options resolved;
    npydt_writer_options_init(&resolved);
    if (opts) {
        size_t buffer_bytes = resolved.buffer_bytes;
        resolved = *opts;
        options_resolve_limits(&resolved.base.limits);
        if (resolved.buffer_bytes == 0)
            resolved.buffer_bytes = buffer_bytes;
    }
    opts = &resolved;
    npydt_status st = check_options(opts, err);
    if (st != NPYDT_OK)
        return st;
    if (!dt || (ndim && !shape))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         !dt ? "dtype is NULL" : "shape is NULL");
    if (npydt_dtype_has_object(dt))
        return set_error(err, NPYDT_E_OBJECT, NPYDT_NO_OFFSET, NULL,
                         "object dtypes cannot be written: their data is a pickle");
    if (ndim > opts->base.limits.max_ndim)
        return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "%zu dimensions is above the limit of %u", ndim,
                         opts->base.limits.max_ndim);
    const npydt_allocator *a = opts->base.allocator;
    npydt_writer *w = alloc_bytes(a, sizeof *w);
    if (!w)
        return set_nomem(err);
    memset(w, 0, sizeof *w);
    w->alloc = a;
    w->kind = kind;
    w->fd = -1;
    w->fortran_order = fortran_order != 0;
    w->ndim = ndim;
    w->growth = fortran_order && ndim ? ndim - 1 : 0;
    w->flush_every = opts->flush_every;
    w->no_sync = opts->no_sync;
    w->itemsize = npydt_dtype_itemsize(dt);
    if (ndim) {
        w->shape = alloc_bytes(a, ndim * sizeof *w->shape);
        if (!w->shape) {
            writer_free(w);
            return set_nomem(err);
        }
        memcpy(w->shape, shape, ndim * sizeof *w->shape);
        if (start_empty)
            w->shape[w->growth] = 0;
    }
    /* records per step of the growth axis, and all of the shape's records */
    uint64_t row = 1, all = 1, bytes;
    for (size_t k = 0; k < ndim; k++) {
        if ((k != w->growth && !ck_mul(row, w->shape[k], &row)) ||
            !ck_mul(all, w->shape[k], &all) || !ck_mul(all, w->itemsize, &bytes)) {
            writer_free(w);
            return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                             "the shape's size does not fit 64 bits");
        }
    }
    w->row = row;
    w->limit = all;
    /* the writer's own dtype: the parse of the header it writes */
    size_t len;
    if ((st = header_text(a, dt, w->shape, ndim, w->fortran_order, 0, &w->text, &len, err)) !=
            NPYDT_OK ||
        (st = npydt_header_parse(w->text, len, &opts->base, &w->header, err)) != NPYDT_OK) {
        writer_free(w);
        return st;
    }
    w->data_offset = len;
    w->major = w->text[6];
    w->dtype = npydt_header_dtype(w->header);
    /* a buffer of at least one record (buffer_bytes is never 0 here) */
    w->buf_cap = opts->buffer_bytes > w->itemsize ? opts->buffer_bytes : w->itemsize;
    w->buf = alloc_bytes(a, w->buf_cap);
    w->record = alloc_bytes(a, w->itemsize ? w->itemsize : 1);
    if (!w->buf || !w->record) {
        writer_free(w);
        return set_nomem(err);
    }
    memset(w->record, 0, w->itemsize ? w->itemsize : 1);
    *out = w;
    return NPYDT_OK;
}

void writer_free(npydt_writer *w)
{
    const npydt_allocator *a = w->alloc;
    if (w->shape)
        free_bytes(a, w->shape, w->ndim * sizeof *w->shape);
    if (w->text)
        free_bytes(a, w->text, (size_t)w->data_offset);
    if (w->buf)
        free_bytes(a, w->buf, w->buf_cap);
    if (w->record)
        free_bytes(a, w->record, w->itemsize ? w->itemsize : 1);
    for (size_t i = 0; i < w->nfields; i++)
        str_free(a, w->fields[i].path);
    if (w->fields)
        free_bytes(a, w->fields, w->fields_cap * sizeof *w->fields);
    npydt_header_free(w->header);
    str_free(a, w->path);
    str_free(a, w->tmp_path);
    free_bytes(a, w, sizeof *w);
}

npydt_status writer_poison(npydt_writer *w, npydt_status st, const npydt_error *err)
{
    if (w->poisoned == NPYDT_OK) {
        w->poisoned = st;
        if (err)
            w->failure = *err;
        else
            set_error(&w->failure, st, NPYDT_NO_OFFSET, NULL, "%s", npydt_status_name(st));
    }
    return st;
}

npydt_status writer_usable(const npydt_writer *w, npydt_error *err)
{
    if (!w)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "writer is NULL");
    if (w->poisoned != NPYDT_OK) {
        if (err)
            *err = w->failure;
        return w->poisoned;
    }
    return NPYDT_OK;
}

/* ---- creating ---------------------------------------------------------------- */

npydt_status npydt_writer_create_path(const char *path, const npydt_dtype *dt,
                                      const uint64_t *shape, size_t ndim,
                                      const npydt_writer_options *opts, npydt_writer **out,
                                      npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!path)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "path is NULL");
    npydt_writer *w;
    int fortran = opts ? opts->fortran_order : 0;
    npydt_status st = writer_new(dt, shape, ndim, fortran, true, opts,
                                 ndim ? WRITER_FILE : WRITER_SCALAR, &w, err);
    if (st != NPYDT_OK)
        return st;
    int replace = opts ? opts->replace : 0;
    w->own_fd = 1;
    w->publish = replace ? PUBLISH_RENAME : PUBLISH_LINK;
    if (!(w->path = str_copy(w->alloc, path))) {
        writer_free(w);
        return set_nomem(err);
    }
    struct stat sb;
    if (!replace && lstat(path, &sb) == 0) {
        writer_free(w);
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "%s: the file exists (not replaced)", path);
    }
    if (w->kind == WRITER_SCALAR) {
        /* a 0-d array is written whole at close */
        *out = w;
        return NPYDT_OK;
    }
    /* the header of an empty array goes to a temporary file first, so the
     * path never names a file NumPy cannot load: synced and linked to it
     * now (which refuses an existing file, as O_EXCL would), or renamed
     * over it at the first flush, which syncs it then (the old file stays
     * whole until then) */
    if ((st = io_create_temp(w->alloc, path, &w->fd, &w->tmp_path, err)) == NPYDT_OK &&
        (st = io_pwrite_all(w, w->text, (size_t)w->data_offset, 0, err)) == NPYDT_OK &&
        !replace && (st = io_sync(w, err)) == NPYDT_OK)
        st = io_publish(w, err);
    if (st != NPYDT_OK) {
        if (w->tmp_path)
            unlink(w->tmp_path);
        if (w->fd >= 0)
            close(w->fd);
        writer_free(w);
        return st;
    }
    *out = w;
    return NPYDT_OK;
}

npydt_status npydt_writer_create_fd(int fd, const npydt_dtype *dt, const uint64_t *shape,
                                    size_t ndim, const npydt_writer_options *opts,
                                    npydt_writer **out, npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "file descriptor %d: cannot stat: %s", fd, TEXT_ERRNO(errno));
    if (!S_ISREG(sb.st_mode) || sb.st_size != 0)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "file descriptor %d: not an empty regular file", fd);
    npydt_writer *w;
    int fortran = opts ? opts->fortran_order : 0;
    npydt_status st = writer_new(dt, shape, ndim, fortran, true, opts,
                                 ndim ? WRITER_FILE : WRITER_SCALAR, &w, err);
    if (st != NPYDT_OK)
        return st;
    w->fd = fd;
    if (w->kind == WRITER_FILE &&
        (st = io_pwrite_all(w, w->text, (size_t)w->data_offset, 0, err)) != NPYDT_OK) {
        writer_free(w);
        return st;
    }
    *out = w;
    return NPYDT_OK;
}

const npydt_dtype *npydt_writer_dtype(const npydt_writer *w) { return w ? w->dtype : NULL; }

uint64_t npydt_writer_count(const npydt_writer *w) { return w ? w->count : 0; }

const char *npydt_writer_temp_path(const npydt_writer *w)
{
    return w && w->tmp_path && w->publish != PUBLISH_NONE ? w->tmp_path : NULL;
}

/* ---- closing ----------------------------------------------------------------- */

/* A 0-d array: header and its one record, made durable, then named. */
static npydt_status close_scalar(npydt_writer *w, npydt_error *err)
{
    if (w->count != 1)
        return set_error(err, NPYDT_E_SHAPE, NPYDT_NO_OFFSET, NULL,
                         "a 0-d array holds exactly one record; none was written");
    npydt_status st = NPYDT_OK;
    if (w->own_fd)
        st = io_create_temp(w->alloc, w->path, &w->fd, &w->tmp_path, err);
    if (st == NPYDT_OK)
        st = io_pwrite_all(w, w->text, (size_t)w->data_offset, 0, err);
    if (st == NPYDT_OK)
        st = io_pwrite_all(w, w->buf, w->buf_len, w->data_offset, err);
    if (st == NPYDT_OK)
        st = io_sync(w, err);
    if (st == NPYDT_OK)
        st = io_publish(w, err);
    return st;
}

/* A .npy file: every record written, the whole rows counted; the records
 * of an incomplete last row are cut off. */
static npydt_status close_file(npydt_writer *w, npydt_error *err)
{
    npydt_status st = writer_drain(w, err);
    if (st != NPYDT_OK)
        return st;
    uint64_t whole = w->row ? w->count / w->row * w->row : 0;
    if (whole != w->count) {
        uint64_t end = w->data_offset + whole * w->itemsize;
        if (ftruncate(w->fd, (off_t)end) != 0)
            return writer_poison(w, writer_io_error(w, "truncate", errno, err), err);
        w->file_bytes = whole * w->itemsize;
    }
    if ((st = writer_set_count(w, whole, err)) != NPYDT_OK ||
        (st = io_publish(w, err)) != NPYDT_OK)
        return st;
    if (whole != w->count)
        return set_error(err, NPYDT_E_SHAPE, NPYDT_NO_OFFSET, NULL,
                         "%llu records do not fill whole rows of %llu: the last %llu were "
                         "dropped",
                         (unsigned long long)w->count, (unsigned long long)w->row,
                         (unsigned long long)(w->count - whole));
    return NPYDT_OK;
}

npydt_status npydt_writer_discard(npydt_writer *w, npydt_error *err)
{
    error_clear(err);
    if (!w)
        return NPYDT_OK;
    npydt_status st = NPYDT_OK;
    bool temporary = w->tmp_path && w->publish != PUBLISH_NONE;
    if (w->kind == WRITER_MEMBER) {
        member_discard(w);
    } else if (w->kind == WRITER_FILE && !temporary && w->fd >= 0) {
        /* a file at its place (or the caller's descriptor): the records
         * past the header's count go, and it holds what it held at the
         * last flush, byte for byte */
        uint64_t end = w->data_offset + w->flushed * w->itemsize;
        if (ftruncate(w->fd, (off_t)end) != 0)
            st = writer_io_error(w, "truncate", errno, err);
    }
    /* a temporary file never published (a new file, or the copy of one
     * appended to) is removed: the path keeps what it held */
    if (temporary)
        unlink(w->tmp_path);
    if (w->own_fd && w->fd >= 0)
        close(w->fd);
    writer_free(w);
    return st;
}

npydt_status npydt_writer_close(npydt_writer *w, npydt_error *err)
{
    error_clear(err);
    if (!w)
        return NPYDT_OK;
    npydt_status st = writer_usable(w, err);
    if (st == NPYDT_OK) {
        switch (w->kind) {
        case WRITER_FILE: st = close_file(w, err); break;
        case WRITER_SCALAR: st = close_scalar(w, err); break;
        case WRITER_MEMBER: st = member_close(w, err); break;
        }
    }
    /* a temporary file never published is removed: the path keeps what it
     * held before */
    if (w->tmp_path && w->publish != PUBLISH_NONE)
        unlink(w->tmp_path);
    if (w->own_fd && w->fd >= 0)
        close(w->fd);
    writer_free(w);
    return st;
}

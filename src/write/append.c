/* Appending to an existing .npy file: its header is read back, the bytes
 * past the records it counts are cut off, and the header must be one the
 * writer can rewrite in place (np.save's own text for its version, with
 * room for the growth axis). A header without that room is replaced once
 * by a copy of the file with np.save's header (in place at the first
 * flush), or refused. */
#include "write/write.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Is the file's header the text np.save writes for its version? Then the
 * writer can change its count in place. */
static npydt_status header_has_room(npydt_writer *w, const unsigned char *file_text,
                                    size_t file_len, bool *room, npydt_error *err)
{
    unsigned char *text;
    size_t len;
    npydt_status st = header_text(w->alloc, w->dtype, w->shape, w->ndim, w->fortran_order,
                                  file_text[6], &text, &len, err);
    if (st == NPYDT_E_LIMIT) {
        *room = false;
        return NPYDT_OK;
    }
    if (st != NPYDT_OK)
        return st;
    *room = len == file_len && memcmp(text, file_text, len) == 0;
    free_bytes(w->alloc, text, len);
    return NPYDT_OK;
}

/* Read n bytes at off of the file appended to (fd): an error names the
 * file, and so does a file that ends before them (it shrank since its
 * header was parsed). */
static npydt_status read_old(const npydt_writer *w, int fd, void *buf, size_t n, uint64_t off,
                             npydt_error *err)
{
    size_t got;
    npydt_status st = io_pread(fd, buf, n, off, &got, err);
    if (st != NPYDT_OK) {
        if (err) {
            char what[sizeof err->message];
            memcpy(what, err->message, sizeof what);
            set_error(err, st, NPYDT_NO_OFFSET, NULL, "%s: %s", w->path, what);
        }
        return st;
    }
    if (got < n)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "%s: the file shrank while it was read", w->path);
    return NPYDT_OK;
}

/* Copy the counted data of the file at fd into a temporary file beside it
 * behind np.save's header (already in w->text): the writer then appends
 * to the copy, made durable and renamed over the path at the first flush
 * (until then the path keeps the file as it was, and a discarded writer
 * leaves it so). */
static npydt_status rewrite_with_room(npydt_writer *w, int old_fd, uint64_t old_offset,
                                      mode_t mode, npydt_error *err)
{
    npydt_status st = io_create_temp(w->alloc, w->path, &w->fd, &w->tmp_path, err);
    if (st != NPYDT_OK)
        return st;
    w->publish = PUBLISH_RENAME;
    if (fchmod(w->fd, mode & 07777) != 0)
        return writer_io_error(w, "chmod", errno, err);
    if ((st = io_pwrite_all(w, w->text, (size_t)w->data_offset, 0, err)) != NPYDT_OK)
        return st;
    uint64_t total = w->file_bytes;
    for (uint64_t done = 0; done < total;) {
        size_t n = total - done < w->buf_cap ? (size_t)(total - done) : w->buf_cap;
        if ((st = read_old(w, old_fd, w->buf, n, old_offset + done, err)) != NPYDT_OK)
            return st;
        if ((st = io_pwrite_all(w, w->buf, n, w->data_offset + done, err)) != NPYDT_OK)
            return st;
        done += n;
    }
    w->unsynced = true;
    return NPYDT_OK;
}

/* Everything after the file is open and its header parsed (h, freed here). */
static npydt_status open_for_append(npydt_writer *w0, int fd, npydt_header *h,
                                    const npydt_writer_options *opts, npydt_writer **out,
                                    npydt_error *err)
{
    const npydt_dtype *dt = npydt_header_dtype(h);
    if (npydt_dtype_has_object(dt)) {
        npydt_header_free(h);
        return set_error(err, NPYDT_E_OBJECT, NPYDT_NO_OFFSET, NULL,
                         "%s: object dtypes cannot be appended to: their data is a pickle",
                         w0->path);
    }
    if (npydt_header_ndim(h) == 0) {
        npydt_header_free(h);
        return set_error(err, NPYDT_E_SHAPE, NPYDT_NO_OFFSET, NULL,
                         "%s: a 0-d array cannot grow", w0->path);
    }
    npydt_writer *w;
    npydt_status st = writer_new(dt, npydt_header_shape(h), npydt_header_ndim(h),
                                 npydt_header_fortran_order(h), false, opts, WRITER_FILE, &w, err);
    uint64_t old_offset = npydt_header_data_offset(h);
    uint64_t records = npydt_header_count(h);
    npydt_header_free(h);
    if (st != NPYDT_OK)
        return st;
    /* the path and descriptor move to the new writer */
    w->path = w0->path;
    w0->path = NULL;
    w->own_fd = 1;
    w->count = w->flushed = w->flush_mark = records;
    w->file_bytes = records * w->itemsize;
    /* what the file holds is on the disk already: hand from its end on */
    w->handed = (old_offset + w->file_bytes) / IO_WRITEBACK_STEP * IO_WRITEBACK_STEP;
    *out = w;
    /* the header as the file holds it */
    unsigned char *file_text = alloc_bytes(w->alloc, (size_t)old_offset);
    if (!file_text)
        return set_nomem(err);
    st = read_old(w, fd, file_text, (size_t)old_offset, 0, err);
    bool room = false;
    if (st == NPYDT_OK)
        st = header_has_room(w, file_text, (size_t)old_offset, &room, err);
    if (st == NPYDT_OK && room) {
        /* append in place, in the file's own version */
        free_bytes(w->alloc, w->text, (size_t)w->data_offset);
        w->text = file_text;
        w->data_offset = old_offset;
        w->major = file_text[6];
        w->fd = fd;
        uint64_t end = w->data_offset + w->file_bytes;
        struct stat sb;
        if (fstat(fd, &sb) != 0)
            return writer_io_error(w, "stat", errno, err);
        /* records past the count were never acknowledged by a flush */
        if ((uint64_t)sb.st_size > end && ftruncate(fd, (off_t)end) != 0)
            return writer_io_error(w, "truncate", errno, err);
        return NPYDT_OK;
    }
    free_bytes(w->alloc, file_text, (size_t)old_offset);
    if (st != NPYDT_OK)
        return st;
    if (opts->no_room == NPYDT_NO_ROOM_FAIL)
        return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "%s: its header has no room to grow in place (not written as "
                         "np.save does since NumPy 1.23)",
                         w->path);
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        return writer_io_error(w, "stat", errno, err);
    return rewrite_with_room(w, fd, old_offset, sb.st_mode, err);
}

npydt_status npydt_writer_append_path(const char *path, const npydt_writer_options *opts,
                                      npydt_writer **out, npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!path)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "path is NULL");
    npydt_writer_options defaults;
    if (!opts) {
        npydt_writer_options_init(&defaults);
        opts = &defaults;
    }
    /* a stand-in that names the file in messages until the writer exists */
    npydt_writer w0;
    memset(&w0, 0, sizeof w0);
    w0.alloc = opts->base.allocator;
    w0.fd = -1;
    if (!(w0.path = str_copy(w0.alloc, path)))
        return set_nomem(err);
    npydt_status st;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        st = writer_io_error(&w0, "open", errno, err);
        str_free(w0.alloc, w0.path);
        return st;
    }
    npydt_header *h;
    if ((st = npydt_parse_fd(fd, &opts->base, &h, err)) != NPYDT_OK) {
        close(fd);
        str_free(w0.alloc, w0.path);
        return st;
    }
    npydt_writer *w = NULL;
    st = open_for_append(&w0, fd, h, opts, &w, err);
    str_free(w0.alloc, w0.path);
    if (st != NPYDT_OK) {
        if (w) {
            /* a copy never renamed over the file is removed */
            if (w->tmp_path && w->publish != PUBLISH_NONE)
                unlink(w->tmp_path);
            if (w->fd >= 0 && w->fd != fd)
                close(w->fd);
            writer_free(w);
        }
        close(fd);
        return st;
    }
    /* after a rewrite the writer appends to the copy */
    if (w->fd != fd)
        close(fd);
    *out = w;
    return NPYDT_OK;
}

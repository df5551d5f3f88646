/* npydt_output: a whole file written to a temporary file beside its
 * destination and put in place at commit, through the file operations of
 * file_ops.c (the writer's own). Appended bytes go to the disk as they
 * come: every IO_WRITEBACK_STEP bytes appended are handed to it
 * (io_writeback_steps), so that the disk writes while the caller makes
 * the rest and the fsync of the commit waits only for the last ones. */
#include "write/write.h"

#include <unistd.h>

struct npydt_output {
    const npydt_allocator *alloc;
    char *path;                 /* the destination */
    char *tmp;                  /* the temporary file, NULL once gone */
    int fd;
    uint64_t end;               /* bytes appended (npydt_output_write) */
    uint64_t handed;            /* of them, handed to the disk: a multiple of
                                 * IO_WRITEBACK_STEP (whole pages) */
    npydt_status failed;        /* the first I/O error, kept */
    npydt_error failure;
};

static void output_free(npydt_output *o)
{
    if (o->fd >= 0)
        close(o->fd);
    if (o->tmp)
        unlink(o->tmp);
    str_free(o->alloc, o->tmp);
    str_free(o->alloc, o->path);
    free_bytes(o->alloc, o, sizeof *o);
}

npydt_status npydt_output_open(const char *path, const npydt_options *opts, npydt_output **out,
                               npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!path)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "path is NULL");
    npydt_options resolved;
    opts = options_or_default(opts, &resolved);
    npydt_status st = options_check(opts, err);
    if (st != NPYDT_OK)
        return st;
    const npydt_allocator *a = opts->allocator;
    npydt_output *o = alloc_bytes(a, sizeof *o);
    if (!o)
        return set_nomem(err);
    memset(o, 0, sizeof *o);
    o->alloc = a;
    o->fd = -1;
    if (!(o->path = str_copy(a, path))) {
        output_free(o);
        return set_nomem(err);
    }
    if ((st = io_create_temp(a, path, &o->fd, &o->tmp, err)) != NPYDT_OK) {
        output_free(o);
        return st;
    }
    *out = o;
    return NPYDT_OK;
}

const char *npydt_output_temp_path(const npydt_output *o)
{
    return o ? o->tmp : NULL;
}

npydt_status npydt_output_status(const npydt_output *o, npydt_error *err)
{
    error_clear(err);
    if (!o)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "output is NULL");
    if (o->failed != NPYDT_OK && err)
        *err = o->failure;
    return o->failed;
}

/* Write at off (IO_AT_END: appended); a failure is kept. */
static npydt_status put(npydt_output *o, const void *buf, size_t len, uint64_t off,
                        npydt_error *err)
{
    npydt_status st = npydt_output_status(o, err);
    if (st != NPYDT_OK)
        return st;
    if (len > 0 && !buf)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "buf is NULL");
    st = io_write_all(o->fd, o->tmp, buf, len, off, &o->failure);
    if (st != NPYDT_OK) {
        o->failed = st;
        if (err)
            *err = o->failure;
    }
    return st;
}

npydt_status npydt_output_write(npydt_output *o, const void *buf, size_t len, npydt_error *err)
{
    npydt_status st = put(o, buf, len, IO_AT_END, err);
    if (st != NPYDT_OK)
        return st;
    /* the appends are the file's first bytes, in order: [0, end) */
    o->end += len;
    io_writeback_steps(o->fd, &o->handed, o->end);
    return NPYDT_OK;
}

npydt_status npydt_output_pwrite(npydt_output *o, const void *buf, size_t len, uint64_t offset,
                                 npydt_error *err)
{
    /* IO_AT_END is past the largest file offset: refused as such */
    if (offset == IO_AT_END && len > 0) {
        error_clear(err);
        return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "the file would pass the largest file offset");
    }
    return put(o, buf, len, offset, err);
}

static int sink_write(void *ctx, const void *buf, size_t len)
{
    return npydt_output_write(ctx, buf, len, NULL) == NPYDT_OK ? 0 : -1;
}

static int sink_pwrite(void *ctx, const void *buf, size_t len, uint64_t offset)
{
    return npydt_output_pwrite(ctx, buf, len, offset, NULL) == NPYDT_OK ? 0 : -1;
}

void npydt_output_sink(npydt_output *o, npydt_npz_sink *sink)
{
    if (sink) {
        sink->write = sink_write;
        sink->pwrite = sink_pwrite;
        sink->ctx = o;
    }
}

npydt_status npydt_output_commit(npydt_output *o, npydt_error *err)
{
    npydt_status st = npydt_output_status(o, err);
    if (!o)
        return st;
    if (st == NPYDT_OK)
        st = io_keep_mode(o->fd, o->path, o->tmp, err);
    if (st == NPYDT_OK)
        st = io_sync_fd(o->fd, o->tmp, err);
    if (st == NPYDT_OK) {
        /* closed before the rename: a file system that reports a failed
         * write only at close leaves the destination as it was */
        st = io_close(o->fd, o->tmp, err);
        o->fd = -1;
    }
    bool placed = false;
    if (st == NPYDT_OK)
        st = io_place(o->alloc, o->tmp, o->path, false, false, &placed, err);
    if (placed) {
        str_free(o->alloc, o->tmp);
        o->tmp = NULL;
    }
    output_free(o);
    return st;
}

void npydt_output_discard(npydt_output *o)
{
    if (o)
        output_free(o);
}

/* Opening one array's data: a file mapped (read-only, or shared
 * read-write), else read with pread or into one copy; a buffer; an
 * archive member in place, inflated as it is read or inflated whole. Also
 * what a handle says about its bytes, and its release. */
#include "access/access.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

void npydt_reader_options_init(npydt_reader_options *opts)
{
    memset(opts, 0, sizeof *opts);
    npydt_options_init(&opts->base);
    opts->chunk_bytes = (size_t)1 << 20;
    opts->window_bytes = (size_t)64 << 20;
}

/* What the data is opened from: a file, or bytes already in memory. */
enum source { FROM_FILE, FROM_MEMORY };

static npydt_status check_options(const npydt_reader_options *opts, enum source from,
                                  npydt_reader **out, npydt_error *err)
{
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!opts)
        return NPYDT_OK;
    if (!reserved_is_zero(opts->reserved, sizeof opts->reserved / sizeof opts->reserved[0]))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "reader options have nonzero reserved room: fill them with "
                         "npydt_reader_options_init");
    if (opts->writable && opts->no_mmap)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "writable needs a mapping: no_mmap excludes it");
    if (opts->writable && from == FROM_MEMORY)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "writable needs a file: a buffer or an archive member is read-only");
    return options_check(&opts->base, err);
}

/* A reader for header h (taken over, freed on failure). The one place
 * that refuses the data of an object dtype. */
static npydt_status new_reader(const npydt_reader_options *opts, npydt_header *h,
                               npydt_reader **out, npydt_error *err)
{
    npydt_reader_options defaults;
    npydt_reader_options_init(&defaults);
    if (!opts)
        opts = &defaults;
    if (npydt_dtype_has_object(npydt_header_dtype(h))) {
        npydt_header_free(h);
        return set_error(err, NPYDT_E_OBJECT, NPYDT_NO_OFFSET, NULL,
                         "the data of an object dtype is a pickle; only the header is readable");
    }
    npydt_reader *r = alloc_bytes(opts->base.allocator, sizeof *r);
    if (!r) {
        npydt_header_free(h);
        return set_nomem(err);
    }
    memset(r, 0, sizeof *r);
    r->alloc = opts->base.allocator;
    /* 0 is the default, as for every size in the options */
    r->chunk_bytes = opts->chunk_bytes ? opts->chunk_bytes : defaults.chunk_bytes;
    r->window_bytes = opts->window_bytes ? opts->window_bytes : defaults.window_bytes;
    r->header = h;
    r->fd = -1;
    r->band_fd = -1;
    r->itemsize = (size_t)npydt_dtype_itemsize(npydt_header_dtype(h));
    r->count = npydt_header_count(h);
    r->data_bytes = npydt_header_data_bytes(h);
    size_t above_one = 0;
    for (size_t k = 0; k < npydt_header_ndim(h); k++)
        above_one += npydt_header_shape(h)[k] > 1;
    r->c_order = !npydt_header_fortran_order(h) || above_one <= 1;
    *out = r;
    return NPYDT_OK;
}

npydt_status npydt_reader_open_fd(int fd, const npydt_reader_options *opts,
                                  npydt_reader **out, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_options(opts, FROM_FILE, out, err);
    if (st != NPYDT_OK)
        return st;
    npydt_header *h;
    if ((st = npydt_parse_fd(fd, opts ? &opts->base : NULL, &h, err)) != NPYDT_OK)
        return st;
    npydt_reader *r;
    if ((st = new_reader(opts, h, &r, err)) != NPYDT_OK)
        return st;
    r->file_offset = npydt_header_data_offset(h);
    r->writable = opts && opts->writable;
    /* a writable mapping is in memory too: never left to pread */
    unsigned how = (opts && opts->no_mmap ? IO_NO_MAP : 0) | (r->writable ? IO_WRITE : 0) |
                   (r->writable || (opts && opts->in_memory) ? 0 : IO_NO_COPY);
    if ((st = io_map_or_read(fd, r->file_offset, r->data_bytes, how, r->alloc, &r->region,
                             err)) != NPYDT_OK) {
        npydt_reader_close(r);
        return st;
    }
    r->bytes = r->region.bytes;
    if (!r->bytes)
        r->fd = fd;   /* neither mapped nor copied: read with pread */
    else if (r->region.map && !r->c_order && !r->writable)
        r->band_fd = band_descriptor(fd);   /* read by bands, never touched in place */
    *out = r;
    return NPYDT_OK;
}

npydt_status npydt_reader_open_path(const char *path, const npydt_reader_options *opts,
                                    npydt_reader **out, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_options(opts, FROM_FILE, out, err);
    if (st != NPYDT_OK)
        return st;
    int fd;
    if ((st = io_open(path, opts && opts->writable, &fd, err)) != NPYDT_OK)
        return st;
    if ((st = npydt_reader_open_fd(fd, opts, out, err)) != NPYDT_OK || (*out)->fd < 0) {
        close(fd);   /* a mapping or a copy outlives its descriptor */
        return st;
    }
    (*out)->own_fd = 1;
    return NPYDT_OK;
}

npydt_status npydt_reader_open_buffer(const void *buf, size_t len,
                                      const npydt_reader_options *opts, npydt_reader **out,
                                      npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_options(opts, FROM_MEMORY, out, err);
    if (st != NPYDT_OK)
        return st;
    npydt_header *h;
    if ((st = npydt_parse_buffer(buf, len, opts ? &opts->base : NULL, &h, err)) != NPYDT_OK)
        return st;
    npydt_reader *r;
    if ((st = new_reader(opts, h, &r, err)) != NPYDT_OK)
        return st;
    /* the parse checked that len holds the data */
    r->bytes = (const unsigned char *)buf + npydt_header_data_offset(h);
    *out = r;
    return NPYDT_OK;
}

npydt_status reader_open_stream(npydt_reader *r, npydt_error *err)
{
    npydt_npz_stream_close(r->stream);
    r->stream = NULL;
    r->pos = 0;
    npydt_status st = npydt_npz_stream_open(r->npz, r->member, &r->stream, err);
    unsigned char skip[4096];
    for (uint64_t left = npydt_header_data_offset(r->header); st == NPYDT_OK && left > 0;) {
        size_t got;
        st = npydt_npz_stream_read(r->stream, skip, left < sizeof skip ? (size_t)left : sizeof skip,
                                   &got, err);
        if (st == NPYDT_OK && got == 0)
            st = set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, NULL,
                           "the member ends inside its header");
        left -= got;
    }
    return st;
}

/* Read all the data of a streamed member (inflated) or of a pipe into one
 * copy, then drop the stream: the bytes are in place from then on. */
static npydt_status read_whole(npydt_reader *r, npydt_error *err)
{
    if (r->data_bytes == 0) {
        r->bytes = r->empty;
    } else {
        if (r->data_bytes > SIZE_MAX)
            return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                             "the member is too large to address on this machine");
        size_t n = (size_t)r->data_bytes;
        unsigned char *copy = alloc_bytes(r->alloc, n);
        if (!copy)
            return set_nomem(err);
        r->region.copy = copy;
        r->region.copy_len = n;
        r->region.alloc = r->alloc;
        npydt_status st = reader_read(r, copy, n, err);
        if (st != NPYDT_OK)
            return st;
        r->bytes = r->region.bytes = copy;
        r->region.len = n;
    }
    npydt_npz_stream_close(r->stream);
    r->stream = NULL;
    r->npz = NULL;
    r->fd = -1;
    r->piped = 0;
    r->pos = 0;
    return NPYDT_OK;
}

npydt_status npydt_reader_open_pipe(int fd, const void *head, size_t head_len,
                                    const npydt_reader_options *opts, npydt_reader **out,
                                    npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_options(opts, FROM_MEMORY, out, err);
    if (st != NPYDT_OK)
        return st;
    npydt_header *h;
    if ((st = npydt_header_parse(head, head_len, opts ? &opts->base : NULL, &h, err)) !=
        NPYDT_OK)
        return st;
    npydt_reader *r;
    if ((st = new_reader(opts, h, &r, err)) != NPYDT_OK)
        return st;
    size_t offset = (size_t)npydt_header_data_offset(h);   /* within head: parsed from it */
    r->fd = fd;
    r->piped = 1;
    r->head = (const unsigned char *)head + offset;
    r->head_len = head_len - offset;
    if (opts && opts->in_memory && (st = read_whole(r, err)) != NPYDT_OK) {
        npydt_reader_close(r);
        return st;
    }
    *out = r;
    return NPYDT_OK;
}

npydt_status npydt_reader_open_member(const npydt_npz *z, size_t i,
                                      const npydt_reader_options *opts, npydt_reader **out,
                                      npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_options(opts, FROM_MEMORY, out, err);
    if (st != NPYDT_OK)
        return st;
    npydt_header *h;
    if ((st = npydt_npz_member_header(z, i, &h, err)) != NPYDT_OK)
        return st;
    npydt_reader *r;
    if ((st = new_reader(opts, h, &r, err)) != NPYDT_OK)
        return st;
    const void *p;
    uint64_t len;
    /* the header's check: the declared size holds the data */
    if (npydt_npz_member_data(z, i, &p, &len, NULL) == NPYDT_OK) {
        r->bytes = (const unsigned char *)p + npydt_header_data_offset(h);
    } else {
        r->npz = z;
        r->member = i;
        if ((st = reader_open_stream(r, err)) == NPYDT_OK && opts && opts->in_memory)
            st = read_whole(r, err);
        if (st != NPYDT_OK) {
            npydt_reader_close(r);
            return st;
        }
    }
    *out = r;
    return NPYDT_OK;
}

const npydt_header *npydt_reader_header(const npydt_reader *r)
{
    return r->header;
}

const void *npydt_reader_bytes(const npydt_reader *r)
{
    return r->bytes;
}

void *npydt_reader_bytes_mut(npydt_reader *r)
{
    if (!r->writable)
        return NULL;
    return r->region.map ? r->region.map + r->file_offset : r->empty;
}

int npydt_reader_is_mapped(const npydt_reader *r)
{
    return r->region.map != NULL;
}

npydt_status npydt_reader_sync(npydt_reader *r, npydt_error *err)
{
    error_clear(err);
    if (!r)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    if (r->region.map && r->writable && msync(r->region.map, r->region.map_len, MS_SYNC) != 0)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL, "msync failed: %s",
                         TEXT_ERRNO(errno));
    return NPYDT_OK;
}

void npydt_reader_close(npydt_reader *r)
{
    if (!r)
        return;
    if (r->share)
        reader_share_drop(r->share);   /* unmapped once no array points into it */
    else
        io_region_release(&r->region);
    if (r->own_fd)
        close(r->fd);
    if (r->band_fd >= 0)
        close(r->band_fd);
    band_free(r);
    npydt_npz_stream_close(r->stream);
    size_t nd = npydt_header_ndim(r->header);
    free_bytes(r->alloc, r->buf, r->buf_size);
    free_bytes(r->alloc, r->window, r->window_size);
    free_bytes(r->alloc, r->value, r->value_size);
    if (r->index)
        free_bytes(r->alloc, r->index, nd * sizeof *r->index);
    if (r->cstride)
        free_bytes(r->alloc, r->cstride, nd * sizeof *r->cstride);
    npydt_header_free(r->header);
    free_bytes(r->alloc, r, sizeof *r);
}

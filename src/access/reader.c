/* Opening one array's data: a file mapped or read with pread, a buffer,
 * an archive member in place or inflated; and reading it in sequence. */
#include "access/access.h"

#include <unistd.h>

void npydt_reader_options_init(npydt_reader_options *opts)
{
    memset(opts, 0, sizeof *opts);
    npydt_options_init(&opts->base);
    opts->chunk_bytes = (size_t)1 << 20;
    opts->window_bytes = (size_t)64 << 20;
}

/* A reader for header h (taken over, freed on failure). */
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

static npydt_status check_options(const npydt_reader_options *opts, npydt_reader **out,
                                  npydt_error *err)
{
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (opts && !reserved_is_zero(opts->reserved, sizeof opts->reserved / sizeof opts->reserved[0]))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "reader options have nonzero reserved room: fill them with "
                         "npydt_reader_options_init");
    return opts ? options_check(&opts->base, err) : NPYDT_OK;
}

npydt_status npydt_reader_open_fd(int fd, const npydt_reader_options *opts,
                                  npydt_reader **out, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_options(opts, out, err);
    if (st != NPYDT_OK)
        return st;
    npydt_header *h;
    if ((st = npydt_parse_fd(fd, opts ? &opts->base : NULL, &h, err)) != NPYDT_OK)
        return st;
    npydt_reader *r;
    if ((st = new_reader(opts, h, &r, err)) != NPYDT_OK)
        return st;
    r->file_offset = npydt_header_data_offset(h);
    unsigned how = IO_NO_COPY | (opts && opts->no_mmap ? IO_NO_MAP : 0);
    if ((st = io_map_or_read(fd, r->file_offset, r->data_bytes, how, r->alloc, &r->region,
                             err)) != NPYDT_OK) {
        npydt_reader_close(r);
        return st;
    }
    r->bytes = r->region.bytes;
    if (!r->bytes)
        r->fd = fd;   /* not mapped: read with pread */
    *out = r;
    return NPYDT_OK;
}

npydt_status npydt_reader_open_path(const char *path, const npydt_reader_options *opts,
                                    npydt_reader **out, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_options(opts, out, err);
    if (st != NPYDT_OK)
        return st;
    int fd;
    if ((st = io_open(path, 0, &fd, err)) != NPYDT_OK)
        return st;
    if ((st = npydt_reader_open_fd(fd, opts, out, err)) != NPYDT_OK || (*out)->fd < 0) {
        close(fd);   /* a mapping outlives its descriptor */
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
    npydt_status st = check_options(opts, out, err);
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

/* A fresh stream of the member, positioned at its first data byte. */
static npydt_status open_stream(npydt_reader *r, npydt_error *err)
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

npydt_status npydt_reader_open_member(const npydt_npz *z, size_t i,
                                      const npydt_reader_options *opts, npydt_reader **out,
                                      npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_options(opts, out, err);
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
        if ((st = open_stream(r, err)) != NPYDT_OK) {
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

uint64_t reader_records_in(const npydt_reader *r, size_t bytes, uint64_t most)
{
    uint64_t n = r->itemsize >= bytes ? 1 : bytes / r->itemsize;
    return n < most ? n : most;
}

npydt_status reader_room(npydt_reader *r, unsigned char **buf, size_t *have, size_t size,
                         npydt_error *err)
{
    if (*have >= size)
        return NPYDT_OK;
    free_bytes(r->alloc, *buf, *have);
    *have = 0;
    *buf = alloc_bytes(r->alloc, size);
    if (!*buf)
        return set_nomem(err);
    *have = size;
    return NPYDT_OK;
}

npydt_status reader_read(npydt_reader *r, unsigned char *buf, size_t n, npydt_error *err)
{
    if (n > r->data_bytes - r->pos)
        return set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, NULL, "the data ended early");
    size_t got = 0;
    npydt_status st = NPYDT_OK;
    if (r->stream) {
        while (st == NPYDT_OK && got < n) {
            size_t k;
            st = npydt_npz_stream_read(r->stream, buf + got, n - got, &k, err);
            if (st == NPYDT_OK && k == 0)
                st = set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, NULL, "the data ended early");
            got += k;
        }
    } else {
        st = io_pread(r->fd, buf, n, r->file_offset + r->pos, &got, err);
        if (st == NPYDT_OK && got < n)
            st = set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                           "the file shrank while it was read");
    }
    if (st == NPYDT_OK)
        r->pos += n;
    return st;
}

npydt_status reader_seek(npydt_reader *r, uint64_t target, npydt_error *err)
{
    npydt_status st = NPYDT_OK;
    if (r->pos > target) {
        if (r->stream)
            st = open_stream(r, err);
        r->pos = 0;
    }
    if (st == NPYDT_OK && r->fd >= 0) {
        r->pos = target;   /* pread goes anywhere */
        return NPYDT_OK;
    }
    if (st == NPYDT_OK && r->pos < target)
        st = reader_room(r, &r->buf, &r->buf_size,
                         (size_t)(reader_records_in(r, r->chunk_bytes, r->count) * r->itemsize),
                         err);
    while (st == NPYDT_OK && r->pos < target) {
        uint64_t left = target - r->pos;
        st = reader_read(r, r->buf, left < r->buf_size ? (size_t)left : r->buf_size, err);
    }
    return st;
}

npydt_status npydt_reader_next_chunk(npydt_reader *r, const void **chunk, size_t *len,
                                     npydt_error *err)
{
    error_clear(err);
    if (!r || !chunk || !len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    uint64_t left = r->data_bytes - r->pos;
    *len = 0;
    *chunk = r->bytes ? r->bytes + r->pos : (const unsigned char *)"";
    if (left == 0)
        return NPYDT_OK;
    if (r->bytes) {
        r->pos = r->data_bytes;
        *len = (size_t)left;   /* in place: it fits the address space */
        return NPYDT_OK;
    }
    size_t n = (size_t)(reader_records_in(r, r->chunk_bytes, left / r->itemsize) * r->itemsize);
    npydt_status st = reader_room(r, &r->buf, &r->buf_size, n, err);
    if (st == NPYDT_OK)
        st = reader_read(r, r->buf, n, err);
    if (st != NPYDT_OK)
        return st;
    *chunk = r->buf;
    *len = n;
    return NPYDT_OK;
}

npydt_status npydt_reader_rewind(npydt_reader *r, npydt_error *err)
{
    error_clear(err);
    if (!r)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    r->next = 0;
    if (r->stream && r->pos > 0)
        return open_stream(r, err);
    r->pos = 0;
    return NPYDT_OK;
}

void npydt_reader_close(npydt_reader *r)
{
    if (!r)
        return;
    io_region_release(&r->region);
    if (r->own_fd)
        close(r->fd);
    npydt_npz_stream_close(r->stream);
    size_t nd = npydt_header_ndim(r->header);
    free_bytes(r->alloc, r->buf, r->buf_size);
    free_bytes(r->alloc, r->window, r->window_size);
    if (r->index)
        free_bytes(r->alloc, r->index, nd * sizeof *r->index);
    if (r->cstride)
        free_bytes(r->alloc, r->cstride, nd * sizeof *r->cstride);
    npydt_header_free(r->header);
    free_bytes(r->alloc, r, sizeof *r);
}

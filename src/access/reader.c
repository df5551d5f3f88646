/* Reading one array's data in sequence: all at once where it is in
 * place, else in chunks of whole elements through one bounded buffer. */
#include "access/access.h"

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
    } else if (r->piped) {
        size_t from_head = r->head_len < n ? r->head_len : n;
        if (from_head) {
            memcpy(buf, r->head, from_head);
            r->head += from_head;
            r->head_len -= from_head;
        }
        st = io_read(r->fd, buf + from_head, n - from_head, &got, err);
        got += from_head;
        /* the input ended: say it as a file as short would be said */
        if (st == NPYDT_OK && got < n)
            st = npydt_header_check_data(r->header, r->pos + got, err);
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
    if (r->pos > target && r->piped)
        return reader_no_going_back(err);
    if (r->pos > target) {
        if (r->stream)
            st = reader_open_stream(r, err);
        r->pos = 0;
    }
    if (st == NPYDT_OK && r->fd >= 0 && !r->piped) {
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
    if (r->piped && r->pos > 0)
        return reader_no_going_back(err);
    r->next = 0;
    if (r->stream && r->pos > 0)
        return reader_open_stream(r, err);
    r->pos = 0;
    return NPYDT_OK;
}

npydt_status reader_no_going_back(npydt_error *err)
{
    return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                     "the data of a stream (a pipe) is read once, front to back: it cannot "
                     "go back (read it into memory for that)");
}

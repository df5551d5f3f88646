/* Appending records: collected in the writer's buffer and written with
 * one write, large blocks straight from the caller; and flushing: the
 * records' bytes made durable first, then the header's count of them
 * changed in place by one pwrite of the bytes that differ. */
#include "write/write.h"

/* bytes more records written after the file's data: counted, to be
 * synced, and handed to the disk in steps when a sync will follow, so
 * that the last fsync waits for the last step only */
static void wrote(npydt_writer *w, size_t bytes)
{
    w->file_bytes += bytes;
    w->unsynced = true;
    if (!w->no_sync)
        io_writeback_steps(w->fd, &w->handed, w->data_offset + w->file_bytes);
}

npydt_status writer_drain(npydt_writer *w, npydt_error *err)
{
    if (w->buf_len == 0)
        return NPYDT_OK;
    npydt_status st;
    if (w->kind == WRITER_MEMBER) {
        st = member_write(w, w->buf, w->buf_len, err);
    } else {
        st = io_pwrite_all(w, w->buf, w->buf_len, w->data_offset + w->file_bytes, err);
        if (st == NPYDT_OK)
            wrote(w, w->buf_len);
    }
    if (st != NPYDT_OK)
        return writer_poison(w, st, err);
    w->buf_len = 0;
    return NPYDT_OK;
}

npydt_status writer_set_count(npydt_writer *w, uint64_t records, npydt_error *err)
{
    if (records == w->flushed && !w->unsynced)
        return NPYDT_OK;
    npydt_status st = io_sync(w, err);
    if (st != NPYDT_OK)
        return writer_poison(w, st, err);
    w->unsynced = false;
    if (records == w->flushed)
        return NPYDT_OK;
    uint64_t rows = w->row ? records / w->row : 0;
    uint64_t old_rows = w->shape[w->growth];
    w->shape[w->growth] = rows;
    unsigned char *text;
    size_t len;
    st = header_text(w->alloc, w->dtype, w->shape, w->ndim, w->fortran_order, w->major, &text,
                     &len, err);
    w->shape[w->growth] = old_rows;
    if (st != NPYDT_OK)
        return writer_poison(w, st, err);
    if (len != w->data_offset) {
        /* cannot happen: every count has a text of the same length */
        free_bytes(w->alloc, text, len);
        return writer_poison(w, set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                                          "the header for %llu rows has another length",
                                          (unsigned long long)rows),
                             err);
    }
    /* Only the shape's digits and the spaces after it change: one pwrite
     * of that span, which the kernel applies whole (a killed process
     * cannot tear it) and which a disk writes atomically when it lies
     * within one 512-byte sector (doc/api.md, "Durability") */
    size_t first, end;
    header_diff(w->text, text, len, &first, &end);
    st = io_pwrite_all(w, text + first, end - first, first, err);
    if (st != NPYDT_OK) {
        free_bytes(w->alloc, text, len);
        return writer_poison(w, st, err);
    }
    /* the header counts them from here on, durable or not (a discard then
     * keeps them: their bytes are durable already) */
    free_bytes(w->alloc, w->text, len);
    w->text = text;
    w->shape[w->growth] = rows;
    w->flushed = records;
    st = io_sync(w, err);
    return st == NPYDT_OK ? st : writer_poison(w, st, err);
}

npydt_status npydt_writer_flush(npydt_writer *w, npydt_error *err)
{
    error_clear(err);
    npydt_status st = writer_usable(w, err);
    if (st != NPYDT_OK || w->kind != WRITER_FILE)
        return st;
    w->flush_mark = w->count;
    if ((st = writer_drain(w, err)) != NPYDT_OK)
        return st;
    uint64_t whole = w->row ? w->count / w->row * w->row : 0;
    if ((st = writer_set_count(w, whole, err)) != NPYDT_OK)
        return st;
    if ((st = io_publish(w, err)) != NPYDT_OK)
        return writer_poison(w, st, err);
    return NPYDT_OK;
}

/* Write bytes bytes of records from the caller: a block of half the
 * buffer or more goes straight to the destination (after what is
 * buffered), never copied; smaller ones are collected in the buffer. */
static npydt_status put_records(npydt_writer *w, const void *records, size_t bytes,
                                npydt_error *err)
{
    npydt_status st;
    if (bytes < w->buf_cap / 2 + 1) {
        if (bytes > w->buf_cap - w->buf_len && (st = writer_drain(w, err)) != NPYDT_OK)
            return st;
        memcpy(w->buf + w->buf_len, records, bytes);
        w->buf_len += bytes;
        return NPYDT_OK;
    }
    if ((st = writer_drain(w, err)) != NPYDT_OK)
        return st;
    if (w->kind == WRITER_MEMBER) {
        st = member_write(w, records, bytes, err);
    } else {
        st = io_pwrite_all(w, records, bytes, w->data_offset + w->file_bytes, err);
        if (st == NPYDT_OK)
            wrote(w, bytes);
    }
    return st == NPYDT_OK ? st : writer_poison(w, st, err);
}

npydt_status npydt_writer_write(npydt_writer *w, const void *records, uint64_t n,
                                npydt_error *err)
{
    error_clear(err);
    npydt_status st = writer_usable(w, err);
    if (st != NPYDT_OK)
        return st;
    if (n == 0)
        return NPYDT_OK;
    if (!records)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "records is NULL");
    uint64_t total, bytes;
    if (!ck_add(w->count, n, &total) || !ck_mul(n, w->itemsize, &bytes) || bytes > SIZE_MAX)
        return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "%llu more records do not fit", (unsigned long long)n);
    switch (w->kind) {
    case WRITER_SCALAR:
        if (total > 1)
            return set_error(err, NPYDT_E_SHAPE, NPYDT_NO_OFFSET, NULL,
                             "a 0-d array holds exactly one record");
        break;
    case WRITER_MEMBER:
        if (total > w->limit)
            return set_error(err, NPYDT_E_SHAPE, NPYDT_NO_OFFSET, NULL,
                             "%llu records are more than the member's shape holds (%llu)",
                             (unsigned long long)total, (unsigned long long)w->limit);
        break;
    case WRITER_FILE:
        if (w->row == 0)
            return set_error(err, NPYDT_E_SHAPE, NPYDT_NO_OFFSET, NULL,
                             "the other dimensions of the shape hold no record");
        if (!ck_mul(total, w->itemsize, &bytes) ||
            !ck_add(bytes, w->data_offset, &bytes) || bytes > (uint64_t)INT64_MAX)
            return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                             "the file would pass the largest file offset");
        bytes = n * w->itemsize;
        break;
    }
    if ((st = put_records(w, records, (size_t)bytes, err)) != NPYDT_OK)
        return st;
    w->count = total;
    if (w->flush_every && w->kind == WRITER_FILE && w->count - w->flush_mark >= w->flush_every)
        return npydt_writer_flush(w, err);
    return NPYDT_OK;
}

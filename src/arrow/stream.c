/* An ArrowArrayStream over an open reader: the schema of its dtype, then
 * one record batch per call, in C order, from the stream's own position
 * (so several streams may read one reader). */
#include "arrow/arrow.h"
#include "access/access.h"
#include "arrow/ipc.h"

#include <errno.h>
#include <stdio.h>

struct stream {
    const npydt_allocator *alloc;
    npydt_reader *reader;
    npydt_arrow_options opts;
    const npydt_dtype *dtype;
    uint64_t next;          /* C-order index of the next row */
    uint64_t count;
    uint64_t batch_rows;
    npydt_repeat *levels;
    size_t levels_cap;
    struct reader_share *share;   /* the reader's mapping, or NULL */
    struct arrow_shared *body;    /* the last batch's body block: the next
                                   * one's too once that batch is released */
    npydt_error err;
    char err_text[ARROW_ERROR_TEXT_SIZE];   /* get_last_error's */
};

static int errno_of(npydt_status st)
{
    switch (st) {
    case NPYDT_OK: return 0;
    case NPYDT_E_NOMEM: return ENOMEM;
    case NPYDT_E_IO:
    case NPYDT_E_DATA:
    case NPYDT_E_ARCHIVE: return EIO;
    default: return EINVAL;
    }
}

static int get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    struct stream *p = s->private_data;
    const npydt_header *h = npydt_reader_header(p->reader);
    error_clear(&p->err);
    out->release = NULL;
    return errno_of(arrow_schema_make(p->dtype, &p->opts, npydt_header_shape(h),
                                      npydt_header_ndim(h), out, &p->err));
}

static int get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    struct stream *p = s->private_data;
    error_clear(&p->err);
    out->release = NULL;
    if (p->next >= p->count)
        return 0;
    const void *records;
    uint64_t n;
    /* the reader's C-order position is this stream's */
    p->reader->next = p->next;
    npydt_status st = npydt_reader_next_c(p->reader, p->batch_rows, &records, &n, &p->err);
    if (st == NPYDT_OK && n == 0)
        st = set_error(&p->err, NPYDT_E_DATA, NPYDT_NO_OFFSET, NULL, "the data ended early");
    if (st != NPYDT_OK)
        return errno_of(st);
    if (p->body && !arrow_shared_alone(p->body)) {   /* the last batch lives on */
        arrow_shared_unref(p->body);
        p->body = NULL;
    }
    if (!p->body && !(p->body = arrow_shared_new(p->alloc)))
        return errno_of(set_nomem(&p->err));
    struct arrow_batch b = {p->alloc, p->opts.bytes_as_binary, p->opts.base.limits.max_depth,
                            records, npydt_dtype_itemsize(p->dtype), n, p->next,
                            p->levels, p->levels_cap, p->share, p->body};
    st = arrow_batch_fill(&b, p->dtype, out, &p->err);
    if (st != NPYDT_OK)
        return errno_of(st);
    p->next += n;
    return 0;
}

const char *arrow_error_text(const npydt_error *err, char *buf)
{
    if (err->code == NPYDT_OK)
        return NULL;
    if (!err->path[0])
        return err->message;
    snprintf(buf, ARROW_ERROR_TEXT_SIZE, "field %s: %s", err->path, err->message);
    return buf;
}

static const char *get_last_error(struct ArrowArrayStream *s)
{
    struct stream *p = s->private_data;
    return arrow_error_text(&p->err, p->err_text);
}

static void release(struct ArrowArrayStream *s)
{
    struct stream *p = s->private_data;
    reader_share_drop(p->share);
    arrow_shared_unref(p->body);
    free_bytes(p->alloc, p->levels, p->levels_cap * sizeof *p->levels);
    free_bytes(p->alloc, p, sizeof *p);
    s->release = NULL;
    s->private_data = NULL;
}

npydt_status npydt_arrow_stream_open(npydt_reader *r, const npydt_arrow_options *opts,
                                     struct ArrowArrayStream *out, npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    out->release = NULL;
    if (!r)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "reader is NULL");
    npydt_arrow_options o;
    npydt_status st = arrow_options_resolve(opts, &o, err);
    if (st != NPYDT_OK)
        return st;
    const npydt_dtype *dt = npydt_header_dtype(npydt_reader_header(r));
    /* the schema is made once here to refuse what Arrow cannot hold */
    struct ArrowSchema schema;
    if ((st = npydt_arrow_schema(dt, &o, &schema, err)) != NPYDT_OK)
        return st;
    schema.release(&schema);
    size_t levels;
    uint64_t row_bytes;
    if ((st = arrow_batch_plan(dt, o.base.limits.max_depth, &levels, &row_bytes, err)) !=
        NPYDT_OK)
        return st;
    uint64_t itemsize = npydt_dtype_itemsize(dt);
    if (row_bytes > o.batch_bytes && row_bytes / 6 > itemsize)
        return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "one row takes %llu bytes of Arrow buffers, above batch_bytes "
                         "(%zu) and six times its %llu bytes",
                         (unsigned long long)row_bytes, o.batch_bytes,
                         (unsigned long long)itemsize);
    uint64_t rows = o.batch_bytes / (row_bytes ? row_bytes : 1);
    if (o.batch_rows && rows > o.batch_rows)
        rows = o.batch_rows;
    struct stream *p = alloc_bytes(o.base.allocator, sizeof *p);
    if (!p)
        return set_nomem(err);
    memset(p, 0, sizeof *p);
    p->levels = alloc_bytes(o.base.allocator, levels * sizeof *p->levels);
    if (!p->levels) {
        free_bytes(o.base.allocator, p, sizeof *p);
        return set_nomem(err);
    }
    p->alloc = o.base.allocator;
    p->reader = r;
    p->opts = o;
    p->dtype = dt;
    p->count = npydt_header_count(npydt_reader_header(r));
    p->batch_rows = rows ? rows : 1;
    p->levels_cap = levels;
    /* batches point into a mapping where they can (NULL: all gathered) */
    p->share = reader_share(r);
    error_clear(&p->err);
    out->get_schema = get_schema;
    out->get_next = get_next;
    out->get_last_error = get_last_error;
    out->release = release;
    out->private_data = p;
    return NPYDT_OK;
}

npydt_status npydt_arrow_stream_error(const struct ArrowArrayStream *s, npydt_error *err)
{
    error_clear(err);
    if (!s || !s->release)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "the stream is NULL or released");
    if (s->get_next != get_next)
        return ipc_stream_error(s, err);
    const struct stream *p = s->private_data;
    if (err)
        *err = p->err;
    return NPYDT_OK;
}

npydt_status npydt_arrow_batch(const npydt_dtype *dt, const void *records, uint64_t n,
                               const npydt_arrow_options *opts, struct ArrowArray *out,
                               npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    out->release = NULL;
    if (!dt || (!records && n))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "dtype or records is NULL");
    npydt_arrow_options o;
    npydt_status st = arrow_options_resolve(opts, &o, err);
    size_t levels;
    uint64_t row_bytes;
    struct ArrowSchema schema;
    /* what Arrow cannot hold is refused as the schema refuses it */
    if (st != NPYDT_OK || (st = npydt_arrow_schema(dt, &o, &schema, err)) != NPYDT_OK)
        return st;
    schema.release(&schema);
    if ((st = arrow_batch_plan(dt, o.base.limits.max_depth, &levels, &row_bytes, err)) !=
            NPYDT_OK)
        return st;
    npydt_repeat *lv = alloc_bytes(o.base.allocator, levels * sizeof *lv);
    if (!lv)
        return set_nomem(err);
    struct arrow_shared *body = arrow_shared_new(o.base.allocator);
    if (!body) {
        free_bytes(o.base.allocator, lv, levels * sizeof *lv);
        return set_nomem(err);
    }
    struct arrow_batch b = {o.base.allocator, o.bytes_as_binary, o.base.limits.max_depth,
                            records, npydt_dtype_itemsize(dt), n, 0, lv, levels, NULL, body};
    st = arrow_batch_fill(&b, dt, out, err);
    arrow_shared_unref(body);   /* the batch's nodes hold it */
    free_bytes(o.base.allocator, lv, levels * sizeof *lv);
    return st;
}

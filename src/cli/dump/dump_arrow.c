/* npydt dump --arrow: the selected elements of an array as an Arrow IPC
 * stream (the library's npydt_arrow_ipc_write), to standard output or
 * through the durable output to OUT. The whole array goes through the
 * library's stream over the reader (wrapped here to give a mapped file's
 * pages back behind the batches, as dump's other formats do); a
 * selection through a stream here that gathers the selected records (or,
 * with --fields, records of the selected fields, packed in a dtype made
 * of them) and has the library make each batch of them. With -j 2 or
 * more a worker makes the next batch while the last one is written
 * (cli_ahead: two batches at most); the bytes are those of -j 1. */
#include "cli/dump/dump.h"
#include "cli/common/jobs.h"
#include "cli/common/output.h"
#include "cli/common/report.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

/* Records gathered per batch: about this many bytes. */
#define PICK_BYTES ((size_t)1 << 20)

struct picked {
    struct ArrowArrayStream inner;   /* the whole array: the library's stream */
    struct cli_behind behind;
    const unsigned char *bytes;      /* its mapped data, or NULL */
    const npydt_dtype *dt;
    const struct selected *sel;      /* --fields, packed into records of dt */
    size_t nsel;
    struct cursor cur;
    const struct selection *sl;
    uint64_t next, rows;
    uint64_t prev;                   /* the first record of the batch before */
    size_t itemsize;
    unsigned char *buf;
    npydt_error err;
    /* the batches made ahead */
    unsigned jobs;
    bool started;
    struct cli_ahead ahead;
    struct ArrowArray slots[2];
    int rc;                          /* the errno that stopped the making */
};

static int picked_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    struct picked *p = s->private_data;
    if (p->inner.release)
        return p->inner.get_schema(&p->inner, out);
    return npydt_arrow_schema(p->dt, NULL, out, &p->err) == NPYDT_OK ? 0 : EINVAL;
}

/* The next batch into out (none at the end): 0 or an errno. */
static int make_batch(struct picked *p, struct ArrowArray *out)
{
    out->release = NULL;
    if (p->inner.release) {
        int rc = p->inner.get_next(&p->inner, out);
        if (rc == 0 && out->release) {
            /* the pages before the batch before this one are written:
             * that batch's columns and this one's may point into theirs */
            if (p->bytes)
                cli_behind(&p->behind, p->bytes + p->prev * p->itemsize);
            p->prev = p->next;
            p->next += (uint64_t)out->length;
        }
        return rc;
    }
    uint64_t n = p->sl->total - p->next;
    if (n > p->rows)
        n = p->rows;
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *rec = cursor_get(&p->cur, selection_flat(p->sl, p->next + i), &p->err);
        if (!rec)
            return EIO;
        unsigned char *to = p->buf + i * p->itemsize;
        if (!p->sel)
            memcpy(to, rec, p->itemsize);
        for (size_t k = 0; k < p->nsel; k++) {
            /* a field, or that field of each element of an array of
             * structs: contiguous, in C order, stride bytes apart */
            const struct selected *f = &p->sel[k];
            uint64_t count = 1, size = npydt_dtype_itemsize(f->dtype);
            for (size_t j = 0; j < f->ndim; j++)
                count *= f->shape[j];   /* within the record's itemsize */
            for (uint64_t e = 0; e < count; e++, to += size)
                memcpy(to, rec + f->offset + e * f->stride, (size_t)size);
        }
    }
    p->next += n;
    if (n == 0)
        return 0;
    npydt_status st = npydt_arrow_batch(p->dt, p->buf, n, NULL, out, &p->err);
    return st == NPYDT_OK ? 0 : st == NPYDT_E_NOMEM ? ENOMEM : EINVAL;
}

/* cli_ahead's make: a batch into slot (an ArrowArray). */
static int make_ahead(void *ctx, void *slot)
{
    struct picked *p = ctx;
    struct ArrowArray *out = slot;
    if ((p->rc = make_batch(p, out)) != 0)
        return -1;
    return out->release ? 1 : 0;
}

static int picked_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    struct picked *p = s->private_data;
    out->release = NULL;
    if (!p->started) {
        /* the schema is asked before: the worker starts here */
        cli_ahead_start(&p->ahead, p->jobs, make_ahead, p, p->slots, 2, sizeof p->slots[0]);
        p->started = true;
    }
    void *slot;
    int r = cli_ahead_next(&p->ahead, &slot);
    if (r != 1)
        return r == 0 ? 0 : p->rc;
    struct ArrowArray *a = slot;
    *out = *a;   /* moved */
    a->release = NULL;
    return 0;
}

/* Stop making batches ahead: what the worker met can be read after. */
static void picked_stop(struct picked *p)
{
    cli_ahead_stop(&p->ahead);
    for (size_t i = 0; i < 2; i++)
        if (p->slots[i].release)
            p->slots[i].release(&p->slots[i]);
}

static const char *picked_error(struct ArrowArrayStream *s)
{
    struct picked *p = s->private_data;
    if (p->inner.release)
        return p->inner.get_last_error(&p->inner);
    return p->err.message;
}

static void picked_release(struct ArrowArrayStream *s)
{
    struct picked *p = s->private_data;
    if (p->inner.release)
        p->inner.release(&p->inner);
    s->release = NULL;
}

/* A field name as a Python string literal in b. */
static void put_literal(struct text_buf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    text_buf_putc(b, '\'');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == '\'') {
            text_buf_putc(b, '\\');
            text_buf_putc(b, (char)c);
        } else if (c < 0x20 || c == 0x7f) {
            char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
            text_buf_write(b, e, 4);
        } else {
            text_buf_putc(b, (char)c);
        }
    }
    text_buf_putc(b, '\'');
}

/* The dtype of records of the nsel selected fields, named by their paths
 * and packed: a field below an array of structs (pts.y) a subarray of the
 * array's shape; NULL when memory runs out. */
static npydt_dtype *fields_dtype(const struct selected *sel, size_t nsel, npydt_error *err)
{
    struct text_buf b = text_buf_growing(text_libc_realloc, NULL, 256);
    text_buf_putc(&b, '[');
    for (size_t k = 0; k < nsel; k++) {
        const npydt_dtype *base = sel[k].dtype;
        uint64_t dims[2 * SELECT_MAX_DIMS];
        size_t nd = sel[k].ndim;
        memcpy(dims, sel[k].shape, nd * sizeof dims[0]);
        /* a subarray field: its base and the dimensions after the array's */
        while (npydt_dtype_get_class(base) == NPYDT_SUBARRAY) {
            for (size_t j = 0; j < npydt_dtype_ndim(base) && nd < 2 * SELECT_MAX_DIMS; j++)
                dims[nd++] = npydt_dtype_shape(base)[j];
            base = npydt_dtype_base(base);
        }
        text_buf_puts(&b, k ? ", (" : "(");
        put_literal(&b, sel[k].path, sel[k].path_len);
        text_buf_puts(&b, ", ");
        size_t need = npydt_dtype_descr(base, NULL, 0);
        char *d = text_buf_room(&b, need + 1);
        if (d)
            b.len += npydt_dtype_descr(base, d, need + 1);
        if (nd) {
            text_buf_puts(&b, ", ");
            text_shape_tuple(&b, dims, nd);
        }
        text_buf_putc(&b, ')');
    }
    text_buf_putc(&b, ']');
    npydt_dtype *dt = NULL;
    if (b.failed)
        cli_error(err, NPYDT_E_NOMEM, "%s", "out of memory");
    else if (npydt_header_parse_descr(b.buf, b.len, NULL, &dt, err) != NPYDT_OK)
        dt = NULL;
    text_buf_free(&b);
    return dt;
}

/* Straight to descriptor 1 (stdout's buffer is flushed first): the
 * stream's buffers are not copied on their way. */
static int to_stdout(void *ctx, const void *buf, size_t len)
{
    (void)ctx;
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(STDOUT_FILENO, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

int dump_arrow(const char *name, npydt_reader *r, const struct selection *sl, bool whole,
               const struct selected *sel, size_t nsel, const char *target, unsigned jobs)
{
    const npydt_dtype *dt = npydt_header_dtype(npydt_reader_header(r));
    npydt_dtype *packed = NULL;
    npydt_error err;
    if (sel) {
        if (!(packed = fields_dtype(sel, nsel, &err)))
            return cli_report(name, &err);
        dt = packed;
        whole = false;
    }
    struct picked p;
    memset(&p, 0, sizeof p);
    p.dt = dt;
    p.sel = sel;
    p.nsel = nsel;
    p.sl = sl;
    p.rows = 1;
    p.itemsize = npydt_dtype_itemsize(dt);
    /* a worker when there are two batches or more (a batch is about a
     * MiB): one writes, one gathers */
    uint64_t bytes = sl->total <= UINT64_MAX / (p.itemsize ? p.itemsize : 1)
                         ? sl->total * p.itemsize
                         : UINT64_MAX;
    p.jobs = cli_jobs_count(jobs, bytes / PICK_BYTES < 2 ? 1 : 2);
    int status = EXIT_OK;
    if (whole) {
        if (npydt_arrow_stream_open(r, NULL, &p.inner, &err) != NPYDT_OK)
            return cli_report(name, &err);
        const npydt_header *h = npydt_reader_header(r);
        /* C order is read front to back */
        if (!npydt_header_fortran_order(h) || npydt_header_ndim(h) < 2) {
            p.bytes = npydt_reader_bytes(r);
            cli_behind_start(&p.behind, r);
        }
    } else {
        if (p.itemsize && PICK_BYTES / p.itemsize > 1)
            p.rows = PICK_BYTES / p.itemsize;
        if (p.rows > sl->total && sl->total)
            p.rows = sl->total;
        p.buf = malloc(p.itemsize * (size_t)p.rows + 1);
        if (!p.buf) {
            npydt_dtype_free(packed);
            return cli_failure("out of memory");
        }
        cursor_init(&p.cur, r, selection_end(sl));
        cursor_select(&p.cur, sl);
    }
    struct ArrowArrayStream s = {picked_schema, picked_next, picked_error, picked_release, &p};
    struct cli_output o;
    memset(&o, 0, sizeof o);
    npydt_npz_sink sink = {to_stdout, NULL, NULL};
    if (!target && fflush(stdout) != 0)
        status = cli_failure("writing the Arrow stream to standard output failed");
    if (target) {
        if ((status = cli_output_check(&dump_command, &o, name, target, 0)) == EXIT_OK &&
            (status = cli_output_open(&o)) == EXIT_OK)
            npydt_output_sink(o.out, &sink);
    }
    npydt_status st = status == EXIT_OK ? npydt_arrow_ipc_write(&s, &sink, NULL, NULL, &err)
                                        : NPYDT_OK;
    picked_stop(&p);
    if (st != NPYDT_OK) {
        npydt_error inner;
        if (p.inner.release && npydt_arrow_stream_error(&p.inner, &inner) == NPYDT_OK &&
            inner.code != NPYDT_OK)
            err = inner;   /* what the library's stream met */
        if (p.err.code != NPYDT_OK)
            err = p.err;   /* what the gathering met */
        status = target ? cli_output_failed(&o, name, &err) : cli_report(name, &err);
    }
    if (target && o.out)
        status = cli_output_close(&o, status);
    if (!target && status == EXIT_OK && fflush(stdout) != 0)
        status = cli_failure("writing the Arrow stream to standard output failed");
    s.release(&s);
    free(p.buf);
    npydt_dtype_free(packed);
    return status;
}

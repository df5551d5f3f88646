/* npydt dump --arrow: the selected elements of an array as an Arrow IPC
 * stream (the library's npydt_arrow_ipc_write), to standard output or
 * through the durable output to OUT. The whole array goes through the
 * library's stream over the reader (wrapped here to give a mapped file's
 * pages back behind the batches, as dump's other formats do); a
 * selection through a stream here that gathers the selected records and
 * has the library make each batch of them. */
#include "cli/dump/dump.h"
#include "cli/common/output.h"
#include "cli/common/report.h"

#include <errno.h>
#include <stdlib.h>

/* Records gathered per batch: about this many bytes. */
#define PICK_BYTES ((size_t)1 << 20)

struct picked {
    struct ArrowArrayStream inner;   /* the whole array: the library's stream */
    struct cli_behind behind;
    const unsigned char *bytes;      /* its mapped data, or NULL */
    const npydt_dtype *dt;
    struct cursor cur;
    const struct selection *sl;
    uint64_t next, rows;
    size_t itemsize;
    unsigned char *buf;
    npydt_error err;
};

static int picked_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    struct picked *p = s->private_data;
    if (p->inner.release)
        return p->inner.get_schema(&p->inner, out);
    return npydt_arrow_schema(p->dt, NULL, out, &p->err) == NPYDT_OK ? 0 : EINVAL;
}

static int picked_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    struct picked *p = s->private_data;
    out->release = NULL;
    if (p->inner.release) {
        int rc = p->inner.get_next(&p->inner, out);
        if (rc == 0 && out->release) {
            p->next += (uint64_t)out->length;
            if (p->bytes)
                cli_behind(&p->behind, p->bytes + p->next * p->itemsize);
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
        memcpy(p->buf + i * p->itemsize, rec, p->itemsize);
    }
    p->next += n;
    if (n == 0)
        return 0;
    npydt_status st = npydt_arrow_batch(p->dt, p->buf, n, NULL, out, &p->err);
    return st == NPYDT_OK ? 0 : st == NPYDT_E_NOMEM ? ENOMEM : EINVAL;
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

static int to_stdout(void *ctx, const void *buf, size_t len)
{
    (void)ctx;
    return fwrite(buf, 1, len, stdout) == len ? 0 : -1;
}

int dump_arrow(const char *name, npydt_reader *r, const struct selection *sl, bool whole,
               const char *target)
{
    const npydt_dtype *dt = npydt_header_dtype(npydt_reader_header(r));
    struct picked p;
    memset(&p, 0, sizeof p);
    p.dt = dt;
    p.sl = sl;
    p.rows = 1;
    p.itemsize = npydt_dtype_itemsize(dt);
    npydt_error err;
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
        if (!p.buf)
            return cli_failure("out of memory");
        cursor_init(&p.cur, r, selection_end(sl));
    }
    struct ArrowArrayStream s = {picked_schema, picked_next, picked_error, picked_release, &p};
    struct cli_output o;
    memset(&o, 0, sizeof o);
    npydt_npz_sink sink = {to_stdout, NULL, NULL};
    if (target) {
        if ((status = cli_output_check(&dump_command, &o, name, target, 0)) == EXIT_OK &&
            (status = cli_output_open(&o)) == EXIT_OK)
            npydt_output_sink(o.out, &sink);
    }
    if (status == EXIT_OK &&
        npydt_arrow_ipc_write(&s, &sink, NULL, NULL, &err) != NPYDT_OK) {
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
    return status;
}

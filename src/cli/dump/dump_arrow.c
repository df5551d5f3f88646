/* npydt dump --arrow: the selected elements of an array as an Arrow IPC
 * stream (the library's npydt_arrow_ipc_write), to standard output or
 * through the durable output to OUT. The whole array goes through the
 * library's stream over the reader; a selection through a stream here
 * that gathers the selected records and has the library make each batch
 * of them. */
#include "cli/dump/dump.h"
#include "cli/common/output.h"
#include "cli/common/report.h"

#include <errno.h>
#include <stdlib.h>

/* Records gathered per batch: about this many bytes. */
#define PICK_BYTES ((size_t)1 << 20)

struct picked {
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
    return npydt_arrow_schema(p->dt, NULL, out, &p->err) == NPYDT_OK ? 0 : EINVAL;
}

static int picked_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    struct picked *p = s->private_data;
    out->release = NULL;
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
    return p->err.message;
}

static void picked_release(struct ArrowArrayStream *s)
{
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
    struct ArrowArrayStream s;
    struct picked p = {dt, {0}, sl, 0, 1, npydt_dtype_itemsize(dt), NULL, {0}};
    npydt_error err;
    int status = EXIT_OK;
    if (whole) {
        if (npydt_arrow_stream_open(r, NULL, &s, &err) != NPYDT_OK)
            return cli_report(name, &err);
    } else {
        if (p.itemsize && PICK_BYTES / p.itemsize > 1)
            p.rows = PICK_BYTES / p.itemsize;
        if (p.rows > sl->total && sl->total)
            p.rows = sl->total;
        p.buf = malloc(p.itemsize * (size_t)p.rows + 1);
        if (!p.buf)
            return cli_failure("out of memory");
        cursor_init(&p.cur, r, selection_end(sl));
        s = (struct ArrowArrayStream){picked_schema, picked_next, picked_error, picked_release,
                                      &p};
    }
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

/* npydt load --arrow and npydt append --arrow: the record batches of an
 * Arrow IPC stream (the library's reader, npydt_arrow_ipc_open_fd) into
 * a .npy file through npydt_writer (npydt_arrow_write_stream), with the
 * durability of the other formats: load writes a temporary file beside
 * OUT, renamed over it at the close (removed if a signal ends the
 * process); append writes after the records the
 * file holds and counts them at the close. Any error discards the writer,
 * which leaves no OUT (or OUT as it was) and the appended file as it was.
 * The dtype is the schema's (npydt_arrow_dtype) unless one is given,
 * which the library checks against the schema; the array is 1-d, or of
 * the shape the schema carries (npydt_arrow_shape) when the rows make
 * it. */
#include "cli/load/load.h"
#include "cli/common/jobs.h"
#include "cli/common/output.h"
#include "cli/common/report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The input stream, wrapped to draw the progress line after each batch. */
struct arrow_in {
    const char *name;                 /* in messages */
    int fd;
    struct ArrowArrayStream ipc;      /* the library's reader */
    struct ArrowArrayStream wrap;     /* what the writer reads */
    struct cli_progress progress;
    int regular;                      /* fd is a file: its offset is the progress */
    uint64_t rows;
    size_t itemsize;
    uint64_t want;                    /* the rows the shape holds, or UINT64_MAX */
};

static int wrap_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    struct arrow_in *in = s->private_data;
    return in->ipc.get_schema(&in->ipc, out);
}

static int wrap_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    struct arrow_in *in = s->private_data;
    int rc = in->ipc.get_next(&in->ipc, out);
    if (rc == 0 && out->release) {
        in->rows += (uint64_t)out->length;
        if (in->rows > in->want) {
            /* more rows than the shape holds: stop before writing them */
            out->release(out);
            return EINVAL;
        }
        /* a pipe's bytes read are the library's: the records' bytes
         * stand for them */
        off_t at = in->regular ? lseek(in->fd, 0, SEEK_CUR) : -1;
        cli_progress_update(&in->progress,
                            at >= 0 ? (uint64_t)at : in->rows * (uint64_t)in->itemsize);
    }
    return rc;
}

static const char *wrap_error(struct ArrowArrayStream *s)
{
    struct arrow_in *in = s->private_data;
    return in->ipc.get_last_error(&in->ipc);
}

static void wrap_release(struct ArrowArrayStream *s)
{
    s->release = NULL;
}

/* Report err of the input: its byte offset counts in the stream. */
static int report_input(const struct arrow_in *in, const npydt_error *err)
{
    if (err->offset == NPYDT_NO_OFFSET)
        return cli_report(in->name, err);
    npydt_error e = *err;
    e.offset = NPYDT_NO_OFFSET;
    int n = snprintf(e.message, sizeof e.message, "stream offset %zu: ", err->offset);
    size_t at = n > 0 && (size_t)n < sizeof e.message ? (size_t)n : 0;
    size_t len = strnlen(err->message, sizeof err->message);
    if (len > sizeof e.message - 1 - at)
        len = sizeof e.message - 1 - at;
    memcpy(e.message + at, err->message, len);
    e.message[at + len] = '\0';
    return cli_report(in->name, &e);
}

/* Open arg (NULL or "-": standard input) and read its schema. 0, or the
 * exit status after the error is reported (nothing then to close). */
/* The largest message (metadata and body) the stream is read with. */
#define ARROW_MESSAGE_MAX ((size_t)256 << 20)

static int input_open(struct arrow_in *in, const char *arg)
{
    memset(in, 0, sizeof *in);
    int std = !arg || strcmp(arg, "-") == 0;
    in->name = std ? "<stdin>" : arg;
    in->fd = std ? 0 : open(arg, O_RDONLY);
    if (in->fd < 0)
        return cli_fail(arg, NPYDT_E_IO, "cannot open: %s", TEXT_ERRNO(errno));
    npydt_error err;
    npydt_arrow_ipc_options ipc;
    npydt_arrow_ipc_options_init(&ipc);
    ipc.max_message_bytes = ARROW_MESSAGE_MAX;
    if (npydt_arrow_ipc_open_fd(in->fd, &ipc, &in->ipc, &err) != NPYDT_OK) {
        if (!std)
            close(in->fd);
        return report_input(in, &err);
    }
    struct stat st;
    in->regular = fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode);
    in->wrap.get_schema = wrap_schema;
    in->wrap.get_next = wrap_next;
    in->wrap.get_last_error = wrap_error;
    in->wrap.release = wrap_release;
    in->wrap.private_data = in;
    in->want = UINT64_MAX;
    cli_progress_start(&in->progress, "loading",
                       in->regular && st.st_size > 0 ? (uint64_t)st.st_size : 0, 0);
    return EXIT_OK;
}

/* err is npydt_arrow_dtype's refusal of schema without a string width:
 * when a width moves the refusal on (or ends it), the column refused was
 * text or bytes of variable length, and the message names the option. */
static void name_width_option(const struct ArrowSchema *schema,
                              const npydt_arrow_import_options *io, npydt_error *err)
{
    npydt_arrow_import_options with = *io;
    with.string_width = 1;
    npydt_dtype *dt = NULL;
    npydt_error again;
    npydt_status st = npydt_arrow_dtype(schema, NULL, &with, &dt, &again);
    npydt_dtype_free(dt);
    if (st != NPYDT_OK && strcmp(again.path, err->path) == 0 &&
        strcmp(again.message, err->message) == 0)
        return;
    static const char option[] = " with --string-width N";
    size_t len = strnlen(err->message, sizeof err->message);
    if (len > sizeof err->message - sizeof option)
        len = sizeof err->message - sizeof option;
    memcpy(err->message + len, option, sizeof option);
}

static void input_close(struct arrow_in *in)
{
    cli_progress_end(&in->progress);
    in->ipc.release(&in->ipc);
    if (in->fd != 0)
        close(in->fd);
}

/* The rows of in do not make the shape of its schema (shown). */
static int shape_refused(const struct arrow_in *in, const char *shown)
{
    if (in->rows > in->want)
        return cli_fail(in->name, NPYDT_E_SHAPE,
                        "the stream has more rows than the %llu of the shape %s of its "
                        "schema (npydt.shape)", (unsigned long long)in->want, shown);
    return cli_fail(in->name, NPYDT_E_SHAPE,
                    "the stream's %llu rows do not make the shape %s of its schema "
                    "(npydt.shape), which holds %llu",
                    (unsigned long long)in->rows, shown, (unsigned long long)in->want);
}

/* Records converted from the batches, a chunk of about CHUNK_BYTES (one
 * record at least) at a time, across batches: made by cli_ahead (a worker
 * with -j 2 or more), written in order by the calling thread. */
#define CHUNK_BYTES ((size_t)1 << 20)

struct chunk {
    unsigned char *buf;   /* most records */
    uint64_t n;           /* records in it */
};

struct convert {
    struct arrow_in *in;
    const npydt_dtype *dt;
    const npydt_arrow_import_options *io;
    struct ArrowSchema schema;
    struct ArrowArray batch;   /* the batch being converted */
    int64_t at;                /* its rows converted */
    uint64_t row0;             /* the stream's row of its first */
    uint64_t most;             /* records a chunk holds */
    bool ended;                /* the stream has no more batches */
    int rc;                    /* a failed get_next's errno, else 0 */
    npydt_error err;           /* what stopped the conversion */
    struct chunk slots[2];
};

/* cli_ahead's make: the next records of the stream into slot. */
static int make_chunk(void *ctx, void *slot)
{
    struct convert *cv = ctx;
    struct chunk *c = slot;
    size_t isz = npydt_dtype_itemsize(cv->dt);
    c->n = 0;
    if (!c->buf && !(c->buf = malloc((size_t)cv->most * isz + 1))) {
        cli_error(&cv->err, NPYDT_E_NOMEM, "%s", "out of memory");
        return -1;
    }
    while (c->n < cv->most && !cv->ended) {
        if (!cv->batch.release || cv->at >= cv->batch.length) {
            if (cv->batch.release) {
                cv->row0 += (uint64_t)cv->batch.length;
                cv->batch.release(&cv->batch);
            }
            memset(&cv->batch, 0, sizeof cv->batch);
            cv->at = 0;
            int rc = cv->in->wrap.get_next(&cv->in->wrap, &cv->batch);
            if (rc != 0) {
                const char *msg = cv->in->wrap.get_last_error(&cv->in->wrap);
                cv->rc = rc;
                cli_error(&cv->err,
                          rc == ENOMEM ? NPYDT_E_NOMEM : rc == EINVAL ? NPYDT_E_VALUE : NPYDT_E_IO,
                          "the Arrow stream's get_next failed (errno %d)%s%.160s", rc,
                          msg ? ": " : "", msg ? msg : "");
                return -1;
            }
            if (!cv->batch.release) {
                cv->ended = true;
                break;
            }
        }
        /* a batch of no rows (or a bad length) is checked all the same */
        uint64_t left = cv->batch.length > cv->at ? (uint64_t)(cv->batch.length - cv->at) : 0;
        uint64_t n = left < cv->most - c->n ? left : cv->most - c->n;
        if ((n > 0 || cv->at == 0) &&
            npydt_arrow_records(cv->dt, &cv->schema, &cv->batch, cv->at, (int64_t)n, cv->row0,
                                cv->io, c->buf + (size_t)c->n * isz, &cv->err) != NPYDT_OK)
            return -1;
        cv->at += (int64_t)n;
        c->n += n;
        if (n == 0)
            cv->at = cv->batch.length;   /* a batch of no rows: the next */
    }
    return c->n > 0 ? 1 : 0;
}

/* Every batch of in into w (jobs: cli_jobs_count's): 0, or the status
 * of the stream's failure, the conversion's or the write's (err). */
static npydt_status convert_all(struct arrow_in *in, npydt_writer *w,
                                const npydt_arrow_import_options *io, unsigned jobs,
                                npydt_error *err)
{
    struct convert cv;
    memset(&cv, 0, sizeof cv);
    cv.in = in;
    cv.dt = npydt_writer_dtype(w);
    cv.io = io;
    size_t isz = npydt_dtype_itemsize(cv.dt);
    /* records of no bytes take no memory: all of a batch's rows in one
     * call, however many (a tiny stream may declare 2^62 of them) */
    cv.most = isz ? (CHUNK_BYTES / isz ? CHUNK_BYTES / isz : 1) : (uint64_t)INT64_MAX;
    int rc = in->wrap.get_schema(&in->wrap, &cv.schema);
    if (rc != 0) {
        cli_error(err, rc == ENOMEM ? NPYDT_E_NOMEM : NPYDT_E_IO,
                  "the Arrow stream's get_schema failed (errno %d)", rc);
        return err->code;
    }
    /* the schema is checked before a batch is read */
    npydt_status st = npydt_arrow_records(cv.dt, &cv.schema, NULL, 0, 0, 0, io, NULL, err);
    if (st == NPYDT_OK) {
        struct cli_ahead ahead;
        cli_ahead_start(&ahead, jobs, make_chunk, &cv, cv.slots, 2, sizeof cv.slots[0]);
        void *slot;
        int r = 0;
        while (st == NPYDT_OK && (r = cli_ahead_next(&ahead, &slot)) == 1) {
            const struct chunk *c = slot;
            st = npydt_writer_write(w, c->buf, c->n, err);
        }
        cli_ahead_stop(&ahead);
        if (st == NPYDT_OK && r != 0) {
            *err = cv.err;
            st = err->code;
        }
    }
    if (cv.batch.release)
        cv.batch.release(&cv.batch);
    cv.schema.release(&cv.schema);
    free(cv.slots[0].buf);
    free(cv.slots[1].buf);
    return st;
}

/* Every batch of in into w, then w closed; w is gone whatever the
 * status. An error of the stream's bytes or of a value (its row and
 * column) is the input's, a failing write out's; rows that do not make
 * the shape (shown) are refused. */
static int write_all(struct arrow_in *in, npydt_writer *w, const char *out,
                     const npydt_arrow_import_options *io, const char *shown, unsigned jobs)
{
    npydt_error err, rerr;
    in->itemsize = (size_t)npydt_dtype_itemsize(npydt_writer_dtype(w));
    npydt_status st = convert_all(in, w, io, jobs, &err);
    /* checked before the flush, which would publish OUT */
    bool misfit = in->want != UINT64_MAX && (in->rows > in->want ||
                                             (st == NPYDT_OK && in->rows != in->want));
    if (st == NPYDT_OK && !misfit)
        st = npydt_writer_flush(w, &err);
    if (st != NPYDT_OK || misfit) {
        npydt_writer_discard(w, NULL);
        if (misfit)
            return shape_refused(in, shown);
        if (npydt_arrow_stream_error(&in->ipc, &rerr) == NPYDT_OK && rerr.code != NPYDT_OK)
            return report_input(in, &rerr);
        return cli_report(st == NPYDT_E_IO ? out : in->name, &err);
    }
    if (npydt_writer_close(w, &err) != NPYDT_OK)
        return cli_report(out, &err);
    return EXIT_OK;
}

/* The import options of load --arrow and append --arrow. */
static npydt_arrow_import_options import_options(const struct load_arrow_options *o)
{
    npydt_arrow_import_options io;
    npydt_arrow_import_options_init(&io);
    io.string_width = o->string_width;
    io.nulls_as_zero = o->nulls_as_zero;
    return io;
}

int load_arrow_new(const char *input, const char *out, const npydt_dtype *dtype,
                   const struct load_arrow_options *o)
{
    struct arrow_in in;
    int status = input_open(&in, input);
    if (status != EXIT_OK)
        return status;
    npydt_arrow_import_options io = import_options(o);
    npydt_error err;
    npydt_dtype *own = NULL;
    struct ArrowSchema schema;
    uint64_t shape[64] = {0};
    size_t ndim = 1;
    char shown[1400] = "";
    if (in.ipc.get_schema(&in.ipc, &schema) != 0) {
        npydt_arrow_stream_error(&in.ipc, &err);
        status = report_input(&in, &err);
    } else {
        if (!dtype && npydt_arrow_dtype(&schema, NULL, &io, &own, &err) != NPYDT_OK) {
            if (err.code == NPYDT_E_TYPE && !io.string_width)
                name_width_option(&schema, &io, &err);
            status = cli_report(in.name, &err);
        }
        npydt_status st = NPYDT_OK;
        if (status == EXIT_OK &&
            (st = npydt_arrow_shape(&schema, shape, 64, &ndim, &err)) == NPYDT_OK) {
            struct text_buf b = text_buf_fixed(shown, sizeof shown);
            text_shape_tuple(&b, shape, ndim);
            text_buf_terminate(&b);
            in.want = 1;
            for (size_t i = 0; i < ndim; i++)
                in.want *= shape[i];   /* checked by npydt_arrow_shape */
        } else if (st == NPYDT_E_NOT_FOUND) {
            ndim = 1;
        } else if (status == EXIT_OK) {
            status = cli_report(in.name, &err);
        }
        schema.release(&schema);
        if (!dtype)
            dtype = own;
    }
    /* a row must fit in one message's body: a wider record could never
     * arrive, and its writer would hold buffers of its size for nothing */
    if (status == EXIT_OK && npydt_dtype_itemsize(dtype) > ARROW_MESSAGE_MAX)
        status = cli_fail(in.name, NPYDT_E_LIMIT,
                          "a record of %zu bytes is larger than a message of the stream may "
                          "be (%zu bytes): no row of it can be read",
                          npydt_dtype_itemsize(dtype), ARROW_MESSAGE_MAX);
    npydt_writer *w = NULL;
    if (status == EXIT_OK) {
        npydt_writer_options wo;
        npydt_writer_options_init(&wo);
        wo.replace = 1;
        wo.no_sync = o->no_sync;
        /* its temporary file goes if a signal ends the process */
        cli_output_hold();
        if (npydt_writer_create_path(out, dtype, shape, ndim, &wo, &w, &err) != NPYDT_OK)
            status = cli_report(out, &err);
        cli_output_guard(npydt_writer_temp_path(w));
    }
    if (status == EXIT_OK)
        status = write_all(&in, w, out, &io, shown, cli_jobs_count(o->jobs, 0));
    cli_output_guard(NULL);
    npydt_dtype_free(own);
    input_close(&in);
    return status;
}

int load_arrow_append(const char *input, const char *file, const npydt_header *h,
                      const struct load_arrow_options *o)
{
    if (npydt_header_ndim(h) != 1)
        return cli_fail(file, NPYDT_E_SHAPE,
                        "append --arrow grows 1-d arrays only, and this one has %zu dimensions",
                        npydt_header_ndim(h));
    struct arrow_in in;
    int status = input_open(&in, input);
    if (status != EXIT_OK)
        return status;
    npydt_arrow_import_options io = import_options(o);
    npydt_writer_options wo;
    npydt_writer_options_init(&wo);
    wo.no_sync = o->no_sync;
    npydt_writer *w;
    npydt_error err;
    cli_output_hold();
    npydt_status st = npydt_writer_append_path(file, &wo, &w, &err);
    cli_output_guard(st == NPYDT_OK ? npydt_writer_temp_path(w) : NULL);
    if (st != NPYDT_OK)
        status = cli_report(file, &err);
    else
        status = write_all(&in, w, file, &io, "", cli_jobs_count(o->jobs, 0));
    cli_output_guard(NULL);
    input_close(&in);
    return status;
}

int load_arrow_width(const char *text, size_t *width)
{
    if (*text < '0' || *text > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v == 0 || v > (1u << 30))
        return -1;
    *width = (size_t)v;
    return 0;
}

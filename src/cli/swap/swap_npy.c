/* npydt swap of one array: the header np.save would write for the
 * swapped dtype (same shape and order), and a .npy file's records swapped
 * chunk by chunk into the output. */
#include "cli/swap/swap.h"
#include "cli/common/jobs.h"
#include "cli/common/limits.h"
#include "cli/common/mapped.h"
#include "cli/common/output.h"
#include "cli/common/progress.h"
#include "cli/common/report.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* fortran_order as np.save writes it for the loaded array: an array whose
 * C and Fortran layouts coincide (no data, or at most one dimension above
 * 1) is C-contiguous to NumPy and saved with fortran_order False. */
static int fortran_as_numpy(const npydt_header *h)
{
    if (!npydt_header_fortran_order(h) || npydt_header_count(h) == 0 ||
        npydt_dtype_itemsize(npydt_header_dtype(h)) == 0)
        return 0;
    size_t big = 0;
    for (size_t k = 0; k < npydt_header_ndim(h); k++)
        big += npydt_header_shape(h)[k] > 1;
    return big >= 2;
}

void swapper_free(struct swapper *s)
{
    free(s->hdr);
    npydt_swap_plan_free(s->plan);
    npydt_dtype_free(s->newdt);
    memset(s, 0, sizeof *s);
}

int swapper_init(struct swapper *s, const char *name, const npydt_header *h, npydt_order to)
{
    npydt_error err;
    const npydt_dtype *dt = npydt_header_dtype(h);
    memset(s, 0, sizeof *s);
    if (npydt_dtype_newbyteorder(dt, to, NULL, &s->newdt, &err) != NPYDT_OK ||
        npydt_swap_plan_new(dt, NULL, &s->plan, &err) != NPYDT_OK)
        return cli_report(name, &err);
    s->unchanged = npydt_dtype_equal(s->newdt, dt);
    return EXIT_OK;
}

size_t swap_header_len(const npydt_dtype *newdt, const npydt_header *h, npydt_error *err)
{
    return npydt_header_write(newdt, npydt_header_shape(h), npydt_header_ndim(h),
                              fortran_as_numpy(h), NULL, 0, err);
}

int swapper_header(struct swapper *s, const char *name, const npydt_header *h)
{
    npydt_error err;
    s->hlen = swap_header_len(s->newdt, h, &err);
    if (s->hlen == 0)
        return cli_report(name, &err);
    s->hdr = malloc(s->hlen);
    if (!s->hdr)
        return cli_failure("out of memory");
    npydt_header_write(s->newdt, npydt_header_shape(h), npydt_header_ndim(h), fortran_as_numpy(h),
                       s->hdr, s->hlen, &err);
    return EXIT_OK;
}

/* ---- a .npy file ------------------------------------------------------------------ */

/* One task: n records swapped into buf, the slot's own buffer; from is
 * where they are read, in place (a mapping) or buf itself (copied there by
 * swap_take). A read that failed is a task too, so that its error is
 * reported in order, after the records before it are written. */
struct swap_task {
    const unsigned char *from;
    unsigned char *buf;
    uint64_t n;
    int read_failed;
    npydt_error err;
};

/* The records of one array read through a reader, swapped by tasks of at
 * most per records and written in order. */
struct swap_run {
    const struct swapper *s;
    npydt_order to;
    size_t itemsize;
    uint64_t per;
    npydt_reader *r;
    int in_place;                 /* the reader's chunks stay valid: read where they are */
    const unsigned char *chunk;   /* what is left of the reader's chunk */
    uint64_t left;                /* records */
    int ended;
    npydt_output *out;
    const char *file, *target;
    struct cli_behind behind;
    struct cli_progress progress;
    uint64_t done;
};

static int swap_take(void *ctx, size_t i, void *slot)
{
    struct swap_run *run = ctx;
    struct swap_task *t = slot;
    (void)i;
    if (run->ended)
        return 0;
    t->read_failed = 0;
    t->n = 0;
    if (run->left == 0) {
        const void *chunk;
        size_t len;
        if (npydt_reader_next_chunk(run->r, &chunk, &len, &t->err) != NPYDT_OK) {
            run->ended = t->read_failed = 1;
            return 1;
        }
        if (len == 0) {
            run->ended = 1;
            return 0;
        }
        /* the reader's chunks hold whole records */
        run->chunk = chunk;
        run->left = len / run->itemsize;
    }
    t->n = run->left < run->per ? run->left : run->per;
    size_t bytes = (size_t)t->n * run->itemsize;
    if (run->in_place) {
        t->from = run->chunk;
    } else {
        /* valid only until the reader's next chunk: copied now */
        memcpy(t->buf, run->chunk, bytes);
        t->from = t->buf;
    }
    run->chunk += bytes;
    run->left -= t->n;
    return 1;
}

static int swap_work(void *ctx, void *slot)
{
    const struct swap_run *run = ctx;
    struct swap_task *t = slot;
    if (t->read_failed)
        return 0;
    return npydt_swap(run->s->plan, run->to, t->from, t->buf, t->n, &t->err) != NPYDT_OK;
}

static int swap_finish(void *ctx, size_t i, void *slot, int failed)
{
    struct swap_run *run = ctx;
    struct swap_task *t = slot;
    (void)i;
    if (t->read_failed)
        return cli_report(run->file, &t->err);
    if (failed)
        return cli_report(run->target, &t->err);
    size_t bytes = (size_t)t->n * run->itemsize;
    npydt_error err;
    if (npydt_output_write(run->out, t->buf, bytes, &err) != NPYDT_OK)
        return cli_report(run->target, &err);
    /* every task before this one is written, the later ones read further on */
    if (run->in_place)
        cli_behind(&run->behind, t->from + bytes);
    run->done += bytes;
    cli_progress_update(&run->progress, run->done);
    return 0;
}

/* Records a task swaps: SWAP_CHUNK_BYTES of them, less when that many
 * tasks in flight would hold more than SWAP_FLIGHT_BYTES; at least one. */
static uint64_t records_per_task(size_t itemsize, size_t nslots)
{
    size_t bytes = SWAP_FLIGHT_BYTES / nslots;
    if (bytes > SWAP_CHUNK_BYTES)
        bytes = SWAP_CHUNK_BYTES;
    return itemsize >= bytes ? 1 : bytes / itemsize;
}

/* Write the swapped file to the temporary path: the new header, then the
 * records as the reader gives them in stored order, swapped by tasks of
 * whole records (by jobs workers, cli_jobs_run) and written in order; 0
 * or an exit status. With --in-place, fd is the input, whose pages leave
 * the page cache behind the writing position. */
static int write_swapped(npydt_output *out, const char *file, const char *target,
                         const struct swapper *s, const struct swap_opts *opts, npydt_reader *r,
                         int fd)
{
    npydt_error err;
    if (npydt_output_write(out, s->hdr, s->hlen, &err) != NPYDT_OK)
        return cli_report(target, &err);
    const npydt_header *h = npydt_reader_header(r);
    uint64_t count = npydt_header_count(h);
    size_t itemsize = npydt_dtype_itemsize(npydt_header_dtype(h));
    if (count == 0 || itemsize == 0)
        return 0;
    uint64_t per = records_per_task(itemsize, 1);
    uint64_t tasks = count / per + (count % per != 0);
    unsigned jobs = cli_jobs_count(opts->jobs, tasks > SIZE_MAX ? SIZE_MAX : (size_t)tasks);
    size_t nslots = jobs > 1 ? 2 * (size_t)jobs : 1;
    per = records_per_task(itemsize, nslots);
    if (per > count)
        per = count;
    struct swap_task *slots = calloc(nslots, sizeof *slots);
    int rc = slots ? 0 : cli_failure("out of memory");
    for (size_t k = 0; k < nslots && rc == 0; k++)
        if (!(slots[k].buf = malloc((size_t)per * itemsize)))
            rc = cli_failure("out of memory");
    struct swap_run run = {.s = s, .to = opts->to, .itemsize = itemsize, .per = per, .r = r,
                           .in_place = npydt_reader_bytes(r) != NULL, .out = out, .file = file,
                           .target = target};
    if (rc == 0) {
        cli_behind_start(&run.behind, r);
        if (opts->in_place)
            cli_behind_uncache(&run.behind, fd, npydt_header_data_offset(h));
        static const struct cli_jobs_ops ops = {swap_take, swap_work, swap_finish};
        cli_progress_start(&run.progress, "swapping", count * itemsize, 0);
        rc = cli_jobs_run(jobs, slots, nslots, sizeof *slots, &ops, &run);
        cli_progress_end(&run.progress);
    }
    for (size_t k = 0; slots && k < nslots; k++)
        free(slots[k].buf);
    free(slots);
    return rc;
}

/* The data is read through the library's reader (mapped, else read in
 * chunks); --in-place needs no writable mapping: it too writes a temporary
 * file renamed over the input. The reader is opened on a descriptor kept
 * here (the input's, given to cli_behind_uncache with --in-place); one
 * that cannot be opened is reported as the library reports it. */
int swap_npy(const char *file, const char *target, const struct swap_opts *opts)
{
    npydt_reader *r;
    npydt_reader_options ropts;
    npydt_error err;
    cli_reader_options(&ropts);
    cli_reading(file);
    int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if ((fd >= 0 ? npydt_reader_open_fd(fd, &ropts, &r, &err)
                 : npydt_reader_open_path(file, &ropts, &r, &err)) != NPYDT_OK) {
        if (fd >= 0)
            close(fd);
        if (err.code == NPYDT_E_OBJECT)
            snprintf(err.message, sizeof err.message,
                     "object arrays hold pickled Python objects and cannot be swapped");
        return cli_report(file, &err);
    }
    struct cli_output o;
    struct swapper s = {0};
    const npydt_header *h = npydt_reader_header(r);
    int status = swapper_init(&s, file, h, opts->to);
    if (status == EXIT_OK && opts->in_place && s.unchanged) {
        /* nothing to swap: the file is left as it is, mtime included */
        if (!cli_quiet())
            cli_message("%s: already %s; nothing to do, the file is unchanged", file,
                        swap_order_name(opts->to));
        goto out;
    }
    /* a header past the limit is refused before anything is written */
    if (status == EXIT_OK)
        status = swapper_header(&s, file, h);
    if (status == EXIT_OK)
        status = cli_output_check(&swap_command, &o, file, target, opts->in_place);
    if (status == EXIT_OK)
        status = cli_output_check_space(&o, (uint64_t)s.hlen + npydt_header_data_bytes(h));
    if (status == EXIT_OK && (status = cli_output_open(&o)) == EXIT_OK) {
        status = write_swapped(o.out, file, target, &s, opts, r, fd);
        status = cli_output_close(&o, status);
    }
out:
    swapper_free(&s);
    npydt_reader_close(r);
    close(fd);
    return status;
}

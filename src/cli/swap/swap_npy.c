/* npydt swap of one array: the header np.save would write for the
 * swapped dtype (same shape and order), and a .npy file's records swapped
 * chunk by chunk into the output. */
#include "cli/swap/swap.h"
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

/* Records per chunk: SWAP_CHUNK_BYTES of whole records, at least one. */
static uint64_t records_per_chunk(uint64_t count, size_t itemsize)
{
    uint64_t per = itemsize >= SWAP_CHUNK_BYTES ? 1 : SWAP_CHUNK_BYTES / itemsize;
    return per > count ? count : per;
}

/* ---- a .npy file ------------------------------------------------------------------ */

/* Write the swapped file to the temporary path: the new header, then the
 * records as the reader gives them in stored order, swapped per chunk of
 * whole records into buf; 0 or an exit status. */
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
    uint64_t per = records_per_chunk(count, itemsize);
    unsigned char *buf = malloc((size_t)per * itemsize);
    if (!buf)
        return cli_failure("out of memory");
    int rc = 0;
    struct cli_progress progress;
    cli_progress_start(&progress, "swapping", count * itemsize, 0);
    uint64_t done = 0;
    struct cli_behind behind;
    cli_behind_start(&behind, r);
    if (opts->in_place)
        cli_behind_uncache(&behind, fd, npydt_header_data_offset(h));
    while (rc == 0) {
        const void *chunk;
        size_t len;
        if (npydt_reader_next_chunk(r, &chunk, &len, &err) != NPYDT_OK) {
            rc = cli_report(file, &err);
            break;
        }
        if (len == 0)
            break;
        /* the reader's chunks hold whole records */
        const unsigned char *data = chunk;
        uint64_t records = len / itemsize;
        for (uint64_t i = 0; i < records && rc == 0; i += per) {
            uint64_t k = records - i < per ? records - i : per;
            cli_behind(&behind, data + i * itemsize);
            if (npydt_swap(s->plan, opts->to, data + i * itemsize, buf, k, &err) != NPYDT_OK)
                rc = cli_report(target, &err);
            else if (npydt_output_write(out, buf, (size_t)(k * itemsize), &err) != NPYDT_OK)
                rc = cli_report(target, &err);
            done += k * itemsize;
            cli_progress_update(&progress, done);
        }
    }
    cli_progress_end(&progress);
    free(buf);
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

/* npydt swap of an archive: rewritten member by member through the
 * library's zip writer, as np.savez / np.savez_compressed would write the
 * swapped arrays. Each member keeps its name and its method (stored or
 * deflated), is streamed through a buffer of whole records, and a damaged
 * member (bad CRC, lying sizes) stops the run before the rename. */
#include "cli/swap/swap.h"
#include "cli/common/limits.h"
#include "cli/common/mapped.h"
#include "cli/common/output.h"
#include "cli/common/progress.h"
#include "cli/common/report.h"

#include <stdlib.h>
#include <string.h>

/* "ARCHIVE:MEMBER" for messages. */
static char *member_label(const char *archive, const char *member)
{
    size_t a = strlen(archive), m = strlen(member);
    char *s = a < SIZE_MAX - m - 2 ? malloc(a + m + 2) : NULL;
    if (s) {
        memcpy(s, archive, a);
        s[a] = ':';
        memcpy(s + a + 1, member, m + 1);
    }
    return s;
}

/* Report err under ARCHIVE:MEMBER (or ARCHIVE when out of memory). */
static int report_member(const char *archive, const char *member, const npydt_error *err)
{
    char *label = member_label(archive, member);
    int status = cli_report(label ? label : archive, err);
    free(label);
    return status;
}

/* What the headers of an archive's members tell before anything is
 * written. */
struct members_plan {
    size_t chunk;        /* the buffer of whole records for every member:
                          * SWAP_CHUNK_BYTES, or one record of the widest
                          * member when that is larger */
    int unchanged;       /* every member is already in the asked order */
    uint64_t stored;     /* bytes of the stored members, which keep their size;
                          * deflated ones cannot be known before deflating */
    uint64_t total;      /* declared bytes of every member, for progress */
    size_t too_long;     /* a member whose new header would be past the limit,
                          * or SIZE_MAX: refused unless nothing is written */
    npydt_error too_long_err;
};

/* Every member must be a .npy array that can be swapped: headers only. */
static int check_members(const char *file, const npydt_npz *z, npydt_order to,
                         struct members_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->chunk = SWAP_CHUNK_BYTES;
    plan->unchanged = 1;
    plan->too_long = SIZE_MAX;
    for (size_t i = 0; i < npydt_npz_count(z); i++) {
        const npydt_npz_member *m = npydt_npz_member_at(z, i);
        npydt_header *h;
        npydt_dtype *newdt = NULL;
        npydt_error err;
        if (npydt_npz_member_header(z, i, &h, &err) != NPYDT_OK)
            return report_member(file, m->name, &err);
        const npydt_dtype *dt = npydt_header_dtype(h);
        int object = npydt_dtype_has_object(dt);
        size_t itemsize = npydt_dtype_itemsize(dt);
        npydt_status st = object ? NPYDT_OK : npydt_dtype_newbyteorder(dt, to, NULL, &newdt, &err);
        if (newdt && !npydt_dtype_equal(newdt, dt))
            plan->unchanged = 0;
        if (newdt && plan->too_long == SIZE_MAX &&
            swap_header_len(newdt, h, &plan->too_long_err) == 0)
            plan->too_long = i;
        npydt_dtype_free(newdt);
        npydt_header_free(h);
        if (st != NPYDT_OK)
            return report_member(file, m->name, &err);
        if (itemsize > plan->chunk)
            plan->chunk = itemsize;
        if (m->method == NPYDT_NPZ_STORED)
            plan->stored += m->uncompressed_size;
        plan->total += m->uncompressed_size;
        if (object) {
            cli_error(&err, NPYDT_E_OBJECT, "%s",
                      "object arrays hold pickled Python objects and cannot be swapped; "
                      "nothing was written");
            return report_member(file, m->name, &err);
        }
    }
    return EXIT_OK;
}

/* Read exactly n bytes of the member (it is known to hold them). */
static npydt_status read_exact(npydt_npz_stream *st, void *buf, size_t n, npydt_error *err)
{
    for (size_t done = 0; done < n;) {
        size_t got;
        npydt_status s = npydt_npz_stream_read(st, (char *)buf + done, n - done, &got, err);
        if (s != NPYDT_OK)
            return s;
        if (got == 0)
            return cli_error(err, NPYDT_E_DATA, "%s", "the member ended early");
        done += got;
    }
    return NPYDT_OK;
}

/* Swap member i into the writer: the new header, then the data read
 * through the archive's stream in chunks of whole records, each swapped in
 * place; bytes after the data (NumPy ignores them) are read, so that the
 * stream checks the member's CRC, but not written. The stream, not
 * npydt_reader_open_member: the reader stops at the end of the data and
 * does not check a stored member's CRC, and an archive is only replaced
 * once every member was read whole and its CRC matched. */
static int swap_member(const char *file, const char *target, const npydt_npz *z, size_t i,
                       npydt_npz_writer *w, const struct cli_output *o, npydt_order to,
                       unsigned char *buf, size_t buf_size, struct cli_progress *progress,
                       uint64_t *progress_done)
{
    const npydt_npz_member *m = npydt_npz_member_at(z, i);
    npydt_header *h = NULL;
    npydt_npz_stream *st = NULL;
    struct swapper s = {0};
    npydt_error err;
    int status = EXIT_OK;
    if (npydt_npz_member_header(z, i, &h, &err) != NPYDT_OK ||
        npydt_npz_stream_open(z, i, &st, &err) != NPYDT_OK) {
        status = report_member(file, m->name, &err);
        goto out;
    }
    char *label = member_label(file, m->name);
    status = !label ? cli_failure("out of memory") : swapper_init(&s, label, h, to);
    if (status == EXIT_OK)
        status = swapper_header(&s, label, h);
    free(label);
    if (status != EXIT_OK)
        goto out;
    npydt_status begun = npydt_npz_writer_begin(w, m->name, m->method, &err);
    if (begun == NPYDT_E_ARG) {
        /* a name the writer does not write (absolute, a drive, controls):
         * the archive's, not the caller's mistake */
        cli_fail(file, err.code, "%s; nothing was written", err.message);
        status = EXIT_INVALID;
        goto out;
    }
    if (begun != NPYDT_OK || npydt_npz_writer_write(w, s.hdr, s.hlen, &err) != NPYDT_OK) {
        status = cli_output_failed(o, target, &err);
        goto out;
    }
    /* skip the old header */
    for (uint64_t left = npydt_header_data_offset(h); left > 0;) {
        size_t n = left < buf_size ? (size_t)left : buf_size;
        if (read_exact(st, buf, n, &err) != NPYDT_OK) {
            status = report_member(file, m->name, &err);
            goto out;
        }
        left -= n;
    }
    uint64_t count = npydt_header_count(h);
    size_t itemsize = npydt_dtype_itemsize(npydt_header_dtype(h));
    if (itemsize > 0) {
        uint64_t per = buf_size / itemsize;
        for (uint64_t done = 0; done < count;) {
            uint64_t k = count - done < per ? count - done : per;
            size_t n = (size_t)(k * itemsize);
            if (read_exact(st, buf, n, &err) != NPYDT_OK ||
                npydt_swap(s.plan, to, buf, buf, k, &err) != NPYDT_OK) {
                status = report_member(file, m->name, &err);
                goto out;
            }
            if (npydt_npz_writer_write(w, buf, n, &err) != NPYDT_OK) {
                status = cli_output_failed(o, target, &err);
                goto out;
            }
            done += k;
            *progress_done += n;
            cli_progress_update(progress, *progress_done);
        }
    }
    /* the rest, to the end of the member: the stream checks the CRC there */
    for (;;) {
        size_t got;
        if (npydt_npz_stream_read(st, buf, buf_size, &got, &err) != NPYDT_OK) {
            status = report_member(file, m->name, &err);
            goto out;
        }
        if (got == 0)
            break;
    }
    if (npydt_npz_writer_end(w, &err) != NPYDT_OK)
        status = cli_output_failed(o, target, &err);
out:
    swapper_free(&s);
    npydt_npz_stream_close(st);
    npydt_header_free(h);
    return status;
}

int swap_npz(const char *file, const char *target, const struct swap_opts *opts)
{
    npydt_npz *z;
    npydt_npz_options zopts;
    npydt_error err;
    cli_input_limits(&zopts);
    cli_reading(file);
    if (npydt_npz_open_path(file, &zopts, &z, &err) != NPYDT_OK)
        return cli_report(file, &err);
    struct cli_output o;
    struct members_plan plan;
    unsigned char *buf = NULL;
    npydt_npz_writer *w = NULL;
    int status = check_members(file, z, opts->to, &plan);
    if (status == EXIT_OK && opts->in_place && plan.unchanged) {
        /* nothing to swap: the archive is left as it is, mtime included */
        if (!cli_quiet())
            cli_message("%s: every member is already %s; nothing to do, the file is unchanged",
                        file, swap_order_name(opts->to));
        goto out;
    }
    if (status == EXIT_OK && plan.too_long != SIZE_MAX)
        status = report_member(file, npydt_npz_member_at(z, plan.too_long)->name,
                               &plan.too_long_err);
    if (status == EXIT_OK)
        status = cli_output_check(&swap_command, &o, file, target, opts->in_place);
    if (status == EXIT_OK)
        status = cli_output_check_space(&o, plan.stored);
    if (status == EXIT_OK && !(buf = malloc(plan.chunk)))
        status = cli_failure("out of memory");
    if (status != EXIT_OK || (status = cli_output_open(&o)) != EXIT_OK)
        goto out;
    npydt_npz_sink sink;
    npydt_output_sink(o.out, &sink);
    struct cli_progress progress;
    uint64_t done = 0;
    cli_progress_start(&progress, "swapping", plan.total, 0);
    if (npydt_npz_writer_new(&sink, NULL, &w, &err) != NPYDT_OK)
        status = cli_report(target, &err);
    for (size_t i = 0; status == EXIT_OK && i < npydt_npz_count(z); i++)
        status = swap_member(file, target, z, i, w, &o, opts->to, buf, plan.chunk, &progress,
                             &done);
    if (status == EXIT_OK && npydt_npz_writer_finish(w, NULL, &err) != NPYDT_OK)
        status = cli_output_failed(&o, target, &err);
    cli_progress_end(&progress);
    status = cli_output_close(&o, status);
out:
    npydt_npz_writer_free(w);
    free(buf);
    npydt_npz_close(z);
    return status;
}

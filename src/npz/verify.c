/* Verification: an array's bytes against what its header promises, and
 * for an archive member every byte against its CRC-32, so that "valid"
 * means what np.load means by it. */
#include "header/header.h"
#include "npz/zip.h"

#include <unistd.h>

/* Fill r for a header h over size bytes that hold at least what it
 * promises (checked by whoever parsed h). */
static void report_sizes(const npydt_header *h, uint64_t size, npydt_verify_report *r)
{
    memset(r, 0, sizeof *r);
    r->size = size;
    r->expected = size;
    if (!npydt_dtype_has_object(npydt_header_dtype(h))) {
        /* no overflow: the header's parse checked both against size */
        r->expected = npydt_header_data_offset(h) + npydt_header_data_bytes(h);
        r->trailing = size - r->expected;
    }
}

/* The common end: hand h over (or free it), fill out on success. */
static npydt_status done(npydt_status st, npydt_header *h, npydt_header **header)
{
    if (header && st == NPYDT_OK)
        *header = h;
    else
        npydt_header_free(h);
    return st;
}

/* Check the arguments common to every verification. */
static npydt_status begin(npydt_header **header, npydt_verify_report *out, npydt_error *err)
{
    error_clear(err);
    if (header)
        *header = NULL;
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    return NPYDT_OK;
}

npydt_status npydt_npz_member_verify_report(const npydt_npz *z, size_t i, int read_data,
                                            npydt_header **header, npydt_verify_report *out,
                                            npydt_error *err)
{
    npydt_status st = begin(header, out, err);
    if (st != NPYDT_OK)
        return st;
    npydt_header *h = NULL;
    if ((st = npydt_npz_member_header(z, i, &h, err)) != NPYDT_OK)
        return st;
    if (read_data)
        st = npydt_npz_member_verify(z, i, err);
    if (st == NPYDT_OK) {
        const npydt_npz_member *m = &z->members[i];
        report_sizes(h, m->uncompressed_size, out);
        out->crc32_checked = read_data != 0;
        out->crc32 = read_data ? m->crc32 : 0;
    }
    return done(st, h, header);
}

npydt_status npydt_verify_buffer(const void *buf, size_t len, const npydt_options *opts,
                                 npydt_header **header, npydt_verify_report *out,
                                 npydt_error *err)
{
    npydt_status st = begin(header, out, err);
    if (st != NPYDT_OK)
        return st;
    npydt_header *h = NULL;
    if ((st = npydt_parse_buffer(buf, len, opts, &h, err)) != NPYDT_OK)
        return st;
    report_sizes(h, len, out);
    return done(st, h, header);
}

npydt_status npydt_verify_fd(int fd, const npydt_options *opts, npydt_header **header,
                             npydt_verify_report *out, npydt_error *err)
{
    npydt_status st = begin(header, out, err);
    if (st != NPYDT_OK)
        return st;
    npydt_header *h = NULL;
    uint64_t size = 0;
    /* the parse's one fstat gives the size the data is counted in */
    if ((st = header_parse_fd(fd, opts, &h, &size, err)) == NPYDT_OK)
        report_sizes(h, size, out);
    return done(st, h, header);
}

npydt_status npydt_verify_head(int fd, uint64_t size, const void *head, size_t head_len,
                               const npydt_options *opts, npydt_header **header,
                               npydt_verify_report *out, npydt_error *err)
{
    npydt_status st = begin(header, out, err);
    if (st != NPYDT_OK)
        return st;
    npydt_header *h = NULL;
    if ((st = header_parse_head(fd, size, head, head_len, opts, &h, err)) == NPYDT_OK)
        report_sizes(h, size, out);
    return done(st, h, header);
}

npydt_status npydt_verify_path(const char *path, const npydt_options *opts,
                               npydt_header **header, npydt_verify_report *out,
                               npydt_error *err)
{
    npydt_status st = begin(header, out, err);
    if (st != NPYDT_OK)
        return st;
    int fd;
    if ((st = io_open(path, 0, &fd, err)) != NPYDT_OK)
        return st;
    st = npydt_verify_fd(fd, opts, header, out, err);
    close(fd);
    return st;
}

npydt_status npydt_verify_pipe(int fd, const void *head, size_t head_len,
                               const npydt_options *opts, npydt_header **header,
                               npydt_verify_report *out, npydt_error *err)
{
    npydt_status st = begin(header, out, err);
    if (st != NPYDT_OK)
        return st;
    npydt_options defaults;
    opts = options_or_default(opts, &defaults);
    npydt_header *h = NULL;
    if ((st = npydt_header_parse(head, head_len, opts, &h, err)) != NPYDT_OK)
        return st;
    enum { STEP = 64 << 10 };   /* a pipe's buffer: one read(2) at most */
    unsigned char *buf = alloc_bytes(opts->allocator, STEP);
    if (!buf)
        return done(set_nomem(err), h, header);
    uint64_t size = head_len;
    for (size_t got = STEP; st == NPYDT_OK && got == STEP;) {
        st = io_read(fd, buf, STEP, &got, err);
        size += got;
    }
    free_bytes(opts->allocator, buf, STEP);
    if (st == NPYDT_OK)
        st = npydt_header_check_data(h, size - npydt_header_data_offset(h), err);
    if (st == NPYDT_OK)
        report_sizes(h, size, out);
    return done(st, h, header);
}

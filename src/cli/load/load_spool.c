/* Records collected in an unnamed temporary file while the input is read,
 * so that nothing reaches the destination unless every line was valid
 * (and memory stays bounded however long the input is). Everything that
 * can fail is done before the destination is touched, but reading the
 * records back block by block. */
#include "cli/load/load.h"
#include "cli/common/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Records handed to the writer per call. */
#define DRAIN_BYTES ((size_t)1 << 20)
/* The temporary file's stdio buffer: a few large writes, not one per 4 KiB
 * (memory taken fresh costs a page fault per page, so not more). Given to
 * setvbuf: glibc sizes a buffer it allocates itself by the file's block
 * size, whatever size is asked for. */
#define SPOOL_BUFFER ((size_t)1 << 18)

int load_spool_open(struct load_spool *s, size_t itemsize)
{
    memset(s, 0, sizeof *s);
    s->itemsize = itemsize;
    if (!(s->iobuf = malloc(SPOOL_BUFFER)))
        return cli_failure("out of memory");
    s->f = tmpfile();
    if (!s->f)
        return cli_failure("cannot create a temporary file: %s", strerror(errno));
    setvbuf(s->f, s->iobuf, _IOFBF, SPOOL_BUFFER);   /* before any I/O: cannot fail */
    return EXIT_OK;
}

npydt_status load_spool_record(void *ctx, const unsigned char *bytes, npydt_error *err)
{
    struct load_spool *s = ctx;
    if (s->itemsize && fwrite(bytes, s->itemsize, 1, s->f) != 1)
        return cli_error(err, NPYDT_E_IO, "cannot write the temporary file: %s", strerror(errno));
    s->count++;
    return NPYDT_OK;
}

static npydt_status read_back(struct load_spool *s, size_t n, npydt_error *err)
{
    if (n && fread(s->block, s->itemsize, n, s->f) != n)
        return cli_error(err, NPYDT_E_IO, "cannot read the temporary file");
    return NPYDT_OK;
}

npydt_status load_spool_finish(struct load_spool *s, int whole, npydt_error *err)
{
    if (fflush(s->f) != 0)
        return cli_error(err, NPYDT_E_IO, "cannot write the temporary file: %s", strerror(errno));
    rewind(s->f);
    size_t per;
    if (whole) {
        if (s->itemsize && s->count > SIZE_MAX / s->itemsize)
            return cli_error(err, NPYDT_E_OVERFLOW, "too many records to reorder in memory");
        per = (size_t)s->count;
    } else {
        per = s->itemsize && DRAIN_BYTES / s->itemsize ? DRAIN_BYTES / s->itemsize : 1;
        if (per > s->count)
            per = (size_t)s->count;
    }
    s->block_records = per;
    size_t bytes = per * s->itemsize;   /* at most count * itemsize, checked above or a block */
    s->block = malloc(bytes ? bytes : 1);
    if (!s->block)
        return cli_error(err, NPYDT_E_NOMEM, "out of memory");
    return whole ? read_back(s, per, err) : NPYDT_OK;
}

npydt_status load_spool_drain(struct load_spool *s, npydt_writer *w, npydt_error *err)
{
    npydt_status st = NPYDT_OK;
    if (s->itemsize == 0) {
        /* records of no bytes: only their count */
        for (uint64_t i = 0; i < s->count && st == NPYDT_OK; i++)
            st = npydt_writer_write(w, s->block, 1, err);
        return st;
    }
    for (uint64_t left = s->count; left > 0 && st == NPYDT_OK;) {
        size_t n = left < s->block_records ? (size_t)left : s->block_records;
        if ((st = read_back(s, n, err)) == NPYDT_OK)
            st = npydt_writer_write(w, s->block, n, err);
        left -= n;
    }
    return st;
}

void load_spool_close(struct load_spool *s)
{
    if (s->f)
        fclose(s->f);
    free(s->iobuf);
    free(s->block);
    memset(s, 0, sizeof *s);
}

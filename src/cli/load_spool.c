/* Records collected in an unnamed temporary file while the input is read,
 * so that nothing reaches the destination unless every line was valid
 * (and memory stays bounded however long the input is). */
#include "load.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Records handed to the writer per call. */
#define DRAIN_BYTES ((size_t)1 << 20)
/* The temporary file's stdio buffer: a few large writes, not one per 4 KiB
 * (memory taken fresh costs a page fault per page, so not more). */
#define SPOOL_BUFFER ((size_t)1 << 18)

int load_spool_open(struct load_spool *s, size_t itemsize)
{
    memset(s, 0, sizeof *s);
    s->itemsize = itemsize;
    s->f = tmpfile();
    if (!s->f)
        return cli_usage_error("cannot create a temporary file: %s", strerror(errno));
    setvbuf(s->f, NULL, _IOFBF, SPOOL_BUFFER);   /* stdio's own buffer if this fails */
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

static npydt_status rewind_spool(struct load_spool *s, npydt_error *err)
{
    if (fflush(s->f) != 0 || fseek(s->f, 0, SEEK_SET) != 0)
        return cli_error(err, NPYDT_E_IO, "cannot read the temporary file: %s", strerror(errno));
    return NPYDT_OK;
}

npydt_status load_spool_drain(struct load_spool *s, npydt_writer *w, npydt_error *err)
{
    npydt_status st = rewind_spool(s, err);
    if (st != NPYDT_OK)
        return st;
    if (s->itemsize == 0) {
        /* records of no bytes: only their count */
        static const unsigned char none[1];
        for (uint64_t i = 0; i < s->count && st == NPYDT_OK; i++)
            st = npydt_writer_write(w, none, 1, err);
        return st;
    }
    size_t per = DRAIN_BYTES / s->itemsize ? DRAIN_BYTES / s->itemsize : 1;
    unsigned char *buf = malloc(per * s->itemsize);
    if (!buf)
        return cli_error(err, NPYDT_E_NOMEM, "out of memory");
    for (uint64_t left = s->count; left > 0 && st == NPYDT_OK;) {
        size_t want = left < per ? (size_t)left : per;
        size_t got = fread(buf, s->itemsize, want, s->f);
        if (got != want)
            st = cli_error(err, NPYDT_E_IO, "cannot read the temporary file");
        else
            st = npydt_writer_write(w, buf, got, err);
        left -= got;
    }
    free(buf);
    return st;
}

npydt_status load_spool_slurp(struct load_spool *s, unsigned char **out, npydt_error *err)
{
    *out = NULL;
    npydt_status st = rewind_spool(s, err);
    if (st != NPYDT_OK)
        return st;
    if (s->itemsize && s->count > SIZE_MAX / s->itemsize)
        return cli_error(err, NPYDT_E_OVERFLOW, "too many records to reorder in memory");
    size_t bytes = (size_t)s->count * s->itemsize;
    unsigned char *buf = malloc(bytes ? bytes : 1);
    if (!buf)
        return cli_error(err, NPYDT_E_NOMEM, "out of memory");
    if (bytes && fread(buf, 1, bytes, s->f) != bytes) {
        free(buf);
        return cli_error(err, NPYDT_E_IO, "cannot read the temporary file");
    }
    *out = buf;
    return NPYDT_OK;
}

void load_spool_close(struct load_spool *s)
{
    if (s->f)
        fclose(s->f);
    memset(s, 0, sizeof *s);
}

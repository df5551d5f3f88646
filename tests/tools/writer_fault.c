/* Drives npydt_writer through one scenario for tests/check_writer_faults.sh,
 * which runs it under the fault injector (tests/tools/failinject.c) to make
 * the writer's system calls fail. Records are '<i4' values 0, 1, 2, ...;
 * the writer syncs (no no_sync), so every fsync of the writer runs.
 *
 *   writer_fault create OUT    new file (linked at creation): 3 records,
 *                              flush, 2 more, close
 *   writer_fault replace OUT   the same, renamed over OUT at the first flush
 *   writer_fault append OUT    2 records appended to the '<i4' file OUT,
 *                              flush, 1 more, close
 *   writer_fault scalar OUT    a 0-d array: its one record, close
 *   writer_fault rows OUT      shape (n, 2): 3 records, close (the half row
 *                              is cut off)
 *   writer_fault block OUT     a 16-byte buffer: 4 records fill it, a 5th
 *                              drains it, then a block of 8 is written past
 *                              it (after the 5th), close
 *
 * Prints "OK" and exits 0, or "STEP STATUS: MESSAGE" (STEP: create,
 * append, write, flush or close) and exits 1 when a call fails. */
#include "npydt.h"

#include <stdio.h>
#include <string.h>

static int failed(const char *step, const npydt_error *err)
{
    printf("%s %s: %s\n", step, npydt_status_name(err->code), err->message);
    return 1;
}

static void records(unsigned char *out, uint64_t from, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        for (int k = 0; k < 4; k++)
            out[4 * i + k] = (unsigned char)((from + i) >> (8 * k));
}

/* Write n records from index from; 1 on failure (printed). */
static int put(npydt_writer *w, uint64_t from, uint64_t n)
{
    unsigned char buf[4 * 16];
    npydt_error err;
    records(buf, from, n);
    return npydt_writer_write(w, buf, n, &err) == NPYDT_OK ? 0 : failed("write", &err);
}

static int flush(npydt_writer *w)
{
    npydt_error err;
    return npydt_writer_flush(w, &err) == NPYDT_OK ? 0 : failed("flush", &err);
}

/* Close w; rc is what the scenario gave so far (w is closed either way). */
static int finish(npydt_writer *w, int rc)
{
    npydt_error err;
    if (npydt_writer_close(w, &err) != NPYDT_OK && rc == 0)
        rc = failed("close", &err);
    if (rc == 0)
        printf("OK\n");
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: writer_fault create|replace|append|scalar|rows|block OUT\n");
        return 2;
    }
    const char *what = argv[1], *out = argv[2];
    npydt_error err;
    npydt_dtype *dt;
    if (npydt_header_parse_descr("'<i4'", 5, NULL, &dt, &err) != NPYDT_OK)
        return failed("dtype", &err);
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.replace = strcmp(what, "replace") == 0;
    if (strcmp(what, "block") == 0)
        opts.buffer_bytes = 16;
    npydt_writer *w;
    uint64_t shape[2] = {0, 2};
    size_t ndim = strcmp(what, "scalar") == 0 ? 0 : strcmp(what, "rows") == 0 ? 2 : 1;
    int rc;
    if (strcmp(what, "append") == 0) {
        if (npydt_writer_append_path(out, &opts, &w, &err) != NPYDT_OK)
            rc = failed("append", &err);
        else
            rc = finish(w, put(w, npydt_writer_count(w), 2) || flush(w) ||
                               put(w, npydt_writer_count(w), 1));
    } else if (npydt_writer_create_path(out, dt, shape, ndim, &opts, &w, &err) != NPYDT_OK) {
        rc = failed("create", &err);
    } else if (ndim == 0) {
        rc = finish(w, put(w, 0, 1));
    } else if (ndim == 2) {
        rc = finish(w, put(w, 0, 3));
    } else if (opts.buffer_bytes == 16) {
        rc = finish(w, put(w, 0, 2) || put(w, 2, 2) || put(w, 4, 1) || put(w, 5, 8));
    } else {
        rc = finish(w, put(w, 0, 3) || flush(w) || put(w, 3, 2));
    }
    npydt_dtype_free(dt);
    return rc;
}

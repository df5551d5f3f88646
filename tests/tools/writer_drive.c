/* Drives npydt_writer for the differential test against NumPy
 * (tests/writer_differential.py): rewrites the records of a file NumPy
 * saved through the writer, so that the two files can be compared byte for
 * byte.
 *
 *   writer_drive npy REF.npy OUT.npy SEED [SPLIT]
 *       records of REF in chunks of random sizes (seeded), flushing at
 *       random points; with SPLIT, the first SPLIT rows are written by one
 *       writer and the rest appended by a second (npydt_writer_append_path)
 *   writer_drive npz OUT.npz stored|deflated SEED NAME REF.npy [NAME REF.npy ...]
 *       one member per REF, written with npydt_writer_create_member
 * Prints "ERROR <status>: <message>" and exits 1 when a call fails. */
#include "npydt.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng;

static uint64_t next_random(void)
{
    rng = rng * 6364136223846793005u + 1442695040888963407u;
    return rng >> 33;
}

static int fail(const char *what, const npydt_error *err)
{
    printf("ERROR %s: %s: %s\n", what, npydt_status_name(err->code), err->message);
    return 1;
}

/* Write n records of itemsize bytes from data in chunks of random sizes,
 * flushing now and then. */
static int write_chunks(npydt_writer *w, const unsigned char *data, uint64_t n, size_t itemsize)
{
    npydt_error err;
    uint64_t done = 0;
    while (done < n) {
        uint64_t k = 1 + next_random() % 7;
        if (next_random() % 4 == 0)
            k = 1 + next_random() % 300;
        if (k > n - done)
            k = n - done;
        if (next_random() % 3 == 0 && k == 1) {
            memcpy(npydt_writer_record(w), data + done * itemsize, itemsize);
            if (npydt_writer_commit(w, &err) != NPYDT_OK)
                return fail("commit", &err);
        } else if (npydt_writer_write(w, data + done * itemsize, k, &err) != NPYDT_OK) {
            return fail("write", &err);
        }
        done += k;
        if (next_random() % 5 == 0 && npydt_writer_flush(w, &err) != NPYDT_OK)
            return fail("flush", &err);
    }
    return 0;
}

/* The reference array at path, all its data in memory. */
static npydt_status open_in_memory(const char *path, npydt_reader **out, npydt_error *err)
{
    npydt_reader_options opts;
    npydt_reader_options_init(&opts);
    opts.in_memory = 1;
    return npydt_reader_open_path(path, &opts, out, err);
}

static int drive_npy(const char *ref, const char *out, int split_given, uint64_t split)
{
    npydt_error err;
    npydt_reader *f;
    if (open_in_memory(ref, &f, &err) != NPYDT_OK)
        return fail("open", &err);
    const npydt_header *h = npydt_reader_header(f);
    const npydt_dtype *dt = npydt_header_dtype(h);
    size_t ndim = npydt_header_ndim(h);
    const uint64_t *shape = npydt_header_shape(h);
    int fortran = npydt_header_fortran_order(h);
    size_t itemsize = npydt_dtype_itemsize(dt);
    uint64_t count = npydt_header_count(h);
    uint64_t row = 1;
    for (size_t k = 0; k < ndim; k++)
        if (k != (fortran ? ndim - 1 : 0))
            row *= shape[k];
    const unsigned char *data = npydt_reader_bytes(f);
    npydt_writer_options opts;
    npydt_writer_options_init(&opts);
    opts.fortran_order = fortran;
    opts.no_sync = 1;
    opts.buffer_bytes = 1 + next_random() % 4096;
    npydt_writer *w;
    int rc = 0;
    uint64_t first = split_given && ndim ? split * row : count;
    if (first > count)
        first = count;
    if (npydt_writer_create_path(out, dt, shape, ndim, &opts, &w, &err) != NPYDT_OK) {
        rc = fail("create", &err);
    } else {
        rc = write_chunks(w, data, first, itemsize);
        if (npydt_writer_close(w, &err) != NPYDT_OK && rc == 0)
            rc = fail("close", &err);
    }
    if (rc == 0 && first < count) {
        if (npydt_writer_append_path(out, &opts, &w, &err) != NPYDT_OK) {
            rc = fail("append", &err);
        } else {
            rc = write_chunks(w, data + first * itemsize, count - first, itemsize);
            if (npydt_writer_close(w, &err) != NPYDT_OK && rc == 0)
                rc = fail("close", &err);
        }
    }
    npydt_reader_close(f);
    return rc;
}

/* The archive goes to a file through write and pwrite, as np.savez
 * writes to a file it can seek in. */
static int sink_write(void *ctx, const void *buf, size_t len)
{
    return write(*(int *)ctx, buf, len) == (ssize_t)len ? 0 : -1;
}

static int sink_pwrite(void *ctx, const void *buf, size_t len, uint64_t offset)
{
    return pwrite(*(int *)ctx, buf, len, (off_t)offset) == (ssize_t)len ? 0 : -1;
}

static int drive_npz(const char *out, npydt_npz_method method, int nrefs, char **refs)
{
    npydt_error err;
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror(out);
        return 1;
    }
    npydt_npz_sink sink = {sink_write, sink_pwrite, &fd};
    npydt_npz_writer *z;
    int rc = 0;
    if (npydt_npz_writer_new(&sink, NULL, &z, &err) != NPYDT_OK) {
        close(fd);
        return fail("npz", &err);
    }
    for (int i = 0; i + 1 < nrefs && rc == 0; i += 2) {
        npydt_reader *f;
        if (open_in_memory(refs[i + 1], &f, &err) != NPYDT_OK) {
            rc = fail("open", &err);
            break;
        }
        const npydt_header *h = npydt_reader_header(f);
        npydt_writer_options opts;
        npydt_writer_options_init(&opts);
        opts.fortran_order = npydt_header_fortran_order(h);
        opts.buffer_bytes = 1 + next_random() % 4096;
        npydt_writer *w;
        if (npydt_writer_create_member(z, refs[i], method, npydt_header_dtype(h),
                                       npydt_header_shape(h), npydt_header_ndim(h), &opts, &w,
                                       &err) != NPYDT_OK) {
            rc = fail("member", &err);
        } else {
            rc = write_chunks(w, npydt_reader_bytes(f), npydt_header_count(h),
                              npydt_dtype_itemsize(npydt_header_dtype(h)));
            if (npydt_writer_close(w, &err) != NPYDT_OK && rc == 0)
                rc = fail("close", &err);
        }
        npydt_reader_close(f);
    }
    if (rc == 0 && npydt_npz_writer_finish(z, NULL, &err) != NPYDT_OK)
        rc = fail("finish", &err);
    npydt_npz_writer_free(z);
    close(fd);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && strcmp(argv[1], "npy") == 0) {
        rng = strtoull(argv[4], NULL, 10);
        return drive_npy(argv[2], argv[3], argc > 5, argc > 5 ? strtoull(argv[5], NULL, 10) : 0);
    }
    if (argc >= 5 && strcmp(argv[1], "npz") == 0) {
        rng = strtoull(argv[4], NULL, 10);
        npydt_npz_method m = strcmp(argv[3], "deflated") == 0 ? NPYDT_NPZ_DEFLATED
                                                               : NPYDT_NPZ_STORED;
        return drive_npz(argv[2], m, argc - 5, argv + 5);
    }
    fprintf(stderr, "usage: writer_drive npy REF OUT SEED [SPLIT] | "
                    "writer_drive npz OUT stored|deflated SEED NAME REF...\n");
    return 2;
}

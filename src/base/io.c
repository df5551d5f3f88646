/* File access shared by the .npy, data and archive readers: opening,
 * reading at an offset, and a file's bytes mapped or else read. */
#include "base/base.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

npydt_status io_open(const char *path, int writable, int *fd, npydt_error *err)
{
    if (!path)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "path is NULL");
    /* O_NONBLOCK: a FIFO must not block the open; reads of regular files
     * ignore it, and callers refuse anything but regular files */
    *fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NONBLOCK);
    if (*fd < 0)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL, "cannot open: %s",
                         TEXT_ERRNO(errno));
    return NPYDT_OK;
}

bool io_looks_like_zip(const void *buf, size_t len)
{
    const unsigned char *b = buf;
    return b && len >= 4 && b[0] == 'P' && b[1] == 'K' &&
           ((b[2] == 3 && b[3] == 4) || (b[2] == 5 && b[3] == 6) || (b[2] == 6 && b[3] == 6));
}

/* n bytes of fd into buf, retrying short reads and EINTR: read at off
 * (pread) when at is set, else in sequence (read); *got < n only at the
 * end of the input. */
static npydt_status read_retrying(int fd, void *buf, size_t n, bool at, uint64_t off,
                                  size_t *got, npydt_error *err)
{
    size_t done = 0;
    while (done < n) {
        char *p = (char *)buf + done;
        ssize_t r = at ? pread(fd, p, n - done, (off_t)(off + done)) : read(fd, p, n - done);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL, "read failed: %s",
                             TEXT_ERRNO(errno));
        }
        if (r == 0)
            break;
        done += (size_t)r;
    }
    *got = done;
    return NPYDT_OK;
}

npydt_status io_pread(int fd, void *buf, size_t n, uint64_t off, size_t *got, npydt_error *err)
{
    return read_retrying(fd, buf, n, true, off, got, err);
}

npydt_status io_read(int fd, void *buf, size_t n, size_t *got, npydt_error *err)
{
    return read_retrying(fd, buf, n, false, 0, got, err);
}

npydt_status io_file_size(int fd, uint64_t *size, npydt_error *err)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL, "cannot stat: %s",
                         TEXT_ERRNO(errno));
    if (!S_ISREG(sb.st_mode))
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL, "not a regular file");
    *size = (uint64_t)sb.st_size;
    return NPYDT_OK;
}

/* Where the bytes of an empty region point: never read, never written. */
static const unsigned char no_bytes[1];

npydt_status io_map_or_read(int fd, uint64_t off, uint64_t len, unsigned flags,
                            const npydt_allocator *a, struct io_region *r, npydt_error *err)
{
    memset(r, 0, sizeof *r);
    r->alloc = a;
    uint64_t end = 0;
    if (len != IO_REST && (!ck_add(off, len, &end) || end > (uint64_t)INT64_MAX))
        return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "the data lies beyond the largest file offset");
    /* the size as the file is now: a mapping beyond its end faults when
     * touched, and a copy is never larger than the file */
    uint64_t size;
    npydt_status st = io_file_size(fd, &size, err);
    if (st != NPYDT_OK)
        return st;
    if (len == IO_REST) {
        end = size > off ? size : off;
        len = end - off;
    }
    if (size < end)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "the file shrank while it was read");
    r->len = len;
    if (len == 0) {
        r->bytes = no_bytes;
        return NPYDT_OK;
    }
    bool write = (flags & IO_WRITE) != 0;
    if ((!(flags & IO_NO_MAP) || write) && end <= SIZE_MAX) {
        void *m = mmap(NULL, (size_t)end, PROT_READ | (write ? PROT_WRITE : 0),
                       write ? MAP_SHARED : MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            r->map = m;
            r->map_len = (size_t)end;
            r->bytes = r->map + off;
            return NPYDT_OK;
        }
        if (write)
            return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                             "cannot map the file for writing: %s", TEXT_ERRNO(errno));
    }
    if (flags & IO_NO_COPY)
        return NPYDT_OK;
    if (write || len > SIZE_MAX)
        return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "the file is too large to address on this machine");
    r->copy = alloc_bytes(a, (size_t)len);
    if (!r->copy)
        return set_nomem(err);
    r->copy_len = (size_t)len;
    size_t got;
    st = io_pread(fd, r->copy, (size_t)len, off, &got, err);
    if (st == NPYDT_OK && got < len)
        st = set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                       "the file shrank while it was read");
    if (st != NPYDT_OK) {
        io_region_release(r);
        return st;
    }
    r->bytes = r->copy;
    return NPYDT_OK;
}

void io_region_release(struct io_region *r)
{
    if (r->map)
        munmap(r->map, r->map_len);
    if (r->copy)
        free_bytes(r->alloc, r->copy, r->copy_len);
    r->map = NULL;
    r->copy = NULL;
    r->bytes = NULL;
}

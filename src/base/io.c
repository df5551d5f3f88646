/* File access shared by the .npy, data and archive readers. */
#include "base/base.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
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
                         strerror(errno));
    return NPYDT_OK;
}

npydt_status io_pread(int fd, void *buf, size_t n, uint64_t off, size_t *got, npydt_error *err)
{
    size_t done = 0;
    while (done < n) {
        ssize_t r = pread(fd, (char *)buf + done, n - done, (off_t)(off + done));
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL, "read failed: %s",
                             strerror(errno));
        }
        if (r == 0)
            break;
        done += (size_t)r;
    }
    *got = done;
    return NPYDT_OK;
}

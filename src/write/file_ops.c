/* The one owner of durable output in npydt: whole writes through EINTR,
 * syncs, temporary files beside a destination and their publication under
 * its name (mode kept, rename or link, folder synced). The record writer
 * (npydt_writer) and the public npydt_output (output.c) both go through
 * these. Errors name the file and give errno's text. */
#define _GNU_SOURCE   /* sync_file_range */
#include "write/write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- on a descriptor ---------------------------------------------------------- */

static npydt_status io_failed(const char *name, const char *what, int errnum, npydt_error *err)
{
    return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL, "%s: %s failed: %s", name, what,
                     TEXT_ERRNO(errnum));
}

npydt_status io_write_all(int fd, const char *name, const void *buf, size_t n, uint64_t off,
                          npydt_error *err)
{
    const unsigned char *p = buf;
    bool at_end = off == IO_AT_END;
    while (n > 0) {
        if (!at_end && off > (uint64_t)INT64_MAX - n)
            return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                             "the file would pass the largest file offset");
        ssize_t r = at_end ? write(fd, p, n) : pwrite(fd, p, n, (off_t)off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return io_failed(name, "write", errno, err);
        }
        /* a write that takes nothing would be made again forever */
        if (r == 0)
            return io_failed(name, "write", EIO, err);
        p += r;
        n -= (size_t)r;
        if (!at_end)
            off += (uint64_t)r;
    }
    return NPYDT_OK;
}

void io_start_writeback(int fd, uint64_t off, uint64_t len)
{
#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
    /* without a WAIT flag the call neither waits for the disk nor takes
     * a write error away from the fsync that will report it */
    if (len > 0 && off <= (uint64_t)INT64_MAX && len <= (uint64_t)INT64_MAX - off)
        (void)sync_file_range(fd, (off_t)off, (off_t)len, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd, (void)off, (void)len;
#endif
}

void io_writeback_steps(int fd, uint64_t *handed, uint64_t end)
{
    uint64_t to = end / IO_WRITEBACK_STEP * IO_WRITEBACK_STEP;
    if (to > *handed) {
        io_start_writeback(fd, *handed, to - *handed);
        *handed = to;
    }
}

npydt_status io_sync_fd(int fd, const char *name, npydt_error *err)
{
    while (fsync(fd) != 0) {
        if (errno != EINTR)
            return io_failed(name, "fsync", errno, err);
    }
    return NPYDT_OK;
}

npydt_status io_close(int fd, const char *name, npydt_error *err)
{
    /* Linux releases the descriptor whatever close says, EINTR included:
     * never closed twice */
    if (close(fd) != 0 && errno != EINTR)
        return io_failed(name, "close", errno, err);
    return NPYDT_OK;
}

/* ---- temporary files and their publication ----------------------------------- */

char *str_copy(const npydt_allocator *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = alloc_bytes(a, n);
    if (c)
        memcpy(c, s, n);
    return c;
}

void str_free(const npydt_allocator *a, char *s)
{
    if (s)
        free_bytes(a, s, strlen(s) + 1);
}

npydt_status io_create_temp(const npydt_allocator *a, const char *path, int *fd, char **tmp,
                            npydt_error *err)
{
    *fd = -1;
    *tmp = NULL;
    /* a C string is far shorter than SIZE_MAX: the sum cannot wrap */
    size_t size = strlen(path) + NPYDT_OUTPUT_TEMP_EXTRA + 1;
    char *name = alloc_bytes(a, size);
    if (!name)
        return set_nomem(err);
    /* beside the destination, so that rename and link stay within one file
     * system; the name is new (O_EXCL) and the umask applies to its mode as
     * it does to a file np.save creates */
    uint64_t seed = (uint64_t)getpid() * 0x9E3779B97F4A7C15u ^ (uint64_t)(uintptr_t)name;
    int e = EEXIST;
    for (int attempt = 0; attempt < 64 && *fd < 0 && e == EEXIST; attempt++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        snprintf(name, size, "%s.%08llx.tmp", path, (unsigned long long)(seed >> 32));
        *fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (*fd < 0)
            e = errno;
    }
    if (*fd < 0) {
        free_bytes(a, name, size);
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "%s: cannot create a temporary file beside it: %s", path, TEXT_ERRNO(e));
    }
    /* the allocation is strlen + 1 bytes from here on, as str_free frees it */
    char *exact = str_copy(a, name);
    if (!exact) {
        close(*fd);
        *fd = -1;
        unlink(name);
        free_bytes(a, name, size);
        return set_nomem(err);
    }
    free_bytes(a, name, size);
    *tmp = exact;
    return NPYDT_OK;
}

npydt_status io_keep_mode(int fd, const char *path, const char *tmp, npydt_error *err)
{
    /* a file replaced keeps its permission bits, as one np.save writes
     * over does; through a symbolic link, those of the file it names */
    struct stat old;
    if (stat(path, &old) == 0 && S_ISREG(old.st_mode) && fchmod(fd, old.st_mode & 07777) != 0)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "%s: cannot give %s its mode: %s", path, tmp, TEXT_ERRNO(errno));
    return NPYDT_OK;
}

/* The folder that holds path, allocated (str_free). */
static char *folder_of(const npydt_allocator *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return str_copy(a, ".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *dir = alloc_bytes(a, n + 1);
    if (dir) {
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    return dir;
}

/* fsync the folder dir that holds path, so that a new name survives a
 * power cut. */
static npydt_status sync_folder(const char *dir, const char *path, bool renamed,
                                npydt_error *err)
{
    const char *done = renamed ? "the new file is in place, but " : "";
    int dfd = open(dir, O_RDONLY | O_CLOEXEC);
    if (dfd < 0)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "%s: %scannot open its folder to sync it: %s", path, done,
                         TEXT_ERRNO(errno));
    int rc;
    while ((rc = fsync(dfd)) != 0 && errno == EINTR)
        ;
    int e = errno;
    close(dfd);
    /* some file systems cannot sync a folder: the name is then as safe as
     * they make it */
    if (rc != 0 && e != EINVAL && e != EROFS && e != EBADF)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "%s: %sfsync of its folder failed: %s", path, done, TEXT_ERRNO(e));
    return NPYDT_OK;
}

npydt_status io_place(const npydt_allocator *a, const char *tmp, const char *path, bool link_it,
                      bool no_sync, bool *placed, npydt_error *err)
{
    *placed = false;
    /* the folder's name before anything changes: running out of memory
     * then leaves the destination as it was */
    char *dir = no_sync ? NULL : folder_of(a, path);
    if (!no_sync && !dir)
        return set_nomem(err);
    npydt_status st = NPYDT_OK;
    if (link_it) {
        if (link(tmp, path) != 0) {
            int e = errno;
            st = e == EEXIST ? set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                                         "%s: the file exists (not replaced)", path)
                             : set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                                         "%s: cannot create it: %s", path, TEXT_ERRNO(e));
        } else {
            unlink(tmp);
        }
    } else if (rename(tmp, path) != 0) {
        st = set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL, "%s: cannot rename %s to it: %s",
                       path, tmp, TEXT_ERRNO(errno));
    }
    if (st == NPYDT_OK) {
        *placed = true;
        if (dir)
            st = sync_folder(dir, path, !link_it, err);
        /* a new name that may not survive a power cut is taken back: the
         * caller is told the file was not made, and it is not there; a
         * rename cannot be taken back (the file it replaced is gone) */
        if (st != NPYDT_OK && link_it)
            unlink(path);
    }
    str_free(a, dir);
    return st;
}

/* ---- the record writer's file -------------------------------------------------- */

/* The writer's file as messages name it. */
static const char *file_name(const npydt_writer *w, char *buf, size_t size)
{
    if (w->tmp_path && w->publish != PUBLISH_NONE)
        return w->tmp_path;
    if (w->path)
        return w->path;
    snprintf(buf, size, "file descriptor %d", w->fd);
    return buf;
}

npydt_status writer_io_error(const npydt_writer *w, const char *what, int errnum,
                             npydt_error *err)
{
    char fdname[48];
    return io_failed(file_name(w, fdname, sizeof fdname), what, errnum, err);
}

npydt_status io_pwrite_all(const npydt_writer *w, const void *buf, size_t n, uint64_t off,
                           npydt_error *err)
{
    char fdname[48];
    return io_write_all(w->fd, file_name(w, fdname, sizeof fdname), buf, n, off, err);
}

npydt_status io_sync(const npydt_writer *w, npydt_error *err)
{
    char fdname[48];
    return w->no_sync ? NPYDT_OK : io_sync_fd(w->fd, file_name(w, fdname, sizeof fdname), err);
}

npydt_status io_publish(npydt_writer *w, npydt_error *err)
{
    if (w->publish == PUBLISH_NONE)
        return NPYDT_OK;
    bool linked = w->publish == PUBLISH_LINK, placed = false;
    npydt_status st = linked ? NPYDT_OK : io_keep_mode(w->fd, w->path, w->tmp_path, err);
    if (st == NPYDT_OK)
        st = io_place(w->alloc, w->tmp_path, w->path, linked, w->no_sync, &placed, err);
    if (st == NPYDT_OK || placed) {
        str_free(w->alloc, w->tmp_path);
        w->tmp_path = NULL;
        w->publish = PUBLISH_NONE;
    }
    return st;
}

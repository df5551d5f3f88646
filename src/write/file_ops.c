/* The file operations of the writer: whole writes, syncs, temporary files
 * beside the destination and their publication under its name. Errors
 * name the file and give errno's text. */
#include "write/write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL, "%s: %s failed: %s",
                     file_name(w, fdname, sizeof fdname), what, strerror(errnum));
}

npydt_status io_pwrite_all(const npydt_writer *w, const void *buf, size_t n, uint64_t off,
                           npydt_error *err)
{
    const unsigned char *p = buf;
    while (n > 0) {
        if (off > (uint64_t)INT64_MAX - n)
            return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                             "the file would pass the largest file offset");
        ssize_t r = pwrite(w->fd, p, n, (off_t)off);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return writer_io_error(w, "write", errno, err);
        }
        if (r == 0)
            return writer_io_error(w, "write", EIO, err);
        p += r;
        n -= (size_t)r;
        off += (uint64_t)r;
    }
    return NPYDT_OK;
}

npydt_status io_sync(const npydt_writer *w, npydt_error *err)
{
    if (w->no_sync)
        return NPYDT_OK;
    while (fsync(w->fd) != 0) {
        if (errno != EINTR)
            return writer_io_error(w, "fsync", errno, err);
    }
    return NPYDT_OK;
}

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
    size_t size = strlen(path) + 48;
    char *name = alloc_bytes(a, size);
    if (!name)
        return set_nomem(err);
    /* beside the destination, so that rename and link stay within one file
     * system; the name is new (O_EXCL) and the umask applies to its mode as
     * it does to a file np.save creates */
    uint64_t seed = (uint64_t)getpid() * 0x9E3779B97F4A7C15u ^ (uint64_t)(uintptr_t)name;
    for (int attempt = 0; attempt < 64; attempt++) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        snprintf(name, size, "%s.%08llx.tmp", path, (unsigned long long)(seed >> 32));
        *fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (*fd >= 0)
            break;
        if (errno != EEXIST) {
            int e = errno;
            set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                      "%s: cannot create a temporary file beside it: %s", path, strerror(e));
            free_bytes(a, name, size);
            return NPYDT_E_IO;
        }
    }
    if (*fd < 0) {
        set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                  "%s: cannot create a temporary file beside it: %s", path, strerror(EEXIST));
        free_bytes(a, name, size);
        return NPYDT_E_IO;
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

/* fsync the folder that holds path, so that a new name survives a power
 * cut. */
static npydt_status sync_folder(const npydt_writer *w, npydt_error *err)
{
    if (w->no_sync)
        return NPYDT_OK;
    const char *slash = strrchr(w->path, '/');
    int dfd;
    if (!slash) {
        dfd = open(".", O_RDONLY | O_CLOEXEC);
    } else {
        size_t n = slash == w->path ? 1 : (size_t)(slash - w->path);
        char *dir = alloc_bytes(w->alloc, n + 1);
        if (!dir)
            return set_nomem(err);
        memcpy(dir, w->path, n);
        dir[n] = '\0';
        dfd = open(dir, O_RDONLY | O_CLOEXEC);
        free_bytes(w->alloc, dir, n + 1);
    }
    if (dfd < 0)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "%s: cannot open its folder to sync it: %s", w->path, strerror(errno));
    int rc;
    while ((rc = fsync(dfd)) != 0 && errno == EINTR)
        ;
    int e = errno;
    close(dfd);
    /* some file systems cannot sync a folder: the name is then as safe as
     * they make it */
    if (rc != 0 && e != EINVAL && e != EROFS && e != EBADF)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "%s: fsync of its folder failed: %s", w->path, strerror(e));
    return NPYDT_OK;
}

npydt_status io_publish(npydt_writer *w, npydt_error *err)
{
    if (w->publish == PUBLISH_NONE)
        return NPYDT_OK;
    if (w->publish == PUBLISH_LINK) {
        if (link(w->tmp_path, w->path) != 0) {
            int e = errno;
            if (e == EEXIST)
                return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                                 "%s: the file exists (not replaced)", w->path);
            return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                             "%s: cannot create it: %s", w->path, strerror(e));
        }
        unlink(w->tmp_path);
    } else {
        /* a file replaced keeps its permission bits, as one np.save
         * writes over does */
        struct stat old;
        if (lstat(w->path, &old) == 0 && S_ISREG(old.st_mode) &&
            fchmod(w->fd, old.st_mode & 07777) != 0)
            return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                             "%s: cannot give %s its mode: %s", w->path, w->tmp_path,
                             strerror(errno));
        if (rename(w->tmp_path, w->path) != 0)
            return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                             "%s: cannot rename %s to it: %s", w->path, w->tmp_path,
                             strerror(errno));
    }
    bool linked = w->publish == PUBLISH_LINK;
    str_free(w->alloc, w->tmp_path);
    w->tmp_path = NULL;
    w->publish = PUBLISH_NONE;
    npydt_status st = sync_folder(w, err);
    /* a new name that may not survive a power cut is taken back: the
     * caller is told the file was not made, and it is not there */
    if (st != NPYDT_OK && linked)
        unlink(w->path);
    return st;
}

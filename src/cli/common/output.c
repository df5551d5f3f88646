/* The output of swap and pack: a temporary file in the destination's
 * folder, flushed to disk, then renamed over the destination (keeping a
 * replaced file's mode) and the folder flushed, so that an interrupted run
 * leaves the old destination (or none) and never a partial one; and the
 * checks that refuse a destination before anything is written. */
#include "cli/common/output.h"
#include "cli/common/args.h"
#include "cli/common/report.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_active;

void cli_output_discard(void)
{
    if (tmp_active)
        unlink(tmp_path);
}

static void on_signal(int sig)
{
    cli_output_discard();
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};

static void catch_signals(int on)
{
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on ? on_signal : SIG_DFL;
        sigemptyset(&sa.sa_mask);
        sigaction(caught[i], &sa, NULL);
    }
}

int cli_write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int cli_pwrite_all(int fd, const void *buf, size_t n, uint64_t offset)
{
    const char *p = buf;
    while (n > 0) {
        if (offset > (uint64_t)INT64_MAX) {
            errno = EFBIG;
            return -1;
        }
        ssize_t w = pwrite(fd, p, n, (off_t)offset);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
        offset += (uint64_t)w;
    }
    return 0;
}

int cli_io_error(const char *path, const char *what)
{
    const char *reason = strerror(errno);
    cli_message("%s: i/o error: %s: %s", path, what, reason);
    return EXIT_USAGE;
}

/* Split target into its directory ("" for the current one) and make the
 * temporary name "DIR.BASE.npydt-XXXXXX". */
static int make_tmp_name(const char *target, char *dir, size_t dirsize)
{
    const char *slash = strrchr(target, '/');
    size_t dlen = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dlen;
    if (dlen >= dirsize)
        return -1;
    memcpy(dir, target, dlen);
    dir[dlen] = '\0';
    int n = snprintf(tmp_path, sizeof tmp_path, "%s.%s.npydt-XXXXXX", dir, base);
    return n < 0 || (size_t)n >= sizeof tmp_path ? -1 : 0;
}

/* ---- the atomic output ------------------------------------------------------ */

int cli_output_check(const struct cli_command *cmd, struct cli_output *o, const char *file,
                     const char *target, int in_place)
{
    struct stat in_st;
    o->target = target;
    o->fd = -1;
    o->target_exists = stat(target, &o->target_st) == 0;
    if (file && !in_place && o->target_exists && stat(file, &in_st) == 0 &&
        in_st.st_dev == o->target_st.st_dev && in_st.st_ino == o->target_st.st_ino)
        return cli_usage(cmd, "OUT '%s' is FILE; use --in-place to replace it", target);
    if (o->target_exists && S_ISDIR(o->target_st.st_mode))
        return cli_fail(target, NPYDT_E_IO, "%s",
                        "is a directory; give the path of the file to write");
    if (make_tmp_name(target, o->dir, sizeof o->dir) != 0)
        return cli_usage(cmd, "'%s': path too long", target);
    /* the temporary file is created in the folder and renamed there: a
     * folder that cannot be written in is refused before anything is
     * read (as root only a read-only filesystem refuses) */
    const char *dir = o->dir[0] ? o->dir : ".";
    if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0) {
        int e = errno;
        return cli_fail(target, NPYDT_E_IO, "cannot write in its folder '%s': %s", dir,
                        strerror(e));
    }
    return EXIT_OK;
}

int cli_output_check_space(const struct cli_output *o, uint64_t bytes)
{
    struct statvfs vfs;
    const char *dir = o->dir[0] ? o->dir : ".";
    if (statvfs(dir, &vfs) != 0 || vfs.f_frsize == 0)
        return EXIT_OK;   /* the filesystem does not say: writing will tell */
    uint64_t avail = (uint64_t)vfs.f_bavail;
    uint64_t frsize = (uint64_t)vfs.f_frsize;
    /* free bytes, saturated: a huge filesystem must not wrap around */
    uint64_t free_bytes = avail > UINT64_MAX / frsize ? UINT64_MAX : avail * frsize;
    if (free_bytes >= bytes)
        return EXIT_OK;
    return cli_fail(o->target, NPYDT_E_IO,
                    "not enough space in '%s': %llu bytes needed, %llu available; nothing was "
                    "written",
                    dir, (unsigned long long)bytes, (unsigned long long)free_bytes);
}

int cli_output_open(struct cli_output *o)
{
    catch_signals(1);   /* tmp_path: the template cli_output_check made */
    o->fd = mkstemp(tmp_path);
    if (o->fd < 0) {
        catch_signals(0);
        return cli_io_error(o->target, "cannot create a temporary file next to it");
    }
    tmp_active = 1;
    return EXIT_OK;
}

int cli_output_close(struct cli_output *o, int status)
{
    if (status == EXIT_OK) {
        mode_t mode;
        if (o->target_exists) {
            mode = o->target_st.st_mode & 07777;
        } else {
            mode_t mask = umask(0);
            umask(mask);
            mode = 0666 & ~mask;
        }
        if (fchmod(o->fd, mode) != 0)
            status = cli_io_error(o->target, "cannot set the mode");
        else if (fsync(o->fd) != 0)
            status = cli_io_error(o->target, "fsync failed");
    }
    if (close(o->fd) != 0 && status == EXIT_OK)
        status = cli_io_error(o->target, "close failed");
    o->fd = -1;
    if (status == EXIT_OK && rename(tmp_path, o->target) != 0)
        status = cli_io_error(o->target, "cannot rename the temporary file to it");
    if (status != EXIT_OK)
        unlink(tmp_path);
    tmp_active = 0;
    catch_signals(0);
    if (status == EXIT_OK) {
        /* make the rename itself durable; best effort */
        int dfd = open(o->dir[0] ? o->dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
    }
    return status;
}


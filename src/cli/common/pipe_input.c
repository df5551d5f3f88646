/* Inputs that cannot seek: standard input ('-'), a FIFO, a character
 * device such as /dev/stdin on a pipe, a process substitution. A .npy
 * file is read in sequence: its header first, then its data as the
 * command needs them (counted to its end by inspect and check, streamed
 * by dump and pack), never held whole. An archive's directory is at its
 * end, so an archive is read whole into memory, up to
 * CLI_PIPE_MAX_BYTES, and handed to the library's buffer entry points
 * like any file; so is a .npy file whose use needs to go back
 * (cli_pipe_hold). */
#include "cli/common/pipe.h"
#include "cli/common/limits.h"
#include "cli/common/progress.h"
#include "cli/common/report.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_is_pipe_arg(const char *arg)
{
    if (strcmp(arg, "-") == 0)
        return 1;
    struct stat st;
    return stat(arg, &st) == 0 && cli_is_pipe_mode(st.st_mode);
}

int cli_is_pipe_mode(unsigned mode)
{
    return !S_ISREG(mode) && !S_ISDIR(mode) && !S_ISBLK(mode);
}

/* Read the rest of p into p->bytes: whole from here on. 0, or an exit
 * status after reporting (the error in *err). */
int cli_pipe_hold(struct cli_pipe *p, npydt_error *err)
{
    if (p->whole)
        return EXIT_OK;
    size_t cap = p->len, n = p->len;
    unsigned char *b = p->bytes;
    int status = EXIT_OK;
    struct cli_progress progress;
    cli_progress_start(&progress, "reading", 0, p->quiet);
    for (;;) {
        if (n == cap) {
            if (cap >= CLI_PIPE_MAX_BYTES) {
                unsigned char probe;
                ssize_t more;
                while ((more = read(p->fd, &probe, 1)) < 0 && errno == EINTR)
                    ;
                if (more == 0)
                    break;   /* exactly the limit */
                cli_error(err, NPYDT_E_LIMIT,
                          "an archive or an array read out of order on a pipe is read into "
                          "memory, at most %u MiB; save it to a file first",
                          (unsigned)(CLI_PIPE_MAX_BYTES >> 20));
                cli_report_to(p->dest, p->name, err);
                status = EXIT_USAGE;   /* the command's limit, not the input's fault */
                break;
            }
            size_t want = cap < ((size_t)32 << 10) ? (size_t)64 << 10 : cap * 2;
            if (want > CLI_PIPE_MAX_BYTES)
                want = CLI_PIPE_MAX_BYTES;
            unsigned char *bigger = realloc(b, want);
            if (!bigger) {
                cli_error(err, NPYDT_E_NOMEM, "%s", "out of memory");
                status = cli_report_to(p->dest, p->name, err);
                break;
            }
            b = bigger;
            cap = want;
        }
        ssize_t got = read(p->fd, b + n, cap - n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            cli_error(err, NPYDT_E_IO, "cannot read: %s", TEXT_ERRNO(errno));
            status = cli_report_to(p->dest, p->name, err);
            break;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        cli_progress_update(&progress, n);
    }
    cli_progress_end(&progress);
    p->bytes = b;
    p->len = n;
    /* an empty input is still an input in memory (too short to be a file) */
    if (status == EXIT_OK && !b && !(p->bytes = malloc(1))) {
        cli_error(err, NPYDT_E_NOMEM, "%s", "out of memory");
        status = cli_report_to(p->dest, p->name, err);
    }
    if (p->own_fd)
        close(p->fd);
    p->fd = -1;
    p->own_fd = 0;
    p->whole = 1;
    return status;
}

static void wake(int sig)
{
    (void)sig;   /* only interrupts open() */
}

/* Open arg for reading. Opening a FIFO waits for a writer: at most
 * CLI_FIFO_WAIT_SECONDS, so that a FIFO nobody writes to is an error and
 * not a hang (once a writer has it open, reading waits for its data as
 * any reader of a pipe does). */
static int open_waiting(const char *arg)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = wake;   /* no SA_RESTART: open() returns EINTR */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old);
    alarm(CLI_FIFO_WAIT_SECONDS);   /* the command sets no other alarm */
    int fd = open(arg, O_RDONLY | O_CLOEXEC);
    int e = errno;
    alarm(0);
    sigaction(SIGALRM, &old, NULL);
    errno = e;
    return fd;
}

/* Read into p->bytes until it holds want bytes or the input ends. 0, or
 * an exit status after reporting. */
static int read_up_to(struct cli_pipe *p, size_t want, npydt_error *err)
{
    unsigned char *b = realloc(p->bytes, want);
    if (!b) {
        cli_error(err, NPYDT_E_NOMEM, "%s", "out of memory");
        return cli_report_to(p->dest, p->name, err);
    }
    p->bytes = b;
    while (p->len < want) {
        ssize_t got = read(p->fd, b + p->len, want - p->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            cli_error(err, NPYDT_E_IO, "cannot read: %s", TEXT_ERRNO(errno));
            return cli_report_to(p->dest, p->name, err);
        }
        if (got == 0)
            break;
        p->len += (size_t)got;
    }
    return EXIT_OK;
}

/* The descriptor to read arg through, blocking, from fd: arg opened with
 * O_NONBLOCK (closed or kept here). That open lets a FIFO's waiting writer
 * through, but does not wait for one: unless a writer's bytes or its
 * close are there already, a blocking open waits as opening arg first
 * would have (the writer still has the FIFO open: no wait), and fd keeps
 * the bytes of a writer that comes and goes before it. -1 with errno as
 * open_waiting sets it. */
static int take_over(const char *arg, int fd)
{
    struct stat st;
    struct pollfd ready = {fd, POLLIN, 0};
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && poll(&ready, 1, 0) <= 0) {
        int waited = open_waiting(arg);
        if (waited >= 0 || errno != EINTR || poll(&ready, 1, 0) <= 0) {
            int e = errno;
            close(fd);
            errno = e;
            return waited;
        }
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int cli_pipe_open(const char *arg, int quiet, struct cli_dest *dest, struct cli_pipe *p,
                  npydt_error *err)
{
    return cli_pipe_open_fd(arg, -1, quiet, dest, p, err);
}

int cli_pipe_open_fd(const char *arg, int fd, int quiet, struct cli_dest *dest,
                     struct cli_pipe *p, npydt_error *err)
{
    memset(p, 0, sizeof *p);
    p->name = arg;
    p->dest = dest;
    p->quiet = quiet;
    p->fd = STDIN_FILENO;
    if (strcmp(arg, "-") != 0) {
        if ((p->fd = fd >= 0 ? take_over(arg, fd) : open_waiting(arg)) < 0) {
            if (errno == EINTR)
                cli_error(err, NPYDT_E_IO, "no writer opened the FIFO within %u seconds",
                          CLI_FIFO_WAIT_SECONDS);
            else
                cli_error(err, NPYDT_E_IO, "cannot open: %s", TEXT_ERRNO(errno));
            p->whole = 1;
            return cli_report_to(dest, arg, err);
        }
        p->own_fd = 1;
    }
    /* the preamble says how long the header is: a .npy file whose whole
     * header arrives is read in sequence; an archive, or an input that
     * ends first, is read whole; bytes that cannot start a .npy file (or
     * declare a header above the limit) are refused from those bytes */
    enum { PREAMBLE = 12 };
    npydt_npz_options limits;
    cli_input_limits(&limits);
    uint64_t total = 0;
    npydt_error ignored;
    int status = read_up_to(p, PREAMBLE, err);
    if (status != EXIT_OK) {
        p->whole = 1;   /* reported */
        return status;
    }
    if (npydt_npz_is_archive(p->bytes, p->len))
        return cli_pipe_hold(p, err);
    npydt_status st = npydt_header_size(p->bytes, p->len, &limits.base, &total, &ignored);
    if (st == NPYDT_OK && total >= p->len) {
        if ((status = read_up_to(p, (size_t)total, err)) != EXIT_OK) {
            p->whole = 1;
            return status;
        }
        if (p->len == total)
            return EXIT_OK;
    }
    if (st == NPYDT_OK || st == NPYDT_E_TRUNCATED)
        return cli_pipe_hold(p, err);   /* at its end already */
    if (p->own_fd)
        close(p->fd);
    p->fd = -1;
    p->own_fd = 0;
    p->whole = 1;
    return EXIT_OK;
}

void cli_pipe_close(struct cli_pipe *p)
{
    if (p->own_fd)
        close(p->fd);
    free(p->bytes);
    memset(p, 0, sizeof *p);
    p->fd = -1;
}

int cli_read_pipe(const char *arg, int quiet, struct cli_dest *dest, unsigned char **buf,
                  size_t *len, npydt_error *err)
{
    struct cli_pipe p;
    int status = cli_pipe_open(arg, quiet, dest, &p, err);
    if (status == EXIT_OK)
        status = cli_pipe_hold(&p, err);
    *buf = NULL;
    *len = 0;
    if (status != EXIT_OK) {
        cli_pipe_close(&p);
        return status;
    }
    *buf = p.bytes;
    *len = p.len;
    return EXIT_OK;
}

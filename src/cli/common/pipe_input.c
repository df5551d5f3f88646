/* Inputs that cannot seek: standard input ('-'), a FIFO, a character
 * device such as /dev/stdin on a pipe, a process substitution. Neither a
 * .npy file's size check nor an archive's directory (at its end) can be
 * read without seeking, so such an input is read whole into memory, up to
 * CLI_PIPE_MAX_BYTES, and then handed to the library's buffer entry
 * points like any file. */
#include "cli/common/pipe.h"
#include "cli/common/progress.h"
#include "cli/common/report.h"

#include <errno.h>
#include <fcntl.h>
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
    return stat(arg, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) &&
           !S_ISBLK(st.st_mode);
}

/* Read fd to its end into *buf (malloc'd). 0, or an exit status after
 * reporting under name (the error in *err). */
static int slurp(int fd, const char *name, int quiet, unsigned char **buf, size_t *len,
                 npydt_error *err)
{
    size_t cap = 0, n = 0;
    unsigned char *b = NULL;
    struct cli_progress progress;
    cli_progress_start(&progress, "reading", 0, quiet);
    for (;;) {
        if (n == cap) {
            if (cap >= CLI_PIPE_MAX_BYTES) {
                unsigned char probe;
                ssize_t more;
                while ((more = read(fd, &probe, 1)) < 0 && errno == EINTR)
                    ;
                if (more == 0)
                    break;   /* exactly the limit */
                free(b);
                cli_progress_end(&progress);
                cli_error(err, NPYDT_E_LIMIT,
                          "input that cannot seek (a pipe) is read into memory, at most %u MiB; "
                          "save it to a file first",
                          (unsigned)(CLI_PIPE_MAX_BYTES >> 20));
                cli_report(name, err);
                return EXIT_USAGE;   /* the command's limit, not the input's fault */
            }
            size_t want = cap ? cap * 2 : (size_t)64 << 10;
            if (want > CLI_PIPE_MAX_BYTES)
                want = CLI_PIPE_MAX_BYTES;
            unsigned char *bigger = realloc(b, want);
            if (!bigger) {
                free(b);
                cli_progress_end(&progress);
                cli_error(err, NPYDT_E_NOMEM, "%s", "out of memory");
                return cli_report(name, err);
            }
            b = bigger;
            cap = want;
        }
        ssize_t got = read(fd, b + n, cap - n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(b);
            cli_progress_end(&progress);
            cli_error(err, NPYDT_E_IO, "cannot read: %s", strerror(e));
            return cli_report(name, err);
        }
        if (got == 0)
            break;
        n += (size_t)got;
        cli_progress_update(&progress, n);
    }
    cli_progress_end(&progress);
    /* an empty input is still an input in memory (too short to be a file) */
    if (!b && !(b = malloc(1))) {
        cli_error(err, NPYDT_E_NOMEM, "%s", "out of memory");
        return cli_report(name, err);
    }
    *buf = b;
    *len = n;
    return EXIT_OK;
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

int cli_read_pipe(const char *arg, int quiet, unsigned char **buf, size_t *len,
                  npydt_error *err)
{
    *buf = NULL;
    *len = 0;
    if (strcmp(arg, "-") == 0)
        return slurp(STDIN_FILENO, arg, quiet, buf, len, err);
    int fd = open_waiting(arg);
    if (fd < 0) {
        if (errno == EINTR)
            cli_error(err, NPYDT_E_IO, "no writer opened the FIFO within %u seconds",
                      CLI_FIFO_WAIT_SECONDS);
        else
            cli_error(err, NPYDT_E_IO, "cannot open: %s", strerror(errno));
        return cli_report(arg, err);
    }
    int status = slurp(fd, arg, quiet, buf, len, err);
    close(fd);
    return status;
}

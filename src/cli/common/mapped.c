/* How the command reads its input files: mapped by the library (the
 * default), or with read(2) only (--no-mmap); and what it does when a
 * mapped file shrinks while it is read.
 *
 * A mapped page past the new end of a file that another process truncated
 * cannot be read: touching it raises SIGBUS, which by default kills the
 * process without a word and leaves swap's or pack's temporary file behind.
 * The library maps and must not install signal handlers (that is process
 * state, not a library's to take), so the command does: before it reads
 * an input it names the file (cli_reading), and its SIGBUS handler then
 * removes the temporary output file, writes the prepared line
 * "FILE: i/o error: the file shrank while it was read" with write(2) and
 * ends with _exit(2), the status of an unreadable input.
 *
 * Why not recover with sigsetjmp/siglongjmp around each read: the fault
 * can come from deep inside the library (an inflate, a gather) or from the
 * command while stdio's locks are held, and jumping out of those leaves
 * their state half changed. A mapped file that shrank is the end of the
 * command anyway, so the handler only does what is async-signal-safe and
 * ends the process. The command maps nothing but its inputs (outputs are
 * written with write(2)), and a thread reads one input at a time, so the
 * last file that thread named is the one that shrank. A fault with no file named, or a
 * misaligned access (BUS_ADRALN, a bug and no shrinking file), ends the
 * process by the signal as before. */
#define _DEFAULT_SOURCE   /* madvise, MADV_DONTNEED */
#include "cli/common/mapped.h"
#include "cli/common/output.h"
#include "cli/common/report.h"

#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int no_mmap;

/* The file being read (a copy) and the line the handler writes for it.
 * Both change only outside the handler, with line_ready cleared, and a
 * SIGBUS is raised by the reading thread itself, never while they change.
 * Each thread has its own (the workers of check -j read one input each),
 * and the signal is delivered to the thread whose access faulted; a
 * thread that names no input (a worker of dump -j) writes the line of the
 * input named last. */
static _Thread_local char *reading;
static _Thread_local char *line;
static _Thread_local size_t line_len;
static _Thread_local volatile sig_atomic_t line_ready;
/* The line of the input named last by any thread, for a thread that
 * names none: the workers of dump -j read the calling thread's input. */
static char last_line[1024];
static volatile sig_atomic_t last_len;
/* cli_reading_own was called: this thread leaves last_line alone */
static _Thread_local int names_own;

void cli_reading_own(void)
{
    names_own = 1;
}

void cli_set_no_mmap(void)
{
    no_mmap = 1;
}

int cli_no_mmap(void)
{
    return no_mmap;
}

/* set by the first thread whose SIGBUS reports a shrunk file: two
 * threads reading the same mapping fault together, and one line is said */
static atomic_flag bus_reported = ATOMIC_FLAG_INIT;

static void on_bus(int sig, siginfo_t *info, void *context)
{
    (void)context;
    if (info->si_code != BUS_ADRALN && (line_ready || last_len) &&
        atomic_flag_test_and_set(&bus_reported))
        for (;;)
            pause();   /* another thread reports it and ends the process */
    cli_output_discard();
    if (info->si_code != BUS_ADRALN && (line_ready || last_len)) {
        /* one write: a short line, and the process ends next */
        ssize_t n = line_ready ? write(STDERR_FILENO, line, line_len)
                               : write(STDERR_FILENO, last_line, (size_t)last_len);
        (void)n;
        _exit(EXIT_USAGE);
    }
    /* not a file that shrank: the access is made again on return and ends
     * the process by the signal */
    signal(sig, SIG_DFL);
}

void cli_reading(const char *path)
{
    if (path && reading && strcmp(path, reading) == 0)
        return;   /* the members of one archive: the same line */
    line_ready = 0;
    if (!names_own)
        last_len = 0;
    free(line);
    free(reading);
    line = reading = NULL;
    static _Thread_local int installed;   /* the same handler for every thread */
    if (!path || no_mmap)
        return;   /* without mappings, reads report a shrinking file themselves */
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_bus;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGBUS, &sa, NULL) != 0)
            return;
        installed = 1;
    }
    /* the line as cli_report would print it, built the same way; without
     * memory for it a shrinking file ends the process by SIGBUS */
    struct cli_line l;
    cli_line_init(&l);
    cli_line_format(&l, "%s: %s: the file shrank while it was read", path,
                    npydt_status_name(NPYDT_E_IO));
    size_t len;
    char *text = cli_line_take(&l, &len);
    if (!text || !(reading = strdup(path))) {
        free(text);
        return;
    }
    line = text;
    line_len = len;
    line_ready = 1;
    if (names_own)
        return;
    last_len = 0;
    if (len <= sizeof last_line) {
        memcpy(last_line, text, len);
        last_len = (sig_atomic_t)len;
    }
}

void cli_behind_start(struct cli_behind *b, const npydt_reader *r)
{
    memset(b, 0, sizeof *b);
    b->from = r && npydt_reader_is_mapped(r) ? (uintptr_t)npydt_reader_bytes(r) : 0;
    b->base = b->from;
    b->offset = 0;
    b->fd = -1;
}

void cli_behind_uncache(struct cli_behind *b, int fd, uint64_t offset)
{
    b->fd = b->from ? fd : -1;
    b->offset = offset;
}

void cli_behind_start_any(struct cli_behind *b, const npydt_reader *r, size_t span)
{
    cli_behind_start(b, r);
    b->any = b->from != 0;
    b->from = 0;
    b->span = span;
    b->page = UINTPTR_MAX;
}

void cli_behind_moved(struct cli_behind *b, uintptr_t at)
{
    uintptr_t end = at + b->span;
    b->page = at / CLI_BEHIND_PAGE;
    if (!b->lo || at < b->lo)
        b->lo = at;
    if (end > b->hi)
        b->hi = end;
    b->moves += 1 + b->span / CLI_BEHIND_PAGE;
    if (b->moves < CLI_BEHIND_ANY / CLI_BEHIND_PAGE)
        return;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = b->lo / page * page, hi = (b->hi + page - 1) / page * page;
    /* pages of a file: nothing is lost, so a failure is only memory kept */
    (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
    b->lo = b->hi = 0;
    b->moves = 0;
}

void cli_behind_drop(struct cli_behind *b, uintptr_t at)
{
    if (at < b->from) {
        b->from = at;   /* read again from further back */
        return;
    }
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (b->from + page - 1) / page * page, hi = at / page * page;
    /* pages of a file: nothing is lost, so a failure is only memory kept */
    if (hi > lo) {
        (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
        /* unmapped first: the page cache keeps pages still mapped */
        if (b->fd >= 0)
            (void)posix_fadvise(b->fd, (off_t)(b->offset + (lo - b->base)), (off_t)(hi - lo),
                                POSIX_FADV_DONTNEED);
    }
    b->from = hi;
}

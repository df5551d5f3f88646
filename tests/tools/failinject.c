/* Fault injection for the command's tests (tests/check_cli_faults.sh):
 * a shared object loaded with LD_PRELOAD that makes chosen libc calls fail
 * for real, so that the command's error paths run as they would on a full
 * disk or with no memory left. glibc only (it wraps __libc_start_main and
 * allocates through __libc_malloc); never linked into anything.
 *
 *   NPYDT_FAIL=RULE[,RULE...]
 *   RULE = FUNC[@tmp][>=SIZE][^OFFSET][:N[+]|:*][=ERRNO|=eof|=short|!SIGNAL]
 *
 * FUNC is alloc (malloc, calloc, realloc, strdup... all count as one),
 * open, mkstemp, fchmod, fsync, close, rename, link, ftruncate, write,
 * pwrite, pread, read, mmap, fstat, open_memstream or tmpfile. @tmp: only calls on the descriptor that
 * mkstemp, or the last open with O_CREAT | O_EXCL (a temporary file),
 * returned; for open, only the opens with O_CREAT | O_EXCL. >=SIZE: only requests of at least SIZE bytes (alloc,
 * read, pread, write, pwrite). ^OFFSET: only reads and writes at a file
 * offset of at least OFFSET (pread, pwrite): the data of a file after its
 * header, whatever reads the header took.
 * :N: the Nth matching call (default 1); N+: that one and every later one;
 * :*: every one. The action: fail with ERRNO (a number or a name such as
 * EIO; ENOMEM for alloc, EIO otherwise by default), end of file (=eof,
 * read and pread; for write and pwrite: 0 bytes written), at most one byte
 * (=short, read, pread, write and pwrite), raise the
 * signal (!TERM, !INT, !HUP) and then make the call, or shrink a file and
 * then make the call (=shrink: truncate the file NPYDT_FAIL_SHRINK names
 * to NPYDT_FAIL_SHRINK_TO bytes, 0 when unset, as another process could).
 *
 * Calls are counted only while main runs (not in libc's start-up, nor in
 * what runs after main returns, such as gcov writing its counters).
 * NPYDT_FAIL_LOG=FILE appends "armed" when main starts and "FUNC N" for
 * every call made to fail, so a script can tell whether a rule fired;
 * with NPYDT_FAIL_TRACE set also "call FUNC fd=FD size=SIZE" for every call
 * while main runs (to write a rule, not for the tests themselves). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

enum action { ACT_ERRNO, ACT_EOF, ACT_SHORT, ACT_SIGNAL, ACT_SHRINK };

struct rule {
    char func[16];
    int tmp_only;
    size_t min_size;
    long long min_off;   /* -1: any call */
    unsigned long n;     /* 0: every call */
    int onward;          /* N+ */
    enum action act;
    int value;           /* errno or signal */
    unsigned long seen;
};

#define MAX_RULES 8
static struct rule rules[MAX_RULES];
static int nrules;
static int armed;
static int tmp_fd = -1;
/* as the descriptor of an open call: one that creates a temporary file */
#define NEW_TMP (-2)
static int log_fd = -1;
static int trace;

/* the real functions, found once before main */
static int (*real_open)(const char *, int, ...);
static int (*real_mkstemp)(char *);
static int (*real_fchmod)(int, mode_t);
static int (*real_fsync)(int);
static int (*real_close)(int);
static int (*real_rename)(const char *, const char *);
static int (*real_link)(const char *, const char *);
static int (*real_ftruncate)(int, off_t);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pread)(int, void *, size_t, off_t);
static ssize_t (*real_read)(int, void *, size_t);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_fstat)(int, struct stat *);
static FILE *(*real_open_memstream)(char **, size_t *);
static FILE *(*real_tmpfile)(void);

static void find(void *fnptr, size_t size, const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p)
        abort();   /* not glibc: the script's probe sees no "armed" and skips */
    memcpy(fnptr, &p, size);
}

#define FIND(var, name) find(&(var), sizeof(var), name)

/* Built like the command, with 64-bit file offsets: glibc's headers then
 * name open, mkstemp, pread, pwrite, ftruncate, mmap and fstat open64,
 * mkstemp64, ...
 * (the definitions below too), and the real ones are found by those names. */
#ifdef __USE_FILE_OFFSET64
#define LFS(name) name "64"
#else
#define LFS(name) name
#endif

static void note(const char *func, unsigned long n)
{
    if (log_fd < 0 || !real_write)
        return;
    char line[64];
    int len = n ? snprintf(line, sizeof line, "%s %lu\n", func, n)
                : snprintf(line, sizeof line, "%s\n", func);
    if (len > 0 && real_write(log_fd, line, (size_t)len) < 0)
        return;
}

static const struct { const char *name; int value; } errnos[] = {
    {"EIO", EIO}, {"ENOSPC", ENOSPC}, {"ENOMEM", ENOMEM}, {"EACCES", EACCES},
    {"EINTR", EINTR}, {"EFBIG", EFBIG}, {"EBADF", EBADF}, {"EPERM", EPERM},
    {"EXDEV", EXDEV}, {"EROFS", EROFS}, {"EDQUOT", EDQUOT}, {"EMFILE", EMFILE},
    {"EAGAIN", EAGAIN}, {"ENODEV", ENODEV}, {"EEXIST", EEXIST}, {"EINVAL", EINVAL},
};

static void bad_spec(const char *spec)
{
    char line[256];
    int len = snprintf(line, sizeof line, "failinject: cannot read NPYDT_FAIL rule '%s'\n", spec);
    if (len > 0 && write(2, line, (size_t)len) < 0)
        abort();
    abort();
}

static void parse_rule(char *s)
{
    struct rule *r = &rules[nrules];
    memset(r, 0, sizeof *r);
    r->n = 1;
    r->min_off = -1;
    size_t k = strcspn(s, "@>^:=!");
    if (k == 0 || k >= sizeof r->func)
        bad_spec(s);
    memcpy(r->func, s, k);
    char *p = s + k;
    r->act = ACT_ERRNO;
    r->value = strcmp(r->func, "alloc") == 0 ? ENOMEM : EIO;
    if (strncmp(p, "@tmp", 4) == 0) {
        r->tmp_only = 1;
        p += 4;
    }
    if (strncmp(p, ">=", 2) == 0) {
        char *end;
        r->min_size = strtoul(p + 2, &end, 10);
        p = end;
    }
    if (*p == '^') {
        char *end;
        r->min_off = strtoll(p + 1, &end, 10);
        if (end == p + 1 || r->min_off < 0)
            bad_spec(s);
        p = end;
    }
    if (*p == ':') {
        if (p[1] == '*') {
            r->n = 0;
            p += 2;
        } else {
            char *end;
            r->n = strtoul(p + 1, &end, 10);
            if (end == p + 1 || r->n == 0)
                bad_spec(s);
            p = end;
            if (*p == '+') {
                r->onward = 1;
                p++;
            }
        }
    }
    if (*p == '=') {
        p++;
        if (strcmp(p, "eof") == 0) {
            r->act = ACT_EOF;
        } else if (strcmp(p, "short") == 0) {
            r->act = ACT_SHORT;
        } else if (strcmp(p, "shrink") == 0) {
            r->act = ACT_SHRINK;
        } else if (*p >= '0' && *p <= '9') {
            r->value = atoi(p);
        } else {
            size_t i;
            for (i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
                if (strcmp(p, errnos[i].name) == 0)
                    break;
            if (i == sizeof errnos / sizeof errnos[0])
                bad_spec(s);
            r->value = errnos[i].value;
        }
    } else if (*p == '!') {
        p++;
        r->act = ACT_SIGNAL;
        r->value = strcmp(p, "TERM") == 0 ? SIGTERM
                   : strcmp(p, "INT") == 0 ? SIGINT
                   : strcmp(p, "HUP") == 0 ? SIGHUP : 0;
        if (!r->value)
            bad_spec(s);
    } else if (*p) {
        bad_spec(s);
    }
    nrules++;
}

__attribute__((constructor)) static void init(void)
{
    FIND(real_open, LFS("open"));
    FIND(real_mkstemp, LFS("mkstemp"));
    FIND(real_fchmod, "fchmod");
    FIND(real_fsync, "fsync");
    FIND(real_close, "close");
    FIND(real_rename, "rename");
    FIND(real_link, "link");
    FIND(real_ftruncate, LFS("ftruncate"));
    FIND(real_write, "write");
    FIND(real_pwrite, LFS("pwrite"));
    FIND(real_pread, LFS("pread"));
    FIND(real_read, "read");
    FIND(real_mmap, LFS("mmap"));
    FIND(real_fstat, LFS("fstat"));
    FIND(real_open_memstream, "open_memstream");
    FIND(real_tmpfile, LFS("tmpfile"));
    const char *spec = getenv("NPYDT_FAIL");
    if (spec) {
        static char copy[512];
        if (strlen(spec) >= sizeof copy)
            bad_spec(spec);
        strcpy(copy, spec);
        for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            if (nrules == MAX_RULES)
                bad_spec(t);
            parse_rule(t);
        }
    }
    trace = getenv("NPYDT_FAIL_TRACE") != NULL;
    const char *log = getenv("NPYDT_FAIL_LOG");
    if (log)
        log_fd = real_open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

/* The rule that makes this call fail, or NULL. Counts the call. */
static struct rule *hit_at(const char *func, int fd, size_t size, long long off)
{
    if (!armed)
        return NULL;
    if (trace) {
        char what[96];
        snprintf(what, sizeof what, "call %s fd=%d size=%zu off=%lld", func, fd, size, off);
        note(what, 0);
    }
    for (int i = 0; i < nrules; i++) {
        struct rule *r = &rules[i];
        if (strcmp(r->func, func) != 0 ||
            (r->tmp_only && fd != NEW_TMP && (fd < 0 || fd != tmp_fd)) ||
            size < r->min_size || off < r->min_off)
            continue;
        r->seen++;
        if (r->n == 0 || r->seen == r->n || (r->onward && r->seen > r->n)) {
            note(func, r->seen);
            return r;
        }
    }
    return NULL;
}

/* A call with no file offset: rules with ^OFFSET pass it by. */
static struct rule *hit(const char *func, int fd, size_t size)
{
    return hit_at(func, fd, size, -1);
}

/* =shrink: the file of NPYDT_FAIL_SHRINK cut to NPYDT_FAIL_SHRINK_TO bytes. */
static void shrink(void)
{
    const char *path = getenv("NPYDT_FAIL_SHRINK");
    const char *to = getenv("NPYDT_FAIL_SHRINK_TO");
    if (!path || truncate(path, to ? (off_t)strtoll(to, NULL, 10) : 0) != 0)
        abort();   /* a rule the script got wrong */
}

/* For calls that fail as -1 and errno: 1 when this one must fail. A signal
 * or shrink rule acts and lets the call go on. */
static int fails(const char *func, int fd, size_t size)
{
    struct rule *r = hit(func, fd, size);
    if (!r)
        return 0;
    if (r->act == ACT_SIGNAL) {
        raise(r->value);
        return 0;
    }
    if (r->act == ACT_SHRINK) {
        shrink();
        return 0;
    }
    errno = r->value;
    return 1;
}

/* ---- allocation ---- */

static void *alloc_fails(size_t size)
{
    struct rule *r = hit("alloc", -1, size);
    if (r)
        errno = r->value;
    return r;
}

void *malloc(size_t size)
{
    return alloc_fails(size) ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    size_t total = n && size > (size_t)-1 / n ? (size_t)-1 : n * size;
    return alloc_fails(total) ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    return alloc_fails(size) ? NULL : __libc_realloc(p, size);
}

/* ---- files ---- */

int open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    /* a new file of its own name: the temporary file of an output */
    int excl = (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
    if (fails("open", excl ? NEW_TMP : -1, 0))
        return -1;
    int fd = real_open(path, flags, mode);
    if (fd >= 0 && excl)
        tmp_fd = fd;
    return fd;
}

int mkstemp(char *template)
{
    if (fails("mkstemp", -1, 0))
        return -1;
    int fd = real_mkstemp(template);
    tmp_fd = fd;
    return fd;
}

int fchmod(int fd, mode_t mode)
{
    return fails("fchmod", fd, 0) ? -1 : real_fchmod(fd, mode);
}

int fsync(int fd)
{
    return fails("fsync", fd, 0) ? -1 : real_fsync(fd);
}

int close(int fd)
{
    if (fails("close", fd, 0)) {
        int e = errno;
        real_close(fd);   /* Linux releases the descriptor whatever close says */
        if (fd == tmp_fd)
            tmp_fd = -1;
        errno = e;
        return -1;
    }
    if (fd == tmp_fd)
        tmp_fd = -1;
    return real_close(fd);
}

int rename(const char *from, const char *to)
{
    return fails("rename", -1, 0) ? -1 : real_rename(from, to);
}

int link(const char *from, const char *to)
{
    return fails("link", -1, 0) ? -1 : real_link(from, to);
}

int ftruncate(int fd, off_t size)
{
    return fails("ftruncate", fd, 0) ? -1 : real_ftruncate(fd, size);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    struct rule *r = hit("write", fd, n);
    if (r && r->act == ACT_EOF)
        return 0;
    if (r && r->act == ACT_SHORT)
        return real_write(fd, buf, n ? 1 : 0);
    if (r && r->act == ACT_SIGNAL)
        raise(r->value);
    else if (r && r->act == ACT_SHRINK)
        shrink();
    else if (r) {
        errno = r->value;
        return -1;
    }
    return real_write(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    struct rule *r = hit_at("pwrite", fd, n, (long long)off);
    if (r && r->act == ACT_EOF)
        return 0;
    if (r && r->act == ACT_SHORT)
        return real_pwrite(fd, buf, n ? 1 : 0, off);
    if (r && r->act == ACT_SIGNAL)
        raise(r->value);
    else if (r && r->act == ACT_SHRINK)
        shrink();
    else if (r) {
        errno = r->value;
        return -1;
    }
    return real_pwrite(fd, buf, n, off);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    struct rule *r = hit_at("pread", fd, n, (long long)off);
    if (r && r->act == ACT_EOF)
        return 0;
    if (r && r->act == ACT_SHORT)
        return real_pread(fd, buf, n ? 1 : 0, off);
    if (r && r->act == ACT_SHRINK)
        shrink();
    else if (r && r->act == ACT_SIGNAL)
        raise(r->value);
    else if (r) {
        errno = r->value;
        return -1;
    }
    return real_pread(fd, buf, n, off);
}

ssize_t read(int fd, void *buf, size_t n)
{
    struct rule *r = hit("read", fd, n);
    if (r && r->act == ACT_EOF)
        return 0;
    if (r && r->act == ACT_SHORT)
        return real_read(fd, buf, n ? 1 : 0);
    if (r && r->act == ACT_SHRINK)
        shrink();
    else if (r && r->act == ACT_SIGNAL)
        raise(r->value);
    else if (r) {
        errno = r->value;
        return -1;
    }
    return real_read(fd, buf, n);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return fails("mmap", fd, 0) ? MAP_FAILED : real_mmap(addr, len, prot, flags, fd, off);
}

int fstat(int fd, struct stat *st)
{
    return fails("fstat", fd, 0) ? -1 : real_fstat(fd, st);
}

FILE *open_memstream(char **buf, size_t *size)
{
    return fails("open_memstream", -1, 0) ? NULL : real_open_memstream(buf, size);
}

FILE *tmpfile(void)
{
    return fails("tmpfile", -1, 0) ? NULL : real_tmpfile();
}

/* ---- counting only while main runs ---- */

static int (*real_main)(int, char **, char **);

static int wrapped_main(int argc, char **argv, char **envp)
{
    note("armed", 0);
    armed = 1;
    int status = real_main(argc, argv, envp);
    armed = 0;
    return status;
}

int __libc_start_main(int (*main)(int, char **, char **), int argc, char **argv,
                      void (*initf)(void), void (*finif)(void), void (*rtld_fini)(void),
                      void *stack_end);

int __libc_start_main(int (*main)(int, char **, char **), int argc, char **argv,
                      void (*initf)(void), void (*finif)(void), void (*rtld_fini)(void),
                      void *stack_end)
{
    int (*real_start)(int (*)(int, char **, char **), int, char **, void (*)(void),
                      void (*)(void), void (*)(void), void *);
    FIND(real_start, "__libc_start_main");
    real_main = main;
    return real_start(wrapped_main, argc, argv, initf, finif, rtld_fini, stack_end);
}

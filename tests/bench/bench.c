/* `make bench`: npydt next to NumPy and next to plain C passes over the
 * same bytes, interleaved in one run, printed as one table of ratios.
 *
 *   npydt_bench [--python PY] [--worker numpy_worker.py] [--npydt CLI]
 *               [--tmp DIR] [--out FILE] [--rounds N] [--quick]
 *
 * Each measurement is repeated in rounds; within a round npydt, its C
 * baselines and NumPy run one after the other on the same data (NumPy in
 * the worker tests/bench/numpy_worker.py, which this program drives over a
 * pipe and which maps the very same record memory). Every figure of the
 * table is a ratio of two times of the same round; the table gives the
 * minimum, median and maximum of that ratio over the rounds (the first,
 * calibrating round is not counted) and judges the target on the median.
 * Absolute times per round go to --out as tab-separated values.
 *
 * Sections:
 *   1. header parse: five families, npydt_header_parse (+ free) against
 *      NumPy's read_magic + read_array_header_1_0/2_0; and npydt alone on
 *      headers from about 100 bytes to 16 MB (ns per header byte).
 *   2. byteswap of 10 million 68-byte mixed records, in place and into
 *      another buffer, against an in-place read-modify-write pass, memcpy,
 *      ndarray.byteswap(inplace=True) and astype(newbyteorder('=')).
 *   3. gather of pos.y into a native double array against a read-only pass
 *      over the records and NumPy's copyto.
 *   4. open + header + map of a 1 GB (sparse) file: npydt_reader_open_path
 *      (in_memory) against
 *      the bare system calls and np.load(mmap_mode='r').
 *   5. process time of `npydt inspect` against python3 + NumPy np.load.
 *   6. appending 128 MB of records to a new file through npydt_writer (in
 *      1 MiB blocks, and one record per call) against write(2) of 1 MiB
 *      blocks of the same bytes to the same folder.
 *   7. `npydt dump --jsonl` of 100,000 and `dump --csv` of 10,000 68-byte
 *      records (a whole process, output to /dev/null) against NumPy's way
 *      in the worker: json.dumps(record.tolist()) per record, np.savetxt.
 *   8. `npydt load --jsonl` on lines of the 68-byte record (a process,
 *      CPU and wall time) against NumPy's way in the worker: json.loads
 *      per line, the rows made tuples, np.array(rows, dtype), np.save.
 *
 * Large files live in --tmp and are removed at exit, on error and on
 * SIGINT / SIGTERM / SIGHUP; record buffers total about 2.2 GB with
 * NumPy's. Needs no root. Linux only (memfd_create). */
#define _GNU_SOURCE   /* memfd_create */
#include "npydt.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_ROUNDS 31

/* The 68-byte packed record of sections 2-4. */
static const char mixed_descr[] =
    "[('t', '>M8[ns]'), ('id', '>u4'), ('flag', '|b1'), ('pos', [('x', '>f8'), "
    "('y', '>f8'), ('z', '>f8')]), ('name', '|S7'), ('samples', '>i2', (8,)), "
    "('c', '>c8')]";

/* ---- configuration ------------------------------------------------------- */

struct config {
    const char *python;
    const char *worker;
    const char *npydt;
    const char *tmp;         /* directory for the files; NULL: make one */
    const char *out;         /* raw per-round times, or NULL */
    int rounds;              /* counted rounds (odd is best for medians) */
    int quick;               /* small sizes, for trying the program out */
    uint64_t records;        /* of section 2 and 3 */
    uint64_t big_bytes;      /* size of the file of section 4 */
    size_t sweep_max;        /* largest header of the ns/byte sweep */
    double round_ns;         /* target time of one cheap measurement */
    const char *only;        /* one section (--only), or NULL for all */
};

/* ---- files to remove, whatever happens ------------------------------------ */

#define MAX_CLEANUP 16
static char cleanup_path[MAX_CLEANUP][PATH_MAX];
static volatile sig_atomic_t cleanup_count;
static char cleanup_dir[PATH_MAX];
static volatile sig_atomic_t cleanup_own_dir;

/* Async-signal-safe: unlink and rmdir only. */
static void cleanup_files(void)
{
    for (int i = 0; i < cleanup_count; i++)
        unlink(cleanup_path[i]);
    if (cleanup_own_dir)
        rmdir(cleanup_dir);
}

static void on_signal(int sig)
{
    cleanup_files();
    raise(sig);   /* SA_RESETHAND: the default action, once the handler returns */
}

static void install_cleanup(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = (int)SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGABRT, SIGFPE};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    signal(SIGPIPE, SIG_IGN);   /* a dead worker is an error, not a death */
    atexit(cleanup_files);
}

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("npydt_bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

/* A path in the work directory, registered for removal before it exists. */
static const char *tmp_file(const char *dir, const char *name)
{
    if (cleanup_count >= MAX_CLEANUP)
        die("too many temporary files");
    char *p = cleanup_path[cleanup_count];
    if ((size_t)snprintf(p, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
        die("path too long: %s/%s", dir, name);
    cleanup_count++;
    return p;
}

static void check(npydt_status st, const npydt_error *err, const char *what)
{
    if (st != NPYDT_OK)
        die("%s: %s: %s", what, npydt_status_name(st), err->message);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory (%zu bytes)", n);
    return p;
}

/* ---- time ------------------------------------------------------------------ */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef void (*op_fn)(void *ctx);

/* Time of `iters` calls, per call, in ns. */
static double time_op(op_fn fn, void *ctx, long iters)
{
    double t0 = now_ns();
    for (long i = 0; i < iters; i++)
        fn(ctx);
    return (now_ns() - t0) / (double)iters;
}

/* Calls that make one measurement last about target_ns (at least one). */
static long calibrate(op_fn fn, void *ctx, double target_ns)
{
    long iters = 1;
    for (;;) {
        double per = time_op(fn, ctx, iters);
        double total = per * (double)iters;
        if (total >= target_ns / 8 || iters >= 100000000L) {
            double want = target_ns / (per > 1 ? per : 1);
            return want < 1 ? 1 : want > 1e9 ? 1000000000L : (long)want;
        }
        iters *= 8;
    }
}

/* ---- series and rows --------------------------------------------------------- */

/* ns per operation of one thing, one value per counted round. */
struct series {
    char name[96];
    int section;
    double v[MAX_ROUNDS];
    int n;
    bool na;
};

#define MAX_SERIES 96
static struct series all_series[MAX_SERIES];
static int nseries;

static struct series *series_new(int section, const char *fmt, ...)
{
    if (nseries >= MAX_SERIES)
        die("too many series");
    struct series *s = &all_series[nseries++];
    memset(s, 0, sizeof *s);
    s->section = section;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->name, sizeof s->name, fmt, ap);
    va_end(ap);
    return s;
}

static void series_add(struct series *s, double ns)
{
    if (s->n < MAX_ROUNDS)
        s->v[s->n++] = ns;
}

enum figure { TIME_RATIO, SPEEDUP };   /* npydt / baseline, or baseline / npydt */

struct row {
    int section;                 /* 0: a section heading */
    char what[100];
    char against[64];
    enum figure fig;
    char target_op;              /* '<' (at most), '>' (at least), 0 (none) */
    double target;
    double r[MAX_ROUNDS];
    int n;
    bool na;
};

#define MAX_ROWS 64
static struct row rows[MAX_ROWS];
static int nrows;

static void heading(const char *text)
{
    if (nrows >= MAX_ROWS)
        die("too many rows");
    struct row *r = &rows[nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->what, sizeof r->what, "%s", text);
}

/* A row of ratios, round by round, of npydt's series to a baseline's. */
static struct row *row_add(int section, const char *what, const char *against,
                           const struct series *npydt, const struct series *base,
                           enum figure fig, char target_op, double target)
{
    if (nrows >= MAX_ROWS)
        die("too many rows");
    struct row *r = &rows[nrows++];
    memset(r, 0, sizeof *r);
    r->section = section;
    snprintf(r->what, sizeof r->what, "%s", what);
    snprintf(r->against, sizeof r->against, "%s", against);
    r->fig = fig;
    r->target_op = target_op;
    r->target = target;
    r->na = npydt->na || base->na || npydt->n == 0 || base->n == 0;
    int n = npydt->n < base->n ? npydt->n : base->n;
    for (int i = 0; i < n && !r->na; i++)
        r->r[r->n++] = fig == SPEEDUP ? base->v[i] / npydt->v[i] : npydt->v[i] / base->v[i];
    return r;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void stats(const double *v, int n, double *mn, double *med, double *mx)
{
    double s[MAX_ROUNDS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    *mn = s[0];
    *mx = s[n - 1];
    *med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static const char *fmt_ratio(char *buf, size_t size, double v)
{
    if (v >= 100)
        snprintf(buf, size, "%.0fx", v);
    else if (v >= 10)
        snprintf(buf, size, "%.1fx", v);
    else
        snprintf(buf, size, "%.2fx", v);
    return buf;
}

/* ---- the NumPy worker ----------------------------------------------------------- */

struct worker {
    pid_t pid;
    FILE *to, *from;
    bool ok;                 /* NumPy answers */
    char version[128];       /* NumPy's, or why there is none */
};

static void worker_start(struct worker *w, const struct config *cfg)
{
    memset(w, 0, sizeof *w);
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0)
        die("pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execlp(cfg->python, cfg->python, cfg->worker, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    /* the processes of section 5 must not hold the worker's pipes open */
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    w->pid = pid;
    w->to = fdopen(in[1], "w");
    w->from = fdopen(out[0], "r");
    if (!w->to || !w->from)
        die("fdopen: %s", strerror(errno));
    snprintf(w->version, sizeof w->version, "not available");
}

/* Send one command, read one line into reply. False if the worker is gone. */
static bool worker_ask(struct worker *w, char *reply, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(w->to, fmt, ap);
    va_end(ap);
    fputc('\n', w->to);
    if (fflush(w->to) != 0 || !fgets(reply, (int)size, w->from)) {
        snprintf(reply, size, "error the worker exited");
        return false;
    }
    reply[strcspn(reply, "\n")] = 0;
    return true;
}

static void worker_hello(struct worker *w, const struct config *cfg)
{
    char reply[512];
    if (!worker_ask(w, reply, sizeof reply, "hello")) {
        snprintf(w->version, sizeof w->version, "n/a (cannot run %s %s)", cfg->python,
                 cfg->worker);
        return;
    }
    if (strncmp(reply, "ok ", 3) == 0) {
        w->ok = true;
        snprintf(w->version, sizeof w->version, "%.40s", reply + 3);
    } else {
        snprintf(w->version, sizeof w->version, "n/a (%.100s)",
                 strncmp(reply, "nonumpy ", 8) == 0 ? reply + 8 : reply);
    }
}

/* A timed command: "CMD ITERS ..." answers total ns first. Returns ns per
 * iteration, or a negative value when NumPy could not do it. */
static double worker_time(struct worker *w, long iters, long *extra, const char *fmt, ...)
{
    if (!w->ok)
        return -1;
    char cmd[PATH_MAX + 128], reply[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    /* the command's first word, then the iterations, then the rest */
    char head[64];
    size_t k = strcspn(cmd, " ");
    snprintf(head, sizeof head, "%.*s", (int)k, cmd);
    if (!worker_ask(w, reply, sizeof reply, "%s %ld%s", head, iters, cmd + k)) {
        fprintf(stderr, "npydt_bench: NumPy worker: %s\n", reply);
        w->ok = false;
        return -1;
    }
    char *end;
    double total = strtod(reply, &end);
    if (end == reply) {
        fprintf(stderr, "npydt_bench: NumPy worker: %s: %s\n", head, reply);
        return -1;
    }
    if (extra)
        *extra = strtol(end, NULL, 10);
    return total / (double)iters;
}

/* Iterations that make a NumPy measurement last about target_ns. */
static long worker_calibrate(struct worker *w, double target_ns, const char *cmd)
{
    double per = worker_time(w, 1, NULL, "%s", cmd);   /* first call: warm-up */
    per = worker_time(w, 1, NULL, "%s", cmd);
    if (per <= 0)
        return 1;
    if (per < target_ns / 1000) {
        double p2 = worker_time(w, 100, NULL, "%s", cmd);
        if (p2 > 0)
            per = p2;
    }
    double want = target_ns / per;
    return want < 1 ? 1 : (long)want;
}

static void worker_stop(struct worker *w)
{
    if (w->to)
        fclose(w->to);
    if (w->from)
        fclose(w->from);
    if (w->pid > 0)
        waitpid(w->pid, NULL, 0);
}

/* ---- machine description ------------------------------------------------------------ */

static void describe_machine(char *buf, size_t size, const struct worker *w, const char *python)
{
    char model[128] = "unknown CPU";
    double mem_gib = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    if (f) {
        while (fgets(line, sizeof line, f))
            if (strncmp(line, "model name", 10) == 0) {
                char *c = strchr(line, ':');
                if (c) {
                    c++;
                    while (*c == ' ')
                        c++;
                    c[strcspn(c, "\n")] = 0;
                    snprintf(model, sizeof model, "%s", c);
                }
                break;
            }
        fclose(f);
    }
    f = fopen("/proc/meminfo", "r");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            unsigned long long kb;
            if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
                mem_gib = (double)kb / 1048576.0;
        }
        fclose(f);
    }
    struct utsname u;
    char kernel[200] = "";
    if (uname(&u) == 0)
        snprintf(kernel, sizeof kernel, "%.20s %.100s %.20s", u.sysname, u.release, u.machine);
    snprintf(buf, size,
             "machine: %ld cores (nproc), %s, %.1f GiB RAM, %s\n"
             "built:   %s -O2, no sanitizer; NumPy %s via %s",
             sysconf(_SC_NPROCESSORS_ONLN), model, mem_gib, kernel,
#ifdef __clang__
             "clang " __clang_version__,
#elif defined(__GNUC__)
             "gcc " __VERSION__,
#else
             "cc",
#endif
             w->version, python);
}

/* ---- section 1: header parse -------------------------------------------------------------- */

struct text {
    char *p;
    size_t len, cap;
};

static void tput(struct text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0)
            die("vsnprintf failed");
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        t->cap = t->cap * 2 + (size_t)n + 64;
        t->p = realloc(t->p, t->cap);
        if (!t->p)
            die("out of memory");
    }
}

static const char *const cycle_types[] = {"<f8", "<f4", "<i4", "<u2", "|S8"};

static const char *human_bytes(char *buf, size_t size, size_t n)
{
    if (n >= 1000000)
        snprintf(buf, size, "%.1f MB", (double)n / 1e6);
    else if (n >= 1000)
        snprintf(buf, size, "%.1f KB", (double)n / 1e3);
    else
        snprintf(buf, size, "%zu B", n);
    return buf;
}

/* The descriptor literal of a benchmark family. */
static char *family_descr(int family)
{
    struct text t = {xmalloc(256), 0, 256};
    t.p[0] = 0;
    switch (family) {
    case 0:
        tput(&t, "'<f8'");
        break;
    case 1:
        tput(&t, "[('id', '<i8'), ('x', '<f8'), ('y', '<f8'), ('z', '<f4'), ('flag', '|b1'), "
                 "('name', '|S16'), ('count', '<u4'), ('t', '<M8[ns]'), ('v', '<i2'), "
                 "('c', '<c16')]");
        break;
    case 2:   /* root -> struct -> struct -> scalars; subarrays at every level; 40 leaves */
        tput(&t,
             "[('meta', [('id', '<u8'), ('ts', '<M8[us]'), ('flags', '|u1', (4,)), "
             "('src', [('host', '|S16'), ('port', '<u2'), ('addr', '|u1', (16,))])]), "
             "('pose', [('pos', [('x', '<f8'), ('y', '<f8'), ('z', '<f8')]), "
             "('rot', [('w', '<f4'), ('x', '<f4'), ('y', '<f4'), ('z', '<f4')]), "
             "('cov', '<f4', (6, 6))]), "
             "('imu', [('acc', [('x', '<f4'), ('y', '<f4'), ('z', '<f4')], (4,)), "
             "('gyr', [('x', '<f4'), ('y', '<f4'), ('z', '<f4')], (4,)), ('temp', '<f2')]), "
             "('gps', [('fix', [('lat', '<f8'), ('lon', '<f8'), ('alt', '<f4'), ('sats', '|u1')]), "
             "('dop', [('h', '<f4'), ('v', '<f4'), ('p', '<f4')]), ('time', '<M8[ns]')]), "
             "('cells', [('v', '<f4'), ('t', '<f4'), ('ok', '|b1')], (12,)), "
             "('status', [('code', '<i4'), ('msg', '|S32'), "
             "('counters', [('rx', '<u8'), ('tx', '<u8'), ('err', '<u4'), ('drop', '<u4')])]), "
             "('crc', '>u4'), ('seq', '>u8')]");
        break;
    case 3:   /* 2,000 fields with long names: beyond 65,535 bytes, so version 2.0 */
        tput(&t, "[");
        for (int i = 0; i < 2000; i++)
            tput(&t, "%s('sensor_channel_%04d_calibrated_value', '%s')", i ? ", " : "", i,
                 cycle_types[i % 5]);
        tput(&t, "]");
        break;
    case 4:
        tput(&t, "[");
        for (int i = 0; i < 20000; i++)
            tput(&t, "%s('f%05d', '%s')", i ? ", " : "", i, cycle_types[i % 5]);
        tput(&t, "]");
        break;
    }
    return t.p;
}

/* Descriptor of `nfields` flat f8 fields (the ns/byte sweep). */
static char *sweep_descr(size_t nfields)
{
    struct text t = {xmalloc(256), 0, 256};
    tput(&t, "[");
    for (size_t i = 0; i < nfields; i++)
        tput(&t, "%s('f%07zu', '<f8')", i ? ", " : "", i);
    tput(&t, "]");
    return t.p;
}

/* A whole .npy header (no data) of descr with shape (count,). */
static unsigned char *make_header(const char *descr, uint64_t count, const npydt_options *o,
                                  size_t *len)
{
    npydt_error err;
    npydt_dtype *dt;
    check(npydt_header_parse_descr(descr, strlen(descr), o, &dt, &err), &err, "descriptor");
    uint64_t shape[1] = {count};
    size_t n = npydt_header_write(dt, shape, 1, 0, NULL, 0, &err);
    if (n == 0)
        die("header_write: %s", err.message);
    unsigned char *buf = xmalloc(n);
    if (npydt_header_write(dt, shape, 1, 0, buf, n, &err) != n)
        die("header_write: %s", err.message);
    npydt_dtype_free(dt);
    *len = n;
    return buf;
}

static void write_file(const char *path, const void *buf, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        die("%s: %s", path, strerror(errno));
    if (write(fd, buf, len) != (ssize_t)len)
        die("%s: write failed", path);
    close(fd);
}

struct parse_ctx {
    const unsigned char *buf;
    size_t len;
    const npydt_options *opts;
};

static void op_parse(void *vctx)
{
    struct parse_ctx *c = vctx;
    npydt_header *h;
    npydt_error err;
    check(npydt_header_parse(c->buf, c->len, c->opts, &h, &err), &err, "header parse");
    npydt_header_free(h);
}

static void section_headers(const struct config *cfg, struct worker *w, const char *dir,
                            const npydt_options *opts)
{
    static const char *const names[] = {"'<f8' one line", "10 flat fields",
                                        "3-level nested, subarrays", "2,000 fields",
                                        "20,000 fields"};
    heading("1. header parse: npydt_header_parse + npydt_header_free vs NumPy read_magic + "
            "read_array_header_N_0");
    heading("   (the parse's target is its instruction count: the callgrind table before "
            "this one)");
    for (int fam = 0; fam < 5; fam++) {
        char *descr = family_descr(fam);
        size_t len;
        unsigned char *hdr = make_header(descr, 1000, opts, &len);
        free(descr);
        char fname[32];
        snprintf(fname, sizeof fname, "header%d.npy", fam);
        const char *path = tmp_file(dir, fname);
        write_file(path, hdr, len);

        npydt_header *h;
        npydt_error err;
        check(npydt_header_parse(hdr, len, opts, &h, &err), &err, "header parse");
        int major = npydt_header_version_major(h);
        size_t nleaves;
        npydt_dtype_leaves(npydt_header_dtype(h), &nleaves);
        size_t itemsize = npydt_dtype_itemsize(npydt_header_dtype(h));
        npydt_header_free(h);

        struct parse_ctx c = {hdr, len, opts};
        fprintf(stderr, "npydt_bench: header %s (%zu bytes, %zu leaves)\n", names[fam], len,
                nleaves);
        char cmd[PATH_MAX + 16];
        snprintf(cmd, sizeof cmd, "hdr %s", path);
        long it_c = calibrate(op_parse, &c, cfg->round_ns);
        long it_py = worker_calibrate(w, cfg->round_ns, cmd);
        struct series *sn = series_new(1, "npydt header parse %s", names[fam]);
        struct series *sp = series_new(1, "numpy header read %s", names[fam]);
        for (int r = 0; r < cfg->rounds; r++) {
            series_add(sn, time_op(op_parse, &c, it_c));
            long np_itemsize = -1;
            double t = worker_time(w, it_py, &np_itemsize, "%s", cmd);
            if (t < 0)
                sp->na = true;
            else
                series_add(sp, t);
            if (t >= 0 && np_itemsize != (long)itemsize)
                die("NumPy reads itemsize %ld from %s, npydt %zu", np_itemsize, path, itemsize);
        }
        char what[100], against[64], size[32];
        snprintf(what, sizeof what, "%s: %s, v%d.0, %zu lea%s", names[fam],
                 human_bytes(size, sizeof size, len), major, nleaves, nleaves == 1 ? "f" : "ves");
        snprintf(against, sizeof against, "NumPy read_array_header_%d_0", major);
        row_add(1, what, against, sn, sp, SPEEDUP, 0, 0);
        free(hdr);
    }

    /* ns per header byte, npydt alone */
    heading("   npydt alone on growing headers of '<f8' fields: ns per header byte vs the same at "
            "the smallest");
    size_t targets[] = {100, 1000, 10000, 100000, 1000000, 16000000};
    size_t ntargets = sizeof targets / sizeof targets[0];
    struct series *sw[8];
    size_t sizes[8], nfields[8];
    unsigned char *bufs[8];
    struct parse_ctx ctx[8];
    long iters[8];
    size_t ns = 0;
    for (size_t i = 0; i < ntargets && targets[i] <= cfg->sweep_max; i++) {
        /* "('f0000000', '<f8'), " is 21 bytes; the rest about 60 */
        size_t nf = targets[i] > 81 ? (targets[i] - 60) / 21 : 1;
        char *descr = sweep_descr(nf);
        bufs[ns] = make_header(descr, 1000, opts, &sizes[ns]);
        free(descr);
        ctx[ns] = (struct parse_ctx){bufs[ns], sizes[ns], opts};
        nfields[ns] = nf;
        iters[ns] = calibrate(op_parse, &ctx[ns], cfg->round_ns);
        sw[ns] = series_new(1, "npydt ns per byte, %zu-byte header (%zu fields)", sizes[ns], nf);
        ns++;
    }
    fprintf(stderr, "npydt_bench: header sweep, %zu to %zu bytes\n", sizes[0], sizes[ns - 1]);
    for (int r = 0; r < cfg->rounds; r++)
        for (size_t i = 0; i < ns; i++)
            series_add(sw[i], time_op(op_parse, &ctx[i], iters[i]) / (double)sizes[i]);
    for (size_t i = 1; i < ns; i++) {
        char what[100], against[64], size[32];
        snprintf(what, sizeof what, "ns/byte, %s header (%zu fields)",
                 human_bytes(size, sizeof size, sizes[i]), nfields[i]);
        snprintf(against, sizeof against, "ns/byte, %s header (%zu field%s)",
                 human_bytes(size, sizeof size, sizes[0]), nfields[0], nfields[0] == 1 ? "" : "s");
        row_add(1, what, against, sw[i], sw[0], TIME_RATIO, '<', 1.5);
    }
    for (size_t i = 0; i < ns; i++)
        free(bufs[i]);
}

/* ---- sections 2 and 3: byteswap and gather ------------------------------------------------- */

static volatile uint64_t sink;

/* In place: every 8-byte word read, changed and written back. */
static void rmw_pass(unsigned char *p, size_t bytes)
{
    size_t i = 0;
    for (; i + 16 <= bytes; i += 16) {
        uint64_t a, b;
        memcpy(&a, p + i, 8);
        memcpy(&b, p + i + 8, 8);
        a ^= 0x5a5a5a5a5a5a5a5aull;
        b ^= 0x5a5a5a5a5a5a5a5aull;
        memcpy(p + i, &a, 8);
        memcpy(p + i + 8, &b, 8);
    }
    for (; i < bytes; i++)
        p[i] ^= 0x5a;
}

/* Read-only: every 8-byte word summed, four independent sums. */
static void read_pass(const unsigned char *p, size_t bytes)
{
    uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    size_t i = 0;
    for (; i + 32 <= bytes; i += 32) {
        uint64_t a, b, c, d;
        memcpy(&a, p + i, 8);
        memcpy(&b, p + i + 8, 8);
        memcpy(&c, p + i + 16, 8);
        memcpy(&d, p + i + 24, 8);
        s0 += a, s1 += b, s2 += c, s3 += d;
    }
    for (; i < bytes; i++)
        s0 += p[i];
    sink = s0 + s1 + s2 + s3;
}

struct rec_ctx {
    unsigned char *a, *b;
    double *g;
    uint64_t n;
    size_t itemsize, bytes;
    npydt_swap_plan *plan;
    const npydt_dtype *y;
    uint64_t yoff;
};

static void op_rmw(void *v)
{
    struct rec_ctx *c = v;
    rmw_pass(c->a, c->bytes);
}

static void op_memcpy(void *v)
{
    struct rec_ctx *c = v;
    memcpy(c->b, c->a, c->bytes);
}

static void op_read(void *v)
{
    struct rec_ctx *c = v;
    read_pass(c->a, c->bytes);
}

static void op_swap_inplace(void *v)
{
    struct rec_ctx *c = v;
    npydt_error err;
    check(npydt_swap(c->plan, NPYDT_ORDER_SWAP, c->a, c->a, c->n, &err), &err, "swap");
}

static void op_swap_copy(void *v)
{
    struct rec_ctx *c = v;
    npydt_error err;
    check(npydt_swap(c->plan, NPYDT_ORDER_NATIVE, c->a, c->b, c->n, &err), &err, "swap");
}

static void op_gather(void *v)
{
    struct rec_ctx *c = v;
    npydt_error err;
    check(npydt_gather(c->a, c->itemsize, c->n, c->y, c->yoff, NPYDT_AS_DOUBLE, c->g, &err),
          &err, "gather");
}

static void section_records(const struct config *cfg, struct worker *w, int fd,
                            const npydt_options *opts)
{
    npydt_error err;
    npydt_dtype *dt;
    check(npydt_header_parse_descr(mixed_descr, strlen(mixed_descr), opts, &dt, &err), &err,
          "mixed descriptor");
    struct rec_ctx c;
    memset(&c, 0, sizeof c);
    c.n = cfg->records;
    c.itemsize = npydt_dtype_itemsize(dt);
    c.bytes = (size_t)c.n * c.itemsize;
    check(npydt_swap_plan_new(dt, opts, &c.plan, &err), &err, "swap plan");
    check(npydt_field_lookup(dt, "pos.y", &c.yoff, &c.y, &err), &err, "pos.y");

    /* the records: one memory file, mapped here and in the NumPy worker */
    if (ftruncate(fd, (off_t)c.bytes) != 0)
        die("ftruncate: %s", strerror(errno));
    c.a = mmap(NULL, c.bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (c.a == MAP_FAILED)
        die("mmap of %zu bytes: %s", c.bytes, strerror(errno));
    uint64_t s = 88172645463325252ull;
    for (size_t i = 0; i + 8 <= c.bytes; i += 8) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        memcpy(c.a + i, &s, 8);
    }
    c.b = xmalloc(c.bytes);
    memset(c.b, 0, c.bytes);
    c.g = xmalloc((size_t)c.n * sizeof *c.g);
    memset(c.g, 0, (size_t)c.n * sizeof *c.g);

    char reply[256];
    if (w->ok) {
        /* the worker inherited fd when it was started */
        worker_ask(w, reply, sizeof reply, "data %d %zu %s", fd, c.bytes, mixed_descr);
        if (strcmp(reply, "ok") != 0) {
            fprintf(stderr, "npydt_bench: NumPy worker: data: %s\n", reply);
            w->ok = false;
        }
    }
    fprintf(stderr, "npydt_bench: byteswap and gather, %llu records of %zu bytes (%.0f MB)\n",
            (unsigned long long)c.n, c.itemsize, (double)c.bytes / 1e6);

    struct series *s_rmw = series_new(2, "in-place RMW pass");
    struct series *s_in = series_new(2, "npydt swap in place");
    struct series *s_np_in = series_new(2, "numpy byteswap(inplace=True)");
    struct series *s_cpy = series_new(2, "memcpy");
    struct series *s_out = series_new(2, "npydt swap into another buffer");
    struct series *s_np_out = series_new(2, "numpy astype(newbyteorder('='))");
    struct series *s_read = series_new(3, "read-only pass");
    struct series *s_g = series_new(3, "npydt gather pos.y as double");
    struct series *s_np_g = series_new(3, "numpy copyto(f8 array, a['pos']['y'])");
    /* round 0 warms everything up (page tables, caches) and is not counted */
    for (int r = 0; r <= cfg->rounds; r++) {
        double t;
        bool keep = r > 0;
        t = time_op(op_rmw, &c, 1);
        if (keep)
            series_add(s_rmw, t);
        t = time_op(op_swap_inplace, &c, 1);
        if (keep)
            series_add(s_in, t);
        t = worker_time(w, 1, NULL, "swap_inplace");
        if (t < 0)
            s_np_in->na = true;
        else if (keep)
            series_add(s_np_in, t);
        t = time_op(op_memcpy, &c, 1);
        if (keep)
            series_add(s_cpy, t);
        t = time_op(op_swap_copy, &c, 1);
        if (keep)
            series_add(s_out, t);
        t = worker_time(w, 1, NULL, "swap_copy");
        if (t < 0)
            s_np_out->na = true;
        else if (keep)
            series_add(s_np_out, t);
        t = time_op(op_read, &c, 1);
        if (keep)
            series_add(s_read, t);
        t = time_op(op_gather, &c, 1);
        if (keep)
            series_add(s_g, t);
        t = worker_time(w, 1, NULL, "gather pos.y");
        if (t < 0)
            s_np_g->na = true;
        else if (keep)
            series_add(s_np_g, t);
    }
    char what[100];
    snprintf(what, sizeof what, "swap in place, %.0fM x %zu-byte records",
             (double)c.n / 1e6, c.itemsize);
    heading("2. byteswap: npydt_swap with a compiled plan (NPYDT_ORDER_SWAP in place, "
            "NATIVE into a buffer)");
    row_add(2, what, "in-place read-modify-write pass (C)", s_in, s_rmw, TIME_RATIO, '<', 1.25);
    row_add(2, what, "NumPy a.byteswap(inplace=True)", s_in, s_np_in, SPEEDUP, '>', 5);
    row_add(2, "swap into another buffer", "memcpy of the same bytes", s_out, s_cpy, TIME_RATIO,
            0, 0);
    row_add(2, "swap into another buffer", "NumPy a.astype(dtype.newbyteorder('='))", s_out,
            s_np_out, SPEEDUP, 0, 0);
    heading("3. gather: npydt_gather of pos.y (>f8) as native double into a preallocated array");
    row_add(3, "gather pos.y", "read-only pass over the records (C)", s_g, s_read, TIME_RATIO,
            '<', 1.25);
    row_add(3, "gather pos.y", "NumPy np.copyto(out, a['pos']['y'])", s_g, s_np_g, SPEEDUP, 0,
            0);

    if (w->ok)
        worker_ask(w, reply, sizeof reply, "drop");
    munmap(c.a, c.bytes);
    close(fd);
    free(c.b);
    free(c.g);
    npydt_swap_plan_free(c.plan);
    npydt_dtype_free(dt);
}

/* ---- section 4: open + header + map ------------------------------------------------------------ */

struct open_ctx {
    const char *path;
    size_t header_len;
    size_t file_len;
    npydt_reader_options ropts;   /* in_memory: mapped, else read whole */
    unsigned char buf[4096];
};

static void op_bare(void *v)
{
    struct open_ctx *c = v;
    int fd = open(c->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        die("%s: %s", c->path, strerror(errno));
    if (pread(fd, c->buf, c->header_len, 0) != (ssize_t)c->header_len)
        die("%s: short read", c->path);
    void *m = mmap(NULL, c->file_len, PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        die("mmap: %s", strerror(errno));
    munmap(m, c->file_len);
    close(fd);
}

static void op_reader_open(void *v)
{
    struct open_ctx *c = v;
    npydt_reader *r;
    npydt_error err;
    check(npydt_reader_open_path(c->path, &c->ropts, &r, &err), &err, "reader open");
    const npydt_header *h = npydt_reader_header(r);
    sink += npydt_header_count(h) + (uintptr_t)npydt_reader_bytes(r);
    npydt_reader_close(r);
}

/* ---- section 5: processes ------------------------------------------------------------------------ */

struct spawn_ctx {
    char *const *argv;
    int devnull;
    bool failed;             /* could not start, or exited other than 0 */
    double cpu_ns;           /* user + system time of the last run */
};

static void op_spawn(void *v)
{
    struct spawn_ctx *c = v;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, c->devnull, 1);
    posix_spawn_file_actions_adddup2(&fa, c->devnull, 2);
    pid_t pid;
    int e = posix_spawnp(&pid, c->argv[0], &fa, NULL, c->argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0) {
        c->failed = true;
        return;
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR)
            die("wait4: %s", strerror(errno));
    c->cpu_ns = ((double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec) * 1e9 +
                ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) * 1e3;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        c->failed = true;
}

static bool spawn_ok(struct spawn_ctx *c)
{
    c->failed = false;
    op_spawn(c);
    return !c->failed;
}

static void section_files(const struct config *cfg, struct worker *w, const char *dir,
                          const npydt_options *opts)
{
    npydt_error err;
    npydt_dtype *dt;
    check(npydt_header_parse_descr(mixed_descr, strlen(mixed_descr), opts, &dt, &err), &err,
          "mixed descriptor");
    uint64_t count = cfg->big_bytes / npydt_dtype_itemsize(dt);
    uint64_t shape[1] = {count};
    struct open_ctx *c = xmalloc(sizeof *c);
    npydt_reader_options_init(&c->ropts);
    c->ropts.base = *opts;
    c->ropts.in_memory = 1;
    c->header_len = npydt_header_write(dt, shape, 1, 0, c->buf, sizeof c->buf, &err);
    if (c->header_len == 0 || c->header_len > sizeof c->buf)
        die("header_write: %s", err.message);
    c->file_len = c->header_len + (size_t)(count * npydt_dtype_itemsize(dt));
    npydt_dtype_free(dt);
    c->path = tmp_file(dir, "big.npy");
    /* a valid header, then a hole: the data reads as zeros and takes no disk */
    int fd = open(c->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        die("%s: %s", c->path, strerror(errno));
    if (write(fd, c->buf, c->header_len) != (ssize_t)c->header_len ||
        ftruncate(fd, (off_t)c->file_len) != 0)
        die("%s: cannot write: %s", c->path, strerror(errno));
    close(fd);
    fprintf(stderr, "npydt_bench: open + header + map of a %.2f GB file\n",
            (double)c->file_len / 1e9);

    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "load %s", c->path);
    long it_bare = calibrate(op_bare, c, cfg->round_ns);
    long it_npydt = calibrate(op_reader_open, c, cfg->round_ns);
    long it_py = worker_calibrate(w, cfg->round_ns, cmd);
    struct series *s_bare = series_new(4, "open+pread+mmap+munmap+close");
    struct series *s_open = series_new(4, "npydt_reader_open_path+close");
    struct series *s_np = series_new(4, "np.load(mmap_mode='r')");
    for (int r = 0; r < cfg->rounds; r++) {
        series_add(s_bare, time_op(op_bare, c, it_bare));
        series_add(s_open, time_op(op_reader_open, c, it_npydt));
        double t = worker_time(w, it_py, NULL, "%s", cmd);
        if (t < 0)
            s_np->na = true;
        else
            series_add(s_np, t);
    }
    char title[100];
    snprintf(title, sizeof title,
             "4. open + header + map of a %.1f GB file: npydt_reader_open_path (mmap) + close",
             (double)c->file_len / 1e9);
    heading(title);
    row_add(4, "open + header + map", "open+pread(header)+mmap+munmap+close", s_open, s_bare,
            TIME_RATIO, '<', 2);
    row_add(4, "open + header + map", "NumPy np.load(path, mmap_mode='r')", s_open, s_np,
            SPEEDUP, 0, 0);

    /* processes: npydt inspect against python3 + NumPy, and the bare minimum */
    fprintf(stderr, "npydt_bench: processes\n");
    struct spawn_ctx sp_n, sp_py, sp_true;
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull < 0)
        die("/dev/null: %s", strerror(errno));
    char *argv_n[] = {(char *)cfg->npydt, "inspect", (char *)c->path, NULL};
    char *argv_py[] = {(char *)cfg->python, "-c",
                       "import sys, numpy as np; np.load(sys.argv[1], mmap_mode='r')",
                       (char *)c->path, NULL};
    char *argv_true[] = {"/bin/true", NULL};
    sp_n = (struct spawn_ctx){argv_n, devnull, false, 0};
    sp_py = (struct spawn_ctx){argv_py, devnull, false, 0};
    sp_true = (struct spawn_ctx){argv_true, devnull, false, 0};
    if (!spawn_ok(&sp_n))
        die("%s inspect %s failed", cfg->npydt, c->path);
    bool py_ok = spawn_ok(&sp_py);
    bool true_ok = spawn_ok(&sp_true);
    long it_n = calibrate(op_spawn, &sp_n, cfg->round_ns);
    long it_p = py_ok ? calibrate(op_spawn, &sp_py, cfg->round_ns) : 1;
    long it_t = true_ok ? calibrate(op_spawn, &sp_true, cfg->round_ns) : 1;
    struct series *s_n = series_new(5, "npydt inspect process");
    struct series *s_p = series_new(5, "python3 -c np.load process");
    struct series *s_t = series_new(5, "/bin/true process");
    s_p->na = !py_ok;
    s_t->na = !true_ok;
    for (int r = 0; r < cfg->rounds; r++) {
        series_add(s_n, time_op(op_spawn, &sp_n, it_n));
        if (py_ok)
            series_add(s_p, time_op(op_spawn, &sp_py, it_p));
        if (true_ok)
            series_add(s_t, time_op(op_spawn, &sp_true, it_t));
    }
    close(devnull);
    if (sp_n.failed)
        die("%s inspect %s failed", cfg->npydt, c->path);
    s_p->na = s_p->na || sp_py.failed;
    s_t->na = s_t->na || sp_true.failed;
    heading("5. process time: spawn, run, wait (output to /dev/null)");
    row_add(5, "npydt inspect FILE", "python3 -c 'np.load(FILE, mmap_mode=\"r\")'",
            s_n, s_p, SPEEDUP, 0, 0);
    row_add(5, "npydt inspect FILE", "/bin/true (the cost of any process)", s_n, s_t,
            TIME_RATIO, 0, 0);
    unlink(c->path);
    free(c);
}

/* ---- section 6: appending records ------------------------------------------------------------- */

/* One file of the 68-byte records written whole: through npydt_writer
 * (chunk records per call, flush at close), or with write(2) of 1 MiB
 * blocks after the same header. Both start by removing the last file. */
struct append_ctx {
    const char *path;
    const npydt_dtype *dt;
    const unsigned char *data;   /* the records */
    size_t bytes;                /* all of them */
    size_t itemsize;
    uint64_t chunk;              /* records per npydt_writer_write */
    unsigned char header[4096];
    size_t header_len;
};

static void op_append_writer(void *v)
{
    struct append_ctx *c = v;
    unlink(c->path);
    npydt_writer_options o;
    npydt_writer_options_init(&o);
    o.no_sync = 1;   /* as the baseline: the cost of writing, not of the disk */
    npydt_writer *wr;
    npydt_error err;
    uint64_t shape[1] = {0};
    check(npydt_writer_create_path(c->path, c->dt, shape, 1, &o, &wr, &err), &err, "create");
    uint64_t n = c->bytes / c->itemsize;
    for (uint64_t i = 0; i < n; i += c->chunk) {
        uint64_t k = n - i < c->chunk ? n - i : c->chunk;
        check(npydt_writer_write(wr, c->data + i * c->itemsize, k, &err), &err, "write");
    }
    check(npydt_writer_close(wr, &err), &err, "close");
}

static void op_append_plain(void *v)
{
    struct append_ctx *c = v;
    unlink(c->path);
    int fd = open(c->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, c->header, c->header_len) != (ssize_t)c->header_len)
        die("%s: %s", c->path, strerror(errno));
    for (size_t off = 0; off < c->bytes;) {
        size_t n = c->bytes - off < ((size_t)1 << 20) ? c->bytes - off : (size_t)1 << 20;
        ssize_t r = write(fd, c->data + off, n);
        if (r <= 0)
            die("%s: %s", c->path, strerror(errno));
        off += (size_t)r;
    }
    close(fd);
}

static void section_append(const struct config *cfg, const char *dir, const npydt_options *opts)
{
    npydt_error err;
    npydt_dtype *dt;
    check(npydt_header_parse_descr(mixed_descr, strlen(mixed_descr), opts, &dt, &err), &err,
          "mixed descriptor");
    struct append_ctx *c = xmalloc(sizeof *c);
    c->dt = dt;
    c->itemsize = npydt_dtype_itemsize(dt);
    uint64_t count = (cfg->quick ? (16u << 20) : (128u << 20)) / c->itemsize;
    c->bytes = (size_t)count * c->itemsize;
    unsigned char *data = xmalloc(c->bytes);
    for (size_t i = 0; i < c->bytes; i++)
        data[i] = (unsigned char)(i * 131u >> 3);
    c->data = data;
    c->path = tmp_file(dir, "append.npy");
    uint64_t shape[1] = {count};
    c->header_len = npydt_header_write(dt, shape, 1, 0, c->header, sizeof c->header, &err);
    if (c->header_len == 0 || c->header_len > sizeof c->header)
        die("header_write: %s", err.message);
    fprintf(stderr, "npydt_bench: appending %.0f MB of records\n", (double)c->bytes / 1e6);
    struct series *s_plain = series_new(6, "write(2) of 1 MiB blocks");
    struct series *s_block = series_new(6, "npydt_writer_write of 1 MiB of records");
    struct series *s_one = series_new(6, "npydt_writer_write of one record");
    uint64_t block = ((uint64_t)1 << 20) / c->itemsize;
    for (int r = 0; r <= cfg->rounds; r++) {   /* round 0 warms the page cache: not counted */
        double t_plain = time_op(op_append_plain, c, 1);
        c->chunk = block;
        double t_block = time_op(op_append_writer, c, 1);
        c->chunk = 1;
        double t_one = time_op(op_append_writer, c, 1);
        if (r == 0)
            continue;
        series_add(s_plain, t_plain);
        series_add(s_block, t_block);
        series_add(s_one, t_one);
    }
    char title[128];
    snprintf(title, sizeof title,
             "6. append %.0f MB of 68-byte records to a new file, flushed at close (no fsync)",
             (double)c->bytes / 1e6);
    heading(title);
    row_add(6, "npydt_writer_write, 1 MiB of records per call", "write(2) of the same bytes",
            s_block, s_plain, SPEEDUP, '>', 0.9);
    row_add(6, "npydt_writer_write, one record per call", "write(2) of the same bytes", s_one,
            s_plain, SPEEDUP, 0, 0);
    unlink(c->path);
    free(data);
    free(c);
    npydt_dtype_free(dt);
}

/* ---- section 7: dump ---------------------------------------------------------------------------- */

/* A .npy file of count records of the mixed descriptor, with the same
 * pseudo-random bytes as the records of section 2 (NaNs, huge and tiny
 * floats, any bytes in the name: every path of the printers is taken). */
static const char *records_file(const char *dir, const char *name, uint64_t count,
                                const npydt_options *opts)
{
    npydt_error err;
    npydt_dtype *dt;
    check(npydt_header_parse_descr(mixed_descr, strlen(mixed_descr), opts, &dt, &err), &err,
          "mixed descriptor");
    uint64_t shape[1] = {count};
    size_t itemsize = npydt_dtype_itemsize(dt);
    unsigned char hdr[4096];
    size_t hlen = npydt_header_write(dt, shape, 1, 0, hdr, sizeof hdr, &err);
    npydt_dtype_free(dt);
    if (hlen == 0 || hlen > sizeof hdr)
        die("header_write: %s", err.message);
    size_t bytes = (size_t)count * itemsize;
    unsigned char *buf = xmalloc(hlen + bytes);
    memcpy(buf, hdr, hlen);
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i + 8 <= bytes; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        memcpy(buf + hlen + i, &x, 8);
    }
    const char *path = tmp_file(dir, name);
    write_file(path, buf, hlen + bytes);
    free(buf);
    return path;
}

static void section_dump(const struct config *cfg, struct worker *w, const char *dir,
                         const npydt_options *opts)
{
    /* JSON lines of 100,000 records, CSV of 10,000 (np.savetxt takes about
     * 0.4 ms a record) */
    static const char *const modes[] = {"--jsonl", "--csv"};
    static const char *const worker_cmd[] = {"dump_jsonl", "dump_csv"};
    static const char *const against[] = {"json.dumps(rec.tolist()) per record",
                                          "np.savetxt(f, a, fmt='%s', delimiter=',')"};
    uint64_t counts[] = {100000, 10000};
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull < 0)
        die("/dev/null: %s", strerror(errno));
    heading("7. npydt dump of 68-byte records (a process) against NumPy in the worker");
    heading("   (targets: instructions against a writer of the same bytes, "
            "tests/bench/dump_csv.sh)");
    for (int m = 0; m < 2; m++) {
        uint64_t count = cfg->quick ? counts[m] / 10 : counts[m];
        const char *path = records_file(dir, m ? "records_csv.npy" : "records_jsonl.npy",
                                        count, opts);
        fprintf(stderr, "npydt_bench: dump %s of %llu records\n", modes[m],
                (unsigned long long)count);
        char *argv_n[] = {(char *)cfg->npydt, "dump", (char *)modes[m], (char *)path, NULL};
        struct spawn_ctx sp = {argv_n, devnull, false, 0};
        if (!spawn_ok(&sp))
            die("%s dump %s %s failed", cfg->npydt, modes[m], path);
        char cmd[PATH_MAX + 32];
        snprintf(cmd, sizeof cmd, "%s %s", worker_cmd[m], path);
        struct series *s_n = series_new(6, "npydt dump %s", modes[m]);
        struct series *s_p = series_new(6, "numpy %s", worker_cmd[m]);
        for (int r = 0; r <= cfg->rounds; r++) {
            double tn = time_op(op_spawn, &sp, 1);
            double tp = worker_time(w, 1, NULL, "%s", cmd);
            if (r == 0)
                continue;   /* warm-up */
            series_add(s_n, tn);
            if (tp < 0)
                s_p->na = true;
            else
                series_add(s_p, tp);
        }
        if (sp.failed)
            die("%s dump %s %s failed", cfg->npydt, modes[m], path);
        char what[64];
        snprintf(what, sizeof what, "npydt dump %s FILE", modes[m]);
        row_add(7, what, against[m], s_n, s_p, SPEEDUP, 0, 0);
        unlink(path);
    }
    close(devnull);
}

/* ---- section 8: load JSON Lines ------------------------------------------------------------ */

/* The shortest text that reads back as v (as repr() and dump write it). */
static const char *shortest(char *buf, size_t size, double v)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

/* The 68-byte record as dump --jsonl writes it, n lines of varied values. */
static void write_jsonl(const char *path, uint64_t n)
{
    char bx[32], by[32], bz[32], br[32], bi[32];
    FILE *f = fopen(path, "w");
    if (!f)
        die("%s: %s", path, strerror(errno));
    for (uint64_t i = 0; i < n; i++) {
        double x = (double)i * 0.37 - 1000.0, y = 1.0 / ((double)i + 3.0), z = (double)i * 1e-9;
        fprintf(f, "{\"t\":%llu,\"id\":%llu,\"flag\":%s,\"pos\":{\"x\":%s,\"y\":%s,"
                   "\"z\":%s},\"name\":\"rec%04u\",\"samples\":[",
                (unsigned long long)(1600000000000000000ull + i * 1000003ull),
                (unsigned long long)(i * 2654435761u % 4294967291u), i & 1 ? "true" : "false",
                shortest(bx, sizeof bx, x), shortest(by, sizeof by, y),
                shortest(bz, sizeof bz, z), (unsigned)(i % 10000));
        for (int k = 0; k < 8; k++)
            fprintf(f, "%s%d", k ? "," : "", (int)((i * 31 + (uint64_t)k * 977) % 65536) - 32768);
        fprintf(f, "],\"c\":[%s,%s]}\n", shortest(br, sizeof br, (double)(float)(x / 3)),
                shortest(bi, sizeof bi, (double)(float)-y));
    }
    if (fclose(f) != 0)
        die("%s: cannot write", path);
}

static void section_load(const struct config *cfg, struct worker *w, const char *dir)
{
    uint64_t n = cfg->quick ? 20000 : 200000;
    const char *in = tmp_file(dir, "load.jsonl");
    const char *out = tmp_file(dir, "load.npy");
    const char *out_np = tmp_file(dir, "load_np.npy");
    write_jsonl(in, n);
    fprintf(stderr, "npydt_bench: load of %llu JSON lines\n", (unsigned long long)n);
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull < 0)
        die("/dev/null: %s", strerror(errno));
    char *argv_n[] = {(char *)cfg->npydt, "load", "--jsonl", "--dtype", (char *)mixed_descr,
                      "-o", (char *)out, (char *)in, NULL};
    struct spawn_ctx sp = {argv_n, devnull, false, 0};
    if (!spawn_ok(&sp))
        die("%s load %s failed", cfg->npydt, in);
    char cmd[3 * PATH_MAX + sizeof mixed_descr];
    snprintf(cmd, sizeof cmd, "load_jsonl %s %s %s", in, out_np, mixed_descr);
    long cpu = 0;
    double warm = worker_time(w, 1, &cpu, "%s", cmd);   /* also checks that it runs */
    struct series *s_n = series_new(8, "npydt load --jsonl process");
    struct series *s_np = series_new(8, "json.loads + np.array + np.save");
    struct series *c_n = series_new(8, "npydt load --jsonl process, CPU");
    struct series *c_np = series_new(8, "json.loads + np.array + np.save, CPU");
    s_np->na = c_np->na = warm < 0;
    for (int r = 0; r < cfg->rounds; r++) {
        series_add(s_n, time_op(op_spawn, &sp, 1));
        series_add(c_n, sp.cpu_ns);
        double t = s_np->na ? -1 : worker_time(w, 1, &cpu, "%s", cmd);
        if (t < 0) {
            s_np->na = c_np->na = true;
        } else {
            series_add(s_np, t);
            series_add(c_np, (double)cpu);
        }
    }
    close(devnull);
    if (sp.failed)
        die("%s load %s failed", cfg->npydt, in);
    char title[128];
    snprintf(title, sizeof title, "8. load %llu lines of JSON (68-byte records) into a new .npy file",
             (unsigned long long)n);
    heading(title);
    heading("   (targets: instructions against readers of the same records, "
            "tests/bench/load_text.sh)");
    row_add(8, "npydt load --jsonl, CPU time of the process",
            "json.loads per line, np.array, np.save", c_n, c_np, SPEEDUP, 0, 0);
    row_add(8, "npydt load --jsonl, wall time of the process", "the same, wall time", s_n, s_np,
            SPEEDUP, 0, 0);
    unlink(in);
    unlink(out);
    unlink(out_np);
}

/* ---- the table -------------------------------------------------------------------------------------- */

/* The first three fields of /proc/loadavg ("0.52 0.61 0.70"), or "n/a". */
static void load_average(char *buf, size_t size)
{
    snprintf(buf, size, "n/a");
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    double a, b, c;
    if (fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3)
        snprintf(buf, size, "%.2f %.2f %.2f", a, b, c);
    fclose(f);
}

static void print_table(const struct config *cfg, const char *machine, const char *load_start)
{
    char load_end[64];
    load_average(load_end, sizeof load_end);
    printf("npydt benchmark: every figure is a ratio of two times taken in the same round\n"
           "(interleaved, same data); min / median / max over %d rounds; targets judged on "
           "the median.\n"
           "\"faster\" = baseline time / npydt time (higher is better); \"time\" = npydt time / "
           "baseline time (lower is better).\n%s\n"
           "load average (1, 5, 15 min, /proc/loadavg): %s at the start, %s at the end\n\n",
           cfg->rounds, machine, load_start, load_end);
    int ww = 5, wa = 7;
    for (int i = 0; i < nrows; i++)
        if (rows[i].section) {
            int lw = (int)strlen(rows[i].what), la = (int)strlen(rows[i].against);
            ww = lw > ww ? lw : ww;
            wa = la > wa ? la : wa;
        }
    printf("   %-*s  %-*s  %-6s %8s %8s %8s  %-9s %s\n", ww, "npydt", wa, "against", "figure",
           "min", "median", "max", "target", "");
    int pass = 0, miss = 0, na = 0;
    for (int i = 0; i < nrows; i++) {
        const struct row *r = &rows[i];
        if (r->section == 0) {
            printf("%s\n", r->what);
            continue;
        }
        char tgt[32] = "-", mn[16] = "n/a", md[16] = "n/a", mx[16] = "n/a";
        const char *verdict = "";
        if (r->target_op)
            snprintf(tgt, sizeof tgt, "%s %gx", r->target_op == '<' ? "<=" : ">=", r->target);
        if (!r->na && r->n > 0) {
            double a, b, c;
            stats(r->r, r->n, &a, &b, &c);
            fmt_ratio(mn, sizeof mn, a);
            fmt_ratio(md, sizeof md, b);
            fmt_ratio(mx, sizeof mx, c);
            if (r->target_op) {
                bool ok = r->target_op == '<' ? b <= r->target : b >= r->target;
                verdict = ok ? "PASS" : "MISS";
                ok ? pass++ : miss++;
            }
        } else if (r->target_op) {
            verdict = "n/a";
            na++;
        }
        printf("   %-*s  %-*s  %-6s %8s %8s %8s  %-9s %s\n", ww, r->what, wa, r->against,
               r->fig == SPEEDUP ? "faster" : "time", mn, md, mx, tgt, verdict);
    }
    printf("\ntargets: %d PASS, %d MISS%s\n", pass, miss,
           na ? ", some n/a (NumPy not importable)" : "");
}

static void write_raw(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "npydt_bench: %s: %s\n", path, strerror(errno));
        return;
    }
    fprintf(f, "section\tseries\tround\tns_per_op\n");
    for (int i = 0; i < nseries; i++) {
        const struct series *s = &all_series[i];
        if (s->na)
            fprintf(f, "%d\t%s\t-\tn/a\n", s->section, s->name);
        for (int k = 0; k < s->n && !s->na; k++)
            fprintf(f, "%d\t%s\t%d\t%.3f\n", s->section, s->name, k + 1, s->v[k]);
    }
    fclose(f);
}

static void usage(void);

/* ---- --parse-loop: instructions, memory and page faults of one family ------------------- */

/* The least any reader of a one-line header can do, without validating:
 * find 'descr' and 'shape' and read the integers of the shape. text is
 * NUL-terminated. */
static __attribute__((noinline)) uint64_t floor_scan(const char *text)
{
    const char *d = strstr(text, "'descr'"), *s = strstr(text, "'shape'");
    if (!d || !s || !(s = strchr(s, '(')))
        die("floor scan: no descr or shape");
    uint64_t count = 1;
    for (s++; *s && *s != ')';) {
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        if (end == s)
            break;
        count *= v;
        s = end + strspn(end, ", ");
    }
    return count + (uint64_t)(d - text);
}

static __attribute__((noinline)) void floor_loop(const char *text, long iters)
{
    for (long i = 0; i < iters; i++)
        sink += floor_scan(text);
}

static __attribute__((noinline)) void parse_loop(const unsigned char *buf, size_t len,
                                                 const npydt_options *o, long iters)
{
    struct parse_ctx c = {buf, len, o};
    for (long i = 0; i < iters; i++)
        op_parse(&c);
}

static long minor_faults(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

/* Minor page faults of `iters` parses after three: a steady loop (apart
 * from parse_loop, so that callgrind counts only that). */
static __attribute__((noinline)) long steady_faults(const unsigned char *buf, size_t len,
                                                    const npydt_options *o, long iters)
{
    struct parse_ctx c = {buf, len, o};
    for (int i = 0; i < 3; i++)
        op_parse(&c);
    long f0 = minor_faults();
    for (long i = 0; i < iters; i++)
        op_parse(&c);
    return minor_faults() - f0;
}

/* Bytes a parse holds: live and at most, through the caller's allocator. */
struct counting {
    size_t live, peak;
};

static void *count_malloc(void *ctx, size_t size)
{
    struct counting *c = ctx;
    void *p = malloc(size);
    if (p && (c->live += size) > c->peak)
        c->peak = c->live;
    return p;
}

static void *count_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    struct counting *c = ctx;
    void *p = realloc(ptr, new_size);
    if (p) {
        c->live = c->live - old_size + new_size;
        if (c->live > c->peak)
            c->peak = c->live;
    }
    return p;
}

static void count_free(void *ctx, void *ptr, size_t size)
{
    struct counting *c = ctx;
    free(ptr);
    c->live -= size;
}

/* npydt_bench --parse-loop FAMILY ITERS [floor]: parse (or floor-scan)
 * family FAMILY's header ITERS times in parse_loop (floor_loop), for
 * callgrind's --toggle-collect; then print the bytes the result keeps
 * and the peak during a parse, per leaf, and the minor page faults per
 * parse of a steady loop with malloc and with the pool allocator. */
static int parse_loop_main(int argc, char **argv)
{
    if (argc < 4)
        usage();
    int fam = atoi(argv[2]);
    long iters = atol(argv[3]);
    bool floor = argc > 4 && !strcmp(argv[4], "floor");
    if (fam < 0 || fam > 4 || iters < 1)
        usage();
    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_fields = 4000000;
    char *descr = family_descr(fam);
    size_t len;
    unsigned char *hdr = make_header(descr, 1000, &opts, &len);
    free(descr);
    char *text = xmalloc(len + 1);
    memcpy(text, hdr, len);
    text[len] = '\0';
    if (floor)
        floor_loop(text + 10, iters);
    else
        parse_loop(hdr, len, &opts, iters);

    struct counting cnt = {0, 0};
    npydt_allocator a = {count_malloc, count_realloc, count_free, &cnt};
    npydt_options counted = opts;
    counted.allocator = &a;
    npydt_header *h;
    npydt_error err;
    check(npydt_header_parse(hdr, len, &counted, &h, &err), &err, "header parse");
    size_t kept = cnt.live, peak = cnt.peak, fields = 0;
    npydt_dtype_leaves(npydt_header_dtype(h), &fields);
    npydt_header_free(h);
    if (cnt.live != 0)
        die("header parse leaks %zu bytes", cnt.live);
    long steady = 200;
    long faults = steady_faults(hdr, len, &opts, steady);
    /* the same loop with the pool allocator over a buffer of twice the peak */
    size_t pool_size = 2 * peak + 4096;
    void *pool_buf = xmalloc(pool_size);
    npydt_allocator pool;
    if (!npydt_pool_allocator_init(&pool, pool_buf, pool_size))
        die("pool of %zu bytes refused", pool_size);
    npydt_options pooled = opts;
    pooled.allocator = &pool;
    long pool_faults = steady_faults(hdr, len, &pooled, steady);
    free(pool_buf);
    printf("family %d: header %zu bytes, %zu leaves; kept %zu bytes (%.1f per leaf), "
           "peak %zu (%.1f per leaf); minor faults per parse: malloc %.2f, pool %.2f\n",
           fam, len, fields, kept, (double)kept / (double)fields, peak,
           (double)peak / (double)fields, (double)faults / (double)steady,
           (double)pool_faults / (double)steady);
    free(text);
    free(hdr);
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: npydt_bench [--python PY] [--worker numpy_worker.py] "
                    "[--npydt CLI] [--tmp DIR] [--out FILE] [--rounds N] [--quick] "
                    "[--only headers|records|files|append|dump|load]\n"
                    "       npydt_bench --parse-loop FAMILY ITERS [floor]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    struct config cfg = {
        .python = "/usr/bin/python3",
        .worker = "tests/bench/numpy_worker.py",
        .npydt = "build/npydt",
        .rounds = 9,
        .records = 10000000,
        .big_bytes = 1000000000,
        .sweep_max = 16000000,
        .round_ns = 40e6,
    };
    int rounds_set = 0;
    if (argc > 1 && !strcmp(argv[1], "--parse-loop"))
        return parse_loop_main(argc, argv);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick")) {
            cfg.quick = 1;
            continue;
        }
        if (!v)
            usage();
        if (!strcmp(a, "--python"))
            cfg.python = v;
        else if (!strcmp(a, "--worker"))
            cfg.worker = v;
        else if (!strcmp(a, "--npydt"))
            cfg.npydt = v;
        else if (!strcmp(a, "--tmp"))
            cfg.tmp = v;
        else if (!strcmp(a, "--out"))
            cfg.out = v;
        else if (!strcmp(a, "--rounds"))
            cfg.rounds = atoi(v), rounds_set = 1;
        else if (!strcmp(a, "--only"))
            cfg.only = v;
        else
            usage();
        i++;
    }
    if (cfg.quick) {
        cfg.records = 1000000;
        cfg.big_bytes = 100000000;
        cfg.sweep_max = 1000000;
        cfg.round_ns = 10e6;
        if (!rounds_set)
            cfg.rounds = 3;
    }
    if (cfg.rounds < 1 || cfg.rounds >= MAX_ROUNDS)
        die("--rounds must be 1 to %d", MAX_ROUNDS - 1);

    install_cleanup();
    const char *dir = cfg.tmp;
    if (!dir) {
        const char *t = getenv("TMPDIR");
        snprintf(cleanup_dir, sizeof cleanup_dir, "%s/npydt-bench.XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(cleanup_dir))
            die("mkdtemp %s: %s", cleanup_dir, strerror(errno));
        cleanup_own_dir = 1;
        dir = cleanup_dir;
    }

    npydt_options opts;
    npydt_options_init(&opts);
    opts.limits.max_header_bytes = (size_t)1 << 30;   /* the 16 MB header and more */
    opts.limits.max_fields = 4000000;

    /* the memory file of the records, inherited by the worker; the worker
     * first, while this process is small to fork */
    int memfd = memfd_create("npydt-bench-records", 0);
    if (memfd < 0)
        die("memfd_create: %s", strerror(errno));
    struct worker w;
    worker_start(&w, &cfg);
    worker_hello(&w, &cfg);
    char machine[1024];
    describe_machine(machine, sizeof machine, &w, cfg.python);
    fprintf(stderr, "npydt_bench: %s\n", machine);
    if (!w.ok)
        fprintf(stderr, "npydt_bench: NumPy %s: its columns print n/a\n", w.version);

    char load_start[64];
    load_average(load_start, sizeof load_start);
    double t0 = now_ns();
    if (!cfg.only || !strcmp(cfg.only, "headers"))
        section_headers(&cfg, &w, dir, &opts);
    if (!cfg.only || !strcmp(cfg.only, "records"))
        section_records(&cfg, &w, memfd, &opts);
    if (!cfg.only || !strcmp(cfg.only, "files"))
        section_files(&cfg, &w, dir, &opts);
    if (!cfg.only || !strcmp(cfg.only, "append"))
        section_append(&cfg, dir, &opts);
    if (!cfg.only || !strcmp(cfg.only, "dump"))
        section_dump(&cfg, &w, dir, &opts);
    if (!cfg.only || !strcmp(cfg.only, "load"))
        section_load(&cfg, &w, dir);
    worker_stop(&w);
    cleanup_files();

    printf("\n");
    print_table(&cfg, machine, load_start);
    printf("(%.0f s in all)\n", (now_ns() - t0) / 1e9);
    if (cfg.out) {
        write_raw(cfg.out);
        printf("per-round times: %s\n", cfg.out);
    }
    return 0;
}

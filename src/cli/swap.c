/* npydt swap: rewrite a file with another byte order.
 *
 * The new file gets the header np.save would write for the swapped dtype
 * (same shape and order) and the same values. It is written to a temporary
 * file in the destination's directory, flushed to disk, then renamed over
 * the destination: an interrupted run leaves the old destination (or none)
 * and never a partial one. FILE itself is only read. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

static const char swap_usage[] =
    "usage: npydt swap FILE --to little|big|native -o OUT\n"
    "       npydt swap FILE --to little|big|native --in-place\n"
    "\n"
    "Write a copy of the .npy FILE whose every multi-byte scalar is stored in\n"
    "the given byte order, with the header NumPy would write for it; the values\n"
    "are unchanged. OUT is written through a temporary file and a rename, so it\n"
    "is never left half-written; FILE is never modified (--in-place replaces it\n"
    "the same way). Object arrays cannot be swapped (exit 1).\n";

#define CHUNK_BYTES ((size_t)4 << 20)

/* The temporary file, removed if a signal ends the run. */
static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_active;

static void on_signal(int sig)
{
    if (tmp_active)
        unlink(tmp_path);
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

static int write_all(int fd, const void *buf, size_t n)
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

static int io_error(const char *path, const char *what)
{
    fprintf(stderr, "%s: i/o error: %s: %s\n", path, what, strerror(errno));
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

/* Write the swapped file to the temporary path; 0 or an exit status. */
static int write_swapped(int fd, const char *target, const unsigned char *hdr, size_t hlen,
                         const npydt_swap_plan *plan, npydt_order to, const unsigned char *data,
                         uint64_t count, size_t itemsize)
{
    if (write_all(fd, hdr, hlen) != 0)
        return io_error(target, "write failed");
    if (count == 0 || itemsize == 0)
        return 0;
    uint64_t per = itemsize >= CHUNK_BYTES ? 1 : CHUNK_BYTES / itemsize;
    if (per > count)
        per = count;
    unsigned char *buf = malloc((size_t)per * itemsize);
    if (!buf)
        return cli_usage_error("out of memory");
    int rc = 0;
    for (uint64_t i = 0; i < count && rc == 0; i += per) {
        uint64_t k = count - i < per ? count - i : per;
        npydt_error err;
        if (npydt_swap(plan, to, data + i * itemsize, buf, k, &err) != NPYDT_OK)
            rc = cli_report(target, &err);
        else if (write_all(fd, buf, (size_t)(k * itemsize)) != 0)
            rc = io_error(target, "write failed");
    }
    free(buf);
    return rc;
}

/* fortran_order as np.save writes it for the loaded array: an array whose
 * C and Fortran layouts coincide (no data, or at most one dimension above
 * 1) is C-contiguous to NumPy and saved with fortran_order False. */
static int fortran_as_numpy(const npydt_header *h)
{
    if (!npydt_header_fortran_order(h) || npydt_header_count(h) == 0 ||
        npydt_dtype_itemsize(npydt_header_dtype(h)) == 0)
        return 0;
    size_t big = 0;
    for (size_t k = 0; k < npydt_header_ndim(h); k++)
        big += npydt_header_shape(h)[k] > 1;
    return big >= 2;
}

int cmd_swap(int argc, char **argv)
{
    const char *file = NULL, *out = NULL, *order = NULL;
    int in_place = 0, opts_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts_done || a[0] != '-' || !a[1]) {
            if (file)
                return cli_usage_error("swap: more than one FILE ('%s' and '%s')", file, a);
            file = a;
        } else if (strcmp(a, "--") == 0) {
            opts_done = 1;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(swap_usage, stdout);
            return EXIT_OK;
        } else if (strcmp(a, "--to") == 0 || strncmp(a, "--to=", 5) == 0) {
            order = a[4] == '=' ? a + 5 : (i + 1 < argc ? argv[++i] : NULL);
            if (!order)
                return cli_usage_error("swap: --to needs little, big or native");
        } else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
                   strncmp(a, "--output=", 9) == 0) {
            out = strncmp(a, "--output=", 9) == 0 ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!out || !*out)
                return cli_usage_error("swap: -o needs an output path");
        } else if (strcmp(a, "--in-place") == 0) {
            in_place = 1;
        } else {
            cli_usage_error("swap: unknown option '%s'", a);
            fputs(swap_usage, stderr);
            return EXIT_USAGE;
        }
    }
    if (!file || !order || (!out && !in_place) || (out && in_place)) {
        cli_usage_error(!file ? "swap: no FILE given"
                        : !order ? "swap: --to ORDER is required"
                                 : "swap: give exactly one of -o OUT and --in-place");
        fputs(swap_usage, stderr);
        return EXIT_USAGE;
    }
    npydt_order to;
    if (strcmp(order, "little") == 0)
        to = NPYDT_ORDER_LITTLE;
    else if (strcmp(order, "big") == 0)
        to = NPYDT_ORDER_BIG;
    else if (strcmp(order, "native") == 0)
        to = NPYDT_ORDER_NATIVE;
    else
        return cli_usage_error("swap: --to must be little, big or native, not '%s'", order);
    const char *target = in_place ? file : out;

    npydt_file *f;
    npydt_error err;
    if (npydt_file_open(file, NPYDT_OPEN_READ, NULL, &f, &err) != NPYDT_OK) {
        if (err.code == NPYDT_E_OBJECT)
            snprintf(err.message, sizeof err.message,
                     "object arrays hold pickled Python objects and cannot be swapped");
        return cli_report(file, &err);
    }
    struct stat in_st, out_st;
    int target_exists = stat(target, &out_st) == 0;
    if (!in_place && target_exists && stat(file, &in_st) == 0 && in_st.st_dev == out_st.st_dev &&
        in_st.st_ino == out_st.st_ino) {
        npydt_file_close(f);
        return cli_usage_error("swap: OUT '%s' is FILE; use --in-place to replace it", out);
    }
    const npydt_header *h = npydt_file_header(f);
    const npydt_dtype *dt = npydt_header_dtype(h);
    npydt_dtype *newdt = NULL;
    npydt_swap_plan *plan = NULL;
    unsigned char *hdr = NULL;
    int fd = -1, status = EXIT_OK;
    char dir[PATH_MAX];
    if (npydt_dtype_newbyteorder(dt, to, NULL, &newdt, &err) != NPYDT_OK ||
        npydt_swap_plan_new(dt, NULL, &plan, &err) != NPYDT_OK) {
        status = cli_report(file, &err);
        goto done;
    }
    int fortran = fortran_as_numpy(h);
    size_t hlen = npydt_header_write(newdt, npydt_header_shape(h), npydt_header_ndim(h),
                                     fortran, NULL, 0, &err);
    if (hlen == 0) {
        status = cli_report(file, &err);
        goto done;
    }
    hdr = malloc(hlen);
    if (!hdr) {
        status = cli_usage_error("out of memory");
        goto done;
    }
    npydt_header_write(newdt, npydt_header_shape(h), npydt_header_ndim(h), fortran, hdr, hlen,
                       &err);
    if (make_tmp_name(target, dir, sizeof dir) != 0) {
        status = cli_usage_error("swap: output path too long");
        goto done;
    }
    catch_signals(1);
    fd = mkstemp(tmp_path);
    if (fd < 0) {
        catch_signals(0);
        status = io_error(target, "cannot create a temporary file next to it");
        goto done;
    }
    tmp_active = 1;
    status = write_swapped(fd, target, hdr, hlen, plan, to, npydt_file_data(f),
                           npydt_header_count(h), npydt_dtype_itemsize(dt));
    if (status == EXIT_OK) {
        mode_t mode;
        if (target_exists) {
            mode = out_st.st_mode & 07777;
        } else {
            mode_t mask = umask(0);
            umask(mask);
            mode = 0666 & ~mask;
        }
        if (fchmod(fd, mode) != 0)
            status = io_error(target, "cannot set the mode");
        else if (fsync(fd) != 0)
            status = io_error(target, "fsync failed");
    }
    if (close(fd) != 0 && status == EXIT_OK)
        status = io_error(target, "close failed");
    if (status == EXIT_OK && rename(tmp_path, target) != 0)
        status = io_error(target, "cannot rename the temporary file to it");
    if (status != EXIT_OK)
        unlink(tmp_path);
    tmp_active = 0;
    catch_signals(0);
    if (status == EXIT_OK) {
        /* make the rename itself durable; best effort */
        int dfd = open(dir[0] ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd >= 0) {
            fsync(dfd);
            close(dfd);
        }
    }
done:
    free(hdr);
    npydt_swap_plan_free(plan);
    npydt_dtype_free(newdt);
    npydt_file_close(f);
    return status;
}

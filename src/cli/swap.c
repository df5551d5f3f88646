/* npydt swap: rewrite a file, or every member of an archive, with another
 * byte order.
 *
 * Each array gets the header np.save would write for the swapped dtype
 * (same shape and order) and the same values. The output is written to a
 * temporary file in the destination's directory, flushed to disk, then
 * renamed over the destination and the directory flushed: an interrupted
 * run leaves the old destination (or none) and never a partial one. FILE
 * itself is only read.
 *
 * An archive is rewritten member by member through the library's zip
 * writer, as np.savez / np.savez_compressed would write the swapped arrays:
 * each member keeps its name and its method (stored or deflated), every
 * member is streamed through a buffer of whole records, and a damaged
 * member (bad CRC, lying sizes) stops the run before the rename. */
#define _XOPEN_SOURCE 700   /* realpath */
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

enum { OPT_TO = 1, OPT_OUTPUT, OPT_IN_PLACE };

static const struct cli_option swap_options[] = {
    {OPT_TO, "to", 0, "ORDER", "the byte order to write: little, big or native"},
    {OPT_OUTPUT, "output", 'o', "OUT", "write the copy to OUT"},
    {OPT_IN_PLACE, "in-place", 0, NULL, "replace FILE itself"},
};

static const struct cli_command swap_command = {
    "swap",
    "swap FILE --to little|big|native -o OUT\n"
    "swap FILE --to little|big|native --in-place",
    "Write a copy of the .npy FILE whose every multi-byte scalar is stored in\n"
    "the given byte order, with the header NumPy would write for it; the values\n"
    "are unchanged. OUT is written through a temporary file and a rename, so it\n"
    "is never left half-written; FILE is never modified (--in-place replaces it\n"
    "the same way). Object arrays cannot be swapped (exit 1).\n"
    "\n"
    "FILE may be an .npz archive: every member is swapped and OUT is an archive\n"
    "as np.savez (stored members) or np.savez_compressed (deflated members)\n"
    "would write it, names and methods kept. If any member is an object array\n"
    "or not a valid .npy file, nothing is written (exit 1). ARCHIVE.npz:NAME\n"
    "cannot be swapped alone: swap the whole archive.\n",
    swap_options, sizeof swap_options / sizeof swap_options[0],
};

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

static int pwrite_all(int fd, const void *buf, size_t n, uint64_t offset)
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

static int io_error(const char *path, const char *what)
{
    int e = errno;
    cli_put_text(stderr, path);
    fprintf(stderr, ": i/o error: %s: %s\n", what, strerror(e));
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

struct output {
    const char *target;
    int fd;
    int target_exists;
    struct stat target_st;
    char dir[PATH_MAX];
};

/* Refuse OUT == FILE without --in-place; 0 or an exit status. */
static int check_target(struct output *o, const char *file, const char *target, int in_place)
{
    struct stat in_st;
    o->target = target;
    o->fd = -1;
    o->target_exists = stat(target, &o->target_st) == 0;
    if (!in_place && o->target_exists && stat(file, &in_st) == 0 &&
        in_st.st_dev == o->target_st.st_dev && in_st.st_ino == o->target_st.st_ino)
        return cli_usage_error("swap: OUT '%s' is FILE; use --in-place to replace it", target);
    return EXIT_OK;
}

/* Create the temporary file next to the target. */
static int output_open(struct output *o)
{
    if (make_tmp_name(o->target, o->dir, sizeof o->dir) != 0)
        return cli_usage_error("swap: output path too long");
    catch_signals(1);
    o->fd = mkstemp(tmp_path);
    if (o->fd < 0) {
        catch_signals(0);
        return io_error(o->target, "cannot create a temporary file next to it");
    }
    tmp_active = 1;
    return EXIT_OK;
}

/* After writing (status says how it went): give the file the target's
 * mode (or the umask's), flush it, rename it over the target and flush
 * the directory; on any failure remove it. Returns the final status. */
static int output_close(struct output *o, int status)
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
            status = io_error(o->target, "cannot set the mode");
        else if (fsync(o->fd) != 0)
            status = io_error(o->target, "fsync failed");
    }
    if (close(o->fd) != 0 && status == EXIT_OK)
        status = io_error(o->target, "close failed");
    o->fd = -1;
    if (status == EXIT_OK && rename(tmp_path, o->target) != 0)
        status = io_error(o->target, "cannot rename the temporary file to it");
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

/* ---- the swapped header --------------------------------------------------------- */

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

/* What swapping one array needs: the plan and the new header's bytes. */
struct swapper {
    npydt_dtype *newdt;
    npydt_swap_plan *plan;
    unsigned char *hdr;
    size_t hlen;
};

static void swapper_free(struct swapper *s)
{
    free(s->hdr);
    npydt_swap_plan_free(s->plan);
    npydt_dtype_free(s->newdt);
    memset(s, 0, sizeof *s);
}

/* 0 or an exit status (reported under name). */
static int swapper_init(struct swapper *s, const char *name, const npydt_header *h,
                        npydt_order to)
{
    npydt_error err;
    const npydt_dtype *dt = npydt_header_dtype(h);
    memset(s, 0, sizeof *s);
    if (npydt_dtype_newbyteorder(dt, to, NULL, &s->newdt, &err) != NPYDT_OK ||
        npydt_swap_plan_new(dt, NULL, &s->plan, &err) != NPYDT_OK)
        return cli_report(name, &err);
    int fortran = fortran_as_numpy(h);
    s->hlen = npydt_header_write(s->newdt, npydt_header_shape(h), npydt_header_ndim(h), fortran,
                                 NULL, 0, &err);
    if (s->hlen == 0)
        return cli_report(name, &err);
    s->hdr = malloc(s->hlen);
    if (!s->hdr)
        return cli_usage_error("out of memory");
    npydt_header_write(s->newdt, npydt_header_shape(h), npydt_header_ndim(h), fortran, s->hdr,
                       s->hlen, &err);
    return EXIT_OK;
}

/* Records per chunk: CHUNK_BYTES of whole records, at least one. */
static uint64_t records_per_chunk(uint64_t count, size_t itemsize)
{
    uint64_t per = itemsize >= CHUNK_BYTES ? 1 : CHUNK_BYTES / itemsize;
    return per > count ? count : per;
}

/* ---- a .npy file ------------------------------------------------------------------ */

/* Write the swapped file to the temporary path; 0 or an exit status. */
static int write_swapped(int fd, const char *target, const struct swapper *s, npydt_order to,
                         const unsigned char *data, uint64_t count, size_t itemsize)
{
    if (write_all(fd, s->hdr, s->hlen) != 0)
        return io_error(target, "write failed");
    if (count == 0 || itemsize == 0)
        return 0;
    uint64_t per = records_per_chunk(count, itemsize);
    unsigned char *buf = malloc((size_t)per * itemsize);
    if (!buf)
        return cli_usage_error("out of memory");
    int rc = 0;
    for (uint64_t i = 0; i < count && rc == 0; i += per) {
        uint64_t k = count - i < per ? count - i : per;
        npydt_error err;
        if (npydt_swap(s->plan, to, data + i * itemsize, buf, k, &err) != NPYDT_OK)
            rc = cli_report(target, &err);
        else if (write_all(fd, buf, (size_t)(k * itemsize)) != 0)
            rc = io_error(target, "write failed");
    }
    free(buf);
    return rc;
}

static int swap_npy(const char *file, const char *target, int in_place, npydt_order to)
{
    npydt_file *f;
    npydt_error err;
    if (npydt_file_open(file, NPYDT_OPEN_READ, NULL, &f, &err) != NPYDT_OK) {
        if (err.code == NPYDT_E_OBJECT)
            snprintf(err.message, sizeof err.message,
                     "object arrays hold pickled Python objects and cannot be swapped");
        return cli_report(file, &err);
    }
    struct output o;
    struct swapper s = {0};
    int status = check_target(&o, file, target, in_place);
    const npydt_header *h = npydt_file_header(f);
    if (status == EXIT_OK)
        status = swapper_init(&s, file, h, to);
    if (status == EXIT_OK && (status = output_open(&o)) == EXIT_OK) {
        status = write_swapped(o.fd, target, &s, to, npydt_file_data(f), npydt_header_count(h),
                               npydt_dtype_itemsize(npydt_header_dtype(h)));
        status = output_close(&o, status);
    }
    swapper_free(&s);
    npydt_file_close(f);
    return status;
}

/* ---- an archive ------------------------------------------------------------------ */

/* The zip writer's sink: the temporary file, appended to and patched;
 * the errno of a failed write is kept for the message. */
struct fd_sink {
    int fd;
    int error;
};

static int sink_write(void *ctx, const void *buf, size_t len)
{
    struct fd_sink *s = ctx;
    int rc = write_all(s->fd, buf, len);
    if (rc != 0)
        s->error = errno;
    return rc;
}

static int sink_pwrite(void *ctx, const void *buf, size_t len, uint64_t offset)
{
    struct fd_sink *s = ctx;
    int rc = pwrite_all(s->fd, buf, len, offset);
    if (rc != 0)
        s->error = errno;
    return rc;
}

/* A writer's error: a failed write as io_error words it, else as is. */
static int writer_error(const char *target, const struct fd_sink *sink, const npydt_error *err)
{
    if (err->code == NPYDT_E_IO && sink->error) {
        errno = sink->error;
        return io_error(target, "write failed");
    }
    return cli_report(target, err);
}

/* "ARCHIVE:MEMBER" for messages. */
static char *member_label(const char *archive, const char *member)
{
    size_t a = strlen(archive), m = strlen(member);
    char *s = a < SIZE_MAX - m - 2 ? malloc(a + m + 2) : NULL;
    if (s) {
        memcpy(s, archive, a);
        s[a] = ':';
        memcpy(s + a + 1, member, m + 1);
    }
    return s;
}

/* Report err under ARCHIVE:MEMBER (or ARCHIVE when out of memory). */
static int report_member(const char *archive, const char *member, const npydt_error *err)
{
    char *label = member_label(archive, member);
    int status = cli_report(label ? label : archive, err);
    free(label);
    return status;
}

/* Every member must be a .npy array that can be swapped: headers only,
 * before anything is written. *chunk becomes the size of the buffer of
 * whole records for every member: CHUNK_BYTES, or one record of the widest
 * member when that is larger. */
static int check_members(const char *file, const npydt_npz *z, size_t *chunk)
{
    *chunk = CHUNK_BYTES;
    for (size_t i = 0; i < npydt_npz_count(z); i++) {
        const npydt_npz_member *m = npydt_npz_member_at(z, i);
        npydt_header *h;
        npydt_error err;
        if (npydt_npz_member_header(z, i, &h, &err) != NPYDT_OK)
            return report_member(file, m->name, &err);
        int object = npydt_dtype_has_object(npydt_header_dtype(h));
        size_t itemsize = npydt_dtype_itemsize(npydt_header_dtype(h));
        npydt_header_free(h);
        if (itemsize > *chunk)
            *chunk = itemsize;
        if (object) {
            cli_error(&err, NPYDT_E_OBJECT, "%s",
                      "object arrays hold pickled Python objects and cannot be swapped; "
                      "nothing was written");
            return report_member(file, m->name, &err);
        }
    }
    return EXIT_OK;
}

/* Read exactly n bytes of the member (it is known to hold them). */
static npydt_status read_exact(npydt_npz_stream *st, void *buf, size_t n, npydt_error *err)
{
    for (size_t done = 0; done < n;) {
        size_t got;
        npydt_status s = npydt_npz_stream_read(st, (char *)buf + done, n - done, &got, err);
        if (s != NPYDT_OK)
            return s;
        if (got == 0)
            return cli_error(err, NPYDT_E_DATA, "%s", "the member ended early");
        done += got;
    }
    return NPYDT_OK;
}

/* Swap member i into the writer: the new header, then the data read
 * through the archive's stream in chunks of whole records, each swapped in
 * place; bytes after the data (NumPy ignores them) are read, so that the
 * stream checks the member's CRC, but not written. */
static int swap_member(const char *file, const char *target, const npydt_npz *z, size_t i,
                       npydt_npz_writer *w, const struct fd_sink *sink, npydt_order to,
                       unsigned char *buf, size_t buf_size)
{
    const npydt_npz_member *m = npydt_npz_member_at(z, i);
    npydt_header *h = NULL;
    npydt_npz_stream *st = NULL;
    struct swapper s = {0};
    npydt_error err;
    int status = EXIT_OK;
    if (npydt_npz_member_header(z, i, &h, &err) != NPYDT_OK ||
        npydt_npz_stream_open(z, i, &st, &err) != NPYDT_OK) {
        status = report_member(file, m->name, &err);
        goto out;
    }
    char *label = member_label(file, m->name);
    status = label ? swapper_init(&s, label, h, to) : cli_usage_error("out of memory");
    free(label);
    if (status != EXIT_OK)
        goto out;
    if (npydt_npz_writer_begin(w, m->name, m->method, &err) != NPYDT_OK ||
        npydt_npz_writer_write(w, s.hdr, s.hlen, &err) != NPYDT_OK) {
        status = writer_error(target, sink, &err);
        goto out;
    }
    /* skip the old header */
    for (uint64_t left = npydt_header_data_offset(h); left > 0;) {
        size_t n = left < buf_size ? (size_t)left : buf_size;
        if (read_exact(st, buf, n, &err) != NPYDT_OK) {
            status = report_member(file, m->name, &err);
            goto out;
        }
        left -= n;
    }
    uint64_t count = npydt_header_count(h);
    size_t itemsize = npydt_dtype_itemsize(npydt_header_dtype(h));
    if (itemsize > 0) {
        uint64_t per = buf_size / itemsize;
        for (uint64_t done = 0; done < count;) {
            uint64_t k = count - done < per ? count - done : per;
            size_t n = (size_t)(k * itemsize);
            if (read_exact(st, buf, n, &err) != NPYDT_OK ||
                npydt_swap(s.plan, to, buf, buf, k, &err) != NPYDT_OK) {
                status = report_member(file, m->name, &err);
                goto out;
            }
            if (npydt_npz_writer_write(w, buf, n, &err) != NPYDT_OK) {
                status = writer_error(target, sink, &err);
                goto out;
            }
            done += k;
        }
    }
    /* the rest, to the end of the member: the stream checks the CRC there */
    for (;;) {
        size_t got;
        if (npydt_npz_stream_read(st, buf, buf_size, &got, &err) != NPYDT_OK) {
            status = report_member(file, m->name, &err);
            goto out;
        }
        if (got == 0)
            break;
    }
    if (npydt_npz_writer_end(w, &err) != NPYDT_OK)
        status = writer_error(target, sink, &err);
out:
    swapper_free(&s);
    npydt_npz_stream_close(st);
    npydt_header_free(h);
    return status;
}

static int swap_npz(const char *file, const char *target, int in_place, npydt_order to)
{
    npydt_npz *z;
    npydt_error err;
    if (npydt_npz_open_path(file, NULL, &z, &err) != NPYDT_OK)
        return cli_report(file, &err);
    struct output o;
    size_t buf_size = 0;
    unsigned char *buf = NULL;
    npydt_npz_writer *w = NULL;
    int status = check_target(&o, file, target, in_place);
    if (status == EXIT_OK)
        status = check_members(file, z, &buf_size);
    if (status == EXIT_OK && !(buf = malloc(buf_size)))
        status = cli_usage_error("out of memory");
    if (status != EXIT_OK || (status = output_open(&o)) != EXIT_OK)
        goto out;
    struct fd_sink fs = {o.fd, 0};
    npydt_npz_sink sink = {sink_write, sink_pwrite, &fs};
    if (npydt_npz_writer_new(&sink, NULL, &w, &err) != NPYDT_OK)
        status = cli_report(target, &err);
    for (size_t i = 0; status == EXIT_OK && i < npydt_npz_count(z); i++)
        status = swap_member(file, target, z, i, w, &fs, to, buf, buf_size);
    if (status == EXIT_OK && npydt_npz_writer_finish(w, NULL, &err) != NPYDT_OK)
        status = writer_error(target, &fs, &err);
    status = output_close(&o, status);
out:
    npydt_npz_writer_free(w);
    free(buf);
    npydt_npz_close(z);
    return status;
}

/* ---- the command ------------------------------------------------------------------ */

/* 1 when arg does not exist but names ARCHIVE:NAME with an existing archive. */
static int is_member_arg(const char *arg)
{
    struct stat st;
    if (stat(arg, &st) == 0)
        return 0;
    for (const char *colon = strchr(arg, ':'); colon; colon = strchr(colon + 1, ':')) {
        char *prefix = strndup(arg, (size_t)(colon - arg));
        int archive = prefix && cli_is_archive(prefix);
        free(prefix);
        if (archive)
            return 1;
    }
    return 0;
}

int cmd_swap(int argc, char **argv)
{
    const char *out = NULL, *order = NULL;
    int in_place = 0;
    struct cli_args args;
    cli_args_init(&args, &swap_command, argc, argv);
    for (int opt; (opt = cli_args_next(&args)) != 0;) {
        switch (opt) {
        case OPT_TO:
            order = args.value;
            break;
        case OPT_OUTPUT:
            out = args.value;
            if (!*out)
                return cli_usage_error("swap: -o needs an output path");
            break;
        case OPT_IN_PLACE:
            in_place = 1;
            break;
        default:
            return args.status;
        }
    }
    if (args.noperands > 1)
        return cli_usage_error("swap: more than one FILE ('%s' and '%s')", args.operands[0],
                               args.operands[1]);
    const char *file = args.noperands ? args.operands[0] : NULL;
    if (!file || !order || (!out && !in_place) || (out && in_place)) {
        cli_usage_error(!file ? "swap: no FILE given"
                        : !order ? "swap: --to ORDER is required"
                                 : "swap: give exactly one of -o OUT and --in-place");
        cli_try_help(&swap_command);
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
    if (is_member_arg(file))
        return cli_usage_error("swap: '%s' names one member of an archive; swap writes whole "
                               "files, so swap the whole archive (every member), or extract "
                               "the member first",
                               file);
    /* --in-place through a symbolic link replaces the file it points to,
     * not the link */
    char *resolved = NULL;
    if (in_place && !(target = resolved = realpath(file, NULL)))
        return cli_usage_error("swap: cannot resolve '%s': %s", file, strerror(errno));
    int status = cli_is_archive(file) ? swap_npz(file, target, in_place, to)
                                  : swap_npy(file, target, in_place, to);
    free(resolved);
    return status;
}

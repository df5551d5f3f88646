/* What a FILE argument names: a .npy file, every member of an .npz
 * archive, or one member (ARCHIVE.npz:NAME); and the header and data
 * bytes of each, whichever it is. */
#include "cli/common/input.h"
#include "cli/common/args.h"
#include "cli/common/limits.h"
#include "cli/common/mapped.h"
#include "cli/common/pipe.h"
#include "cli/common/report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cli_archive {
    npydt_npz *npz;
    char *path;          /* as typed */
    unsigned char *buf;  /* the archive's bytes when read from a pipe */
};

/* Report err for path and keep it as the list's error: the exit status. */
static int fail(struct cli_inputs *list, const char *path, const npydt_error *err)
{
    if (err != &list->error)
        list->error = *err;
    return cli_report_to(list->dest, path, &list->error);
}

static int nomem(struct cli_inputs *list, const char *path)
{
    cli_error(&list->error, NPYDT_E_NOMEM, "%s", "out of memory");
    return fail(list, path, &list->error);
}

void cli_inputs_init(struct cli_inputs *list, const npydt_npz_options *opts)
{
    memset(list, 0, sizeof *list);
    list->held = -1;
    if (opts)
        list->opts = *opts;
    else
        cli_input_limits(&list->opts);
}

void cli_inputs_free(struct cli_inputs *list)
{
    for (size_t i = 0; i < list->count; i++) {
        if (list->items[i].name != list->items[i].path)   /* ARCHIVE:MEMBER */
            free((char *)list->items[i].name);
        free(list->items[i].buf);
        if (list->items[i].pipe)
            cli_pipe_close(list->items[i].pipe);
        free(list->items[i].pipe);
    }
    for (size_t i = 0; i < list->narchives; i++) {
        npydt_npz_close(list->archives[i].npz);
        free(list->archives[i].path);
        free(list->archives[i].buf);
    }
    free(list->items);
    free(list->archives);
    if (list->held >= 0)
        close(list->held);
    memset(list, 0, sizeof *list);
    list->held = -1;
}

void cli_inputs_forget(struct cli_inputs *list, size_t from)
{
    for (size_t i = from; i < list->count; i++)
        if (list->items[i].name != list->items[i].path || list->items[i].buf ||
            list->items[i].pipe)
            return;
    if (from < list->count)
        list->count = from;
}

/* Room for one more item; the new one is zeroed. */
static struct cli_input *new_item(struct cli_inputs *list)
{
    if (list->count == list->cap) {
        size_t cap = list->cap ? list->cap * 2 : 8;
        if (cap > SIZE_MAX / sizeof *list->items)
            return NULL;
        struct cli_input *items = realloc(list->items, cap * sizeof *items);
        if (!items)
            return NULL;
        list->items = items;
        list->cap = cap;
    }
    struct cli_input *in = &list->items[list->count];
    memset(in, 0, sizeof *in);
    return in;
}

/* A FILE: named by its path as typed (arg outlives the list). */
static int add_file(struct cli_inputs *list, const char *arg)
{
    struct cli_input *in = new_item(list);
    if (!in)
        return nomem(list, arg);
    in->name = arg;
    in->path = arg;
    list->count++;
    return EXIT_OK;
}

/* "ARCHIVE:MEMBER" for member i of the archive. */
static int add_member(struct cli_inputs *list, const struct cli_archive *a, size_t i)
{
    const npydt_npz_member *m = npydt_npz_member_at(a->npz, i);
    size_t plen = strlen(a->path), mlen = strlen(m->name);
    struct cli_input *in = new_item(list);
    char *name = in && plen < SIZE_MAX - 2 - mlen ? malloc(plen + mlen + 2) : NULL;
    if (!name)
        return nomem(list, a->path);
    memcpy(name, a->path, plen);
    name[plen] = ':';
    memcpy(name + plen + 1, m->name, mlen + 1);
    in->name = name;
    in->path = a->path;
    in->member = m->name;
    in->npz = a->npz;
    in->index = i;
    list->count++;
    return EXIT_OK;
}

/* Open the archive at path (len bytes of it), or the one in buf (bytes
 * read from a pipe, owned by the list from here on, even on failure), and
 * keep it in the list. */
static int open_archive(struct cli_inputs *list, const char *path, size_t len,
                        unsigned char *buf, size_t buf_len, struct cli_archive **out)
{
    if (list->narchives == list->archives_cap) {
        size_t cap = list->archives_cap ? list->archives_cap * 2 : 4;
        struct cli_archive *as = cap <= SIZE_MAX / sizeof *as
                                     ? realloc(list->archives, cap * sizeof *as)
                                     : NULL;
        if (!as) {
            free(buf);
            return nomem(list, path);
        }
        list->archives = as;
        list->archives_cap = cap;
    }
    struct cli_archive *a = &list->archives[list->narchives];
    a->path = strndup(path, len);
    a->buf = buf;
    if (!a->path) {
        free(buf);
        return nomem(list, path);
    }
    npydt_error err;
    if (!buf)
        cli_reading(a->path);   /* its directory is read from the mapping */
    npydt_status st = buf ? npydt_npz_open_buffer(buf, buf_len, &list->opts, &a->npz, &err)
                          : npydt_npz_open_path(a->path, &list->opts, &a->npz, &err);
    if (st != NPYDT_OK) {
        int status = fail(list, a->path, &err);
        free(a->path);
        free(buf);
        return status;
    }
    list->narchives++;
    *out = a;
    return EXIT_OK;
}

/* Opened without waiting: a FIFO's open must not block (nor, for a
 * terminal, make it the controlling one); a regular file's reads ignore
 * O_NONBLOCK. */
static int open_probe(const char *path)
{
    return open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
}

/* The first min(size, want) bytes of the regular file on fd into buf: how
 * many, or -1 when it cannot be read (whoever reads it next says why). */
static ssize_t read_start(int fd, uint64_t size, unsigned char *buf, size_t want)
{
    if (size < want)
        want = (size_t)size;
    size_t got = 0;
    while (got < want) {
        ssize_t n = pread(fd, buf + got, want - got, (off_t)got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        got += (size_t)n;
    }
    return (ssize_t)got;
}

int cli_is_archive(const char *path)
{
    /* only a regular file is opened: opening a FIFO, even without waiting,
     * lets its writer through and closing it then leaves the writer with
     * no reader; a device may act on open or close */
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    int fd = open_probe(path);
    if (fd < 0)
        return 0;
    unsigned char magic[4];
    int archive = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
                  read_start(fd, (uint64_t)st.st_size, magic, sizeof magic) == sizeof magic &&
                  npydt_npz_is_archive(magic, sizeof magic);
    close(fd);
    return archive;
}

int cli_inputs_held(struct cli_inputs *list)
{
    int fd = list->held;
    list->held = -1;
    return fd;
}

/* Every member of archive a. */
static int add_members(struct cli_inputs *list, const struct cli_archive *a)
{
    for (size_t i = 0; i < npydt_npz_count(a->npz); i++) {
        int status = add_member(list, a, i);
        if (status != EXIT_OK)
            return status;
    }
    return EXIT_OK;
}

/* An input that cannot seek: a FILE read in sequence; an archive, read
 * whole, by its first bytes; else a FILE in memory. fd: arg opened by
 * open_probe (closed or kept here), or -1. */
static int add_pipe(struct cli_inputs *list, const char *arg, int fd)
{
    struct cli_pipe *p = malloc(sizeof *p);
    if (!p) {
        if (fd >= 0)
            close(fd);
        return nomem(list, arg);
    }
    int status = cli_pipe_open_fd(arg, fd, list->quiet, list->dest, p, &list->error);
    if (status == EXIT_OK && !p->whole && (status = add_file(list, arg)) == EXIT_OK) {
        list->items[list->count - 1].pipe = p;
        return EXIT_OK;
    }
    if (status != EXIT_OK) {
        cli_pipe_close(p);
        free(p);
        return status;
    }
    unsigned char *buf = p->bytes;
    size_t len = p->len;
    free(p);   /* whole: its descriptor is closed */
    if (npydt_npz_is_archive(buf, len)) {
        struct cli_archive *a;
        if ((status = open_archive(list, arg, strlen(arg), buf, len, &a)) != EXIT_OK)
            return status;
        return add_members(list, a);
    }
    if ((status = add_file(list, arg)) != EXIT_OK) {
        free(buf);
        return status;
    }
    list->items[list->count - 1].buf = buf;
    list->items[list->count - 1].len = len;
    return EXIT_OK;
}

/* The names of an archive's members as ARCHIVE:NAME takes them: without
 * the .npy that np.savez adds. */
static char *short_name(const char *member)
{
    size_t n = strlen(member);
    if (n > 4 && strcmp(member + n - 4, ".npy") == 0)
        n -= 4;
    return strndup(member, n);
}

/* "ARG: not found: no member 'NAME' (did you mean 'X'?); members: A, B":
 * the nearest member name, and the first few names. */
static int no_member(struct cli_inputs *list, const char *arg, const npydt_npz *z,
                     const char *name)
{
    enum { SHOWN = 8 };
    size_t n = npydt_npz_count(z);
    char **names = calloc(n ? n : 1, sizeof *names);
    int ok = names != NULL;
    for (size_t i = 0; ok && i < n; i++)
        ok = (names[i] = short_name(npydt_npz_member_at(z, i)->name)) != NULL;
    if (!ok) {
        for (size_t i = 0; names && i < n; i++)
            free(names[i]);
        free(names);
        return nomem(list, arg);
    }
    cli_error(&list->error, NPYDT_E_NOT_FOUND, "no member '%s'", name);
    char *want = short_name(name);
    const char *near = want ? cli_nearest(want, (const char *const *)names, n) : NULL;
    free(want);
    struct cli_line l;
    cli_line_init(&l);
    cli_line_format(&l, "%s: not found: no member '%s'", arg, name);
    if (near)
        cli_line_format(&l, " (did you mean '%s'?)", near);
    cli_line_puts(&l, n ? "; members: " : "; the archive is empty");
    for (size_t i = 0; i < n && i < SHOWN; i++)
        cli_line_format(&l, i ? ", %s" : "%s", names[i]);
    if (n > SHOWN)
        cli_line_format(&l, ", ... (%zu in all)", n);
    cli_line_end_to(list->dest, &l);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return EXIT_USAGE;
}

/* The member NAME of archive a, for ARG (ARCHIVE:NAME). */
static int add_named(struct cli_inputs *list, const char *arg, const struct cli_archive *a,
                     const char *name)
{
    size_t i;
    npydt_error err;
    if (npydt_npz_find(a->npz, name, &i, &err) != NPYDT_OK)
        return err.code == NPYDT_E_NOT_FOUND ? no_member(list, arg, a->npz, name)
                                             : fail(list, arg, &err);
    return add_member(list, a, i);
}

/* ARG, the member NAME of the archive on the pipe at path ("-:NAME" for
 * standard input). A pipe gives its bytes once: the archive read for an
 * earlier ARG serves the next ones with the same path. */
static int add_pipe_member(struct cli_inputs *list, const char *arg, const char *path,
                           const char *name)
{
    if (name[0] == '\0') {
        cli_error(&list->error, NPYDT_E_ARG, "%s", "no member name after ':'");
        return fail(list, arg, &list->error);
    }
    const struct cli_archive *a = NULL;
    for (size_t i = 0; i < list->narchives && !a; i++)
        if (list->archives[i].buf && strcmp(list->archives[i].path, path) == 0)
            a = &list->archives[i];
    if (!a) {
        unsigned char *buf;
        size_t len;
        int status = cli_read_pipe(path, list->quiet, list->dest, &buf, &len, &list->error);
        if (status != EXIT_OK)
            return status;
        if (!npydt_npz_is_archive(buf, len)) {
            free(buf);
            cli_error(&list->error, NPYDT_E_ARG, "%s",
                      "the part before ':' is not a zip (.npz) archive, so it has no members");
            return fail(list, arg, &list->error);
        }
        struct cli_archive *opened;
        if ((status = open_archive(list, path, strlen(path), buf, len, &opened)) != EXIT_OK)
            return status;
        a = opened;
    }
    return add_named(list, arg, a, name);
}

/* A regular file open on fd (closed or kept here) of size bytes: an
 * archive's members, by its first bytes, or a FILE, its first bytes held
 * (list->hold) for the header's read, and its descriptor too when the
 * header goes on past them. */
static int add_regular(struct cli_inputs *list, const char *arg, int fd, uint64_t size)
{
    int status;
    ssize_t n = read_start(fd, size, list->head, list->hold ? sizeof list->head : 4);
    if (n >= 4 && npydt_npz_is_archive(list->head, (size_t)n)) {
        close(fd);
        struct cli_archive *a;
        if ((status = open_archive(list, arg, strlen(arg), NULL, 0, &a)) != EXIT_OK)
            return status;
        return add_members(list, a);
    }
    if ((status = add_file(list, arg)) != EXIT_OK || !list->hold) {
        close(fd);
        return status;
    }
    struct cli_input *in = &list->items[list->count - 1];
    if (n < 0) {   /* the header's read says why it cannot be read */
        list->held = fd;
        return EXIT_OK;
    }
    in->head = list->head;
    in->head_len = (size_t)n;
    in->size = size;
    /* the parse reads the file again only for a header past these bytes
     * that the file holds; else the descriptor is done with (no other
     * thread's call on it, none held open) */
    uint64_t total;
    npydt_error ignored;
    uint64_t want = size < NPYDT_VERIFY_HEAD_BYTES ? size : NPYDT_VERIFY_HEAD_BYTES;
    if ((uint64_t)n < want ||   /* read short (the file shrank): the parse reads again */
        ((uint64_t)n < size &&  /* the whole file read: nothing past it to read */
         npydt_header_size(list->head, (size_t)n, &list->opts.base, &total, &ignored) ==
             NPYDT_OK &&
         total > (uint64_t)n && total <= size))
        list->held = fd;
    else
        close(fd);
    return EXIT_OK;
}

int cli_inputs_add(struct cli_inputs *list, const char *arg)
{
    struct cli_archive *a;
    int status;
    struct stat st;
    if (list->held >= 0)   /* not taken: the previous FILE is read by path */
        close(list->held);
    list->held = -1;
    if (strcmp(arg, "-") == 0)
        return add_pipe(list, arg, -1);
    /* one open and its fstat tell a pipe, a file and an archive's
     * candidate apart; a path that cannot be opened gets a stat */
    int fd = open_probe(arg), open_errno = fd < 0 ? errno : 0, found;
    if (fd >= 0 && fstat(fd, &st) != 0) {
        close(fd);
        fd = -1;
    }
    found = fd >= 0 || stat(arg, &st) == 0;
    if (found && cli_is_pipe_mode(st.st_mode) && fd < 0 && open_errno) {
        /* a FIFO or device that cannot be opened: as the pipe's open says */
        cli_error(&list->error, NPYDT_E_IO, "cannot open: %s", TEXT_ERRNO(open_errno));
        return fail(list, arg, &list->error);
    }
    if (found && cli_is_pipe_mode(st.st_mode))
        return add_pipe(list, arg, fd);
    if (found && fd >= 0 && S_ISREG(st.st_mode))
        return add_regular(list, arg, fd, (uint64_t)st.st_size);
    if (fd >= 0)
        close(fd);
    if (found)   /* a directory, a device, a file that cannot be opened */
        return add_file(list, arg);
    /* ARCHIVE:NAME, at the first ':' after an existing file */
    for (const char *colon = strchr(arg, ':'); colon; colon = strchr(colon + 1, ':')) {
        size_t len = (size_t)(colon - arg);
        char *prefix = strndup(arg, len);
        if (!prefix)
            return nomem(list, arg);
        if (cli_is_pipe_arg(prefix)) {
            status = add_pipe_member(list, arg, prefix, colon + 1);
            free(prefix);
            return status;
        }
        int exists = stat(prefix, &st) == 0, archive = exists && cli_is_archive(prefix);
        free(prefix);
        if (!exists)
            continue;
        if (!archive || colon[1] == '\0') {
            cli_error(&list->error, NPYDT_E_ARG, "%s",
                      !archive ? "the part before ':' is not a zip (.npz) archive, so it has "
                                 "no members"
                               : "no member name after ':'");
            return fail(list, arg, &list->error);
        }
        if ((status = open_archive(list, arg, len, NULL, 0, &a)) != EXIT_OK)
            return status;
        return add_named(list, arg, a, colon + 1);
    }
    return add_file(list, arg); /* reading it will say why it cannot be opened */
}

/* A piped FILE's header and bytes (counted to the end, once). */
static npydt_status pipe_verify(struct cli_pipe *p, npydt_header **out,
                                npydt_verify_report *report, npydt_error *err)
{
    npydt_npz_options limits;
    cli_input_limits(&limits);
    if (p->whole)
        return npydt_verify_buffer(p->bytes, p->len, &limits.base, out, report, err);
    if (p->spent)
        return cli_error(err, NPYDT_E_ARG, "%s", "the pipe was read to its end already");
    p->spent = 1;
    return npydt_verify_pipe(p->fd, p->bytes, p->len, &limits.base, out, report, err);
}

npydt_status cli_input_header(const struct cli_input *in, npydt_header **out,
                              npydt_error *err)
{
    npydt_verify_report report;
    if (in->pipe)
        return pipe_verify(in->pipe, out, &report, err);
    if (!in->buf)
        cli_reading(in->path);
    if (in->npz)
        return npydt_npz_member_header(in->npz, in->index, out, err);
    npydt_npz_options limits;
    cli_input_limits(&limits);
    if (in->buf)
        return npydt_parse_buffer(in->buf, in->len, &limits.base, out, err);
    return npydt_parse_path(in->path, &limits.base, out, err);
}

npydt_status cli_input_verify_fd(const struct cli_input *in, int fd, int read_data,
                                 npydt_header **out, npydt_verify_report *report,
                                 npydt_error *err)
{
    if (fd < 0 && !in->head)
        return cli_input_verify(in, read_data, out, report, err);
    /* read with pread: no mapping to name for a SIGBUS (cli_reading) */
    npydt_npz_options limits;
    cli_input_limits(&limits);
    npydt_status st = in->head ? npydt_verify_head(fd, in->size, in->head, in->head_len,
                                                   &limits.base, out, report, err)
                               : npydt_verify_fd(fd, &limits.base, out, report, err);
    if (fd >= 0)
        close(fd);
    return st;
}

npydt_status cli_input_verify(const struct cli_input *in, int read_data, npydt_header **out,
                              npydt_verify_report *report, npydt_error *err)
{
    if (in->pipe)
        return pipe_verify(in->pipe, out, report, err);
    if (!in->buf)
        cli_reading(in->path);
    if (in->npz)
        return npydt_npz_member_verify_report(in->npz, in->index, read_data, out, report, err);
    npydt_npz_options limits;
    cli_input_limits(&limits);
    if (in->buf)
        return npydt_verify_buffer(in->buf, in->len, &limits.base, out, report, err);
    return npydt_verify_path(in->path, &limits.base, out, report, err);
}

/* ---- data ------------------------------------------------------------------- */

npydt_status cli_input_reader(const struct cli_input *in, int verified, npydt_reader **out,
                              npydt_error *err)
{
    *out = NULL;
    npydt_status st;
    npydt_reader_options opts;
    cli_reader_options(&opts);
    if (in->pipe && in->pipe->whole)
        return npydt_reader_open_buffer(in->pipe->bytes, in->pipe->len, &opts, out, err);
    if (in->pipe)
        return npydt_reader_open_pipe(in->pipe->fd, in->pipe->bytes, in->pipe->len, &opts, out,
                                      err);
    if (!in->buf)
        cli_reading(in->path);
    if (in->npz) {
        if (!verified && (st = npydt_npz_member_verify(in->npz, in->index, err)) != NPYDT_OK)
            return st;
        return npydt_reader_open_member(in->npz, in->index, &opts, out, err);
    }
    if (in->buf)
        return npydt_reader_open_buffer(in->buf, in->len, &opts, out, err);
    return npydt_reader_open_path(in->path, &opts, out, err);
}

int cli_input_piped(const struct cli_input *in)
{
    return in->pipe && !in->pipe->whole;
}

int cli_input_hold(const struct cli_input *in, npydt_error *err)
{
    return in->pipe ? cli_pipe_hold(in->pipe, err) : EXIT_OK;
}

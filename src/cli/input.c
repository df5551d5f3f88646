/* What a FILE argument names: a .npy file, every member of an .npz
 * archive, or one member (ARCHIVE.npz:NAME); and the header and data
 * bytes of each, whichever it is. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct cli_archive {
    npydt_npz *npz;
    char *path;          /* as typed */
};

/* Report an error built here, not by the library. */
static int report(const char *path, npydt_status code, const char *message)
{
    npydt_error err;
    memset(&err, 0, sizeof err);
    err.code = code;
    err.offset = NPYDT_NO_OFFSET;
    snprintf(err.message, sizeof err.message, "%s", message);
    return cli_report(path, &err);
}

static int nomem(const char *path)
{
    return report(path, NPYDT_E_NOMEM, "out of memory");
}

void cli_inputs_init(struct cli_inputs *list, const npydt_npz_options *opts)
{
    memset(list, 0, sizeof *list);
    if (opts)
        list->opts = *opts;
    else
        npydt_npz_options_init(&list->opts);
}

void cli_inputs_free(struct cli_inputs *list)
{
    for (size_t i = 0; i < list->count; i++)
        free((char *)list->items[i].name);
    for (size_t i = 0; i < list->narchives; i++) {
        npydt_npz_close(list->archives[i].npz);
        free(list->archives[i].path);
    }
    free(list->items);
    free(list->archives);
    memset(list, 0, sizeof *list);
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

static int add_file(struct cli_inputs *list, const char *arg)
{
    struct cli_input *in = new_item(list);
    char *name = in ? strdup(arg) : NULL;
    if (!name)
        return nomem(arg);
    in->name = name;
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
        return nomem(a->path);
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

/* Open the archive at path (len bytes of it) and keep it in the list. */
static int open_archive(struct cli_inputs *list, const char *path, size_t len,
                        struct cli_archive **out)
{
    if (list->narchives == list->archives_cap) {
        size_t cap = list->archives_cap ? list->archives_cap * 2 : 4;
        struct cli_archive *as = cap <= SIZE_MAX / sizeof *as
                                     ? realloc(list->archives, cap * sizeof *as)
                                     : NULL;
        if (!as)
            return nomem(path);
        list->archives = as;
        list->archives_cap = cap;
    }
    struct cli_archive *a = &list->archives[list->narchives];
    a->path = strndup(path, len);
    if (!a->path)
        return nomem(path);
    npydt_error err;
    if (npydt_npz_open_path(a->path, &list->opts, &a->npz, &err) != NPYDT_OK) {
        int status = cli_report(a->path, &err);
        free(a->path);
        return status;
    }
    list->narchives++;
    *out = a;
    return EXIT_OK;
}

/* 1 when path is a regular file that starts as a zip archive does. */
int cli_is_archive(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);   /* a FIFO must not block */
    if (fd < 0)
        return 0;
    unsigned char magic[4];
    ssize_t n = read(fd, magic, sizeof magic);
    close(fd);
    return n == (ssize_t)sizeof magic && npydt_npz_is_archive(magic, sizeof magic);
}

int cli_inputs_add(struct cli_inputs *list, const char *arg)
{
    struct cli_archive *a;
    int status;
    struct stat st;
    if (stat(arg, &st) == 0) {
        if (!cli_is_archive(arg))
            return add_file(list, arg);
        if ((status = open_archive(list, arg, strlen(arg), &a)) != EXIT_OK)
            return status;
        for (size_t i = 0; i < npydt_npz_count(a->npz); i++)
            if ((status = add_member(list, a, i)) != EXIT_OK)
                return status;
        return EXIT_OK;
    }
    /* ARCHIVE:NAME, at the first ':' after an existing file */
    for (const char *colon = strchr(arg, ':'); colon; colon = strchr(colon + 1, ':')) {
        size_t len = (size_t)(colon - arg);
        char *prefix = strndup(arg, len);
        if (!prefix)
            return nomem(arg);
        int exists = stat(prefix, &st) == 0, archive = exists && cli_is_archive(prefix);
        free(prefix);
        if (!exists)
            continue;
        if (!archive)
            return report(arg, NPYDT_E_ARG,
                          "the part before ':' is not a zip (.npz) archive, so it has no "
                          "members");
        if (colon[1] == '\0')
            return report(arg, NPYDT_E_ARG, "no member name after ':'");
        if ((status = open_archive(list, arg, len, &a)) != EXIT_OK)
            return status;
        size_t i;
        npydt_error err;
        if (npydt_npz_find(a->npz, colon + 1, &i, &err) != NPYDT_OK)
            return cli_report(arg, &err);
        return add_member(list, a, i);
    }
    return add_file(list, arg); /* reading it will say why it cannot be opened */
}

npydt_status cli_input_header(const struct cli_input *in, npydt_header **out,
                              npydt_error *err)
{
    if (in->npz)
        return npydt_npz_member_header(in->npz, in->index, out, err);
    return npydt_parse_path(in->path, NULL, out, err);
}

/* ---- data ------------------------------------------------------------------- */

static npydt_status set(npydt_error *err, npydt_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static npydt_status set(npydt_error *err, npydt_status code, const char *fmt, ...)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->code = code;
        err->offset = NPYDT_NO_OFFSET;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* A .npy file: map it, or read it with pread where mapping fails. The
 * header is parsed again from what is opened, so a file replaced since
 * cli_input_header cannot pass off other data. */
static npydt_status open_file_data(const struct cli_input *in, const npydt_header *h,
                                   struct cli_data *d, npydt_error *err)
{
    d->fd = open(in->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (d->fd < 0)
        return set(err, NPYDT_E_IO, "cannot open: %s", strerror(errno));
    npydt_header *again;
    npydt_status st = npydt_parse_fd(d->fd, NULL, &again, err);
    if (st != NPYDT_OK)
        return st;
    int same = npydt_header_data_offset(again) == npydt_header_data_offset(h) &&
               npydt_header_data_bytes(again) == npydt_header_data_bytes(h) &&
               npydt_dtype_equal(npydt_header_dtype(again), npydt_header_dtype(h));
    npydt_header_free(again);
    if (!same)
        return set(err, NPYDT_E_IO, "%s", "the file changed while it was read");
    d->file_offset = npydt_header_data_offset(h);
    struct stat sb;
    if (fstat(d->fd, &sb) != 0)
        return set(err, NPYDT_E_IO, "cannot stat: %s", strerror(errno));
    if ((uint64_t)sb.st_size <= SIZE_MAX && sb.st_size > 0) {
        void *map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, d->fd, 0);
        if (map != MAP_FAILED) {
            d->map = map;
            d->map_len = (size_t)sb.st_size;
            d->bytes = (const unsigned char *)map + d->file_offset;
        }
    }
    return NPYDT_OK;
}

/* An archive member: checked in full, then in place or through a stream
 * positioned at the first data byte. */
static npydt_status open_member_data(const struct cli_input *in, const npydt_header *h,
                                     struct cli_data *d, npydt_error *err)
{
    npydt_status st = npydt_npz_member_verify(in->npz, in->index, err);
    if (st != NPYDT_OK)
        return st;
    const void *bytes;
    uint64_t len;
    if (npydt_npz_member_data(in->npz, in->index, &bytes, &len, NULL) == NPYDT_OK) {
        d->bytes = (const unsigned char *)bytes + npydt_header_data_offset(h);
        return NPYDT_OK;
    }
    if ((st = npydt_npz_stream_open(in->npz, in->index, &d->stream, err)) != NPYDT_OK)
        return st;
    unsigned char skip[4096];
    for (uint64_t left = npydt_header_data_offset(h); left > 0;) {
        size_t got;
        st = npydt_npz_stream_read(d->stream, skip, left < sizeof skip ? (size_t)left : sizeof skip,
                                   &got, err);
        if (st != NPYDT_OK)
            return st;
        if (got == 0)
            return set(err, NPYDT_E_DATA, "%s", "the member ends inside its header");
        left -= got;
    }
    return NPYDT_OK;
}

npydt_status cli_data_open(const struct cli_input *in, const npydt_header *h,
                           struct cli_data *d, npydt_error *err)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
    d->len = npydt_header_data_bytes(h);
    npydt_status st = in->npz ? open_member_data(in, h, d, err) : open_file_data(in, h, d, err);
    if (st != NPYDT_OK)
        cli_data_close(d);
    return st;
}

npydt_status cli_data_read(struct cli_data *d, void *buf, size_t size, size_t *got,
                           npydt_error *err)
{
    uint64_t left = d->len - d->pos;
    size_t n = size < left ? size : (size_t)left;
    *got = 0;
    if (n == 0)
        return NPYDT_OK;
    if (d->bytes) {
        memcpy(buf, d->bytes + d->pos, n);
    } else if (d->stream) {
        size_t have;
        npydt_status st = npydt_npz_stream_read(d->stream, buf, n, &have, err);
        if (st != NPYDT_OK)
            return st;
        if (have < n) /* verified beforehand: cannot happen */
            return set(err, NPYDT_E_DATA, "%s", "the member ended early");
    } else {
        for (size_t done = 0; done < n;) {
            ssize_t r = pread(d->fd, (char *)buf + done, n - done,
                              (off_t)(d->file_offset + d->pos + done));
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                return set(err, NPYDT_E_IO, "read failed: %s", strerror(errno));
            if (r == 0)
                return set(err, NPYDT_E_DATA, "%s", "the file shrank while it was read");
            done += (size_t)r;
        }
    }
    d->pos += n;
    *got = n;
    return NPYDT_OK;
}

void cli_data_close(struct cli_data *d)
{
    if (d->map)
        munmap(d->map, d->map_len);
    if (d->fd >= 0)
        close(d->fd);
    npydt_npz_stream_close(d->stream);
    memset(d, 0, sizeof *d);
    d->fd = -1;
}

/* .npz archives, the handle: options, opening an archive over a buffer, a
 * descriptor or a path (its central directory read and checked by
 * zip_directory.c before the handle is given out), closing it, and finding
 * and reaching its members. */
#include "npz/zip.h"

#include <string.h>
#include <unistd.h>

/* ---- options ---------------------------------------------------------------- */

void npydt_npz_options_init(npydt_npz_options *opts)
{
    memset(opts, 0, sizeof *opts);
    npydt_options_init(&opts->base);
    opts->max_members = 1000000;
    opts->max_inflated_bytes = (uint64_t)16 << 30;
    opts->max_ratio = 1032;
    opts->buffer_size = (size_t)64 << 10;
    opts->no_mmap = 0;
}

npydt_status zip_options_resolve(const npydt_npz_options *opts, npydt_npz_options *resolved,
                                 npydt_error *err)
{
    npydt_npz_options_init(resolved);
    if (!opts)
        return NPYDT_OK;
    npydt_npz_options d = *resolved;
    *resolved = *opts;
    options_resolve_limits(&resolved->base.limits);
    if (resolved->max_members == 0)
        resolved->max_members = d.max_members;
    if (resolved->max_inflated_bytes == 0)
        resolved->max_inflated_bytes = d.max_inflated_bytes;
    if (resolved->max_ratio == 0)
        resolved->max_ratio = d.max_ratio;
    if (resolved->buffer_size == 0)
        resolved->buffer_size = d.buffer_size;
    npydt_status st = options_check(&resolved->base, err);
    if (st != NPYDT_OK)
        return st;
    if (!reserved_is_zero(opts->reserved, sizeof opts->reserved / sizeof opts->reserved[0]))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "options have nonzero reserved room: fill them with "
                         "npydt_npz_options_init");
    return NPYDT_OK;
}

int npydt_npz_is_archive(const void *buf, size_t len)
{
    return io_looks_like_zip(buf, len);
}

/* ---- opening and closing ------------------------------------------------ */

/* An archive over size bytes at base; region (NULL for the caller's
 * buffer) holds them and is released with the archive, or here when the
 * archive is refused. */
static npydt_status open_bytes(const unsigned char *base, uint64_t size,
                               struct io_region *region, const npydt_npz_options *opts,
                               npydt_npz **out, npydt_error *err)
{
    struct npydt_npz *z = alloc_bytes(opts->base.allocator, sizeof *z);
    if (!z) {
        if (region)
            io_region_release(region);
        return set_nomem(err);
    }
    memset(z, 0, sizeof *z);
    z->opts = *opts;
    z->base = base;
    z->size = size;
    if (region)
        z->region = *region;
    npydt_status st = zip_parse_archive(z, err);
    if (st != NPYDT_OK) {
        npydt_npz_close(z);
        return st;
    }
    *out = z;
    return NPYDT_OK;
}

/* Resolve the options (NULL and zero fields) and check the common
 * arguments. */
static npydt_status begin(const npydt_npz_options **opts, npydt_npz_options *resolved,
                          npydt_npz **out, npydt_error *err)
{
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    npydt_status st = zip_options_resolve(*opts, resolved, err);
    *opts = resolved;
    return st;
}

npydt_status npydt_npz_open_buffer(const void *buf, size_t len, const npydt_npz_options *opts,
                                   npydt_npz **out, npydt_error *err)
{
    error_clear(err);
    npydt_npz_options resolved;
    npydt_status st = begin(&opts, &resolved, out, err);
    if (st != NPYDT_OK)
        return st;
    if (!buf && len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "buf is NULL");
    return open_bytes(buf, len, NULL, opts, out, err);
}

npydt_status npydt_npz_open_fd(int fd, const npydt_npz_options *opts, npydt_npz **out,
                               npydt_error *err)
{
    error_clear(err);
    npydt_npz_options resolved;
    npydt_status st = begin(&opts, &resolved, out, err);
    if (st != NPYDT_OK)
        return st;
    struct io_region region;
    st = io_map_or_read(fd, 0, IO_REST, opts->no_mmap ? IO_NO_MAP : 0, opts->base.allocator,
                        &region, err);
    if (st != NPYDT_OK)
        return st;
    return open_bytes(region.bytes, region.len, &region, opts, out, err);
}

npydt_status npydt_npz_open_path(const char *path, const npydt_npz_options *opts,
                                 npydt_npz **out, npydt_error *err)
{
    error_clear(err);
    if (out)
        *out = NULL;
    int fd;
    npydt_status st = io_open(path, 0, &fd, err);
    if (st != NPYDT_OK)
        return st;
    st = npydt_npz_open_fd(fd, opts, out, err);
    close(fd);
    return st;
}

void npydt_npz_close(npydt_npz *z)
{
    if (!z)
        return;
    const npydt_allocator *a = z->opts.base.allocator;
    free_bytes(a, z->names, z->names_size);
    free_bytes(a, z->members, z->members_size);
    io_region_release(&z->region);
    free_bytes(a, z, sizeof *z);
}

/* ---- members -------------------------------------------------------------- */

size_t npydt_npz_count(const npydt_npz *z)
{
    return z ? z->count : 0;
}

const npydt_npz_member *npydt_npz_member_at(const npydt_npz *z, size_t i)
{
    return z && i < z->count ? &z->members[i] : NULL;
}

npydt_status npydt_npz_find(const npydt_npz *z, const char *name, size_t *index,
                            npydt_error *err)
{
    error_clear(err);
    if (!z || !name || !index)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "NULL argument");
    for (size_t i = 0; i < z->count; i++)
        if (strcmp(z->members[i].name, name) == 0) {
            *index = i;
            return NPYDT_OK;
        }
    size_t len = strlen(name);
    for (size_t i = 0; i < z->count; i++) {
        const char *m = z->members[i].name;
        if (strncmp(m, name, len) == 0 && strcmp(m + len, ".npy") == 0) {
            *index = i;
            return NPYDT_OK;
        }
    }
    char quoted[128];
    zip_quote_name(quoted, sizeof quoted, name);
    return set_error(err, NPYDT_E_NOT_FOUND, NPYDT_NO_OFFSET, NULL,
                     "the archive has no member %s (nor with .npy appended)", quoted);
}

npydt_status npydt_npz_member_data(const npydt_npz *z, size_t i, const void **data,
                                   uint64_t *len, npydt_error *err)
{
    error_clear(err);
    if (!z || i >= z->count || !data || !len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "no member %zu, or a NULL argument", i);
    const npydt_npz_member *m = &z->members[i];
    if (m->method != NPYDT_NPZ_STORED)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "member %zu is deflate-compressed: read it with a stream", i);
    *data = z->base + m->data_offset;
    *len = m->uncompressed_size;
    return NPYDT_OK;
}

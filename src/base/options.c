/* The limits and allocator every reader takes: their defaults and the
 * checks a caller's options must pass. */
#include "base/base.h"

#include <string.h>

void npydt_options_init(npydt_options *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->limits.max_header_bytes = HEADER_LEN_LIMIT;
    opts->limits.max_depth = 128;
    opts->limits.max_ndim = 32;
    opts->limits.max_fields = 1000000;
    opts->allocator = NULL;
}

void npydt_options_init_untrusted(npydt_options *opts)
{
    npydt_options_init(opts);
    opts->limits.max_header_bytes = (size_t)64 << 10;
    opts->limits.max_depth = 32;
    opts->limits.max_fields = 10000;
    /* above the 3.3 MB the other limits were measured to let a parse hold */
    opts->limits.max_alloc_bytes = (uint64_t)4 << 20;
}

npydt_status header_len_writable(uint64_t hlen, npydt_error *err)
{
    if (hlen <= HEADER_LEN_LIMIT)
        return NPYDT_OK;
    return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                     "the header would have length %llu, above the limit of %zu bytes that "
                     "readers take",
                     (unsigned long long)hlen, HEADER_LEN_LIMIT);
}

void options_resolve_limits(npydt_limits *lim)
{
    if (lim->max_header_bytes && lim->max_depth && lim->max_ndim && lim->max_fields)
        return;   /* every limit set: the defaults are not needed */
    npydt_options d;
    npydt_options_init(&d);
    if (lim->max_header_bytes == 0)
        lim->max_header_bytes = d.limits.max_header_bytes;
    if (lim->max_depth == 0)
        lim->max_depth = d.limits.max_depth;
    if (lim->max_ndim == 0)
        lim->max_ndim = d.limits.max_ndim;
    if (lim->max_fields == 0)
        lim->max_fields = d.limits.max_fields;
}

const npydt_options *options_or_default(const npydt_options *opts, npydt_options *resolved)
{
    if (opts)
        *resolved = *opts;
    else
        npydt_options_init(resolved);
    options_resolve_limits(&resolved->limits);
    return resolved;
}

bool reserved_is_zero(const uint64_t *reserved, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (reserved[i] != 0)
            return false;
    return true;
}

npydt_status options_check(const npydt_options *opts, npydt_error *err)
{
    /* options filled for a newer library set fields this one does not know */
    if (!reserved_is_zero(opts->limits.reserved, sizeof opts->limits.reserved /
                                                     sizeof opts->limits.reserved[0]) ||
        !reserved_is_zero(opts->reserved, sizeof opts->reserved / sizeof opts->reserved[0]))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "options have nonzero reserved room: fill them with "
                         "npydt_options_init");
    if (opts->limits.max_depth > NPYDT_DEPTH_CEILING)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "max_depth %u is above the ceiling of %u", opts->limits.max_depth,
                         NPYDT_DEPTH_CEILING);
    const npydt_allocator *a = opts->allocator;
    if (a && (!a->malloc || !a->realloc || !a->free))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "allocator is missing a function");
    return NPYDT_OK;
}

/* The header texts a writer puts in its files: np.save's, in the format
 * version a file already has (the layout is the header stage's,
 * header_encode), in a buffer of the writer's allocator. */
#include "write/write.h"

#include "header/header.h"

npydt_status header_text(const npydt_allocator *a, const npydt_dtype *dt,
                         const uint64_t *shape, size_t ndim, int fortran_order, int major,
                         unsigned char **out, size_t *len, npydt_error *err)
{
    *out = NULL;
    *len = 0;
    size_t n;
    npydt_status st = header_encode(dt, shape, ndim, fortran_order, major, NULL, 0, &n, err);
    if (st != NPYDT_OK)
        return st;
    unsigned char *b = alloc_bytes(a, n);
    if (!b)
        return set_nomem(err);
    header_encode(dt, shape, ndim, fortran_order, major, b, n, &n, err);
    *out = b;
    *len = n;
    return NPYDT_OK;
}

void header_diff(const unsigned char *a, const unsigned char *b, size_t len, size_t *first,
                 size_t *end)
{
    size_t i = 0, j = len;
    while (i < len && a[i] == b[i])
        i++;
    while (j > i && a[j - 1] == b[j - 1])
        j--;
    *first = i;
    *end = j;
}

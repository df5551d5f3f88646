/* Every field name and title of a dtype's structs, sorted by (struct,
 * length, bytes), for finding a key that is a whole name in O(log n)
 * comparisons: keys in an order other than the fields' (JSON objects), and
 * a CSV header's columns, then cost no scan of the struct's fields each.
 * Sorted rather than hashed: the names come from the input, and no choice
 * of them makes a binary search slow. */
#include "cli/load/load.h"

#include <stdlib.h>
#include <string.h>

struct load_name {
    uintptr_t node;     /* the struct (compared as a number) */
    const char *s;
    size_t len;
    size_t field;
};

struct load_names {
    struct load_name *e;
    size_t n;
};

/* Count (e NULL) or store the names and titles below dt. */
static void collect(const npydt_dtype *dt, struct load_name *e, size_t *n)
{
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR:
        return;
    case NPYDT_SUBARRAY:
        collect(npydt_dtype_base(dt), e, n);
        return;
    default:   /* NPYDT_STRUCT */
        break;
    }
    for (size_t k = 0, nf = npydt_dtype_nfields(dt); k < nf; k++) {
        const char *title = npydt_dtype_field_title(dt, k);
        if (e) {
            e[*n] = (struct load_name){(uintptr_t)dt, npydt_dtype_field_name(dt, k),
                                       npydt_dtype_field_name_len(dt, k), k};
            if (title)
                e[*n + 1] = (struct load_name){(uintptr_t)dt, title,
                                               npydt_dtype_field_title_len(dt, k), k};
        }
        *n += title ? 2 : 1;
        collect(npydt_dtype_field_dtype(dt, k), e, n);
    }
}

static int compare(const struct load_name *a, const struct load_name *b)
{
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return memcmp(a->s, b->s, a->len);
}

static int by_name(const void *a, const void *b)
{
    return compare(a, b);
}

struct load_names *load_names_new(const npydt_dtype *dt)
{
    size_t n = 0;
    collect(dt, NULL, &n);
    struct load_names *ix = calloc(1, sizeof *ix);
    if (!ix || n > SIZE_MAX / sizeof *ix->e || !(ix->e = malloc((n ? n : 1) * sizeof *ix->e))) {
        free(ix);
        return NULL;
    }
    collect(dt, ix->e, &ix->n);
    qsort(ix->e, ix->n, sizeof *ix->e, by_name);
    return ix;
}

void load_names_free(struct load_names *ix)
{
    if (ix) {
        free(ix->e);
        free(ix);
    }
}

int load_names_find(const struct load_names *ix, const npydt_dtype *node, const char *s,
                    size_t len, size_t *field)
{
    struct load_name key = {(uintptr_t)node, s, len, 0};
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = compare(&ix->e[mid], &key);
        if (c == 0) {
            *field = ix->e[mid].field;
            return 1;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

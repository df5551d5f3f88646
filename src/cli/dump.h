/* What the files of npydt dump share: the selected fields, the printer's
 * state, element values as JSON, and the table for people. */
#ifndef NPYDT_CLI_DUMP_H
#define NPYDT_CLI_DUMP_H

#include "cli.h"

/* A field chosen with --fields: its path as given, where it is, its type. */
struct selected {
    const char *path;
    uint64_t offset;
    const npydt_dtype *dtype;
    size_t path_len;     /* a field name may hold a NUL */
};

/* State of one dump: a buffer for U scalars and the first error. */
struct dumper {
    char *ubuf;          /* room for the UTF-8 of the largest U scalar */
    size_t ubuf_size;
    npydt_error err;
    int failed;
};

/* One value of type dt at p as JSON (to a table cell too). -1 with d->err
 * set and d->failed when it cannot be printed. */
int dump_put_value(struct dumper *d, FILE *out, const npydt_dtype *dt, const unsigned char *p);
/* One element: the whole value, or an object of the nsel selected fields. */
int dump_put_element(struct dumper *d, FILE *out, const npydt_dtype *dt,
                     const unsigned char *p, const struct selected *sel, size_t nsel);
/* Nonzero, with d->err set, when a U scalar of rec within bytes [lo, hi)
 * holds no code point (NumPy cannot make a str of it). */
int dump_check_unicode(struct dumper *d, const npydt_dtype *root, const unsigned char *rec,
                       uint64_t lo, uint64_t hi);
/* The next *n (at most max; 0 at the end) elements of src in C order,
 * contiguous at *batch. */
npydt_status dump_next_batch(npydt_reader *src, uint64_t max, const unsigned char **batch,
                             uint64_t *n, npydt_error *err);
/* The first `rows` elements of src as a table under title: the selected
 * fields, the top-level fields or the whole value per column. -1 on
 * failure (d->failed when the data is at fault, else out of memory). */
int dump_print_table(struct dumper *d, FILE *out, const char *title, npydt_reader *src,
                     const struct selected *sel, size_t nsel, uint64_t rows);

#endif

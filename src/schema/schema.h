/* What the schema stage gives later stages: nothing beyond the public
 * API (npydt_schema_*, npydt_check*), which they call like any program.
 * Below, what the stage's own files share: schema.c compiles a spec,
 * schema_match.c compares a dtype and a header with it, schema_report.c
 * records each mismatch; cancast.h holds the safe-cast rules. Not
 * installed. */
#ifndef NPYDT_SCHEMA_H
#define NPYDT_SCHEMA_H

#include "base/base.h"

/* A compiled schema, in its own arena. */
struct npydt_schema {
    struct arena arena;
    const npydt_allocator *alloc;
    const npydt_dtype *dtype;   /* NULL: the spec does not constrain it */
    bool has_shape;
    bool has_fortran;
    bool fortran;
    size_t ndim;
    const uint64_t *shape;      /* HEADER_DIM_ANY matches any length */
};

/* A check's result, in its own arena. */
struct npydt_check_result {
    struct arena arena;
    npydt_mismatch *items;
    size_t n, cap;      /* n <= NPYDT_CHECK_MISMATCH_MAX */
    size_t total;       /* every mismatch found, those not kept included */
};

/* A field path as a chain on the C stack, turned into text only when a
 * mismatch is recorded. */
struct seg {
    const struct seg *up;
    const char *name;
    size_t len;                  /* of name, which may hold a NUL */
};

/* One check under way: where its texts go and its first failure. */
struct chk {
    struct arena *ar;            /* the result's arena */
    struct arena scratch;        /* name indexes, released after the check */
    npydt_check_result *res;
    unsigned flags;
    npydt_error *err;
    npydt_status st;             /* first failure (allocation, depth) */
};


/* Record a mismatch at path (NULL: the array itself) whose expected and
 * found texts are NUL-terminated; a NULL text means building it failed
 * (c->st is set) and nothing is recorded. */
void chk_add(struct chk *c, npydt_mismatch_code code, const struct seg *path,
             const char *expected, const char *found);

/* The same with texts of elen and flen bytes (a title or names may hold
 * NULs). */
void chk_add_n(struct chk *c, npydt_mismatch_code code, const struct seg *path,
               const char *expected, size_t elen, const char *found, size_t flen);

/* Texts for chk_add in the result's arena: "" once NPYDT_CHECK_MISMATCH_MAX
 * mismatches are kept (the later ones are only counted), NULL (c->st set)
 * when out of memory. */
const char *chk_printf(struct chk *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "<f8" for a scalar, the descriptor literal for anything else. */
const char *chk_type_text(struct chk *c, const npydt_dtype *dt);

/* The text write(o, arg) produces, and its length in *len when len is not
 * NULL (names in it may hold NULs). */
const char *chk_text_n(struct chk *c, void (*write)(struct outbuf *, const void *),
                       const void *arg, size_t *len);
const char *chk_text(struct chk *c, void (*write)(struct outbuf *, const void *),
                     const void *arg);

/* Writers for chk_text. chk_shape_out: a node's subarray shape, arg the
 * node; chk_dims_out: an array's dimensions (-1 for any), arg a struct
 * chk_dims; chk_names_out: field names joined by ", ", arg a struct
 * chk_names. */
struct chk_dims {
    const int64_t *dims;
    size_t ndim;
};

struct chk_names {
    const npydt_dtype *dt;
    const size_t *which;   /* field indexes, in the order to print */
    size_t n;
};

void chk_shape_out(struct outbuf *o, const void *arg);
void chk_dims_out(struct outbuf *o, const void *arg);
void chk_names_out(struct outbuf *o, const void *arg);

/* NPYDT_OK when res holds no mismatch; otherwise NPYDT_E_MISMATCH with a
 * message naming how many there are and the first one. */
npydt_status chk_first_error(const npydt_check_result *res, npydt_error *err);

#endif

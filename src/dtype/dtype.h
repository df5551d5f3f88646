/* What the dtype stage gives later stages: the dtype tree, constructing
 * validated nodes from plain values, type strings, the leaf table and
 * printing.
 * Not installed. */
#ifndef NPYDT_DTYPE_H
#define NPYDT_DTYPE_H

#include "base/base.h"

/* ---- the tree ----------------------------------------------------------- */

struct npydt_field {
    const char *name;        /* NUL-terminated, and may hold NULs: name_len counts */
    const char *title;       /* NULL when none; the same for title_len */
    uint64_t offset;
    const npydt_dtype *dtype;
    size_t name_len;
    size_t title_len;        /* 0 when there is no title */
};

/* Totals of a dtype's tree, kept in every node as it is built, so that the
 * leaf table is sized without a counting walk. Fields inside a subarray
 * count once, as the table holds them once. */
struct dtype_totals {
    uint64_t leaves;         /* leaf table entries */
    uint64_t fields;         /* struct fields at every level */
};

struct dtype_root;

struct npydt_dtype {
    npydt_dtype_class cls;
    char kind;               /* scalar kind; 'V' for struct and subarray */
    char byteorder;          /* '<', '>', '|' */
    bool has_object;
    int8_t unit;             /* npydt_unit */
    int32_t unit_count;
    /* Of the tree below (0 for a scalar), kept as it is built so that a
     * node nested too deeply is refused where the text has it: the
     * levels of struct and subarray nodes on the longest way down (at
     * most limits.max_depth), and the repeats the leaf table gives the
     * deepest leaf, a subarray of scalars directly inside another taking
     * its repeat (at most DTYPE_MAX_REPEATS). */
    uint16_t levels;
    uint16_t repeats;
    uint64_t itemsize;
    size_t nfields;
    struct npydt_field *fields;
    size_t ndim;
    uint64_t *shape;
    const npydt_dtype *base;
    struct dtype_root *root; /* set on root nodes only */
    struct dtype_totals totals;
};

/* Subarrays one inside another that a leaf of the table can carry. */
#define DTYPE_MAX_REPEATS 63u

/* NumPy's unsized flexible types: 'S0', 'U0' and 'V0' (np.dtype('S') and
 * the like), which a size given later completes. */
static inline bool dtype_is_unsized_flexible(const npydt_dtype *dt)
{
    return dt->cls == NPYDT_SCALAR && dt->itemsize == 0 &&
           (dt->kind == 'S' || dt->kind == 'U' || dt->kind == 'V');
}

/* One step of the leaves' paths: a struct field, below the step `up`
 * (PATH_STEP_NONE at the top). Paths are spelled from the steps only when
 * asked for, so leaves below one field share its prefix. */
struct path_step {
    const struct npydt_field *field;
    size_t up;
    size_t path_len;         /* of the whole path down to this field */
};

#define PATH_STEP_NONE SIZE_MAX

/* The leaves of a node, and the steps their paths end at (path_step).
 * steps is NULL when the node is a struct of scalars: leaf i's step is
 * then field i of that struct. */
struct leaf_table {
    npydt_leaf *leaves;
    size_t nleaves;
    const struct path_step *steps;
};

/* Owner of a parse result's arena and its derived tables. */
struct dtype_root {
    struct arena arena;
    bool owns_arena;         /* false when a header owns it */
    struct leaf_table table;
};

/* Spell the path ending at `step` into buf as snprintf does: the names
 * from the top joined by '.' (none after an empty path), raw bytes. steps
 * is a leaf table's; with none, step i is field i of flat. Returns the
 * path's length. */
size_t path_steps_spell(const struct path_step *steps, const npydt_dtype *flat, size_t step,
                        char *buf, size_t size);

/* One level of the field path being read: the name of the field whose
 * type is being built, below the level `up` (NULL at the top). */
struct path_frame {
    const char *name;
    size_t len;
    struct path_frame *up;
};

/* Context for building dtypes: where nodes go and how errors are named. */
struct dtype_ctx {
    struct arena *arena;
    struct arena *scratch;   /* for what the result does not keep, or NULL: arena */
    const npydt_limits *limits;
    npydt_error *err;
    size_t nfields;          /* fields created so far, against max_fields */
    struct path_frame *frame; /* the innermost field being read, or NULL */
    char path[256];          /* the path spelled out, by dtype_path only: a
                              * parse spells it only when it reports an error */
};

/* Set up c with no path. The path buffer is left as it is: only
 * dtype_path writes it, and only when an error is reported, so a parse
 * that succeeds never touches those bytes. */
static inline void dtype_ctx_init(struct dtype_ctx *c, struct arena *arena,
                                  struct arena *scratch, const npydt_limits *limits,
                                  npydt_error *err)
{
    c->arena = arena;
    c->scratch = scratch;
    c->limits = limits;
    c->err = err;
    c->nfields = 0;
    c->frame = NULL;
}

/* The field path of c's innermost frame for an error message ("pos.x",
 * a NUL in a name written \x00, cut to the buffer), spelled into c->path. */
const char *dtype_path(struct dtype_ctx *c);

/* Wrap base in a subarray of the given shape, checking sizes like NumPy. */
npydt_status dtype_make_subarray(struct dtype_ctx *c, const npydt_dtype *base,
                                 const uint64_t *shape, size_t ndim, size_t offset,
                                 const npydt_dtype **out);

/* np.dtype((base, shape)) for a sized base and a shape of ndim dimensions
 * (each at most a C int), scalar when it was one integer rather than a
 * sequence: (type, 1) and (type, ()) are type itself, else a subarray. */
static inline npydt_status dtype_apply_dims(struct dtype_ctx *c, const npydt_dtype *base,
                                            const uint64_t *dims, size_t ndim, bool scalar,
                                            size_t off, const npydt_dtype **out)
{
    /* (type, 1) still means type in NumPy 1.x, and (type, ()) always does */
    if (ndim == 0 || (scalar && dims[0] == 1)) {
        *out = base;
        return NPYDT_OK;
    }
    return dtype_make_subarray(c, base, dims, ndim, off, out);
}

/* np.save's type strings ('<f8', '|S16', '<M8[ns]'), which typestr_parse
 * tries first: numeric and datetime types are shared nodes, S, U and V get
 * a node of their size. NULL for any other string, and on running out of
 * memory (*nomem set). */
const npydt_dtype *typestr_saved(struct dtype_ctx *c, const char *s, size_t n, bool *nomem);

/* np.dtype(str) for a string literal found at `offset` in the header:
 * errors point at the literal. */
npydt_status typestr_parse(struct dtype_ctx *c, const char *s, size_t len,
                           size_t offset, const npydt_dtype **out);
/* The same for s written as it is at `offset` of the text (a spec typed
 * by a user): an error in one item of a comma string points at the item,
 * and a NUL byte anywhere is refused before anything is read. */
npydt_status typestr_parse_text(struct dtype_ctx *c, const char *s, size_t len,
                                size_t offset, const npydt_dtype **out);

/* ---- root dtypes a caller owns (root.c) ----------------------------------- */

/* Bytes of a parse's scratch arena taken from the stack: the syntax tree
 * of a header of a dozen fields. */
#define SCRATCH_ROOM 4096

/* A reader of text into a dtype: nodes go where c says. */
typedef npydt_status (*dtype_text_reader)(struct dtype_ctx *c, const char *text, size_t len,
                                          const npydt_dtype **out);

/* Run read over text in a fresh arena owned by the root it returns in
 * *out (released with npydt_dtype_free), as the public parse calls do. */
npydt_status dtype_parse_root(const char *text, size_t len, const npydt_options *opts,
                              dtype_text_reader read, npydt_dtype **out, npydt_error *err);

/* ---- printing (repr.c) --------------------------------------------------- */

/* Python's repr of dtype.descr, as np.save writes it: code points of names
 * as UTF-8, or as one latin-1 byte each with latin1 (1.0 and 2.0 headers). */
void dtype_descr_repr(struct outbuf *o, const npydt_dtype *dt, bool latin1);

/* ---- np.dtype((base, v)), v read into plain values ---------------------- */

/* Does base take a (type, size) tuple's integer as its itemsize instead
 * of a shape? True for NumPy's unsized types: 'S0', 'U0', 'V0' and an
 * empty subarray such as ('<i4', (0,)) (size 0 and no fields). */
static inline bool dtype_takes_itemsize(const npydt_dtype *base)
{
    return dtype_is_unsized_flexible(base) || (base->cls == NPYDT_SUBARRAY && base->itemsize == 0);
}

/* np.dtype((base, size)) for such a base: size in characters for 'U',
 * else bytes; UINT64_MAX (or any size above a C int) when v was no
 * non-negative integer, which NumPy refuses as an invalid itemsize. */
npydt_status dtype_with_itemsize(struct dtype_ctx *c, const npydt_dtype *base, uint64_t size,
                                 size_t off, const npydt_dtype **out);

/* The limit error for a shape of ndim dimensions, more than max_ndim. */
npydt_status dtype_ndim_error(struct dtype_ctx *c, size_t ndim, size_t off);

/* That error when ndim is above max_ndim, else OK: readers check before
 * they make room for the dimensions. Inline, as every subarray passes. */
static inline npydt_status dtype_check_ndim(struct dtype_ctx *c, size_t ndim, size_t off)
{
    return ndim > c->limits->max_ndim ? dtype_ndim_error(c, ndim, off) : NPYDT_OK;
}

/* The limit error for more than max_fields fields. */
npydt_status dtype_fields_error(struct dtype_ctx *c, size_t off);

/* That error when n more fields would pass max_fields, else OK: readers
 * that build a struct's fields one by one check as they go. */
static inline npydt_status dtype_check_fields(struct dtype_ctx *c, size_t n, size_t off)
{
    return n > c->limits->max_fields || c->nfields > c->limits->max_fields - n
               ? dtype_fields_error(c, off)
               : NPYDT_OK;
}

/* The error for a dimension that does not fit a C int (or a uint64_t),
 * which readers report as they meet it, before later dimensions. */
npydt_status dtype_dim_overflow(struct dtype_ctx *c, size_t off);

/* The leaf table of any node dt, as npydt_dtype_leaves gives a root's
 * (paths from dt): dt->totals.leaves entries, with their path steps and
 * repeats, in c->arena. A root's table is this one; records code asks it
 * for a node inside a record (a field's dtype) too. */
npydt_status dtype_leaf_table(struct dtype_ctx *c, const npydt_dtype *dt,
                              struct leaf_table *out);

/* The one way to a root dtype: a copy of dt in c->arena with its leaf
 * table and root record. With owned (which must be c->arena), the root
 * takes that arena over, and npydt_dtype_free releases it; the caller
 * makes no allocation in it afterwards. Without, the arena belongs to
 * whatever holds the root (a header, a schema). */
npydt_status dtype_make_root(struct dtype_ctx *c, const npydt_dtype *dt, struct arena *owned,
                             npydt_dtype **out);

/* dtype_struct_of_fields for fields built in place (kept, not copied),
 * reporting a repeated name or title at the entry of its field, field i's
 * being at text_offsets[i]. */
npydt_status dtype_make_struct_fields(struct dtype_ctx *c, const struct npydt_field *fields,
                                      const size_t *text_offsets, size_t n, uint64_t itemsize,
                                      size_t off, const npydt_dtype **out);

/* A struct node whose fields are fields[0..n) (kept, not copied): checks
 * names and titles for duplicates as NumPy does and counts fields against
 * the limit. A repeated name or title returns NPYDT_E_NAME, unreported,
 * with *dup its number (2 * field, plus 1 for a title). */
npydt_status dtype_struct_of_fields(struct dtype_ctx *c, const struct npydt_field *fields,
                                    size_t n, uint64_t itemsize, size_t off, size_t *dup,
                                    const npydt_dtype **out);

#endif

/* The Arrow stage: dtypes as Arrow schemas, records as Arrow arrays, and
 * the stream over a reader (the C Data and C Stream interfaces declared
 * in npydt.h). What the schema (schema.c), the batches (batch.c), the
 * nodes both are made of (node.c) and the stream (stream.c) share. Not
 * installed. */
#ifndef NPYDT_ARROW_H
#define NPYDT_ARROW_H

#include "base/base.h"

/* How a scalar's values are laid out as an Arrow column. */
enum arrow_col {
    COL_BOOL,     /* "b": bits */
    COL_FIXED,    /* ints, f2 f4 f8, S and V as "w:N": the native bytes */
    COL_DOUBLE,   /* f16: the nearest double */
    COL_COMPLEX,  /* "+w:2" of the parts, native (c8, c16) or doubles (c32) */
    COL_BINARY,   /* S as "z": without trailing NULs */
    COL_UTF8,     /* U as "u" */
    COL_TIME,     /* M and m: the int64 count, NaT null */
    COL_DATE32    /* M8[D]: int32 days, NaT null */
};

/* A scalar's column: its format (a fixed-size list's for complex, whose
 * child is child_format), how its values are gathered (as) and how many
 * bytes one value takes once gathered (gathered) and in the column's data
 * buffer (width; 0 for variable-length and bits). A datetime's column
 * counts in time_unit (NPYDT_UNIT_NONE: the raw count), converted from
 * the dtype's unit when time_convert ("[h]" as seconds, "[25s]"). */
struct arrow_scalar {
    enum arrow_col col;
    char format[24];
    const char *child_format;
    npydt_convert as;
    size_t gathered;
    size_t width;
    npydt_unit time_unit;
    bool time_convert;
};

/* The column of scalar dt; NPYDT_E_OBJECT for an object, NPYDT_E_TYPE for
 * a size Arrow has no type for. */
npydt_status arrow_scalar_of(const npydt_dtype *dt, int bytes_as_binary,
                             struct arrow_scalar *out, npydt_error *err);

/* The options in force: opts or the defaults, limits resolved; NPYDT_E_ARG
 * for nonzero reserved room or a bad allocator. */
npydt_status arrow_options_resolve(const npydt_arrow_options *opts, npydt_arrow_options *out,
                                   npydt_error *err);

/* The name every dtype that is not a struct gets as its one column. */
#define ARROW_VALUE_NAME "value"

/* The metadata key of a shape: a subarray's on its outermost list, an
 * array's (not 1-d) on the root of its stream's schema. */
#define ARROW_SHAPE_KEY "npydt.shape"

/* The schema of records of dt (npydt_arrow_schema) with options o
 * resolved; a shape of ndim dimensions other than 1 (NULL when 0) goes
 * on the root as metadata ARROW_SHAPE_KEY. */
npydt_status arrow_schema_make(const npydt_dtype *dt, const npydt_arrow_options *o,
                               const uint64_t *shape, size_t ndim, struct ArrowSchema *out,
                               npydt_error *err);

/* Are the fields of struct dt one after the other from its first byte to
 * its last, in order? The schema of a struct that is not carries its
 * descriptor in metadata "npydt.dtype". */
bool arrow_struct_packed(const npydt_dtype *dt);

/* Error paths: name (nlen bytes) appended to path (size bytes) after a
 * '.', as a message spells it; *keep is the length to cut back to. */
void arrow_path_push(char *path, size_t size, const char *name, size_t nlen, size_t *keep);

/* An error's message does not repeat its path. Where text alone reaches
 * the caller (an ArrowArrayStream's get_last_error), the two make one
 * line, "field PATH: MESSAGE" (the message alone without a path), in buf
 * of ARROW_ERROR_TEXT_SIZE bytes; NULL when err holds no failure. */
#define ARROW_ERROR_TEXT_SIZE                                                                    \
    (sizeof ((npydt_error *)0)->path + sizeof ((npydt_error *)0)->message + 8)
const char *arrow_error_text(const npydt_error *err, char *buf);

/* ---- nodes: each struct owns one block (node.c) ------------------------ */

/* A metadata pair: the value is vlen bytes. */
struct arrow_pair {
    const char *key;
    const char *value;
    size_t vlen;
};

/* out becomes a schema node with n_children children (zeroed, released
 * with it), copies of format and name (nlen bytes), and the npairs pairs
 * as the C Data Interface encodes metadata (NULL when there are none);
 * its release frees them. NPYDT_E_NOMEM, NPYDT_E_LIMIT for a value past
 * int32. */
npydt_status arrow_schema_node(const npydt_allocator *a, struct ArrowSchema *out,
                               const char *format, const char *name, size_t nlen,
                               const struct arrow_pair *pairs, size_t npairs,
                               int64_t n_children, npydt_error *err);

/* out becomes an array node of length, n_buffers buffer slots (all NULL)
 * and n_children children (zeroed, released with it). Buffers given by
 * arrow_array_buffer belong to it. NPYDT_E_NOMEM. */
npydt_status arrow_array_node(const npydt_allocator *a, struct ArrowArray *out, int64_t length,
                              int64_t n_buffers, int64_t n_children, npydt_error *err);
/* Buffer slot i of array node out: size bytes (zeroed), owned by the node;
 * NULL when memory runs out. size 0 gives a valid pointer to no bytes. */
void *arrow_array_buffer(struct ArrowArray *out, int64_t i, size_t size);
/* The same, not zeroed: for a buffer the caller writes whole. */
void *arrow_array_buffer_raw(struct ArrowArray *out, int64_t i, size_t size);
/* Buffer slot i of out: a copy of size bytes at src, owned by the node. */
void *arrow_array_copy(struct ArrowArray *out, int64_t i, const void *src, size_t size);
struct reader_share;
/* Buffer slot i of array node out: bytes at p in the mapping of share,
 * which the node keeps mapped (a reference of its own) until released. */
void arrow_array_borrow_mapping(struct ArrowArray *out, int64_t i, const void *p,
                                struct reader_share *share);

/* A block of bytes array nodes can point into (a message's body), with
 * counted references: the last of arrow_shared_unref frees it. */
struct arrow_shared;
/* A block of no bytes, with one reference (the caller's); NULL when
 * memory runs out. */
struct arrow_shared *arrow_shared_new(const npydt_allocator *a);
/* Drop one reference (none for NULL). */
void arrow_shared_unref(struct arrow_shared *s);
/* Is the caller's reference the only one? */
bool arrow_shared_alone(struct arrow_shared *s);
/* Its bytes, size of them at least (their content unspecified), when the
 * caller's reference is the only one; NULL otherwise or when memory runs
 * out. */
unsigned char *arrow_shared_bytes(struct arrow_shared *s, size_t size);
/* Buffer slot i of out points at p, inside s's bytes: out holds a
 * reference to s until it is released. */
void arrow_array_borrow_block(struct ArrowArray *out, int64_t i, struct arrow_shared *s,
                              const void *p);
/* The block n bytes at p lie in, when array node a (made here) borrows
 * from it; NULL otherwise: bytes of one block may be read as one piece. */
const struct arrow_shared *arrow_array_block_of(const struct ArrowArray *a, const void *p,
                                                size_t n);

/* ---- batches (batch.c) ---------------------------------------------------- */

/* One batch of rows records (C order, itemsize bytes apart at records, the
 * first being row row0 of the array) of dtype dt into *out. */
struct arrow_batch {
    const npydt_allocator *alloc;
    int bytes_as_binary;
    uint32_t max_depth;
    const unsigned char *records;
    size_t itemsize;
    uint64_t rows, row0;
    npydt_repeat *levels;   /* scratch: levels_cap entries */
    size_t levels_cap;
    struct reader_share *share;   /* the mapping records lie in: columns whose
                                   * bytes are Arrow's point into it; NULL:
                                   * every column is gathered */
    struct arrow_shared *body;    /* the block the columns copied as they are
                                   * go to, one after the other (the caller's
                                   * reference the only one); NULL: a block
                                   * each */
};
npydt_status arrow_batch_fill(struct arrow_batch *b, const npydt_dtype *dt,
                              struct ArrowArray *out, npydt_error *err);
/* Levels a batch of dt needs (1 for the rows, one per subarray dimension
 * above a struct), and the bytes its columns take per row at most
 * (saturated); NPYDT_E_LIMIT past max_depth levels of nesting. */
npydt_status arrow_batch_plan(const npydt_dtype *dt, uint32_t max_depth, size_t *levels,
                              uint64_t *row_bytes, npydt_error *err);

/* ---- import: Arrow columns into records (import_*.c) ---------------------- */

/* The options in force: opts or the defaults, limits resolved; NPYDT_E_ARG
 * for nonzero reserved room or a bad allocator. */
npydt_status arrow_import_resolve(const npydt_arrow_import_options *opts,
                                  npydt_arrow_import_options *out, npydt_error *err);

/* The value of key in metadata encoded as the C Data Interface says, or
 * NULL; *len its bytes. */
const char *arrow_meta_get(const char *meta, const char *key, size_t *len);

/* Does scalar dt (a record's leaf) take the values of column s? It does
 * when the export would give dt as s's format (a time zone aside, and
 * "tdm" for M8[ms]); *sc is then dt's column, as arrow_scalar_of says. */
bool arrow_import_accepts(const struct ArrowSchema *s, const npydt_dtype *dt,
                          struct arrow_scalar *sc);

/* Does the schema's root take the dtype's records as its own fields (a
 * struct dtype), or is its one child the column of a dtype that is not a
 * struct? *col is the schema of the records' column (the root or its
 * child). NPYDT_E_MISMATCH when neither fits. */
npydt_status arrow_import_root(const struct ArrowSchema *root, const npydt_dtype *dt,
                               const struct ArrowSchema **col, npydt_error *err);

/* The rows [start, start + n) of array a, of format fmt, laid out with
 * n_buffers buffers and n_children children, are in bounds: lengths,
 * offsets and their sums fit, the buffers the format reads are there.
 * NPYDT_E_DATA naming path otherwise. */
npydt_status arrow_import_check_array(const struct ArrowArray *a, const char *fmt,
                                      int64_t n_buffers, int64_t n_children, int64_t start,
                                      int64_t n, const char *path, npydt_error *err);

/* Check that schema s holds records of dtype dt: NPYDT_E_MISMATCH naming
 * the first difference, NPYDT_E_TYPE for a column no dtype takes. */
npydt_status arrow_import_check(const struct ArrowSchema *s, const npydt_dtype *dt,
                                const npydt_arrow_import_options *o, npydt_error *err);

/* Records of the writer's dtype waiting for it: a chunk of about 1 MiB
 * (most records, allocated as rows come), used of them filled; zero when
 * a record has bytes no value stores (padding), cleared before use. */
struct arrow_pending {
    const npydt_allocator *alloc;
    unsigned char *buf;
    uint64_t cap, used, most;
    size_t isz;
    bool zero;
};
void arrow_pending_init(struct arrow_pending *p, const npydt_dtype *dt,
                        const npydt_allocator *alloc);
/* The waiting records into w (p->used becomes 0). */
npydt_status arrow_pending_flush(npydt_writer *w, struct arrow_pending *p, npydt_error *err);
void arrow_pending_free(struct arrow_pending *p);

/* Append the rows of array a (schema s, checked against the writer's
 * dtype by arrow_import_check) to w through p (full chunks are written,
 * the rest waits in p for arrow_pending_flush); errors name a row
 * counting from row0. */
npydt_status arrow_import_rows(npydt_writer *w, struct arrow_pending *p,
                               const struct ArrowSchema *s, const struct ArrowArray *a,
                               const npydt_arrow_import_options *o, uint64_t row0,
                               npydt_error *err);

#endif

/* Making nodes from kinds, sizes and field specs, and reading a type
 * string's repeat prefix: what the type string reader and node
 * construction share inside the dtype stage. */
#ifndef NPYDT_DTYPE_BUILD_H
#define NPYDT_DTYPE_BUILD_H

#include "dtype/dtype.h"

/* A scalar node of its own in c's arena (unit none), or NULL when out of
 * memory. */
npydt_dtype *dtype_new_scalar(struct dtype_ctx *c, char kind, char byteorder,
                              uint64_t itemsize);
/* A read-only node shared by every parse for numeric kinds (b i u f c O),
 * or NULL for any other kind, size or order. */
const npydt_dtype *dtype_shared_scalar(char kind, char byteorder, uint64_t itemsize);
/* The shared nodes of kinds i, u, f, c by [kind][log2 size][order '>'],
 * sizes 1 to 32 ('<' and '>' only: 1-byte ones come from
 * dtype_shared_scalar with order '|'). */
extern const npydt_dtype dtype_builtin_ordered[4][6][2];
/* The same for a datetime (kind M or m) of the given unit and multiplier
 * 1, or NULL for any other kind, order or unit. */
const npydt_dtype *dtype_shared_datetime(char kind, char byteorder, int unit);

/* One field of a struct being built. */
struct field_spec {
    const char *name;
    const char *title;          /* NULL when none */
    size_t name_len;            /* bytes of name (a NUL may be among them) */
    size_t title_len;           /* bytes of title, 0 when none */
    const npydt_dtype *dtype;
    uint64_t offset;
    size_t text_offset;         /* where the entry is, for messages */
};

/* dtype_struct_of_fields for specs (copied), reporting a repeat at its
 * entry's offset. */
npydt_status dtype_make_struct(struct dtype_ctx *c, const struct field_spec *specs, size_t n,
                               uint64_t itemsize, size_t off, const npydt_dtype **out);


/* np.dtype((base, repeat)) for a comma string item's repeat prefix
 * rep[0..len), which the item's pattern limits to spaces, digits, commas
 * and one '(' and ')': read as ast.literal_eval reads it. Errors point at
 * off. */
npydt_status typestr_repeat(struct dtype_ctx *c, const npydt_dtype *base, const char *rep,
                            size_t len, size_t off, const npydt_dtype **out);

#endif

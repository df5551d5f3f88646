/* Constructing validated dtype nodes (used by the descriptor and type
 * string parsers). */
#ifndef NPYDT_DTYPE_BUILD_H
#define NPYDT_DTYPE_BUILD_H

#include "internal.h"
#include "literal.h"

struct field_spec {
    const char *name;
    const char *title;          /* NULL when none */
    const npydt_dtype *dtype;
    uint64_t offset;
    size_t text_offset;         /* where the entry is, for messages */
};

/* A struct of n fields at the given offsets; checks names and titles for
 * duplicates as NumPy does and counts fields against the limit. */
npydt_status dtype_make_struct(struct dtype_ctx *c, const struct field_spec *specs, size_t n,
                               uint64_t itemsize, size_t off, const npydt_dtype **out);

/* np.dtype((base, v)): v is a shape (int or sequence of ints), or the
 * itemsize of an unsized flexible type ('S0', 'U0', 'V0'). */
npydt_status dtype_apply_shape(struct dtype_ctx *c, const npydt_dtype *base,
                               const struct lit *v, size_t off, const npydt_dtype **out);

#endif

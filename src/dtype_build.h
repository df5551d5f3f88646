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

/* The fields of one descriptor list as they are read: padding entries
 * only move the offset, the others become specs. */
struct field_list {
    struct field_spec *specs;
    size_t n, cap;
    uint64_t offset;     /* where the next entry starts */
};

/* Add one (name, dtype) entry; plain_name is false when the name came as
 * a (title, name) tuple (such an entry is never padding). The specs array
 * grows in the arena when cap is reached. */
npydt_status field_list_add(struct dtype_ctx *c, struct field_list *fl, const char *name,
                            bool plain_name, const char *title, const npydt_dtype *dt,
                            size_t text_offset);

/* A struct of n fields at the given offsets; checks names and titles for
 * duplicates as NumPy does and counts fields against the limit. */
npydt_status dtype_make_struct(struct dtype_ctx *c, const struct field_spec *specs, size_t n,
                               uint64_t itemsize, size_t off, const npydt_dtype **out);

/* np.dtype((base, v)): v is a shape (int or sequence of ints), or the
 * itemsize of an unsized flexible type ('S0', 'U0', 'V0'). */
npydt_status dtype_apply_shape(struct dtype_ctx *c, const npydt_dtype *base,
                               const struct lit *v, size_t off, const npydt_dtype **out);

/* Read a header exactly as np.save writes it, straight into a dtype and
 * shape. NPYDT_OK: done; NPYDT_E_NOMEM: out of memory; any other status:
 * declined (not np.save's shape, or an error), and nothing is reported:
 * the general parser must read the header. */
npydt_status header_fast(struct dtype_ctx *c, const char *text, size_t len, bool *fortran,
                         uint64_t **shape, size_t *ndim, const npydt_dtype **dt);

#endif

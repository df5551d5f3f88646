/* Constructing validated dtype nodes (used by the descriptor and type
 * string parsers). */
#ifndef NPYDT_DTYPE_BUILD_H
#define NPYDT_DTYPE_BUILD_H

#include "internal.h"
#include "literal.h"

struct field_spec {
    const char *name;
    const char *title;          /* NULL when none */
    size_t name_len;            /* strlen(name) */
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

/* field_list_add's error: the struct outgrew a C int. */
npydt_status field_list_overflow(struct dtype_ctx *c, size_t text_offset);

/* Add one (name, dtype) entry; plain_name is false when the name came as
 * a (title, name) tuple (such an entry is never padding). The caller has
 * made room for it (n < cap). Inline: one call per field. */
static inline npydt_status field_list_add(struct dtype_ctx *c, struct field_list *fl,
                                          const char *name, size_t name_len, bool plain_name,
                                          const char *title,
                                          const npydt_dtype *dt, size_t text_offset)
{
    /* NumPy: name == '' and dt.type is void and dt.names is None, which
     * holds for plain V types and for every subarray */
    bool padding = plain_name && name_len == 0 &&
                   ((dt->cls == NPYDT_SCALAR && dt->kind == 'V') || dt->cls == NPYDT_SUBARRAY);
    if (!padding)
        fl->specs[fl->n++] = (struct field_spec){name, title, name_len, dt, fl->offset,
                                                 text_offset};
    if (!ck_add(fl->offset, dt->itemsize, &fl->offset) || fl->offset > NPYDT_MAX_ITEMSIZE)
        return field_list_overflow(c, text_offset);
    return NPYDT_OK;
}

/* A struct node whose fields are fields[0..n) (kept, not copied): checks
 * names and titles for duplicates as NumPy does and counts fields against
 * the limit. A repeated name or title returns NPYDT_E_NAME, unreported,
 * with *dup its number (2 * field, plus 1 for a title). */
npydt_status dtype_struct_of_fields(struct dtype_ctx *c, const struct npydt_field *fields,
                                    size_t n, uint64_t itemsize, size_t off, size_t *dup,
                                    const npydt_dtype **out);

/* The same for specs (copied), reporting a repeat at its entry's offset. */
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

/* What the header stage gives later stages: the .npy format's preamble
 * and header text (format.c), the reader of header-like dicts (dict.c) and
 * reading a descriptor written as a Python literal (a header's 'descr', a
 * schema's type) into a dtype (descr.c).
 * Not installed. */
#ifndef NPYDT_HEADER_H
#define NPYDT_HEADER_H

#include "dtype/dtype.h"
#include "literal/literal.h"

/* ---- format.c: the bytes around the dict ---------------------------------- */

/* Read the preamble (magic, version, HEADER_LEN) at the start of b.
 * Offsets in errors are file offsets; none point into the header text.
 * *hstart is the preamble's length (10 or 12) when OK or E_LIMIT, and on
 * E_TRUNCATED the bytes needed to read it (10 while the version is
 * unknown); *hlen is set when OK or E_LIMIT. A partial magic string is
 * checked as far as it goes. */
npydt_status header_preamble_read(const unsigned char *b, size_t len, const npydt_limits *lim,
                                  int *major, uint32_t *hlen, size_t *hstart, npydt_error *err);

/* npydt_parse_fd, and the size of the file (its one fstat) in *size
 * when size is not NULL and the parse succeeds. */
npydt_status header_parse_fd(int fd, const npydt_options *opts, npydt_header **out,
                             uint64_t *size, npydt_error *err);
/* npydt_parse_fd of a regular file of fsize bytes (its caller's fstat)
 * whose first head_len bytes are head (read at offset 0): no other read
 * when head_len is at least min(fsize, NPYDT_VERIFY_HEAD_BYTES) and the
 * header lies in head. */
npydt_status header_parse_head(int fd, uint64_t fsize, const void *head, size_t head_len,
                               const npydt_options *opts, npydt_header **out, npydt_error *err);

/* The whole header np.save writes for dt, shape and order in format
 * version major (1, 2 or 3; 0: the version NumPy chooses): *total is its
 * length, written into buf when size holds it. E_LIMIT when the names
 * need 3.0 and major is 1 or 2, when the text is too long for 1.0 and
 * major is 1, or when HEADER_LEN would pass HEADER_LEN_LIMIT. */
npydt_status header_encode(const npydt_dtype *dt, const uint64_t *shape, size_t ndim,
                           int fortran_order, int major, void *buf, size_t size, size_t *total,
                           npydt_error *err);

/* ---- dict.c: reading a header-like dict ---------------------------------------- */

/* What a dict is read as: a .npy header (every key required, as np.load
 * does) or a schema spec (every key optional, None for "any", -1 for a
 * dimension of any length, a list for a shape). */
enum header_dict_mode { HEADER_DICT_FILE, HEADER_DICT_SCHEMA };

/* A dimension of any length in a schema's shape. */
#define HEADER_DIM_ANY UINT64_MAX

/* The values of a header-like dict. Nodes and the shape go into c->arena. */
struct header_dict {
    const npydt_dtype *dtype;   /* NULL: no 'descr' (a schema only) */
    bool has_fortran_order;     /* false: none given, or None */
    bool fortran_order;
    bool has_shape;             /* false: none given, or None */
    size_t ndim;
    uint64_t *shape;            /* ndim dimensions (HEADER_DIM_ANY: -1) */
};

/* Read the dict d in mode into *out; errors point into the text d was
 * read from. */
npydt_status header_dict_read(struct dtype_ctx *c, const struct lit *d,
                              enum header_dict_mode mode, struct header_dict *out);

/* ---- descr.c ----------------------------------------------------------------- */

/* numpy.lib.format.descr_to_dtype for a literal: nodes go where c says,
 * errors point into the text the literal was read from. */
npydt_status descr_from_lit(struct dtype_ctx *c, const struct lit *v, const npydt_dtype **out);

/* A descriptor literal in text (len bytes) read into a dtype, nodes where
 * c says (as npydt_header_parse_descr reads it). */
npydt_status descr_read_text(struct dtype_ctx *c, const char *text, size_t len,
                             const npydt_dtype **out);

#endif

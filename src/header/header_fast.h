/* The reader of headers exactly as np.save writes them, which header.c
 * tries before the general parser; inside the header stage only. */
#ifndef NPYDT_HEADER_FAST_H
#define NPYDT_HEADER_FAST_H

#include "dtype/dtype.h"

/* Read a header exactly as np.save writes it, straight into a dtype and
 * shape. NPYDT_OK: done; NPYDT_E_NOMEM: out of memory; any other status:
 * declined (not np.save's shape, or an error), and nothing is reported:
 * the general parser must read the header. */
npydt_status header_fast(struct dtype_ctx *c, const char *text, size_t len, bool *fortran,
                         uint64_t **shape, size_t *ndim, const npydt_dtype **dt);

#endif

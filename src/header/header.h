/* What the header stage gives later stages: reading a descriptor written
 * as a Python literal (a header's 'descr', a schema's type) into a dtype.
 * Not installed. */
#ifndef NPYDT_HEADER_H
#define NPYDT_HEADER_H

#include "dtype/dtype.h"
#include "literal/literal.h"

/* numpy.lib.format.descr_to_dtype for a literal: nodes go where c says,
 * errors point into the text the literal was read from. */
npydt_status descr_from_lit(struct dtype_ctx *c, const struct lit *v, const npydt_dtype **out);

#endif

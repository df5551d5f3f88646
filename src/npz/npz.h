/* What the archive stage gives later stages: a way to fail an archive
 * being written from outside (the writer of a member that ends with the
 * wrong number of records). Not installed. */
#ifndef NPYDT_NPZ_H
#define NPYDT_NPZ_H

#include "base/base.h"

/* Make w's failure sticky with cause (code and message), as its own errors
 * are: every later call on w returns it, and no archive is finished. */
void npz_writer_fail(npydt_npz_writer *w, const npydt_error *cause);

#endif

/* What the archive stage gives later stages: a way to fail an archive
 * being written from outside (the writer of a member that ends with the
 * wrong number of records), and a writer that owns what its sink writes
 * into. Not installed. */
#ifndef NPYDT_NPZ_H
#define NPYDT_NPZ_H

#include "base/base.h"

/* Make w's failure sticky with cause (code and message), as its own errors
 * are: every later call on w returns it, and no archive is finished. */
void npz_writer_fail(npydt_npz_writer *w, const npydt_error *cause);

/* What an archive writer may own besides its sink (the file of
 * npydt_npz_writer_create_path): commit puts the archive in place once
 * its end records are written (its failure fails the writer), discard
 * drops it when the writer is freed without that, and status, when a
 * sink write fails, gives its cause (NPYDT_OK when it knows none). */
struct npz_writer_owner {
    npydt_status (*commit)(void *ctx, npydt_error *err);
    void (*discard)(void *ctx);
    npydt_status (*status)(void *ctx, npydt_error *err);
    void *ctx;
};
/* Hand w the owner *o (copied); w calls commit or discard exactly once. */
void npz_writer_own(npydt_npz_writer *w, const struct npz_writer_owner *o);

#endif

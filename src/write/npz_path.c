/* An archive written to a path through the durable output: a temporary
 * file beside it, put in place when the archive is finished, removed when
 * the writer is freed before that or anything fails. */
#include "write/write.h"

#include "npz/npz.h"

static npydt_status owner_commit(void *ctx, npydt_error *err)
{
    return npydt_output_commit(ctx, err);
}

static void owner_discard(void *ctx)
{
    npydt_output_discard(ctx);
}

static npydt_status owner_status(void *ctx, npydt_error *err)
{
    return npydt_output_status(ctx, err);
}

npydt_status npydt_npz_writer_create_path(const char *path, const npydt_npz_options *opts,
                                          npydt_npz_writer **out, npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!path)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "path is NULL");
    npydt_output *o;
    npydt_status st = npydt_output_open(path, opts ? &opts->base : NULL, &o, err);
    if (st != NPYDT_OK)
        return st;
    npydt_npz_sink sink;
    npydt_output_sink(o, &sink);
    npydt_npz_writer *w;
    if ((st = npydt_npz_writer_new(&sink, opts, &w, err)) != NPYDT_OK) {
        npydt_output_discard(o);
        return st;
    }
    const struct npz_writer_owner owner = {owner_commit, owner_discard, owner_status, o};
    npz_writer_own(w, &owner);
    *out = w;
    return NPYDT_OK;
}

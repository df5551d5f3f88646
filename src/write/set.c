/* Setting a field of the record under construction: through a handle
 * resolved once (npydt_writer_field, then npydt_writer_put_*), or by its
 * path (npydt_writer_set_*, which resolve it on each call and put through
 * the same code). An error names the field's path. */
#include "write/write.h"
#include "records/records.h"

/* A field of the writer's record: its scalar node, offset and path. */
struct writer_field {
    const npydt_dtype *dtype;
    size_t offset;
    const char *path;
};

/* The scalar field at path, resolved now. */
static npydt_status resolve(npydt_writer *w, const char *path, struct writer_field *f,
                            npydt_error *err)
{
    npydt_status st = writer_usable(w, err);
    uint64_t off;
    if (st == NPYDT_OK && (st = field_lookup_scalar(w->dtype, path, &off, &f->dtype, err)) ==
                              NPYDT_OK) {
        f->offset = (size_t)off;   /* within the record */
        f->path = path;
    }
    return st;
}

npydt_status npydt_writer_field(npydt_writer *w, const char *path, npydt_field_handle *h,
                                npydt_error *err)
{
    error_clear(err);
    struct writer_field f;
    npydt_status st = resolve(w, path, &f, err);
    if (st != NPYDT_OK)
        return st;
    if (!h)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "h is NULL");
    if (w->nfields == w->fields_cap) {
        size_t cap = w->fields_cap ? 2 * w->fields_cap : 8;
        struct writer_handle *grown =
            cap <= SIZE_MAX / sizeof *grown ? alloc_bytes(w->alloc, cap * sizeof *grown) : NULL;
        if (!grown)
            return set_nomem(err);
        if (w->nfields) {
            memcpy(grown, w->fields, w->nfields * sizeof *grown);
            free_bytes(w->alloc, w->fields, w->fields_cap * sizeof *grown);
        }
        w->fields = grown;
        w->fields_cap = cap;
    }
    char *copy = str_copy(w->alloc, path);
    if (!copy)
        return set_nomem(err);
    w->fields[w->nfields] = (struct writer_handle){f.dtype, f.offset, copy};
    h->index = w->nfields++;
    return NPYDT_OK;
}

/* The field a handle stands for. */
static npydt_status handle_field(npydt_writer *w, npydt_field_handle h, struct writer_field *f,
                                 npydt_error *err)
{
    npydt_status st = writer_usable(w, err);
    if (st != NPYDT_OK)
        return st;
    if (h.index >= w->nfields)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "field handle %zu was not given by this writer", h.index);
    const struct writer_handle *e = &w->fields[h.index];
    *f = (struct writer_field){e->dtype, e->offset, e->path};
    return NPYDT_OK;
}

/* The typed writer's status, with the field's path in err. */
static npydt_status named(npydt_status st, const struct writer_field *f, npydt_error *err)
{
    if (st != NPYDT_OK)
        error_set_path(err, f->path, strlen(f->path));
    return st;
}

/* Each put_* stores a value into the field through its typed writer: the
 * one body behind npydt_writer_put_* and npydt_writer_set_*. */
static npydt_status put_i64(npydt_writer *w, const struct writer_field *f, int64_t v,
                            npydt_error *err)
{
    return named(npydt_write_i64(f->dtype, w->record + f->offset, v, err), f, err);
}

static npydt_status put_u64(npydt_writer *w, const struct writer_field *f, uint64_t v,
                            npydt_error *err)
{
    return named(npydt_write_u64(f->dtype, w->record + f->offset, v, err), f, err);
}

static npydt_status put_double(npydt_writer *w, const struct writer_field *f, double v,
                               npydt_error *err)
{
    return named(npydt_write_double(f->dtype, w->record + f->offset, v, err), f, err);
}

static npydt_status put_complex(npydt_writer *w, const struct writer_field *f,
                                const double v[2], npydt_error *err)
{
    return named(npydt_write_complex(f->dtype, w->record + f->offset, v, err), f, err);
}

static npydt_status put_bool(npydt_writer *w, const struct writer_field *f, int v,
                             npydt_error *err)
{
    return named(npydt_write_bool(f->dtype, w->record + f->offset, v, err), f, err);
}

static npydt_status put_bytes(npydt_writer *w, const struct writer_field *f, const void *bytes,
                              size_t len, npydt_error *err)
{
    return named(npydt_write_bytes(f->dtype, w->record + f->offset, bytes, len, err), f, err);
}

static npydt_status put_unicode(npydt_writer *w, const struct writer_field *f,
                                const char *utf8, size_t len, npydt_error *err)
{
    return named(npydt_write_unicode(f->dtype, w->record + f->offset, utf8, len, err), f, err);
}

static npydt_status put_datetime(npydt_writer *w, const struct writer_field *f,
                                 const npydt_datetime *v, npydt_error *err)
{
    return named(npydt_write_datetime(f->dtype, w->record + f->offset, v, err), f, err);
}

/* The public calls: a handle or a path to the field, then its put_*. */
#define BY_HANDLE(call)                                                                  \
    error_clear(err);                                                                    \
    struct writer_field f = {NULL, 0, ""};                                               \
    npydt_status st = handle_field(w, h, &f, err);                                       \
    return st != NPYDT_OK ? st : (call)
#define BY_PATH(call)                                                                    \
    error_clear(err);                                                                    \
    struct writer_field f = {NULL, 0, ""};                                               \
    npydt_status st = resolve(w, path, &f, err);                                         \
    return st != NPYDT_OK ? st : (call)

npydt_status npydt_writer_put_i64(npydt_writer *w, npydt_field_handle h, int64_t v,
                                  npydt_error *err)
{
    BY_HANDLE(put_i64(w, &f, v, err));
}

npydt_status npydt_writer_put_u64(npydt_writer *w, npydt_field_handle h, uint64_t v,
                                  npydt_error *err)
{
    BY_HANDLE(put_u64(w, &f, v, err));
}

npydt_status npydt_writer_put_double(npydt_writer *w, npydt_field_handle h, double v,
                                     npydt_error *err)
{
    BY_HANDLE(put_double(w, &f, v, err));
}

npydt_status npydt_writer_put_complex(npydt_writer *w, npydt_field_handle h, const double v[2],
                                      npydt_error *err)
{
    BY_HANDLE(put_complex(w, &f, v, err));
}

npydt_status npydt_writer_put_bool(npydt_writer *w, npydt_field_handle h, int v,
                                   npydt_error *err)
{
    BY_HANDLE(put_bool(w, &f, v, err));
}

npydt_status npydt_writer_put_bytes(npydt_writer *w, npydt_field_handle h, const void *bytes,
                                    size_t len, npydt_error *err)
{
    BY_HANDLE(put_bytes(w, &f, bytes, len, err));
}

npydt_status npydt_writer_put_unicode(npydt_writer *w, npydt_field_handle h, const char *utf8,
                                      size_t len, npydt_error *err)
{
    BY_HANDLE(put_unicode(w, &f, utf8, len, err));
}

npydt_status npydt_writer_put_datetime(npydt_writer *w, npydt_field_handle h,
                                       const npydt_datetime *v, npydt_error *err)
{
    BY_HANDLE(put_datetime(w, &f, v, err));
}

npydt_status npydt_writer_set_i64(npydt_writer *w, const char *path, int64_t v,
                                  npydt_error *err)
{
    BY_PATH(put_i64(w, &f, v, err));
}

npydt_status npydt_writer_set_u64(npydt_writer *w, const char *path, uint64_t v,
                                  npydt_error *err)
{
    BY_PATH(put_u64(w, &f, v, err));
}

npydt_status npydt_writer_set_double(npydt_writer *w, const char *path, double v,
                                     npydt_error *err)
{
    BY_PATH(put_double(w, &f, v, err));
}

npydt_status npydt_writer_set_complex(npydt_writer *w, const char *path, const double v[2],
                                      npydt_error *err)
{
    BY_PATH(put_complex(w, &f, v, err));
}

npydt_status npydt_writer_set_bool(npydt_writer *w, const char *path, int v, npydt_error *err)
{
    BY_PATH(put_bool(w, &f, v, err));
}

npydt_status npydt_writer_set_bytes(npydt_writer *w, const char *path, const void *bytes,
                                    size_t len, npydt_error *err)
{
    BY_PATH(put_bytes(w, &f, bytes, len, err));
}

npydt_status npydt_writer_set_unicode(npydt_writer *w, const char *path, const char *utf8,
                                      size_t len, npydt_error *err)
{
    BY_PATH(put_unicode(w, &f, utf8, len, err));
}

npydt_status npydt_writer_set_datetime(npydt_writer *w, const char *path,
                                       const npydt_datetime *v, npydt_error *err)
{
    BY_PATH(put_datetime(w, &f, v, err));
}

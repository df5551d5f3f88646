/* Setting a field of the record under construction by its path, through
 * the typed writer of the value's sort; an error names the path. */
#include "write/write.h"

/* The scalar field at path in the record under construction. */
static npydt_status find_field(npydt_writer *w, const char *path, void **p,
                               const npydt_dtype **field, npydt_error *err)
{
    npydt_status st = writer_usable(w, err);
    if (st != NPYDT_OK)
        return st;
    if (!path)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "path is NULL");
    uint64_t off;
    if ((st = npydt_field_lookup(w->dtype, path, &off, field, err)) != NPYDT_OK)
        return st;
    if (npydt_dtype_get_class(*field) != NPYDT_SCALAR)
        return set_error(err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, path,
                         "%s is a %s: set its scalars one by one", path,
                         npydt_dtype_get_class(*field) == NPYDT_STRUCT ? "struct" : "subarray");
    *p = w->record + off;
    return NPYDT_OK;
}

/* The typed writer's status, with the path in err. */
static npydt_status named(npydt_status st, const char *path, npydt_error *err)
{
    if (st != NPYDT_OK)
        error_set_path(err, path, strlen(path));
    return st;
}

npydt_status npydt_writer_set_i64(npydt_writer *w, const char *path, int64_t v,
                                  npydt_error *err)
{
    error_clear(err);
    void *p;
    const npydt_dtype *f;
    npydt_status st = find_field(w, path, &p, &f, err);
    return st != NPYDT_OK ? st : named(npydt_write_i64(f, p, v, err), path, err);
}

npydt_status npydt_writer_set_u64(npydt_writer *w, const char *path, uint64_t v,
                                  npydt_error *err)
{
    error_clear(err);
    void *p;
    const npydt_dtype *f;
    npydt_status st = find_field(w, path, &p, &f, err);
    return st != NPYDT_OK ? st : named(npydt_write_u64(f, p, v, err), path, err);
}

npydt_status npydt_writer_set_double(npydt_writer *w, const char *path, double v,
                                     npydt_error *err)
{
    error_clear(err);
    void *p;
    const npydt_dtype *f;
    npydt_status st = find_field(w, path, &p, &f, err);
    return st != NPYDT_OK ? st : named(npydt_write_double(f, p, v, err), path, err);
}

npydt_status npydt_writer_set_complex(npydt_writer *w, const char *path, const double v[2],
                                      npydt_error *err)
{
    error_clear(err);
    void *p;
    const npydt_dtype *f;
    npydt_status st = find_field(w, path, &p, &f, err);
    return st != NPYDT_OK ? st : named(npydt_write_complex(f, p, v, err), path, err);
}

npydt_status npydt_writer_set_bool(npydt_writer *w, const char *path, int v, npydt_error *err)
{
    error_clear(err);
    void *p;
    const npydt_dtype *f;
    npydt_status st = find_field(w, path, &p, &f, err);
    return st != NPYDT_OK ? st : named(npydt_write_bool(f, p, v, err), path, err);
}

npydt_status npydt_writer_set_bytes(npydt_writer *w, const char *path, const void *bytes,
                                    size_t len, npydt_error *err)
{
    error_clear(err);
    void *p;
    const npydt_dtype *f;
    npydt_status st = find_field(w, path, &p, &f, err);
    return st != NPYDT_OK ? st : named(npydt_write_bytes(f, p, bytes, len, err), path, err);
}

npydt_status npydt_writer_set_unicode(npydt_writer *w, const char *path, const char *utf8,
                                      size_t len, npydt_error *err)
{
    error_clear(err);
    void *p;
    const npydt_dtype *f;
    npydt_status st = find_field(w, path, &p, &f, err);
    return st != NPYDT_OK ? st : named(npydt_write_unicode(f, p, utf8, len, err), path, err);
}

npydt_status npydt_writer_set_datetime(npydt_writer *w, const char *path,
                                       const npydt_datetime *v, npydt_error *err)
{
    error_clear(err);
    void *p;
    const npydt_dtype *f;
    npydt_status st = find_field(w, path, &p, &f, err);
    return st != NPYDT_OK ? st : named(npydt_write_datetime(f, p, v, err), path, err);
}

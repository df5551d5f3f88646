/* npydt dump --fields: a comma-separated list of field paths (commas
 * inside brackets belong to an index: m[1,1]). A path below an array of
 * structs (pts.y, pts a subarray of structs) selects that field of every
 * element of the array, as NumPy's a['pts']['y'] does. An unknown path is
 * answered with the nearest known one. */
#include "cli/dump/dump.h"
#include "cli/common/args.h"
#include "cli/common/report.h"

#include <stdlib.h>
#include <string.h>

/* Every path through structs (and arrays of structs, as pts.y) of dt,
 * for "did you mean": appended to names[*n .. cap). */
static void known_paths(const npydt_dtype *dt, char *prefix, size_t len, size_t size,
                        char **names, size_t *n, size_t cap, unsigned depth)
{
    if (depth > 16)
        return;
    if (npydt_dtype_get_class(dt) == NPYDT_SUBARRAY)
        dt = npydt_dtype_base(dt);
    if (npydt_dtype_get_class(dt) != NPYDT_STRUCT)
        return;
    for (size_t i = 0; i < npydt_dtype_nfields(dt) && *n < cap; i++) {
        size_t nl = npydt_dtype_field_name_len(dt, i);
        if (len + 1 + nl + 1 > size)
            continue;
        size_t l = len;
        if (l)
            prefix[l++] = '.';
        memcpy(prefix + l, npydt_dtype_field_name(dt, i), nl);
        prefix[l + nl] = '\0';
        if (!(names[*n] = strdup(prefix)))
            return;
        (*n)++;
        known_paths(npydt_dtype_field_dtype(dt, i), prefix, l + nl, size, names, n, cap,
                    depth + 1);
    }
}

/* " (did you mean 'x'?)" appended to the message when a path is near. */
static void suggest(npydt_error *err, const npydt_dtype *dt, const char *path)
{
    enum { MAX_NAMES = 4096 };
    char **names = calloc(MAX_NAMES, sizeof *names);
    char prefix[512];
    size_t n = 0;
    if (!names)
        return;
    known_paths(dt, prefix, 0, sizeof prefix, names, &n, MAX_NAMES, 0);
    const char *near = cli_nearest(path, (const char *const *)names, n);
    size_t used = strlen(err->message);
    if (near && strcmp(near, path) != 0)
        snprintf(err->message + used, sizeof err->message - used, " (did you mean '%s'?)", near);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Look path up in dt: directly, or as PREFIX.REST where PREFIX is an
 * array of structs and REST a field of its element. */
static npydt_status lookup(const npydt_dtype *dt, const char *path, size_t len,
                           struct selected *s, npydt_error *err)
{
    npydt_status st = npydt_field_lookup_len(dt, path, len, &s->offset, &s->dtype, err);
    if (st == NPYDT_OK)
        return st;
    for (size_t j = 1; j < len; j++) {
        if (path[j] != '.')
            continue;
        uint64_t off;
        const npydt_dtype *arr;
        npydt_error e2;
        if (npydt_field_lookup_len(dt, path, j, &off, &arr, &e2) != NPYDT_OK)
            return st;   /* the prefix itself is unknown: the first error says so */
        if (npydt_dtype_get_class(arr) != NPYDT_SUBARRAY)
            continue;
        const npydt_dtype *base = npydt_dtype_base(arr);
        if (npydt_dtype_get_class(base) != NPYDT_STRUCT ||
            npydt_dtype_ndim(arr) > SELECT_MAX_DIMS)
            return st;
        uint64_t inner;
        if (npydt_field_lookup_len(base, path + j + 1, len - j - 1, &inner, &s->dtype, &e2) !=
            NPYDT_OK) {
            *err = e2;
            snprintf(err->path, sizeof err->path, "%.*s", (int)(len < 255 ? len : 255), path);
            return e2.code;
        }
        s->offset = off + inner;
        s->ndim = npydt_dtype_ndim(arr);
        memcpy(s->shape, npydt_dtype_shape(arr), s->ndim * sizeof s->shape[0]);
        s->stride = npydt_dtype_itemsize(base);
        s->prefix_len = j;
        return NPYDT_OK;
    }
    return st;
}

int dump_select_fields(const char *file, const char *spec, const npydt_dtype *dt,
                       struct selected **out, size_t *nout, char **storage)
{
    char *copy = strdup(spec);
    if (!copy)
        return cli_failure("out of memory");
    /* cut at the commas outside brackets */
    size_t n = 1;
    int depth = 0;
    for (char *c = copy; *c; c++) {
        depth += *c == '[' ? 1 : *c == ']' && depth > 0 ? -1 : 0;
        if (*c == ',' && depth == 0) {
            *c = '\0';
            n++;
        }
    }
    struct selected *sel = calloc(n, sizeof *sel);
    if (!sel) {
        free(copy);
        return cli_failure("out of memory");
    }
    int status = EXIT_OK;
    char *p = copy;
    for (size_t k = 0; k < n && status == EXIT_OK; k++) {
        size_t len = strlen(p);
        if (!len) {
            status = cli_usage(&dump_command, "empty field name in --fields '%s'", spec);
            break;
        }
        for (size_t j = 0; j < k && status == EXIT_OK; j++)
            if (strcmp(sel[j].path, p) == 0)
                status = cli_usage(&dump_command, "field '%s' given twice", p);
        npydt_error err;
        if (status == EXIT_OK && lookup(dt, p, len, &sel[k], &err) != NPYDT_OK) {
            suggest(&err, dt, p);
            status = cli_report(file, &err);
        }
        sel[k].path = p;
        sel[k].path_len = len;
        p += len + 1;
    }
    if (status != EXIT_OK) {
        free(sel);
        free(copy);
        return status;
    }
    *out = sel;
    *nout = n;
    *storage = copy;
    return EXIT_OK;
}

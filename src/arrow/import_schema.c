/* Arrow schemas as NumPy dtypes, the inverse of schema.c: a column's
 * format gives its scalar type, its "npydt.dtype" metadata the exact type
 * the export started from, when the export of that type gives this very
 * format (arrow_import_accepts). The same rule checks a schema against a
 * dtype given by a caller (arrow_import_check). */
#include "arrow/arrow.h"
#include "header/header.h"

#include <stdio.h>

void npydt_arrow_import_options_init(npydt_arrow_import_options *opts)
{
    memset(opts, 0, sizeof *opts);
    npydt_options_init(&opts->base);
}

npydt_status arrow_import_resolve(const npydt_arrow_import_options *opts,
                                  npydt_arrow_import_options *out, npydt_error *err)
{
    npydt_arrow_import_options_init(out);
    if (!opts)
        return NPYDT_OK;
    if (!reserved_is_zero(opts->reserved, sizeof opts->reserved / sizeof opts->reserved[0]))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "Arrow import options have nonzero reserved room: fill them with "
                         "npydt_arrow_import_options_init");
    npydt_status st = options_check(&opts->base, err);
    if (st != NPYDT_OK)
        return st;
    *out = *opts;
    options_resolve_limits(&out->base.limits);
    return NPYDT_OK;
}

const char *arrow_meta_get(const char *meta, const char *key, size_t *len)
{
    if (!meta)
        return NULL;
    size_t klen = strlen(key);
    int32_t n, kl, vl;
    memcpy(&n, meta, 4);
    meta += 4;
    for (int32_t i = 0; i < n; i++) {
        memcpy(&kl, meta, 4);
        if (kl < 0)
            return NULL;
        const char *k = meta + 4;
        meta = k + kl;
        memcpy(&vl, meta, 4);
        if (vl < 0)
            return NULL;
        meta += 4;
        if ((size_t)kl == klen && memcmp(k, key, klen) == 0) {
            *len = (size_t)vl;
            return meta;
        }
        meta += vl;
    }
    return NULL;
}

/* ---- formats --------------------------------------------------------------- */

/* What a format Arrow has and NumPy has not is, for the refusal. */
static const char *no_numpy_type(const char *f)
{
    static const struct { const char *prefix; const char *what; } kinds[] = {
        {"+l", "a list"}, {"+L", "a large list"}, {"+vl", "a list view"},
        {"+vL", "a large list view"}, {"+m", "a map"}, {"+ud", "a dense union"},
        {"+us", "a sparse union"}, {"+r", "a run-end encoded array"}, {"d:", "a decimal"},
        {"U", "large UTF-8 text"}, {"Z", "large binary"}, {"vu", "a UTF-8 view"},
        {"vz", "a binary view"}, {"u", "variable-length UTF-8 text"},
        {"z", "variable-length binary"}, {"tt", "a time of day"}, {"ti", "an interval"},
        {"n", "null"},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strncmp(f, kinds[i].prefix, strlen(kinds[i].prefix)) == 0)
            return kinds[i].what;
    return "unknown";
}

static npydt_status refuse(const char *path, const struct ArrowSchema *s, npydt_error *err)
{
    if (s->dictionary)
        return set_error(err, NPYDT_E_TYPE, NPYDT_NO_OFFSET, path,
                         "a dictionary-encoded column has no NumPy type");
    if (strcmp(s->format, "u") == 0 || strcmp(s->format, "z") == 0)
        return set_error(err, NPYDT_E_TYPE, NPYDT_NO_OFFSET, path,
                         "Arrow type '%s' (%s) has no NumPy type: give a "
                         "string width to read it as %s",
                         s->format, no_numpy_type(s->format),
                         s->format[0] == 'u' ? "U" : "S");
    return set_error(err, NPYDT_E_TYPE, NPYDT_NO_OFFSET, path,
                     "Arrow type '%.32s' (%s) has no NumPy type", s->format,
                     no_numpy_type(s->format));
}

/* The number a format ends with at p: digits without a leading zero, 0 to
 * INT32_MAX; -1 for anything else. */
static int64_t format_number(const char *p)
{
    if (*p < '0' || *p > '9' || (p[0] == '0' && p[1]))
        return -1;
    int64_t n = 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || n > INT32_MAX)
            return -1;
        n = n * 10 + (*p - '0');
    }
    return n <= INT32_MAX ? n : -1;
}

/* N of a fixed-size list "+w:N", or -1. */
static int64_t list_size(const char *f)
{
    return strncmp(f, "+w:", 3) == 0 ? format_number(f + 3) : -1;
}

/* The NumPy type string of a fixed-width format, the host's byte order
 * for multi-byte types; 0 when the format has none (u and z included). */
static size_t default_typestr(const char *f, char *out, size_t size)
{
    static const struct { const char *fmt; const char *ts; } fixed[] = {
        {"b", "|b1"}, {"c", "|i1"}, {"C", "|u1"}, {"s", "=i2"}, {"S", "=u2"},
        {"i", "=i4"}, {"I", "=u4"}, {"l", "=i8"}, {"L", "=u8"}, {"e", "=f2"},
        {"f", "=f4"}, {"g", "=f8"}, {"tdD", "=M8[D]"}, {"tdm", "=M8[ms]"},
        {"tDs", "=m8[s]"}, {"tDm", "=m8[ms]"}, {"tDu", "=m8[us]"}, {"tDn", "=m8[ns]"},
    };
    const char *ts = NULL;
    char buf[32];
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && !ts; i++)
        if (strcmp(f, fixed[i].fmt) == 0)
            ts = fixed[i].ts;
    if (!ts && f[0] == 't' && f[1] == 's' && f[2] && f[3] == ':') {
        const char *u = f[2] == 's' ? "s" : f[2] == 'm' ? "ms" : f[2] == 'u' ? "us"
                      : f[2] == 'n' ? "ns" : NULL;
        if (u) {
            snprintf(buf, sizeof buf, "=M8[%s]", u);
            ts = buf;
        }
    }
    if (!ts && f[0] == 'w' && f[1] == ':' && format_number(f + 2) > 0) {
        snprintf(buf, sizeof buf, "|V%lld", (long long)format_number(f + 2));
        ts = buf;
    }
    if (!ts)
        return 0;
    int len = snprintf(out, size, "%s", ts);
    if (out[0] == '=')
        out[0] = TEXT_HOST_ORDER;
    return (size_t)len;
}

bool arrow_import_accepts(const struct ArrowSchema *s, const npydt_dtype *dt,
                          struct arrow_scalar *sc)
{
    const char *f = s->format;
    npydt_error e;
    if (s->dictionary || arrow_scalar_of(dt, strcmp(f, "z") == 0, sc, &e) != NPYDT_OK)
        return false;
    switch (sc->col) {
    case COL_COMPLEX:
        return strcmp(f, "+w:2") == 0 && s->n_children == 1 && s->children &&
               s->children[0] && s->children[0]->format && !s->children[0]->dictionary &&
               strcmp(s->children[0]->format, sc->child_format) == 0;
    case COL_TIME:
        if (strcmp(f, "tdm") == 0)
            return strcmp(sc->format, "tsm:") == 0;
        if (strncmp(f, "ts", 2) == 0)
            return strlen(f) >= 4 && strncmp(f, sc->format, 4) == 0;
        break;
    default:
        break;
    }
    return strcmp(f, sc->format) == 0;
}

/* ---- a schema against a dtype ---------------------------------------------- */

struct chk {
    uint32_t max_depth;
    char path[256];
    npydt_error *err;
};

static npydt_status schema_ok(const struct ArrowSchema *s, const char *path, npydt_error *err)
{
    if (!s || !s->release || !s->format)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, path,
                         "a released schema or one without a format");
    if (s->n_children < 0 || (s->n_children > 0 && !s->children))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, path,
                         "%lld children without their pointers", (long long)s->n_children);
    for (int64_t i = 0; i < s->n_children; i++)
        if (!s->children[i] || !s->children[i]->format)
            return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, path,
                             "child %lld has no format", (long long)i);
    return NPYDT_OK;
}

/* The name of column s: its own, "" for none. */
static size_t column_name(const struct ArrowSchema *s, const char **name)
{
    *name = s->name ? s->name : "";
    return strlen(*name);
}

static npydt_status mismatch(struct chk *c, const char *what, const char *have,
                             const npydt_dtype *dt)
{
    char str[64];
    npydt_dtype_str(dt, str, sizeof str);
    return set_error(c->err, NPYDT_E_MISMATCH, NPYDT_NO_OFFSET, c->path,
                     "%s '%.40s' where the dtype has %s", what, have, str);
}

static npydt_status check_node(struct chk *c, const struct ArrowSchema *s, const npydt_dtype *dt,
                               uint32_t depth)
{
    npydt_status st = schema_ok(s, c->path, c->err);
    if (st != NPYDT_OK)
        return st;
    if (depth >= c->max_depth)
        return set_error(c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, c->path,
                         "nesting deeper than %u levels", (unsigned)c->max_depth);
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_STRUCT: {
        size_t n = npydt_dtype_nfields(dt);
        if (strcmp(s->format, "+s") != 0)
            return mismatch(c, "Arrow type", s->format, dt);
        if ((uint64_t)s->n_children != n) {
            char have[32];
            snprintf(have, sizeof have, "%lld", (long long)s->n_children);
            return mismatch(c, "a struct of columns:", have, dt);
        }
        for (size_t i = 0; i < n; i++) {
            const char *name, *fname = npydt_dtype_field_name(dt, i);
            size_t nlen = column_name(s->children[i], &name), keep;
            size_t flen = npydt_dtype_field_name_len(dt, i);
            arrow_path_push(c->path, sizeof c->path, name, nlen, &keep);
            if (!name_eq(name, nlen, fname, flen)) {
                char fn[128];
                name_for_message(fn, sizeof fn, fname, flen);
                return set_error(c->err, NPYDT_E_MISMATCH, NPYDT_NO_OFFSET, c->path,
                                 "an Arrow column where the dtype has field '%s'", fn);
            }
            st = check_node(c, s->children[i], npydt_dtype_field_dtype(dt, i), depth + 1);
            if (st != NPYDT_OK)
                return st;
            c->path[keep] = '\0';
        }
        return NPYDT_OK;
    }
    case NPYDT_SUBARRAY: {
        const uint64_t *shape = npydt_dtype_shape(dt);
        for (size_t k = 0; k < npydt_dtype_ndim(dt); k++) {
            if (k && (st = schema_ok(s, c->path, c->err)) != NPYDT_OK)
                return st;
            if (list_size(s->format) != (int64_t)shape[k] || s->n_children != 1 || s->dictionary)
                return mismatch(c, "Arrow type", s->format, dt);
            s = s->children[0];
        }
        return check_node(c, s, npydt_dtype_base(dt), depth + (uint32_t)npydt_dtype_ndim(dt));
    }
    case NPYDT_SCALAR:
        break;
    }
    struct arrow_scalar sc;
    if (arrow_import_accepts(s, dt, &sc))
        return NPYDT_OK;
    char ts[48];
    if (s->dictionary || (!default_typestr(s->format, ts, sizeof ts) &&
                          strcmp(s->format, "u") != 0 && strcmp(s->format, "z") != 0 &&
                          list_size(s->format) < 0 && strcmp(s->format, "+s") != 0))
        return refuse(c->path, s, c->err);
    return mismatch(c, "Arrow type", s->format, dt);
}

npydt_status arrow_import_root(const struct ArrowSchema *root, const npydt_dtype *dt,
                               const struct ArrowSchema **col, npydt_error *err)
{
    *col = root;
    if (npydt_dtype_get_class(dt) == NPYDT_STRUCT || strcmp(root->format, "+s") != 0)
        return NPYDT_OK;
    if (root->n_children != 1)
        return set_error(err, NPYDT_E_MISMATCH, NPYDT_NO_OFFSET, NULL,
                         "a struct of %lld columns where the dtype is not a struct",
                         (long long)root->n_children);
    *col = root->children[0];
    return NPYDT_OK;
}

npydt_status arrow_import_check(const struct ArrowSchema *s, const npydt_dtype *dt,
                                const npydt_arrow_import_options *o, npydt_error *err)
{
    struct chk c = {o->base.limits.max_depth, "", err};
    npydt_status st = schema_ok(s, "", err);
    const struct ArrowSchema *col;
    if (st != NPYDT_OK || (st = arrow_import_root(s, dt, &col, err)) != NPYDT_OK)
        return st;
    if (col != s) {
        const char *name;
        size_t nlen = column_name(col, &name), keep;
        arrow_path_push(c.path, sizeof c.path, name, nlen, &keep);
    }
    return check_node(&c, col, dt, 0);
}

/* ---- a dtype from a schema ------------------------------------------------- */

struct der {
    struct dtype_ctx *dc;
    const npydt_arrow_import_options *o;
    char path[256];
    npydt_error *err;
};

/* Characters (u: UTF-8 lead bytes) or bytes (z) of the longest value of
 * rows [start, start + n) of a, at least 1. */
static npydt_status longest(struct der *c, const struct ArrowSchema *s, const struct ArrowArray *a,
                            int64_t start, int64_t n, uint64_t *out)
{
    npydt_status st = arrow_import_check_array(a, s->format, 3, 0, start, n, c->path, c->err);
    if (st != NPYDT_OK)
        return st;
    const int32_t *off = (const int32_t *)a->buffers[1] + a->offset + start;
    const unsigned char *data = a->buffers[2];
    bool chars = s->format[0] == 'u';
    *out = 1;
    for (int64_t r = 0; r < n; r++) {
        if (off[r] < 0 || off[r + 1] < off[r])
            return set_error(c->err, NPYDT_E_DATA, NPYDT_NO_OFFSET, c->path,
                             "offsets %ld then %ld", (long)off[r], (long)off[r + 1]);
        uint64_t len = 0;
        if (chars) {
            for (int32_t i = off[r]; i < off[r + 1]; i++)
                len += (data[i] & 0xC0) != 0x80;
        } else {
            len = (uint64_t)(off[r + 1] - off[r]);
        }
        if (len > *out)
            *out = len;
    }
    return NPYDT_OK;
}

/* The type in s's metadata when the export of it gives s's format. */
static const npydt_dtype *from_metadata(struct der *c, const struct ArrowSchema *s,
                                        npydt_status *st)
{
    size_t len;
    const char *ts = arrow_meta_get(s->metadata, "npydt.dtype", &len);
    *st = NPYDT_OK;
    if (!ts || len == 0 || len > 64)
        return NULL;
    npydt_error local, *keep = c->dc->err;
    c->dc->err = &local;
    const npydt_dtype *dt = NULL;
    npydt_status pst = typestr_parse(c->dc, ts, len, 0, &dt);
    c->dc->err = keep;
    if (pst == NPYDT_E_NOMEM) {
        *st = set_nomem(c->err);
        return NULL;
    }
    struct arrow_scalar sc;
    if (pst != NPYDT_OK || npydt_dtype_get_class(dt) != NPYDT_SCALAR ||
        !arrow_import_accepts(s, dt, &sc))
        return NULL;
    return dt;
}

static npydt_status derive(struct der *c, const struct ArrowSchema *s, const struct ArrowArray *a,
                           int64_t start, int64_t n, uint32_t depth, const npydt_dtype **out);

/* The struct in s's metadata (a descriptor: the export's of a struct with
 * offsets or padding) when s's columns are its fields. */
static const npydt_dtype *struct_from_metadata(struct der *c, const struct ArrowSchema *s,
                                               uint32_t depth, npydt_status *st)
{
    size_t len;
    const char *text = arrow_meta_get(s->metadata, "npydt.dtype", &len);
    *st = NPYDT_OK;
    if (!text)
        return NULL;
    npydt_error local, *keep = c->dc->err;
    c->dc->err = &local;
    const npydt_dtype *dt = NULL;
    npydt_status pst = descr_read_text(c->dc, text, len, &dt);
    c->dc->err = keep;
    if (pst == NPYDT_E_NOMEM) {
        *st = set_nomem(c->err);
        return NULL;
    }
    if (pst != NPYDT_OK || npydt_dtype_get_class(dt) != NPYDT_STRUCT)
        return NULL;
    struct chk k = {c->o->base.limits.max_depth, "", &local};
    snprintf(k.path, sizeof k.path, "%s", c->path);
    return check_node(&k, s, dt, depth) == NPYDT_OK ? dt : NULL;
}

static npydt_status derive_struct(struct der *c, const struct ArrowSchema *s,
                                  const struct ArrowArray *a, int64_t start, int64_t n,
                                  uint32_t depth, const npydt_dtype **out)
{
    size_t nf = (size_t)s->n_children;
    npydt_status st;
    if ((*out = struct_from_metadata(c, s, depth, &st)) != NULL || st != NPYDT_OK) {
        /* its u and z columns have widths, but the values must be in bounds */
        if (st == NPYDT_OK && a)
            st = arrow_import_check_array(a, "+s", 1, s->n_children, start, n, c->path, c->err);
        return st;
    }
    st = dtype_check_fields(c->dc, nf, 0);
    if (st != NPYDT_OK) {
        snprintf(c->err->path, sizeof c->err->path, "%s", c->path);
        return st;
    }
    if (a && (st = arrow_import_check_array(a, "+s", 1, s->n_children, start, n, c->path,
                                            c->err)) != NPYDT_OK)
        return st;
    struct npydt_field *f = arena_alloc_array(c->dc->arena, nf ? nf : 1, sizeof *f);
    size_t *at = arena_alloc_array(c->dc->arena, nf ? nf : 1, sizeof *at);
    if (!f || !at)
        return set_nomem(c->err);
    uint64_t offset = 0;
    for (size_t i = 0; i < nf; i++) {
        const struct ArrowSchema *k = s->children[i];
        const char *name;
        size_t nlen = column_name(k, &name), keep, tlen = 0;
        const char *title = arrow_meta_get(k->metadata, "npydt.title", &tlen);
        f[i].name = arena_strndup(c->dc->arena, name, nlen);
        f[i].name_len = nlen;
        f[i].title = title ? arena_strndup(c->dc->arena, title, tlen) : NULL;
        f[i].title_len = title ? tlen : 0;
        if (!f[i].name || (title && !f[i].title))
            return set_nomem(c->err);
        arrow_path_push(c->path, sizeof c->path, name, nlen, &keep);
        st = derive(c, k, a ? a->children[i] : NULL, a ? a->offset + start : 0, n, depth + 1,
                    &f[i].dtype);
        if (st != NPYDT_OK)
            return st;
        c->path[keep] = '\0';
        f[i].offset = offset;
        offset += npydt_dtype_itemsize(f[i].dtype);
        if (offset > NPYDT_MAX_ITEMSIZE)
            return set_error(c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, c->path,
                             "records above %llu bytes", (unsigned long long)NPYDT_MAX_ITEMSIZE);
    }
    st = dtype_make_struct_fields(c->dc, f, at, nf, offset, 0, out);
    if (st != NPYDT_OK && c->err->path[0] == '\0')
        snprintf(c->err->path, sizeof c->err->path, "%s", c->path);
    return st;
}

static npydt_status derive_list(struct der *c, const struct ArrowSchema *s,
                                const struct ArrowArray *a, int64_t start, int64_t n,
                                uint32_t depth, int64_t size, const npydt_dtype **out)
{
    npydt_status st;
    if (s->n_children != 1)
        return set_error(c->err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, c->path,
                         "a fixed-size list of %lld children", (long long)s->n_children);
    uint64_t kstart = 0, kn = 0;
    if (a) {
        st = arrow_import_check_array(a, s->format, 1, 1, start, n, c->path, c->err);
        if (st != NPYDT_OK)
            return st;
        if (!ck_mul((uint64_t)(a->offset + start), (uint64_t)size, &kstart) ||
            !ck_mul((uint64_t)n, (uint64_t)size, &kn) || kstart > INT64_MAX || kn > INT64_MAX)
            return set_error(c->err, NPYDT_E_DATA, NPYDT_NO_OFFSET, c->path,
                             "list items beyond int64");
    }
    const npydt_dtype *item;
    st = derive(c, s->children[0], a ? a->children[0] : NULL, (int64_t)kstart, (int64_t)kn,
                depth + 1, &item);
    if (st != NPYDT_OK)
        return st;
    uint64_t shape[NPYDT_DEPTH_CEILING + 1];
    size_t nd = 1;
    shape[0] = (uint64_t)size;
    /* nested lists are one subarray of several dimensions, as NumPy makes
     * them, unless the export wrote a subarray of subarrays (whose inner
     * list has a shape of its own) */
    size_t mlen;
    if (npydt_dtype_get_class(item) == NPYDT_SUBARRAY &&
        !arrow_meta_get(s->children[0]->metadata, ARROW_SHAPE_KEY, &mlen)) {
        size_t kd = npydt_dtype_ndim(item);
        if (kd >= sizeof shape / sizeof shape[0])
            return set_error(c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, c->path,
                             "lists nested too deeply");
        memcpy(shape + 1, npydt_dtype_shape(item), kd * sizeof *shape);
        nd += kd;
        item = npydt_dtype_base(item);
    }
    if ((st = dtype_check_ndim(c->dc, nd, 0)) == NPYDT_OK)
        st = dtype_make_subarray(c->dc, item, shape, nd, 0, out);
    if (st != NPYDT_OK && c->err->path[0] == '\0')
        snprintf(c->err->path, sizeof c->err->path, "%s", c->path);
    return st;
}

static npydt_status derive(struct der *c, const struct ArrowSchema *s, const struct ArrowArray *a,
                           int64_t start, int64_t n, uint32_t depth, const npydt_dtype **out)
{
    npydt_status st = schema_ok(s, c->path, c->err);
    if (st != NPYDT_OK)
        return st;
    if (depth >= c->o->base.limits.max_depth)
        return set_error(c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, c->path,
                         "nesting deeper than %u levels", (unsigned)c->o->base.limits.max_depth);
    if (s->dictionary)
        return refuse(c->path, s, c->err);
    if ((*out = from_metadata(c, s, &st)) != NULL || st != NPYDT_OK)
        return st;
    const char *f = s->format;
    if (strcmp(f, "+s") == 0)
        return derive_struct(c, s, a, start, n, depth, out);
    int64_t size = list_size(f);
    if (size >= 0)
        return derive_list(c, s, a, start, n, depth, size, out);
    char ts[48];
    size_t len = default_typestr(f, ts, sizeof ts);
    if (!len && (strcmp(f, "u") == 0 || strcmp(f, "z") == 0) && c->o->string_width) {
        uint64_t width = c->o->string_width;
        if (width == NPYDT_ARROW_LONGEST) {
            if (!a)
                return set_error(c->err, NPYDT_E_ARG, NPYDT_NO_OFFSET, c->path,
                                 "the longest value needs the array");
            if ((st = longest(c, s, a, start, n, &width)) != NPYDT_OK)
                return st;
        }
        if (width > NPYDT_MAX_ITEMSIZE / 4)
            return set_error(c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, c->path,
                             "a string width of %llu", (unsigned long long)width);
        len = (size_t)snprintf(ts, sizeof ts, "%c%c%llu", f[0] == 'u' ? TEXT_HOST_ORDER : '|',
                               f[0] == 'u' ? 'U' : 'S', (unsigned long long)width);
    }
    if (!len)
        return refuse(c->path, s, c->err);
    st = typestr_parse(c->dc, ts, len, 0, out);
    if (st != NPYDT_OK)
        snprintf(c->err->path, sizeof c->err->path, "%s", c->path);
    return st;
}

npydt_status npydt_arrow_dtype(const struct ArrowSchema *schema, const struct ArrowArray *array,
                               const npydt_arrow_import_options *opts, npydt_dtype **out,
                               npydt_error *err)
{
    npydt_error local;
    if (!err)
        err = &local;
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    npydt_arrow_import_options o;
    npydt_status st = arrow_import_resolve(opts, &o, err);
    if (st != NPYDT_OK || (st = schema_ok(schema, "", err)) != NPYDT_OK)
        return st;
    if (array && (!array->release || array->length < 0))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "a released array or one of negative length");
    struct arena_budget budget;
    arena_budget_init(&budget, o.base.limits.max_alloc_bytes);
    struct arena ar;
    arena_init(&ar, o.base.allocator);
    arena_budget_attach(&ar, &budget);
    struct dtype_ctx dc;
    dtype_ctx_init(&dc, &ar, NULL, &o.base.limits, err);
    struct der c = {&dc, &o, "", err};
    const npydt_dtype *dt = NULL;
    /* the export's one column "value" of a dtype that is not a struct */
    const struct ArrowSchema *s = schema;
    const struct ArrowArray *a = array;
    int64_t start = 0, n = array ? array->length : 0;
    if (strcmp(s->format, "+s") == 0 && s->n_children == 1 && s->children[0]->name &&
        strcmp(s->children[0]->name, ARROW_VALUE_NAME) == 0) {
        if (a && (st = arrow_import_check_array(a, "+s", 1, 1, 0, n, "", err)) != NPYDT_OK)
            return st;   /* nothing allocated yet */
        s = s->children[0];
        start = a ? a->offset : 0;
        a = a ? a->children[0] : NULL;
        snprintf(c.path, sizeof c.path, "%s", ARROW_VALUE_NAME);
    }
    st = derive(&c, s, a, start, n, 0, &dt);
    if (st == NPYDT_OK)
        st = dtype_make_root(&dc, dt, &ar, out);
    if (st != NPYDT_OK) {
        arena_release(&ar);
        pool_explain_nomem(o.base.allocator, err);
        return arena_budget_explain(&budget, st, err);
    }
    arena_budget_detach(&(*out)->root->arena);   /* budget ends with this call */
    return st;
}

npydt_status npydt_arrow_shape(const struct ArrowSchema *schema, uint64_t *shape,
                               size_t max_ndim, size_t *ndim, npydt_error *err)
{
    error_clear(err);
    if (!schema || !schema->release || !shape || !ndim)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "a schema not released, shape and ndim are needed");
    size_t len;
    const char *text = arrow_meta_get(schema->metadata, ARROW_SHAPE_KEY, &len);
    if (!text)
        return set_error(err, NPYDT_E_NOT_FOUND, NPYDT_NO_OFFSET, NULL,
                         "the schema has no metadata " ARROW_SHAPE_KEY);
    char shown[96];
    text_escape_fit(shown, sizeof shown, text, len);
    if (!text_shape_read(text, len, shape, max_ndim, ndim))
        return set_error(err, NPYDT_E_SHAPE, NPYDT_NO_OFFSET, NULL,
                         "metadata " ARROW_SHAPE_KEY " '%s' is not a shape of at most %zu "
                         "dimensions spelled as NumPy does ('(2, 3)')", shown, max_ndim);
    uint64_t count = 1;
    for (size_t i = 0; i < *ndim; i++)
        if (!ck_mul(count, shape[i], &count))
            return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                             "metadata " ARROW_SHAPE_KEY " %s holds more than 2**64 elements",
                             shown);
    return NPYDT_OK;
}

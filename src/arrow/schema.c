/* A dtype as an Arrow schema: a struct of the record's fields (any other
 * dtype is one column), and each scalar's column (arrow_scalar_of, which
 * the batches follow too). */
#include "arrow/arrow.h"

#include <stdio.h>

void npydt_arrow_options_init(npydt_arrow_options *opts)
{
    memset(opts, 0, sizeof *opts);
    npydt_options_init(&opts->base);
    opts->batch_bytes = (size_t)1 << 20;
}

npydt_status arrow_options_resolve(const npydt_arrow_options *opts, npydt_arrow_options *out,
                                   npydt_error *err)
{
    npydt_arrow_options_init(out);
    if (!opts)
        return NPYDT_OK;
    if (!reserved_is_zero(opts->reserved, sizeof opts->reserved / sizeof opts->reserved[0]))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "Arrow options have nonzero reserved room: fill them with "
                         "npydt_arrow_options_init");
    npydt_status st = options_check(&opts->base, err);
    if (st != NPYDT_OK)
        return st;
    *out = *opts;
    options_resolve_limits(&out->base.limits);
    if (out->batch_bytes == 0)
        out->batch_bytes = (size_t)1 << 20;
    return NPYDT_OK;
}

static npydt_status no_type(const npydt_dtype *dt, npydt_error *err)
{
    char str[64];
    npydt_dtype_str(dt, str, sizeof str);
    return set_error(err, NPYDT_E_TYPE, NPYDT_NO_OFFSET, NULL, "Arrow has no type for %s", str);
}

/* The unit of Arrow's column of a datetime: its own for s ms us ns, the
 * second for m and h, the day for D and W of an M8 (Arrow's dates), the
 * second for those of an m8 (Arrow's durations have no days), whatever
 * the multiplier ("[25s]", "[7D]"): every count then is a whole number
 * of Arrow's unit. NPYDT_UNIT_NONE for the units Arrow has no exact unit
 * for (Y M ps fs as, generic). */
static npydt_unit time_unit(const npydt_dtype *dt)
{
    bool date = npydt_dtype_kind(dt) == 'M';
    npydt_unit u = npydt_dtype_unit(dt);
    switch (u) {
    case NPYDT_UNIT_W:
    case NPYDT_UNIT_D:
        return date ? NPYDT_UNIT_D : NPYDT_UNIT_s;
    case NPYDT_UNIT_h:
    case NPYDT_UNIT_m:
        return NPYDT_UNIT_s;
    case NPYDT_UNIT_s:
    case NPYDT_UNIT_ms:
    case NPYDT_UNIT_us:
    case NPYDT_UNIT_ns:
        return u;
    default:
        return NPYDT_UNIT_NONE;
    }
}

npydt_status arrow_scalar_of(const npydt_dtype *dt, int bytes_as_binary,
                             struct arrow_scalar *out, npydt_error *err)
{
    size_t size = npydt_dtype_itemsize(dt);
    memset(out, 0, sizeof *out);
    out->as = NPYDT_AS_NATIVE;
    out->gathered = size;
    out->width = size;
    out->col = COL_FIXED;
    const char *f = NULL;
    switch (npydt_dtype_kind(dt)) {
    case 'b':
        out->col = COL_BOOL;
        out->width = 0;
        f = "b";
        break;
    case 'i':
    case 'u': {
        static const char si[] = "csil", un[] = "CSIL";
        int k = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;
        if (k < 0)
            return no_type(dt, err);
        out->format[0] = npydt_dtype_kind(dt) == 'i' ? si[k] : un[k];
        break;
    }
    case 'f':
        if (size == 16) {
            out->col = COL_DOUBLE;
            out->as = NPYDT_AS_DOUBLE;
            out->gathered = out->width = 8;
            f = "g";
        } else {
            f = size == 2 ? "e" : size == 4 ? "f" : size == 8 ? "g" : NULL;
        }
        break;
    case 'c':
        out->col = COL_COMPLEX;
        f = "+w:2";
        if (size == 32) {
            out->as = NPYDT_AS_DOUBLE;
            out->gathered = out->width = 16;
            out->child_format = "g";
        } else if (size == 8 || size == 16) {
            out->child_format = size == 8 ? "f" : "g";
        } else {
            return no_type(dt, err);
        }
        break;
    case 'S':
        if (bytes_as_binary) {
            out->col = COL_BINARY;
            out->width = 0;
            f = "z";
            break;
        }
        /* fall through */
    case 'V':
        snprintf(out->format, sizeof out->format, "w:%zu", size);
        break;
    case 'U':
        out->col = COL_UTF8;
        out->width = 0;
        f = "u";
        break;
    case 'M':
    case 'm': {
        npydt_unit u = time_unit(dt);
        out->col = COL_TIME;
        out->time_unit = u;
        if (u == NPYDT_UNIT_D) {
            out->col = COL_DATE32;
            out->width = 4;
            f = "tdD";
        } else if (u == NPYDT_UNIT_NONE) {
            f = "l";
        } else {
            snprintf(out->format, sizeof out->format, "%s%s%s",
                     npydt_dtype_kind(dt) == 'M' ? "ts" : "tD",
                     u == NPYDT_UNIT_s ? "s" : u == NPYDT_UNIT_ms ? "m"
                     : u == NPYDT_UNIT_us ? "u" : "n",
                     npydt_dtype_kind(dt) == 'M' ? ":" : "");
        }
        /* a count of another unit, or of a multiple, is converted */
        out->time_convert = u != NPYDT_UNIT_NONE &&
                            (u != npydt_dtype_unit(dt) || npydt_dtype_unit_count(dt) != 1);
        break;
    }
    case 'O':
        return set_error(err, NPYDT_E_OBJECT, NPYDT_NO_OFFSET, NULL,
                         "object data is a pickle: Arrow cannot hold it");
    default:
        return no_type(dt, err);
    }
    if (f)
        snprintf(out->format, sizeof out->format, "%s", f);
    if (!out->format[0])
        return no_type(dt, err);
    return NPYDT_OK;
}

/* ---- the schema ---------------------------------------------------------- */

bool arrow_struct_packed(const npydt_dtype *dt)
{
    uint64_t at = 0;
    for (size_t i = 0; i < npydt_dtype_nfields(dt); i++) {
        if (npydt_dtype_field_offset(dt, i) != at)
            return false;
        at += npydt_dtype_itemsize(npydt_dtype_field_dtype(dt, i));
    }
    return at == npydt_dtype_itemsize(dt);
}

struct sctx {
    const npydt_allocator *alloc;
    int bytes_as_binary;
    uint32_t max_depth;
    char path[256];
    npydt_error *err;
};

static npydt_status too_deep(struct sctx *c)
{
    return set_error(c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, c->path,
                     "nesting deeper than %u levels", (unsigned)c->max_depth);
}

void arrow_path_push(char *path, size_t size, const char *name, size_t nlen, size_t *keep)
{
    size_t have = strlen(path);
    *keep = have;
    if (have + 2 >= size)
        return;
    if (have)
        path[have++] = '.';
    name_for_message(path + have, size - have, name, nlen);
}

static npydt_status node(struct sctx *c, const npydt_dtype *dt, const char *name, size_t nlen,
                         struct arrow_pair *extra, size_t nextra, struct ArrowSchema *out,
                         uint32_t depth);

/* The fixed-size lists of a subarray, dimension k and within. */
static npydt_status lists(struct sctx *c, const npydt_dtype *dt, size_t k, const char *name,
                          size_t nlen, struct arrow_pair *extra, size_t nextra,
                          struct ArrowSchema *out, uint32_t depth)
{
    if (depth >= c->max_depth)
        return too_deep(c);
    const uint64_t *shape = npydt_dtype_shape(dt);
    if (k == npydt_dtype_ndim(dt))
        return node(c, npydt_dtype_base(dt), name, nlen, extra, nextra, out, depth);
    if (shape[k] > INT32_MAX)
        return set_error(c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, c->path,
                         "a subarray dimension of %llu is above Arrow's 2147483647",
                         (unsigned long long)shape[k]);
    char format[32];
    snprintf(format, sizeof format, "+w:%llu", (unsigned long long)shape[k]);
    struct arrow_pair pairs[3];
    size_t np = 0;
    char shape_text[1024];
    struct text_buf tb = text_buf_fixed(shape_text, sizeof shape_text);
    if (k == 0) {
        text_shape_tuple(&tb, shape, npydt_dtype_ndim(dt));
        if (tb.len >= sizeof shape_text)
            return set_error(c->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, c->path,
                             "a subarray shape of %zu dimensions is too long to name",
                             npydt_dtype_ndim(dt));
        pairs[np++] = (struct arrow_pair){ARROW_SHAPE_KEY, shape_text, tb.len};
        for (size_t i = 0; i < nextra; i++)
            pairs[np++] = extra[i];
    }
    npydt_status st = arrow_schema_node(c->alloc, out, format, name, nlen, pairs, np, 1, c->err);
    if (st == NPYDT_OK)
        st = lists(c, dt, k + 1, "item", 4, NULL, 0, out->children[0], depth + 1);
    if (st != NPYDT_OK && out->release)
        out->release(out);
    return st;
}

static npydt_status node(struct sctx *c, const npydt_dtype *dt, const char *name, size_t nlen,
                         struct arrow_pair *extra, size_t nextra, struct ArrowSchema *out,
                         uint32_t depth)
{
    npydt_status st;
    if (depth >= c->max_depth)
        return too_deep(c);
    if (memchr(name, '\0', nlen))
        return set_error(c->err, NPYDT_E_NAME, NPYDT_NO_OFFSET, c->path,
                         "an Arrow name cannot hold a NUL");
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SUBARRAY:
        return lists(c, dt, 0, name, nlen, extra, nextra, out, depth);
    case NPYDT_STRUCT: {
        size_t n = npydt_dtype_nfields(dt);
        struct arrow_pair pairs[2];
        size_t np = 0;
        char *descr = NULL;
        size_t dlen = 0;
        if (nextra)
            pairs[np++] = extra[0];
        if (!arrow_struct_packed(dt)) {
            /* the layout the fields alone do not give: offsets, padding */
            dlen = npydt_dtype_descr(dt, NULL, 0);
            if (!(descr = alloc_bytes(c->alloc, dlen + 1)))
                return set_nomem(c->err);
            npydt_dtype_descr(dt, descr, dlen + 1);
            pairs[np++] = (struct arrow_pair){"npydt.dtype", descr, dlen};
        }
        st = arrow_schema_node(c->alloc, out, "+s", name, nlen, pairs, np, (int64_t)n, c->err);
        if (descr)
            free_bytes(c->alloc, descr, dlen + 1);
        for (size_t i = 0; i < n && st == NPYDT_OK; i++) {
            const char *fname = npydt_dtype_field_name(dt, i);
            size_t flen = npydt_dtype_field_name_len(dt, i), keep;
            struct arrow_pair title = {"npydt.title", npydt_dtype_field_title(dt, i),
                                       npydt_dtype_field_title_len(dt, i)};
            arrow_path_push(c->path, sizeof c->path, fname, flen, &keep);
            st = node(c, npydt_dtype_field_dtype(dt, i), fname, flen, &title,
                      title.value ? 1 : 0, out->children[i], depth + 1);
            c->path[keep] = '\0';
        }
        if (st != NPYDT_OK && out->release)
            out->release(out);
        return st;
    }
    case NPYDT_SCALAR:
        break;
    }
    struct arrow_scalar sc;
    if ((st = arrow_scalar_of(dt, c->bytes_as_binary, &sc, c->err)) != NPYDT_OK) {
        error_set_path(c->err, c->path, strlen(c->path));
        return st;
    }
    char str[64];
    size_t slen = npydt_dtype_str(dt, str, sizeof str);
    struct arrow_pair pairs[2] = {{"npydt.dtype", str, slen < sizeof str ? slen : 0}};
    if (nextra)
        pairs[1] = extra[0];
    st = arrow_schema_node(c->alloc, out, sc.format, name, nlen, pairs, 1 + nextra,
                           sc.col == COL_COMPLEX, c->err);
    if (st != NPYDT_OK)
        return st;
    if (sc.col == COL_TIME || sc.col == COL_DATE32)
        out->flags |= ARROW_FLAG_NULLABLE;
    if (sc.col == COL_COMPLEX &&
        (st = arrow_schema_node(c->alloc, out->children[0], sc.child_format, "item", 4, NULL, 0,
                                0, c->err)) != NPYDT_OK)
        out->release(out);
    return st;
}

npydt_status arrow_schema_make(const npydt_dtype *dt, const npydt_arrow_options *o,
                               const uint64_t *shape, size_t ndim, struct ArrowSchema *out,
                               npydt_error *err)
{
    struct sctx c = {o->base.allocator, o->bytes_as_binary, o->base.limits.max_depth, "", err};
    char text[2048];
    struct text_buf tb = text_buf_fixed(text, sizeof text);
    struct arrow_pair pair = {ARROW_SHAPE_KEY, text, 0};
    size_t npairs = 0;
    if (ndim != 1) {
        text_shape_tuple(&tb, shape, ndim);
        if (tb.len >= sizeof text)
            return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                             "a shape of %zu dimensions is too long to name", ndim);
        pair.vlen = tb.len;
        npairs = 1;
    }
    if (npydt_dtype_get_class(dt) == NPYDT_STRUCT)
        return node(&c, dt, "", 0, &pair, npairs, out, 0);
    npydt_status st = arrow_schema_node(c.alloc, out, "+s", "", 0, &pair, npairs, 1, err);
    if (st == NPYDT_OK &&
        (st = node(&c, dt, ARROW_VALUE_NAME, strlen(ARROW_VALUE_NAME), NULL, 0,
                   out->children[0], 1)) != NPYDT_OK)
        out->release(out);
    return st;
}

npydt_status npydt_arrow_schema(const npydt_dtype *dt, const npydt_arrow_options *opts,
                                struct ArrowSchema *out, npydt_error *err)
{
    npydt_error local;
    if (!err)
        err = &local;
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    out->release = NULL;
    if (!dt)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "dtype is NULL");
    npydt_arrow_options o;
    npydt_status st = arrow_options_resolve(opts, &o, err);
    if (st != NPYDT_OK)
        return st;
    return arrow_schema_make(dt, &o, NULL, 1, out, err);   /* no shape */
}

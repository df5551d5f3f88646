/* Arrow arrays into records, the inverse of batch.c: the rows of an array
 * go, a bounded chunk at a time, into records of the writer's dtype, each
 * column scattered (npydt_scatter: into the field's byte order) from its
 * data buffer, or converted value by value where Arrow lays it out
 * otherwise (bits, offsets and text, int32 days). Every length, offset
 * and count of the foreign array is checked before a buffer is read. */
#include "arrow/arrow.h"
#include "records/records.h"

#include <errno.h>
#include <stdio.h>

/* Record bytes of one chunk, about (one record at least): records wait
 * in it, across batches, until it is full or the input ends. */
#define IMPORT_CHUNK_BYTES ((size_t)1 << 20)

npydt_status arrow_import_check_array(const struct ArrowArray *a, const char *fmt,
                                      int64_t n_buffers, int64_t n_children, int64_t start,
                                      int64_t n, const char *path, npydt_error *err)
{
    if (!a || !a->release)
        return set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, path, "a released array");
    if (a->length < 0 || a->offset < 0 || a->null_count < -1 ||
        a->length > INT64_MAX - a->offset)
        return set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, path,
                         "an array of length %lld at offset %lld with %lld nulls",
                         (long long)a->length, (long long)a->offset, (long long)a->null_count);
    if (start < 0 || n < 0 || start > a->length || n > a->length - start)
        return set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, path,
                         "%lld rows from row %lld of an array of %lld", (long long)n,
                         (long long)start, (long long)a->length);
    if (a->n_buffers != n_buffers || !a->buffers)
        return set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, path,
                         "%lld buffers where Arrow type '%.32s' has %lld",
                         (long long)a->n_buffers, fmt, (long long)n_buffers);
    if (a->n_children != n_children || (n_children && !a->children))
        return set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, path,
                         "%lld children where Arrow type '%.32s' has %lld",
                         (long long)a->n_children, fmt, (long long)n_children);
    if (a->dictionary)
        return set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, path,
                         "a dictionary on an array whose schema has none");
    for (int64_t i = 1; i < n_buffers; i++)
        if (!a->buffers[i] && n > 0)
            return set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, path,
                             "buffer %lld is missing", (long long)i);
    return NPYDT_OK;
}

/* The data buffer of a (buffer 1) from row start on, when all its rows
 * of width bytes fit the address space; NULL otherwise. */
static const unsigned char *span(const struct ArrowArray *a, int64_t start, size_t width)
{
    uint64_t bytes;
    if (!ck_mul((uint64_t)(a->offset + a->length), width, &bytes) || bytes > SIZE_MAX / 2)
        return NULL;
    return (const unsigned char *)a->buffers[1] + (size_t)(a->offset + start) * width;
}

static bool bit(const void *bits, int64_t i)
{
    return (((const unsigned char *)bits)[i >> 3] >> (i & 7)) & 1;
}

static bool is_null(const struct ArrowArray *a, int64_t i)
{
    return a->null_count != 0 && a->buffers[0] && !bit(a->buffers[0], i);
}

/* ---- the walk ----------------------------------------------------------------- */

struct imp {
    int nulls_as_zero;
    char path[256];
    npydt_error *err;
};

/* Rows [start, start + n) of an array, going to records stride bytes
 * apart from base; the first belongs to row top0 of the whole input, and
 * per_top of them make one of its rows. */
struct rows {
    unsigned char *base;
    size_t stride;
    int64_t start, n;
    uint64_t top0, per_top;
};

static uint64_t row_of(const struct rows *rw, int64_t r)
{
    return rw->top0 + (uint64_t)r / rw->per_top;
}

static bool is_time(const npydt_dtype *dt)
{
    char k = npydt_dtype_kind(dt);
    return npydt_dtype_get_class(dt) == NPYDT_SCALAR && (k == 'M' || k == 'm');
}

/* What a null holds: NaT in M8 and m8, zeros elsewhere. */
static void fill_null(const npydt_dtype *dt, unsigned char *p)
{
    npydt_error e;
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_STRUCT:
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++)
            fill_null(npydt_dtype_field_dtype(dt, i), p + npydt_dtype_field_offset(dt, i));
        return;
    case NPYDT_SUBARRAY: {
        const npydt_dtype *base = npydt_dtype_base(dt);
        size_t size = npydt_dtype_itemsize(base);
        if (!size)
            return;
        for (size_t e2 = 0; e2 < npydt_dtype_itemsize(dt) / size; e2++)
            fill_null(base, p + e2 * size);
        return;
    }
    case NPYDT_SCALAR:
        if (is_time(dt))
            npydt_write_i64(dt, p, NPYDT_NAT, &e);
        else
            memset(p, 0, npydt_dtype_itemsize(dt));
        return;
    }
}

static npydt_status null_error(struct imp *c, const struct rows *rw, int64_t r,
                               const npydt_dtype *dt)
{
    char str[64];
    npydt_dtype_str(dt, str, sizeof str);
    return set_error(c->err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, c->path,
                     "row %llu: a null, which %s has no value for",
                     (unsigned long long)row_of(rw, r), str);
}

/* The rows of a that are null hold count values of dt each (NaT, or zeros
 * with nulls_as_zero); without that option a null outside M8 and m8 is
 * NPYDT_E_VALUE naming its row. */
static npydt_status nulls_at(struct imp *c, const struct ArrowArray *a, const struct rows *rw,
                             const npydt_dtype *dt, uint64_t count)
{
    if (a->null_count == 0 || !a->buffers[0])
        return NPYDT_OK;
    size_t size = npydt_dtype_itemsize(dt);
    for (int64_t r = 0; r < rw->n; r++) {
        if (!is_null(a, a->offset + rw->start + r))
            continue;
        if (!c->nulls_as_zero && !is_time(dt))
            return null_error(c, rw, r, dt);
        for (uint64_t e = 0; e < count; e++)
            fill_null(dt, rw->base + (size_t)r * rw->stride + (size_t)e * size);
    }
    return NPYDT_OK;
}

static npydt_status bad_span(struct imp *c)
{
    return set_error(c->err, NPYDT_E_DATA, NPYDT_NO_OFFSET, c->path,
                     "the column's buffer does not fit the address space");
}

/* A value refused by a typed writer: the message with its row. */
static npydt_status value_error(struct imp *c, const struct rows *rw, int64_t r,
                                const npydt_error *e)
{
    return set_error(c->err, e->code, NPYDT_NO_OFFSET, c->path, "row %llu: %s",
                     (unsigned long long)row_of(rw, r), e->message);
}

/* Variable-length text (u) or bytes (z) into U or S fields. */
static npydt_status leaf_varlen(struct imp *c, const struct ArrowArray *a, const npydt_dtype *dt,
                                const struct rows *rw, bool text)
{
    if (rw->n == 0)
        return NPYDT_OK;
    if (!span(a, rw->start, 4))
        return bad_span(c);
    const int32_t *off = (const int32_t *)a->buffers[1] + a->offset + rw->start;
    const char *data = a->buffers[2];
    npydt_error e;
    for (int64_t r = 0; r < rw->n; r++) {
        if (is_null(a, a->offset + rw->start + r))
            continue;
        if (off[r] < 0 || off[r + 1] < off[r])
            return set_error(c->err, NPYDT_E_DATA, NPYDT_NO_OFFSET, c->path,
                             "row %llu: offsets %ld then %ld",
                             (unsigned long long)row_of(rw, r), (long)off[r], (long)off[r + 1]);
        unsigned char *p = rw->base + (size_t)r * rw->stride;
        size_t len = (size_t)(off[r + 1] - off[r]);
        npydt_status st = text ? npydt_write_unicode(dt, p, data + off[r], len, &e)
                               : npydt_write_bytes(dt, p, data + off[r], len, &e);
        if (st != NPYDT_OK)
            return value_error(c, rw, r, &e);
    }
    return nulls_at(c, a, rw, dt, 1);
}

/* Counts of Arrow's unit (int32 days, or int64) into datetimes of dt, in
 * dt's unit when sc says they are converted: a count that is not a whole
 * number of dt's unit is NPYDT_E_RANGE naming its row. */
static npydt_status leaf_time(struct imp *c, const struct ArrowArray *a, const npydt_dtype *dt,
                              const struct arrow_scalar *sc, const struct rows *rw, size_t width)
{
    const unsigned char *d = rw->n ? span(a, rw->start, width) : NULL;
    if (rw->n && !d)
        return bad_span(c);
    npydt_error e;
    for (int64_t r = 0; r < rw->n; r++) {
        if (is_null(a, a->offset + rw->start + r))
            continue;
        int64_t v, count;
        if (width == 4) {
            int32_t day;
            memcpy(&day, d + (size_t)r * 4, 4);
            v = day;
        } else {
            memcpy(&v, d + (size_t)r * 8, 8);
        }
        count = v;
        if (sc->time_convert &&
            time_convert(v, sc->time_unit, 1, npydt_dtype_unit(dt), npydt_dtype_unit_count(dt),
                         false, &count) != TIME_OK) {
            char str[64];
            npydt_dtype_str(dt, str, sizeof str);
            return set_error(c->err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, c->path,
                             "row %llu: %lld (Arrow '%s') is not a whole number of %s",
                             (unsigned long long)row_of(rw, r), (long long)v,
                             sc->format, str);
        }
        if (npydt_write_i64(dt, rw->base + (size_t)r * rw->stride, count, &e) != NPYDT_OK)
            return value_error(c, rw, r, &e);
    }
    return nulls_at(c, a, rw, dt, 1);
}

static npydt_status leaf(struct imp *c, const struct ArrowSchema *s, const struct ArrowArray *a,
                         const npydt_dtype *dt, const struct rows *rw)
{
    struct arrow_scalar sc;
    if (!arrow_import_accepts(s, dt, &sc))
        return set_error(c->err, NPYDT_E_MISMATCH, NPYDT_NO_OFFSET, c->path,
                         "Arrow type '%.32s' does not fit the field", s->format);
    bool varlen = sc.col == COL_BINARY || sc.col == COL_UTF8;
    bool complex = sc.col == COL_COMPLEX;
    npydt_status st = arrow_import_check_array(a, s->format, varlen ? 3 : complex ? 1 : 2,
                                               complex, rw->start, rw->n, c->path, c->err);
    if (st != NPYDT_OK)
        return st;
    npydt_error e;
    switch (sc.col) {
    case COL_BINARY:
    case COL_UTF8:
        return leaf_varlen(c, a, dt, rw, sc.col == COL_UTF8);
    case COL_BOOL:
        if (rw->n && !span(a, 0, 1))
            return bad_span(c);
        for (int64_t r = 0; r < rw->n; r++)
            rw->base[(size_t)r * rw->stride] = bit(a->buffers[1], a->offset + rw->start + r);
        return nulls_at(c, a, rw, dt, 1);
    case COL_DATE32:
        return leaf_time(c, a, dt, &sc, rw, 4);
    case COL_COMPLEX: {
        const struct ArrowArray *k = a->children[0];
        uint64_t kstart;
        if (!ck_mul((uint64_t)(a->offset + rw->start), 2, &kstart) || kstart > INT64_MAX / 2)
            return bad_span(c);
        st = arrow_import_check_array(k, sc.child_format, 2, 0, (int64_t)kstart, rw->n * 2,
                                      c->path, c->err);
        if (st != NPYDT_OK)
            return st;
        const unsigned char *d = rw->n ? span(k, (int64_t)kstart, sc.width / 2) : NULL;
        if (rw->n && !d)
            return bad_span(c);
        if (rw->n && npydt_scatter(rw->base, rw->stride, (uint64_t)rw->n, dt, 0, sc.as, d,
                                   &e) != NPYDT_OK)
            return value_error(c, rw, 0, &e);
        /* a null part makes its number null */
        struct rows parts = {rw->base, rw->stride, (int64_t)kstart, rw->n * 2, rw->top0,
                             rw->per_top * 2};
        for (int64_t r = 0; r < parts.n; r++) {
            if (!is_null(k, k->offset + parts.start + r))
                continue;
            if (!c->nulls_as_zero)
                return null_error(c, &parts, r, dt);
            fill_null(dt, rw->base + (size_t)(r / 2) * rw->stride);
        }
        return nulls_at(c, a, rw, dt, 1);
    }
    case COL_TIME:
        if (sc.time_convert)
            return leaf_time(c, a, dt, &sc, rw, 8);
        /* fall through */
    case COL_FIXED:
    case COL_DOUBLE: {
        size_t width = sc.col == COL_TIME ? 8 : sc.width;
        const unsigned char *d = rw->n ? span(a, rw->start, width) : NULL;
        if (rw->n && !d)
            return bad_span(c);
        if (rw->n && npydt_scatter(rw->base, rw->stride, (uint64_t)rw->n, dt, 0, sc.as, d,
                                   &e) != NPYDT_OK)
            return value_error(c, rw, 0, &e);
        return nulls_at(c, a, rw, dt, 1);
    }
    }
    return NPYDT_OK;
}

static npydt_status node(struct imp *c, const struct ArrowSchema *s, const struct ArrowArray *a,
                         const npydt_dtype *dt, const struct rows *rw);

/* Dimension k of subarray dt and within: fixed-size lists. */
static npydt_status list_level(struct imp *c, const struct ArrowSchema *s,
                               const struct ArrowArray *a, const npydt_dtype *dt, size_t k,
                               const struct rows *rw)
{
    const npydt_dtype *base = npydt_dtype_base(dt);
    if (k == npydt_dtype_ndim(dt))
        return node(c, s, a, base, rw);
    const uint64_t *shape = npydt_dtype_shape(dt);
    npydt_status st = arrow_import_check_array(a, s->format, 1, 1, rw->start, rw->n, c->path,
                                               c->err);
    if (st != NPYDT_OK)
        return st;
    uint64_t count = 1, esz = npydt_dtype_itemsize(base), kstart, kn;
    for (size_t j = k; j < npydt_dtype_ndim(dt); j++)
        count *= shape[j];
    for (size_t j = k + 1; j < npydt_dtype_ndim(dt); j++)
        esz *= shape[j];
    uint64_t size = shape[k];
    if (!ck_mul((uint64_t)(a->offset + rw->start), size, &kstart) ||
        !ck_mul((uint64_t)rw->n, size, &kn) || kstart > INT64_MAX || kn > INT64_MAX - kstart)
        return bad_span(c);
    if (kn) {
        if (rw->stride == size * esz || rw->n == 1) {
            struct rows in = {rw->base, (size_t)esz, (int64_t)kstart, (int64_t)kn, rw->top0,
                              rw->per_top * size};
            st = list_level(c, s->children[0], a->children[0], dt, k + 1, &in);
        } else {
            for (int64_t r = 0; r < rw->n && st == NPYDT_OK; r++) {
                struct rows in = {rw->base + (size_t)r * rw->stride, (size_t)esz,
                                  (int64_t)(kstart + (uint64_t)r * size), (int64_t)size,
                                  row_of(rw, r), size};
                st = list_level(c, s->children[0], a->children[0], dt, k + 1, &in);
            }
        }
        if (st != NPYDT_OK)
            return st;
    }
    return nulls_at(c, a, rw, base, count);
}

static npydt_status node(struct imp *c, const struct ArrowSchema *s, const struct ArrowArray *a,
                         const npydt_dtype *dt, const struct rows *rw)
{
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SUBARRAY:
        return list_level(c, s, a, dt, 0, rw);
    case NPYDT_SCALAR:
        return leaf(c, s, a, dt, rw);
    case NPYDT_STRUCT:
        break;
    }
    size_t n = npydt_dtype_nfields(dt);
    npydt_status st = arrow_import_check_array(a, "+s", 1, (int64_t)n, rw->start, rw->n,
                                               c->path, c->err);
    for (size_t i = 0; i < n && st == NPYDT_OK; i++) {
        size_t keep;
        arrow_path_push(c->path, sizeof c->path, npydt_dtype_field_name(dt, i),
                        npydt_dtype_field_name_len(dt, i), &keep);
        struct rows in = *rw;
        in.base += npydt_dtype_field_offset(dt, i);
        in.start = a->offset + rw->start;
        st = node(c, s->children[i], a->children[i], npydt_dtype_field_dtype(dt, i), &in);
        c->path[keep] = '\0';
    }
    return st != NPYDT_OK ? st : nulls_at(c, a, rw, dt, 1);
}

/* Does the walk store every byte of a record of dt, so that a chunk
 * needs no zeroing first? It does where fields follow one another with
 * no padding and every scalar is stored whole (not x87 long doubles). */
static bool stores_every_byte(const npydt_dtype *dt, unsigned depth)
{
    if (depth > 64)
        return false;
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SUBARRAY:
        return stores_every_byte(npydt_dtype_base(dt), depth + 1);
    case NPYDT_STRUCT:
        if (!arrow_struct_packed(dt))
            return false;
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++)
            if (!stores_every_byte(npydt_dtype_field_dtype(dt, i), depth + 1))
                return false;
        return true;
    case NPYDT_SCALAR:
        break;
    }
    size_t size = npydt_dtype_itemsize(dt);
    switch (npydt_dtype_kind(dt)) {
    case 'b': case 'i': case 'u': case 'M': case 'm': case 'S': case 'U': case 'V':
        return true;
    case 'f':
        return size <= 8;
    case 'c':
        return size <= 16;
    default:
        return false;
    }
}

void arrow_pending_init(struct arrow_pending *p, const npydt_dtype *dt,
                        const npydt_allocator *alloc)
{
    memset(p, 0, sizeof *p);
    p->alloc = alloc;
    p->isz = npydt_dtype_itemsize(dt);
    p->most = p->isz ? (IMPORT_CHUNK_BYTES / p->isz ? IMPORT_CHUNK_BYTES / p->isz : 1)
                     : UINT64_MAX;
    p->zero = !stores_every_byte(dt, 0);
}

/* Room for rows more records after those waiting, up to p->most. */
static npydt_status pending_room(struct arrow_pending *p, uint64_t rows, npydt_error *err)
{
    uint64_t want = p->most - p->used < rows ? p->most : p->used + rows;
    if (want <= p->cap)
        return NPYDT_OK;
    size_t old = (size_t)p->cap * p->isz, bytes = (size_t)want * p->isz;
    unsigned char *q = realloc_bytes(p->alloc, p->buf, old, bytes);
    if (!q)
        return set_nomem(err);
    p->buf = q;
    p->cap = want;
    return NPYDT_OK;
}

npydt_status arrow_pending_flush(npydt_writer *w, struct arrow_pending *p, npydt_error *err)
{
    npydt_status st = p->used ? npydt_writer_write(w, p->buf, p->used, err) : NPYDT_OK;
    p->used = 0;
    return st;
}

void arrow_pending_free(struct arrow_pending *p)
{
    free_bytes(p->alloc, p->buf, (size_t)p->cap * p->isz);
    p->buf = NULL;
    p->cap = 0;
}

/* The records' column of an array: the root itself for a struct dtype,
 * else its one child (rows from start0 of it, named path). */
struct root {
    const struct ArrowSchema *s, *col;
    const struct ArrowArray *a, *ca;
    int64_t start0;
};

static npydt_status root_of(const struct ArrowSchema *s, const struct ArrowArray *a,
                            const npydt_dtype *dt, struct root *r, npydt_error *err)
{
    npydt_status st = arrow_import_root(s, dt, &r->col, err);
    if (st != NPYDT_OK)
        return st;
    if (!a || !a->release || a->length < 0)
        return set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, NULL,
                         "a released array or one of negative length");
    r->s = s;
    r->a = r->ca = a;
    r->start0 = 0;
    if (r->col != s) {
        /* the one column of a dtype that is not a struct */
        if ((st = arrow_import_check_array(a, "+s", 1, 1, 0, a->length, "", err)) != NPYDT_OK)
            return st;
        r->ca = a->children[0];
        r->start0 = a->offset;
    }
    return NPYDT_OK;
}

/* Rows [c0, c0 + cn) of r's array as records of dt at at, isz bytes
 * apart (zeroed first when zero); messages name rows from row0. */
static npydt_status store_rows(const struct root *r, const npydt_dtype *dt, int nulls_as_zero,
                               bool zero, size_t isz, int64_t c0, int64_t cn, uint64_t row0,
                               unsigned char *at, npydt_error *err)
{
    struct imp c = {nulls_as_zero, "", err};
    if (r->col != r->s)
        snprintf(c.path, sizeof c.path, "%s",
                 r->col->name && r->col->name[0] ? r->col->name : ARROW_VALUE_NAME);
    if (zero)
        memset(at, 0, (size_t)cn * isz);
    struct rows rw = {at, isz, r->start0 + c0, cn, row0 + (uint64_t)c0, 1};
    npydt_status st = node(&c, r->col, r->ca, dt, &rw);
    if (st == NPYDT_OK && r->col != r->s) {
        struct rows top = {at, isz, c0, cn, row0 + (uint64_t)c0, 1};
        c.path[0] = '\0';
        st = nulls_at(&c, r->a, &top, dt, 1);
    }
    return st;
}

npydt_status arrow_import_rows(npydt_writer *w, struct arrow_pending *p,
                               const struct ArrowSchema *s, const struct ArrowArray *a,
                               const npydt_arrow_import_options *o, uint64_t row0,
                               npydt_error *err)
{
    const npydt_dtype *dt = npydt_writer_dtype(w);
    struct root r;
    npydt_status st = root_of(s, a, dt, &r, err);
    if (st != NPYDT_OK)
        return st;
    size_t isz = p->isz;
    for (int64_t c0 = 0; c0 < a->length && st == NPYDT_OK;) {
        if ((st = pending_room(p, (uint64_t)(a->length - c0), err)) != NPYDT_OK)
            break;
        uint64_t room = p->cap - p->used;
        int64_t cn = (uint64_t)(a->length - c0) < room ? a->length - c0 : (int64_t)room;
        unsigned char *at = p->buf + (size_t)p->used * isz;
        if ((st = store_rows(&r, dt, o->nulls_as_zero, p->zero, isz, c0, cn, row0, at, err)) !=
            NPYDT_OK)
            break;
        p->used += (uint64_t)cn;
        if (p->used == p->most)
            st = arrow_pending_flush(w, p, err);
        c0 += cn;
    }
    return st;
}

/* ---- the calls ------------------------------------------------------------------ */

npydt_status npydt_arrow_write_array(npydt_writer *w, const struct ArrowSchema *schema,
                                     const struct ArrowArray *array,
                                     const npydt_arrow_import_options *opts, npydt_error *err)
{
    npydt_error local;
    if (!err)
        err = &local;
    error_clear(err);
    if (!w || !schema || !array)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "the writer, the schema and the array are needed");
    npydt_arrow_import_options o;
    npydt_status st = arrow_import_resolve(opts, &o, err);
    if (st == NPYDT_OK)
        st = arrow_import_check(schema, npydt_writer_dtype(w), &o, err);
    if (st == NPYDT_OK) {
        struct arrow_pending p;
        arrow_pending_init(&p, npydt_writer_dtype(w), o.base.allocator);
        st = arrow_import_rows(w, &p, schema, array, &o, 0, err);
        if (st == NPYDT_OK)
            st = arrow_pending_flush(w, &p, err);
        arrow_pending_free(&p);
    }
    return st;
}

npydt_status npydt_arrow_records(const npydt_dtype *dt, const struct ArrowSchema *schema,
                                 const struct ArrowArray *array, int64_t from, int64_t n,
                                 uint64_t row0, const npydt_arrow_import_options *opts,
                                 void *records, npydt_error *err)
{
    npydt_error local;
    if (!err)
        err = &local;
    error_clear(err);
    if (!dt || !schema || (!array && n != 0) || (n != 0 && !records))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "the dtype, the schema, the array and the records are needed");
    npydt_arrow_import_options o;
    npydt_status st = arrow_import_resolve(opts, &o, err);
    if (st == NPYDT_OK)
        st = arrow_import_check(schema, dt, &o, err);
    if (st != NPYDT_OK || !array)
        return st;
    struct root r;
    if ((st = root_of(schema, array, dt, &r, err)) != NPYDT_OK)
        return st;
    if (from < 0 || n < 0 || from > array->length || n > array->length - from)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "%lld rows from row %lld of an array of %lld", (long long)n,
                         (long long)from, (long long)array->length);
    size_t isz = npydt_dtype_itemsize(dt);
    uint64_t bytes;
    if (n == 0)
        return NPYDT_OK;   /* records of no bytes are converted all the same: checked */
    if (!ck_mul((uint64_t)n, isz, &bytes) || bytes > SIZE_MAX)
        return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "%lld records of %zu bytes do not fit in memory", (long long)n, isz);
    return store_rows(&r, dt, o.nulls_as_zero, !stores_every_byte(dt, 0), isz, from, n, row0,
                      records, err);
}

/* A failed call of the stream: its status and last error. */
static npydt_status stream_failed(struct ArrowArrayStream *s, const char *call, int rc,
                                  npydt_error *err)
{
    const char *msg = s->get_last_error ? s->get_last_error(s) : NULL;
    npydt_status code = rc == ENOMEM ? NPYDT_E_NOMEM : rc == EINVAL ? NPYDT_E_VALUE : NPYDT_E_IO;
    return set_error(err, code, NPYDT_NO_OFFSET, NULL,
                     "the Arrow stream's %s failed (errno %d)%s%.160s", call, rc,
                     msg ? ": " : "", msg ? msg : "");
}

npydt_status npydt_arrow_write_stream(npydt_writer *w, struct ArrowArrayStream *stream,
                                      const npydt_arrow_import_options *opts, npydt_error *err)
{
    npydt_error local;
    if (!err)
        err = &local;
    error_clear(err);
    if (!w || !stream || !stream->release || !stream->get_schema || !stream->get_next)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "the writer and a stream not released are needed");
    npydt_arrow_import_options o;
    npydt_status st = arrow_import_resolve(opts, &o, err);
    if (st != NPYDT_OK)
        return st;
    struct ArrowSchema schema;
    memset(&schema, 0, sizeof schema);
    int rc = stream->get_schema(stream, &schema);
    if (rc != 0)
        return stream_failed(stream, "get_schema", rc, err);
    st = arrow_import_check(&schema, npydt_writer_dtype(w), &o, err);
    struct arrow_pending p;
    arrow_pending_init(&p, npydt_writer_dtype(w), o.base.allocator);
    uint64_t rows = 0;
    while (st == NPYDT_OK) {
        struct ArrowArray a;
        memset(&a, 0, sizeof a);
        rc = stream->get_next(stream, &a);
        if (rc != 0) {
            st = stream_failed(stream, "get_next", rc, err);
            break;
        }
        if (!a.release)
            break;
        st = arrow_import_rows(w, &p, &schema, &a, &o, rows, err);
        rows += (uint64_t)a.length;
        a.release(&a);
    }
    if (st == NPYDT_OK)
        st = arrow_pending_flush(w, &p, err);
    arrow_pending_free(&p);
    if (schema.release)
        schema.release(&schema);
    return st;
}

/* An ArrowArrayStream written as an Arrow IPC stream: the Schema message
 * from get_schema, one RecordBatch message per get_next (its nodes and
 * buffers in pre-order, each buffer 8-byte aligned in the body), then the
 * end-of-stream marker. Buffers go from the arrays to the sink as they
 * are; only bitmaps at an odd bit offset and offsets that do not start at
 * 0 are copied first. */
#include "arrow/ipc.h"

#include <errno.h>

/* A column of the schema, in pre-order. */
struct wcol {
    struct ipc_type t;
    int64_t nkids;
    const char *name;
};

/* A buffer of the body: len bytes at p, of array node arr (NULL for a
 * copy the writer made). */
struct wbuf {
    const void *p;
    uint64_t len;
    const struct ArrowArray *arr;
};

/* Pieces below DIRECT_BYTES are gathered before they go to the sink, up
 * to STAGE_BYTES (within a core's cache): a message's framing, metadata,
 * padding and the columns of a batch of narrow ones take one write with
 * those of the next batches; a larger piece goes out as it is (a column
 * in a file's mapping, too, is not copied). */
#define STAGE_BYTES ((size_t)1 << 20)
#define DIRECT_BYTES ((size_t)64 << 10)

struct writer {
    const npydt_allocator *a;
    const npydt_npz_sink *sink;
    uint64_t written;
    unsigned char *stage;
    size_t staged;
    uint32_t max_depth;
    npydt_error *err;
    struct fbb fb;
    struct wcol *cols;
    size_t ncols, cap_cols;
    size_t nbufs_per_batch;
    /* one batch */
    int64_t (*nodes)[2];
    size_t nnodes;
    struct wbuf *bufs;
    size_t nbufs;
    void **scratch;          /* blocks copied for this batch */
    size_t *scratch_size;
    size_t nscratch;
};

static const unsigned char zeros[8];

static npydt_status sink(struct writer *w, const void *p, size_t n)
{
    if (n == 0)
        return NPYDT_OK;
    if (w->sink->write(w->sink->ctx, p, n) != 0)
        return set_error(w->err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "writing the Arrow IPC stream failed after %llu bytes",
                         (unsigned long long)w->written);
    w->written += n;
    return NPYDT_OK;
}

static npydt_status flush(struct writer *w)
{
    npydt_status st = sink(w, w->stage, w->staged);
    w->staged = 0;
    return st;
}

static npydt_status out(struct writer *w, const void *p, size_t n)
{
    if (n < DIRECT_BYTES) {
        npydt_status st = NPYDT_OK;
        if (STAGE_BYTES - w->staged < n)
            st = flush(w);
        if (n)
            memcpy(w->stage + w->staged, p, n);
        w->staged += n;
        return st;
    }
    npydt_status st = flush(w);
    return st == NPYDT_OK ? sink(w, p, n) : st;
}

/* The framing and metadata of a message, its metadata in w->fb. */
static npydt_status put_message(struct writer *w)
{
    if (w->fb.failed)
        return set_nomem(w->err);
    size_t m = w->fb.len;
    size_t padded = (m + 7) / 8 * 8;
    if (padded > INT32_MAX)
        return set_error(w->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "Arrow IPC message metadata of %zu bytes passes int32", m);
    unsigned char pre[8];
    text_store_le32(pre, 0xFFFFFFFFu);
    text_store_le32(pre + 4, (uint32_t)padded);
    npydt_status st = out(w, pre, 8);
    if (st == NPYDT_OK)
        st = out(w, w->fb.p, m);
    if (st == NPYDT_OK)
        st = out(w, zeros, padded - m);
    return st;
}

/* The Message table with header ref at hdr and body bytes; the header's
 * table comes next. Returns where to patch the header reference. */
static size_t message_table(struct writer *w, unsigned type, uint64_t body)
{
    w->fb.len = 0;
    w->fb.failed = false;
    size_t at[4] = {0};
    /* the root reference (4 bytes at 0), then the table */
    fbb_vector(&w->fb, 0, 1, 4);
    struct fbb_field f[4] = {{2, false, FB_VERSION_V5}, {1, false, type}, {4, true, 0},
                             {8, false, body}};
    size_t t = fbb_table(&w->fb, f, 4, at);
    fbb_patch(&w->fb, 0, t);
    return at[2];
}

static npydt_status stream_failed(struct writer *w, struct ArrowArrayStream *in, int rc,
                                  const char *what)
{
    if (npydt_arrow_stream_error(in, w->err) == NPYDT_OK && w->err->code != NPYDT_OK)
        return w->err->code;
    const char *msg = in->get_last_error ? in->get_last_error(in) : NULL;
    return set_error(w->err, rc == ENOMEM ? NPYDT_E_NOMEM : NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                     "the Arrow stream's %s failed (%s)%s%s", what, TEXT_ERRNO(rc),
                     msg ? ": " : "", msg ? msg : "");
}

/* ---- the schema --------------------------------------------------------------- */

/* The key-value table vector of C Data metadata m; its position or 0. */
static size_t put_metadata(struct writer *w, const char *m)
{
    if (!m)
        return 0;
    int32_t n;
    memcpy(&n, m, 4);
    if (n <= 0)
        return 0;
    size_t vec = fbb_vector(&w->fb, (size_t)n, 4, 4);
    const char *p = m + 4;
    for (int32_t i = 0; i < n && !w->fb.failed; i++) {
        int32_t klen, vlen;
        memcpy(&klen, p, 4);
        const char *key = p + 4;
        memcpy(&vlen, key + klen, 4);
        const char *val = key + klen + 4;
        p = val + vlen;
        size_t at[2];
        struct fbb_field f[2] = {{4, true, 0}, {4, true, 0}};
        size_t kv = fbb_table(&w->fb, f, 2, at);
        fbb_patch(&w->fb, vec + 4 + 4 * (size_t)i, kv);
        fbb_patch(&w->fb, at[0], fbb_string(&w->fb, key, (size_t)klen));
        fbb_patch(&w->fb, at[1], fbb_string(&w->fb, val, (size_t)vlen));
    }
    return vec;
}

static npydt_status no_format(struct writer *w, const char *name, const char *fmt)
{
    return set_error(w->err, NPYDT_E_TYPE, NPYDT_NO_OFFSET, name,
                     "Arrow format '%s' cannot be written as Arrow IPC by npydt", fmt);
}

/* The type table of t. */
static size_t put_type(struct writer *w, const struct ipc_type *t)
{
    size_t at[2];
    switch (t->fb) {
    case FB_TYPE_INT: {
        struct fbb_field f[2] = {{4, false, (uint64_t)t->bits}, {1, false, t->is_signed}};
        return fbb_table(&w->fb, f, 2, NULL);
    }
    case FB_TYPE_FLOAT:
    case FB_TYPE_DATE:
    case FB_TYPE_DURATION: {
        struct fbb_field f[1] = {{2, false, (uint64_t)t->unit}};
        return fbb_table(&w->fb, f, 1, NULL);
    }
    case FB_TYPE_TIMESTAMP: {
        struct fbb_field f[2] = {{2, false, (uint64_t)t->unit}, {t->tz ? 4 : 0, t->tz != NULL, 0}};
        size_t pos = fbb_table(&w->fb, f, 2, at);
        if (t->tz)
            fbb_patch(&w->fb, at[1], fbb_string(&w->fb, t->tz, t->tzlen));
        return pos;
    }
    case FB_TYPE_FIXED_BINARY:
    case FB_TYPE_FIXED_LIST: {
        struct fbb_field f[1] = {{4, false, (uint64_t)t->size}};
        return fbb_table(&w->fb, f, 1, NULL);
    }
    default:
        return fbb_table(&w->fb, NULL, 0, NULL);
    }
}

/* The Field table of schema s (and its children), recorded in w->cols. */
static npydt_status put_field(struct writer *w, const struct ArrowSchema *s, uint32_t depth,
                              size_t *pos)
{
    const char *name = s->name ? s->name : "";
    if (depth >= w->max_depth)
        return set_error(w->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, name,
                         "nesting deeper than %u levels", (unsigned)w->max_depth);
    struct ipc_type t;
    if (!s->format || !ipc_type_of_format(s->format, &t))
        return no_format(w, name, s->format ? s->format : "(none)");
    if (s->dictionary)
        return set_error(w->err, NPYDT_E_TYPE, NPYDT_NO_OFFSET, name,
                         "dictionary-encoded columns cannot be written by npydt");
    int64_t nk = t.fb == FB_TYPE_STRUCT ? s->n_children : t.fb == FB_TYPE_FIXED_LIST ? 1 : 0;
    if (s->n_children != nk || (nk && !s->children))
        return set_error(w->err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, name,
                         "format '%s' with %lld children", s->format, (long long)s->n_children);
    if (w->ncols == w->cap_cols) {
        size_t cap = w->cap_cols ? 2 * w->cap_cols : 16;
        struct wcol *c = realloc_bytes(w->a, w->cols, w->cap_cols * sizeof *c, cap * sizeof *c);
        if (!c)
            return set_nomem(w->err);
        w->cols = c;
        w->cap_cols = cap;
    }
    w->cols[w->ncols++] = (struct wcol){t, nk, name};
    w->nbufs_per_batch += t.buffers;
    size_t at[7];
    struct fbb_field f[7] = {{4, true, 0},  {1, false, (s->flags & ARROW_FLAG_NULLABLE) != 0},
                             {1, false, t.fb}, {4, true, 0}, {0, false, 0},
                             {4, true, 0},  {s->metadata ? 4 : 0, s->metadata != NULL, 0}};
    *pos = fbb_table(&w->fb, f, 7, at);
    fbb_patch(&w->fb, at[0], fbb_string(&w->fb, name, strlen(name)));
    fbb_patch(&w->fb, at[3], put_type(w, &t));
    size_t vec = fbb_vector(&w->fb, (size_t)nk, 4, 4);
    fbb_patch(&w->fb, at[5], vec);
    for (int64_t i = 0; i < nk; i++) {
        size_t kid;
        npydt_status st = put_field(w, s->children[i], depth + 1, &kid);
        if (st != NPYDT_OK)
            return st;
        fbb_patch(&w->fb, vec + 4 + 4 * (size_t)i, kid);
    }
    if (s->metadata)
        fbb_patch(&w->fb, at[6], put_metadata(w, s->metadata));
    return NPYDT_OK;
}

static npydt_status put_schema(struct writer *w, const struct ArrowSchema *s)
{
    if (!s->format || strcmp(s->format, "+s") != 0)
        return set_error(w->err, NPYDT_E_TYPE, NPYDT_NO_OFFSET, NULL,
                         "the stream's schema is '%s', not a struct ('+s') of columns",
                         s->format ? s->format : "(none)");
    if (s->n_children < 0 || (s->n_children && !s->children))
        return set_error(w->err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, NULL,
                         "the stream's schema has %lld children", (long long)s->n_children);
    size_t hdr = message_table(w, FB_MSG_SCHEMA, 0);
    size_t at[3];
    struct fbb_field f[3] = {{2, false, TEXT_HOST_BIG ? 1 : 0}, {4, true, 0},
                             {s->metadata ? 4 : 0, s->metadata != NULL, 0}};
    fbb_patch(&w->fb, hdr, fbb_table(&w->fb, f, 3, at));
    size_t vec = fbb_vector(&w->fb, (size_t)s->n_children, 4, 4);
    fbb_patch(&w->fb, at[1], vec);
    for (int64_t i = 0; i < s->n_children; i++) {
        size_t kid;
        npydt_status st = put_field(w, s->children[i], 1, &kid);
        if (st != NPYDT_OK)
            return st;
        fbb_patch(&w->fb, vec + 4 + 4 * (size_t)i, kid);
    }
    if (s->metadata)
        fbb_patch(&w->fb, at[2], put_metadata(w, s->metadata));
    return put_message(w);
}

/* ---- the batches -------------------------------------------------------------- */

static void *scratch(struct writer *w, size_t size)
{
    void *p = alloc_bytes(w->a, size ? size : 1);
    if (!p)
        return NULL;
    w->scratch[w->nscratch] = p;
    w->scratch_size[w->nscratch++] = size ? size : 1;
    return p;
}

static bool bit(const unsigned char *b, uint64_t i)
{
    return (b[i / 8] >> (i % 8)) & 1;
}

static uint64_t count_unset(const unsigned char *b, uint64_t from, uint64_t n)
{
    uint64_t set = 0, i = 0;
    for (; i < n && (from + i) % 8; i++)
        set += bit(b, from + i);
    for (; n - i >= 8; i += 8)
        set += (uint64_t)__builtin_popcount(b[(from + i) / 8]);
    for (; i < n; i++)
        set += bit(b, from + i);
    return n - set;
}

/* Bits [from, from + n) of b as a buffer starting at bit 0. */
static npydt_status bits(struct writer *w, const unsigned char *b, uint64_t from, uint64_t n)
{
    uint64_t bytes = ipc_bitmap_bytes(n);
    struct wbuf *o = &w->bufs[w->nbufs++];
    o->len = bytes;
    o->arr = NULL;
    if (from % 8 == 0) {
        o->p = b + from / 8;
        return NPYDT_OK;
    }
    if (bytes > SIZE_MAX)
        return set_nomem(w->err);
    unsigned char *d = scratch(w, (size_t)bytes);
    if (!d)
        return set_nomem(w->err);
    memset(d, 0, (size_t)bytes);
    for (uint64_t i = 0; i < n; i++)
        d[i / 8] |= (unsigned char)(bit(b, from + i) << (i % 8));
    o->p = d;
    return NPYDT_OK;
}

static void slice(struct writer *w, const struct ArrowArray *a, const void *p, uint64_t off,
                  uint64_t len)
{
    struct wbuf *o = &w->bufs[w->nbufs++];
    o->p = len ? (const unsigned char *)p + off : zeros;
    o->len = len;
    o->arr = len ? a : NULL;
}

/* Column *i of the schema: values [pos, pos + len) of a, physical. */
static npydt_status put_column(struct writer *w, const struct ArrowArray *a, size_t *i,
                               uint64_t pos, uint64_t len)
{
    const struct wcol *c = &w->cols[(*i)++];
    const struct ipc_type *t = &c->t;
    if (a->n_buffers != t->buffers || a->n_children != c->nkids || !a->buffers ||
        (c->nkids && !a->children) || a->offset < 0 || a->length < 0 ||
        pos < (uint64_t)a->offset || pos - (uint64_t)a->offset > (uint64_t)a->length ||
        len > (uint64_t)a->length - (pos - (uint64_t)a->offset))
        return set_error(w->err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, c->name,
                         "the array does not have the layout of its format "
                         "(%lld buffers, %lld children, length %lld, offset %lld)",
                         (long long)a->n_buffers, (long long)a->n_children,
                         (long long)a->length, (long long)a->offset);
    int64_t *node = w->nodes[w->nnodes++];
    node[0] = (int64_t)len;
    const unsigned char *valid = a->buffers[0];
    uint64_t nulls = valid && a->null_count != 0 ? count_unset(valid, pos, len) : 0;
    node[1] = (int64_t)nulls;
    npydt_status st = NPYDT_OK;
    if (nulls)
        st = bits(w, valid, pos, len);
    else
        slice(w, NULL, NULL, 0, 0);
    if (st != NPYDT_OK)
        return st;
    const unsigned char *data = t->buffers > 1 ? a->buffers[1] : NULL;
    if (t->buffers > 1 && !data && len)
        return set_error(w->err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, c->name,
                         "the data buffer is NULL");
    switch (t->fb) {
    case FB_TYPE_BOOL:
        return len ? bits(w, data, pos, len) : (slice(w, NULL, NULL, 0, 0), NPYDT_OK);
    case FB_TYPE_BINARY:
    case FB_TYPE_UTF8: {
        const unsigned char *chars = a->buffers[2];
        int32_t first = 0, last = 0;
        if (data) {
            memcpy(&first, data + 4 * pos, 4);
            memcpy(&last, data + 4 * (pos + len), 4);
        }
        if (first < 0 || last < first || (last > first && !chars))
            return set_error(w->err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, c->name,
                             "offsets %ld to %ld", (long)first, (long)last);
        if (first == 0 && data) {
            slice(w, a, data, 4 * pos, 4 * (len + 1));
        } else {
            int32_t *o = scratch(w, 4 * (size_t)(len + 1));
            if (!o)
                return set_nomem(w->err);
            for (uint64_t k = 0; k <= len; k++) {
                int32_t v = 0;
                if (data)
                    memcpy(&v, data + 4 * (pos + k), 4);
                o[k] = v - first;
            }
            slice(w, NULL, o, 0, 4 * (len + 1));
        }
        slice(w, a, chars, (uint64_t)first, (uint64_t)(last - first));
        return NPYDT_OK;
    }
    case FB_TYPE_STRUCT:
        for (int64_t k = 0; k < c->nkids; k++) {
            const struct ArrowArray *kid = a->children[k];
            if ((st = put_column(w, kid, i, (uint64_t)kid->offset + pos, len)) != NPYDT_OK)
                return st;
        }
        return NPYDT_OK;
    case FB_TYPE_FIXED_LIST: {
        const struct ArrowArray *kid = a->children[0];
        uint64_t n = (uint64_t)t->size;
        if (pos > UINT64_MAX / (n ? n : 1) || len > UINT64_MAX / (n ? n : 1))
            return set_error(w->err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, c->name,
                             "the list's values overflow");
        return put_column(w, kid, i, (uint64_t)kid->offset + pos * n, len * n);
    }
    default:
        slice(w, a, data, pos * t->width, len * t->width);
        return NPYDT_OK;
    }
}

static void free_scratch(struct writer *w)
{
    for (size_t k = 0; k < w->nscratch; k++)
        free_bytes(w->a, w->scratch[k], w->scratch_size[k]);
    w->nscratch = 0;
}

/* Does buffer next follow the n bytes from the start of first (first's
 * and the buffers joined to it) in the same block, as the body lays them
 * out: at n rounded up to 8, zeros in between? */
static bool joins(const struct wbuf *first, uint64_t n, const struct wbuf *next)
{
    uint64_t padded = (n + 7) / 8 * 8;
    if (!first->arr || !next->arr || padded > SIZE_MAX ||
        (uintptr_t)next->p - (uintptr_t)first->p != padded)
        return false;
    const struct arrow_shared *b = arrow_array_block_of(first->arr, first->p, (size_t)padded);
    if (!b || arrow_array_block_of(next->arr, next->p, (size_t)next->len) != b)
        return false;
    const unsigned char *pad = (const unsigned char *)first->p + n;
    return memcmp(pad, zeros, (size_t)(padded - n)) == 0;
}

static npydt_status put_batch(struct writer *w, const struct ArrowArray *root)
{
    w->nnodes = w->nbufs = 0;
    size_t i = 0;
    npydt_status st = NPYDT_OK;
    if (root->n_children != w->cols[0].nkids || root->length < 0 || root->offset < 0 ||
        (root->n_children && !root->children))
        return set_error(w->err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, NULL,
                         "a batch has %lld columns, not the schema's %lld",
                         (long long)root->n_children, (long long)w->cols[0].nkids);
    uint64_t pos = (uint64_t)root->offset, len = (uint64_t)root->length;
    i = 1;
    for (int64_t k = 0; k < root->n_children && st == NPYDT_OK; k++) {
        const struct ArrowArray *kid = root->children[k];
        st = put_column(w, kid, &i, (uint64_t)kid->offset + pos, len);
    }
    if (st != NPYDT_OK)
        return st;
    uint64_t body = 0;
    for (size_t k = 0; k < w->nbufs; k++)
        body = sat_add(body, (w->bufs[k].len + 7) / 8 * 8);
    if (body > INT64_MAX)
        return set_error(w->err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "a batch's body passes int64");
    size_t hdr = message_table(w, FB_MSG_RECORD_BATCH, body);
    size_t at[3];
    struct fbb_field f[3] = {{8, false, len}, {4, true, 0}, {4, true, 0}};
    fbb_patch(&w->fb, hdr, fbb_table(&w->fb, f, 3, at));
    size_t nv = fbb_vector(&w->fb, w->nnodes, 16, 8);
    fbb_patch(&w->fb, at[1], nv);
    for (size_t k = 0; k < w->nnodes && !w->fb.failed; k++) {
        text_store_le64(w->fb.p + nv + 4 + 16 * k, (uint64_t)w->nodes[k][0]);
        text_store_le64(w->fb.p + nv + 12 + 16 * k, (uint64_t)w->nodes[k][1]);
    }
    size_t bv = fbb_vector(&w->fb, w->nbufs, 16, 8);
    fbb_patch(&w->fb, at[2], bv);
    uint64_t off = 0;
    for (size_t k = 0; k < w->nbufs && !w->fb.failed; k++) {
        text_store_le64(w->fb.p + bv + 4 + 16 * k, off);
        text_store_le64(w->fb.p + bv + 12 + 16 * k, w->bufs[k].len);
        off += (w->bufs[k].len + 7) / 8 * 8;
    }
    st = put_message(w);
    for (size_t k = 0; k < w->nbufs && st == NPYDT_OK;) {
        /* buffers one after the other in one block, zeros between them,
         * go as one piece */
        const unsigned char *p = w->bufs[k].p;
        uint64_t n = w->bufs[k].len;
        size_t j = k + 1;
        while (j < w->nbufs && (w->bufs[j].len == 0 || joins(&w->bufs[k], n, &w->bufs[j]))) {
            if (w->bufs[j].len)
                n = (n + 7) / 8 * 8 + w->bufs[j].len;
            j++;
        }
        k = j;
        for (uint64_t done = 0; done < n && st == NPYDT_OK;) {
            size_t piece = n - done > ((size_t)1 << 30) ? (size_t)1 << 30 : (size_t)(n - done);
            st = out(w, p + done, piece);
            done += piece;
        }
        if (st == NPYDT_OK)
            st = out(w, zeros, (size_t)((8 - n % 8) % 8));
    }
    return st;
}

static npydt_status run(struct writer *w, struct ArrowArrayStream *in)
{
    struct ArrowSchema schema;
    schema.release = NULL;
    int rc = in->get_schema(in, &schema);
    if (rc != 0)
        return stream_failed(w, in, rc, "get_schema");
    /* the root struct is column 0 */
    struct wcol root = {{0}, schema.n_children, ""};
    root.t.fb = FB_TYPE_STRUCT;
    root.t.buffers = 1;
    w->cols = alloc_bytes(w->a, 16 * sizeof *w->cols);
    npydt_status st = w->cols ? NPYDT_OK : set_nomem(w->err);
    if (st == NPYDT_OK) {
        w->cap_cols = 16;
        w->cols[w->ncols++] = root;
        st = put_schema(w, &schema);
    }
    schema.release(&schema);
    if (st != NPYDT_OK)
        return st;
    /* a batch's nodes, buffers and scratch blocks: one each per column at most */
    size_t n = w->ncols;
    w->nodes = alloc_bytes(w->a, n * sizeof *w->nodes);
    w->bufs = alloc_bytes(w->a, w->nbufs_per_batch * sizeof *w->bufs + 1);
    w->scratch = alloc_bytes(w->a, 2 * n * sizeof *w->scratch);
    w->scratch_size = alloc_bytes(w->a, 2 * n * sizeof *w->scratch_size);
    if (!w->nodes || !w->bufs || !w->scratch || !w->scratch_size)
        return set_nomem(w->err);
    for (;;) {
        struct ArrowArray batch;
        batch.release = NULL;
        rc = in->get_next(in, &batch);
        if (rc != 0)
            return stream_failed(w, in, rc, "get_next");
        if (!batch.release)
            break;
        st = put_batch(w, &batch);
        free_scratch(w);
        batch.release(&batch);
        if (st != NPYDT_OK)
            return st;
    }
    unsigned char eos[8];
    text_store_le32(eos, 0xFFFFFFFFu);
    text_store_le32(eos + 4, 0);
    st = out(w, eos, 8);
    return st == NPYDT_OK ? flush(w) : st;
}

npydt_status npydt_arrow_ipc_write(struct ArrowArrayStream *in, const npydt_npz_sink *sink,
                                   const npydt_arrow_ipc_options *opts, uint64_t *written,
                                   npydt_error *err)
{
    error_clear(err);
    if (written)
        *written = 0;
    if (!in || !in->release || !sink || !sink->write)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "the stream or the sink is NULL or released");
    npydt_arrow_ipc_options o;
    npydt_status st = ipc_options_resolve(opts, &o, err);
    if (st != NPYDT_OK)
        return st;
    struct writer w;
    memset(&w, 0, sizeof w);
    w.a = o.base.allocator;
    w.sink = sink;
    w.max_depth = o.base.limits.max_depth;
    w.err = err;
    w.fb.alloc = w.a;
    w.stage = alloc_bytes(w.a, STAGE_BYTES);
    st = w.stage ? run(&w, in) : set_nomem(err);
    free_bytes(w.a, w.stage, STAGE_BYTES);
    size_t n = w.ncols;
    free_bytes(w.a, w.fb.p, w.fb.cap);
    free_bytes(w.a, w.cols, w.cap_cols * sizeof *w.cols);
    free_bytes(w.a, w.nodes, n * sizeof *w.nodes);
    free_bytes(w.a, w.bufs, w.nbufs_per_batch * sizeof *w.bufs + 1);
    free_bytes(w.a, w.scratch, 2 * n * sizeof *w.scratch);
    free_bytes(w.a, w.scratch_size, 2 * n * sizeof *w.scratch_size);
    if (written)
        *written = w.written;
    return st;
}

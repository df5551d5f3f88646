/* A RecordBatch message as an ArrowArray: its field nodes and buffers
 * walked in pre-order along the schema's columns, every length, count
 * and range checked against the body (values read only where their
 * bytes must be checked: bitmaps' counts, offsets and UTF-8), each buffer
 * pointing into the body where it is shared and 8-byte aligned, else
 * copied into the array that owns it. */
#include "arrow/ipc.h"

#include <stdio.h>

struct bctx {
    const struct ipc_batch_in *in;
    npydt_error *err;
    size_t nodes, bufs;   /* vectors' data */
    size_t node, buf;     /* next of each */
    size_t col;
};

static npydt_status bad(struct bctx *c, uint64_t at, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static npydt_status bad(struct bctx *c, uint64_t at, const char *name, const char *fmt, ...)
{
    char msg[160], shown[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    name_for_message(shown, sizeof shown, name, strlen(name));
    return set_error(c->err, NPYDT_E_DATA, at > SIZE_MAX ? NPYDT_NO_OFFSET : (size_t)at, shown,
                     "Arrow IPC: %s", msg);
}

/* The next buffer: where it starts in the body and its bytes. */
static npydt_status buffer(struct bctx *c, const char *name, uint64_t *off, uint64_t *len)
{
    const struct fbr *r = c->in->r;
    size_t at = c->bufs + 16 * c->buf++;
    *off = text_load_le64(r->p + at);
    *len = text_load_le64(r->p + at + 8);
    if (*off > c->in->body_len || *len > c->in->body_len - *off)
        return bad(c, r->at + at, name, "buffer %zu (bytes %llu, %llu long) passes the body of "
                   "%llu bytes", c->buf - 1, (unsigned long long)*off, (unsigned long long)*len,
                   (unsigned long long)c->in->body_len);
    return NPYDT_OK;
}

/* Slot i of out: n bytes of the body from off. */
static npydt_status copy(struct bctx *c, struct ArrowArray *out, int64_t i, uint64_t off,
                         uint64_t n)
{
    if (n > SIZE_MAX)
        return set_nomem(c->err);
    const unsigned char *src = c->in->body + off;
    if (c->in->shared && n && (uintptr_t)src % 8 == 0) {
        arrow_array_borrow_block(out, i, c->in->shared, src);
        return NPYDT_OK;
    }
    if (!arrow_array_copy(out, i, src, (size_t)n))
        return set_nomem(c->err);
    return NPYDT_OK;
}

static uint64_t unset_bits(const unsigned char *b, uint64_t n)
{
    uint64_t set = 0, i = 0;
    for (; n - i >= 8; i += 8)
        set += (uint64_t)__builtin_popcount(b[i / 8]);
    for (; i < n; i++)
        set += (b[i / 8] >> (i % 8)) & 1;
    return n - set;
}

static npydt_status offsets(struct bctx *c, const char *name, bool utf8, struct ArrowArray *out,
                            uint64_t length)
{
    uint64_t ooff, olen, doff, dlen;
    npydt_status st;
    if ((st = buffer(c, name, &ooff, &olen)) != NPYDT_OK ||
        (st = buffer(c, name, &doff, &dlen)) != NPYDT_OK)
        return st;
    uint64_t need = (length + 1) * 4;   /* length is below the body's bytes */
    if (olen < need)
        return bad(c, c->in->body_at + ooff, name, "%llu bytes of offsets for %llu values",
                   (unsigned long long)olen, (unsigned long long)length);
    const unsigned char *o = c->in->body + ooff;
    int64_t prev = 0;
    for (uint64_t k = 0; k <= length; k++) {
        int32_t v = (int32_t)text_load32(o + 4 * k, false);
        if (v < prev || (uint64_t)v > dlen)
            return bad(c, c->in->body_at + ooff + 4 * k, name,
                       "offset %llu is %ld, after %lld, with %llu bytes of values",
                       (unsigned long long)k, (long)v, (long long)prev, (unsigned long long)dlen);
        if (utf8 && k > 0) {
            const unsigned char *s = c->in->body + doff + prev;
            size_t n = (size_t)(v - prev);
            for (size_t j = 0; j < n;) {
                uint32_t cp;
                size_t used = text_utf8_decode(s + j, n - j, &cp);
                if (!used)
                    return bad(c, c->in->body_at + doff + (uint64_t)prev + j, name,
                               "value %llu is not UTF-8", (unsigned long long)k - 1);
                j += used;
            }
        }
        prev = v;
    }
    if ((st = copy(c, out, 1, ooff, need)) != NPYDT_OK)
        return st;
    return copy(c, out, 2, doff, (uint64_t)prev);
}

static npydt_status column(struct bctx *c, struct ArrowArray *out, uint64_t want)
{
    const struct ipc_col *col = &c->in->cols[c->col++];
    const struct ipc_type *t = &col->t;
    const struct fbr *r = c->in->r;
    size_t at = c->nodes + 16 * c->node++;
    uint64_t length = text_load_le64(r->p + at);
    uint64_t nulls = text_load_le64(r->p + at + 8);
    if (length != want || nulls > length)
        return bad(c, r->at + at, col->name,
                   "a node of length %lld with %lld nulls where %llu values belong",
                   (long long)length, (long long)nulls, (unsigned long long)want);
    npydt_status st = arrow_array_node(c->in->alloc, out, (int64_t)length, t->buffers,
                                       col->nkids, c->err);
    if (st != NPYDT_OK)
        return st;
    uint64_t off, len;
    if ((st = buffer(c, col->name, &off, &len)) != NPYDT_OK)
        goto fail;
    if (nulls) {
        uint64_t bytes = ipc_bitmap_bytes(length);
        if (len < bytes) {
            st = bad(c, c->in->body_at + off, col->name,
                     "a validity bitmap of %llu bytes for %llu values", (unsigned long long)len,
                     (unsigned long long)length);
            goto fail;
        }
        uint64_t counted = unset_bits(c->in->body + off, length);
        if (counted != nulls) {
            st = bad(c, c->in->body_at + off, col->name,
                     "the validity bitmap has %llu nulls, the node says %llu",
                     (unsigned long long)counted, (unsigned long long)nulls);
            goto fail;
        }
        if ((st = copy(c, out, 0, off, bytes)) != NPYDT_OK)
            goto fail;
        out->null_count = (int64_t)nulls;
    }
    switch (t->fb) {
    case FB_TYPE_STRUCT:
        for (uint32_t k = 0; k < col->nkids && st == NPYDT_OK; k++)
            st = column(c, out->children[k], length);
        break;
    case FB_TYPE_FIXED_LIST: {
        uint64_t n;
        if (!ck_mul(length, (uint64_t)t->size, &n) || n > INT64_MAX) {
            st = bad(c, r->at + at, col->name, "%llu lists of %ld values overflow",
                     (unsigned long long)length, (long)t->size);
            break;
        }
        st = column(c, out->children[0], n);
        break;
    }
    case FB_TYPE_BINARY:
    case FB_TYPE_UTF8:
        /* length + 1 offsets must fit their buffer (so the count of
         * bytes below cannot overflow) */
        if ((st = buffer(c, col->name, &off, &len)) != NPYDT_OK)
            break;
        c->buf--;
        if (len < 4 || length > len / 4 - 1) {
            st = bad(c, c->in->body_at + off, col->name,
                     "%llu bytes of offsets for %llu values", (unsigned long long)len,
                     (unsigned long long)length);
            break;
        }
        st = offsets(c, col->name, t->fb == FB_TYPE_UTF8, out, length);
        break;
    default: {
        if ((st = buffer(c, col->name, &off, &len)) != NPYDT_OK)
            break;
        uint64_t need;
        if (t->fb == FB_TYPE_BOOL)
            need = ipc_bitmap_bytes(length);
        else if (!ck_mul(length, t->width, &need))
            need = UINT64_MAX;
        if (len < need) {
            st = bad(c, c->in->body_at + off, col->name,
                     "a data buffer of %llu bytes for %llu values of %zu bytes",
                     (unsigned long long)len, (unsigned long long)length, t->width);
            break;
        }
        st = copy(c, out, 1, off, need);
        break;
    }
    }
    if (st == NPYDT_OK)
        return NPYDT_OK;
fail:
    out->release(out);
    return st;
}

npydt_status ipc_batch_decode(const struct ipc_batch_in *in, struct ArrowArray *out,
                              npydt_error *err)
{
    const struct fbr *r = in->r;
    struct bctx c = {in, err, 0, 0, 0, 0, 1};
    uint64_t length;
    size_t nv, bv, comp;
    uint32_t nn = 0, nb = 0;
    out->release = NULL;
    npydt_status st;
    if ((st = fbr_uint(r, in->table, 0, 8, 0, "length", &length)) != NPYDT_OK ||
        (st = fbr_ref(r, in->table, 1, "nodes", &nv)) != NPYDT_OK ||
        (st = fbr_ref(r, in->table, 2, "buffers", &bv)) != NPYDT_OK ||
        (st = fbr_ref(r, in->table, 3, "compression", &comp)) != NPYDT_OK)
        return st;
    if (comp)
        return set_error(err, NPYDT_E_TYPE, (size_t)r->at, NULL,
                         "Arrow IPC: compressed record batches are not read by npydt");
    if (nv && (st = fbr_vector(r, nv, 16, "nodes", &nn, &c.nodes)) != NPYDT_OK)
        return st;
    if (bv && (st = fbr_vector(r, bv, 16, "buffers", &nb, &c.bufs)) != NPYDT_OK)
        return st;
    if (length > INT64_MAX || nn != in->ncols - 1 || nb != in->nbufs)
        return fbr_fail(r, in->table->pos,
                        "a record batch of %lld rows has %lu nodes and %lu buffers where the "
                        "schema has %zu and %zu", (long long)length, (unsigned long)nn,
                        (unsigned long)nb, in->ncols - 1, in->nbufs);
    const struct ipc_col *root = &in->cols[0];
    if ((st = arrow_array_node(in->alloc, out, (int64_t)length, 1, root->nkids, err)) != NPYDT_OK)
        return st;
    for (uint32_t k = 0; k < root->nkids && st == NPYDT_OK; k++)
        st = column(&c, out->children[k], length);
    if (st != NPYDT_OK)
        out->release(out);
    return st;
}

/* Flatbuffers for the Arrow IPC messages, by the Flatbuffers binary
 * format: little-endian scalars; a table starts with the int32 distance
 * back to its vtable (uint16 vtable bytes, uint16 table bytes, a uint16
 * offset per field, 0 when absent); references are uint32 distances
 * forward; vectors and strings start with a uint32 count. The builder
 * writes front to back; the reader checks every position it follows. */
#include "arrow/ipc.h"

#include <stdio.h>

/* ---- building --------------------------------------------------------------- */

/* Room for n more bytes; false (and failed) when memory runs out. */
static bool room(struct fbb *b, size_t n)
{
    if (b->failed)
        return false;
    if (n <= b->cap - b->len)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n) {
        if (cap > SIZE_MAX / 4) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    unsigned char *p = realloc_bytes(b->alloc, b->p, b->cap, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

/* Zeros until (len + extra) is a multiple of align. */
static void pad(struct fbb *b, size_t align, size_t extra)
{
    size_t n = (align - (b->len + extra) % align) % align;
    if (n && room(b, n)) {
        memset(b->p + b->len, 0, n);
        b->len += n;
    }
}

static size_t put(struct fbb *b, const void *s, size_t n)
{
    size_t at = b->len;
    if (room(b, n)) {
        if (n)
            memcpy(b->p + b->len, s, n);
        b->len += n;
    }
    return at;
}

size_t fbb_table(struct fbb *b, const struct fbb_field *f, size_t nf, size_t *at)
{
    /* fields laid out by size, largest first, after the vtable offset */
    size_t off[FBB_MAX_FIELDS] = {0};
    size_t tlen = 4;
    bool has8 = false;
    for (size_t sz = 8; sz >= 1; sz /= 2)
        for (size_t i = 0; i < nf; i++) {
            size_t s = f[i].ref ? 4 : f[i].size;
            if (s != sz)
                continue;
            off[i] = tlen;
            tlen += s;
            has8 = has8 || s == 8;
        }
    unsigned char vt[4 + 2 * FBB_MAX_FIELDS];
    text_store_le16(vt, (uint16_t)(4 + 2 * nf));
    text_store_le16(vt + 2, (uint16_t)tlen);
    for (size_t i = 0; i < nf; i++)
        text_store_le16(vt + 4 + 2 * i, (uint16_t)off[i]);
    pad(b, 2, 0);
    size_t vpos = put(b, vt, 4 + 2 * nf);
    /* the table: 8-byte fields land on multiples of 8 */
    pad(b, has8 ? 8 : 4, has8 ? 4 : 0);
    size_t tpos = b->len;
    if (!room(b, tlen))
        return tpos;
    unsigned char *t = b->p + tpos;
    memset(t, 0, tlen);
    text_store_le32(t, (uint32_t)(tpos - vpos));
    for (size_t i = 0; i < nf; i++) {
        if (at)
            at[i] = tpos + off[i];
        if (f[i].ref || !f[i].size)
            continue;
        text_store_uint(t + off[i], f[i].size, TEXT_HOST_BIG, f[i].value);
    }
    b->len += tlen;
    return tpos;
}

void fbb_patch(struct fbb *b, size_t at, size_t target)
{
    if (!b->failed)
        text_store_le32(b->p + at, (uint32_t)(target - at));
}

size_t fbb_vector(struct fbb *b, size_t n, size_t elem, size_t align)
{
    pad(b, align > 4 ? align : 4, 4);
    size_t at = b->len;
    if (!room(b, 4 + n * elem))
        return at;
    text_store_le32(b->p + at, (uint32_t)n);
    memset(b->p + at + 4, 0, n * elem);
    b->len += 4 + n * elem;
    return at;
}

size_t fbb_string(struct fbb *b, const char *s, size_t n)
{
    pad(b, 4, 0);
    size_t at = b->len;
    unsigned char len[4];
    text_store_le32(len, (uint32_t)n);
    put(b, len, 4);
    put(b, s, n);
    put(b, "", 1);
    return at;
}

/* ---- reading ---------------------------------------------------------------- */

npydt_status fbr_fail(const struct fbr *r, size_t pos, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uint64_t off = r->at + (pos < r->len ? pos : r->len);
    return set_error(r->err, NPYDT_E_DATA, off > SIZE_MAX ? NPYDT_NO_OFFSET : (size_t)off, NULL,
                     "Arrow IPC: %s", msg);
}

/* n bytes at pos lie inside the buffer */
static bool inside(const struct fbr *r, size_t pos, size_t n)
{
    return pos <= r->len && n <= r->len - pos;
}

npydt_status fbr_table(const struct fbr *r, size_t pos, const char *what, struct fbt *t)
{
    if (!inside(r, pos, 4))
        return fbr_fail(r, pos, "the %s table is outside the message", what);
    int64_t soff = (int32_t)text_load_le32(r->p + pos);
    int64_t vt = (int64_t)pos - soff;
    if (vt < 0 || !inside(r, (size_t)vt, 4))
        return fbr_fail(r, pos, "the vtable of the %s table is outside the message", what);
    t->pos = pos;
    t->vt = (size_t)vt;
    t->vtlen = text_load_le16(r->p + t->vt);
    t->tlen = text_load_le16(r->p + t->vt + 2);
    if (t->vtlen < 4 || t->vtlen % 2 || !inside(r, t->vt, t->vtlen))
        return fbr_fail(r, t->vt, "the vtable of the %s table has a bad size (%zu bytes)", what,
                        t->vtlen);
    if (t->tlen < 4 || !inside(r, pos, t->tlen))
        return fbr_fail(r, pos, "the %s table of %zu bytes passes the message", what, t->tlen);
    return NPYDT_OK;
}

npydt_status fbr_root(const struct fbr *r, struct fbt *t)
{
    if (!inside(r, 0, 4))
        return fbr_fail(r, 0, "the message metadata is shorter than 4 bytes");
    return fbr_table(r, text_load_le32(r->p), "Message", t);
}

/* The position of field id of t, 0 when absent; NPYDT_E_DATA when its
 * size bytes pass the table. */
static npydt_status field(const struct fbr *r, const struct fbt *t, unsigned id, size_t size,
                          const char *what, size_t *pos)
{
    *pos = 0;
    size_t slot = 4 + 2 * (size_t)id;
    if (slot + 2 > t->vtlen)
        return NPYDT_OK;
    size_t off = text_load_le16(r->p + t->vt + slot);
    if (off == 0)
        return NPYDT_OK;
    if (off < 4 || off > t->tlen || size > t->tlen - off)
        return fbr_fail(r, t->pos, "the field %s passes its table", what);
    *pos = t->pos + off;
    return NPYDT_OK;
}

npydt_status fbr_uint(const struct fbr *r, const struct fbt *t, unsigned id, size_t size,
                      uint64_t dflt, const char *what, uint64_t *out)
{
    size_t pos;
    npydt_status st = field(r, t, id, size, what, &pos);
    if (st != NPYDT_OK)
        return st;
    *out = pos ? text_load_uint(r->p + pos, size, TEXT_HOST_BIG) : dflt;
    return NPYDT_OK;
}

npydt_status fbr_ref(const struct fbr *r, const struct fbt *t, unsigned id, const char *what,
                     size_t *target)
{
    size_t pos;
    npydt_status st = field(r, t, id, 4, what, &pos);
    *target = 0;
    if (st != NPYDT_OK || !pos)
        return st;
    uint64_t to = (uint64_t)pos + text_load_le32(r->p + pos);
    if (to >= r->len || to == pos)
        return fbr_fail(r, pos, "the reference of %s points outside the message", what);
    *target = (size_t)to;
    return NPYDT_OK;
}

npydt_status fbr_vector(const struct fbr *r, size_t pos, size_t elem, const char *what,
                        uint32_t *n, size_t *data)
{
    if (!inside(r, pos, 4))
        return fbr_fail(r, pos, "the %s vector is outside the message", what);
    *n = text_load_le32(r->p + pos);
    *data = pos + 4;
    if ((uint64_t)*n * elem > r->len - *data)
        return fbr_fail(r, pos, "the %s vector of %lu elements passes the message", what,
                        (unsigned long)*n);
    return NPYDT_OK;
}

npydt_status fbr_string(const struct fbr *r, size_t pos, const char *what, const char **s,
                        size_t *n)
{
    uint32_t len = 0;
    size_t data = 0;
    npydt_status st = fbr_vector(r, pos, 1, what, &len, &data);
    if (st != NPYDT_OK)
        return st;
    if (len == r->len - data || r->p[data + len] != 0)
        return fbr_fail(r, pos, "the %s string has no NUL after it", what);
    *s = (const char *)r->p + data;
    *n = len;
    return NPYDT_OK;
}

npydt_status fbr_vector_table(const struct fbr *r, size_t data, uint32_t i, const char *what,
                              struct fbt *t)
{
    size_t at = data + 4 * (size_t)i;
    uint64_t to = (uint64_t)at + text_load_le32(r->p + at);
    if (to >= r->len || to == at)
        return fbr_fail(r, at, "the %s reference points outside the message", what);
    return fbr_table(r, (size_t)to, what, t);
}

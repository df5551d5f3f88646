/* An Arrow IPC stream (a buffer, or a descriptor read message by message)
 * as an ArrowArrayStream: the framing and the Message table, the Schema
 * (kept as its metadata bytes; each get_schema builds the ArrowSchema from
 * them again) and, through ipc_batch.c, the record batches. */
#include "arrow/ipc.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

struct reader {
    const npydt_allocator *a;
    npydt_arrow_ipc_options o;
    const unsigned char *buf;   /* the whole stream (buffer), or NULL (fd) */
    size_t len;
    int fd;
    uint64_t pos;               /* bytes of the stream consumed */
    bool ended;
    int failed;                 /* the errno of a sticky failure */
    unsigned char *schema;      /* the Schema message's metadata */
    size_t schema_len;
    uint64_t schema_at;
    struct ipc_col *cols;
    size_t ncols, cols_cap, nbufs;
    unsigned char *meta, *body; /* what was read from fd */
    size_t meta_cap, body_cap;
    struct arrow_shared *batch; /* a record batch's body read from fd: the
                                 * arrays point into it; reused once they
                                 * are all released */
    npydt_error err;
    char err_text[ARROW_ERROR_TEXT_SIZE];   /* get_last_error's */
};

/* ---- bytes from the source ---------------------------------------------------- */

static npydt_status grow(struct reader *rd, unsigned char **p, size_t *cap, size_t n)
{
    if (n <= *cap)
        return NPYDT_OK;
    unsigned char *q = realloc_bytes(rd->a, *p, *cap, n);
    if (!q)
        return set_nomem(&rd->err);
    *p = q;
    *cap = n;
    return NPYDT_OK;
}

/* Up to n bytes of the descriptor into dst (*got of them: fewer only at
 * the end). */
static npydt_status read_into(struct reader *rd, unsigned char *dst, size_t n, size_t *got)
{
    size_t have = 0;
    while (have < n) {
        size_t want = n - have < ((size_t)1 << 30) ? n - have : (size_t)1 << 30;
        ssize_t k = read(rd->fd, dst + have, want);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return set_error(&rd->err, NPYDT_E_IO, (size_t)(rd->pos + have), NULL,
                             "reading the Arrow IPC stream: %s", TEXT_ERRNO(errno));
        if (k == 0)
            break;
        have += (size_t)k;
    }
    *got = have;
    rd->pos += have;
    return NPYDT_OK;
}

/* Up to n bytes at the stream's position into *out (*got of them: fewer
 * only at the end), read into *scratch from a descriptor. */
static npydt_status take(struct reader *rd, size_t n, unsigned char **scratch, size_t *cap,
                         const unsigned char **out, size_t *got)
{
    if (rd->buf) {
        size_t left = rd->len - (size_t)rd->pos;
        *got = n < left ? n : left;
        *out = rd->buf + rd->pos;
        rd->pos += *got;
        return NPYDT_OK;
    }
    npydt_status st = grow(rd, scratch, cap, n ? n : 1);
    if (st != NPYDT_OK)
        return st;
    *out = *scratch;
    return read_into(rd, *scratch, n, got);
}

/* The body of a record batch of n bytes from a descriptor, read straight
 * into the block its arrays share: the last one's again when they are
 * all released, else a new one. */
static npydt_status take_batch(struct reader *rd, size_t n, const unsigned char **out,
                               size_t *got)
{
    if (rd->batch && !arrow_shared_alone(rd->batch)) {
        arrow_shared_unref(rd->batch);
        rd->batch = NULL;
    }
    if (!rd->batch && !(rd->batch = arrow_shared_new(rd->a)))
        return set_nomem(&rd->err);
    unsigned char *p = arrow_shared_bytes(rd->batch, n);
    if (!p)
        return set_nomem(&rd->err);
    *out = p;
    return read_into(rd, p, n, got);
}
static npydt_status fail_at(struct reader *rd, npydt_status code, uint64_t at, const char *fmt,
                            ...) __attribute__((format(printf, 4, 5)));
static npydt_status fail_at(struct reader *rd, npydt_status code, uint64_t at, const char *fmt,
                            ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return set_error(&rd->err, code, at > SIZE_MAX ? NPYDT_NO_OFFSET : (size_t)at, NULL,
                     "Arrow IPC: %s", msg);
}

/* A message: *end at the end of the stream, else its header's type and
 * table (in r, whose bytes stay until the next message) and its body. */
struct message {
    bool end;
    unsigned type;
    struct fbr r;
    struct fbt header;
    const unsigned char *body;
    uint64_t body_len, body_at;
};

static npydt_status next_message(struct reader *rd, struct message *m)
{
    memset(m, 0, sizeof *m);
    const unsigned char *p;
    size_t got;
    uint64_t start = rd->pos;
    unsigned char pre[8];
    npydt_status st = take(rd, 4, &rd->meta, &rd->meta_cap, &p, &got);
    if (st != NPYDT_OK)
        return st;
    if (got == 0) {
        m->end = true;   /* the end without the marker, as readers accept */
        return NPYDT_OK;
    }
    if (got < 4)
        return fail_at(rd, NPYDT_E_DATA, start, "the stream ends inside a message's length");
    memcpy(pre, p, 4);
    if (start > 0 && got == 4) {
        /* a file after the messages of a stream without its end marker */
        if (memcmp(pre, "\x93NUM", 4) == 0)
            return fail_at(rd, NPYDT_E_MAGIC, start,
                           "where a message belongs: a .npy file, not an Arrow IPC stream "
                           "(dump --arrow writes one)");
        if (memcmp(pre, "PK\x03\x04", 4) == 0 || memcmp(pre, "PK\x05\x06", 4) == 0)
            return fail_at(rd, NPYDT_E_MAGIC, start,
                           "where a message belongs: a zip archive (.npz), not an Arrow IPC "
                           "stream");
    }
    if (start == 0 && got == 4) {
        /* what the first bytes say the input is, when it is no stream */
        if (memcmp(pre, "ARRO", 4) == 0)
            return fail_at(rd, NPYDT_E_MAGIC, 0,
                           "an Arrow IPC file (ARROW1 ... footer), not a stream: its schema "
                           "is in its footer; write it as a stream (pyarrow.ipc.new_stream, "
                           "Arrow JS tableToIPC(t, 'stream'))");
        if (memcmp(pre, "\x93NUM", 4) == 0)
            return fail_at(rd, NPYDT_E_MAGIC, 0,
                           "a .npy file, not an Arrow IPC stream (dump --arrow writes one)");
        if (memcmp(pre, "PK\x03\x04", 4) == 0 || memcmp(pre, "PK\x05\x06", 4) == 0)
            return fail_at(rd, NPYDT_E_MAGIC, 0,
                           "a zip archive (.npz), not an Arrow IPC stream");
    }
    uint32_t len = text_load_le32(pre);
    if (len == 0xFFFFFFFFu) {
        if ((st = take(rd, 4, &rd->meta, &rd->meta_cap, &p, &got)) != NPYDT_OK)
            return st;
        if (got < 4)
            return fail_at(rd, NPYDT_E_DATA, start, "the stream ends inside a message's length");
        len = text_load_le32(p);
    }
    if (len == 0) {
        m->end = true;
        return NPYDT_OK;
    }
    if (len > INT32_MAX)
        return fail_at(rd, NPYDT_E_DATA, start, "a message's metadata length is negative");
    if (len > rd->o.max_message_bytes)
        return fail_at(rd, NPYDT_E_LIMIT, start,
                       "a message's metadata of %lu bytes is above max_message_bytes (%zu)",
                       (unsigned long)len, rd->o.max_message_bytes);
    uint64_t at = rd->pos;
    if ((st = take(rd, len, &rd->meta, &rd->meta_cap, &p, &got)) != NPYDT_OK)
        return st;
    if (got < len)
        return fail_at(rd, NPYDT_E_DATA, at, "the stream ends inside a message's metadata");
    m->r = (struct fbr){p, len, at, &rd->err};
    struct fbt msg;
    uint64_t version, body;
    size_t hdr;
    if ((st = fbr_root(&m->r, &msg)) != NPYDT_OK ||
        (st = fbr_uint(&m->r, &msg, 0, 2, 0, "version", &version)) != NPYDT_OK)
        return st;
    if (version > 0x7FFF || version < FB_VERSION_V4)
        return fail_at(rd, NPYDT_E_VERSION, at,
                       "metadata version %d: only V4 and V5 streams are read",
                       (int)(int16_t)version + 1);
    uint64_t type;
    if ((st = fbr_uint(&m->r, &msg, 1, 1, 0, "header_type", &type)) != NPYDT_OK ||
        (st = fbr_ref(&m->r, &msg, 2, "header", &hdr)) != NPYDT_OK ||
        (st = fbr_uint(&m->r, &msg, 3, 8, 0, "bodyLength", &body)) != NPYDT_OK)
        return st;
    if (!hdr)
        return fail_at(rd, NPYDT_E_DATA, at, "a message without a header");
    if (body > INT64_MAX || body > rd->o.max_message_bytes - len)
        return fail_at(rd, body > INT64_MAX ? NPYDT_E_DATA : NPYDT_E_LIMIT, at,
                       "a message's body of %llu bytes is above max_message_bytes (%zu)",
                       (unsigned long long)body, rd->o.max_message_bytes);
    m->type = (unsigned)type;
    if ((st = fbr_table(&m->r, hdr, "header", &m->header)) != NPYDT_OK)
        return st;
    m->body_at = rd->pos;
    if (m->type == FB_MSG_SCHEMA && !rd->cols) {
        /* keep the schema's bytes before the body overwrites nothing of
         * them: they are copied now */
        if ((st = grow(rd, &rd->schema, &rd->schema_len, len)) != NPYDT_OK)
            return st;
        memcpy(rd->schema, p, len);
        rd->schema_at = at;
        m->r.p = rd->schema;
    }
    st = !rd->buf && m->type == FB_MSG_RECORD_BATCH && rd->cols
             ? take_batch(rd, (size_t)body, &m->body, &got)
             : take(rd, (size_t)body, &rd->body, &rd->body_cap, &m->body, &got);
    if (st != NPYDT_OK)
        return st;
    if (got < body)
        return fail_at(rd, NPYDT_E_DATA, m->body_at, "the stream ends inside a message's body "
                       "(%zu of %llu bytes)", got, (unsigned long long)body);
    m->body_len = body;
    return NPYDT_OK;
}

/* ---- the schema ---------------------------------------------------------------- */

struct sparse {
    struct reader *rd;
    const struct fbr *r;
    bool record;   /* fill rd->cols (the first parse) */
};

static npydt_status refuse_type(struct sparse *c, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static npydt_status refuse_type(struct sparse *c, const char *name, const char *fmt, ...)
{
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char shown[64];
    name_for_message(shown, sizeof shown, name, strlen(name));
    return set_error(&c->rd->err, NPYDT_E_TYPE, NPYDT_NO_OFFSET, shown, "Arrow IPC: %s", msg);
}

static npydt_status type_of(struct sparse *c, const struct fbt *f, const char *name,
                            struct ipc_type *t)
{
    const struct fbr *r = c->r;
    uint64_t tt, v;
    size_t tpos;
    struct fbt tab;
    npydt_status st;
    memset(t, 0, sizeof *t);
    if ((st = fbr_uint(r, f, 2, 1, 0, "type_type", &tt)) != NPYDT_OK ||
        (st = fbr_ref(r, f, 3, "type", &tpos)) != NPYDT_OK)
        return st;
    switch (tt) {
    case FB_TYPE_INT: case FB_TYPE_FLOAT: case FB_TYPE_BINARY: case FB_TYPE_UTF8:
    case FB_TYPE_BOOL: case FB_TYPE_DATE: case FB_TYPE_TIMESTAMP: case FB_TYPE_STRUCT:
    case FB_TYPE_FIXED_BINARY: case FB_TYPE_FIXED_LIST: case FB_TYPE_DURATION:
        break;
    default:
        return refuse_type(c, name, "Arrow type %s is not one npydt reads", ipc_type_name((unsigned)tt));
    }
    if (!tpos)
        return fbr_fail(r, f->pos, "field '%s' has no type table", name);
    if ((st = fbr_table(r, tpos, "type", &tab)) != NPYDT_OK)
        return st;
    t->fb = (uint8_t)tt;
    switch (tt) {
    case FB_TYPE_INT:
        if ((st = fbr_uint(r, &tab, 0, 4, 0, "bitWidth", &v)) != NPYDT_OK)
            return st;
        t->bits = (int32_t)(uint32_t)v;
        if ((st = fbr_uint(r, &tab, 1, 1, 0, "is_signed", &v)) != NPYDT_OK)
            return st;
        t->is_signed = v != 0;
        break;
    case FB_TYPE_FLOAT:
    case FB_TYPE_DATE:
    case FB_TYPE_TIMESTAMP:
    case FB_TYPE_DURATION:
        /* the schema's defaults: HALF, MILLISECOND, SECOND, MILLISECOND */
        if ((st = fbr_uint(r, &tab, 0, 2, tt == FB_TYPE_DATE || tt == FB_TYPE_DURATION, "unit",
                           &v)) != NPYDT_OK)
            return st;
        t->unit = (int16_t)(uint16_t)v;
        if (tt == FB_TYPE_TIMESTAMP) {
            size_t tz;
            if ((st = fbr_ref(r, &tab, 1, "timezone", &tz)) != NPYDT_OK)
                return st;
            if (tz && (st = fbr_string(r, tz, "timezone", &t->tz, &t->tzlen)) != NPYDT_OK)
                return st;
        }
        break;
    case FB_TYPE_FIXED_BINARY:
    case FB_TYPE_FIXED_LIST:
        if ((st = fbr_uint(r, &tab, 0, 4, 0, "size", &v)) != NPYDT_OK)
            return st;
        t->size = (int32_t)(uint32_t)v;
        break;
    default:
        break;
    }
    if (!ipc_type_complete(t))
        return refuse_type(c, name, "Arrow type %s with these parameters (bit width %ld, unit "
                           "%d, size %ld) is not valid", ipc_type_name(tt), (long)t->bits,
                           (int)t->unit, (long)t->size);
    return NPYDT_OK;
}

/* The metadata pairs of field f (their strings point into the message). */
static npydt_status pairs_of(struct sparse *c, const struct fbt *f, unsigned id,
                             struct arrow_pair **out, size_t *n)
{
    const struct fbr *r = c->r;
    size_t vpos, data;
    uint32_t count;
    *out = NULL;
    *n = 0;
    npydt_status st = fbr_ref(r, f, id, "custom_metadata", &vpos);
    if (st != NPYDT_OK || !vpos)
        return st;
    if ((st = fbr_vector(r, vpos, 4, "custom_metadata", &count, &data)) != NPYDT_OK || !count)
        return st;
    struct arrow_pair *p = alloc_bytes(c->rd->a, count * sizeof *p);
    if (!p)
        return set_nomem(&c->rd->err);
    for (uint32_t i = 0; i < count && st == NPYDT_OK; i++) {
        struct fbt kv;
        size_t k, v, klen;
        if ((st = fbr_vector_table(r, data, i, "KeyValue", &kv)) != NPYDT_OK ||
            (st = fbr_ref(r, &kv, 0, "key", &k)) != NPYDT_OK ||
            (st = fbr_ref(r, &kv, 1, "value", &v)) != NPYDT_OK)
            break;
        p[i].key = p[i].value = "";
        klen = p[i].vlen = 0;
        if (k && (st = fbr_string(r, k, "key", &p[i].key, &klen)) != NPYDT_OK)
            break;
        if (v && (st = fbr_string(r, v, "value", &p[i].value, &p[i].vlen)) != NPYDT_OK)
            break;
        if (memchr(p[i].key, 0, klen))
            st = fbr_fail(r, k, "a metadata key holds a NUL");
    }
    if (st != NPYDT_OK) {
        free_bytes(c->rd->a, p, count * sizeof *p);
        return st;
    }
    *out = p;
    *n = count;
    return NPYDT_OK;
}

static npydt_status field(struct sparse *c, const struct fbt *f, uint32_t depth,
                          struct ArrowSchema *out);

/* The children of vector ref id of table f into out (made a node of
 * format with name and the pairs). */
static npydt_status node_with_kids(struct sparse *c, const struct fbt *f, unsigned id,
                                   uint32_t depth, const char *format, const char *name,
                                   size_t nlen, int64_t flags, uint32_t want_kids,
                                   struct ArrowSchema *out)
{
    const struct fbr *r = c->r;
    size_t vpos, data = 0;
    uint32_t n = 0;
    npydt_status st = fbr_ref(r, f, id, "children", &vpos);
    if (st == NPYDT_OK && vpos)
        st = fbr_vector(r, vpos, 4, "children", &n, &data);
    if (st != NPYDT_OK)
        return st;
    if (want_kids != UINT32_MAX && n != want_kids)
        return fbr_fail(r, f->pos, "field '%s' of format %s has %lu children, not %lu", name,
                        format, (unsigned long)n, (unsigned long)want_kids);
    struct arrow_pair *pairs = NULL;
    size_t npairs = 0;
    if (id == 5 && (st = pairs_of(c, f, 6, &pairs, &npairs)) != NPYDT_OK)
        return st;
    if (id == 1 && (st = pairs_of(c, f, 2, &pairs, &npairs)) != NPYDT_OK)
        return st;
    if (out)
        st = arrow_schema_node(c->rd->a, out, format, name, nlen, pairs, npairs, n, &c->rd->err);
    free_bytes(c->rd->a, pairs, npairs * sizeof *pairs);
    if (st != NPYDT_OK)
        return st;
    if (out)
        out->flags = flags;
    if (c->record) {
        struct ipc_col *col = &c->rd->cols[c->rd->ncols - 1];
        col->nkids = n;
    }
    for (uint32_t i = 0; i < n && st == NPYDT_OK; i++) {
        struct fbt kid;
        if ((st = fbr_vector_table(r, data, i, "Field", &kid)) == NPYDT_OK)
            st = field(c, &kid, depth + 1, out ? out->children[i] : NULL);
    }
    if (st != NPYDT_OK && out)
        out->release(out);
    return st;
}

static npydt_status field(struct sparse *c, const struct fbt *f, uint32_t depth,
                          struct ArrowSchema *out)
{
    struct reader *rd = c->rd;
    const struct fbr *r = c->r;
    const char *name = "";
    size_t nlen = 0, npos, dict;
    uint64_t nullable;
    npydt_status st = fbr_ref(r, f, 0, "name", &npos);
    if (st == NPYDT_OK && npos)
        st = fbr_string(r, npos, "name", &name, &nlen);
    if (st != NPYDT_OK)
        return st;
    if (memchr(name, 0, nlen))
        return fbr_fail(r, npos, "a field name holds a NUL");
    if (depth >= rd->o.base.limits.max_depth)
        return set_error(&rd->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                         "Arrow IPC: field '%.64s': nesting deeper than %u levels", name,
                         (unsigned)rd->o.base.limits.max_depth);
    if ((st = fbr_uint(r, f, 1, 1, 0, "nullable", &nullable)) != NPYDT_OK ||
        (st = fbr_ref(r, f, 4, "dictionary", &dict)) != NPYDT_OK)
        return st;
    if (dict)
        return refuse_type(c, name, "dictionary-encoded columns are not read by npydt");
    struct ipc_type t;
    if ((st = type_of(c, f, name, &t)) != NPYDT_OK)
        return st;
    char format[96];
    if (!ipc_format_of_type(&t, format, sizeof format))
        return refuse_type(c, name, "a time zone of %zu bytes is longer than npydt reads",
                           t.tzlen);
    if (c->record) {
        if (rd->ncols >= rd->o.base.limits.max_fields)
            return set_error(&rd->err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                             "Arrow IPC: more than %zu fields (limits.max_fields)",
                             rd->o.base.limits.max_fields);
        if (rd->ncols == rd->cols_cap) {
            size_t cap = 2 * rd->cols_cap;
            struct ipc_col *cols = realloc_bytes(rd->a, rd->cols, rd->cols_cap * sizeof *cols,
                                                 cap * sizeof *cols);
            if (!cols)
                return set_nomem(&rd->err);
            rd->cols = cols;
            rd->cols_cap = cap;
        }
        struct ipc_col *cols = rd->cols;
        t.tz = NULL;   /* its bytes are the message's */
        cols[rd->ncols++] = (struct ipc_col){t, 0, name};
        rd->nbufs += t.buffers;
    }
    uint32_t want = t.fb == FB_TYPE_STRUCT ? UINT32_MAX : t.fb == FB_TYPE_FIXED_LIST ? 1 : 0;
    return node_with_kids(c, f, 5, depth, format, name, nlen,
                          nullable ? ARROW_FLAG_NULLABLE : 0, want, out);
}

/* Parse the kept Schema message: the columns (record) and/or *out. */
static npydt_status parse_schema(struct reader *rd, bool record, struct ArrowSchema *out)
{
    struct fbr r = {rd->schema, rd->schema_len, rd->schema_at, &rd->err};
    struct fbt msg, schema;
    size_t hdr;
    uint64_t endian;
    npydt_status st;
    if ((st = fbr_root(&r, &msg)) != NPYDT_OK || (st = fbr_ref(&r, &msg, 2, "header", &hdr)) ||
        (st = fbr_table(&r, hdr, "Schema", &schema)) != NPYDT_OK ||
        (st = fbr_uint(&r, &schema, 0, 2, 0, "endianness", &endian)) != NPYDT_OK)
        return st;
    if (endian != (TEXT_HOST_BIG ? 1u : 0u))
        return set_error(&rd->err, NPYDT_E_VALUE, (size_t)rd->schema_at, NULL,
                         "Arrow IPC: the stream is %s-endian, this host %s-endian",
                         endian ? "big" : "little", TEXT_HOST_BIG ? "big" : "little");
    struct sparse c = {rd, &r, record};
    if (record) {
        rd->cols = alloc_bytes(rd->a, 8 * sizeof *rd->cols);
        if (!rd->cols)
            return set_nomem(&rd->err);
        rd->cols_cap = 8;
        memset(rd->cols, 0, sizeof *rd->cols);
        rd->cols[0].t.fb = FB_TYPE_STRUCT;
        rd->cols[0].t.buffers = 1;
        rd->cols[0].name = "";
        rd->ncols = 1;
    }
    return node_with_kids(&c, &schema, 1, 0, "+s", "", 0, 0, UINT32_MAX, out);
}

/* ---- the stream ------------------------------------------------------------------- */

static int errno_of(npydt_status st)
{
    return st == NPYDT_E_NOMEM ? ENOMEM : st == NPYDT_E_LIMIT || st == NPYDT_E_TYPE ? EINVAL : EIO;
}

static int get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    struct reader *rd = s->private_data;
    out->release = NULL;
    error_clear(&rd->err);
    npydt_status st = parse_schema(rd, false, out);
    return st == NPYDT_OK ? 0 : errno_of(st);
}

static int get_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    struct reader *rd = s->private_data;
    out->release = NULL;
    if (rd->failed)
        return rd->failed;
    if (rd->ended)
        return 0;
    error_clear(&rd->err);
    struct message m;
    uint64_t at = rd->pos;
    npydt_status st = next_message(rd, &m);
    if (st == NPYDT_OK && m.end) {
        rd->ended = true;
        return 0;
    }
    if (st == NPYDT_OK && m.type != FB_MSG_RECORD_BATCH)
        st = fail_at(rd, m.type == FB_MSG_DICTIONARY ? NPYDT_E_TYPE : NPYDT_E_DATA, at,
                     m.type == FB_MSG_DICTIONARY ? "dictionary batches are not read by npydt"
                     : m.type == FB_MSG_SCHEMA   ? "a second Schema message"
                                                 : "message type %u is not a record batch",
                     m.type);
    if (st == NPYDT_OK) {
        struct ipc_batch_in in = {rd->a, rd->cols, rd->ncols, rd->nbufs, &m.r, &m.header,
                                  m.body, m.body_len, m.body_at, rd->buf ? NULL : rd->batch};
        st = ipc_batch_decode(&in, out, &rd->err);
    }
    if (st != NPYDT_OK)
        rd->failed = errno_of(st);
    return st == NPYDT_OK ? 0 : rd->failed;
}

static const char *get_last_error(struct ArrowArrayStream *s)
{
    struct reader *rd = s->private_data;
    return arrow_error_text(&rd->err, rd->err_text);
}

static void free_reader(struct reader *rd)
{
    free_bytes(rd->a, rd->schema, rd->schema_len);
    free_bytes(rd->a, rd->cols, rd->cols_cap * sizeof *rd->cols);
    free_bytes(rd->a, rd->meta, rd->meta_cap);
    free_bytes(rd->a, rd->body, rd->body_cap);
    arrow_shared_unref(rd->batch);
    free_bytes(rd->a, rd, sizeof *rd);
}

static void release(struct ArrowArrayStream *s)
{
    free_reader(s->private_data);
    s->release = NULL;
    s->private_data = NULL;
}

npydt_status ipc_stream_error(const struct ArrowArrayStream *s, npydt_error *err)
{
    if (s->get_next != get_next)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "the stream is not one of npydt's");
    const struct reader *rd = s->private_data;
    if (err)
        *err = rd->err;
    return NPYDT_OK;
}

static npydt_status open_source(const unsigned char *buf, size_t len, int fd,
                                const npydt_arrow_ipc_options *opts,
                                struct ArrowArrayStream *out, npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    out->release = NULL;
    npydt_arrow_ipc_options o;
    npydt_status st = ipc_options_resolve(opts, &o, err);
    if (st != NPYDT_OK)
        return st;
    struct reader *rd = alloc_bytes(o.base.allocator, sizeof *rd);
    if (!rd)
        return set_nomem(err);
    memset(rd, 0, sizeof *rd);
    rd->a = o.base.allocator;
    rd->o = o;
    rd->buf = buf;
    rd->len = len;
    rd->fd = fd;
    error_clear(&rd->err);
    struct message m;
    st = next_message(rd, &m);
    if (st == NPYDT_OK && (m.end || m.type != FB_MSG_SCHEMA))
        st = fail_at(rd, NPYDT_E_DATA, 0, "the stream does not start with a Schema message");
    if (st == NPYDT_OK)
        st = parse_schema(rd, true, NULL);
    if (st != NPYDT_OK) {
        if (err)
            *err = rd->err;
        free_reader(rd);
        return st;
    }
    out->get_schema = get_schema;
    out->get_next = get_next;
    out->get_last_error = get_last_error;
    out->release = release;
    out->private_data = rd;
    return NPYDT_OK;
}

npydt_status npydt_arrow_ipc_open_buffer(const void *buf, size_t len,
                                         const npydt_arrow_ipc_options *opts,
                                         struct ArrowArrayStream *out, npydt_error *err)
{
    if (!buf && len) {
        error_clear(err);
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "buf is NULL");
    }
    return open_source(buf ? buf : (const void *)"", len, -1, opts, out, err);
}

npydt_status npydt_arrow_ipc_open_fd(int fd, const npydt_arrow_ipc_options *opts,
                                     struct ArrowArrayStream *out, npydt_error *err)
{
    if (fd < 0) {
        error_clear(err);
        if (out)
            out->release = NULL;
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "fd is negative");
    }
    return open_source(NULL, 0, fd, opts, out, err);
}

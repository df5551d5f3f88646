/* The nodes of exported schemas and arrays. Each ArrowSchema and each
 * ArrowArray owns one block (its strings, the structs of its children and
 * the pointers to them) and, for arrays, its buffers: a child moved out by
 * a consumer lives on alone, and releasing a node releases the children
 * still in it, as the C Data Interface asks. A buffer may instead point
 * into a file's mapping: the node then holds a reference to it, let go
 * when the node is released. */
#include "arrow/arrow.h"
#include "access/access.h"

#include <stdatomic.h>

#include <stddef.h>

/* What both kinds of block start with. */
struct block_head {
    const npydt_allocator *alloc;
    size_t size;      /* of the whole block */
    int64_t n;        /* children */
};

/* A node's block, zeroed, its head filled: head bytes up to its n
 * children's structs (kid bytes each), room for the n pointers to them,
 * then extra bytes. The one preamble of both kinds of node.
 * NPYDT_E_OVERFLOW naming what for a block past the address space,
 * NPYDT_E_NOMEM. */
static npydt_status block_new(const npydt_allocator *a, size_t head, size_t kid, int64_t n,
                              uint64_t extra, const char *what, void **out, npydt_error *err)
{
    uint64_t bytes = sat_add(sat_add(head, sat_mul((uint64_t)n, kid + sizeof(void *))), extra);
    if (bytes > SIZE_MAX / 2)
        return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "%s of %llu bytes does not fit the address space", what,
                         (unsigned long long)bytes);
    struct block_head *b = alloc_bytes(a, (size_t)bytes);
    if (!b)
        return set_nomem(err);
    memset(b, 0, (size_t)bytes);
    b->alloc = a;
    b->size = (size_t)bytes;
    b->n = n;
    *out = b;
    return NPYDT_OK;
}

struct schema_block {
    struct block_head h;
    struct ArrowSchema **ptrs;
    struct ArrowSchema kids[];
};

static void schema_release(struct ArrowSchema *s)
{
    struct schema_block *b = s->private_data;
    for (int64_t i = 0; i < b->h.n; i++)
        if (b->kids[i].release)
            b->kids[i].release(&b->kids[i]);
    free_bytes(b->h.alloc, b, b->h.size);
    s->release = NULL;
    s->private_data = NULL;
}

static void put_i32(char **p, int32_t v)
{
    memcpy(*p, &v, 4);
    *p += 4;
}

static void put_bytes(char **p, const char *s, size_t n)
{
    if (n)
        memcpy(*p, s, n);
    *p += n;
}

npydt_status arrow_schema_node(const npydt_allocator *a, struct ArrowSchema *out,
                               const char *format, const char *name, size_t nlen,
                               const struct arrow_pair *pairs, size_t npairs,
                               int64_t n_children, npydt_error *err)
{
    out->release = NULL;
    uint64_t meta = npairs ? 4 : 0;
    for (size_t i = 0; i < npairs; i++) {
        if (pairs[i].vlen > INT32_MAX)
            return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                             "a metadata value of %zu bytes does not fit Arrow's int32",
                             pairs[i].vlen);
        meta = sat_add(meta, 8 + strlen(pairs[i].key) + (uint64_t)pairs[i].vlen);
    }
    void *block;
    npydt_status st = block_new(a, offsetof(struct schema_block, kids), sizeof(struct ArrowSchema),
                                n_children, sat_add(meta, strlen(format) + 1 + (uint64_t)nlen + 1),
                                "a schema node", &block, err);
    if (st != NPYDT_OK)
        return st;
    struct schema_block *b = block;
    b->ptrs = (struct ArrowSchema **)(void *)(b->kids + n_children);
    for (int64_t i = 0; i < n_children; i++)
        b->ptrs[i] = &b->kids[i];
    char *p = (char *)(b->ptrs + n_children);
    out->format = p;
    put_bytes(&p, format, strlen(format) + 1);
    out->name = p;
    put_bytes(&p, name, nlen);
    *p++ = '\0';
    out->metadata = NULL;
    if (npairs) {
        out->metadata = p;
        put_i32(&p, (int32_t)npairs);
        for (size_t i = 0; i < npairs; i++) {
            size_t klen = strlen(pairs[i].key);
            put_i32(&p, (int32_t)klen);
            put_bytes(&p, pairs[i].key, klen);
            put_i32(&p, (int32_t)pairs[i].vlen);
            put_bytes(&p, pairs[i].value, pairs[i].vlen);
        }
    }
    out->flags = 0;
    out->n_children = n_children;
    out->children = n_children ? b->ptrs : NULL;
    out->dictionary = NULL;
    out->private_data = b;
    out->release = schema_release;
    return NPYDT_OK;
}

struct array_block {
    struct block_head h;
    struct ArrowArray **ptrs;
    const void *bufs[3];
    void *owned[3];
    size_t owned_size[3];
    struct reader_share *share;    /* the mapping a buffer points into, or NULL */
    struct arrow_shared *shared;   /* the block a buffer points into, or NULL */
    struct ArrowArray kids[];
};

/* A block several nodes point into, freed by the last reference: nodes
 * moved out by a consumer may be released on other threads. */
struct arrow_shared {
    const npydt_allocator *alloc;
    atomic_size_t refs;
    unsigned char *bytes;
    size_t cap;
};

struct arrow_shared *arrow_shared_new(const npydt_allocator *a)
{
    struct arrow_shared *s = alloc_bytes(a, sizeof *s);
    if (!s)
        return NULL;
    s->alloc = a;
    atomic_init(&s->refs, 1);
    s->bytes = NULL;
    s->cap = 0;
    return s;
}

void arrow_shared_unref(struct arrow_shared *s)
{
    if (!s || atomic_fetch_sub(&s->refs, 1) != 1)
        return;
    free_bytes(s->alloc, s->bytes, s->cap);
    free_bytes(s->alloc, s, sizeof *s);
}

unsigned char *arrow_shared_bytes(struct arrow_shared *s, size_t size)
{
    if (atomic_load(&s->refs) != 1)
        return NULL;
    if (size <= s->cap && s->bytes)
        return s->bytes;
    free_bytes(s->alloc, s->bytes, s->cap);
    s->cap = 0;
    s->bytes = alloc_bytes(s->alloc, size ? size : 1);
    if (s->bytes)
        s->cap = size ? size : 1;
    return s->bytes;
}

bool arrow_shared_alone(struct arrow_shared *s)
{
    return atomic_load(&s->refs) == 1;
}

static void array_release(struct ArrowArray *arr)
{
    struct array_block *b = arr->private_data;
    for (int64_t i = 0; i < b->h.n; i++)
        if (b->kids[i].release)
            b->kids[i].release(&b->kids[i]);
    for (int i = 0; i < 3; i++)
        if (b->owned[i])
            free_bytes(b->h.alloc, b->owned[i], b->owned_size[i]);
    reader_share_drop(b->share);
    arrow_shared_unref(b->shared);
    free_bytes(b->h.alloc, b, b->h.size);
    arr->release = NULL;
    arr->private_data = NULL;
}

npydt_status arrow_array_node(const npydt_allocator *a, struct ArrowArray *out, int64_t length,
                              int64_t n_buffers, int64_t n_children, npydt_error *err)
{
    out->release = NULL;
    void *block;
    npydt_status st = block_new(a, offsetof(struct array_block, kids), sizeof(struct ArrowArray),
                                n_children, 0, "an array node", &block, err);
    if (st != NPYDT_OK)
        return st;
    struct array_block *b = block;
    b->ptrs = (struct ArrowArray **)(void *)(b->kids + n_children);
    for (int64_t i = 0; i < n_children; i++)
        b->ptrs[i] = &b->kids[i];
    out->length = length;
    out->null_count = 0;
    out->offset = 0;
    out->n_buffers = n_buffers;
    out->n_children = n_children;
    out->buffers = b->bufs;
    out->children = n_children ? b->ptrs : NULL;
    out->dictionary = NULL;
    out->private_data = b;
    out->release = array_release;
    return NPYDT_OK;
}

void *arrow_array_buffer_raw(struct ArrowArray *out, int64_t i, size_t size)
{
    struct array_block *b = out->private_data;
    /* one byte at least: a valid, owned pointer for an empty buffer */
    size_t have = size ? size : 1;
    void *p = alloc_bytes(b->h.alloc, have);
    if (!p)
        return NULL;
    b->owned[i] = p;
    b->owned_size[i] = have;
    b->bufs[i] = p;
    return p;
}

void *arrow_array_buffer(struct ArrowArray *out, int64_t i, size_t size)
{
    void *p = arrow_array_buffer_raw(out, i, size);
    if (p)
        memset(p, 0, size ? size : 1);
    return p;
}

void *arrow_array_copy(struct ArrowArray *out, int64_t i, const void *src, size_t size)
{
    void *p = arrow_array_buffer_raw(out, i, size);
    if (p && size)
        memcpy(p, src, size);
    return p;
}

void arrow_array_borrow_mapping(struct ArrowArray *out, int64_t i, const void *p,
                                struct reader_share *share)
{
    struct array_block *b = out->private_data;
    if (!b->share)
        b->share = reader_share_hold(share);
    b->bufs[i] = p;
}

void arrow_array_borrow_block(struct ArrowArray *out, int64_t i, struct arrow_shared *s,
                              const void *p)
{
    struct array_block *b = out->private_data;
    if (!b->shared) {
        atomic_fetch_add(&s->refs, 1);
        b->shared = s;
    }
    b->bufs[i] = p;
}

const struct arrow_shared *arrow_array_block_of(const struct ArrowArray *a, const void *p,
                                                size_t n)
{
    if (!a || a->release != array_release)
        return NULL;
    const struct array_block *b = a->private_data;
    const struct arrow_shared *s = b->shared;
    if (!s || !s->bytes)
        return NULL;
    uintptr_t at = (uintptr_t)p, start = (uintptr_t)s->bytes;
    return at >= start && at - start <= s->cap && n <= s->cap - (at - start) ? s : NULL;
}

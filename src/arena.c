/* Allocation through the caller's allocator, and the per-parse arena. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void *alloc_bytes(const npydt_allocator *a, size_t size)
{
    if (size == 0)
        size = 1;
    return a ? a->malloc(a->ctx, size) : malloc(size);
}

void *realloc_bytes(const npydt_allocator *a, void *p, size_t old_size, size_t new_size)
{
    if (p && old_size == 0)
        old_size = 1;
    if (new_size == 0)
        new_size = 1;
    return a ? a->realloc(a->ctx, p, old_size, new_size) : realloc(p, new_size);
}

void free_bytes(const npydt_allocator *a, void *p, size_t size)
{
    if (!p)
        return;
    if (size == 0)
        size = 1;   /* what alloc_bytes asked for */
    if (a)
        a->free(a->ctx, p, size);
    else
        free(p);
}

struct arena_chunk {
    struct arena_chunk *next;
    size_t size;                 /* bytes of this allocation, header included */
    _Alignas(16) unsigned char data[];
};

/* Chunks grow geometrically so that the number of allocator calls stays
 * logarithmic in the header size, but never beyond what was asked for by
 * more than a factor of two. The first one, with its header, is 1 KiB:
 * enough for a one-line header's result, and small enough for malloc's
 * per-thread cache. */
#define ARENA_FIRST_CHUNK (1024u - sizeof(struct arena_chunk))

void arena_init(struct arena *ar, const npydt_allocator *alloc)
{
    memset(ar, 0, sizeof *ar);
    ar->alloc = alloc;
    ar->first = ARENA_FIRST_CHUNK;
}

/* A parse keeps about 16 bytes per text byte (measured on np.save headers
 * of 10 to 20,000 fields); a first chunk of that size saves the smaller
 * chunks before it. Capped below malloc's usual mmap threshold. Texts of
 * up to 128 bytes (a one-line header) fit the default first chunk. */
#define ARENA_BYTES_PER_TEXT_BYTE 16u
#define ARENA_SMALL_TEXT 128u
#define ARENA_FIRST_CHUNK_MAX (64u * 1024u - sizeof(struct arena_chunk))

void arena_expect(struct arena *ar, size_t text_len)
{
    if (text_len <= ARENA_SMALL_TEXT)
        return;
    size_t want = text_len < ARENA_FIRST_CHUNK_MAX / ARENA_BYTES_PER_TEXT_BYTE
                      ? text_len * ARENA_BYTES_PER_TEXT_BYTE
                      : ARENA_FIRST_CHUNK_MAX;
    if (want > ar->first)
        ar->first = want;
}

void *arena_alloc_chunk(struct arena *ar, size_t size)
{
    size_t need = (size + 15u) & ~(size_t)15u;
    if (need < size)
        return NULL;
    if (!ar->head || ar->cap - ar->used < need) {
        size_t cap = ar->head ? ar->size * 2 : ar->first;
        if (cap < need)
            cap = need;
        if (cap > SIZE_MAX - sizeof(struct arena_chunk))
            return NULL;
        size_t bytes = sizeof(struct arena_chunk) + cap;
        struct arena_chunk *ch = alloc_bytes(ar->alloc, bytes);
        if (!ch)
            return NULL;
        ch->next = ar->head;
        ch->size = bytes;
        ar->head = ch;
        ar->base = ch->data;
        ar->cap = cap;
        ar->size = cap;
        ar->used = 0;
        ar->total += bytes;
    }
    void *p = ar->base + ar->used;
    ar->used += need;
    return p;
}

void *arena_block_grow(struct arena *ar, struct arena_block *b, size_t size)
{
    if (size > SIZE_MAX - sizeof(struct arena_chunk))
        return NULL;
    size_t bytes = sizeof(struct arena_chunk) + size;
    struct arena_chunk *ch =
        b->chunk ? realloc_bytes(ar->alloc, b->chunk, b->chunk->size, bytes)
                 : alloc_bytes(ar->alloc, bytes);
    if (!ch)
        return NULL;
    ch->size = bytes;
    b->chunk = ch;
    b->size = size;
    return ch->data;
}

void *arena_block_data(const struct arena_block *b)
{
    return b->chunk ? b->chunk->data : NULL;
}

void arena_block_adopt(struct arena *ar, struct arena_block *b)
{
    struct arena_chunk *ch = b->chunk;
    if (!ch)
        return;
    ch->next = ar->adopted;
    ar->adopted = ch;
    ar->total += ch->size;
    b->chunk = NULL;
    b->size = 0;
}

void arena_block_free(struct arena *ar, struct arena_block *b)
{
    if (b->chunk)
        free_bytes(ar->alloc, b->chunk, b->chunk->size);
    b->chunk = NULL;
    b->size = 0;
}

void *arena_alloc_array(struct arena *ar, size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes))
        return NULL;
    return arena_alloc(ar, bytes);
}

void *arena_alloc_array_raw(struct arena *ar, size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes))
        return NULL;
    return arena_alloc_raw(ar, bytes);
}

static void free_chunks(const npydt_allocator *alloc, struct arena_chunk *ch)
{
    while (ch) {
        struct arena_chunk *next = ch->next;
        free_bytes(alloc, ch, ch->size);
        ch = next;
    }
}

void arena_release(struct arena *ar)
{
    free_chunks(ar->alloc, ar->head);
    free_chunks(ar->alloc, ar->adopted);
    ar->head = ar->adopted = NULL;
    ar->base = NULL;
}

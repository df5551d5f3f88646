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
 * more than a factor of two. */
#define ARENA_FIRST_CHUNK 2048u

void arena_init(struct arena *ar, const npydt_allocator *alloc)
{
    memset(ar, 0, sizeof *ar);
    ar->alloc = alloc;
}

void *arena_alloc(struct arena *ar, size_t size)
{
    void *p = arena_alloc_raw(ar, size);
    if (p)
        memset(p, 0, size);
    return p;
}

void *arena_alloc_raw(struct arena *ar, size_t size)
{
    size_t need = (size + 15u) & ~(size_t)15u;
    if (need < size)
        return NULL;
    if (!ar->head || ar->cap - ar->used < need) {
        size_t cap = ar->head ? ar->cap * 2 : ARENA_FIRST_CHUNK;
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
        ar->cap = cap;
        ar->used = 0;
        ar->total += bytes;
    }
    void *p = ar->head->data + ar->used;
    ar->used += need;
    return p;
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

char *arena_strndup(struct arena *ar, const char *s, size_t len)
{
    if (len == SIZE_MAX)
        return NULL;
    char *d = arena_alloc_raw(ar, len + 1);
    if (d) {
        if (len)
            memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

void arena_release(struct arena *ar)
{
    struct arena_chunk *ch = ar->head;
    const npydt_allocator *alloc = ar->alloc;
    ar->head = NULL;
    while (ch) {
        struct arena_chunk *next = ch->next;
        free_bytes(alloc, ch, ch->size);
        ch = next;
    }
}

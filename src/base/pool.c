/* The pool allocator: every block of a parse carved out of one buffer the
 * caller owns, for services that parse many headers. No call reaches
 * malloc, and the buffer's pages, once touched, stay with the process, so
 * a steady stream of parses faults no page in again. First fit over a
 * free list kept in address order, merged on free; sizes come back with
 * every free and realloc, so blocks carry no header. */
#include "base/base.h"

#include <stdio.h>

/* A free stretch of the buffer; every block is a multiple of POOL_UNIT. */
struct pool_free {
    size_t size;
    struct pool_free *next;
};

/* The bookkeeping at the start of the buffer. */
struct pool {
    struct pool_free *free;   /* lowest address first */
    size_t size;              /* bytes of the blocks, free or not */
    size_t refused;           /* the last request refused (0: none), */
    size_t largest;           /* and the largest free block then */
};

#define POOL_UNIT ((size_t)16)
#define POOL_HEAD (2 * POOL_UNIT)   /* the room struct pool takes */
_Static_assert(sizeof(struct pool_free) <= POOL_UNIT, "a free block fits the smallest block");
_Static_assert(sizeof(struct pool) <= POOL_HEAD, "the bookkeeping fits its room");

/* size rounded up to whole units; 0 when that overflows */
static size_t pool_round(size_t size)
{
    return size > SIZE_MAX - (POOL_UNIT - 1) ? 0 : (size + POOL_UNIT - 1) & ~(POOL_UNIT - 1);
}

static void *pool_malloc(void *ctx, size_t size)
{
    struct pool *pl = ctx;
    size_t need = pool_round(size ? size : 1), largest = 0;
    for (struct pool_free **at = &pl->free; need && *at; at = &(*at)->next) {
        struct pool_free *f = *at;
        if (f->size < need) {
            largest = f->size > largest ? f->size : largest;
            continue;
        }
        if (f->size == need) {
            *at = f->next;
        } else {   /* the rest stays free, after the block handed out */
            struct pool_free *rest = (struct pool_free *)(void *)((unsigned char *)f + need);
            rest->size = f->size - need;
            rest->next = f->next;
            *at = rest;
        }
        return f;
    }
    pl->refused = size ? size : 1;
    pl->largest = largest;
    return NULL;
}

static void pool_free_block(void *ctx, void *ptr, size_t size)
{
    struct pool *pl = ctx;
    if (!ptr)
        return;
    unsigned char *b = ptr;
    size_t n = pool_round(size ? size : 1);
    struct pool_free **at = &pl->free, *prev = NULL;
    while (*at && (unsigned char *)*at < b) {
        prev = *at;
        at = &(*at)->next;
    }
    struct pool_free *next = *at, *f = (struct pool_free *)ptr;
    f->size = n;
    f->next = next;
    if (next && b + n == (unsigned char *)next) {   /* merge with the block after */
        f->size += next->size;
        f->next = next->next;
    }
    if (prev && (unsigned char *)prev + prev->size == b) {   /* and with the one before */
        prev->size += f->size;
        prev->next = f->next;
    } else {
        *at = f;
    }
}

static void *pool_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    if (!ptr)
        return pool_malloc(ctx, new_size);
    size_t have = pool_round(old_size ? old_size : 1), want = pool_round(new_size ? new_size : 1);
    if (!want)
        return NULL;
    if (want <= have) {   /* shrink in place, freeing the tail */
        if (want < have)
            pool_free_block(ctx, (unsigned char *)ptr + want, have - want);
        return ptr;
    }
    void *q = pool_malloc(ctx, new_size);
    if (!q)
        return NULL;
    memcpy(q, ptr, old_size);
    pool_free_block(ctx, ptr, old_size);
    return q;
}

int npydt_pool_allocator_init(npydt_allocator *alc, void *buf, size_t size)
{
    if (!alc || !buf)
        return 0;
    uintptr_t at = (uintptr_t)buf;
    size_t skip = (size_t)((POOL_UNIT - at % POOL_UNIT) % POOL_UNIT);
    if (size < skip || size - skip < POOL_HEAD + POOL_UNIT)
        return 0;
    struct pool *pl = (struct pool *)(void *)((unsigned char *)buf + skip);
    size_t usable = (size - skip - POOL_HEAD) & ~(POOL_UNIT - 1);
    struct pool_free *all = (struct pool_free *)(void *)((unsigned char *)pl + POOL_HEAD);
    all->size = usable;
    all->next = NULL;
    *pl = (struct pool){all, usable, 0, 0};
    *alc = (npydt_allocator){pool_malloc, pool_realloc, pool_free_block, pl};
    return 1;
}

void pool_explain_nomem(const npydt_allocator *a, npydt_error *err)
{
    if (!err || err->code != NPYDT_E_NOMEM || !a || a->malloc != pool_malloc)
        return;
    const struct pool *pl = a->ctx;
    if (pl->refused)
        snprintf(err->message, sizeof err->message,
                 "the pool of %zu bytes had no free block of %zu bytes (the largest was %zu)",
                 pl->size, pl->refused, pl->largest);
}

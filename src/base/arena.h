/* The caller's allocator and the bump arena every parse result lives in
 * (base stage; reached through base/base.h). */
#ifndef NPYDT_BASE_ARENA_H
#define NPYDT_BASE_ARENA_H

#include "npydt.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- allocation -------------------------------------------------------- */

/* Memory from the caller's allocator a, or from the C library when a is
 * NULL; the size is passed back on release for allocators that need it. */
void *alloc_bytes(const npydt_allocator *a, size_t size);
void *realloc_bytes(const npydt_allocator *a, void *p, size_t old_size, size_t new_size);
void free_bytes(const npydt_allocator *a, void *p, size_t size);
/* The same as the text stage's text_realloc_fn, for a growing text_buf
 * whose memory comes from an allocator: ctx is the npydt_allocator (NULL:
 * the C library); new_size 0 frees ptr and returns NULL. */
void *alloc_text_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size);

/* The bytes the arenas of one parse (its result's and its scratch) may
 * hold at once: limits.max_alloc_bytes. Every chunk an arena with a
 * budget takes from the allocator is charged here, header included,
 * and given back when the arena is released; a chunk that would take
 * live above limit is refused (NULL) and marks the budget refused. It
 * lives on the parse call's stack: arena_budget_detach the result's
 * arena before the call returns it. */
struct arena_budget {
    uint64_t limit;   /* 0: none */
    size_t live;
    bool refused;
};

/* A budget of limit bytes (0: none) for the arenas of one parse. */
static inline void arena_budget_init(struct arena_budget *b, uint64_t limit)
{
    b->limit = limit;
    b->live = 0;
    b->refused = false;
}
/* When the parse failed with NPYDT_E_NOMEM because its budget refused a
 * chunk: NPYDT_E_LIMIT in err, naming the limit; else st unchanged. */
npydt_status arena_budget_explain(const struct arena_budget *b, npydt_status st,
                                  npydt_error *err);

/* A bump allocator: every node of one parse result lives in one arena and
 * goes away with one arena_release. Aligned allocations rise from the
 * bottom of the head chunk, strings (which need no alignment) come down
 * from its top. */
struct arena_chunk;
struct arena {
    const npydt_allocator *alloc;
    struct arena_budget *budget;   /* charged for every chunk, or NULL */
    struct arena_chunk *head;
    unsigned char *base;     /* head's data, or NULL */
    size_t first;            /* usable bytes of the first chunk */
    size_t used;     /* bytes used from the bottom of head */
    size_t cap;      /* bottom of the strings at the top of head */
    size_t size;     /* usable bytes in head */
    size_t total;    /* bytes obtained from the allocator, for statistics */
};

void arena_init(struct arena *ar, const npydt_allocator *alloc);
/* The same, with the caller's buf[0..size) (16-aligned, not freed by the
 * arena, and outliving it) as the first room to allocate from: a parse's
 * scratch for a short header then costs the allocator nothing. */
void arena_init_buffer(struct arena *ar, const npydt_allocator *alloc, void *buf, size_t size);
/* Size the first chunk for a parse of text_len bytes (before any allocation). */
void arena_expect(struct arena *ar, size_t text_len);
/* The same for the scratch arena of a parse of text_len bytes, which holds
 * its syntax tree. */
void arena_expect_nodes(struct arena *ar, size_t text_len);
void *arena_alloc_chunk(struct arena *ar, size_t size);      /* arena_alloc_raw's slow path */

/* Not zeroed, 16-aligned. Inline: a parse makes one or more per field. */
static inline void *arena_alloc_raw(struct arena *ar, size_t size)
{
    size_t need = (size + 15u) & ~(size_t)15u;
    if (need >= size && ar->cap - ar->used >= need && ar->base) {
        void *p = ar->base + ar->used;
        ar->used += need;
        return p;
    }
    return arena_alloc_chunk(ar, size);
}

/* Zeroed, 16-aligned. */
static inline void *arena_alloc(struct arena *ar, size_t size)
{
    void *p = arena_alloc_raw(ar, size);
    if (p)
        memset(p, 0, size);
    return p;
}

void *arena_alloc_array(struct arena *ar, size_t n, size_t size);
void *arena_alloc_array_raw(struct arena *ar, size_t n, size_t size); /* not zeroed */
/* memcpy for the few bytes of a name or path, without a call: every read
 * and write stays inside [0, n). */
static inline void copy_small(char *d, const char *s, size_t n)
{
    if (n >= 8 && n <= 16) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n && n < 4) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    } else if (n) {
        memcpy(d, s, n);
    }
}

/* Room for a string of len bytes and its NUL, unaligned: most of a large
 * header's names are a few bytes, which alignment would double. */
static inline char *arena_alloc_str(struct arena *ar, size_t len)
{
    if (len < ar->cap - ar->used && ar->base) {
        ar->cap -= len + 1;
        return (char *)ar->base + ar->cap;
    }
    return len < SIZE_MAX ? arena_alloc_chunk(ar, len + 1) : NULL;
}

/* A NUL-terminated copy of s[0..len). */
static inline char *arena_strndup(struct arena *ar, const char *s, size_t len)
{
    char *d = arena_alloc_str(ar, len);
    if (d) {
        copy_small(d, s, len);
        d[len] = '\0';
    }
    return d;
}

void arena_release(struct arena *ar);
/* Charge ar's chunks to b from now on (ar has none yet, or they are b's). */
static inline void arena_budget_attach(struct arena *ar, struct arena_budget *b)
{
    ar->budget = b->limit ? b : NULL;
}
/* Stop charging: the arena outlives its budget (a parse result). */
static inline void arena_budget_detach(struct arena *ar)
{
    ar->budget = NULL;
}

#endif

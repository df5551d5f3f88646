/* Allocation through the caller's allocator, and the per-parse arena. */
#define _GNU_SOURCE   /* MAP_ANONYMOUS, MADV_HUGEPAGE, mremap */
#include "base/base.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* npydt_huge_page_allocator maps blocks this large from the kernel with
 * huge pages asked for: a large header's tables are written once and
 * freed whole, and malloc hands such sizes back to the kernel on free, so
 * with 4 KiB pages each parse takes a page fault per 4 KiB it writes; a
 * huge page takes one per 2 MiB. Not below 4 MiB:
 * malloc, once its mmap threshold has risen, keeps smaller blocks for the
 * next parse, where a fresh huge page costs 2 MiB of zeroing. */
#define BIG_BLOCK ((size_t)4 << 20)

#if defined(MAP_ANONYMOUS)
/* Whole huge pages (2 MiB on x86-64), so that none is left to small ones. */
static size_t big_size(size_t size)
{
    size_t huge = (size_t)2 << 20;
    return size <= SIZE_MAX - huge ? (size + huge - 1) & ~(huge - 1) : size;
}
#endif

/* size bytes (BIG_BLOCK or more) from the kernel, huge pages asked for;
 * malloc where there is no mmap. The mapping starts on a huge page's
 * boundary (mapped 2 MiB longer, the rest given back), so that all of it
 * but its last part can be huge pages whatever its size (rounded up to
 * whole huge pages, it would take address space malloc did not). */
static void *map_big(size_t size)
{
#if defined(MAP_ANONYMOUS)
    const size_t huge = (size_t)2 << 20;
    long page = sysconf(_SC_PAGESIZE);
    size_t len = page > 0 ? (size + (size_t)page - 1) & ~((size_t)page - 1) : size;
    if (page > 0 && len >= size && len <= SIZE_MAX - huge) {
        unsigned char *p = mmap(NULL, len + huge, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            size_t head = (huge - (size_t)((uintptr_t)p & (huge - 1))) & (huge - 1);
            if (head)
                munmap(p, head);
            if (huge - head)
                munmap(p + head + len, huge - head);
            p += head;
#ifdef MADV_HUGEPAGE
            madvise(p, len, MADV_HUGEPAGE);   /* a hint: without it, 4 KiB pages */
#endif
            return p;
        }
    }
    void *q = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(q, size, MADV_HUGEPAGE);
#endif
    return q;
#else
    return malloc(size);
#endif
}

static void unmap_big(void *p, size_t size)
{
#if defined(MAP_ANONYMOUS)
    munmap(p, size);
#else
    (void)size;
    free(p);
#endif
}

static void *huge_malloc(void *ctx, size_t size)
{
    (void)ctx;
#if defined(MAP_ANONYMOUS)
    if (size >= BIG_BLOCK)
        return map_big(big_size(size));
#endif
    return malloc(size);
}

static void huge_free(void *ctx, void *p, size_t size)
{
    (void)ctx;
#if defined(MAP_ANONYMOUS)
    if (size >= BIG_BLOCK) {
        unmap_big(p, big_size(size));
        return;
    }
#endif
    free(p);
}

static void *huge_realloc(void *ctx, void *p, size_t old_size, size_t new_size)
{
    if (!p)
        return huge_malloc(ctx, new_size);
    if (old_size < BIG_BLOCK && new_size < BIG_BLOCK)
        return realloc(p, new_size);
#if defined(MREMAP_MAYMOVE)
    if (old_size >= BIG_BLOCK && new_size >= BIG_BLOCK) {   /* moves pages, copies nothing */
        void *q = mremap(p, big_size(old_size), big_size(new_size), MREMAP_MAYMOVE);
        return q == MAP_FAILED ? NULL : q;
    }
#endif
    void *q = huge_malloc(ctx, new_size);
    if (!q)
        return NULL;
    memcpy(q, p, old_size < new_size ? old_size : new_size);
    huge_free(ctx, p, old_size);
    return q;
}

static const npydt_allocator huge_page_allocator = {huge_malloc, huge_realloc, huge_free, NULL};

const npydt_allocator *npydt_huge_page_allocator(void)
{
    return &huge_page_allocator;
}

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

void *alloc_text_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    const npydt_allocator *a = ctx;
    if (new_size == 0) {
        free_bytes(a, ptr, old_size);
        return NULL;
    }
    return realloc_bytes(a, ptr, old_size, new_size);
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

npydt_status arena_budget_explain(const struct arena_budget *b, npydt_status st,
                                  npydt_error *err)
{
    if (st != NPYDT_E_NOMEM || !b->refused)
        return st;
    return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                     "the parse would hold more than %llu bytes "
                     "(limits.max_alloc_bytes)",
                     (unsigned long long)b->limit);
}

/* A chunk of bytes (its header included) from the allocator: the one
 * place an arena takes memory, and so where its budget is kept. Without
 * the caller's allocator, a chunk of BIG_BLOCK bytes or more is mapped
 * with huge pages asked for: malloc would hand it back to the kernel on
 * free, and every parse of a header of some 100,000 fields and more would
 * fault each of its 4 KiB pages in again (which made a byte of a 16 MB
 * header cost three times a byte of a small one). Its size stays as it
 * is, not rounded up to whole huge pages as npydt_huge_page_allocator
 * rounds it: the address space of a parse stays what malloc took.
 * arena_release gives it back the same way. */
static struct arena_chunk *chunk_new(struct arena *ar, size_t bytes)
{
    struct arena_budget *b = ar->budget;
    if (b && bytes > b->limit - b->live) {   /* live <= limit always */
        b->refused = true;
        return NULL;
    }
    struct arena_chunk *ch = ar->alloc || bytes < BIG_BLOCK ? alloc_bytes(ar->alloc, bytes)
                                                            : map_big(bytes);
    if (!ch)
        return NULL;
    ch->size = bytes;
    if (b)
        b->live += bytes;
    ar->total += bytes;
    return ch;
}

void arena_init(struct arena *ar, const npydt_allocator *alloc)
{
    memset(ar, 0, sizeof *ar);
    ar->alloc = alloc;
    ar->first = ARENA_FIRST_CHUNK;
}

void arena_init_buffer(struct arena *ar, const npydt_allocator *alloc, void *buf, size_t size)
{
    arena_init(ar, alloc);
    /* no head chunk: the first chunk the allocator gives replaces buf */
    ar->base = buf;
    ar->cap = ar->size = size;
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

/* A parse's syntax tree takes up to about 12 bytes per text byte (np.save's
 * headers of short names; fewer with long ones). Its arena starts with
 * that expectation halved until it is at most 1 MiB, and doubles: a parse
 * refused early (a syntax error, a limit) has taken at most 1 MiB of it
 * from a caller's allocator, and one that needs it all gets it in a few
 * blocks, the last half of it. The size of that last block matters:
 * malloc hands the top of its heap back to the kernel when more than twice
 * the largest block ever freed lies free there, so with a long series of
 * small blocks every parse of a large header would fault its pages in
 * again; the series here frees about twice its largest block. A block
 * never touched costs nothing. */
#define ARENA_NODE_BYTES_PER_TEXT_BYTE 12u
#define ARENA_NODES_FIRST_MAX ((size_t)1 << 20)

void arena_expect_nodes(struct arena *ar, size_t text_len)
{
    size_t want;
    if (text_len <= ARENA_SMALL_TEXT ||
        __builtin_mul_overflow(text_len, (size_t)ARENA_NODE_BYTES_PER_TEXT_BYTE, &want))
        return;
    while (want > ARENA_NODES_FIRST_MAX)
        want /= 2;
    if (want > ar->first)
        ar->first = want;
}

void *arena_alloc_chunk(struct arena *ar, size_t size)
{
    size_t need = (size + 15u) & ~(size_t)15u;
    if (need < size)
        return NULL;
    if (ar->head && need > ar->size / 2) {
        /* a block as large as half the head chunk (a leaf table, a long
         * field list, the header text) gets a chunk of its own behind the
         * head, which keeps its room for the small blocks: a new head of
         * twice the size would leave the old one's rest unused and its own
         * mostly empty */
        if (need > SIZE_MAX - sizeof(struct arena_chunk))
            return NULL;
        struct arena_chunk *ch = chunk_new(ar, sizeof(struct arena_chunk) + need);
        if (!ch)
            return NULL;
        ch->next = ar->head->next;
        ar->head->next = ch;
        return ch->data;
    }
    if (!ar->head || ar->cap - ar->used < need) {
        size_t cap = ar->head ? ar->size * 2 : ar->first;
        if (cap < need)
            cap = need;
        if (cap > SIZE_MAX - sizeof(struct arena_chunk))
            return NULL;
        struct arena_chunk *ch = chunk_new(ar, sizeof(struct arena_chunk) + cap);
        if (!ch)
            return NULL;
        ch->next = ar->head;
        ar->head = ch;
        ar->base = ch->data;
        ar->cap = cap;
        ar->size = cap;
        ar->used = 0;
    }
    void *p = ar->base + ar->used;
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

void arena_release(struct arena *ar)
{
    for (struct arena_chunk *ch = ar->head, *next; ch; ch = next) {
        next = ch->next;
        if (ar->budget)
            ar->budget->live -= ch->size;
        if (ar->alloc || ch->size < BIG_BLOCK)
            free_bytes(ar->alloc, ch, ch->size);
        else
            unmap_big(ch, ch->size);
    }
    ar->head = NULL;
    ar->base = NULL;
}

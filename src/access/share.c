/* A reader's mapping of its file, shared with what points into it: the
 * buffers of exported Arrow arrays. The reader holds one reference and
 * each holder another; the last to let go unmaps the file, so an array
 * may outlive the reader (and the reader the array). Holders may let go
 * from any thread: the count is atomic. */
#include "access/access.h"

#include <stdatomic.h>

struct reader_share {
    const npydt_allocator *alloc;
    struct io_region region;
    atomic_size_t refs;
};

struct reader_share *reader_share(npydt_reader *r)
{
    /* a copy in memory or a writable mapping is the reader's alone */
    if (!r || !r->region.map || r->writable)
        return NULL;
    if (!r->share) {
        struct reader_share *s = alloc_bytes(r->alloc, sizeof *s);
        if (!s)
            return NULL;
        s->alloc = r->alloc;
        s->region = r->region;
        atomic_init(&s->refs, 1);   /* the reader's */
        r->share = s;
    }
    return reader_share_hold(r->share);
}

struct reader_share *reader_share_hold(struct reader_share *s)
{
    atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
    return s;
}

void reader_share_drop(struct reader_share *s)
{
    if (s && atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) == 1) {
        io_region_release(&s->region);
        free_bytes(s->alloc, s, sizeof *s);
    }
}

bool reader_share_has(const struct reader_share *s, const void *p, uint64_t len)
{
    uintptr_t lo = (uintptr_t)s->region.map, at = (uintptr_t)p;
    return at >= lo && at - lo <= s->region.map_len && len <= s->region.map_len - (at - lo);
}

/* The sets of value rules: a 'values' list sorted once when compiled and
 * searched by halves, and the distinct values a 'unique' rule has seen,
 * in a hash table whose memory is bounded. */
#include "values/values.h"

#include <stdlib.h>

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Strings by their units (bytes, or uint32 code units), shorter first on
 * a common prefix: any total order serves the search. */
static int cmp_units(const void *p, size_t plen, const void *q, size_t qlen, size_t unit)
{
    size_t n = plen < qlen ? plen : qlen;
    int c = unit == 1 ? (n ? memcmp(p, q, n) : 0) : 0;
    if (unit != 1)
        for (size_t i = 0; i < n && c == 0; i++) {
            uint32_t x, y;
            memcpy(&x, (const unsigned char *)p + 4 * i, 4);
            memcpy(&y, (const unsigned char *)q + 4 * i, 4);
            c = (x > y) - (x < y);
        }
    return c ? c : (plen > qlen) - (plen < qlen);
}

static int cmp_bytes(const void *a, const void *b)
{
    const struct rule_str *x = a, *y = b;
    return cmp_units(x->p, x->len, y->p, y->len, 1);
}

static int cmp_text(const void *a, const void *b)
{
    const struct rule_str *x = a, *y = b;
    return cmp_units(x->p, x->len, y->p, y->len, 4);
}

void rule_set_sort(void *set, size_t *n, enum rule_domain dom)
{
    size_t size = dom == DOM_BYTES || dom == DOM_TEXT ? sizeof(struct rule_str) : 8;
    int (*cmp)(const void *, const void *) =
        dom == DOM_INT ? cmp_i64 : dom == DOM_UINT ? cmp_u64 : dom == DOM_FLOAT ? cmp_double
        : dom == DOM_BYTES ? cmp_bytes : cmp_text;
    if (*n == 0)
        return;
    qsort(set, *n, size, cmp);
    unsigned char *s = set;
    size_t k = 1;
    for (size_t i = 1; i < *n; i++)
        if (cmp(s + (k - 1) * size, s + i * size) != 0)
            memmove(s + k++ * size, s + i * size, size);
    *n = k;
}

#define DEFINE_HAS(NAME, T)                                                    \
    bool NAME(const T *set, size_t n, T v)                                     \
    {                                                                          \
        size_t lo = 0, hi = n;                                                 \
        while (lo < hi) {                                                      \
            size_t mid = lo + (hi - lo) / 2;                                   \
            if (set[mid] < v)                                                  \
                lo = mid + 1;                                                  \
            else                                                               \
                hi = mid;                                                      \
        }                                                                      \
        return lo < n && set[lo] == v;                                         \
    }
DEFINE_HAS(rule_set_has_i64, int64_t)
DEFINE_HAS(rule_set_has_u64, uint64_t)
DEFINE_HAS(rule_set_has_double, double)

bool rule_set_has_str(const struct rule_str *set, size_t n, const void *p, size_t len,
                      size_t unit)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_units(set[mid].p, set[mid].len, p, len, unit) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && cmp_units(set[lo].p, set[lo].len, p, len, unit) == 0;
}

/* ---- distinct values ------------------------------------------------------ */

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* Bytes the table holds: slots (and hashes) and the string pool. */
static uint64_t held(const struct rule_unique *u, size_t nslots, size_t pool_cap)
{
    return (uint64_t)nslots * (u->pool ? 16 : 8) + pool_cap;
}

static npydt_status too_many(const struct rule_unique *u, npydt_error *err)
{
    return set_error(err, NPYDT_E_LIMIT, NPYDT_NO_OFFSET, NULL,
                     "'unique': %zu distinct values so far need more than %llu bytes "
                     "(max_unique_bytes)", u->used, (unsigned long long)u->max_bytes);
}

/* Double the table (at the start: 1024 slots) and insert again. */
static npydt_status grow(struct rule_unique *u, bool strings, npydt_error *err)
{
    size_t n = u->nslots ? u->nslots * 2 : 1024;
    if (n < u->nslots || n > SIZE_MAX / 8 || held(u, n, u->pool_cap) > u->max_bytes)
        return too_many(u, err);
    uint64_t *slots = alloc_bytes(u->alloc, n * 8);
    uint64_t *hashes = strings ? alloc_bytes(u->alloc, n * 8) : NULL;
    if (!slots || (strings && !hashes)) {
        free_bytes(u->alloc, slots, slots ? n * 8 : 0);
        free_bytes(u->alloc, hashes, hashes ? n * 8 : 0);
        return set_nomem(err);
    }
    memset(slots, 0, n * 8);
    for (size_t i = 0; i < u->nslots; i++) {
        if (!u->slots[i])
            continue;
        uint64_t h = strings ? u->hashes[i] : mix(u->slots[i]);
        size_t j = (size_t)h & (n - 1);
        while (slots[j])
            j = (j + 1) & (n - 1);
        slots[j] = u->slots[i];
        if (strings)
            hashes[j] = h;
    }
    free_bytes(u->alloc, u->slots, u->nslots * 8);
    free_bytes(u->alloc, u->hashes, u->hashes ? u->nslots * 8 : 0);
    u->slots = slots;
    u->hashes = hashes;
    u->nslots = n;
    return NPYDT_OK;
}

npydt_status rule_unique_add_key(struct rule_unique *u, uint64_t key, bool *seen,
                                 npydt_error *err)
{
    if (key == 0) {
        *seen = u->has_zero;
        u->has_zero = true;
        return NPYDT_OK;
    }
    if (u->used + 1 > u->nslots / 2) {
        npydt_status st = grow(u, false, err);
        if (st != NPYDT_OK)
            return st;
    }
    size_t mask = u->nslots - 1, j = (size_t)mix(key) & mask;
    while (u->slots[j]) {
        if (u->slots[j] == key) {
            *seen = true;
            return NPYDT_OK;
        }
        j = (j + 1) & mask;
    }
    u->slots[j] = key;
    u->used++;
    *seen = false;
    return NPYDT_OK;
}

/* A string in the pool at offset o: its length (8 bytes) and bytes. */
static bool pool_eq(const struct rule_unique *u, uint64_t o, const void *p, size_t len)
{
    uint64_t n;
    memcpy(&n, u->pool + o, 8);
    return n == len && (len == 0 || memcmp(u->pool + o + 8, p, len) == 0);
}

npydt_status rule_unique_add_str(struct rule_unique *u, const void *p, size_t len, bool *seen,
                                 npydt_error *err)
{
    uint64_t h = mix(npydt_name_hash(p, len) ^ len);
    if (!u->pool) {   /* marks the table as one of strings */
        u->pool_cap = 4096;
        if (held(u, u->nslots, u->pool_cap) > u->max_bytes)
            return too_many(u, err);
        if (!(u->pool = alloc_bytes(u->alloc, u->pool_cap)))
            return set_nomem(err);
    }
    if (u->used + 1 > u->nslots / 2) {
        npydt_status st = grow(u, true, err);
        if (st != NPYDT_OK)
            return st;
    }
    size_t mask = u->nslots - 1, j = (size_t)h & mask;
    while (u->slots[j]) {
        if (u->hashes[j] == h && pool_eq(u, u->slots[j] - 1, p, len)) {
            *seen = true;
            return NPYDT_OK;
        }
        j = (j + 1) & mask;
    }
    *seen = false;
    size_t need = 8 + len;
    if (need > u->pool_cap - u->pool_len) {
        size_t cap = u->pool_cap;
        while (need > cap - u->pool_len) {
            if (cap > SIZE_MAX / 2)
                return too_many(u, err);
            cap *= 2;
        }
        if (held(u, u->nslots, cap) > u->max_bytes)
            return too_many(u, err);
        unsigned char *pool = realloc_bytes(u->alloc, u->pool, u->pool_cap, cap);
        if (!pool)
            return set_nomem(err);
        u->pool = pool;
        u->pool_cap = cap;
    }
    uint64_t n = len;
    memcpy(u->pool + u->pool_len, &n, 8);
    if (len)
        memcpy(u->pool + u->pool_len + 8, p, len);
    u->slots[j] = (uint64_t)u->pool_len + 1;
    u->hashes[j] = h;
    u->pool_len += need;
    u->used++;
    return NPYDT_OK;
}

void rule_unique_free(struct rule_unique *u)
{
    free_bytes(u->alloc, u->slots, u->nslots * 8);
    free_bytes(u->alloc, u->hashes, u->hashes ? u->nslots * 8 : 0);
    free_bytes(u->alloc, u->pool, u->pool_cap);
    memset(u, 0, sizeof *u);
}

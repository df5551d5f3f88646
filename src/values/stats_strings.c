/* The string kernel of the statistics: the lengths, the order and the
 * hash each value adds to the distinct-value sketch (stats_sketch.c) of
 * S, U and V values, stride bytes apart where they are (S) or gathered
 * (U: code units in the host's order; V). */
#include "values/values.h"

/* The bytes of an S value of size bytes at p without its trailing NULs:
 * 8 bytes at a time from the end, the last nonzero byte of a word found
 * by its highest set bit (the word read little-endian), then the head
 * byte by byte. */
static inline size_t s_length(const unsigned char *p, size_t size)
{
    size_t n = size;
    while (n >= 8) {
        uint64_t w = text_load_le64(p + n - 8);
        if (w)
            return n - 8 + (size_t)(63 - __builtin_clzll(w)) / 8 + 1;
        n -= 8;
    }
    while (n > 0 && p[n - 1] == 0)
        n--;
    return n;
}

/* The bytes of a U value of size bytes at p without its trailing NUL
 * code units. */
static inline size_t u_length(const unsigned char *p, size_t size)
{
    size_t bytes = size - size % 4;
    static const unsigned char zero[4];
    while (bytes >= 4 && memcmp(p + bytes - 4, zero, 4) == 0)
        bytes -= 4;
    return bytes;
}

#define HASH_M1 UINT64_C(0x9e3779b97f4a7c15)
#define HASH_M2 UINT64_C(0xbf58476d1ce4e5b9)

/* The sketch's hash of a stored value of size bytes at p (the same size
 * for every value of a column; the value with its trailing NULs, which
 * stand for one value each): its 8-byte words read little-endian, the
 * last one ending at the value's end (overlapping the one before), each
 * xored in, multiplied by an odd constant and its high half folded down;
 * then one more odd multiply, which spreads every input bit over the
 * high bits the sketch reads. Below 8 bytes, one word of the first and
 * last four, or of the first, middle and last byte. */
static inline uint64_t bytes_hash(const unsigned char *p, size_t size)
{
    uint64_t h = HASH_M2 ^ (uint64_t)size, w;
    if (size >= 8) {
        for (size_t i = 0; i + 8 < size; i += 8) {
            h = (h ^ text_load_le64(p + i)) * HASH_M1;
            h ^= h >> 32;
        }
        w = text_load_le64(p + size - 8);
    } else if (size >= 4) {
        w = text_load_le32(p) | (uint64_t)text_load_le32(p + size - 4) << 32;
    } else if (size > 0) {
        w = (uint64_t)p[0] | (uint64_t)p[size / 2] << 8 | (uint64_t)p[size - 1] << 16;
    } else {
        w = 0;
    }
    h = (h ^ w) * HASH_M1;
    h ^= h >> 32;
    h *= HASH_M2;
    return h ^ (h >> 29);
}

/* The order step from the column's last value to the one of bytes bytes
 * at p, which becomes the last. */
static void order_step(struct stats_column *c, const unsigned char *p, size_t bytes, bool text)
{
    if (c->have_prev) {
        int r = values_string_order(c->prev_s, c->prev_len, p, bytes, text);
        STATS_ORDER_STEP(c->sorted, r, 0);
    } else {
        if (bytes)
            memcpy(c->first_s, p, bytes);
        c->first_len = bytes;
    }
    if (bytes)
        memcpy(c->prev_s, p, bytes);
    c->prev_len = bytes;
    c->have_prev = true;
}

void stats_fold_strings(struct stats_column *c, const unsigned char *x, size_t stride, size_t size,
                        size_t k)
{
    bool text = c->cat == STATS_TEXT;
    uint64_t mn = c->valid ? c->min_len : UINT64_MAX, mx = c->valid ? c->max_len : 0;
    unsigned char *regs = c->hll;
    if (c->kind == 'V') {
        for (size_t i = 0; i < k; i++)
            stats_hll_add(regs, bytes_hash(x + i * stride, size));
        mn = k && size < mn ? size : mn;
        mx = k && size > mx ? size : mx;
    } else if (!text && !c->sorted && size > 8 && size <= 16) {
        /* two words, the last one ending at the value's end, and
         * bytes_hash inline. The length comes from the last word's highest
         * nonzero byte (the head only when that word is all NULs), and
         * words that are larger as unsigned numbers have their highest
         * set bit no lower: the extremes of the lengths are those of the
         * extreme nonzero last words, found with two compares a value. */
        const uint64_t seed = HASH_M2 ^ (uint64_t)size;
        uint64_t wmn = UINT64_MAX, wmx = 0;
        const unsigned char *p = x, *end = x + k * stride;
        for (; p != end; p += stride) {
            uint64_t w0 = text_load_le64(p), w1 = text_load_le64(p + size - 8);
            if (w1) {
                wmn = w1 < wmn ? w1 : wmn;
                wmx = w1 > wmx ? w1 : wmx;
            } else {
                size_t len = s_length(p, size - 8);
                mn = len < mn ? len : mn;
                mx = len > mx ? len : mx;
            }
            uint64_t h = (seed ^ w0) * HASH_M1;
            h ^= h >> 32;
            h = (h ^ w1) * HASH_M1;
            h ^= h >> 32;
            h *= HASH_M2;
            stats_hll_add(regs, h ^ (h >> 29));
        }
        /* 63 - clz as 63 ^ clz: the highest set bit's index */
        if (wmx) {
            size_t lmn = size - 7 + (size_t)(__builtin_clzll(wmn) ^ 63) / 8;
            size_t lmx = size - 7 + (size_t)(__builtin_clzll(wmx) ^ 63) / 8;
            mn = lmn < mn ? lmn : mn;
            mx = lmx > mx ? lmx : mx;
        }
    } else if (!text) {
        for (size_t i = 0; i < k; i++) {
            const unsigned char *p = x + i * stride;
            size_t len = s_length(p, size);
            mn = len < mn ? len : mn;
            mx = len > mx ? len : mx;
            stats_hll_add(regs, bytes_hash(p, size));
            if (c->sorted)
                order_step(c, p, len, false);
        }
    } else {
        for (size_t i = 0; i < k; i++) {
            const unsigned char *p = x + i * stride;
            size_t bytes = u_length(p, size);
            mn = bytes / 4 < mn ? bytes / 4 : mn;
            mx = bytes / 4 > mx ? bytes / 4 : mx;
            stats_hll_add(regs, bytes_hash(p, size));
            if (c->sorted)
                order_step(c, p, bytes, true);
        }
    }
    c->count += k;
    c->valid += k;
    c->min_len = mn;
    c->max_len = mx;
}

void stats_join_string_order(struct stats_column *dst, const struct stats_column *src)
{
    if (!src->have_prev || !src->prev_s)
        return;
    if (!dst->have_prev) {
        dst->sorted = src->sorted;
        if (src->first_len)
            memcpy(dst->first_s, src->first_s, src->first_len);
        dst->first_len = src->first_len;
    } else {
        dst->sorted &= src->sorted;
        if (dst->sorted) {
            int r = values_string_order(dst->prev_s, dst->prev_len, src->first_s, src->first_len,
                                        dst->cat == STATS_TEXT);
            STATS_ORDER_STEP(dst->sorted, r, 0);
        }
    }
    if (src->prev_len)
        memcpy(dst->prev_s, src->prev_s, src->prev_len);
    dst->prev_len = src->prev_len;
    dst->have_prev = true;
}

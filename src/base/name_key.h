/* The library's one hash of a name: a field's (the duplicate check's and
 * a schema's tables) or an archive member's (the npz writer's table); its
 * low bits pick the slot. Private; tests use it to choose names that
 * collide. */
#ifndef NPYDT_NAME_KEY_H
#define NPYDT_NAME_KEY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Every input bit must reach the low bits: names such as 'f0000001' ...
 * 'f0761900' differ only in their last bytes, and a weak final mix left
 * them sharing slots in groups, so that the table ran out of probes and
 * the slower sort decided every large header. */
static inline uint64_t name_key_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

static inline uint32_t name_key_load32(const char *s)
{
    uint32_t w;
    memcpy(&w, s, 4);
    return w;
}

/* Every read is inside s[0..n). With n mixed in, the word read is a
 * one-to-one function of the bytes for names of up to 8 bytes (4 to 7
 * read two overlapping halves, 1 to 3 the first, middle and last byte). */
static inline uint64_t name_key(const char *s, size_t n)
{
    uint64_t h = (uint64_t)n * 0x9e3779b97f4a7c15ull, w;
    if (n >= 8) {
        /* whole words, then the last 8 bytes (overlapping the words) */
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&w, s + i, 8);
            h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
            h ^= h >> 29;
        }
        memcpy(&w, s + n - 8, 8);
    } else if (n >= 4) {
        w = name_key_load32(s) | (uint64_t)name_key_load32(s + n - 4) << 32;
    } else if (n > 0) {
        w = (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8 |
            (uint64_t)(unsigned char)s[n - 1] << 16;
    } else {
        w = 0;
    }
    return name_key_mix(h ^ w);
}

#endif

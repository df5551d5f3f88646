/* npydt dump --sample N [--seed S]: N of the selected elements at random,
 * without replacement, printed in element order.
 *
 * The positions are drawn by Floyd's algorithm (Bentley and Floyd, "A
 * sample of brilliance", CACM 1987): for j = total - n .. total - 1 draw
 * t uniformly in [0, j]; take t, or j when t is taken already. Every
 * n-subset is equally likely, and the work is O(n log n) whatever the
 * size of the array. The generator is splitmix64 (Steele, Lea and Flood
 * 2014) started at the seed; a uniform integer below k is the first
 * output r >= 2^64 mod k, reduced mod k (no bias). Everything is 64-bit
 * integer arithmetic, so a seed gives the same sample on every platform,
 * whatever its word size or byte order. */
#include "cli/dump/dump.h"

#include <stdlib.h>

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A uniform integer in [0, k), k > 0. */
static uint64_t below(uint64_t *state, uint64_t k)
{
    uint64_t skip = (0 - k) % k;   /* 2^64 mod k */
    for (;;) {
        uint64_t r = splitmix64(state);
        if (r >= skip)
            return r % k;
    }
}

static int ascending(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The set of positions taken: open addressing over a power-of-two table
 * at least twice as large as n, a slot holding position + 1 (0: empty).
 * Inserts v unless present; 1 when it was present. */
static int take(uint64_t *slots, unsigned bits, uint64_t v)
{
    uint64_t mask = ((uint64_t)1 << bits) - 1;
    for (uint64_t h = (v * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - bits);; h = (h + 1) & mask) {
        if (slots[h] == v + 1)
            return 1;
        if (slots[h] == 0) {
            slots[h] = v + 1;
            return 0;
        }
    }
}

int dump_sample(uint64_t total, uint64_t n, uint64_t seed, uint64_t **out)
{
    *out = NULL;
    unsigned bits = 1;
    while (((uint64_t)1 << bits) < 2 * n)
        bits++;   /* n <= DUMP_SAMPLE_MAX: at most 23 bits */
    uint64_t *slots = calloc((size_t)1 << bits, sizeof *slots);
    uint64_t *picks = malloc((n ? (size_t)n : 1) * sizeof *picks);
    if (!slots || !picks) {
        free(slots);
        free(picks);
        return -1;
    }
    uint64_t state = seed;
    size_t m = 0;
    for (uint64_t j = total - n; j < total; j++) {
        uint64_t t = below(&state, j + 1);
        picks[m++] = take(slots, bits, t) ? (take(slots, bits, j), j) : t;
    }
    free(slots);
    qsort(picks, m, sizeof *picks, ascending);
    *out = picks;
    return 0;
}

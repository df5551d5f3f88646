/* The host's byte order, and loads and stores of 1-, 2-, 4- and 8-byte
 * integers at any address (memcpy compiles to one load or store), byte
 * swapped or not: the one place that knows either (included by text.h). */
#ifndef NPYDT_TEXT_BYTEORDER_H
#define NPYDT_TEXT_BYTEORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if !defined(__BYTE_ORDER__) || \
    (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ && __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__)
#error "npydt needs a little- or big-endian host that says which (__BYTE_ORDER__)"
#endif

/* The host's order as NumPy's byte-order characters write it; a constant. */
#define TEXT_HOST_BIG (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
#define TEXT_HOST_ORDER (TEXT_HOST_BIG ? '>' : '<')

/* True when a value stored in byte order bo ('<', '>'; '|' and '='
 * never) must be swapped to be read natively. */
static inline bool text_order_swaps(char bo)
{
    return (bo == '<' || bo == '>') && bo != TEXT_HOST_ORDER;
}

/* The 2, 4, 8 bytes at p as a number, byte swapped when swap is set. */
static inline uint16_t text_load16(const void *p, bool swap)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t text_load32(const void *p, bool swap)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t text_load64(const void *p, bool swap)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return swap ? __builtin_bswap64(v) : v;
}

/* v into the 2, 4, 8 bytes at p, byte swapped when swap is set. */
static inline void text_store16(void *p, bool swap, uint16_t v)
{
    v = swap ? __builtin_bswap16(v) : v;
    memcpy(p, &v, 2);
}

static inline void text_store32(void *p, bool swap, uint32_t v)
{
    v = swap ? __builtin_bswap32(v) : v;
    memcpy(p, &v, 4);
}

static inline void text_store64(void *p, bool swap, uint64_t v)
{
    v = swap ? __builtin_bswap64(v) : v;
    memcpy(p, &v, 8);
}

/* Little-endian loads and stores, for formats whose fields are
 * little-endian whatever the host (the .npy preamble, zip records). A
 * store returns the address past the bytes it wrote, so that a record is
 * written field after field: p = text_store_le16(p, v). */
static inline uint16_t text_load_le16(const void *p) { return text_load16(p, TEXT_HOST_BIG); }
static inline uint32_t text_load_le32(const void *p) { return text_load32(p, TEXT_HOST_BIG); }
static inline uint64_t text_load_le64(const void *p) { return text_load64(p, TEXT_HOST_BIG); }

static inline unsigned char *text_store_le16(void *p, uint16_t v)
{
    text_store16(p, TEXT_HOST_BIG, v);
    return (unsigned char *)p + 2;
}

static inline unsigned char *text_store_le32(void *p, uint32_t v)
{
    text_store32(p, TEXT_HOST_BIG, v);
    return (unsigned char *)p + 4;
}

static inline unsigned char *text_store_le64(void *p, uint64_t v)
{
    text_store64(p, TEXT_HOST_BIG, v);
    return (unsigned char *)p + 8;
}

/* An unsigned integer of `size` bytes (1, 2, 4; anything else is 8) at p. */
static inline uint64_t text_load_uint(const void *p, size_t size, bool swap)
{
    switch (size) {
    case 1: return *(const unsigned char *)p;
    case 2: return text_load16(p, swap);
    case 4: return text_load32(p, swap);
    default: return text_load64(p, swap);
    }
}

/* v's low `size` bytes (1, 2, 4; anything else is 8) at p. */
static inline void text_store_uint(void *p, size_t size, bool swap, uint64_t v)
{
    switch (size) {
    case 1: *(unsigned char *)p = (unsigned char)v; break;
    case 2: text_store16(p, swap, (uint16_t)v); break;
    case 4: text_store32(p, swap, (uint32_t)v); break;
    default: text_store64(p, swap, v); break;
    }
}

/* The bits of a double or float as an integer, and back. */
static inline double text_f64_of_bits(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static inline uint64_t text_bits_of_f64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static inline float text_f32_of_bits(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline uint32_t text_bits_of_f32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

#endif

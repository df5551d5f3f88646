/* The headers np.save writes, read directly.
 *
 * np.save always writes one shape of header: {'descr': D, 'fortran_order':
 * B, 'shape': S, } padded with spaces and a newline, where D is a quoted
 * type string or a list of ('name', D[, S]) entries with Python's repr
 * spacing. This reader accepts exactly that (plain ASCII, no escapes) and
 * builds the dtype without tokens or a syntax tree. On any other byte, and
 * on any semantic error, it declines and the general parser reads the
 * header: every error, and every header np.save did not write, gets the
 * general parser's answer. What it accepts is a subset of Python's syntax
 * with the same meaning, so both paths give the same dtype. */
#include "header/header_fast.h"

#include <string.h>

/* Type strings met so far: files repeat a few of them many times, and
 * scalar nodes are immutable, so one node serves every field of a type.
 * Direct-mapped on the string's bytes as one word (so only strings of 1 to
 * 8 bytes, which hold no NUL, and so no two share a word). */
#define TYPE_CACHE 32

/* A word loaded from memory, as the little-endian number its bytes spell
 * (the cache keys put the string's first byte lowest). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NPYDT_LITTLE_ENDIAN_WORD(w) __builtin_bswap64(w)
#else
#define NPYDT_LITTLE_ENDIAN_WORD(w) (w)
#endif

struct cached_type {
    uint64_t key;   /* 0: empty */
    const npydt_dtype *dt;
};

/* The entries of every list being read, innermost last: one stack for the
 * whole header instead of an array per struct. In place while it fits,
 * then in a block the arena can take over: the list that starts at the
 * bottom of the stack (the top-level one, which holds most fields of a
 * large header) then keeps its entries where they were written. */
struct entries {
    struct npydt_field *v;
    size_t n, cap;
    struct arena_block block;   /* v's memory once it outgrew the inline array */
    struct npydt_field inline_v[32];
};

struct fast {
    const char *p, *end;
    struct dtype_ctx *c;
    uint32_t depth, max_depth;
    bool nomem;
    struct entries fields;
    bool cache_ready;   /* cache zeroed (on the first field's type) */
    struct cached_type cache[TYPE_CACHE];
};

static bool lit(struct fast *f, const char *s, size_t n)
{
    if ((size_t)(f->end - f->p) < n || memcmp(f->p, s, n) != 0)
        return false;
    f->p += n;
    return true;
}

#define LIT(f, s) lit((f), (s), sizeof(s) - 1)

static bool open_bracket(struct fast *f, char ch)
{
    if (f->p >= f->end || *f->p != ch || ++f->depth > f->max_depth)
        return false;
    f->p++;
    return true;
}

static bool close_bracket(struct fast *f, char ch)
{
    if (f->p >= f->end || *f->p != ch)
        return false;
    f->p++;
    f->depth--;
    return true;
}

static bool plain_byte(unsigned char ch)
{
    return ch >= 0x20 && ch <= 0x7e && ch != '\'' && ch != '\\';
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* The first byte of [p, end) that is not plain_byte, 16 bytes at a time
 * (x86-64 always has SSE2); names are most of a large header. */
static inline __attribute__((always_inline)) const char *skip_plain(const char *p, const char *end)
{
    const __m128i quote = _mm_set1_epi8('\''), bslash = _mm_set1_epi8('\\'),
                  del = _mm_set1_epi8(0x7f), space = _mm_set1_epi8(0x20);
    for (; end - p >= 16; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        /* signed: below ' ' holds for control bytes and every byte >= 0x80 */
        __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, del), _mm_cmplt_epi8(v, space)));
        unsigned mask = (unsigned)_mm_movemask_epi8(bad);
        if (mask)
            return p + __builtin_ctz(mask);
    }
    while (p < end && plain_byte((unsigned char)*p))
        p++;
    return p;
}
#else
/* Whether any of the 8 bytes in w is not plain_byte. Each test is exact
 * per byte (no borrow crosses bytes), so byte order does not matter. */
static bool word_has_special(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ull, low7 = 0x7f7f7f7f7f7f7f7full,
                   high = 0x8080808080808080ull;
    uint64_t q = w ^ (ones * '\''), b = w ^ (ones * '\\');
    uint64_t is_q = ~(((q & low7) + low7) | q);
    uint64_t is_b = ~(((b & low7) + low7) | b);
    uint64_t below = ~(((w & low7) + ones * (0x80 - 0x20)) | w);
    uint64_t above = ((w & low7) + ones) | w;   /* 0x7f or any byte with the high bit */
    return ((is_q | is_b | below | above) & high) != 0;
}

/* The first byte of [p, end) that is not plain_byte, a word at a time. */
static inline __attribute__((always_inline)) const char *skip_plain(const char *p, const char *end)
{
    for (uint64_t w; end - p >= 8; p += 8) {
        memcpy(&w, p, 8);
        if (word_has_special(w))
            break;
    }
    while (p < end && plain_byte((unsigned char)*p))
        p++;
    return p;
}
#endif

/* '...' with printable ASCII inside and no quote or backslash. Inline:
 * two per field. */
static inline __attribute__((always_inline)) bool quoted(struct fast *f, const char **s, size_t *n)
{
    if (f->p >= f->end || *f->p != '\'')
        return false;
    const char *b = f->p + 1, *p = skip_plain(b, f->end);
    if (p >= f->end || *p != '\'')
        return false;
    *s = b;
    *n = (size_t)(p - b);
    f->p = p + 1;
    return true;
}

/* A decimal integer as repr writes it: no sign, no leading zeros, and
 * (here) at most 18 digits, so below INT64_MAX without overflow checks;
 * longer ones are left to the general parser. */
static bool uint_dec(struct fast *f, uint64_t *v)
{
    const char *b = f->p, *p = b, *end = f->end - b > 19 ? b + 19 : f->end;
    uint64_t x = 0;
    for (; p < end && (unsigned)(*p - '0') <= 9; p++)
        x = x * 10 + (uint64_t)(*p - '0');
    size_t n = (size_t)(p - b);
    if (n == 0 || n > 18 || (n > 1 && *b == '0'))
        return false;
    f->p = p;
    *v = x;
    return true;
}

/* repr of a shape tuple: (), (3,), (3, 4) */
static bool shape(struct fast *f, uint64_t *dims, size_t *ndim, size_t max)
{
    if (!open_bracket(f, '('))
        return false;
    size_t n = 0;
    if (!close_bracket(f, ')')) {
        for (;;) {
            if (n == max || !uint_dec(f, &dims[n++]))
                return false;
            if (n == 1 ? LIT(f, ",)") : LIT(f, ")"))
                break;
            if (!LIT(f, ", "))
                return false;
        }
        f->depth--;
    }
    *ndim = n;
    return true;
}

static bool typestr(struct fast *f, const npydt_dtype **out)
{
    const char *s;
    size_t n;
    if (!quoted(f, &s, &n))
        return false;
    uint64_t key = 0;
    struct cached_type *slot = NULL;
    if (n >= 1 && n <= 8 && f->depth > 1) {   /* a field's type, not the whole descr */
        if (!f->cache_ready) {
            memset(f->cache, 0, sizeof f->cache);
            f->cache_ready = true;
        }
        if (f->end - s >= 8) {   /* one load, the bytes past the string masked off */
            memcpy(&key, s, 8);
            key = NPYDT_LITTLE_ENDIAN_WORD(key);
            if (n < 8)
                key &= ((uint64_t)1 << (8 * n)) - 1;
        } else {
            for (size_t i = 0; i < n; i++)
                key |= (uint64_t)(unsigned char)s[i] << (8 * i);
        }
        slot = &f->cache[(key * 0x9e3779b97f4a7c15ull) >> 59];
        if (slot->key == key) {
            *out = slot->dt;
            return true;
        }
    }
    if (!(*out = typestr_saved(f->c, s, n, &f->nomem))) {
        npydt_status st = f->nomem ? NPYDT_E_NOMEM : typestr_parse(f->c, s, n, 0, out);
        if (st == NPYDT_E_NOMEM)
            f->nomem = true;
        if (st != NPYDT_OK)
            return false;
    }
    if (slot && (*out)->cls == NPYDT_SCALAR)
        *slot = (struct cached_type){key, *out};
    return true;
}

static bool descr(struct fast *f, const npydt_dtype **out);

static bool name(struct fast *f, const char **nm, size_t *n, const char **title, size_t *tn)
{
    const char *s, *t;
    *title = NULL;
    *tn = 0;
    if (open_bracket(f, '(')) {
        if (!quoted(f, &t, tn) || !LIT(f, ", ") || !quoted(f, &s, n) || !close_bracket(f, ')'))
            return false;
        if (!(*title = arena_strndup(f->c->arena, t, *tn)))
            return f->nomem = true, false;
    } else if (!quoted(f, &s, n)) {
        return false;
    }
    if (!(*nm = arena_strndup(f->c->arena, s, *n)))
        return f->nomem = true, false;
    return true;
}

/* Room for one more entry on the stack (which the result does not keep
 * unless adopted). */
static bool reserve_entry(struct fast *f)
{
    struct entries *e = &f->fields;
    if (e->n < e->cap)
        return true;
    size_t cap = 2 * e->cap, bytes;
    if (__builtin_mul_overflow(cap, sizeof *e->v, &bytes))
        return f->nomem = true, false;
    bool moving = e->v == e->inline_v;
    struct npydt_field *p = arena_block_grow(f->c->arena, &e->block, bytes);
    if (!p)
        return f->nomem = true, false;
    if (moving)
        memcpy(p, e->v, e->n * sizeof *p);
    e->v = p;
    e->cap = cap;
    return true;
}

/* Padding entries only move the offset: NumPy drops an entry whose name is
 * '' and whose type is void without fields (plain V types, subarrays). */
static bool field(struct fast *f, uint64_t *offset)
{
    const char *nm, *title;
    size_t n, tn;
    const npydt_dtype *dt;
    if (!open_bracket(f, '(') || !name(f, &nm, &n, &title, &tn) || !LIT(f, ", ") ||
        !descr(f, &dt))
        return false;
    if (LIT(f, ", ")) {
        uint64_t dims[32];
        size_t ndim;
        if (!shape(f, dims, &ndim, sizeof dims / sizeof dims[0]))
            return false;
        /* ('S0', (5,)) is an error, (type, ()) is type: the general
         * parser's dtype_apply_shape has the last word on those */
        if (ndim) {
            if (dt->itemsize == 0 && dt->cls != NPYDT_STRUCT)
                return false;
            npydt_status st = dtype_make_subarray(f->c, dt, dims, ndim, 0, &dt);
            if (st != NPYDT_OK)
                return f->nomem = st == NPYDT_E_NOMEM, false;
        } else {
            return false;
        }
    }
    if (!close_bracket(f, ')'))
        return false;
    bool padding = !title && n == 0 &&
                   ((dt->cls == NPYDT_SCALAR && dt->kind == 'V') || dt->cls == NPYDT_SUBARRAY);
    if (!padding) {
        if (!reserve_entry(f))
            return false;
        f->fields.v[f->fields.n++] = (struct npydt_field){nm, title, *offset, dt, n, tn};
    }
    /* both are at most NPYDT_MAX_ITEMSIZE: no overflow */
    *offset += dt->itemsize;
    return *offset <= NPYDT_MAX_ITEMSIZE;
}

static bool descr(struct fast *f, const npydt_dtype **out)
{
    if (f->p < f->end && *f->p == '\'')
        return typestr(f, out);
    if (!open_bracket(f, '['))
        return false;
    struct entries *e = &f->fields;
    size_t base = e->n;
    uint64_t offset = 0;
    if (!close_bracket(f, ']')) {
        for (;;) {
            if (!field(f, &offset))
                return false;
            if (close_bracket(f, ']'))
                break;
            if (!LIT(f, ", "))
                return false;
        }
    }
    size_t n = e->n - base, dup;
    const struct npydt_field *fields = e->v + base;
    bool adopt = base == 0 && e->v != e->inline_v;
    if (!adopt) {
        struct npydt_field *copy = arena_alloc_array_raw(f->c->arena, n ? n : 1, sizeof *copy);
        if (!copy)
            return f->nomem = true, false;
        memcpy(copy, fields, n * sizeof *copy);
        fields = copy;
    }
    npydt_status st = dtype_struct_of_fields(f->c, fields, n, offset, 0, &dup, out);
    if (st != NPYDT_OK)   /* a repeated name: the general parser reports it */
        return f->nomem = st == NPYDT_E_NOMEM, false;
    if (adopt) {
        arena_block_adopt(f->c->arena, &e->block);
        e->v = e->inline_v;
        e->cap = sizeof e->inline_v / sizeof e->inline_v[0];
    }
    e->n = base;
    return true;
}

npydt_status header_fast(struct dtype_ctx *c, const char *text, size_t len, bool *fortran,
                         uint64_t **shape_out, size_t *ndim, const npydt_dtype **dt)
{
    struct fast f;
    f.p = text;
    f.end = text + len;
    f.c = c;
    f.depth = 0;
    f.max_depth = c->limits->max_depth;
    f.nomem = false;
    f.fields.v = f.fields.inline_v;
    f.fields.n = 0;
    f.fields.cap = sizeof f.fields.inline_v / sizeof f.fields.inline_v[0];
    f.fields.block = (struct arena_block){NULL, 0};
    f.cache_ready = false;
    uint64_t dims[32];
    size_t n;
    size_t max = c->limits->max_ndim < 32 ? c->limits->max_ndim : 32;
    bool ok = open_bracket(&f, '{') && LIT(&f, "'descr': ") && descr(&f, dt) &&
              LIT(&f, ", 'fortran_order': ") &&
              ((LIT(&f, "False") && (*fortran = false, true)) ||
               (LIT(&f, "True") && (*fortran = true, true))) &&
              LIT(&f, ", 'shape': ") && shape(&f, dims, &n, max) && LIT(&f, ", }");
    arena_block_free(c->arena, &f.fields.block);
    if (f.nomem)
        return set_nomem(c->err);
    if (!ok)
        return NPYDT_E_SYNTAX;
    for (uint64_t w; f.end - f.p >= 8; f.p += 8) {   /* np.save's padding */
        memcpy(&w, f.p, 8);
        if (w != 0x2020202020202020ull)
            break;
    }
    while (f.p < f.end && (*f.p == ' ' || *f.p == '\n'))
        f.p++;
    if (f.p != f.end)
        return NPYDT_E_SYNTAX;
    *shape_out = arena_alloc_array(c->arena, n ? n : 1, sizeof **shape_out);
    if (!*shape_out)
        return set_nomem(c->err);
    memcpy(*shape_out, dims, n * sizeof dims[0]);
    *ndim = n;
    return NPYDT_OK;
}

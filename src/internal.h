/* Private declarations shared by the library's modules. Not installed. */
#ifndef NPYDT_INTERNAL_H
#define NPYDT_INTERNAL_H

#include "npydt.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* NumPy stores itemsize in a C int: every dtype size must fit. */
#define NPYDT_MAX_ITEMSIZE ((uint64_t)INT32_MAX)

/* ---- checked arithmetic ---------------------------------------------- */

static inline bool ck_add(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_add_overflow(a, b, out);
}

static inline bool ck_mul(uint64_t a, uint64_t b, uint64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

/* Sums and products of sizes that only feed limit checks: stuck at the
 * maximum instead of wrapping. */
static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static inline uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* ---- allocation -------------------------------------------------------- */

void *alloc_bytes(const npydt_allocator *a, size_t size);
void *realloc_bytes(const npydt_allocator *a, void *p, size_t old_size, size_t new_size);
void free_bytes(const npydt_allocator *a, void *p, size_t size);

/* A bump allocator: every node of one parse result lives in one arena and
 * goes away with one arena_release. Aligned allocations rise from the
 * bottom of the head chunk, strings (which need no alignment) come down
 * from its top. */
struct arena_chunk;
struct arena {
    const npydt_allocator *alloc;
    struct arena_chunk *head;
    struct arena_chunk *adopted; /* blocks taken over by arena_block_adopt */
    unsigned char *base;     /* head's data, or NULL */
    size_t first;            /* usable bytes of the first chunk */
    size_t used;     /* bytes used from the bottom of head */
    size_t cap;      /* bottom of the strings at the top of head */
    size_t size;     /* usable bytes in head */
    size_t total;    /* bytes obtained from the allocator, for statistics */
};

void arena_init(struct arena *ar, const npydt_allocator *alloc);
/* Size the first chunk for a parse of text_len bytes (before any allocation). */
void arena_expect(struct arena *ar, size_t text_len);
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

/* A growable array outside the arena (a stack of entries being read)
 * that the arena can take over whole instead of copying it. */
struct arena_block {
    struct arena_chunk *chunk;   /* NULL until the first growth */
    size_t size;                 /* usable bytes */
};
/* Grow b to at least `size` usable bytes, keeping its contents; its data. */
void *arena_block_grow(struct arena *ar, struct arena_block *b, size_t size);
/* Hand b's memory to ar (freed by arena_release); b is empty again. */
void arena_block_adopt(struct arena *ar, struct arena_block *b);
void arena_block_free(struct arena *ar, struct arena_block *b);
void arena_release(struct arena *ar);

/* ---- options and files ----------------------------------------------------- */

/* Ceiling on limits.max_depth: descriptor conversion recurses once per level. */
#define NPYDT_DEPTH_CEILING 4096u

/* opts, or the defaults written into *defaults when opts is NULL. */
const npydt_options *options_or_default(const npydt_options *opts, npydt_options *defaults);
/* Refuse limits above their ceilings and allocators missing a function. */
npydt_status options_check(const npydt_options *opts, npydt_error *err);
/* Open path for reading (or reading and writing) without blocking on FIFOs. */
npydt_status io_open(const char *path, int writable, int *fd, npydt_error *err);
/* pread n bytes at off, retrying short reads; *got < n only at end of file. */
npydt_status io_pread(int fd, void *buf, size_t n, uint64_t off, size_t *got, npydt_error *err);

/* ---- errors -------------------------------------------------------------- */

/* Fill err (when non-NULL) and return code. path may be NULL. */
npydt_status set_error(npydt_error *err, npydt_status code, size_t offset,
                       const char *path, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
npydt_status set_errorv(npydt_error *err, npydt_status code, size_t offset,
                        const char *path, const char *fmt, va_list ap);
npydt_status set_nomem(npydt_error *err);

/* ---- the Python literal syntax tree -------------------------------------- */

enum lit_kind {
    LIT_STR, LIT_BYTES, LIT_INT, LIT_FLOAT, LIT_BOOL, LIT_NONE,
    LIT_TUPLE, LIT_LIST, LIT_DICT
};

struct lit {
    enum lit_kind kind;
    size_t start, end;          /* byte offsets in the header text */
    struct lit *next;           /* sibling in a tuple / list / dict */
    union {
        struct { char *s; size_t len; } str;          /* UTF-8, NUL-terminated */
        struct { uint64_t mag; bool neg; bool big; } num;
        bool b;
        struct { struct lit *head, *tail; size_t n; } seq; /* dict: k,v,k,v */
    } u;
};

/* Parser input and state; everything a parse touches lives here. */
struct lit_parser {
    const unsigned char *text;   /* NUL-terminated copy of the header text */
    size_t len;
    int major;                   /* format version: 1 and 2 filter 'L' suffixes */
    const npydt_limits *limits;
    struct arena *arena;
    npydt_error *err;
    npydt_status status;         /* first error wins */
    struct lit *result;
    /* lexer */
    const unsigned char *cur, *tok;
    uint32_t depth;
    bool last_was_int;
};

/* Parse the whole text as one Python literal (ast.literal_eval subset).
 * On success p->result is set; on failure err is filled. */
npydt_status lit_parse(struct lit_parser *p);

/* Lexer entry used by the push-parser driver. Returns a token number from
 * the Bison parser; fills *val and the byte span. */
int lit_lex(struct lit_parser *p, struct lit **val, size_t *start, size_t *end);

/* ---- dtypes ------------------------------------------------------------- */

struct npydt_field {
    const char *name;
    const char *title;       /* NULL when none */
    uint64_t offset;
    const npydt_dtype *dtype;
    size_t name_len;         /* strlen(name) */
};

/* Totals of a dtype's tree, kept in every node as it is built, so that the
 * leaf table is sized and its path budget checked without a counting walk.
 * Fields inside a subarray count once, as the table holds them once. */
struct dtype_totals {
    uint64_t leaves;         /* leaf table entries */
    uint64_t fields;         /* struct fields at every level */
    uint64_t path_bytes;     /* their paths with this node as the root, NULs included */
    uint64_t path_bytes_dotted; /* the same below a non-empty path: each gains a '.'
                                 * there, where an empty prefix adds none */
    uint64_t name_bytes;     /* names and titles, plus one per struct and subarray */
    uint32_t struct_depth;   /* deepest chain of structs */
};

struct dtype_root;

struct npydt_dtype {
    npydt_dtype_class cls;
    char kind;               /* scalar kind; 'V' for struct and subarray */
    char byteorder;          /* '<', '>', '|' */
    bool has_object;
    int8_t unit;             /* npydt_unit */
    int32_t unit_count;
    uint64_t itemsize;
    size_t nfields;
    struct npydt_field *fields;
    size_t ndim;
    uint64_t *shape;
    const npydt_dtype *base;
    struct dtype_root *root; /* set on root nodes only */
    struct dtype_totals totals;
};

/* Owner of a parse result's arena and its derived tables. */
struct dtype_root {
    struct arena arena;
    bool owns_arena;         /* false when a header owns it */
    npydt_leaf *leaves;
    size_t nleaves;
};

/* Context for building dtypes: where nodes go and how errors are named. */
struct dtype_ctx {
    struct arena *arena;
    struct arena *scratch;   /* for what the result does not keep, or NULL: arena */
    const npydt_limits *limits;
    npydt_error *err;
    size_t nfields;          /* fields created so far, against max_fields */
    char path[256];          /* current field path for messages */
};

/* Set up c (path empty; the rest of its buffer is left as it is: zeroing
 * it was a tenth of a one-line header's parse). */
static inline void dtype_ctx_init(struct dtype_ctx *c, struct arena *arena,
                                  struct arena *scratch, const npydt_limits *limits,
                                  npydt_error *err)
{
    c->arena = arena;
    c->scratch = scratch;
    c->limits = limits;
    c->err = err;
    c->nfields = 0;
    c->path[0] = '\0';
}

npydt_dtype *dtype_new_scalar(struct dtype_ctx *c, char kind, char byteorder,
                              uint64_t itemsize);
/* A read-only node shared by every parse for numeric kinds (b i u f c O),
 * or NULL for any other kind, size or order. */
const npydt_dtype *dtype_shared_scalar(char kind, char byteorder, uint64_t itemsize);
/* The shared nodes of kinds i, u, f, c by [kind][log2 size][order '>'],
 * sizes 1 to 32 ('<' and '>' only: 1-byte ones come from
 * dtype_shared_scalar with order '|'). */
extern const npydt_dtype dtype_builtin_ordered[4][6][2];
/* The same for a datetime (kind M or m) of the given unit and multiplier
 * 1, or NULL for any other kind, order or unit. */
const npydt_dtype *dtype_shared_datetime(char kind, char byteorder, int unit);
/* Wrap base in a subarray of the given shape, checking sizes like NumPy. */
npydt_status dtype_make_subarray(struct dtype_ctx *c, const npydt_dtype *base,
                                 const uint64_t *shape, size_t ndim, size_t offset,
                                 const npydt_dtype **out);

/* np.save's type strings ('<f8', '|S16', '<M8[ns]'), which typestr_parse
 * tries first: numeric and datetime types are shared nodes, S, U and V get
 * a node of their size. NULL for any other string, and on running out of
 * memory (*nomem set). */
const npydt_dtype *typestr_saved(struct dtype_ctx *c, const char *s, size_t n, bool *nomem);

/* np.dtype(str) for a string found at `offset` in the header. */
npydt_status typestr_parse(struct dtype_ctx *c, const char *s, size_t len,
                           size_t offset, const npydt_dtype **out);

/* numpy.lib.format.descr_to_dtype for a literal. */
npydt_status descr_from_lit(struct dtype_ctx *c, const struct lit *v,
                            const npydt_dtype **out);

/* Compute the leaf table and attach the root record to dt. */
npydt_status layout_build_root(struct dtype_ctx *c, npydt_dtype *dt, bool owns_arena);

/* Python repr() of a UTF-8 string into an output buffer. */
struct outbuf {
    char *buf;
    size_t size;   /* capacity */
    size_t len;    /* bytes that would have been written */
};
void out_putc(struct outbuf *o, char c);
void out_puts(struct outbuf *o, const char *s);
void out_printf(struct outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_pyrepr(struct outbuf *o, const char *utf8);
bool unicode_is_printable(uint32_t cp);

/* UTF-8 helpers. */
/* Decode one code point; returns bytes used or 0 on invalid input. */
size_t utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);
size_t utf8_encode(uint32_t cp, char out[4]);

#endif

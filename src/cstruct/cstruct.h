/* The cstruct stage: C declarations that reproduce a NumPy record
 * layout (npydt_cstruct_* in npydt.h). No later stage uses it; this
 * header holds what its files share: text (text.c), names (names.c), C
 * types of scalars (types.c), struct definitions (emit.c), one dtype's
 * declarations (generate.c) and the translation unit (unit.c). Memory
 * comes from the caller's allocator (options), released piece by piece as
 * the generator goes: it holds names and text, not a tree. */
#ifndef NPYDT_CSTRUCT_H
#define NPYDT_CSTRUCT_H

#include "npydt.h"
#include "text/text.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Where the dtype came from, for the comment at the top of the output. */
typedef struct cstruct_source {
    const char *label;          /* file path, ARCHIVE:MEMBER; NULL for a descriptor */
    const npydt_header *header; /* the file's header, NULL for a descriptor */
    int member;                 /* the header is an archive member's: its data
                                 * offset counts from the member's first byte */
} cstruct_source;

/* A set of strings (member names of one struct, struct tags, the
 * identifiers earlier archive members took); start it with
 * NAMESET_INIT(allocator). The names are held once, NUL-terminated one
 * after the other in text in the order added; a name is known by its
 * offset there, and the table holds offset + 1 (0: an empty slot). */
struct nameset {
    const npydt_allocator *alloc;
    char *text;
    size_t len, text_cap;
    uint32_t *slot;
    size_t cap, count;   /* cap a power of two, at most half full */
};
#define NAMESET_INIT(a) {.alloc = (a)}
/* True when name is in the set. */
int nameset_has(const struct nameset *set, const char *name);
/* Add a copy of name, which must not be in the set yet, its offset in
 * *at (when at is not NULL); -1 without memory or past 4 GiB of names. */
int nameset_add(struct nameset *set, const char *name, uint32_t *at);
/* Make room for n more names in the table (not their text); -1 without
 * memory. */
int nameset_reserve(struct nameset *set, size_t n);
/* The name at offset at; valid until the next nameset_add. */
static inline const char *nameset_name(const struct nameset *set, uint32_t at)
{
    return set->text + at;
}
/* Release the names and the table. */
void nameset_free(struct nameset *set);

/* ---- growable text (text.c) ---- */

/* Text being written: the text stage's growing buffer t over the
 * caller's allocator, its text t.buf[0..t.len) NUL-terminated once
 * anything is written; after a failed allocation t.failed is set and
 * every later write does nothing. Start it with sb_new(allocator). With
 * spills set, text past SBUF_SPILL_AT bytes held goes on to an unnamed
 * temporary file (spill), created then: small texts never touch the disk,
 * long ones are not held (a failed temporary file sets t.failed and
 * spill_failed, with spill_errno). */
struct sbuf {
    struct text_buf t;
    int spills;
    FILE *spill;
    int spill_failed, spill_errno;
};
#define SBUF_SPILL_AT ((size_t)1 << 20)
/* An empty buffer taking memory from a (NULL: the C library). */
struct sbuf sb_new(const npydt_allocator *a);
void sb_putn(struct sbuf *b, const char *s, size_t n);
/* The whole text of b, spilled part first, handed to put in pieces: 0, or
 * -1 when the temporary file cannot be read (errno set). */
int sb_drain(struct sbuf *b, void (*put)(void *ctx, const char *s, size_t n), void *ctx);
/* Release the buffer and the temporary file; b is then empty, with the
 * same allocator. */
void sb_free(struct sbuf *b);
void sb_puts(struct sbuf *b, const char *s);
void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Python's spelling of a shape tuple (text_shape_tuple). */
void sb_put_shape(struct sbuf *b, const uint64_t *shape, size_t ndim);
/* s[0..len) in double quotes, safe inside a C comment (no end of
 * comment, trigraph, control character or invalid UTF-8), cut after max
 * bytes with "...". */
void put_quoted_n(struct sbuf *b, const char *s, size_t len, size_t max);
/* The same for a NUL-terminated s. */
void put_quoted(struct sbuf *b, const char *s, size_t max);

/* ---- the generator's result (generate.c) ---- */

/* The declarations generated for one dtype (filled by cstruct_generate,
 * released by cstruct_text_free; memory from opts' allocator): the leading comment, the struct
 * definitions (past a size, in an unnamed temporary file: they can be far
 * longer than the header, a tag and its members being spelled on every
 * static_assert), and the struct tags they declare. */
typedef struct cstruct_text {
    struct sbuf head, body;
    struct nameset tags;
} cstruct_text;

/* Generate the declarations for dt (a root dtype) with root tag `name`
 * into *out. 0, or -1 with err filled (object fields, overlapping fields,
 * out of memory, a temporary file that cannot be written); *out then
 * holds nothing. */
int cstruct_generate(const npydt_dtype *dt, const char *name, const cstruct_source *src,
                     const npydt_allocator *alloc, cstruct_text *out, npydt_error *err);
/* Hand the whole text to put, in pieces. 0, or -1 with err filled when
 * the temporary file cannot be read. */
int cstruct_text_put(cstruct_text *t, void (*put)(void *ctx, const char *s, size_t n), void *ctx,
                     npydt_error *err);
void cstruct_text_free(cstruct_text *t);

/* ---- names (names.c) ---- */

/* A keyword of C or C++, or a macro of the headers the output includes. */
int cstruct_reserved_word(const char *s);
/* The member name for a NumPy field name of len bytes (the rule in
 * names.c), appended to out; -1 without memory. */
int cstruct_sanitize(const char *name, size_t len, struct sbuf *out);
/* True when name can be the root struct tag: a C identifier that is not a
 * keyword, not reserved (leading "__" or "_X") and not a macro of the
 * headers the output includes. */
int cstruct_name_ok(const char *name);
/* base, else base_2, base_3, ...: the first not in set, added to it, its
 * offset in *at; -1 without memory. */
int cstruct_unique_name(struct nameset *set, const char *base, uint32_t *at);

/* ---- scalar types (types.c) ---- */

/* How a NumPy scalar type is declared in C. */
struct scalar_map {
    const char *ctype;  /* C type of one element */
    size_t csize;       /* its size */
    size_t calign;      /* its alignment */
    uint64_t inner;     /* extra innermost dimension (S, U, V, raw), 0 if none */
    int ext80;          /* x87 extended precision (f16, c32): bytes */
    int raw;            /* no C type: raw bytes */
};
/* The declaration of a scalar dtype. */
void cstruct_map_scalar(const npydt_dtype *dt, struct scalar_map *m);

/* ---- one run of the generator ---- */

struct gen {
    const npydt_allocator *alloc;
    const char *root;      /* tag of the record struct */
    struct sbuf body;      /* struct definitions, innermost first */
    struct nameset tags;   /* struct tags handed out */
    int host_little;
    uint64_t nonnative;    /* members stored in the other byte order */
    uint64_t packed;       /* structs that needed packing */
    uint64_t zero;         /* zero-size fields left as comments */
    int uses_complex;      /* c8/c16 members: the complex typedefs are needed */
    npydt_error *err;
};

/* A field of a struct being written whose element is itself a struct:
 * the tag and C alignment given to it. */
struct nested_member {
    uint32_t field;  /* index of the field */
    uint32_t tag;    /* offset in the generator's tags */
    uint32_t align;
};

/* The fields of one struct being written: what it holds per field is the
 * offset of its C name in names (4 bytes), plus a record per nested
 * struct; the rest is read from the dtype when needed (member_get), so
 * that a struct of many fields costs little more than its names. */
struct members {
    const npydt_dtype *dt;     /* the struct; NULL for the one member "value" */
    const npydt_dtype *value;  /* of a plain or subarray dtype: the member's dtype */
    size_t n;
    uint32_t *cname;           /* [n]: offsets in names */
    struct nested_member *nested; /* by field index */
    size_t nnested, nested_cap;
    struct nameset names;      /* the member names taken */
};

/* Field i of a struct, as read from its dtype. */
struct field {
    const char *name;          /* NumPy name; NULL for the root's "value" */
    const char *title;         /* NULL when none */
    size_t name_len, title_len; /* a name or title may hold a NUL */
    const char *cname;         /* C member name (valid until names grows) */
    const char *tag;           /* struct tag when elem is a struct, else NULL */
    uint64_t offset, size;
    const npydt_dtype *dtype;  /* the field's dtype (may be a subarray) */
    const npydt_dtype *elem;   /* innermost non-subarray node */
    struct scalar_map map;     /* when elem is a scalar */
    size_t align;              /* C alignment of the member */
    int zero;                  /* no bytes: a comment, no member */
};

/* Fill *f for field i of ms. */
void member_get(const struct gen *g, const struct members *ms, size_t i, struct field *f);
/* The field's path below the struct at parent ("pos.x"), for messages
 * and nested structs, appended to out (t.buf never NULL on success); -1
 * without memory. Built when needed: one per member would hold depth x
 * name bytes per field. */
int gen_member_path(const char *parent, size_t plen, const struct field *f, struct sbuf *out);
/* Fill g's error (code, field path, message); the caller then fails. */
void gen_fail(struct gen *g, npydt_status code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* gen_fail for out of memory; returns -1. */
int gen_fail_nomem(struct gen *g);
/* gen_fail for g's body that could not be written (out of memory, or its
 * temporary file); returns -1. */
int gen_fail_body(struct gen *g);
/* How a member stored in byte order `order` reads on this machine, for
 * its comment; NULL when byte order does not apply. */
const char *gen_order_phrase(const struct gen *g, char order);
/* Write struct `tag` (at that offset in g's tags) for the prepared
 * members ms of a record of itemsize bytes; sets *align_out to the
 * struct's C alignment. 0, or -1 with g's error set. */
int gen_emit_struct(struct gen *g, uint32_t tag, const char *path, size_t path_len,
                    uint64_t itemsize, struct members *ms, size_t *align_out);

#endif

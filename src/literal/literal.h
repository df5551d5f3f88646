/* The Python literal syntax tree a header's text is parsed into, and the
 * parse (literal stage: what later stages may use). */
#ifndef NPYDT_LITERAL_H
#define NPYDT_LITERAL_H

#include "base/base.h"

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
        struct { char *s; size_t len; } str;          /* UTF-8, NUL-terminated; may
                                                       * hold NULs: use len */
        struct { uint64_t mag; bool neg; bool big; } num;
        bool b;
        struct { struct lit *head, *tail; size_t n; } seq; /* dict: k,v,k,v */
    } u;
};

/* True when a string literal is exactly key (a NUL inside never matches). */
static inline bool lit_str_is(const struct lit *v, const char *key)
{
    return name_eq(v->u.str.s, v->u.str.len, key, strlen(key));
}

/* What the literal will be read as: a header dict, whose values may be
 * descriptors, or a descriptor. The fields of its descriptors are counted
 * as they are read, and a literal that holds more than limits->max_fields
 * is refused as soon as it is known to (NPYDT_E_LIMIT at the entry that
 * passes the limit), before the rest of its tree is built. */
enum lit_root { LIT_ROOT_DESCR, LIT_ROOT_HEADER };

/* Validate text (NUL bytes, UTF-8 for version 3, indentation), copy it
 * into ar and parse it as one literal. The strings of the tree live in ar
 * (most of them in that copy of the text), its nodes in `nodes` (NULL:
 * ar too), which the caller may release once it has read the tree. Error
 * offsets are into text. */
npydt_status lit_parse_text(struct arena *ar, struct arena *nodes, const char *text, size_t len,
                            int major, enum lit_root root, const npydt_limits *limits,
                            npydt_error *err, struct lit **out);

/* The same with the two reading rules chosen apart: utf8 (else latin-1)
 * and long_suffix (Python 2 'L' after an integer is dropped). A header of
 * version major reads as (major >= 3, major < 3); a schema, typed as UTF-8
 * but often copied from a 1.0 header, as (true, true). */
npydt_status lit_parse_text_as(struct arena *ar, struct arena *nodes, const char *text,
                               size_t len, bool utf8, bool long_suffix, enum lit_root root,
                               const npydt_limits *limits, npydt_error *err, struct lit **out);

#endif

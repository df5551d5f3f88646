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
        struct { char *s; size_t len; } str;          /* UTF-8, NUL-terminated */
        struct { uint64_t mag; bool neg; bool big; } num;
        bool b;
        struct { struct lit *head, *tail; size_t n; } seq; /* dict: k,v,k,v */
    } u;
};

/* Validate text (NUL bytes, UTF-8 for version 3, indentation), copy it
 * into ar and parse it as one literal. The strings of the tree live in ar
 * (most of them in that copy of the text), its nodes in `nodes` (NULL:
 * ar too), which the caller may release once it has read the tree. Error
 * offsets are into text. */
npydt_status lit_parse_text(struct arena *ar, struct arena *nodes, const char *text, size_t len,
                            int major, const npydt_limits *limits, npydt_error *err,
                            struct lit **out);

#endif

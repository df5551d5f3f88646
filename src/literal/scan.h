/* What the lexer (grammar/lexer.re) and its composite tokens (composite.c)
 * share: the syntax tree's node makers, the byte scanners and the bracket
 * depth; inside the literal stage only. Token numbers come from the
 * generated parser.h. */
#ifndef NPYDT_LITERAL_SCAN_H
#define NPYDT_LITERAL_SCAN_H

#include "literal/grammar.h"
#include "parser.h"

#include <string.h>

/* A node of the syntax tree in the nodes arena, or NULL (p->status set)
 * when out of memory. */
static inline struct lit *new_lit(struct lit_parser *p, enum lit_kind kind, size_t start, size_t end)
{
    struct lit *v = arena_alloc_raw(p->nodes, sizeof *v);
    if (!v) {
        if (p->status == NPYDT_OK)
            p->status = set_nomem(p->err);
        return NULL;
    }
    *v = (struct lit){.kind = kind, .start = start, .end = end};
    return v;
}

/* Whether byte c of a string body may be handed out as it is: printable
 * ASCII other than a backslash and the quote q. Anything else (escapes,
 * line breaks, latin-1 or UTF-8 bytes) goes through decode_string. */
static inline bool plain_byte(unsigned char c, unsigned char q)
{
    return c >= 0x20 && c <= 0x7e && c != '\\' && c != q;
}

#if defined(__SSE2__)
#include <emmintrin.h>

/* The first byte of [s, lim) that is not plain_byte(., q), 16 bytes at a
 * time: names are most of a large header's bytes. */
static inline const unsigned char *skip_plain(const unsigned char *s, const unsigned char *lim,
                                       unsigned char q)
{
    const __m128i quote = _mm_set1_epi8((char)q), bslash = _mm_set1_epi8('\\'),
                  del = _mm_set1_epi8(0x7f), space = _mm_set1_epi8(0x20);
    for (; lim - s >= 16; s += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
        /* signed: below ' ' holds for control bytes and every byte >= 0x80 */
        __m128i bad = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, del), _mm_cmplt_epi8(v, space)));
        unsigned mask = (unsigned)_mm_movemask_epi8(bad);
        if (mask)
            return s + __builtin_ctz(mask);
    }
    while (s < lim && plain_byte(*s, q))
        s++;
    return s;
}
#else
/* The first byte of [s, lim) that is not plain_byte(., q). */
static inline const unsigned char *skip_plain(const unsigned char *s, const unsigned char *lim,
                                       unsigned char q)
{
    while (s < lim && plain_byte(*s, q))
        s++;
    return s;
}
#endif

/* A string literal whose body [b, e) is its value, as it is: it stays in
 * the text, where its closing quote at e, which nothing reads again,
 * becomes its NUL. start is where the literal begins (prefix or quote). */
static inline struct lit *span_lit(struct lit_parser *p, enum lit_kind kind, size_t start,
                            const unsigned char *b, const unsigned char *e)
{
    struct lit *v = new_lit(p, kind, start, (size_t)(e + 1 - p->text));
    if (v) {
        p->text[e - p->text] = '\0';
        v->u.str.s = (char *)(p->text + (b - p->text));
        v->u.str.len = (size_t)(e - b);
    }
    return v;
}

static inline int open_bracket(struct lit_parser *p, int tok)
{
    if (++p->depth > p->limits->max_depth) {
        if (p->status == NPYDT_OK)
            p->status = set_error(p->err, NPYDT_E_LIMIT, (size_t)(p->tok - p->text), NULL,
                                  "nesting deeper than %u brackets", p->limits->max_depth);
        return -1;
    }
    if (p->depth == 1)
        p->outer = tok;
    return tok;
}

static inline int close_bracket(struct lit_parser *p, int tok)
{
    if (p->depth > 0)
        p->depth--;
    return tok;
}

/* The first byte of [s, lim) that is not a space: np.save pads its
 * headers with dozens, and the lexer's rules would take them one by one. */
static inline const unsigned char *skip_spaces(const unsigned char *s, const unsigned char *lim)
{
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' ');
    for (; lim - s >= 16; s += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, space)) ^ 0xffffu;
        if (mask)
            return s + __builtin_ctz(mask);
    }
#endif
    while (s < lim && *s == ' ')
        s++;
    return s;
}

/* The first byte of [s, lim] that is not a space, tab or form feed; the
 * NUL at lim (the text holds no other) stops it there. */
static inline const unsigned char *skip_hs(const unsigned char *s, const unsigned char *lim)
{
    (void)lim;
    while (*s == ' ' || *s == '\t' || *s == '\f')
        s++;
    return s;
}


/* np.save's usual runs as one token each (composite.c): after "(" and
 * spaces at a quote, a pair, a run of pairs or a tuple head; after "["
 * and spaces at a '(', a list of pairs; after "(" and spaces at a digit
 * or ')', a shape; at a key's quote in the top-level dict, an entry (0
 * when the text is none). Each returns its token, or -1 on an error
 * reported in p. */
int lit_lex_pair(struct lit_parser *p, struct lit **val);
int lit_lex_list(struct lit_parser *p, struct lit **val);
int lit_lex_shape(struct lit_parser *p, struct lit **val);
int lit_lex_entry(struct lit_parser *p, struct lit **val);

#endif

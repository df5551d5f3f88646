/* What the lexer (grammar/lexer.re) and its composite tokens (composite.c)
 * share: the byte scanners, string spans and the bracket depth (nodes are
 * made by grammar.h's new_lit and seq_append); inside the literal stage
 * only. Token numbers come from the generated parser.h. */
#ifndef NPYDT_LITERAL_SCAN_H
#define NPYDT_LITERAL_SCAN_H

#include "literal/grammar.h"
#include "parser.h"

#include <string.h>

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

/* ---- fields counted as they are read (field_count.c) ---- */

/* Where a value that begins at p->depth goes. */
static inline enum fc_position fc_position(const struct lit_parser *p)
{
    const struct fc_level *lv = &p->fc[p->fc_top];
    return p->depth == p->fc_top ? (enum fc_position)lv->pos[lv->item] : FC_POS_OTHER;
}

/* The limit error at byte at: -1. */
int fc_limit_error(struct lit_parser *p, size_t at);

/* One more field, whose entry is at byte at: -1 (p->status set) when it
 * passes limits->max_fields. */
static inline int fc_count(struct lit_parser *p, size_t at)
{
    return ++p->nfields <= p->limits->max_fields ? 0 : fc_limit_error(p, at);
}

/* Fields that may still be counted (nfields never passes the limit). */
static inline size_t fc_left(const struct lit_parser *p)
{
    return p->limits->max_fields - p->nfields;
}

/* The bracket tok (LBRACE, LBRACK, LPAREN, or HEAD with a name that is
 * not empty when named) opened at p->tok, at the depth one below fc_top:
 * tok, or -1 when out of memory. */
int fc_open(struct lit_parser *p, int tok, bool named);
/* The bracket at fc_top closes: 0, or -1 when it is an entry that passes
 * the limit. An entry counts when it has two items or more (not a value
 * in parentheses) and a name known not to be empty. */
static inline int fc_close(struct lit_parser *p)
{
    const struct fc_level *lv = &p->fc[p->fc_top--];
    return lv->entry && lv->named && lv->item > 0 ? fc_count(p, lv->start) : 0;
}

/* A ',' at p->depth. */
static inline void fc_comma(struct lit_parser *p)
{
    if (p->depth == p->fc_top && p->fc[p->fc_top].item < 2)
        p->fc[p->fc_top].item++;
}

/* A name at p->depth that is known not to be empty (a string of one byte
 * or more, or a tuple): the entry it is item 0 of is a field. */
static inline void fc_name(struct lit_parser *p)
{
    if (p->depth == p->fc_top && p->fc[p->fc_top].item == 0)
        p->fc[p->fc_top].named = true;   /* read only in an entry */
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
    if (p->depth == p->fc_top + 1 && (tok == LBRACE || tok == LBRACK || tok == LPAREN))
        return fc_open(p, tok, false);
    return tok;
}

/* tok, or -1 when the bracket closed passes the field limit. */
static inline int close_bracket(struct lit_parser *p, int tok)
{
    if (p->depth == p->fc_top && p->fc_top > 0 && fc_close(p) < 0)
        return -1;
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
 * and spaces at a '(', a list of pairs; at a key's quote in the
 * top-level dict, an entry (0 when the text is none). Each returns its
 * token, or -1 on an error reported in p. */
int lit_lex_pair(struct lit_parser *p, struct lit **val);
int lit_lex_list(struct lit_parser *p, struct lit **val);
int lit_lex_entry(struct lit_parser *p, struct lit **val);

#endif

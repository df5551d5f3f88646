/* The parser's state and the entry points the grammar (grammar/parser.y,
 * grammar/lexer.re) and literal.c share; inside the literal stage only. */
#ifndef NPYDT_LITERAL_GRAMMAR_H
#define NPYDT_LITERAL_GRAMMAR_H

#include "literal/literal.h"

/* Where a value goes: the root of a header, a descriptor, an entry of a
 * field list, or a place that holds no counted field (see field_count.c). */
enum fc_position { FC_POS_HEADER, FC_POS_DESCR, FC_POS_ENTRY, FC_POS_OTHER };

/* A bracket whose items may hold fields, as the lexer reads it (see
 * field_count.c). */
struct fc_level {
    size_t start;                /* where the bracket opened */
    uint8_t pos[3];              /* enum fc_position of its items 0, 1, 2 and on */
    uint8_t item;                /* commas read at its level, up to 2 */
    bool entry;                  /* an entry of a field list */
    bool named;                  /* its item 0 is known not to be an empty name */
};

/* Parser input and state; everything a parse touches lives here. */
struct lit_parser {
    unsigned char *text;         /* NUL-terminated copy of the header text; the
                                  * strings handed out as spans end in it */
    size_t len;
    bool utf8;                   /* text is UTF-8 (3.0), else latin-1 (1.0, 2.0) */
    bool long_suffix;            /* drop Python 2 'L' after an integer (1.0, 2.0) */
    const npydt_limits *limits;
    struct arena *arena;         /* strings: the result keeps them */
    struct arena *nodes;         /* the syntax tree and the parser's stack */
    npydt_error *err;
    npydt_status status;         /* first error wins */
    struct lit *result;
    /* lexer */
    const unsigned char *cur, *tok;
    uint32_t depth;
    bool last_was_int;
    int prev;                    /* the previous token, for the composite ones */
    int outer;                   /* the bracket token that opened depth 1 */
    struct lit *run;             /* a RUN token read ahead, or NULL */
    const unsigned char *run_end;   /* where the text goes on after it */
    /* fields counted as they are read, against limits->max_fields:
     * fc[d] is the open bracket at depth d (fc[0] the root) for d up to
     * fc_top, the brackets that may hold counted fields */
    struct fc_level *fc;
    uint32_t fc_top, fc_cap;
    size_t nfields;
};

/* Parse the whole text as one Python literal (ast.literal_eval subset).
 * On success p->result is set; on failure err is filled. */
npydt_status lit_parse(struct lit_parser *p);

/* Start counting fields (field_count.c) for a literal read as root, with
 * room[0..n) for the first n levels of brackets (n >= 1). The root of a
 * header may be its dict, whose values (and keys: a header with a
 * bracket there is refused) are descriptors; the root of a descriptor is
 * one. */
static inline void fc_init(struct lit_parser *p, struct fc_level *room, size_t n,
                           enum lit_root root)
{
    p->fc = room;
    p->fc_cap = (uint32_t)n;
    p->fc_top = 0;
    p->nfields = 0;
    memset(room, 0, sizeof *room);
    memset(room[0].pos, root == LIT_ROOT_HEADER ? FC_POS_HEADER : FC_POS_DESCR,
           sizeof room[0].pos);
}

/* The syntax tree's one node maker and sequence builder, for the grammar's
 * rules and the lexer's composite tokens alike. */

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

/* item appended to the tuple, list or dict seq: seq. */
static inline struct lit *seq_append(struct lit *seq, struct lit *item)
{
    item->next = NULL;
    if (seq->u.seq.tail)
        seq->u.seq.tail->next = item;
    else
        seq->u.seq.head = item;
    seq->u.seq.tail = item;
    seq->u.seq.n++;
    return seq;
}

/* Lexer entry used by the push-parser driver. Returns a token number from
 * the Bison parser; fills *val and the byte span. */
int lit_lex(struct lit_parser *p, struct lit **val, size_t *start, size_t *end);

#endif

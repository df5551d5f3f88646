/* The parser's state and the entry points the grammar (grammar/parser.y,
 * grammar/lexer.re) and literal.c share; inside the literal stage only. */
#ifndef NPYDT_LITERAL_GRAMMAR_H
#define NPYDT_LITERAL_GRAMMAR_H

#include "literal/literal.h"

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
};

/* Parse the whole text as one Python literal (ast.literal_eval subset).
 * On success p->result is set; on failure err is filled. */
npydt_status lit_parse(struct lit_parser *p);

/* Lexer entry used by the push-parser driver. Returns a token number from
 * the Bison parser; fills *val and the byte span. */
int lit_lex(struct lit_parser *p, struct lit **val, size_t *start, size_t *end);

#endif

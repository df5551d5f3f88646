/* The header literal: the subset of Python literal syntax that
 * ast.literal_eval (and so NumPy's header reader) accepts and that a
 * header can use. Pure push parser fed by the re2c lexer. */
%require "3.8"
%define api.pure full
%define api.prefix {lit_yy}
%define api.value.type {struct lit *}
%define api.location.type {struct lit_span}
%define parse.error custom
%define lr.default-reduction accepting
%locations
%expect 0
%param {struct lit_parser *p}

%code requires {
#include "literal/grammar.h"
struct lit_span { size_t start, end; };
#define YYLLOC_DEFAULT(Cur, Rhs, N)                          \
    do {                                                     \
        if (N) {                                             \
            (Cur).start = YYRHSLOC(Rhs, 1).start;            \
            (Cur).end = YYRHSLOC(Rhs, N).end;                \
        } else {                                             \
            (Cur).start = (Cur).end = YYRHSLOC(Rhs, 0).end;  \
        }                                                    \
    } while (0)
}

%code {
#include <stdio.h>
#include <string.h>

static void lit_yyerror(const struct lit_span *loc, struct lit_parser *p, const char *msg);
static struct lit *node(struct lit_parser *p, enum lit_kind kind, const struct lit_span *loc);
static struct lit *append(struct lit_parser *p, struct lit *seq, struct lit *item);
static struct lit *entry(struct lit_parser *p, struct lit *dict, struct lit *key,
                         const struct lit_span *loc);
static struct lit *pieces(struct lit_parser *p, struct lit *parts, struct lit *s);
static struct lit *join(struct lit_parser *p, struct lit *parts);
static struct lit *negate(struct lit_parser *p, struct lit *n, const struct lit_span *loc);

#define NEED(x) do { if (!(x)) YYABORT; } while (0)

/* Bison's stack grows through the caller's allocator: p is in scope in
 * yyparse, the only place the skeleton expands these. Nesting is bounded
 * by the lexer's depth limit, so YYMAXDEPTH is never what stops a parse. */
static void *lit_stack_alloc(struct lit_parser *p, size_t size);
static void lit_stack_free(struct lit_parser *p, void *ptr);
#define YYMALLOC(n) lit_stack_alloc(p, (n))
#define YYFREE(ptr) lit_stack_free(p, (ptr))
#define YYMAXDEPTH 100000000

static int lit_yylex(YYSTYPE *val, YYLTYPE *loc, struct lit_parser *p);
}

%token END 0 "end of header"
%token LBRACE "'{'" RBRACE "'}'" LBRACK "'['" RBRACK "']'"
%token LPAREN "'('" RPAREN "')'" COLON "':'" COMMA "','"
%token PLUS "'+'" MINUS "'-'"
%token STRING "string" BYTES "bytes literal" INT "integer" FLOAT "number"
%token TRUE "True" FALSE "False" NONE "None"
%token PAIR "pair" /* ('name', 'type'): a tuple of two plain strings, lexed whole */
%token RUN "pairs" /* pairs after a '[', each with its ',': the list's first items */
%token ENTRY "entry" /* 'key': value of the top-level dict, lexed whole */
%token ENTRYC "entry and comma" /* the same with the ',' after it */
%token SHAPE "shape" /* a tuple of integers, lexed whole */
%token HEAD "tuple head" /* ( 'string' , : a tuple begun, lexed whole */
%token LIST "list of pairs" /* [ pairs ]: a list of pairs, lexed whole */

%%

top:
    value { p->result = $1; }
  | value COMMA
        { NEED(p->result = node(p, LIT_TUPLE, &@$)); NEED(append(p, p->result, $1)); }
  | value COMMA items opt_comma
        { NEED(p->result = node(p, LIT_TUPLE, &@$));
          NEED(append(p, p->result, $1));
          $1->next = $3->u.seq.head; p->result->u.seq.tail = $3->u.seq.tail;
          p->result->u.seq.n += $3->u.seq.n; }
;

value:
    strings          { NEED($$ = join(p, $1)); }
  | number
  | PLUS number      { $$ = $2; $$->start = @$.start; }
  | MINUS number     { NEED($$ = negate(p, $2, &@$)); }
  | TRUE             { $$ = $1; }
  | FALSE            { $$ = $1; }
  | NONE             { $$ = $1; }
  | PAIR
  | SHAPE
  | LIST
  | tuple
  | list
  | dict
  | LPAREN value RPAREN   { $$ = $2; }
;

number:
    INT
  | FLOAT
;

/* adjacent string literals, collected and joined once (joining pairwise
 * would copy the prefix again for every piece: quadratic); a lone string,
 * nearly every one, is its own value without a list around it */
strings:
    STRING           { $$ = $1; }
  | BYTES            { $$ = $1; }
  | strings STRING   { NEED($$ = pieces(p, $1, $2)); }
  | strings BYTES    { NEED($$ = pieces(p, $1, $2)); }
;

tuple:
    LPAREN RPAREN                          { NEED($$ = node(p, LIT_TUPLE, &@$)); }
  | HEAD RPAREN                            { $$ = $1; $$->end = @$.end; }
  | HEAD items opt_comma RPAREN
        { $$ = $1; $$->end = @$.end;
          $$->u.seq.head->next = $2->u.seq.head; $$->u.seq.tail = $2->u.seq.tail;
          $$->u.seq.n += $2->u.seq.n; }
  | LPAREN value COMMA RPAREN              { NEED($$ = node(p, LIT_TUPLE, &@$)); NEED(append(p, $$, $2)); }
  | LPAREN value COMMA items opt_comma RPAREN
        { NEED($$ = node(p, LIT_TUPLE, &@$));
          NEED(append(p, $$, $2));
          $2->next = $4->u.seq.head; $$->u.seq.tail = $4->u.seq.tail; $$->u.seq.n += $4->u.seq.n; }
;

list:
    LBRACK RBRACK                    { NEED($$ = node(p, LIT_LIST, &@$)); }
  | LBRACK items opt_comma RBRACK    { $$ = $2; $$->kind = LIT_LIST; $$->start = @$.start; $$->end = @$.end; }
;

items:
    value              { NEED($$ = node(p, LIT_TUPLE, &@$)); NEED(append(p, $$, $1)); }
  | RUN value          { NEED($$ = append(p, $1, $2)); }
  | items COMMA value  { NEED($$ = append(p, $1, $3)); }
;

dict:
    LBRACE RBRACE                        { NEED($$ = node(p, LIT_DICT, &@$)); }
  | LBRACE pairs RBRACE                  { $$ = $2; $$->start = @$.start; $$->end = @$.end; }
  | LBRACE pairs_c RBRACE                { $$ = $2; $$->start = @$.start; $$->end = @$.end; }
;

/* key: value entries; pairs_c has the ',' after its last one. An entry
 * the lexer read whole comes with or without its ',' (ENTRYC, ENTRY). */
pairs:
    value COLON value
        { NEED($$ = node(p, LIT_DICT, &@$)); NEED(append(p, $$, $1)); NEED(append(p, $$, $3)); }
  | ENTRY
        { NEED($$ = entry(p, NULL, $1, &@$)); }
  | pairs_c value COLON value
        { NEED(append(p, $1, $2)); NEED($$ = append(p, $1, $4)); }
  | pairs_c ENTRY
        { NEED($$ = entry(p, $1, $2, &@$)); }
;

pairs_c:
    pairs COMMA
  | ENTRYC
        { NEED($$ = entry(p, NULL, $1, &@$)); }
  | pairs_c ENTRYC
        { NEED($$ = entry(p, $1, $2, &@$)); }
;

opt_comma:
    %empty
  | COMMA
;

%%

static struct lit *node(struct lit_parser *p, enum lit_kind kind, const struct lit_span *loc)
{
    struct lit *n = arena_alloc_raw(p->nodes, sizeof *n);
    if (!n) {
        if (p->status == NPYDT_OK)
            p->status = set_nomem(p->err);
        return NULL;
    }
    *n = (struct lit){.kind = kind, .start = loc->start, .end = loc->end};
    return n;
}

static struct lit *append(struct lit_parser *p, struct lit *seq, struct lit *item)
{
    (void)p;
    item->next = NULL;
    if (seq->u.seq.tail)
        seq->u.seq.tail->next = item;
    else
        seq->u.seq.head = item;
    seq->u.seq.tail = item;
    seq->u.seq.n++;
    return seq;
}

/* dict (NULL: a new one at loc) with a key and its value after it, as
 * the lexer reads an entry: key->next is the value. */
static struct lit *entry(struct lit_parser *p, struct lit *dict, struct lit *key,
                         const struct lit_span *loc)
{
    struct lit *v = key->next;
    if (!dict && !(dict = node(p, LIT_DICT, loc)))
        return NULL;
    append(p, dict, key);
    return append(p, dict, v);
}

/* The strings rule's value with s after it: parts is one string, or the
 * list of two or more (a tuple node, which no string is). */
static struct lit *pieces(struct lit_parser *p, struct lit *parts, struct lit *s)
{
    if (parts->kind != LIT_TUPLE) {
        struct lit_span loc = {parts->start, parts->end};
        struct lit *first = parts;
        if (!(parts = node(p, LIT_TUPLE, &loc)))
            return NULL;
        append(p, parts, first);
    }
    return append(p, parts, s);
}

/* Adjacent string literals concatenate, as in Python; str and bytes do not
 * mix. parts is what the strings rule collected (see pieces); the result
 * is its first literal, holding the whole text. */
static struct lit *join(struct lit_parser *p, struct lit *parts)
{
    if (parts->kind != LIT_TUPLE)
        return parts;
    struct lit *a = parts->u.seq.head;
    size_t len = 0;
    for (const struct lit *b = a; b; b = b->next) {
        if (b->kind != a->kind) {
            if (p->status == NPYDT_OK)
                p->status = set_error(p->err, NPYDT_E_SYNTAX, b->start, NULL,
                                      "cannot mix bytes and nonbytes literals");
            return NULL;
        }
        len += b->u.str.len;   /* no overflow: each piece is shorter than the text */
    }
    char *s = arena_alloc(p->arena, len + 1);
    if (!s) {
        if (p->status == NPYDT_OK)
            p->status = set_nomem(p->err);
        return NULL;
    }
    size_t at = 0;
    for (const struct lit *b = a; b; b = b->next) {
        memcpy(s + at, b->u.str.s, b->u.str.len);
        at += b->u.str.len;
    }
    s[len] = '\0';
    a->u.str.s = s;
    a->u.str.len = len;
    a->end = parts->u.seq.tail->end;
    a->next = NULL;
    return a;
}

static struct lit *negate(struct lit_parser *p, struct lit *n, const struct lit_span *loc)
{
    (void)p;
    n->u.num.neg = !n->u.num.neg;
    n->start = loc->start;
    return n;
}

static void lit_yyerror(const struct lit_span *loc, struct lit_parser *p, const char *msg)
{
    if (p->status == NPYDT_OK)
        p->status = set_error(p->err, NPYDT_E_SYNTAX, loc->start, NULL, "%s", msg);
}

/* "expected ',' or '}'": the report reads like the grammar, and a lexer
 * error reported first (bad escape, NUL, depth) is kept. */
static int yyreport_syntax_error(const yypcontext_t *ctx, struct lit_parser *p)
{
    if (p->status != NPYDT_OK)
        return 0;
    enum { MAX_EXPECTED = 5 };
    /* a pair, a run of pairs, a shape or a tuple head is a '(', a list
     * of pairs a '[', and an entry a string, that the lexer read on: each
     * is named as what it begins with, and never listed (that token is
     * expected wherever it is) */
    yysymbol_kind_t expected[YYNTOKENS];
    int n = 0, all = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
    for (int i = 0; i < all; i++)
        if (expected[i] != YYSYMBOL_PAIR && expected[i] != YYSYMBOL_RUN &&
            expected[i] != YYSYMBOL_ENTRY && expected[i] != YYSYMBOL_ENTRYC &&
            expected[i] != YYSYMBOL_SHAPE && expected[i] != YYSYMBOL_HEAD &&
            expected[i] != YYSYMBOL_LIST)
            expected[n++] = expected[i];
    if (n > MAX_EXPECTED)
        n = 0;
    const struct lit_span *loc = yypcontext_location(ctx);
    yysymbol_kind_t got = yypcontext_token(ctx);
    if (got == YYSYMBOL_PAIR || got == YYSYMBOL_RUN || got == YYSYMBOL_SHAPE ||
        got == YYSYMBOL_HEAD)
        got = YYSYMBOL_LPAREN;
    else if (got == YYSYMBOL_LIST)
        got = YYSYMBOL_LBRACK;
    else if (got == YYSYMBOL_ENTRY || got == YYSYMBOL_ENTRYC)
        got = YYSYMBOL_STRING;
    char msg[200];
    size_t len = 0;
    msg[0] = '\0';
    if (n > 0) {
        len += (size_t)snprintf(msg + len, sizeof msg - len, "expected ");
        for (int i = 0; i < n && len < sizeof msg; i++)
            len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s",
                                    i == 0 ? "" : (i == n - 1 ? " or " : ", "),
                                    yysymbol_name(expected[i]));
        if (len < sizeof msg)
            len += (size_t)snprintf(msg + len, sizeof msg - len, ", found %s",
                                    yysymbol_name(got));
    } else {
        snprintf(msg, sizeof msg, "unexpected %s", yysymbol_name(got));
    }
    p->status = set_error(p->err, NPYDT_E_SYNTAX, loc->start, NULL, "%s", msg);
    return 0;
}

static void *lit_stack_alloc(struct lit_parser *p, size_t size)
{
    size_t *blk = alloc_bytes(p->arena->alloc, size + sizeof(size_t) * 2);
    if (!blk)
        return NULL;
    blk[0] = size + sizeof(size_t) * 2;
    return blk + 2;
}

static void lit_stack_free(struct lit_parser *p, void *ptr)
{
    if (ptr) {
        size_t *blk = (size_t *)ptr - 2;
        free_bytes(p->arena->alloc, blk, blk[0]);
    }
}

static int lit_yylex(YYSTYPE *val, YYLTYPE *loc, struct lit_parser *p)
{
    *val = NULL;
    int tok = lit_lex(p, val, &loc->start, &loc->end);
    return tok < 0 ? LIT_YYerror : tok;
}

npydt_status lit_parse(struct lit_parser *p)
{
    int r = lit_yyparse(p);
    /* 2: the stack could not grow. Bison has already reported "memory
     * exhausted" through lit_yyerror, as a syntax error: replace it. */
    if (r == 2)
        p->status = set_nomem(p->err);
    else if (r != 0 && p->status == NPYDT_OK)
        p->status = set_error(p->err, NPYDT_E_SYNTAX, NPYDT_NO_OFFSET, NULL,
                              "invalid header literal");
    if (r == 0 && p->status != NPYDT_OK)
        p->result = NULL;
    return p->status;
}

/* The header literal: the subset of Python literal syntax that
 * ast.literal_eval (and so NumPy's header reader) accepts and that a
 * header can use. Pure push parser fed by the re2c lexer.
 *
 * Composite tokens. A shift or a reduction here costs far more than a
 * byte of a scan, and np.save writes its headers in a few fixed shapes,
 * so the lexer (src/literal/composite.c, called from grammar/lexer.re)
 * reads these runs whole, each as one token whose value is the tree the
 * rules below would build for its text: PAIR ('name', 'type'[, shape]),
 * HEAD "( 'name' ,", RUN (pairs with their ',' after a '['), LIST (a
 * list of pairs), ENTRY/ENTRYC ('key': value of the top-level dict).
 * Each is valid wherever its first token is and ends where the parser
 * reaches the state the tokens one by one would reach; one that would
 * pass a limit is refused where those tokens would be. A build without
 * them (make COMPOSITE=0, NPYDT_COMPOSITE=0) parses every input alike,
 * which tests/check_composite.sh proves on every corpus (trees, errors,
 * offsets, at the default and at tight limits).
 *
 * What they gain: callgrind instructions of one header parse per make
 * bench family ('<f8' one line / 10 flat fields / 3-level nested, 40
 * leaves / 2,000 fields / 20,000 fields):
 *   with the composite tokens       3,901 / 10,352 / 69,888 / 1.25 M / 11.17 M
 *   without any (COMPOSITE=0)       7,147 / 31,174 / 152,572 / 4.93 M / 47.96 M
 *   without ENTRY and ENTRYC        +62 % / +14 % / +2 % / same / same
 *   without PAIR, HEAD and RUN      same / same / +22 % / same / same
 *   without LIST                    same / +9 % / +12 % / -1 % / -2 %
 * (each row but the first measured before the node builder was shared,
 * against 3,960 / 10,466 / 69,583 / 1.26 M / 11.25 M). A shape alone,
 * once its own token, gained under 3 % on one family and nothing on the
 * others: it is read by the general rules now (a pair's shape and an
 * entry's still come whole with them). */
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
static struct lit *entry(struct lit *dict, struct lit *key);
static struct lit *pieces(struct lit_parser *p, struct lit *parts, struct lit *s);
static struct lit *join(struct lit_parser *p, struct lit *parts);
static struct lit *negate(struct lit *n, const struct lit_span *loc);

/* An action runs only while p->status is NPYDT_OK: an error of the lexer
 * reaches the parser as its error token, which no rule shifts, and an
 * action that fails aborts the parse (NEED) with p->status set. Only new_lit,
 * pieces and join can fail. */
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
%token HEAD "tuple head" /* ( 'string' , : a tuple begun, lexed whole */
%token LIST "list of pairs" /* [ pairs ]: a list of pairs, lexed whole */

%%

top:
    value { p->result = $1; }
  | value COMMA
        { NEED(p->result = new_lit(p, LIT_TUPLE, @$.start, @$.end)); seq_append(p->result, $1); }
  | value COMMA items opt_comma
        { NEED(p->result = new_lit(p, LIT_TUPLE, @$.start, @$.end));
          seq_append(p->result, $1);
          $1->next = $3->u.seq.head; p->result->u.seq.tail = $3->u.seq.tail;
          p->result->u.seq.n += $3->u.seq.n; }
;

value:
    strings          { NEED($$ = join(p, $1)); }
  | number
  | PLUS number      { $$ = $2; $$->start = @$.start; }
  | MINUS number     { $$ = negate($2, &@$); }
  | TRUE             { $$ = $1; }
  | FALSE            { $$ = $1; }
  | NONE             { $$ = $1; }
  | PAIR
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
    LPAREN RPAREN                          { NEED($$ = new_lit(p, LIT_TUPLE, @$.start, @$.end)); }
  | HEAD RPAREN                            { $$ = $1; $$->end = @$.end; }
  | HEAD items opt_comma RPAREN
        { $$ = $1; $$->end = @$.end;
          $$->u.seq.head->next = $2->u.seq.head; $$->u.seq.tail = $2->u.seq.tail;
          $$->u.seq.n += $2->u.seq.n; }
  | LPAREN value COMMA RPAREN              { NEED($$ = new_lit(p, LIT_TUPLE, @$.start, @$.end)); seq_append($$, $2); }
  | LPAREN value COMMA items opt_comma RPAREN
        { NEED($$ = new_lit(p, LIT_TUPLE, @$.start, @$.end));
          seq_append($$, $2);
          $2->next = $4->u.seq.head; $$->u.seq.tail = $4->u.seq.tail; $$->u.seq.n += $4->u.seq.n; }
;

list:
    LBRACK RBRACK                    { NEED($$ = new_lit(p, LIT_LIST, @$.start, @$.end)); }
  | LBRACK items opt_comma RBRACK    { $$ = $2; $$->kind = LIT_LIST; $$->start = @$.start; $$->end = @$.end; }
;

items:
    value              { NEED($$ = new_lit(p, LIT_TUPLE, @$.start, @$.end)); seq_append($$, $1); }
  | RUN value          { $$ = seq_append($1, $2); }
  | items COMMA value  { $$ = seq_append($1, $3); }
;

dict:
    LBRACE RBRACE                        { NEED($$ = new_lit(p, LIT_DICT, @$.start, @$.end)); }
  | LBRACE pairs RBRACE                  { $$ = $2; $$->start = @$.start; $$->end = @$.end; }
  | LBRACE pairs_c RBRACE                { $$ = $2; $$->start = @$.start; $$->end = @$.end; }
;

/* key: value entries; pairs_c has the ',' after its last one. An entry
 * the lexer read whole comes with or without its ',' (ENTRYC, ENTRY). */
pairs:
    value COLON value
        { NEED($$ = new_lit(p, LIT_DICT, @$.start, @$.end)); seq_append($$, $1); seq_append($$, $3); }
  | ENTRY
        { NEED($$ = new_lit(p, LIT_DICT, @$.start, @$.end)); entry($$, $1); }
  | pairs_c value COLON value
        { seq_append($1, $2); $$ = seq_append($1, $4); }
  | pairs_c ENTRY
        { $$ = entry($1, $2); }
;

pairs_c:
    pairs COMMA
  | ENTRYC
        { NEED($$ = new_lit(p, LIT_DICT, @$.start, @$.end)); entry($$, $1); }
  | pairs_c ENTRYC
        { $$ = entry($1, $2); }
;

opt_comma:
    %empty
  | COMMA
;

%%

/* dict with a key and its value after it, as the lexer reads an entry:
 * key->next is the value. */
static struct lit *entry(struct lit *dict, struct lit *key)
{
    struct lit *v = key->next;
    seq_append(dict, key);
    return seq_append(dict, v);
}

/* The strings rule's value with s after it: parts is one string, or the
 * list of two or more (a tuple node, which no string is). */
static struct lit *pieces(struct lit_parser *p, struct lit *parts, struct lit *s)
{
    if (parts->kind != LIT_TUPLE) {
        struct lit *first = parts;
        if (!(parts = new_lit(p, LIT_TUPLE, parts->start, parts->end)))
            return NULL;
        seq_append(parts, first);
    }
    return seq_append(parts, s);
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
            p->status = set_error(p->err, NPYDT_E_SYNTAX, b->start, NULL,
                                  "cannot mix bytes and nonbytes literals");
            return NULL;
        }
        len += b->u.str.len;   /* no overflow: each piece is shorter than the text */
    }
    char *s = arena_alloc(p->arena, len + 1);
    if (!s) {
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

static struct lit *negate(struct lit *n, const struct lit_span *loc)
{
    n->u.num.neg = !n->u.num.neg;
    n->start = loc->start;
    return n;
}

/* With parse.error custom, Bison reports through this only that its stack
 * could not grow ("memory exhausted"): the caller's allocator failed, or
 * YYMAXDEPTH, which the depth limit keeps out of reach, was passed. */
static void lit_yyerror(const struct lit_span *loc, struct lit_parser *p, const char *msg)
{
    (void)loc;
    (void)msg;
    p->status = set_nomem(p->err);
}

/* "expected ',' or '}'": the report reads like the grammar. A lexer error
 * (bad escape, NUL, depth) is its own report: the lexer gives the parser
 * its error token, which Bison takes for an error without calling this. */
static int yyreport_syntax_error(const yypcontext_t *ctx, struct lit_parser *p)
{
    enum { MAX_EXPECTED = 5 };
    /* a pair, a run of pairs or a tuple head is a '(', a list
     * of pairs a '[', and an entry a string, that the lexer read on: each
     * is named as what it begins with, and never listed (that token is
     * expected wherever it is) */
    yysymbol_kind_t expected[YYNTOKENS];
    int n = 0, all = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
    for (int i = 0; i < all; i++)
        if (expected[i] != YYSYMBOL_PAIR && expected[i] != YYSYMBOL_RUN &&
            expected[i] != YYSYMBOL_ENTRY && expected[i] != YYSYMBOL_ENTRYC &&
            expected[i] != YYSYMBOL_HEAD &&
            expected[i] != YYSYMBOL_LIST)
            expected[n++] = expected[i];
    if (n > MAX_EXPECTED)
        n = 0;
    const struct lit_span *loc = yypcontext_location(ctx);
    /* what was found: never a run of pairs (one comes right after a '[',
     * where it is expected) nor an entry (one comes right after the
     * top-level '{' or a ',' inside it, where it is expected) */
    yysymbol_kind_t got = yypcontext_token(ctx);
    if (got == YYSYMBOL_PAIR || got == YYSYMBOL_HEAD)
        got = YYSYMBOL_LPAREN;
    else if (got == YYSYMBOL_LIST)
        got = YYSYMBOL_LBRACK;
    const char *found = yysymbol_name(got);
    if (n == 0) {
        p->status = set_error(p->err, NPYDT_E_SYNTAX, loc->start, NULL, "unexpected %s", found);
        return 0;
    }
    /* "expected A, B or C, found D": each of the MAX_EXPECTED slots is a
     * separator and a name, empty past n */
    const char *sep[MAX_EXPECTED], *name[MAX_EXPECTED];
    for (int i = 0; i < MAX_EXPECTED; i++) {
        sep[i] = i == 0 || i >= n ? "" : i == n - 1 ? " or " : ", ";
        name[i] = i < n ? yysymbol_name(expected[i]) : "";
    }
    p->status = set_error(p->err, NPYDT_E_SYNTAX, loc->start, NULL,
                          "expected %s%s%s%s%s%s%s%s%s%s, found %s", sep[0], name[0], sep[1],
                          name[1], sep[2], name[2], sep[3], name[3], sep[4], name[4], found);
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

/* Bison frees only the stacks it allocated: ptr is never NULL */
static void lit_stack_free(struct lit_parser *p, void *ptr)
{
    size_t *blk = (size_t *)ptr - 2;
    free_bytes(p->arena->alloc, blk, blk[0]);
}

static int lit_yylex(YYSTYPE *val, YYLTYPE *loc, struct lit_parser *p)
{
    *val = NULL;
    int tok = lit_lex(p, val, &loc->start, &loc->end);
    return tok < 0 ? LIT_YYerror : tok;
}

npydt_status lit_parse(struct lit_parser *p)
{
    /* every way yyparse fails sets p->status first: an action's
     * allocation (NEED), a lexer error, a syntax error (reported above),
     * the stack (lit_yyerror) */
    (void)lit_yyparse(p);
    return p->status;
}

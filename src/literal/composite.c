/* Composite tokens: np.save writes its headers in a few fixed shapes, and
 * a shift or a reduction of the parser costs far more than a byte of a
 * scan, so these runs are read whole here, each as one token whose value
 * is the syntax tree the grammar's rules would build for its text. Each is
 * valid wherever its first token is, and ends where the state the parser
 * reaches after it is the state the tokens one by one would reach, so a
 * syntax error after it reads as before. */
#include "literal/scan.h"

/* A decimal integer as repr writes it (no sign, no leading zero, no '_'),
 * of at most 18 digits so that it cannot overflow, from s: its end, or
 * NULL. */
static const unsigned char *scan_small_int(const unsigned char *s, const unsigned char *lim,
                                           uint64_t *v)
{
    const unsigned char *b = s;
    uint64_t x = 0;
    while (s < lim && *s >= '0' && *s <= '9' && s - b < 19)
        x = x * 10 + (uint64_t)(*s++ - '0');
    if (s == b || s - b > 18 || (*b == '0' && s - b > 1))
        return NULL;
    if (s < lim && ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_' ||
                    *s == '.' || *s >= 0x80))
        return NULL;   /* a suffix, a float or a name: the general rules read it */
    *v = x;
    return s;
}

/* A tuple of such integers from its '(' at lp, as np.save writes a shape:
 * "()", "(5,)", "(2, 3)". With t, its items are appended to t. The end
 * just past the ')', or NULL when the text is anything else (or, with t,
 * when out of memory: p->status is set then). */
static const unsigned char *scan_shape(struct lit_parser *p, const unsigned char *lp,
                                       struct lit *t)
{
    const unsigned char *lim = p->text + p->len;
    const unsigned char *s = skip_hs(lp + 1, lim);
    bool comma = true;   /* an item may come next */
    size_t n = 0;
    while (s < lim && *s != ')') {
        uint64_t v;
        const unsigned char *e;
        if (!comma || !(e = scan_small_int(s, lim, &v)))
            return NULL;
        if (t) {
            struct lit *d = new_lit(p, LIT_INT, (size_t)(s - p->text), (size_t)(e - p->text));
            if (!d)
                return NULL;
            d->u.num.mag = v;
            seq_append(t, d);
        }
        n++;
        s = skip_hs(e, lim);
        comma = s < lim && *s == ',';
        if (comma)
            s = skip_hs(s + 1, lim);
    }
    /* one item needs its comma to be a tuple: "(5)" is an int */
    if (s >= lim || (n == 1 && !comma))
        return NULL;
    return s + 1;
}

/* The lit of the shape scan_shape found from lp to end, or NULL when out
 * of memory (p->status set). */
static struct lit *shape_lit(struct lit_parser *p, const unsigned char *lp,
                             const unsigned char *end)
{
    struct lit *t = new_lit(p, LIT_TUPLE, (size_t)(lp - p->text), (size_t)(end - p->text));
    if (!t || !scan_shape(p, lp, t))
        return NULL;
    return t;
}

/* A field entry as np.save writes most: ('name', 'type') or ('name',
 * 'type', shape) with plain single-quoted strings and a shape that
 * scan_shape reads. */
struct pair_scan {
    const unsigned char *q1, *e1;   /* the name's quotes */
    const unsigned char *q2, *e2;   /* the type's */
    const unsigned char *shape, *shape_end;   /* NULL when there is none */
};

/* The pair from its '(' at lp: its end just past the ')', or NULL. */
static const unsigned char *scan_pair(struct lit_parser *p, const unsigned char *lp,
                                      struct pair_scan *ps)
{
    const unsigned char *lim = p->text + p->len;
    const unsigned char *a = skip_hs(lp + 1, lim);
    if (a >= lim || *a != '\'')
        return NULL;
    const unsigned char *ae = skip_plain(a + 1, lim, '\'');
    const unsigned char *b = ae < lim && *ae == '\'' ? skip_hs(ae + 1, lim) : lim;
    b = b < lim && *b == ',' ? skip_hs(b + 1, lim) : lim;
    const unsigned char *be = b < lim && *b == '\'' ? skip_plain(b + 1, lim, '\'') : lim;
    const unsigned char *r = be < lim && *be == '\'' ? skip_hs(be + 1, lim) : lim;
    ps->shape = NULL;
    if (r < lim && *r == ',') {
        const unsigned char *sh = skip_hs(r + 1, lim);
        if (sh >= lim || *sh != '(' || !(ps->shape_end = scan_shape(p, sh, NULL)))
            return NULL;
        ps->shape = sh;
        r = skip_hs(ps->shape_end, lim);
    }
    if (r >= lim || *r != ')')
        return NULL;
    ps->q1 = a;
    ps->e1 = ae;
    ps->q2 = b;
    ps->e2 = be;
    return r + 1;
}

/* The tuple the grammar's tuple rule would build for the pair at lp. */
static struct lit *pair_lit(struct lit_parser *p, const unsigned char *lp,
                            const struct pair_scan *ps, const unsigned char *end)
{
    /* the tuple and its two strings in one block */
    struct lit *t = arena_alloc_raw(p->nodes, 3 * sizeof *t);
    struct lit *c = ps->shape ? shape_lit(p, ps->shape, ps->shape_end) : NULL;
    if (!t || (ps->shape && !c)) {
        if (p->status == NPYDT_OK)
            p->status = set_nomem(p->err);
        return NULL;
    }
    struct lit *a = t + 1, *b = t + 2;
    *a = (struct lit){.kind = LIT_STR, .start = (size_t)(ps->q1 - p->text),
                      .end = (size_t)(ps->e1 + 1 - p->text),
                      .u.str = {(char *)p->text + (ps->q1 + 1 - p->text), (size_t)(ps->e1 - ps->q1 - 1)}};
    *b = (struct lit){.kind = LIT_STR, .start = (size_t)(ps->q2 - p->text),
                      .end = (size_t)(ps->e2 + 1 - p->text),
                      .u.str = {(char *)p->text + (ps->q2 + 1 - p->text), (size_t)(ps->e2 - ps->q2 - 1)}};
    /* the closing quotes, which nothing reads again, end the strings */
    p->text[ps->e1 - p->text] = '\0';
    p->text[ps->e2 - p->text] = '\0';
    *t = (struct lit){.kind = LIT_TUPLE, .start = (size_t)(lp - p->text),
                      .end = (size_t)(end - p->text)};
    seq_append(seq_append(t, a), b);
    return c ? seq_append(t, c) : t;
}

/* After "(" and spaces, at a quote: a pair (see scan_pair) as one token
 * instead of five or more, whose value is the tuple the grammar would
 * build. It is valid wherever '(' may begin a value, so the parser
 * accepts or refuses it where it would the '('. Right after a '[', where
 * a list's items begin, the pairs that follow it, each after a ',' (the
 * fields of np.save's descriptor), but the last, make one token too:
 * RUN, each pair with the ',' after it, whose value is the sequence the
 * grammar's items rule would build, the pairs being valid wherever the
 * first is. Else "( 'name' ," is one token HEAD,
 * valid wherever '(' is, whose value is the tuple begun; on anything
 * else, the '(' alone. */
int lit_lex_pair(struct lit_parser *p, struct lit **val)
{
    const unsigned char *lim = p->text + p->len;
    struct pair_scan ps;
    const unsigned char *end = scan_pair(p, p->tok, &ps);
    /* a shape one bracket too deep is refused at its own '(', as the
     * tokens one by one would be */
    if (end && ps.shape && p->depth + 2 > p->limits->max_depth)
        end = NULL;
    if (!end) {
        const unsigned char *a = skip_hs(p->tok + 1, lim);
        const unsigned char *ae = skip_plain(a + 1, lim, '\'');
        const unsigned char *c = ae < lim && *ae == '\'' ? skip_hs(ae + 1, lim) : lim;
        if (c >= lim || *c != ',') {
            p->cur = p->tok + 1;
            return open_bracket(p, LPAREN);
        }
        if (open_bracket(p, HEAD) < 0 ||
            (p->depth == p->fc_top + 1 && fc_open(p, HEAD, ae > a + 1) < 0))
            return -1;
        struct lit *t = new_lit(p, LIT_TUPLE, (size_t)(p->tok - p->text), 0);
        struct lit *s = span_lit(p, LIT_STR, (size_t)(a - p->text), a + 1, ae);
        if (!t || !s)
            return -1;
        seq_append(t, s);
        *val = t;
        p->cur = c + 1;
        return HEAD;
    }
    bool entry = fc_position(p) == FC_POS_ENTRY;   /* each pair here is an entry */
    if (open_bracket(p, PAIR) < 0)
        return -1;
    close_bracket(p, PAIR);
    p->cur = end;
    struct lit *t = pair_lit(p, p->tok, &ps, end);
    if (!t || (entry && ps.e1 > ps.q1 + 1 && fc_count(p, (size_t)(p->tok - p->text)) < 0))
        return -1;
    *val = t;
    if (p->prev != LBRACK)
        return PAIR;
    /* the pairs after it, each after a ',': all but the last join the
     * run, the last one is read again as a PAIR of its own, so that what
     * follows the run meets the parser in the state it would have after
     * tokens one by one */
    struct lit *seq = NULL;
    const unsigned char *last = NULL, *last_end = NULL;
    struct pair_scan last_ps;
    for (const unsigned char *at = end;;) {
        const unsigned char *c = skip_hs(at, lim);
        if (c >= lim || *c != ',')
            break;
        const unsigned char *lp = skip_hs(c + 1, lim);
        if (lp >= lim || *lp != '(' || !(end = scan_pair(p, lp, &ps)) ||
            p->depth + 1 + (ps.shape != NULL) > p->limits->max_depth)
            break;
        if (!seq) {
            if (!(seq = new_lit(p, LIT_TUPLE, t->start, t->end)))
                return -1;
            seq_append(seq, t);
        } else {
            struct lit *u = pair_lit(p, last, &last_ps, last_end);
            if (!u || (entry && last_ps.e1 > last_ps.q1 + 1 &&
                       fc_count(p, (size_t)(last - p->text)) < 0))
                return -1;
            seq_append(seq, u);
        }
        last = lp;
        last_end = end;
        last_ps = ps;
        at = end;
    }
    if (!seq)
        return PAIR;
    seq->end = (size_t)(last - p->text);
    p->cur = last;
    *val = seq;
    return RUN;
}

/* After "[" and spaces, at a '(': a list of pairs (see scan_pair) with
 * ',' between them, and maybe after the last, as np.save writes a
 * structured descriptor, as one token LIST, whose value is the list the
 * grammar would build. Being a whole value, it is valid wherever '['
 * may begin one. When the list holds anything else, the '[' alone; the
 * pairs read up to there are kept for the next token (RUN, as lit_lex_pair
 * would make it). */
int lit_lex_list(struct lit_parser *p, struct lit **val)
{
    const unsigned char *lim = p->text + p->len;
    struct lit *seq = NULL;
    const unsigned char *at = skip_hs(p->tok + 1, lim), *last = NULL, *end = NULL;
    struct lit *before_last = NULL;
    bool whole = false;
    /* a field list: each pair with a name is a field, counted as it is
     * read (the last one again when it is read again) */
    bool fields = fc_position(p) == FC_POS_DESCR;
    size_t left = fields ? fc_left(p) : SIZE_MAX, named = 0, counted_last = 0;
    while (p->depth + 2 <= p->limits->max_depth) {
        struct pair_scan ps;
        const unsigned char *e = scan_pair(p, at, &ps);
        if (!e || p->depth + 2 + (ps.shape != NULL) > p->limits->max_depth)
            break;
        struct lit *u = pair_lit(p, at, &ps, e);
        if (!u || (!seq && !(seq = new_lit(p, LIT_LIST, (size_t)(p->tok - p->text), 0))))
            return -1;
        counted_last = ps.e1 > ps.q1 + 1;
        named += counted_last;
        if (named > left)
            return fc_limit_error(p, (size_t)(at - p->text));
        before_last = seq->u.seq.tail;
        seq_append(seq, u);
        last = at;
        const unsigned char *c = skip_hs(e, lim);
        if (*c == ',')
            c = skip_hs(c + 1, lim);
        if (*c == ']') {
            whole = true;
            end = c + 1;
            break;
        }
        if (*c != '(' || c == skip_hs(e, lim))
            break;   /* a pair needs its ',' before it */
        at = c;
    }
    if (whole) {
        if (fields)
            p->nfields += named;
        /* within the limit: the loop ran with two levels more */
        (void)open_bracket(p, LIST);
        close_bracket(p, LIST);
        seq->end = (size_t)(end - p->text);
        p->cur = end;
        *val = seq;
        return LIST;
    }
    p->cur = p->tok + 1;
    int tok = open_bracket(p, LBRACK);
    if (seq) {
        /* the last pair is read again: its closing quotes come back, and
         * it is counted then */
        if (fields)
            p->nfields += named - counted_last;
        const struct lit *name = seq->u.seq.tail->u.seq.head, *type = name->next;
        name->u.str.s[name->u.str.len] = '\'';
        type->u.str.s[type->u.str.len] = '\'';
    }
    if (tok >= 0 && seq && seq->u.seq.n >= 2) {
        /* all but the last pair: the run lit_lex_pair would read next */
        seq->kind = LIT_TUPLE;
        seq->start = seq->u.seq.head->start;
        seq->end = (size_t)(last - p->text);
        seq->u.seq.tail = before_last;
        before_last->next = NULL;
        seq->u.seq.n--;
        p->run = seq;
        p->run_end = last;
    }
    return tok;
}

/* At a key's quote in the top-level dict, right after its '{' or a ',':
 * 'key': value with a plain single-quoted key, and a value np.save writes
 * (a plain single-quoted string, True, False, or a tuple of integers)
 * followed by ',' or '}', as one token. Its value is the key's lit, the
 * value's after it, as the grammar's rules would build them; everything
 * in it is valid there. A ',' after it is part of the token (ENTRYC),
 * a '}' the next token. 0 when the text is anything else. */
int lit_lex_entry(struct lit_parser *p, struct lit **val)
{
    const unsigned char *lim = p->text + p->len, *q = p->tok;
    const unsigned char *e = skip_plain(q + 1, lim, '\'');
    if (e >= lim || *e != '\'')
        return 0;
    const unsigned char *colon = skip_hs(e + 1, lim);
    if (colon >= lim || *colon != ':')
        return 0;
    const unsigned char *v = skip_hs(colon + 1, lim), *ve;
    /* the new lits are dropped when the text turns out to be anything
     * else: the nodes arena keeps them until the parse ends */
    struct lit *value;
    if (v >= lim)
        return 0;
    if (*v == '\'') {
        ve = skip_plain(v + 1, lim, '\'');
        if (ve >= lim || *ve != '\'')
            return 0;
        ve++;
        value = NULL;   /* made below, once the end is known to match */
    } else if (*v == 'T' || *v == 'F') {
        size_t n = *v == 'T' ? 4 : 5;
        if ((size_t)(lim - v) < n || memcmp(v, *v == 'T' ? "True" : "False", n) != 0)
            return 0;
        ve = v + n;
        if (ve < lim && ((*ve >= 'A' && *ve <= 'Z') || (*ve >= 'a' && *ve <= 'z') ||
                         (*ve >= '0' && *ve <= '9') || *ve == '_' || *ve >= 0x80))
            return 0;
        if (!(value = new_lit(p, LIT_BOOL, (size_t)(v - p->text), (size_t)(ve - p->text))))
            return -1;
        value->u.b = *v == 'T';
    } else if (*v == '(') {
        if (p->depth + 1 > p->limits->max_depth)
            return 0;
        if (!(value = new_lit(p, LIT_TUPLE, (size_t)(v - p->text), 0)))
            return -1;
        if (!(ve = scan_shape(p, v, value)))
            return p->status == NPYDT_OK ? 0 : -1;
        value->end = (size_t)(ve - p->text);
    } else {
        return 0;
    }
    const unsigned char *after = skip_hs(ve, lim);
    if (after >= lim || (*after != ',' && *after != '}'))
        return 0;
    if (*v == '\'' && !(value = span_lit(p, LIT_STR, (size_t)(v - p->text), v + 1, ve - 1)))
        return -1;
    struct lit *key = span_lit(p, LIT_STR, (size_t)(q - p->text), q + 1, e);
    if (!key)
        return -1;
    key->next = value;
    *val = key;
    if (*after == ',') {
        p->cur = after + 1;
        return ENTRYC;
    }
    p->cur = ve;
    return ENTRY;
}


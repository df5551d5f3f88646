/* Fields counted as the lexer reads them, so that a literal of more than
 * limits->max_fields fields is refused at the entry that passes the limit
 * instead of after its whole tree and field tables are built.
 *
 * The lexer knows the brackets around each token; from the way the
 * descriptor stage (header/descr.c) reads the tree, each bracket is given
 * a role top-down:
 *   - the root of a header: a '{' there is the header dict, whose values
 *     (and keys) are descriptor positions;
 *   - the root of a descriptor: a descriptor position;
 *   - in a descriptor position, '[' is a field list, whose items are entry
 *     positions, and '(' a type tuple, whose item 0 is a descriptor
 *     position (a parenthesised descriptor is its item 0 too);
 *   - in an entry position, '(' or '[' is an entry, whose item 1 (its
 *     type) is a descriptor position;
 *   - everything else holds no counted fields, nor does anything in it.
 * An entry is counted when it closes with at least one ',' at its level
 * (a tuple or list of two items or more, not a parenthesised value) and
 * with a name known not to be empty: a string token at its item 0 that is
 * not empty. The composite tokens (composite.c) are counted alike, so that
 * a parse with them and one without (NPYDT_COMPOSITE=0) stop at the same
 * entry: a pair in an entry position with a name that is not empty, every
 * such pair of a run or of a list of pairs in a descriptor position. A
 * (title, name) tuple is not read as a name here: the lexer alone cannot
 * tell it from a bracket of any other kind.
 *
 * Why a header that is refused here is refused anyway: every counted
 * entry of a header that the later stages accept becomes a field, one
 * each, so the count here never exceeds the number of fields the
 * descriptor stage counts against the same limit (it also counts comma
 * type strings' fields, not counted here). Indeed, in an accepted header
 *   - the only brackets of a header dict value are those of 'descr': the
 *     shape is a tuple of integers, fortran_order a bool, and any other
 *     key, a key that is not a string or a repeated key is refused;
 *   - every descriptor position is read by descr_from_lit: the 'descr'
 *     value, item 0 of a tuple read as one (a (type, shape) tuple, or
 *     parentheses), item 1 of an entry; its items after the shape, which
 *     NumPy ignores, are never descriptor positions here;
 *   - a list in a descriptor position is a field list, each of its items
 *     an entry of two or three items; an entry becomes a field unless it
 *     is padding, which needs a plain empty name, so an entry with a
 *     non-empty string name is a field. A name made of
 *     adjacent strings is empty only when each piece is.
 * Entries that are not counted (a name in parentheses, a list entry whose
 * name is not a plain string) still meet the descriptor stage's count. */
#include "literal/scan.h"

/* The positions of the items of a bracket (struct fc_level.pos). */
static const uint8_t descrs[3] = {FC_POS_DESCR, FC_POS_DESCR, FC_POS_DESCR};
static const uint8_t field_list[3] = {FC_POS_ENTRY, FC_POS_ENTRY, FC_POS_ENTRY};
static const uint8_t type_tuple[3] = {FC_POS_DESCR, FC_POS_OTHER, FC_POS_OTHER};
static const uint8_t entry[3] = {FC_POS_OTHER, FC_POS_DESCR, FC_POS_OTHER};

/* Like every error of the lexer, the parse's only one (see lex_error). */
int fc_limit_error(struct lit_parser *p, size_t at)
{
    p->status = set_error(p->err, NPYDT_E_LIMIT, at, NULL, "more than %zu fields in the dtype",
                          p->limits->max_fields);
    return -1;
}

/* Room for one more level: the nodes arena, doubling, past the room the
 * parser started with. 0, or -1 when out of memory. */
static int fc_grow(struct lit_parser *p)
{
    struct fc_level *more = arena_alloc_array_raw(p->nodes, 2 * (size_t)p->fc_cap, sizeof *more);
    if (!more) {
        p->status = set_nomem(p->err);
        return -1;
    }
    memcpy(more, p->fc, p->fc_cap * sizeof *more);
    p->fc = more;
    p->fc_cap *= 2;
    return 0;
}

int fc_open(struct lit_parser *p, int tok, bool named)
{
    const struct fc_level *up = &p->fc[p->fc_top];
    const uint8_t *pos;
    switch (up->pos[up->item]) {
    case FC_POS_HEADER:
        if (tok != LBRACE)
            return tok;
        pos = descrs;
        break;
    case FC_POS_DESCR:
        /* a HEAD here is a type tuple past its item 0: nothing in it counts */
        if (tok != LBRACK && tok != LPAREN)
            return tok;
        pos = tok == LBRACK ? field_list : type_tuple;
        break;
    case FC_POS_ENTRY:
        if (tok == LBRACE)
            return tok;
        pos = entry;   /* '(', '[', or "( 'name' ," (HEAD): at item 1 */
        break;
    default:
        return tok;
    }
    if (p->fc_top + 1 == p->fc_cap && fc_grow(p) < 0)
        return -1;
    struct fc_level *lv = &p->fc[++p->fc_top];
    lv->start = (size_t)(p->tok - p->text);
    memcpy(lv->pos, pos, 3);
    lv->item = tok == HEAD;
    lv->entry = pos == entry;
    lv->named = named;
    return tok;
}

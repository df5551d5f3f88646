/* The repeat prefix of a comma string item ("3", "(2,3)", "2,3"), read
 * without the literal stage: the type string's pattern leaves only
 * integers, commas, spaces and one pair of parentheses, whose meaning as
 * a Python literal is spelled out here. */
#include "dtype/build.h"

/* A comma string item's repeat prefix, which match_item limits to
 * spaces, an optional '(', digits, commas and spaces, and an optional
 * ')', read as NumPy reads it (ast.literal_eval): an integer, integers in
 * parentheses or joined by commas (a tuple), or "()". */
struct repeat {
    bool scalar;   /* one integer, not a tuple */
    size_t ndim;   /* integers in it */
};

static size_t skip_spaces(const char *s, size_t len, size_t i)
{
    while (i < len && s[i] == ' ')
        i++;
    return i;
}

/* Is s[0..len) such a literal (Python would raise SyntaxError else)? A
 * parenthesis opens a level of nesting, which max_depth 0 refuses, as it
 * does in a header's literal. */
static bool repeat_scan(const char *s, size_t len, uint32_t max_depth, struct repeat *r)
{
    size_t i = skip_spaces(s, len, 0), n = 0;
    bool paren = i < len && s[i] == '(';
    bool after_int = false, comma = false;
    if (paren)
        i++;
    for (;;) {
        i = skip_spaces(s, len, i);
        if (i == len || s[i] == ')')
            break;
        if (s[i] == ',') {
            if (!after_int)          /* a ',' first, or two in a row */
                return false;
            after_int = false;
            comma = true;
            i++;
        } else if (s[i] >= '0' && s[i] <= '9' && !after_int) {
            size_t b = i;
            while (i < len && s[i] >= '0' && s[i] <= '9')
                i++;
            /* Python 3 allows no leading zero, except in zero itself */
            for (size_t k = b; s[b] == '0' && k < i; k++)
                if (s[k] != '0')
                    return false;
            n++;
            after_int = true;
        } else {
            return false;            /* two integers in a row */
        }
    }
    if (paren != (i < len))          /* a '(' without its ')', or the reverse */
        return false;
    if (paren && (skip_spaces(s, len, i + 1) != len || max_depth < 1))
        return false;
    if (!paren && n == 0)            /* nothing at all, or only spaces */
        return false;
    r->scalar = n == 1 && !comma;
    r->ndim = n;
    return true;
}

/* The integer of the digits at s[*i], *i moved past them; UINT64_MAX when
 * it does not fit. */
static uint64_t repeat_int(const char *s, size_t len, size_t *i)
{
    while (*i < len && !(s[*i] >= '0' && s[*i] <= '9'))
        (*i)++;
    uint64_t v = 0;
    bool big = false;
    for (; *i < len && s[*i] >= '0' && s[*i] <= '9'; (*i)++)
        if (!ck_mul(v, 10, &v) || !ck_add(v, (uint64_t)(s[*i] - '0'), &v))
            big = true;
    return big ? UINT64_MAX : v;
}

/* np.dtype((base, r)) for the repeat r that repeat_scan read from
 * s[0..len). */
static npydt_status repeat_apply(struct dtype_ctx *c, const npydt_dtype *base, const char *s,
                                 size_t len, const struct repeat *r, size_t off,
                                 const npydt_dtype **out)
{
    size_t i = 0;
    if (dtype_takes_itemsize(base))
        return dtype_with_itemsize(c, base, r->scalar ? repeat_int(s, len, &i) : UINT64_MAX,
                                   off, out);
    enum { INLINE_DIMS = 32 };
    uint64_t inline_dims[INLINE_DIMS];
    uint64_t *dims = inline_dims;
    if (!r->scalar && r->ndim) {
        npydt_status st = dtype_check_ndim(c, r->ndim, off);
        if (st != NPYDT_OK)
            return st;
        if (r->ndim > INLINE_DIMS && !(dims = arena_alloc_array(c->arena, r->ndim, sizeof *dims)))
            return set_nomem(c->err);
    }
    for (size_t d = 0; d < r->ndim; d++)
        if ((dims[d] = repeat_int(s, len, &i)) > NPYDT_MAX_ITEMSIZE)
            return dtype_dim_overflow(c, off);
    return dtype_apply_dims(c, base, dims, r->ndim, r->scalar, off, out);
}

npydt_status typestr_repeat(struct dtype_ctx *c, const npydt_dtype *base, const char *rep,
                            size_t len, size_t off, const npydt_dtype **out)
{
    struct repeat r;
    if (!repeat_scan(rep, len, c->limits->max_depth, &r))
        return set_error(c->err, NPYDT_E_TYPE, off, dtype_path(c),
                         "invalid repeat count '%.*s' in type string", (int)len, rep);
    return repeat_apply(c, base, rep, len, &r, off, out);
}

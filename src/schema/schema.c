/* Schemas: an expected dtype (and optionally array shape and order),
 * compiled once from a spec (this file), checked against any number of
 * headers (schema_match.c) with every mismatch named (schema_report.c). */
#include "schema/schema.h"

#include "header/header.h"
#include "literal/literal.h"

#include <string.h>

static bool is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* A spec is a literal when it starts like one: a quote, a list, a dict, or
 * a tuple whose first item is one of those. Anything else ("f8, (3,)i4",
 * "(2,3)f4", "float64") is a type string. */
static bool looks_literal(const char *t, size_t n)
{
    if (t[0] == '\'' || t[0] == '"' || t[0] == '[' || t[0] == '{')
        return true;
    if (t[0] != '(')
        return false;
    size_t i = 1;
    while (i < n && is_space(t[i]))
        i++;
    return i < n && (t[i] == '\'' || t[i] == '"' || t[i] == '[' || t[i] == '(');
}

/* {'descr': ..., 'shape': ..., 'fortran_order': ...}, every key optional. */
static npydt_status parse_dict_spec(struct npydt_schema *s, struct dtype_ctx *c,
                                    const struct lit *d, const npydt_dtype **dt)
{
    struct header_dict vals;
    npydt_status st = header_dict_read(c, d, HEADER_DICT_SCHEMA, &vals);
    if (st != NPYDT_OK)
        return st;
    *dt = vals.dtype;
    s->has_fortran = vals.has_fortran_order;
    s->fortran = vals.fortran_order;
    s->has_shape = vals.has_shape;
    s->ndim = vals.ndim;
    s->shape = vals.shape;
    return NPYDT_OK;
}

/* Everything but the arena move; errors carry offsets into the trimmed
 * text (b bytes into the spec). */
static npydt_status compile_into(struct npydt_schema *s, struct arena *ar, const char *spec,
                                 size_t b, size_t e, const npydt_limits *lim, npydt_error *err)
{
    struct dtype_ctx c;
    dtype_ctx_init(&c, ar, NULL, lim, err);
    const char *t = spec + b;
    size_t n = e - b;
    const npydt_dtype *dt = NULL;
    npydt_status st;
    if (!looks_literal(t, n)) {
        st = typestr_parse_text(&c, t, n, b, &dt);
    } else {
        struct lit *v;
        st = lit_parse_text_as(ar, NULL, t, n, true, true, LIT_ROOT_DESCR, lim, err, &v);
        if (st == NPYDT_OK)
            st = v->kind == LIT_DICT ? parse_dict_spec(s, &c, v, &dt) : descr_from_lit(&c, v, &dt);
        if (st != NPYDT_OK && err && err->offset != NPYDT_NO_OFFSET)
            err->offset += b;
    }
    if (st != NPYDT_OK || !dt)
        return st;
    /* a root of its own, with the leaf table, like any parsed dtype */
    npydt_dtype *root;
    st = dtype_make_root(&c, dt, NULL, &root);
    if (st == NPYDT_OK)
        s->dtype = root;
    return st;
}

npydt_status npydt_schema_compile(const char *spec, size_t len, const npydt_options *opts,
                                  npydt_schema **out, npydt_error *err)
{
    error_clear(err);
    npydt_options defaults;
    opts = options_or_default(opts, &defaults);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!spec && len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "spec is NULL");
    npydt_status st = options_check(opts, err);
    if (st != NPYDT_OK)
        return st;
    size_t b = 0, e = len;
    while (b < e && is_space(spec[b]))
        b++;
    while (e > b && is_space(spec[e - 1]))
        e--;
    if (b == e)
        return set_error(err, NPYDT_E_SYNTAX, len, NULL, "empty schema");
    struct arena_budget budget;
    arena_budget_init(&budget, opts->limits.max_alloc_bytes);
    struct arena ar;
    arena_init(&ar, opts->allocator);
    arena_budget_attach(&ar, &budget);
    struct npydt_schema *s = arena_alloc(&ar, sizeof *s);
    if (!s) {
        arena_release(&ar);
        return arena_budget_explain(&budget, set_nomem(err), err);
    }
    s->alloc = opts->allocator;
    st = compile_into(s, &ar, spec, b, e, &opts->limits, err);
    if (st != NPYDT_OK) {
        arena_release(&ar);   /* s lives in ar */
        return arena_budget_explain(&budget, st, err);
    }
    arena_budget_detach(&ar);   /* budget ends with this call */
    s->arena = ar;
    *out = s;
    return NPYDT_OK;
}

void npydt_schema_free(npydt_schema *schema)
{
    if (!schema)
        return;
    struct arena ar = schema->arena;
    arena_release(&ar);
}

const npydt_dtype *npydt_schema_dtype(const npydt_schema *schema)
{
    return schema ? schema->dtype : NULL;
}

/* Value rules compiled from a Python dict literal (the literal stage's
 * reader, the one that reads headers) against a dtype: each key a field
 * path, each value a dict of rules, each rule checked for its value's type
 * and for the field's type once, here, so that a check only compares. */
#include "values/values.h"

#include "literal/literal.h"
#include "records/records.h"

#include <stdio.h>

#define MAX_VALUES_DEFAULT 65536u
#define MAX_UNIQUE_BYTES_DEFAULT ((uint64_t)256 << 20)

static const char *const op_names[RULE_OP_COUNT] = {
    "min", "max", "exclusive_min", "exclusive_max", "nan", "inf", "nat", "sorted", "unique",
    "values", "min_len", "max_len", "utf8", "ascii",
};

const char *rule_op_name(enum rule_op op)
{
    return op < RULE_OP_COUNT ? op_names[op] : "unknown";
}

static const char *const orders[] = {
    "ascending", "descending", "strictly_ascending", "strictly_descending",
};

void npydt_rules_options_init(npydt_rules_options *opts)
{
    if (!opts)
        return;
    memset(opts, 0, sizeof *opts);
    npydt_options_init(&opts->base);
    opts->max_values = MAX_VALUES_DEFAULT;
    opts->max_unique_bytes = MAX_UNIQUE_BYTES_DEFAULT;
}

struct compile {
    struct arena *ar;
    const char *text;
    const npydt_dtype *dt;
    size_t max_values, values;  /* the limit, and the elements so far */
    npydt_error *err;
};

static const char *lit_kind_name(const struct lit *v)
{
    switch (v->kind) {
    case LIT_STR: return "a string";
    case LIT_BYTES: return "bytes";
    case LIT_INT: return "an integer";
    case LIT_FLOAT: return "a number";
    case LIT_BOOL: return "a bool";
    case LIT_NONE: return "None";
    case LIT_TUPLE: return "a tuple";
    case LIT_LIST: return "a list";
    case LIT_DICT: return "a dict";
    }
    return "a value";
}

/* The type of a field in messages: "int32 (<i4)", "struct (|V16)". */
static void type_text(const npydt_dtype *field, const npydt_dtype *scalar, char *buf, size_t size)
{
    char str[64];
    npydt_dtype_str(field, str, sizeof str);
    if (scalar->cls != NPYDT_SCALAR)
        snprintf(buf, size, "a struct ('%s')", str);
    else if (field->cls == NPYDT_SUBARRAY) {
        char descr[96];
        size_t n = npydt_dtype_descr(field, descr, sizeof descr);
        snprintf(buf, size, "a subarray %s%s", descr, n >= sizeof descr ? "..." : "");
    }
    else
        snprintf(buf, size, "'%s'", str);
}

/* Which rules apply to which domains, as bits of 1 << domain. */
static unsigned op_domains(enum rule_op op, const npydt_dtype *scalar)
{
    const unsigned num = 1u << DOM_INT | 1u << DOM_UINT | 1u << DOM_FLOAT;
    const unsigned str = 1u << DOM_BYTES | 1u << DOM_TEXT;
    bool time = scalar->kind == 'M' || scalar->kind == 'm';
    switch (op) {
    case RULE_MIN: case RULE_MAX: case RULE_EXCLUSIVE_MIN: case RULE_EXCLUSIVE_MAX:
        return scalar->kind == 'b' ? 0 : num;
    case RULE_SORTED:
        return num | str;
    case RULE_NAN: case RULE_INF:
        return 1u << DOM_FLOAT | 1u << DOM_COMPLEX;
    case RULE_NAT:
        return time ? 1u << DOM_INT : 0;
    case RULE_UNIQUE: case RULE_VALUES:
        return num | str;
    case RULE_MIN_LEN: case RULE_MAX_LEN: case RULE_ASCII:
        return str;
    case RULE_UTF8:
        return 1u << DOM_BYTES;
    case RULE_OP_COUNT:
        break;
    }
    return 0;
}

static const char *op_applies_to(enum rule_op op)
{
    switch (op) {
    case RULE_MIN: case RULE_MAX: case RULE_EXCLUSIVE_MIN: case RULE_EXCLUSIVE_MAX:
        return "integers, floats, datetime64 and timedelta64";
    case RULE_SORTED:
        return "bools, integers, floats, datetime64, timedelta64, bytes (S) and str (U)";
    case RULE_NAN: case RULE_INF:
        return "floats and complex numbers";
    case RULE_NAT:
        return "datetime64 and timedelta64";
    case RULE_UNIQUE: case RULE_VALUES:
        return "bools, integers, floats, datetime64, timedelta64, bytes (S) and str (U)";
    case RULE_UTF8:
        return "bytes (S)";
    default:
        return "bytes (S) and str (U)";
    }
}

static npydt_status place(struct compile *c, struct rule_target *t, const struct lit *key)
{
    const char *path = key->u.str.s;
    size_t len = key->u.str.len;
    npydt_status st = npydt_field_lookup_len(c->dt, path, len, &t->offset, &t->field, c->err);
    if (st != NPYDT_OK) {
        if (c->err)
            c->err->offset = key->start;
        return st;
    }
    scalar_chain(t->field, &t->scalar, &t->elems);
    const npydt_dtype *s = t->scalar;
    if (s->cls == NPYDT_SCALAR) {
        switch (s->kind) {
        case 'f': t->dom = DOM_FLOAT; t->as = NPYDT_AS_DOUBLE; break;
        case 'c': t->dom = DOM_COMPLEX; t->as = NPYDT_AS_DOUBLE; break;
        case 'u':
            t->dom = s->itemsize == 8 ? DOM_UINT : DOM_INT;
            t->as = s->itemsize == 8 ? NPYDT_AS_NATIVE : NPYDT_AS_INT64;
            break;
        case 'i': case 'b': case 'M': case 'm':
            t->dom = DOM_INT; t->as = NPYDT_AS_INT64; break;
        case 'S': t->dom = DOM_BYTES; t->as = NPYDT_AS_NATIVE; break;
        case 'U': t->dom = DOM_TEXT; t->as = NPYDT_AS_NATIVE; break;
        default: t->dom = DOM_BYTES; t->as = NPYDT_AS_NATIVE; break;   /* refused below */
        }
    }
    t->gather_size = npydt_gather_size(t->field, t->as);
    return NPYDT_OK;
}

static npydt_status wrong(struct compile *c, const struct lit *at, const char *path,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* NPYDT_E_VALUE at `at`, naming path (NULL: none). */
static npydt_status wrong(struct compile *c, const struct lit *at, const char *path,
                          const char *fmt, ...)
{
    char p[256];
    name_for_message(p, sizeof p, path ? path : "", path ? strlen(path) : 0);
    va_list ap;
    va_start(ap, fmt);
    npydt_status st = set_errorv(c->err, NPYDT_E_VALUE, at->start, path ? p : NULL, fmt, ap);
    va_end(ap);
    return st;
}

/* ISO 8601 text v as a count of the datetime64 field t's unit (t NULL:
 * checked as a date only); *exact when the instant is a whole count. */
static npydt_status iso_count(struct compile *c, const struct rule_target *t,
                              const struct lit *v, const char *path, const char *rule,
                              int64_t *count, bool *exact)
{
    int unit = t ? (int)npydt_dtype_unit(t->scalar) : NPYDT_UNIT_D;
    int32_t mult = t ? npydt_dtype_unit_count(t->scalar) : 1;
    int r = text_datetime_read(v->u.str.s, v->u.str.len, unit, mult, count, exact);
    if (r < 0 && t && unit == NPYDT_UNIT_GENERIC)
        return wrong(c, v, path, "'%s' of a datetime64 field without a unit takes no date",
                     rule);
    if (r < 0 && !t)
        return wrong(c, v, path, "'%s' takes a number, or for a datetime64 field a date as "
                     "ISO 8601 text ('2024-01-31T12:30'), found a string that is no date", rule);
    if (r < 0)
        return wrong(c, v, path, "'%s' takes a date and time as ISO 8601 text "
                     "('2024-01-31', '2024-01-31T12:30:00.5'): this one is not", rule);
    if (r > 0)
        return wrong(c, v, path, "'%s': this date is beyond the datetime64 field's unit", rule);
    return NPYDT_OK;
}

static bool is_datetime(const struct rule_target *t)
{
    return t && t->scalar->kind == 'M';
}

/* One element of a 'values' list into set slot i of domain dom; false:
 * no value of the field equals it (dropped). */
static npydt_status set_item(struct compile *c, const struct rule_target *t, const struct lit *v,
                             void *set, size_t *k, const char *path)
{
    struct rule_num n;
    switch (t->dom) {
    case DOM_INT: case DOM_UINT: case DOM_FLOAT: {
        bool is_bool = v->kind == LIT_BOOL;
        if (v->kind == LIT_STR && is_datetime(t)) {   /* a date: a value when it is a count */
            int64_t count;
            bool exact;
            npydt_status st = iso_count(c, t, v, path, "values", &count, &exact);
            if (st != NPYDT_OK)
                return st;
            ((int64_t *)set)[*k] = count;
            *k += exact;
            return NPYDT_OK;
        }
        if (is_bool) {
            n = (struct rule_num){.mag = v->u.b, .d = v->u.b};
        } else if (!rule_num_read(v, c->text, &n)) {
            return wrong(c, v, path, "'values' of %s holds %s: numbers only", "a number field",
                         lit_kind_name(v));
        }
        if ((t->scalar->kind == 'M' || t->scalar->kind == 'm') && (n.is_float || is_bool))
            return wrong(c, v, path, "'values' of %s holds %s: integer counts of its unit%s only",
                         t->scalar->kind == 'M' ? "a datetime64 field" : "a timedelta64 field",
                         lit_kind_name(v), t->scalar->kind == 'M' ? " and dates" : "");
        bool ok = t->dom == DOM_INT ? rule_num_to_i64(&n, (int64_t *)set + *k)
                  : t->dom == DOM_UINT ? rule_num_to_u64(&n, (uint64_t *)set + *k)
                                       : rule_num_to_double(&n, (double *)set + *k);
        *k += ok;
        return NPYDT_OK;
    }
    case DOM_BYTES: case DOM_TEXT: {
        bool text = t->dom == DOM_TEXT;
        if (v->kind != (text ? LIT_STR : LIT_BYTES))
            return wrong(c, v, path, "'values' of %s holds %s", text ? "a str (U) field: str only"
                         : "a bytes (S) field: bytes only", lit_kind_name(v));
        struct rule_str *s = (struct rule_str *)set + *k;
        const unsigned char *p = (const unsigned char *)v->u.str.s;
        size_t len = v->u.str.len;
        if (!text) {
            s->p = p;
            s->len = len;
        } else {   /* code points as the field stores them */
            uint32_t *u = arena_alloc_array_raw(c->ar, len ? len : 1, 4);
            if (!u)
                return set_nomem(c->err);
            size_t m = 0;
            for (size_t i = 0; i < len; m++) {
                uint32_t cp = p[i];
                size_t step = cp < 0x80 ? 1 : text_wtf8_decode(p + i, len - i, &cp);
                i += step ? step : 1;
                u[m] = cp;
            }
            s->p = u;
            s->len = m;
        }
        (*k)++;
        return NPYDT_OK;
    }
    case DOM_COMPLEX:
        break;
    }
    return NPYDT_OK;
}

/* The value of rule r, checked for its own type and (placed) the field's. */
static npydt_status rule_value(struct compile *c, struct rule *r, const struct rule_target *t,
                               const struct lit *v, const char *path)
{
    const char *name = op_names[r->op];
    struct rule_num n;
    switch (r->op) {
    case RULE_MIN: case RULE_MAX: case RULE_EXCLUSIVE_MIN: case RULE_EXCLUSIVE_MAX:
        if (v->kind == LIT_STR && (!t || is_datetime(t))) {   /* a date */
            int64_t count;
            bool exact;
            npydt_status st = iso_count(c, t, v, path, name, &count, &exact);
            if (st != NPYDT_OK)
                return st;
            if (t)
                rule_bound_set_count(r, count, exact);
            r->active = true;
            return NPYDT_OK;
        }
        if (v->kind == LIT_BOOL || !rule_num_read(v, c->text, &n))
            return wrong(c, v, path, "'%s' takes a number%s, found %s", name,
                         is_datetime(t) ? " or a date" : "", lit_kind_name(v));
        if (t && (t->scalar->kind == 'M' || t->scalar->kind == 'm') && n.is_float)
            return wrong(c, v, path, "'%s' of %s takes an integer count of its unit%s", name,
                         t->scalar->kind == 'M' ? "a datetime64 field" : "a timedelta64 field",
                         t->scalar->kind == 'M' ? " or a date" : "");
        if (t)
            rule_bound_set(r, t->dom, &n);
        r->active = true;
        return NPYDT_OK;
    case RULE_NAN: case RULE_INF: case RULE_NAT: case RULE_UNIQUE: case RULE_UTF8:
    case RULE_ASCII:
        if (v->kind != LIT_BOOL)
            return wrong(c, v, path, "'%s' takes True or False, found %s", name,
                         lit_kind_name(v));
        /* nan, inf, nat: True allows them; unique, utf8, ascii: False asks nothing */
        r->active = (r->op == RULE_NAN || r->op == RULE_INF || r->op == RULE_NAT) ? !v->u.b
                                                                                  : v->u.b;
        return NPYDT_OK;
    case RULE_MIN_LEN: case RULE_MAX_LEN:
        if (v->kind != LIT_INT || (v->u.num.neg && v->u.num.mag))
            return wrong(c, v, path, "'%s' takes a length (an integer >= 0), found %s", name,
                         v->kind == LIT_INT ? "a negative one" : lit_kind_name(v));
        r->v.u = v->u.num.mag;   /* big ones saturate: no string is that long */
        r->active = true;
        return NPYDT_OK;
    case RULE_SORTED:
        for (size_t i = 0; v->kind == LIT_STR && i < sizeof orders / sizeof orders[0]; i++)
            if (lit_str_is(v, orders[i])) {
                r->v.order = (enum rule_order)i;
                r->active = true;
                return NPYDT_OK;
            }
        return wrong(c, v, path, "'%s' takes 'ascending', 'descending', 'strictly_ascending' "
                     "or 'strictly_descending', found %s", name,
                     v->kind == LIT_STR ? "another string" : lit_kind_name(v));
    case RULE_VALUES: {
        if (v->kind != LIT_LIST && v->kind != LIT_TUPLE)
            return wrong(c, v, path, "'%s' takes a list or a tuple, found %s", name,
                         lit_kind_name(v));
        size_t count = v->u.seq.n;
        if (count > c->max_values - c->values)
            return set_error(c->err, NPYDT_E_LIMIT, v->start, NULL,
                             "more than %zu elements in 'values' lists (max_values)",
                             c->max_values);
        c->values += count;
        for (const struct lit *e = v->u.seq.head; e; e = e->next)
            if (e->kind != LIT_STR && e->kind != LIT_BYTES && e->kind != LIT_INT &&
                e->kind != LIT_FLOAT && e->kind != LIT_BOOL)
                return wrong(c, e, path, "'%s' holds %s: numbers, str or bytes only", name,
                             lit_kind_name(e));
        r->active = true;
        if (!t)
            return NPYDT_OK;
        size_t size = t->dom == DOM_BYTES || t->dom == DOM_TEXT ? sizeof(struct rule_str) : 8;
        void *set = arena_alloc_array_raw(c->ar, count ? count : 1, size);
        if (!set)
            return set_nomem(c->err);
        size_t k = 0;
        for (const struct lit *e = v->u.seq.head; e; e = e->next) {
            npydt_status st = set_item(c, t, e, set, &k, path);
            if (st != NPYDT_OK)
                return st;
        }
        rule_set_sort(set, &k, t->dom);
        r->set = set;
        r->nset = k;
        return NPYDT_OK;
    }
    case RULE_OP_COUNT:
        break;
    }
    return NPYDT_OK;
}

/* The rules of one key. */
static npydt_status compile_key(struct compile *c, npydt_rules *rs, const struct lit *key,
                                const struct lit *val)
{
    if (key->kind != LIT_STR)
        return set_error(c->err, NPYDT_E_KEY, key->start, NULL,
                         "a key of the rules is a field path (a string), found %s",
                         lit_kind_name(key));
    const char *path = key->u.str.s;
    if (val->kind != LIT_DICT)
        return wrong(c, val, path, "the rules of a field are a dict, found %s",
                     lit_kind_name(val));
    struct rule_target *t = NULL;
    if (c->dt) {
        t = &rs->targets[rs->ntargets];
        memset(t, 0, sizeof *t);
        npydt_status st = place(c, t, key);
        if (st != NPYDT_OK)
            return st;
        t->path = key->u.str.s;
        t->path_len = key->u.str.len;
        t->first_rule = rs->nrules;
    }
    unsigned seen = 0;
    for (const struct lit *k = val->u.seq.head; k; k = k->next->next) {
        const struct lit *v = k->next;
        int op = -1;
        for (int i = 0; k->kind == LIT_STR && i < RULE_OP_COUNT; i++)
            if (lit_str_is(k, op_names[i]))
                op = i;
        if (op < 0) {
            char p[256];
            name_for_message(p, sizeof p, path, key->u.str.len);
            if (k->kind != LIT_STR)
                return set_error(c->err, NPYDT_E_KEY, k->start, p,
                                 "a rule's name is a string, found %s", lit_kind_name(k));
            char name[64];
            name_for_message(name, sizeof name, k->u.str.s, k->u.str.len);
            return set_error(c->err, NPYDT_E_KEY, k->start, p,
                             "unknown rule '%s' (rules: min, max, exclusive_min, exclusive_max, "
                             "nan, inf, nat, sorted, unique, values, min_len, max_len, utf8, "
                             "ascii)", name);
        }
        if (seen & (1u << op)) {
            char p[256];
            name_for_message(p, sizeof p, path, key->u.str.len);
            return set_error(c->err, NPYDT_E_KEY, k->start, p, "rule '%s' given twice",
                             op_names[op]);
        }
        seen |= 1u << op;
        if (t && !(op_domains((enum rule_op)op, t->scalar) & (1u << t->dom) &&
                   t->scalar->cls == NPYDT_SCALAR && strchr("biufcMmSU", t->scalar->kind))) {
            char p[256], ty[160];
            name_for_message(p, sizeof p, path, key->u.str.len);
            type_text(t->field, t->scalar, ty, sizeof ty);
            return set_error(c->err, NPYDT_E_VALUE, k->start, p,
                             "rule '%s' cannot apply to %s: it is for %s", op_names[op], ty,
                             op_applies_to((enum rule_op)op));
        }
        struct rule *r = &rs->rules[rs->nrules];
        memset(r, 0, sizeof *r);
        r->op = (enum rule_op)op;
        r->target = rs->ntargets;
        r->offset = k->start;
        r->expected = c->text + v->start;
        r->expected_len = v->end - v->start;
        npydt_status st = rule_value(c, r, t, v, path);
        if (st != NPYDT_OK)
            return st;
        rs->nrules++;
    }
    if (t) {
        t->nrules = rs->nrules - t->first_rule;
        rs->ntargets++;
    }
    return NPYDT_OK;
}

static npydt_status compile_text(struct compile *c, npydt_rules *rs, const char *text, size_t len,
                                 const npydt_limits *lim)
{
    struct lit *root;
    npydt_status st = lit_parse_text_as(c->ar, NULL, text, len, true, false, LIT_ROOT_DESCR, lim,
                                        c->err, &root);
    if (st != NPYDT_OK)
        return st;
    /* the tree's strings live in a copy of the text: the expected values
     * point into it */
    if (root->kind != LIT_DICT)
        return set_error(c->err, NPYDT_E_VALUE, root->start, NULL,
                         "rules are a dict of field paths, found %s", lit_kind_name(root));
    size_t nkeys = root->u.seq.n / 2, nrules = 0;
    for (const struct lit *k = root->u.seq.head; k; k = k->next->next) {
        if (k->next->kind == LIT_DICT)
            nrules += k->next->u.seq.n / 2;
        for (const struct lit *j = root->u.seq.head; j != k; j = j->next->next)
            if (j->kind == LIT_STR && k->kind == LIT_STR &&
                name_eq(j->u.str.s, j->u.str.len, k->u.str.s, k->u.str.len)) {
                char p[256];
                name_for_message(p, sizeof p, k->u.str.s, k->u.str.len);
                return set_error(c->err, NPYDT_E_KEY, k->start, p, "field path given twice");
            }
    }
    rs->targets = arena_alloc_array(c->ar, nkeys ? nkeys : 1, sizeof *rs->targets);
    rs->rules = arena_alloc_array(c->ar, nrules ? nrules : 1, sizeof *rs->rules);
    if (!rs->targets || !rs->rules)
        return set_nomem(c->err);
    for (const struct lit *k = root->u.seq.head; k; k = k->next->next)
        if ((st = compile_key(c, rs, k, k->next)) != NPYDT_OK)
            return st;
    return NPYDT_OK;
}

npydt_status npydt_rules_compile(const char *text, size_t len, const npydt_dtype *dt,
                                 const npydt_rules_options *opts, npydt_rules **out,
                                 npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!text && len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "text is NULL");
    npydt_rules_options o;
    if (opts) {
        o = *opts;
        if (!reserved_is_zero(o.reserved, sizeof o.reserved / sizeof o.reserved[0]))
            return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                             "options have nonzero reserved room: fill them with "
                             "npydt_rules_options_init");
    } else {
        npydt_rules_options_init(&o);
    }
    npydt_options base;
    const npydt_options *b = options_or_default(&o.base, &base);
    npydt_status st = options_check(b, err);
    if (st != NPYDT_OK)
        return st;
    struct arena_budget budget;
    arena_budget_init(&budget, b->limits.max_alloc_bytes);
    struct arena ar;
    arena_init(&ar, b->allocator);
    arena_budget_attach(&ar, &budget);
    npydt_rules *rs = arena_alloc(&ar, sizeof *rs);
    if (!rs) {
        arena_release(&ar);
        return arena_budget_explain(&budget, set_nomem(err), err);
    }
    rs->alloc = b->allocator;
    rs->dtype = dt;
    rs->max_unique_bytes = o.max_unique_bytes ? o.max_unique_bytes : MAX_UNIQUE_BYTES_DEFAULT;
    struct compile c = {&ar, NULL, dt, o.max_values ? o.max_values : MAX_VALUES_DEFAULT, 0, err};
    /* the expected values point into a copy of the text */
    char *copy = arena_strndup(&ar, text ? text : "", len);
    if (!copy) {
        arena_release(&ar);
        return arena_budget_explain(&budget, set_nomem(err), err);
    }
    c.text = copy;
    st = compile_text(&c, rs, copy, len, &b->limits);
    if (st != NPYDT_OK) {
        arena_release(&ar);   /* rs lives in ar */
        return arena_budget_explain(&budget, st, err);
    }
    arena_budget_detach(&ar);   /* budget ends with this call */
    rs->arena = ar;
    *out = rs;
    return NPYDT_OK;
}

void npydt_rules_free(npydt_rules *rules)
{
    if (!rules)
        return;
    struct arena ar = rules->arena;
    arena_release(&ar);
}

size_t npydt_rules_count(const npydt_rules *rules)
{
    return rules ? rules->nrules : 0;
}

/* Checking compiled value rules over records in C order, a chunk of
 * records at a time: the bounds, nan, inf and nat rules of a field are
 * counted where the records are in one fused pass (rules_direct.c); for
 * the other rules, and those whose first breaking elements are still
 * wanted, the field is gathered (npydt_gather, in the domain the rules
 * were compiled for) and each rule runs over the batch, counting the
 * elements that break it and keeping the first few.
 * Memory: the batch, the results, and what 'unique' rules hold. */
#include "values/values.h"

#include "records/records.h"

#include <math.h>
#include <stdio.h>

/* Gathered bytes per batch, and records' bytes at most: small enough to
 * stay in the first-level cache between the passes (one a field) that
 * read them. */
#define BATCH_BYTES 16384u
#define BATCH_RECORD_BYTES 12288u
/* A batch of records ends where a 4 KiB page of their addresses does:
 * the end of the page after the one it starts in (of that one when it
 * starts it), 4 to 8 KiB on. The hardware's prefetcher streams lines
 * ahead of the first field's pass up to a page's end, so that pass finds
 * them on the way and the other fields' passes find them in the cache; a
 * batch that ends inside a page makes the first pass of the next one
 * wait for memory at its start. */
#define BATCH_PAGE 4096u

struct rule_state {
    bool has_prev;              /* sorted: the element before the batch */
    union { int64_t i; uint64_t u; double d; } prev;
    unsigned char *prev_str;    /* sorted on S or U: the element before, as gathered */
    size_t prev_size;           /* its bytes (the dtype may be gone when the check is freed) */
    struct rule_unique uniq;
};

struct npydt_rules_check {
    const npydt_rules *rules;
    const npydt_allocator *alloc;
    size_t itemsize;
    uint64_t records;           /* checked so far */
    size_t batch;               /* records per gather */
    unsigned char *buf;
    size_t buf_size;
    struct rule_state *state;
    npydt_rule_result *results;
    struct rule_fused *fused;   /* per target */
    unsigned char *how;         /* per rule: rule_fuse's */
};

npydt_status npydt_rules_check_new(const npydt_rules *rules, npydt_rules_check **out,
                                   npydt_error *err)
{
    error_clear(err);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!rules || !rules->dtype)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "rules are NULL or were compiled without a dtype");
    size_t widest = 1;
    for (size_t i = 0; i < rules->ntargets; i++)
        if (rules->targets[i].gather_size > widest)
            widest = rules->targets[i].gather_size;
    size_t batch = widest >= BATCH_BYTES ? 1 : BATCH_BYTES / widest;
    size_t isz = (size_t)npydt_dtype_itemsize(rules->dtype);
    if (isz > 0 && batch > BATCH_RECORD_BYTES / isz)   /* the records stay in the cache too */
        batch = BATCH_RECORD_BYTES / isz > 0 ? BATCH_RECORD_BYTES / isz : 1;
    npydt_rules_check *c = alloc_bytes(rules->alloc, sizeof *c);
    if (!c)
        return set_nomem(err);
    memset(c, 0, sizeof *c);
    c->rules = rules;
    c->alloc = rules->alloc;
    c->itemsize = (size_t)npydt_dtype_itemsize(rules->dtype);
    c->batch = batch;
    c->buf_size = batch * widest;
    size_t n = rules->nrules ? rules->nrules : 1;
    c->buf = alloc_bytes(c->alloc, c->buf_size);
    /* zeroed as soon as they exist: a free after a failure reads them */
    if ((c->state = alloc_bytes(c->alloc, n * sizeof *c->state)) != NULL)
        memset(c->state, 0, n * sizeof *c->state);
    if ((c->results = alloc_bytes(c->alloc, n * sizeof *c->results)) != NULL)
        memset(c->results, 0, n * sizeof *c->results);
    size_t nt = rules->ntargets ? rules->ntargets : 1;
    c->fused = alloc_bytes(c->alloc, nt * sizeof *c->fused);
    if ((c->how = alloc_bytes(c->alloc, n)) != NULL)
        memset(c->how, 0, n);
    if (!c->buf || !c->state || !c->results || !c->fused || !c->how) {
        npydt_rules_check_free(c);
        return set_nomem(err);
    }
    for (size_t i = 0; i < rules->nrules; i++) {
        const struct rule *r = &rules->rules[i];
        const struct rule_target *t = &rules->targets[r->target];
        npydt_rule_result *res = &c->results[i];
        res->path = t->path;
        res->path_len = t->path_len;
        res->rule = rule_op_name(r->op);
        res->expected = r->expected;
        res->expected_len = r->expected_len;
        res->offset = r->offset;
        c->state[i].uniq.alloc = c->alloc;
        c->state[i].uniq.max_bytes = rules->max_unique_bytes;
        if (r->op == RULE_SORTED && (t->dom == DOM_BYTES || t->dom == DOM_TEXT) &&
            !(c->state[i].prev_str = alloc_bytes(c->alloc, c->state[i].prev_size =
                                                 (size_t)t->scalar->itemsize))) {
            npydt_rules_check_free(c);
            return set_nomem(err);
        }
    }
    for (size_t ti = 0; ti < rules->ntargets; ti++)
        rule_fuse(rules, ti, &c->fused[ti], c->how);
    *out = c;
    return NPYDT_OK;
}

void npydt_rules_check_free(npydt_rules_check *c)
{
    if (!c)
        return;
    size_t n = c->rules->nrules ? c->rules->nrules : 1;
    if (c->state)
        for (size_t i = 0; i < c->rules->nrules; i++) {
            rule_unique_free(&c->state[i].uniq);
            if (c->state[i].prev_str)
                free_bytes(c->alloc, c->state[i].prev_str, c->state[i].prev_size);
        }
    free_bytes(c->alloc, c->buf, c->buf_size);
    free_bytes(c->alloc, c->state, c->state ? n * sizeof *c->state : 0);
    free_bytes(c->alloc, c->results, c->results ? n * sizeof *c->results : 0);
    size_t nt = c->rules->ntargets ? c->rules->ntargets : 1;
    free_bytes(c->alloc, c->fused, c->fused ? nt * sizeof *c->fused : 0);
    free_bytes(c->alloc, c->how, c->how ? n : 0);
    free_bytes(c->alloc, c, sizeof *c);
}

const npydt_rule_result *npydt_rules_check_result(const npydt_rules_check *c, size_t i)
{
    return c && i < c->rules->nrules ? &c->results[i] : NULL;
}

uint64_t npydt_rules_check_violations(const npydt_rules_check *c)
{
    uint64_t n = 0;
    for (size_t i = 0; c && i < c->rules->nrules; i++)
        n = sat_add(n, c->results[i].violations);
    return n;
}

/* ---- one element as text -------------------------------------------------- */

static void string_text(char *out, const struct rule_target *t, const unsigned char *p)
{
    size_t isz = (size_t)t->scalar->itemsize;
    if (t->dom == DOM_BYTES) {
        while (isz && p[isz - 1] == 0)
            isz--;
        out[0] = 'b';
        quote_value(out + 1, NPYDT_RULES_VALUE_MAX - 1, p, isz, false);
        return;
    }
    /* the first 33 code points as UTF-8 (quote_value shows 32) */
    size_t n = isz / 4;
    uint32_t cp = 0;
    while (n && (memcpy(&cp, p + 4 * (n - 1), 4), cp == 0))
        n--;
    char utf8[33 * 4];
    size_t len = 0;
    for (size_t i = 0; i < n && i < 33; i++) {
        memcpy(&cp, p + 4 * i, 4);
        len += text_utf8_encode(cp <= 0x10FFFF ? cp : 0xFFFD, utf8 + len);
    }
    quote_value(out, NPYDT_RULES_VALUE_MAX, (const unsigned char *)utf8, len, true);
}

static void value_text(char *out, const struct rule_target *t, const unsigned char *base,
                       size_t k)
{
    const npydt_dtype *s = t->scalar;
    switch (t->dom) {
    case DOM_INT: {
        int64_t v;
        memcpy(&v, base + 8 * k, 8);
        if (s->kind == 'b') {
            snprintf(out, NPYDT_RULES_VALUE_MAX, "%s", v ? "True" : "False");
        } else if ((s->kind == 'M' || s->kind == 'm') && v == INT64_MIN) {
            snprintf(out, NPYDT_RULES_VALUE_MAX, "NaT");
        } else if (s->kind == 'M' || s->kind == 'm') {
            npydt_datetime d = {v, (npydt_unit)s->unit, s->unit_count, 0};
            size_t len;
            if (s->kind != 'M' ||
                npydt_datetime_text(&d, out, NPYDT_RULES_VALUE_MAX, &len, NULL) != NPYDT_OK)
                format_datetime(out, NPYDT_RULES_VALUE_MAX, &d);
        } else {
            snprintf(out, NPYDT_RULES_VALUE_MAX, "%lld", (long long)v);
        }
        return;
    }
    case DOM_UINT: {
        uint64_t v;
        memcpy(&v, base + 8 * k, 8);
        snprintf(out, NPYDT_RULES_VALUE_MAX, "%llu", (unsigned long long)v);
        return;
    }
    case DOM_FLOAT: {
        double v;
        memcpy(&v, base + 8 * k, 8);
        format_double(out, NPYDT_RULES_VALUE_MAX, v);
        return;
    }
    case DOM_COMPLEX: {
        double v[2];
        memcpy(v, base + 16 * k, 16);
        format_complex(out, NPYDT_RULES_VALUE_MAX, v);
        return;
    }
    case DOM_BYTES: case DOM_TEXT:
        string_text(out, t, base + (size_t)s->itemsize * k);
        return;
    }
}

/* ---- the rules over one gathered batch ------------------------------------ */

struct batch {
    npydt_rules_check *c;
    const struct rule_target *t;
    const unsigned char *v;     /* the gathered values */
    size_t m;                   /* elements in it */
    uint64_t first;             /* flat index of its first element */
};

static void note(const struct batch *b, npydt_rule_result *res, size_t k)
{
    if (res->nfirst < NPYDT_RULES_FIRST) {
        res->first[res->nfirst] = b->first + k;
        value_text(res->values[res->nfirst], b->t, b->v, k);
        res->nfirst++;
    }
    res->violations++;
}

/* Every element k of the batch for which BAD holds, X its value of type T. */
#define SCAN(T, SIZE, BAD)                                                     \
    do {                                                                       \
        for (size_t k = 0; k < b->m; k++) {                                    \
            T x;                                                               \
            memcpy(&x, b->v + (SIZE) * k, sizeof x);                           \
            if (BAD)                                                           \
                note(b, res, k);                                               \
        }                                                                      \
    } while (0)

/* The same, counted first in a loop without branches (which the
 * compiler vectorizes), the elements found only when some break. */
#define COUNT(T, SIZE, BAD)                                                    \
    do {                                                                       \
        const unsigned char *v_ = b->v;                                        \
        size_t m_ = b->m, count_ = 0;                                          \
        for (size_t k = 0; k < m_; k++) {                                      \
            T x;                                                               \
            memcpy(&x, v_ + (SIZE) * k, sizeof x);                             \
            count_ += (size_t)(BAD);                                           \
        }                                                                      \
        if (count_ > 0 && res->nfirst < NPYDT_RULES_FIRST)                     \
            SCAN(T, SIZE, BAD);                                                \
        else                                                                   \
            res->violations += count_;                                         \
    } while (0)

static void run_bound(const struct batch *b, const struct rule *r, npydt_rule_result *res)
{
    if (r->reach == BOUND_ALL)
        return;
    bool time = b->t->scalar->kind == 'M' || b->t->scalar->kind == 'm';
    bool none = r->reach == BOUND_NONE;
    bool lower = r->op == RULE_MIN || r->op == RULE_EXCLUSIVE_MIN;
    switch (b->t->dom) {
    case DOM_INT: {
        int64_t lim = r->v.i;
        if (none)
            COUNT(int64_t, 8, !(time && x == INT64_MIN));
        else if (lower)
            COUNT(int64_t, 8, x < lim && !(time && x == INT64_MIN));
        else
            COUNT(int64_t, 8, x > lim);
        return;
    }
    case DOM_UINT: {
        uint64_t lim = r->v.u;
        if (none)
            COUNT(uint64_t, 8, true);
        else if (lower)
            COUNT(uint64_t, 8, x < lim);
        else
            COUNT(uint64_t, 8, x > lim);
        return;
    }
    default: {   /* DOM_FLOAT: NaN breaks no bound */
        double lim = r->v.d;
        switch (r->op) {
        case RULE_MIN: COUNT(double, 8, x < lim); return;
        case RULE_EXCLUSIVE_MIN: COUNT(double, 8, x <= lim); return;
        case RULE_MAX: COUNT(double, 8, x > lim); return;
        default: COUNT(double, 8, x >= lim); return;
        }
    }
    }
}

/* x breaks order o after p (NaN and NaT compare false: never). */
#define BREAKS(o, x, p)                                                        \
    ((o) == ORDER_ASC ? (x) < (p) : (o) == ORDER_DESC ? (x) > (p)              \
     : (o) == ORDER_STRICT_ASC ? (x) <= (p) : (x) >= (p))

static void run_sorted_str(const struct batch *b, const struct rule *r, struct rule_state *s,
                           npydt_rule_result *res)
{
    enum rule_order o = r->v.order;
    size_t isz = (size_t)b->t->scalar->itemsize;
    bool units = b->t->dom != DOM_BYTES;
    for (size_t k = 0; k < b->m; k++) {
        const unsigned char *x = b->v + isz * k;
        /* S as bytes, U as code units, both of the field's size: padded
         * with NULs, which sort first */
        if (s->has_prev &&
            BREAKS(o, values_string_order(x, isz, s->prev_str, isz, units), 0))
            note(b, res, k);
        memcpy(s->prev_str, x, isz);
        s->has_prev = true;
    }
}

static void run_sorted(const struct batch *b, const struct rule *r, struct rule_state *s,
                       npydt_rule_result *res)
{
    enum rule_order o = r->v.order;
    if (b->t->dom == DOM_BYTES || b->t->dom == DOM_TEXT) {
        run_sorted_str(b, r, s, res);
        return;
    }
    bool time = b->t->scalar->kind == 'M' || b->t->scalar->kind == 'm';
    for (size_t k = 0; k < b->m; k++) {
        bool bad = false;
        switch (b->t->dom) {
        case DOM_INT: {
            int64_t x;
            memcpy(&x, b->v + 8 * k, 8);
            bad = s->has_prev && BREAKS(o, x, s->prev.i) &&
                  !(time && (x == INT64_MIN || s->prev.i == INT64_MIN));
            s->prev.i = x;
            break;
        }
        case DOM_UINT: {
            uint64_t x;
            memcpy(&x, b->v + 8 * k, 8);
            bad = s->has_prev && BREAKS(o, x, s->prev.u);
            s->prev.u = x;
            break;
        }
        default: {
            double x;
            memcpy(&x, b->v + 8 * k, 8);
            bad = s->has_prev && BREAKS(o, x, s->prev.d);
            s->prev.d = x;
            break;
        }
        }
        s->has_prev = true;
        if (bad)
            note(b, res, k);
    }
}

/* The length of a string element in units (trailing NULs dropped, as
 * NumPy reads S and U), and the units. */
static size_t str_units(const struct rule_target *t, const unsigned char *p)
{
    size_t isz = (size_t)t->scalar->itemsize;
    if (t->dom == DOM_BYTES) {
        while (isz && p[isz - 1] == 0)
            isz--;
        return isz;
    }
    size_t n = isz / 4;
    uint32_t cp;
    while (n && (memcpy(&cp, p + 4 * (n - 1), 4), cp == 0))
        n--;
    return n;
}

static bool str_breaks(const struct rule_target *t, const struct rule *r, const unsigned char *p)
{
    size_t n = str_units(t, p);
    switch (r->op) {
    case RULE_MIN_LEN: return n < r->v.u;
    case RULE_MAX_LEN: return n > r->v.u;
    case RULE_ASCII:
        for (size_t i = 0; i < n; i++) {
            uint32_t cp = p[i];
            if (t->dom == DOM_TEXT)
                memcpy(&cp, p + 4 * i, 4);
            if (cp >= 0x80)
                return true;
        }
        return false;
    case RULE_UTF8:
        for (size_t i = 0; i < n;) {
            uint32_t cp;
            size_t step = p[i] < 0x80 ? 1 : text_utf8_decode(p + i, n - i, &cp);
            if (step == 0)
                return true;
            i += step;
        }
        return false;
    default:   /* RULE_VALUES */
        return !rule_set_has_str(r->set, r->nset, p, n, t->dom == DOM_TEXT ? 4 : 1);
    }
}

static npydt_status run_unique(const struct batch *b, struct rule_state *s,
                               npydt_rule_result *res, npydt_error *err)
{
    const struct rule_target *t = b->t;
    size_t isz = (size_t)t->scalar->itemsize;
    for (size_t k = 0; k < b->m; k++) {
        bool seen;
        npydt_status st;
        if (t->dom == DOM_BYTES || t->dom == DOM_TEXT) {
            const unsigned char *p = b->v + isz * k;
            size_t n = str_units(t, p);
            st = rule_unique_add_str(&s->uniq, p, t->dom == DOM_TEXT ? 4 * n : n, &seen, err);
        } else {
            uint64_t key;
            memcpy(&key, b->v + 8 * k, 8);
            if (t->dom == DOM_FLOAT) {   /* -0.0 is 0.0, every NaN one value */
                double d;
                memcpy(&d, &key, 8);
                if (d == 0)
                    key = 0;
                else if (isnan(d))
                    key = 0x7ff8000000000000ULL;
            }
            st = rule_unique_add_key(&s->uniq, key, &seen, err);
        }
        if (st != NPYDT_OK)
            return st;
        if (seen)
            note(b, res, k);
    }
    return NPYDT_OK;
}

static npydt_status run_rule(const struct batch *b, const struct rule *r, struct rule_state *s,
                             npydt_rule_result *res, npydt_error *err)
{
    const struct rule_target *t = b->t;
    size_t isz = (size_t)t->scalar->itemsize;
    switch (r->op) {
    case RULE_MIN: case RULE_MAX: case RULE_EXCLUSIVE_MIN: case RULE_EXCLUSIVE_MAX:
        run_bound(b, r, res);
        return NPYDT_OK;
    case RULE_NAN: case RULE_INF:
        if (t->dom == DOM_FLOAT && r->op == RULE_NAN)
            COUNT(double, 8, x != x);
        else if (t->dom == DOM_FLOAT)
            COUNT(double, 8, x - x != x - x && x == x);   /* inf - inf is NaN */
        else   /* complex: either part */
            for (size_t k = 0; k < b->m; k++) {
                double x[2];
                memcpy(x, b->v + 16 * k, 16);
                if (r->op == RULE_NAN ? isnan(x[0]) || isnan(x[1]) : isinf(x[0]) || isinf(x[1]))
                    note(b, res, k);
            }
        return NPYDT_OK;
    case RULE_NAT:
        COUNT(int64_t, 8, x == INT64_MIN);
        return NPYDT_OK;
    case RULE_SORTED:
        run_sorted(b, r, s, res);
        return NPYDT_OK;
    case RULE_UNIQUE:
        return run_unique(b, s, res, err);
    case RULE_VALUES:
        switch (t->dom) {
        case DOM_INT: SCAN(int64_t, 8, !rule_set_has_i64(r->set, r->nset, x)); break;
        case DOM_UINT: SCAN(uint64_t, 8, !rule_set_has_u64(r->set, r->nset, x)); break;
        case DOM_FLOAT: SCAN(double, 8, !rule_set_has_double(r->set, r->nset, x)); break;
        default:
            for (size_t k = 0; k < b->m; k++)
                if (str_breaks(t, r, b->v + isz * k))
                    note(b, res, k);
        }
        return NPYDT_OK;
    default:   /* lengths, ascii, utf8 */
        for (size_t k = 0; k < b->m; k++)
            if (str_breaks(t, r, b->v + isz * k))
                note(b, res, k);
        return NPYDT_OK;
    }
}

/* The records of the batch that starts at AT, LEFT of them to check:
 * those up to its page's end (the last one may cross it), at most
 * c->batch. */
static size_t batch_records(const npydt_rules_check *c, const unsigned char *at, uint64_t left)
{
    size_t b = c->batch;
    if (c->itemsize > 0) {
        size_t bytes = BATCH_PAGE - (size_t)((uintptr_t)at % BATCH_PAGE);
        if (bytes < BATCH_PAGE)
            bytes += BATCH_PAGE;
        size_t whole = (bytes + c->itemsize - 1) / c->itemsize;
        if (whole < b)
            b = whole;
    }
    return left < b ? (size_t)left : b;
}

npydt_status npydt_rules_check_add(npydt_rules_check *c, const void *records, uint64_t n,
                                   npydt_error *err)
{
    error_clear(err);
    if (!c || (!records && n))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "check or records is NULL");
    const npydt_rules *rs = c->rules;
    const unsigned char *rec = records;
    for (uint64_t done = 0; done < n;) {
        const unsigned char *at = rec + (size_t)done * c->itemsize;
        size_t b = batch_records(c, at, n - done);
        for (size_t ti = 0; ti < rs->ntargets; ti++) {
            const struct rule_target *t = &rs->targets[ti];
            if (t->gather_size == 0 || t->nrules == 0)
                continue;
            const struct rule_fused *f = &c->fused[ti];
            uint64_t count[FUSE_NSLOTS] = {0, 0, 0, 0};
            if (f->want) {   /* the hot rules, in one pass where the records are */
                rule_fused_count(f, at + t->offset, c->itemsize, b, t->elems, count);
                if (f->alone && (count[0] | count[1] | count[2] | count[3]) == 0)
                    continue;   /* none broken, and no other rule to run */
            }
            bool gathered = false;
            struct batch bt = {c, t, c->buf, (size_t)(b * t->elems), (c->records + done) * t->elems};
            for (size_t i = t->first_rule; i < t->first_rule + t->nrules; i++) {
                const struct rule *r = &rs->rules[i];
                npydt_rule_result *res = &c->results[i];
                unsigned how = c->how[i];
                if (!r->active || how == FUSE_NOTHING)
                    continue;
                if (how > 0) {   /* gathered only to find the first elements that break it */
                    uint64_t k = count[how - 1];
                    if (k == 0 || res->nfirst == NPYDT_RULES_FIRST) {
                        res->violations += k;
                        continue;
                    }
                }
                npydt_status st;
                if (!gathered) {
                    st = npydt_gather(at, c->itemsize, b, t->field, t->offset, t->as, c->buf, err);
                    if (st != NPYDT_OK)
                        return st;
                    gathered = true;
                }
                st = run_rule(&bt, r, &c->state[i], res, err);
                if (st != NPYDT_OK) {
                    if (err)
                        name_for_message(err->path, sizeof err->path, t->path, t->path_len);
                    return st;
                }
            }
        }
        done += b;
    }
    c->records += n;
    return NPYDT_OK;
}

npydt_status npydt_rules_check_reader(npydt_rules_check *c, npydt_reader *r, npydt_error *err)
{
    error_clear(err);
    if (!c || !r)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "check or reader is NULL");
    if (npydt_dtype_itemsize(npydt_header_dtype(npydt_reader_header(r))) != c->itemsize)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "the reader's records are not of the rules' dtype");
    for (;;) {
        const void *batch;
        uint64_t n;
        npydt_status st = npydt_reader_next_c(r, UINT64_MAX, &batch, &n, err);
        if (st != NPYDT_OK || n == 0)
            return st;
        if ((st = npydt_rules_check_add(c, batch, n, err)) != NPYDT_OK)
            return st;
    }
}

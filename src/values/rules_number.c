/* Numbers of a rules text, read exactly and turned into a field's domain:
 * a bound becomes the inclusive integer bound (or the double bound) that
 * passes exactly the values the rule passes, so that checking compares
 * one machine number with another. */
#include "values/values.h"

#include "literal/literal.h"

#include <math.h>
#include <stdlib.h>

#define TWO64 18446744073709551616.0
#define TWO63 9223372036854775808.0

/* The library links no libm: floor, ceil and the next double, for the
 * finite doubles they are used on here. */
static double dfloor(double d)
{
    if (!(d > -TWO63 && d < TWO63))
        return d;   /* integral already (or not finite) */
    double t = (double)(int64_t)d;   /* toward zero */
    return t > d ? t - 1 : t;
}

static double dceil(double d)
{
    return -dfloor(-d);
}

/* The next double above (up) or below a positive finite d. */
static double dnext(double d, bool up)
{
    uint64_t bits;
    memcpy(&bits, &d, 8);
    bits = up ? bits + 1 : bits - 1;
    memcpy(&d, &bits, 8);
    return d;
}

/* The characters of a Python float token: it ends at v->end; a sign in
 * front of it (and spaces) belong to the '-' the parser folded in. */
static size_t token_start(const char *text, size_t start, size_t end)
{
    size_t b = end;
    while (b > start) {
        char ch = text[b - 1];
        if ((ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == 'e' || ch == 'E')
            b--;
        else if ((ch == '+' || ch == '-') && b - 1 > start &&
                 (text[b - 2] == 'e' || text[b - 2] == 'E'))
            b--;
        else
            break;
    }
    return b;
}

/* The float text s[0..n) of Python's grammar read to the nearest double:
 * its underscores dropped and its '.' given digits on both sides, it is a
 * JSON number, which the text stage reads. */
static bool read_float(const char *s, size_t n, double *out)
{
    char buf[512];
    size_t k = 0;
    if (n >= sizeof buf / 2)
        return false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch == '_')
            continue;
        if (ch == '.' && (k == 0))
            buf[k++] = '0';
        buf[k++] = ch;
        if (ch == '.' && (i + 1 == n || !(s[i + 1] >= '0' && s[i + 1] <= '9')))
            buf[k++] = '0';
    }
    /* JSON has no leading zeros: "007.5" is Python's 7.5 */
    size_t z = 0;
    while (z + 1 < k && buf[z] == '0' && buf[z + 1] >= '0' && buf[z + 1] <= '9')
        z++;
    if (text_read_double(buf + z, k - z, out))
        return true;
    if (!text_is_number(buf + z, k - z))
        return false;
    buf[k] = '\0';
    *out = strtod(buf + z, NULL);   /* digits, '.', 'e' and signs only: any locale's
                                     * strtod reads them alike but for the '.' */
    return true;
}

bool rule_num_read(const struct lit *v, const char *text, struct rule_num *n)
{
    memset(n, 0, sizeof *n);
    if (v->kind == LIT_INT) {
        n->neg = v->u.num.neg && v->u.num.mag != 0;
        n->big = v->u.num.big;
        n->mag = v->u.num.mag;
        n->d = n->big ? INFINITY : (double)n->mag;
        if (n->big) {   /* its nearest double, from the digits */
            size_t b = token_start(text, v->start, v->end);
            double d;
            if (read_float(text + b, v->end - b, &d))
                n->d = d;
        }
        if (n->neg)
            n->d = -n->d;
        return true;
    }
    if (v->kind != LIT_FLOAT)
        return false;
    char last = text[v->end - 1];
    if (last == 'j' || last == 'J')
        return false;
    size_t b = token_start(text, v->start, v->end);
    double d;
    if (!read_float(text + b, v->end - b, &d))
        return false;
    n->is_float = true;
    n->d = v->u.num.neg ? -d : d;
    return true;
}

/* An integer as (neg, mag, big); from a double with no fraction. */
struct wide {
    bool neg, big;
    uint64_t mag;
};

static struct wide wide_of_double(double d)
{
    struct wide w = {d < 0, false, 0};
    double a = d < 0 ? -d : d;
    if (a >= TWO64)
        w.big = true;
    else
        w.mag = (uint64_t)a;
    if (w.mag == 0 && !w.big)
        w.neg = false;
    return w;
}

/* w + 1 (up) or w - 1 */
static struct wide wide_step(struct wide w, bool up)
{
    if (w.big)
        return w;
    if (w.mag == 0)
        return (struct wide){!up, false, 1};
    if (w.neg == up) {          /* toward zero */
        w.mag--;
        if (w.mag == 0)
            w.neg = false;
    } else if (w.mag == UINT64_MAX) {
        w.big = true;
    } else {
        w.mag++;
    }
    return w;
}

/* -1 below [lo, hi] of int64 or uint64, 0 inside (*out), 1 above. */
static int wide_place_i64(struct wide w, int64_t *out)
{
    if (w.neg) {
        if (w.big || w.mag > (uint64_t)INT64_MAX + 1)
            return -1;
        *out = w.mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)w.mag;
        return 0;
    }
    if (w.big || w.mag > (uint64_t)INT64_MAX)
        return 1;
    *out = (int64_t)w.mag;
    return 0;
}

static int wide_place_u64(struct wide w, uint64_t *out)
{
    if (w.neg)
        return -1;
    if (w.big)
        return 1;
    *out = w.mag;
    return 0;
}

/* The largest double <= m, the smallest >= m. */
static double floor_double(uint64_t m)
{
    double d = (double)m;
    if (d >= TWO64 || (uint64_t)d > m)
        d = dnext(d, false);
    return d;
}

static double ceil_double(uint64_t m)
{
    double d = (double)m;
    if (d < TWO64 && (uint64_t)d < m)
        d = dnext(d, true);
    return d;
}

/* The inclusive integer bound of a lower (or upper) bound n, strict or
 * not; *none: no integer passes, *all: every one does (infinite n). */
static struct wide integer_bound(const struct rule_num *n, bool lower, bool strict, int *inf)
{
    *inf = 0;
    if (!n->is_float) {
        struct wide w = {n->neg, n->big, n->mag};
        return strict ? wide_step(w, lower) : w;
    }
    if (isinf(n->d)) {
        *inf = (n->d > 0) == lower ? 1 : -1;   /* 1: nothing passes, -1: all */
        return (struct wide){false, false, 0};
    }
    /* strict: the integer next to the bound's floor (ceiling), which a
     * double may not hold */
    struct wide w = wide_of_double(lower != strict ? dceil(n->d) : dfloor(n->d));
    return strict ? wide_step(w, lower) : w;
}

void rule_bound_set(struct rule *r, enum rule_domain dom, const struct rule_num *n)
{
    bool lower = r->op == RULE_MIN || r->op == RULE_EXCLUSIVE_MIN;
    bool strict = r->op == RULE_EXCLUSIVE_MIN || r->op == RULE_EXCLUSIVE_MAX;
    r->reach = BOUND_SOME;
    if (dom == DOM_FLOAT) {
        double d = n->d;
        if (!n->is_float && !n->big) {
            /* the double that passes exactly the doubles the integer does */
            bool up = lower != strict;   /* min and exclusive_max: round up */
            double a = (up != n->neg) ? ceil_double(n->mag) : floor_double(n->mag);
            d = n->neg ? -a : a;
        }
        r->v.d = d;
        return;
    }
    int inf;
    struct wide w = integer_bound(n, lower, strict, &inf);
    int place = inf ? (lower ? inf : -inf)
                    : dom == DOM_UINT ? wide_place_u64(w, &r->v.u) : wide_place_i64(w, &r->v.i);
    /* below the domain: a lower bound passes all, an upper one none */
    if (place < 0)
        r->reach = lower ? BOUND_ALL : BOUND_NONE;
    else if (place > 0)
        r->reach = lower ? BOUND_NONE : BOUND_ALL;
}

void rule_bound_set_count(struct rule *r, int64_t q, bool exact)
{
    bool lower = r->op == RULE_MIN || r->op == RULE_EXCLUSIVE_MIN;
    bool strict = r->op == RULE_EXCLUSIVE_MIN || r->op == RULE_EXCLUSIVE_MAX;
    r->reach = BOUND_SOME;
    /* the bound lies in [q, q + 1), at q when exact */
    if (lower && (strict || !exact)) {
        if (q == INT64_MAX)
            r->reach = BOUND_NONE;
        r->v.i = q == INT64_MAX ? q : q + 1;
    } else if (!lower && strict && exact) {
        if (q == INT64_MIN)
            r->reach = BOUND_NONE;
        r->v.i = q == INT64_MIN ? q : q - 1;
    } else {
        r->v.i = q;
    }
}

bool rule_num_to_i64(const struct rule_num *n, int64_t *out)
{
    if (n->is_float && (isinf(n->d) || dfloor(n->d) != n->d))
        return false;
    struct wide w = n->is_float ? wide_of_double(n->d) : (struct wide){n->neg, n->big, n->mag};
    return wide_place_i64(w, out) == 0;
}

bool rule_num_to_u64(const struct rule_num *n, uint64_t *out)
{
    if (n->is_float && (isinf(n->d) || dfloor(n->d) != n->d))
        return false;
    struct wide w = n->is_float ? wide_of_double(n->d) : (struct wide){n->neg, n->big, n->mag};
    return wide_place_u64(w, out) == 0;
}

bool rule_num_to_double(const struct rule_num *n, double *out)
{
    if (n->is_float) {
        *out = n->d;
        return true;
    }
    if (n->big)
        return false;
    double d = (double)n->mag;
    if (d >= TWO64 || (uint64_t)d != n->mag)
        return false;   /* no double equals it */
    *out = n->neg ? -d : d;
    return true;
}

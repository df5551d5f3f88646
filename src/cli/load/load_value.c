/* One input value stored into one scalar field: the step JSON Lines and
 * CSV input share. The value is matched to the field's kind as dump
 * writes it (cli-json contract): numbers for b, i, u, f, c, M, m (exact
 * integers up to 64 bits), "nan" / "inf" / "-inf" for floats, "NaT" for
 * datetimes, strings for S and U, hex text for V, null for NaN / NaT. The
 * typed writers (npydt_write_*) then store it exactly or refuse it. */
#include "cli/load/load.h"
#include "cli/common/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Longest number text read (a double never needs more than ~770 digits
 * to be exact, and no field holds more). */
#define MAX_NUMBER_TEXT 800

/* The type's name for messages: "<f8", "|S5". */
static const char *type_name(const npydt_dtype *dt, char *buf, size_t size)
{
    npydt_dtype_str(dt, buf, size);
    return buf;
}

/* An error that quotes the value (at most 40 bytes of it). */
static npydt_status bad_value(npydt_error *err, npydt_status code, const npydt_dtype *dt,
                              const struct load_value *v, const char *why)
{
    char tn[64];
    int n = v->len > 40 ? 40 : (int)v->len;
    const char *more = v->len > 40 ? "..." : "";
    switch (v->kind) {
    case LOAD_STRING:
        return cli_error(err, code, "\"%.*s%s\" %s %s", n, v->text, more, why,
                         type_name(dt, tn, sizeof tn));
    case LOAD_NUMBER:
        return cli_error(err, code, "%.*s%s %s %s", n, v->text, more, why,
                         type_name(dt, tn, sizeof tn));
    default:
        return cli_error(err, code, "%s %s %s",
                         v->kind == LOAD_TRUE ? "true" : v->kind == LOAD_FALSE ? "false" : "null",
                         why, type_name(dt, tn, sizeof tn));
    }
}

static int ieq(const char *s, size_t n, const char *word)
{
    size_t k = strlen(word);
    if (n != k)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if (c != word[i])
            return 0;
    }
    return 1;
}

/* "nan", "inf", "-inf" (any case, "+inf", "infinity") as a double. */
static int special_float(const char *s, size_t n, double *out)
{
    int neg = 0;
    if (n && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        s++;
        n--;
    }
    if (ieq(s, n, "nan"))
        *out = neg ? -NAN : NAN;
    else if (ieq(s, n, "inf") || ieq(s, n, "infinity"))
        *out = neg ? -INFINITY : INFINITY;
    else
        return 0;
    return 1;
}

/* A double from v: a number, a special name, or null (NaN). */
static npydt_status to_double(const npydt_dtype *dt, const struct load_value *v, double *out,
                              npydt_error *err)
{
    if (v->kind == LOAD_NULL) {
        *out = NAN;
        return NPYDT_OK;
    }
    if (v->kind == LOAD_STRING && special_float(v->text, v->len, out))
        return NPYDT_OK;
    if (v->kind != LOAD_NUMBER)
        return bad_value(err, NPYDT_E_VALUE, dt, v, "is not a value of");
    if (text_read_double(v->text, v->len, out))
        return NPYDT_OK;
    if (!text_is_number(v->text, v->len))
        return bad_value(err, NPYDT_E_SYNTAX, dt, v, "is not a JSON number, for");
    if (v->len >= MAX_NUMBER_TEXT)
        return bad_value(err, NPYDT_E_RANGE, dt, v, "is too long a number for");
    char buf[MAX_NUMBER_TEXT];
    memcpy(buf, v->text, v->len);
    buf[v->len] = '\0';
    *out = strtod(buf, NULL);   /* the C locale: the command never sets another */
    return NPYDT_OK;
}

/* An integer literal: int64 when it fits, else uint64; 0 when it fits
 * neither (or has a fraction or exponent). */
static int parse_integer(const char *s, size_t n, int64_t *i, uint64_t *u, int *is_unsigned)
{
    uint64_t acc;
    bool neg;
    if (!n || text_read_integer(s, n, &acc, &neg) != n)
        return 0;
    if (neg) {
        if (acc > (uint64_t)INT64_MAX + 1)
            return 0;
        *i = acc == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)acc;
        *is_unsigned = 0;
    } else if (acc > (uint64_t)INT64_MAX) {
        *u = acc;
        *is_unsigned = 1;
    } else {
        *i = (int64_t)acc;
        *is_unsigned = 0;
    }
    return 1;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* V: exactly 2 * itemsize hex digits. */
static npydt_status put_void(const npydt_dtype *dt, void *p, const struct load_value *v,
                             npydt_error *err)
{
    size_t size = npydt_dtype_itemsize(dt);
    if (v->len != 2 * size)
        return cli_error(err, NPYDT_E_RANGE, "\"%.*s%s\" is not %zu hex digits for |V%zu",
                         v->len > 40 ? 40 : (int)v->len, v->text, v->len > 40 ? "..." : "",
                         2 * size, size);
    unsigned char small[256];
    unsigned char *b = size <= sizeof small ? small : malloc(size);
    if (!b)
        return cli_error(err, NPYDT_E_NOMEM, "out of memory");
    npydt_status st = NPYDT_OK;
    for (size_t i = 0; i < size && st == NPYDT_OK; i++) {
        int hi = hex_digit(v->text[2 * i]), lo = hex_digit(v->text[2 * i + 1]);
        if (hi < 0 || lo < 0)
            st = bad_value(err, NPYDT_E_VALUE, dt, v, "is not hex text for");
        else
            b[i] = (unsigned char)(hi << 4 | lo);
    }
    if (st == NPYDT_OK)
        st = npydt_write_bytes(dt, p, b, size, err);
    if (b != small)
        free(b);
    return st;
}

static npydt_status put_number(const npydt_dtype *dt, void *p, const struct load_value *v,
                               npydt_error *err)
{
    char kind = npydt_dtype_kind(dt);
    if (kind != 'f' && kind != 'c') {
        int64_t i = 0;
        uint64_t u = 0;
        int is_unsigned = 0;
        if (kind != 'S' && kind != 'U' && kind != 'V' && v->len &&
            parse_integer(v->text, v->len, &i, &u, &is_unsigned))
            return is_unsigned ? npydt_write_u64(dt, p, u, err) : npydt_write_i64(dt, p, i, err);
    }
    if (!text_is_number(v->text, v->len))
        return bad_value(err, NPYDT_E_SYNTAX, dt, v, "is not a JSON number, for");
    if (kind == 'S' || kind == 'U' || kind == 'V')
        return bad_value(err, NPYDT_E_VALUE, dt, v, "is a number, not a string for");
    if (kind != 'f' && kind != 'c') {
        int integral = !memchr(v->text, '.', v->len) && !memchr(v->text, 'e', v->len) &&
                       !memchr(v->text, 'E', v->len);
        if (integral)
            return bad_value(err, NPYDT_E_RANGE, dt, v, "does not fit");
        if (kind == 'M' || kind == 'm')
            return bad_value(err, NPYDT_E_VALUE, dt, v, "is not an integer count of");
    }
    double d;
    npydt_status st = to_double(dt, v, &d, err);
    return st == NPYDT_OK ? npydt_write_double(dt, p, d, err) : st;
}

npydt_status load_put(const npydt_dtype *dt, void *p, const struct load_value *v,
                      npydt_error *err)
{
    char kind = npydt_dtype_kind(dt);
    switch (v->kind) {
    case LOAD_NUMBER:
        return put_number(dt, p, v, err);
    case LOAD_TRUE:
    case LOAD_FALSE:
        if (kind == 'M' || kind == 'm' || kind == 'S' || kind == 'U' || kind == 'V')
            return bad_value(err, NPYDT_E_VALUE, dt, v, "is not a value of");
        return npydt_write_bool(dt, p, v->kind == LOAD_TRUE, err);
    case LOAD_NULL:
        if (kind == 'f' || kind == 'c')
            return npydt_write_double(dt, p, NAN, err);
        if (kind == 'M' || kind == 'm')
            return npydt_write_i64(dt, p, NPYDT_NAT, err);
        return bad_value(err, NPYDT_E_VALUE, dt, v, "is not a value of");
    case LOAD_STRING:
        break;
    }
    switch (kind) {
    case 'S':
        return npydt_write_bytes(dt, p, v->text, v->len, err);
    case 'U':
        return npydt_write_unicode(dt, p, v->text, v->len, err);
    case 'V':
        return put_void(dt, p, v, err);
    case 'f':
    case 'c': {
        double d;
        if (!special_float(v->text, v->len, &d))
            return bad_value(err, NPYDT_E_VALUE, dt, v, "is not a value of");
        return npydt_write_double(dt, p, d, err);
    }
    case 'M':
    case 'm':
        if (v->len == 3 && memcmp(v->text, "NaT", 3) == 0)
            return npydt_write_i64(dt, p, NPYDT_NAT, err);
        return bad_value(err, NPYDT_E_VALUE, dt, v, "is not a count or \"NaT\" for");
    default:
        return bad_value(err, NPYDT_E_VALUE, dt, v, "is not a value of");
    }
}

npydt_status load_put_complex(const npydt_dtype *dt, void *p, const struct load_value *re,
                              const struct load_value *im, npydt_error *err)
{
    double v[2];
    npydt_status st = to_double(dt, re, &v[0], err);
    if (st == NPYDT_OK)
        st = to_double(dt, im, &v[1], err);
    return st == NPYDT_OK ? npydt_write_complex(dt, p, v, err) : st;
}

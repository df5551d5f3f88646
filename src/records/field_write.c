/* Typed writers, the inverse of the readers in convert.c: one value
 * stored into a scalar field, converted exactly to the field's kind, size
 * and byte order, or refused with the field's bytes unchanged. Every
 * value is encoded into a local buffer and checked before p is touched. */
#include "records/records.h"

#include <stdio.h>

/* Largest scalar a writer encodes: c32 (two x87 numbers in 16 bytes). */
#define MAX_SCALAR 32

/* Arguments every writer checks: a scalar node that is not an object. */
static npydt_status check_target(const npydt_dtype *dt, const void *p, npydt_error *err)
{
    if (!dt || !p)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "dtype or pointer is NULL");
    if (dt->cls != NPYDT_SCALAR)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "cannot write into a %s: not a scalar",
                         dt->cls == NPYDT_STRUCT ? "struct" : "subarray");
    if (dt->kind == 'O')
        return set_error(err, NPYDT_E_OBJECT, NPYDT_NO_OFFSET, NULL,
                         "object data is a pickle and cannot be written");
    return NPYDT_OK;
}

/* A value of a sort the field does not hold ("an integer" into S5). */
static npydt_status wrong_sort(const npydt_dtype *dt, const char *what, npydt_error *err)
{
    char type[64];
    value_type_name(dt, type, sizeof type);
    return set_error(err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, NULL, "cannot write %s into %s", what,
                     type);
}

/* ---- numbers ---------------------------------------------------------------- */

/* The largest finite value of a float of `size` bytes (f2, f4; f8 and the
 * long doubles take every double). */
static double float_max(size_t size)
{
    return size == 2 ? 65504.0 : (double)text_f32_of_bits(0x7f7fffffu);
}

/* Encode d into a float of `size` bytes in order bo, rounding to nearest
 * even as NumPy's cast does. False when a finite d overflows to infinity
 * (out is then undefined). */
static bool encode_float(unsigned char *out, size_t size, char bo, double d)
{
    bool finite = d == d && d - d == 0;
    /* f4 checked first: C leaves a double beyond float's range undefined.
     * Halfway between FLT_MAX and 2^128 rounds up (FLT_MAX is odd). */
    if (size == 4 && finite && (d >= 0x1.ffffffp+127 || d <= -0x1.ffffffp+127))
        return false;
    store_float(out, size, bo, d);
    if (size == 2 && finite) {
        double r = load_float(out, 2, bo);
        return r - r == 0;
    }
    return true;
}

/* "(-65504 to 65504)" for a float field of `size` bytes. */
static void float_range(char *buf, size_t size, size_t fsize)
{
    char max[32];
    format_double(max, sizeof max, float_max(fsize));
    snprintf(buf, size, "(-%s to %s)", max, max);
}

/* NPYDT_E_RANGE for an integral value `shown` outside an integer field
 * (kinds b, i, u, M, m), naming the field's range. */
static npydt_status int_range_error(const npydt_dtype *dt, const char *shown, npydt_error *err)
{
    char type[64], range[64];
    value_type_name(dt, type, sizeof type);
    unsigned bits = (unsigned)dt->itemsize * 8;
    if (dt->kind == 'b')
        snprintf(range, sizeof range, "0 or 1");
    else if (dt->kind == 'u')
        snprintf(range, sizeof range, "0 to %llu",
                 (unsigned long long)(bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1));
    else {
        long long max = (long long)((UINT64_C(1) << (bits - 1)) - 1);
        snprintf(range, sizeof range, "%lld to %lld", -max - 1, max);
    }
    return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL, "%s does not fit %s (%s)", shown,
                     type, range);
}

/* Encode an integer (mag, neg) into a float of `fsize` bytes: exactly, or
 * refused naming the nearest value or the range. */
static npydt_status encode_float_int(const npydt_dtype *dt, unsigned char *out, size_t fsize,
                                     uint64_t mag, bool neg, const char *shown, npydt_error *err)
{
    store_float_int(out, fsize, dt->byteorder, mag, neg);   /* f2..f8 round to nearest */
    if (fsize >= 10)
        return NPYDT_OK;   /* 64-bit significand: every integer exact */
    double r = load_float(out, fsize, dt->byteorder);
    double a = r < 0 ? -r : r;
    char type[64], detail[80];
    value_type_name(dt, type, sizeof type);
    if (a - a != 0) {
        float_range(detail, sizeof detail, fsize);
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL, "%s does not fit %s %s",
                         shown, type, detail);
    }
    if (a < 18446744073709551616.0 && (uint64_t)a == mag)
        return NPYDT_OK;
    format_double(detail, sizeof detail, r);
    return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                     "%s is not exactly representable in %s (nearest %s)", shown, type, detail);
}

/* Store the integer neg ? -mag : mag, `shown` in messages, into a field
 * of kind b, i, u, M, m (a raw count), f or c (exactly). */
static npydt_status put_integer(const npydt_dtype *dt, unsigned char *p, uint64_t mag, bool neg,
                                const char *shown, npydt_error *err)
{
    size_t size = (size_t)dt->itemsize;
    bool swap = text_order_swaps(dt->byteorder);
    unsigned bits = (unsigned)size * 8;
    if (neg && mag == 0)
        neg = false;
    switch (dt->kind) {
    case 'b':
        if (neg || mag > 1)
            return int_range_error(dt, shown, err);
        p[0] = (unsigned char)mag;
        return NPYDT_OK;
    case 'i': case 'M': case 'm': {
        uint64_t limit = UINT64_C(1) << (bits - 1);   /* -limit .. limit - 1 */
        if (neg ? mag > limit : mag >= limit)
            return int_range_error(dt, shown, err);
        text_store_uint(p, size, swap, neg ? (uint64_t)0 - mag : mag);
        return NPYDT_OK;
    }
    case 'u':
        if (neg || (bits < 64 && (mag >> bits) != 0))
            return int_range_error(dt, shown, err);
        text_store_uint(p, size, swap, mag);
        return NPYDT_OK;
    case 'f': case 'c': {
        unsigned char tmp[MAX_SCALAR] = {0};
        size_t fsize = dt->kind == 'c' ? size / 2 : size;
        npydt_status st = encode_float_int(dt, tmp, fsize, mag, neg, shown, err);
        if (st != NPYDT_OK)
            return st;
        if (dt->kind == 'c')
            store_float(tmp + fsize, fsize, dt->byteorder, 0.0);
        memcpy(p, tmp, size);
        return NPYDT_OK;
    }
    default:
        return wrong_sort(dt, "an integer", err);
    }
}

npydt_status npydt_write_i64(const npydt_dtype *dt, void *p, int64_t v, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_target(dt, p, err);
    if (st != NPYDT_OK)
        return st;
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    /* the value's text only for a refusal: printing it for every store
     * would cost more than the store */
    if ((st = put_integer(dt, p, mag, v < 0, "", err)) != NPYDT_E_RANGE)
        return st;
    char shown[24];
    snprintf(shown, sizeof shown, "%lld", (long long)v);
    return put_integer(dt, p, mag, v < 0, shown, err);
}

npydt_status npydt_write_u64(const npydt_dtype *dt, void *p, uint64_t v, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_target(dt, p, err);
    if (st != NPYDT_OK)
        return st;
    if ((st = put_integer(dt, p, v, false, "", err)) != NPYDT_E_RANGE)
        return st;   /* the text only for a refusal, as in npydt_write_i64 */
    char shown[24];
    snprintf(shown, sizeof shown, "%llu", (unsigned long long)v);
    return put_integer(dt, p, v, false, shown, err);
}

npydt_status npydt_write_bool(const npydt_dtype *dt, void *p, int v, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_target(dt, p, err);
    if (st != NPYDT_OK)
        return st;
    switch (dt->kind) {
    case 'b': case 'i': case 'u': case 'f': case 'c':
        return put_integer(dt, p, v != 0, false, v != 0 ? "True" : "False", err);
    default:
        return wrong_sort(dt, "a bool", err);
    }
}

/* Store v[0] into a float field of kind f, or v[0] + v[1]i into kind c;
 * a message shows v as a complex number when it came as one. */
static npydt_status put_float(const npydt_dtype *dt, unsigned char *p, const double v[2],
                              bool as_complex, npydt_error *err)
{
    unsigned char tmp[MAX_SCALAR];
    size_t size = (size_t)dt->itemsize;
    size_t fsize = dt->kind == 'c' ? size / 2 : size;
    bool ok = encode_float(tmp, fsize, dt->byteorder, v[0]);
    if (dt->kind == 'c')
        ok = encode_float(tmp + fsize, fsize, dt->byteorder, v[1]) && ok;
    if (!ok) {
        char shown[80], type[64], range[80];
        if (as_complex)
            format_complex(shown, sizeof shown, v);
        else
            format_double(shown, sizeof shown, v[0]);
        value_type_name(dt, type, sizeof type);
        float_range(range, sizeof range, fsize);
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL, "%s does not fit %s %s%s",
                         shown, type, dt->kind == 'c' ? "parts " : "", range);
    }
    memcpy(p, tmp, size);
    return NPYDT_OK;
}

/* Store an integral double into a field of kind b, i, u. */
static npydt_status put_integral_double(const npydt_dtype *dt, unsigned char *p, double v,
                                        npydt_error *err)
{
    char shown[32], type[64];
    format_double(shown, sizeof shown, v);
    double a = v < 0 ? -v : v;
    /* every double from 2^53 on is an integer; below 2^63 the cast is exact */
    bool integral = a - a == 0 && (a >= 9223372036854775808.0 || (double)(int64_t)a == a);
    if (!integral) {
        value_type_name(dt, type, sizeof type);
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL, "%s is not an integer (%s)",
                         shown, type);
    }
    if (a >= 18446744073709551616.0)
        return int_range_error(dt, shown, err);
    return put_integer(dt, p, (uint64_t)a, v < 0, shown, err);
}

npydt_status npydt_write_double(const npydt_dtype *dt, void *p, double v, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_target(dt, p, err);
    if (st != NPYDT_OK)
        return st;
    switch (dt->kind) {
    case 'f': case 'c': {
        double parts[2] = {v, 0.0};
        return put_float(dt, p, parts, false, err);
    }
    case 'b': case 'i': case 'u':
        return put_integral_double(dt, p, v, err);
    default:
        return wrong_sort(dt, "a float", err);
    }
}

npydt_status npydt_write_complex(const npydt_dtype *dt, void *p, const double v[2],
                                 npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_target(dt, p, err);
    if (st == NPYDT_OK && !v)
        st = set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "the value is NULL");
    if (st != NPYDT_OK)
        return st;
    switch (dt->kind) {
    case 'c':
        return put_float(dt, p, v, true, err);
    case 'f': case 'b': case 'i': case 'u':
        if (v[1] != 0) {   /* NaN too */
            char shown[80], type[64];
            format_complex(shown, sizeof shown, v);
            value_type_name(dt, type, sizeof type);
            return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                             "%s has an imaginary part (%s holds real numbers)", shown, type);
        }
        return npydt_write_double(dt, p, v[0], err);
    default:
        return wrong_sort(dt, "a complex number", err);
    }
}

/* ---- strings ------------------------------------------------------------------ */

npydt_status npydt_write_bytes(const npydt_dtype *dt, void *p, const void *bytes, size_t len,
                               npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_target(dt, p, err);
    if (st == NPYDT_OK && !bytes && len > 0)
        st = set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "the bytes are NULL");
    if (st != NPYDT_OK)
        return st;
    if (dt->kind != 'S' && dt->kind != 'V')
        return wrong_sort(dt, "bytes", err);
    size_t size = (size_t)dt->itemsize;
    if (dt->kind == 'S' ? len > size : len != size) {
        char shown[256], type[64];
        quote_value(shown, sizeof shown, bytes, len, false);
        value_type_name(dt, type, sizeof type);
        if (dt->kind == 'S')
            return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                             "%s is longer than %s (%zu bytes)", shown, type, len);
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                         "%s is not %zu bytes long, as %s needs (%zu bytes)", shown, size, type,
                         len);
    }
    unsigned char *d = p;
    if (len > 0)
        memmove(d, bytes, len);
    memset(d + len, 0, size - len);
    return NPYDT_OK;
}

npydt_status npydt_write_unicode(const npydt_dtype *dt, void *p, const char *utf8, size_t len,
                                 npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_target(dt, p, err);
    if (st == NPYDT_OK && !utf8 && len > 0)
        st = set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "the text is NULL");
    if (st != NPYDT_OK)
        return st;
    if (dt->kind != 'U')
        return wrong_sort(dt, "text", err);
    const unsigned char *s = (const unsigned char *)utf8;
    size_t chars = 0;
    for (size_t i = 0; i < len; chars++) {
        uint32_t cp;
        size_t n = text_wtf8_decode(s + i, len - i, &cp);
        if (n == 0)
            return set_error(err, NPYDT_E_ENCODING, NPYDT_NO_OFFSET, NULL,
                             "the text is not valid UTF-8 at byte %zu (0x%02x)", i, s[i]);
        i += n;
    }
    size_t room = (size_t)dt->itemsize / 4;
    if (chars > room) {
        char shown[256], type[64];
        quote_value(shown, sizeof shown, s, len, true);
        value_type_name(dt, type, sizeof type);
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                         "%s is longer than %s (%zu characters)", shown, type, chars);
    }
    unsigned char *d = p;
    bool swap = text_order_swaps(dt->byteorder);
    size_t k = 0;
    for (size_t i = 0; i < len; k++) {
        uint32_t cp;
        i += text_wtf8_decode(s + i, len - i, &cp);
        text_store_uint(d + 4 * k, 4, swap, cp);
    }
    memset(d + 4 * k, 0, (size_t)dt->itemsize - 4 * k);
    return NPYDT_OK;
}

/* ---- datetimes ----------------------------------------------------------------- */

npydt_status npydt_write_datetime(const npydt_dtype *dt, void *p, const npydt_datetime *v,
                                  npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_target(dt, p, err);
    if (st == NPYDT_OK && !v)
        st = set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "the value is NULL");
    if (st != NPYDT_OK)
        return st;
    if (dt->kind != 'M' && dt->kind != 'm')
        return wrong_sort(dt, "a datetime", err);
    bool swap = text_order_swaps(dt->byteorder);
    if (v->is_nat || v->count == NPYDT_NAT) {
        text_store_uint(p, 8, swap, (uint64_t)NPYDT_NAT);
        return NPYDT_OK;
    }
    bool generic = v->unit == NPYDT_UNIT_GENERIC;
    if (!generic && (v->unit < NPYDT_UNIT_Y || v->unit > NPYDT_UNIT_as))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "unknown datetime unit %d",
                         (int)v->unit);
    if (!generic && v->unit_count < 0)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "datetime unit multiplier %ld is negative", (long)v->unit_count);
    char shown[64], type[64];
    format_datetime(shown, sizeof shown, v);
    value_type_name(dt, type, sizeof type);
    bool field_generic = dt->unit == NPYDT_UNIT_GENERIC;
    if (generic || field_generic) {
        if (generic && field_generic) {
            text_store_uint(p, 8, swap, (uint64_t)v->count);
            return NPYDT_OK;
        }
        return set_error(err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, NULL,
                         generic ? "%s has no unit to convert to %s"
                                 : "%s has a unit: %s (generic) holds only NaT and unitless counts",
                         shown, type);
    }
    if (v->unit == dt->unit && v->unit_count == dt->unit_count) {
        text_store_uint(p, 8, swap, (uint64_t)v->count);   /* [0s] too, which has no length */
        return NPYDT_OK;
    }
    if (v->unit_count == 0 || dt->unit_count == 0)
        return set_error(err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, NULL,
                         "%s cannot be converted to %s: a unit of multiplier 0 has no length",
                         shown, type);
    int64_t count;
    switch (time_convert(v->count, v->unit, v->unit_count, dt->unit, dt->unit_count,
                         dt->kind == 'M', &count)) {
    case TIME_OK:
        text_store_uint(p, 8, swap, (uint64_t)count);
        return NPYDT_OK;
    case TIME_INEXACT:
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                         "%s is not a whole number of %s", shown, type);
    default:
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                         "%s does not fit %s (the count is beyond int64)", shown, type);
    }
}

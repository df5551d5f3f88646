/* Typed readers for any scalar leaf in any byte order, and the float
 * format conversions they share with gather and scatter: the x87 80-bit
 * extended format that NumPy's long double (f16) holds on x86. */
#include "records/records.h"

#include <stdio.h>

#define MANT52 ((UINT64_C(1) << 52) - 1)

double ext80_to_double(uint64_t m, uint16_t se)
{
    uint64_t sign = (uint64_t)(se >> 15) << 63;
    int e = se & 0x7fff;
    bool integer_bit = (m >> 63) != 0;
    if (e == 0x7fff) {
        if (!integer_bit)   /* pseudo-infinity / pseudo-NaN: invalid operand */
            return text_f64_of_bits(UINT64_C(0xfff8) << 48);
        uint64_t frac = m & ~(UINT64_C(1) << 63);
        if (frac == 0)
            return text_f64_of_bits(sign | (UINT64_C(0x7ff) << 52));
        /* NaN: keep the top payload bits, as the FPU does */
        return text_f64_of_bits(sign | (UINT64_C(0x7ff) << 52) | (frac >> 11) |
                              (UINT64_C(1) << 51));
    }
    if (e == 0)   /* denormal or pseudo-denormal: far below double's range */
        return text_f64_of_bits(sign);
    if (!integer_bit)   /* unnormal: invalid operand */
        return text_f64_of_bits(UINT64_C(0xfff8) << 48);
    int ex = e - 16383;   /* value = m * 2^(ex - 63) */
    if (ex > 1023)
        return text_f64_of_bits(sign | (UINT64_C(0x7ff) << 52));
    if (ex >= -1022) {
        uint64_t keep = text_round_shift(m, 11);
        if (keep == UINT64_C(1) << 53) {
            keep >>= 1;
            ex++;
        }
        if (ex > 1023)
            return text_f64_of_bits(sign | (UINT64_C(0x7ff) << 52));
        return text_f64_of_bits(sign | ((uint64_t)(ex + 1023) << 52) | (keep & MANT52));
    }
    /* subnormal double: units of 2^-1074 */
    long s = -(long)ex - 1011;
    return text_f64_of_bits(sign | text_round_shift(m, s > 100 ? 100u : (unsigned)s));
}

void double_to_ext80(double d, uint64_t *mant, uint16_t *se)
{
    uint64_t b = text_bits_of_f64(d);
    uint16_t sign = (uint16_t)((b >> 63) << 15);
    int e = (int)((b >> 52) & 0x7ff);
    uint64_t f = b & MANT52;
    if (e == 0x7ff) {
        *mant = (UINT64_C(1) << 63) | (f << 11);
        *se = sign | 0x7fff;
    } else if (e == 0) {
        if (f == 0) {
            *mant = 0;
            *se = sign;
        } else {
            int lz = __builtin_clzll(f);
            *mant = f << lz;
            *se = sign | (uint16_t)(15372 - lz);
        }
    } else {
        *mant = (UINT64_C(1) << 63) | (f << 11);
        *se = sign | (uint16_t)(e - 1023 + 16383);
    }
}

void int_to_ext80(uint64_t mag, bool negative, uint64_t *mant, uint16_t *se)
{
    uint16_t sign = negative ? 0x8000 : 0;
    if (mag == 0) {
        *mant = 0;
        *se = sign;
        return;
    }
    int lz = __builtin_clzll(mag);
    *mant = mag << lz;
    *se = sign | (uint16_t)(16383 + 63 - lz);
}

/* The 10 significant bytes of a long double of `size` bytes. */
static void load_ext80(const unsigned char *p, size_t size, char byteorder, uint64_t *m,
                       uint16_t *se)
{
    unsigned char le[10];
    if (byteorder == '>')
        for (int i = 0; i < 10; i++)
            le[i] = p[size - 1 - (size_t)i];
    else
        memcpy(le, p, 10);
    *m = text_load_le64(le);
    *se = text_load_le16(le + 8);
}

static void store_ext80(unsigned char *p, size_t size, char byteorder, uint64_t m, uint16_t se)
{
    unsigned char le[10];
    text_store_le16(text_store_le64(le, m), se);
    memset(p, 0, size);
    if (byteorder == '>')
        for (int i = 0; i < 10; i++)
            p[size - 1 - (size_t)i] = le[i];
    else
        memcpy(p, le, 10);
}

double load_float(const unsigned char *p, size_t size, char byteorder)
{
    bool swap = text_order_swaps(byteorder);
    switch (size) {
    case 2: return text_f16_of_bits((uint16_t)text_load_uint(p, 2, swap));
    case 4: return (double)text_f32_of_bits((uint32_t)text_load_uint(p, 4, swap));
    case 8: return text_f64_of_bits(text_load_uint(p, 8, swap));
    default: {
        uint64_t m;
        uint16_t se;
        load_ext80(p, size, byteorder, &m, &se);
        return ext80_to_double(m, se);
    }
    }
}

void store_float(unsigned char *p, size_t size, char byteorder, double d)
{
    bool swap = text_order_swaps(byteorder);
    switch (size) {
    case 2: text_store_uint(p, 2, swap, text_bits_of_f16(d)); break;
    case 4: text_store_uint(p, 4, swap, text_bits_of_f32((float)d)); break;
    case 8: text_store_uint(p, 8, swap, text_bits_of_f64(d)); break;
    default: {
        uint64_t m;
        uint16_t se;
        double_to_ext80(d, &m, &se);
        store_ext80(p, size, byteorder, m, se);
    }
    }
}

void store_float_int(unsigned char *p, size_t size, char byteorder, uint64_t mag, bool negative)
{
    if (size >= 10) {
        uint64_t m;
        uint16_t se;
        int_to_ext80(mag, negative, &m, &se);
        store_ext80(p, size, byteorder, m, se);
        return;
    }
    double d = (double)mag;
    store_float(p, size, byteorder, negative ? -d : d);
}

bool scalar_chain(const npydt_dtype *dt, const npydt_dtype **scalar, uint64_t *elems)
{
    uint64_t n = 1;
    while (dt->cls == NPYDT_SUBARRAY) {
        for (size_t i = 0; i < dt->ndim; i++)
            n *= dt->shape[i];   /* bounded: the bytes fit a C int */
        dt = dt->base;
    }
    *scalar = dt;
    *elems = n;
    return dt->cls == NPYDT_SCALAR;
}

/* ---- typed readers ------------------------------------------------------ */

static npydt_status check_scalar(const npydt_dtype *dt, const void *p, const char *what,
                                 npydt_error *err)
{
    if (!dt || !p)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "dtype or pointer is NULL");
    if (dt->cls != NPYDT_SCALAR)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL,
                         "cannot read a %s as %s: not a scalar",
                         dt->cls == NPYDT_STRUCT ? "struct" : "subarray", what);
    if (dt->kind == 'O')
        return set_error(err, NPYDT_E_OBJECT, NPYDT_NO_OFFSET, NULL,
                         "object data is a pickle and cannot be read");
    return NPYDT_OK;
}

static npydt_status wrong_kind(const npydt_dtype *dt, const char *what, npydt_error *err)
{
    char str[64];
    npydt_dtype_str(dt, str, sizeof str);
    return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "cannot read %s as %s", str, what);
}

static int64_t load_int(const unsigned char *p, size_t size, bool swap)
{
    uint64_t v = text_load_uint(p, size, swap);
    switch (size) {
    case 1: return (int8_t)v;
    case 2: return (int16_t)v;
    case 4: return (int32_t)v;
    default: return (int64_t)v;
    }
}

/* Integer value of b, i, u, M, m, f as sign and magnitude. */
static npydt_status read_integer(const npydt_dtype *dt, const unsigned char *p, const char *what,
                                 uint64_t *mag, bool *neg, npydt_error *err)
{
    npydt_status st = check_scalar(dt, p, what, err);
    if (st != NPYDT_OK)
        return st;
    bool swap = text_order_swaps(dt->byteorder);
    switch (dt->kind) {
    case 'b':
        *mag = p[0] != 0;
        *neg = false;
        return NPYDT_OK;
    case 'i': case 'M': case 'm': {
        int64_t v = load_int(p, dt->itemsize, swap);
        *neg = v < 0;
        *mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        return NPYDT_OK;
    }
    case 'u':
        *mag = text_load_uint(p, dt->itemsize, swap);
        *neg = false;
        return NPYDT_OK;
    case 'f': {
        double d = load_float(p, dt->itemsize, dt->byteorder);
        double a = d < 0 ? -d : d;
        if (d != d || a >= 18446744073709551616.0 || (double)(uint64_t)a != a) {
            char shown[TEXT_FLOAT_MAX];
            text_float_f64(d, shown);
            return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                             "%s is not an integer that fits %s", shown, what);
        }
        *neg = d < 0;
        *mag = (uint64_t)a;
        return NPYDT_OK;
    }
    default:
        return wrong_kind(dt, what, err);
    }
}

npydt_status npydt_read_i64(const npydt_dtype *dt, const void *p, int64_t *out, npydt_error *err)
{
    error_clear(err);
    uint64_t mag;
    bool neg;
    npydt_status st = read_integer(dt, p, "int64", &mag, &neg, err);
    if (st != NPYDT_OK)
        return st;
    if (neg ? mag > (uint64_t)INT64_MAX + 1 : mag > (uint64_t)INT64_MAX)
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                         "%s%llu does not fit int64", neg ? "-" : "", (unsigned long long)mag);
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return NPYDT_OK;
}

npydt_status npydt_read_u64(const npydt_dtype *dt, const void *p, uint64_t *out, npydt_error *err)
{
    error_clear(err);
    uint64_t mag;
    bool neg;
    npydt_status st = read_integer(dt, p, "uint64", &mag, &neg, err);
    if (st != NPYDT_OK)
        return st;
    if (neg && mag != 0)
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                         "-%llu does not fit uint64", (unsigned long long)mag);
    *out = mag;
    return NPYDT_OK;
}

/* Value of f, i, u, b as a double (no kind checks beyond these). */
static bool real_value(const npydt_dtype *dt, const unsigned char *p, double *out)
{
    bool swap = text_order_swaps(dt->byteorder);
    switch (dt->kind) {
    case 'f': *out = load_float(p, dt->itemsize, dt->byteorder); return true;
    case 'i': *out = (double)load_int(p, dt->itemsize, swap); return true;
    case 'u': *out = (double)text_load_uint(p, dt->itemsize, swap); return true;
    case 'b': *out = p[0] != 0; return true;
    default: return false;
    }
}

npydt_status npydt_read_double(const npydt_dtype *dt, const void *p, double *out, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_scalar(dt, p, "double", err);
    if (st != NPYDT_OK)
        return st;
    if (!real_value(dt, p, out))
        return wrong_kind(dt, "double", err);
    return NPYDT_OK;
}

npydt_status npydt_read_complex(const npydt_dtype *dt, const void *p, double out[2],
                                npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_scalar(dt, p, "complex", err);
    if (st != NPYDT_OK)
        return st;
    const unsigned char *b = p;
    if (dt->kind == 'c') {
        size_t half = dt->itemsize / 2;
        out[0] = load_float(b, half, dt->byteorder);
        out[1] = load_float(b + half, half, dt->byteorder);
        return NPYDT_OK;
    }
    if (!real_value(dt, b, &out[0]))
        return wrong_kind(dt, "complex", err);
    out[1] = 0.0;
    return NPYDT_OK;
}

npydt_status npydt_read_bool(const npydt_dtype *dt, const void *p, int *out, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_scalar(dt, p, "bool", err);
    if (st != NPYDT_OK)
        return st;
    const unsigned char *b = p;
    double v[2];
    switch (dt->kind) {
    case 'b':
        *out = b[0] != 0;
        return NPYDT_OK;
    case 'i': case 'u':
        *out = text_load_uint(b, dt->itemsize, false) != 0;   /* order does not matter */
        return NPYDT_OK;
    case 'f': case 'c':
        npydt_read_complex(dt, p, v, NULL);
        *out = v[0] != 0 || v[1] != 0;   /* NaN is true, as in C and NumPy */
        return NPYDT_OK;
    default:
        return wrong_kind(dt, "bool", err);
    }
}

npydt_status npydt_read_bytes(const npydt_dtype *dt, const void *p, const void **bytes,
                              size_t *len, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_scalar(dt, p, "bytes", err);
    if (st != NPYDT_OK)
        return st;
    const unsigned char *b = p;
    size_t n = dt->itemsize;
    if (dt->kind == 'S') {
        while (n > 0 && b[n - 1] == 0)
            n--;
    } else if (dt->kind != 'V') {
        return wrong_kind(dt, "bytes", err);
    }
    *bytes = b;
    *len = n;
    return NPYDT_OK;
}

npydt_status npydt_read_unicode(const npydt_dtype *dt, const void *p, char *buf, size_t size,
                                size_t *len, npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_scalar(dt, p, "unicode", err);
    if (st != NPYDT_OK)
        return st;
    if (dt->kind != 'U')
        return wrong_kind(dt, "unicode", err);
    if (!len || (!buf && size))
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "len or buf is NULL");
    const unsigned char *b = p;
    bool swap = text_order_swaps(dt->byteorder);
    size_t units = dt->itemsize / 4;
    while (units > 0 && text_load32(b + 4 * (units - 1), false) == 0)
        units--;
    size_t need = 0;
    for (size_t i = 0; i < units; i++) {
        uint32_t cp = (uint32_t)text_load_uint(b + 4 * i, 4, swap);
        if (cp > 0x10FFFF)
            return set_error(err, NPYDT_E_ENCODING, NPYDT_NO_OFFSET, NULL,
                             "code unit 0x%lx at character %zu is not a code point",
                             (unsigned long)cp, i);
        need += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
    *len = need;
    if (size <= need)
        return set_error(err, NPYDT_E_RANGE, NPYDT_NO_OFFSET, NULL,
                         "the string needs %zu bytes and a NUL, the buffer has %zu", need, size);
    size_t o = 0;
    for (size_t i = 0; i < units; i++)
        o += text_utf8_encode((uint32_t)text_load_uint(b + 4 * i, 4, swap), buf + o);
    buf[o] = '\0';
    return NPYDT_OK;
}

npydt_status npydt_read_datetime(const npydt_dtype *dt, const void *p, npydt_datetime *out,
                                 npydt_error *err)
{
    error_clear(err);
    npydt_status st = check_scalar(dt, p, "datetime", err);
    if (st != NPYDT_OK)
        return st;
    if (dt->kind != 'M' && dt->kind != 'm')
        return wrong_kind(dt, "datetime", err);
    out->count = load_int(p, dt->itemsize, text_order_swaps(dt->byteorder));
    out->unit = (npydt_unit)dt->unit;
    out->unit_count = dt->unit_count;
    out->is_nat = out->count == NPYDT_NAT;
    return NPYDT_OK;
}

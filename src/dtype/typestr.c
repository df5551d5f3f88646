/* np.dtype(str): the type strings NumPy accepts, resolved as on Linux
 * x86-64 (little-endian, 8-byte long, 16-byte long double). The order of
 * the checks follows NumPy's own, because it decides what is accepted:
 * comma strings first, then the byte-order prefix, then datetimes, then
 * one-letter codes, kind + size, and last the table of type names. */
#include "dtype/build.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

struct named_type {
    const char *name;
    const char *typestr;   /* resolved spelling, parsed by kind + size */
};

/* np.sctypeDict names (NumPy 1.24, Linux x86-64) that are not kind+size. */
static const struct named_type type_names[] = {
    {"bool", "|b1"}, {"bool8", "|b1"}, {"bool_", "|b1"},
    {"byte", "|i1"}, {"bytes", "|S0"}, {"bytes0", "|S0"}, {"bytes_", "|S0"},
    {"cdouble", "<c16"}, {"cfloat", "<c16"}, {"clongdouble", "<c32"},
    {"clongfloat", "<c32"}, {"complex", "<c16"}, {"complex128", "<c16"},
    {"complex256", "<c32"}, {"complex64", "<c8"}, {"complex_", "<c16"},
    {"csingle", "<c8"}, {"double", "<f8"}, {"float", "<f8"},
    {"float128", "<f16"}, {"float16", "<f2"}, {"float32", "<f4"}, {"float64", "<f8"},
    {"float_", "<f8"}, {"half", "<f2"}, {"int", "<i8"}, {"int0", "<i8"},
    {"int16", "<i2"}, {"int32", "<i4"}, {"int64", "<i8"}, {"int8", "|i1"},
    {"int_", "<i8"}, {"intc", "<i4"}, {"intp", "<i8"}, {"long", "<i8"},
    {"longcomplex", "<c32"}, {"longdouble", "<f16"}, {"longfloat", "<f16"},
    {"longlong", "<i8"}, {"object", "|O8"}, {"object0", "|O8"}, {"object_", "|O8"},
    {"short", "<i2"}, {"single", "<f4"}, {"singlecomplex", "<c8"},
    {"str", "<U0"}, {"str0", "<U0"}, {"str_", "<U0"}, {"string_", "|S0"},
    {"u1", "|u1"}, {"ubyte", "|u1"}, {"uint", "<u8"}, {"uint0", "<u8"},
    {"uint16", "<u2"}, {"uint32", "<u4"}, {"uint64", "<u8"}, {"uint8", "|u1"},
    {"uintc", "<u4"}, {"uintp", "<u8"}, {"ulong", "<u8"}, {"ulonglong", "<u8"},
    {"unicode", "<U0"}, {"unicode_", "<U0"}, {"ushort", "<u2"},
    {"void", "|V0"}, {"void0", "|V0"},
};

/* One-letter type codes. */
static const struct { char code; char kind; uint8_t size; } type_codes[] = {
    {'?', 'b', 1}, {'b', 'i', 1}, {'B', 'u', 1}, {'h', 'i', 2}, {'H', 'u', 2},
    {'i', 'i', 4}, {'I', 'u', 4}, {'l', 'i', 8}, {'L', 'u', 8}, {'q', 'i', 8},
    {'Q', 'u', 8}, {'p', 'i', 8}, {'P', 'u', 8}, {'e', 'f', 2}, {'f', 'f', 4},
    {'d', 'f', 8}, {'g', 'f', 16}, {'F', 'c', 8}, {'D', 'c', 16}, {'G', 'c', 32},
    {'S', 'S', 0}, {'a', 'S', 0}, {'c', 'S', 1}, {'U', 'U', 0}, {'V', 'V', 0},
    {'O', 'O', 8}, {'M', 'M', 8}, {'m', 'm', 8},
};

/* Sizes NumPy accepts after a kind letter (PyArray_TypestrConvert). */
static bool kind_size_ok(char kind, int64_t size)
{
    switch (kind) {
    case 'b': return size == 1;
    case 'i': case 'u': return size == 1 || size == 2 || size == 4 || size == 8;
    case 'f': return size == 2 || size == 4 || size == 8 || size == 16;
    case 'c': return size == 8 || size == 16 || size == 32;
    case 'O': return size == 4 || size == 8;
    case 'M': case 'm': return size == 8;
    default: return false;
    }
}

static uint64_t small_atoi(const char *s)
{
    uint64_t v = 0;
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (uint64_t)(*s++ - '0');
    return v;
}

static bool is_order(char c)
{
    return c == '<' || c == '>' || c == '|' || c == '=';
}

static bool is_cspace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/* strtol(s, &end, 10) on [s, e) without needing a terminator, with the
 * 64-bit long of the platform whose NumPy this file follows (also where the
 * host's long has 32 bits): returns false when nothing was parsed; *val
 * saturates at INT64_MAX/INT64_MIN. */
static bool c_strtol(const char *s, const char *e, int64_t *val, const char **end)
{
    const char *q = s;
    while (q < e && is_cspace(*q))
        q++;
    bool neg = false;
    if (q < e && (*q == '+' || *q == '-'))
        neg = *q++ == '-';
    if (q >= e || *q < '0' || *q > '9') {
        *val = 0;
        *end = s;
        return false;
    }
    int64_t v = 0;
    bool sat = false;
    for (; q < e && *q >= '0' && *q <= '9'; q++) {
        int d = *q - '0';
        if (!sat && (v > (INT64_MAX - d) / 10))
            sat = true;
        if (!sat)
            v = v * 10 + d;
    }
    *val = sat ? (neg ? INT64_MIN : INT64_MAX) : (neg ? -v : v);
    *end = q;
    return true;
}

static npydt_status not_understood(struct dtype_ctx *c, const char *s, size_t len, size_t off)
{
    char shown[80];
    name_for_message(shown, sizeof shown, s, len > 64 ? 64 : len);
    return set_error(c->err, NPYDT_E_TYPE, off, dtype_path(c), "data type '%s' not understood", shown);
}

static npydt_status scalar(struct dtype_ctx *c, char kind, char endian, uint64_t size,
                           const npydt_dtype **out)
{
    char bo;
    switch (kind) {
    case 'b': case 'S': case 'V': case 'O': bo = '|'; break;
    case 'i': case 'u': bo = size == 1 ? '|' : (endian == '>' ? '>' : '<'); break;
    default: bo = endian == '>' ? '>' : '<'; break;
    }
    if (kind != 'M' && kind != 'm' && (*out = dtype_shared_scalar(kind, bo, size)))
        return NPYDT_OK;
    npydt_dtype *dt = dtype_new_scalar(c, kind, bo, size);
    if (!dt)
        return set_nomem(c->err);
    *out = dt;
    return NPYDT_OK;
}

/* ---- datetimes ---------------------------------------------------------- */

static const char *const unit_names[] = {
    "Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as", "generic"
};

const char *npydt_unit_name(npydt_unit unit)
{
    if (unit < 0 || unit > NPYDT_UNIT_GENERIC)
        return "";
    return unit_names[unit];
}

/* The npydt_unit a datetime unit's name spells ("ns", "generic", "μs"),
 * or -1. */
static int datetime_unit_parse(const char *s, size_t n)
{
    static const char one[] = "YMWDhms";   /* Y ... s, in enum order */
    static const char two[] = "munpfa";    /* ms ... as, each with 's' */
    const char *hit;
    if (n == 1 && (hit = memchr(one, s[0], sizeof one - 1)) != NULL)
        return NPYDT_UNIT_Y + (int)(hit - one);
    if (n == 2 && s[1] == 's' && (hit = memchr(two, s[0], sizeof two - 1)) != NULL)
        return NPYDT_UNIT_ms + (int)(hit - two);
    if (n == 7 && memcmp(s, unit_names[NPYDT_UNIT_GENERIC], 7) == 0)
        return NPYDT_UNIT_GENERIC;
    if (n == 3 && memcmp(s, "\xce\xbcs", 3) == 0)   /* "μs", Greek mu */
        return NPYDT_UNIT_us;
    return -1;
}

/* "[10s/4]": NumPy turns a divisor into a multiple of a smaller unit. The
 * candidate conversions per unit are NumPy's; a divisor none of them
 * divides is an error (NumPy itself reads past its table for weeks). */
static bool apply_divisor(int *unit, int64_t *num, int64_t den)
{
    static const struct { int n; uint32_t mult[3]; int8_t to[3]; } table[] = {
        [NPYDT_UNIT_Y] = {3, {12, 52, 365}, {NPYDT_UNIT_M, NPYDT_UNIT_W, NPYDT_UNIT_D}},
        [NPYDT_UNIT_M] = {3, {4, 30, 720}, {NPYDT_UNIT_W, NPYDT_UNIT_D, NPYDT_UNIT_h}},
        [NPYDT_UNIT_W] = {3, {7, 168, 10080}, {NPYDT_UNIT_D, NPYDT_UNIT_h, NPYDT_UNIT_m}},
        [NPYDT_UNIT_D] = {3, {24, 1440, 86400}, {NPYDT_UNIT_h, NPYDT_UNIT_m, NPYDT_UNIT_s}},
        [NPYDT_UNIT_h] = {2, {60, 3600, 0}, {NPYDT_UNIT_m, NPYDT_UNIT_s, 0}},
        [NPYDT_UNIT_m] = {2, {60, 60000, 0}, {NPYDT_UNIT_s, NPYDT_UNIT_ms, 0}},
    };
    int u = *unit;
    int n;
    uint32_t mult[2];
    int to[2];
    if (u >= NPYDT_UNIT_s) {
        n = u == NPYDT_UNIT_as ? 0 : u == NPYDT_UNIT_fs ? 1 : 2;
        mult[0] = 1000;
        mult[1] = 1000000;
        to[0] = u + 1;
        to[1] = u + 2;
    } else {
        n = table[u].n;
    }
    for (int i = 0; i < n; i++) {
        uint32_t m = u >= NPYDT_UNIT_s ? mult[i] : table[u].mult[i];
        if (m % (uint64_t)den == 0) {
            *num *= (int64_t)(m / (uint64_t)den);
            *unit = u >= NPYDT_UNIT_s ? to[i] : table[u].to[i];
            return true;
        }
    }
    return false;
}

static npydt_status parse_datetime(struct dtype_ctx *c, char kind, char endian,
                                   const char *meta, size_t mlen, const char *whole,
                                   size_t wlen, size_t off, const npydt_dtype **out)
{
    int unit = NPYDT_UNIT_GENERIC;
    int64_t num = 1;
    char shown[80];   /* whole as messages spell it */
    name_for_message(shown, sizeof shown, whole, wlen);
    if (mlen > 0) {
        if (mlen < 3 || meta[0] != '[' || meta[mlen - 1] != ']')
            return set_error(c->err, NPYDT_E_UNIT, off, dtype_path(c),
                             "invalid datetime metadata in '%s'", shown);
        const char *s = meta + 1, *e = meta + mlen - 1, *q;
        int64_t v;
        if (c_strtol(s, e, &v, &q)) {
            if (v < 0 || v > INT_MAX)
                return set_error(c->err, NPYDT_E_UNIT, off, dtype_path(c),
                                 "invalid datetime multiplier in '%s'", shown);
            num = v;
            s = q;
        }
        const char *u = s;
        while (s < e && *s != '/')
            s++;
        unit = datetime_unit_parse(u, (size_t)(s - u));
        if (unit < 0)
            return set_error(c->err, NPYDT_E_UNIT, off, dtype_path(c),
                             "invalid datetime unit '%.*s' in '%s'", (int)(s - u), u,
                             shown);
        /* "[2generic]" keeps its multiplier, as np.datetime_data shows,
         * though dtype.str prints plain M8 */
        if (s < e) {   /* '/' divisor */
            int64_t den;
            if (!c_strtol(s + 1, e, &den, &q) || q != e)
                return set_error(c->err, NPYDT_E_UNIT, off, dtype_path(c),
                                 "invalid datetime divisor in '%s'", shown);
            if (unit == NPYDT_UNIT_GENERIC || den <= 0 ||
                (den != 1 && !apply_divisor(&unit, &num, den)))
                return set_error(c->err, NPYDT_E_UNIT, off, dtype_path(c),
                                 "datetime divisor %lld is not a multiple of a smaller unit in '%s'",
                                 (long long)den, shown);
            if (num > INT_MAX)
                return set_error(c->err, NPYDT_E_OVERFLOW, off, dtype_path(c),
                                 "datetime multiplier overflows in '%s'", shown);
        }
    }
    npydt_status st = scalar(c, kind, endian, 8, out);
    if (st == NPYDT_OK) {
        npydt_dtype *dt = (npydt_dtype *)*out;
        dt->unit = (int8_t)unit;
        dt->unit_count = (int32_t)num;
    }
    return st;
}

/* ---- comma strings ('i4, (2,3)f8, S5') ---------------------------------- */

static bool check_for_commastring(const char *s, size_t len)
{
    if ((s[0] >= '0' && s[0] <= '9') || (len > 1 && is_order(s[0]) && s[1] >= '0' && s[1] <= '9'))
        return true;
    if ((len > 1 && s[0] == '(' && s[1] == ')') ||
        (len > 3 && is_order(s[0]) && s[1] == '(' && s[2] == ')'))
        return true;
    int sq = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == ',' && sq == 0)
            return true;
        if (s[i] == '[')
            sq++;
        else if (s[i] == ']')
            sq--;
    }
    return false;
}

static bool in_set(char ch, const char *set)
{
    return ch != '\0' && strchr(set, ch) != NULL;
}

static bool is_alnum(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* One item of a comma string, as NumPy's format_re matches it greedily:
 * [<>|=]? ( *[(]?[ ,0-9]*[)]? *) [<>|=]? ([A-Za-z0-9.?]*(\[[a-zA-Z0-9,.]+\])?) */
struct comma_item {
    char order1, order2;
    const char *rep; size_t rep_len;
    const char *type; size_t type_len;
};

static size_t match_item(const char *s, size_t len, struct comma_item *it)
{
    size_t i = 0;
    memset(it, 0, sizeof *it);
    if (i < len && is_order(s[i])) it->order1 = s[i++];
    it->rep = s + i;
    while (i < len && s[i] == ' ') i++;
    if (i < len && s[i] == '(') i++;
    while (i < len && in_set(s[i], " ,0123456789")) i++;
    if (i < len && s[i] == ')') i++;
    while (i < len && s[i] == ' ') i++;
    it->rep_len = (size_t)(s + i - it->rep);
    if (i < len && is_order(s[i])) it->order2 = s[i++];
    it->type = s + i;
    while (i < len && (is_alnum(s[i]) || s[i] == '.' || s[i] == '?')) i++;
    if (i < len && s[i] == '[') {
        size_t j = i + 1;
        while (j < len && (is_alnum(s[j]) || s[j] == ',' || s[j] == '.')) j++;
        if (j > i + 1 && j < len && s[j] == ']')
            i = j + 1;
    }
    it->type_len = (size_t)(s + i - it->type);
    return i;
}

static bool is_pyspace(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* type_off and rep_off: where errors of its type and of its repeat count
 * point. */
static npydt_status comma_item_dtype(struct dtype_ctx *c, const struct comma_item *it,
                                     size_t type_off, size_t rep_off, const npydt_dtype **out)
{
    size_t off = type_off;
    char order;
    char o1 = it->order1 == '=' ? '<' : it->order1;
    char o2 = it->order2 == '=' ? '<' : it->order2;
    if (!it->order2)
        order = it->order1;
    else if (!it->order1)
        order = it->order2;
    else if (o1 != o2)
        return set_error(c->err, NPYDT_E_TYPE, off, dtype_path(c),
                         "inconsistent byte-order specification %c and %c", it->order1, it->order2);
    else
        order = o1;
    if (order == '|' || order == '=' || order == '<')
        order = 0;
    /* order + type, parsed again as a whole type string */
    char buf[256];
    if (it->type_len + 1 > sizeof buf)
        return set_error(c->err, NPYDT_E_TYPE, off, dtype_path(c), "type in comma string too long");
    size_t n = 0;
    if (order)
        buf[n++] = order;
    memcpy(buf + n, it->type, it->type_len);
    n += it->type_len;
    const npydt_dtype *base;
    npydt_status st = typestr_parse(c, buf, n, off, &base);
    if (st != NPYDT_OK || it->rep_len == 0) {
        *out = base;
        return st;
    }
    /* the repeat prefix is a Python literal: "3", "(2,3)", "()" */
    return typestr_repeat(c, base, it->rep, it->rep_len, rep_off, out);
}

/* When exact, s is the text itself at byte off of the caller's input, so
 * an item's error can point at the item; otherwise (a string literal,
 * whose escapes move bytes) every error points at the string. */
static npydt_status parse_commastring(struct dtype_ctx *c, const char *s, size_t len,
                                      size_t off, bool exact, const npydt_dtype **out)
{
    enum { MAX_ITEMS_INLINE = 16 };
    const npydt_dtype *inline_items[MAX_ITEMS_INLINE];
    const npydt_dtype **items = inline_items;
    size_t cap = MAX_ITEMS_INLINE, n = 0;
    size_t i = 0;
    while (i < len) {
        struct comma_item it;
        i += match_item(s + i, len - i, &it);
        size_t type_off = exact ? off + (size_t)(it.type - s) : off;
        size_t rep_off = exact ? off + (size_t)(it.rep - s) : off;
        if (i < len) {
            size_t j = i;
            while (j < len && is_pyspace(s[j]))
                j++;
            if (j == len) {
                i = len;
            } else if (s[j] == ',') {
                j++;
                while (j < len && is_pyspace(s[j]))
                    j++;
                i = j;
            } else {
                return set_error(c->err, NPYDT_E_TYPE, exact ? off + j : off, dtype_path(c),
                                 "format number %zu of '%.*s' is not recognized", n + 1,
                                 (int)(len > 64 ? 64 : len), s);
            }
        }
        /* two items or more are fields: a string of more than the limit
         * is refused at the item that passes it, not once all are made */
        npydt_status st = n > 0 ? dtype_check_fields(c, n + 1, type_off) : NPYDT_OK;
        if (st != NPYDT_OK)
            return st;
        if (n == cap) {
            const npydt_dtype **bigger = arena_alloc_array(c->arena, cap * 2, sizeof *bigger);
            if (!bigger)
                return set_nomem(c->err);
            memcpy(bigger, items, n * sizeof *items);
            items = bigger;
            cap *= 2;
        }
        st = comma_item_dtype(c, &it, type_off, rep_off, &items[n]);
        if (st != NPYDT_OK)
            return st;
        n++;
    }
    if (n == 1) {
        *out = items[0];
        return NPYDT_OK;
    }
    /* Several items make a packed struct with fields f0, f1, ... */
    struct field_spec *specs = arena_alloc_array(c->arena, n, sizeof *specs);
    if (!specs)
        return set_nomem(c->err);
    uint64_t offset = 0;
    for (size_t k = 0; k < n; k++) {
        char name[32];
        int len_name = snprintf(name, sizeof name, "f%zu", k);
        specs[k].name = arena_strndup(c->arena, name, (size_t)len_name);
        specs[k].name_len = (size_t)len_name;
        if (!specs[k].name)
            return set_nomem(c->err);
        specs[k].dtype = items[k];
        specs[k].offset = offset;
        specs[k].text_offset = off;
        if (!ck_add(offset, items[k]->itemsize, &offset) || offset > NPYDT_MAX_ITEMSIZE)
            return set_error(c->err, NPYDT_E_OVERFLOW, off, dtype_path(c),
                             "struct itemsize does not fit a C int");
    }
    return dtype_make_struct(c, specs, n, offset, off, out);
}

/* ---- the entry point ----------------------------------------------------- */

/* np.save's numeric type strings ('<f8', '|b1', '>c16'), straight to the
 * shared nodes; NULL for any other string. */
static const npydt_dtype *numeric_typestr(const char *s, size_t n)
{
    if (n < 3 || n > 4)
        return NULL;
    unsigned size = (unsigned)(unsigned char)s[2] - '0';
    if (size == 0 || size > 9)
        return NULL;
    if (n == 4) {
        unsigned d = (unsigned)(unsigned char)s[3] - '0';
        if (d > 9)
            return NULL;
        size = size * 10 + d;
    }
    char order = s[0], kind = s[1];
    if (order == '|')
        return size == 1 && (kind == 'b' || kind == 'i' || kind == 'u')
                   ? dtype_shared_scalar(kind, order, size)
                   : NULL;
    if (order != '<' && order != '>')
        return NULL;
    int k;
    bool ok;
    switch (kind) {
    case 'i': k = 0; ok = size == 2 || size == 4 || size == 8; break;
    case 'u': k = 1; ok = size == 2 || size == 4 || size == 8; break;
    case 'f': k = 2; ok = size == 2 || size == 4 || size == 8 || size == 16; break;
    case 'c': k = 3; ok = size == 8 || size == 16 || size == 32; break;
    default: return NULL;
    }
    return ok ? &dtype_builtin_ordered[k][__builtin_ctz(size)][order == '>'] : NULL;
}

/* The unit of np.save's datetime metadata: "" (generic) or "[ns]". */
static int saved_unit(const char *s, size_t n)
{
    if (n == 0)
        return NPYDT_UNIT_GENERIC;
    if (n < 3 || s[0] != '[' || s[n - 1] != ']')
        return -1;
    return datetime_unit_parse(s + 1, n - 2);
}

/* A decimal number as repr writes it (no sign, no leading zero) that fits
 * an itemsize. */
static bool saved_size(const char *s, size_t n, uint64_t *v)
{
    if (n == 0 || n > 10 || (n > 1 && s[0] == '0'))
        return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    *v = x;
    return x <= NPYDT_MAX_ITEMSIZE;
}

const npydt_dtype *typestr_saved(struct dtype_ctx *c, const char *s, size_t n, bool *nomem)
{
    if (n < 3)
        return NULL;
    char order = s[0], kind = s[1];
    uint64_t size;
    switch (kind) {
    case 'M':
    case 'm':
        return s[2] == '8' ? dtype_shared_datetime(kind, order, saved_unit(s + 3, n - 3)) : NULL;
    case 'S':
    case 'V':
    case 'U': {
        if (!saved_size(s + 2, n - 2, &size) || (order == '|') == (kind == 'U'))
            return NULL;
        if (kind == 'U' && (order != '<' && order != '>'))
            return NULL;
        if (kind == 'U' && (size *= 4) > NPYDT_MAX_ITEMSIZE)
            return NULL;
        npydt_dtype *dt = dtype_new_scalar(c, kind, order, size);
        if (!dt)
            *nomem = true;
        return dt;
    }
    default:
        return numeric_typestr(s, n);
    }
}


static npydt_status parse(struct dtype_ctx *c, const char *s, size_t len, size_t off, bool exact,
                          const npydt_dtype **out);

npydt_status typestr_parse(struct dtype_ctx *c, const char *s, size_t len, size_t off,
                           const npydt_dtype **out)
{
    return parse(c, s, len, off, false, out);
}

npydt_status typestr_parse_text(struct dtype_ctx *c, const char *s, size_t len, size_t off,
                                const npydt_dtype **out)
{
    const char *nul = memchr(s, '\0', len);
    if (nul)
        return set_error(c->err, NPYDT_E_ENCODING, off + (size_t)(nul - s), NULL,
                         "NUL byte in type string");
    return parse(c, s, len, off, true, out);
}

static npydt_status parse(struct dtype_ctx *c, const char *s, size_t len, size_t off, bool exact,
                          const npydt_dtype **out)
{
    const char *whole = s;
    size_t wlen = len;
    /* np.save's spelling ('<f8', '|S16', '<M8[ns]') first; the general
     * rules below read it the same way */
    bool nomem = false;
    if ((*out = typestr_saved(c, s, len, &nomem)))
        return NPYDT_OK;
    if (nomem)
        return set_nomem(c->err);
    if (len == 0)
        return not_understood(c, whole, wlen, off);
    if (check_for_commastring(s, len))
        return parse_commastring(c, s, len, off, exact, out);
    char endian = '=';
    if (len > 1 && is_order(s[0])) {
        endian = s[0] == '|' ? '=' : s[0];
        s++;
        len--;
    }
    if (endian == '<')
        endian = '=';   /* native on x86-64 */

    /* datetimes: M8..., m8..., datetime64..., timedelta64... */
    if (len >= 2 && s[1] == '8' && (s[0] == 'M' || s[0] == 'm'))
        return parse_datetime(c, s[0], endian, s + 2, len - 2, whole, wlen, off, out);
    if (len >= 10 && memcmp(s, "datetime64", 10) == 0)
        return parse_datetime(c, 'M', endian, s + 10, len - 10, whole, wlen, off, out);
    if (len >= 11 && memcmp(s, "timedelta64", 11) == 0)
        return parse_datetime(c, 'm', endian, s + 11, len - 11, whole, wlen, off, out);

    if (len == 1) {
        for (size_t i = 0; i < sizeof type_codes / sizeof type_codes[0]; i++)
            if (type_codes[i].code == s[0]) {
                if (type_codes[i].kind == 'M' || type_codes[i].kind == 'm')
                    return parse_datetime(c, type_codes[i].kind, endian, "", 0, whole, wlen,
                                          off, out);
                return scalar(c, type_codes[i].kind, endian, type_codes[i].size, out);
            }
        return not_understood(c, whole, wlen, off);
    }

    int64_t size;
    const char *end;
    bool parsed = c_strtol(s + 1, s + len, &size, &end) && end == s + len;
    if (size > INT_MAX || size < 0)
        return not_understood(c, whole, wlen, off);
    if (parsed) {
        char kind = s[0];
        if (kind == 'S' || kind == 'a')
            return scalar(c, 'S', endian, (uint64_t)size, out);
        if (kind == 'U') {
            if ((uint64_t)size * 4 > NPYDT_MAX_ITEMSIZE)
                return set_error(c->err, NPYDT_E_OVERFLOW, off, dtype_path(c),
                                 "unicode itemsize of '%.*s' does not fit a C int", (int)wlen,
                                 whole);
            return scalar(c, 'U', endian, (uint64_t)size * 4, out);
        }
        if (kind == 'V')
            return scalar(c, 'V', endian, (uint64_t)size, out);
        if (size != 0 && kind_size_ok(kind, size)) {
            if (kind == 'M' || kind == 'm')
                return parse_datetime(c, kind, endian, "", 0, whole, wlen, off, out);
            return scalar(c, kind, endian, kind == 'O' ? 8 : (uint64_t)size, out);
        }
    }
    /* the table of names is looked up with the whole string, byte-order
     * prefix included, so "<float64" is not a type */
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++) {
        if (strlen(type_names[i].name) == wlen && memcmp(type_names[i].name, whole, wlen) == 0) {
            const char *t = type_names[i].typestr;
            return scalar(c, t[1], t[0] == '>' ? '>' : '=', small_atoi(t + 2), out);
        }
    }
    return not_understood(c, whole, wlen, off);
}

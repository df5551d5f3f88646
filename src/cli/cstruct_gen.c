/* npydt cstruct: the generator. Walks a dtype through the public API only
 * and writes C11 declarations whose layout is NumPy's, byte for byte:
 * explicit padding members for every gap, packing only where the natural C
 * layout cannot reproduce the offsets, and _Static_asserts that prove it
 * when the output is compiled. */
#include "cstruct.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nesting deeper than this is refused (the parser's own limit is lower). */
#define MAX_NESTING 512
/* The dtype quoted in the leading comment is cut after this many bytes. */
#define DESCR_QUOTE_MAX 240

/* ------------------------------------------------------------------ */
/* Growable text                                                       */
/* ------------------------------------------------------------------ */

struct sbuf {
    char *data;
    size_t len, cap;
    int nomem;
};

static void sb_reserve(struct sbuf *b, size_t extra)
{
    if (b->nomem)
        return;
    if (extra > SIZE_MAX - b->len - 1) {
        b->nomem = 1;
        return;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->nomem = 1;
        return;
    }
    b->data = p;
    b->cap = cap;
}

static void sb_putn(struct sbuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    if (b->nomem)
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void sb_puts(struct sbuf *b, const char *s)
{
    sb_putn(b, s, strlen(s));
}

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->nomem = 1;
        return;
    }
    sb_reserve(b, (size_t)n);
    if (b->nomem)
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* ------------------------------------------------------------------ */
/* A set of strings (member names of one struct, struct tags)          */
/* ------------------------------------------------------------------ */

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

int nameset_has(const struct nameset *set, const char *name)
{
    if (!set->cap)
        return 0;
    for (size_t i = (size_t)name_hash(name) & (set->cap - 1);; i = (i + 1) & (set->cap - 1)) {
        if (!set->slot[i])
            return 0;
        if (strcmp(set->slot[i], name) == 0)
            return 1;
    }
}

/* Adds a copy of name (not already present). Returns 0 or -1 (no memory). */
int nameset_add(struct nameset *set, const char *name)
{
    if ((set->count + 1) * 2 > set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 16;
        char **slot = calloc(cap, sizeof *slot);
        if (!slot)
            return -1;
        for (size_t i = 0; i < set->cap; i++) {
            if (!set->slot[i])
                continue;
            size_t j = (size_t)name_hash(set->slot[i]) & (cap - 1);
            while (slot[j])
                j = (j + 1) & (cap - 1);
            slot[j] = set->slot[i];
        }
        free(set->slot);
        set->slot = slot;
        set->cap = cap;
    }
    char *copy = xstrdup(name);
    if (!copy)
        return -1;
    size_t j = (size_t)name_hash(name) & (set->cap - 1);
    while (set->slot[j])
        j = (j + 1) & (set->cap - 1);
    set->slot[j] = copy;
    set->count++;
    return 0;
}

void nameset_free(struct nameset *set)
{
    for (size_t i = 0; i < set->cap; i++)
        free(set->slot[i]);
    free(set->slot);
    set->slot = NULL;
    set->cap = set->count = 0;
}

/* ------------------------------------------------------------------ */
/* C identifiers                                                       */
/* ------------------------------------------------------------------ */

/* Keywords of C11 and C23, and object-like macros of the headers the
 * output includes (or that a reader of it typically includes) which would
 * break a member of that name. A sanitised name on this list gets a
 * trailing underscore. */
static const char *const reserved_words[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double",
    "else", "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long",
    "register", "restrict", "return", "short", "signed", "sizeof", "static", "struct",
    "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    "alignas", "alignof", "bool", "constexpr", "false", "nullptr", "static_assert",
    "thread_local", "true", "typeof", "typeof_unqual", "noreturn",
    "NULL", "offsetof", "complex", "imaginary", "I", "errno", "EOF",
    "stdin", "stdout", "stderr", "NAN", "INFINITY", "HUGE_VAL", "unix", "linux", "i386",
    "INTPTR_MIN", "INTPTR_MAX", "UINTPTR_MAX", "INTMAX_MIN", "INTMAX_MAX", "UINTMAX_MAX",
    "PTRDIFF_MIN", "PTRDIFF_MAX", "SIG_ATOMIC_MIN", "SIG_ATOMIC_MAX", "SIZE_MAX",
    "WCHAR_MIN", "WCHAR_MAX", "WINT_MIN", "WINT_MAX",
};

/* U?INT(_LEAST|_FAST)?(8|16|32|64)_(MIN|MAX), the <stdint.h> limits. */
static int is_stdint_limit(const char *s)
{
    if (*s == 'U')
        s++;
    if (strncmp(s, "INT", 3) != 0)
        return 0;
    s += 3;
    if (strncmp(s, "_LEAST", 6) == 0)
        s += 6;
    else if (strncmp(s, "_FAST", 5) == 0)
        s += 5;
    static const char *const bits[] = {"8", "16", "32", "64"};
    for (size_t i = 0; i < 4; i++) {
        size_t n = strlen(bits[i]);
        if (strncmp(s, bits[i], n) == 0)
            return strcmp(s + n, "_MIN") == 0 || strcmp(s + n, "_MAX") == 0;
    }
    return 0;
}

static int is_reserved_word(const char *s)
{
    for (size_t i = 0; i < sizeof reserved_words / sizeof reserved_words[0]; i++)
        if (strcmp(s, reserved_words[i]) == 0)
            return 1;
    return is_stdint_limit(s);
}

static int is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident_char(unsigned char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

int cstruct_name_ok(const char *name)
{
    if (!is_ident_start((unsigned char)name[0]))
        return 0;
    for (const char *p = name; *p; p++)
        if (!is_ident_char((unsigned char)*p))
            return 0;
    if (name[0] == '_' && (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z')))
        return 0;
    return !is_reserved_word(name);
}

/* Decodes one UTF-8 sequence at p; returns its length and sets *cp, or 0
 * when the bytes are not valid UTF-8. */
static size_t utf8_decode(const unsigned char *p, uint32_t *cp)
{
    uint32_t c = p[0];
    size_t n;
    uint32_t min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        n = 2, c &= 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3, c &= 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4, c &= 0x07, min = 0x10000;
    } else {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (p[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

/* The documented sanitising rule (README, "npydt cstruct"):
 *   ASCII letters, digits and '_' are kept; any other ASCII byte becomes
 *   '_'; a non-ASCII code point U+XXXX becomes "_uXXXX" (lower-case hex,
 *   at least 4 digits); an invalid UTF-8 byte becomes "_xHH".
 *   "" becomes "unnamed"; a leading digit gets the prefix "f_"; a leading
 *   "__" or "_" + capital gets the prefix "f"; a keyword or macro name
 *   gets a trailing '_'. Duplicates then get "_2", "_3", ... in field order.
 * Returns a malloc'd name or NULL (no memory). */
/* The output defines ROOT_H and ROOT_ITEMSIZE (ROOT upper-cased, one per
 * archive member): a member named like them would be macro-expanded. */
static int is_macro_shaped(const char *s)
{
    size_t n = strlen(s);
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
            return 0;
    return (n > 2 && strcmp(s + n - 2, "_H") == 0) ||
           (n > 9 && strcmp(s + n - 9, "_ITEMSIZE") == 0);
}

static char *sanitize(const char *name, size_t len)
{
    struct sbuf b = {0};
    const unsigned char *p = (const unsigned char *)name, *end = p + len;
    while (p < end) {
        if (*p < 0x80) {
            char c = is_ident_char(*p) ? (char)*p : '_';
            sb_putn(&b, &c, 1);
            p++;
            continue;
        }
        uint32_t cp;
        size_t n = utf8_decode(p, &cp);
        if (n == 0) {
            sb_printf(&b, "_x%02x", (unsigned)*p);
            p++;
        } else {
            sb_printf(&b, "_u%04lx", (unsigned long)cp);
            p += n;
        }
    }
    if (b.len == 0)
        sb_puts(&b, "unnamed");
    if (b.nomem) {
        free(b.data);
        return NULL;
    }
    struct sbuf r = {0};
    if (b.data[0] >= '0' && b.data[0] <= '9')
        sb_puts(&r, "f_");
    else if (b.data[0] == '_' && (b.data[1] == '_' || (b.data[1] >= 'A' && b.data[1] <= 'Z')))
        sb_puts(&r, "f");
    sb_puts(&r, b.data);
    free(b.data);
    if (!r.nomem && (is_reserved_word(r.data) || is_macro_shaped(r.data)))
        sb_puts(&r, "_");
    if (r.nomem) {
        free(r.data);
        return NULL;
    }
    return r.data;
}

/* base, or base_2, base_3, ... whichever is not in set yet; adds it.
 * Returns a malloc'd name or NULL (no memory). */
static char *unique_name(struct nameset *set, const char *base)
{
    struct sbuf b = {0};
    sb_puts(&b, base);
    for (unsigned long k = 2; !b.nomem && nameset_has(set, b.data); k++) {
        b.len = 0;
        sb_printf(&b, "%s_%lu", base, k);
    }
    if (b.nomem || nameset_add(set, b.data) != 0) {
        free(b.data);
        return NULL;
    }
    return b.data;
}

/* ------------------------------------------------------------------ */
/* Comments                                                            */
/* ------------------------------------------------------------------ */

/* Unicode characters that must not appear raw in a comment: controls,
 * format characters and bidirectional overrides (gcc's -Wbidi-chars). */
static int unsafe_code_point(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || cp == 0xAD || cp == 0x061C || cp == 0x180E ||
           (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
           (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB) ||
           (cp >= 0xE0000 && cp <= 0xE007F);
}

/* Writes s[0..len) quoted for a comment: never "*" "/", never a trigraph,
 * never a control character (a NUL in a name included) or invalid UTF-8,
 * at most max bytes of s. s is NUL-terminated after len bytes. */
static void put_quoted_n(struct sbuf *b, const char *s, size_t len, size_t max)
{
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *start = p, *end = p + len;
    sb_putn(b, "\"", 1);
    while (p < end) {
        if ((size_t)(p - start) >= max) {
            sb_puts(b, "...");
            break;
        }
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            sb_printf(b, "\\%c", c);
            p++;
        } else if (c == '/' && p > start && p[-1] == '*') {
            sb_puts(b, "\\/");
            p++;
        } else if (c == '?' && p + 1 < end && p[1] == '?') {
            sb_puts(b, "?\\");
            p++;
        } else if (c >= 0x20 && c < 0x7F) {
            sb_putn(b, (const char *)p, 1);
            p++;
        } else if (c < 0x80) {
            sb_printf(b, "\\x%02x", c);
            p++;
        } else {
            uint32_t cp;
            size_t n = utf8_decode(p, &cp);
            if (n == 0) {
                sb_printf(b, "\\x%02x", c);
                p++;
            } else if (unsafe_code_point(cp)) {
                sb_printf(b, "\\u%04lx", (unsigned long)cp);
                p += n;
            } else {
                sb_putn(b, (const char *)p, n);
                p += n;
            }
        }
    }
    sb_putn(b, "\"", 1);
}

static void put_quoted(struct sbuf *b, const char *s, size_t max)
{
    put_quoted_n(b, s, strlen(s), max);
}

/* ------------------------------------------------------------------ */
/* Scalar types                                                        */
/* ------------------------------------------------------------------ */

struct scalar_map {
    const char *ctype;  /* C type of one element */
    size_t csize;       /* its size */
    size_t calign;      /* its alignment */
    uint64_t inner;     /* extra innermost dimension (S, U, V, raw), 0 if none */
    int ext80;          /* x87 extended precision (f16, c32): bytes */
    int raw;            /* no C type: raw bytes */
};

static void map_scalar(const npydt_dtype *dt, struct scalar_map *m)
{
    size_t n = npydt_dtype_itemsize(dt);
    memset(m, 0, sizeof *m);
    switch (npydt_dtype_kind(dt)) {
    case 'b':
        if (n == 1) {
            m->ctype = "uint8_t", m->csize = 1, m->calign = _Alignof(uint8_t);
            return;
        }
        break;
    case 'i':
    case 'u': {
        int s = npydt_dtype_kind(dt) == 'i';
        switch (n) {
        case 1:
            m->ctype = s ? "int8_t" : "uint8_t", m->calign = _Alignof(int8_t);
            break;
        case 2:
            m->ctype = s ? "int16_t" : "uint16_t", m->calign = _Alignof(int16_t);
            break;
        case 4:
            m->ctype = s ? "int32_t" : "uint32_t", m->calign = _Alignof(int32_t);
            break;
        case 8:
            m->ctype = s ? "int64_t" : "uint64_t", m->calign = _Alignof(int64_t);
            break;
        default:
            break;
        }
        if (m->ctype) {
            m->csize = n;
            return;
        }
        break;
    }
    case 'f':
        if (n == 2) {
            m->ctype = "uint16_t", m->csize = 2, m->calign = _Alignof(uint16_t);
            return;
        } else if (n == sizeof(float)) {
            m->ctype = "float", m->csize = n, m->calign = _Alignof(float);
            return;
        } else if (n == sizeof(double)) {
            m->ctype = "double", m->csize = n, m->calign = _Alignof(double);
            return;
        } else if (n == 16) {
            m->ctype = "uint8_t", m->csize = 1, m->calign = 1, m->inner = n, m->ext80 = 1;
            return;
        }
        break;
    case 'c':
        if (n == 2 * sizeof(float)) {
            m->ctype = "float _Complex", m->csize = n, m->calign = _Alignof(float _Complex);
            return;
        } else if (n == 2 * sizeof(double)) {
            m->ctype = "double _Complex", m->csize = n, m->calign = _Alignof(double _Complex);
            return;
        } else if (n == 32) {
            m->ctype = "uint8_t", m->csize = 1, m->calign = 1, m->inner = n, m->ext80 = 1;
            return;
        }
        break;
    case 'S':
        m->ctype = "char", m->csize = 1, m->calign = 1, m->inner = n;
        return;
    case 'U':
        m->ctype = "uint32_t", m->csize = 4, m->calign = _Alignof(uint32_t), m->inner = n / 4;
        return;
    case 'V':
        m->ctype = "uint8_t", m->csize = 1, m->calign = 1, m->inner = n;
        return;
    case 'M':
    case 'm':
        if (n == 8) {
            m->ctype = "int64_t", m->csize = 8, m->calign = _Alignof(int64_t);
            return;
        }
        break;
    default:
        break;
    }
    m->ctype = "uint8_t", m->csize = 1, m->calign = 1, m->inner = n, m->raw = 1;
}

/* ------------------------------------------------------------------ */
/* The generator                                                       */
/* ------------------------------------------------------------------ */

struct gen {
    const char *root;      /* tag of the record struct */
    struct sbuf body;      /* struct definitions, innermost first */
    struct nameset tags;   /* struct tags handed out */
    int host_little;
    uint64_t nonnative;    /* members stored in the other byte order */
    uint64_t packed;       /* structs that needed packing */
    uint64_t zero;         /* zero-size fields left as comments */
    npydt_error *err;
};

struct member {
    const char *name;          /* NumPy name; NULL for the root's "value" */
    const char *title;         /* NULL when none */
    size_t name_len, title_len; /* a name or title may hold a NUL */
    char *cname;               /* C member name */
    char *path;                /* "pos.x" for messages */
    size_t path_len;
    uint64_t offset, size;
    const npydt_dtype *dtype;  /* the field's dtype (may be a subarray) */
    const npydt_dtype *elem;   /* innermost non-subarray node */
    uint64_t *dims;            /* C array dimensions, outermost first */
    size_t ndims;
    char *tag;                 /* struct tag when elem is a struct */
    struct scalar_map map;     /* when elem is a scalar */
    size_t align;              /* C alignment of the member */
    int zero;                  /* no bytes: a comment, no member */
    size_t order;              /* index in NumPy's field order */
};

static void fail(struct gen *g, npydt_status code, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail(struct gen *g, npydt_status code, const char *path, const char *fmt, ...)
{
    if (!g->err)
        return;
    g->err->code = code;
    g->err->offset = NPYDT_NO_OFFSET;
    snprintf(g->err->path, sizeof g->err->path, "%s", path ? path : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->err->message, sizeof g->err->message, fmt, ap);
    va_end(ap);
}

static int fail_nomem(struct gen *g)
{
    fail(g, NPYDT_E_NOMEM, NULL, "out of memory");
    return -1;
}

static const char *order_phrase(const struct gen *g, char order)
{
    if (order != '<' && order != '>')
        return NULL;
    if ((order == '<') == (g->host_little != 0))
        return order == '<' ? "little-endian (native)" : "big-endian (native)";
    return order == '<' ? "little-endian: swap before use, or run npydt swap --to native"
                        : "big-endian: swap before use, or run npydt swap --to native";
}

static void put_sep(struct sbuf *b, int *first)
{
    sb_puts(b, *first ? " /* " : "; ");
    *first = 0;
}

/* The comment after a member: NumPy type, what the bytes mean, byte order,
 * original name and title. */
static void member_comment(struct gen *g, struct sbuf *b, const struct member *m)
{
    int first = 1;
    const npydt_dtype *e = m->elem;
    if (npydt_dtype_get_class(e) == NPYDT_STRUCT) {
        put_sep(b, &first);
        sb_printf(b, "struct of %zu bytes; byte order per field", npydt_dtype_itemsize(e));
    } else {
        char str[64];
        npydt_dtype_str(e, str, sizeof str);
        put_sep(b, &first);
        sb_puts(b, str);
        char kind = npydt_dtype_kind(e);
        const char *note = NULL;
        if (m->map.raw)
            note = "no C type for this on this machine: raw bytes";
        else if (kind == 'b')
            note = "bool: 0 or 1";
        else if (kind == 'f' && npydt_dtype_itemsize(e) == 2)
            note = "IEEE half-precision bits";
        else if (kind == 'f' && m->map.ext80)
            note = "x87 80-bit extended precision in 16 bytes (NumPy's long double on x86), "
                   "as bytes: C's long double differs by machine; npydt_read_double converts";
        else if (kind == 'c' && m->map.ext80)
            note = "complex of two x87 80-bit extended precision numbers in 16 bytes each, "
                   "real then imaginary part, as bytes: C's long double differs by machine; "
                   "npydt_read_complex converts";
        else if (kind == 'c')
            note = "complex: real then imaginary part";
        else if (kind == 'S')
            note = "bytes, NUL-padded, not NUL-terminated when full";
        else if (kind == 'U')
            note = "UCS-4 code units, NUL-padded";
        else if (kind == 'V')
            note = "raw bytes";
        if (note) {
            put_sep(b, &first);
            sb_puts(b, note);
        }
        if (kind == 'M' || kind == 'm') {
            npydt_unit u = npydt_dtype_unit(e);
            put_sep(b, &first);
            if (u == NPYDT_UNIT_GENERIC || u == NPYDT_UNIT_NONE) {
                sb_printf(b, "%s without a unit", kind == 'M' ? "datetime64" : "timedelta64");
            } else {
                int32_t n = npydt_dtype_unit_count(e);
                char unit[48];
                if (n == 1)
                    snprintf(unit, sizeof unit, "%s", npydt_unit_name(u));
                else
                    snprintf(unit, sizeof unit, "%ld%s", (long)n, npydt_unit_name(u));
                if (kind == 'M')
                    sb_printf(b, "int64 count of [%s] since 1970-01-01T00:00:00", unit);
                else
                    sb_printf(b, "int64 count of [%s]", unit);
            }
            sb_puts(b, ", NaT = INT64_MIN");
        }
        const char *bo = order_phrase(g, npydt_dtype_byteorder(e));
        if (bo) {
            put_sep(b, &first);
            sb_puts(b, bo);
        }
    }
    if (m->name && (m->name_len != strlen(m->cname) || strcmp(m->name, m->cname) != 0)) {
        put_sep(b, &first);
        sb_puts(b, "NumPy name ");
        put_quoted_n(b, m->name, m->name_len, 4096);
    }
    if (m->title) {
        put_sep(b, &first);
        sb_puts(b, "title ");
        put_quoted_n(b, m->title, m->title_len, 4096);
    }
    sb_puts(b, first ? "\n" : " */\n");
}

static void put_decl(struct sbuf *b, const struct member *m)
{
    if (m->tag)
        sb_printf(b, "    struct %s %s", m->tag, m->cname);
    else
        sb_printf(b, "    %s %s", m->map.ctype, m->cname);
    for (size_t k = 0; k < m->ndims; k++)
        sb_printf(b, "[%llu]", (unsigned long long)m->dims[k]);
    sb_puts(b, ";");
}

static void put_shape(struct sbuf *b, const uint64_t *shape, size_t ndim)
{
    sb_puts(b, "(");
    for (size_t i = 0; i < ndim; i++)
        sb_printf(b, "%s%llu", i ? ", " : "", (unsigned long long)shape[i]);
    sb_puts(b, ndim == 1 ? ",)" : ")");
}

static int member_cmp(const void *pa, const void *pb)
{
    const struct member *a = *(const struct member *const *)pa;
    const struct member *b = *(const struct member *const *)pb;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    if (a->zero != b->zero)
        return a->zero ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static int build_struct(struct gen *g, const npydt_dtype *dt, const char *tag, const char *path,
                        size_t path_len, unsigned depth, size_t *align_out);

/* Fills in everything about m from m->dtype: dimensions, C type, nested
 * struct (emitted now, so it precedes its user), alignment. */
static int prepare_member(struct gen *g, struct member *m, const char *parent_tag, unsigned depth)
{
    const npydt_dtype *e = m->dtype;
    size_t ndims = 0;
    for (const npydt_dtype *d = e; npydt_dtype_get_class(d) == NPYDT_SUBARRAY; d = npydt_dtype_base(d)) {
        if (ndims + npydt_dtype_ndim(d) < ndims)
            return fail_nomem(g);
        ndims += npydt_dtype_ndim(d);
    }
    if (ndims + 1 > SIZE_MAX / sizeof(uint64_t))
        return fail_nomem(g);
    m->dims = malloc((ndims + 1) * sizeof(uint64_t));
    if (!m->dims)
        return fail_nomem(g);
    for (; npydt_dtype_get_class(e) == NPYDT_SUBARRAY; e = npydt_dtype_base(e)) {
        const uint64_t *shape = npydt_dtype_shape(e);
        for (size_t k = 0; k < npydt_dtype_ndim(e); k++) {
            m->dims[m->ndims++] = shape[k];
            if (shape[k] == 0)
                m->zero = 1;
        }
    }
    m->elem = e;
    m->size = npydt_dtype_itemsize(m->dtype);
    if (npydt_dtype_itemsize(e) == 0 || m->size == 0)
        m->zero = 1;
    if (m->zero)
        return 0;
    if (npydt_dtype_get_class(e) == NPYDT_STRUCT) {
        struct sbuf t = {0};
        sb_printf(&t, "%s_%s", parent_tag, m->cname);
        if (!t.nomem && is_reserved_word(t.data))
            sb_puts(&t, "_");
        if (t.nomem) {
            free(t.data);
            return fail_nomem(g);
        }
        m->tag = unique_name(&g->tags, t.data);
        free(t.data);
        if (!m->tag)
            return fail_nomem(g);
        return build_struct(g, e, m->tag, m->path, m->path_len, depth + 1, &m->align);
    }
    if (npydt_dtype_kind(e) == 'O') {
        fail(g, NPYDT_E_OBJECT, m->path,
             "object ('O') fields hold pickled Python objects and have no C layout");
        return -1;
    }
    map_scalar(e, &m->map);
    if (m->map.inner)
        m->dims[m->ndims++] = m->map.inner;
    m->align = m->map.calign;
    if (order_phrase(g, npydt_dtype_byteorder(e)) &&
        (npydt_dtype_byteorder(e) == '<') != (g->host_little != 0))
        g->nonnative++;
    return 0;
}

/* Writes struct `tag` for the prepared members m[0..n) of a record of
 * `itemsize` bytes; sets *align_out to the struct's C alignment. */
static int emit_members(struct gen *g, const char *tag, const char *path, size_t path_len,
                        uint64_t itemsize,
                        struct member *m, size_t n, struct nameset *names, size_t *align_out)
{
    struct member **sorted = malloc((n ? n : 1) * sizeof *sorted);
    if (!sorted)
        return fail_nomem(g);
    for (size_t i = 0; i < n; i++)
        sorted[i] = &m[i];
    qsort(sorted, n, sizeof *sorted, member_cmp);

    /* Natural C layout, given explicit padding for every gap: it matches
     * NumPy's exactly when every member sits at a multiple of its alignment
     * and the itemsize is a multiple of the largest alignment. */
    size_t align = 1;
    const struct member *misplaced = NULL;
    uint64_t cursor = 0;
    for (size_t i = 0; i < n; i++) {
        const struct member *s = sorted[i];
        if (s->zero)
            continue;
        if (s->offset < cursor) {
            fail(g, NPYDT_E_VALUE, s->path,
                 "overlaps the field before it (offset %llu < %llu); a C struct cannot express "
                 "overlapping fields",
                 (unsigned long long)s->offset, (unsigned long long)cursor);
            free(sorted);
            return -1;
        }
        if (s->size > itemsize || s->offset > itemsize - s->size) {
            fail(g, NPYDT_E_VALUE, s->path, "field ends beyond the itemsize %llu",
                 (unsigned long long)itemsize);
            free(sorted);
            return -1;
        }
        cursor = s->offset + s->size;
        if (s->align > align)
            align = s->align;
        if (!misplaced && s->offset % s->align != 0)
            misplaced = s;
    }
    int packed = misplaced != NULL || itemsize % align != 0;

    struct sbuf *b = &g->body;
    sb_puts(b, "/* ");
    if (strcmp(tag, g->root) == 0) {
        sb_puts(b, "The record, ");
    } else if (path_len) {
        sb_puts(b, "NumPy struct at ");
        put_quoted_n(b, path, path_len, 4096);
        sb_puts(b, ", ");
    } else {
        sb_puts(b, "NumPy struct of the subarray's elements, ");
    }
    sb_printf(b, "%llu bytes", (unsigned long long)itemsize);
    if (packed) {
        if (misplaced)
            sb_printf(b, "; packed: %s (alignment %zu) is at offset %llu", misplaced->cname,
                      misplaced->align, (unsigned long long)misplaced->offset);
        else
            sb_printf(b, "; packed: the size is not a multiple of the alignment %zu", align);
        g->packed++;
    }
    sb_puts(b, " */\n");
    if (packed)
        sb_puts(b, "#pragma pack(push, 1)\n");
    sb_printf(b, "struct %s {\n", tag);
    cursor = 0;
    unsigned long padno = 0;
    char padname[64];
    for (size_t i = 0;; i++) {
        /* a zero-size field inside the member before it needs no padding */
        uint64_t next = i < n ? sorted[i]->offset : itemsize;
        if (next < cursor)
            next = cursor;
        if (next > cursor) {
            do
                snprintf(padname, sizeof padname, "_pad%lu", padno++);
            while (nameset_has(names, padname));
            sb_printf(b, "    uint8_t %s[%llu]; /* padding, bytes %llu..%llu */\n", padname,
                      (unsigned long long)(next - cursor), (unsigned long long)cursor,
                      (unsigned long long)(next - 1));
            cursor = next;
        }
        if (i == n)
            break;
        const struct member *s = sorted[i];
        if (s->zero) {
            g->zero++;
            sb_puts(b, "    /* ");
            if (s->name)
                put_quoted_n(b, s->name, s->name_len, 4096);
            else
                sb_puts(b, s->cname);
            char str[64] = "struct";
            if (npydt_dtype_get_class(s->elem) != NPYDT_STRUCT)
                npydt_dtype_str(s->elem, str, sizeof str);
            sb_printf(b, " (%s", str);
            if (s->ndims) {
                sb_puts(b, ", shape ");
                put_shape(b, s->dims, s->ndims);
            }
            sb_printf(b, " at offset %llu) has no bytes: no member, ISO C has no "
                         "zero-length arrays or empty structs */\n",
                      (unsigned long long)s->offset);
            continue;
        }
        put_decl(b, s);
        member_comment(g, b, s);
        cursor = s->offset + s->size;
    }
    sb_puts(b, "};\n");
    if (packed)
        sb_puts(b, "#pragma pack(pop)\n");
    sb_printf(b, "_Static_assert(sizeof(struct %s) == %llu, \"struct %s: NumPy itemsize %llu\");\n",
              tag, (unsigned long long)itemsize, tag, (unsigned long long)itemsize);
    for (size_t i = 0; i < n; i++) {
        const struct member *s = &m[i];
        if (s->zero)
            continue;
        sb_printf(b, "_Static_assert(offsetof(struct %s, %s) == %llu, \"%s.%s: NumPy offset %llu\");\n",
                  tag, s->cname, (unsigned long long)s->offset, tag, s->cname,
                  (unsigned long long)s->offset);
    }
    sb_puts(b, "\n");
    free(sorted);
    *align_out = packed ? 1 : align;
    if (b->nomem)
        return fail_nomem(g);
    return 0;
}

static void free_members(struct member *m, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(m[i].cname);
        free(m[i].path);
        free(m[i].dims);
        free(m[i].tag);
    }
    free(m);
}

/* "parent.name" of plen and nlen bytes (names may hold NULs); its
 * length in *len. */
static char *join_path(const char *parent, size_t plen, const char *name, size_t nlen,
                       size_t *len)
{
    struct sbuf b = {0};
    sb_putn(&b, parent, plen);
    if (plen)
        sb_putn(&b, ".", 1);
    sb_putn(&b, name, nlen);
    if (b.nomem) {
        free(b.data);
        return NULL;
    }
    *len = b.len;
    if (!b.data)
        return xstrdup("");
    return b.data;
}

static int build_struct(struct gen *g, const npydt_dtype *dt, const char *tag, const char *path,
                        size_t path_len, unsigned depth, size_t *align_out)
{
    if (depth > MAX_NESTING) {
        fail(g, NPYDT_E_LIMIT, path, "structs nested deeper than %d levels", MAX_NESTING);
        return -1;
    }
    size_t n = npydt_dtype_nfields(dt);
    struct member *m = calloc(n ? n : 1, sizeof *m);
    struct nameset names = {0};
    int rc = -1;
    if (!m) {
        fail_nomem(g);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        m[i].name = npydt_dtype_field_name(dt, i);
        m[i].name_len = npydt_dtype_field_name_len(dt, i);
        m[i].title = npydt_dtype_field_title(dt, i);
        m[i].title_len = npydt_dtype_field_title_len(dt, i);
        m[i].offset = npydt_dtype_field_offset(dt, i);
        m[i].dtype = npydt_dtype_field_dtype(dt, i);
        m[i].order = i;
        char *base = sanitize(m[i].name, m[i].name_len);
        m[i].cname = base ? unique_name(&names, base) : NULL;
        free(base);
        m[i].path = join_path(path, path_len, m[i].name, m[i].name_len, &m[i].path_len);
        if (!m[i].cname || !m[i].path) {
            fail_nomem(g);
            goto out;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (prepare_member(g, &m[i], tag, depth) != 0)
            goto out;
    rc = emit_members(g, tag, path, path_len, npydt_dtype_itemsize(dt), m, n, &names, align_out);
out:
    free_members(m, n);
    nameset_free(&names);
    return rc;
}

/* Path of the first object leaf, or NULL. */
static const char *object_path(const npydt_dtype *dt)
{
    size_t n;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &n);
    for (size_t i = 0; leaves && i < n; i++)
        if (leaves[i].kind == 'O')
            return leaves[i].path;
    return "";
}

static void put_upper(struct sbuf *b, const char *s)
{
    for (; *s; s++) {
        char c = *s;
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        sb_putn(b, &c, 1);
    }
}

static int host_is_little(void)
{
    uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first == 1;
}

char *cstruct_generate(const npydt_dtype *dt, const char *name, const cstruct_source *src,
                       npydt_error *err)
{
    struct gen g = {0};
    g.err = err;
    g.root = name;
    g.host_little = host_is_little();
    if (npydt_dtype_has_object(dt)) {
        fail(&g, NPYDT_E_OBJECT, object_path(dt),
             "object ('O') fields hold pickled Python objects and have no C layout");
        return NULL;
    }
    uint64_t itemsize = npydt_dtype_itemsize(dt);
    int rc = 0;
    size_t align = 1;
    if (nameset_add(&g.tags, name) != 0) {
        fail_nomem(&g);
        return NULL;
    }
    if (itemsize == 0) {
        sb_printf(&g.body,
                  "/* The records have no bytes (itemsize 0): there is no struct %s, ISO C has\n"
                  " * no empty structs. */\n\n",
                  name);
    } else if (npydt_dtype_get_class(dt) == NPYDT_STRUCT) {
        rc = build_struct(&g, dt, name, "", 0, 0, &align);
    } else {
        /* A plain or subarray dtype: one member named "value". */
        struct member *m = calloc(1, sizeof *m);
        struct nameset names = {0};
        rc = -1;
        if (m && (m->cname = xstrdup("value")) && (m->path = xstrdup("")) &&
            nameset_add(&names, "value") == 0) {
            m->dtype = dt;
            rc = prepare_member(&g, m, name, 0);
            if (rc == 0)
                rc = emit_members(&g, name, "", 0, itemsize, m, 1, &names, &align);
        } else {
            fail_nomem(&g);
        }
        if (m)
            free_members(m, 1);
        nameset_free(&names);
    }
    if (rc == 0 && g.body.nomem) {
        fail_nomem(&g);
        rc = -1;
    }
    if (rc != 0) {
        free(g.body.data);
        nameset_free(&g.tags);
        return NULL;
    }

    struct sbuf out = {0};
    sb_printf(&out, "/* struct %s: C11 declarations for the records of ", name);
    if (src->header)
        put_quoted(&out, src->label, 1024);
    else
        sb_puts(&out, "a descriptor");
    sb_printf(&out, ",\n * generated by npydt %s cstruct.\n", npydt_version());
    size_t need = npydt_dtype_descr(dt, NULL, 0);
    char *descr = malloc(need + 1);
    if (descr) {
        npydt_dtype_descr(dt, descr, need + 1);
        sb_puts(&out, " * dtype ");
        put_quoted(&out, descr, DESCR_QUOTE_MAX);
        sb_puts(&out, "\n");
        free(descr);
    } else {
        out.nomem = 1;   /* never a header without its dtype line */
    }
    sb_printf(&out, " * itemsize %llu bytes", (unsigned long long)itemsize);
    if (src->header) {
        const npydt_header *h = src->header;
        sb_puts(&out, "; array shape ");
        put_shape(&out, npydt_header_shape(h), npydt_header_ndim(h));
        sb_printf(&out, ", %s order, %llu records at byte offset %llu of the %s",
                  npydt_header_fortran_order(h) ? "Fortran" : "C",
                  (unsigned long long)npydt_header_count(h),
                  (unsigned long long)npydt_header_data_offset(h),
                  src->member ? "member" : "file");
    }
    sb_puts(&out, ".\n");
    if (itemsize > 0) {
        sb_puts(&out, " *\n * Record i is at data + i * ");
        put_upper(&out, name);
        sb_printf(&out,
                  "_ITEMSIZE, so a native-order file reads\n"
                  " * through a cast: const struct %s *rec = (const struct %s *)data;\n"
                  " * Every offset and the size are checked by the _Static_asserts below.\n",
                  name, name);
    }
    if (g.packed)
        sb_printf(&out,
                  " * %llu struct(s) are packed (#pragma pack): NumPy's layout is not the\n"
                  " * natural C one there; access those members by value, not by pointer.\n",
                  (unsigned long long)g.packed);
    if (g.nonnative)
        sb_printf(&out,
                  " * %llu field(s) are stored in the byte order opposite to this machine's:\n"
                  " * swap them before use, or convert the file first with\n"
                  " *   npydt swap FILE --to native -o OUT\n",
                  (unsigned long long)g.nonnative);
    if (g.zero)
        sb_printf(&out, " * %llu zero-size field(s) are comments, not members.\n",
                  (unsigned long long)g.zero);
    sb_puts(&out, " */\n#ifndef ");
    put_upper(&out, name);
    sb_puts(&out, "_H\n#define ");
    put_upper(&out, name);
    sb_puts(&out, "_H\n\n#include <stddef.h>\n#include <stdint.h>\n");
    sb_puts(&out, "\n#define ");
    put_upper(&out, name);
    sb_printf(&out, "_ITEMSIZE %llu\n\n", (unsigned long long)itemsize);
    sb_putn(&out, g.body.data ? g.body.data : "", g.body.len);
    sb_puts(&out, "#endif /* ");
    put_upper(&out, name);
    sb_puts(&out, "_H */\n");
    free(g.body.data);
    nameset_free(&g.tags);
    if (out.nomem) {
        free(out.data);
        fail_nomem(&g);
        return NULL;
    }
    return out.data;
}

/* C identifiers. The sets of names taken, the words a
 * member cannot be called, and the sanitising rule that turns a NumPy
 * field name into a member name. */
#include "cstruct/cstruct.h"
#include "base/base.h"

#include <stdlib.h>
#include <string.h>

/* the library's name hash, as any program may use it */
static uint64_t name_hash(const char *s)
{
    return npydt_name_hash(s, strlen(s));
}

int nameset_has(const struct nameset *set, const char *name)
{
    if (!set->cap)
        return 0;
    for (size_t i = (size_t)name_hash(name) & (set->cap - 1);; i = (i + 1) & (set->cap - 1)) {
        if (!set->slot[i])
            return 0;
        if (strcmp(set->text + set->slot[i] - 1, name) == 0)
            return 1;
    }
}

static void slot_put(uint32_t *slot, size_t cap, const char *name, uint32_t at)
{
    size_t j = (size_t)name_hash(name) & (cap - 1);
    while (slot[j])
        j = (j + 1) & (cap - 1);
    slot[j] = at + 1;
}

/* The table grown to cap slots (a power of two, more than twice count). */
static int slot_grow(struct nameset *set, size_t cap)
{
    uint32_t *slot = cap <= SIZE_MAX / sizeof *slot ? alloc_bytes(set->alloc, cap * sizeof *slot) : NULL;
    if (!slot)
        return -1;
    memset(slot, 0, cap * sizeof *slot);
    for (size_t i = 0; i < set->cap; i++)
        if (set->slot[i])
            slot_put(slot, cap, set->text + set->slot[i] - 1, set->slot[i] - 1);
    if (set->slot)
        free_bytes(set->alloc, set->slot, set->cap * sizeof *set->slot);
    set->slot = slot;
    set->cap = cap;
    return 0;
}

int nameset_reserve(struct nameset *set, size_t n)
{
    size_t cap = set->cap ? set->cap : 16;
    if (n > SIZE_MAX / 4 - set->count)
        return -1;
    while ((set->count + n) * 2 > cap)
        cap *= 2;
    return cap == set->cap ? 0 : slot_grow(set, cap);
}

int nameset_add(struct nameset *set, const char *name, uint32_t *at)
{
    size_t n = strlen(name) + 1;
    /* offsets + 1 fit the table's 32 bits */
    if (n > UINT32_MAX - 1 - set->len)
        return -1;
    if (set->len + n > set->text_cap) {
        size_t cap = set->text_cap ? set->text_cap : 64;
        while (cap < set->len + n)
            cap *= 2;
        char *text = realloc_bytes(set->alloc, set->text, set->text_cap, cap);
        if (!text)
            return -1;
        set->text = text;
        set->text_cap = cap;
    }
    if ((set->count + 1) * 2 > set->cap && slot_grow(set, set->cap ? set->cap * 2 : 16) != 0)
        return -1;
    uint32_t off = (uint32_t)set->len;
    memcpy(set->text + off, name, n);
    set->len += n;
    slot_put(set->slot, set->cap, name, off);
    set->count++;
    if (at)
        *at = off;
    return 0;
}

void nameset_free(struct nameset *set)
{
    if (set->text)
        free_bytes(set->alloc, set->text, set->text_cap);
    if (set->slot)
        free_bytes(set->alloc, set->slot, set->cap * sizeof *set->slot);
    const npydt_allocator *a = set->alloc;
    memset(set, 0, sizeof *set);
    set->alloc = a;
}


/* Keywords of C11, C23 and C++, the type names the output uses (which
 * C++ does not let a member hide), and object-like macros of the headers
 * the output includes (or that a reader of it typically includes) which
 * would break a member of that name. A sanitised name on this list gets a
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
    /* C++ */
    "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t", "char32_t",
    "class", "co_await", "co_return", "co_yield", "compl", "concept", "const_cast",
    "consteval", "constinit", "decltype", "delete", "dynamic_cast", "explicit", "export",
    "friend", "mutable", "namespace", "new", "noexcept", "not", "not_eq", "operator", "or",
    "or_eq", "private", "protected", "public", "reinterpret_cast", "requires", "static_cast",
    "template", "this", "throw", "try", "typeid", "typename", "using", "virtual", "wchar_t",
    "xor", "xor_eq",
    /* the types of the members */
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
    "npydt_cfloat_t", "npydt_cdouble_t",
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

int cstruct_reserved_word(const char *s)
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
    return !cstruct_reserved_word(name);
}


/* The documented sanitising rule (doc/command.md, "npydt cstruct"):
 *   ASCII letters, digits and '_' are kept; any other ASCII byte becomes
 *   '_'; a non-ASCII code point U+XXXX becomes "_uXXXX" (lower-case hex,
 *   at least 4 digits); an invalid UTF-8 byte becomes "_xHH".
 *   "" becomes "unnamed"; a leading digit gets the prefix "f_"; a leading
 *   "__" or "_" + capital gets the prefix "f"; a keyword or macro name
 *   gets a trailing '_'. Duplicates then get "_2", "_3", ... in field order.
 * The name is appended to out; -1 without memory. */
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

int cstruct_sanitize(const char *name, size_t len, struct sbuf *out)
{
    struct sbuf b = sb_new(out->t.ctx);
    const unsigned char *p = (const unsigned char *)name, *end = p + len;
    while (p < end) {
        if (*p < 0x80) {
            char c = is_ident_char(*p) ? (char)*p : '_';
            sb_putn(&b, &c, 1);
            p++;
            continue;
        }
        uint32_t cp;
        size_t n = text_utf8_decode(p, (size_t)(end - p), &cp);
        if (n == 0) {
            sb_printf(&b, "_x%02x", (unsigned)*p);
            p++;
        } else {
            sb_printf(&b, "_u%04lx", (unsigned long)cp);
            p += n;
        }
    }
    if (b.t.len == 0)
        sb_puts(&b, "unnamed");
    if (b.t.failed) {
        sb_free(&b);
        return -1;
    }
    struct sbuf *r = out;
    size_t start = r->t.len;
    if (b.t.buf[0] >= '0' && b.t.buf[0] <= '9')
        sb_puts(r, "f_");
    else if (b.t.buf[0] == '_' && (b.t.buf[1] == '_' || (b.t.buf[1] >= 'A' && b.t.buf[1] <= 'Z')))
        sb_puts(r, "f");
    sb_puts(r, b.t.buf);
    sb_free(&b);
    const char *got = r->t.failed ? NULL : r->t.buf + start;
    if (got && (cstruct_reserved_word(got) || is_macro_shaped(got)))
        sb_puts(r, "_");
    return r->t.failed ? -1 : 0;
}

/* base, or base_2, base_3, ... whichever is not in set yet; adds it, its
 * offset in *at. 0, or -1 without memory. */
int cstruct_unique_name(struct nameset *set, const char *base, uint32_t *at)
{
    struct sbuf b = sb_new(set->alloc);
    sb_puts(&b, base);
    for (unsigned long k = 2; !b.t.failed && nameset_has(set, b.t.buf); k++) {
        b.t.len = 0;
        sb_printf(&b, "%s_%lu", base, k);
    }
    int rc = b.t.failed || nameset_add(set, b.t.buf, at) != 0 ? -1 : 0;
    sb_free(&b);
    return rc;
}

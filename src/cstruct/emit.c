/* npydt cstruct: writing one struct definition, its members' comments,
 * explicit padding, packing where needed and the assertions on its
 * layout. */
#include "cstruct/cstruct.h"
#include "base/base.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gen_fail(struct gen *g, npydt_status code, const char *path, const char *fmt, ...)
{
    if (!g->err)
        return;
    va_list ap;
    va_start(ap, fmt);
    set_errorv(g->err, code, NPYDT_NO_OFFSET, path, fmt, ap);
    va_end(ap);
}

int gen_fail_nomem(struct gen *g)
{
    gen_fail(g, NPYDT_E_NOMEM, NULL, "out of memory");
    return -1;
}

int gen_fail_body(struct gen *g)
{
    if (g->body.spill_failed && g->body.spill_errno != ENOMEM) {
        gen_fail(g, NPYDT_E_IO, NULL, "cannot write a temporary file: %s",
                 TEXT_ERRNO(g->body.spill_errno));
        return -1;
    }
    return gen_fail_nomem(g);
}


const char *gen_order_phrase(const struct gen *g, char order)
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
static void member_comment(struct gen *g, struct sbuf *b, const struct field *m)
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
        const char *bo = gen_order_phrase(g, npydt_dtype_byteorder(e));
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

/* The C array dimensions of f, outermost first: its subarrays' shapes,
 * then the scalar's innermost one (S, U, V, raw). */
static void put_dims(struct sbuf *b, const struct field *f)
{
    for (const npydt_dtype *d = f->dtype; npydt_dtype_get_class(d) == NPYDT_SUBARRAY;
         d = npydt_dtype_base(d)) {
        const uint64_t *shape = npydt_dtype_shape(d);
        for (size_t k = 0; k < npydt_dtype_ndim(d); k++)
            sb_printf(b, "[%llu]", (unsigned long long)shape[k]);
    }
    if (!f->tag && f->map.inner)
        sb_printf(b, "[%llu]", (unsigned long long)f->map.inner);
}

static void put_decl(struct sbuf *b, const struct field *f)
{
    if (f->tag)
        sb_printf(b, "    struct %s %s", f->tag, f->cname);
    else
        sb_printf(b, "    %s %s", f->map.ctype, f->cname);
    put_dims(b, f);
    sb_puts(b, ";");
}

/* ", shape (2, 3)" for a field below subarrays, as Python writes it (the
 * dimensions of nested subarrays in one tuple, outermost first); nothing
 * for one that is not. */
static void put_subarray_shape(struct sbuf *b, const npydt_dtype *top)
{
    size_t n = 0, levels = 0;
    const npydt_dtype *d;
    for (d = top; npydt_dtype_get_class(d) == NPYDT_SUBARRAY; d = npydt_dtype_base(d)) {
        n += npydt_dtype_ndim(d);
        levels++;
    }
    if (n == 0)
        return;
    sb_puts(b, ", shape ");
    if (levels == 1) {
        sb_put_shape(b, npydt_dtype_shape(top), n);
        return;
    }
    const npydt_allocator *a = b->t.ctx;
    uint64_t *dims = n <= SIZE_MAX / sizeof *dims ? alloc_bytes(a, n * sizeof *dims) : NULL;
    if (!dims) {
        b->t.failed = true;
        return;
    }
    size_t k = 0;
    for (d = top; npydt_dtype_get_class(d) == NPYDT_SUBARRAY; d = npydt_dtype_base(d)) {
        size_t nd = npydt_dtype_ndim(d);
        if (nd)
            memcpy(dims + k, npydt_dtype_shape(d), nd * sizeof *dims);
        k += nd;
    }
    sb_put_shape(b, dims, n);
    free_bytes(a, dims, n * sizeof *dims);
}

/* Field i before field j in the struct: by offset, a zero-size field
 * before one with bytes at the same offset, then in NumPy's order. */
static int member_before(const struct gen *g, const struct members *ms, size_t i, size_t j)
{
    struct field a, b;
    member_get(g, ms, i, &a);
    member_get(g, ms, j, &b);
    if (a.offset != b.offset)
        return a.offset < b.offset;
    if (a.zero != b.zero)
        return a.zero;
    return i < j;
}

static void sift_down(const struct gen *g, const struct members *ms, uint32_t *h, size_t at,
                      size_t n)
{
    for (;;) {
        size_t c = 2 * at + 1;
        if (c >= n)
            return;
        if (c + 1 < n && member_before(g, ms, h[c], h[c + 1]))
            c++;
        if (!member_before(g, ms, h[at], h[c]))
            return;
        uint32_t t = h[at];
        h[at] = h[c];
        h[c] = t;
        at = c;
    }
}

/* The fields of ms in the order the struct declares them: *order NULL
 * when that is NumPy's (the usual case, which needs no memory), else a
 * an array of ms->n indexes from g's allocator. 0, or -1 without memory. */
static int member_order(const struct gen *g, const struct members *ms, uint32_t **order)
{
    *order = NULL;
    size_t n = ms->n;
    size_t i = 1;
    while (i < n && member_before(g, ms, i - 1, i))
        i++;
    if (i >= n)
        return 0;
    if (n > UINT32_MAX || !(*order = alloc_bytes(g->alloc, n * sizeof **order)))
        return -1;
    uint32_t *h = *order;
    for (i = 0; i < n; i++)
        h[i] = (uint32_t)i;
    /* heapsort: in place, with the members as context */
    for (i = n / 2; i-- > 0;)
        sift_down(g, ms, h, i, n);
    for (i = n; i-- > 1;) {
        uint32_t t = h[0];
        h[0] = h[i];
        h[i] = t;
        sift_down(g, ms, h, 0, i);
    }
    return 0;
}

/* Writes struct `tag` for the prepared members ms of a record of
 * `itemsize` bytes; sets *align_out to the struct's C alignment. */
int gen_emit_struct(struct gen *g, uint32_t tag_at, const char *path, size_t path_len,
                    uint64_t itemsize, struct members *ms, size_t *align_out)
{
    uint32_t *order;
    if (member_order(g, ms, &order) != 0)
        return gen_fail_nomem(g);
    size_t n = ms->n;
#define SORTED(i) (order ? order[i] : (i))

    /* Natural C layout, given explicit padding for every gap: it matches
     * NumPy's exactly when every member sits at a multiple of its alignment
     * and the itemsize is a multiple of the largest alignment. */
    size_t align = 1;
    struct field s, misplaced;
    int has_misplaced = 0;
    uint64_t cursor = 0;
    for (size_t i = 0; i < n; i++) {
        member_get(g, ms, SORTED(i), &s);
        if (s.zero)
            continue;
        int overlaps = s.offset < cursor;
        if (overlaps || s.size > itemsize || s.offset > itemsize - s.size) {
            struct sbuf spath = sb_new(g->alloc);
            free_bytes(g->alloc, order, n * sizeof *order);
            if (gen_member_path(path, path_len, &s, &spath) != 0) {
                sb_free(&spath);
                return gen_fail_nomem(g);
            }
            if (overlaps)
                gen_fail(g, NPYDT_E_VALUE, spath.t.buf,
                         "overlaps the field before it (offset %llu < %llu); a C struct cannot "
                         "express overlapping fields",
                         (unsigned long long)s.offset, (unsigned long long)cursor);
            else
                gen_fail(g, NPYDT_E_VALUE, spath.t.buf, "field ends beyond the itemsize %llu",
                         (unsigned long long)itemsize);
            sb_free(&spath);
            return -1;
        }
        cursor = s.offset + s.size;
        if (s.align > align)
            align = s.align;
        if (!has_misplaced && s.offset % s.align != 0) {
            misplaced = s;
            has_misplaced = 1;
        }
    }
    int packed = has_misplaced || itemsize % align != 0;

    const char *tag = nameset_name(&g->tags, tag_at);
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
        if (has_misplaced)
            sb_printf(b, "; packed: %s (alignment %zu) is at offset %llu", misplaced.cname,
                      misplaced.align, (unsigned long long)misplaced.offset);
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
        if (i < n)
            member_get(g, ms, SORTED(i), &s);
        /* a zero-size field inside the member before it needs no padding */
        uint64_t next = i < n ? s.offset : itemsize;
        if (next < cursor)
            next = cursor;
        if (next > cursor) {
            do
                snprintf(padname, sizeof padname, "_pad%lu", padno++);
            while (nameset_has(&ms->names, padname));
            sb_printf(b, "    uint8_t %s[%llu]; /* padding, bytes %llu..%llu */\n", padname,
                      (unsigned long long)(next - cursor), (unsigned long long)cursor,
                      (unsigned long long)(next - 1));
            cursor = next;
        }
        if (i == n)
            break;
        if (s.zero) {
            g->zero++;
            sb_puts(b, "    /* ");
            if (s.name)
                put_quoted_n(b, s.name, s.name_len, 4096);
            else
                sb_puts(b, s.cname);
            char str[64] = "struct";
            if (npydt_dtype_get_class(s.elem) != NPYDT_STRUCT)
                npydt_dtype_str(s.elem, str, sizeof str);
            sb_printf(b, " (%s", str);
            put_subarray_shape(b, s.dtype);
            sb_printf(b, " at offset %llu) has no bytes: no member, ISO C has no "
                         "zero-length arrays or empty structs */\n",
                      (unsigned long long)s.offset);
            continue;
        }
        put_decl(b, &s);
        member_comment(g, b, &s);
        cursor = s.offset + s.size;
    }
#undef SORTED
    free_bytes(g->alloc, order, n * sizeof *order);
    sb_puts(b, "};\n");
    if (packed)
        sb_puts(b, "#pragma pack(pop)\n");
    sb_printf(b, "static_assert(sizeof(struct %s) == %llu, \"struct %s: NumPy itemsize %llu\");\n",
              tag, (unsigned long long)itemsize, tag, (unsigned long long)itemsize);
    for (size_t i = 0; i < n; i++) {
        member_get(g, ms, i, &s);
        if (s.zero)
            continue;
        sb_printf(b, "static_assert(offsetof(struct %s, %s) == %llu, \"%s.%s: NumPy offset %llu\");\n",
                  tag, s.cname, (unsigned long long)s.offset, tag, s.cname,
                  (unsigned long long)s.offset);
    }
    sb_puts(b, "\n");
    *align_out = packed ? 1 : align;
    if (b->t.failed)
        return gen_fail_body(g);
    return 0;
}

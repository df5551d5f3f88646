/* npydt cstruct: the generator. Walks a dtype through the public API only
 * and writes C11 declarations whose layout is NumPy's, byte for byte:
 * explicit padding members for every gap, packing only where the natural C
 * layout cannot reproduce the offsets, and static assertions that prove it
 * when the output is compiled. */
#include "cstruct/cstruct.h"
#include "base/base.h"
#include "text/text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nesting deeper than this is refused (the parser's own limit is lower). */
#define MAX_NESTING 512
/* The dtype quoted in the leading comment is cut after this many bytes. */
#define DESCR_QUOTE_MAX 240

static int build_struct(struct gen *g, const npydt_dtype *dt, uint32_t tag, const char *path,
                        size_t path_len, unsigned depth, size_t *align_out);

/* True when a field of dtype d has no bytes (a zero dimension, a
 * zero-size element); *elem gets its innermost non-subarray node. */
static int field_is_zero(const npydt_dtype *d, const npydt_dtype **elem)
{
    int zero = npydt_dtype_itemsize(d) == 0;
    for (; npydt_dtype_get_class(d) == NPYDT_SUBARRAY; d = npydt_dtype_base(d)) {
        const uint64_t *shape = npydt_dtype_shape(d);
        for (size_t k = 0; k < npydt_dtype_ndim(d); k++)
            if (shape[k] == 0)
                zero = 1;
    }
    *elem = d;
    return zero || npydt_dtype_itemsize(d) == 0;
}

void member_get(const struct gen *g, const struct members *ms, size_t i, struct field *f)
{
    memset(f, 0, sizeof *f);
    if (ms->dt) {
        f->name = npydt_dtype_field_name(ms->dt, i);
        f->name_len = npydt_dtype_field_name_len(ms->dt, i);
        f->title = npydt_dtype_field_title(ms->dt, i);
        f->title_len = npydt_dtype_field_title_len(ms->dt, i);
        f->offset = npydt_dtype_field_offset(ms->dt, i);
        f->dtype = npydt_dtype_field_dtype(ms->dt, i);
    } else {
        f->dtype = ms->value;
    }
    f->cname = nameset_name(&ms->names, ms->cname[i]);
    f->size = npydt_dtype_itemsize(f->dtype);
    f->zero = field_is_zero(f->dtype, &f->elem);
    if (npydt_dtype_get_class(f->elem) == NPYDT_STRUCT) {
        /* prepared unless it has no bytes */
        size_t lo = 0, hi = ms->nnested;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (ms->nested[mid].field < i)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < ms->nnested && ms->nested[lo].field == i) {
            f->tag = nameset_name(&g->tags, ms->nested[lo].tag);
            f->align = ms->nested[lo].align;
        }
    } else {
        cstruct_map_scalar(f->elem, &f->map);
        f->align = f->map.calign;
    }
}

/* Builds the struct of field i when it is one (emitted now, so it
 * precedes its user), and counts what the leading comment reports. */
static int prepare_member(struct gen *g, struct members *ms, size_t i, uint32_t parent_tag,
                          const char *parent_path, size_t parent_len, unsigned depth)
{
    struct field f;
    member_get(g, ms, i, &f);
    if (f.zero)
        return 0;
    const npydt_dtype *e = f.elem;
    if (npydt_dtype_get_class(e) == NPYDT_STRUCT) {
        struct sbuf t = sb_new(g->alloc);
        sb_printf(&t, "%s_%s", nameset_name(&g->tags, parent_tag), f.cname);
        if (!t.t.failed && cstruct_reserved_word(t.t.buf))
            sb_puts(&t, "_");
        if (ms->nnested == ms->nested_cap) {
            size_t cap = ms->nested_cap ? ms->nested_cap * 2 : 4;
            struct nested_member *nm =
                cap < ms->nested_cap || cap > SIZE_MAX / sizeof *nm
                    ? NULL
                    : realloc_bytes(g->alloc, ms->nested, ms->nested_cap * sizeof *nm, cap * sizeof *nm);
            if (!nm)
                t.t.failed = true;
            else
                ms->nested = nm, ms->nested_cap = cap;
        }
        uint32_t tag = 0;
        int rc = t.t.failed ? -1 : cstruct_unique_name(&g->tags, t.t.buf, &tag);
        sb_free(&t);
        struct sbuf path = sb_new(g->alloc);
        if (rc != 0 || gen_member_path(parent_path, parent_len, &f, &path) != 0) {
            sb_free(&path);
            return gen_fail_nomem(g);
        }
        size_t align = 1;
        rc = build_struct(g, e, tag, path.t.buf, path.t.len, depth + 1, &align);
        ms->nested[ms->nnested++] = (struct nested_member){(uint32_t)i, tag, (uint32_t)align};
        sb_free(&path);
        return rc;
    }
    if (npydt_dtype_kind(e) == 'c' && !f.map.ext80)
        g->uses_complex = 1;
    if (gen_order_phrase(g, npydt_dtype_byteorder(e)) &&
        (npydt_dtype_byteorder(e) == '<') != (g->host_little != 0))
        g->nonnative++;
    return 0;
}

int gen_member_path(const char *parent, size_t plen, const struct field *f, struct sbuf *out)
{
    sb_putn(out, parent, plen);
    if (plen && f->name)
        sb_putn(out, ".", 1);
    if (f->name)
        sb_putn(out, f->name, f->name_len);
    sb_putn(out, "", 0);   /* t.buf is never NULL */
    return out->t.failed ? -1 : 0;
}

static int build_struct(struct gen *g, const npydt_dtype *dt, uint32_t tag, const char *path,
                        size_t path_len, unsigned depth, size_t *align_out)
{
    if (depth > MAX_NESTING) {
        gen_fail(g, NPYDT_E_LIMIT, path, "structs nested deeper than %d levels", MAX_NESTING);
        return -1;
    }
    struct members ms = {0};
    ms.names.alloc = g->alloc;
    ms.dt = dt;
    ms.n = npydt_dtype_nfields(dt);
    /* every field is at least 2 bytes of header text, so the counts fit */
    size_t cname_size = (ms.n ? ms.n : 1) * sizeof *ms.cname;
    ms.cname = ms.n <= UINT32_MAX ? alloc_bytes(g->alloc, cname_size) : NULL;
    int rc = -1;
    if (!ms.cname || nameset_reserve(&ms.names, ms.n) != 0) {
        free_bytes(g->alloc, ms.cname, cname_size);
        nameset_free(&ms.names);
        gen_fail_nomem(g);
        return -1;
    }
    for (size_t i = 0; i < ms.n; i++) {
        struct sbuf base = sb_new(g->alloc);
        int added = cstruct_sanitize(npydt_dtype_field_name(dt, i),
                                     npydt_dtype_field_name_len(dt, i), &base) == 0
                        ? cstruct_unique_name(&ms.names, base.t.buf, &ms.cname[i])
                        : -1;
        sb_free(&base);
        if (added != 0) {
            gen_fail_nomem(g);
            goto out;
        }
    }
    for (size_t i = 0; i < ms.n; i++)
        if (prepare_member(g, &ms, i, tag, path, path_len, depth) != 0)
            goto out;
    rc = gen_emit_struct(g, tag, path, path_len, npydt_dtype_itemsize(dt), &ms, align_out);
out:
    free_bytes(g->alloc, ms.cname, cname_size);
    free_bytes(g->alloc, ms.nested, ms.nested_cap * sizeof *ms.nested);
    nameset_free(&ms.names);
    return rc;
}

/* Path of the first object leaf in buf (cut to its size), or "". */
static const char *object_path(const npydt_dtype *dt, char *buf, size_t size)
{
    size_t n;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &n);
    buf[0] = '\0';
    for (size_t i = 0; leaves && i < n; i++)
        if (leaves[i].kind == 'O') {
            npydt_dtype_leaf_path(dt, i, buf, size);
            break;
        }
    return buf;
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

int cstruct_generate(const npydt_dtype *dt, const char *name, const cstruct_source *src,
                     const npydt_allocator *alloc, cstruct_text *text, npydt_error *err)
{
    struct gen g = {0};
    memset(text, 0, sizeof *text);
    text->head = text->body = sb_new(alloc);
    text->tags.alloc = alloc;
    g.alloc = alloc;
    g.body = sb_new(alloc);
    g.tags.alloc = alloc;
    g.err = err;
    g.root = name;
    g.host_little = !TEXT_HOST_BIG;
    if (npydt_dtype_has_object(dt)) {
        char path[sizeof g.err->path];
        gen_fail(&g, NPYDT_E_OBJECT, object_path(dt, path, sizeof path),
             "object ('O') fields hold pickled Python objects and have no C layout");
        return -1;
    }
    g.body.spills = 1;
    uint64_t itemsize = npydt_dtype_itemsize(dt);
    int rc = 0;
    size_t align = 1;
    if (nameset_add(&g.tags, name, NULL) != 0) {
        rc = gen_fail_nomem(&g);
    } else if (itemsize == 0) {
        sb_printf(&g.body,
                  "/* The records have no bytes (itemsize 0): there is no struct %s, ISO C has\n"
                  " * no empty structs. */\n\n",
                  name);
    } else if (npydt_dtype_get_class(dt) == NPYDT_STRUCT) {
        rc = build_struct(&g, dt, 0, "", 0, 0, &align);
    } else {
        /* A plain or subarray dtype: one member named "value". */
        uint32_t cname = 0;
        struct members ms = {0};
        ms.names.alloc = g.alloc;
        ms.value = dt;
        ms.n = 1;
        ms.cname = &cname;
        rc = nameset_add(&ms.names, "value", &cname) == 0 ? 0 : gen_fail_nomem(&g);
        if (rc == 0)
            rc = prepare_member(&g, &ms, 0, 0, "", 0, 0);
        if (rc == 0)
            rc = gen_emit_struct(&g, 0, "", 0, itemsize, &ms, &align);
        free_bytes(g.alloc, ms.nested, ms.nested_cap * sizeof *ms.nested);
        nameset_free(&ms.names);
    }
    if (rc == 0) {
        sb_puts(&g.body, "#endif /* ");
        put_upper(&g.body, name);
        sb_puts(&g.body, "_H */\n");
        if (g.body.t.failed)
            rc = gen_fail_body(&g);
    }
    if (rc != 0) {
        sb_free(&g.body);
        nameset_free(&g.tags);
        return -1;
    }

    struct sbuf out = sb_new(g.alloc);
    sb_printf(&out, "/* struct %s: C11 declarations for the records of ", name);
    if (src->header)
        put_quoted(&out, src->label, 1024);
    else
        sb_puts(&out, "a descriptor");
    sb_printf(&out, ",\n * generated by npydt %s cstruct.\n", npydt_version());
    size_t need = npydt_dtype_descr(dt, NULL, 0);
    char *descr = need < SIZE_MAX ? alloc_bytes(g.alloc, need + 1) : NULL;
    if (descr) {
        npydt_dtype_descr(dt, descr, need + 1);
        sb_puts(&out, " * dtype ");
        put_quoted(&out, descr, DESCR_QUOTE_MAX);
        sb_puts(&out, "\n");
        free_bytes(g.alloc, descr, need + 1);
    } else {
        out.t.failed = true;   /* never a header without its dtype line */
    }
    sb_printf(&out, " * itemsize %llu bytes", (unsigned long long)itemsize);
    if (src->header) {
        const npydt_header *h = src->header;
        sb_puts(&out, "; array shape ");
        sb_put_shape(&out, npydt_header_shape(h), npydt_header_ndim(h));
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
                  " * Every offset and the size are checked by the static_asserts below.\n",
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
    /* static_assert is a keyword of C++ and a macro of C11's <assert.h>,
     * so the same text compiles as C11 and as C++11 */
    sb_puts(&out, "_H\n\n#include <assert.h>\n#include <stddef.h>\n#include <stdint.h>\n");
    if (g.uses_complex)
        sb_puts(&out, "\n/* complex: C's _Complex; std::complex, whose layout is the same, in C++ */\n"
                      "#ifndef NPYDT_CSTRUCT_COMPLEX\n"
                      "#define NPYDT_CSTRUCT_COMPLEX\n"
                      "#if defined(__cplusplus)\n"
                      "#include <complex>\n"
                      "typedef std::complex<float> npydt_cfloat_t;\n"
                      "typedef std::complex<double> npydt_cdouble_t;\n"
                      "#else\n"
                      "typedef float _Complex npydt_cfloat_t;\n"
                      "typedef double _Complex npydt_cdouble_t;\n"
                      "#endif\n"
                      "#endif\n");
    sb_puts(&out, "\n#define ");
    put_upper(&out, name);
    sb_printf(&out, "_ITEMSIZE %llu\n\n", (unsigned long long)itemsize);
    if (out.t.failed) {
        sb_free(&out);
        sb_free(&g.body);
        nameset_free(&g.tags);
        return gen_fail_nomem(&g);
    }
    text->head = out;
    text->body = g.body;
    text->tags = g.tags;
    return 0;
}

int cstruct_text_put(cstruct_text *t, void (*put)(void *ctx, const char *s, size_t n), void *ctx,
                     npydt_error *err)
{
    if (sb_drain(&t->head, put, ctx) != 0 || sb_drain(&t->body, put, ctx) != 0) {
        struct gen g = {0};
        g.err = err;
        gen_fail(&g, NPYDT_E_IO, NULL, "cannot read a temporary file: %s", TEXT_ERRNO(errno));
        return -1;
    }
    return 0;
}

void cstruct_text_free(cstruct_text *t)
{
    sb_free(&t->head);
    sb_free(&t->body);
    nameset_free(&t->tags);
}

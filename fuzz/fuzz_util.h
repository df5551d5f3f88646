/* Shared by the libFuzzer harnesses: oracle checks that abort on failure
 * (kept on in every build), error-value checks, a counting allocator, and
 * the dtype oracles (canonical print round trip, leaf table recomputed
 * from the public accessors, header write round trip).
 *
 * Only the public header is used, so the harnesses test what callers see.
 * Everything here is static: each harness is one translation unit plus the
 * library (libFuzzer's main, or fuzz/replay_main.c). */
#ifndef NPYDT_FUZZ_UTIL_H
#define NPYDT_FUZZ_UTIL_H

#include "npydt.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The highest npydt_status value; raise it when codes are added. */
#define FUZZ_MAX_STATUS NPYDT_E_ARCHIVE

static inline void fuzz_fail(const char *what, const char *file, int line)
{
    fprintf(stderr, "%s:%d: oracle failed: %s\n", file, line, what);
    abort();
}

#define FUZZ_CHECK(cond)                                                                     \
    do {                                                                                     \
        if (!(cond))                                                                         \
            fuzz_fail(#cond, __FILE__, __LINE__);                                            \
    } while (0)

/* Fill an error struct with garbage so that a field the library forgot to
 * set is noticed. */
static inline void fuzz_poison_error(npydt_error *err)
{
    memset(err, 0xA5, sizeof *err);
}

/* A failed call filled err consistently: same code, a message, NUL
 * terminated strings, an offset inside the input (or none). */
static inline void fuzz_check_error(npydt_status st, const npydt_error *err, size_t max_offset)
{
    FUZZ_CHECK(st > NPYDT_OK && st <= FUZZ_MAX_STATUS);
    FUZZ_CHECK(err->code == st);
    FUZZ_CHECK(memchr(err->message, '\0', sizeof err->message) != NULL);
    FUZZ_CHECK(err->message[0] != '\0');
    FUZZ_CHECK(memchr(err->path, '\0', sizeof err->path) != NULL);
    FUZZ_CHECK(err->offset == NPYDT_NO_OFFSET || err->offset <= max_offset);
    FUZZ_CHECK(strcmp(npydt_status_name(st), "unknown error") != 0);
}

/* Print what a failed reparse said, then abort. */
static inline void fuzz_fail_status(const char *what, npydt_status st, const npydt_error *err,
                                    const char *text, size_t len)
{
    fprintf(stderr, "%s: %s at offset %zu: %s\n  text: %.*s\n", what, npydt_status_name(st),
            err->offset, err->message, (int)(len > 2000 ? 2000 : len), text);
    abort();
}

/* ---- counting allocator ---------------------------------------------------- */

/* Fails allocation number fail_at (counting from 0) once, or every one
 * from there on, and counts live blocks and bytes (sizes are checked
 * against what the library passes back). */
struct fuzz_alloc {
    npydt_allocator alloc;
    long calls;
    long fail_at;        /* -1: never */
    int fail_forever;
    long live_blocks;
    size_t live_bytes;
    size_t peak_bytes;
    size_t total_bytes;  /* sum of all sizes obtained */
    size_t max_block;    /* largest single request */
};

static inline int fuzz_alloc_should_fail(struct fuzz_alloc *t)
{
    long n = t->calls++;
    if (t->fail_at < 0)
        return 0;
    return t->fail_forever ? n >= t->fail_at : n == t->fail_at;
}

static inline void fuzz_alloc_note(struct fuzz_alloc *t, size_t size)
{
    t->total_bytes += size;
    if (size > t->max_block)
        t->max_block = size;
    if (t->live_bytes > t->peak_bytes)
        t->peak_bytes = t->live_bytes;
}

/* Each block carries its size in front, so a wrong size in free or
 * realloc is caught. */
static inline void *fuzz_malloc(void *ctx, size_t size)
{
    struct fuzz_alloc *t = ctx;
    FUZZ_CHECK(size > 0);
    if (fuzz_alloc_should_fail(t) || size > SIZE_MAX - 16)
        return NULL;
    size_t *blk = malloc(size + 16);
    if (!blk)
        return NULL;
    blk[0] = size;
    t->live_blocks++;
    t->live_bytes += size;
    fuzz_alloc_note(t, size);
    return (char *)blk + 16;
}

static inline void *fuzz_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    struct fuzz_alloc *t = ctx;
    FUZZ_CHECK(new_size > 0);
    if (!ptr) {
        FUZZ_CHECK(old_size == 0);
        return fuzz_malloc(ctx, new_size);
    }
    size_t *blk = (size_t *)(void *)((char *)ptr - 16);
    FUZZ_CHECK(blk[0] == old_size);
    if (fuzz_alloc_should_fail(t) || new_size > SIZE_MAX - 16)
        return NULL;
    size_t *nb = realloc(blk, new_size + 16);
    if (!nb)
        return NULL;
    nb[0] = new_size;
    t->live_bytes = t->live_bytes - old_size + new_size;
    fuzz_alloc_note(t, new_size);
    return (char *)nb + 16;
}

static inline void fuzz_free(void *ctx, void *ptr, size_t size)
{
    struct fuzz_alloc *t = ctx;
    if (!ptr)
        return;
    size_t *blk = (size_t *)(void *)((char *)ptr - 16);
    FUZZ_CHECK(blk[0] == size);
    FUZZ_CHECK(t->live_blocks > 0 && t->live_bytes >= size);
    t->live_blocks--;
    t->live_bytes -= size;
    free(blk);
}

static inline void fuzz_alloc_init(struct fuzz_alloc *t, long fail_at, int fail_forever)
{
    memset(t, 0, sizeof *t);
    t->alloc.malloc = fuzz_malloc;
    t->alloc.realloc = fuzz_realloc;
    t->alloc.free = fuzz_free;
    t->alloc.ctx = t;
    t->fail_at = fail_at;
    t->fail_forever = fail_forever;
}

/* ---- dtype oracles ------------------------------------------------------------ */

/* Checked arithmetic for the oracles themselves. */
static inline uint64_t fuzz_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    FUZZ_CHECK(!__builtin_mul_overflow(a, b, &r));
    return r;
}

static inline uint64_t fuzz_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    FUZZ_CHECK(!__builtin_add_overflow(a, b, &r));
    return r;
}

/* One leaf as the public accessors describe it, computed without the
 * library's leaf table. */
struct fuzz_leaf {
    char *path;                 /* plen bytes (a name may hold a NUL), terminated */
    size_t plen;
    const npydt_dtype *dtype;
    uint64_t offset;
    uint64_t count;
};

struct fuzz_leaves {
    struct fuzz_leaf *v;
    size_t n, cap;
};

static inline void fuzz_leaves_add(struct fuzz_leaves *ls, const char *path, size_t len,
                                   const npydt_dtype *dt, uint64_t offset, uint64_t count)
{
    if (ls->n == ls->cap) {
        ls->cap = ls->cap ? 2 * ls->cap : 16;
        ls->v = realloc(ls->v, ls->cap * sizeof *ls->v);
        FUZZ_CHECK(ls->v != NULL);
    }
    char *p = malloc(len + 1);
    FUZZ_CHECK(p != NULL);
    memcpy(p, path, len + 1);
    ls->v[ls->n++] = (struct fuzz_leaf){p, len, dt, offset, count};
}

/* Pre-order walk: structs name their fields, subarrays multiply counts.
 * Also checks the node invariants every accessor promises. */
static inline void fuzz_walk(struct fuzz_leaves *ls, const npydt_dtype *dt, const char *path,
                             size_t plen, uint64_t offset, uint64_t count, unsigned depth)
{
    FUZZ_CHECK(depth <= NPYDT_DEPTH_CEILING + 8);
    uint64_t isz = npydt_dtype_itemsize(dt);
    FUZZ_CHECK(isz <= (uint64_t)INT32_MAX);
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR: {
        char k = npydt_dtype_kind(dt);
        FUZZ_CHECK(k && strchr("biufcSUVOMm", k) != NULL);
        char bo = npydt_dtype_byteorder(dt);
        FUZZ_CHECK(bo == '<' || bo == '>' || bo == '|');
        FUZZ_CHECK(npydt_dtype_nfields(dt) == 0 && npydt_dtype_ndim(dt) == 0);
        FUZZ_CHECK(npydt_dtype_base(dt) == NULL && npydt_dtype_shape(dt) == NULL);
        if (k == 'M' || k == 'm') {
            FUZZ_CHECK(npydt_dtype_unit(dt) != NPYDT_UNIT_NONE && isz == 8);
        } else {
            FUZZ_CHECK(npydt_dtype_unit(dt) == NPYDT_UNIT_NONE);
            FUZZ_CHECK(npydt_dtype_unit_count(dt) == 0);
        }
        if (k == 'U')
            FUZZ_CHECK(isz % 4 == 0);
        FUZZ_CHECK(npydt_dtype_has_object(dt) == (k == 'O'));
        fuzz_leaves_add(ls, path, plen, dt, offset, count);
        return;
    }
    case NPYDT_SUBARRAY: {
        const npydt_dtype *base = npydt_dtype_base(dt);
        FUZZ_CHECK(base != NULL);
        size_t nd = npydt_dtype_ndim(dt);
        const uint64_t *shape = npydt_dtype_shape(dt);
        FUZZ_CHECK(nd > 0 && shape != NULL);
        FUZZ_CHECK(npydt_dtype_kind(dt) == 'V' && npydt_dtype_nfields(dt) == 0);
        uint64_t items = 1;
        for (size_t i = 0; i < nd; i++)
            items = fuzz_mul(items, shape[i]);
        /* an empty subarray may carry a size of its own, (('<i4', (0,)), 2) */
        uint64_t bytes = fuzz_mul(items, npydt_dtype_itemsize(base));
        FUZZ_CHECK(bytes == isz || bytes == 0);
        FUZZ_CHECK(npydt_dtype_has_object(dt) == npydt_dtype_has_object(base));
        fuzz_walk(ls, base, path, plen, offset, fuzz_mul(count, items), depth + 1);
        return;
    }
    case NPYDT_STRUCT: {
        size_t nf = npydt_dtype_nfields(dt);
        FUZZ_CHECK(npydt_dtype_kind(dt) == 'V' && npydt_dtype_ndim(dt) == 0);
        FUZZ_CHECK(npydt_dtype_base(dt) == NULL);
        FUZZ_CHECK(npydt_dtype_field_name(dt, nf) == NULL);
        FUZZ_CHECK(npydt_dtype_field_dtype(dt, nf) == NULL);
        int obj = 0;
        for (size_t i = 0; i < nf; i++) {
            const char *name = npydt_dtype_field_name(dt, i);
            const npydt_dtype *f = npydt_dtype_field_dtype(dt, i);
            uint64_t off = npydt_dtype_field_offset(dt, i);
            FUZZ_CHECK(name != NULL && f != NULL);
            /* a field lies inside its struct */
            FUZZ_CHECK(fuzz_add(off, npydt_dtype_itemsize(f)) <= isz);
            const char *title = npydt_dtype_field_title(dt, i);
            /* names and titles are their lengths' bytes, then a terminator */
            size_t nlen = npydt_dtype_field_name_len(dt, i);
            size_t tlen = npydt_dtype_field_title_len(dt, i);
            FUZZ_CHECK(name[nlen] == '\0' && strlen(name) <= nlen);
            FUZZ_CHECK(title ? title[tlen] == '\0' && strlen(title) <= tlen : tlen == 0);
            FUZZ_CHECK(!title || tlen != nlen || memcmp(title, name, nlen) != 0);
            obj |= npydt_dtype_has_object(f);
            char *sub = malloc(plen + nlen + 2);
            FUZZ_CHECK(sub != NULL);
            memcpy(sub, path, plen);
            size_t at = plen;
            if (plen)
                sub[at++] = '.';
            memcpy(sub + at, name, nlen + 1);
            fuzz_walk(ls, f, sub, at + nlen, fuzz_add(offset, off), count, depth + 1);
            free(sub);
        }
        FUZZ_CHECK(npydt_dtype_has_object(dt) == obj);
        return;
    }
    }
    FUZZ_CHECK(!"unknown dtype class");
}

/* The leaf table agrees with the tree, and every element of every leaf
 * lies inside the root's itemsize. */
static inline void fuzz_check_leaves(const npydt_dtype *root)
{
    struct fuzz_leaves ls = {NULL, 0, 0};
    fuzz_walk(&ls, root, "", 0, 0, 1, 0);
    size_t n;
    const npydt_leaf *lv = npydt_dtype_leaves(root, &n);
    FUZZ_CHECK(n == ls.n);
    FUZZ_CHECK(n == 0 || lv != NULL);
    uint64_t isz = npydt_dtype_itemsize(root);
    for (size_t i = 0; i < n; i++) {
        const npydt_leaf *l = &lv[i];
        FUZZ_CHECK(l->dtype != NULL);
        /* the path whole, and cut short as snprintf cuts */
        char *path = malloc(ls.v[i].plen + 1);
        FUZZ_CHECK(path != NULL);
        FUZZ_CHECK(npydt_dtype_leaf_path(root, i, path, ls.v[i].plen + 1) == ls.v[i].plen);
        FUZZ_CHECK(memcmp(path, ls.v[i].path, ls.v[i].plen + 1) == 0);
        if (ls.v[i].plen) {
            FUZZ_CHECK(npydt_dtype_leaf_path(root, i, path, ls.v[i].plen) == ls.v[i].plen);
            FUZZ_CHECK(path[ls.v[i].plen - 1] == '\0' &&
                       memcmp(path, ls.v[i].path, ls.v[i].plen - 1) == 0);
        }
        free(path);
        FUZZ_CHECK(l->dtype == ls.v[i].dtype);
        FUZZ_CHECK(l->offset == ls.v[i].offset);
        FUZZ_CHECK(l->count == ls.v[i].count);
        FUZZ_CHECK(l->itemsize == npydt_dtype_itemsize(l->dtype));
        FUZZ_CHECK(l->kind == npydt_dtype_kind(l->dtype));
        FUZZ_CHECK(l->byteorder == npydt_dtype_byteorder(l->dtype));
        FUZZ_CHECK((l->nrepeats == 0) == (l->repeats == NULL));
        uint64_t count = 1, span = 0;
        int empty = 0;
        for (uint32_t k = 0; k < l->nrepeats; k++) {
            const npydt_repeat *r = &l->repeats[k];
            count = fuzz_mul(count, r->count);
            if (r->count == 0)
                empty = 1;
            else
                span = fuzz_add(span, fuzz_mul(r->count - 1, r->stride));
        }
        /* the elements of a non-empty leaf do not overlap */
        for (uint32_t k = 0; k < l->nrepeats && !empty; k++)
            FUZZ_CHECK(l->repeats[k].stride >= l->itemsize || l->repeats[k].count <= 1);
        FUZZ_CHECK(count == l->count);
        /* an empty leaf (inside a zero-length subarray) has no bytes, and
         * its offset may point past the record: only the others are bounded */
        if (!empty)
            FUZZ_CHECK(fuzz_add(fuzz_add(l->offset, span), l->itemsize) <= isz);
        free(ls.v[i].path);
    }
    for (size_t i = n; i < ls.n; i++)
        free(ls.v[i].path);
    free(ls.v);
}

/* True when some leaf is a generic datetime with a multiplier other than 1
 * ('M8[2generic]'): NumPy keeps that multiplier (np.datetime_data) but
 * prints plain '<M8', so no text form carries it. */
static inline bool fuzz_has_generic_multiplier(const npydt_dtype *dt)
{
    if (npydt_dtype_unit(dt) == NPYDT_UNIT_GENERIC && npydt_dtype_unit_count(dt) != 1)
        return true;
    size_t n;   /* a root's leaves; none for a nested dtype */
    const npydt_leaf *lv = npydt_dtype_leaves(dt, &n);
    for (size_t i = 0; i < n; i++)
        if (npydt_dtype_unit(lv[i].dtype) == NPYDT_UNIT_GENERIC &&
            npydt_dtype_unit_count(lv[i].dtype) != 1)
            return true;
    return false;
}

static inline char *fuzz_descr_text(const npydt_dtype *dt, size_t *len);

/* again was parsed from orig's printed text: equal dtypes, or, where orig
 * holds a generic multiplier the text dropped, the same text. */
static inline bool fuzz_same_after_text(const npydt_dtype *orig, const npydt_dtype *again)
{
    if (!fuzz_has_generic_multiplier(orig))
        return npydt_dtype_equal(orig, again) && npydt_dtype_equal(again, orig);
    if (fuzz_has_generic_multiplier(again))
        return false;
    size_t la, lb;
    char *a = fuzz_descr_text(orig, &la), *b = fuzz_descr_text(again, &lb);
    bool same = la == lb && memcmp(a, b, la) == 0;
    free(a);
    free(b);
    return same;
}

/* npydt_dtype_descr into a fresh buffer; also checks that a short buffer
 * gets a NUL-terminated prefix and the same length. */
static inline char *fuzz_descr_text(const npydt_dtype *dt, size_t *len)
{
    size_t need = npydt_dtype_descr(dt, NULL, 0);
    char *buf = malloc(need + 1);
    FUZZ_CHECK(buf != NULL);
    FUZZ_CHECK(npydt_dtype_descr(dt, buf, need + 1) == need);
    FUZZ_CHECK(strlen(buf) == need);
    size_t half = need / 2 + 1;
    char *part = malloc(half);
    FUZZ_CHECK(part != NULL);
    FUZZ_CHECK(npydt_dtype_descr(dt, part, half) == need);
    FUZZ_CHECK(strlen(part) == half - 1 && memcmp(part, buf, half - 1) == 0);
    free(part);
    *len = need;
    return buf;
}

static inline void fuzz_reparse_options(npydt_options *o)
{
    npydt_options_init(o);
    o->limits.max_depth = NPYDT_DEPTH_CEILING;
}

/* Canonical print -> parse gives an equal dtype (short of a generic datetime
 * multiplier, which NumPy's text drops too), which prints the same. */
static inline void fuzz_check_canonical(const npydt_dtype *dt)
{
    size_t len;
    char *text = fuzz_descr_text(dt, &len);
    npydt_options o;
    fuzz_reparse_options(&o);
    npydt_dtype *again = NULL;
    npydt_error err;
    npydt_status st = npydt_header_parse_descr(text, len, &o, &again, &err);
    if (st != NPYDT_OK)
        fuzz_fail_status("canonical descr does not parse", st, &err, text, len);
    FUZZ_CHECK(fuzz_same_after_text(dt, again));
    size_t len2;
    char *text2 = fuzz_descr_text(again, &len2);
    FUZZ_CHECK(len2 == len && memcmp(text, text2, len) == 0);
    free(text2);
    npydt_dtype_free(again);
    free(text);
}

/* dtype.str of every leaf parses back (as a type string and as a quoted
 * literal) to an equal scalar. */
static inline void fuzz_check_leaf_typestrs(const npydt_dtype *root)
{
    size_t n;
    const npydt_leaf *lv = npydt_dtype_leaves(root, &n);
    const npydt_dtype *prev = NULL;
    for (size_t i = 0; i < n; i++) {
        if (lv[i].dtype == prev)
            continue;
        prev = lv[i].dtype;
        char s[64];
        size_t len = npydt_dtype_str(lv[i].dtype, s + 1, sizeof s - 2);
        FUZZ_CHECK(len > 0 && len < sizeof s - 2);
        npydt_dtype *dt = NULL;
        npydt_error err;
        npydt_status st = npydt_dtype_parse_typestr(s + 1, len, NULL, &dt, &err);
        if (st != NPYDT_OK)
            fuzz_fail_status("leaf dtype.str does not parse", st, &err, s + 1, len);
        FUZZ_CHECK(fuzz_same_after_text(lv[i].dtype, dt));
        npydt_dtype_free(dt);
        s[0] = '\'';
        s[len + 1] = '\'';
        st = npydt_header_parse_descr(s, len + 2, NULL, &dt, &err);
        if (st != NPYDT_OK)
            fuzz_fail_status("quoted leaf dtype.str does not parse", st, &err, s, len + 2);
        FUZZ_CHECK(fuzz_same_after_text(lv[i].dtype, dt));
        npydt_dtype_free(dt);
    }
}

/* npydt_header_write output parses back to the same dtype, shape and
 * order with the default limits, with consistent sizes, and writing that
 * again gives the same bytes. A header past max_header_bytes is refused
 * with NPYDT_E_LIMIT, and only when the descriptor's text alone nearly
 * fills it (a header of 1.7 MB parses, np.save's text of its dtype can be
 * ten times longer). */
static inline void fuzz_check_header_write(const npydt_dtype *dt, const uint64_t *shape,
                                           size_t ndim, int fortran)
{
    npydt_error err;
    fuzz_poison_error(&err);
    size_t need = npydt_header_write(dt, shape, ndim, fortran, NULL, 0, &err);
    if (need == 0) {
        fuzz_check_error(err.code, &err, 0);
        FUZZ_CHECK(err.code == NPYDT_E_LIMIT);
        npydt_options defaults;
        npydt_options_init(&defaults);
        /* the dict around the descriptor: its keys, False, the shape
         * (up to 22 bytes a dimension), 21 digits of room, padding */
        uint64_t around = 128 + 22 * (uint64_t)ndim;
        FUZZ_CHECK(npydt_dtype_descr(dt, NULL, 0) + around > defaults.limits.max_header_bytes);
        return;
    }
    FUZZ_CHECK(need % 64 == 0 && need >= 64);
    unsigned char *buf = malloc(need);
    FUZZ_CHECK(buf != NULL);
    FUZZ_CHECK(npydt_header_write(dt, shape, ndim, fortran, buf, need, &err) == need);
    FUZZ_CHECK(buf[need - 1] == '\n');
    npydt_options o;
    fuzz_reparse_options(&o);
    npydt_header *h = NULL;
    npydt_status st = npydt_header_parse(buf, need, &o, &h, &err);
    if (st != NPYDT_OK)
        fuzz_fail_status("written header does not parse", st, &err, (const char *)buf, need);
    FUZZ_CHECK(fuzz_same_after_text(dt, npydt_header_dtype(h)));
    FUZZ_CHECK(npydt_header_ndim(h) == ndim);
    FUZZ_CHECK(ndim == 0 ||
               memcmp(npydt_header_shape(h), shape, ndim * sizeof *shape) == 0);
    FUZZ_CHECK(npydt_header_fortran_order(h) == (fortran != 0));
    FUZZ_CHECK(npydt_header_data_offset(h) == need);
    int major = npydt_header_version_major(h);
    FUZZ_CHECK(major >= 1 && major <= 3);
    FUZZ_CHECK(npydt_header_len(h) + (major == 1 ? 10u : 12u) == need);
    unsigned char *again = malloc(need);
    FUZZ_CHECK(again != NULL);
    FUZZ_CHECK(npydt_header_write(npydt_header_dtype(h), npydt_header_shape(h),
                                  npydt_header_ndim(h), npydt_header_fortran_order(h), again,
                                  need, &err) == need);
    FUZZ_CHECK(memcmp(buf, again, need) == 0);
    free(again);
    npydt_header_free(h);
    free(buf);
}

/* Every oracle that applies to a root dtype. */
static inline void fuzz_check_root(const npydt_dtype *root)
{
    FUZZ_CHECK(npydt_dtype_equal(root, root));
    fuzz_check_leaves(root);
    fuzz_check_canonical(root);
    fuzz_check_leaf_typestrs(root);
}

#endif

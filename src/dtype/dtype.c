/* Dtype nodes: construction with NumPy's size rules, and the read-only
 * accessors of the public API. */
#include "dtype/build.h"

#include <string.h>

/* ---- totals of a tree ----------------------------------------------------- */

static void totals_of_subarray(npydt_dtype *dt)
{
    dt->totals = dt->base->totals;
}

/* NPYDT_E_LIMIT at off for a node of these levels and repeats (see
 * npydt_dtype) that nests deeper than the limits allow. */
__attribute__((cold, noinline)) static npydt_status
nesting_error(struct dtype_ctx *c, uint32_t levels, size_t off)
{
    if (levels > c->limits->max_depth)
        return set_error(c->err, NPYDT_E_LIMIT, off, dtype_path(c),
                         "dtype nested deeper than %u levels of structs and subarrays "
                         "(max_depth)", c->limits->max_depth);
    return set_error(c->err, NPYDT_E_LIMIT, off, dtype_path(c),
                     "more than %u subarrays nested one inside another", DTYPE_MAX_REPEATS);
}

static inline bool nests_too_deep(const struct dtype_ctx *c, uint32_t levels, uint32_t repeats)
{
    return levels > c->limits->max_depth || repeats > DTYPE_MAX_REPEATS;
}

static void totals_add_field(struct dtype_totals *t, const struct npydt_field *f)
{
    const struct dtype_totals *d = &f->dtype->totals;
    t->leaves = sat_add(t->leaves, d->leaves);
    t->fields = sat_add(t->fields, sat_add(d->fields, 1));
}

/* ---- shared scalar nodes ---------------------------------------------------- */

/* Numeric scalars are immutable and carry nothing of the text they came
 * from, so one read-only node per (kind, size, byte order) serves every
 * parse: most fields of a header then allocate no node of their own. */
#define SCALAR(k, bo, size)                                                              \
    {.cls = NPYDT_SCALAR, .kind = (k), .byteorder = (bo), .has_object = (k) == 'O',      \
     .unit = NPYDT_UNIT_NONE, .itemsize = (size), .totals = {.leaves = 1}}
#define ORDERED(k, size) {SCALAR(k, '<', size), SCALAR(k, '>', size)}

static const npydt_dtype builtin_1byte[] = {
    SCALAR('b', '|', 1), SCALAR('i', '|', 1), SCALAR('u', '|', 1), SCALAR('O', '|', 8),
};
/* [kind][log2 size][order]: kinds i u f c */
const npydt_dtype dtype_builtin_ordered[4][6][2] = {
    {ORDERED('i', 1), ORDERED('i', 2), ORDERED('i', 4), ORDERED('i', 8), ORDERED('i', 16),
     ORDERED('i', 32)},
    {ORDERED('u', 1), ORDERED('u', 2), ORDERED('u', 4), ORDERED('u', 8), ORDERED('u', 16),
     ORDERED('u', 32)},
    {ORDERED('f', 1), ORDERED('f', 2), ORDERED('f', 4), ORDERED('f', 8), ORDERED('f', 16),
     ORDERED('f', 32)},
    {ORDERED('c', 1), ORDERED('c', 2), ORDERED('c', 4), ORDERED('c', 8), ORDERED('c', 16),
     ORDERED('c', 32)},
};

const npydt_dtype *dtype_shared_scalar(char kind, char byteorder, uint64_t itemsize)
{
    if (byteorder == '|') {
        for (size_t i = 0; i < sizeof builtin_1byte / sizeof builtin_1byte[0]; i++)
            if (builtin_1byte[i].kind == kind && builtin_1byte[i].itemsize == itemsize)
                return &builtin_1byte[i];
        return NULL;
    }
    int k;
    switch (kind) {
    case 'i': k = 0; break;
    case 'u': k = 1; break;
    case 'f': k = 2; break;
    case 'c': k = 3; break;
    default: return NULL;
    }
    if (itemsize == 0 || itemsize > 32 || (itemsize & (itemsize - 1)) != 0)
        return NULL;
    return &dtype_builtin_ordered[k][__builtin_ctzll(itemsize)][byteorder == '>'];
}

#define DATETIME(k, bo, u)                                                                \
    {.cls = NPYDT_SCALAR, .kind = (k), .byteorder = (bo), .unit = (u), .unit_count = 1,   \
     .itemsize = 8, .totals = {.leaves = 1}}
#define UNITS(k, bo)                                                                      \
    {DATETIME(k, bo, 0), DATETIME(k, bo, 1), DATETIME(k, bo, 2), DATETIME(k, bo, 3),      \
     DATETIME(k, bo, 4), DATETIME(k, bo, 5), DATETIME(k, bo, 6), DATETIME(k, bo, 7),      \
     DATETIME(k, bo, 8), DATETIME(k, bo, 9), DATETIME(k, bo, 10), DATETIME(k, bo, 11),    \
     DATETIME(k, bo, 12), DATETIME(k, bo, 13)}

/* [M, m][<, >][unit], multiplier 1 */
static const npydt_dtype builtin_datetime[2][2][NPYDT_UNIT_GENERIC + 1] = {
    {UNITS('M', '<'), UNITS('M', '>')},
    {UNITS('m', '<'), UNITS('m', '>')},
};

const npydt_dtype *dtype_shared_datetime(char kind, char byteorder, int unit)
{
    if ((kind != 'M' && kind != 'm') || (byteorder != '<' && byteorder != '>') || unit < 0 ||
        unit > NPYDT_UNIT_GENERIC)
        return NULL;
    return &builtin_datetime[kind == 'm'][byteorder == '>'][unit];
}

npydt_dtype *dtype_new_scalar(struct dtype_ctx *c, char kind, char byteorder, uint64_t itemsize)
{
    npydt_dtype *dt = arena_alloc_raw(c->arena, sizeof *dt);
    if (!dt)
        return NULL;
    *dt = (npydt_dtype){.cls = NPYDT_SCALAR, .kind = kind, .byteorder = byteorder,
                        .itemsize = itemsize, .unit = NPYDT_UNIT_NONE,
                        .has_object = kind == 'O', .totals = {.leaves = 1}};
    return dt;
}

npydt_status dtype_make_subarray(struct dtype_ctx *c, const npydt_dtype *base,
                                 const uint64_t *shape, size_t ndim, size_t off,
                                 const npydt_dtype **out)
{
    npydt_status st = dtype_check_ndim(c, ndim, off);
    if (st != NPYDT_OK)
        return st;
    uint64_t items = 1;
    for (size_t i = 0; i < ndim; i++) {
        if (shape[i] > NPYDT_MAX_ITEMSIZE)
            return set_error(c->err, NPYDT_E_OVERFLOW, off, dtype_path(c),
                             "subarray dimension %llu does not fit a C int",
                             (unsigned long long)shape[i]);
        if (!ck_mul(items, shape[i], &items) || items > NPYDT_MAX_ITEMSIZE)
            return set_error(c->err, NPYDT_E_OVERFLOW, off, dtype_path(c),
                             "subarray element count does not fit a C int");
    }
    uint64_t bytes;
    if (!ck_mul(items, base->itemsize, &bytes) || bytes > NPYDT_MAX_ITEMSIZE)
        return set_error(c->err, NPYDT_E_OVERFLOW, off, dtype_path(c),
                         "subarray size in bytes does not fit a C int");
    /* a subarray of scalars inside another shares its repeat */
    bool merges = base->cls == NPYDT_SUBARRAY && base->base->cls == NPYDT_SCALAR;
    uint32_t levels = base->levels + 1u, repeats = 1u + (merges ? 0u : base->repeats);
    if (nests_too_deep(c, levels, repeats))
        return nesting_error(c, levels, off);
    npydt_dtype *dt = arena_alloc_raw(c->arena, sizeof *dt);
    uint64_t *dims = arena_alloc_array_raw(c->arena, ndim ? ndim : 1, sizeof *dims);
    if (!dt || !dims)
        return set_nomem(c->err);
    memcpy(dims, shape, ndim * sizeof *dims);
    *dt = (npydt_dtype){.cls = NPYDT_SUBARRAY, .kind = 'V', .byteorder = '|',
                        .unit = NPYDT_UNIT_NONE, .itemsize = bytes, .ndim = ndim,
                        .shape = dims, .base = base, .has_object = base->has_object,
                        .levels = (uint16_t)levels, .repeats = (uint16_t)repeats};
    totals_of_subarray(dt);
    *out = dt;
    return NPYDT_OK;
}

npydt_status dtype_with_itemsize(struct dtype_ctx *c, const npydt_dtype *base, uint64_t size,
                                 size_t off, const npydt_dtype **out)
{
    if (size > NPYDT_MAX_ITEMSIZE)
        return set_error(c->err, NPYDT_E_VALUE, off, dtype_path(c),
                         "invalid itemsize in generic type tuple");
    if (base->kind == 'U' && !(ck_mul(size, 4, &size) && size <= NPYDT_MAX_ITEMSIZE))
        return set_error(c->err, NPYDT_E_OVERFLOW, off, dtype_path(c),
                         "unicode itemsize does not fit a C int");
    npydt_dtype *dt;
    if (base->cls == NPYDT_SUBARRAY) {
        /* the same empty subarray taking up `size` bytes */
        if (!(dt = arena_alloc(c->arena, sizeof *dt)))
            return set_nomem(c->err);
        *dt = *base;
        dt->itemsize = size;
    } else if (!(dt = dtype_new_scalar(c, base->kind, base->byteorder, size))) {
        return set_nomem(c->err);
    }
    *out = dt;
    return NPYDT_OK;
}

npydt_status dtype_ndim_error(struct dtype_ctx *c, size_t ndim, size_t off)
{
    return set_error(c->err, NPYDT_E_LIMIT, off, dtype_path(c),
                     "subarray has %zu dimensions, more than the limit of %u", ndim,
                     c->limits->max_ndim);
}

npydt_status dtype_dim_overflow(struct dtype_ctx *c, size_t off)
{
    return set_error(c->err, NPYDT_E_OVERFLOW, off, dtype_path(c),
                     "subarray dimension does not fit a C int");
}

/* ---- duplicate names and titles ---------------------------------------- */

/* Names and titles of one struct share a namespace. A few are compared
 * pairwise; more go through a hash table, which finds the first repeat in
 * linear time. The input chooses the names, and so can make probes collide;
 * the table then gives up after a bounded number of probes and a merge sort
 * decides, which costs n log n comparisons whatever the names. */
struct name_ref {
    uint64_t key;   /* a hash of s: sorts by key, then by s, so that equal
                     * names meet and most comparisons touch no string */
    const char *s;
    size_t len;
    size_t order;   /* 2 * field + (1 for a title): the order NumPy checks them in */
};

/* Byte strings ordered by (length, bytes): any total order makes equal
 * names meet. */
static int name_cmp(const struct name_ref *a, const struct name_ref *b)
{
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    return a->len ? memcmp(a->s, b->s, a->len) : 0;
}

static bool name_ref_le(const struct name_ref *a, const struct name_ref *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    int c = name_cmp(a, b);
    return c < 0 || (c == 0 && a->order <= b->order);
}

/* Bottom-up merge sort of v[0..n) with tmp[0..n) as scratch; returns the
 * array that holds the result (v or tmp). */
static struct name_ref *name_sort(struct name_ref *v, struct name_ref *tmp, size_t n)
{
    for (size_t width = 1; width < n; width = width > n / 2 ? n : 2 * width) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = n - lo > width ? lo + width : n;
            size_t hi = n - mid > width ? mid + width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = name_ref_le(&v[i], &v[j]) ? v[i++] : v[j++];
            while (i < mid)
                tmp[k++] = v[i++];
            while (j < hi)
                tmp[k++] = v[j++];
            if (hi == n)
                break;
        }
        struct name_ref *t = v;
        v = tmp;
        tmp = t;
    }
    return v;
}

/* Name number k of fields: field k / 2's name, or its title when k is odd. */
static const char *ref_name(const struct npydt_field *fields, size_t k, size_t *len)
{
    const struct npydt_field *f = &fields[k / 2];
    if (k % 2 == 0) {
        *len = f->name_len;
        return f->name;
    }
    *len = f->title_len;
    return f->title;
}


/* Few names: compared pairwise, in the order NumPy checks them. */
static size_t first_duplicate_pairwise(const struct npydt_field *specs, size_t n)
{
    for (size_t k = 0; k < 2 * n; k++) {
        size_t len;
        const char *s = ref_name(specs, k, &len);
        if (!s)
            continue;
        for (size_t j = 0; j < k; j++) {
            size_t jl;
            const char *t = ref_name(specs, j, &jl);
            if (t && name_eq(s, len, t, jl))
                return k;
        }
    }
    return SIZE_MAX;
}

/* The same without titles. A name is compared with the earlier ones only
 * when one of them shares its bit of a 64-bit signature (length, first and
 * last byte): distinct names rarely do. */
static size_t first_duplicate_names(const struct npydt_field *specs, size_t n)
{
    uint64_t seen = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = specs[i].name_len;
        const unsigned char *s = (const unsigned char *)specs[i].name;
        unsigned sig = len ? (unsigned)(len + 7u * s[0] + 13u * s[len - 1]) & 63u : 0u;
        uint64_t bit = (uint64_t)1 << sig;
        if (seen & bit)
            for (size_t j = 0; j < i; j++)
                if (name_eq(specs[i].name, len, specs[j].name, specs[j].name_len))
                    return 2 * i;
        seen |= bit;
    }
    return SIZE_MAX;
}

/* Probes allowed per name before the hash table gives up: random names
 * need about 1.5 at a load of one half. */
#define PROBES_PER_NAME 8u

/* Names whose slots are being fetched ahead of their insertion: a large
 * header's table is far bigger than the caches, and every insertion
 * would otherwise wait for its slot. */
#define NAMES_AHEAD 16u

struct pending_name {
    uint64_t key;
    const char *s;
    size_t len, k;
};

/* Inserting in order, the first name found in the table is the first
 * repeat. A slot holds the name's number plus one and 32 bits of its key.
 * Sets *done to false when the probes ran out. */
static size_t first_duplicate_hashed(const struct npydt_field *specs, size_t n, size_t nrefs,
                                     uint64_t *slots, size_t mask, bool *done)
{
    uint64_t budget = (uint64_t)PROBES_PER_NAME * nrefs + 64;
    size_t step = nrefs > n ? 1 : 2;   /* titles too, or names only */
    memset(slots, 0, (mask + 1) * sizeof *slots);
    struct pending_name ahead[NAMES_AHEAD];
    size_t first = 0, count = 0, next = 0;
    for (;;) {
        for (; count < NAMES_AHEAD && next < 2 * n; next += step) {
            size_t len;
            const char *s = ref_name(specs, next, &len);
            if (!s)
                continue;
            uint64_t key = name_key(s, len);
            __builtin_prefetch(&slots[key & mask], 1);
            ahead[(first + count++) % NAMES_AHEAD] = (struct pending_name){key, s, len, next};
        }
        if (count == 0)
            return SIZE_MAX;
        const struct pending_name *p = &ahead[first];
        first = (first + 1) % NAMES_AHEAD;
        count--;
        for (size_t at = (size_t)p->key & mask;; at = (at + 1) & mask) {
            if (budget-- == 0) {
                *done = false;
                return SIZE_MAX;
            }
            uint64_t e = slots[at];
            if (e == 0) {
                slots[at] = (p->key & 0xffffffff00000000ull) | (uint64_t)(p->k + 1);
                break;
            }
            size_t jl;
            const char *t;
            if ((e >> 32) == (p->key >> 32) &&
                (t = ref_name(specs, (size_t)(uint32_t)e - 1, &jl), name_eq(p->s, p->len, t, jl)))
                return p->k;
        }
    }
}

static size_t first_duplicate_sorted(struct arena *ar, const struct npydt_field *specs, size_t n,
                                     size_t nrefs)
{
    /* the entries and the sort's scratch (the size is checked) */
    struct name_ref *v = arena_alloc_array_raw(ar, 2 * nrefs, sizeof *v);
    if (!v)
        return SIZE_MAX - 1;
    size_t m = 0;
    for (size_t k = 0; k < 2 * n; k++) {
        size_t len;
        const char *s = ref_name(specs, k, &len);
        if (s)
            v[m++] = (struct name_ref){name_key(s, len), s, len, k};
    }
    struct name_ref *sorted = name_sort(v, v + nrefs, nrefs);
    size_t first = SIZE_MAX;
    for (size_t i = 1; i < nrefs; i++)
        if (sorted[i].order < first && name_cmp(&sorted[i - 1], &sorted[i]) == 0 &&
            (i < 2 || name_cmp(&sorted[i - 2], &sorted[i]) != 0))
            first = sorted[i].order;   /* the second of its group */
    return first;
}

/* Names in strictly ascending order of (length, bytes) cannot repeat.
 * Machine-made names mostly are ('f0' ... 'f761900', 'col_0007' ...), and
 * one pass over them then settles the check, where a hash table of a
 * large header's names misses the cache on nearly every insertion; other
 * names stop the pass within a few steps. */
static bool names_ascending(const struct npydt_field *f, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        size_t a = f[i - 1].name_len, b = f[i].name_len;
        if (a > b || (a == b && memcmp(f[i - 1].name, f[i].name, a) >= 0))
            return false;
    }
    return true;
}

/* The first name or title, in field order, that repeats an earlier one:
 * its number (2 * field, plus 1 for a title), SIZE_MAX when all are
 * distinct, or SIZE_MAX - 1 when out of memory. */
static size_t first_duplicate(struct arena *ar, const struct npydt_field *specs, size_t n,
                              size_t nrefs)
{
    if (nrefs <= 12)
        return nrefs == n ? first_duplicate_names(specs, n) : first_duplicate_pairwise(specs, n);
    if (nrefs == n && names_ascending(specs, n))
        return SIZE_MAX;
    if (n < UINT32_MAX / 4) {
        size_t size = 4;
        while (size < 2 * nrefs)
            size *= 2;
        uint64_t *slots = arena_alloc_array_raw(ar, size, sizeof *slots);
        if (!slots)
            return SIZE_MAX - 1;
        bool done = true;
        size_t dup = first_duplicate_hashed(specs, n, nrefs, slots, size - 1, &done);
        if (done)
            return dup;
    }
    return first_duplicate_sorted(ar, specs, n, nrefs);
}

npydt_status dtype_fields_error(struct dtype_ctx *c, size_t off)
{
    return set_error(c->err, NPYDT_E_LIMIT, off, dtype_path(c), "more than %zu fields in the dtype",
                     c->limits->max_fields);
}

npydt_status dtype_struct_of_fields(struct dtype_ctx *c, const struct npydt_field *fields,
                                    size_t n, uint64_t itemsize, size_t off, size_t *dup,
                                    const npydt_dtype **out)
{
    if (n > c->limits->max_fields || c->nfields > c->limits->max_fields - n)
        return dtype_fields_error(c, off);
    c->nfields += n;
    npydt_dtype *dt = arena_alloc_raw(c->arena, sizeof *dt);
    if (!dt)
        return set_nomem(c->err);
    size_t nrefs = n;
    bool has_object = false;
    struct dtype_totals t = {0};
    /* most fields are untitled scalars, counted apart: their count is
     * bounded by the text, so a plain sum cannot wrap */
    uint64_t scalars = 0;
    uint32_t levels = 1, repeats = 0;
    for (size_t i = 0; i < n; i++) {
        const struct npydt_field *f = &fields[i];
        has_object |= f->dtype->has_object;
        if (f->dtype->cls == NPYDT_SCALAR && !f->title) {
            scalars++;
        } else {
            nrefs += f->title != NULL;
            totals_add_field(&t, f);
            if (f->dtype->levels >= levels)
                levels = f->dtype->levels + 1u;
            if (f->dtype->repeats > repeats)
                repeats = f->dtype->repeats;
        }
    }
    if (nests_too_deep(c, levels, repeats))
        return nesting_error(c, levels, off);
    t.leaves = sat_add(t.leaves, scalars);
    t.fields = sat_add(t.fields, scalars);
    *dup = first_duplicate(c->scratch ? c->scratch : c->arena, fields, n, nrefs);
    if (*dup == SIZE_MAX - 1)
        return set_nomem(c->err);
    if (*dup != SIZE_MAX)
        return NPYDT_E_NAME;
    *dt = (npydt_dtype){.cls = NPYDT_STRUCT, .kind = 'V', .byteorder = '|',
                        .unit = NPYDT_UNIT_NONE, .itemsize = itemsize, .nfields = n,
                        .fields = (struct npydt_field *)fields, .has_object = has_object,
                        .levels = (uint16_t)levels, .repeats = (uint16_t)repeats,
                        .totals = t};
    *out = dt;
    return NPYDT_OK;
}

npydt_status dtype_make_struct_fields(struct dtype_ctx *c, const struct npydt_field *fields,
                                      const size_t *text_offsets, size_t n, uint64_t itemsize,
                                      size_t off, const npydt_dtype **out)
{
    size_t dup;
    npydt_status st = dtype_struct_of_fields(c, fields, n, itemsize, off, &dup, out);
    if (st != NPYDT_E_NAME)
        return st;
    const struct npydt_field *f = &fields[dup / 2];
    size_t at = text_offsets[dup / 2];
    char name[128];
    if (dup % 2 == 0) {
        name_for_message(name, sizeof name, f->name, f->name_len);
        return set_error(c->err, NPYDT_E_NAME, at, dtype_path(c),
                         "field name '%s' already used as a name or title", name);
    }
    name_for_message(name, sizeof name, f->title, f->title_len);
    return set_error(c->err, NPYDT_E_NAME, at, dtype_path(c),
                     "title '%s' already used as a name or title", name);
}

npydt_status dtype_make_struct(struct dtype_ctx *c, const struct field_spec *specs, size_t n,
                               uint64_t itemsize, size_t off, const npydt_dtype **out)
{
    struct npydt_field *fields = arena_alloc_array_raw(c->arena, n ? n : 1, sizeof *fields);
    size_t *at = arena_alloc_array_raw(c->scratch ? c->scratch : c->arena, n ? n : 1, sizeof *at);
    if (!fields || !at)
        return set_nomem(c->err);
    for (size_t i = 0; i < n; i++) {
        fields[i] = (struct npydt_field){specs[i].name, specs[i].title, specs[i].offset,
                                         specs[i].dtype, specs[i].name_len,
                                         specs[i].title_len};
        at[i] = specs[i].text_offset;
    }
    return dtype_make_struct_fields(c, fields, at, n, itemsize, off, out);
}

/* ---- public accessors ---------------------------------------------------- */

npydt_dtype_class npydt_dtype_get_class(const npydt_dtype *dt) { return dt->cls; }
size_t npydt_dtype_itemsize(const npydt_dtype *dt) { return (size_t)dt->itemsize; }
char npydt_dtype_kind(const npydt_dtype *dt) { return dt->kind; }
char npydt_dtype_byteorder(const npydt_dtype *dt) { return dt->byteorder; }
npydt_unit npydt_dtype_unit(const npydt_dtype *dt) { return (npydt_unit)dt->unit; }
int32_t npydt_dtype_unit_count(const npydt_dtype *dt)
{
    return dt->unit == NPYDT_UNIT_NONE ? 0 : dt->unit_count;
}
size_t npydt_dtype_nfields(const npydt_dtype *dt) { return dt->nfields; }

const char *npydt_dtype_field_name(const npydt_dtype *dt, size_t i)
{
    return i < dt->nfields ? dt->fields[i].name : NULL;
}

const char *npydt_dtype_field_title(const npydt_dtype *dt, size_t i)
{
    return i < dt->nfields ? dt->fields[i].title : NULL;
}

size_t npydt_dtype_field_name_len(const npydt_dtype *dt, size_t i)
{
    return i < dt->nfields ? dt->fields[i].name_len : 0;
}

size_t npydt_dtype_field_title_len(const npydt_dtype *dt, size_t i)
{
    return i < dt->nfields ? dt->fields[i].title_len : 0;
}

size_t npydt_dtype_field_offset(const npydt_dtype *dt, size_t i)
{
    return i < dt->nfields ? (size_t)dt->fields[i].offset : 0;
}

const npydt_dtype *npydt_dtype_field_dtype(const npydt_dtype *dt, size_t i)
{
    return i < dt->nfields ? dt->fields[i].dtype : NULL;
}

size_t npydt_dtype_ndim(const npydt_dtype *dt) { return dt->ndim; }
const uint64_t *npydt_dtype_shape(const npydt_dtype *dt) { return dt->ndim ? dt->shape : NULL; }
const npydt_dtype *npydt_dtype_base(const npydt_dtype *dt) { return dt->base; }
int npydt_dtype_has_object(const npydt_dtype *dt) { return dt->has_object; }


int npydt_dtype_equal(const npydt_dtype *a, const npydt_dtype *b)
{
    if (a == b)
        return 1;
    if (a->cls != b->cls || a->kind != b->kind || a->byteorder != b->byteorder ||
        a->itemsize != b->itemsize || a->unit != b->unit ||
        (a->unit != NPYDT_UNIT_NONE && a->unit_count != b->unit_count))
        return 0;
    switch (a->cls) {
    case NPYDT_SCALAR:
        return 1;
    case NPYDT_SUBARRAY:
        if (a->ndim != b->ndim || memcmp(a->shape, b->shape, a->ndim * sizeof *a->shape) != 0)
            return 0;
        return npydt_dtype_equal(a->base, b->base);
    case NPYDT_STRUCT:
        if (a->nfields != b->nfields)
            return 0;
        for (size_t i = 0; i < a->nfields; i++) {
            const struct npydt_field *fa = &a->fields[i], *fb = &b->fields[i];
            if (fa->offset != fb->offset || !name_eq(fa->name, fa->name_len, fb->name, fb->name_len) ||
                !fa->title != !fb->title ||
                !name_eq(fa->title, fa->title_len, fb->title, fb->title_len) ||
                !npydt_dtype_equal(fa->dtype, fb->dtype))
                return 0;
        }
        return 1;
    }
    return 0;
}

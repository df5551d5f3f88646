/* What the Arrow tests share (tests/test_arrow_schema.c, tests/test_arrow.c,
 * tests/test_arrow_ipc*.c).
 *
 * The Arrow structs are declared here first, under Arrow's own guards, as
 * a program that includes Arrow's header (arrow/c/abi.h) does: npydt.h
 * must then compile with them. */
#ifndef NPYDT_ARROW_TEST_H
#define NPYDT_ARROW_TEST_H
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4
#include <stdint.h>
struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};
struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};
#endif
#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE
struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};
#endif

#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------- */

static inline npydt_dtype *typestr(const char *s)
{
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    if (npydt_dtype_parse_typestr(s, strlen(s), NULL, &dt, &err) != NPYDT_OK)
        fail_msg("%s: %s", s, err.message);
    return dt;
}

/* The value of metadata key in an ArrowSchema's metadata, or NULL; *len
 * its length. */
static inline const char *meta_get(const char *meta, const char *key, int32_t *len)
{
    if (!meta)
        return NULL;
    int32_t n, kl, vl;
    memcpy(&n, meta, 4);
    meta += 4;
    for (int32_t i = 0; i < n; i++) {
        memcpy(&kl, meta, 4);
        const char *k = meta + 4;
        memcpy(&vl, k + kl, 4);
        const char *v = k + kl + 4;
        if ((size_t)kl == strlen(key) && memcmp(k, key, (size_t)kl) == 0) {
            *len = vl;
            return v;
        }
        meta = v + vl;
    }
    return NULL;
}

static inline void assert_meta(const struct ArrowSchema *s, const char *key, const char *want)
{
    int32_t len = 0;
    const char *v = meta_get(s->metadata, key, &len);
    if (!v)
        fail_msg("no metadata %s on %s", key, s->name);
    assert_int_equal(len, (int32_t)strlen(want));
    assert_memory_equal(v, want, strlen(want));
}

/* ---- the structural validator ------------------------------------------ */

/* Bytes per value of a fixed-width format ("b": bits, see below; -1 for
 * none). */
static inline long arrow_test_width(const char *f)
{
    if (strncmp(f, "w:", 2) == 0)
        return atol(f + 2);
    if (f[0] == 't')
        return strcmp(f, "tdD") == 0 ? 4 : 8;
    if (f[1])
        return -1;
    switch (f[0]) {
    case 'b': return 0;
    case 'c': case 'C': return 1;
    case 's': case 'S': case 'e': return 2;
    case 'i': case 'I': case 'f': return 4;
    case 'l': case 'L': case 'g': return 8;
    default: return -1;
    }
}

/* Every byte of a buffer read, so that a read past it or of bytes never
 * written is found (ASan, valgrind: the sum decides a branch). */
static inline void arrow_test_touch(const void *p, size_t n)
{
    const unsigned char *b = p;
    unsigned sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += b[i];
    if (sum == 0xFFFFFFFFu)
        fail_msg("%s", "an impossible sum");
}

/* Check array a of schema s as the C Data Interface lays out each format
 * the export gives: the buffers a format has (present, every byte
 * readable and written), lengths and offsets in bounds, null_count equal
 * to the validity bitmap's, the children of the schema, no dictionary,
 * release callbacks set. */
static inline void arrow_validate(const struct ArrowSchema *s, const struct ArrowArray *a)
{
    assert_non_null(s->release);
    assert_non_null(a->release);
    assert_non_null(s->format);
    assert_non_null(s->name);
    assert_null(s->dictionary);
    assert_null(a->dictionary);
    assert_true(a->length >= 0 && a->offset >= 0);
    assert_int_equal(a->n_children, s->n_children);
    const char *f = s->format;
    int64_t end = a->offset + a->length;
    int nested = f[0] == '+';
    int varlen = strcmp(f, "u") == 0 || strcmp(f, "z") == 0;
    assert_int_equal(a->n_buffers, nested ? 1 : varlen ? 3 : 2);
    assert_non_null(a->buffers);
    int64_t nulls = 0;
    if (a->buffers[0]) {
        arrow_test_touch(a->buffers[0], (size_t)(end + 7) / 8);
        for (int64_t i = a->offset; i < end; i++)
            nulls += !((((const unsigned char *)a->buffers[0])[i / 8] >> (i % 8)) & 1);
    }
    assert_int_equal(a->null_count, nulls);
    if (strcmp(f, "+s") == 0) {
        for (int64_t i = 0; i < a->n_children; i++) {
            assert_true(a->children[i]->length >= end);
            arrow_validate(s->children[i], a->children[i]);
        }
        return;
    }
    if (strncmp(f, "+w:", 3) == 0) {
        assert_int_equal(a->n_children, 1);
        assert_true(a->children[0]->length >= end * atol(f + 3));
        arrow_validate(s->children[0], a->children[0]);
        return;
    }
    assert_int_equal(s->n_children, 0);
    for (int64_t i = 1; i < a->n_buffers; i++)
        assert_non_null(a->buffers[i]);
    if (varlen) {
        const int32_t *off = a->buffers[1];
        arrow_test_touch(off, (size_t)(end + 1) * 4);
        assert_true(off[a->offset] >= 0);
        for (int64_t i = a->offset; i < end; i++)
            assert_true(off[i + 1] >= off[i]);
        arrow_test_touch(a->buffers[2], (size_t)off[end]);
        return;
    }
    long w = arrow_test_width(f);
    if (w < 0)
        fail_msg("a format the export does not give: %s", f);
    arrow_test_touch(a->buffers[1], strcmp(f, "b") == 0 ? (size_t)(end + 7) / 8
                                                        : (size_t)(end * w));
}

/* ---- fixtures the export refuses ----------------------------------------- */

/* Each fixture the export refuses, and how: the reader already (rc 0,
 * code from the open), npydt_arrow_stream_open (rc 0), or get_next (rc,
 * its message naming a record). */
static const struct arrow_refusal {
    const char *name;
    int rc;
    npydt_status code;
} arrow_refused[] = {
    {"object_O.npy", 0, NPYDT_E_OBJECT},         /* the reader refuses them */
    {"object_in_struct.npy", 0, NPYDT_E_OBJECT},
    {"struct_name_nul.npy", 0, NPYDT_E_NAME},
    {"struct_name_nul_utf8.npy", 0, NPYDT_E_NAME},
    {"struct_title_nul.npy", 0, NPYDT_E_NAME},
    {"scalar_M8_D.npy", EINVAL, NPYDT_E_RANGE},  /* days beyond int32 */
    {"scalar_M8_D_be.npy", EINVAL, NPYDT_E_RANGE},
    {"scalar_M8_W.npy", EINVAL, NPYDT_E_RANGE},
    /* counts past int64 in Arrow's unit: 2**62 hours in seconds */
    {"scalar_M8_h.npy", EINVAL, NPYDT_E_RANGE},
    {"scalar_M8_m.npy", EINVAL, NPYDT_E_RANGE},
    {"scalar_M8_25s_be.npy", EINVAL, NPYDT_E_RANGE},
    {"scalar_m8_25s.npy", EINVAL, NPYDT_E_RANGE},
    {"scalar_m8_D.npy", EINVAL, NPYDT_E_RANGE},
    {"scalar_m8_D_be.npy", EINVAL, NPYDT_E_RANGE},
    {"struct_mixed_kinds.npy", EINVAL, NPYDT_E_RANGE},   /* random >m8[25s] counts */
};

/* Is name a .npy fixture the export takes? */
static inline int arrow_exported(const char *name)
{
    size_t n = strlen(name);
    if (n < 4 || strcmp(name + n - 4, ".npy") != 0)
        return 0;
    for (size_t i = 0; i < sizeof arrow_refused / sizeof arrow_refused[0]; i++)
        if (strcmp(arrow_refused[i].name, name) == 0)
            return 0;
    return 1;
}

/* check(name, ctx) for every fixture the export takes (arrow_exported),
 * in directory order; they are more than 100. */
static inline void for_each_arrow_fixture(void (*check)(const char *name, void *ctx), void *ctx)
{
    DIR *d = opendir(test_fixture(""));
    assert_non_null(d);
    struct dirent *e;
    size_t checked = 0;
    while ((e = readdir(d)) != NULL) {
        if (!arrow_exported(e->d_name))
            continue;
        check(e->d_name, ctx);
        checked++;
    }
    closedir(d);
    assert_true(checked > 100);
}

/* ---- a sink into memory --------------------------------------------------------- */

struct membuf {
    unsigned char *p;
    size_t len, cap;
};

static inline int mem_write(void *ctx, const void *buf, size_t len)
{
    struct membuf *m = ctx;
    if (m->cap - m->len < len) {
        size_t cap = m->cap ? m->cap : 1024;
        while (cap - m->len < len)
            cap *= 2;
        m->p = realloc(m->p, cap);
        assert_non_null(m->p);
        m->cap = cap;
    }
    memcpy(m->p + m->len, buf, len);
    m->len += len;
    return 0;
}

/* The IPC stream of stream s (released here). */
static inline struct membuf write_stream(struct ArrowArrayStream *s)
{
    struct membuf m = {0};
    npydt_npz_sink sink = {mem_write, NULL, &m};
    TEST_ERROR(err);
    uint64_t written = 0;
    if (npydt_arrow_ipc_write(s, &sink, NULL, &written, &err) != NPYDT_OK)
        fail_msg("%s", err.message);
    assert_int_equal(written, m.len);
    s->release(s);
    return m;
}

/* Fixture name opened (*r) and its export stream (*s) in batches of
 * batch_rows (0: the default). */
static inline void open_export(const char *name, uint64_t batch_rows, npydt_reader **r,
                               struct ArrowArrayStream *s)
{
    *r = test_open_fixture(name);
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    o.batch_rows = batch_rows;
    TEST_ERROR(err);
    if (npydt_arrow_stream_open(*r, &o, s, &err) != NPYDT_OK)
        fail_msg("%s: %s", name, err.message);
}

/* The IPC stream of fixture name's export in batches of batch_rows. */
static inline struct membuf fixture_stream(const char *name, uint64_t batch_rows)
{
    npydt_reader *r;
    struct ArrowArrayStream s;
    open_export(name, batch_rows, &r, &s);
    struct membuf m = write_stream(&s);
    npydt_reader_close(r);
    return m;
}

#endif

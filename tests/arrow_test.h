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

static inline struct membuf fixture_stream(const char *name, uint64_t batch_rows)
{
    npydt_reader *r = test_open_fixture(name);
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    o.batch_rows = batch_rows;
    struct ArrowArrayStream s;
    TEST_ERROR(err);
    if (npydt_arrow_stream_open(r, &o, &s, &err) != NPYDT_OK)
        fail_msg("%s: %s", name, err.message);
    struct membuf m = write_stream(&s);
    npydt_reader_close(r);
    return m;
}

#endif

/* What the Arrow tests share (tests/test_arrow_schema.c, tests/test_arrow.c).
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

#endif

/* The body of a record batch the library exported goes to the IPC
 * writer's sink as it lies in the batch's memory: its columns one after
 * the other, in one write, not copied on the way; the stream's bytes are
 * the same as when each column goes alone. */
#include "test_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MIXED                                                                            \
    "[('t', '<M8[ns]'), ('id', '<u4'), ('a', '<f8'), ('b', '<f8'), ('c', '<f4'), "     \
    "('d', '<f4'), ('e', '<i8'), ('f', '<i2'), ('s', '|S10')]"

/* A stream of one batch of records (npydt_arrow_batch), remembering where
 * its first column's values lie. */
struct one {
    struct test_recs recs;
    bool done;
    const void *first;   /* the first column's data buffer */
    bool copy_first;     /* give the first column a buffer of its own */
    void *own;
};

static int one_schema(struct ArrowArrayStream *s, struct ArrowSchema *out)
{
    struct one *o = s->private_data;
    return npydt_arrow_schema(o->recs.dt, NULL, out, NULL) == NPYDT_OK ? 0 : 22;
}

static int one_next(struct ArrowArrayStream *s, struct ArrowArray *out)
{
    struct one *o = s->private_data;
    out->release = NULL;
    if (o->done)
        return 0;
    o->done = true;
    if (npydt_arrow_batch(o->recs.dt, o->recs.buf, o->recs.n, NULL, out, NULL) != NPYDT_OK)
        return 22;
    struct ArrowArray *t = out->children[0];
    if (o->copy_first) {
        /* the same values elsewhere: the column cannot join the next */
        size_t bytes = o->recs.n * 8;
        o->own = malloc(bytes);
        assert_non_null(o->own);
        memcpy(o->own, t->buffers[1], bytes);
        t->buffers[1] = o->own;
    }
    o->first = t->buffers[1];
    return 0;
}

static const char *one_error(struct ArrowArrayStream *s)
{
    (void)s;
    return NULL;
}

static void one_release(struct ArrowArrayStream *s)
{
    s->release = NULL;
}

/* The sink: the stream's bytes, and the largest write that started at the
 * first column's values. */
struct sink {
    unsigned char *bytes;
    size_t len, cap;
    const struct one *one;
    size_t from_first;
};

static int sink_write(void *ctx, const void *buf, size_t len)
{
    struct sink *k = ctx;
    if (buf == k->one->first && len > k->from_first)
        k->from_first = len;
    if (k->len + len > k->cap) {
        k->cap = 2 * (k->len + len);
        k->bytes = realloc(k->bytes, k->cap);
        assert_non_null(k->bytes);
    }
    memcpy(k->bytes + k->len, buf, len);
    k->len += len;
    return 0;
}

/* The IPC stream of n mixed records, random bytes in them (no NaT). */
static struct sink write_stream(struct one *o, size_t n, bool copy_first)
{
    memset(o, 0, sizeof *o);
    o->recs = test_recs_make(MIXED, n);
    o->copy_first = copy_first;
    uint64_t x = 88172645463325252u;
    for (size_t i = 0; i < n * o->recs.isz; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        o->recs.buf[i] = (unsigned char)x;
    }
    for (size_t i = 0; i < n; i++)
        test_recs_set_i64(&o->recs, i, "t", (int64_t)i * 1000);
    struct ArrowArrayStream s = {one_schema, one_next, one_error, one_release, o};
    struct sink k = {NULL, 0, 0, o, 0};
    npydt_npz_sink sink = {sink_write, NULL, &k};
    TEST_ERROR(err);
    assert_int_equal(npydt_arrow_ipc_write(&s, &sink, NULL, NULL, &err), NPYDT_OK);
    return k;
}

static void test_arrow_ipc_writes_a_batch_body_in_one_piece(void **state)
{
    (void)state;
    static const size_t widths[] = {8, 4, 8, 8, 4, 4, 8, 2, 10};
    const size_t n = 9001;
    size_t body = 0;   /* each column padded to 8 bytes, but the last */
    for (size_t i = 0; i < 9; i++)
        body += i < 8 ? (n * widths[i] + 7) / 8 * 8 : n * widths[i];
    struct one o;
    struct sink k = write_stream(&o, n, false);
    assert_int_equal(k.from_first, body);
    struct one c;
    struct sink kc = write_stream(&c, n, true);
    /* a column elsewhere goes alone; the bytes are the same */
    assert_int_equal(kc.from_first, n * 8);
    assert_int_equal(k.len, kc.len);
    assert_memory_equal(k.bytes, kc.bytes, k.len);
    free(k.bytes);
    free(kc.bytes);
    free(c.own);
    test_recs_free(&o.recs);
    test_recs_free(&c.recs);
}

TEST_LIST("arrow_ipc_body",
          cmocka_unit_test(test_arrow_ipc_writes_a_batch_body_in_one_piece),
);

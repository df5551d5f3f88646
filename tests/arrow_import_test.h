/* What the Arrow import tests share (tests/test_arrow_import*.c): columns
 * built by hand as a foreign producer lays them out, and an import into a
 * temporary .npy read back in memory. */
#ifndef NPYDT_ARROW_IMPORT_TEST_H
#define NPYDT_ARROW_IMPORT_TEST_H

#include "arrow_test.h"

#include <unistd.h>

/* ---- columns by hand --------------------------------------------------------- */

/* One schema node and one array node whose release only marks them
 * released: the test owns every byte. Children are other cols. */
struct col {
    struct ArrowSchema s;
    struct ArrowArray a;
    const void *bufs[3];
    struct ArrowSchema *sk[32];
    struct ArrowArray *ak[32];
    int schema_releases, array_releases;
};

static inline void col_release_schema(struct ArrowSchema *s)
{
    struct col *c = s->private_data;
    c->schema_releases++;
    s->release = NULL;
}

static inline void col_release_array(struct ArrowArray *a)
{
    struct col *c = a->private_data;
    c->array_releases++;
    a->release = NULL;
}

/* c becomes a column of format fmt named name with length rows and
 * buffers b0 (validity, may be NULL), b1, b2 (n_buffers of them). */
static inline void col_init(struct col *c, const char *fmt, const char *name, int64_t length,
                            int64_t n_buffers, const void *b0, const void *b1, const void *b2)
{
    memset(c, 0, sizeof *c);
    c->s.format = fmt;
    c->s.name = name;
    c->s.release = col_release_schema;
    c->s.private_data = c;
    c->bufs[0] = b0;
    c->bufs[1] = b1;
    c->bufs[2] = b2;
    c->a.length = length;
    c->a.n_buffers = n_buffers;
    c->a.buffers = c->bufs;
    c->a.release = col_release_array;
    c->a.private_data = c;
}

/* kid becomes child i of c (schema and array). */
static inline void col_child(struct col *c, struct col *kid)
{
    c->sk[c->s.n_children++] = &kid->s;
    c->ak[c->a.n_children++] = &kid->a;
    c->s.children = c->sk;
    c->a.children = c->ak;
}

/* Metadata of one pair, encoded as the C Data Interface says, in buf. */
static inline const char *meta1(char *buf, const char *key, const char *value)
{
    int32_t n = 1, kl = (int32_t)strlen(key), vl = (int32_t)strlen(value);
    memcpy(buf, &n, 4);
    memcpy(buf + 4, &kl, 4);
    memcpy(buf + 8, key, (size_t)kl);
    memcpy(buf + 8 + kl, &vl, 4);
    memcpy(buf + 12 + kl, value, (size_t)vl);
    return buf;
}

/* ---- importing into a file ----------------------------------------------------- */

/* An imported .npy read back: the file's bytes and a reader over them. */
struct imported {
    unsigned char *bytes;
    size_t len;
    npydt_reader *r;
};

static inline void imported_free(struct imported *im)
{
    npydt_reader_close(im->r);
    free(im->bytes);
    memset(im, 0, sizeof *im);
}

/* Import a stream (s) or one array (schema, array) into a new .npy of
 * dtype dt; on success *im holds the file read back. */
static inline npydt_status import_into(const npydt_dtype *dt, struct ArrowArrayStream *s,
                                       const struct ArrowSchema *schema,
                                       const struct ArrowArray *array,
                                       const npydt_arrow_import_options *o, npydt_error *err,
                                       struct imported *im)
{
    memset(im, 0, sizeof *im);
    FILE *f = tmpfile();
    assert_non_null(f);
    npydt_writer *w = NULL;
    uint64_t shape[1] = {0};
    TEST_ERROR(werr);
    if (npydt_writer_create_fd(fileno(f), dt, shape, 1, NULL, &w, &werr) != NPYDT_OK)
        fail_msg("%s", werr.message);
    npydt_status st = s ? npydt_arrow_write_stream(w, s, o, err)
                        : npydt_arrow_write_array(w, schema, array, o, err);
    if (st != NPYDT_OK) {
        npydt_writer_discard(w, &werr);
        fclose(f);
        return st;
    }
    assert_int_equal(npydt_writer_close(w, &werr), NPYDT_OK);
    long end = lseek(fileno(f), 0, SEEK_END);
    assert_true(end > 0);
    im->len = (size_t)end;
    im->bytes = malloc(im->len);
    assert_non_null(im->bytes);
    assert_int_equal(pread(fileno(f), im->bytes, im->len, 0), (ssize_t)im->len);
    fclose(f);
    if (npydt_reader_open_buffer(im->bytes, im->len, NULL, &im->r, &werr) != NPYDT_OK)
        fail_msg("%s", werr.message);
    return NPYDT_OK;
}

/* The dtype npydt_arrow_dtype reads from schema (failing the test if it
 * cannot). */
static inline npydt_dtype *dtype_of_schema(const struct ArrowSchema *schema,
                                           const struct ArrowArray *array,
                                           const npydt_arrow_import_options *o)
{
    npydt_dtype *dt = NULL;
    TEST_ERROR(err);
    if (npydt_arrow_dtype(schema, array, o, &dt, &err) != NPYDT_OK)
        fail_msg("%s: %s", err.path, err.message);
    return dt;
}

#endif

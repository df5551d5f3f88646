/* npydt dump --jsonl's fast path: the JSON of an element is fixed text
 * (brackets, keys, commas) around its scalars, so it is worked out once per
 * dump as a plan, steps of "this text, then the scalar at this offset";
 * printing an element then walks the steps, without the dtype tree or
 * escaping keys again. Elements with very many scalars (a huge subarray)
 * keep the tree walk of dump_value.c instead: a plan costs memory per
 * scalar. */
#include "dump.h"

#include <stdlib.h>

/* Scalars of an element beyond which no plan is made. */
#define PLAN_MAX_STEPS 65536

/* How a step's scalar is read: through the library's typed readers, or,
 * for integers and float32/float64, loaded here (the kind, size and byte
 * order the readers look up on every call are the step's). */
enum { READ_TYPED, READ_INT, READ_UINT, READ_FLOAT };

struct plan_step {
    size_t lit, lit_len;   /* text before the scalar, in plan->text */
    uint64_t offset;
    const npydt_dtype *dt;
    unsigned char read, size, swap;
};

static int little_endian(void)
{
    uint16_t one = 1;
    unsigned char first;
    memcpy(&first, &one, 1);
    return first;
}

static int add_step(struct json_plan *p, const npydt_dtype *dt, uint64_t offset)
{
    if (p->n == PLAN_MAX_STEPS)
        return -1;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        struct plan_step *s = realloc(p->steps, cap * sizeof *s);
        if (!s)
            return -1;
        p->steps = s;
        p->cap = cap;
    }
    char kind = npydt_dtype_kind(dt), order = npydt_dtype_byteorder(dt);
    size_t size = npydt_dtype_itemsize(dt);
    int sized = size == 1 || size == 2 || size == 4 || size == 8;
    unsigned char read = (kind == 'i' && sized) ? READ_INT
                         : (kind == 'u' && sized) ? READ_UINT
                         : (kind == 'f' && (size == 4 || size == 8)) ? READ_FLOAT
                                                                    : READ_TYPED;
    unsigned char swap = (unsigned char)(size > 1 && (order == '<' || order == '>') &&
                                         (order == '<') != little_endian());
    p->steps[p->n++] = (struct plan_step){p->pending, p->text.len - p->pending, offset, dt,
                                          read, (unsigned char)size, swap};
    p->pending = p->text.len;
    return 0;
}

static int walk(struct json_plan *p, const npydt_dtype *dt, uint64_t offset, unsigned depth);

/* Nested lists over shape[level..nd), elements `stride` apart at the
 * innermost level, each an element of type dt. */
static int walk_lists(struct json_plan *p, const npydt_dtype *dt, const uint64_t *shape,
                      size_t nd, size_t level, uint64_t offset, uint64_t span, uint64_t stride,
                      unsigned depth)
{
    if (level == nd)
        return walk(p, dt, offset, depth + 1);
    uint64_t inner = span / (shape[level] ? shape[level] : 1);
    sink_putc(&p->text, '[');
    for (uint64_t i = 0; i < shape[level]; i++) {
        if (i)
            sink_putc(&p->text, ',');
        if (walk_lists(p, dt, shape, nd, level + 1, offset + i * inner, inner, stride, depth) != 0)
            return -1;
    }
    sink_putc(&p->text, ']');
    return 0;
}

static int walk(struct json_plan *p, const npydt_dtype *dt, uint64_t offset, unsigned depth)
{
    if (depth > 64)
        return -1;
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR:
        return add_step(p, dt, offset);
    case NPYDT_STRUCT:
        sink_putc(&p->text, '{');
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++) {
            if (i)
                sink_putc(&p->text, ',');
            sink_json(&p->text, npydt_dtype_field_name(dt, i), npydt_dtype_field_name_len(dt, i),
                      JSON_TEXT);
            sink_putc(&p->text, ':');
            if (walk(p, npydt_dtype_field_dtype(dt, i), offset + npydt_dtype_field_offset(dt, i),
                     depth + 1) != 0)
                return -1;
        }
        sink_putc(&p->text, '}');
        return 0;
    case NPYDT_SUBARRAY: {
        const npydt_dtype *base = npydt_dtype_base(dt);
        return walk_lists(p, base, npydt_dtype_shape(dt), npydt_dtype_ndim(dt), 0, offset,
                          npydt_dtype_itemsize(dt), npydt_dtype_itemsize(base), depth);
    }
    }
    return -1;
}

int plan_build(struct json_plan *p, const npydt_dtype *dt, const struct selected *sel,
               size_t nsel)
{
    memset(p, 0, sizeof *p);
    sink_init(&p->text, NULL);
    int rc = 0;
    if (!sel) {
        rc = walk(p, dt, 0, 0);
    } else {
        sink_putc(&p->text, '{');
        for (size_t i = 0; i < nsel && rc == 0; i++) {
            const struct selected *s = &sel[i];
            if (i)
                sink_putc(&p->text, ',');
            sink_json(&p->text, s->path, s->path_len, JSON_TEXT);
            sink_putc(&p->text, ':');
            uint64_t span = s->stride;
            for (size_t k = 0; k < s->ndim; k++)
                span *= s->shape[k];
            rc = walk_lists(p, s->dtype, s->shape, s->ndim, 0, s->offset, span, s->stride, 0);
        }
        sink_putc(&p->text, '}');
    }
    if (rc != 0 || p->text.failed) {
        plan_free(p);
        return -1;
    }
    return 0;
}

/* A step's scalar at p, in this machine's byte order, in b. */
static void load(const struct plan_step *s, const unsigned char *p, unsigned char b[8])
{
    if (s->swap) {
        for (unsigned i = 0; i < s->size; i++)
            b[i] = p[s->size - 1 - i];
    } else {
        memcpy(b, p, s->size);
    }
}

static void put_loaded(struct dumper *d, struct sink *out, const struct plan_step *s,
                       const unsigned char *p)
{
    unsigned char b[8];
    load(s, p, b);
    if (s->read == READ_FLOAT) {
        if (s->size == 4) {
            float f;
            memcpy(&f, b, 4);
            dump_put_float(d, out, 4, f);
        } else {
            double v;
            memcpy(&v, b, 8);
            dump_put_float(d, out, 8, v);
        }
        return;
    }
    if (s->read == READ_INT) {
        int64_t v;
        switch (s->size) {
        case 1: { int8_t x; memcpy(&x, b, 1); v = x; break; }
        case 2: { int16_t x; memcpy(&x, b, 2); v = x; break; }
        case 4: { int32_t x; memcpy(&x, b, 4); v = x; break; }
        default: memcpy(&v, b, 8); break;
        }
        dump_put_int(d, out, v);
        return;
    }
    uint64_t v;
    switch (s->size) {
    case 1: v = b[0]; break;
    case 2: { uint16_t x; memcpy(&x, b, 2); v = x; break; }
    case 4: { uint32_t x; memcpy(&x, b, 4); v = x; break; }
    default: memcpy(&v, b, 8); break;
    }
    dump_put_uint(d, out, v);
}

int plan_put(struct dumper *d, struct sink *out, const struct json_plan *p,
             const unsigned char *rec)
{
    const char *text = p->text.buf;
    for (size_t i = 0; i < p->n; i++) {
        const struct plan_step *s = &p->steps[i];
        if (s->lit_len)   /* text is NULL when the plan has none */
            sink_write(out, text + s->lit, s->lit_len);
        if (s->read != READ_TYPED)
            put_loaded(d, out, s, rec + s->offset);
        else if (dump_put_value(d, out, s->dt, rec + s->offset) != 0)
            return -1;
    }
    if (p->text.len > p->pending)
        sink_write(out, text + p->pending, p->text.len - p->pending);
    return 0;
}

void plan_free(struct json_plan *p)
{
    sink_free(&p->text);
    free(p->steps);
    memset(p, 0, sizeof *p);
}

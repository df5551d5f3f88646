/* npydt dump --jsonl's fast path: the JSON of an element is fixed text
 * (brackets, keys, commas) around its scalars, so it is worked out once per
 * dump as a plan, steps of "this text, then the scalar at this offset";
 * printing an element then walks the steps, without the dtype tree or
 * escaping keys again. An element reserves the room its text can take
 * once; the steps write in place through a pointer: the literal as one
 * fixed-size copy, numbers, booleans, datetimes and S bytes by their own
 * writers (a complex is the plan text '[' re ',' im ']' around two float
 * steps; the innermost list of a subarray of small integers is one step);
 * other kinds (U, V, float16, long double) go through the typed readers of
 * dump_value.c. Elements with very many scalars (a huge subarray) or much
 * fixed text (long keys, repeated) keep the tree walk of dump_value.c
 * instead: a plan costs memory per scalar and holds its text. */
#include "cli/dump/dump.h"
#include "cli/common/json.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Scalars of an element, bytes of its fixed text, beyond which no plan
 * is made. */
#define PLAN_MAX_STEPS 65536
#define PLAN_MAX_TEXT ((size_t)1 << 22)

/* Literal text up to this long is copied as one fixed-size block (the
 * plan's text has this many readable bytes past its end). */
#define LIT_BLOCK 16

struct plan_step {
    size_t lit, lit_len;   /* text before the scalar, in plan->text */
    size_t rest;           /* bytes the steps after this one (and the text
                            * after them) may write: text, values, scratch */
    uint64_t offset;
    const npydt_dtype *dt;
    size_t size;           /* bytes of the scalar (of a complex's part) */
    uint64_t count, stride;   /* OP_SMALL_INTS: how many, bytes apart */
    unsigned char op, elem, swap, kind;
};

/* 0, 1, 2, 3 for 1, 2, 4, 8 bytes; -1 for other sizes. */
static int log2_size(size_t size)
{
    return size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;
}

unsigned char plan_scalar_op(const npydt_dtype *dt)
{
    size_t size = npydt_dtype_itemsize(dt);
    int lg = log2_size(size);
    switch (npydt_dtype_kind(dt)) {
    case 'i': return lg >= 0 ? (unsigned char)(OP_I1 + lg) : OP_TYPED;
    case 'u': return lg >= 0 ? (unsigned char)(OP_U1 + lg) : OP_TYPED;
    case 'f': return size == 4 ? OP_F4 : size == 8 ? OP_F8 : OP_TYPED;
    case 'b': return size == 1 ? OP_BOOL : OP_TYPED;
    case 'M': case 'm': return size == 8 ? OP_TIME : OP_TYPED;
    case 'S': return size <= (SIZE_MAX - 2) / 6 ? OP_BYTES : OP_TYPED;
    default: return OP_TYPED;
    }
}

/* Integers of up to 4 bytes: within +-2^32, never quoted (whatever
 * --big-int says), so runs of them need no style. */
static int small_int(unsigned char op)
{
    return (op >= OP_I1 && op <= OP_I4) || (op >= OP_U1 && op <= OP_U4);
}

/* A step writing `count` scalars of op (`size` bytes each in byte order
 * `order`, `stride` apart) from offset: runs only of small integers. */
static int add_step(struct json_plan *p, const npydt_dtype *dt, uint64_t offset, unsigned char op,
                    size_t size, char order, uint64_t count, uint64_t stride)
{
    if (count > PLAN_MAX_STEPS - p->scalars)
        return -1;
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        struct plan_step *s = realloc(p->steps, cap * sizeof *s);
        if (!s)
            return -1;
        p->steps = s;
        p->cap = cap;
    }
    unsigned char elem = 0;
    if (small_int(op)) {
        elem = op;
        op = OP_SMALL_INTS;
    }
    size_t lit_len = p->text.bytes.len - p->pending;
    /* the literal's block, the values (a typed one reserves its own; each
     * small integer a comma and text_decimal_i64's room) */
    size_t room = lit_len > LIT_BLOCK ? lit_len : LIT_BLOCK;
    size_t value = op == OP_BYTES ? TEXT_JSON_ESCAPED_MAX(size) + 2
                   : op == OP_TYPED ? 0
                   : op == OP_SMALL_INTS ? (size_t)count * 22 : DUMP_NUMBER_ROOM;
    if (room > SIZE_MAX - value || p->room > SIZE_MAX - (room + value))
        return -1;
    p->room += room + value;
    p->scalars += (size_t)count;
    unsigned char swap = (unsigned char)(size > 1 && text_order_swaps(order));
    /* rest is filled in by plan_build: what is left of p->room after it */
    p->steps[p->n++] = (struct plan_step){p->pending, lit_len, p->room, offset, dt, size,
                                          count, stride, op, elem, swap,
                                          (unsigned char)npydt_dtype_kind(dt)};
    p->pending = p->text.bytes.len;
    return 0;
}

/* The step(s) of the scalar dt at offset. */
static int add_scalar(struct json_plan *p, const npydt_dtype *dt, uint64_t offset)
{
    char order = npydt_dtype_byteorder(dt);
    size_t size = npydt_dtype_itemsize(dt);
    if (npydt_dtype_kind(dt) == 'c' && (size == 8 || size == 16)) {
        /* [re,im]: two float steps */
        size_t part = size / 2;
        unsigned char fop = part == 4 ? OP_F4 : OP_F8;
        sink_putc(&p->text, '[');
        if (add_step(p, dt, offset, fop, part, order, 1, 0) != 0)
            return -1;
        sink_putc(&p->text, ',');
        if (add_step(p, dt, offset + part, fop, part, order, 1, 0) != 0)
            return -1;
        sink_putc(&p->text, ']');
        return 0;
    }
    return add_step(p, dt, offset, plan_scalar_op(dt), size, order, 1, 0);
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
    if (level + 1 == nd && shape[level] > 1 && npydt_dtype_get_class(dt) == NPYDT_SCALAR &&
        small_int(plan_scalar_op(dt))) {
        /* the innermost list of small integers: one step for all */
        sink_putc(&p->text, '[');
        if (add_step(p, dt, offset, plan_scalar_op(dt), npydt_dtype_itemsize(dt),
                     npydt_dtype_byteorder(dt), shape[level], inner) != 0)
            return -1;
        sink_putc(&p->text, ']');
        return 0;
    }
    sink_putc(&p->text, '[');
    for (uint64_t i = 0; i < shape[level]; i++) {
        if (i)
            sink_putc(&p->text, ',');
        if (p->text.bytes.len > PLAN_MAX_TEXT ||
            walk_lists(p, dt, shape, nd, level + 1, offset + i * inner, inner, stride, depth) != 0)
            return -1;
    }
    sink_putc(&p->text, ']');
    return 0;
}

static int walk(struct json_plan *p, const npydt_dtype *dt, uint64_t offset, unsigned depth)
{
    if (depth > 64 || p->text.bytes.len > PLAN_MAX_TEXT || p->text.bytes.failed)
        return -1;
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR:
        return add_scalar(p, dt, offset);
    case NPYDT_STRUCT:
        sink_putc(&p->text, '{');
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++) {
            if (i)
                sink_putc(&p->text, ',');
            sink_json(&p->text, npydt_dtype_field_name(dt, i), npydt_dtype_field_name_len(dt, i),
                      TEXT_JSON_TEXT);
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
    sink_init(&p->text, SINK_MEMORY);
    int rc = 0;
    if (!sel) {
        rc = walk(p, dt, 0, 0);
    } else {
        sink_putc(&p->text, '{');
        for (size_t i = 0; i < nsel && rc == 0; i++) {
            const struct selected *s = &sel[i];
            if (i)
                sink_putc(&p->text, ',');
            sink_json(&p->text, s->path, s->path_len, TEXT_JSON_TEXT);
            sink_putc(&p->text, ':');
            uint64_t span = s->stride;
            for (size_t k = 0; k < s->ndim; k++)
                span *= s->shape[k];
            rc = walk_lists(p, s->dtype, s->shape, s->ndim, 0, s->offset, span, s->stride, 0);
        }
        sink_putc(&p->text, '}');
    }
    /* LIT_BLOCK readable bytes past the text (and a buffer even when
     * the element has no text) */
    char *pad = sink_room(&p->text, LIT_BLOCK);
    if (pad)
        memset(pad, 0, LIT_BLOCK);
    size_t trail = p->text.bytes.len - p->pending;
    trail = trail > LIT_BLOCK ? trail : LIT_BLOCK;
    if (rc != 0 || p->text.bytes.failed || p->room > SIZE_MAX - trail) {
        plan_free(p);
        return -1;
    }
    p->room += trail;
    for (size_t i = 0; i < p->n; i++)
        p->steps[i].rest = p->room - p->steps[i].rest;   /* was: room up to its end */
    return 0;
}

/* n bytes of literal text at o (as one block when short); the end. */
static inline char *put_literal(char *o, const char *text, size_t n)
{
    if (n <= LIT_BLOCK)
        memcpy(o, text, LIT_BLOCK);
    else
        memcpy(o, text, n);
    return o + n;
}

int plan_put(struct dumper *d, struct sink *out, const struct json_plan *p,
             const unsigned char *rec)
{
    const char *text = p->text.bytes.buf;
    char *o = sink_room(out, p->room);
    if (!o)
        return 0;   /* out of memory: out->failed tells */
    /* indexed: an element of no fields has no steps (steps is NULL) */
    for (size_t step = 0; step < p->n; step++) {
        const struct plan_step *s = &p->steps[step];
        o = put_literal(o, text + s->lit, s->lit_len);
        const unsigned char *v = rec + s->offset;
        int64_t iv;
        switch (s->op) {
        case OP_F4:
            o += dump_float_json(d, 4, text_f32_of_bits(text_load32(v, s->swap)), o);
            continue;
        case OP_F8:
            o += dump_float_json(d, 8, text_f64_of_bits(text_load64(v, s->swap)), o);
            continue;
        case OP_SMALL_INTS:
            for (uint64_t k = 1;; k++) {
                switch (s->elem) {   /* the same branch for the whole run */
                case OP_I1: iv = plan_signed8(v[0]); break;
                case OP_I2: iv = plan_signed16(text_load16(v, s->swap)); break;
                case OP_I4: iv = plan_signed32(text_load32(v, s->swap)); break;
                case OP_U1: iv = v[0]; break;
                case OP_U2: iv = text_load16(v, s->swap); break;
                default: iv = text_load32(v, s->swap); break;
                }
                o += text_decimal_i64(iv, o);
                if (k >= s->count)
                    break;
                *o++ = ',';
                v += s->stride;
            }
            continue;
        case OP_I8: iv = plan_signed64(text_load64(v, s->swap)); break;
        case OP_U8: o += dump_uint_json(d, text_load64(v, s->swap), o); continue;
        case OP_BOOL:
            memcpy(o, v[0] ? "true" : "false", 5);
            o += v[0] ? 4 : 5;
            continue;
        case OP_BYTES: {
            size_t n = s->size;
            while (n > 0 && v[n - 1] == 0)
                n--;
            o[0] = '"';
            o += 1 + text_json_escape_into(o + 1, (const char *)v, n, TEXT_JSON_BYTES);
            *o++ = '"';
            continue;
        }
        case OP_TIME:
            iv = plan_signed64(text_load64(v, s->swap));
            if (iv == NPYDT_NAT) {
                memcpy(o, d->style.nan_null ? "null" : "\"NaT\"", 5);
                o += d->style.nan_null ? 4 : 5;
                continue;
            }
            if (s->kind == 'M' && d->style.datetime_iso)
                goto typed;   /* the ISO text */
            break;
        default:
        typed:
            out->bytes.len = (size_t)(o - out->bytes.buf);
            if (dump_put_value(d, out, s->dt, v) != 0)
                return -1;
            if (!(o = sink_room(out, s->rest)))
                return 0;
            continue;
        }
        o += dump_int_json(d, iv, o);
    }
    o = put_literal(o, text + p->pending, p->text.bytes.len - p->pending);
    out->bytes.len = (size_t)(o - out->bytes.buf);
    return 0;
}

void plan_free(struct json_plan *p)
{
    sink_free(&p->text);
    free(p->steps);
    memset(p, 0, sizeof *p);
}

/* npydt dump --jsonl's fast path: the JSON of an element is fixed text
 * (brackets, keys, commas, the quotes of S strings, the line's end) around
 * its scalars, so it is worked out once per dump as a plan, steps of
 * "this text, then the scalar at this offset"; printing an element then
 * walks the steps, without the dtype tree or escaping keys again.
 *
 * What a value costs is settled when the plan is built: each step's op
 * is the writer of its type, size, byte order and of the dump's style
 * (--big-int, --float, --datetime), so that printing asks no question the
 * plan could answer; the text before a value (at most LIT_BLOCK bytes,
 * longer text being a step of its own) lives in the step and is copied as
 * one fixed-size block whatever its length. An element reserves the room
 * its text can take once; the steps write in place through a pointer:
 * numbers, booleans, datetimes and S bytes by their own writers (a complex
 * is the plan text '[' re ',' im ']' around two float steps; the innermost
 * list of a subarray of small integers is one step); other kinds (U, V,
 * float16, long double, ISO datetimes) go through the typed readers of
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

/* Literal text up to this long is kept in its step and copied as one
 * fixed-size block. */
#define LIT_BLOCK 16

/* What a step writes after its text: its op. Those of values of 2 or more
 * bytes come in two kinds, the second (op + J_SWAP) for values stored in
 * the other byte order than the host's. */
enum {
    J_END,          /* nothing: the element is done */
    J_TEXT,         /* text longer than LIT_BLOCK, from the plan's text */
    J_TYPED,        /* the typed readers (dump_put_value) */
    J_I1, J_U1,     /* integers of one byte */
    J_BOOL,         /* b: any nonzero byte is true */
    J_BYTES,        /* S: the bytes before trailing NULs, escaped (the
                     * quotes are the text around) */
    J_INTS,         /* `count` integers of up to 4 bytes (elem: J_I1 ..
                     * J_U4, swap) `stride` apart, comma-separated: the
                     * innermost list of a subarray of them */
    J_ORDERED,      /* values of 2 or more bytes: */
    J_I2 = J_ORDERED, J_I4, J_U2, J_U4,   /* never quoted (within +-2^32) */
    J_I8, J_U8,             /* as numbers */
    J_I8_BIG, J_U8_BIG,     /* --big-int string: quoted beyond +-(2^53-1) */
    J_F4,                   /* f4 (a c8's part) as the double it is */
    J_F4_OWN,               /* f4 as the shortest text of its own type (--float native) */
    J_F8,
    J_TIME, J_TIME_BIG,     /* M, m: NaT, else the count (J_I8, J_I8_BIG) */
    J_TIME_ISO,             /* M with --datetime iso: NaT, else typed */
    J_ORDERED_END,
    J_SWAP = J_ORDERED_END - J_ORDERED   /* op + J_SWAP: byte swapped first */
};

struct plan_step {
    char lit[LIT_BLOCK];   /* the text before the value, lit_len bytes of it */
    uint64_t offset;       /* of the value in the element */
    unsigned char lit_len, op, elem, swap;   /* elem, swap: of J_INTS */
    size_t text, text_len; /* J_TEXT: the text in plan->text */
    size_t size;           /* J_BYTES: bytes of the value */
    uint64_t count, stride;   /* J_INTS: how many, bytes apart */
    size_t rest;           /* J_TYPED: bytes the steps after this one may
                            * write (text, values, scratch) */
    const npydt_dtype *dt; /* J_TYPED, J_TIME_ISO: the value's type */
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

/* The step's op for a scalar of op (plan_scalar_op's) of kind kind in the
 * style. */
static unsigned char json_op(unsigned char op, char kind, const struct value_style *style)
{
    switch (op) {
    case OP_I1: return J_I1;
    case OP_U1: return J_U1;
    case OP_I2: return J_I2;
    case OP_I4: return J_I4;
    case OP_U2: return J_U2;
    case OP_U4: return J_U4;
    case OP_I8: return style->big_int_string ? J_I8_BIG : J_I8;
    case OP_U8: return style->big_int_string ? J_U8_BIG : J_U8;
    case OP_F4: return style->float_native ? J_F4_OWN : J_F4;
    case OP_F8: return J_F8;
    case OP_BOOL: return J_BOOL;
    case OP_BYTES: return J_BYTES;
    case OP_TIME:
        return kind == 'M' && style->datetime_iso ? J_TIME_ISO
               : style->big_int_string            ? J_TIME_BIG
                                                  : J_TIME;
    default: return J_TYPED;
    }
}

/* Room for one more step. */
static struct plan_step *new_step(struct json_plan *p)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        struct plan_step *s = realloc(p->steps, cap * sizeof *s);
        if (!s)
            return NULL;
        p->steps = s;
        p->cap = cap;
    }
    struct plan_step *s = &p->steps[p->n++];
    memset(s, 0, sizeof *s);
    return s;
}

/* Adds value bytes to the room of an element's text. */
static int add_room(struct json_plan *p, size_t value)
{
    if (p->room > SIZE_MAX - value)
        return -1;
    p->room += value;
    return 0;
}

/* A new step after the text since the last one: that text in it, or in
 * a J_TEXT step of its own before it when longer than LIT_BLOCK, its
 * room counted. NULL when out of memory or the room overflows. */
static struct plan_step *text_step(struct json_plan *p)
{
    size_t lit_len = p->text.bytes.len - p->pending;
    struct plan_step *s;
    if (lit_len > LIT_BLOCK) {
        if (!(s = new_step(p)) || add_room(p, lit_len) != 0)
            return NULL;
        s->op = J_TEXT;
        s->text = p->pending;
        s->text_len = lit_len;
        lit_len = 0;
    }
    if (!(s = new_step(p)) || add_room(p, LIT_BLOCK) != 0)
        return NULL;
    if (lit_len)
        memcpy(s->lit, p->text.bytes.buf + p->text.bytes.len - lit_len, lit_len);
    s->lit_len = (unsigned char)lit_len;
    p->pending = p->text.bytes.len;
    return s;
}

/* A step writing `count` scalars of op (plan_scalar_op's; `size` bytes
 * each in byte order `order`, `stride` apart) from offset: runs only of
 * small integers. */
static int add_step(struct json_plan *p, const npydt_dtype *dt, uint64_t offset, unsigned char op,
                    size_t size, char order, uint64_t count, uint64_t stride)
{
    if (count > PLAN_MAX_STEPS - p->scalars)
        return -1;
    struct plan_step *s = text_step(p);
    if (!s)
        return -1;
    s->offset = offset;
    s->dt = dt;
    s->size = size;
    s->count = count;
    s->stride = stride;
    unsigned char jop = json_op(op, (char)npydt_dtype_kind(dt), p->style);
    int swap = size > 1 && text_order_swaps(order);
    if (count > 1) {   /* a run of small integers */
        s->elem = jop;
        s->swap = (unsigned char)swap;
        jop = J_INTS;
    } else if (jop >= J_ORDERED && jop < J_ORDERED_END && swap) {
        jop = (unsigned char)(jop + J_SWAP);
    }
    s->op = jop;
    /* the value (a typed one reserves its own; each integer of a run a
     * comma and text_decimal_i64's room) */
    size_t value = jop == J_BYTES ? TEXT_JSON_ESCAPED_MAX(size)
                   : jop == J_TYPED ? 0
                   : jop == J_INTS ? (size_t)count * 22 : DUMP_NUMBER_ROOM;
    if (add_room(p, value) != 0)
        return -1;
    s->rest = p->room;   /* plan_build makes it what is left after it */
    p->scalars += (size_t)count;
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
    unsigned char op = plan_scalar_op(dt);
    if (op == OP_BYTES)   /* the quotes are text */
        sink_putc(&p->text, '"');
    if (add_step(p, dt, offset, op, size, order, 1, 0) != 0)
        return -1;
    if (op == OP_BYTES)
        sink_putc(&p->text, '"');
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
               size_t nsel, const struct value_style *style, const char *end)
{
    memset(p, 0, sizeof *p);
    sink_init(&p->text, SINK_MEMORY);
    p->style = style;
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
    sink_puts(&p->text, end);
    /* the last text, in the step that ends the element (J_END: zeroed) */
    if (rc == 0 && !p->text.bytes.failed && !text_step(p))
        rc = -1;
    if (rc != 0 || p->text.bytes.failed) {
        plan_free(p);
        return -1;
    }
    for (size_t i = 0; i < p->n; i++)
        p->steps[i].rest = p->room - p->steps[i].rest;   /* was: room up to its end */
    return 0;
}

/* "NaT" in the style at o; the end. */
static char *put_nat(const struct dumper *d, char *o)
{
    memcpy(o, d->style.nan_null ? "null" : "\"NaT\"", 5);
    return o + (d->style.nan_null ? 4 : 5);
}

/* The n elements at recs by the steps of p, each in the room it
 * reserves; as plan_put_run. */
static int put_elements(struct dumper *d, struct sink *out, const struct json_plan *p,
                        const unsigned char *const *recs, size_t n)
{
    for (size_t k = 0; k < n;) {
        char *o = sink_room(out, p->room);
        if (!o)
            return 0;   /* out of memory: out->failed tells */
        /* the elements whose room is there now, one after the other */
        size_t fit = (out->bytes.cap - out->bytes.len) / p->room;
        size_t end = fit < n - k ? k + fit : n;
        for (; k < end; k++) {
            const unsigned char *rec = recs[k];
            for (const struct plan_step *s = p->steps;; s++) {
                memcpy(o, s->lit, LIT_BLOCK);
                o += s->lit_len;
                const unsigned char *v = rec + s->offset;
                int64_t iv;
                uint64_t u;
                uint32_t b32;
                double f;
                switch (s->op) {
                case J_END:
                    goto done;
                case J_TEXT:
                    memcpy(o, p->text.bytes.buf + s->text, s->text_len);
                    o += s->text_len;
                    continue;
                case J_I1: iv = plan_signed8(v[0]); break;
                case J_U1: iv = v[0]; break;
                case J_BOOL:
                    memcpy(o, v[0] ? "true" : "false", 5);
                    o += v[0] ? 4 : 5;
                    continue;
                case J_BYTES:
                    o += text_json_escape_field(o, v, s->size);
                    continue;
                case J_INTS:
                    for (uint64_t i = 1;; i++) {
                        switch (s->elem) {   /* the same branch for the whole run */
                        case J_I1: iv = plan_signed8(v[0]); break;
                        case J_I2: iv = plan_signed16(text_load16(v, s->swap)); break;
                        case J_I4: iv = plan_signed32(text_load32(v, s->swap)); break;
                        case J_U1: iv = v[0]; break;
                        case J_U2: iv = text_load16(v, s->swap); break;
                        default: iv = text_load32(v, s->swap); break;
                        }
                        o += text_decimal_i64(iv, o);
                        if (i >= s->count)
                            break;
                        *o++ = ',';
                        v += s->stride;
                    }
                    continue;
                case J_I2: iv = plan_signed16(text_load16(v, false)); break;
                case J_I4: iv = plan_signed32(text_load32(v, false)); break;
                case J_U2: iv = text_load16(v, false); break;
                case J_U4: iv = text_load32(v, false); break;
                case J_I8: iv = plan_signed64(text_load64(v, false)); break;
                case J_U8:
                    o += text_decimal_u64(text_load64(v, false), o);
                    continue;
                case J_I8_BIG: iv = plan_signed64(text_load64(v, false)); goto big;
                case J_U8_BIG: u = text_load64(v, false); goto big_u;
                case J_F4: f = text_f32_of_bits(text_load32(v, false)); goto f4;
                case J_F4_OWN: b32 = text_load32(v, false); goto f4_own;
                case J_F8: f = text_f64_of_bits(text_load64(v, false)); goto f8;
                case J_TIME: iv = plan_signed64(text_load64(v, false)); goto time;
                case J_TIME_BIG: iv = plan_signed64(text_load64(v, false)); goto time_big;
                case J_TIME_ISO: iv = plan_signed64(text_load64(v, false)); goto time_iso;
                /* the same, byte swapped first */
                case J_I2 + J_SWAP: iv = plan_signed16(text_load16(v, true)); break;
                case J_I4 + J_SWAP: iv = plan_signed32(text_load32(v, true)); break;
                case J_U2 + J_SWAP: iv = text_load16(v, true); break;
                case J_U4 + J_SWAP: iv = text_load32(v, true); break;
                case J_I8 + J_SWAP: iv = plan_signed64(text_load64(v, true)); break;
                case J_U8 + J_SWAP:
                    o += text_decimal_u64(text_load64(v, true), o);
                    continue;
                case J_I8_BIG + J_SWAP:
                    iv = plan_signed64(text_load64(v, true));
                big:
                    o += dump_int_json(d, iv, o);
                    continue;
                case J_U8_BIG + J_SWAP:
                    u = text_load64(v, true);
                big_u:
                    o += dump_uint_json(d, u, o);
                    continue;
                case J_F4 + J_SWAP:
                    f = text_f32_of_bits(text_load32(v, true));
                f4:
                    o += isfinite(f) ? text_float_f64(f, o) : dump_nonfinite_json(d, 4, f, o);
                    continue;
                case J_F4_OWN + J_SWAP:
                    b32 = text_load32(v, true);
                f4_own:
                    f = text_f32_of_bits(b32);
                    o += isfinite(f) ? text_float_f32(b32, o) : dump_nonfinite_json(d, 4, f, o);
                    continue;
                case J_F8 + J_SWAP:
                    f = text_f64_of_bits(text_load64(v, true));
                f8:
                    o += isfinite(f) ? text_float_f64(f, o) : dump_nonfinite_json(d, 8, f, o);
                    continue;
                case J_TIME + J_SWAP:
                    iv = plan_signed64(text_load64(v, true));
                time:
                    if (iv == NPYDT_NAT) {
                        o = put_nat(d, o);
                        continue;
                    }
                    break;
                case J_TIME_BIG + J_SWAP:
                    iv = plan_signed64(text_load64(v, true));
                time_big:
                    o = iv == NPYDT_NAT ? put_nat(d, o) : o + dump_int_json(d, iv, o);
                    continue;
                case J_TIME_ISO + J_SWAP:
                    iv = plan_signed64(text_load64(v, true));
                time_iso:
                    if (iv == NPYDT_NAT) {
                        o = put_nat(d, o);
                        continue;
                    }
                    goto typed;
                default:   /* no other op is made */
                    __builtin_unreachable();
                case J_TYPED:
                typed:
                    out->bytes.len = (size_t)(o - out->bytes.buf);
                    if (dump_put_value(d, out, s->dt, v) != 0)
                        return -1;
                    if (!(o = sink_room(out, s->rest)))
                        return 0;
                    end = k + 1;   /* its writer may have moved the text */
                    continue;
                }
                o += text_decimal_i64(iv, o);
            }
        done:;
        }
        out->bytes.len = (size_t)(o - out->bytes.buf);
    }
    return 0;
}

int plan_put(struct dumper *d, struct sink *out, const struct json_plan *p,
             const unsigned char *rec)
{
    return put_elements(d, out, p, &rec, 1);
}

int plan_put_run(struct dumper *d, struct sink *out, const struct json_plan *p,
                 const unsigned char *const *recs, size_t n)
{
    return put_elements(d, out, p, recs, n);
}

void plan_free(struct json_plan *p)
{
    sink_free(&p->text);
    free(p->steps);
    memset(p, 0, sizeof *p);
}

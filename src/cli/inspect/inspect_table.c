/* inspect's table of leaves: one row per scalar field of the record, in
 * record order, with its path, offset, type, byte order and element count.
 *
 * The leaf table (npydt_dtype_leaves) gives paths, offsets and repeats; a
 * walk of the dtype tree in the same order adds what the leaf table does
 * not keep: each field's title and its own subarray shape, written as
 * NumPy writes them ("('Title', 't')", "(2, 2)<f8"). Names are padded by
 * the columns a terminal gives them (npydt_text_width), so that rows of
 * CJK or combining names stay aligned.
 *
 * A table is printed whole or not at all, holding one row at a time:
 * every row is first laid out once without printing, which grows the
 * buffers of a row (the path, the two cells, the walk's stack) to what
 * the longest row needs; printing lays the rows out again into those
 * buffers, which then cannot fail. */
#include "cli/inspect/inspect.h"
#include "cli/common/sink.h"
#include "cli/common/report.h"

#include <stdlib.h>
#include <string.h>

/* The field column's width in terminal columns; a longer name moves the
 * rest of its row to the right. */
#define FIELD_MIN_WIDTH 24

/* What the tree walk knows of one leaf. */
struct leaf_info {
    const npydt_dtype *parent;   /* the struct that holds its field; NULL at the root */
    size_t index;                /* the field's index in parent */
    const npydt_dtype *field;    /* the field's own dtype (a subarray, or the scalar) */
};

/* One level of the walk: a struct and the next field to visit. */
struct frame {
    const npydt_dtype *st;
    size_t next;
};

struct inspect_table {
    const npydt_dtype *dt;
    const npydt_leaf *leaves;
    size_t n;
    int walked;                  /* the walk gives titles and subarray shapes */
    /* the walk of the dtype tree, in record order */
    struct frame *stack;
    size_t depth, cap;
    int root_done;               /* a root that is not a struct: its one leaf given */
    /* the row being laid out: its leaf's path, spelled into one buffer
     * that every row reuses (the table keeps paths as steps that share
     * their prefixes) */
    struct text_buf p;
    struct sink field, type;
};

static const npydt_dtype *strip_subarrays(const npydt_dtype *dt)
{
    while (npydt_dtype_get_class(dt) == NPYDT_SUBARRAY)
        dt = npydt_dtype_base(dt);
    return dt;
}

static void walk_start(struct inspect_table *t)
{
    t->depth = 0;
    t->root_done = 0;
    const npydt_dtype *base = strip_subarrays(t->dt);
    if (npydt_dtype_get_class(base) == NPYDT_STRUCT)
        t->stack[t->depth++] = (struct frame){base, 0};
}

/* The next leaf of the walk in *info: 1; 0 at the end, -1 when out of
 * memory. */
static int walk_next(struct inspect_table *t, struct leaf_info *info)
{
    if (npydt_dtype_get_class(strip_subarrays(t->dt)) != NPYDT_STRUCT) {
        if (t->root_done)
            return 0;
        t->root_done = 1;
        *info = (struct leaf_info){NULL, 0, t->dt};
        return 1;
    }
    while (t->depth > 0) {
        struct frame *f = &t->stack[t->depth - 1];
        if (f->next == npydt_dtype_nfields(f->st)) {
            t->depth--;
            continue;
        }
        size_t i = f->next++;
        const npydt_dtype *field = npydt_dtype_field_dtype(f->st, i);
        const npydt_dtype *b = strip_subarrays(field);
        if (npydt_dtype_get_class(b) != NPYDT_STRUCT) {
            *info = (struct leaf_info){f->st, i, field};
            return 1;
        }
        if (t->depth == t->cap) {
            if (t->cap > SIZE_MAX / 2 / sizeof *t->stack)
                return -1;
            struct frame *bigger = realloc(t->stack, 2 * t->cap * sizeof *t->stack);
            if (!bigger)
                return -1;
            t->stack = bigger;
            t->cap *= 2;
        }
        t->stack[t->depth++] = (struct frame){b, 0};
    }
    return 0;
}

/* The type of a field as NumPy writes a subarray's shape and base:
 * "(2, 2)<f8"; a subarray of subarrays (which NumPy keeps as levels) one
 * shape per level, outermost first: "(3,)(2,)<f8"; a plain scalar as its
 * str ("<f8"). */
static void type_text(struct sink *out, const npydt_dtype *field)
{
    const npydt_dtype *b = field;
    for (; npydt_dtype_get_class(b) == NPYDT_SUBARRAY; b = npydt_dtype_base(b))
        text_shape_tuple(&out->bytes, npydt_dtype_shape(b), npydt_dtype_ndim(b));
    char str[64];
    npydt_dtype_str(b, str, sizeof str);
    sink_puts(out, str);
}

/* A name or title as Python's repr() quotes it: single quotes unless the
 * text holds one and no double quote; backslash, the quote and control
 * characters escaped. */
static void put_quoted(struct sink *out, const char *s, size_t len)
{
    char q = memchr(s, '\'', len) && !memchr(s, '"', len) ? '"' : '\'';
    sink_putc(out, q);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        if (c == '\\' || c == (unsigned char)q)
            snprintf(esc, sizeof esc, "\\%c", c);
        else if (c == '\n')
            strcpy(esc, "\\n");
        else if (c == '\r')
            strcpy(esc, "\\r");
        else if (c == '\t')
            strcpy(esc, "\\t");
        else if (c < 0x20 || c == 0x7f)
            snprintf(esc, sizeof esc, "\\x%02x", c);
        else {
            sink_putc(out, (char)c);
            continue;
        }
        sink_puts(out, esc);
    }
    sink_putc(out, q);
}

/* len bytes of s with controls and line breaks escaped, as in error
 * lines. */
static void put_text(struct sink *out, const char *s, size_t len)
{
    if (len > SIZE_MAX / 4) {
        out->bytes.failed = true;
        return;
    }
    char *room = sink_room(out, CLI_TEXT_ESCAPED_MAX(len));
    if (room)
        out->bytes.len += cli_text_escape_into(room, s, len);
}

/* Spell leaf i's path into p; -1 when out of memory. */
static int path_of(struct text_buf *p, const npydt_dtype *dt, size_t i)
{
    size_t len = npydt_dtype_leaf_path(dt, i, NULL, 0);
    p->len = 0;
    char *s = len < SIZE_MAX ? text_buf_room(p, len + 1) : NULL;
    if (!s)
        return -1;
    npydt_dtype_leaf_path(dt, i, s, len + 1);
    p->len = len;
    return 0;
}

/* The field column of a leaf of path p: its path (controls and line
 * breaks escaped, as in error lines), the last name written as NumPy
 * writes a titled field, "('Title', 'name')"; "''" for an empty path. */
static void field_text(struct sink *out, const struct text_buf *p, const struct leaf_info *info)
{
    const char *title = info && info->parent ? npydt_dtype_field_title(info->parent, info->index)
                                             : NULL;
    if (!title) {
        if (p->len)
            put_text(out, p->buf, p->len);
        else
            sink_puts(out, "''");
        return;
    }
    size_t nlen = npydt_dtype_field_name_len(info->parent, info->index);
    size_t prefix = p->len >= nlen ? p->len - nlen : 0;
    put_text(out, p->buf, prefix);
    sink_putc(out, '(');
    put_quoted(out, title, npydt_dtype_field_title_len(info->parent, info->index));
    sink_puts(out, ", ");
    put_quoted(out, npydt_dtype_field_name(info->parent, info->index), nlen);
    sink_putc(out, ')');
}

static void print_row(FILE *out, const struct inspect_table *t, const npydt_leaf *l)
{
    size_t fw = npydt_text_width(t->field.bytes.buf, t->field.bytes.len);
    size_t tw = npydt_text_width(t->type.bytes.buf, t->type.bytes.len);
    fputs("  ", out);
    fwrite(t->field.bytes.buf, 1, t->field.bytes.len, out);
    fprintf(out, "%*s %8llu  ", fw < FIELD_MIN_WIDTH ? (int)(FIELD_MIN_WIDTH - fw) : 0, "",
            (unsigned long long)l->offset);
    fwrite(t->type.bytes.buf, 1, t->type.bytes.len, out);
    fprintf(out, "%*s %5c  %llu", tw < 12 ? (int)(12 - tw) : 0, "", l->byteorder,
            (unsigned long long)l->count);
    for (uint32_t k = 0; k < l->nrepeats; k++)
        fprintf(out, "%s%llux%lluB", k ? " " : "  [", (unsigned long long)l->repeats[k].count,
                (unsigned long long)l->repeats[k].stride);
    fputs(l->nrepeats ? "]\n" : "\n", out);
}

/* Lay out every row, printing each to out (NULL: lay out only). 0; -1
 * when out of memory, 1 when the walk and the leaf table disagree. */
static int rows(struct inspect_table *t, FILE *out)
{
    if (t->walked)
        walk_start(t);
    for (size_t i = 0; i < t->n; i++) {
        struct leaf_info info;
        const struct leaf_info *ip = NULL;
        if (t->walked) {
            int w = walk_next(t, &info);
            if (w <= 0)
                return w < 0 ? -1 : 1;
            ip = &info;
        }
        if (path_of(&t->p, t->dt, i) != 0)
            return -1;
        const npydt_leaf *l = &t->leaves[i];
        t->field.bytes.len = t->type.bytes.len = 0;
        field_text(&t->field, &t->p, ip);
        if (ip) {
            type_text(&t->type, ip->field);
        } else {
            char str[64];
            npydt_dtype_str(l->dtype, str, sizeof str);
            sink_puts(&t->type, str);
        }
        if (t->field.bytes.failed || t->type.bytes.failed)
            return -1;
        if (out)
            print_row(out, t, l);
    }
    if (t->walked) {
        struct leaf_info extra;
        int w = walk_next(t, &extra);
        if (w != 0)
            return w < 0 ? -1 : 1;
    }
    return 0;
}

void inspect_table_free(struct inspect_table *t)
{
    if (!t)
        return;
    free(t->stack);
    text_buf_free(&t->p);
    sink_free(&t->field);
    sink_free(&t->type);
    free(t);
}

int inspect_table_prepare(const npydt_dtype *dt, struct inspect_table **out)
{
    struct inspect_table *t = calloc(1, sizeof *t);
    *out = NULL;
    if (!t)
        return -1;
    t->dt = dt;
    t->leaves = npydt_dtype_leaves(dt, &t->n);
    sink_init(&t->field, SINK_MEMORY);
    sink_init(&t->type, SINK_MEMORY);
    t->p = text_buf_growing(text_libc_realloc, NULL, 0);
    t->cap = 16;
    t->stack = malloc(t->cap * sizeof *t->stack);
    if (!t->stack) {
        inspect_table_free(t);
        return -1;
    }
    /* without the walk (were it to disagree with the table), plain leaf
     * types */
    t->walked = 1;
    int rc = rows(t, NULL);
    if (rc == 1) {
        t->walked = 0;
        rc = rows(t, NULL);
    }
    if (rc != 0) {
        inspect_table_free(t);
        return -1;
    }
    *out = t;
    return 0;
}

void inspect_table_print(FILE *out, struct inspect_table *t)
{
    fprintf(out, "  %-*s %8s  %-12s %5s  %s\n", FIELD_MIN_WIDTH, "field", "offset", "type",
            "order", "elements");
    /* the buffers hold the longest row: nothing is allocated */
    (void)rows(t, out);
}

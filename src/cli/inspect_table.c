/* inspect's table of leaves: one row per scalar field of the record, in
 * record order, with its path, offset, type, byte order and element count.
 *
 * The leaf table (npydt_dtype_leaves) gives paths, offsets and repeats; a
 * walk of the dtype tree in the same order adds what the leaf table does
 * not keep: each field's title and its own subarray shape, written as
 * NumPy writes them ("('Title', 't')", "(2, 2)<f8"). Names are padded by
 * the columns a terminal gives them (npydt_text_width), so that rows of
 * CJK or combining names stay aligned. */
#include "cli.h"

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

/* Fill info[0 .. n) in record order (the order of the leaf table);
 * 0, -1 when out of memory, 1 when the walk and the table disagree. */
static int walk(const npydt_dtype *root, struct leaf_info *info, size_t n)
{
    size_t k = 0, depth = 0, cap = 16;
    const npydt_dtype *base = root;
    while (npydt_dtype_get_class(base) == NPYDT_SUBARRAY)
        base = npydt_dtype_base(base);
    if (npydt_dtype_get_class(base) != NPYDT_STRUCT) {
        info[0] = (struct leaf_info){NULL, 0, root};   /* its one leaf */
        return 0;
    }
    struct frame *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return -1;
    stack[depth++] = (struct frame){base, 0};
    int rc = 0;
    while (depth > 0 && rc == 0) {
        struct frame *f = &stack[depth - 1];
        if (f->next == npydt_dtype_nfields(f->st)) {
            depth--;
            continue;
        }
        size_t i = f->next++;
        const npydt_dtype *field = npydt_dtype_field_dtype(f->st, i);
        const npydt_dtype *b = field;
        while (npydt_dtype_get_class(b) == NPYDT_SUBARRAY)
            b = npydt_dtype_base(b);
        if (npydt_dtype_get_class(b) == NPYDT_STRUCT) {
            if (depth == cap) {
                struct frame *bigger = realloc(stack, 2 * cap * sizeof *stack);
                if (!bigger) {
                    rc = -1;
                    break;
                }
                stack = bigger;
                cap *= 2;
            }
            stack[depth++] = (struct frame){b, 0};
        } else if (k < n) {
            info[k++] = (struct leaf_info){f->st, i, field};
        } else {
            rc = 1;
        }
    }
    free(stack);
    return rc != 0 ? rc : k == n ? 0 : 1;
}

/* The type of a field as NumPy writes a subarray's shape and base:
 * "(2, 2)<f8"; a subarray of subarrays (which NumPy keeps as levels) one
 * shape per level, outermost first: "(3,)(2,)<f8"; a plain scalar as its
 * str ("<f8"). */
static void type_text(FILE *out, const npydt_dtype *field)
{
    const npydt_dtype *b = field;
    for (; npydt_dtype_get_class(b) == NPYDT_SUBARRAY; b = npydt_dtype_base(b)) {
        size_t ndim = npydt_dtype_ndim(b);
        putc('(', out);
        for (size_t d = 0; d < ndim; d++)
            fprintf(out, "%s%llu", d ? ", " : "", (unsigned long long)npydt_dtype_shape(b)[d]);
        fputs(ndim == 1 ? ",)" : ")", out);
    }
    char str[64];
    npydt_dtype_str(b, str, sizeof str);
    fputs(str, out);
}

/* A name or title as Python's repr() quotes it: single quotes unless the
 * text holds one and no double quote; backslash, the quote and control
 * characters escaped. */
static void put_quoted(FILE *out, const char *s, size_t len)
{
    char q = memchr(s, '\'', len) && !memchr(s, '"', len) ? '"' : '\'';
    putc(q, out);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == (unsigned char)q)
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c == '\r')
            fputs("\\r", out);
        else if (c == '\t')
            fputs("\\t", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\x%02x", c);
        else
            putc(c, out);
    }
    putc(q, out);
}

/* A leaf's path, spelled into one buffer that every row reuses: the
 * table keeps paths as steps that share their prefixes. */
struct path {
    char *s;
    size_t len, cap;
};

/* Spell leaf i's path into p; -1 when out of memory. */
static int path_of(struct path *p, const npydt_dtype *dt, size_t i)
{
    p->len = npydt_dtype_leaf_path(dt, i, NULL, 0);
    if (p->len >= p->cap) {
        char *bigger = realloc(p->s, p->len + 1);
        if (!bigger)
            return -1;
        p->s = bigger;
        p->cap = p->len + 1;
    }
    npydt_dtype_leaf_path(dt, i, p->s, p->cap);
    return 0;
}

/* The field column of a leaf of path p: its path (controls and line
 * breaks escaped, as in error lines), the last name written as NumPy
 * writes a titled field, "('Title', 'name')"; "''" for an empty path. */
static void field_text(FILE *out, const struct path *p, const struct leaf_info *info)
{
    const char *title = info && info->parent ? npydt_dtype_field_title(info->parent, info->index)
                                             : NULL;
    if (!title) {
        if (p->len)
            cli_put_text_n(out, p->s, p->len);
        else
            fputs("''", out);
        return;
    }
    size_t nlen = npydt_dtype_field_name_len(info->parent, info->index);
    size_t prefix = p->len >= nlen ? p->len - nlen : 0;
    cli_put_text_n(out, p->s, prefix);
    putc('(', out);
    put_quoted(out, title, npydt_dtype_field_title_len(info->parent, info->index));
    fputs(", ", out);
    put_quoted(out, npydt_dtype_field_name(info->parent, info->index), nlen);
    putc(')', out);
}

/* Print into a string (open_memstream); NULL when out of memory. */
static char *cell(const npydt_leaf *l, const struct path *p, const struct leaf_info *info,
                  int field, size_t *len)
{
    char *text = NULL;
    FILE *m = open_memstream(&text, len);
    if (!m)
        return NULL;
    if (field)
        field_text(m, p, info);
    else if (info)
        type_text(m, info->field);
    else {
        char str[64];
        npydt_dtype_str(l->dtype, str, sizeof str);
        fputs(str, m);
    }
    int bad = ferror(m);
    if (fclose(m) != 0 || bad) {
        free(text);
        return NULL;
    }
    return text;
}

int inspect_print_table(FILE *out, const npydt_dtype *dt)
{
    size_t n;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &n);
    struct leaf_info *info = calloc(n ? n : 1, sizeof *info);
    if (!info)
        return -1;
    /* without the walk (were it to disagree with the table), plain leaf
     * types */
    int w = walk(dt, info, n);
    if (w < 0) {
        free(info);
        return -1;
    }
    int walked = w == 0;
    fprintf(out, "  %-*s %8s  %-12s %5s  %s\n", FIELD_MIN_WIDTH, "field", "offset", "type",
            "order", "elements");
    int rc = 0;
    struct path p = {NULL, 0, 0};
    for (size_t i = 0; i < n && rc == 0; i++) {
        const npydt_leaf *l = &leaves[i];
        size_t flen, tlen;
        char *f = path_of(&p, dt, i) == 0 ? cell(l, &p, walked ? &info[i] : NULL, 1, &flen) : NULL;
        char *t = f ? cell(l, &p, walked ? &info[i] : NULL, 0, &tlen) : NULL;
        if (!t) {
            free(f);
            rc = -1;
            break;
        }
        size_t fw = npydt_text_width(f, flen), tw = npydt_text_width(t, tlen);
        fputs("  ", out);
        fwrite(f, 1, flen, out);
        fprintf(out, "%*s %8llu  ", fw < FIELD_MIN_WIDTH ? (int)(FIELD_MIN_WIDTH - fw) : 0, "",
                (unsigned long long)l->offset);
        fwrite(t, 1, tlen, out);
        fprintf(out, "%*s %5c  %llu", tw < 12 ? (int)(12 - tw) : 0, "", l->byteorder,
                (unsigned long long)l->count);
        for (uint32_t k = 0; k < l->nrepeats; k++)
            fprintf(out, "%s%llux%lluB", k ? " " : "  [", (unsigned long long)l->repeats[k].count,
                    (unsigned long long)l->repeats[k].stride);
        fputs(l->nrepeats ? "]\n" : "\n", out);
        free(f);
        free(t);
    }
    free(p.s);
    free(info);
    return rc;
}

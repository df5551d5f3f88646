/* npydt stats: writing what the accumulator found, as one JSON object
 * per array (doc/cli-json.md) or as a table for people. Each column of
 * the accumulator becomes cells of text first (cell_*), which both
 * formats share. */
#include "cli/stats/stats.h"
#include "cli/common/json.h"
#include "cli/common/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The text of a column's name: the leaf path, .flat[k] of an element
 * (its C-order position among the leaf's elements in a record), and
 * .real / .imag for a part (as NumPy spells a complex's parts). Growing
 * text; NULL out of memory. */
static char *column_name(const npydt_dtype *dt, const npydt_stats_result *r, size_t *len)
{
    size_t plen = npydt_dtype_leaf_path(dt, r->leaf, NULL, 0);
    size_t size = plen + 40;
    char *name = malloc(size);
    if (!name)
        return NULL;
    npydt_dtype_leaf_path(dt, r->leaf, name, plen + 1);
    struct text_buf b = text_buf_fixed(name, size);
    b.len = plen;
    if (r->element != NPYDT_STATS_POOLED) {
        char d[24];   /* text_decimal_u64's room */
        text_buf_puts(&b, ".flat[");
        text_buf_write(&b, d, text_decimal_u64(r->element, d));
        text_buf_putc(&b, ']');
    }
    if (r->part != NPYDT_STATS_VALUE)
        text_buf_puts(&b, r->part == NPYDT_STATS_REAL ? ".real" : ".imag");
    text_buf_terminate(&b);
    *len = b.len;
    return name;
}

/* A double as JSON: its shortest text, NaN and the infinities as strings. */
static void json_double(FILE *out, double v)
{
    char t[TEXT_FLOAT_MAX];
    text_float_f64(v, t);
    if (isfinite(v))
        fputs(t, out);
    else
        fprintf(out, "\"%s\"", t);
}

/* min or max of a column as JSON (null when there is none). */
static void json_extreme(FILE *out, const npydt_stats_result *r, int max)
{
    char d[24];
    if (r->valid == 0 || strchr("SUV", r->kind)) {
        fputs("null", out);
        return;
    }
    switch (r->kind) {
    case 'b': fputs((max ? r->max_i : r->min_i) ? "true" : "false", out); return;
    case 'u': d[text_decimal_u64(max ? r->max_u : r->min_u, d)] = '\0'; fputs(d, out); return;
    case 'i': case 'm': d[text_decimal_i64(max ? r->max_i : r->min_i, d)] = '\0'; fputs(d, out); return;
    case 'M': json_string(out, max ? r->max_text : r->min_text); return;
    default: json_double(out, max ? r->max_f : r->min_f); return;
    }
}

static const char *const order_names[] = {"ascending", "strictly_ascending", "descending",
                                          "strictly_descending"};

int stats_print_json(FILE *out, const struct cli_input *in, const npydt_header *h,
                     uint64_t seen, const npydt_stats *s)
{
    const npydt_dtype *dt = npydt_header_dtype(h);
    cli_json_input_head(out, in);
    fprintf(out, ",\"count\":%llu,\"columns\":[", (unsigned long long)seen);
    for (size_t i = 0; i < npydt_stats_count(s); i++) {
        npydt_stats_result r;
        npydt_stats_get(s, i, &r, NULL);
        size_t n;
        const npydt_leaf *l = &npydt_dtype_leaves(dt, &n)[r.leaf];
        char *name = column_name(dt, &r, &n);
        if (!name)
            return -1;
        char str[64];
        npydt_dtype_str(l->dtype, str, sizeof str);
        fputs(i ? ",{\"path\":" : "{\"path\":", out);
        json_string_n(out, name, n);
        free(name);
        fputs(",\"element\":", out);
        if (r.element == NPYDT_STATS_POOLED)
            fputs("null", out);
        else
            fprintf(out, "%llu", (unsigned long long)r.element);
        fprintf(out, ",\"part\":%s,\"dtype\":",
                r.part == NPYDT_STATS_VALUE ? "null" : r.part == NPYDT_STATS_REAL ? "\"real\"" : "\"imag\"");
        json_string(out, str);
        fprintf(out, ",\"count\":%llu,\"valid\":%llu,\"nan\":%llu,\"posinf\":%llu,"
                     "\"neginf\":%llu,\"nat\":%llu,\"zeros\":%llu,\"min\":",
                (unsigned long long)r.count, (unsigned long long)r.valid,
                (unsigned long long)r.nan, (unsigned long long)r.posinf,
                (unsigned long long)r.neginf, (unsigned long long)r.nat,
                (unsigned long long)r.zeros);
        json_extreme(out, &r, 0);
        fputs(",\"max\":", out);
        json_extreme(out, &r, 1);
        int numeric = strchr("biufc", r.kind) != NULL;
        fputs(",\"mean\":", out);
        if (numeric && r.valid)
            json_double(out, r.mean);
        else
            fputs("null", out);
        fputs(",\"std\":", out);
        if (numeric && r.valid)
            json_double(out, r.std);
        else
            fputs("null", out);
        fputs(",\"sorted\":", out);
        if (!r.has_order) {
            fputs("null", out);
        } else {
            putc('[', out);
            for (unsigned k = 0, any = 0; k < 4; k++)
                if (r.sorted & (1u << k))
                    fprintf(out, "%s\"%s\"", any++ ? "," : "", order_names[k]);
            putc(']', out);
        }
        if (strchr("SUV", r.kind) && r.valid)
            fprintf(out, ",\"min_len\":%llu,\"max_len\":%llu,\"distinct\":%.0f}",
                    (unsigned long long)r.min_len, (unsigned long long)r.max_len, r.distinct);
        else if (strchr("SUV", r.kind))
            fputs(",\"min_len\":null,\"max_len\":null,\"distinct\":0}", out);
        else
            fputs(",\"min_len\":null,\"max_len\":null,\"distinct\":null}", out);
    }
    fputs("]}\n", out);
    return 0;
}

/* ---- the table ----------------------------------------------------------------- */

enum { C_NAME, C_TYPE, C_COUNT, C_MISSING, C_INF, C_ZEROS, C_MIN, C_MAX, C_MEAN, C_STD,
       C_SORTED, C_LEN, C_DISTINCT, NCELLS };
static const char *const headings[NCELLS] = {"field", "type", "count", "nan/nat", "inf", "zeros",
                                             "min", "max", "mean", "std", "sorted", "len",
                                             "distinct"};
#define CELL 64

/* A number for people: six significant digits. */
static void cell_g(char *c, double v)
{
    if (isfinite(v))
        snprintf(c, CELL, "%.6g", v);
    else
        text_float_f64(v, c);
}

/* min or max for people: floats of their own type's shortest text. */
static void cell_extreme(char *c, const npydt_stats_result *r, const npydt_leaf *l, int max)
{
    c[0] = '\0';
    if (r->valid == 0 || strchr("SUV", r->kind))
        return;
    double f = max ? r->max_f : r->min_f;
    switch (r->kind) {
    case 'b': strcpy(c, (max ? r->max_i : r->min_i) ? "True" : "False"); return;
    case 'u': c[text_decimal_u64(max ? r->max_u : r->min_u, c)] = '\0'; return;
    case 'i': case 'm': c[text_decimal_i64(max ? r->max_i : r->min_i, c)] = '\0'; return;
    case 'M': snprintf(c, CELL, "%s", max ? r->max_text : r->min_text); return;
    default:
        if (l->itemsize == (r->kind == 'c' ? 8u : 4u))
            text_float_f32(text_bits_of_f32((float)f), c);
        else if (l->itemsize == (r->kind == 'c' ? 4u : 2u))
            text_float_f16(text_bits_of_f16(f), c);
        else
            text_float_f64(f, c);
    }
}

static void cell_sorted(char *c, const npydt_stats_result *r)
{
    const char *t = "";
    if (r->has_order) {
        unsigned s = r->sorted;
        t = (s & NPYDT_SORTED_ASCENDING) && (s & NPYDT_SORTED_DESCENDING) ? "constant"
            : s & NPYDT_SORTED_STRICTLY_ASCENDING                           ? "strictly asc"
            : s & NPYDT_SORTED_ASCENDING                                    ? "ascending"
            : s & NPYDT_SORTED_STRICTLY_DESCENDING                          ? "strictly desc"
            : s & NPYDT_SORTED_DESCENDING                                   ? "descending"
                                                                            : "no";
    }
    strcpy(c, t);
}

static void cell_u64(char *c, uint64_t v)
{
    c[text_decimal_u64(v, c)] = '\0';
}

int stats_print_table(FILE *out, const struct cli_input *in, const npydt_header *h,
                      uint64_t seen, const npydt_stats *s, size_t *printed)
{
    const npydt_dtype *dt = npydt_header_dtype(h);
    size_t ncols = npydt_stats_count(s), width[NCELLS];
    char (*cells)[NCELLS][CELL] = malloc((ncols ? ncols : 1) * sizeof *cells);
    char **names = calloc(ncols ? ncols : 1, sizeof *names);
    size_t *name_len = calloc(ncols ? ncols : 1, sizeof *name_len);
    int failed = !cells || !names || !name_len;
    for (size_t k = 0; k < NCELLS; k++)
        width[k] = strlen(headings[k]);
    for (size_t i = 0; i < ncols && !failed; i++) {
        npydt_stats_result r;
        npydt_stats_get(s, i, &r, NULL);
        size_t n;
        const npydt_leaf *l = &npydt_dtype_leaves(dt, &n)[r.leaf];
        char *c[NCELLS];
        for (size_t k = 0; k < NCELLS; k++) {
            c[k] = cells[i][k];
            c[k][0] = '\0';
        }
        char *name = column_name(dt, &r, &n);
        if (!name) {
            failed = 1;
            break;
        }
        names[i] = malloc(CLI_TEXT_ESCAPED_MAX(n) + 1);
        if (!names[i]) {
            free(name);
            failed = 1;
            break;
        }
        name_len[i] = cli_text_escape_into(names[i], name, n);
        free(name);
        npydt_dtype_str(l->dtype, c[C_TYPE], CELL);
        cell_u64(c[C_COUNT], r.count);
        if (strchr("fcMm", r.kind))
            cell_u64(c[C_MISSING], r.nan + r.nat);
        if (strchr("fc", r.kind))
            cell_u64(c[C_INF], r.posinf + r.neginf);
        if (strchr("biufcm", r.kind))
            cell_u64(c[C_ZEROS], r.zeros);
        cell_extreme(c[C_MIN], &r, l, 0);
        cell_extreme(c[C_MAX], &r, l, 1);
        if (strchr("biufc", r.kind) && r.valid) {
            cell_g(c[C_MEAN], r.mean);
            cell_g(c[C_STD], r.std);
        }
        cell_sorted(c[C_SORTED], &r);
        if (strchr("SUV", r.kind) && r.valid) {
            snprintf(c[C_LEN], CELL, "%llu..%llu", (unsigned long long)r.min_len,
                     (unsigned long long)r.max_len);
            snprintf(c[C_DISTINCT], CELL, "~%.0f", r.distinct);
        }
        size_t nw = npydt_text_width(names[i], name_len[i]);
        width[C_NAME] = nw > width[C_NAME] ? nw : width[C_NAME];
        for (size_t k = 1; k < NCELLS; k++) {
            size_t w = strlen(c[k]);
            width[k] = w > width[k] ? w : width[k];
        }
    }
    if (!failed) {
        if ((*printed)++)
            putc('\n', out);
        cli_put_text_n(out, in->name, strlen(in->name));
        fprintf(out, ": %llu elements\n", (unsigned long long)seen);
        for (size_t k = 0; k < NCELLS; k++)
            if (k + 1 < NCELLS)
                fprintf(out, "%-*s  ", (int)width[k], headings[k]);
            else
                fprintf(out, "%s\n", headings[k]);
        for (size_t i = 0; i < ncols; i++) {
            size_t last = NCELLS;   /* no blanks at the end of a line */
            while (last > 1 && !cells[i][last - 1][0])
                last--;
            fwrite(names[i], 1, name_len[i], out);
            for (size_t k = 1; k < last; k++) {
                size_t w = k == 1 ? npydt_text_width(names[i], name_len[i]) : strlen(cells[i][k - 1]);
                fprintf(out, "%*s%s", (int)(width[k - 1] - w + 2), "", cells[i][k]);
            }
            putc('\n', out);
        }
    }
    for (size_t i = 0; names && i < ncols; i++)
        free(names[i]);
    free(names);
    free(name_len);
    free(cells);
    return failed ? -1 : 0;
}

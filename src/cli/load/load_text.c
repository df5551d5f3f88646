/* The readers of the text formats behind one interface: a reader takes
 * runs of whole lines (CSV: rows) held in memory, each run read where it
 * lies in the input buffer (one thread, load_text) or in a copy (a worker
 * of load_jobs.c). Reading the runs one after the other, or apart and
 * adding their counts, gives the same records and the same first error on
 * the same line: a run ends where the one-thread reader would end one. */
#include "cli/load/jsonl.h"
#include "cli/common/report.h"

#include <stdlib.h>

struct load_reader {
    enum load_format fmt;
    struct jsonl_reader *jsonl;
    struct csv_state *csv;
};

static npydt_status reader_make(enum load_format fmt, struct load_record *rec,
                                const struct load_reader *from, struct load_reader **out,
                                npydt_error *err)
{
    struct load_reader *r = calloc(1, sizeof *r);
    if (r) {
        r->fmt = fmt;
        if (fmt == LOAD_JSONL)
            r->jsonl = jsonl_reader_new(rec, from ? from->jsonl : NULL);
        else
            r->csv = csv_new(rec, fmt == LOAD_TSV ? '\t' : ',', from ? from->csv : NULL);
    }
    if (!r || (!r->jsonl && !r->csv)) {
        free(r);
        return cli_error(err, NPYDT_E_NOMEM, "out of memory");
    }
    *out = r;
    return NPYDT_OK;
}

npydt_status load_reader_new(enum load_format fmt, struct load_record *rec,
                             struct load_reader **r, npydt_error *err)
{
    return reader_make(fmt, rec, NULL, r, err);
}

npydt_status load_reader_clone(const struct load_reader *from, struct load_record *rec,
                               struct load_reader **r, npydt_error *err)
{
    return reader_make(from->fmt, rec, from, r, err);
}

void load_reader_free(struct load_reader *r)
{
    if (!r)
        return;
    jsonl_reader_free(r->jsonl);
    csv_free(r->csv);
    free(r);
}

int load_reader_ready(const struct load_reader *r)
{
    return r->jsonl || csv_ready(r->csv);
}

int load_reader_run(const struct load_reader *r, struct load_lines *lines, size_t *n,
                    npydt_error *err)
{
    return r->fmt == LOAD_CSV ? csv_rows(lines, n, err) : load_lines_whole(lines, n, err);
}

npydt_status load_reader_read(struct load_reader *r, const char *s, size_t n,
                              const struct load_sink *sink, struct load_span *span,
                              npydt_error *err)
{
    return r->jsonl ? jsonl_read(r->jsonl, s, n, sink, span, err)
                    : csv_read(r->csv, s, n, sink, span, err);
}

npydt_status load_reader_end(const struct load_reader *r, npydt_error *err)
{
    return load_reader_ready(r) ? NPYDT_OK : cli_error(err, NPYDT_E_VALUE, "no header row");
}

npydt_status load_text(FILE *in, enum load_format fmt, struct load_record *rec,
                       const struct load_sink *sink, struct load_where *where, npydt_error *err)
{
    struct load_reader *r;
    where->line = 0;
    npydt_status st = load_reader_new(fmt, rec, &r, err);
    if (st != NPYDT_OK)
        return st;
    struct load_lines lines;
    load_lines_init(&lines, in);
    struct load_span span = {0};
    span.line = span.where = fmt == LOAD_CSV;   /* the header is row 1 */
    span.max_records = UINT64_MAX;
    size_t n;
    int got;
    while ((got = load_reader_run(r, &lines, &n, err)) > 0) {
        st = load_reader_read(r, lines.buf + lines.start, n, sink, &span, err);
        lines.start += n;
        if (st != NPYDT_OK)
            break;
    }
    if (st == NPYDT_OK && got < 0)
        st = err->code;
    if (st == NPYDT_OK)
        st = load_reader_end(r, err);
    where->line = span.where;
    load_lines_free(&lines);
    load_reader_free(r);
    return st;
}

npydt_status load_jsonl(FILE *in, struct load_record *rec, const struct load_sink *sink,
                        struct load_where *where, npydt_error *err)
{
    return load_text(in, LOAD_JSONL, rec, sink, where, err);
}

npydt_status load_csv(FILE *in, char sep, struct load_record *rec, const struct load_sink *sink,
                      struct load_where *where, npydt_error *err)
{
    return load_text(in, sep == '\t' ? LOAD_TSV : LOAD_CSV, rec, sink, where, err);
}

/* npydt dump --jsonl: one JSON value an element and line, through the
 * element's plan when it has one (dump_plan.c), else by the typed
 * writers (dump_value.c); with --index-column, the element's flat index
 * first. */
#include "cli/dump/dump.h"

/* The JSON of an element (in one) after its index: {"index":I,...} when
 * it is an object, else {"index":I,"value":V}. */
static void put_indexed(struct sink *out, const struct sink *one, uint64_t flat, int object)
{
    const char *json = one->bytes.buf;
    size_t len = one->bytes.len;
    char *o = sink_room(out, 32);
    if (!o || !json)
        return;
    static const char key[] = "{\"" DUMP_INDEX_NAME "\":";
    memcpy(o, key, sizeof key - 1);
    o += sizeof key - 1;
    o += text_decimal_u64(flat, o);
    out->bytes.len = (size_t)(o - out->bytes.buf);
    if (object) {   /* "{}" or "{...}" */
        if (len > 2)
            sink_putc(out, ',');
        sink_write(out, json + 1, len - 1);
    } else {
        sink_puts(out, ",\"value\":");
        sink_write(out, json, len);
        sink_putc(out, '}');
    }
}

/* --jsonl: an element a line, through its plan when it has one; with
 * --index-column an element is written to the worker's state (a sink)
 * first, then after its index. */
struct jsonl {
    const struct json_plan *plan;
    const npydt_dtype *dt;
    const struct selected *sel;
    size_t nsel;
    int index_column;
    int object;   /* an element is a JSON object */
};

static int jsonl_open(const void *ctx, void *state)
{
    const struct jsonl *j = ctx;
    sink_init(state, SINK_MEMORY);
    return !j->index_column || sink_room(state, 1) ? 0 : -1;
}

static void jsonl_close(void *state)
{
    sink_free(state);
}

static int jsonl_put(const void *ctx, void *state, struct dumper *d, struct sink *out,
                     uint64_t i, uint64_t flat, const unsigned char *rec)
{
    const struct jsonl *j = ctx;
    struct sink *one = state, *to = j->index_column ? one : out;
    (void)i;
    one->bytes.len = 0;
    if ((j->plan ? plan_put(d, to, j->plan, rec)
                 : dump_put_element(d, to, j->dt, rec, j->sel, j->nsel)) != 0)
        return -1;
    if (j->index_column) {
        put_indexed(out, one, flat, j->object);
        sink_putc(out, '\n');
    } else if (!j->plan) {
        sink_putc(out, '\n');   /* a plan's text ends with it */
    }
    return one->bytes.failed ? -1 : 0;
}

/* Without --index-column, a task's elements at once: their plan ends
 * with the line's end. */
static int jsonl_put_run(const void *ctx, void *state, struct dumper *d, struct sink *out,
                         uint64_t first, const unsigned char *const *recs, size_t n)
{
    const struct jsonl *j = ctx;
    (void)state;
    (void)first;
    return plan_put_run(d, out, j->plan, recs, n);
}

int dump_print_jsonl(struct dumper *d, struct sink *out, struct cursor *cur,
                     const struct selection *s, const struct selected *sel, size_t nsel,
                     int index_column, unsigned jobs)
{
    const npydt_dtype *dt = npydt_header_dtype(cur->h);
    struct jsonl j = {NULL, dt, sel, nsel, index_column,
                      sel || npydt_dtype_get_class(dt) == NPYDT_STRUCT};
    struct json_plan plan;
    if (plan_build(&plan, dt, sel, nsel, &d->style, index_column ? "" : "\n") == 0)
        j.plan = &plan;
    struct dump_rows rows = {&j, sizeof(struct sink), jsonl_open, jsonl_put, jsonl_close,
                             j.plan && !index_column ? jsonl_put_run : NULL};
    int rc = dump_rows_run(d, out, cur, s, jobs, &rows);
    if (j.plan)
        plan_free(&plan);
    return rc;
}

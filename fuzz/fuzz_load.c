/* Harness 8: the command's readers of npydt load and append (JSON Lines,
 * CSV, TSV), linked with the command's objects but its main.
 *
 * Input format: byte 0 chooses the reader (its low 2 bits: 1 CSV, 2 TSV,
 * else JSON Lines; FUZZ_LOAD_READER in the environment can pin it, see
 * below); the bytes after it up to the first LF are the --dtype
 * text (a descriptor literal, type string or header dict, compiled as a
 * schema); the bytes after that LF are the input lines. Only dtypes of at
 * most 64 KiB and 4096 scalar elements get read.
 *
 * Oracles: every refusal (of the spec, of the dtype, of a line) fills a
 * complete error and names a line of the input (CSV: a row, which may
 * end at a CR alone). JSON Lines: the reader
 * gives one record per line that is not blank, and agrees line by line
 * with the general walk run here on the same tokens: the same records, or
 * the same status and message on the same first bad line; whenever the
 * dtype's plan takes a line, the general walk reads it without error to
 * the same bytes. Every record read (from any of the three formats) is
 * written as dump --jsonl writes it, by the general printer and by dump's
 * plan (the same text), and that line reads back without error to a
 * record printed as the same text, and to the same bytes when the dtype
 * holds no float (a NaN's payload is not kept). CSV and TSV: read again
 * with the columns' steps off (every cell by the general path), the same
 * records, or the same status, message and row. Every format read as load
 * -j 2 reads it (workers, in runs): the same records, or the same status,
 * message and line, from memory and from a file in runs of a few bytes.
 * Nothing leaks. */
#include "fuzz_util.h"

#include "cli/dump/dump.h"
#include "cli/load/jsonl.h"

#define MAX_ITEMSIZE 65536u
#define MAX_SLOTS 4096u
#define MAX_RECORD_BYTES ((size_t)1 << 20)

/* The records a reader gives, kept in memory. */
struct records {
    unsigned char *bytes;
    size_t n, cap, itemsize;
};

static npydt_status keep(void *ctx, const unsigned char *bytes, npydt_error *err)
{
    struct records *r = ctx;
    if (r->n * r->itemsize + r->itemsize > MAX_RECORD_BYTES) {
        snprintf(err->message, sizeof err->message, "more records than the harness keeps");
        err->code = NPYDT_E_LIMIT;
        err->path[0] = '\0';
        err->offset = NPYDT_NO_OFFSET;
        return NPYDT_E_LIMIT;
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 8;
        unsigned char *b = realloc(r->bytes, cap * (r->itemsize ? r->itemsize : 1));
        FUZZ_CHECK(b != NULL);
        r->bytes = b;
        r->cap = cap;
    }
    memcpy(r->bytes + r->n * r->itemsize, bytes, r->itemsize);
    r->n++;
    return NPYDT_OK;
}

/* Read the input s[0..n) in format fmt into got, as the command does
 * with -j jobs (0: the one-thread reader itself): from memory (a stream,
 * read by the calling thread), or with run (the first run's bytes, a few)
 * from a file (read at offsets by each run's thread). */
static npydt_status read_all(enum load_format fmt, char *s, size_t n, struct load_record *rec,
                             struct records *got, struct load_where *where, npydt_error *err,
                             unsigned jobs, size_t run)
{
    FILE *in;
    if (run) {
        in = tmpfile();
        FUZZ_CHECK(in != NULL);
        FUZZ_CHECK(fwrite(s, 1, n, in) == n && fflush(in) == 0 && fseek(in, 0, SEEK_SET) == 0);
    } else {
        in = n ? fmemopen(s, n, "rb") : fopen("/dev/null", "rb");
        FUZZ_CHECK(in != NULL);
    }
    struct load_sink sink = {keep, got, NULL};
    fuzz_poison_error(err);
    npydt_status st = jobs ? load_text_jobs(in, fmt, jobs, run, rec, &sink, where, err)
                      : fmt == LOAD_JSONL
                          ? load_jsonl(in, rec, &sink, where, err)
                          : load_csv(in, fmt == LOAD_CSV ? ',' : '\t', rec, &sink, where, err);
    fclose(in);
    return st;
}

/* load -j 2 reads what the one-thread reader read: the same records, or
 * the same status and message on the same line (a line ending the run
 * for the harness's own cap on the records it keeps). An input of a
 * dtype wider than 64 KiB / 64 is read by a worker in parts, the rest of
 * each part by the calling thread. From a file (run not 0), in runs of
 * a few bytes: ranges of the file, read and written by their threads. */
static void check_jobs(enum load_format fmt, char *s, size_t n, struct load_record *rec,
                       const struct records *got, npydt_status st, const npydt_error *err,
                       const struct load_where *where, size_t run)
{
    struct records par = {NULL, 0, 0, rec->itemsize};
    struct load_where where2 = {0};
    npydt_error err2;
    npydt_status st2 = read_all(fmt, s, n, rec, &par, &where2, &err2, 2, run);
    FUZZ_CHECK(st2 == st && par.n == got->n);
    FUZZ_CHECK(got->n == 0 || memcmp(par.bytes, got->bytes, got->n * got->itemsize) == 0);
    if (st != NPYDT_OK) {
        FUZZ_CHECK(strcmp(err->message, err2.message) == 0 && strcmp(err->path, err2.path) == 0);
        FUZZ_CHECK(where2.line == where->line ||
                   strcmp(err->message, "more records than the harness keeps") == 0);
    }
    free(par.bytes);
}

static int has_float(const npydt_dtype *dt)
{
    size_t n;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &n);
    for (size_t i = 0; i < n; i++)
        if (leaves[i].kind == 'f' || leaves[i].kind == 'c')
            return 1;
    return 0;
}

static size_t max_unicode(const npydt_dtype *dt)
{
    size_t n, m = 0;
    const npydt_leaf *leaves = npydt_dtype_leaves(dt, &n);
    for (size_t i = 0; i < n; i++)
        if (leaves[i].kind == 'U' && leaves[i].itemsize > m)
            m = leaves[i].itemsize;
    return m;
}

/* The line s[0..n) holds only spaces and tabs. */
static int blank(const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (s[k] != ' ' && s[k] != '\t')
            return 0;
    return 1;
}

/* Tokenize and walk one line into rec (the reader's general path). */
static npydt_status walk_line(struct jsonl_tokens *tk, const char *line, size_t len,
                              struct load_record *rec, npydt_error *err)
{
    char *sbuf = malloc(len ? len : 1);
    FUZZ_CHECK(sbuf != NULL);
    npydt_status st = jsonl_tokenize(tk, line, len, err);
    if (st == NPYDT_OK)
        st = jsonl_walk(line, tk->t, tk->n, rec, sbuf, err);
    free(sbuf);
    return st;
}

/* The reader's JSON Lines result against the same lines read one by one
 * here: the plan checked against the general walk on each. */
static void check_lines(const char *body, size_t size, const npydt_dtype *dt,
                        struct load_record *rec, const struct records *got, npydt_status st,
                        const npydt_error *err, uint64_t bad_line)
{
    size_t max_tokens, max_depth;
    jsonl_caps(dt, &max_tokens, &max_depth);
    struct jsonl_tokens tk;
    jsonl_tokens_init(&tk, max_tokens, max_depth);
    struct jsonl_plan *plan = jsonl_plan_new(dt);
    unsigned char *planned = malloc(rec->itemsize ? rec->itemsize : 1);
    FUZZ_CHECK(planned != NULL);
    npydt_error mine;
    npydt_status my_st = NPYDT_OK;
    uint64_t line_no = 0;
    size_t nrec = 0;
    for (size_t at = 0; at < size && my_st == NPYDT_OK;) {
        const char *nl = memchr(body + at, '\n', size - at);
        size_t end = nl ? (size_t)(nl - body) : size;
        const char *line = body + at;
        size_t len = end - at;
        at = end + 1;
        line_no++;
        if (len && line[len - 1] == '\r')
            len--;
        if (blank(line, len))
            continue;
        memset(planned, 0xA5, rec->itemsize);
        int took = plan && jsonl_plan_read(plan, line, len, planned);
        my_st = walk_line(&tk, line, len, rec, &mine);
        /* what the plan takes, the general walk reads alike */
        if (took)
            FUZZ_CHECK(my_st == NPYDT_OK && memcmp(planned, rec->bytes, rec->itemsize) == 0);
        if (my_st != NPYDT_OK)
            break;
        if (st == NPYDT_E_LIMIT && nrec == got->n)
            break;   /* the harness's own cap stopped the reader here */
        FUZZ_CHECK(nrec < got->n);
        FUZZ_CHECK(memcmp(got->bytes + nrec * got->itemsize, rec->bytes, rec->itemsize) == 0);
        nrec++;
    }
    if (my_st != NPYDT_OK) {
        FUZZ_CHECK(st == my_st);
        FUZZ_CHECK(bad_line == line_no);
        FUZZ_CHECK(strcmp(err->message, mine.message) == 0);
        FUZZ_CHECK(strcmp(err->path, mine.path) == 0);
    } else if (st != NPYDT_E_LIMIT) {
        FUZZ_CHECK(st == NPYDT_OK);
    }
    FUZZ_CHECK(nrec == got->n);
    free(planned);
    jsonl_plan_free(plan);
    jsonl_tokens_free(&tk);
}

/* The record as dump --jsonl writes it, by the general printer and by
 * dump's plan: the same text, into *out (free it). */
static size_t dump_line(struct dumper *d, const npydt_dtype *dt, const unsigned char *p,
                        char **out)
{
    struct sink s;
    sink_init(&s, SINK_MEMORY);
    d->failed = 0;
    int rc = dump_put_element(d, &s, dt, p, NULL, 0);
    if (rc != 0)
        fuzz_fail_status("dump of a record read", d->err.code, &d->err, "", 0);
    FUZZ_CHECK(!s.bytes.failed);
    struct json_plan jp;
    if (plan_build(&jp, dt, NULL, 0, &d->style, "") == 0) {
        struct sink t;
        sink_init(&t, SINK_MEMORY);
        FUZZ_CHECK(plan_put(d, &t, &jp, p) == 0);
        FUZZ_CHECK(!t.bytes.failed);
        FUZZ_CHECK(t.bytes.len == s.bytes.len &&
                   (s.bytes.len == 0 || memcmp(t.bytes.buf, s.bytes.buf, s.bytes.len) == 0));
        sink_free(&t);
        plan_free(&jp);
    }
    *out = s.bytes.buf;
    return s.bytes.len;
}

/* Does text hold a high surrogate's escape right before a low one's? A U
 * string may hold the two code units apart; JSON (like Python's json)
 * spells them as a pair, which reads back as the one code point. */
static int joins_surrogates(const char *t, size_t n)
{
    for (size_t i = 0; i + 12 <= n; i++) {
        if (t[i] != '\\' || t[i + 1] != 'u' || (t[i + 2] | 0x20) != 'd' ||
            t[i + 6] != '\\' || t[i + 7] != 'u' || (t[i + 8] | 0x20) != 'd')
            continue;
        char a = (char)(t[i + 3] | 0x20), b = (char)(t[i + 9] | 0x20);
        size_t k = i; /* an escape starts at an odd backslash of a run */
        while (k > 0 && t[k - 1] == '\\')
            k--;
        if ((i - k) % 2 == 0 && a && strchr("89ab", a) && b && strchr("cdef", b))
            return 1;
    }
    return 0;
}

/* Every record printed as dump --jsonl prints it reads back (to the same
 * bytes but where JSON joins a split surrogate pair). */
static void check_round_trip(const npydt_dtype *dt, struct load_record *rec,
                             const struct records *got)
{
    struct dumper d = {0};
    d.ubuf_size = max_unicode(dt) + 1;
    d.ubuf = malloc(d.ubuf_size);
    FUZZ_CHECK(d.ubuf != NULL);
    size_t max_tokens, max_depth;
    jsonl_caps(dt, &max_tokens, &max_depth);
    struct jsonl_tokens tk;
    jsonl_tokens_init(&tk, max_tokens, max_depth);
    int exact = !has_float(dt);
    for (size_t i = 0; i < got->n; i++) {
        const unsigned char *orig = got->bytes + i * got->itemsize;
        char *text;
        size_t len = dump_line(&d, dt, orig, &text);
        FUZZ_CHECK(memchr(text, '\n', len) == NULL);
        npydt_error err;
        fuzz_poison_error(&err);
        npydt_status st = walk_line(&tk, text, len, rec, &err);
        if (st != NPYDT_OK)
            fuzz_fail_status("reading back a dumped record", st, &err, text, len);
        int joined = joins_surrogates(text, len);
        if (exact && !joined)
            FUZZ_CHECK(memcmp(rec->bytes, orig, got->itemsize) == 0);
        char *again;
        size_t len2 = dump_line(&d, dt, rec->bytes, &again);
        FUZZ_CHECK(joined || (len2 == len && (len == 0 || memcmp(again, text, len) == 0)));
        free(text);
        free(again);
    }
    jsonl_tokens_free(&tk);
    free(d.ubuf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    enum load_format fmt = (data[0] & 3) == 1 ? LOAD_CSV : (data[0] & 3) == 2 ? LOAD_TSV : LOAD_JSONL;
    /* FUZZ_LOAD_READER=jsonl or =csv keeps a campaign on one reader (csv:
     * byte 0's bit 1 chooses TSV), so each reader's hours can be counted. */
    const char *only = getenv("FUZZ_LOAD_READER");
    if (only && strcmp(only, "jsonl") == 0)
        fmt = LOAD_JSONL;
    else if (only && strcmp(only, "csv") == 0)
        fmt = data[0] & 2 ? LOAD_TSV : LOAD_CSV;
    const char *spec = (const char *)data + 1;
    const char *nl = memchr(spec, '\n', size - 1);
    size_t spec_len = nl ? (size_t)(nl - spec) : size - 1;
    const char *body = nl ? nl + 1 : spec + spec_len;
    size_t body_len = size - 1 - spec_len - (nl != NULL);

    npydt_error err;
    fuzz_poison_error(&err);
    npydt_schema *schema = NULL;
    npydt_status st = npydt_schema_compile(spec, spec_len, NULL, &schema, &err);
    if (st != NPYDT_OK) {
        fuzz_check_error(st, &err, spec_len);
        return 0;
    }
    const npydt_dtype *dt = npydt_schema_dtype(schema);
    size_t nleaves;
    if (!dt || npydt_dtype_itemsize(dt) > MAX_ITEMSIZE ||
        (npydt_dtype_leaves(dt, &nleaves), nleaves > MAX_SLOTS)) {
        npydt_schema_free(schema);
        return 0;
    }
    struct load_record rec;
    fuzz_poison_error(&err);
    st = load_record_init(&rec, dt, &err);
    if (st != NPYDT_OK) {
        fuzz_check_error(st, &err, 0);
        FUZZ_CHECK(st == NPYDT_E_OBJECT || st == NPYDT_E_LIMIT);
        npydt_schema_free(schema);
        return 0;
    }
    if (rec.nslots > MAX_SLOTS) {
        load_record_free(&rec);
        npydt_schema_free(schema);
        return 0;
    }

    /* the reader takes a FILE, as the command gives it */
    char *copy = malloc(body_len ? body_len : 1);
    FUZZ_CHECK(copy != NULL);
    if (body_len)
        memcpy(copy, body, body_len);
    struct records got = {NULL, 0, 0, rec.itemsize};
    struct load_where where = {0};
    st = read_all(fmt, copy, body_len, &rec, &got, &where, &err, 0, 0);
    check_jobs(fmt, copy, body_len, &rec, &got, st, &err, &where, 0);
    /* byte 0's bits 2 to 5: the first run's bytes of a file, 1 to 16 */
    check_jobs(fmt, copy, body_len, &rec, &got, st, &err, &where, 1 + (data[0] >> 2 & 15));
    if (fmt != LOAD_JSONL) {
        /* the columns' steps read the rows as the general path does */
        struct records all = {NULL, 0, 0, rec.itemsize};
        struct load_where where2 = {0};
        npydt_error err2;
        rec.general = 1;
        npydt_status st2 = read_all(fmt, copy, body_len, &rec, &all, &where2, &err2, 0, 0);
        rec.general = 0;
        FUZZ_CHECK(st2 == st && where2.line == where.line && all.n == got.n);
        FUZZ_CHECK(got.n == 0 || memcmp(all.bytes, got.bytes, got.n * got.itemsize) == 0);
        if (st != NPYDT_OK)
            FUZZ_CHECK(strcmp(err.message, err2.message) == 0 && strcmp(err.path, err2.path) == 0);
        free(all.bytes);
    }
    /* CSV rows may also end at a CR alone */
    size_t lines = 1;
    for (size_t k = 0; k < body_len; k++)
        lines += body[k] == '\n' ||
                 (fmt != LOAD_JSONL && body[k] == '\r' && (k + 1 == body_len || body[k + 1] != '\n'));
    if (st != NPYDT_OK) {
        fuzz_check_error(st, &err, (size_t)-1);
        FUZZ_CHECK(where.line <= lines);
        FUZZ_CHECK(st != NPYDT_E_IO && st != NPYDT_E_NOMEM);
    }
    if (fmt == LOAD_JSONL)
        check_lines(copy, body_len, dt, &rec, &got, st, &err, where.line);
    check_round_trip(dt, &rec, &got);

    free(got.bytes);
    free(copy);
    load_record_free(&rec);
    npydt_schema_free(schema);
    return 0;
}

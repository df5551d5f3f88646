/* load -j N: the input read by the calling thread in runs of whole lines
 * (CSV: rows, split where the quotes before are even, as one thread
 * splits them), each run handed to a slot in the buffer it was read into
 * (the lines after it go on in the slot's former buffer: the input is
 * not copied again) and read into records with the slot's own reader and
 * record, by a worker or by the calling thread when the run to write next
 * is not read yet (cli_jobs_run_shared: N threads in all, none woken for
 * each run); the records are written in order by the calling thread
 * through the one writer. Runs are read up to 64 KiB, 128 KiB, then
 * RUN_BYTES: the second thread starts early, and the 2 N slots' buffers
 * stay small (few fresh pages, in cache). A run counts its lines from
 * zero; the calling thread adds the counts of the runs before (in order),
 * so that a bad line is named as one thread names it, and the first bad
 * run in the input's order is the one reported. The header of CSV and TSV
 * is read by the calling thread before the runs: they share its columns.
 * A run whose records would take more than RUN_RECORD_BYTES is read in
 * its slot up to there and the rest straight into the writer in the run's
 * turn to write, so that memory stays bounded by the slots.
 *
 * That is a pipe's way. A regular file is not read by the calling thread
 * at all: each run is a range of the file's bytes, read (pread) by the
 * thread that reads its rows, which also writes its records when their
 * turn has come (the runs before written; the turn is the writer's lock),
 * so that neither the input's bytes nor, mostly, the records go from one
 * processor's cache to another's (as far away as memory when the two
 * share none). A run read before its turn is written by the thread that
 * writes the run before it: no thread waits for a turn. A run holds the lines that begin in its range: it begins
 * after the first line end at or past the range's first byte (the byte
 * before it included) and ends after the first past its last byte, where
 * the next run begins. A CSV run takes that first line end for a row's
 * end (as if no quoted cell went on over it); in its turn it checks that
 * it begins where the run before ended (whose quotes were counted from a
 * true first row), and is read again from there when a quoted cell
 * carried a line end over its start. */
#include "cli/load/load.h"
#include "cli/common/jobs.h"
#include "cli/common/report.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The most input bytes a run is read up to (a longer line makes a
 * longer run). */
#define RUN_BYTES ((size_t)1 << 18)

/* The records a worker keeps for one run, at most (at least one record). */
#define RUN_RECORD_BYTES ((size_t)4 << 20)

struct run_slot {
    char *in;                   /* the buffer the run was read into */
    size_t cap, at, n;          /* the run: in[at, at + n) */
    unsigned char *out;         /* its records */
    size_t out_cap;
    uint64_t kept;              /* records in out */
    struct load_record rec;
    struct load_reader *reader; /* NULL until the slot's first run */
    struct load_span span;      /* counted from zeros */
    npydt_status st;            /* the run's first error, in err */
    npydt_error err;
    int failed_read;            /* the input could not be read here: err says why */
    /* a run of a file read at offsets (run_ctx.fd): the lines beginning in
     * the file's bytes [from, to); exact: a row begins at from */
    uint64_t from, to;
    int exact;
    uint64_t first, stop;       /* where its rows begin and end in the file */
    size_t index;               /* its task's number: its turn */
    int ready;                  /* read, to be written in its turn (turn_lock) */
};

struct run_ctx {
    struct load_lines lines;
    struct load_reader *reader;   /* the calling thread's */
    struct load_record *rec;
    const struct load_sink *sink;   /* where the records go, in order */
    struct load_span span;        /* of the whole input, up to the runs finished */
    uint64_t max_records;
    size_t unit;                  /* the first run's bytes (run_bytes) */
    int ended;
    /* a regular file, read at offsets by the thread of each run; -1:
     * read by the calling thread */
    int fd;
    int csv;                      /* rows may go on in quotes over line ends */
    uint64_t next;                /* the next run's range begins here */
    uint64_t size;                /* the file's size when last asked */
    /* the runs of a file are written in turn by the thread that read
     * them, or by the one that wrote the run before when it was read
     * first; the slots, the run to write next (its task's number), and
     * what the writer of the turn alone reads and changes */
    struct run_slot *slots;
    size_t nslots;
    pthread_mutex_t turn_lock;
    size_t turn;
    uint64_t expect;              /* where the run to write next must begin */
    int failed;                   /* a run written failed: no more are */
    npydt_status st;              /* why the runs stopped, in err */
    npydt_error err;
};

static int grow(void **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 4096;
    while (c < need)
        c = c > SIZE_MAX / 2 ? need : c * 2;
    void *b = realloc(*buf, c);
    if (!b)
        return -1;
    *buf = b;
    *cap = c;
    return 0;
}

/* The slot's sink: a record appended to the run's records. */
static npydt_status keep_record(void *ctx, const unsigned char *bytes, npydt_error *err)
{
    struct run_slot *s = ctx;
    size_t size = s->rec.itemsize, at = (size_t)s->kept * size;
    if (size && grow((void **)&s->out, &s->out_cap, at + size) != 0)
        return cli_error(err, NPYDT_E_NOMEM, "out of memory");
    if (size)
        memcpy(s->out + at, bytes, size);
    s->kept++;
    return NPYDT_OK;
}

/* The bytes of input run i is read up to (before its lines are cut):
 * unit (a block, but for a test's smaller ones) for the first, twice as
 * many for each next, up to four times (RUN_BYTES for a block), so that
 * the workers start early and the runs of a long input are few. */
static size_t run_bytes(size_t unit, size_t i)
{
    return unit << (i >= 2 ? 2 : i);
}

/* The slot's reader, made for its first run: 1, or 0 with s->err set. */
static int slot_ready(const struct run_ctx *c, struct run_slot *s)
{
    if (s->reader)
        return 1;
    if (load_record_init(&s->rec, c->rec->dtype, &s->err) != NPYDT_OK)
        return 0;
    if (load_reader_clone(c->reader, &s->rec, &s->reader, &s->err) != NPYDT_OK) {
        load_record_free(&s->rec);
        return 0;
    }
    return 1;
}

/* ---- runs of a file read at offsets ---------------------------------------- */

/* Up to n bytes of fd at off into buf: *got (fewer at the end of the
 * file), 0, or -1 with err set. */
static int read_at(int fd, char *buf, size_t n, uint64_t off, size_t *got, npydt_error *err)
{
    *got = 0;
    while (*got < n) {
        if (off > (uint64_t)INT64_MAX - *got) {
            cli_error(err, NPYDT_E_IO, "read failed: %s", TEXT_ERRNO(EOVERFLOW));
            return -1;
        }
        ssize_t r = pread(fd, buf + *got, n - *got, (off_t)(off + *got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            cli_error(err, NPYDT_E_IO, "read failed: %s", TEXT_ERRNO(errno));
            return -1;
        }
        if (r == 0)
            break;
        *got += (size_t)r;
    }
    return 0;
}

/* The index after the first row end in b[i..n) (LF; in CSV also a CR
 * not before an LF, outside quotes: *odd says whether a quoted cell is
 * open at b[i] and follows it; odd NULL: every line end taken as a row's,
 * the quotes not looked at), n at the end of the input (eof) when there
 * is none, SIZE_MAX when the bytes after n are needed. */
static size_t row_end(const char *b, size_t n, size_t i, int csv, int *odd, int eof)
{
    if (!csv) {
        const char *lf = i < n ? memchr(b + i, '\n', n - i) : NULL;
        return lf ? (size_t)(lf - b) + 1 : eof ? n : SIZE_MAX;
    }
    for (; i < n; i++) {
        if (b[i] == '"' && odd)
            *odd ^= 1;
        else if (odd && *odd)
            continue;
        else if (b[i] == '\n')
            return i + 1;
        else if (b[i] == '\r' && i + 1 < n && b[i + 1] != '\n')
            return i + 1;
        else if (b[i] == '\r' && i + 1 == n && eof)
            return n;
    }
    return eof ? n : SIZE_MAX;
}

/* More of the file after the got bytes of the slot's buffer, which holds
 * it from offset base: 1, 0 at the end of the file, -1 with err set. */
static int read_more(const struct run_ctx *c, struct run_slot *s, uint64_t base, size_t *got,
                     npydt_error *err)
{
    if (*got >= LOAD_MAX_LINE + RUN_BYTES) {
        cli_error(err, NPYDT_E_LIMIT, "a line longer than %zu bytes", LOAD_MAX_LINE);
        return -1;
    }
    if (grow((void **)&s->in, &s->cap, *got + LOAD_LINES_BLOCK) != 0) {
        cli_error(err, NPYDT_E_NOMEM, "out of memory");
        return -1;
    }
    size_t more;
    if (read_at(c->fd, s->in + *got, s->cap - *got, base + *got, &more, err) != 0)
        return -1;
    *got += more;
    return more > 0;
}

/* A worker (or the calling thread, reading a run again): the run's bytes
 * into the slot's buffer, s->in[s->at, s->at + s->n) the rows of the
 * lines that begin in [from, to) (s->first, s->stop in the file). 1, or
 * 0 with the slot's error set (failed_read). */
static int read_run(const struct run_ctx *c, struct run_slot *s)
{
    /* the byte before the range tells whether a line begins at from */
    uint64_t base = s->exact ? s->from : s->from - 1;
    size_t want = (size_t)(s->to - base) + LOAD_LINES_BLOCK, got = 0, at = 0, end;
    int eof = 0;
    if (s->exact && s->from >= s->to)
        want = 0;   /* the rows before reached past this range: none here */
    if (grow((void **)&s->in, &s->cap, want > 0 ? want : 1) != 0) {
        cli_error(&s->err, NPYDT_E_NOMEM, "out of memory");
        goto failed;
    }
    if (read_at(c->fd, s->in, want, base, &got, &s->err) != 0)
        goto failed;
    eof = got < want;
    if (!s->exact) {
        /* the first line end taken for a row's: a CSV run begins as if
         * no quoted cell went on over it */
        while ((at = row_end(s->in, got, 0, c->csv, NULL, eof)) == SIZE_MAX) {
            int r = read_more(c, s, base, &got, &s->err);
            if (r < 0)
                goto failed;
            eof = r == 0;
        }
    }
    end = at;
    if (base + at < s->to) {
        /* the quotes up to the range's last byte, then the first row end
         * from there */
        size_t last = (size_t)(s->to - 1 - base);
        if (last > got)
            last = got;
        int open = c->csv && csv_odd_quotes(s->in + at, last - at);
        while ((end = row_end(s->in, got, last, c->csv, &(int){open}, eof)) == SIZE_MAX) {
            int r = read_more(c, s, base, &got, &s->err);
            if (r < 0)
                goto failed;
            eof = r == 0;
        }
    }
    s->at = at;
    s->n = end - at;
    s->first = base + at;
    s->stop = base + end;
    return 1;
failed:
    s->failed_read = 1;
    s->st = s->err.code;
    return 0;
}

/* Calling thread: the next range of the file into slot s, read by its
 * worker; none past the file's end (asked again there, for a file that
 * grows as it is read). */
static int take_at(struct run_ctx *c, size_t i, struct run_slot *s)
{
    if (c->next >= c->size) {
        struct stat st;
        if (fstat(c->fd, &st) == 0 && st.st_size > 0 && (uint64_t)st.st_size > c->size)
            c->size = (uint64_t)st.st_size;
        if (c->next >= c->size)
            return 0;
    }
    /* the writer of the turn before looks at the slot's turn */
    pthread_mutex_lock(&c->turn_lock);
    s->index = i;
    s->ready = 0;
    pthread_mutex_unlock(&c->turn_lock);
    if (!slot_ready(c, s)) {
        s->failed_read = 1;
        s->st = s->err.code;
        c->ended = 1;
        return 1;
    }
    s->failed_read = 0;
    s->n = 0;
    s->exact = i == 0;
    s->from = c->next;
    s->to = c->next + run_bytes(c->unit, i + 1);
    c->next = s->to;
    return 1;
}

/* Calling thread: the next run into slot s, in the buffer it was read
 * into (the slot's buffer goes on holding the lines after it). A read
 * error ends the input with a run that carries it, reported in its turn. */
static int take(void *ctx, size_t i, void *slot)
{
    struct run_ctx *c = ctx;
    struct run_slot *s = slot;
    if (c->ended)
        return 0;
    if (c->fd >= 0)
        return take_at(c, i, s);
    size_t n = 0;
    s->failed_read = 0;
    s->n = 0;
    int got = load_reader_run(c->reader, &c->lines, &n, &s->err);
    if (got == 0)
        return 0;
    size_t at = c->lines.start;
    if (got > 0 && slot_ready(c, s)) {
        if (load_lines_hand(&c->lines, n, run_bytes(c->unit, i + 1), &s->in, &s->cap) == 0) {
            s->at = at;
            s->n = n;
            return 1;
        }
        cli_error(&s->err, NPYDT_E_NOMEM, "out of memory");
    }
    s->failed_read = 1;
    s->st = s->err.code;
    c->ended = 1;
    return 1;
}

/* The run's records into the slot (by the slot's reader). */
static void read_records(const struct run_ctx *c, struct run_slot *s)
{
    s->span = (struct load_span){.max_records = c->max_records};
    s->kept = 0;
    struct load_sink sink = {keep_record, s, NULL};
    s->st = load_reader_read(s->reader, s->in + s->at, s->n, &sink, &s->span, &s->err);
}

/* The run's records to sink, then the rest of a run cut at max_records
 * read into it: the run's first error (a write's before a bad line's) in
 * s->st and s->err. */
static void write_run(const struct load_sink *sink, struct run_slot *s)
{
    static const unsigned char none[1];
    const unsigned char *out = s->out ? s->out : none;   /* none: records of no bytes */
    npydt_status st = NPYDT_OK;
    npydt_error err;
    if (sink->records && s->kept)
        st = sink->records(sink->ctx, out, s->kept, &err);
    for (uint64_t k = 0; !sink->records && st == NPYDT_OK && k < s->kept; k++)
        st = sink->record(sink->ctx, out + k * s->rec.itemsize, &err);
    if (st != NPYDT_OK) {
        s->st = st;
        s->err = err;
    } else if (s->st == NPYDT_OK && s->span.used < s->n) {
        s->span.max_records = UINT64_MAX;
        s->st = load_reader_read(s->reader, s->in + s->at + s->span.used, s->n - s->span.used,
                                 sink, &s->span, &s->err);
    }
}

/* A run of a file in its turn (every run before it written): read again
 * from where they ended if it began elsewhere, then written (none after a
 * run that failed). */
static void write_turn(struct run_ctx *c, struct run_slot *s)
{
    if (!c->failed && !s->failed_read && s->first != c->expect) {
        /* the run's first row is not where the rows before ended (a quoted
         * cell went on over its range's first line end): read again from
         * there by a new reader (the first may have stopped inside a row) */
        load_reader_free(s->reader);
        load_record_free(&s->rec);
        s->reader = NULL;
        s->from = c->expect;
        s->exact = 1;
        if (!slot_ready(c, s)) {
            s->failed_read = 1;
            s->st = s->err.code;
        } else if (read_run(c, s)) {
            read_records(c, s);
        }
    }
    if (!c->failed && !s->failed_read) {
        write_run(c->sink, s);
        c->expect = s->stop;
    }
    if (s->failed_read || s->st != NPYDT_OK)
        c->failed = 1;
}

/* A run of a file just read: written now by this thread, whose cache holds
 * its records, when its turn has come, with the runs after it read
 * meanwhile; else left to the thread that writes the run before it (no
 * thread waits for a turn). The turn is the sink's lock. */
static void write_in_turn(struct run_ctx *c, struct run_slot *s)
{
    pthread_mutex_lock(&c->turn_lock);
    s->ready = 1;
    while (s && s->ready && s->index == c->turn) {
        pthread_mutex_unlock(&c->turn_lock);
        write_turn(c, s);
        pthread_mutex_lock(&c->turn_lock);
        s->ready = 0;
        c->turn++;
        s = &c->slots[c->turn % c->nslots];
    }
    pthread_mutex_unlock(&c->turn_lock);
}

/* A worker or the calling thread: the run's records into the slot, and a
 * file's run written in its turn. */
static int work(void *ctx, void *slot)
{
    struct run_ctx *c = ctx;
    struct run_slot *s = slot;
    if (!s->failed_read && (c->fd < 0 || read_run(c, s)))
        read_records(c, s);
    if (c->fd >= 0)
        write_in_turn(c, s);
    return 0;
}

/* Where a run's span (counted from zeros) ends in the whole input's. */
static void add_span(struct load_span *whole, const struct load_span *run)
{
    if (run->where)
        whole->where = whole->line + run->where;
    whole->line += run->line;
}

static int stop(struct run_ctx *c, npydt_status st, const npydt_error *err)
{
    c->st = st;
    c->err = *err;
    return 1;
}

/* Calling thread, in order: the run's records written (those of a pipe's
 * runs: a file's wrote theirs), its lines counted, its error (on its
 * line) reported. */
static int finish(void *ctx, size_t i, void *slot, int work_result)
{
    struct run_ctx *c = ctx;
    struct run_slot *s = slot;
    (void)i;
    (void)work_result;
    if (c->fd < 0 && !s->failed_read)
        write_run(c->sink, s);   /* a file's runs wrote theirs */
    if (s->failed_read)
        return stop(c, s->st, &s->err);
    if (c->fd >= 0)
        cli_progress_update(&c->lines.progress, s->stop);
    add_span(&c->span, &s->span);
    if (s->st != NPYDT_OK)
        return stop(c, s->st, &s->err);
    if (s->cap > 2 * RUN_BYTES) {
        /* a long line's room is not kept for the runs after it */
        free(s->in);
        s->in = NULL;
        s->cap = 0;
    }
    return 0;
}

/* The runs an input of a known size makes (about), for the count of
 * workers; 0 when it is not known (a pipe). */
static size_t runs_of(FILE *in, size_t unit)
{
    struct stat st;
    if (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
        return 0;
    uint64_t size = (uint64_t)st.st_size, ramp = run_bytes(unit, 0) + run_bytes(unit, 1);
    uint64_t most = run_bytes(unit, 2);
    if (size <= ramp)
        return size <= run_bytes(unit, 0) ? 1 : 2;
    uint64_t runs = 2 + (size - ramp + most - 1) / most;
    return runs < SIZE_MAX ? (size_t)runs : SIZE_MAX;
}

/* A regular file is read at offsets by the runs from the first byte
 * the calling thread did not use (the header's rows before it). */
static void read_at_offsets(struct run_ctx *c, FILE *in)
{
    struct stat st;
    off_t pos = ftello(in);
    size_t held = c->lines.end - c->lines.start;
    if (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode) || pos < 0 || (uint64_t)pos < held)
        return;
    c->fd = fileno(in);
    c->size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    c->next = c->expect = (uint64_t)pos - held;
}

npydt_status load_text_jobs(FILE *in, enum load_format fmt, unsigned jobs, size_t run,
                            struct load_record *rec, const struct load_sink *sink,
                            struct load_where *where, npydt_error *err)
{
    size_t unit = run && run < LOAD_LINES_BLOCK ? run : LOAD_LINES_BLOCK;
    jobs = cli_jobs_count(jobs, runs_of(in, unit));
    if (jobs == 1)
        return load_text(in, fmt, rec, sink, where, err);

    struct run_ctx c = {.rec = rec, .sink = sink, .fd = -1, .csv = fmt == LOAD_CSV, .unit = unit};
    where->line = 0;
    if ((c.st = load_reader_new(fmt, rec, &c.reader, err)) != NPYDT_OK)
        return c.st;
    load_lines_init(&c.lines, in);
    c.span.line = c.span.where = fmt == LOAD_CSV;   /* the header is row 1 */
    c.span.max_records = UINT64_MAX;
    c.max_records = rec->itemsize ? RUN_RECORD_BYTES / rec->itemsize : UINT64_MAX;
    if (c.max_records == 0)
        c.max_records = 1;
    /* the header here, before the workers start, with one record at
     * most: the rows after it are the runs' */
    size_t n;
    int got = 1;
    while (c.st == NPYDT_OK && !load_reader_ready(c.reader) &&
           (got = load_reader_run(c.reader, &c.lines, &n, &c.err)) > 0) {
        c.span.max_records = c.span.records + 1;
        c.st = load_reader_read(c.reader, c.lines.buf + c.lines.start, n, sink, &c.span, &c.err);
        c.lines.start += c.span.used;
    }
    c.span.max_records = UINT64_MAX;
    if (c.st == NPYDT_OK && got < 0)
        c.st = c.err.code;
    if (c.st == NPYDT_OK && got > 0)
        read_at_offsets(&c, in);
    if (c.st == NPYDT_OK && got > 0) {
        size_t nslots = 2 * (size_t)jobs;
        struct run_slot *slots = calloc(nslots, sizeof *slots);
        c.slots = slots;
        c.nslots = nslots;
        pthread_mutex_init(&c.turn_lock, NULL);
        static const struct cli_jobs_ops ops = {take, work, finish};
        if (!slots)
            c.st = cli_error(&c.err, NPYDT_E_NOMEM, "out of memory");
        else if (cli_jobs_run_shared(jobs, slots, nslots, sizeof *slots, &ops, &c) != 0 &&
                 c.st == NPYDT_OK)
            c.st = cli_error(&c.err, NPYDT_E_NOMEM, "out of memory");   /* the runner's own */
        pthread_mutex_destroy(&c.turn_lock);
        for (size_t k = 0; slots && k < nslots; k++) {
            if (slots[k].reader) {
                load_reader_free(slots[k].reader);
                load_record_free(&slots[k].rec);
            }
            free(slots[k].in);
            free(slots[k].out);
        }
        free(slots);
    }
    if (c.st == NPYDT_OK)
        c.st = load_reader_end(c.reader, &c.err);
    where->line = c.span.where;
    if (c.st != NPYDT_OK)
        *err = c.err;
    load_lines_free(&c.lines);
    load_reader_free(c.reader);
    return c.st;
}

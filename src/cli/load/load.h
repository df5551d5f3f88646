/* What the files of npydt load and npydt append share: the record being
 * filled from one line or row of input (load_record.c), one value stored
 * into one scalar field (load_value.c), the input formats (jsonl_in.c,
 * csv_in.c), the dtype a --dtype SPEC names (load_spec.c) and where the
 * records go as they are read (load_dest.c). */
#ifndef NPYDT_CLI_LOAD_H
#define NPYDT_CLI_LOAD_H

#include "npydt.h"
#include "cli/common/progress.h"
#include "text/text.h"

#include <stdio.h>

/* ---- One value of the input (load_value.c) ----------------------------- */

/* What an input value is, before it meets its field. */
enum load_value_kind {
    LOAD_NUMBER,   /* text of a number: "-12", "1.5e3" (load_put checks its form) */
    LOAD_STRING,   /* a string: bytes already unescaped (V: hex text) */
    LOAD_TRUE,
    LOAD_FALSE,
    LOAD_NULL      /* JSON null or an empty CSV cell: NaN for f and c, NaT for M, m */
};

struct load_value {
    enum load_value_kind kind;
    const char *text;   /* not NUL-terminated */
    size_t len;
};

/* Store v into the scalar node dt at p through the typed writers
 * (npydt_write_*): exactly, or refused with err set (err->path left ""). */
npydt_status load_put(const npydt_dtype *dt, void *p, const struct load_value *v,
                      npydt_error *err);
/* Store re + im i into the scalar node dt (kind c, or a real kind when im
 * is 0). */
npydt_status load_put_complex(const npydt_dtype *dt, void *p, const struct load_value *re,
                              const struct load_value *im, npydt_error *err);

/* ---- One scalar straight into the record (load_step.c) ------------------ */

/* How a plan converts a scalar element's text: chosen once per element. */
enum load_op {
    LOAD_OP_NONE,    /* the general path reads it */
    LOAD_OP_BOOL,    /* b1 */
    LOAD_OP_INT,     /* i, M, m of 1, 2, 4, 8 bytes */
    LOAD_OP_UINT,    /* u of 1, 2, 4, 8 bytes */
    LOAD_OP_F4,
    LOAD_OP_F8,
    LOAD_OP_C8,      /* two float32 parts */
    LOAD_OP_C16,     /* two float64 parts */
    LOAD_OP_BYTES    /* S of n bytes */
};

struct load_step {
    unsigned char op;     /* enum load_op */
    unsigned char size;   /* of an integer or float part */
    unsigned char swap;   /* the element's byte order is not the host's */
    size_t n;             /* the element's bytes */
    size_t offset;        /* in the record */
};

/* The step of the scalar node dt at offset: 1, or 0 (op LOAD_OP_NONE)
 * when no step converts its kind. */
int load_step_of(const npydt_dtype *dt, uint64_t offset, struct load_step *s);
/* Store an integer, a float (a complex part at byte `at`), a value's text
 * (CSV: a number, True / False, bytes already unescaped) into rec by
 * step s: 1, or 0 when the general path must read the value (out of
 * range, another form). */
int load_step_text(const struct load_step *s, const char *t, size_t n, unsigned char *rec);

static inline int load_step_integer(const struct load_step *s, uint64_t mag, bool neg,
                                    unsigned char *rec)
{
    if (s->op == LOAD_OP_INT) {
        uint64_t limit = (uint64_t)1 << (8 * s->size - 1);
        if (neg ? mag > limit : mag >= limit)
            return 0;
        text_store_uint(rec + s->offset, s->size, s->swap, neg ? (uint64_t)0 - mag : mag);
        return 1;
    }
    if (s->op != LOAD_OP_UINT || neg || (s->size < 8 && (mag >> (8 * s->size)) != 0))
        return 0;
    text_store_uint(rec + s->offset, s->size, s->swap, mag);
    return 1;
}

static inline int load_step_float(const struct load_step *s, size_t at, double d,
                                  unsigned char *rec)
{
    unsigned char *p = rec + s->offset + at;
    if (s->op == LOAD_OP_F8 || s->op == LOAD_OP_C16) {
        text_store64(p, s->swap, text_bits_of_f64(d));
        return 1;
    }
    /* finite beyond float32's range overflows: the general path refuses it */
    if (d == d && d - d == 0 && (d >= 0x1.ffffffp+127 || d <= -0x1.ffffffp+127))
        return 0;
    text_store32(p, s->swap, text_bits_of_f32((float)d));
    return 1;
}

/* ---- The record being filled (load_record.c) ---------------------------- */

/* One scalar element of the record: where it is and its node. */
struct load_slot {
    uint64_t offset;
    const npydt_dtype *dtype;
};

/* The record of a dtype, filled one value at a time; every scalar element
 * must be set once. */
struct load_record {
    const npydt_dtype *dtype;   /* the root */
    size_t itemsize;
    unsigned char *bytes;       /* itemsize bytes (at least 1 allocated) */
    struct load_slot *slots;    /* every scalar element, by offset */
    size_t nslots;
    unsigned char *seen;        /* per slot: set in this record */
    size_t nseen;
    size_t next_slot;           /* the slot after the last one set */
    struct load_names *names;   /* field names by struct, made when first needed */
    int names_tried;
    int general;                /* no plan: every value by the general path (set by
                                 * the fuzz harness, which compares the two) */
};

/* Prepare rec for records of dt (a root dtype). NPYDT_E_OBJECT for object
 * fields; NPYDT_E_NOMEM. */
npydt_status load_record_init(struct load_record *rec, const npydt_dtype *dt, npydt_error *err);
void load_record_free(struct load_record *rec);
/* Start a new record: zero bytes, nothing seen. */
void load_record_clear(struct load_record *rec);
/* Store v into the scalar element at offset (node dt) and mark it set;
 * E_KEY when it was set already. err->path names the element. */
npydt_status load_record_put(struct load_record *rec, uint64_t offset, const npydt_dtype *dt,
                             const struct load_value *v, npydt_error *err);
/* The same for a complex value given as two parts. */
npydt_status load_record_put_complex(struct load_record *rec, uint64_t offset,
                                     const npydt_dtype *dt, const struct load_value *re,
                                     const struct load_value *im, npydt_error *err);
/* E_KEY naming the first element not set, or NPYDT_OK. */
npydt_status load_record_complete(const struct load_record *rec, npydt_error *err);
/* The field path of the element at offset with node dt ("pos.x",
 * "samples[2]", "grid[1,0]") into err->path. */
void load_record_path(const struct load_record *rec, uint64_t offset, const npydt_dtype *dt,
                      npydt_error *err);
/* Find path (len bytes) below the node (of rec's dtype) at base_offset:
 * E_KEY "unknown field" with a suggestion when the dtype has no such
 * field. A path that is a whole field name is found in O(log n). */
npydt_status load_record_lookup(struct load_record *rec, const npydt_dtype *node,
                                uint64_t base_offset, const char *path, size_t len,
                                uint64_t *offset, const npydt_dtype **field, npydt_error *err);

/* ---- Field names of a dtype's structs, sorted (load_names.c) ----------- */

struct load_names;
/* NULL when there is no memory. */
struct load_names *load_names_new(const npydt_dtype *dt);
void load_names_free(struct load_names *ix);
/* The field of node (a struct of the dtype) whose name or title is
 * s[0..len): 1 and *field, or 0. */
int load_names_find(const struct load_names *ix, const npydt_dtype *node, const char *s,
                    size_t len, size_t *field);

/* ---- Where the records go ----------------------------------------------- */

/* Receives each complete record; nonzero stops the input with err set. */
struct load_sink {
    npydt_status (*record)(void *ctx, const unsigned char *bytes, npydt_error *err);
    void *ctx;
    /* n records in a row at once, as n calls of record (NULL: record is
     * called for each) */
    npydt_status (*records)(void *ctx, const unsigned char *bytes, uint64_t n, npydt_error *err);
};

/* ---- Input formats ------------------------------------------------------ */

/* Lines of an input, read in large blocks (line_reader.c). */
struct load_lines {
    FILE *in;
    char *buf;
    size_t cap, start, end;
    int eof;
    uint64_t read;       /* bytes read so far */
    struct cli_progress progress;   /* of the input's bytes */
};

/* The bytes one read asks for. */
#define LOAD_LINES_BLOCK ((size_t)1 << 16)
/* Longest line taken (a record's JSON text is far shorter). */
#define LOAD_MAX_LINE ((size_t)1 << 28)

void load_lines_init(struct load_lines *r, FILE *in);
void load_lines_free(struct load_lines *r);
/* The bytes from buf + start up to the last LF read (the lines whole, at
 * least one), or to the end of the input: 1 and *n (the caller moves
 * start past them), 0 at the end, or -1 with err set (a read error, a
 * line past LOAD_MAX_LINE). */
int load_lines_whole(struct load_lines *r, size_t *n, npydt_error *err);
/* The line of s[0..n) that starts at *at, without its LF (and a CR
 * before it): its length; *at moves past the LF. */
size_t load_line_cut(const char *s, size_t n, size_t *at);
/* Read more after the bytes buf[start, end): they move to the front
 * (start 0), the buffer grows when they fill it (up to LOAD_MAX_LINE).
 * 1, 0 at the end of the input (eof set), -1 with err set. */
int load_lines_fill(struct load_lines *r, npydt_error *err);
/* Hand the buffer holding the n bytes at buf + start over to the caller
 * instead of copying them out: the lines go on in the caller's buffer
 * *buf of *cap bytes (NULL, 0: none yet), grown to room bytes at least
 * and to what follows the n bytes, which are copied to its front; *buf
 * and *cap become the handed buffer, the n bytes at the start the lines
 * had. 0, or -1 when there is no memory (nothing changed). */
int load_lines_hand(struct load_lines *r, size_t n, size_t room, char **buf, size_t *cap);

enum load_format { LOAD_JSONL, LOAD_CSV, LOAD_TSV, LOAD_ARROW };

/* The format of an input by its name: .csv, .tsv / .tab, else JSON Lines. */
enum load_format load_format_of(const char *path);

/* Read every record of in (named name in messages) into sink. On a bad
 * value the error names the line (or CSV row) in *where and returns its
 * status; an I/O error is E_IO. */
struct load_where {
    uint64_t line;    /* 1-based line of the input (CSV: row, header is 1) */
};
npydt_status load_jsonl(FILE *in, struct load_record *rec, const struct load_sink *sink,
                        struct load_where *where, npydt_error *err);
npydt_status load_csv(FILE *in, char sep, struct load_record *rec, const struct load_sink *sink,
                      struct load_where *where, npydt_error *err);
/* The same for any format but Arrow, in one thread. */
npydt_status load_text(FILE *in, enum load_format fmt, struct load_record *rec,
                       const struct load_sink *sink, struct load_where *where, npydt_error *err);

/* ---- Readers of whole lines held in memory (load_text.c) ----------------- */

/* How far a reader is: the counts its messages number lines by. Runs of
 * lines read one after the other continue one span; a run read apart
 * starts from zeros, and its counts add to those of the runs before it. */
struct load_span {
    uint64_t line;          /* JSON Lines, TSV: lines read; CSV: rows read (the header
                             * is row 1: the whole input's span starts at 1) */
    uint64_t where;         /* the line an error names (TSV: the last that is not
                             * blank; 0: none yet) */
    uint64_t records;       /* records given to the sink */
    uint64_t max_records;   /* the run stops after as many */
    size_t used;            /* bytes of the run read (all but after max_records) */
};

/* One thread's reader of one format: the record it fills (the caller's)
 * and its scratch. A reader cloned from one that has read the header
 * (CSV, TSV) shares its columns, read-only: another thread may read with
 * it while the first is not used. */
struct load_reader;
npydt_status load_reader_new(enum load_format fmt, struct load_record *rec,
                             struct load_reader **r, npydt_error *err);
npydt_status load_reader_clone(const struct load_reader *from, struct load_record *rec,
                               struct load_reader **r, npydt_error *err);
void load_reader_free(struct load_reader *r);
/* 1 once the header (CSV, TSV) was read: clones read rows. */
int load_reader_ready(const struct load_reader *r);
/* The next run of lines the reader takes whole from lines (CSV: rows,
 * which a quoted cell may carry over a line's end), as
 * load_lines_whole. */
int load_reader_run(const struct load_reader *r, struct load_lines *lines, size_t *n,
                    npydt_error *err);
/* Read the run s[0..n) into sink, counting in span; the first error stops
 * it, span->where naming its line. */
npydt_status load_reader_read(struct load_reader *r, const char *s, size_t n,
                              const struct load_sink *sink, struct load_span *span,
                              npydt_error *err);
/* The input has ended: the error of an input without its header. */
npydt_status load_reader_end(const struct load_reader *r, npydt_error *err);

/* The formats' readers behind load_reader (jsonl.h has JSON Lines'). CSV
 * and TSV (csv_in.c): from NULL, or a reader whose header was read, whose
 * columns the new one shares; NULL when there is no memory. */
struct csv_state;
struct csv_state *csv_new(struct load_record *rec, char sep, const struct csv_state *from);
void csv_free(struct csv_state *c);
int csv_ready(const struct csv_state *c);
/* 1 when s[0..n) holds an odd number of quotes. */
int csv_odd_quotes(const char *s, size_t n);
/* load_lines_whole for CSV: up to a line end outside quotes. */
int csv_rows(struct load_lines *r, size_t *n, npydt_error *err);
npydt_status csv_read(struct csv_state *c, const char *s, size_t n, const struct load_sink *sink,
                      struct load_span *sp, npydt_error *err);

/* load_text by `jobs` threads, the calling one among them (0: one a
 * processor, fewer for a small file), in runs of lines: the same records,
 * errors and lines, but for an error of the sink's, which names the line
 * that ends the run it stopped in (load_jobs.c). run: the bytes of the
 * first run, twice as many for the second, four times for the others (0,
 * or more than LOAD_LINES_BLOCK: LOAD_LINES_BLOCK, the command's; a
 * harness gives a few, for many runs of a short input). */
npydt_status load_text_jobs(FILE *in, enum load_format fmt, unsigned jobs, size_t run,
                            struct load_record *rec, const struct load_sink *sink,
                            struct load_where *where, npydt_error *err);

/* ---- --dtype SPEC (load_spec.c) ------------------------------------------ */

/* The dtype and, from a reference file, the other dimensions and order. */
struct load_spec {
    npydt_schema *schema;     /* a text spec's compiled schema (owns dtype) */
    npydt_header *header;     /* a reference file's header (owns dtype) */
    const npydt_dtype *dtype;
    int has_shape;            /* from a file: shape and order below apply */
    const uint64_t *shape;    /* the file's shape (ndim entries) */
    size_t ndim;
    int fortran_order;
};

/* Read SPEC: a descriptor literal, type string or header dict (as check
 * --schema takes), @PATH of a text spec, or @FILE.npy / like:FILE (any
 * input a command takes) for a file's dtype, shape and order. 0, or an
 * exit status after reporting. */
struct cli_command;
int load_spec_read(const struct cli_command *cmd, const char *arg, struct load_spec *spec);
void load_spec_free(struct load_spec *spec);

/* ---- Where the records go (load_dest.c) --------------------------------- */

/* The records' destination while the input is read: the writer's file
 * (the temporary file beside OUT for load, FILE.npy for append), each
 * record written once. Without a writer (the destination could not be
 * opened, or the command line cannot give its shape: the command reports
 * that once the input is known good) records are only counted. */
struct load_dest {
    npydt_writer *w;
    size_t itemsize;
    uint64_t count;           /* records read */
    uint64_t take;            /* the writer takes the first `take`; the rest are counted */
    int hold;                 /* records kept in memory for load_dest_close */
    struct text_buf held;
    npydt_status failed;      /* the destination's failure, in err */
    npydt_error err;
};

/* w may be NULL; hold: a Fortran-order array of more than one dimension,
 * whose records are kept in memory and written in its order at the end. */
void load_dest_init(struct load_dest *d, npydt_writer *w, size_t itemsize, uint64_t take,
                    int hold);
/* A load_sink's record: the destination's failures are kept in d. */
npydt_status load_dest_record(void *ctx, const unsigned char *bytes, npydt_error *err);
/* A load_sink's records: n in a row (n * itemsize bytes), as n calls of
 * load_dest_record. */
npydt_status load_dest_records(void *ctx, const unsigned char *bytes, uint64_t n,
                               npydt_error *err);
/* Write held records (C order of an array of shape dims, ndim of them,
 * the last the growth axis) in Fortran order, then close the writer; the
 * writer is gone whatever the status (discarded when a write fails). */
npydt_status load_dest_close(struct load_dest *d, const uint64_t *dims, size_t ndim,
                             npydt_error *err);
/* Give the writer up (npydt_writer_discard): the destination as it was. */
void load_dest_discard(struct load_dest *d);

/* ---- Arrow IPC streams (load_arrow.c) ------------------------------------ */

struct load_arrow_options {
    size_t string_width;   /* of U and S for variable-length text and bytes (0: refused) */
    int nulls_as_zero;     /* a null outside M8 and m8 written as zeros */
    int no_sync;
    unsigned jobs;         /* -j: 0 for one a processor */
};

/* load --arrow: the stream read from input (NULL or "-": standard input)
 * into the new 1-d array OUT of dtype (NULL: the stream schema's). The
 * exit status, after reporting. */
int load_arrow_new(const char *input, const char *out, const npydt_dtype *dtype,
                   const struct load_arrow_options *o);
/* append --arrow: the stream appended to the 1-d array file, whose header
 * is h. */
int load_arrow_append(const char *input, const char *file, const npydt_header *h,
                      const struct load_arrow_options *o);
/* --string-width N: 0, or -1 for text that is no count from 1 to 2^30. */
int load_arrow_width(const char *text, size_t *width);

/* The commands. */
int cmd_load(int argc, char **argv);
int cmd_append(int argc, char **argv);

#endif

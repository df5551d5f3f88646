/* What the files of npydt dump share: the selected fields and records,
 * the printer's state, element values as JSON or as CSV cells, and the
 * table for people. */
#ifndef NPYDT_CLI_DUMP_H
#define NPYDT_CLI_DUMP_H

#include "cli/common/json.h"
#include "cli/common/mapped.h"
#include "cli/common/progress.h"
#include "cli/common/sink.h"
#include "text/text.h"

#include <math.h>
#include <string.h>

/* Shape of a field below an array of structs (pts.y): the field of every
 * element of the array, as NumPy's a['pts']['y'] gives it. */
#define SELECT_MAX_DIMS 32

/* A field chosen with --fields: its path as given, where it is, its type;
 * for a field below an array of structs, the array's shape (ndim > 0) and
 * the bytes from one of its elements to the next. */
struct selected {
    const char *path;
    uint64_t offset;
    const npydt_dtype *dtype;
    size_t path_len;     /* a field name may hold a NUL */
    size_t ndim;
    uint64_t shape[SELECT_MAX_DIMS];
    uint64_t stride;
    size_t prefix_len;   /* bytes of path naming the array ("pts") */
};

/* The fields --fields names (dump_fields.c): *out[0..*nout), their paths
 * in *storage (free both). An unknown path is reported for file (with
 * the nearest known path) and its exit status returned; else EXIT_OK. */
int dump_select_fields(const char *file, const char *spec, const npydt_dtype *dt,
                       struct selected **out, size_t *nout, char **storage);

/* How values are written (dump's options for scripts). */
struct value_style {
    bool float_native;   /* f2, f4 (and c8) as the shortest text of their own
                          * type, not of the double they widen to */
    bool nan_null;       /* NaN, the infinities and NaT as JSON null */
    bool big_int_string; /* integers outside -(2^53-1)..2^53-1 as strings */
    bool datetime_iso;   /* M as NumPy's str() writes it */
};

/* Output formats of dump. */
enum dump_format { FORMAT_TABLE, FORMAT_JSONL, FORMAT_CSV, FORMAT_TSV, FORMAT_VERTICAL, FORMAT_ARROW };

/* State of one dump: a buffer for U scalars, the style, the first error. */
struct dumper {
    char *ubuf;          /* room for the UTF-8 of the largest U scalar */
    size_t ubuf_size;
    struct value_style style;
    npydt_error err;
    int failed;
    struct cli_progress *progress;   /* of the elements printed; NULL: none */
    size_t itemsize;
};

/* done elements printed: the progress line, every 4096 of them. */
static inline void dump_progress(struct dumper *d, uint64_t done)
{
    if (d->progress && (done & 4095) == 0)
        cli_progress_update(d->progress, done * d->itemsize);
}

/* The text of a float of `size` bytes read as the double v, as the style
 * asks (TEXT_FLOAT_MAX bytes at buf): "nan", "inf", "-inf" for those. */
static inline size_t dump_float_text(const struct dumper *d, size_t size, double v, char *buf)
{
    if (d->style.float_native && size == 2)
        return text_float_f16(text_bits_of_f16(v), buf);
    if (d->style.float_native && size == 4)
        return text_float_f32(text_bits_of_f32((float)v), buf);
    return text_float_f64(v, buf);
}
/* Room the number writers below may use at buf (text, quotes and the
 * scratch of the digit writers' whole-word stores). */
#define DUMP_NUMBER_ROOM 40
/* NaN or an infinity as JSON in the dumper's style at buf: null, or the
 * text in quotes; the length of the text. */
size_t dump_nonfinite_json(const struct dumper *d, size_t size, double v, char *buf);
/* A float of `size` bytes (read as the double v) as JSON in the dumper's
 * style at buf (DUMP_NUMBER_ROOM bytes); the length of the text. Inline:
 * dump --jsonl writes one per float scalar. */
static inline size_t dump_float_json(const struct dumper *d, size_t size, double v, char *buf)
{
    return isfinite(v) ? dump_float_text(d, size, v, buf) : dump_nonfinite_json(d, size, v, buf);
}

/* Integers a double holds exactly, as JavaScript's Number.isSafeInteger. */
#define DUMP_SAFE_INT_MAX ((UINT64_C(1) << 53) - 1)

/* Integers as JSON at buf (DUMP_NUMBER_ROOM bytes), quoted outside
 * +-DUMP_SAFE_INT_MAX when the style asks; the length of the text. Inline:
 * dump --jsonl writes one per integer scalar. */
_Static_assert(DUMP_NUMBER_ROOM >= 1 + 21 + 1, "a quote, text_decimal_i64's room, a quote");
static inline size_t dump_int_json(const struct dumper *d, int64_t v, char *buf)
{
    size_t quote = d->style.big_int_string &&
                   (v > (int64_t)DUMP_SAFE_INT_MAX || v < -(int64_t)DUMP_SAFE_INT_MAX);
    buf[0] = '"';
    size_t n = quote + text_decimal_i64(v, buf + quote);
    buf[n] = '"';
    return n + quote;
}

static inline size_t dump_uint_json(const struct dumper *d, uint64_t v, char *buf)
{
    size_t quote = d->style.big_int_string && v > DUMP_SAFE_INT_MAX;
    buf[0] = '"';
    size_t n = quote + text_decimal_u64(v, buf + quote);
    buf[n] = '"';
    return n + quote;
}
/* A float, an integer as JSON at the end of out. */
void dump_put_float(struct dumper *d, struct sink *out, size_t size, double v);
void dump_put_int(struct dumper *d, struct sink *out, int64_t v);
void dump_put_uint(struct dumper *d, struct sink *out, uint64_t v);
/* One scalar of type dt at p as a CSV cell's text before quoting: NumPy's
 * str() of it (dump_csv.c), for the table's scalar cells. tmp holds
 * 5 * itemsize + 64 bytes. -1 with d->err set and d->failed. */
int dump_put_str(struct dumper *d, struct sink *out, const npydt_dtype *dt, const unsigned char *p,
                 char *tmp);
/* One value of type dt at p as JSON (a table's cell of a struct or an
 * array too). -1 with d->err set and d->failed when it cannot be printed. */
int dump_put_value(struct dumper *d, struct sink *out, const npydt_dtype *dt, const unsigned char *p);
/* A selected field of the element at rec: its value, or the nested lists
 * of it below an array of structs. */
int dump_put_selected(struct dumper *d, struct sink *out, const struct selected *s,
                      const unsigned char *rec);
/* One element: the whole value, or an object of the nsel selected fields. */
int dump_put_element(struct dumper *d, struct sink *out, const npydt_dtype *dt,
                     const unsigned char *p, const struct selected *sel, size_t nsel);
/* How a plan's step reads and writes a scalar (JSON and CSV plans;
 * integers and floats by size: one switch per step picks both). */
enum {
    OP_TYPED,                      /* the typed readers (dump_put_value, a CSV cell's) */
    OP_I1, OP_I2, OP_I4, OP_I8,    /* i of 1, 2, 4, 8 bytes */
    OP_U1, OP_U2, OP_U4, OP_U8,    /* u of 1, 2, 4, 8 bytes */
    OP_F4, OP_F8,                  /* f of 4 or 8 bytes, or a part of such a complex */
    OP_BOOL,                       /* b: any nonzero byte is true */
    OP_TIME,                       /* M and m (8 bytes): NaT, else the count (ISO text typed) */
    OP_BYTES,                      /* S: the bytes before trailing NULs, escaped */
    OP_SMALL_INTS                  /* JSON: `count` integers of up to 4 bytes (elem: OP_I1..OP_U4)
                                    * `stride` apart, comma-separated: a scalar of theirs, or
                                    * the innermost list of a subarray of them */
};
/* The op of a scalar dt other than a complex (OP_TYPED for those). */
unsigned char plan_scalar_op(const npydt_dtype *dt);
/* The bits of an unsigned number read as the signed type of its size. */
static inline int64_t plan_signed8(uint8_t b) { int8_t x; memcpy(&x, &b, 1); return x; }
static inline int64_t plan_signed16(uint16_t b) { int16_t x; memcpy(&x, &b, 2); return x; }
static inline int64_t plan_signed32(uint32_t b) { int32_t x; memcpy(&x, &b, 4); return x; }
static inline int64_t plan_signed64(uint64_t b) { int64_t x; memcpy(&x, &b, 8); return x; }

/* An element's JSON as fixed text around its scalars (dump_plan.c). */
struct plan_step;
struct json_plan {
    struct sink text;            /* the fixed text */
    struct plan_step *steps;     /* text, then a value; n of them, the last
                                  * one text only */
    size_t n, cap;
    size_t pending;              /* text after the last step starts here */
    size_t room;                 /* bytes an element's text may take */
    size_t scalars;              /* scalars the steps write */
    const struct value_style *style;   /* while it is built */
};
/* The plan of an element of dt (sel NULL) or of its selected fields, as
 * dump_put_element writes them in the style, followed by the text end
 * ("\n": the line's end, or ""); -1 (and nothing to free) when there is
 * none: out of memory or too many scalars. A plan is for dumpers of that
 * style only. */
int plan_build(struct json_plan *p, const npydt_dtype *dt, const struct selected *sel,
               size_t nsel, const struct value_style *style, const char *end);
/* The element at rec through plan p; -1 as dump_put_value. */
int plan_put(struct dumper *d, struct sink *out, const struct json_plan *p,
             const unsigned char *rec);
/* The n elements at recs through plan p, one after the other: 0, or -1
 * as plan_put at the first that fails (the text before it written). */
int plan_put_run(struct dumper *d, struct sink *out, const struct json_plan *p,
                 const unsigned char *const *recs, size_t n);
void plan_free(struct json_plan *p);
/* Nonzero, with d->err set, when a U scalar of rec within bytes [lo, hi)
 * holds no code point (NumPy cannot make a str of it). */
int dump_check_unicode(struct dumper *d, const npydt_dtype *root, const unsigned char *rec,
                       uint64_t lo, uint64_t hi);

/* ---- which elements (dump_select.c) ---------------------------------------------- */

/* The elements dump prints: rows row_first, row_first + row_step, ...
 * (nrows of them) of row_len elements each, in C order of the flattened
 * array (a row is one element unless --index/--range picked sub-arrays),
 * at most `total` elements in all. */
struct selection {
    uint64_t row_first;
    int64_t row_step;
    uint64_t nrows;
    uint64_t row_len;
    uint64_t total;
    const uint64_t *pick;   /* NULL, or a sample: the positions (ascending) of
                             * the `total` elements printed among those above */
};

/* What --index, --range and --tail asked for, as typed (NULL: not given). */
struct select_args {
    const char *index;
    const char *range;
    const char *tail;
};

/* The selection of the array of header h that args and --head (have_head,
 * head) ask for; errors (an index out of bounds too) are reported on
 * stderr for name and give EXIT_USAGE. */
int dump_select(const char *name, const npydt_header *h, const struct select_args *args,
                int have_head, uint64_t head, struct selection *out);
/* The same, its errors to d (report.h; stats -j). */
struct cli_dest;
int dump_select_to(struct cli_dest *d, const char *name, const npydt_header *h,
                   const struct select_args *args, int have_head, uint64_t head,
                   struct selection *out);
/* --sample (dump_sample.c): n positions drawn at random without
 * replacement from [0, total) by Floyd's algorithm over the splitmix64
 * generator seeded with seed, in ascending order, at *out (free it).
 * Integer arithmetic only: the same positions on every platform. 0, or
 * -1 when out of memory. n < total, n <= DUMP_SAMPLE_MAX. */
#define DUMP_SAMPLE_MAX (UINT64_C(1) << 22)
int dump_sample(uint64_t total, uint64_t n, uint64_t seed, uint64_t **out);
/* Flat C-order index of the i-th selected element. */
uint64_t selection_flat(const struct selection *s, uint64_t i);
/* One past the largest flat index of the selection (0 when empty). */
uint64_t selection_end(const struct selection *s);

/* Reaches elements by flat index: in place in a mapped file (O(1) each),
 * else by reading on in C order (and again from the start to go back). */
struct cursor {
    npydt_reader *src;
    const npydt_header *h;
    const unsigned char *bytes;   /* all data in place, or NULL */
    size_t itemsize;
    int fortran;
    const unsigned char *direct;  /* a Fortran-order array's bytes in place, read
                                   * there only when elements are far apart */
    const unsigned char *batch;   /* streamed elements [batch_first, batch_first + batch_n) */
    uint64_t batch_first, batch_n;
    uint64_t end;                 /* no element at or past it is asked for */
    struct cli_behind behind;     /* pages of a mapped file given back behind reads */
};
/* A cursor over src for elements below end (selection_end). */
void cursor_init(struct cursor *c, npydt_reader *src, uint64_t end);
/* The element at flat index i (< count), NULL with err set on failure.
 * In place, its bytes stay; else they stay until the next call. */
const unsigned char *cursor_at(struct cursor *c, uint64_t i, npydt_error *err);
/* The n elements at recs (cursor_at's, in place) have been read: the
 * pages behind them may go (cli_behind). */
void cursor_seen(struct cursor *c, const unsigned char *const *recs, size_t n);
/* The elements are read in any order (rows backwards). */
void cursor_any_order(struct cursor *c);
/* The elements of selection s are read: in any order when it goes
 * backwards, and in place when they are far apart (a sample, a step). */
void cursor_select(struct cursor *c, const struct selection *s);
/* cursor_at, then cursor_seen of the element. */
const unsigned char *cursor_get(struct cursor *c, uint64_t i, npydt_error *err);

/* How a format writes the selected elements, one after the other
 * (dump_rows.c runs it in tasks, in parallel with -j): each worker has a
 * state of state_size bytes (zeroed, then open; close frees what it
 * holds, opened or not), and put writes the element at rec, position i
 * of the selection, of flat index flat, to out with the worker's dumper
 * d: 0, or -1 as dump_put_value (d->failed when the data is at fault,
 * else out of memory). ctx is read-only while elements are written. */
struct dump_rows {
    const void *ctx;
    size_t state_size;
    int (*open)(const void *ctx, void *state);
    int (*put)(const void *ctx, void *state, struct dumper *d, struct sink *out, uint64_t i,
               uint64_t flat, const unsigned char *rec);
    void (*close)(void *state);
    /* NULL, or put for the n elements at recs (positions first, first +
     * 1, ...) at once: 0, or -1 as put at the first at fault */
    int (*put_run)(const void *ctx, void *state, struct dumper *d, struct sink *out,
                   uint64_t first, const unsigned char *const *recs, size_t n);
};
/* The selected elements through rows, their text written to out in
 * order by jobs workers (0: one a processor; capped by the work). 0, or
 * -1 with d->err and d->failed set as by the first element at fault
 * (after the text before it is written), or without d->failed when out
 * of memory. A failed write to out ends it early (0: the error is
 * reported at exit). */
int dump_rows_run(struct dumper *d, struct sink *out, struct cursor *cur,
                  const struct selection *s, unsigned jobs, const struct dump_rows *rows);

/* ---- output ------------------------------------------------------------------------ */

/* The selected elements as a table under title: the selected fields, the
 * top-level fields or the whole value per column (the cells made by jobs
 * workers, as dump_rows_run). -1 on failure
 * (d->failed when the data is at fault, else out of memory). */
int dump_print_table(struct dumper *d, struct sink *out, const char *title, struct cursor *cur,
                     const struct selection *s, const struct selected *sel, size_t nsel,
                     unsigned jobs);
/* The index column of the table (and a record's line in the vertical
 * view): the flat index of a 1-d array, else the index tuple "(i,j)". */
void dump_put_index(struct sink *out, const npydt_header *h, uint64_t flat);
/* The selected elements as JSON lines (dump_jsonl.c), each after its
 * flat index with index_column. -1 on failure as above. */
int dump_print_jsonl(struct dumper *d, struct sink *out, struct cursor *cur,
                     const struct selection *s, const struct selected *sel, size_t nsel,
                     int index_column, unsigned jobs);
/* How rows are framed (dump's options for CSV, TSV and JSON lines). */
struct row_style {
    bool no_header;      /* CSV/TSV: no header row */
    bool index_column;   /* a first column (CSV/TSV) or key (JSON) "index":
                          * the element's flat C-order index */
};
/* The name of the index column, which no field of the output may take. */
#define DUMP_INDEX_NAME "index"
/* The selected elements as CSV or TSV (dump_csv.c): a header row of leaf
 * paths, then a row per element. -1 on failure as above. */
int dump_print_csv(struct dumper *d, struct sink *out, enum dump_format format, struct cursor *cur,
                   const struct selection *s, const struct selected *sel, size_t nsel,
                   const struct row_style *rows, unsigned jobs);
/* The selected elements in the vertical view (dump_csv.c): under title,
 * a line "-[ RECORD I ]-" per element (I as the table's index column),
 * then a line "PATH: VALUE" per scalar leaf of it, the value as the
 * table's cell shows it but never cut. -1 on failure as above. */
int dump_print_vertical(struct dumper *d, struct sink *out, const char *title,
                        struct cursor *cur, const struct selection *s,
                        const struct selected *sel, size_t nsel, unsigned jobs);

/* The command (dump.c), and its command line for usage errors. */
struct cli_command;
int cmd_dump(int argc, char **argv);
extern const struct cli_command dump_command;

/* The selected elements (all: whole, through the library's stream over r)
 * of the array r reads, or their nsel selected fields (sel non-NULL), as
 * an Arrow IPC stream, to target (NULL: standard output) (dump_arrow.c).
 * An exit status, errors reported under name. */
int dump_arrow(const char *name, npydt_reader *r, const struct selection *sl, bool whole,
               const struct selected *sel, size_t nsel, const char *target, unsigned jobs);

#endif

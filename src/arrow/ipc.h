/* The Arrow IPC stream format: what the writer (ipc_write.c), the reader
 * (ipc_read.c, ipc_batch.c), the Flatbuffers they speak (ipc_fb.c) and the
 * column types (ipc_type.c) share. Not installed.
 *
 * A stream is messages, each a continuation marker 0xFFFFFFFF, the int32
 * length of the metadata that follows (padded so that the body starts
 * 8-byte aligned), the metadata (a Flatbuffers Message) and a body of
 * bodyLength bytes; the first message is the Schema, every later one a
 * RecordBatch; the marker with a length of 0 ends the stream. All integers
 * of the framing and of Flatbuffers are little-endian. */
#ifndef NPYDT_ARROW_IPC_H
#define NPYDT_ARROW_IPC_H

#include "arrow/arrow.h"

/* ---- column types ----------------------------------------------------------- */

/* Type numbers of the Flatbuffers union Type (Schema.fbs) this code knows. */
enum {
    FB_TYPE_INT = 2, FB_TYPE_FLOAT = 3, FB_TYPE_BINARY = 4, FB_TYPE_UTF8 = 5,
    FB_TYPE_BOOL = 6, FB_TYPE_DATE = 8, FB_TYPE_TIMESTAMP = 10, FB_TYPE_STRUCT = 13,
    FB_TYPE_FIXED_BINARY = 15, FB_TYPE_FIXED_LIST = 16, FB_TYPE_DURATION = 18
};

/* One column's type, as a C Data format string says it and as the IPC
 * Field's type table does. */
struct ipc_type {
    uint8_t fb;           /* FB_TYPE_* */
    uint8_t buffers;      /* buffers of the column, validity included: 1 to 3 */
    uint8_t is_signed;    /* Int */
    int16_t unit;         /* FloatingPoint precision (0 half .. 2 double),
                           * Date unit (0 day, 1 ms), time unit (0 s .. 3 ns) */
    int32_t bits;         /* Int bitWidth */
    int32_t size;         /* FixedSizeBinary byteWidth, FixedSizeList listSize */
    size_t width;         /* bytes of one value in the data buffer (0: bits or
                           * variable, or no data buffer) */
    const char *tz;       /* Timestamp time zone, tzlen bytes (NULL: none) */
    size_t tzlen;
};

/* The type of a C Data format string; false for one the IPC code does not
 * handle. */
bool ipc_type_of_format(const char *format, struct ipc_type *t);
/* The C Data format string of t into buf (size bytes); false when it does
 * not fit. */
bool ipc_format_of_type(const struct ipc_type *t, char *buf, size_t size);
/* Fill buffers and width of t from its other fields; false for a
 * combination Arrow does not define or this code does not handle. */
bool ipc_type_complete(struct ipc_type *t);
/* The Flatbuffers name of union Type number n ("Union", "Decimal", ...). */
const char *ipc_type_name(unsigned n);

/* ---- Flatbuffers, written front to back ------------------------------------- */

/* A Flatbuffer under construction: tables are written before what they
 * point to (offsets only point forward), each right after its vtable. */
struct fbb {
    const npydt_allocator *alloc;
    unsigned char *p;
    size_t len, cap;
    bool failed;   /* out of memory: every later call is a no-op */
};
/* A table field: size 0 (absent), 1, 2, 4 or 8 bytes of value, or a
 * reference (ref: 4 bytes, patched with fbb_patch once its target is
 * written; value ignored). */
struct fbb_field {
    uint8_t size;
    bool ref;
    uint64_t value;
};
#define FBB_MAX_FIELDS 8
/* Write a table of nf fields (field i has id i) and its vtable; at[i]
 * becomes the position of field i's bytes. Returns the table's position. */
size_t fbb_table(struct fbb *b, const struct fbb_field *f, size_t nf, size_t *at);
/* Point the reference at position at to position target (after it). */
void fbb_patch(struct fbb *b, size_t at, size_t target);
/* A vector of n elements of elem bytes (aligned to align, a power of two
 * up to 8), zeroed: its position; the elements start 4 bytes after. */
size_t fbb_vector(struct fbb *b, size_t n, size_t elem, size_t align);
/* A string of n bytes: its position. */
size_t fbb_string(struct fbb *b, const char *s, size_t n);

/* A Flatbuffer being read: bytes p[0..len), which start at byte `at` of
 * the stream (for messages), checked before every load. */
struct fbr {
    const unsigned char *p;
    size_t len;
    uint64_t at;
    npydt_error *err;
};
struct fbt {
    size_t pos;      /* the table */
    size_t vt;       /* its vtable */
    size_t vtlen;    /* bytes of the vtable */
    size_t tlen;     /* bytes of the table inline */
};
/* The table at pos; what names it (for messages). NPYDT_E_DATA when its
 * vtable or its bytes pass the buffer. */
npydt_status fbr_table(const struct fbr *r, size_t pos, const char *what, struct fbt *t);
/* The root table. */
npydt_status fbr_root(const struct fbr *r, struct fbt *t);
/* Field id of t as an unsigned integer of size bytes (dflt when absent). */
npydt_status fbr_uint(const struct fbr *r, const struct fbt *t, unsigned id, size_t size,
                      uint64_t dflt, const char *what, uint64_t *out);
/* Field id of t as a reference: *target its position, 0 when absent. */
npydt_status fbr_ref(const struct fbr *r, const struct fbt *t, unsigned id, const char *what,
                     size_t *target);
/* The vector at pos: *n elements of elem bytes from *data. */
npydt_status fbr_vector(const struct fbr *r, size_t pos, size_t elem, const char *what,
                        uint32_t *n, size_t *data);
/* The string at pos (NUL-terminated as Flatbuffers writes them): *s, *n bytes. */
npydt_status fbr_string(const struct fbr *r, size_t pos, const char *what, const char **s,
                        size_t *n);
/* Element i of the vector of tables at data. */
npydt_status fbr_vector_table(const struct fbr *r, size_t data, uint32_t i, const char *what,
                              struct fbt *t);
/* NPYDT_E_DATA at position pos of r: "Arrow IPC: <what> ...". */
npydt_status fbr_fail(const struct fbr *r, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Union MessageHeader numbers (Message.fbs) and the metadata version. */
enum { FB_MSG_SCHEMA = 1, FB_MSG_DICTIONARY = 2, FB_MSG_RECORD_BATCH = 3 };
#define FB_VERSION_V4 3
#define FB_VERSION_V5 4

/* The options in force: opts or the defaults, limits resolved. */
npydt_status ipc_options_resolve(const npydt_arrow_ipc_options *opts,
                                 npydt_arrow_ipc_options *out, npydt_error *err);

/* ---- the reader ---------------------------------------------------------------- */

/* A column of the stream's schema, in pre-order (column 0: the root
 * struct); name points into the schema message kept by the reader. */
struct ipc_col {
    struct ipc_type t;
    uint32_t nkids;
    const char *name;
};

/* A RecordBatch message: its table in r, its body. */
struct ipc_batch_in {
    const npydt_allocator *alloc;
    const struct ipc_col *cols;
    size_t ncols, nbufs;         /* columns (the root's included), buffers */
    const struct fbr *r;
    const struct fbt *table;
    const unsigned char *body;
    uint64_t body_len, body_at;  /* bytes, and where they start in the stream */
    struct arrow_shared *shared; /* what body lies in, for the arrays to point
                                  * into; NULL: they copy their buffers */
};
/* The RecordBatch as a struct array of the columns into *out (released
 * on failure); NPYDT_E_DATA for a node, buffer or value that does not
 * hold, NPYDT_E_TYPE for a compressed body. */
npydt_status ipc_batch_decode(const struct ipc_batch_in *in, struct ArrowArray *out,
                              npydt_error *err);

/* npydt_arrow_stream_error for a stream of the IPC reader; NPYDT_E_ARG
 * for any other. */
npydt_status ipc_stream_error(const struct ArrowArrayStream *s, npydt_error *err);

/* The most bytes a bitmap of n bits takes. */
static inline uint64_t ipc_bitmap_bytes(uint64_t n)
{
    return n / 8 + (n % 8 != 0);
}

#endif

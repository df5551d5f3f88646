/* The data-access stage: one array's data bytes from a file, a buffer or
 * an archive member, in stored or C order. The reader's state, shared by
 * the files of this stage (opening, in-memory bytes and writable mappings
 * in open.c, sequential reads in reader.c, C-order batches in corder.c,
 * element addressing in element.c, a field of an element or a column by
 * path in get.c). Not installed. */
#ifndef NPYDT_ACCESS_H
#define NPYDT_ACCESS_H

#include "base/base.h"

struct npydt_reader {
    const npydt_allocator *alloc;
    size_t chunk_bytes, window_bytes;
    npydt_header *header;
    size_t itemsize;
    uint64_t count;               /* elements */
    uint64_t data_bytes;          /* count * itemsize */
    int c_order;                  /* stored in C order, or no more than one
                                   * dimension above 1 (the same bytes) */
    const unsigned char *bytes;   /* all the data in place, or NULL */
    struct io_region region;      /* a mapping of the file, a copy of the data
                                   * (read or inflated), or nothing */
    int writable;                 /* region is a shared read-write mapping */
    unsigned char empty[1];       /* the writable bytes of an array without data */
    int fd;                       /* read with pread when not in place; -1: none */
    int own_fd;                   /* opened by the reader, closed by it */
    int piped;                    /* fd cannot seek: read(2) in sequence, never back */
    const unsigned char *head;    /* a piped input's first data bytes, read by the caller */
    size_t head_len;
    uint64_t file_offset;         /* of the first data byte in the file */
    const npydt_npz *npz;         /* a deflated member: read through stream */
    size_t member;
    npydt_npz_stream *stream;
    uint64_t pos;                 /* data bytes read in sequence so far */
    uint64_t next;                /* C-order index of npydt_reader_next_c's next element */
    unsigned char *buf;           /* a chunk or a batch */
    size_t buf_size;
    unsigned char *window;        /* the C-order elements of a pass */
    size_t window_size;
    uint64_t *index, *cstride;    /* a pass's multi-index and C strides */
    unsigned char *value;         /* one field's bytes read by npydt_reader_get_* */
    size_t value_size;
    struct reader_share *share;   /* region, once shared (share.c): unmapped by
                                   * the last of the reader and the holders */
    struct band *band;            /* a Fortran-order array given in C order by
                                   * bands (band.c), or NULL */
    int band_fd;                  /* the mapped file, read by bands; -1: none */
};

/* The one place that gives up going back in a stream. */
npydt_status reader_no_going_back(npydt_error *err);
/* A fresh stream of the member, positioned at its first data byte. */
npydt_status reader_open_stream(npydt_reader *r, npydt_error *err);
/* Room for size bytes in *buf (of *have bytes), keeping nothing. */
npydt_status reader_room(npydt_reader *r, unsigned char **buf, size_t *have, size_t size,
                         npydt_error *err);
/* Read in sequence the next n data bytes into buf (NPYDT_E_DATA when the
 * data ends first). Only for a reader whose bytes are not in place. */
npydt_status reader_read(npydt_reader *r, unsigned char *buf, size_t n, npydt_error *err);
/* Move the sequential position to data byte target (back to the start
 * and forward again when it is behind). */
npydt_status reader_seek(npydt_reader *r, uint64_t target, npydt_error *err);
/* Whole elements in bytes, at least one, at most most. */
uint64_t reader_records_in(const npydt_reader *r, size_t bytes, uint64_t most);

/* ---- a Fortran-order array of a file or of memory in C order (band.c) ---- */

/* The C-order elements from r->next on, at most k of them (at least one,
 * at most chunk_bytes), into *out (r->window): *n of them. For an array
 * neither in C order nor read in sequence (a mapped file, one read with
 * pread, bytes in memory). */
npydt_status band_next(npydt_reader *r, uint64_t k, const unsigned char **out, uint64_t *n,
                       npydt_error *err);
/* Free what band_next holds. */
void band_free(npydt_reader *r);
/* A descriptor of fd's file for bands of a mapped array (closed by the
 * reader), or -1. */
int band_descriptor(int fd);
/* The k elements from C-order position `from` of a band of h rows of w
 * positions, stored position after position (the h elements of position j
 * from j * h), to out in C order. */
void band_transpose(const unsigned char *band, size_t is, uint64_t h, uint64_t w,
                    uint64_t from, uint64_t k, unsigned char *out);

/* ---- the mapping shared with what points into it (share.c) ---------------- */

struct reader_share;
/* A reference to the read-only mapping of r's file (shared from the first
 * call on); NULL when r's data are not such a mapping or memory runs out.
 * Each reference is let go with reader_share_drop. */
struct reader_share *reader_share(npydt_reader *r);
/* Another reference to s: s. */
struct reader_share *reader_share_hold(struct reader_share *s);
/* Let go of a reference (NULL: nothing): the last unmaps the file. */
void reader_share_drop(struct reader_share *s);
/* Do the len bytes at p lie in the mapping of s? */
bool reader_share_has(const struct reader_share *s, const void *p, uint64_t len);

#endif

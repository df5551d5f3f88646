/* The writing stage: records appended to .npy files and .npz members. The
 * writer's state, shared by the files of this stage (creating and closing
 * in writer.c, appending to an existing file in append.c, buffered writes
 * and flushes in flush.c, file operations in file_ops.c, header texts in
 * header_text.c, the record under construction in record.c and set.c,
 * archive members in member.c). Not installed. */
#ifndef NPYDT_WRITE_H
#define NPYDT_WRITE_H

#include "base/base.h"

/* How the records reach their destination. */
enum writer_kind {
    WRITER_FILE,    /* a .npy file whose header is rewritten in place */
    WRITER_SCALAR,  /* a 0-d array: header and record written at close */
    WRITER_MEMBER   /* an .npz member: header for the final shape first */
};

/* Where a file appears when the writer names it itself. */
enum writer_publish {
    PUBLISH_NONE,      /* the file is already at its place, or is the caller's fd */
    PUBLISH_LINK,      /* link the temporary file to the path (refused when it exists) */
    PUBLISH_RENAME     /* rename the temporary file over the path */
};

/* A field resolved by npydt_writer_field: what its handle's index names. */
struct writer_handle {
    const npydt_dtype *dtype;   /* the scalar node */
    size_t offset;              /* in the record */
    char *path;                 /* for messages (str_copy) */
};

struct npydt_writer {
    const npydt_allocator *alloc;
    enum writer_kind kind;
    npydt_header *header;       /* parse of the header as first written: owns
                                 * the dtype, and the shape of a member */
    const npydt_dtype *dtype;
    size_t itemsize;
    int fortran_order;
    size_t ndim;
    uint64_t *shape;            /* the shape the file's header says (ndim) */
    size_t growth;              /* index of the growth axis */
    uint64_t row;               /* records per step of the growth axis */
    uint64_t count;             /* records accepted so far */
    uint64_t limit;             /* records a member or 0-d array takes */
    uint64_t flushed;           /* records the file's header counts */
    uint64_t flush_every;
    uint64_t flush_mark;        /* count at the last flush */
    int no_sync;
    /* the destination */
    int fd;
    int own_fd;
    char *path;                 /* the file's name in messages; NULL for an fd */
    char *tmp_path;             /* a temporary file still to be published */
    enum writer_publish publish;
    uint64_t data_offset;       /* of the first data byte */
    uint64_t file_bytes;        /* data bytes in the file (not counting the buffer) */
    bool unsynced;              /* data written since the last fsync */
    uint64_t handed;            /* the file's bytes handed to the disk ahead
                                 * of the fsync (io_writeback_steps) */
    int major;                  /* format version of the header in the file */
    unsigned char *text;        /* the header in the file: data_offset bytes */
    npydt_npz_writer *zip;      /* a member's archive */
    /* buffers */
    unsigned char *buf;         /* records not yet written */
    size_t buf_cap, buf_len;
    unsigned char *record;      /* the record under construction (itemsize bytes) */
    struct writer_handle *fields;   /* the fields npydt_writer_field resolved */
    size_t nfields, fields_cap;
    /* after an I/O error: the only call left is close */
    npydt_status poisoned;
    npydt_error failure;
};

/* ---- header_text.c ---------------------------------------------------------- */

/* np.save's header for the writer's dtype, order and shape in format
 * version major (1, 2 or 3; 0: the version np.save chooses), as NumPy's
 * writer gives it for that version: room for 21 digits on the growth axis,
 * padded to 64 bytes. *out is allocated (free_bytes with *len).
 * NPYDT_E_LIMIT when that version cannot hold it. */
npydt_status header_text(const npydt_allocator *a, const npydt_dtype *dt,
                         const uint64_t *shape, size_t ndim, int fortran_order, int major,
                         unsigned char **out, size_t *len, npydt_error *err);
/* The first and one past the last byte where two texts of len bytes
 * differ; *first == *end when they are equal. */
void header_diff(const unsigned char *a, const unsigned char *b, size_t len, size_t *first,
                 size_t *end);

/* ---- file_ops.c ------------------------------------------------------------- */

/* The one owner of durable output: the writer and npydt_output (output.c)
 * write, sync, create temporary files and publish them only through these.
 * Errors are NPYDT_E_IO "NAME: WHAT failed: ERRNO TEXT" unless said. */

/* io_write_all's offset for "at the file position" (write, not pwrite). */
#define IO_AT_END UINT64_MAX

/* Write all n bytes at offset off (IO_AT_END: at the file position),
 * retrying short writes and EINTR; a write that takes no byte is an error
 * (EIO), never retried. NPYDT_E_OVERFLOW past the largest file offset.
 * name: the file in messages. */
npydt_status io_write_all(int fd, const char *name, const void *buf, size_t n, uint64_t off,
                          npydt_error *err);
/* Hand bytes [off, off + len) of fd to the disk now, without waiting
 * for them (Linux: sync_file_range SYNC_FILE_RANGE_WRITE; elsewhere
 * nothing), so that the fsync that follows has less left to write. Only a
 * head start: the fsync still writes and waits for everything and reports
 * any write error, so a failure here is not one. */
void io_start_writeback(int fd, uint64_t off, uint64_t len);
/* The bytes a file written from its start is handed to the disk in. */
#define IO_WRITEBACK_STEP ((uint64_t)1 << 20)
/* A file whose first end bytes are written: the whole IO_WRITEBACK_STEPs
 * of them past *handed (a multiple of the step) handed to the disk
 * (io_start_writeback) and counted in *handed. */
void io_writeback_steps(int fd, uint64_t *handed, uint64_t end);
/* fsync fd through EINTR. */
npydt_status io_sync_fd(int fd, const char *name, npydt_error *err);
/* close fd; an error (not EINTR) is reported, the descriptor released. */
npydt_status io_close(int fd, const char *name, npydt_error *err);
/* Create a new empty file beside path (same folder, named
 * PATH.XXXXXXXX.tmp), opened read-write, mode 0666 less the umask; *tmp is
 * allocated (str_free). "PATH: cannot create a temporary file beside it". */
npydt_status io_create_temp(const npydt_allocator *a, const char *path, int *fd, char **tmp,
                            npydt_error *err);
/* Give the temporary file fd (named tmp) the permission bits of the
 * regular file path names (through a symbolic link, the file it names), if
 * there is one. */
npydt_status io_keep_mode(int fd, const char *path, const char *tmp, npydt_error *err);
/* Give tmp the name path: link (refused with NPYDT_E_IO when path exists;
 * tmp then removed) or rename over it, then fsync the folder (not with
 * no_sync). *placed: the temporary name is gone (linked and removed, or
 * renamed), whatever the folder's sync gave. A folder sync that fails (but
 * for file systems that cannot sync a folder: EINVAL, EROFS, EBADF) is an
 * error: a linked name is then removed again; a rename cannot be taken
 * back, and the message says the new file is in place. */
npydt_status io_place(const npydt_allocator *a, const char *tmp, const char *path, bool link_it,
                      bool no_sync, bool *placed, npydt_error *err);
/* A copy of a C string from the allocator (NULL when out of memory). */
char *str_copy(const npydt_allocator *a, const char *s);
/* Release a string from str_copy or io_create_temp; NULL is a no-op. */
void str_free(const npydt_allocator *a, char *s);

/* The writer's file through the calls above; none poisons the writer by
 * itself. Messages name the temporary file while there is one. */

/* An NPYDT_E_IO error: "FILE: WHAT failed: ERRNO TEXT". */
npydt_status writer_io_error(const npydt_writer *w, const char *what, int errnum, npydt_error *err);
/* io_write_all on the writer's file. */
npydt_status io_pwrite_all(const npydt_writer *w, const void *buf, size_t n, uint64_t off,
                           npydt_error *err);
/* fsync the writer's file (nothing with no_sync). */
npydt_status io_sync(const npydt_writer *w, npydt_error *err);
/* Publish the writer's temporary file (io_keep_mode when it replaces,
 * then io_place); frees tmp_path once the name is the new file's. */
npydt_status io_publish(npydt_writer *w, npydt_error *err);

/* ---- writer.c --------------------------------------------------------------- */

/* A zeroed writer with no file yet: options checked and copied, dtype and
 * header parsed from the header text of shape (its growth axis 0 when
 * start_empty), buffers allocated. */
npydt_status writer_new(const npydt_dtype *dt, const uint64_t *shape, size_t ndim,
                        int fortran_order, bool start_empty, const npydt_writer_options *opts,
                        enum writer_kind kind, npydt_writer **out, npydt_error *err);
/* Release everything the writer holds (not its file). */
void writer_free(npydt_writer *w);
/* Record the I/O error in err as the writer's failure: every later call
 * but close returns it. Returns its code. */
npydt_status writer_poison(npydt_writer *w, npydt_status st, const npydt_error *err);
/* NPYDT_E_ARG for a NULL writer, the failure of a poisoned one, else OK. */
npydt_status writer_usable(const npydt_writer *w, npydt_error *err);

/* ---- flush.c ---------------------------------------------------------------- */

/* Write what is buffered to the destination (the buffer is then empty). */
npydt_status writer_drain(npydt_writer *w, npydt_error *err);
/* The header of the file for `records` records, rewritten in place where
 * it differs from what the file holds. */
npydt_status writer_set_count(npydt_writer *w, uint64_t records, npydt_error *err);

/* ---- member.c --------------------------------------------------------------- */

/* Write bytes to the member's archive. */
npydt_status member_write(npydt_writer *w, const void *buf, size_t n, npydt_error *err);
/* End the member: NPYDT_E_SHAPE unless every record was written. */
npydt_status member_close(npydt_writer *w, npydt_error *err);
/* Drop the member: the archive fails (its later calls return the error). */
void member_discard(npydt_writer *w);

#endif

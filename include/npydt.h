/*
 * npydt — NumPy .npy headers and record dtypes, parsed exactly, in C.
 *
 * One public header. Every exported symbol starts with npydt_ / NPYDT_.
 *
 * Thread safety: the library has no global mutable state. Parsed results
 * (npydt_header, npydt_dtype and everything reachable from them) are
 * immutable once returned and may be shared between threads; freeing one
 * must not race with its use. Error structs and options are plain data
 * owned by the caller.
 *
 * Errors are values: every fallible call returns an npydt_status and, when
 * given a non-NULL npydt_error, fills it in, on success too (see
 * npydt_error). The library never prints, aborts or exits on bad input or
 * on allocation failure.
 *
 * Integer types: offsets and sizes within a file, an archive or an array's
 * data are uint64_t, since they may pass 4 GiB on any platform. Lengths of
 * memory the caller passes or receives (buffers, strings, the stride
 * between records in memory, counts and indices of in-memory tables) are
 * size_t, as in C's own functions: the address space bounds them. A
 * dtype's itemsize and a field's offset within it are size_t as well:
 * NumPy bounds them by a C int, so they fit every platform's size_t.
 */
#ifndef NPYDT_H
#define NPYDT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(NPYDT_BUILDING) && defined(__GNUC__)
#define NPYDT_API __attribute__((visibility("default")))
#else
#define NPYDT_API
#endif

/* Version of this header: the only place the version is written (the
 * Makefile reads VERSION and the soname from these three lines). The
 * library a program runs with may be newer: npydt_version() says which. */
#define NPYDT_VERSION_MAJOR 0
#define NPYDT_VERSION_MINOR 1
#define NPYDT_VERSION_PATCH 0

/* Turns a macro's value into a string literal (for NPYDT_VERSION_STRING). */
#define NPYDT_STRINGIFY_(x) #x
#define NPYDT_STRINGIFY(x) NPYDT_STRINGIFY_(x)

/* The header's version as "MAJOR.MINOR.PATCH", e.g. "0.1.0". */
#define NPYDT_VERSION_STRING                                           \
    NPYDT_STRINGIFY(NPYDT_VERSION_MAJOR) "." NPYDT_STRINGIFY(NPYDT_VERSION_MINOR) "." \
    NPYDT_STRINGIFY(NPYDT_VERSION_PATCH)

/* The header's version as one comparable number, MAJOR * 10000 +
 * MINOR * 100 + PATCH (0.1.0 is 100), for #if tests. */
#define NPYDT_VERSION_NUMBER \
    (NPYDT_VERSION_MAJOR * 10000 + NPYDT_VERSION_MINOR * 100 + NPYDT_VERSION_PATCH)

/* The library's version as "MAJOR.MINOR.PATCH" (its NPYDT_VERSION_STRING). */
NPYDT_API const char *npydt_version(void);
/* The library's version as a number (its NPYDT_VERSION_NUMBER). */
NPYDT_API unsigned long npydt_version_number(void);

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

/* Stable status codes; values never change once released. */
typedef enum npydt_status {
    NPYDT_OK = 0,
    NPYDT_E_NOMEM = 1,      /* an allocation failed */
    NPYDT_E_IO = 2,         /* a read, map or stat of the input failed */
    NPYDT_E_MAGIC = 3,      /* the file does not start with \x93NUMPY */
    NPYDT_E_VERSION = 4,    /* format version other than 1.0, 2.0, 3.0 */
    NPYDT_E_TRUNCATED = 5,  /* input ends inside the preamble or header */
    NPYDT_E_ENCODING = 6,   /* invalid UTF-8 (3.0) or a NUL in the header */
    NPYDT_E_SYNTAX = 7,     /* the header is not a valid Python literal */
    NPYDT_E_KEY = 8,        /* missing, unknown or duplicate dict key */
    NPYDT_E_VALUE = 9,      /* a value of the wrong type (shape not a tuple...) */
    NPYDT_E_TYPE = 10,      /* type string not understood */
    NPYDT_E_UNIT = 11,      /* bad datetime unit or metadata */
    NPYDT_E_NAME = 12,      /* duplicate / invalid field name or title */
    NPYDT_E_SHAPE = 13,     /* negative or malformed dimension */
    NPYDT_E_OVERFLOW = 14,  /* a size, offset or count does not fit */
    NPYDT_E_LIMIT = 15,     /* a configured limit was exceeded */
    NPYDT_E_DATA = 16,      /* fewer data bytes than count * itemsize */
    NPYDT_E_ARG = 17,       /* invalid argument from the caller */
    NPYDT_E_NOT_FOUND = 18, /* a named field path or archive member does not exist */
    NPYDT_E_FIELD = NPYDT_E_NOT_FOUND, /* the same status, by the name of its first use */
    NPYDT_E_OBJECT = 19,    /* data access refused: object (pickled) dtype */
    NPYDT_E_RANGE = 20,     /* value does not fit the requested C type */
    NPYDT_E_MISMATCH = 21,  /* schema check: the header does not match */
    NPYDT_E_ARCHIVE = 22    /* malformed or hostile .npz archive */
} npydt_status;

/* npydt_error.offset when no byte offset applies. */
#define NPYDT_NO_OFFSET ((size_t)-1)

/* Path and message are text safe to log and to show: names, type strings
 * and member names from a file appear in them escaped by the one rule of
 * npydt_text_escape (no control byte, no line break, nothing that is not
 * UTF-8; a NUL in a name is the four characters \x00), cut to whole
 * escapes. The raw names stay reachable through the length-carrying
 * accessors (npydt_dtype_field_name and _len, npydt_dtype_leaf_path's
 * return, npydt_field_lookup_len), and offset points into the header
 * bytes the caller holds.
 * Filled by every call that takes one, whatever it held before: on failure
 * with the returned status and what went wrong; on success with code
 * NPYDT_OK, offset NPYDT_NO_OFFSET and an empty path and message (the
 * per-value readers and writers included: four stores). So a struct
 * reused across calls describes the last one; a program that keeps an
 * error while it cleans up passes the cleanup calls another struct.
 * Fixed size: reporting never allocates. */
typedef struct npydt_error {
    npydt_status code;  /* same as the returned status */
    size_t offset;      /* byte offset into the header text, or NPYDT_NO_OFFSET */
    char path[256];     /* field path such as "pos.x" or "", cut if long */
    char message[256];  /* human-readable, no trailing newline */
} npydt_error;

/* Stable name of a status, e.g. "syntax error" for NPYDT_E_SYNTAX,
 * "not found" for NPYDT_E_NOT_FOUND; "unknown error" for a value not in
 * the enum; never NULL. The command prints it in its error messages. */
NPYDT_API const char *npydt_status_name(npydt_status status);

/* Columns a terminal gives the UTF-8 text s (len bytes; a NUL is a
 * character), for aligning names in columns: 2 for an East Asian wide or
 * fullwidth character, 0 for a combining mark, a format character or a
 * control character, 1 for any other character and for each byte that is
 * not valid UTF-8 (Unicode 14 tables). */
NPYDT_API size_t npydt_text_width(const char *s, size_t len);

/* The text s (len bytes) escaped as the library writes every
 * npydt_error path and message: controls and DEL as \a \b \t \n \v \f
 * \r or \xNN (a NUL as \x00), C1 controls and U+2028/U+2029 as \uNNNN,
 * each byte that is not UTF-8 as \xNN, the rest (the backslash too) as it
 * is, so escaped text escapes to itself. Writes what fits of it, whole
 * escapes and characters only, NUL-terminated, into buf (nothing when
 * size is 0); returns the whole escaped length (at most 4 * len): a
 * result >= size means the text was cut. For logging names taken from a
 * file (npydt_dtype_field_name with its _len, npydt_dtype_leaf_path,
 * member names), which the library hands out raw. */
NPYDT_API size_t npydt_text_escape(const char *s, size_t len, char *buf, size_t size);

/* The library's hash of a name (len bytes; a NUL is a byte like any
 * other), the one its own field and member tables use, for a program's
 * tables of names: every byte reaches the low bits, so they can pick the
 * slot. The value may change from release to release: do not store it. */
NPYDT_API uint64_t npydt_name_hash(const char *name, size_t len);

/* ------------------------------------------------------------------ */
/* Options, limits and allocator                                       */
/* ------------------------------------------------------------------ */

/* Caller-supplied allocator; NULL in the options means libc's malloc
 * (except a parse's blocks of 4 MiB and more, mapped as
 * npydt_huge_page_allocator maps them).
 * Sizes are passed back to realloc and free so arena allocators need no
 * headers. */
typedef struct npydt_allocator {
    void *(*malloc)(void *ctx, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *ctx, void *ptr, size_t size);
    void *ctx;
} npydt_allocator;

/* An allocator that maps blocks of 4 MiB and more (only headers of
 * hundreds of thousands of fields need them) from the kernel directly,
 * with huge pages asked for, and takes smaller ones from malloc: malloc
 * hands such blocks back to the kernel on free, so each parse of a very
 * large header would fault every page in again. Immutable; share it. */
NPYDT_API const npydt_allocator *npydt_huge_page_allocator(void);

/* Set *alc up as an allocator over the caller's buffer buf[0..size): every
 * block of the parses given it comes out of buf (NPYDT_E_NOMEM when buf is
 * full, the message of a parse call naming the pool's size, the request it
 * refused and its largest free block then), and nothing calls malloc.
 * For services that parse many headers: buf's pages stay faulted in from
 * one parse to the next. The state lives
 * in buf (alc->ctx): one pool per thread, and buf must outlive every
 * result allocated from it. Returns 1, or 0 when buf is NULL or too small
 * for the pool's own bookkeeping and one block (48 bytes, plus up to 15 to
 * align). */
NPYDT_API int npydt_pool_allocator_init(npydt_allocator *alc, void *buf, size_t size);

/* Options structs (npydt_options with its npydt_limits, npydt_npz_options,
 * npydt_reader_options, npydt_writer_options) can gain fields without
 * breaking programs built against an older header:
 *   - every limit and buffer size that is 0 means its default, so zeroed
 *     options ({0}, memset) are the defaults, and a limit cannot be set to
 *     0 (the smallest is 1); the *_init functions write the defaults out;
 *   - fill one with its *_init function (or zeros), then set the fields
 *     you want: a field added later then gets its default;
 *   - each ends in reserved room that new fields take, so its size and the
 *     offsets of its fields stay the same from release to release;
 *   - the reserved room must stay zero, as *_init leaves it: a call given
 *     options whose reserved room is not zero refuses them with
 *     NPYDT_E_ARG, so options meant for a newer library fail clearly on an
 *     older one. */

/* The highest limits.max_depth accepted (a larger one is refused with
 * NPYDT_E_ARG): descriptor conversion, byteswap plans, casts and schema
 * checks recurse once per nesting level. */
#define NPYDT_DEPTH_CEILING 4096u

/* Input bounds. Every default is documented in README.md ("Limits"); 0
 * is the default in each field. */
typedef struct npydt_limits {
    size_t max_header_bytes;  /* HEADER_LEN above this is refused (0: 16 MiB) */
    uint32_t max_depth;       /* bracket nesting in the header literal (0: 128) */
    uint32_t max_ndim;        /* dimensions of a shape or subarray (0: 32) */
    size_t max_fields;        /* fields in all structs of one dtype (0: 1,000,000) */
    /* Bytes one parse may hold at once (0: no limit, the default): the
     * blocks it has taken from the allocator and not given back, for its
     * result and its scratch together, counted as asked of the allocator
     * (the allocator's own overhead aside). A parse that would pass it
     * stops and frees what it took: NPYDT_E_LIMIT, message "the parse
     * would hold more than N bytes (limits.max_alloc_bytes)". Kept
     * by every parse into a result: npydt_header_parse (and so
     * npydt_parse_*, npydt_reader_open*, the header of an archive's
     * member), npydt_header_parse_descr, npydt_dtype_parse_typestr,
     * npydt_dtype_newbyteorder, npydt_schema_compile, npydt_rules_compile
     * and npydt_arrow_dtype. Not counted: a header's bytes read from
     * a file before its parse (max_header_bytes bounds them), and the
     * reader's and archive's own buffers. uint64_t, like the reserved
     * room it took, so the struct keeps its size on 32-bit hosts. */
    uint64_t max_alloc_bytes;
    uint64_t reserved[3];     /* room for new limits: zero */
} npydt_limits;

/* Options for the parse calls. Initialise with npydt_options_init (or
 * zeros: the defaults). */
typedef struct npydt_options {
    npydt_limits limits;
    const npydt_allocator *allocator; /* NULL: libc, see npydt_allocator */
    uint64_t reserved[4];             /* room for new options: zero */
} npydt_options;

/* Fill *opts with the documented defaults and zero reserved room. */
NPYDT_API void npydt_options_init(npydt_options *opts);
/* Fill *opts with the preset for input from outside (uploads, files of
 * other parties): the defaults, with HEADER_LEN at most 64 KiB (np.load
 * stops at 10,000 bytes), nesting at most 32, 10,000 fields and 4 MiB
 * held by one parse (max_alloc_bytes 4,194,304). The most a parse under
 * it was measured to hold is 3.3 MB of the allocator's memory (3,318,952
 * bytes: a 62 KB header of subarray fields; the hostile headers of
 * tests/test_bounds.c, which holds it under 4 MiB), so max_alloc_bytes
 * refuses none of them: it caps whatever those limits let through. */
NPYDT_API void npydt_options_init_untrusted(npydt_options *opts);

/* ------------------------------------------------------------------ */
/* Dtypes                                                              */
/* ------------------------------------------------------------------ */

/* An immutable, validated NumPy dtype node. Owned by its parse result: use
 * it while that lives. (Numeric scalar nodes below a root may be shared,
 * read-only, by every parse; nothing about a node depends on that.) */
typedef struct npydt_dtype npydt_dtype;

/* What a dtype node is. */
typedef enum npydt_dtype_class {
    NPYDT_SCALAR = 0,   /* one value of a kind (b i u f c S U V O M m) */
    NPYDT_STRUCT = 1,   /* named fields at offsets */
    NPYDT_SUBARRAY = 2  /* fixed-shape array of a base dtype */
} npydt_dtype_class;

/* Datetime units, in NumPy's order; NPYDT_UNIT_NONE for non-datetimes. */
typedef enum npydt_unit {
    NPYDT_UNIT_NONE = -1,
    NPYDT_UNIT_Y = 0, NPYDT_UNIT_M, NPYDT_UNIT_W, NPYDT_UNIT_D,
    NPYDT_UNIT_h, NPYDT_UNIT_m, NPYDT_UNIT_s, NPYDT_UNIT_ms,
    NPYDT_UNIT_us, NPYDT_UNIT_ns, NPYDT_UNIT_ps, NPYDT_UNIT_fs,
    NPYDT_UNIT_as, NPYDT_UNIT_GENERIC
} npydt_unit;

/* Class of a node. */
NPYDT_API npydt_dtype_class npydt_dtype_get_class(const npydt_dtype *dt);
/* Size of one element in bytes (always fits a C int, as in NumPy). For a
 * subarray it is the product of its shape times its base's size, except
 * for an empty subarray given a size of its own, as NumPy reads
 * (('<i4', (0,)), 2): no elements, 2 bytes. */
NPYDT_API size_t npydt_dtype_itemsize(const npydt_dtype *dt);
/* NumPy kind letter of a scalar ('f', 'S', 'M', ...); 'V' for struct and
 * subarray nodes. */
NPYDT_API char npydt_dtype_kind(const npydt_dtype *dt);
/* Byte order of a scalar: '<', '>' or '|' (not applicable); '|' otherwise. */
NPYDT_API char npydt_dtype_byteorder(const npydt_dtype *dt);
/* Datetime unit of an M/m scalar, else NPYDT_UNIT_NONE. */
NPYDT_API npydt_unit npydt_dtype_unit(const npydt_dtype *dt);
/* Datetime multiplier of an M/m scalar ("[25s]" gives 25), else 0. */
NPYDT_API int32_t npydt_dtype_unit_count(const npydt_dtype *dt);
/* Name of a unit as NumPy spells it ("ns", "generic"); "" for NONE or a
 * value not in the enum. */
NPYDT_API const char *npydt_unit_name(npydt_unit unit);

/* Names, titles and paths are byte strings with a length (UTF-8): NumPy
 * lets a name hold a NUL ('a\x00'). Every such string is also
 * NUL-terminated, so the plain accessors below give a C string view; it
 * is the whole string exactly when it holds no NUL, which the *_len
 * accessors and path_len fields tell (view length == strlen). Code that
 * must tell 'a' from 'a\x00' uses the lengths. */

/* Number of fields of a struct node (0 otherwise). */
NPYDT_API size_t npydt_dtype_nfields(const npydt_dtype *dt);
/* Name of field i: a NUL-terminated view (see above), NULL when i is out
 * of range. */
NPYDT_API const char *npydt_dtype_field_name(const npydt_dtype *dt, size_t i);
/* Length in bytes of field i's name, NULs inside included (0 out of range). */
NPYDT_API size_t npydt_dtype_field_name_len(const npydt_dtype *dt, size_t i);
/* Title of field i (a NUL-terminated view), or NULL when it has none. */
NPYDT_API const char *npydt_dtype_field_title(const npydt_dtype *dt, size_t i);
/* Length in bytes of field i's title (0 when it has none). */
NPYDT_API size_t npydt_dtype_field_title_len(const npydt_dtype *dt, size_t i);
/* Byte offset of field i within the struct. */
NPYDT_API size_t npydt_dtype_field_offset(const npydt_dtype *dt, size_t i);
/* Dtype of field i. */
NPYDT_API const npydt_dtype *npydt_dtype_field_dtype(const npydt_dtype *dt, size_t i);

/* Number of dimensions of a subarray node (0 otherwise). */
NPYDT_API size_t npydt_dtype_ndim(const npydt_dtype *dt);
/* Dimensions of a subarray node (NULL otherwise). */
NPYDT_API const uint64_t *npydt_dtype_shape(const npydt_dtype *dt);
/* Base dtype of a subarray node (NULL otherwise). */
NPYDT_API const npydt_dtype *npydt_dtype_base(const npydt_dtype *dt);

/* True when the dtype contains an object ('O') scalar anywhere. */
NPYDT_API int npydt_dtype_has_object(const npydt_dtype *dt);

/* Structural equality: same classes, kinds, sizes, byte orders, units,
 * names, titles, offsets and shapes. */
NPYDT_API int npydt_dtype_equal(const npydt_dtype *a, const npydt_dtype *b);

/* Write NumPy's dtype.str spelling of a scalar ("<f8", "|S5", "<M8[25s]",
 * "|O") into buf; struct and subarray nodes give "|V<itemsize>". Returns the
 * length it needs (excluding NUL), like snprintf. */
NPYDT_API size_t npydt_dtype_str(const npydt_dtype *dt, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Leaves: the flat table that record code walks without recursion.   */
/* ------------------------------------------------------------------ */

/* One level of repetition that encloses a leaf (a subarray on the way
 * from the root to the leaf). */
typedef struct npydt_repeat {
    uint64_t count;  /* elements at this level */
    uint64_t stride; /* bytes between them */
} npydt_repeat;

/* One scalar position in the record. A leaf inside subarrays stands for
 * every element of them: its bytes are at
 *   offset + sum(i_k * repeats[k].stride), 0 <= i_k < repeats[k].count
 * with repeats ordered outermost first. */
typedef struct npydt_leaf {
    const npydt_dtype *dtype;     /* the scalar node */
    uint64_t offset;              /* of the first element, from record start */
    uint64_t count;               /* product of all repeat counts (1 if none) */
    uint32_t itemsize;            /* of one element; NumPy bounds an itemsize by
                                   * a C int, so 32 bits hold it on every
                                   * platform and keep a large table small */
    char kind;                    /* as npydt_dtype_kind */
    char byteorder;               /* as npydt_dtype_byteorder */
    uint32_t nrepeats;            /* levels in repeats */
    const npydt_repeat *repeats;  /* outermost first; NULL when nrepeats 0 */
    size_t path_step;             /* where its path ends among the fields the
                                   * leaves share: read the path with
                                   * npydt_dtype_leaf_path */
} npydt_leaf;

/* The leaves of a dtype in record order (pre-order of the tree); padding
 * bytes belong to no leaf. Valid while the owning result lives. Only for a
 * root dtype (one returned by a parse call or npydt_header_dtype). The
 * table takes a fixed size per leaf and per field, whatever the length of
 * the names: paths are spelled only when asked for. */
NPYDT_API const npydt_leaf *npydt_dtype_leaves(const npydt_dtype *root, size_t *count);

/* The field path of leaf i of a root dtype: the names from the top joined
 * by '.' ("pos.x", "samples", "s.a": no indices; "" for a dtype that is no
 * struct), as npydt_field_lookup reads it, with no '.' after an empty
 * path. Written into buf like snprintf: at most size - 1 bytes and a NUL
 * when size > 0 (buf may be NULL when size is 0). Returns the path's
 * length in bytes, with any NUL inside a name: a return of size or more
 * means the path was cut. 0 (and "") when i is out of range. */
NPYDT_API size_t npydt_dtype_leaf_path(const npydt_dtype *root, size_t i, char *buf,
                                       size_t size);

/* ------------------------------------------------------------------ */
/* Parsing descriptors                                                 */
/* ------------------------------------------------------------------ */

/* Parse a descriptor as it appears as the value of 'descr' in a header:
 * a quoted type string ("'<f8'"), a list of fields, or a (type, shape)
 * tuple. text need not be NUL-terminated. On success *out is a root dtype
 * to release with npydt_dtype_free. Error offsets are into text. */
NPYDT_API npydt_status npydt_header_parse_descr(const char *text, size_t len,
                                                const npydt_options *opts,
                                                npydt_dtype **out, npydt_error *err);

/* Parse a bare NumPy type string as np.dtype() would: "<f8", "float64",
 * "d", "M8[ns]", "(2,3)f4", "i4, (2,3)f8, S5". */
NPYDT_API npydt_status npydt_dtype_parse_typestr(const char *text, size_t len,
                                                 const npydt_options *opts,
                                                 npydt_dtype **out, npydt_error *err);

/* Release a root dtype from npydt_header_parse_descr,
 * npydt_dtype_parse_typestr or npydt_dtype_newbyteorder; NULL is a no-op. */
NPYDT_API void npydt_dtype_free(npydt_dtype *root);

/* Print a dtype as the descriptor literal np.save writes ("'<f8'" or
 * "[('x', '<f8'), ...]"). Returns the length it needs, like snprintf. */
NPYDT_API size_t npydt_dtype_descr(const npydt_dtype *dt, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Headers and files                                                   */
/* ------------------------------------------------------------------ */

/* A parsed .npy header. Immutable; release with npydt_header_free. */
typedef struct npydt_header npydt_header;

/* Parse the preamble and header at the start of buf. buf must hold at least
 * the whole header; data bytes are not required (see
 * npydt_header_check_data). When it does not, NPYDT_E_TRUNCATED says in
 * its message how many bytes the header needs ("header length is 182
 * bytes but only 90 of them are present: the header needs 192 bytes from
 * the start, 100 given"); npydt_header_size answers that from the first
 * 12 bytes. */
NPYDT_API npydt_status npydt_header_parse(const void *buf, size_t len,
                                          const npydt_options *opts,
                                          npydt_header **out, npydt_error *err);

/* How many bytes the preamble and header of a .npy take (the data offset,
 * 10 or 12 + HEADER_LEN), from the first bytes of a file or upload: a
 * reader of a stream reads 12 bytes (every valid file has them), asks,
 * reads the rest of the header and parses it with npydt_header_parse,
 * before one byte of data arrives. opts gives max_header_bytes (NULL: the
 * defaults). Returns
 *   NPYDT_OK           *total is the data offset;
 *   NPYDT_E_TRUNCATED  prefix is too short to tell (fewer than 10 bytes, or
 *                      than 12 for version 2.0 and 3.0): *total is the
 *                      number of bytes to give to learn more (10 while the
 *                      version bytes 6 and 7 are missing, then 10 or 12);
 *   NPYDT_E_LIMIT      HEADER_LEN is above max_header_bytes: *total is still
 *                      the size the prefix declares;
 *   NPYDT_E_MAGIC      the bytes given do not start \x93NUMPY (checked as
 *                      far as they go: the first byte refuses "PK\3\4");
 *   NPYDT_E_VERSION    a version other than 1.0, 2.0, 3.0;
 * and *total is 0 on every other status. The header's own content is not
 * looked at. */
NPYDT_API npydt_status npydt_header_size(const void *prefix, size_t len,
                                         const npydt_options *opts, uint64_t *total,
                                         npydt_error *err);

/* Parse a whole file held in memory: header, then check that len covers
 * the data (count * itemsize bytes after the data offset). */
NPYDT_API npydt_status npydt_parse_buffer(const void *buf, size_t len,
                                          const npydt_options *opts,
                                          npydt_header **out, npydt_error *err);

/* Parse from an open file descriptor (positioned anywhere; reads from
 * offset 0 with pread), reading only the header, and check the file size. */
NPYDT_API npydt_status npydt_parse_fd(int fd, const npydt_options *opts,
                                      npydt_header **out, npydt_error *err);

/* Open and parse a path, as npydt_parse_fd. */
NPYDT_API npydt_status npydt_parse_path(const char *path, const npydt_options *opts,
                                        npydt_header **out, npydt_error *err);

/* Check that `available` data bytes (after the data offset) hold
 * count * itemsize bytes. More is allowed, as NumPy allows it. Object
 * dtypes always pass: their data is a pickle of any length. */
NPYDT_API npydt_status npydt_header_check_data(const npydt_header *h, uint64_t available,
                                               npydt_error *err);

/* Release a header; NULL is a no-op. */
NPYDT_API void npydt_header_free(npydt_header *h);

/* Format version major (1, 2 or 3). */
NPYDT_API int npydt_header_version_major(const npydt_header *h);
/* Format version minor (always 0). */
NPYDT_API int npydt_header_version_minor(const npydt_header *h);
/* HEADER_LEN as stored in the file. */
NPYDT_API uint32_t npydt_header_len(const npydt_header *h);
/* Offset of the first data byte (10 or 12 + HEADER_LEN). */
NPYDT_API uint64_t npydt_header_data_offset(const npydt_header *h);
/* True when the data is stored in Fortran (column-major) order. */
NPYDT_API int npydt_header_fortran_order(const npydt_header *h);
/* Number of dimensions of the array. */
NPYDT_API size_t npydt_header_ndim(const npydt_header *h);
/* Dimensions of the array (NULL when ndim is 0). */
NPYDT_API const uint64_t *npydt_header_shape(const npydt_header *h);
/* Number of elements (1 for shape ()). */
NPYDT_API uint64_t npydt_header_count(const npydt_header *h);
/* count * itemsize. */
NPYDT_API uint64_t npydt_header_data_bytes(const npydt_header *h);
/* The root dtype of the array (owned by the header). */
NPYDT_API const npydt_dtype *npydt_header_dtype(const npydt_header *h);

/* Write a complete header (magic, version, length, dict, padding) exactly
 * as np.save writes it for this dtype, shape and order, choosing the
 * version as NumPy does. Returns the bytes needed; writes at most size.
 * Returns 0, writes nothing and fills err on failure: NPYDT_E_LIMIT for a
 * HEADER_LEN above the default limits.max_header_bytes (16 MiB), which
 * no file written by npydt exceeds. */
NPYDT_API size_t npydt_header_write(const npydt_dtype *dt, const uint64_t *shape,
                                    size_t ndim, int fortran_order,
                                    void *buf, size_t size, npydt_error *err);

/* Print the dict of that header as np.save writes it, without the room
 * and padding after it: "{'descr': '<f8', 'fortran_order': False,
 * 'shape': (3,), }", names in UTF-8. Returns the length it needs, like
 * snprintf (0 when dt is NULL, or shape is NULL with ndim > 0). */
NPYDT_API size_t npydt_header_dict(const npydt_dtype *dt, const uint64_t *shape, size_t ndim,
                                   int fortran_order, char *buf, size_t size);

/* ------------------------------------------------------------------ */
/* Records: fields, typed readers, gather/scatter, byteswap           */
/* ------------------------------------------------------------------ */

/* Records live in the data of a file as count * itemsize contiguous bytes
 * (the element order is C or Fortran per the header); an npydt_reader
 * (below, "Data access") opens them. Every call below works from any
 * stored byte order. */

/* ---- Fields ---- */

/* Find a field by path: names or titles joined by '.', each optionally
 * followed by one index per dimension of a subarray ("pos.x", "samples[2]",
 * "grid[1][0]" or "grid[1,0]"; "" is dt itself). Gives the byte offset
 * from the start of dt and the field's dtype node. NPYDT_E_NOT_FOUND, with
 * err->path set to path, when it does not exist. */
NPYDT_API npydt_status npydt_field_lookup(const npydt_dtype *dt, const char *path,
                                          uint64_t *offset, const npydt_dtype **field,
                                          npydt_error *err);
/* The same for a path of len bytes, which may hold a NUL inside a name
 * ("nul\0.x" with len 6 finds field x of the field named 'nul\x00'). */
NPYDT_API npydt_status npydt_field_lookup_len(const npydt_dtype *dt, const char *path,
                                              size_t len, uint64_t *offset,
                                              const npydt_dtype **field, npydt_error *err);

/* ---- Typed readers: dt is a scalar node, p points at its bytes ---- */

/* Integer value of kinds b, i, u, M, m (raw count) and integral f;
 * NPYDT_E_RANGE when it does not fit. */
NPYDT_API npydt_status npydt_read_i64(const npydt_dtype *dt, const void *p, int64_t *out,
                                      npydt_error *err);
/* As npydt_read_i64 for uint64_t (negative values are out of range). */
NPYDT_API npydt_status npydt_read_u64(const npydt_dtype *dt, const void *p, uint64_t *out,
                                      npydt_error *err);
/* Nearest double of kinds f (2, 4, 8, 16 bytes), i, u and b; f16 is x87
 * 80-bit extended precision decoded from its bytes on every machine, never
 * the host's long double. */
NPYDT_API npydt_status npydt_read_double(const npydt_dtype *dt, const void *p, double *out,
                                         npydt_error *err);
/* Real and imaginary parts of kind c (8, 16, 32 bytes: c32 as two x87
 * numbers, as f16); f, i, u, b give imaginary part 0. */
NPYDT_API npydt_status npydt_read_complex(const npydt_dtype *dt, const void *p, double out[2],
                                          npydt_error *err);
/* Truth of kind b (any nonzero byte), or nonzero i, u, f. */
NPYDT_API npydt_status npydt_read_bool(const npydt_dtype *dt, const void *p, int *out,
                                       npydt_error *err);
/* Bytes of an S scalar without its trailing NULs, or all bytes of a V
 * scalar: *bytes points into p. */
NPYDT_API npydt_status npydt_read_bytes(const npydt_dtype *dt, const void *p,
                                        const void **bytes, size_t *len, npydt_error *err);
/* A U scalar as UTF-8, trailing NULs removed, NUL-terminated in buf. *len
 * is the length it needs (without the NUL); NPYDT_E_RANGE when size is not
 * above it. Lone surrogates are encoded as 3-byte sequences (WTF-8); code
 * units above U+10FFFF give NPYDT_E_ENCODING. */
NPYDT_API npydt_status npydt_read_unicode(const npydt_dtype *dt, const void *p, char *buf,
                                          size_t size, size_t *len, npydt_error *err);

/* The NaT count of datetime64 and timedelta64. */
#define NPYDT_NAT INT64_MIN

/* A datetime64 / timedelta64 value: count units of unit_count * unit. */
typedef struct npydt_datetime {
    int64_t count;       /* NPYDT_NAT for Not-a-Time */
    npydt_unit unit;     /* NPYDT_UNIT_GENERIC for a unitless M8 / m8 */
    int32_t unit_count;  /* the multiplier, 1 unless written as [25s] */
    int is_nat;          /* count == NPYDT_NAT */
} npydt_datetime;

/* Count and unit of kinds M and m. */
NPYDT_API npydt_status npydt_read_datetime(const npydt_dtype *dt, const void *p,
                                           npydt_datetime *out, npydt_error *err);
/* A datetime64 value as NumPy's str() writes it: ISO 8601 down to the
 * unit ("2020", "2020-06", "2020-06-01T07:30:00.250"), weeks as their
 * first day, multipliers applied ([25s]), "NaT" for NaT. As snprintf:
 * *len is the text's length (without the NUL); at most size bytes are
 * written, NUL-terminated and cut short when size is not above *len (then
 * NPYDT_E_RANGE); buf may be NULL when size is 0. NPYDT_E_UNIT for the
 * generic unit or a multiplier below 1; NPYDT_E_RANGE for a date beyond
 * int64 days or count * multiplier beyond int64. The longest text is
 * NPYDT_DATETIME_TEXT_MAX bytes. */
#define NPYDT_DATETIME_TEXT_MAX 47
NPYDT_API npydt_status npydt_datetime_text(const npydt_datetime *v, char *buf, size_t size,
                                           size_t *len, npydt_error *err);
/* A datetime64 value as Unix time: *seconds since 1970-01-01T00:00:00
 * (floored) and *nanoseconds in 0..999999999, as a struct timespec holds
 * it (-1 [ns] is -1 s + 999999999 ns); years and months are their first
 * day. NaT is NPYDT_E_VALUE; the generic unit or a multiplier below 1
 * NPYDT_E_UNIT; NPYDT_E_RANGE when the value is not a whole number of
 * nanoseconds (1 [ps]), its seconds are beyond int64, or count *
 * multiplier of a unit finer than [s] is beyond int64. */
NPYDT_API npydt_status npydt_datetime_to_unix(const npydt_datetime *v, int64_t *seconds,
                                              int32_t *nanoseconds, npydt_error *err);

/* ---- Typed writers: the inverse of the typed readers ---- */

/* Each stores one value into the scalar node dt at p, converted to dt's
 * own kind, size and byte order. A value the field cannot hold exactly is
 * refused with NPYDT_E_RANGE and p is left unchanged: 300 into u1, -1 into
 * any u, 2.5 into an integer, 16777217 into f4, 1e300 into f4 (a finite
 * double that would overflow to infinity; otherwise a double rounds to the
 * nearest f4 / f2 as NumPy's cast does), a string longer than S5 or U5. A
 * value of the wrong sort (text into f8, a number into S, a float into M8)
 * is NPYDT_E_VALUE; a struct or subarray node or a NULL pointer is
 * NPYDT_E_ARG, an object field NPYDT_E_OBJECT. err->message gives the
 * value and the type ("300 does not fit u1 (0 to 255)"); err->path is
 * left "" (the npydt_writer_set_* calls fill it). */

/* Kinds b (0 or 1 only), i, u, f and c (exactly representable; else the
 * message names the nearest value), M and m (a raw count in the field's
 * own unit; INT64_MIN is NaT). */
NPYDT_API npydt_status npydt_write_i64(const npydt_dtype *dt, void *p, int64_t v,
                                       npydt_error *err);
/* As npydt_write_i64 for an unsigned value. */
NPYDT_API npydt_status npydt_write_u64(const npydt_dtype *dt, void *p, uint64_t v,
                                       npydt_error *err);
/* Kinds f (rounded to nearest; NaN and infinities kept), c (imaginary part
 * 0), and i, u, b when v is integral and in range. */
NPYDT_API npydt_status npydt_write_double(const npydt_dtype *dt, void *p, double v,
                                          npydt_error *err);
/* Kind c from v[0] + v[1]i, each part as npydt_write_double rounds it;
 * kinds f, i, u, b as npydt_write_double(v[0]) when v[1] is 0 (another
 * imaginary part, NaN included, is NPYDT_E_RANGE). */
NPYDT_API npydt_status npydt_write_complex(const npydt_dtype *dt, void *p, const double v[2],
                                           npydt_error *err);
/* Kind b (stored as 0 or 1: any nonzero v is true), or 0 / 1 into i, u,
 * f, c. */
NPYDT_API npydt_status npydt_write_bool(const npydt_dtype *dt, void *p, int v,
                                        npydt_error *err);
/* Kind S: len bytes, NUL-padded to the field's size (len above it is
 * NPYDT_E_RANGE); kind V: exactly itemsize bytes (another len is
 * NPYDT_E_RANGE). */
NPYDT_API npydt_status npydt_write_bytes(const npydt_dtype *dt, void *p, const void *bytes,
                                         size_t len, npydt_error *err);
/* Kind U from len bytes of UTF-8 (NPYDT_E_ENCODING when invalid; lone
 * surrogates written as 3-byte sequences, as npydt_read_unicode gives
 * them, are accepted and stored as they are), NUL-padded; more code points
 * than the field holds is NPYDT_E_RANGE (NULs in the text count). */
NPYDT_API npydt_status npydt_write_unicode(const npydt_dtype *dt, void *p, const char *utf8,
                                           size_t len, npydt_error *err);
/* Kinds M and m: v (NaT when is_nat is set or count is NPYDT_NAT)
 * converted exactly to the field's unit and multiplier. A unit that would
 * drop part of v ([1500ms] into [s]), or a count beyond int64, is
 * NPYDT_E_RANGE; NaT stays NaT. Years and months follow NumPy: in an M
 * field a month is its first day on the Gregorian calendar (1 [Y] is
 * 365 [D]; only days that start a month go into [M], January 1sts into
 * [Y]); in an m field it is NumPy's average month, 30.436875 days (1 [M]
 * is 2629746 [s]; 1 [Y] into [D] is refused, 400 [Y] is 146097 [D]). A
 * generic-unit value into a field with a unit, or the reverse, is
 * NPYDT_E_VALUE (generic into generic keeps the count), and so is a
 * multiplier of 0 (NumPy's m8[0s], which it cannot cast) on one side only:
 * a value in the field's own unit and multiplier is stored as it is. v
 * has no kind of its own: it is taken as the field's, datetime or
 * timedelta. */
NPYDT_API npydt_status npydt_write_datetime(const npydt_dtype *dt, void *p,
                                            const npydt_datetime *v, npydt_error *err);

/* ---- Gather and scatter one field of many records ---- */

/* What a gathered element becomes. */
typedef enum npydt_convert {
    NPYDT_AS_NATIVE = 0, /* the field's own type in native byte order */
    NPYDT_AS_DOUBLE = 1, /* double per scalar (two for complex) */
    NPYDT_AS_INT64 = 2   /* int64_t per scalar (range-checked) */
} npydt_convert;

/* Bytes one record's field occupies in a gathered array; a subarray field
 * gives all its elements. 0 when the conversion does not apply (or the
 * field is empty). */
NPYDT_API size_t npydt_gather_size(const npydt_dtype *field, npydt_convert as);
/* Copy the field (dtype `field` at byte `offset` in each record) of n
 * records stride bytes apart into out, npydt_gather_size bytes per record
 * (the field must end within the stride). NPYDT_AS_DOUBLE / INT64 need a
 * field whose scalars share one kind; out is undefined after an error. */
NPYDT_API npydt_status npydt_gather(const void *records, size_t stride, uint64_t n,
                                    const npydt_dtype *field, uint64_t offset,
                                    npydt_convert as, void *out, npydt_error *err);
/* The inverse: store in (as npydt_gather writes it) into the field of n
 * records in their stored byte order. With a conversion every value is
 * checked before any record is written (NPYDT_E_RANGE). */
NPYDT_API npydt_status npydt_scatter(void *records, size_t stride, uint64_t n,
                                     const npydt_dtype *field, uint64_t offset,
                                     npydt_convert as, const void *in, npydt_error *err);

/* ---- Byte order ---- */

/* Target byte order of a swap. */
typedef enum npydt_order {
    NPYDT_ORDER_NATIVE = '=',
    NPYDT_ORDER_LITTLE = '<',
    NPYDT_ORDER_BIG = '>',
    NPYDT_ORDER_SWAP = 's'   /* swap every multi-byte scalar, as ndarray.byteswap() */
} npydt_order;

/* A compiled byteswap of one record type. Immutable: may be shared. */
typedef struct npydt_swap_plan npydt_swap_plan;

/* Compile the swaps of dt (any node) for every target order. */
NPYDT_API npydt_status npydt_swap_plan_new(const npydt_dtype *dt, const npydt_options *opts,
                                           npydt_swap_plan **out, npydt_error *err);
/* Release a plan; NULL is a no-op. */
NPYDT_API void npydt_swap_plan_free(npydt_swap_plan *plan);
/* Bytes per record the swap to `to` moves (0: the data is already there). */
NPYDT_API uint64_t npydt_swap_plan_bytes(const npydt_swap_plan *plan, npydt_order to);
/* Convert n contiguous records from in to out (in == out: in place; other
 * overlap is refused) so that each scalar is in order `to`. S, V, b1, i1,
 * u1 and padding bytes keep their values. Complex numbers swap each half,
 * U each 4-byte code unit, long doubles all 16 bytes as NumPy does. Whole
 * records are written: do not share one record between threads. */
NPYDT_API npydt_status npydt_swap(const npydt_swap_plan *plan, npydt_order to, const void *in,
                                  void *out, uint64_t n, npydt_error *err);
/* A new root dtype like dt whose multi-byte scalars are all in order `to`
 * (NPYDT_ORDER_SWAP flips each), as dtype.newbyteorder. Free with
 * npydt_dtype_free. */
NPYDT_API npydt_status npydt_dtype_newbyteorder(const npydt_dtype *dt, npydt_order to,
                                                const npydt_options *opts, npydt_dtype **out,
                                                npydt_error *err);

/* ------------------------------------------------------------------ */
/* .npz archives: members of a zip, read without trusting the zip      */
/* ------------------------------------------------------------------ */

/* An .npz file is a zip archive of .npy members. Opening one checks the
 * whole container before anything is trusted: end records (Zip64
 * included), every central directory entry against its local header,
 * ranges, overlaps, duplicate names, methods and the declared sizes
 * (zip-bomb caps). Nothing is inflated until a member is read, and then
 * never more than its declared size. Every refusal is NPYDT_E_ARCHIVE with
 * a message naming the member and what is wrong; a message about one
 * member read (NPYDT_E_ARCHIVE, NPYDT_E_DATA) starts "member 'NAME': ",
 * NAME with control bytes, quotes and backslashes escaped as \xNN. */

/* An open archive. Immutable once opened: may be shared between threads
 * (streams belong to one thread each). Release with npydt_npz_close. */
typedef struct npydt_npz npydt_npz;

/* Compression method of a member (the zip method numbers). */
typedef enum npydt_npz_method {
    NPYDT_NPZ_STORED = 0,   /* bytes as they are: readable in place */
    NPYDT_NPZ_DEFLATED = 8  /* raw deflate: read through a stream */
} npydt_npz_method;

/* One member as the central directory declares it (checked against its
 * local header). Plain data owned by the archive. */
typedef struct npydt_npz_member {
    const char *name;             /* UTF-8 ("a.npy"), decoded as NumPy does (CP437
                                   * unless flagged UTF-8); no NUL, no ".." component */
    npydt_npz_method method;
    uint16_t flags;               /* zip general purpose bits of the central entry */
    uint32_t crc32;               /* declared CRC-32 of the uncompressed bytes */
    uint64_t compressed_size;     /* bytes the member occupies in the archive */
    uint64_t uncompressed_size;   /* declared size of the .npy bytes */
    uint64_t local_header_offset; /* of the member's local header in the archive */
    uint64_t data_offset;         /* of its first (compressed) byte in the archive */
} npydt_npz_member;

/* Bounds for archives. Initialise with npydt_npz_options_init; every
 * default is documented in README.md ("Limits"). */
typedef struct npydt_npz_options {
    npydt_options base;          /* header limits of members, and the allocator */
    size_t max_members;          /* central directory entries (0: 1,000,000) */
    uint64_t max_inflated_bytes; /* sum of the declared sizes of deflated
                                  * members (0: 16 GiB); larger archives are refused */
    uint32_t max_ratio;          /* declared size / compressed size of a deflated
                                  * member (0: 1032, the most deflate can reach) */
    size_t buffer_size;          /* inflate buffer of npydt_npz_stream_next (0: 64 KiB) */
    int no_mmap;                 /* nonzero: read a path into memory, never map it */
    uint64_t reserved[4];        /* room for new options: zero (see npydt_options) */
} npydt_npz_options;

/* Fill *opts with the documented defaults and zero reserved room. */
NPYDT_API void npydt_npz_options_init(npydt_npz_options *opts);
/* The preset for archives from outside: npydt_options_init_untrusted's
 * base (its max_alloc_bytes, 4 MiB, holds for each member's header
 * parse), at most 10,000 members and 1 GiB declared inflated (a limit of
 * its own, on what the members declare, not on memory held). */
NPYDT_API void npydt_npz_options_init_untrusted(npydt_npz_options *opts);

/* True when buf starts like a zip archive ("PK\3\4", or "PK\5\6" /
 * "PK\6\6" for an empty one), as np.load decides. */
NPYDT_API int npydt_npz_is_archive(const void *buf, size_t len);

/* Open and check an archive held in memory (not copied; buf must outlive
 * the handle). opts may be NULL for the defaults. */
NPYDT_API npydt_status npydt_npz_open_buffer(const void *buf, size_t len,
                                             const npydt_npz_options *opts, npydt_npz **out,
                                             npydt_error *err);
/* Open a regular file by descriptor (not closed, not moved): map it
 * read-only, or read it into memory where mapping fails or no_mmap is set. */
NPYDT_API npydt_status npydt_npz_open_fd(int fd, const npydt_npz_options *opts,
                                         npydt_npz **out, npydt_error *err);
/* Open a path, as npydt_npz_open_fd. */
NPYDT_API npydt_status npydt_npz_open_path(const char *path, const npydt_npz_options *opts,
                                           npydt_npz **out, npydt_error *err);
/* Unmap or free the archive; NULL is a no-op. Streams must be closed first. */
NPYDT_API void npydt_npz_close(npydt_npz *z);

/* Number of members, in central directory order. */
NPYDT_API size_t npydt_npz_count(const npydt_npz *z);
/* Member i (NULL when i is out of range); valid while z is open. */
NPYDT_API const npydt_npz_member *npydt_npz_member_at(const npydt_npz *z, size_t i);
/* Index of the member called name, else of name + ".npy" (as np.load's
 * keys); NPYDT_E_NOT_FOUND when neither exists. */
NPYDT_API npydt_status npydt_npz_find(const npydt_npz *z, const char *name, size_t *index,
                                      npydt_error *err);

/* Parse member i's .npy header, reading (inflating) only the header bytes,
 * then check that the declared size holds the data: NPYDT_E_DATA when
 * uncompressed_size < data offset + count * itemsize. Header errors are
 * those of npydt_header_parse. */
NPYDT_API npydt_status npydt_npz_member_header(const npydt_npz *z, size_t i,
                                               npydt_header **out, npydt_error *err);
/* The bytes of a stored member in place (zero-copy, valid while z is open;
 * the CRC is not checked: see npydt_npz_member_verify). NPYDT_E_ARG for a
 * deflated member. */
NPYDT_API npydt_status npydt_npz_member_data(const npydt_npz *z, size_t i, const void **data,
                                             uint64_t *len, npydt_error *err);
/* Read all of member i through a bounded buffer and check its size, the
 * end of its deflate stream and its CRC-32. */
NPYDT_API npydt_status npydt_npz_member_verify(const npydt_npz *z, size_t i,
                                               npydt_error *err);

/* What a verification found: the bytes of an array's .npy file (or
 * archive member) against those its header promises. */
typedef struct npydt_verify_report {
    uint64_t size;        /* bytes of the file, or of the member uncompressed, header included */
    uint64_t expected;    /* data offset + count * itemsize: what the header promises
                           * (size for an object array, whose pickle has any length) */
    uint64_t trailing;    /* size - expected: bytes after the data, which NumPy ignores */
    int crc32_checked;    /* nonzero: every byte was read and matched the member's CRC-32 */
    uint32_t crc32;       /* that CRC-32; 0 for a .npy file, which has none */
} npydt_verify_report;

/* Verify member i of an archive as np.load reads it: its header, its
 * declared size against the header's promise (NPYDT_E_DATA when short),
 * then, with read_data, every byte through its deflate stream and CRC-32
 * (npydt_npz_member_verify: NPYDT_E_ARCHIVE naming the member); without,
 * nothing past the header is read and out->crc32_checked is 0. *out is
 * filled on success only. header, when not NULL, receives the parsed
 * header on success (release it with npydt_header_free), else NULL. */
NPYDT_API npydt_status npydt_npz_member_verify_report(const npydt_npz *z, size_t i,
                                                      int read_data, npydt_header **header,
                                                      npydt_verify_report *out,
                                                      npydt_error *err);
/* Verify a .npy file: its header and its size against the header's
 * promise (NPYDT_E_DATA when short; more is reported in out->trailing).
 * A .npy file has no checksum: its data bytes are counted, not read.
 * header as for npydt_npz_member_verify_report. */
NPYDT_API npydt_status npydt_verify_path(const char *path, const npydt_options *opts,
                                         npydt_header **header, npydt_verify_report *out,
                                         npydt_error *err);
/* The same for a .npy file open on fd (a regular file; read with pread
 * from offset 0, not closed, not moved): one fstat, and one pread for a
 * header under 4 KiB. */
NPYDT_API npydt_status npydt_verify_fd(int fd, const npydt_options *opts,
                                       npydt_header **header, npydt_verify_report *out,
                                       npydt_error *err);
/* The bytes npydt_verify_fd reads from the start of a file at once: the
 * preamble and, in the usual case, the whole header. */
#define NPYDT_VERIFY_HEAD_BYTES 4096u
/* The same for a caller that has taken the size of the regular file open
 * on fd (size, from its fstat) and read its first head_len bytes into head
 * (pread at offset 0): with head_len at least min(size,
 * NPYDT_VERIFY_HEAD_BYTES), no system call for a header within them; with
 * fewer, the read npydt_verify_fd makes. fd is not closed, not moved. */
NPYDT_API npydt_status npydt_verify_head(int fd, uint64_t size, const void *head,
                                         size_t head_len, const npydt_options *opts,
                                         npydt_header **header, npydt_verify_report *out,
                                         npydt_error *err);
/* The same for a whole .npy file held in memory. */
NPYDT_API npydt_status npydt_verify_buffer(const void *buf, size_t len,
                                           const npydt_options *opts, npydt_header **header,
                                           npydt_verify_report *out, npydt_error *err);

/* The same for a .npy file arriving on fd, a descriptor that cannot seek,
 * whose first head_len bytes (the whole header at least) the caller has
 * read into head: the rest is read to its end with read(2) through a
 * bounded buffer and counted, never stored (NPYDT_E_DATA when short, as
 * for a file). */
NPYDT_API npydt_status npydt_verify_pipe(int fd, const void *head, size_t head_len,
                                         const npydt_options *opts, npydt_header **header,
                                         npydt_verify_report *out, npydt_error *err);

/* A sequential reader of one member's uncompressed bytes (header
 * included). One thread at a time; close it before the archive. */
typedef struct npydt_npz_stream npydt_npz_stream;

/* Start reading member i from its first byte. */
NPYDT_API npydt_status npydt_npz_stream_open(const npydt_npz *z, size_t i,
                                             npydt_npz_stream **out, npydt_error *err);
/* Copy the next min(size, bytes left) bytes into buf (deflate inflates
 * straight into it). The call that reaches the declared size also checks
 * that the deflate stream ends there and the CRC-32; *got == 0 with
 * size > 0 means the end, all checked. On error *got is 0, buf holds
 * nothing usable and every later call fails the same way. */
NPYDT_API npydt_status npydt_npz_stream_read(npydt_npz_stream *s, void *buf, size_t size,
                                             size_t *got, npydt_error *err);
/* The next chunk without a copy: into the archive for stored members
 * (the whole rest at once, CRC checked before it is returned), else into
 * the stream's buffer (at most buffer_size bytes, valid until the next
 * call). *len == 0 means the end, all checked. */
NPYDT_API npydt_status npydt_npz_stream_next(npydt_npz_stream *s, const void **chunk,
                                             size_t *len, npydt_error *err);
/* Bytes delivered so far. */
NPYDT_API uint64_t npydt_npz_stream_position(const npydt_npz_stream *s);
/* Release a stream; NULL is a no-op. */
NPYDT_API void npydt_npz_stream_close(npydt_npz_stream *s);

/* ---- Writing archives ---- */

/* Archives are written as np.savez writes them (Python's zipfile): members
 * dated 1980-01-01, a Zip64 extra field in every local header, Zip64
 * central fields and end records only where a value passes 2**31 - 1 (or
 * 65535 members), names flagged UTF-8 when not ASCII, deflate at zlib's
 * default level. Memory is bounded: one output buffer and the central
 * directory (about 40 bytes + the name per member); data is never held. */

/* Where a writer puts the archive. write appends len bytes; pwrite, when
 * not NULL, overwrites len bytes at offset (counted from the archive's
 * first byte) among those already written: each member's local header is
 * then rewritten with its CRC-32 and sizes, as np.savez does on a file.
 * Without pwrite they follow each member in a data descriptor (flag bit 3),
 * as np.savez does on a pipe. Each returns 0 on success. */
typedef struct npydt_npz_sink {
    int (*write)(void *ctx, const void *buf, size_t len);
    int (*pwrite)(void *ctx, const void *buf, size_t len, uint64_t offset);
    void *ctx;
} npydt_npz_sink;

/* An archive being written. One thread at a time. An error other than
 * NPYDT_E_ARG (a refused name, a call out of order) is sticky: every later
 * call returns it, and what the sink holds is not an archive. */
typedef struct npydt_npz_writer npydt_npz_writer;

/* Start an archive (nothing is written yet). opts may be NULL; it gives the
 * allocator, max_members (more are refused with NPYDT_E_LIMIT) and
 * buffer_size (the deflate output buffer). *sink is copied. */
NPYDT_API npydt_status npydt_npz_writer_new(const npydt_npz_sink *sink,
                                            const npydt_npz_options *opts,
                                            npydt_npz_writer **out, npydt_error *err);
/* Start an archive written to path through the durable output (see
 * npydt_output_open): a temporary file beside path, put in place by
 * npydt_npz_writer_finish (which then also fsyncs and renames, and fails
 * when they do); freeing the writer unfinished, or after any failure,
 * removes it and leaves path as it was. opts as for npydt_npz_writer_new
 * (its base gives the allocator); NULL for the defaults. */
NPYDT_API npydt_status npydt_npz_writer_create_path(const char *path,
                                                    const npydt_npz_options *opts,
                                                    npydt_npz_writer **out, npydt_error *err);
/* Begin a member: its name (UTF-8, non-empty, at most 65535 bytes, unique
 * in the archive; no '..' component, no leading '/' or '\\', no drive
 * "X:", no trailing '/' or '\\', no control character: NPYDT_E_ARG
 * otherwise, naming the member) and method. The reader opens archives with
 * such names (but not '..'). The previous member must have been ended. */
NPYDT_API npydt_status npydt_npz_writer_begin(npydt_npz_writer *w, const char *name,
                                              npydt_npz_method method, npydt_error *err);
/* Append len bytes to the current member (deflated through the buffer). */
NPYDT_API npydt_status npydt_npz_writer_write(npydt_npz_writer *w, const void *buf,
                                              size_t len, npydt_error *err);
/* End the current member: its CRC-32 and sizes go to its local header (or
 * a data descriptor) and, later, to the central directory. */
NPYDT_API npydt_status npydt_npz_writer_end(npydt_npz_writer *w, npydt_error *err);
/* Write the central directory and the end records; the archive is then
 * complete and the writer accepts nothing more. Returns the archive's size
 * in *size when size is not NULL. */
NPYDT_API npydt_status npydt_npz_writer_finish(npydt_npz_writer *w, uint64_t *size,
                                               npydt_error *err);
/* Release a writer, finished or not; NULL is a no-op. */
NPYDT_API void npydt_npz_writer_free(npydt_npz_writer *w);

/* ------------------------------------------------------------------ */
/* Data access: one array's data from a path, a descriptor, a buffer   */
/* or an archive member                                                */
/* ------------------------------------------------------------------ */

/* A reader is the one handle on the data bytes of one array (count *
 * itemsize after the header), opened from a path, a descriptor, a buffer
 * or an archive member (npydt_reader_open_*). It gives them whole and in
 * place where they are (a mapped file, a buffer, a stored member), else in
 * bounded chunks (a file that cannot be mapped is read with pread, a
 * deflated member is inflated), in the stored order or in C order (a
 * Fortran-order array is gathered). Memory is bounded by the options
 * below whatever the array's size, unless in_memory asks for the bytes
 * always in place (read or inflated into one copy where they cannot be
 * mapped); with writable, stores to them reach the file. Dtypes containing an object
 * ('O') field are refused (NPYDT_E_OBJECT): their data is a pickle; their
 * headers stay readable (npydt_parse_*). One thread at a time. */
typedef struct npydt_reader npydt_reader;

/* Bounds of a reader. Initialise with npydt_reader_options_init; it grows
 * as npydt_options does (reserved room, refused when not zero). */
typedef struct npydt_reader_options {
    npydt_options base;    /* header limits and the allocator */
    size_t chunk_bytes;    /* buffer of a chunk or a batch of elements (0: 1 MiB);
                            * raised to one element where that is larger */
    size_t window_bytes;   /* C-order elements gathered by one pass over a
                            * Fortran-order array read in sequence (0: 64 MiB) */
    int no_mmap;           /* nonzero: never map a file, read it in chunks
                            * (or into one copy, with in_memory) */
    int in_memory;         /* nonzero: all the data bytes in place at once
                            * (npydt_reader_bytes is never NULL): a file
                            * mapped, else read into one copy; a deflated
                            * member inflated into one copy when opened */
    int writable;          /* nonzero: map a file read-write and shared:
                            * npydt_reader_bytes_mut, stores reach the file
                            * (npydt_reader_sync); a path is opened read-write.
                            * NPYDT_E_ARG with no_mmap, for a buffer or a
                            * member; NPYDT_E_IO where the file cannot be
                            * mapped so */
    uint64_t reserved[4];  /* room for new options: zero (see npydt_options) */
} npydt_reader_options;

/* Fill *opts with the documented defaults. */
NPYDT_API void npydt_reader_options_init(npydt_reader_options *opts);

/* Open the data of the .npy file at path: the header is parsed, then the
 * data mapped, else read in chunks (into one copy with in_memory). opts
 * may be NULL for the defaults. NPYDT_E_OBJECT for object dtypes (their data is a pickle).
 * Release with npydt_reader_close. */
NPYDT_API npydt_status npydt_reader_open_path(const char *path,
                                              const npydt_reader_options *opts,
                                              npydt_reader **out, npydt_error *err);
/* As npydt_reader_open_path on an open descriptor of a regular file (not
 * closed, not moved). A reader that reads it with pread (not mapped, not
 * in_memory) needs it open while the reader lives. */
NPYDT_API npydt_status npydt_reader_open_fd(int fd, const npydt_reader_options *opts,
                                            npydt_reader **out, npydt_error *err);
/* A whole .npy file held in memory (not copied; buf must outlive the
 * reader). */
NPYDT_API npydt_status npydt_reader_open_buffer(const void *buf, size_t len,
                                                const npydt_reader_options *opts,
                                                npydt_reader **out, npydt_error *err);
/* The .npy file arriving on fd, a descriptor that cannot seek (a pipe,
 * a socket, standard input), read once front to back with read(2) and
 * never stored whole: head holds its first head_len bytes, already read
 * by the caller, at least the whole header (npydt_header_size says how
 * many bytes that is; NPYDT_E_TRUNCATED otherwise); bytes after the
 * header in head are the first data bytes. Neither head nor fd is copied
 * or closed: both must outlive the reader. Data that ends early is
 * NPYDT_E_DATA, as for a short file; bytes after the data are not read.
 * Going back (npydt_reader_rewind after a read, npydt_reader_next_c on a
 * Fortran-order array with more than one dimension above 1) is
 * NPYDT_E_ARG: read such an input into memory (npydt_reader_open_buffer),
 * or ask in_memory, which reads the data into one copy when opened. */
NPYDT_API npydt_status npydt_reader_open_pipe(int fd, const void *head, size_t head_len,
                                              const npydt_reader_options *opts,
                                              npydt_reader **out, npydt_error *err);
/* Member i of an archive: in place when stored, else inflated through a
 * stream, or whole when opened with in_memory (z must outlive the reader). The bytes of a stored member are not
 * CRC-checked (see npydt_npz_member_verify); a deflated member's are when
 * its last byte is read. */
NPYDT_API npydt_status npydt_reader_open_member(const npydt_npz *z, size_t i,
                                                const npydt_reader_options *opts,
                                                npydt_reader **out, npydt_error *err);
/* The header parsed when the reader was opened (owned by the reader). */
NPYDT_API const npydt_header *npydt_reader_header(const npydt_reader *r);
/* All the data bytes, contiguous and in place (valid while the reader
 * lives), or NULL when they are only read in chunks (never with
 * in_memory). Not NULL for an array without data bytes. */
NPYDT_API const void *npydt_reader_bytes(const npydt_reader *r);
/* The same bytes, writable, of a reader opened writable; else NULL. */
NPYDT_API void *npydt_reader_bytes_mut(npydt_reader *r);
/* True when the data bytes are a mapping of the file (not a copy, a
 * buffer, a member or chunks). */
NPYDT_API int npydt_reader_is_mapped(const npydt_reader *r);
/* Flush stores to a writable mapping to the file (msync); nothing to do
 * for any other reader. */
NPYDT_API npydt_status npydt_reader_sync(npydt_reader *r, npydt_error *err);

/* The next data bytes in stored order: whole elements, at most
 * chunk_bytes of them (at least one element), valid until the next call
 * on r; or all the rest at once where the bytes are in place. *len == 0
 * at the end. NPYDT_E_DATA when a member's data ends early; NPYDT_E_IO
 * "the file shrank while it was read" when a file read with pread does. */
NPYDT_API npydt_status npydt_reader_next_chunk(npydt_reader *r, const void **chunk,
                                               size_t *len, npydt_error *err);
/* The next elements in C (row-major) order, contiguous at *batch, valid
 * until the next call on r: *n of them, 0 at the end, never more than max.
 * In place for C-order data that is; else at most chunk_bytes of them (at
 * least one), gathered from a Fortran-order array. A Fortran-order array
 * of a file (mapped or not) or of memory is read by bands of rows into a
 * buffer of at most 8 MiB (window_bytes when smaller), with pread where
 * it is a file: a mapping of it is never touched, so resident memory stays
 * bounded. One read in sequence (a deflated member) is read from its
 * start once per window (window_bytes) of C-order elements. Elements of
 * itemsize 0 come all at once. */
NPYDT_API npydt_status npydt_reader_next_c(npydt_reader *r, uint64_t max,
                                           const void **batch, uint64_t *n,
                                           npydt_error *err);
/* npydt_reader_next_c goes on from the element at C-order position index
 * (at most the count, which is the end): a range of elements. NPYDT_E_ARG
 * beyond the count, and behind what a pipe gave. */
NPYDT_API npydt_status npydt_reader_seek_c(npydt_reader *r, uint64_t index,
                                           npydt_error *err);
/* Back to the first data byte for both npydt_reader_next_chunk and
 * npydt_reader_next_c (a member is inflated again from its start). */
NPYDT_API npydt_status npydt_reader_rewind(npydt_reader *r, npydt_error *err);
/* Unmap, free and release the reader; NULL is a no-op. */
NPYDT_API void npydt_reader_close(npydt_reader *r);

/* ---- The short path: a field of one element, a column, by path ---- */

/* The scalar field at path (as npydt_field_lookup reads it: "pos.x",
 * "samples[2]", a title; "" for an array of scalars) of element i, i
 * being the element's position in C (row-major) order whatever the
 * file's order, read as by the typed reader of the same name
 * (npydt_read_i64 ...). An element out of bounds is NPYDT_E_ARG; a struct
 * or subarray node NPYDT_E_VALUE (name one of its scalars); an error names
 * the path. Data in place (mapped, a buffer, a stored member, in_memory)
 * is read where it is; data read in chunks is read a field at a time:
 * with pread from a file (the position of npydt_reader_next_chunk is
 * kept), from the stream of a deflated member by inflating up to the
 * field (from the member's start when it is behind: open it with
 * in_memory for random access), which moves npydt_reader_next_chunk's
 * position there and ends the validity of its last chunk. */
NPYDT_API npydt_status npydt_reader_get_i64(npydt_reader *r, const char *path, uint64_t i,
                                            int64_t *v, npydt_error *err);
NPYDT_API npydt_status npydt_reader_get_u64(npydt_reader *r, const char *path, uint64_t i,
                                            uint64_t *v, npydt_error *err);
NPYDT_API npydt_status npydt_reader_get_double(npydt_reader *r, const char *path, uint64_t i,
                                               double *v, npydt_error *err);
NPYDT_API npydt_status npydt_reader_get_complex(npydt_reader *r, const char *path, uint64_t i,
                                                double v[2], npydt_error *err);
NPYDT_API npydt_status npydt_reader_get_bool(npydt_reader *r, const char *path, uint64_t i,
                                             int *v, npydt_error *err);
/* The bytes npydt_read_bytes gives, copied into buf: *len of them;
 * NPYDT_E_RANGE (and nothing copied) when size is below *len. */
NPYDT_API npydt_status npydt_reader_get_bytes(npydt_reader *r, const char *path, uint64_t i,
                                              void *buf, size_t size, size_t *len,
                                              npydt_error *err);
/* As npydt_read_unicode: UTF-8, NUL-terminated in buf, *len the length
 * it needs. */
NPYDT_API npydt_status npydt_reader_get_unicode(npydt_reader *r, const char *path, uint64_t i,
                                                char *buf, size_t size, size_t *len,
                                                npydt_error *err);
NPYDT_API npydt_status npydt_reader_get_datetime(npydt_reader *r, const char *path, uint64_t i,
                                                 npydt_datetime *v, npydt_error *err);
/* The field at path (any field: a struct or subarray too with
 * NPYDT_AS_NATIVE) of every element into out, as npydt_gather writes it
 * (npydt_gather_size bytes an element), in C order whatever the file's
 * order: count * npydt_gather_size bytes, cap being the bytes out holds
 * (NPYDT_E_RANGE, nothing written, when they do not fit). Reads the data
 * from its start; the position of npydt_reader_next_c is kept, that of
 * npydt_reader_next_chunk moves where the data is read in chunks. out is
 * undefined after an error. */
NPYDT_API npydt_status npydt_reader_gather(npydt_reader *r, const char *path, npydt_convert as,
                                           void *out, size_t cap, npydt_error *err);

/* Byte offset from the first data byte of the element at index[0..nindex)
 * of the logical array (nindex == ndim), honouring fortran_order.
 * NPYDT_E_ARG for a wrong number of indices or an index out of bounds. */
NPYDT_API npydt_status npydt_element_offset(const npydt_header *h, const uint64_t *index,
                                            size_t nindex, uint64_t *offset, npydt_error *err);
/* Same for position i of the C-order (row-major) flattening of the array. */
NPYDT_API npydt_status npydt_element_offset_flat(const npydt_header *h, uint64_t i,
                                                 uint64_t *offset, npydt_error *err);

/* ------------------------------------------------------------------ */
/* Statistics of values: one streaming pass, memory bound by the dtype */
/* ------------------------------------------------------------------ */

/* An accumulator of the statistics of every leaf of a dtype (or of the
 * leaves some field paths select): fed records from any source
 * (npydt_stats_add, or npydt_stats_add_reader for a reader's elements in
 * C order), read at any time (npydt_stats_get). Its memory depends on
 * the dtype alone (a column per leaf, 4 KiB more for a string's sketch),
 * never on the data. One thread at a time: threads use one each. */
typedef struct npydt_stats npydt_stats;

/* Options of an accumulator. Initialise with npydt_stats_options_init (or
 * zeros); it grows as npydt_options does (reserved room, refused when not
 * zero). */
typedef struct npydt_stats_options {
    const char *const *fields; /* nfields field paths ("pos", "pos.x": names
                                * joined by '.', no indices), each selecting
                                * the leaves at or below it; NULL: every leaf */
    size_t nfields;
    int per_element;           /* nonzero: each element of a subarray is a
                                * column of its own; 0: its elements pooled */
    size_t max_bytes;          /* the accumulator's memory at most (0: 256 MiB);
                                * NPYDT_E_LIMIT when the dtype needs more */
    const npydt_allocator *allocator; /* NULL: libc */
    uint64_t reserved[4];      /* room for new options: zero */
} npydt_stats_options;

/* Fill *opts with the defaults. */
NPYDT_API void npydt_stats_options_init(npydt_stats_options *opts);

/* An accumulator for records of the root dtype dt (a parse result's or
 * npydt_header_dtype), which must outlive it. NPYDT_E_NOT_FOUND (err->path
 * the path) for a field path that names no field; NPYDT_E_OBJECT for an
 * object leaf; NPYDT_E_LIMIT beyond max_bytes. Free with npydt_stats_free. */
NPYDT_API npydt_status npydt_stats_new(const npydt_dtype *dt, const npydt_stats_options *opts,
                                       npydt_stats **out, npydt_error *err);
/* Add n whole records of the accumulator's dtype, contiguous at records
 * (itemsize bytes each, in the order they are to be seen: sortedness
 * follows it). */
NPYDT_API npydt_status npydt_stats_add(npydt_stats *s, const void *records, uint64_t n,
                                       npydt_error *err);
/* Add the elements r has left, in C order (npydt_reader_next_c), in
 * bounded batches; r's dtype must equal the accumulator's (NPYDT_E_ARG). */
NPYDT_API npydt_status npydt_stats_add_reader(npydt_stats *s, npydt_reader *r,
                                              npydt_error *err);
/* Merge src into dst, as if dst had been fed src's records after its own
 * (threads that each fed one part of the records, in order): counts,
 * extremes, lengths and the distinct sketch as one pass over both gives
 * them, the mean and std within the sums' rounding, the order across the
 * step from dst's last value to src's first. src is left as it is. Both
 * made by npydt_stats_new for equal dtypes with the same fields and
 * per_element (NPYDT_E_ARG otherwise, or when they are the same one). */
NPYDT_API npydt_status npydt_stats_merge(npydt_stats *dst, const npydt_stats *src,
                                         npydt_error *err);
/* Release an accumulator; NULL is a no-op. */
NPYDT_API void npydt_stats_free(npydt_stats *s);

/* npydt_stats_result.element of a column whose subarray elements are pooled. */
#define NPYDT_STATS_POOLED UINT64_MAX

/* npydt_stats_result.sorted: the order of the values seen (NaN and NaT
 * skipped), each bit set when it holds; all four for 0 or 1 value. */
#define NPYDT_SORTED_ASCENDING 1u           /* each value >= the one before */
#define NPYDT_SORTED_STRICTLY_ASCENDING 2u  /* each value > the one before */
#define NPYDT_SORTED_DESCENDING 4u
#define NPYDT_SORTED_STRICTLY_DESCENDING 8u

/* npydt_stats_result.part */
#define NPYDT_STATS_VALUE 0 /* the value itself */
#define NPYDT_STATS_REAL 1  /* the real part of a complex leaf */
#define NPYDT_STATS_IMAG 2  /* its imaginary part */

/* The statistics of one column (passive data, a copy). Which fields apply
 * depends on the kind:
 *   b i u f, and each part of c: min/max, mean and std of the values
 *     that are not NaN (as np.nanmin, np.nanmax, np.nanmean, np.nanstd
 *     with ddof 0, summed in float64: an infinity makes the mean that
 *     infinity, or NaN with both signs, and the std NaN), zeros, and for
 *     f and c nan, posinf, neginf; sorted (not for c);
 *   M and m: min/max of the counts that are not NaT, nat; M also as
 *     NumPy's str() writes them (min_text, max_text); m zeros; sorted;
 *   S U V: min_len/max_len (NumPy's len(): S and U without trailing NULs,
 *     V its size), distinct (an estimate); sorted (S and U, as NumPy
 *     compares them: bytes, code points).
 * The mean lies within about 2e-14 (relative) of math.fsum of the values
 * / count: a block of up to 4096 values is summed in chunks of 128 (four
 * lanes) whose sums are added pairwise, the blocks with Neumaier's
 * compensated sum; the variance sums each block's deviations from its
 * first value and their squares in the same pass and joins the blocks by
 * Chan's formula. distinct is a HyperLogLog estimate over 4096 one-byte
 * registers of a fixed 64-bit hash (npydt_name_hash of the value's
 * bytes, U in the host's order): standard error 1.6 %, nearly exact below
 * a few hundred distinct values (linear counting). */
typedef struct npydt_stats_result {
    size_t leaf;          /* index into npydt_dtype_leaves of the dtype */
    uint64_t element;     /* C-order element of the leaf's subarrays (per_element),
                           * or NPYDT_STATS_POOLED */
    int part;             /* NPYDT_STATS_VALUE, _REAL or _IMAG */
    char kind;            /* the leaf's kind */
    unsigned sorted;      /* NPYDT_SORTED_* bits */
    int has_order;        /* sorted applies (not c, not V) */
    uint64_t count;       /* values seen */
    uint64_t valid;       /* of them, not NaN and not NaT: min, max, mean cover these */
    uint64_t nan, posinf, neginf, nat, zeros;
    int64_t min_i, max_i; /* kinds b (0, 1), i, M and m (counts): exact */
    uint64_t min_u, max_u;/* kind u: exact */
    double min_f, max_f;  /* kind f and the parts of c */
    double mean, std;     /* NaN where they do not apply or valid is 0 */
    uint64_t min_len, max_len;
    double distinct;
    char min_text[NPYDT_DATETIME_TEXT_MAX + 1]; /* M: "" when valid is 0 or */
    char max_text[NPYDT_DATETIME_TEXT_MAX + 1]; /* the unit has no text */
    uint64_t reserved[4];
} npydt_stats_result;

/* Number of columns: one per selected leaf (two for complex), times its
 * elements with per_element. */
NPYDT_API size_t npydt_stats_count(const npydt_stats *s);
/* The statistics of column i so far into *out; NPYDT_E_ARG when i is out
 * of range. */
NPYDT_API npydt_status npydt_stats_get(const npydt_stats *s, size_t i, npydt_stats_result *out,
                                       npydt_error *err);

/* ------------------------------------------------------------------ */
/* Arrow: record arrays as columns (C Data and C Stream interfaces)    */
/* ------------------------------------------------------------------ */

/* The structs of Apache Arrow's C Data Interface and C Stream Interface,
 * declared as the specification lays them out (their layout is the ABI),
 * under the guards every producer and consumer uses, so a program may
 * include Arrow's own declarations as well. */
#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

/* How a dtype becomes Arrow columns (doc/api.md, "Arrow", has the whole
 * table): a record array is a struct ("+s") whose children are its
 * fields, padding dropped; any other dtype is one column named "value".
 * Nested structs are "+s", subarrays fixed-size lists ("+w:N", nested
 * for several dimensions, the shape in metadata "npydt.shape"); b1 "b";
 * integers "c s i l C S I L"; f2 f4 f8 "e f g"; f16 "g" (the nearest
 * double); complex a fixed-size list of its two parts ("+w:2" of "f" or
 * "g"); S and V "w:N" (S as "z" without its trailing NULs with
 * bytes_as_binary); U "u" (UTF-8; a code point UTF-8 cannot hold is
 * NPYDT_E_ENCODING naming the record and field); M8[s|ms|us|ns] "tss:"
 * "tsm:" "tsu:" "tsn:", M8[D] "tdD" (a day beyond int32 is
 * NPYDT_E_RANGE), m8[s|ms|us|ns] "tDs" "tDm" "tDu" "tDn"; [m] [h] and
 * multipliers ([25s], [10ms]) converted to those units, M8[W] [7D] to
 * "tdD", m8[D] [W] to "tDs" (a count past int64 there is NPYDT_E_RANGE
 * naming the record and field); Y M ps fs as and generic units the raw
 * count "l"; NaT is null. Every scalar column
 * carries its NumPy type string in metadata "npydt.dtype", a titled
 * field its title in "npydt.title". Values are in the host's byte
 * order, as Arrow wants them. Object dtypes are refused
 * (NPYDT_E_OBJECT), a name holding a NUL is NPYDT_E_NAME, a subarray
 * dimension above 2147483647 NPYDT_E_LIMIT. */

/* Options of the Arrow export. Initialise with npydt_arrow_options_init;
 * it grows as npydt_options does (reserved room, refused when not zero). */
typedef struct npydt_arrow_options {
    npydt_options base;    /* the allocator of every struct and buffer exported
                            * (it must outlive them); limits.max_depth bounds
                            * the nesting */
    uint64_t batch_rows;   /* rows of a record batch at most (0: no bound but
                            * batch_bytes) */
    size_t batch_bytes;    /* Arrow buffer bytes a batch takes, about (0: 1 MiB;
                            * at least one row) */
    int bytes_as_binary;   /* nonzero: S as "z" (binary) without its trailing
                            * NULs, as NumPy reads it, instead of "w:N" */
    uint64_t reserved[4];  /* room for new options: zero (see npydt_options) */
} npydt_arrow_options;

/* Fill *opts with the documented defaults. */
NPYDT_API void npydt_arrow_options_init(npydt_arrow_options *opts);

/* The ArrowSchema of records of dtype dt (any node; opts may be NULL)
 * into *out, which the caller releases with out->release. On failure
 * *out is released (out->release NULL). */
NPYDT_API npydt_status npydt_arrow_schema(const npydt_dtype *dt,
                                          const npydt_arrow_options *opts,
                                          struct ArrowSchema *out, npydt_error *err);

/* An ArrowArrayStream over the elements of the array r reads, in C order
 * whatever the file's order, one record batch per call of get_next of at
 * most batch_rows rows and about batch_bytes bytes (fewer where the
 * reader gives fewer at once: a Fortran-order array read in chunks, see
 * npydt_reader_next_c). Each batch owns its buffers, copied and converted
 * from the data, or, for a column whose bytes in a read-only mapping of
 * the file are laid out as Arrow's (numbers in the host's order, values
 * one after the other: a plain array in C order, a field of a struct of
 * one field), points into the mapping, which then stays mapped until the
 * last such array is released; batches may outlive the stream and the
 * reader (released in any order, from any thread); the stream
 * borrows r, which must stay open until the stream is released. Any
 * number of streams may read one reader, each from its first row: a
 * stream holds its position, not the reader (one thread at a time, as the
 * reader). get_next and get_schema return 0, ENOMEM, EIO (the data could
 * not be read) or EINVAL (a value Arrow cannot hold, such as an invalid
 * code point); get_last_error then gives npydt's error as one line,
 * "field PATH: MESSAGE" where it has a path. The stream
 * gives the data as it finds it when a batch is asked for. The schema of
 * an array that is not 1-d carries its shape in the root's metadata
 * "npydt.shape" (npydt_arrow_shape). */
NPYDT_API npydt_status npydt_arrow_stream_open(npydt_reader *r,
                                               const npydt_arrow_options *opts,
                                               struct ArrowArrayStream *out,
                                               npydt_error *err);

/* One record batch of the n records at records (C order, itemsize bytes
 * apart, of dtype dt; options as for npydt_arrow_stream_open) into *out,
 * as get_next of npydt_arrow_stream_open gives them: for a producer that
 * picks its own records (a selection of rows). The batch owns copies of
 * the values; *out is released on failure. */
NPYDT_API npydt_status npydt_arrow_batch(const npydt_dtype *dt, const void *records, uint64_t n,
                                         const npydt_arrow_options *opts,
                                         struct ArrowArray *out, npydt_error *err);

/* The npydt_error behind the last failure of a stream npydt_arrow_stream_open
 * or npydt_arrow_ipc_open_* made (code, byte offset, message), into *err;
 * NPYDT_OK when it has none. NPYDT_E_ARG for another stream. */
NPYDT_API npydt_status npydt_arrow_stream_error(const struct ArrowArrayStream *s,
                                                npydt_error *err);

/* The Arrow IPC stream format (the bytes pyarrow.ipc.open_stream, Arrow
 * JS's tableFromIPC, Polars' read_ipc_stream read): a Schema message,
 * RecordBatch messages, the end-of-stream marker; no dictionaries, no
 * compression. Options of the writer and the reader. Initialise with
 * npydt_arrow_ipc_options_init. */
typedef struct npydt_arrow_ipc_options {
    npydt_options base;        /* the allocator; limits.max_depth bounds the
                                * nesting of fields, limits.max_fields their
                                * number (the reader) */
    size_t max_message_bytes;  /* metadata and body of one message read at
                                * most (0: 256 MiB) */
    uint64_t reserved[4];      /* room for new options: zero */
} npydt_arrow_ipc_options;

NPYDT_API void npydt_arrow_ipc_options_init(npydt_arrow_ipc_options *opts);

/* Write the stream in (its schema, then each batch as it comes: memory
 * is a batch's, not the stream's) as an Arrow IPC stream through
 * sink->write (pwrite unused); *written (may be NULL) gets the bytes
 * written. Columns of the formats npydt_arrow_stream_open gives (and
 * "tdm", time zones on timestamps) are written, any offset honoured; any
 * other format is NPYDT_E_TYPE naming the field, a dictionary too. A
 * failure of in is its status (npydt_arrow_stream_error, else by errno:
 * NPYDT_E_NOMEM, NPYDT_E_IO), of the sink NPYDT_E_IO. in is not
 * released. */
NPYDT_API npydt_status npydt_arrow_ipc_write(struct ArrowArrayStream *in,
                                             const npydt_npz_sink *sink,
                                             const npydt_arrow_ipc_options *opts,
                                             uint64_t *written, npydt_error *err);

/* An ArrowArrayStream over the Arrow IPC stream in buf[0..len) (borrowed:
 * keep it until the stream is released) or read from fd (a file or a
 * pipe, read message by message; not closed). The Schema message is read
 * here, each RecordBatch by get_next. A batch read from fd points into its
 * message's body, read once and kept until the last of its arrays
 * (children moved out included) is released; a batch of buf owns copies
 * of its buffers. The bytes are untrusted: every Flatbuffers offset, vtable,
 * buffer range, length and count is checked, a message above
 * max_message_bytes, nesting deeper than limits.max_depth or more fields
 * than limits.max_fields refused (NPYDT_E_LIMIT); malformed bytes are
 * NPYDT_E_DATA with the byte offset of what is wrong, bytes that start as
 * a .npy file, a zip archive or an Arrow IPC file (whose schema is in its
 * footer) NPYDT_E_MAGIC naming what they are (a .npy file or a zip archive
 * where a later message belongs too), a type other than
 * those npydt_arrow_ipc_write writes NPYDT_E_TYPE naming the field and
 * the type, metadata versions before V4 NPYDT_E_VERSION, the other byte
 * order NPYDT_E_VALUE. get_next fails with EIO (or ENOMEM, EINVAL for a
 * limit) and npydt_arrow_stream_error gives the error. */
NPYDT_API npydt_status npydt_arrow_ipc_open_buffer(const void *buf, size_t len,
                                                   const npydt_arrow_ipc_options *opts,
                                                   struct ArrowArrayStream *out,
                                                   npydt_error *err);
NPYDT_API npydt_status npydt_arrow_ipc_open_fd(int fd, const npydt_arrow_ipc_options *opts,
                                               struct ArrowArrayStream *out, npydt_error *err);

/* Arrow into records: the inverse of the table above (doc/api.md, "Arrow
 * into records"). A struct becomes a record, packed, field by field (the
 * title in "npydt.title" restored); fixed-size lists subarrays (nested ones several
 * dimensions); "b" b1; "c s i l C S I L" integers; "e f g" f2 f4 f8;
 * "w:N" VN; "tss:" "tsm:" "tsu:" "tsn:" M8[s|ms|us|ns] (a time zone is
 * dropped: the values are UTC, as Arrow stores them); "tdD" M8[D], "tdm"
 * M8[ms]; "tDs" "tDm" "tDu" "tDn" m8[...]. A column's "npydt.dtype"
 * metadata gives its exact type back when the export would give that
 * type this column's format (">i4", "<c16" from "+w:2" of "g", "|S5"
 * from "w:5", "<M8[h]" from "tss:", divided back: a count that is not a
 * whole number of hours is NPYDT_E_RANGE naming row and column, "<M8[Y]"
 * from "l"). Variable-length "u" and "z" become U
 * and S of string_width (or of their metadata's type). Every other type
 * (lists, maps, unions, dictionaries, decimals, large and view types,
 * times of day, intervals) is refused with NPYDT_E_TYPE naming the
 * column and the type. A root struct of one column named "value" is that
 * column's dtype, as the export gives a dtype that is not a struct. */

/* string_width for the longest value of each variable-length column of
 * the array npydt_arrow_dtype reads. */
#define NPYDT_ARROW_LONGEST ((size_t)-1)

/* Options of the Arrow import. Initialise with
 * npydt_arrow_import_options_init; it grows as npydt_options does. */
typedef struct npydt_arrow_import_options {
    npydt_options base;    /* the allocator of the dtype and the scratch;
                            * limits.max_depth bounds the nesting */
    size_t string_width;   /* "u" and "z" columns without "npydt.dtype": 0
                            * refuses them (NPYDT_E_TYPE), N gives U<N>
                            * (characters) and S<N> (bytes), NPYDT_ARROW_LONGEST
                            * the longest value of the array given */
    int nulls_as_zero;     /* a null (outside M8 and m8, whose nulls are NaT)
                            * is written as zeros instead of refused with
                            * NPYDT_E_VALUE naming its row and column */
    uint64_t reserved[4];  /* room for new options: zero (see npydt_options) */
} npydt_arrow_import_options;

/* Fill *opts with the documented defaults. */
NPYDT_API void npydt_arrow_import_options_init(npydt_arrow_import_options *opts);

/* The dtype of the records of an Arrow schema (the fields of its root
 * struct), to release with npydt_dtype_free. array (may be NULL) is an
 * array of that schema, read only for NPYDT_ARROW_LONGEST. */
NPYDT_API npydt_status npydt_arrow_dtype(const struct ArrowSchema *schema,
                                         const struct ArrowArray *array,
                                         const npydt_arrow_import_options *opts,
                                         npydt_dtype **out, npydt_error *err);

/* The shape of the array a stream's rows were exported from: metadata
 * "npydt.shape" of the schema's root, a tuple as NumPy spells it ("()",
 * "(2, 3)"), which npydt_arrow_stream_open writes for every array that
 * is not 1-d (its rows are the elements in C order). At most max_ndim
 * dimensions into shape, their number into *ndim. NPYDT_E_NOT_FOUND when
 * the schema has none (the rows are a 1-d array), NPYDT_E_SHAPE for a
 * value that is not such a tuple of at most max_ndim dimensions,
 * NPYDT_E_OVERFLOW when its elements pass uint64. */
NPYDT_API npydt_status npydt_arrow_shape(const struct ArrowSchema *schema, uint64_t *shape,
                                         size_t max_ndim, size_t *ndim, npydt_error *err);

struct npydt_writer; /* npydt_writer, below */

/* Append every row of array (of schema) to w, converted to the writer's
 * dtype (its byte order and layout; padding zero). The schema must be
 * the one npydt_arrow_dtype reads as that dtype, or one whose columns the
 * dtype takes (U and S of any width for "u" and "z", any byte order):
 * NPYDT_E_MISMATCH names the first difference. A value that does not fit
 * (a string longer than its field, invalid UTF-8, a day beyond the M8
 * range) is refused naming its row and column. The buffers of a foreign
 * array are trusted as the C Data Interface says, but its lengths,
 * offsets and counts are checked (NPYDT_E_DATA). Borrows schema and
 * array: the caller releases them. On failure some rows may have been
 * written: discard the writer (npydt_writer_discard). */
NPYDT_API npydt_status npydt_arrow_write_array(struct npydt_writer *w,
                                               const struct ArrowSchema *schema,
                                               const struct ArrowArray *array,
                                               const npydt_arrow_import_options *opts,
                                               npydt_error *err);

/* Rows [from, from + n) of array (of schema) as n records of dt at
 * records (n times dt's itemsize bytes), converted, checked and refused
 * as npydt_arrow_write_array does for a writer of dtype dt; rows in
 * messages count from row0 (the row array's first is in a stream). A
 * NULL array with n 0 checks the schema against dt only. For a program
 * that converts records and writes them (npydt_writer_write) in separate
 * steps, on separate threads. */
NPYDT_API npydt_status npydt_arrow_records(const npydt_dtype *dt,
                                           const struct ArrowSchema *schema,
                                           const struct ArrowArray *array, int64_t from,
                                           int64_t n, uint64_t row0,
                                           const npydt_arrow_import_options *opts,
                                           void *records, npydt_error *err);

/* The same for every batch of a stream, in order: the schema (asked
 * once) is checked first, then each batch is appended and released, and
 * the schema is released. A failed get_schema or get_next is
 * NPYDT_E_NOMEM (ENOMEM), NPYDT_E_VALUE (EINVAL) or NPYDT_E_IO (any
 * other), with the stream's get_last_error in the message. Errors name
 * rows counted from the stream's first. The stream stays the caller's:
 * release it after. */
NPYDT_API npydt_status npydt_arrow_write_stream(struct npydt_writer *w,
                                                struct ArrowArrayStream *stream,
                                                const npydt_arrow_import_options *opts,
                                                npydt_error *err);

/* ------------------------------------------------------------------ */
/* Writing .npy files: create, append, crash-safe                      */
/* ------------------------------------------------------------------ */

/* A writer appends records to one .npy file (or writes one .npz member).
 * The header is exactly np.save's for the shape written so far, and it is
 * rewritten in place as the growth axis (the first, or the last for
 * Fortran order) grows: np.save leaves room for 21 digits there.
 *
 * Crash safety: at every instant the file is one NumPy loads. Records go
 * to the end of the file first; only a flush makes the header count them,
 * after their bytes are durable (fsync, unless no_sync). A crash loses at
 * most the records written since the last completed flush; a torn record
 * at the end is never counted. Default policy: flush only at
 * npydt_writer_flush and npydt_writer_close (flush_every = 0).
 *
 * The header switch is atomic because a flush changes only the bytes that
 * differ (the growth axis's digits and the spaces after them) with one
 * pwrite: a killed process never sees half of it, and a disk writes one
 * 512-byte sector whole. When that span crosses a multiple of 512 bytes
 * (only in headers longer than 512 bytes), a power cut during the pwrite
 * can tear it; doc/api.md, "Durability", says what then.
 *
 * One thread at a time. After an I/O error the writer accepts only close
 * (or discard), and the file still holds what the last completed flush
 * counted. */
typedef struct npydt_writer npydt_writer;

/* What npydt_writer_append_* does with a file whose header has no room
 * for the growth axis to grow (written by NumPy before 1.23, or by other
 * programs). */
typedef enum npydt_no_room {
    NPYDT_NO_ROOM_REWRITE = 0, /* copy once into a temporary file beside it with
                                * a header that has room, append there; at the
                                * first flush: fsync, rename over the file */
    NPYDT_NO_ROOM_FAIL = 1     /* refuse with NPYDT_E_LIMIT; the file is untouched */
} npydt_no_room;

/* Options of a writer. Initialise with npydt_writer_options_init; it grows
 * as npydt_options does (reserved room, refused when not zero). */
typedef struct npydt_writer_options {
    npydt_options base;     /* allocator; limits for an existing header */
    int fortran_order;      /* create: Fortran order, growing along the last axis */
    int replace;            /* create: an existing file is replaced (atomically, at
                             * the first flush) instead of refused with NPYDT_E_IO */
    uint64_t flush_every;   /* records between automatic flushes (0: none) */
    int no_sync;            /* nonzero: flushes skip fsync (survives a killed
                             * process, not a power cut) */
    npydt_no_room no_room;  /* append to a header without room */
    size_t buffer_bytes;    /* records held before one write(2) (0: 1 MiB; at
                             * least one record) */
    uint64_t reserved[4];   /* room for new options: zero (see npydt_options) */
} npydt_writer_options;

/* Fill *opts with the documented defaults. */
NPYDT_API void npydt_writer_options_init(npydt_writer_options *opts);

/* Create a .npy file at path for records of dtype dt (any node npydt gave,
 * in its own byte order; copied, so dt need not outlive the writer) in an
 * array of ndim dimensions. shape gives every dimension but the growth
 * axis, whose entry is ignored: the file starts with 0 there and grows as
 * records are written (a row is the product of the other dimensions). A
 * 0-d array (ndim 0) takes exactly one record; its file appears at close.
 * The file is written as a temporary file beside path, then linked to it
 * at once (NPYDT_E_IO when path exists, as O_EXCL) or, with opts->replace,
 * renamed over it at the first flush (a regular file replaced keeps its
 * permission bits; a new file takes 0666 less the umask). When the other dimensions hold no
 * element (a shape such as (n, 0)), records are refused with
 * NPYDT_E_SHAPE. NPYDT_E_OBJECT for object dtypes. */
NPYDT_API npydt_status npydt_writer_create_path(const char *path, const npydt_dtype *dt,
                                                const uint64_t *shape, size_t ndim,
                                                const npydt_writer_options *opts,
                                                npydt_writer **out, npydt_error *err);
/* As npydt_writer_create_path on an open, empty, writable descriptor of a
 * regular file (not closed by the writer). A 0-d array is written at close. */
NPYDT_API npydt_status npydt_writer_create_fd(int fd, const npydt_dtype *dt,
                                              const uint64_t *shape, size_t ndim,
                                              const npydt_writer_options *opts,
                                              npydt_writer **out, npydt_error *err);
/* Open an existing .npy file (any version; any writer, NumPy included) to
 * append records along its growth axis. Bytes past the records its header
 * counts (never acknowledged by a flush: a torn or unflushed tail) are
 * cut off first. NPYDT_E_SHAPE for a 0-d array; NPYDT_E_OBJECT for object
 * dtypes; a header without room as opts->no_room says. */
NPYDT_API npydt_status npydt_writer_append_path(const char *path,
                                                const npydt_writer_options *opts,
                                                npydt_writer **out, npydt_error *err);
/* Write one member of an archive being written: its header for the final
 * shape (every dimension given) first, then the records. The member is
 * stored as NAME.npy, as np.savez stores a keyword's array ("a" becomes
 * "a.npy", which np.load lists as "a"); a name already ending in ".npy"
 * is stored as it is. The member is begun here and ended by
 * npydt_writer_close, which fails (and the archive with it) unless exactly
 * the shape's count of records was written. */
NPYDT_API npydt_status npydt_writer_create_member(npydt_npz_writer *z, const char *name,
                                                  npydt_npz_method method,
                                                  const npydt_dtype *dt,
                                                  const uint64_t *shape, size_t ndim,
                                                  const npydt_writer_options *opts,
                                                  npydt_writer **out, npydt_error *err);
/* The records' dtype (owned by the writer). */
NPYDT_API const npydt_dtype *npydt_writer_dtype(const npydt_writer *w);
/* Records written so far (counted by the header after the next flush). */
NPYDT_API uint64_t npydt_writer_count(const npydt_writer *w);
/* The temporary file the writer fills before it is renamed over (or
 * linked to) its path, while there is one (else NULL): for a program that
 * removes it when a signal ends the process (the writer removes it at
 * npydt_writer_discard, and at a close that fails). Valid until the next
 * call on w. */
NPYDT_API const char *npydt_writer_temp_path(const npydt_writer *w);
/* Append n whole records from records (n * itemsize bytes, laid out and
 * byte-ordered as the dtype says). */
NPYDT_API npydt_status npydt_writer_write(npydt_writer *w, const void *records, uint64_t n,
                                          npydt_error *err);
/* The writer's record under construction: itemsize bytes, zero until set
 * (through npydt_writer_set_* or npydt_write_* on it), appended by
 * npydt_writer_commit. */
NPYDT_API void *npydt_writer_record(npydt_writer *w);
/* Append the record under construction, then zero it. */
NPYDT_API npydt_status npydt_writer_commit(npydt_writer *w, npydt_error *err);
/* Set the field at path (as npydt_field_lookup reads it: "pos.x",
 * "samples[2]") of the record under construction through the typed writer
 * of the same name; an error names the path in err->path and leaves the
 * record unchanged. The path is looked up on every call: for many records
 * resolve it once (npydt_writer_field, npydt_writer_put_*). */
NPYDT_API npydt_status npydt_writer_set_i64(npydt_writer *w, const char *path, int64_t v,
                                            npydt_error *err);
/* See npydt_writer_set_i64. */
NPYDT_API npydt_status npydt_writer_set_u64(npydt_writer *w, const char *path, uint64_t v,
                                            npydt_error *err);
/* See npydt_writer_set_i64. */
NPYDT_API npydt_status npydt_writer_set_double(npydt_writer *w, const char *path, double v,
                                               npydt_error *err);
/* See npydt_writer_set_i64. */
NPYDT_API npydt_status npydt_writer_set_complex(npydt_writer *w, const char *path,
                                                const double v[2], npydt_error *err);
/* See npydt_writer_set_i64. */
NPYDT_API npydt_status npydt_writer_set_bool(npydt_writer *w, const char *path, int v,
                                             npydt_error *err);
/* See npydt_writer_set_i64. */
NPYDT_API npydt_status npydt_writer_set_bytes(npydt_writer *w, const char *path,
                                              const void *bytes, size_t len,
                                              npydt_error *err);
/* See npydt_writer_set_i64 (utf8 of len bytes). */
NPYDT_API npydt_status npydt_writer_set_unicode(npydt_writer *w, const char *path,
                                                const char *utf8, size_t len,
                                                npydt_error *err);
/* See npydt_writer_set_i64. */
NPYDT_API npydt_status npydt_writer_set_datetime(npydt_writer *w, const char *path,
                                                 const npydt_datetime *v, npydt_error *err);
/* A field of a writer's record resolved once: npydt_writer_field looks
 * the path up (as npydt_writer_set_* do on every call) and the
 * npydt_writer_put_* calls store through the handle with no lookup, the
 * fast way to fill many records. A handle belongs to the writer that gave
 * it and stays valid until it is closed or discarded. */
typedef struct npydt_field_handle {
    size_t index;
} npydt_field_handle;
/* Resolve the scalar field at path (as npydt_writer_set_i64 reads it) into
 * *h; NPYDT_E_NOT_FOUND or NPYDT_E_VALUE (a struct or subarray) naming the
 * path. The writer keeps a copy of the path for its messages. */
NPYDT_API npydt_status npydt_writer_field(npydt_writer *w, const char *path,
                                          npydt_field_handle *h, npydt_error *err);
/* Store into the field of handle h of the record under construction, as
 * npydt_writer_set_* of the same name does (the same checks, the same
 * errors naming the path); NPYDT_E_ARG for a handle this writer did not
 * give. */
NPYDT_API npydt_status npydt_writer_put_i64(npydt_writer *w, npydt_field_handle h, int64_t v,
                                            npydt_error *err);
NPYDT_API npydt_status npydt_writer_put_u64(npydt_writer *w, npydt_field_handle h, uint64_t v,
                                            npydt_error *err);
NPYDT_API npydt_status npydt_writer_put_double(npydt_writer *w, npydt_field_handle h,
                                               double v, npydt_error *err);
NPYDT_API npydt_status npydt_writer_put_complex(npydt_writer *w, npydt_field_handle h,
                                                const double v[2], npydt_error *err);
NPYDT_API npydt_status npydt_writer_put_bool(npydt_writer *w, npydt_field_handle h, int v,
                                             npydt_error *err);
NPYDT_API npydt_status npydt_writer_put_bytes(npydt_writer *w, npydt_field_handle h,
                                              const void *bytes, size_t len,
                                              npydt_error *err);
NPYDT_API npydt_status npydt_writer_put_unicode(npydt_writer *w, npydt_field_handle h,
                                                const char *utf8, size_t len,
                                                npydt_error *err);
NPYDT_API npydt_status npydt_writer_put_datetime(npydt_writer *w, npydt_field_handle h,
                                                 const npydt_datetime *v, npydt_error *err);
/* Make every record written so far durable and counted: write what is
 * buffered, fsync the data, rewrite the shape in the header in place,
 * fsync again (no fsync with no_sync). The header counts whole rows. For
 * an .npz member or a 0-d array: no-op. */
NPYDT_API npydt_status npydt_writer_flush(npydt_writer *w, npydt_error *err);
/* Flush, close what the writer opened and free it; NULL is a no-op. The
 * writer is freed whatever the status. A multi-dimensional array whose
 * last row is incomplete keeps its whole rows and gives NPYDT_E_SHAPE. */
NPYDT_API npydt_status npydt_writer_close(npydt_writer *w, npydt_error *err);
/* Free the writer without flushing: what was written since the last flush
 * is dropped, and the file is as that flush left it. A temporary file not
 * yet under its name (a new file with replace, or a 0-d array, before its
 * first flush; the copy npydt_writer_append_* makes of a header without
 * room) is removed, and the path keeps what it held; a file at its place
 * (appended to in place, linked at creation, or the caller's descriptor)
 * is cut back to the records its header counts, byte for byte as it was.
 * An .npz member fails, and its archive with it. So "write everything or
 * nothing": write, then close when all is well, discard otherwise. NULL is
 * a no-op; the writer is freed whatever the status (NPYDT_E_IO when the
 * cut fails). */
NPYDT_API npydt_status npydt_writer_discard(npydt_writer *w, npydt_error *err);

/* ------------------------------------------------------------------ */
/* Durable output: a whole file put in place at once                   */
/* ------------------------------------------------------------------ */

/* An output writes a file whole, then puts it in place: the bytes go to a
 * temporary file beside the destination (same folder, named
 * PATH.XXXXXXXX.tmp: NPYDT_OUTPUT_TEMP_EXTRA bytes longer than PATH), and
 * npydt_output_commit gives it the mode of the regular file it replaces
 * (through a symbolic link, the file it names; a new file has 0666 less
 * the umask), fsyncs and closes it, renames it over the destination and
 * fsyncs the folder. The destination is never half-written: until the
 * rename it is as it was, and a failed or discarded output removes its
 * temporary file. npydt_writer writes its files the same way.
 *
 * Policies, the same for npydt_writer:
 * - A write is made again through EINTR and short writes; a write that
 *   takes no byte at all is an error (NPYDT_E_IO, errno text EIO), never
 *   retried.
 * - A failed fsync of the folder after the rename is an error
 *   (NPYDT_E_IO "PATH: the new file is in place, but fsync of its folder
 *   failed: ..."), except on file systems that cannot sync a folder
 *   (EINVAL, EROFS, EBADF): the caller asked for a file that survives a
 *   power cut and did not get that promise. The rename is not taken back
 *   (the file it replaced is gone): the destination holds the new file,
 *   whole, and only its name may not survive a power cut.
 *
 * One thread at a time. After an I/O error the output keeps it: every
 * later write and the commit return it, and only commit or discard is
 * left to call. The library installs no signal handler: a program that
 * ends on a signal removes npydt_output_temp_path itself. */
typedef struct npydt_output npydt_output;

/* The temporary file's name is its destination's and this many bytes. */
#define NPYDT_OUTPUT_TEMP_EXTRA 13

/* Create the temporary file for path (opts: the allocator; NULL for
 * libc). NPYDT_E_IO "PATH: cannot create a temporary file beside it". */
NPYDT_API npydt_status npydt_output_open(const char *path, const npydt_options *opts,
                                         npydt_output **out, npydt_error *err);
/* The temporary file's path, while the output holds one (else NULL). */
NPYDT_API const char *npydt_output_temp_path(const npydt_output *o);
/* Append len bytes at the end of what was written. Every 8 MiB appended
 * are handed to the disk without waiting (Linux: sync_file_range), so
 * that the fsync of the commit waits only for the last ones. */
NPYDT_API npydt_status npydt_output_write(npydt_output *o, const void *buf, size_t len,
                                          npydt_error *err);
/* Write len bytes at offset (over bytes already written, or past them). */
NPYDT_API npydt_status npydt_output_pwrite(npydt_output *o, const void *buf, size_t len,
                                           uint64_t offset, npydt_error *err);
/* A sink for npydt_npz_writer_new writing to o (o must outlive the
 * archive writer): when the archive writer reports NPYDT_E_IO,
 * npydt_output_status tells the write that failed. */
NPYDT_API void npydt_output_sink(npydt_output *o, npydt_npz_sink *sink);
/* NPYDT_OK, or the I/O error that stopped the output. */
NPYDT_API npydt_status npydt_output_status(const npydt_output *o, npydt_error *err);
/* Put the file in place (mode, fsync, close, rename, folder fsync) and
 * free o, whatever the status. On an error before the rename the
 * destination is as it was and the temporary file is removed. */
NPYDT_API npydt_status npydt_output_commit(npydt_output *o, npydt_error *err);
/* Remove the temporary file and free o; NULL is a no-op. */
NPYDT_API void npydt_output_discard(npydt_output *o);

/* ------------------------------------------------------------------ */
/* Schemas: checking headers against an expected descriptor            */
/* ------------------------------------------------------------------ */

/* A compiled schema: an expected dtype and optional constraints on the
 * array's shape and memory order. Immutable once compiled: one schema may
 * check any number of headers, from any thread. Release with
 * npydt_schema_free. The allocator given at compile time serves the schema
 * and every result checked with it, so it must outlive them. */
typedef struct npydt_schema npydt_schema;

/* Matching levels for npydt_check; combine with |. STRICT and SAFE_CAST
 * exclude each other. */
typedef enum npydt_check_flags {
    NPYDT_CHECK_DEFAULT = 0,          /* same fields, names, order, kinds, sizes,
                                       * units, shapes, offsets; byte order may differ */
    NPYDT_CHECK_STRICT = 1 << 0,      /* byte order must match as well */
    NPYDT_CHECK_SAFE_CAST = 1 << 1,   /* each file field casts to the schema's by
                                       * np.can_cast(file, schema, 'safe'); offsets free */
    NPYDT_CHECK_ALLOW_EXTRA = 1 << 2  /* fields the schema does not name are allowed at
                                       * any depth; named ones are found by name, so
                                       * offsets and struct sizes are not compared at
                                       * any level; their order, kinds, sizes, shapes
                                       * (and byte order if strict) still are */
} npydt_check_flags;

/* Stable codes of the kinds of mismatch; values never change. */
typedef enum npydt_mismatch_code {
    NPYDT_MISMATCH_MISSING_FIELD = 1, /* the schema names a field the file lacks */
    NPYDT_MISMATCH_EXTRA_FIELD = 2,   /* the file has a field the schema does not name */
    NPYDT_MISMATCH_KIND = 3,          /* different kind ('f' vs 'i', struct vs scalar) */
    NPYDT_MISMATCH_SIZE = 4,          /* same kind, other itemsize (or struct itemsize) */
    NPYDT_MISMATCH_BYTEORDER = 5,     /* other byte order (strict only) */
    NPYDT_MISMATCH_UNIT = 6,          /* other datetime unit or multiplier */
    NPYDT_MISMATCH_SHAPE = 7,         /* other subarray shape of a field or dtype */
    NPYDT_MISMATCH_OFFSET = 8,        /* field at another byte offset */
    NPYDT_MISMATCH_ORDER = 9,         /* the same fields in another order */
    NPYDT_MISMATCH_TITLE = 10,        /* the schema gives a title the field lacks */
    NPYDT_MISMATCH_DIMENSION = 11,    /* array shape: number or length of dimensions */
    NPYDT_MISMATCH_FORTRAN_ORDER = 12 /* array memory order */
} npydt_mismatch_code;

/* One mismatch. Strings are owned by the result. */
typedef struct npydt_mismatch {
    npydt_mismatch_code code;
    const char *path;      /* field path "pos.x"; "" for the root dtype or the array */
    const char *expected;  /* the schema's side: "<f8", "(3,)", "8", "(-1, 3)", "False";
                            * "" for an extra field */
    const char *found;     /* the file's side, spelled alike; "" for a missing field */
    /* Lengths of the three: each is a NUL-terminated view, and holds a NUL
     * inside where a name or title does (a path, the names of an order
     * mismatch, a title) */
    size_t path_len, expected_len, found_len;
} npydt_mismatch;

/* The mismatches of one check, in a stable order: the first
 * NPYDT_CHECK_MISMATCH_MAX of them, and the count of all (a check past the
 * cap builds no text for the rest, so its memory does not grow with them). */
typedef struct npydt_check_result npydt_check_result;
#define NPYDT_CHECK_MISMATCH_MAX 1000u

/* Compile a spec: a descriptor literal as in a header ("[('x', '<f8')]",
 * "'<f8'", "('<i4', (3,))"), a type string ("f8, (3,)i4, S5", "float64") or a
 * header-like dict ("{'descr': ..., 'shape': (-1, 3), 'fortran_order': False}",
 * every key optional; -1 matches any length, the number of dimensions must
 * match). Literals read as UTF-8 with a 1.0 header's rules otherwise (Python 2
 * 'L' suffixes after integers are dropped). Surrounding whitespace is
 * ignored; error offsets are into spec. */
NPYDT_API npydt_status npydt_schema_compile(const char *spec, size_t len,
                                            const npydt_options *opts,
                                            npydt_schema **out, npydt_error *err);
/* Release a schema; NULL is a no-op. */
NPYDT_API void npydt_schema_free(npydt_schema *schema);
/* The schema's dtype (a root dtype owned by the schema), or NULL when the
 * spec constrains only shape or order. */
NPYDT_API const npydt_dtype *npydt_schema_dtype(const npydt_schema *schema);

/* Check a header against a schema at the level given by flags. Returns
 * NPYDT_OK on a match, NPYDT_E_MISMATCH when there are mismatches (err names
 * the first), another status when the check could not run. On OK and
 * E_MISMATCH a non-NULL out receives the result, to free with
 * npydt_check_result_free; otherwise *out is NULL. */
NPYDT_API npydt_status npydt_check(const npydt_schema *schema, const npydt_header *h,
                                   unsigned flags, npydt_check_result **out, npydt_error *err);
/* As npydt_check for a bare dtype: shape and order constraints are skipped. */
NPYDT_API npydt_status npydt_check_dtype(const npydt_schema *schema, const npydt_dtype *dt,
                                         unsigned flags, npydt_check_result **out,
                                         npydt_error *err);
/* Number of mismatches a result holds, at most NPYDT_CHECK_MISMATCH_MAX
 * (0 for NULL). */
NPYDT_API size_t npydt_check_result_count(const npydt_check_result *r);
/* Number of mismatches the check found, those past the cap included (0 for
 * NULL). */
NPYDT_API size_t npydt_check_result_total(const npydt_check_result *r);
/* Mismatch i of a result, or NULL when i is out of range. */
NPYDT_API const npydt_mismatch *npydt_check_result_get(const npydt_check_result *r, size_t i);
/* Release a result; NULL is a no-op. */
NPYDT_API void npydt_check_result_free(npydt_check_result *r);
/* Stable name of a mismatch code ("missing_field", "kind", ... as the
 * enum, lower case, without the prefix); "unknown" for a value not in the
 * enum; never NULL. */
NPYDT_API const char *npydt_mismatch_code_name(npydt_mismatch_code code);

/* NumPy 1.24's np.can_cast(from, to, 'safe'), for any two dtypes (struct
 * fields are paired by position, as NumPy pairs them). */
NPYDT_API int npydt_can_cast_safe(const npydt_dtype *from, const npydt_dtype *to);

/* ------------------------------------------------------------------ */
/* Value rules: what the elements of an array may hold                 */
/* ------------------------------------------------------------------ */

/* Rules compiled once against a dtype from a Python dict literal keyed by
 * field path ("pos.x", "samples", "" for a dtype that is no struct; as
 * npydt_field_lookup reads it), each value a dict of rules:
 *   {'t': {'nat': False, 'sorted': 'ascending'},
 *    'pos.x': {'min': -180.0, 'max': 180.0, 'nan': False},
 *    'name': {'values': [b'alpha', b'beta'], 'min_len': 1}}
 * A subarray field's rules hold for each of its elements. Immutable once
 * compiled: one may check any number of arrays of that dtype, from any
 * thread, each through its own npydt_rules_check. Release with
 * npydt_rules_free; the dtype must outlive it. */
typedef struct npydt_rules npydt_rules;
/* One check of rules over a stream of records: owned by one thread. */
typedef struct npydt_rules_check npydt_rules_check;

/* Bounds of rules and checks. Initialise with npydt_rules_options_init
 * (or zeros); reserved room as in npydt_options. */
typedef struct npydt_rules_options {
    npydt_options base;         /* nesting limit (limits.max_depth) and allocator */
    size_t max_values;          /* elements in all 'values' lists together (0: 65,536) */
    uint64_t max_unique_bytes;  /* memory one 'unique' rule may hold for the distinct
                                 * values of one check (0: 256 MiB) */
    uint64_t reserved[4];       /* room for new options: zero */
} npydt_rules_options;

/* Fill *opts with the defaults. */
NPYDT_API void npydt_rules_options_init(npydt_rules_options *opts);

/* Compile text (len bytes, a dict literal) against the root dtype dt
 * (NULL: read and check the rules' keys and values only, place none).
 * Errors carry the byte offset in text of what they name and, once a
 * field is named, its path: NPYDT_E_SYNTAX (not a literal), NPYDT_E_KEY
 * (an unknown or repeated rule or path), NPYDT_E_VALUE (a value of the
 * wrong type, a rule that cannot apply to the field's type: 'min' on a
 * struct, 'nan' on an integer), NPYDT_E_NOT_FOUND (no such field),
 * NPYDT_E_LIMIT (nesting, max_values). */
NPYDT_API npydt_status npydt_rules_compile(const char *text, size_t len, const npydt_dtype *dt,
                                           const npydt_rules_options *opts, npydt_rules **out,
                                           npydt_error *err);
/* Release rules (after their checks); NULL is a no-op. */
NPYDT_API void npydt_rules_free(npydt_rules *rules);
/* The number of rules, in the order of the text (0 for NULL). */
NPYDT_API size_t npydt_rules_count(const npydt_rules *rules);

/* Elements a result keeps of those that break its rule. */
#define NPYDT_RULES_FIRST 5
/* Room for one kept value's text ("1e+300", "'alpha'", "b'\\x00'",
 * "2020-06-01T07:00:00", "NaT"), strings cut after 32 characters. */
#define NPYDT_RULES_VALUE_MAX 160

/* One rule and what a check found against it. Strings are owned by the
 * rules (path, rule, expected) and by the check (values). */
typedef struct npydt_rule_result {
    const char *path;           /* the field path as the text keys it */
    size_t path_len;
    const char *rule;           /* "min", "sorted", ... */
    const char *expected;       /* the rule's value as the text writes it: "-180.0" */
    size_t expected_len;
    size_t offset;              /* of the rule's key in the text */
    uint64_t violations;        /* elements that break it */
    size_t nfirst;              /* min(violations, NPYDT_RULES_FIRST) */
    /* The first of them: the index of each among the field's elements in
     * C order (a[path].ravel() in NumPy: record i, element k of an
     * n-element subarray is i * n + k), and its value as text. */
    uint64_t first[NPYDT_RULES_FIRST];
    char values[NPYDT_RULES_FIRST][NPYDT_RULES_VALUE_MAX];
} npydt_rule_result;

/* A fresh check of rules (placed: compiled with a dtype) in *out. */
NPYDT_API npydt_status npydt_rules_check_new(const npydt_rules *rules, npydt_rules_check **out,
                                             npydt_error *err);
/* Check the next n records at `records` (contiguous, the dtype's itemsize
 * apart, next in C order). Memory stays what the check was created with,
 * but for 'unique' rules (bounded by max_unique_bytes: NPYDT_E_LIMIT past
 * it, naming the field). */
NPYDT_API npydt_status npydt_rules_check_add(npydt_rules_check *c, const void *records,
                                             uint64_t n, npydt_error *err);
/* Check every element r gives from here on, in C order
 * (npydt_reader_next_c). */
NPYDT_API npydt_status npydt_rules_check_reader(npydt_rules_check *c, npydt_reader *r,
                                                npydt_error *err);
/* Rule i's result so far (NULL when i is out of range). */
NPYDT_API const npydt_rule_result *npydt_rules_check_result(const npydt_rules_check *c,
                                                            size_t i);
/* Violations of all rules so far: 0 when the values pass. */
NPYDT_API uint64_t npydt_rules_check_violations(const npydt_rules_check *c);
/* Release a check; NULL is a no-op. */
NPYDT_API void npydt_rules_check_free(npydt_rules_check *c);

/* ------------------------------------------------------------------ */
/* C declarations of record types                                      */
/* ------------------------------------------------------------------ */

/* A C translation unit being written: the C11 (and C++11) declarations
 * of one or more record types, the text `npydt cstruct` prints. Each type
 * gets one struct per nested struct (declared before use), arrays for
 * subarrays, explicit padding members, packing where NumPy's layout is
 * not the natural C one, static_asserts on every offset and the size,
 * ROOT_H and ROOT_ITEMSIZE macros, and a comment per member (NumPy type,
 * byte order). Text past 1 MiB is held in an unnamed temporary file. */
typedef struct npydt_cstruct npydt_cstruct;

/* Where a dtype came from, for the comment heading its declarations. */
typedef struct npydt_cstruct_source {
    const char *label;          /* the input's name (a path, ARCHIVE:MEMBER) */
    const npydt_header *header; /* its header (shape, order, data offset), or
                                 * NULL for a bare descriptor */
    int member;                 /* nonzero: header is an archive member's */
} npydt_cstruct_source;

/* Start an empty unit in *out; opts gives the allocator (NULL: libc).
 * Release it with npydt_cstruct_free. */
NPYDT_API npydt_status npydt_cstruct_create(const npydt_options *opts, npydt_cstruct **out,
                                            npydt_error *err);
/* Add the declarations of dt with root struct tag `tag`. source may be
 * NULL (a descriptor). NPYDT_E_NAME when npydt_cstruct_tag_ok refuses
 * tag or an identifier the declarations need was declared by an earlier
 * add; NPYDT_E_OBJECT for object fields (no C layout), NPYDT_E_VALUE for
 * overlapping fields, NPYDT_E_LIMIT past 512 levels of nesting (err's path
 * names the field); NPYDT_E_NOMEM, NPYDT_E_IO (the temporary file). */
NPYDT_API npydt_status npydt_cstruct_add(npydt_cstruct *u, const npydt_dtype *dt, const char *tag,
                                         const npydt_cstruct_source *source, npydt_error *err);
/* As npydt_cstruct_add for an archive member: the root tag is
 * PREFIX_STEM (STEM the member name without ".npy", every character that
 * cannot be in a C identifier as '_'), with _2, _3, ... appended until no
 * identifier it declares clashes with the unit's. */
NPYDT_API npydt_status npydt_cstruct_add_member(npydt_cstruct *u, const npydt_dtype *dt,
                                                const char *prefix, const char *member,
                                                const npydt_cstruct_source *source,
                                                npydt_error *err);
/* Hand the unit's whole text to put, in pieces and in order (a blank line
 * between two types). NPYDT_E_IO when the temporary file cannot be
 * written or read back. */
NPYDT_API npydt_status npydt_cstruct_write(npydt_cstruct *u,
                                           void (*put)(void *ctx, const char *s, size_t n),
                                           void *ctx, npydt_error *err);
/* Release a unit; NULL is a no-op. */
NPYDT_API void npydt_cstruct_free(npydt_cstruct *u);
/* True when name can be a root struct tag: a C identifier that is not a
 * keyword of C or C++, not reserved (a leading "__" or "_X") and not a
 * macro of the headers the declarations include. */
NPYDT_API int npydt_cstruct_tag_ok(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* NPYDT_H */

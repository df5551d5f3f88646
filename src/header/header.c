/* The file front end: preamble, header dict, shape and data size. */
#include "header/header.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The bytes one read takes from the start of a file: its preamble and, in
 * the usual case, its whole header. */
#define HEAD ((size_t)NPYDT_VERIFY_HEAD_BYTES)

struct npydt_header {
    struct arena arena;
    int major, minor;
    uint32_t header_len;
    uint64_t data_offset;
    bool fortran_order;
    size_t ndim;
    uint64_t *shape;
    uint64_t count;
    uint64_t data_bytes;
    const npydt_dtype *dtype;
};

/* ---- headers --------------------------------------------------------------- */

/* NumPy's rule: a zero dimension makes the array empty whatever the others
 * say, and itemsize times the nonzero dimensions must fit an intp. */
static npydt_status finish_sizes(struct npydt_header *h, npydt_error *err)
{
    uint64_t count = 1, bytes = h->dtype->itemsize, end;
    bool empty = false;
    for (size_t i = 0; i < h->ndim; i++)
        empty |= h->shape[i] == 0;
    for (size_t i = 0; i < h->ndim; i++) {
        if (h->shape[i] == 0)
            continue;
        if (!ck_mul(bytes, h->shape[i], &bytes) || bytes > (uint64_t)INT64_MAX)
            return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                             "data size (count * itemsize) overflows 64 bits");
        if (!ck_mul(count, h->shape[i], &count) || count > (uint64_t)INT64_MAX)
            return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                             "element count of the shape overflows 64 bits");
    }
    if (empty)
        count = bytes = 0;
    if (!ck_add(bytes, h->data_offset, &end) || end > (uint64_t)INT64_MAX)
        return set_error(err, NPYDT_E_OVERFLOW, NPYDT_NO_OFFSET, NULL,
                         "data size (count * itemsize) overflows 64 bits");
    h->count = count;
    h->data_bytes = bytes;
    return NPYDT_OK;
}

/* The literal grammar, then the meaning of the dict it read. */
static npydt_status parse_header_literal(struct npydt_header *h, struct dtype_ctx *c,
                                         const char *text, size_t len, const npydt_dtype **dt)
{
    struct lit *d;
    npydt_status st = lit_parse_text(&h->arena, c->scratch, text, len, h->major,
                                     LIT_ROOT_HEADER, c->limits, c->err, &d);
    if (st != NPYDT_OK)
        return st;
    struct header_dict vals;
    if ((st = header_dict_read(c, d, HEADER_DICT_FILE, &vals)) != NPYDT_OK)
        return st;
    h->fortran_order = vals.fortran_order;
    h->ndim = vals.ndim;
    h->shape = vals.shape;
    *dt = vals.dtype;
    return NPYDT_OK;
}

/* The dtype and shape of the header text, with its leaf table. */
static npydt_status parse_header_dtype(struct npydt_header *h, struct dtype_ctx *c,
                                       const char *text, size_t len)
{
    const npydt_dtype *dt;
    npydt_status st = parse_header_literal(h, c, text, len, &dt);
    if (st != NPYDT_OK)
        return st;
    npydt_dtype *root;
    if ((st = dtype_make_root(c, dt, NULL, &root)) != NPYDT_OK)
        return st;
    h->dtype = root;
    return NPYDT_OK;
}

static npydt_status parse_header_text(struct npydt_header *h, const char *text, size_t len,
                                      const npydt_limits *lim, npydt_error *err)
{
    /* scratch holds what the result does not keep: a short header's
     * fits on the stack */
    _Alignas(16) unsigned char room[SCRATCH_ROOM];
    struct arena scratch;
    arena_init_buffer(&scratch, h->arena.alloc, room, sizeof room);
    if (h->arena.budget)
        arena_budget_attach(&scratch, h->arena.budget);
    arena_expect_nodes(&scratch, len);
    struct dtype_ctx c;
    dtype_ctx_init(&c, &h->arena, &scratch, lim, err);
    npydt_status st = parse_header_dtype(h, &c, text, len);
    arena_release(&scratch);
    if (st != NPYDT_OK)
        return st;
    return finish_sizes(h, err);
}

/* The header whose preamble says major, hlen and hstart, its text in
 * b[hstart .. hstart + hlen), opts checked: the parse after the checks
 * of npydt_header_parse (which parse_from_head has made). */
static inline __attribute__((always_inline)) npydt_status
parse_checked(const unsigned char *b, int major, uint32_t hlen, size_t hstart,
              const npydt_options *opts, npydt_header **out, npydt_error *err)
{
    struct arena_budget budget;
    arena_budget_init(&budget, opts->limits.max_alloc_bytes);
    struct arena ar;
    arena_init(&ar, opts->allocator);
    arena_budget_attach(&ar, &budget);
    arena_expect(&ar, hlen);
    struct npydt_header *h = arena_alloc(&ar, sizeof *h);
    if (!h) {
        arena_release(&ar);
        set_nomem(err);
        pool_explain_nomem(opts->allocator, err);
        return arena_budget_explain(&budget, NPYDT_E_NOMEM, err);
    }
    /* from here on every allocation goes through h->arena, which holds h */
    h->arena = ar;
    h->major = major;
    h->minor = 0;
    h->header_len = hlen;
    h->data_offset = hstart + hlen;
    npydt_status st = parse_header_text(h, (const char *)b + hstart, hlen, &opts->limits, err);
    if (st != NPYDT_OK) {
        ar = h->arena;
        arena_release(&ar);
        pool_explain_nomem(opts->allocator, err);
        return arena_budget_explain(&budget, st, err);
    }
    arena_budget_detach(&h->arena);   /* budget ends with this call */
    *out = h;
    return NPYDT_OK;
}

npydt_status npydt_header_parse(const void *buf, size_t len, const npydt_options *opts,
                                npydt_header **out, npydt_error *err)
{
    error_clear(err);
    npydt_options defaults;
    opts = options_or_default(opts, &defaults);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!buf && len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "buf is NULL");
    npydt_status st = options_check(opts, err);
    if (st != NPYDT_OK)
        return st;
    const unsigned char *b = buf;
    int major;
    uint32_t hlen;
    size_t hstart;
    if ((st = header_preamble_read(b, len, &opts->limits, &major, &hlen, &hstart, err)) != NPYDT_OK)
        return st;
    if (len - hstart < hlen)
        return set_error(err, NPYDT_E_TRUNCATED, len - hstart, NULL,
                         "header length is %u bytes but only %zu of them are present: the "
                         "header needs %llu bytes from the start, %zu given", hlen,
                         len - hstart, (unsigned long long)hstart + hlen, len);
    return parse_checked(b, major, hlen, hstart, opts, out, err);
}

npydt_status npydt_header_check_data(const npydt_header *h, uint64_t available, npydt_error *err)
{
    error_clear(err);
    /* object arrays hold a pickle, whose length has nothing to do with
     * count * itemsize */
    if (h->dtype->has_object)
        return NPYDT_OK;
    if (available < h->data_bytes)
        return set_error(err, NPYDT_E_DATA, NPYDT_NO_OFFSET, NULL,
                         "the data needs %llu bytes (count %llu * itemsize %llu) but %llu are present",
                         (unsigned long long)h->data_bytes, (unsigned long long)h->count,
                         (unsigned long long)h->dtype->itemsize, (unsigned long long)available);
    return NPYDT_OK;
}

npydt_status npydt_parse_buffer(const void *buf, size_t len, const npydt_options *opts,
                                npydt_header **out, npydt_error *err)
{
    error_clear(err);
    npydt_status st = npydt_header_parse(buf, len, opts, out, err);
    if (st != NPYDT_OK)
        return st;
    st = npydt_header_check_data(*out, len - (*out)->data_offset, err);
    if (st != NPYDT_OK) {
        npydt_header_free(*out);
        *out = NULL;
    }
    return st;
}

/* The parse from the file's first got bytes (first: at least min(fsize,
 * HEAD) of them, as they were read at offset 0) and its size fsize: a
 * second pread only for a header that does not fit in them. */
static npydt_status parse_from_head(int fd, uint64_t fsize, const unsigned char *first,
                                    size_t got, const npydt_options *opts, npydt_header **out,
                                    uint64_t *size, npydt_error *err)
{
    int major;
    uint32_t hlen;
    size_t hstart;
    npydt_status st;
    if ((st = options_check(opts, err)) != NPYDT_OK ||
        (st = header_preamble_read(first, got < 12 ? got : 12, &opts->limits, &major, &hlen,
                                   &hstart, err)) != NPYDT_OK)
        return st;
    /* never allocate more than the file holds */
    size_t want = hstart + hlen;
    if (fsize < want)
        return set_error(err, NPYDT_E_TRUNCATED, fsize > hstart ? fsize - hstart : 0, NULL,
                         "header length is %u bytes but only %llu of them are present: the "
                         "header needs %zu bytes from the start, the file holds %llu", hlen,
                         (unsigned long long)(fsize > hstart ? fsize - hstart : 0), want,
                         (unsigned long long)fsize);
    if (want <= got) {
        st = parse_checked(first, major, hlen, hstart, opts, out, err);
    } else {
        unsigned char *buf = alloc_bytes(opts->allocator, want);
        if (!buf) {
            set_nomem(err);
            pool_explain_nomem(opts->allocator, err);
            return NPYDT_E_NOMEM;
        }
        st = io_pread(fd, buf, want, 0, &got, err);
        if (st == NPYDT_OK && got < want)
            st = set_error(err, NPYDT_E_TRUNCATED, got > hstart ? got - hstart : 0, NULL,
                           "file shrank while reading the header");
        if (st == NPYDT_OK)   /* the preamble read again: the file may have changed */
            st = npydt_header_parse(buf, want, opts, out, err);
        free_bytes(opts->allocator, buf, want);
    }
    if (st != NPYDT_OK)
        return st;
    st = npydt_header_check_data(*out, fsize - (*out)->data_offset, err);
    if (st != NPYDT_OK) {
        npydt_header_free(*out);
        *out = NULL;
    } else if (size) {
        *size = fsize;
    }
    return st;
}

/* The first min(fsize, HEAD) bytes of fd into first, their count in *got. */
static npydt_status read_head(int fd, uint64_t fsize, unsigned char first[HEAD], size_t *got,
                              npydt_error *err)
{
    size_t want = fsize < HEAD ? (size_t)fsize : HEAD;
    npydt_status st = io_pread(fd, first, want, 0, got, err);
    /* fewer bytes than fstat promised: parsing them against that size
     * would judge a file that is no longer there */
    if (st == NPYDT_OK && *got < want)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "the file shrank while it was read");
    return st;
}

npydt_status header_parse_fd(int fd, const npydt_options *opts, npydt_header **out,
                             uint64_t *size, npydt_error *err)
{
    error_clear(err);
    npydt_options defaults;
    opts = options_or_default(opts, &defaults);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    struct stat stt;
    if (fstat(fd, &stt) != 0)
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL, "cannot stat: %s",
                         TEXT_ERRNO(errno));
    if (!S_ISREG(stt.st_mode))
        return set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                         "not a regular file");
    uint64_t fsize = (uint64_t)stt.st_size;
    /* one read for the preamble and, in the usual case, the whole header
     * (np.save pads it to 64 bytes; most are under 4 KiB) */
    unsigned char first[HEAD];
    size_t got;
    npydt_status st = read_head(fd, fsize, first, &got, err);
    if (st != NPYDT_OK)
        return st;
    return parse_from_head(fd, fsize, first, got, opts, out, size, err);
}

npydt_status header_parse_head(int fd, uint64_t fsize, const void *head, size_t head_len,
                               const npydt_options *opts, npydt_header **out, npydt_error *err)
{
    error_clear(err);
    npydt_options defaults;
    opts = options_or_default(opts, &defaults);
    if (!out)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "out is NULL");
    *out = NULL;
    if (!head && head_len)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "head is NULL");
    if (head_len >= (fsize < HEAD ? fsize : HEAD))
        return parse_from_head(fd, fsize, head, head_len, opts, out, NULL, err);
    /* fewer bytes than one read takes: read them here */
    unsigned char first[HEAD];
    size_t got;
    npydt_status st = read_head(fd, fsize, first, &got, err);
    if (st != NPYDT_OK)
        return st;
    return parse_from_head(fd, fsize, first, got, opts, out, NULL, err);
}

npydt_status npydt_parse_fd(int fd, const npydt_options *opts, npydt_header **out,
                            npydt_error *err)
{
    return header_parse_fd(fd, opts, out, NULL, err);
}

npydt_status npydt_parse_path(const char *path, const npydt_options *opts, npydt_header **out,
                              npydt_error *err)
{
    error_clear(err);
    if (out)
        *out = NULL;
    int fd;
    npydt_status st = io_open(path, 0, &fd, err);
    if (st != NPYDT_OK)
        return st;
    st = npydt_parse_fd(fd, opts, out, err);
    close(fd);
    return st;
}

void npydt_header_free(npydt_header *h)
{
    if (!h)
        return;
    struct arena ar = h->arena;
    arena_release(&ar);
}

int npydt_header_version_major(const npydt_header *h) { return h->major; }
int npydt_header_version_minor(const npydt_header *h) { return h->minor; }
uint32_t npydt_header_len(const npydt_header *h) { return h->header_len; }
uint64_t npydt_header_data_offset(const npydt_header *h) { return h->data_offset; }
int npydt_header_fortran_order(const npydt_header *h) { return h->fortran_order; }
size_t npydt_header_ndim(const npydt_header *h) { return h->ndim; }
const uint64_t *npydt_header_shape(const npydt_header *h) { return h->ndim ? h->shape : NULL; }
uint64_t npydt_header_count(const npydt_header *h) { return h->count; }
uint64_t npydt_header_data_bytes(const npydt_header *h) { return h->data_bytes; }
const npydt_dtype *npydt_header_dtype(const npydt_header *h) { return h->dtype; }

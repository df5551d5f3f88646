/* A Fortran-order array of a file or of memory in C order, by bands.
 *
 * Size-1 axes set aside, call the first axis the rows (d0 of them, the
 * slowest in C order, the fastest in Fortran order) and the others a row
 * (m elements). The elements of a row's position j at rows [a, a + h)
 * are one contiguous run of h elements in the file, at element a + d0 * j'
 * (j' the position's Fortran-order index among a row's). A band is rows
 * [a, a + h) times the row positions [first, first + w): one run per
 * position, read (pread, or copied from memory) into a bounded buffer,
 * run after run, then given out in C order by a transpose. Only the
 * band's bytes are read, each once a band, and nothing of a mapping is
 * touched: what stays resident is the band (at most BAND_BYTES, or
 * window_bytes when smaller), whatever the size of the file.
 *
 * Whole rows make a band when one row fits (h = as many rows as fit, so
 * a tall array is a few long reads a band); a row larger than the buffer
 * is given in parts of one row (h = 1). Runs close to each other in the
 * file (gaps of at most GAP_BYTES: short rows, or bands of nearly every
 * row) are read together, up to STAGE_BYTES or GROUP_RUNS runs a read,
 * and copied out of the staging buffer; others are read one run each, so
 * the reads of a band are at most its runs (a row's positions) and far
 * fewer where runs are short. Bands start at multiples of h rows (and of
 * w positions), so rows read in any order reuse the band they fall in. */
#include "access/access.h"

#include <fcntl.h>
#include <unistd.h>

#define BAND_BYTES ((size_t)8 << 20)
#define STAGE_BYTES ((size_t)256 << 10)
#define GAP_BYTES ((uint64_t)4096)
#define GROUP_RUNS 4096u

struct band {
    uint64_t d0, m;      /* rows, and the elements of a row */
    uint64_t h, w;       /* a band's rows and row positions, at most */
    size_t q;            /* axes of a row (size-1 axes set aside) */
    uint64_t *size;      /* their sizes, */
    uint64_t *cstride;   /* C-order strides among a row's positions, */
    uint64_t *fstride;   /* Fortran-order strides, */
    uint64_t *index;     /* and a walk's multi-index */
    /* the band held: rows [row, row + rows) x positions [first, first + width) */
    int held;
    uint64_t row, rows, first, width;
    unsigned char *bytes;   /* rows * width elements: the run of position
                             * first + j at j * rows elements */
    size_t bytes_size;
    unsigned char *stage;   /* runs read together */
    size_t stage_size;
    uint64_t (*group)[2];   /* runs of a read: their offsets and slots */
    size_t group_n;
    uint64_t group_lo, group_hi;   /* file bytes the group spans */
};

void band_transpose(const unsigned char *band, size_t is, uint64_t h, uint64_t w,
                    uint64_t from, uint64_t k, unsigned char *out)
{
    uint64_t row = from / w, j = from % w;
    size_t stride = (size_t)h * is;
    while (k > 0) {
        uint64_t n = w - j < k ? w - j : k;
        const unsigned char *src = band + ((size_t)j * (size_t)h + (size_t)row) * is;
        /* a constant size where it is a common one: a load and a store */
        switch (is) {
        case 1:
            for (uint64_t i = 0; i < n; i++, src += stride, out += 1)
                *out = *src;
            break;
        case 2:
            for (uint64_t i = 0; i < n; i++, src += stride, out += 2)
                memcpy(out, src, 2);
            break;
        case 4:
            for (uint64_t i = 0; i < n; i++, src += stride, out += 4)
                memcpy(out, src, 4);
            break;
        case 8:
            for (uint64_t i = 0; i < n; i++, src += stride, out += 8)
                memcpy(out, src, 8);
            break;
        case 16:
            for (uint64_t i = 0; i < n; i++, src += stride, out += 16)
                memcpy(out, src, 16);
            break;
        default:
            for (uint64_t i = 0; i < n; i++, src += stride, out += is)
                memcpy(out, src, is);
            break;
        }
        k -= n;
        j = 0;
        row++;
    }
}

void band_free(npydt_reader *r)
{
    struct band *b = r->band;
    if (!b)
        return;
    size_t q = b->q ? b->q : 1;
    free_bytes(r->alloc, b->size, 4 * q * sizeof *b->size);
    free_bytes(r->alloc, b->bytes, b->bytes_size);
    free_bytes(r->alloc, b->stage, b->stage_size);
    free_bytes(r->alloc, b->group, GROUP_RUNS * sizeof *b->group);
    free_bytes(r->alloc, b, sizeof *b);
    r->band = NULL;
}

/* The geometry of r's bands, once. */
static npydt_status band_plan(npydt_reader *r, npydt_error *err)
{
    if (r->band)
        return NPYDT_OK;
    struct band *b = alloc_bytes(r->alloc, sizeof *b);
    if (!b)
        return set_nomem(err);
    memset(b, 0, sizeof *b);
    r->band = b;
    size_t nd = npydt_header_ndim(r->header), q = 0;
    const uint64_t *shape = npydt_header_shape(r->header);
    b->d0 = 0;
    for (size_t k = 0; k < nd; k++)
        if (shape[k] > 1)
            q++;
    q--;   /* at least two axes above 1: r->c_order is false */
    b->q = q;
    b->size = alloc_bytes(r->alloc, 4 * q * sizeof *b->size);
    b->group = alloc_bytes(r->alloc, GROUP_RUNS * sizeof *b->group);
    if (!b->size || !b->group) {
        band_free(r);   /* no half-made plan for the next call to take */
        return set_nomem(err);
    }
    b->cstride = b->size + q;
    b->fstride = b->cstride + q;
    b->index = b->fstride + q;
    size_t t = 0;
    for (size_t k = 0; k < nd; k++) {
        if (shape[k] <= 1)
            continue;
        if (!b->d0)
            b->d0 = shape[k];
        else
            b->size[t++] = shape[k];
    }
    b->m = r->count / b->d0;
    uint64_t s = 1;
    for (size_t k = 0; k < q; k++) {
        b->fstride[k] = s;
        s *= b->size[k];   /* at most the count */
    }
    s = 1;
    for (size_t k = q; k-- > 0;) {
        b->cstride[k] = s;
        s *= b->size[k];
    }
    size_t room = r->window_bytes < BAND_BYTES ? r->window_bytes : BAND_BYTES;
    uint64_t row_bytes = b->m * r->itemsize;   /* at most the data's size */
    if (row_bytes <= room) {
        b->w = b->m;
        b->h = room / row_bytes;
        if (b->h > b->d0)
            b->h = b->d0;
    } else {
        b->h = 1;
        b->w = room / r->itemsize ? room / r->itemsize : 1;
    }
    return NPYDT_OK;
}

/* Read the runs of the group (file bytes [group_lo, group_hi)) into the
 * band: one read, straight into its slot for a single run. */
static npydt_status group_flush(npydt_reader *r, struct band *b, size_t run, npydt_error *err)
{
    if (b->group_n == 0)
        return NPYDT_OK;
    size_t span = (size_t)(b->group_hi - b->group_lo), got;
    int one = b->group_n == 1;
    unsigned char *to = one ? b->bytes + (size_t)b->group[0][1] * run : b->stage;
    int fd = r->band_fd >= 0 ? r->band_fd : r->fd;
    npydt_status st = io_pread(fd, to, span, r->file_offset + b->group_lo, &got, err);
    if (st == NPYDT_OK && got < span)
        st = set_error(err, NPYDT_E_IO, NPYDT_NO_OFFSET, NULL,
                       "the file shrank while it was read");
    for (size_t g = 0; st == NPYDT_OK && !one && g < b->group_n; g++)
        memcpy(b->bytes + (size_t)b->group[g][1] * run,
               b->stage + (size_t)(b->group[g][0] - b->group_lo), run);
    b->group_n = 0;
    return st;
}

/* The run of `run` bytes at data byte off goes to slot: copied from the
 * bytes in place, else added to the group read next (read first when it
 * cannot join). */
static npydt_status band_run(npydt_reader *r, struct band *b, uint64_t off, uint64_t slot,
                             size_t run, npydt_error *err)
{
    if (r->band_fd < 0 && r->bytes) {
        memcpy(b->bytes + (size_t)slot * run, r->bytes + off, run);
        return NPYDT_OK;
    }
    npydt_status st = NPYDT_OK;
    if (b->group_n > 0 && (off < b->group_hi || off - b->group_hi > GAP_BYTES ||
                           off + run - b->group_lo > b->stage_size || b->group_n == GROUP_RUNS))
        st = group_flush(r, b, run, err);
    if (b->group_n == 0)
        b->group_lo = off;
    b->group[b->group_n][0] = off;
    b->group[b->group_n][1] = slot;
    b->group_n++;
    b->group_hi = off + run;
    return st;
}

/* Read the band of rows [row, ...) and positions [first, ...) into b. */
static npydt_status band_load(npydt_reader *r, struct band *b, uint64_t row, uint64_t first,
                              npydt_error *err)
{
    size_t is = r->itemsize;
    uint64_t rows = b->d0 - row < b->h ? b->d0 - row : b->h;
    uint64_t width = b->m - first < b->w ? b->m - first : b->w;
    size_t run = (size_t)rows * is;   /* rows * width * is: at most the room, or one element */
    npydt_status st;
    b->held = 0;
    if ((st = reader_room(r, &b->bytes, &b->bytes_size, run * (size_t)width, err)) != NPYDT_OK)
        return st;
    if ((r->band_fd >= 0 || !r->bytes) &&
        (st = reader_room(r, &b->stage, &b->stage_size,
                          (size_t)(r->window_bytes < STAGE_BYTES ? r->window_bytes : STAGE_BYTES),
                          err)) != NPYDT_OK)
        return st;
    b->group_n = 0;
    size_t q = b->q;
    if (width == b->m) {
        /* whole rows: positions in Fortran order, the order of the file;
         * the slot is the position's C-order index */
        memset(b->index, 0, q * sizeof *b->index);
        uint64_t slot = 0;
        for (uint64_t j = 0; j < width && st == NPYDT_OK; j++) {
            st = band_run(r, b, (row + b->d0 * j) * is, slot, run, err);
            size_t t = 0;
            b->index[0]++;
            slot += b->cstride[0];
            while (t + 1 < q && b->index[t] == b->size[t]) {
                slot -= b->size[t] * b->cstride[t];
                b->index[t++] = 0;
                b->index[t]++;
                slot += b->cstride[t];
            }
        }
    } else {
        /* part of one row: positions in C order, each at its Fortran index */
        uint64_t rest = first, f = 0;
        for (size_t t = q; t-- > 0;) {
            b->index[t] = rest % b->size[t];
            rest /= b->size[t];
            f += b->index[t] * b->fstride[t];
        }
        for (uint64_t j = 0; j < width && st == NPYDT_OK; j++) {
            st = band_run(r, b, (row + b->d0 * f) * is, j, run, err);
            size_t t = q - 1;
            b->index[t]++;
            f += b->fstride[t];
            while (t > 0 && b->index[t] == b->size[t]) {
                f -= b->size[t] * b->fstride[t];
                b->index[t--] = 0;
                b->index[t]++;
                f += b->fstride[t];
            }
        }
    }
    if (st == NPYDT_OK)
        st = group_flush(r, b, run, err);
    if (st != NPYDT_OK)
        return st;
    b->held = 1;
    b->row = row;
    b->rows = rows;
    b->first = first;
    b->width = width;
    return NPYDT_OK;
}

npydt_status band_next(npydt_reader *r, uint64_t k, const unsigned char **out, uint64_t *n,
                       npydt_error *err)
{
    npydt_status st = band_plan(r, err);
    if (st != NPYDT_OK)
        return st;
    struct band *b = r->band;
    size_t is = r->itemsize;
    if (r->writable)
        b->held = 0;   /* the bytes may have been stored to since */
    /* as many as asked for (within chunk_bytes), across bands: batches do
     * not depend on where bands end */
    k = reader_records_in(r, r->chunk_bytes, k);
    if ((st = reader_room(r, &r->window, &r->window_size, (size_t)k * is, err)) != NPYDT_OK)
        return st;
    for (uint64_t done = 0, at = r->next; done < k;) {
        uint64_t row = at / b->m, pos = at % b->m;
        if ((!b->held || row < b->row || row >= b->row + b->rows || pos < b->first ||
             pos >= b->first + b->width) &&
            (st = band_load(r, b, row / b->h * b->h, pos / b->w * b->w, err)) != NPYDT_OK)
            return st;
        uint64_t from = (row - b->row) * b->width + (pos - b->first);
        uint64_t take = b->rows * b->width - from;
        if (take > k - done)
            take = k - done;
        band_transpose(b->bytes, is, b->rows, b->width, from, take, r->window + done * is);
        done += take;
        at += take;
    }
    *out = r->window;
    *n = k;
    return NPYDT_OK;
}

int band_descriptor(int fd)
{
    return fcntl(fd, F_DUPFD_CLOEXEC, 0);
}

/* Harness 5: allocation failure. The first input byte chooses the entry
 * point (its low 7 bits modulo the number of entries) and the mode (its
 * high bit: fail once / fail from then on), the next two which allocation
 * fails; the rest is the entry point's input.
 *
 * A reference run with a counting allocator that never fails gives the
 * number of allocations A and the status S. With allocation N = k mod
 * (A + 1) failing, the call must return NPYDT_E_NOMEM with a NULL result
 * when N < A (the failing allocation is reached: nothing recovers from
 * one), and S again when N == A. Every run ends with zero live blocks
 * once the result is freed. Every run also stays within the memory bound
 * the library promises for its input. */
#include "fuzz_util.h"

/* One entry point: parse with opts, leaving a result to free in *out. */
struct entry {
    const char *name;
    npydt_status (*run)(const uint8_t *data, size_t size, const npydt_options *opts,
                        void **out, npydt_error *err);
    void (*release)(void *out);
};

static npydt_status run_parse_buffer(const uint8_t *data, size_t size, const npydt_options *opts,
                                     void **out, npydt_error *err)
{
    npydt_header *h = (npydt_header *)out;
    npydt_status st = npydt_parse_buffer(data, size, opts, &h, err);
    *out = h;
    return st;
}

static npydt_status run_header_parse(const uint8_t *data, size_t size, const npydt_options *opts,
                                     void **out, npydt_error *err)
{
    npydt_header *h = (npydt_header *)out;
    npydt_status st = npydt_header_parse(data, size, opts, &h, err);
    *out = h;
    return st;
}

static npydt_status run_literal(const uint8_t *data, size_t size, const npydt_options *opts,
                                void **out, npydt_error *err)
{
    npydt_dtype *dt = (npydt_dtype *)out;
    npydt_status st = npydt_header_parse_descr((const char *)data, size, opts, &dt, err);
    *out = dt;
    return st;
}

static npydt_status run_typestr(const uint8_t *data, size_t size, const npydt_options *opts,
                                void **out, npydt_error *err)
{
    npydt_dtype *dt = (npydt_dtype *)out;
    npydt_status st = npydt_dtype_parse_typestr((const char *)data, size, opts, &dt, err);
    *out = dt;
    return st;
}

static void release_header(void *p) { npydt_header_free(p); }
static void release_dtype(void *p) { npydt_dtype_free(p); }

/* Entry points that take a dtype: the input is parsed as a descriptor
 * literal with libc first (not counted), then the call runs with opts. */
struct with_dtype {
    npydt_dtype *dt;
    void *result;
    void (*release)(void *);
};

static npydt_dtype *input_dtype(const uint8_t *data, size_t size)
{
    npydt_dtype *dt = NULL;
    if (npydt_header_parse_descr((const char *)data, size, NULL, &dt, NULL) != NPYDT_OK)
        return NULL;
    return dt;
}

static void release_with_dtype(void *p)
{
    struct with_dtype *w = p;
    if (!w)
        return;
    w->release(w->result);
    npydt_dtype_free(w->dt);
    free(w);
}

static void release_plan(void *p) { npydt_swap_plan_free(p); }

/* An input that is not a descriptor still runs the call, on a fixed one. */
static const char fallback_descr[] = "[('a', '>i4'), ('b', '<c16', (2,)), ('c', 'S3')]";

static npydt_status run_on_dtype(const uint8_t *data, size_t size, const npydt_options *opts,
                                 void **out, npydt_error *err, int which)
{
    struct with_dtype *w = malloc(sizeof *w);
    FUZZ_CHECK(w != NULL);
    w->dt = input_dtype(data, size);
    if (!w->dt)
        w->dt = input_dtype((const uint8_t *)fallback_descr, sizeof fallback_descr - 1);
    FUZZ_CHECK(w->dt != NULL);
    npydt_status st;
    if (which == 0) {
        npydt_swap_plan *plan = (npydt_swap_plan *)out;
        st = npydt_swap_plan_new(w->dt, opts, &plan, err);
        w->result = plan;
        w->release = release_plan;
    } else {
        npydt_dtype *swapped = (npydt_dtype *)out;
        st = npydt_dtype_newbyteorder(w->dt, NPYDT_ORDER_SWAP, opts, &swapped, err);
        w->result = swapped;
        w->release = release_dtype;
    }
    if (st != NPYDT_OK) {
        FUZZ_CHECK(w->result == NULL);
        npydt_dtype_free(w->dt);
        free(w);
        *out = NULL;
        return st;
    }
    *out = w;
    return st;
}

static npydt_status run_swap_plan(const uint8_t *data, size_t size, const npydt_options *opts,
                                  void **out, npydt_error *err)
{
    return run_on_dtype(data, size, opts, out, err, 0);
}

static npydt_status run_newbyteorder(const uint8_t *data, size_t size, const npydt_options *opts,
                                     void **out, npydt_error *err)
{
    return run_on_dtype(data, size, opts, out, err, 1);
}

static npydt_status run_schema_compile(const uint8_t *data, size_t size,
                                       const npydt_options *opts, void **out, npydt_error *err)
{
    npydt_schema *s = (npydt_schema *)out;
    npydt_status st = npydt_schema_compile((const char *)data, size, opts, &s, err);
    *out = s;
    return st;
}

static void release_schema(void *p) { npydt_schema_free(p); }

static npydt_status run_reader_open_buffer(const uint8_t *data, size_t size,
                                           const npydt_options *opts, void **out,
                                           npydt_error *err)
{
    npydt_reader_options ro;
    npydt_reader_options_init(&ro);
    ro.base = *opts;
    ro.in_memory = 1;
    npydt_reader *r = (npydt_reader *)out;
    npydt_status st = npydt_reader_open_buffer(data, size, &ro, &r, err);
    *out = r;
    return st;
}

static void release_reader(void *p) { npydt_reader_close(p); }

static npydt_status run_npz_open(const uint8_t *data, size_t size, const npydt_options *opts,
                                 void **out, npydt_error *err)
{
    npydt_npz_options zo;
    npydt_npz_options_init(&zo);
    zo.base = *opts;
    npydt_npz *z = (npydt_npz *)out;
    npydt_status st = npydt_npz_open_buffer(data, size, &zo, &z, err);
    *out = z;
    return st;
}

static void release_npz(void *p) { npydt_npz_close(p); }

/* Layers add their entry points at the end (the first byte of existing
 * inputs keeps choosing the same entry). */
static const struct entry entries[] = {
    {"parse_buffer", run_parse_buffer, release_header},
    {"header_parse", run_header_parse, release_header},
    {"dtype_parse_literal", run_literal, release_dtype},
    {"dtype_parse_typestr", run_typestr, release_dtype},
    {"swap_plan_new", run_swap_plan, release_with_dtype},
    {"dtype_newbyteorder", run_newbyteorder, release_with_dtype},
    {"schema_compile", run_schema_compile, release_schema},
    {"reader_open_buffer", run_reader_open_buffer, release_reader},
    {"npz_open_buffer", run_npz_open, release_npz},
};
#define NENTRIES (sizeof entries / sizeof entries[0])

/* Bytes a parse may hold at its peak, per input byte, plus a constant
 * (the first arena chunk and the parser stack). Measured worst cases are
 * in README.md ("Limits"); this bound has a margin over them. */
#define MEM_PER_BYTE 512u
#define MEM_CONSTANT 65536u
/* A swap plan unrolls small subarrays of structs, up to fixed caps
 * (src/records/swap.c: 65,536 ops and 65,536 windows per list): a few bytes of
 * descriptor may compile into a plan of some megabytes, but never more. */
#define SWAP_PLAN_CONSTANT ((size_t)32 << 20)

struct run {
    npydt_status st;
    long calls;
};

static struct run run_once(const struct entry *e, const uint8_t *data, size_t size, long fail_at,
                           int forever)
{
    struct fuzz_alloc a;
    fuzz_alloc_init(&a, fail_at, forever);
    npydt_options opts;
    npydt_options_init(&opts);
    opts.allocator = &a.alloc;
    void *out = NULL;
    npydt_error err;
    fuzz_poison_error(&err);
    npydt_status st = e->run(data, size, &opts, &out, &err);
    if (st != NPYDT_OK) {
        FUZZ_CHECK(out == NULL);
        fuzz_check_error(st, &err, size);
    } else {
        FUZZ_CHECK(out != NULL);
    }
    size_t constant = strcmp(e->name, "swap_plan_new") == 0 ? SWAP_PLAN_CONSTANT : MEM_CONSTANT;
    if (a.peak_bytes > (size_t)MEM_PER_BYTE * size + constant) {
        fprintf(stderr, "%s: peak %zu bytes for %zu input bytes\n", e->name, a.peak_bytes, size);
        FUZZ_CHECK(!"memory bound");
    }
    e->release(out);
    FUZZ_CHECK(a.live_blocks == 0 && a.live_bytes == 0);
    return (struct run){st, a.calls};
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    const struct entry *e = &entries[(data[0] & 0x7f) % NENTRIES];
    int forever = data[0] >> 7;
    long k = (long)data[1] | (long)data[2] << 8;
    data += 3;
    size -= 3;
    struct run ref = run_once(e, data, size, -1, 0);
    long n = k % (ref.calls + 1);
    struct run r = run_once(e, data, size, n, forever);
    if (n < ref.calls)
        FUZZ_CHECK(r.st == NPYDT_E_NOMEM);
    else
        FUZZ_CHECK(r.st == ref.st && r.calls == ref.calls);
    return 0;
}

/* The Arrow export in the library, next to a read-only pass over the same
 * bytes: the file is opened once (an npydt_reader, mapped) and each
 * round makes every record batch of a stream over it (the default
 * options, or one batch of all rows with -1) and releases it, and reads
 * every 8 bytes of the same data once.
 *
 *   arrow_export [-1] FILE [ROUNDS]
 *
 * With ROUNDS (at least 1), prints the median CPU time of each and of the
 * per-round ratio (export time / read-only time), and of a memcpy of the
 * same bytes into a buffer of a batch's size (what moving them costs in
 * their own order); without, does one export and one read-only pass,
 * for callgrind to count the instructions
 * of each function: export_pass and read_pass (never inlined). */
#include "npydt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_ROUNDS 64

/* CPU time of the process (one thread): what a loaded machine's other
 * work does not add to. */
static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "arrow_export: %s: %s\n", what, msg ? msg : "");
    exit(1);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static volatile unsigned long long sink;

/* The bytes of a batch's columns: what copy_pass copies into, in turn. */
#define COPY_CHUNK ((size_t)256 << 10)
static unsigned char copy_buf[COPY_CHUNK];

static void read_pass(const unsigned char *p, size_t len);
static void copy_pass(const unsigned char *p, size_t len);
static uint64_t export_pass(npydt_reader *r, const npydt_arrow_options *o);
/* called through these, never inlined: callgrind counts them by name */
static void (*volatile read_only)(const unsigned char *, size_t) = read_pass;
static void (*volatile copy_only)(const unsigned char *, size_t) = copy_pass;
static uint64_t (*volatile export_all)(npydt_reader *, const npydt_arrow_options *) =
    export_pass;

/* Every byte copied once (memcpy) into a buffer of a batch's size, chunk
 * after chunk: what moving the bytes costs at least, whatever their
 * order. */
static void copy_pass(const unsigned char *p, size_t len)
{
    for (size_t at = 0; at < len; at += COPY_CHUNK) {
        size_t n = len - at < COPY_CHUNK ? len - at : COPY_CHUNK;
        memcpy(copy_buf, p + at, n);
        sink += copy_buf[n - 1];
    }
}

static void read_pass(const unsigned char *p, size_t len)
{
    unsigned long long s[4] = {0, 0, 0, 0};
    size_t i = 0;
    for (; i + 32 <= len; i += 32)
        for (int k = 0; k < 4; k++) {
            unsigned long long v;
            memcpy(&v, p + i + 8 * k, 8);
            s[k] += v;
        }
    for (; i < len; i++)
        s[0] += p[i];
    sink = s[0] ^ s[1] ^ s[2] ^ s[3];
}

/* Every batch of a stream over r, made and released: the rows. */
static uint64_t export_pass(npydt_reader *r, const npydt_arrow_options *o)
{
    struct ArrowArrayStream s;
    npydt_error err;
    if (npydt_arrow_stream_open(r, o, &s, &err) != NPYDT_OK)
        die("stream", err.message);
    uint64_t rows = 0;
    for (;;) {
        struct ArrowArray a;
        if (s.get_next(&s, &a) != 0)
            die("get_next", s.get_last_error(&s));
        if (!a.release)
            break;
        rows += (uint64_t)a.length;
        a.release(&a);
    }
    s.release(&s);
    return rows;
}

int main(int argc, char **argv)
{
    int one = argc > 1 && strcmp(argv[1], "-1") == 0;
    if (argc - one < 2) {
        fprintf(stderr, "usage: arrow_export [-1] FILE [ROUNDS]\n");
        return 2;
    }
    const char *path = argv[1 + one];
    int rounds = argc - one > 2 ? atoi(argv[2 + one]) : 0;
    if (rounds < 0 || rounds > MAX_ROUNDS)
        rounds = 9;
    npydt_error err;
    npydt_reader *r;
    if (npydt_reader_open_path(path, NULL, &r, &err) != NPYDT_OK)
        die(path, err.message);
    const unsigned char *bytes = npydt_reader_bytes(r);
    if (!bytes || !npydt_reader_is_mapped(r))
        die(path, "the file is not mapped");
    size_t len = (size_t)npydt_header_data_bytes(npydt_reader_header(r));
    npydt_arrow_options o;
    npydt_arrow_options_init(&o);
    if (one)
        o.batch_bytes = SIZE_MAX / 2;   /* one batch of every row */
    if (rounds == 0) {
        read_only(bytes, len);
        printf("%llu rows\n", (unsigned long long)export_all(r, &o));
        npydt_reader_close(r);
        return 0;
    }
    double tr[MAX_ROUNDS], te[MAX_ROUNDS], tc[MAX_ROUNDS], ratio[MAX_ROUNDS],
        cratio[MAX_ROUNDS];
    for (int i = 0; i <= rounds; i++) {   /* round 0 warms up, not counted */
        double t0 = now_ns();
        read_only(bytes, len);
        double t1 = now_ns();
        export_all(r, &o);
        double t2 = now_ns();
        copy_only(bytes, len);
        double t3 = now_ns();
        if (i > 0) {
            tr[i - 1] = t1 - t0;
            te[i - 1] = t2 - t1;
            tc[i - 1] = t3 - t2;
            ratio[i - 1] = (t2 - t1) / (t1 - t0);
            cratio[i - 1] = (t3 - t2) / (t1 - t0);
        }
    }
    double mr = median(tr, rounds), me = median(te, rounds), mc = median(tc, rounds);
    double mratio = median(ratio, rounds), mcratio = median(cratio, rounds);
    printf("  median CPU time of %d rounds over %zu bytes in place:\n", rounds, len);
    printf("    read-only pass (C)      %8.2f ms  %7.0f MB/s\n", mr / 1e6, len / (mr / 1e3));
    printf("    Arrow export, all rows  %8.2f ms  %7.0f MB/s\n", me / 1e6, len / (me / 1e3));
    printf("    memcpy, 256 KiB chunks  %8.2f ms  %7.0f MB/s\n", mc / 1e6, len / (mc / 1e3));
    printf("    CPU ratio export / read-only %.2fx (target <= 1.3x)\n", mratio);
    printf("    CPU ratio memcpy / read-only %.2fx (for information: the bytes moved "
           "in order)\n", mcratio);
    npydt_reader_close(r);
    return 0;
}

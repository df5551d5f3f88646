/* `npydt check --rules` in the library, next to a read-only pass over
 * the same bytes: the file is opened once (an npydt_reader, mapped); in
 * each round the compiled rules check every element
 * (npydt_rules_check_reader, the command's path) and a plain loop reads
 * every 8 bytes of the same data once. Prints the median CPU time of each
 * and of the per-round ratio (read-only time / rules time: a throughput
 * ratio).
 *
 *   rules_bench FILE RULES [ROUNDS] */
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

static void die(const char *what, const npydt_error *err)
{
    fprintf(stderr, "rules_bench: %s: %s\n", what, err ? err->message : "");
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

static void read_pass(const unsigned char *p, size_t len);
/* called through this, never inlined: callgrind counts it by its name */
static void (*volatile read_only)(const unsigned char *, size_t) = read_pass;

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

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: rules_bench FILE RULES [ROUNDS]\n");
        return 2;
    }
    int rounds = argc > 3 ? atoi(argv[3]) : 9;
    if (rounds < 1 || rounds > MAX_ROUNDS)
        rounds = 9;
    npydt_error err;
    npydt_reader *r;
    if (npydt_reader_open_path(argv[1], NULL, &r, &err) != NPYDT_OK)
        die(argv[1], &err);
    const unsigned char *bytes = npydt_reader_bytes(r);
    if (!bytes)
        die("the file is not mapped", NULL);
    const npydt_header *h = npydt_reader_header(r);
    size_t len = (size_t)npydt_header_data_bytes(h);
    npydt_rules *rules;
    if (npydt_rules_compile(argv[2], strlen(argv[2]), npydt_header_dtype(h), NULL, &rules, &err) !=
        NPYDT_OK)
        die("rules", &err);
    double tr[MAX_ROUNDS], tc[MAX_ROUNDS], ratio[MAX_ROUNDS];
    uint64_t violations = 0;
    for (int i = 0; i <= rounds; i++) {   /* round 0 warms up, not counted */
        double t0 = now_ns();
        read_only(bytes, len);
        double t1 = now_ns();
        npydt_rules_check *c;
        if (npydt_rules_check_new(rules, &c, &err) != NPYDT_OK ||
            npydt_reader_rewind(r, &err) != NPYDT_OK ||
            npydt_rules_check_reader(c, r, &err) != NPYDT_OK)
            die("check", &err);
        double t2 = now_ns();
        violations = npydt_rules_check_violations(c);
        npydt_rules_check_free(c);
        if (i > 0) {
            tr[i - 1] = t1 - t0;
            tc[i - 1] = t2 - t1;
            ratio[i - 1] = (t1 - t0) / (t2 - t1);
        }
    }
    double mr = median(tr, rounds), mc = median(tc, rounds), mratio = median(ratio, rounds);
    printf("  library, %zu bytes in place, median CPU time of %d rounds (%llu violations found):\n", len,
           rounds, (unsigned long long)violations);
    printf("    read-only pass (C)         %8.2f ms  %7.0f MB/s\n", mr / 1e6, len / (mr / 1e3));
    printf("    npydt_rules_check_reader   %8.2f ms  %7.0f MB/s\n", mc / 1e6, len / (mc / 1e3));
    printf("    throughput ratio %.2fx (target >= 0.8x)\n", mratio);
    npydt_rules_free(rules);
    npydt_reader_close(r);
    return 0;
}

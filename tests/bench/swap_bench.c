/* Byteswap and gather speed next to memcpy and plain passes over the same
 * bytes.
 *
 *   cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Iinclude tests/bench/swap_bench.c \
 *      build/libnpydt.a -lz -o build/swap_bench
 *   build/swap_bench [RECORDS] [REPEATS]      (default 10000000 records, 5)
 *
 * The record is the 68-byte mixed big-endian dtype below (datetime, u4,
 * bool, a nested struct of three f8, S7, an i2 subarray, c8). Each figure
 * is the best of REPEATS runs. Baselines:
 *   memcpy      copy of all records to another buffer
 *   rmw         in-place read-modify-write of every 8-byte word
 *   read        read-only pass summing every 8-byte word
 * and the ratios the library aims at: swap in place / rmw and gather /
 * read within 1.25. */
#include "npydt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char descr[] =
    "[('t', '>M8[ns]'), ('id', '>u4'), ('flag', '|b1'), ('pos', [('x', '>f8'), "
    "('y', '>f8'), ('z', '>f8')]), ('name', '|S7'), ('samples', '>i2', (8,)), "
    "('c', '>c8')]";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile uint64_t sink;

static void rmw_pass(unsigned char *p, size_t bytes)
{
    for (size_t i = 0; i + 8 <= bytes; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        v ^= 0x5a5a5a5a5a5a5a5aull;
        memcpy(p + i, &v, 8);
    }
}

static void read_pass(const unsigned char *p, size_t bytes)
{
    uint64_t s = 0;
    for (size_t i = 0; i + 8 <= bytes; i += 8) {
        uint64_t v;
        memcpy(&v, p + i, 8);
        s += v;
    }
    sink = s;
}

static void check(npydt_status st, const npydt_error *err)
{
    if (st != NPYDT_OK) {
        fprintf(stderr, "swap_bench: %s\n", err->message);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
    int reps = argc > 2 ? atoi(argv[2]) : 5;
    npydt_error err;
    npydt_dtype *dt;
    check(npydt_dtype_parse_literal(descr, strlen(descr), NULL, &dt, &err), &err);
    size_t isz = npydt_dtype_itemsize(dt);
    size_t bytes = (size_t)n * isz;
    unsigned char *a = malloc(bytes), *b = malloc(bytes);
    double *g = malloc((size_t)n * sizeof *g);
    if (!a || !b || !g) {
        fprintf(stderr, "swap_bench: out of memory\n");
        return 1;
    }
    uint64_t s = 88172645463325252ull;
    for (size_t i = 0; i < bytes; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        a[i] = (unsigned char)s;
    }
    memset(b, 0, bytes);
    memset(g, 0, (size_t)n * sizeof *g);
    npydt_swap_plan *plan;
    check(npydt_swap_plan_new(dt, NULL, &plan, &err), &err);
    uint64_t xoff;
    const npydt_dtype *x;
    check(npydt_field_lookup(dt, "pos.x", &xoff, &x, &err), &err);

    enum { MEMCPY, RMW, READ, SWAP_INPLACE, SWAP_COPY, GATHER, NTESTS };
    static const char *names[] = {"memcpy", "rmw pass (in place)", "read pass",
                                  "swap in place", "swap into buffer", "gather pos.x"};
    double best[NTESTS];
    for (int t = 0; t < NTESTS; t++)
        best[t] = 1e30;
    for (int r = 0; r < reps; r++) {
        for (int t = 0; t < NTESTS; t++) {
            double t0 = now();
            switch (t) {
            case MEMCPY: memcpy(b, a, bytes); break;
            case RMW: rmw_pass(a, bytes); break;
            case READ: read_pass(a, bytes); break;
            case SWAP_INPLACE: check(npydt_swap(plan, NPYDT_ORDER_SWAP, a, a, n, &err), &err); break;
            case SWAP_COPY: check(npydt_swap(plan, NPYDT_ORDER_LITTLE, a, b, n, &err), &err); break;
            case GATHER:
                check(npydt_gather(a, isz, n, x, xoff, NPYDT_AS_DOUBLE, g, &err), &err);
                break;
            }
            double dtm = now() - t0;
            if (dtm < best[t])
                best[t] = dtm;
        }
    }
    printf("%llu records of %zu bytes (%.0f MB), best of %d\n", (unsigned long long)n, isz,
           bytes / 1e6, reps);
    for (int t = 0; t < NTESTS; t++)
        printf("  %-22s %8.1f ms  %6.2f GB/s\n", names[t], best[t] * 1e3,
               bytes / best[t] / 1e9);
    printf("  swap in place / rmw pass     %.2f\n", best[SWAP_INPLACE] / best[RMW]);
    printf("  swap into buffer / memcpy    %.2f\n", best[SWAP_COPY] / best[MEMCPY]);
    printf("  gather pos.x / read pass     %.2f\n", best[GATHER] / best[READ]);
    npydt_swap_plan_free(plan);
    npydt_dtype_free(dt);
    free(a);
    free(b);
    free(g);
    return 0;
}

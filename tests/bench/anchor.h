/* What the programs dump and load are measured against (csv_anchor.c,
 * jsonl_anchor.c, load_anchor.c) share: the 64 KiB output buffer that
 * goes out with write(2), and the loads of the fields (little-endian, as
 * the files are written). */
#ifndef NPYDT_BENCH_ANCHOR_H
#define NPYDT_BENCH_ANCHOR_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT_SIZE (1 << 16)
#define ROW_MAX 512

static char out[OUT_SIZE];
static size_t out_len;

static void flush_out(void)
{
    for (size_t done = 0; done < out_len;) {
        ssize_t n = write(STDOUT_FILENO, out + done, out_len - done);
        if (n <= 0)
            exit(1);
        done += (size_t)n;
    }
    out_len = 0;
}

static inline int64_t i64(const unsigned char *p) { int64_t v; memcpy(&v, p, 8); return v; }
static inline uint32_t u32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline int16_t i16(const unsigned char *p) { int16_t v; memcpy(&v, p, 2); return v; }
static inline double f64(const unsigned char *p) { double v; memcpy(&v, p, 8); return v; }
static inline float f32(const unsigned char *p) { float v; memcpy(&v, p, 4); return v; }

#endif

/* The floor npydt dump --csv / --tsv is measured against: a writer made
 * for two record layouts only, producing the same bytes as the command
 * for them, with the same number writers (the text stage's) and nothing
 * else: no dtype, no plan, no per-cell dispatch. Records are read from
 * the mapped file, cells formatted straight into a 64 KiB buffer
 * that goes out with write(2).
 *
 *   csv_anchor csv|tsv FILE.npy > out
 *
 * Layouts (by the record size, little-endian, fields named as
 * tests/bench/dump_csv.sh writes them):
 *   56 bytes: t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
 *   24 bytes: x <f8, y <f8, z <f4, w <f4 */
#include "anchor.h"
#include "text/text.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* S bytes as NumPy's str() of them, quoted (CSV) or escaped (TSV). */
static char *put_s(char *o, const unsigned char *b, size_t n, int tsv)
{
    static const char hex[] = "0123456789abcdef";
    while (n > 0 && b[n - 1] == 0)
        n--;
    int quote = 0;
    if (!tsv)
        for (size_t i = 0; i < n; i++)
            quote |= b[i] == ',' || b[i] == '"';
    if (quote)
        *o++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = b[i];
        if (c == '"' && !tsv) {
            *o++ = '"';
            *o++ = '"';
        } else if (c >= 0x20 && c < 0x7f && c != '\\') {
            *o++ = (char)c;
        } else {
            *o++ = '\\';
            if (tsv)
                *o++ = '\\';
            if (c == '\\') {
                *o++ = '\\';
                if (tsv)
                    *o++ = '\\';
            } else {
                *o++ = 'x';
                *o++ = hex[c >> 4];
                *o++ = hex[c & 15];
            }
        }
    }
    if (quote)
        *o++ = '"';
    return o;
}

static char *mixed(char *o, const unsigned char *r, char sep, int tsv)
{
    int64_t t = i64(r);
    if (t == INT64_MIN) {
        memcpy(o, "NaT", 3);
        o += 3;
    } else {
        o += text_decimal_i64(t, o);
    }
    *o++ = sep;
    o += text_decimal_u64(u32(r + 8), o);
    *o++ = sep;
    o += text_float_f64(f64(r + 12), o);
    *o++ = sep;
    o += text_float_f64(f64(r + 20), o);
    *o++ = sep;
    o += text_float_f32(u32(r + 28), o);
    *o++ = sep;
    o += text_float_f32(u32(r + 32), o);
    *o++ = sep;
    o += text_decimal_i64(i64(r + 36), o);
    *o++ = sep;
    o += text_decimal_i64(i16(r + 44), o);
    *o++ = sep;
    return put_s(o, r + 46, 10, tsv);
}

static char *floats(char *o, const unsigned char *r, char sep)
{
    o += text_float_f64(f64(r), o);
    *o++ = sep;
    o += text_float_f64(f64(r + 8), o);
    *o++ = sep;
    o += text_float_f32(u32(r + 16), o);
    *o++ = sep;
    return o + text_float_f32(u32(r + 20), o);
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "csv") != 0 && strcmp(argv[1], "tsv") != 0)) {
        fprintf(stderr, "usage: csv_anchor csv|tsv FILE.npy\n");
        return 2;
    }
    int tsv = argv[1][0] == 't';
    char sep = tsv ? '\t' : ',';
    int fd = open(argv[2], O_RDONLY);
    unsigned char pre[12];
    if (fd < 0 || read(fd, pre, 12) != 12 || memcmp(pre, "\x93NUMPY", 6) != 0) {
        fprintf(stderr, "csv_anchor: cannot read %s\n", argv[2]);
        return 1;
    }
    /* the header: its length after version 1's 10 bytes or 2/3's 12 */
    size_t hlen = pre[6] == 1 ? 10 + (size_t)(pre[8] | pre[9] << 8)
                              : 12 + (size_t)(pre[8] | pre[9] << 8 | pre[10] << 16 |
                                              (size_t)pre[11] << 24);
    char *header = malloc(hlen + 1);
    if (!header || lseek(fd, 0, SEEK_SET) != 0 || read(fd, header, hlen) != (ssize_t)hlen)
        return 1;
    header[hlen] = '\0';
    size_t itemsize = strstr(header + 10, "S10'") ? 56 : 24;
    free(header);
    const char *names = itemsize == 56 ? "t id a b c d e f s" : "x y z w";
    for (const char *n = names; *n; n++)
        out[out_len++] = *n == ' ' ? sep : *n;
    out[out_len++] = '\n';
    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size < hlen)
        return 1;
    size_t size = (size_t)st.st_size;
    const unsigned char *in = size > hlen ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    if (in == MAP_FAILED)
        return 1;
    for (size_t at = hlen; at + itemsize <= size; at += itemsize) {
        if (out_len > OUT_SIZE - ROW_MAX)
            flush_out();
        char *o = out + out_len;
        o = itemsize == 56 ? mixed(o, in + at, sep, tsv) : floats(o, in + at, sep);
        *o++ = '\n';
        out_len = (size_t)(o - out);
    }
    flush_out();
    close(fd);
    return 0;
}

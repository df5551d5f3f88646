/* The floor npydt dump --jsonl is measured against: a writer made for two
 * record layouts only, producing the same bytes as the command for them,
 * with the same number writers (the text stage's shortest round-trip
 * float printer and decimal integers) and nothing else: no dtype, no plan,
 * no per-value dispatch. Records are read from the mapped file, values
 * written straight into a 64 KiB buffer that goes out with write(2).
 *
 *   jsonl_anchor FILE.npy > out
 *
 * Layouts (by the record size, little-endian, fields named as
 * tests/bench/dump_jsonl.sh writes them):
 *   56 bytes: t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
 *   24 bytes: x <f8, y <f8, z <f4, w <f4
 * As the command writes them by default: a datetime as its count (NaT as
 * "NaT"), a float32 as the double it is, a float that is not finite as
 * the string "nan", "inf" or "-inf", S bytes as a JSON string of the code
 * points of its bytes (trailing NULs dropped, 0x80 and above as \u00XX). */
#include "anchor.h"
#include "text/text.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>

/* How a byte goes into a JSON string: 0 as it is, a letter for a short
 * escape (\" \\ \b \f \n \r \t), 'u' for \u00XX. */
static char escape[256];

static void escape_init(void)
{
    for (int c = 0; c < 256; c++)
        escape[c] = c < 0x20 || c >= 0x7f ? 'u' : 0;
    escape['"'] = '"';
    escape['\\'] = '\\';
    escape['\b'] = 'b';
    escape['\f'] = 'f';
    escape['\n'] = 'n';
    escape['\r'] = 'r';
    escape['\t'] = 't';
}

static char *put_s(char *o, const unsigned char *b, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    while (n > 0 && b[n - 1] == 0)
        n--;
    *o++ = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = b[i];
        char e = escape[c];
        if (!e) {
            *o++ = (char)c;
        } else if (e != 'u') {
            *o++ = '\\';
            *o++ = e;
        } else {
            memcpy(o, "\\u00", 4);
            o[4] = hex[c >> 4];
            o[5] = hex[c & 15];
            o += 6;
        }
    }
    *o++ = '"';
    return o;
}

/* A key and its colon, then a double: a number, or a string when it is
 * not finite. */
static char *put_f(char *o, double v)
{
    if (isfinite(v))
        return o + text_float_f64(v, o);
    *o++ = '"';
    o += text_float_f64(v, o);
    *o++ = '"';
    return o;
}

#define KEY(o, k) (memcpy((o), (k), sizeof(k) - 1), (o) + sizeof(k) - 1)

static char *mixed(char *o, const unsigned char *r)
{
    int64_t t = i64(r);
    o = KEY(o, "{\"t\":");
    if (t == INT64_MIN)
        o = KEY(o, "\"NaT\"");
    else
        o += text_decimal_i64(t, o);
    o = KEY(o, ",\"id\":");
    o += text_decimal_u64(u32(r + 8), o);
    o = KEY(o, ",\"a\":");
    o = put_f(o, f64(r + 12));
    o = KEY(o, ",\"b\":");
    o = put_f(o, f64(r + 20));
    o = KEY(o, ",\"c\":");
    o = put_f(o, f32(r + 28));
    o = KEY(o, ",\"d\":");
    o = put_f(o, f32(r + 32));
    o = KEY(o, ",\"e\":");
    o += text_decimal_i64(i64(r + 36), o);
    o = KEY(o, ",\"f\":");
    o += text_decimal_i64(i16(r + 44), o);
    o = KEY(o, ",\"s\":");
    o = put_s(o, r + 46, 10);
    *o++ = '}';
    return o;
}

static char *floats(char *o, const unsigned char *r)
{
    o = KEY(o, "{\"x\":");
    o = put_f(o, f64(r));
    o = KEY(o, ",\"y\":");
    o = put_f(o, f64(r + 8));
    o = KEY(o, ",\"z\":");
    o = put_f(o, f32(r + 16));
    o = KEY(o, ",\"w\":");
    o = put_f(o, f32(r + 20));
    *o++ = '}';
    return o;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: jsonl_anchor FILE.npy\n");
        return 2;
    }
    escape_init();
    int fd = open(argv[1], O_RDONLY);
    unsigned char pre[12];
    if (fd < 0 || read(fd, pre, 12) != 12 || memcmp(pre, "\x93NUMPY", 6) != 0) {
        fprintf(stderr, "jsonl_anchor: cannot read %s\n", argv[1]);
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
        o = itemsize == 56 ? mixed(o, in + at) : floats(o, in + at);
        *o++ = '\n';
        out_len = (size_t)(o - out);
    }
    flush_out();
    close(fd);
    return 0;
}

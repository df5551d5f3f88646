/* The floor npydt load --csv is measured against: a reader made for one
 * record layout, the 56-byte mixed struct tests/bench/load_text.sh writes
 *   t <M8[ns], id <u4, a <f8, b <f8, c <f4, d <f4, e <i8, f <i2, s S10
 * as dump --csv writes it: the whole file read into memory, each row
 * split with memchr (a quoted cell's "" undone where it occurs), integers
 * by a digit loop, floats by the text stage's text_read_double, S cells'
 * \\ and \xNN decoded. Records go out with write(2) in 64 KiB blocks. No
 * dtype, no plan, no checks beyond what the conversion needs.
 *
 *   load_anchor FILE.csv > records */
#include "anchor.h"
#include "text/text.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

static void die(const char *what)
{
    fprintf(stderr, "load_anchor: %s\n", what);
    exit(1);
}

/* The cell at *p up to sep: its text (quoted cells undone into tmp). */
static const char *cell(const char **p, const char *end, char sep, size_t *n, char *tmp)
{
    const char *s = *p;
    if (*s != '"') {
        const char *e = memchr(s, sep, (size_t)(end - s));
        if (!e)
            die("short row");
        *n = (size_t)(e - s);
        *p = e + 1;
        return s;
    }
    size_t k = 0;
    for (s++;;) {
        const char *q = memchr(s, '"', (size_t)(end - s));
        if (!q)
            die("open quote");
        memcpy(tmp + k, s, (size_t)(q - s));
        k += (size_t)(q - s);
        if (q[1] != '"') {
            *p = q + 2;
            *n = k;
            return tmp;
        }
        tmp[k++] = '"';
        s = q + 2;
    }
}

static int64_t integer(const char *s, size_t n)
{
    int neg = *s == '-';
    uint64_t m = 0;
    for (size_t i = (size_t)neg; i < n; i++)
        m = m * 10 + (unsigned)(s[i] - '0');
    return neg ? -(int64_t)m : (int64_t)m;
}

static double real(const char *s, size_t n)
{
    double d;
    if (!text_read_double(s, n, &d))
        die("number");
    return d;
}

static int hexval(char c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

int main(int argc, char **argv)
{
    if (argc != 2)
        die("usage: load_anchor FILE.csv");
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        die("cannot open");
    char *buf = malloc((size_t)st.st_size + 1);
    size_t have = 0;
    while (buf && have < (size_t)st.st_size) {
        ssize_t got = read(fd, buf + have, (size_t)st.st_size - have);
        if (got <= 0)
            die("read");
        have += (size_t)got;
    }
    if (!buf)
        die("memory");
    close(fd);
    const char *p = memchr(buf, '\n', have), *end = buf + have;
    if (!p)
        die("no header");
    char tmp[256];
    for (p++; p < end;) {
        unsigned char *r = (unsigned char *)out + out_len;
        memset(r, 0, 56);
        size_t n;
        const char *s = cell(&p, end, ',', &n, tmp);
        text_store64(r, TEXT_HOST_BIG, (uint64_t)integer(s, n));
        s = cell(&p, end, ',', &n, tmp);
        text_store32(r + 8, TEXT_HOST_BIG, (uint32_t)integer(s, n));
        s = cell(&p, end, ',', &n, tmp);
        text_store64(r + 12, TEXT_HOST_BIG, text_bits_of_f64(real(s, n)));
        s = cell(&p, end, ',', &n, tmp);
        text_store64(r + 20, TEXT_HOST_BIG, text_bits_of_f64(real(s, n)));
        s = cell(&p, end, ',', &n, tmp);
        text_store32(r + 28, TEXT_HOST_BIG, text_bits_of_f32((float)real(s, n)));
        s = cell(&p, end, ',', &n, tmp);
        text_store32(r + 32, TEXT_HOST_BIG, text_bits_of_f32((float)real(s, n)));
        s = cell(&p, end, ',', &n, tmp);
        text_store64(r + 36, TEXT_HOST_BIG, (uint64_t)integer(s, n));
        s = cell(&p, end, ',', &n, tmp);
        text_store16(r + 44, TEXT_HOST_BIG, (uint16_t)integer(s, n));
        s = cell(&p, end, '\n', &n, tmp);
        for (size_t i = 0, k = 0; i < n && k < 10; k++) {
            if (s[i] != '\\') {
                r[46 + k] = (unsigned char)s[i++];
            } else if (s[i + 1] == 'x') {
                r[46 + k] = (unsigned char)(hexval(s[i + 2]) << 4 | hexval(s[i + 3]));
                i += 4;
            } else {
                r[46 + k] = (unsigned char)s[i + 1];   /* \\ */
                i += 2;
            }
        }
        out_len += 56;
        if (out_len + 56 > OUT_SIZE)
            flush_out();
    }
    flush_out();
    free(buf);
    return 0;
}

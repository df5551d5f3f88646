/* Doubles as JSON numbers written the way Python's repr() writes floats:
 * the shortest digits that read back to the same double. printf and
 * strtod run in the "C" locale (the command never calls setlocale). */
#include "cli.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

/* Significant digits and the decimal exponent of the first one. */
struct decimal {
    char d[24];
    int n;
    int exp10;
};

/* Parse printf's "%.*e" of a positive number. */
static void parse_e(const char *buf, struct decimal *dec)
{
    dec->n = 0;
    dec->d[dec->n++] = *buf++;
    if (*buf == '.')
        for (buf++; *buf >= '0' && *buf <= '9'; buf++)
            dec->d[dec->n++] = *buf;
    dec->exp10 = atoi(buf + 1);   /* buf is at 'e' */
}

static void print_e(double v, int digits, struct decimal *dec)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
    parse_e(buf, dec);
}

static int reads_back(const struct decimal *dec, double v)
{
    char buf[48];
    memcpy(buf, dec->d, (size_t)dec->n);
    snprintf(buf + dec->n, sizeof buf - (size_t)dec->n, "e%d", dec->exp10 - (dec->n - 1));
    return strtod(buf, NULL) == v;
}

/* Round the 17 digits of src to k digits. The result is that of rounding
 * the double itself unless the cut-off digits are exactly half a unit
 * (then src may have been rounded up or down to it): -1 then. */
static int round_digits(const struct decimal *src, int k, struct decimal *out)
{
    int tail_half = src->d[k] == '5';
    for (int i = k + 1; i < src->n && tail_half; i++)
        tail_half = src->d[i] == '0';
    if (tail_half)
        return -1;
    *out = *src;
    out->n = k;
    if (src->d[k] < '5')
        return 0;
    int i = k - 1;
    while (i >= 0 && out->d[i] == '9')
        out->d[i--] = '0';
    if (i >= 0) {
        out->d[i]++;
    } else {
        out->d[0] = '1';   /* 99..9 became 100..0 */
        out->exp10++;
    }
    return 0;
}

/* One unit more in the last of k digits. */
static void next_up(struct decimal *dec)
{
    int i = dec->n - 1;
    while (i >= 0 && dec->d[i] == '9')
        dec->d[i--] = '0';
    if (i >= 0) {
        dec->d[i]++;
    } else {
        dec->d[0] = '1';
        dec->exp10++;
    }
}

/* The shortest digits that read back to v > 0, the closest to v among
 * them, as David Gay's dtoa (and so Python's repr) chooses them. For a
 * normal double, when k <= 15 digits read back, the 15-digit rounding is
 * those digits padded with zeros (half an ulp is below a unit of the 15th
 * digit), so 15, 16 and 17 digits are all that need trying. */
static void shortest_digits(double v, struct decimal *dec)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (((bits >> 52) & 0x7ff) == 0) {
        /* subnormal: fewer significant bits, any length may win */
        for (int k = 1; k <= 17; k++) {
            print_e(v, k, dec);
            if (reads_back(dec, v))
                return;
        }
        return;
    }
    struct decimal d17, cand;
    print_e(v, 17, &d17);
    for (int k = 15; k <= 16; k++) {
        if (round_digits(&d17, k, &cand) != 0)
            print_e(v, k, &cand);
        if (reads_back(&cand, v)) {
            *dec = cand;
            return;
        }
        /* at a power of two the gap above is twice the one below: the next
         * k-digit number up may read back when the nearest (below) does not */
        if (k == 16 && (bits & ((UINT64_C(1) << 52) - 1)) == 0) {
            next_up(&cand);
            if (reads_back(&cand, v)) {
                *dec = cand;
                return;
            }
        }
    }
    *dec = d17;
}

/* A finite double as Python's repr(): shortest round-trip digits, fixed
 * notation for decimal exponents -4..15, else d.ddde+XX. */
static void format_double(double v, char *out, size_t size)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    if (v == 0) {
        snprintf(out, size, "%s", bits >> 63 ? "-0.0" : "0.0");
        return;
    }
    int neg = v < 0;
    struct decimal dec;
    shortest_digits(neg ? -v : v, &dec);
    char *digits = dec.d;
    int nd = dec.n;
    int exp10 = dec.exp10;
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    char res[48];
    size_t o = 0;
    if (neg)
        res[o++] = '-';
    int decpt = exp10 + 1;
    if (exp10 >= -4 && exp10 < 16) {
        if (decpt <= 0) {
            res[o++] = '0';
            res[o++] = '.';
            for (int i = 0; i < -decpt; i++)
                res[o++] = '0';
            for (int i = 0; i < nd; i++)
                res[o++] = digits[i];
        } else if (decpt < nd) {
            for (int i = 0; i < nd; i++) {
                if (i == decpt)
                    res[o++] = '.';
                res[o++] = digits[i];
            }
        } else {
            for (int i = 0; i < nd; i++)
                res[o++] = digits[i];
            for (int i = nd; i < decpt; i++)
                res[o++] = '0';
            res[o++] = '.';
            res[o++] = '0';
        }
        res[o] = '\0';
    } else {
        res[o++] = digits[0];
        if (nd > 1) {
            res[o++] = '.';
            for (int i = 1; i < nd; i++)
                res[o++] = digits[i];
        }
        snprintf(res + o, sizeof res - o, "e%c%02d", exp10 < 0 ? '-' : '+',
                 exp10 < 0 ? -exp10 : exp10);
    }
    snprintf(out, size, "%s", res);
}

void json_double(FILE *out, double v)
{
    if (v != v) {
        fputs("\"nan\"", out);
    } else if (isinf(v)) {   /* not a comparison: x87 would make it in long double */
        fputs(v > 0 ? "\"inf\"" : "\"-inf\"", out);
    } else {
        char buf[48];
        format_double(v, buf, sizeof buf);
        fputs(buf, out);
    }
}

/* Reads one write per line and prints the bytes npydt stores, in hex, or
 * "ERROR <status name>". tests/check_write.sh feeds it values and compares
 * with what NumPy stores. A line is a type string, a writer letter and
 * its value:
 *   <f4 d 3ff8000000000000        npydt_write_double, the double's bits
 *   <c8 c BITS BITS               npydt_write_complex
 *   <i2 i -5 / <u8 u 18446744073709551615 / |b1 b 1
 *   |S5 s 616263                  npydt_write_bytes (hex; "-" for none)
 *   <U3 t c3a9                    npydt_write_unicode (UTF-8 in hex)
 *   <M8[s] T COUNT UNIT MULT      npydt_write_datetime (unit name or generic) */
#include "npydt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Hex digits to bytes; returns the count or -1. "-" is empty. */
static long unhex(const char *s, unsigned char *out, size_t cap)
{
    if (strcmp(s, "-") == 0)
        return 0;
    size_t n = strlen(s);
    if (n % 2 || n / 2 > cap)
        return -1;
    for (size_t i = 0; i < n / 2; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        out[i] = (unsigned char)v;
    }
    return (long)(n / 2);
}

static double bits_double(const char *s)
{
    uint64_t b = strtoull(s, NULL, 16);
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static npydt_unit unit_of(const char *s)
{
    if (strcmp(s, "generic") == 0)
        return NPYDT_UNIT_GENERIC;
    for (int u = NPYDT_UNIT_Y; u <= NPYDT_UNIT_as; u++)
        if (strcmp(s, npydt_unit_name((npydt_unit)u)) == 0)
            return (npydt_unit)u;
    return NPYDT_UNIT_NONE;
}

static npydt_status write_one(const npydt_dtype *dt, unsigned char *p, char *w, npydt_error *err)
{
    static unsigned char data[4096];
    char *a = strtok(NULL, " "), *b = strtok(NULL, " "), *c = strtok(NULL, " ");
    if (!a)
        return NPYDT_E_ARG;
    switch (w[0]) {
    case 'i': return npydt_write_i64(dt, p, strtoll(a, NULL, 10), err);
    case 'u': return npydt_write_u64(dt, p, strtoull(a, NULL, 10), err);
    case 'b': return npydt_write_bool(dt, p, atoi(a), err);
    case 'd': return npydt_write_double(dt, p, bits_double(a), err);
    case 'c': {
        if (!b)
            return NPYDT_E_ARG;
        double v[2] = {bits_double(a), bits_double(b)};
        return npydt_write_complex(dt, p, v, err);
    }
    case 's': case 't': {
        long n = unhex(a, data, sizeof data);
        if (n < 0)
            return NPYDT_E_ARG;
        return w[0] == 's' ? npydt_write_bytes(dt, p, data, (size_t)n, err)
                           : npydt_write_unicode(dt, p, (const char *)data, (size_t)n, err);
    }
    case 'T': {
        if (!b || !c)
            return NPYDT_E_ARG;
        npydt_datetime v = {strtoll(a, NULL, 10), unit_of(b), (int32_t)atol(c), 0};
        return npydt_write_datetime(dt, p, &v, err);
    }
    default:
        return NPYDT_E_ARG;
    }
}

int main(void)
{
    static unsigned char field[1 << 16];
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        if (n > 0 && line[n - 1] == '\n')
            line[--n] = '\0';
        char *type = strtok(line, " "), *w = strtok(NULL, " ");
        npydt_dtype *dt;
        npydt_error err;
        if (!type || !w ||
            npydt_dtype_parse_typestr(type, strlen(type), NULL, &dt, &err) != NPYDT_OK) {
            printf("ERROR bad line\n");
            continue;
        }
        size_t size = npydt_dtype_itemsize(dt);
        npydt_status st = size <= sizeof field ? write_one(dt, field, w, &err) : NPYDT_E_ARG;
        if (st != NPYDT_OK) {
            printf("ERROR %s\n", npydt_status_name(st));
        } else {
            for (size_t i = 0; i < size; i++)
                printf("%02x", field[i]);
            printf("\n");
        }
        npydt_dtype_free(dt);
    }
    free(line);
    return 0;
}

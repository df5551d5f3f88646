/* Parses each file named on the command line once with npydt_parse_buffer
 * and prints "FILE: STATUS". Used by tests/check_linear.sh, which counts
 * the instructions of npydt_parse_buffer under callgrind. */
#include "npydt.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "%s: cannot open\n", argv[i]);
            return 2;
        }
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
        if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            return 2;
        }
        fclose(f);
        npydt_header *h = NULL;
        npydt_error err;
        npydt_status st = npydt_parse_buffer(buf, (size_t)n, NULL, &h, &err);
        printf("%s: %s\n", argv[i], npydt_status_name(st));
        npydt_header_free(h);
        free(buf);
    }
    return 0;
}

/* Reads one type string (or, with -l, one descriptor literal) per line
 * and prints the canonical descriptor npydt makes of it, or "ERROR <code>".
 * tests/check_typestr.sh feeds it strings and compares with np.dtype(). */
#include "npydt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int literal = argc > 1 && strcmp(argv[1], "-l") == 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        if (n > 0 && line[n - 1] == '\n')
            line[--n] = '\0';
        npydt_dtype *dt;
        npydt_error err;
        npydt_status st = literal ? npydt_header_parse_descr(line, (size_t)n, NULL, &dt, &err)
                                  : npydt_dtype_parse_typestr(line, (size_t)n, NULL, &dt, &err);
        if (st != NPYDT_OK) {
            printf("ERROR %s\n", npydt_status_name(st));
            continue;
        }
        size_t need = npydt_dtype_descr(dt, NULL, 0);
        char *buf = malloc(need + 1);
        if (!buf)
            return 2;
        npydt_dtype_descr(dt, buf, need + 1);
        printf("%s\n", buf);
        free(buf);
        npydt_dtype_free(dt);
    }
    free(line);
    return 0;
}

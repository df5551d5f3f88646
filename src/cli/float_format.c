/* Floats as the command writes them: the shortest digits that read back
 * to the same value (float_shortest.c), laid out as Python's repr() does.
 * No printf, no strtod, no locale. */
#include "cli.h"
#include "float_shortest.h"

#include <math.h>

void json_double(FILE *out, double v)
{
    char buf[FLOAT_TEXT_MAX];
    size_t n = float_text_f64(v, buf);
    if (isnan(v) || isinf(v)) {
        /* JSON has no number for them: the strings "nan", "inf", "-inf" */
        putc('"', out);
        fwrite(buf, 1, n, out);
        putc('"', out);
    } else {
        fwrite(buf, 1, n, out);
    }
}

/* One scalar element converted straight from its text into the record's
 * bytes: the step JSON Lines' plan and CSV's columns share. A step is
 * chosen once from the element's kind, size and byte order; a value then
 * goes into its bytes with no load_value, no typed writer and no second
 * look at its text. A step takes only what the general path
 * (load_put) reads to the same bytes: integers in range (as
 * text_read_integer reads them), numbers text_read_double converts, floats in range, bytes that fit; for
 * anything else it answers 0, and the general path reads the value and
 * gives the result or the error. */
#include "cli/load/load.h"

#include <string.h>

int load_step_of(const npydt_dtype *dt, uint64_t offset, struct load_step *s)
{
    char kind = npydt_dtype_kind(dt), bo = npydt_dtype_byteorder(dt);
    uint64_t size = npydt_dtype_itemsize(dt);
    int integer_size = size == 1 || size == 2 || size == 4 || size == 8;
    int op = LOAD_OP_NONE;
    switch (kind) {
    case 'b': op = size == 1 ? LOAD_OP_BOOL : LOAD_OP_NONE; break;
    case 'i': case 'M': case 'm': op = integer_size ? LOAD_OP_INT : LOAD_OP_NONE; break;
    case 'u': op = integer_size ? LOAD_OP_UINT : LOAD_OP_NONE; break;
    case 'f': op = size == 4 ? LOAD_OP_F4 : size == 8 ? LOAD_OP_F8 : LOAD_OP_NONE; break;
    case 'c': op = size == 8 ? LOAD_OP_C8 : size == 16 ? LOAD_OP_C16 : LOAD_OP_NONE; break;
    case 'S': op = size ? LOAD_OP_BYTES : LOAD_OP_NONE; break;
    }
    if (op != LOAD_OP_BYTES && size > 1 && bo != '<' && bo != '>')
        op = LOAD_OP_NONE;
    *s = (struct load_step){.op = (unsigned char)op,
                            .size = (unsigned char)(kind == 'c' ? size / 2 : size <= 8 ? size : 0),
                            .swap = (bo == '>') != TEXT_HOST_BIG,
                            .n = (size_t)size,
                            .offset = (size_t)offset};
    return op != LOAD_OP_NONE;
}

int load_step_text(const struct load_step *s, const char *t, size_t n, unsigned char *rec)
{
    uint64_t mag;
    bool neg;
    double d;
    switch (s->op) {
    case LOAD_OP_INT:
    case LOAD_OP_UINT:
        return n && text_read_integer(t, n, &mag, &neg) == n &&
               load_step_integer(s, mag, neg, rec);
    case LOAD_OP_F4:
    case LOAD_OP_F8:
        return text_read_double(t, n, &d) && load_step_float(s, 0, d, rec);
    case LOAD_OP_BOOL:
        if ((n == 4 && (memcmp(t, "True", 4) == 0 || memcmp(t, "true", 4) == 0)) ||
            (n == 5 && (memcmp(t, "False", 5) == 0 || memcmp(t, "false", 5) == 0))) {
            rec[s->offset] = n == 4;
            return 1;
        }
        return 0;
    case LOAD_OP_BYTES:
        if (n > s->n)
            return 0;
        memcpy(rec + s->offset, t, n);   /* the rest stays zero */
        return 1;
    }
    return 0;
}

/* Python's spelling of a shape tuple, for every message and table that
 * shows one: "()", "(3,)", "(2, 3)". */
#include "text/text.h"


/* the dimensions u, or s when u is NULL */
static void tuple(struct text_buf *b, const uint64_t *u, const int64_t *s, size_t ndim)
{
    text_buf_putc(b, '(');
    for (size_t i = 0; i < ndim; i++) {
        char num[24];
        size_t n = u ? text_decimal_u64(u[i], num) : text_decimal_i64(s[i], num);
        if (i)
            text_buf_write(b, ", ", 2);
        text_buf_write(b, num, n);
    }
    if (ndim == 1)
        text_buf_putc(b, ',');   /* a one-element tuple */
    text_buf_putc(b, ')');
}

void text_shape_tuple(struct text_buf *b, const uint64_t *dims, size_t ndim)
{
    tuple(b, dims, NULL, ndim);
}

void text_shape_tuple_signed(struct text_buf *b, const int64_t *dims, size_t ndim)
{
    tuple(b, NULL, dims, ndim);
}

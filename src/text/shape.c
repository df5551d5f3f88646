/* Python's spelling of a shape tuple, for every message and table that
 * shows one: "()", "(3,)", "(2, 3)", and the reading of it back. */
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

/* A dimension at s[*at..len): digits, no leading zero, at most UINT64_MAX. */
static bool dimension(const char *s, size_t len, size_t *at, uint64_t *out)
{
    size_t i = *at;
    uint64_t v = 0;
    if (i >= len || s[i] < '0' || s[i] > '9' || (s[i] == '0' && i + 1 < len && s[i + 1] >= '0' &&
                                                 s[i + 1] <= '9'))
        return false;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *at = i;
    *out = v;
    return true;
}

bool text_shape_read(const char *s, size_t len, uint64_t *dims, size_t max, size_t *ndim)
{
    size_t at = 1, n = 0;
    if (len < 2 || s[0] != '(' || s[len - 1] != ')')
        return false;
    len--;   /* the dimensions end before the ')' */
    while (at < len) {
        if (n == max || !dimension(s, len, &at, &dims[n]))
            return false;
        n++;
        if (at == len)
            break;
        if (s[at] != ',')
            return false;
        at++;
        if (at == len && n == 1)
            break;   /* "(3,)" */
        if (at + 1 >= len || s[at] != ' ')
            return false;
        at++;
    }
    /* one dimension needs its comma, several have none at the end */
    if ((n == 1) != (len > 1 && s[len - 1] == ','))
        return false;
    *ndim = n;
    return true;
}

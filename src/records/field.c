/* Field lookup by path: "pos.x", titles, "samples[2]", "grid[1][0]". */
#include "records/records.h"

#include <stdio.h>

/* Error naming the whole path (a NUL in it spelled \x00), with the part
 * that was understood. */
static npydt_status field_error(npydt_error *err, const char *path, size_t len, size_t upto,
                                const char *fmt, const char *detail)
{
    char msg[200], shown[256], done[104];
    snprintf(msg, sizeof msg, fmt, detail);
    name_for_message(shown, sizeof shown, path, len);
    if (upto == 0)
        return set_error(err, NPYDT_E_NOT_FOUND, NPYDT_NO_OFFSET, shown, "%s", msg);
    name_for_message(done, sizeof done, path, upto > 100 ? 100 : upto);
    return set_error(err, NPYDT_E_NOT_FOUND, NPYDT_NO_OFFSET, shown, "%s (after '%s')", msg, done);
}

/* Byte i of the path, or -1 past its end (a NUL is a byte like others). */
static int peek(const char *path, size_t len, size_t i)
{
    return i < len ? (unsigned char)path[i] : -1;
}

/* The field of a struct whose name or title is the longest prefix of
 * s[0..len) that ends at the end, '.' or '['. */
static const struct npydt_field *match_field(const npydt_dtype *dt, const char *s, size_t len,
                                             size_t *used)
{
    const struct npydt_field *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < dt->nfields; i++) {
        const struct npydt_field *f = &dt->fields[i];
        const char *names[2] = {f->name, f->title};
        size_t lens[2] = {f->name_len, f->title_len};
        for (int k = 0; k < 2; k++) {
            size_t n = lens[k];
            if (!names[k] || (best && n <= best_len) || n > len ||
                (n && memcmp(s, names[k], n) != 0))
                continue;
            int next = peek(s, len, n);
            if (next == -1 || next == '.' || next == '[') {
                best = f;
                best_len = n;
            }
        }
    }
    *used = best_len;
    return best;
}

npydt_status npydt_field_lookup(const npydt_dtype *dt, const char *path, uint64_t *offset,
                                const npydt_dtype **field, npydt_error *err)
{
    error_clear(err);
    return npydt_field_lookup_len(dt, path, path ? strlen(path) : 0, offset, field, err);
}

npydt_status npydt_field_lookup_len(const npydt_dtype *dt, const char *path, size_t len,
                                    uint64_t *offset, const npydt_dtype **field,
                                    npydt_error *err)
{
    error_clear(err);
    if (!dt || !path || !offset || !field)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    uint64_t off = 0;
    const npydt_dtype *cur = dt;
    size_t i = 0;
    bool after_part = false;   /* a name or an index was just read */
#define AT(k) peek(path, len, (k))
    while (i < len) {
        if (AT(i) == '[') {
            /* one index per dimension, as [1][0] or [1,0]; nested
             * subarrays take further indices */
            size_t have = 0;        /* indices given for cur's dimensions */
            uint64_t flat = 0;
            while (AT(i) == '[') {
                i++;
                for (;;) {
                    if (cur->cls != NPYDT_SUBARRAY)
                        return field_error(err, path, len, i - 1, "%s is not a subarray",
                                           i > 1 ? "the field" : "the dtype");
                    if (AT(i) < '0' || AT(i) > '9')
                        return field_error(err, path, len, i, "expected an index%s", "");
                    uint64_t idx = 0;
                    while (AT(i) >= '0' && AT(i) <= '9') {
                        if (!ck_mul(idx, 10, &idx) || !ck_add(idx, (uint64_t)(AT(i) - '0'), &idx))
                            return field_error(err, path, len, i, "index too large%s", "");
                        i++;
                    }
                    if (idx >= cur->shape[have]) {
                        char d[64];
                        snprintf(d, sizeof d, "%llu is out of range for a dimension of %llu",
                                 (unsigned long long)idx, (unsigned long long)cur->shape[have]);
                        return field_error(err, path, len, i, "index %s", d);
                    }
                    flat = flat * cur->shape[have] + idx;
                    if (++have == cur->ndim) {
                        off += flat * cur->base->itemsize;
                        cur = cur->base;
                        have = 0;
                        flat = 0;
                    }
                    if (AT(i) == ',') {
                        i++;
                        while (AT(i) == ' ')
                            i++;
                        continue;
                    }
                    if (AT(i) == ']')
                        break;
                    return field_error(err, path, len, i, "expected ',' or ']'%s", "");
                }
                i++;
            }
            if (have != 0) {
                char d[64];
                snprintf(d, sizeof d, "%zu dimensions but %zu indices were given",
                         cur->ndim, have);
                return field_error(err, path, len, i, "the subarray has %s", d);
            }
            after_part = true;
            continue;
        }
        if (after_part) {
            if (AT(i) != '.')
                return field_error(err, path, len, i, "expected '.' or '['%s", "");
            i++;
        }
        if (cur->cls != NPYDT_STRUCT)
            return field_error(err, path, len, i ? i - 1 : 0, "%s is not a struct",
                               i ? "the field" : "the dtype");
        size_t used;
        const struct npydt_field *f = match_field(cur, path + i, len - i, &used);
        if (!f) {
            size_t n = 0;
            while (i + n < len && path[i + n] != '.' && path[i + n] != '[')
                n++;
            char name[104], quoted[120];
            name_for_message(name, sizeof name, path + i, n > 100 ? 100 : n);
            snprintf(quoted, sizeof quoted, "'%s'", name);
            return field_error(err, path, len, i ? i - 1 : 0, "no field %s", quoted);
        }
        off += f->offset;
        cur = f->dtype;
        i += used;
        after_part = true;
    }
#undef AT
    *offset = off;
    *field = cur;
    return NPYDT_OK;
}

npydt_status field_lookup_scalar(const npydt_dtype *dt, const char *path, uint64_t *offset,
                                 const npydt_dtype **field, npydt_error *err)
{
    if (!path)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "path is NULL");
    npydt_status st = npydt_field_lookup(dt, path, offset, field, err);
    if (st != NPYDT_OK)
        return st;
    npydt_dtype_class cls = npydt_dtype_get_class(*field);
    if (cls != NPYDT_SCALAR)
        return set_error(err, NPYDT_E_VALUE, NPYDT_NO_OFFSET, path,
                         "%s is a %s: name one of its scalars", *path ? path : "the element",
                         cls == NPYDT_STRUCT ? "struct" : "subarray");
    return NPYDT_OK;
}

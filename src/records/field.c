/* Field lookup by path: "pos.x", titles, "samples[2]", "grid[1][0]". */
#include "records/records.h"

#include <stdio.h>

/* Error naming the whole path, with the part that was understood. */
static npydt_status field_error(npydt_error *err, const char *path, size_t upto,
                                const char *fmt, const char *detail)
{
    char msg[200];
    snprintf(msg, sizeof msg, fmt, detail);
    if (upto == 0)
        return set_error(err, NPYDT_E_FIELD, NPYDT_NO_OFFSET, path, "%s", msg);
    return set_error(err, NPYDT_E_FIELD, NPYDT_NO_OFFSET, path, "%s (after '%.*s')", msg,
                     (int)(upto > 100 ? 100 : upto), path);
}

/* The field of a struct whose name or title is the longest prefix of s
 * that ends at '\0', '.' or '['. */
static const struct npydt_field *match_field(const npydt_dtype *dt, const char *s, size_t *used)
{
    const struct npydt_field *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < dt->nfields; i++) {
        const struct npydt_field *f = &dt->fields[i];
        const char *names[2] = {f->name, f->title};
        for (int k = 0; k < 2; k++) {
            if (!names[k])
                continue;
            size_t n = strlen(names[k]);
            if ((best && n <= best_len) || strncmp(s, names[k], n) != 0)
                continue;
            char next = s[n];
            if (next == '\0' || next == '.' || next == '[') {
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
    if (!dt || !path || !offset || !field)
        return set_error(err, NPYDT_E_ARG, NPYDT_NO_OFFSET, NULL, "argument is NULL");
    uint64_t off = 0;
    const npydt_dtype *cur = dt;
    size_t i = 0;
    bool after_part = false;   /* a name or an index was just read */
    while (path[i]) {
        if (path[i] == '[') {
            /* one index per dimension, as [1][0] or [1,0]; nested
             * subarrays take further indices */
            size_t have = 0;        /* indices given for cur's dimensions */
            uint64_t flat = 0;
            while (path[i] == '[') {
                i++;
                for (;;) {
                    if (cur->cls != NPYDT_SUBARRAY)
                        return field_error(err, path, i - 1, "%s is not a subarray",
                                           i > 1 ? "the field" : "the dtype");
                    if (path[i] < '0' || path[i] > '9')
                        return field_error(err, path, i, "expected an index%s", "");
                    uint64_t idx = 0;
                    while (path[i] >= '0' && path[i] <= '9') {
                        if (!ck_mul(idx, 10, &idx) || !ck_add(idx, (uint64_t)(path[i] - '0'), &idx))
                            return field_error(err, path, i, "index too large%s", "");
                        i++;
                    }
                    if (idx >= cur->shape[have]) {
                        char d[64];
                        snprintf(d, sizeof d, "%llu is out of range for a dimension of %llu",
                                 (unsigned long long)idx, (unsigned long long)cur->shape[have]);
                        return field_error(err, path, i, "index %s", d);
                    }
                    flat = flat * cur->shape[have] + idx;
                    if (++have == cur->ndim) {
                        off += flat * cur->base->itemsize;
                        cur = cur->base;
                        have = 0;
                        flat = 0;
                    }
                    if (path[i] == ',') {
                        i++;
                        while (path[i] == ' ')
                            i++;
                        continue;
                    }
                    if (path[i] == ']')
                        break;
                    return field_error(err, path, i, "expected ',' or ']'%s", "");
                }
                i++;
            }
            if (have != 0) {
                char d[64];
                snprintf(d, sizeof d, "%zu dimensions but %zu indices were given",
                         cur->ndim, have);
                return field_error(err, path, i, "the subarray has %s", d);
            }
            after_part = true;
            continue;
        }
        if (after_part) {
            if (path[i] != '.')
                return field_error(err, path, i, "expected '.' or '['%s", "");
            i++;
        }
        if (cur->cls != NPYDT_STRUCT)
            return field_error(err, path, i ? i - 1 : 0, "%s is not a struct",
                               i ? "the field" : "the dtype");
        size_t used;
        const struct npydt_field *f = match_field(cur, path + i, &used);
        if (!f) {
            size_t n = strcspn(path + i, ".[");
            char name[120];
            snprintf(name, sizeof name, "'%.*s'", (int)(n > 100 ? 100 : n), path + i);
            return field_error(err, path, i ? i - 1 : 0, "no field %s", name);
        }
        off += f->offset;
        cur = f->dtype;
        i += used;
        after_part = true;
    }
    *offset = off;
    *field = cur;
    return NPYDT_OK;
}

/* The record filled from one line or row of input. Every scalar element
 * (a field, or one element of a subarray field) is a slot; a value marks
 * its slot, so that a value given twice and a field left out are both
 * found, whatever order or spelling (nested objects, "pos.x" paths,
 * "samples[2]") the input used. */
#include "cli/load/load.h"
#include "cli/common/args.h"
#include "cli/common/limits.h"
#include "cli/common/report.h"

#include <stdlib.h>
#include <string.h>

/* The scalar elements of a record of dt, counted before anything is
 * allocated; MORE when there are more than CLI_MAX_RECORD_SCALARS (a
 * record of a billion empty strings would otherwise take the memory for
 * its slots). */
#define MORE ((uint64_t)CLI_MAX_RECORD_SCALARS + 1)

static uint64_t count_scalars(const npydt_dtype *dt)
{
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR:
        return 1;
    case NPYDT_STRUCT: {
        uint64_t n = 0;
        for (size_t i = 0; i < npydt_dtype_nfields(dt) && n < MORE; i++)
            n += count_scalars(npydt_dtype_field_dtype(dt, i));   /* each at most MORE */
        return n < MORE ? n : MORE;
    }
    default: {   /* NPYDT_SUBARRAY */
        uint64_t n = count_scalars(npydt_dtype_base(dt));
        for (size_t k = 0; k < npydt_dtype_ndim(dt); k++) {
            uint64_t d = npydt_dtype_shape(dt)[k];
            n = d && n > MORE / d ? MORE : n * d;
        }
        return n;
    }
    }
}

/* Store the slots of dt's scalar elements at slots + *n, in offset order
 * (find_slot's binary search needs it): a descriptor places each field
 * after the one before it. count_scalars(dt) of them, checked. */
static void add_slots(struct load_slot *slots, size_t *n, const npydt_dtype *dt, uint64_t off)
{
    switch (npydt_dtype_get_class(dt)) {
    case NPYDT_SCALAR:
        slots[(*n)++] = (struct load_slot){off, dt};
        return;
    case NPYDT_STRUCT:
        for (size_t i = 0; i < npydt_dtype_nfields(dt); i++)
            add_slots(slots, n, npydt_dtype_field_dtype(dt, i),
                      off + npydt_dtype_field_offset(dt, i));
        return;
    default: {   /* NPYDT_SUBARRAY */
        const npydt_dtype *base = npydt_dtype_base(dt);
        if (count_scalars(base) == 0)
            return;   /* elements without scalars, however many */
        uint64_t elements = 1;   /* at most the record's scalars: checked */
        for (size_t k = 0; k < npydt_dtype_ndim(dt); k++)
            elements *= npydt_dtype_shape(dt)[k];
        for (uint64_t e = 0; e < elements; e++)
            add_slots(slots, n, base, off + e * npydt_dtype_itemsize(base));
        return;
    }
    }
}

npydt_status load_record_init(struct load_record *rec, const npydt_dtype *dt, npydt_error *err)
{
    memset(rec, 0, sizeof *rec);
    if (npydt_dtype_has_object(dt))
        return cli_error(err, NPYDT_E_OBJECT, "object fields cannot be loaded");
    uint64_t count = count_scalars(dt);
    if (count == MORE)
        return cli_error(err, NPYDT_E_LIMIT, "a record of more than %zu scalar elements",
                         CLI_MAX_RECORD_SCALARS);
    rec->dtype = dt;
    rec->itemsize = npydt_dtype_itemsize(dt);
    rec->slots = malloc(count ? (size_t)count * sizeof *rec->slots : 1);
    rec->bytes = calloc(rec->itemsize ? rec->itemsize : 1, 1);
    rec->seen = calloc(count ? (size_t)count : 1, 1);
    if (rec->slots)
        add_slots(rec->slots, &rec->nslots, dt, 0);
    if (!rec->slots || !rec->bytes || !rec->seen) {
        load_record_free(rec);
        return cli_error(err, NPYDT_E_NOMEM, "out of memory");
    }
    return NPYDT_OK;
}

void load_record_free(struct load_record *rec)
{
    free(rec->slots);
    free(rec->bytes);
    free(rec->seen);
    load_names_free(rec->names);
    memset(rec, 0, sizeof *rec);
}

void load_record_clear(struct load_record *rec)
{
    memset(rec->bytes, 0, rec->itemsize);
    if (rec->nseen)
        memset(rec->seen, 0, rec->nslots);
    rec->nseen = 0;
    rec->next_slot = 0;
}

/* ---- paths of elements -------------------------------------------------------- */

static void put_text(npydt_error *err, size_t *len, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *piece = s[i] ? NULL : "\\x00";
        size_t k = piece ? 4 : 1;
        if (*len + k >= sizeof err->path)
            return;
        memcpy(err->path + *len, piece ? piece : s + i, k);
        *len += k;
    }
    err->path[*len] = '\0';
}

void load_record_path(const struct load_record *rec, uint64_t offset, const npydt_dtype *target,
                      npydt_error *err)
{
    const npydt_dtype *dt = rec->dtype;
    size_t len = 0;
    err->path[0] = '\0';
    for (unsigned depth = 0; dt != target && depth < 64; depth++) {
        if (npydt_dtype_get_class(dt) == NPYDT_STRUCT) {
            size_t i, n = npydt_dtype_nfields(dt);
            for (i = 0; i < n; i++) {
                uint64_t fo = npydt_dtype_field_offset(dt, i);
                uint64_t size = npydt_dtype_itemsize(npydt_dtype_field_dtype(dt, i));
                if (offset >= fo && (offset < fo + size || (size == 0 && offset == fo)))
                    break;
            }
            if (i == n)
                return;
            if (len)
                put_text(err, &len, ".", 1);
            put_text(err, &len, npydt_dtype_field_name(dt, i), npydt_dtype_field_name_len(dt, i));
            offset -= npydt_dtype_field_offset(dt, i);
            dt = npydt_dtype_field_dtype(dt, i);
        } else if (npydt_dtype_get_class(dt) == NPYDT_SUBARRAY) {
            const npydt_dtype *base = npydt_dtype_base(dt);
            uint64_t size = npydt_dtype_itemsize(base);
            uint64_t e = size ? offset / size : 0;
            size_t nd = npydt_dtype_ndim(dt);
            char buf[32];
            put_text(err, &len, "[", 1);
            /* the flat position e as one index per dimension */
            uint64_t rest = e, div = 1;
            for (size_t k = 1; k < nd; k++)
                div *= npydt_dtype_shape(dt)[k] ? npydt_dtype_shape(dt)[k] : 1;
            for (size_t k = 0; k < nd; k++) {
                int n = snprintf(buf, sizeof buf, "%s%llu", k ? "," : "",
                                 (unsigned long long)(rest / div));
                put_text(err, &len, buf, (size_t)n);
                rest %= div;
                if (k + 1 < nd)
                    div /= npydt_dtype_shape(dt)[k + 1] ? npydt_dtype_shape(dt)[k + 1] : 1;
            }
            put_text(err, &len, "]", 1);
            offset -= e * size;
            dt = base;
        } else {
            return;
        }
    }
}

npydt_status load_record_lookup(struct load_record *rec, const npydt_dtype *node,
                                uint64_t base_offset, const char *path, size_t len,
                                uint64_t *offset, const npydt_dtype **field, npydt_error *err)
{
    uint64_t off;
    if (npydt_dtype_get_class(node) == NPYDT_STRUCT) {
        /* a whole name (no index can stop a scan of every field for each) */
        if (!rec->names_tried) {
            rec->names_tried = 1;
            rec->names = load_names_new(rec->dtype);   /* NULL: the lookup below */
        }
        size_t k;
        if (rec->names && load_names_find(rec->names, node, path, len, &k)) {
            *offset = base_offset + npydt_dtype_field_offset(node, k);
            *field = npydt_dtype_field_dtype(node, k);
            return NPYDT_OK;
        }
    }
    if (npydt_field_lookup_len(node, path, len, &off, field, err) == NPYDT_OK) {
        *offset = base_offset + off;
        return NPYDT_OK;
    }
    if (err->code != NPYDT_E_NOT_FOUND)
        return err->code;
    char word[256];
    size_t n = len < sizeof word - 1 ? len : sizeof word - 1;
    memcpy(word, path, n);
    word[n] = '\0';
    const char *near = NULL;
    /* the nearest of every field's name (no memory: no suggestion) */
    const char **names = NULL;
    if (npydt_dtype_get_class(node) == NPYDT_STRUCT && strlen(word) == n) {
        size_t nf = npydt_dtype_nfields(node);
        names = calloc(nf ? nf : 1, sizeof *names);
        for (size_t i = 0; names && i < nf; i++)
            names[i] = npydt_dtype_field_name(node, i);
        near = names ? cli_nearest(word, names, nf) : NULL;
    }
    cli_error(err, NPYDT_E_KEY, "unknown field '%.*s'%s%s%s", (int)(len > 100 ? 100 : len), path,
              near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    free(names);
    return NPYDT_E_KEY;
}

/* ---- storing values --------------------------------------------------------- */

/* The slot of the scalar element at offset with node dt; nslots if none. */
static size_t find_slot(const struct load_record *rec, uint64_t offset, const npydt_dtype *dt)
{
    /* values usually come in record order: the slot after the last one */
    size_t next = rec->next_slot;
    if (next < rec->nslots && rec->slots[next].offset == offset && rec->slots[next].dtype == dt)
        return next;
    size_t lo = 0, hi = rec->nslots;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (rec->slots[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < rec->nslots && rec->slots[lo].offset == offset; lo++)
        if (rec->slots[lo].dtype == dt)
            return lo;
    return rec->nslots;
}

/* Mark the slot of (offset, dt) before a value is stored there. */
static npydt_status claim(struct load_record *rec, uint64_t offset, const npydt_dtype *dt,
                          size_t *slot, npydt_error *err)
{
    *slot = find_slot(rec, offset, dt);
    if (*slot == rec->nslots) {
        cli_error(err, NPYDT_E_VALUE, "a single value where the field holds more");
        load_record_path(rec, offset, dt, err);
        return NPYDT_E_VALUE;
    }
    if (rec->seen[*slot]) {
        cli_error(err, NPYDT_E_KEY, "given twice");
        load_record_path(rec, offset, dt, err);
        return NPYDT_E_KEY;
    }
    return NPYDT_OK;
}

static npydt_status stored(struct load_record *rec, size_t slot, uint64_t offset,
                           const npydt_dtype *dt, npydt_status st, npydt_error *err)
{
    if (st != NPYDT_OK) {
        load_record_path(rec, offset, dt, err);
        return st;
    }
    rec->seen[slot] = 1;
    rec->nseen++;
    rec->next_slot = slot + 1;
    return NPYDT_OK;
}

npydt_status load_record_put(struct load_record *rec, uint64_t offset, const npydt_dtype *dt,
                             const struct load_value *v, npydt_error *err)
{
    size_t slot;
    npydt_status st = claim(rec, offset, dt, &slot, err);
    if (st != NPYDT_OK)
        return st;
    st = load_put(dt, rec->bytes + offset, v, err);
    return stored(rec, slot, offset, dt, st, err);
}

npydt_status load_record_put_complex(struct load_record *rec, uint64_t offset,
                                     const npydt_dtype *dt, const struct load_value *re,
                                     const struct load_value *im, npydt_error *err)
{
    size_t slot;
    npydt_status st = claim(rec, offset, dt, &slot, err);
    if (st != NPYDT_OK)
        return st;
    st = load_put_complex(dt, rec->bytes + offset, re, im, err);
    return stored(rec, slot, offset, dt, st, err);
}

npydt_status load_record_complete(const struct load_record *rec, npydt_error *err)
{
    if (rec->nseen == rec->nslots)
        return NPYDT_OK;
    size_t i = 0;
    while (rec->seen[i])   /* fewer seen than slots: one is not */
        i++;
    cli_error(err, NPYDT_E_KEY, "missing field");
    load_record_path(rec, rec->slots[i].offset, rec->slots[i].dtype, err);
    return NPYDT_E_KEY;
}

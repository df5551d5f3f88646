/* np.can_cast(from, to, 'safe') as NumPy 1.24 answers it. The rules were
 * tabulated with NumPy for every pair of kinds and sizes and are checked
 * against it again by tests/check_schema.sh. Byte order never matters to a
 * safe cast. */
#include "schema/cancast.h"

static bool is_numeric(char k)
{
    return k == 'b' || k == 'i' || k == 'u' || k == 'f' || k == 'c';
}

/* Characters a string needs to hold every value of a numeric type, as
 * NumPy sizes the result of a cast to S or U. */
static uint64_t numeric_chars(char kind, uint64_t size)
{
    switch (kind) {
    case 'b': return 5;                                     /* "False" */
    case 'i': return size == 1 ? 4 : size == 2 ? 6 : size == 4 ? 11 : 21;
    case 'u': return size == 1 ? 3 : size == 2 ? 5 : size == 4 ? 10 : 20;
    case 'f': return size == 16 ? 48 : 32;
    case 'c': return size == 32 ? 96 : 64;
    default: return 0;
    }
}

/* Smallest float (and complex) itemsize that holds every value of an
 * integer of the given size: NumPy counts int64 -> float64 as safe. */
static uint64_t int_float_size(uint64_t size)
{
    return size == 1 ? 2 : size == 2 ? 4 : 8;
}

static uint64_t int_complex_size(uint64_t size)
{
    return size <= 2 ? 8 : 16;
}

static bool numeric_safe(char fk, uint64_t fs, char tk, uint64_t ts)
{
    switch (fk) {
    case 'b':
        return true;
    case 'i':
    case 'u':
        if (tk == fk)
            return ts >= fs;
        if (fk == 'u' && tk == 'i')
            return ts > fs;
        if (tk == 'f')
            return ts >= int_float_size(fs);
        if (tk == 'c')
            return ts >= int_complex_size(fs);
        return false;
    case 'f':
        if (tk == 'f')
            return ts >= fs;
        if (tk == 'c')
            return ts >= (2 * fs < 8 ? 8 : 2 * fs);
        return false;
    case 'c':
        return tk == 'c' && ts >= fs;
    default:
        return false;
    }
}

/* ---- datetimes: NumPy's unit and metadata rules ------------------------- */

/* Factor from each unit to the next finer one (weeks to days, ...). */
static const uint32_t unit_step[] = {
    [NPYDT_UNIT_Y] = 1, [NPYDT_UNIT_M] = 1, [NPYDT_UNIT_W] = 7, [NPYDT_UNIT_D] = 24,
    [NPYDT_UNIT_h] = 60, [NPYDT_UNIT_m] = 60, [NPYDT_UNIT_s] = 1000, [NPYDT_UNIT_ms] = 1000,
    [NPYDT_UNIT_us] = 1000, [NPYDT_UNIT_ns] = 1000, [NPYDT_UNIT_ps] = 1000,
    [NPYDT_UNIT_fs] = 1000, [NPYDT_UNIT_as] = 1,
};

#define TOP_BYTE 0xff00000000000000ull

/* How many `little` units make one `big` unit; 0 when that leaves the
 * range NumPy allows (it refuses any factor touching the top byte). */
static uint64_t units_factor(int big, int little)
{
    uint64_t f = 1;
    for (int u = big; u < little; u++) {
        f *= unit_step[u];
        if (f & TOP_BYTE)
            return 0;
    }
    return f;
}

/* datetime_metadata_divides: does the dividend's unit span a whole number
 * of the divisor's? Years and months relate to nothing but each other;
 * `strict` (timedeltas) refuses those pairs, otherwise they pass. All
 * arithmetic wraps as NumPy's unsigned arithmetic does. */
static bool metadata_divides(int b1, uint64_t n1, int b2, uint64_t n2, bool strict)
{
    if (b1 == NPYDT_UNIT_GENERIC)
        return true;
    if (b2 == NPYDT_UNIT_GENERIC)
        return false;
    if (b1 != b2) {
        if (b1 == NPYDT_UNIT_Y) {
            if (b2 != NPYDT_UNIT_M)
                return !strict;
            n1 *= 12;
        } else if (b2 == NPYDT_UNIT_Y) {
            if (b1 != NPYDT_UNIT_M)
                return !strict;
            n2 *= 12;
        } else if (b1 == NPYDT_UNIT_M || b2 == NPYDT_UNIT_M) {
            return !strict;
        }
        if (b1 > b2) {
            n2 *= units_factor(b2, b1);
            if (n2 == 0)
                return false;
        } else {
            n1 *= units_factor(b1, b2);
            if (n1 == 0)
                return false;
        }
    }
    if ((n1 & TOP_BYTE) || (n2 & TOP_BYTE))
        return false;
    if (n2 == 0)            /* a [0s] unit: NumPy divides by zero here */
        return false;
    return n1 % n2 == 0;
}

bool cancast_datetime_equiv(const npydt_dtype *from, const npydt_dtype *to)
{
    int fu = from->unit, tu = to->unit;
    int32_t fn = from->unit_count, tn = to->unit_count;
    if (fu == tu && fn == tn)
        return true;
    /* NumPy's "common metric prefix conversions": [1000ms] is [s], [10**6
     * us] is [s], ... with its integer division, so [2001ms] is [2s] too.
     * Only in this direction: [s] is not [1000ms]. */
    if (tu < NPYDT_UNIT_s || tn <= 0 || fn < 0)
        return false;
    int32_t q = fn / tn;
    return (fu - tu == 1 && q == 1000) || (fu - tu == 2 && q == 1000000) ||
           (fu - tu == 3 && q == 1000000000);
}

static bool datetime_safe(const npydt_dtype *from, const npydt_dtype *to)
{
    int fu = from->unit, tu = to->unit;
    uint64_t fn = (uint64_t)(uint32_t)from->unit_count, tn = (uint64_t)(uint32_t)to->unit_count;
    if (cancast_datetime_equiv(from, to))
        return true;
    if (fu == NPYDT_UNIT_GENERIC || tu == NPYDT_UNIT_GENERIC)
        return fu == NPYDT_UNIT_GENERIC;
    if (fu > tu)
        return false;   /* to a coarser unit */
    bool timedelta = from->kind == 'm';
    if (timedelta && ((fu <= NPYDT_UNIT_M) != (tu <= NPYDT_UNIT_M)))
        return false;   /* between calendar and time units */
    return metadata_divides(fu, fn, tu, tn, timedelta);
}

/* ---- scalars ---------------------------------------------------------------- */

bool cancast_scalar(const npydt_dtype *from, const npydt_dtype *to, bool unsized_is_class)
{
    char fk = from->kind, tk = to->kind;
    uint64_t fs = from->itemsize, ts = to->itemsize;
    if (tk == 'O')
        return true;
    if (fk == 'O')
        return false;
    if (unsized_is_class && dtype_is_unsized_flexible(to)) {
        if (tk == 'V')
            return true;
        if (fk == 'M' || fk == 'm' || fk == 'V')
            return false;
        return tk == 'U' || fk != 'U';
    }
    switch (tk) {
    case 'V':
        return ts >= fs;
    case 'S':
        if (fk == 'S')
            return ts >= fs;
        return is_numeric(fk) && ts >= numeric_chars(fk, fs);
    case 'U':
        if (fk == 'U')
            return ts >= fs;
        if (fk == 'S')
            return ts / 4 >= fs;
        return is_numeric(fk) && ts / 4 >= numeric_chars(fk, fs);
    case 'M':
        return fk == 'M' && datetime_safe(from, to);
    case 'm':
        if (fk == 'm')
            return datetime_safe(from, to);
        return fk == 'b' || fk == 'i' || (fk == 'u' && fs < 8);
    default:
        return is_numeric(fk) && is_numeric(tk) && numeric_safe(fk, fs, tk, ts);
    }
}

/* ---- whole dtypes ------------------------------------------------------------ */

const npydt_dtype *cancast_flat_base(const npydt_dtype *dt)
{
    while (dt->cls == NPYDT_SUBARRAY)
        dt = dt->base;
    return dt;
}

static bool same_dims(const npydt_dtype *a, const npydt_dtype *b)
{
    return a->ndim == b->ndim && memcmp(a->shape, b->shape, a->ndim * sizeof *a->shape) == 0;
}

bool cancast_shapes_fit(const npydt_dtype *from, const npydt_dtype *to, bool safe)
{
    for (; from->cls == NPYDT_SUBARRAY && to->cls == NPYDT_SUBARRAY;
         from = from->base, to = to->base)
        if (!same_dims(from, to))
            return false;
    if (to->cls != NPYDT_SUBARRAY)   /* anything casts safely to an object */
        return from->cls != NPYDT_SUBARRAY || (safe && to->cls == NPYDT_SCALAR && to->kind == 'O');
    return safe && from->cls == NPYDT_SCALAR && from->kind != 'V' && from->kind != 'O';
}

bool cancast_node(const npydt_dtype *from, const npydt_dtype *to, bool top, unsigned depth)
{
    if (depth > NPYDT_DEPTH_CEILING)
        return false;
    if (to->cls == NPYDT_SCALAR && to->kind == 'O')
        return true;
    if (from->cls == NPYDT_SCALAR && from->kind == 'O')
        return false;
    if (top && dtype_is_unsized_flexible(to)) {
        if (to->kind == 'V')
            return true;
        return from->cls == NPYDT_SCALAR && cancast_scalar(from, to, true);
    }
    switch (from->cls) {
    case NPYDT_STRUCT:
        if (to->cls != NPYDT_STRUCT || to->nfields != from->nfields)
            return false;
        for (size_t i = 0; i < from->nfields; i++)
            if (!cancast_node(from->fields[i].dtype, to->fields[i].dtype, false, depth + 1))
                return false;
        return true;
    case NPYDT_SUBARRAY:
        if (to->cls != NPYDT_SUBARRAY || !same_dims(from, to))
            return false;
        return cancast_node(from->base, to->base, false, depth + 1);
    case NPYDT_SCALAR:
        break;
    }
    if (to->cls == NPYDT_SUBARRAY)   /* a scalar broadcasts into a subarray */
        return from->kind != 'V' &&
               cancast_node(from, cancast_flat_base(to), false, depth + 1);
    if (to->cls == NPYDT_STRUCT)
        return false;
    return cancast_scalar(from, to, top);
}

int npydt_can_cast_safe(const npydt_dtype *from, const npydt_dtype *to)
{
    if (!from || !to)
        return 0;
    return cancast_node(from, to, true, 0);
}
